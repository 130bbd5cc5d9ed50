"""Reading YAML text safely: no tags, no code, a bounded number of values (alias bombs refused), errors with
their line (translator/sources/files.py reads files with it; translator/sources/launchers.py its launcher tasks)."""

from __future__ import annotations

from typing import Any

from translator.errors import ConfigError

MAX_YAML_NODES = 1_000_000  # nodes after alias expansion; real configs have hundreds (an "alias bomb" has billions)


def load_yaml(text: str, name: str) -> Any:
    """Parse YAML safely (no tags, no code); broken YAML → ConfigError with the line; alias bombs refused."""
    import yaml  # here: reading a launch script needs no YAML

    if "*" in text and "&" in text:  # no alias without both: a plain file is not parsed twice
        refuse_alias_bomb(text, name)
    try:
        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except RecursionError:
        raise ConfigError("YAML nested too deeply", file=name, hint="a config is a few levels deep") from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise ConfigError(f"a YAML value cannot be read: {exc}", file=name, hint="write a realistic value") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(
            f"broken YAML: {problem}",
            file=name,
            line=mark.line + 1 if mark else None,
            hint="fix the YAML syntax at that line",
        ) from None


def refuse_alias_bomb(text: str, name: str) -> None:
    """ConfigError when the YAML would hold more than MAX_YAML_NODES nodes with every alias expanded.

    The loader shares an aliased node rather than copying it, but everything after it (flattening into dotted keys,
    merges, writing) walks the expanded tree: 70 aliases nesting lists of ten make 10**70 nodes. So the size is
    counted on the event stream, with each anchor's expanded size remembered (an alias adds that size, it is not
    walked again): time and memory in proportion to the text, whatever the aliases would expand to."""
    import yaml

    sizes: dict[str, int] = {}  # anchor → expanded size of its node
    open_nodes: list[list[Any]] = []  # [anchor, expanded size so far] of each collection being read
    total = 0
    try:
        for event in yaml.parse(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                open_nodes.append([event.anchor, 1])
                continue
            if isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                anchor, size = open_nodes.pop()
            elif isinstance(event, yaml.ScalarEvent):
                anchor, size = event.anchor, 1
            elif isinstance(event, yaml.AliasEvent):
                anchor, size = None, sizes.get(event.anchor or "", 1)  # an unknown anchor: the loader reports it
            else:
                continue  # stream and document boundaries
            if anchor is not None:
                sizes[anchor] = size
            if open_nodes:
                open_nodes[-1][1] += size
            else:
                total += size
            if max(total, open_nodes[-1][1] if open_nodes else 0) > MAX_YAML_NODES:
                line = event.start_mark.line + 1 if event.start_mark else None
                raise ConfigError(
                    f"the YAML expands to more than {MAX_YAML_NODES:,} values once its aliases (*name) "
                    "are expanded: refused as an alias bomb",
                    file=name,
                    line=line,
                    hint="write the values out instead of aliasing nested aliases",
                )
    except yaml.YAMLError:
        return  # load_yaml reports the syntax error with its line
