"""The frameworks rlconf reads and writes: one folder each, one registration line each below.

Detection asks them in this order: EasyR1 before verl (both launch a `verl.trainer` module), Open-Instruct before
TRL (both may run a `grpo.py`), Unsloth before TRL (a script importing unsloth is TRL's too), Miles before slime
(its fork runs the same train.py). Plan files (the `rlconf` dialect) are the core's own, not listed here.
"""

from __future__ import annotations

from translator.framework import Framework
from translator.frameworks import easyr1, miles, nemo_rl, open_instruct, openrlhf, skyrl, slime, trl, unsloth, verl

FRAMEWORKS: tuple[Framework, ...] = (
    easyr1.FRAMEWORK,
    skyrl.FRAMEWORK,  # before verl: a fork entry's data.train_data= would match verl's argument namespace
    verl.FRAMEWORK,
    nemo_rl.FRAMEWORK,  # before TRL: its run_grpo.py matches TRL's grpo*.py pattern
    open_instruct.FRAMEWORK,
    unsloth.FRAMEWORK,
    trl.FRAMEWORK,
    openrlhf.FRAMEWORK,
    miles.FRAMEWORK,  # before slime: a Miles launch is slime's launch in a script that names Miles
    slime.FRAMEWORK,
)
