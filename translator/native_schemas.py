"""Native keys checked against the framework's own schema (``schema_data/``, made by scripts/gen_schemas.py
from the released source of each framework version; ``schemas/native/`` in the repository holds the same files).

:func:`validate` takes the schema of the nearest known version at or below the config's (none: nothing is
checked). A key the schema lacks gets a ``keys.unknown`` warning naming the closest valid key — unless a newer
schema of the same framework has it (the config's version lies between two schemas, and the key may be one
that version added). A value of a type the framework itself rejects is a ConfigError naming the key; values
the framework converts pass ("1e-6" for a float, 8 for a float, "true" for a boolean, one word for a list).
A value outside a declared set of choices is a ``keys.invalid-value`` warning.

Cost: the common path reads the schema's JSON once per process and compares key names and coercible types;
``jsonschema`` (about 100 ms to import) is imported only when a value is found wrong, to word the finding.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from translator.dialects import registry
from translator.dialects.base import closest_key, version_key
from translator.errors import ConfigError
from translator.framework import NativeKeys, NativeRules, load
from translator.notes import Note, NoteList

if TYPE_CHECKING:
    from translator.dialects.base import Reading

SCHEMA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schema_data")
_NAME = re.compile(r"^(?P<framework>.+?)-(?P<version>\d[\w.]*)\.schema\.json$")

_TRUE_WORDS = frozenset({"true", "yes", "y", "t", "on", "1"})
_FALSE_WORDS = frozenset({"false", "no", "n", "f", "off", "0"})
_FAIL = object()

_available: dict[str, list[tuple[tuple[int, ...], str, str]]] | None = None
_loaded: dict[str, _Schema] = {}
_chosen: dict[tuple[str, str | None], tuple[str | None, list[str], bool]] = {}


def _rules(framework: str) -> tuple[str, NativeRules]:
    """The name shown in messages and the parser's treatment of keys; defaults for a schema of no registered
    framework (a library a framework builds on)."""
    entry = registry.lookup(framework)
    return (entry.label, entry.native) if entry else (framework, NativeRules())


class _Schema:
    """One schema file, indexed for the fast path."""

    def __init__(self, path: str) -> None:
        with open(path, encoding="utf-8") as handle:
            self.document: dict[str, Any] = json.load(handle)
        self.framework: str = self.document["x-framework"]
        self.version: str = self.document["x-version"]
        self.properties: dict[str, dict[str, Any]] = self.document["properties"]
        self._open: frozenset[str] | None = None  # keys whose value is a mapping (built on the first miss)
        self._sections: frozenset[str] | None = None  # every dotted prefix of a key (built on first use)
        self._guesses: dict[str, str | None] = {}  # unknown key → the property it likely meant (see guess)

    def knows(self, key: str) -> bool:
        """Whether the key is a property, or a dotted sub-key of one whose value is a mapping."""
        if key in self.properties:
            return True
        if self._open is None:
            self._open = frozenset(k for k, p in self.properties.items() if "object" in _types(p))
        parts = key.split(".")
        return any(".".join(parts[:i]) in self._open for i in range(1, len(parts)))

    def property(self, key: str) -> dict[str, Any] | None:
        return self.properties.get(key)

    def is_section(self, key: str) -> bool:
        """Whether ``key`` is a section (a dotted prefix of properties): null there removes the section."""
        if self._sections is None:
            self._sections = frozenset(k.rsplit(".", i)[0] for k in self.properties for i in range(1, k.count(".") + 1))
        return key in self._sections

    def closed_section(self, key: str) -> str | None:
        """The deepest section of the config that ``key`` lies under, when the framework builds that section
        into a dataclass that rejects fields it lacks (``_target_`` sections: x-closed-sections)."""
        closed = self.document.get("x-closed-sections")
        if not closed:
            return None
        parts = key.split(".")
        for i in range(len(parts) - 1, 0, -1):
            prefix = ".".join(parts[:i])
            if self.is_section(prefix):
                return prefix if prefix in closed else None
        return None

    def guess(self, key: str) -> str | None:
        """The property an unknown key most likely meant (None: none is close), once per key and process."""
        if key not in self._guesses:
            guess = closest_key(key, self.properties)
            if guess is None:  # a renamed key keeps its last word: torch_dtype → dtype
                endings = [
                    p
                    for p in self.properties
                    if key.endswith("_" + p.rpartition(".")[2]) and p.rpartition(".")[0] == key.rpartition(".")[0]
                ]
                guess = endings[0] if len(endings) == 1 else None
            self._guesses[key] = guess
        return self._guesses[key]


def available() -> dict[str, list[tuple[tuple[int, ...], str, str]]]:
    """Framework → [(version key, version, path)], oldest first, of the shipped schemas."""
    global _available
    if _available is None:
        found: dict[str, list[tuple[tuple[int, ...], str, str]]] = {}
        names = os.listdir(SCHEMA_DIR) if os.path.isdir(SCHEMA_DIR) else []
        for name in names:
            match = _NAME.match(name)
            key = version_key(match.group("version")) if match else None
            if match and key is not None:
                found.setdefault(match.group("framework"), []).append(
                    (key, match.group("version"), os.path.join(SCHEMA_DIR, name))
                )
        _available = {fw: sorted(entries) for fw, entries in found.items()}
    return _available


def _load(path: str) -> _Schema:
    if path not in _loaded:
        _loaded[path] = _Schema(path)
    return _loaded[path]


def _choose(framework: str, version: str | None) -> tuple[_Schema | None, list[str], bool]:
    """The schema of the nearest known version at or below ``version`` (None: there is none), the paths of the
    newer ones, loaded only when needed (for keys a version between two schemas may have added), and whether
    the schema is that very version's."""
    if (framework, version) not in _chosen:
        entries = available().get(framework, [])
        wanted = version_key(version) if version else None
        older = [e for e in entries if wanted is not None and e[0] <= wanted]
        exact = bool(older) and older[-1][0] == wanted
        _chosen[(framework, version)] = (
            older[-1][2] if older else None,
            [] if exact else [e[2] for e in entries if wanted and e[0] > wanted],
            exact,
        )
    path, newer, exact = _chosen[(framework, version)]
    return (_load(path) if path else None), newer, exact


