"""The registry: framework names and aliases → dialects, and detection of a file's framework."""
from __future__ import annotations

import importlib

from translator.dialects.base import Dialect
from translator.dialects.sniff import matches, matches_arguments
from translator.errors import ConfigError
from translator.sources.files import Source

# name → "module:Class"; modules are imported on first use to keep start-up light. Detection asks the
# dialects in this order: EasyR1 before verl (both launch a `verl.trainer` module), Open-Instruct before
# TRL (both may run a `grpo.py`).
_DIALECTS = {
    "easyr1": "translator.frameworks.easyr1.dialect:EasyR1Dialect",
    "verl": "translator.frameworks.verl.dialect:VerlDialect",
    "open-instruct": "translator.frameworks.open_instruct.dialect:OpenInstructDialect",
    "trl": "translator.frameworks.trl.dialect:TrlDialect",
    "openrlhf": "translator.frameworks.openrlhf.dialect:OpenRlhfDialect",
    "rlconf": "translator.dialects.rlconf:RlconfDialect",
}
_ALIASES = {
    "open-r1": "trl", "openr1": "trl", "open_r1": "trl", "huggingface/trl": "trl",
    "volcengine/verl": "verl", "verl-project/verl": "verl", "plan": "rlconf", "canonical": "rlconf",
    "hiyouga/easyr1": "easyr1", "easy-r1": "easyr1",
    "openrlhf/openrlhf": "openrlhf",
    "open_instruct": "open-instruct", "allenai/open-instruct": "open-instruct",
}
_cache: dict[str, Dialect] = {}


def names() -> list[str]:
    return list(_DIALECTS)


def listing() -> list[dict[str, object]]:
    """Every dialect: name, aliases, description, versions (oldest first) and what changed in each."""
    return [{"name": name, "aliases": sorted(a for a, target in _ALIASES.items() if target == name),
             "description": get(name).description, "default_version": get(name).default_version,
             "versions": [{"version": v, "changes": get(name).changes.get(v, "")} for v in get(name).versions]}
            for name in _DIALECTS]


def get(name: str) -> Dialect:
    """A dialect by name or alias (case-insensitive); ConfigError naming the known ones otherwise."""
    key = _ALIASES.get(name.lower(), name.lower())
    if key not in _DIALECTS:
        raise ConfigError(f"unknown framework '{name}'",
                          hint=f"known: {', '.join(_DIALECTS)}; aliases: {', '.join(_ALIASES)}")
    if key not in _cache:
        module, cls = _DIALECTS[key].split(":")
        _cache[key] = getattr(importlib.import_module(module), cls)()
    return _cache[key]


def parse_framework(text: str) -> tuple[Dialect, str | None]:
    """'trl@0.18.0' → (TRL dialect, '0.18.0'); 'verl' → (verl dialect, None)."""
    name, at, version = text.partition("@")
    dialect = get(name.strip())
    if at and not version.strip():
        raise ConfigError(f"'{text}' names no version after '@'",
                          hint=f"write {name.strip()}@latest, {name.strip()}@{dialect.default_version}, or leave out '@'")
    return dialect, dialect.resolve_version(version.strip()) if version.strip() else None


def detect(source: Source) -> Dialect:
    """The framework a file belongs to, from its launcher line or key structure."""
    frameworks = [name for name in _DIALECTS if name != "rlconf"]
    order = ["rlconf", *frameworks] if source.suffix in (".toml", ".json") else [*frameworks, "rlconf"]
    for name in order:
        if matches(name, source.text, source.suffix):  # imports only the dialect that matches
            return get(name)
    for name in frameworks:  # no known entry point: a fork's own one, told by the arguments it takes
        if matches_arguments(name, source.text, source.suffix):
            return get(name)
    what = "launcher" if source.suffix not in (".yaml", ".yml", ".json", ".toml") else "key structure"
    raise ConfigError(f"cannot tell which framework this is from its {what}", file=source.name,
                      hint=f"pass --from FRAMEWORK (one of {', '.join(_DIALECTS)})")


def register(name: str, dialect: str, *, aliases: tuple[str, ...] = (), script_pattern: str | None = None,
             yaml_pattern: str | None = None, rules: str | None = None) -> None:
    """Add a framework without editing any other framework's module (docs/adding-a-framework.md).

    ``dialect`` and ``rules`` are "module:Class" and "module" paths, imported on first use; the patterns are the
    regular expressions that detect its launch scripts and YAML configs (translator/dialects/sniff.py). A framework
    registered later is detected after the built-in ones, before plan files.
    """
    import re

    from translator.checks import register_rules
    from translator.dialects.sniff import SCRIPT_PATTERNS, YAML_PATTERNS

    key = name.lower()
    _DIALECTS[key] = dialect
    _DIALECTS["rlconf"] = _DIALECTS.pop("rlconf")  # plan files stay the last guess
    _ALIASES.update({alias.lower(): key for alias in aliases})
    _cache.pop(key, None)
    if script_pattern:
        SCRIPT_PATTERNS[key] = re.compile(script_pattern)
    if yaml_pattern:
        YAML_PATTERNS[key] = re.compile(yaml_pattern, re.M)
    if rules:
        register_rules(key, rules)
