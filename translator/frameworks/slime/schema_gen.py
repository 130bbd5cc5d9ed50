"""slime's native schema (scripts/gen_schemas.py). slime ships no wheel: ``--slime-src DIR`` names a git checkout
holding the release tags (THUDM/slime); the ``add_argument`` calls (and ``reset_arg``, which adds a flag Megatron
lacks) of the files in FILES at the tag, read with ``ast``, become the flags. Without the option, the schema is
left as it is.

What the schema does not hold, and why (docs/frameworks/slime.md): ``train.py`` parses with Megatron-LM's own
``parse_args`` (slime's flags are its ``extra_args_provider``), and slime adds SGLang's ``ServerArgs`` under
``--sglang-*`` and the sglang-router's ``RouterArgs`` under ``--router-*`` from the installed packages. Those come
from whatever Megatron-LM and SGLang the run's image holds (slime names no release of either), so they are not in
the schema; every parser slime runs drops a flag it does not know (``ignore_unknown_args=True``,
``parse_known_args``), so a flag outside the schema is never refused. translator/frameworks/slime/keys.py says how
the validation treats them."""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path
from typing import Any

from translator.frameworks.slime.tables import VERSIONS
from translator.schema_gen import Tree, argparse_calls, argparse_property, checkout_source, document, git, write

# The files whose flags train.py's parsers take: slime's own (the extra_args_provider and the pre-parse of
# _pre_parse_mode), and the SGLang router/engine flags slime itself declares beside SGLang's.
FILES = ("slime/utils/arguments.py", "slime/backends/sglang_utils/arguments.py")
HELPERS = ("reset_arg",)  # slime's helper: sets a Megatron flag's default, or adds the flag when Megatron lacks it
# The flags of sglang_parse_args' throw-away parser, which reads three flags early to size the engines: they are
# SGLang's own (--sglang-pp-size ...) or slime's (--rollout-num-gpus-per-engine, declared in FILES[0] too).
TEMP_PARSER = "temp_parser"

UNKNOWN = (
    "dropped",
    "train.py parses with Megatron-LM's parse_args(ignore_unknown_args=True) and SGLang's flags with "
    "parse_known_args: a flag no parser declares is dropped without a word.",
)
TYPE_CHECK = ("coercing", "argparse converts each value with the flag's type (int, float, str, json.loads).")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--slime-src", type=Path, help="a THUDM/slime git checkout with the release tags")
    parser.add_argument("--slime-version", default=VERSIONS[-1], choices=VERSIONS)


def generate(args: argparse.Namespace, outs: list[Path], wanted: set[str]) -> None:
    if args.slime_src:
        write(slime_schema(args.slime_src, args.slime_version), outs)
    else:
        print("slime: no --slime-src; its schema is left as it is", file=sys.stderr)


def slime_schema(root: Path, version: str) -> dict[str, Any]:
    tag = f"v{version}"
    commit = git(root, "rev-list", "-n", "1", tag).strip()
    tree = Tree({path: git(root, "show", f"{tag}:{path}") for path in FILES}, f"THUDM/slime@{tag}")
    properties: dict[str, dict[str, Any]] = {}
    for path in FILES:
        for call, env in argparse_calls(tree.module(path).body, {}, HELPERS):
            owner = call.func.value if isinstance(call.func, ast.Attribute) else None
            if isinstance(owner, ast.Name) and owner.id == TEMP_PARSER and path != FILES[0]:
                continue
            flags, prop = argparse_property(call, env)
            for flag in flags:
                properties.setdefault(flag, prop)
    notes = [
        f"Flags declared in {', '.join(FILES)} at {tag}, without the leading '--'.",
        "Not here: Megatron-LM's own flags (train.py parses with megatron.training.arguments.parse_args, slime's "
        "flags being its extra_args_provider), SGLang's ServerArgs (--sglang-*) and the sglang-router's RouterArgs "
        "(--router-*), which slime adds from the installed packages: their releases are the run image's, not "
        "slime's. Every parser drops a flag it lacks.",
    ]
    return document(
        "slime",
        version,
        f"slime {version} train.py flags (slime's own)",
        properties,
        [checkout_source("THUDM/slime", commit, tree)],
        UNKNOWN,
        TYPE_CHECK,
        notes,
    )