def schemas_for(framework: str, version: str | None) -> list[_Schema]:
    """The schema :func:`validate` uses for ``framework`` ``version``, then the newer ones (empty: none)."""
    schema, newer, _ = _choose(framework, version)
    return [schema, *(_load(p) for p in newer)] if schema else []


def schema_for(framework: str, version: str | None) -> dict[str, Any] | None:
    """The JSON Schema document used for ``framework`` at ``version`` (None: no validation)."""
    found = schemas_for(framework, version)
    return found[0].document if found else None


def lacks(framework: str, version: str, key: str) -> bool:
    """Whether ``framework`` ``version``'s parser surely lacks ``key``: no schema of it at or around that version
    declares it (False when there is no schema to tell). Writers use it to keep their output loadable."""
    schema, newer, exact = _choose(framework, version)
    if schema is None or schema.knows(key) or any(_load(p).knows(key) for p in newer):
        return False
    if exact or not newer:
        # A release newer than every schema is judged by the newest: a key that one has already lost does not
        # come back (transformers 5.0 removed overwrite_output_dir; 5.24, released after the schemas, lacks it).
        return True
    return not any(_load(path).knows(key) for _, _, path in available().get(framework, []))


def in_no_release(framework: str, key: str) -> bool:
    """Whether no shipped schema of ``framework`` (any release) declares ``key`` (False when there is none to
    tell)."""
    paths = [path for _, _, path in available().get(framework, [])]
    return bool(paths) and not any(_load(path).knows(key) for path in paths)


def declares(framework: str, version: str, key: str) -> bool | None:
    """Whether ``framework`` ``version``'s own schema lists ``key`` itself (not just a mapping above it, to which
    Hydra adds a key only with '+'); None where that version has no schema of its own."""
    schema, _, exact = _choose(framework, version)
    return key in schema.properties if schema is not None and exact else None


