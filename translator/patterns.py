"""Regular expressions compiled on first use.

A module-level ``re.compile`` runs when the module is imported, whether or not the command uses the pattern: an
``explain`` imports the writers' helpers, project scanning and code following, whose patterns it mostly never
uses. :func:`lazy` stands in for ``re.compile`` there: the pattern is compiled when one of its methods or
attributes is first asked for, which are then the compiled pattern's own (no cost per call after the first).
"""

from __future__ import annotations

import re
from typing import Any, cast


class _Lazy:
    """A pattern not yet compiled; every attribute comes from the compiled one."""

    def __init__(self, text: str, flags: int) -> None:
        self._text, self._flags = text, flags

    def __getattr__(self, name: str) -> Any:  # called only for what the instance does not hold yet
        compiled = re.compile(self._text, self._flags)
        # The compiled pattern's methods and attributes, kept on the instance: later look-ups find them directly.
        for attribute in dir(compiled):
            if not attribute.startswith("_"):
                setattr(self, attribute, getattr(compiled, attribute))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._text!r}, {self._flags})"


def lazy(text: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(text, flags)``, compiled when first used (for its methods and attributes: match, search,
    fullmatch, finditer, findall, sub, subn, split, pattern, flags, groups, groupindex)."""
    return cast("re.Pattern[str]", _Lazy(text, flags))
