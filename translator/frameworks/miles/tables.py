"""Miles' version table as data: its one release, what it changes from slime, and the defaults that differ.

Source: radixark/miles ``miles/utils/arguments.py`` and ``miles/backends/fsdp_utils/arguments.py`` at v0.1.0
(docs/frameworks/miles.md cites each line). Miles keeps slime's flag names and batch defaults
(translator/frameworks/slime/tables.py); what differs is the training backend. The branch head after v0.1.0
(31f1ca9) changes one indentation in ``miles_validate_args`` (where ``start_rollout_id`` is reset on a resumed run),
nothing the plan or the checks read, so it adds no version here.
"""

from __future__ import annotations

from typing import Any

from translator.frameworks.slime.tables import DEFAULTS as SLIME_DEFAULTS

VERSIONS = ("0.1.0",)

CHANGES = {
    "0.1.0": "the only release: slime's flags with --train-backend megatron|fsdp, every unknown flag refused, no "
    "cispo estimator, PPO on Megatron only, async PPO needs a behaviour-policy correction",
}

# Megatron backend: slime's defaults (Miles' reset_arg calls set the same ones, miles/utils/arguments.py:1097,
# 1108, 1352-1355, 1921@v0.1.0).
DEFAULTS: dict[str, Any] = {**SLIME_DEFAULTS, "dp-replicate-size": 1}

# FSDP backend: the FSDPArgs dataclass supplies the optimizer flags Megatron would
# (miles/backends/fsdp_utils/arguments.py:13-24@v0.1.0); --lr and --wandb-project keep Miles' reset_arg
# defaults (1e-6, None), which run after the dataclass's fields are added (fsdp_utils/arguments.py:91-92,
# reset_arg at miles/utils/arguments.py:84-97).
FSDP_DEFAULTS: dict[str, Any] = {**DEFAULTS, "lr-decay-style": "constant", "weight-decay": 0.0, "lr-warmup-iters": 0}

# The flags only Megatron's parser defines: the FSDP parser (plain argparse) refuses them.
MEGATRON_ONLY = ("tensor-model-parallel-size", "pipeline-model-parallel-size", "sequence-parallel")

# The training backends of other frameworks (their names' starts) that Miles' FSDP backend stands for: data
# parallelism with sharded weights and no model parallelism.
FSDP_LIKE = ("fsdp", "dtensor", "deepspeed", "ddp")

# --advantage-estimator choices (miles/utils/arguments.py:1422-1431@v0.1.0): slime's without cispo.
ESTIMATORS = ("grpo", "gspo", "reinforce_plus_plus", "reinforce_plus_plus_baseline", "ppo")
