"""Provenance: which native keys each canonical field was derived from, recorded while a reader sets it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from translator.dialects.formatting import fmt
from translator.dialects.unknowns import UNKNOWN, Unknown, blocking_keys, unknown_text
from translator.dialects.values import Values
from translator.plan import SECTIONS, Derivation, RunSpec


@contextmanager
def track_provenance(spec: RunSpec, values: Values) -> Iterator[None]:
    """While a reader interprets ``values`` into ``spec``, record for each canonical field the native keys
    read since the previous assignment, unless the reader recorded a derivation itself. A field assigned
    with no key read since is a derived value."""
    start = {"index": len(values.reads)}

    def observe(section: str, name: str, value: Any) -> None:
        keys = list(dict.fromkeys(values.reads[start["index"] :]))
        start["index"] = len(values.reads)
        dotted = f"{section}.{name}"
        if isinstance(value, Unknown):
            spec.derivations[dotted] = Derivation(unknown_text(value.names), blocking_keys(value.names, keys), UNKNOWN)
            return
        if value is None or dotted in spec.derivations:
            return
        if not keys:
            spec.derivations[dotted] = Derivation("derived", [], "derived")
            return
        origin = "config" if any(k in values for k in keys) else "default"
        shown = ", ".join(f"{k} {fmt(values.values.get(k, values.defaults.get(k)))}" for k in keys[:3])
        spec.derivations[dotted] = Derivation(shown, keys, origin)

    sections = list(SECTIONS.values())
    for cls in sections:
        cls._observer = observe
    try:
        yield
    finally:
        for cls in sections:
            cls._observer = None


def from_config(text: str, *keys: str) -> Derivation:
    return Derivation(text, list(keys), "config")


def derived(text: str, *keys: str) -> Derivation:
    return Derivation(text, list(keys), "derived")