def closed_section(framework: str, version: str, key: str) -> str | None:
    """The section of ``framework`` ``version``'s config that would reject ``key`` as a field it lacks (see
    :meth:`_Schema.closed_section`); None where no schema of that version tells."""
    schema, _, exact = _choose(framework, version)
    return schema.closed_section(key) if schema is not None and exact else None


# ---------------------------------------------------------------------------- the check
def validate(
    framework: str,
    version: str | None,
    values: Mapping[str, Any],
    *,
    exempt: Iterable[str] = (),
    noted: Iterable[tuple[str, str]] = (),
    origins: Mapping[str, str] | None = None,
    source_name: str = "",
    added: Iterable[str] = (),
    own_copy: str | None = None,
) -> list[Note]:
    """Notes for the native ``values`` (native key → value as the config set it) of ``framework`` ``version``.

    Raises ConfigError for the first value of a type the framework rejects (a warning instead where the project
    runs its own copy of the framework, ``own_copy``). ``exempt`` keys are not checked (keys a user
    adds, such as '+key' appends); ``noted`` holds the (code, key) pairs of the warnings and errors a reader already
    made: those are not repeated, and a key a reader already warned about is not made an error. ``added`` keys come from
    a file the framework merges without checking keys (a YAML config merged into the defaults): only a likely typo among
    them is noted.
    """
    schema, newer_paths, exact = _choose(framework, version)
    notes = NoteList()
    if schema is None:
        return notes

    def newer() -> Iterator[_Schema]:
        return (_load(path) for path in newer_paths)

    skip = set(exempt)
    lenient = set(added)
    already = set(noted)
    reported = {key for _, key in already}
    wrong: list[tuple[str, list[dict[str, Any]]]] = []
    for key, value in values.items():
        if key in skip:
            continue
        prop = schema.property(key)
        if prop is None and value is None and schema.is_section(key):
            continue  # `section: null` removes a section of the defaults (a recipe dropping the optimizer)
        if prop is None and not schema.knows(key):
            later = next((s for s in newer() if s.knows(key)), None)
            if later is None:
                if not any(code.startswith("keys.unknown") and k == key for code, k in already):
                    _unknown(schema, key, version, exact, notes, key in lenient)
                continue
            prop = later.property(key)
        if prop is None or key in reported or _fits(value, prop, framework):
            continue
        props = [prop]
        if not exact:  # a version between two schemas: its type may be the newer neighbour's
            alternative = next((p for p in (s.property(key) for s in newer()) if p), None)
            if alternative is not None and alternative is not prop:
                if _fits(value, alternative, framework):
                    continue
                props.append(alternative)
        wrong.append((key, props))
    if wrong:
        _report(schema, framework, values, wrong, notes, already, origins or {}, source_name, own_copy)
    return notes


def _fits(value: Any, prop: Mapping[str, Any], framework: str) -> bool:
    return _coerce(value, prop, framework) is not _FAIL and _enum_ok(value, prop)


def validate_reading(reading: Reading, source_text: str = "") -> list[Note]:
    """:func:`validate` for what a dialect read: the keys the framework's registration prepares (native
    names as the framework spells them, keys a user may add exempt), notes the reader already made not repeated."""
    native = reading.native
    spec = reading.spec
    if native is None or not spec.version:
        return []
    framework = spec.framework
    prepare = _rules(framework)[1].prepare
    keys: NativeKeys | None = (
        load(prepare)(reading, source_text) if prepare else NativeKeys(dict(native.values), dict(native.origins))
    )
    if keys is None:
        return []
    noted = [(n.code, key) for n in reading.notes if n.severity != "info" for key in n.source_keys]
    return list(keys.notes) + validate(
        framework,
        spec.version,
        keys.values,
        exempt=keys.exempt,
        noted=noted,
        origins=keys.origins,
        source_name=native.source_name,
        added=keys.added,
        own_copy=reading.own_copy,
    )


