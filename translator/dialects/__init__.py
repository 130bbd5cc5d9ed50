"""The registry: framework names and aliases → dialects, and detection of a file's framework."""
from __future__ import annotations

import importlib
import re

from translator.dialects.base import Dialect
from translator.errors import ConfigError
from translator.sources.files import Source

# name → "module:Class"; modules are imported on first use to keep start-up light. Detection asks the
# dialects in this order (EasyR1 before verl: both launch a `verl.trainer` module).
_DIALECTS = {
    "verl": "translator.dialects.verl:VerlDialect",
    "trl": "translator.dialects.trl:TrlDialect",
    "rlconf": "translator.dialects.rlconf:RlconfDialect",
}
_ALIASES = {
    "open-r1": "trl", "openr1": "trl", "open_r1": "trl", "huggingface/trl": "trl",
    "volcengine/verl": "verl", "verl-project/verl": "verl", "plan": "rlconf", "canonical": "rlconf",
}
# Frameworks recognised but not readable yet: detection names them instead of guessing wrong.
_PLANNED = {
    "easyr1": re.compile(r"-m\s+verl\.trainer\.main(\s|$)|^worker\s*:", re.M),
    "openrlhf": re.compile(r"openrlhf\.cli\.train_ppo_ray"),
    "open-instruct": re.compile(r"open_instruct/|grpo_fast\.py|grpo_vllm_thread_ray_gtrl"),
}
_cache: dict[str, Dialect] = {}


def names() -> list[str]:
    return list(_DIALECTS)


def get(name: str) -> Dialect:
    """A dialect by name or alias (case-insensitive); ConfigError naming the known ones otherwise."""
    key = _ALIASES.get(name.lower(), name.lower())
    if key not in _DIALECTS:
        planned = " (not supported yet)" if key.replace("_", "-") in _PLANNED else ""
        raise ConfigError(f"unknown framework '{name}'{planned}",
                          hint=f"known: {', '.join(_DIALECTS)}; aliases: {', '.join(_ALIASES)}")
    if key not in _cache:
        module, cls = _DIALECTS[key].split(":")
        _cache[key] = getattr(importlib.import_module(module), cls)()
    return _cache[key]


def parse_framework(text: str) -> tuple[Dialect, str | None]:
    """'trl@0.18.0' → (TRL dialect, '0.18.0'); 'verl' → (verl dialect, None)."""
    name, _, version = text.partition("@")
    dialect = get(name.strip())
    return dialect, dialect.resolve_version(version.strip()) if version.strip() else None


def detect(source: Source) -> Dialect:
    """The framework a file belongs to, from its launcher line or key structure."""
    for name, pattern in _PLANNED.items():
        if name not in _DIALECTS and pattern.search(source.text):
            raise ConfigError(f"this looks like an {name} config, which rlconf cannot read yet",
                              file=source.name, hint=f"supported: {', '.join(_DIALECTS)}")
    frameworks = [name for name in _DIALECTS if name != "rlconf"]
    order = ["rlconf", *frameworks] if source.suffix in (".toml", ".json") else [*frameworks, "rlconf"]
    for name in order:
        dialect = get(name)
        if dialect.sniff(source):
            return dialect
    what = "launcher" if source.suffix not in (".yaml", ".yml", ".json", ".toml") else "key structure"
    raise ConfigError(f"cannot tell which framework this is from its {what}", file=source.name,
                      hint=f"pass --from FRAMEWORK (one of {', '.join(_DIALECTS)})")
