"""slime's version table as data: the releases, what changed in them, the defaults of the flags the reader asks
for, and the flags' shapes (switches, multi-value flags).

Source: THUDM/slime ``slime/utils/arguments.py`` at each tag and Megatron-LM ``megatron/training/arguments.py``;
docs/frameworks/slime.md cites each line, docs/frameworks/data/slime.yaml holds the per-release tables. The batch
flags' names and defaults did not change from v0.1.0 to v0.3.1 (slime.md §6), so one defaults table serves every
release; what differs by release is in the plan (the Megatron gbs default) and the checks.
"""

from __future__ import annotations

import re
from typing import Any

VERSIONS = ("0.1.0", "0.2.0", "0.2.0.post1", "0.2.1", "0.2.2", "0.2.3", "0.2.4", "0.3.0", "0.3.1")

# The release from which slime no longer asserts rbs × n % gbs: a run with neither --global-batch-size nor
# --num-steps-per-rollout reaches Megatron, which sets gbs = micro × DP (before, the `%` raised a TypeError).
MEGATRON_DEFAULT_SINCE = "0.2.2"
# The releases that state the kl/save/eval/REINFORCE++ start-up checks (data/slime.yaml: releases [0.3.1, 0.3.1]).
LATE_CHECKS_SINCE = "0.3.1"

CHANGES = {
    "0.1.0": "oldest release: rbs × n % gbs asserted at start-up (a run without --global-batch-size and "
    "--num-steps-per-rollout stops with a TypeError)",
    "0.2.0": "reset_arg helper; --train-backend megatron|fsdp",
    "0.2.0.post1": "no change to the batch flags",
    "0.2.1": "the last release with the rbs × n % gbs assertion",
    "0.2.2": "the rbs × n % gbs assertion is gone: without --global-batch-size and --num-steps-per-rollout "
    "Megatron sets gbs = micro-batch × DP silently",
    "0.2.3": "--train-backend megatron only",
    "0.2.4": "no change to the batch flags",
    "0.3.0": "--advantage-estimator cispo",
    "0.3.1": "newest release; start-up checks of one KL, --save with --save-interval, eval data with "
    "--eval-interval, --normalize-advantages for REINFORCE++",
}

# Flag (without its dashes) → default, as slime's parser (with reset_arg) and Megatron's leave it.
DEFAULTS: dict[str, Any] = {
    "rollout-batch-size": None,  # required
    "n-samples-per-prompt": 1,
    "global-batch-size": None,
    "num-steps-per-rollout": None,
    "micro-batch-size": 1,
    "use-dynamic-batch-size": False,
    "max-tokens-per-gpu": None,
    "log-probs-max-tokens-per-gpu": None,  # = max-tokens-per-gpu
    "num-rollout": None,
    "num-epoch": None,
    "over-sampling-batch-size": None,  # = rollout-batch-size
    "dynamic-sampling-filter-path": None,
    "actor-num-nodes": 1,
    "actor-num-gpus-per-node": 8,
    "tensor-model-parallel-size": 1,
    "pipeline-model-parallel-size": 1,
    "context-parallel-size": 1,
    "colocate": False,
    "rollout-num-gpus": None,
    "rollout-num-gpus-per-engine": 1,
    "train-backend": "megatron",
    "advantage-estimator": "grpo",
    "disable-grpo-std-normalization": False,
    "normalize-advantages": False,
    "kl-coef": 0.0,
    "use-kl-loss": False,
    "kl-loss-coef": 0.0,
    "kl-loss-type": "k1",
    "eps-clip": 0.2,
    "eps-clip-high": None,
    "eps-clip-c": None,
    "entropy-coef": 0.0,
    "gamma": 1.0,
    "lambd": 1.0,
    "lr": 1e-6,
    "lr-decay-style": "linear",
    "lr-warmup-iters": 0,
    "clip-grad": 1.0,
    "weight-decay": 0.01,
    "seed": 1234,
    "save": None,
    "save-interval": None,
    "eval-interval": None,
    "eval-prompt-data": None,
    "n-samples-per-eval-prompt": 1,
    "use-wandb": False,
    "wandb-project": None,
    # wandb.init(entity=wandb_team, group=..., name=...) (slime/utils/wandb_utils.py@v0.3.1 init_wandb_primary): the
    # run is named after --wandb-group, plus a random id and the rank unless --disable-wandb-random-suffix.
    "wandb-team": None,
    "wandb-group": None,
    "disable-wandb-random-suffix": False,
    "prompt-data": None,
    "input-key": "input",
    "label-key": None,
    "apply-chat-template": False,
    "rollout-temperature": 1.0,
    "rollout-top-p": 1.0,
    "rollout-top-k": -1,
    "rollout-max-response-len": None,
    "rollout-max-prompt-len": None,
    "rm-type": None,
    "custom-rm-path": None,
    "hf-checkpoint": None,
}

