"""The registry (translator/dialects/registry.py) and detection (translator/dialects/sniff.py), as one import."""

from __future__ import annotations

from translator.dialects.registry import (
    framework,
    get,
    listing,
    lookup,
    names,
    parse_framework,
    register,
    registered,
)
from translator.dialects.sniff import detect

__all__ = ["detect", "framework", "get", "listing", "lookup", "names", "parse_framework", "register", "registered"]
