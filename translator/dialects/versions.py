"""Release versions as rlconf compares them: the numeric release key, at-least / newer-than, the release a
version spelling names."""

from __future__ import annotations

import re
from functools import lru_cache

from translator.patterns import lazy


def split_version(version: str) -> str:
    """A version without a companion suffix ('0.16.0+transformers4.49.0' → '0.16.0')."""
    return version.split("+", 1)[0]


NUMBERS_PATTERN = lazy(r"\d+(?:\.\d+)*")  # a release or release prefix once pre/post/local parts are read


# A PEP 440 version as releases and checkouts spell it: '0.8.0.dev', '0.2.0.dev0', '0.3.0.post1', '0.9.0rc1'.
RELEASE_PATTERN = lazy(
    r"(?P<release>\d+(?:\.\d+)*)(?:[.-]?(?P<pre>dev|a|alpha|b|beta|rc|pre)\.?\d*)?"
    r"(?:[.-]?post\.?\d*)?(?:\+[\w.]+)?",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)  # called ~2000 times per config by the version inference; versions repeat
def version_key(version: str) -> tuple[int, ...] | None:
    parts = []
    for part in version.split("."):
        digits = "".join(ch for ch in part if ch.isdigit())
        if not digits:
            return None
        parts.append(int(digits))
    return tuple(parts)


def at_least(version: str, minimum: str) -> bool:
    return version_key(version) >= version_key(minimum)  # type: ignore[operator]


def newer_than(version: str, other: str) -> bool:
    return version_key(version) > version_key(other)  # type: ignore[operator]
