"""The frameworks rlconf reads and writes: one folder each, one registration line each below.

Detection asks them in this order: EasyR1 before verl (both launch a `verl.trainer` module), Open-Instruct before
TRL (both may run a `grpo.py`). Plan files (the `rlconf` dialect) are the core's own, not listed here.
"""

from __future__ import annotations

from translator.framework import Framework
from translator.frameworks import easyr1, open_instruct, openrlhf, skyrl, trl, verl

FRAMEWORKS: tuple[Framework, ...] = (
    easyr1.FRAMEWORK,
    verl.FRAMEWORK,
    open_instruct.FRAMEWORK,
    trl.FRAMEWORK,
    openrlhf.FRAMEWORK,
    skyrl.FRAMEWORK,
)
