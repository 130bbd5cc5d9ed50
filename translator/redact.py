"""Values of keys named like secrets are never printed by ``explain`` (text, json, toml): ``<redacted>``.

A key is a secret when its words (split at '.', '_', '-', '/', '+', camel case lowered) contain ``secret``,
``password``/``passwd``, ``api key``/``apikey``, or end in ``token`` (``hf_token``, ``wandb_token``, ``token``) —
not ``max_tokens``, ``max_new_tokens`` or ``token_level``, which count or select tokens."""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any

REDACTED = "<redacted>"
_WORD = re.compile(r"[a-z0-9]+")


def is_secret(key: str) -> bool:
    words = _WORD.findall(str(key).lower())
    if not words:
        return False
    if any(w in ("secret", "secrets", "password", "passwd", "apikey") for w in words):
        return True
    if any(a == "api" and b == "key" for a, b in pairwise(words)):
        return True
    return words[-1] == "token"


def redact(key: str, value: Any) -> Any:
    """The value to show for ``key``: ``<redacted>`` for a secret, and inside a mapping (or a list of mappings)
    each secret entry redacted."""
    if is_secret(key) and value is not None:
        return REDACTED
    if isinstance(value, dict):
        return {k: redact(str(k), v) for k, v in value.items()}
    if isinstance(value, list):
        return [redact("", v) for v in value]
    return value
