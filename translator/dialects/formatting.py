"""Values as people write them in a derivation (``fmt``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any


def fmt(value: Any) -> str:
    """A value as people write it in a derivation: whole numbers without a point, fractions as 0.25, switches as
    true/false, lists as [a, b], a missing value as unset (never a Python repr)."""
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(fmt(item) for item in value) + "]"
    if isinstance(value, Fraction):
        value = int(value) if value.denominator == 1 else float(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:.6g}"
    return str(value)
