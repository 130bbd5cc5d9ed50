"""EasyR1's native keys as the core compares them (translator/compare.py)."""

from __future__ import annotations

from collections.abc import Iterator

from translator.frameworks.easyr1.tables import RENAMES


def renames() -> Iterator[tuple[str, str]]:
    return ((old, new) for old, new, _since in RENAMES)
