"""Hydra/OmegaConf command-line overrides, read statically.

Grammar (Hydra 1.3): ``key=value`` overrides an existing key, ``+key=value`` appends a new one,
``++key=value`` adds or overrides, ``~key`` (or ``~key=value``) deletes. Values: quoted strings, lists
``[a, b]``, dicts ``{a: 1}``, ``null``, booleans, ints, floats, else a plain string. Interpolations
(``${...}``) are kept as text here and resolved by :func:`resolve_interpolations`.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from translator.errors import ConfigError
from translator.patterns import lazy
from translator.records import record

_KEY = re.compile(r"^[A-Za-z_@][\w@\-/]*(\.[\w@\-/]+)*$")
_INT = re.compile(r"^[+-]?\d[\d_]*$")
_FLOAT = re.compile(r"^[+-]?((\d[\d_]*)?\.\d+([eE][+-]?\d+)?|\d[\d_]*\.(\d+)?([eE][+-]?\d+)?|\d[\d_]*[eE][+-]?\d+)$")


@record
class Override:
    op: str  # "" | "+" | "++" | "~"
    key: str
    value: Any  # parsed value; None for deletions without a value
    text: str  # the word as written


def refuse_escaped_space(word: str, origin: str) -> None:
    """A word that starts with white space: ``\\ #...`` at a line's end (the backslash escapes the space, not the
    newline), so the comment's words became arguments and the command ended on that line; Hydra's override parser
    refuses such a word (OverrideParseException at start-up)."""
    raise ConfigError(
        f"{origin}: '{word}' is not a Hydra override, and Hydra refuses the command line that holds it (a backslash "
        "before a space at a line's end escapes the space, not the newline: the comment after it became arguments "
        "and the command ends on that line)",
        hint="end each continued line with a bare backslash and put comments on lines of their own",
    )


def parse_override(word: str) -> Override | None:
    """Parse one command-line word as a Hydra override, or return None if it is not one."""
    op = ""
    rest = word
    for prefix in ("++", "+", "~"):
        if rest.startswith(prefix):
            op, rest = prefix, rest[len(prefix) :]
            break
    if "=" not in rest:
        if op == "~" and _KEY.match(rest):
            return Override("~", rest, None, word)
        return None
    key, value_text = rest.split("=", 1)
    if not _KEY.match(key):
        return None
    return Override(op, key, parse_value(value_text), word)


def parse_value(text: str) -> Any:
    """Parse a Hydra override value; text that is not a list, dict or scalar literal stays a string."""
    parser = _ValueParser(text)
    try:
        value = parser.value(top=True)
        parser.skip_space()
        if parser.pos != len(text):
            return text.strip()
        return value
    except _NotALiteral:
        return text.strip()


class _NotALiteral(Exception):
    pass


class _ValueParser:
    MAX_DEPTH = 64  # deeper literals are no real override; read them as text

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.depth = 0

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t":
            self.pos += 1

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def value(self, top: bool = False) -> Any:
        self.skip_space()
        char = self.peek()
        if char == "[":
            return self.sequence("]")
        if char == "{":
            return self.mapping()
        if char in "'\"":
            return self.quoted()
        return self.scalar(top)

    def sequence(self, close: str) -> list[Any]:
        self.enter()
        self.pos += 1
        items: list[Any] = []
        self.skip_space()
        if self.peek() == close:
            self.pos += 1
            self.depth -= 1
            return items
        while True:
            items.append(self.value())
            self.skip_space()
            char = self.peek()
            self.pos += 1
            if char == close:
                self.depth -= 1
                return items
            if char != ",":
                raise _NotALiteral

    def enter(self) -> None:
        self.depth += 1
        if self.depth > self.MAX_DEPTH:
            raise _NotALiteral

    def mapping(self) -> dict[str, Any]:
        self.enter()
        self.pos += 1
        result: dict[str, Any] = {}
        self.skip_space()
        if self.peek() == "}":
            self.pos += 1
            self.depth -= 1
            return result
        while True:
            self.skip_space()
            key = self.quoted() if self.peek() in "'\"" else self.bare(":")
            self.skip_space()
            if self.peek() != ":":
                raise _NotALiteral
            self.pos += 1
            result[str(key)] = self.value()
            self.skip_space()
            char = self.peek()
            self.pos += 1
            if char == "}":
                self.depth -= 1
                return result
            if char != ",":
                raise _NotALiteral

    def quoted(self) -> str:
        quote = self.peek()
        self.pos += 1
        out = []
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if char == "\\":  # Hydra >= 1.1: only backslashes before a quote escape (2n -> n; odd: the quote too)
                end = self.pos
                while end < len(self.text) and self.text[end] == "\\":
                    end += 1
                run = end - self.pos
                if end < len(self.text) and self.text[end] == quote:
                    out.append("\\" * (run // 2) + (quote if run % 2 else ""))
                    self.pos = end + run % 2
                else:
                    out.append("\\" * run)
                    self.pos = end
                continue
            self.pos += 1
            if char == quote:
                return "".join(out)
            out.append(char)
        raise _NotALiteral

    def bare(self, stops: str) -> str:
        start = self.pos
        depth = 0
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if char == "$" and self.text[self.pos + 1 : self.pos + 2] == "{":
                depth += 1
                self.pos += 2
                continue
            if char == "}" and depth:
                depth -= 1
            elif not depth and char in stops:
                break
            self.pos += 1
        return self.text[start : self.pos].strip()

    def scalar(self, top: bool) -> Any:
        word = self.bare("" if top else ",]}")
        return scalar(word)


def scalar(word: str) -> Any:
    """A bare Hydra/YAML-ish scalar: null, booleans, ints, floats, else the string."""
    lower = word.lower()
    if lower == "null":
        return None
    if lower == "true":
        return True
    if lower == "false":
        return False
    if _INT.match(word) and len(word) < 4000:  # longer: no count, and more digits than Python converts
        return int(word.replace("_", ""))
    if _FLOAT.match(word) or lower in ("inf", "+inf", "-inf", "nan"):
        return float(word.replace("_", ""))
    return word


_INTERPOLATION = lazy(r"\$\{([^${}]*)\}")


def resolve_interpolations(value: Any, lookup: Callable[[str], Any], env: Mapping[str, str]) -> Any:
    """Resolve ``${a.b}``, ``${oc.env:NAME[,default]}`` and ``${oc.select:a.b,default}`` in a value.

    Unresolvable interpolations stay as text. A value that is exactly one interpolation takes the
    referenced value's type.
    """
    if isinstance(value, list):
        return [resolve_interpolations(v, lookup, env) for v in value]
    if isinstance(value, dict):
        return {k: resolve_interpolations(v, lookup, env) for k, v in value.items()}
    if not isinstance(value, str) or "${" not in value:
        return value

    def one(body: str) -> Any:
        body = body.strip()
        if body.startswith("oc.env:"):
            name, _, default = body[len("oc.env:") :].partition(",")
            if name.strip() in env:
                return env[name.strip()]
            return scalar(default.strip().strip("'\"")) if default else _UNRESOLVED
        if body.startswith("oc.select:"):
            key, _, default = body[len("oc.select:") :].partition(",")
            found = lookup(key.strip())
            return found if found is not _UNRESOLVED and found is not None else scalar(default.strip())
        if body.startswith(("oc.", ".")):
            return _UNRESOLVED
        return lookup(body)

    whole = _INTERPOLATION.fullmatch(value)
    if whole:
        found = one(whole.group(1))
        return value if found is _UNRESOLVED else found

    def replace(match: re.Match[str]) -> str:
        found = one(match.group(1))
        return match.group(0) if found is _UNRESOLVED else str(found)

    return _INTERPOLATION.sub(replace, value)


# The resolvers every Hydra-launched run has: OmegaConf's own (omegaconf/omegaconf.py:104-110@v2.3.0) and Hydra's
# (hydra/core/utils.py:210-232 setup_globals@v1.3.2).
BUILT_IN_RESOLVERS = frozenset(
    {
        "oc.create",
        "oc.decode",
        "oc.deprecated",
        "oc.env",
        "oc.select",
        "oc.dict.keys",
        "oc.dict.values",
        "now",
        "hydra",
        "python_version",
    }
)
_RESOLVER = lazy(r"(?<!\\)\$\{\s*([A-Za-z_][\w.\-]*)\s*:")


def resolvers_used(data: Any, prefix: str = "") -> Iterator[tuple[str, str, str]]:
    """(dotted key, resolver name, text) of each ``${name:...}`` interpolation in a YAML mapping's string values
    (``${PROJECT_DIR:-/x}`` is one too: OmegaConf reads bash's default syntax as a resolver named PROJECT_DIR)."""
    if isinstance(data, Mapping):
        for key, value in data.items():
            yield from resolvers_used(value, f"{prefix}{key}.")
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from resolvers_used(value, f"{prefix}{index}.")
    elif isinstance(data, str):
        for match in _RESOLVER.finditer(data):
            yield prefix.rstrip("."), match.group(1), data


class _Unresolved:
    def __repr__(self) -> str:
        return "<unresolved>"


_UNRESOLVED: Any = _Unresolved()
UNRESOLVED = _UNRESOLVED


# ---------------------------------------------------------------- composing a project's own Hydra config
_PACKAGE = lazy(r"#\s*@package\s+(\S+)")
_RUN_OPTIONS = {"--multirun", "-m", "--cfg", "-c", "--resolve", "--info", "-i"}
_VALUED_OPTIONS = {"--config-name", "-cn", "--config-path", "-cp", "--config-dir", "-cd"}


def hydra_main(tree: Any) -> tuple[str, str] | None:
    """(config_path, config_name) of a script's ``@hydra.main(config_path=..., config_name=...)``, both literal
    strings (None when it has no such call). ``tree`` is the script's parsed ``ast.Module``."""
    import ast

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        owner = func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else ""
        if name != "main" or owner != "hydra":
            continue
        words = {
            k.arg: k.value.value
            for k in node.keywords
            if isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)
        }
        if "config_name" in words:
            return words.get("config_path", "."), words["config_name"].removesuffix(".yaml")
    return None


