"""OpenRLHF's native keys as the core compares and validates them (translator/compare.py,
translator/native_schemas.py)."""

from __future__ import annotations

from collections.abc import Iterator

from translator.dialects.base import Reading
from translator.framework import NativeKeys
from translator.frameworks.openrlhf.tables import FLAT_TO_DOTTED


def renames() -> Iterator[tuple[str, str]]:
    return ((flat, dotted) for flat, targets in FLAT_TO_DOTTED.items() for dotted in targets)


def prepare(reading: Reading, source_text: str) -> NativeKeys:
    """The values under the flag names of the config's release (the reader stores scheme-neutral names)."""
    from translator.frameworks.openrlhf.dialect import (
        spelled,  # loaded already: it made the reading
    )

    native, version = reading.native, reading.spec.version
    assert native is not None and version is not None
    written = getattr(native, "written", {})
    values: dict[str, object] = {}
    origins: dict[str, str] = {}
    for key, value in native.values.items():
        name = spelled(key, version) or written.get(key, key)
        values[name] = value
        origins[name] = native.origins.get(key, "")
    return NativeKeys(values, origins)