def _unknown(schema: _Schema, key: str, version: str | None, exact: bool, notes: NoteList, added: bool = False) -> None:
    """A key no schema of the framework has. Between two schemas (``exact`` false) or for a key a config file
    may add (``added``), only a likely typo is reported: the key may be one the version in between has, or
    one a recipe reads."""
    framework = schema.framework
    label, rules = _rules(framework)
    dash = "--" if rules.flags else ""
    guess = schema.guess(key)
    if (added or not exact) and guess is None:
        return
    where = f"{label} {version}"
    if not exact:
        where += f" (nor of the schemas of {', '.join(v for _, v, _ in available().get(framework, []))})"
    hint = f"; did you mean '{dash}{guess}'?" if guess else ""
    what = "flag" if rules.flags else "key"
    treatment = f"a YAML config may add keys, but {label} reads only its own" if added else rules.unknown_keys
    if rules.own_key_hint and not added and not guess:
        treatment += "; " + rules.own_key_hint.format(key=key)
    if rules.unknown_keys_since and version:
        at = version_key(version) or ()
        treatment = (
            [text for since, text in rules.unknown_keys_since if at >= (version_key(since) or ())] or [treatment]
        )[-1]
    notes.warning(
        "keys.unknown",
        f"'{dash}{key}' is not a {what} of {where}{hint} ({treatment})",
        source_keys=[key],
        target_keys=[guess] if guess else [],
    )


def _report(
    schema: _Schema,
    framework: str,
    values: Mapping[str, Any],
    wrong: list[tuple[str, list[dict[str, Any]]]],
    notes: NoteList,
    already: set[tuple[str, str]],
    origins: Mapping[str, str],
    source_name: str,
    own_copy: str | None = None,
) -> None:
    """Word what the fast path found with jsonschema, on the values as the framework would convert them (the
    first property: the chosen schema's; a second is the newer neighbour's, which rejects the value too). A
    rejected type stops the read (ConfigError), unless the project runs its own copy of the framework
    (``own_copy``), whose config may accept it: then a warning."""
    from jsonschema import Draft202012Validator

    name, rules = _rules(framework)
    label = f"{name} {schema.version}"
    dash = "--" if rules.flags else ""
    for key, props in wrong:
        value = values[key]
        prop = props[0]
        converted = _coerce(value, prop, framework)
        instance = value if converted is _FAIL else converted
        errors = sorted(Draft202012Validator(prop).iter_errors(instance), key=lambda e: list(e.path))
        if not errors:
            continue
        error = errors[0]
        if error.validator == "enum":
            if ("keys.invalid-value", key) not in already:
                choices = ", ".join(str(c) for c in error.validator_value if c is not None)
                notes.warning(
                    "keys.invalid-value",
                    f"{dash}{key} {value!r} is not one of the choices {label} accepts ({choices})",
                    source_keys=[key],
                )
            continue
        expected = _expected(prop)
        where = origins.get(key, source_name) or source_name
        file, _, line = where.rpartition(":")
        if not file or not line.isdigit():
            file, line = where, ""
        why = (
            f"{label}'s default is {prop['default']!r} and {name} computes with it: {error.message}"
            if rules.computes_with_defaults and "default" in prop
            else f"{label} rejects it: {error.message}"
        )
        if own_copy is not None:
            notes.warning(
                "keys.invalid-type",
                f"{dash}{key} {value!r}: {label} rejects it ({error.message}), but the launch runs the project's own "
                f"copy at {own_copy}, whose config may accept it; check that copy's field type",
                source_keys=[key],
            )
            continue
        raise ConfigError(
            f"{dash}{key} must be {expected}, got {value!r} ({why})",
            file=file or None,
            line=int(line) if line else None,
            key=f"{dash}{key}",
            hint=f"set {dash}{key} to {expected}",
        )


def _expected(prop: dict[str, Any]) -> str:
    words = {
        "integer": "a whole number",
        "number": "a number",
        "boolean": "true or false",
        "string": "a string",
        "array": "a list",
        "object": "a mapping",
        "null": "null",
    }
    kinds = [words[t] for t in _types(prop) if t in words]
    if "items" in prop and "array" in _types(prop):
        inner = _expected(prop["items"])
        kinds = [f"a list of {inner.removeprefix('a ').removeprefix('an ')}s" if k == "a list" else k for k in kinds]
    return " or ".join(kinds) or "a valid value"


def _types(prop: Mapping[str, Any]) -> list[str]:
    kind = prop.get("type")
    if kind is None:
        return []
    return [kind] if isinstance(kind, str) else list(kind)


