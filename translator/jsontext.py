"""Strict JSON for every --format json / sarif output: RFC 8259 has no NaN or Infinity, so a non-finite number
(a config may say ``lr: .nan`` or ``1e400``) is written as the string "NaN", "Infinity" or "-Infinity", and
json.dumps runs with allow_nan=False so no bare NaN can slip through."""

from __future__ import annotations

import json
import math
from typing import Any

_NON_FINITE = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}


def dumps(document: Any, indent: int | None = 2) -> str:
    return json.dumps(finite(document), indent=indent, default=str, allow_nan=False)


def finite(value: Any) -> Any:
    """The document with each non-finite float (as a value or a key) as a string; other values as they are."""
    if isinstance(value, float):
        return value if math.isfinite(value) else _NON_FINITE[repr(value)]
    if isinstance(value, dict):
        return {finite(k) if isinstance(k, float) else k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value
