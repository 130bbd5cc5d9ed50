"""rlconf: translate RL post-training configs between frameworks through one canonical batch plan.

Library: :func:`load`, :func:`explain`, :func:`translate`; bad input raises :class:`ConfigError`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from translator.errors import ConfigError

if TYPE_CHECKING:
    from translator.api import Explanation, Translation, check, explain, load, translate
    from translator.compare import DiffReport

_API = ("Explanation", "Translation", "check", "explain", "load", "translate")

__all__ = ["ConfigError", "Explanation", "Translation", "check", "diff", "explain", "load", "translate"]


def __getattr__(name: str) -> Any:
    """The library names load translator.api on first use, so `rlconf --help`, `rlconf frameworks` and the
    file selection of many-file runs start without the readers (PEP 562)."""
    if name in _API:
        from translator import api

        return getattr(api, name)
    raise AttributeError(f"module 'translator' has no attribute {name!r}")


def diff(a: Explanation | str, b: Explanation | str, **options: Any) -> DiffReport:
    """Compare two configs (paths, texts or explanations) on the canonical model; see translator.compare."""
    from translator.api import Explanation, load
    from translator.compare import diff as compare

    return compare(
        a if isinstance(a, Explanation) else load(a, **options),
        b if isinstance(b, Explanation) else load(b, **options),
    )