def _enum_ok(value: Any, prop: Mapping[str, Any]) -> bool:
    if "enum" in prop:
        return _in_enum(value, prop)
    items = prop.get("items")
    if items and "enum" in items and isinstance(value, (list, tuple)):
        return all(_in_enum(v, items) for v in value)
    return True


def _in_enum(value: Any, prop: Mapping[str, Any]) -> bool:
    choices = prop["enum"]
    if value is None:
        return True
    if isinstance(value, list):
        return all(_in_enum(v, prop) for v in value)
    text = str(value).lower() if isinstance(value, bool) else str(value)
    return any(value == c or text == (str(c).lower() if isinstance(c, bool) else str(c)) for c in choices)


def _coerce(value: Any, prop: Mapping[str, Any], framework: str) -> Any:
    """``value`` as the framework converts it for this property, or _FAIL when it would reject it."""
    types = _types(prop)
    if not types:
        return value
    rules = _rules(framework)[1]
    if rules.checked_types is not None and not set(types) <= rules.checked_types:
        return value  # untyped YAML: lists for strings, strings for lists are all accepted
    if isinstance(value, str) and ("${" in value or "$(" in value or "`" in value):
        return value  # an interpolation, or a shell expansion the reader kept as text: its value is unknown
    if value is None:
        if "null" in types or not rules.rejects_null:
            return None  # a parser that rejects null does so for a field that is not Optional
        return _FAIL
    for kind in types:
        converted = _convert(value, kind, prop, framework)
        if converted is not _FAIL:
            return converted
    return _FAIL


def _convert(value: Any, kind: str, prop: Mapping[str, Any], framework: str) -> Any:
    if kind == "integer":
        if isinstance(value, bool):
            return _FAIL
        if isinstance(value, int):
            return value
        if isinstance(value, float):
            return int(value) if value.is_integer() else _FAIL
        if isinstance(value, str):
            number = _number(value)
            return int(number) if isinstance(number, float) and number.is_integer() else _FAIL
        return _FAIL
    if kind == "number":
        if isinstance(value, bool):
            return _FAIL
        if isinstance(value, (int, float)):
            return value
        if isinstance(value, str):
            number = _number(value)  # argparse's float() also takes 'inf' and 'nan'
            return _FAIL if number is None else number
        return _FAIL
    if kind == "boolean":
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in _TRUE_WORDS | _FALSE_WORDS:
            return value.strip().lower() in _TRUE_WORDS
        return _FAIL
    if kind == "string":
        return str(value) if isinstance(value, (str, int, float, bool)) else _FAIL
    if kind == "array":
        items = (
            value
            if isinstance(value, (list, tuple))
            else [value]
            if isinstance(value, (str, int, float, bool))
            else None
        )
        if items is None:
            return _FAIL
        inner = prop.get("items")
        if not inner:
            return list(items)
        out = []
        for item in items:
            converted = _coerce(item, inner, framework)
            if converted is _FAIL:
                return _FAIL
            out.append(converted)
        return out
    if kind == "object":
        return value if isinstance(value, dict) else _FAIL
    if kind == "null":
        return None if value is None else _FAIL
    return value


def _number(text: str) -> float | None:
    try:
        return float(text.strip().replace("_", ""))
    except ValueError:
        return None


def known_in_any(framework: str, key: str) -> bool:
    """Whether any shipped schema of ``framework`` (any release) declares ``key``, or a mapping it lies under."""
    return any(_load(path).knows(key) for _, _, path in available().get(framework, []))


@lru_cache(maxsize=16)  # the schemas do not change in a process; every read of a framework that asks, asks
def leaves(framework: str) -> frozenset[str]:
    """The last words of every key the shipped schemas of ``framework`` declare."""
    return frozenset(p.rpartition(".")[2] for p in keys(framework))


@lru_cache(maxsize=16)
def keys(framework: str) -> frozenset[str]:
    """Every key the shipped schemas of ``framework`` (any release) declare."""
    return frozenset(p for _, _, path in available().get(framework, []) for p in _load(path).properties)
