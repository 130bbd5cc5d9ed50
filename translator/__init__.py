"""rlconf: translate RL post-training configs between frameworks through one canonical batch plan.

Library: :func:`load`, :func:`explain`, :func:`translate`; bad input raises :class:`ConfigError`.
"""
from translator.api import Explanation, Translation, explain, load, translate
from translator.errors import ConfigError

__all__ = ["ConfigError", "Explanation", "Translation", "explain", "load", "translate"]
