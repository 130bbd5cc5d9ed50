"""TRL's native keys as the core compares and validates them (translator/compare.py, translator/native_schemas.py)."""

from __future__ import annotations

from collections.abc import Iterator

from translator.dialects.base import Reading
from translator.framework import NativeKeys
from translator.frameworks.trl.tables import RENAMED
from translator.native_schemas import schemas_for, validate


def renames() -> Iterator[tuple[str, str]]:
    return iter(RENAMED.items())


def prepare(reading: Reading, source_text: str) -> NativeKeys:
    """TrainingArguments fields are judged by the transformers release the run uses (the trl schema holds the
    fields of the one it was generated with): their names and their types."""
    native = reading.native
    assert native is not None
    values, origins = dict(native.values), dict(native.origins)
    transformers = getattr(native, "transformers", None)
    if not transformers:
        return NativeKeys(values, origins, reading.own_flags)
    training_arguments = schemas_for("transformers", transformers)[:1]
    exempt = frozenset(k for k in values if any(s.knows(k) for s in training_arguments))
    notes = (
        validate(
            "transformers",
            transformers,
            {k: values[k] for k in exempt},
            origins=origins,
            source_name=native.source_name,
        )
        if exempt
        else []
    )
    return NativeKeys(values, origins, exempt | reading.own_flags, notes=tuple(notes))