# Switches (store_true; --disable-grpo-std-normalization is store_false of grpo_std_normalization): no value.
# A launch's model flags made by running the model-args helper (`read -ra MODEL_ARGS <<< "$(python3
# miles/utils/external_utils/model_args_utils.py qwen3-4B)"`): it prints scripts/models/<type>.py's model_args(), the
# architecture alone (miles/utils/external_utils/model_args_utils.py@v0.1.0; no batch or parallelism flag there), so
# such unknown words hold no plan flag.
MODEL_ARGS_HELPERS = ("model_args_utils.py",)
# slime's own model files, which its launch scripts source for MODEL_ARGS (`source "${SCRIPT_DIR}/models/x.sh"`,
# or a container's `/slime/scripts/models/x.sh`): at every tag from v0.1.0 to v0.3.1 each sets Megatron
# architecture flags only (no batch, step, parallelism-size or epoch flag), so a launch whose only unread file is one
# of them, outside the project (the container's slime), has no plan flag in it.
OWN_MODEL_FILES = re.compile(r"(?:^|/)scripts/models/[^/]+\.sh")

SWITCHES = frozenset(
    {
        "colocate",
        "use-dynamic-batch-size",
        "use-kl-loss",
        "disable-grpo-std-normalization",
        "normalize-advantages",
        "apply-chat-template",
        "rollout-shuffle",
        "use-wandb",
        "disable-wandb-random-suffix",
        "use-tensorboard",
        "sequence-parallel",
        "partial-rollout",
        "skip-eval-before-train",
        "balance-data",
        "offload",
        "use-distributed-optimizer",
        "swiglu",
        "group-query-attention",
        "use-rotary-position-embeddings",
        "disable-bias-linear",
        "add-qkv-bias",
        "untie-embeddings-and-output-weights",
        "gradient-checkpointing",
    }
)

# Flags taking several values (nargs="+"): --eval-prompt-data NAME PATH [NAME PATH ...].
MANY_VALUES = frozenset({"eval-prompt-data"})
# Flags slime adds from SGLang's own ServerArgs, renamed --sglang-* (slime/backends/sglang_utils/arguments.py
# add_sglang_arguments at v0.3.1): their arity is SGLang's (several take lists, such as --sglang-cuda-graph-bs),
# not slime's, so the words after one are its values.
MANY_VALUE_PREFIXES = ("sglang-",)

ENTRY_POINTS = ("train.py", "train_async.py")

# The other parse whose namespace parse_args merges into its arguments (`for key, value in vars(sglang_ns).items():
# setattr(args, key, value)`, slime/utils/arguments.py:1575-1580@v0.3.1, since v0.2.4): sglang_parse_args
# (slime/backends/sglang_utils/arguments.py:188@v0.3.1) parses SGLang's ServerArgs renamed --sglang-* (dest
# sglang_*) and the router's RouterArgs with use_router_prefix (dest router_*), beside options it declares itself by
# name (read from the copy). Module path relative to the package folder.
PREFIXED_PARSES: dict[str, tuple[str, tuple[str, ...]]] = {
    "sglang_parse_args": ("backends/sglang_utils/arguments.py", ("sglang_", "router_")),
}

# The estimators each release accepts (cispo from 0.3.0, slime.md §6).
ESTIMATORS = ("grpo", "gspo", "reinforce_plus_plus", "reinforce_plus_plus_baseline", "ppo")
CISPO_SINCE = "0.3.0"

SECRET_FLAGS = frozenset({"wandb-key"})
