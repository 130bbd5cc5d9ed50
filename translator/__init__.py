"""rlconf: translate RL post-training configs between frameworks through one canonical batch plan.

Library: :func:`load`, :func:`explain`, :func:`translate`; bad input raises :class:`ConfigError`.
"""
from translator.api import Explanation, Translation, check, explain, load, translate
from translator.errors import ConfigError

__all__ = ["ConfigError", "Explanation", "Translation", "check", "diff", "explain", "load", "translate"]


def diff(a: Explanation | str, b: Explanation | str, **options: object):  # type: ignore[no-untyped-def]
    """Compare two configs (paths, texts or explanations) on the canonical model; see translator.compare."""
    from translator.compare import diff as compare

    return compare(a if isinstance(a, Explanation) else load(a, **options),  # type: ignore[arg-type]
                   b if isinstance(b, Explanation) else load(b, **options))  # type: ignore[arg-type]