def _merge(into: dict[str, Any], data: Mapping[str, Any]) -> None:
    for key, value in data.items():
        if isinstance(value, Mapping) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = dict(value) if isinstance(value, Mapping) else value


_CHOICE = lazy(r"\$\{([\w/.]+)\}")
_MAX_NESTING = 8  # defaults lists inside group files, nested this deep at most


def _joined(package: str, relative: str) -> str:
    return ".".join(p for p in (package, relative) if p)


def _at(package: str, data: dict[str, Any]) -> dict[str, Any]:
    for part in reversed([p for p in package.split(".") if p and p != "_global_"]):
        data = {part: data}
    return data


def compose(
    read: Callable[[str], tuple[str, str] | None],
    config_name: str,
    words: list[str],
    missing: list[str] | None = None,
    absent: list[str] | None = None,
) -> tuple[dict[str, Any], list[str], list[str]]:
    """A Hydra (1.1+) config as ``@hydra.main`` composes it from the launch's words, statically: the primary config
    ``config_name``, its defaults list (config groups, ``_self_`` last unless placed), the command line's group
    choices (``group=option``, ``+group=option``, ``~group``) and value overrides (``a.b=1``, ``+a.b=1``,
    ``++a.b=1``, ``~a.b``); a group file's ``# @package`` header places it (``_global_``: the root; by default the
    group's path), and its own defaults list is composed in turn (``place``). ``read(relative path)`` gives (file
    as shown, its text) of a file in the config folder, or None. Returns (the config, the files read, notes: a
    sweep's further runs, options not followed); ``missing`` collects the files the defaults lists name that
    ``read`` does not find, and the entries not composed here; ``absent`` those of the files that no ``optional``
    entry names (Hydra stops on them unless a search path elsewhere holds them)."""
    notes: list[str] = []
    files: list[str] = []
    choices: dict[str, str | None] = {}
    added: list[tuple[str, str]] = []
    values: list[tuple[str, str, str]] = []  # (op, key, text)
    words = list(words)
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if word in _RUN_OPTIONS:
            continue
        if word in _VALUED_OPTIONS:
            chosen = words[i] if i < len(words) else ""
            notes.append(f"{word} {chosen} is not followed: the script's own config is read")
            i += 1
            continue
        override = parse_override(word)
        if override is None:
            continue
        text = word.split("=", 1)[1] if "=" in word else ""
        if "," in text and not text.startswith(("[", "{", "'", '"')):  # a sweep: --multirun runs one job per value
            notes.append(f"'{word}' sweeps {len(text.split(','))} values: the first is read")
            text = text.split(",")[0]
        group = override.key.replace(".", "/")
        if override.op in ("", "+") and read(f"{group}/{text}.yaml") is not None:
            if override.op == "+":
                added.append((group, text))
            else:
                choices[group] = text
        else:
            if override.op == "~" and "." not in override.key:
                choices[group] = None  # a group removed from the defaults (or a top-level key deleted, below)
            values.append((override.op, override.key, text))

    def load(relative: str, optional: bool = False) -> tuple[dict[str, Any], str | None]:
        found = read(relative)
        if found is None:
            if missing is not None:
                missing.append(relative)
            if absent is not None and not optional:
                absent.append(relative)
            return {}, None
        shown, data_text = found
        files.append(shown)
        header = _PACKAGE.search("\n".join(data_text.splitlines()[:5]))
        from translator.sources.files import load_yaml

        data = load_yaml(data_text, shown)
        return (data if isinstance(data, dict) else {}), (header.group(1) if header else None)

    primary, _ = load(f"{config_name}.yaml")
    defaults = primary.pop("defaults", None) or []
    order: list[tuple[str, str | None, str | None]] = []  # (group, option, the package the entry places it at)
    optional: set[str] = set()  # groups an `optional` entry names: Hydra skips them when their file is missing
    for entry in defaults:
        if entry == "_self_":
            order.append(("_self_", None, None))
        elif isinstance(entry, Mapping) and len(entry) == 1:
            ((group, option),) = entry.items()
            named = str(group).removeprefix("override ")
            group, _, placed = named.removeprefix("optional ").strip().partition("@")
            if named.startswith("optional "):
                optional.add(group)
            order.append((group, choices.pop(group, option), placed or None))
        elif isinstance(entry, str):
            name, _, placed = entry.partition("@")  # a file of the folder, at a package of its own
            group, _, option = name.rpartition("/")
            order.append((group, option, placed or None) if group else (name, None, placed or None))
    order += [(g, o, None) for g, o in choices.items() if o is not None] + [(g, o, None) for g, o in added]
    # an option may name another group's choice: `- actor@x: ${model_engine}_actor`
    picked = {g: o for g, o, _ in order if o is not None and g != "_self_"}
    order = [
        (g, _CHOICE.sub(lambda m: picked.get(m[1], m[0]), o) if isinstance(o, str) else o, at) for g, o, at in order
    ]
    if ("_self_", None, None) not in order:
        order.append(("_self_", None, None))

    def place(data: dict[str, Any], folder: str, package: str, depth: int) -> dict[str, Any]:
        """A group file's content at ``package``, after what its own defaults list brings (Hydra 1.1+: a group
        is relative to the file's folder unless written /absolute, its package relative to the file's, `- name`
        a file of the same folder at the same package, ``_self_`` last unless placed)."""
        entries = data.pop("defaults", None) or []
        if depth > _MAX_NESTING and entries:
            if missing is not None:
                missing.append(f"defaults nested deeper than {_MAX_NESTING} (not composed)")
            entries = []
        out: dict[str, Any] = {}
        placed_self = False
        for entry in entries if isinstance(entries, list) else []:
            if entry == "_self_":
                _merge(out, _at(package, data))
                placed_self = True
                continue
            if isinstance(entry, str):  # `- name` or `- name@package`: a file of this folder
                name, _, at = entry.partition("@")
                path = name[1:] if name.startswith("/") else posixpath.normpath(posixpath.join(folder, name))
                child, _ = load(f"{path}.yaml")
                _merge(out, place(child, posixpath.dirname(path), _joined(package, at) if at else package, depth + 1))
                continue
            if not isinstance(entry, Mapping) or len(entry) != 1:
                continue
            ((spec, option),) = entry.items()
            maybe = str(spec).startswith("optional ")
            spec = str(spec).removeprefix("optional ").strip()
            group, _, at = spec.partition("@")
            group = group.strip()
            whole = group[1:] if group.startswith("/") else posixpath.normpath(posixpath.join(folder, group))
            if spec.startswith("override ") or whole.startswith("..") or (not at and ".." in group):
                if missing is not None:  # an override of another choice, or a placement not worked out here
                    missing.append(f"{spec} (not composed)")
                continue
            option = choices.pop(whole, option)
            if option is None:
                continue
            child, header = load(f"{whole}/{option}.yaml", maybe)
            where = _joined(package, at or group.lstrip("/").replace("/", "."))
            if header is not None and not at:
                where = "" if header == "_global_" else header
            _merge(out, place(child, whole, where, depth + 1))
        if not placed_self:
            _merge(out, _at(package, data))
        return out

    config: dict[str, Any] = {}
    for group, option, at in order:
        if group == "_self_":
            _merge(config, primary)
            continue
        relative = f"{group}/{option}.yaml" if option is not None else f"{group}.yaml"
        if option is None and (not group or group.endswith(".yaml")):
            continue
        data, package = load(relative, group in optional)
        default_package = group.replace("/", ".") if option is not None else ""  # `- base`: the folder's own
        if data:
            folder = group if option is not None else posixpath.dirname(group)
            _merge(config, place(data, folder, at or package or default_package, 1))
    for op, key, text in values:
        parts = key.split(".")
        node = config
        for part in parts[:-1]:
            node = node.setdefault(part, {}) if isinstance(node.get(part, {}), dict) else {}
        if op == "~":
            node.pop(parts[-1], None)
        else:
            node[parts[-1]] = scalar(text)
    return config, files, notes
