"""Placing a finding or a note at the source line that sets one of its keys (for suppression comments, GitHub
annotations and SARIF locations)."""

from __future__ import annotations

import re
from collections.abc import Iterable


def line_of(text: str, keys: Iterable[str]) -> int:
    """The first line that sets one of ``keys`` (a dotted key, an override or a --flag); 1 when none does."""
    return locate(text, keys) or 1


def locate(text: str, keys: Iterable[str]) -> int | None:
    """The first line that sets one of ``keys``; None when none does."""
    lines = text.splitlines()
    for key in keys:
        for needle in _needles(key):
            for number, line in enumerate(lines, start=1):
                stripped = line.split("#", 1)[0] if not line.lstrip().startswith("#") else ""
                if needle.search(stripped):
                    return number
    return None


def _needles(key: str) -> list[re.Pattern[str]]:
    key = key.lstrip("+-")
    last = key.rsplit(".", 1)[-1]
    dashed = last.replace("_", "-")
    return [
        re.compile(rf"(?<![\w.]){re.escape(key)}\s*[=:]"),
        re.compile(rf"--({re.escape(last)}|{re.escape(dashed)})\b"),
        re.compile(rf"(?<![\w-]){re.escape(last)}\s*[=:]"),
    ]
