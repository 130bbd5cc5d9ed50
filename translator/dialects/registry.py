"""The registry: every framework's registration (translator/frameworks/) and the core's plan-file dialect, by name
and alias; a framework's dialect is imported when first asked for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from translator.dialects.base import Dialect
from translator.errors import ConfigError
from translator.framework import DataLoader, Framework, load
from translator.frameworks import FRAMEWORKS

if TYPE_CHECKING:
    from translator.plan import RunSpec

# Plan files (.toml/.json): the canonical model itself, the core's own dialect. Detected last (first for the
# plan suffixes).
PLAN = Framework(
    name="rlconf", label="rlconf", dialect="translator.dialects.rlconf:RlconfDialect", aliases=("plan", "canonical")
)

_FRAMEWORKS: dict[str, Framework] = {f.name: f for f in (*FRAMEWORKS, PLAN)}
_ALIASES: dict[str, str] = {alias: f.name for f in _FRAMEWORKS.values() for alias in f.aliases}
_cache: dict[str, Dialect] = {}


def names() -> list[str]:
    return list(_FRAMEWORKS)


def registered() -> list[Framework]:
    """Every registration, in detection order (the plan-file dialect last)."""
    return list(_FRAMEWORKS.values())


def lookup(name: str) -> Framework | None:
    """The registration of a name or alias (case-insensitive); None when there is none."""
    key = _ALIASES.get(name.lower(), name.lower())
    return _FRAMEWORKS.get(key)


def framework(name: str) -> Framework:
    """The registration of a name or alias; ConfigError naming the known ones otherwise."""
    found = lookup(name)
    if found is None:
        raise ConfigError(
            f"unknown framework '{name}'", hint=f"known: {', '.join(_FRAMEWORKS)}; aliases: {', '.join(_ALIASES)}"
        )
    return found


def get(name: str) -> Dialect:
    """A dialect by name or alias (case-insensitive); ConfigError naming the known ones otherwise."""
    entry = framework(name)
    if entry.name not in _cache:
        _cache[entry.name] = load(entry.dialect)()
    return _cache[entry.name]


def listing() -> list[dict[str, object]]:
    """Every dialect: name, aliases, description, versions (oldest first) and what changed in each."""
    return [
        {
            "name": name,
            "aliases": sorted(a for a, target in _ALIASES.items() if target == name),
            "description": get(name).description,
            "default_version": get(name).default_version,
            "versions": [{"version": v, "changes": get(name).changes.get(v, "")} for v in get(name).versions],
        }
        for name in _FRAMEWORKS
    ]


def parse_framework(text: str) -> tuple[Dialect, str | None]:
    """'name@1.2.0' → (that dialect, '1.2.0'); 'name' → (that dialect, None)."""
    name, at, version = text.partition("@")
    dialect = get(name.strip())
    if at and not version.strip():
        raise ConfigError(
            f"'{text}' names no version after '@'",
            hint=f"write {name.strip()}@latest, {name.strip()}@{dialect.default_version}, or leave out '@'",
        )
    return dialect, dialect.resolve_version(version.strip()) if version.strip() else None


def register(entry: Framework) -> None:
    """Add a framework kept outside this package (docs/adding-a-framework.md): detected after the listed ones,
    before plan files."""
    _FRAMEWORKS[entry.name] = entry
    _FRAMEWORKS[PLAN.name] = _FRAMEWORKS.pop(PLAN.name)  # plan files stay the last guess
    _ALIASES.update({alias.lower(): entry.name for alias in entry.aliases})
    _cache.pop(entry.name, None)


def data_loader(name: str, spec: RunSpec) -> DataLoader | None:
    """What framework ``name``'s dataset loader reads for the config ``spec``: its registration's DataLoader, or the
    one its ``data_loader_for`` gives for that config (translator/data_contract.py)."""
    entry = lookup(name)
    if entry is None:
        return None
    if entry.data_loader_for:
        found: DataLoader | None = load(entry.data_loader_for)(spec)
        return found
    return entry.data_loader


def prompt_kind(spec: RunSpec) -> str | None:
    """The prompt column's type ("text" or "chat") as the loader of the framework ``spec`` was read for needs it,
    so a source that runs holds it; None when that loader takes either, or states nothing."""
    found = data_loader(spec.framework, spec)
    return found.prompt_kind if found is not None and found.prompt_kind in ("text", "chat") else None
