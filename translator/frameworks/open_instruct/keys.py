"""Open-Instruct's native keys as the core compares and validates them (translator/compare.py,
translator/native_schemas.py)."""

from __future__ import annotations

from collections.abc import Iterator

from translator.dialects.base import Reading
from translator.framework import NativeKeys


def renames() -> Iterator[tuple[str, str]]:
    from translator.frameworks.open_instruct.dialect import (
        KEY_RENAMES,  # the reader, imported when a diff needs it
    )

    return iter(KEY_RENAMES.items())


def prepare(reading: Reading, source_text: str) -> NativeKeys | None:
    """Nothing to validate for a script read at a version its program does not exist in: the schema is another
    program's."""
    native = reading.native
    assert native is not None
    if any(n.code == "version.program-missing" for n in reading.notes):
        return None
    return NativeKeys(dict(native.values), dict(native.origins), exempt=reading.own_flags)
