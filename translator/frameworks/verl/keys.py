"""verl's native keys as the core compares and validates them (translator/compare.py, translator/native_schemas.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from translator.dialects.base import Reading
from translator.framework import NativeKeys
from translator.frameworks.verl.tables import FULLY_ASYNC_DEFAULTS

# verl's DAPO recipe entry (recipe.dapo.main_dapo) composes recipe/dapo/config/dapo_trainer.yaml, which is not
# in the verl wheel: the keys it adds to the core config.
DAPO_KEYS = frozenset({"data.gen_batch_size", "reward_model.reward_manager"})
DAPO_PREFIXES = ("reward_model.overlong_buffer.", "algorithm.filter_groups.")


def moved_sections() -> Iterator[tuple[str, str]]:
    from translator.frameworks.verl.dialect import (
        MOVED_SECTIONS,  # the reader, imported when a diff needs it
    )

    return ((old, new) for old, new, _since in MOVED_SECTIONS)


def prepare(reading: Reading, source_text: str) -> NativeKeys:
    """'+key' appends are the user's own keys; the DAPO recipe's and the fully async trainer's configs add keys
    the core schema lacks; keys from a YAML config (no line of the launch script) are merged unchecked."""
    native, spec = reading.native, reading.spec
    assert native is not None
    values, origins = dict(native.values), dict(native.origins)
    exempt = {m.group(1) for m in re.finditer(r"(?<![\w+])\+\+?([A-Za-z_][\w.@/-]*)=", source_text)}
    exempt |= {e.key.lstrip("+") for e in spec.extras if e.key.startswith("+")}
    if "main_dapo" in source_text:  # the DAPO recipe's own config adds keys the core schema lacks
        exempt |= {k for k in values if k in DAPO_KEYS or k.startswith(DAPO_PREFIXES)}
    if spec.generation.rollout_mode == "fully_async":  # fully_async_ppo_trainer.yaml adds keys of its own
        exempt |= {k for k in values if k in FULLY_ASYNC_DEFAULTS}
    added = tuple(k for k in values if not origins.get(k, ":").rpartition(":")[2].isdigit())
    return NativeKeys(values, origins, frozenset(exempt), added)
