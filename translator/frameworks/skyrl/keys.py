"""SkyRL's native keys as the core validates them (translator/native_schemas.py)."""

from __future__ import annotations

from translator.dialects.base import Reading
from translator.framework import NativeKeys
from translator.frameworks.skyrl.tables import is_old


def prepare(reading: Reading, source_text: str) -> NativeKeys | None:
    """The keys of a skyrl-package run (None for the Hydra-era skyrl_train releases, whose key names the schema,
    read from the skyrl package, does not hold). A '+key' is not judged here: the skyrl package refuses the '+'
    itself, which checks.py reports."""
    native, version = reading.native, reading.spec.version
    assert native is not None and version is not None
    if is_old(version):
        return None
    values = dict(native.values)
    return NativeKeys(values, dict(native.origins), frozenset(k for k in values if k.startswith("+")))
