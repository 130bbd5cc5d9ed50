"""Hydra/OmegaConf command-line overrides, read statically.

Grammar (Hydra 1.3): ``key=value`` overrides an existing key, ``+key=value`` appends a new one,
``++key=value`` adds or overrides, ``~key`` (or ``~key=value``) deletes. Values: quoted strings, lists
``[a, b]``, dicts ``{a: 1}``, ``null``, booleans, ints, floats, else a plain string. Interpolations
(``${...}``) are kept as text here and resolved by :func:`resolve_interpolations`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

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


class _Unresolved:
    def __repr__(self) -> str:
        return "<unresolved>"


_UNRESOLVED: Any = _Unresolved()
UNRESOLVED = _UNRESOLVED
