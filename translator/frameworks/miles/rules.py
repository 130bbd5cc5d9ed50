"""Miles' check rules in the catalogue of codes (translator/rules.py ``catalogue``; docs/rules.md is generated
from it): the codes of what Miles adds to slime's start-up (docs/frameworks/miles.md §4). The statements Miles
keeps from slime report slime's codes (translator/frameworks/slime/rules.py)."""

from __future__ import annotations

from translator.rule_info import RuleInfo as R

ARGS = "miles/utils/arguments.py"
DOC = "docs/frameworks/miles.md §4"

RULES: tuple[R, ...] = (
    R(
        "miles.async-ppo-correction",
        "check",
        "miles",
        ("error",),
        "train_async.py with PPO needs --use-rollout-logprobs, --use-tis or --keep-old-actor.",
        message=(
            "Async PPO training requires an explicit behavior-policy correction, because rollouts are generated before "
            "the current weight update while log probs are recomputed by the current actor by default. Pass one of: "
            "--use-rollout-logprobs (use the rollout engine's log probs as the ratio denominator), --use-tis "
            "(truncated importance sampling correction), or --keep-old-actor (recompute the denominator with the "
            "weights the rollout engines used)."
        ),
        source=f"{DOC}; {ARGS}:3591-3609@v0.1.0, train_async.py:24@v0.1.0",
        at_start=True,
    ),
    R(
        "miles.fsdp-context-parallel",
        "check",
        "miles",
        ("error",),
        "--train-backend fsdp with --context-parallel-size other than 1.",
        message="Context parallelism is not supported for FSDP backend.",
        source=f"{DOC}; {ARGS}:2702@v0.1.0",
        at_start=True,
    ),
    R(
        "miles.fsdp-gbs-none",
        "check",
        "miles",
        ("error",),
        "--train-backend fsdp with neither --global-batch-size nor --num-steps-per-rollout: the LR scheduler stops.",
        message="unsupported operand type(s) for //: 'int' and 'NoneType'",
        message_from="python",
        source=f"{DOC}; miles/backends/fsdp_utils/lr_scheduler.py:170@v0.1.0",
        at_start=True,
    ),
    R(
        "miles.fsdp-megatron-flag",
        "check",
        "miles",
        ("error",),
        "--train-backend fsdp with a Megatron-only flag (tensor or pipeline parallelism): the FSDP parser refuses it.",
        message="unrecognized arguments: {…}",
        message_from="argparse",
        source=f"{DOC}; miles/backends/fsdp_utils/arguments.py:112-114,120@v0.1.0",
        at_start=True,
    ),
    R(
        "miles.fsdp-micro-batch-floor",
        "check",
        "miles",
        ("warning",),
        "--train-backend fsdp with gbs not a multiple of micro-batch × DP: each rank floors its micro-batch count.",
        source=f"{DOC}; miles/backends/training_utils/data.py:465-466,487@v0.1.0",
    ),
    R(
        "miles.fsdp-replicate",
        "check",
        "miles",
        ("error",),
        "--dp-replicate-size below 1 or not dividing the actor GPUs (FSDP hybrid shard).",
        message="world_size({…}) must be divisible by dp_replicate_size({…})",
        source=f"{DOC}; miles/backends/fsdp_utils/arguments.py:125-133@v0.1.0",
        at_start=True,
    ),
    R(
        "miles.ppo-needs-megatron",
        "check",
        "miles",
        ("error",),
        "--advantage-estimator ppo (a critic) with --train-backend fsdp.",
        message="Shared Actor/Critic PPO requires the Megatron backend",
        source=f"{DOC}; {ARGS}:3205-3208@v0.1.0",
        at_start=True,
    ),
    R(
        "miles.ppo-reward-kl",
        "check",
        "miles",
        ("error",),
        "--advantage-estimator ppo with --kl-coef: Miles' critic never sees the reward's KL term.",
        message="Shared Actor/Critic PPO does not support reward-level KL (--kl-coef): the critic trains before the "
        "actor and never sees ref log probs, …",
        source=f"{DOC}; {ARGS}:3217-3222@v0.1.0",
    ),
    R(
        "miles.gpu-memory-fraction-range",
        "check",
        "miles",
        ("error",),
        "The rollout engine's GPU memory fraction is outside (0, 1].",
    ),
    R(
        "miles.learning-rate-range",
        "check",
        "miles",
        ("error", "warning"),
        "The learning rate is 0 (no update) or negative.",
    ),
    R(
        "miles.unknown-key",
        "check",
        "miles",
        ("error",),
        "Not reported: Miles refuses an unknown flag, but rlconf has no Miles schema to tell one.",
    ),
    R(
        "miles.async-keep-old-actor",
        "note",
        "miles",
        ("info",),
        "Asynchronous PPO is written with --keep-old-actor (Miles refuses async PPO without a correction).",
    ),
    R(
        "miles.driver-defaults",
        "note",
        "miles",
        ("info",),
        "A Python driver is read with its dataclass's defaults (--env FIELD=VALUE sets a field).",
    ),
    R(
        "miles.driver-unread",
        "note",
        "miles",
        ("warning",),
        "A piece of a Python driver's train_args that rlconf cannot compute (file:line): the words it is part of "
        "are unknown.",
    ),
    R(
        "miles.driver-open-flags",
        "note",
        "miles",
        ("info",),
        "A Python driver's train_args holds a piece that may set flags: the plan flags the rest lacks are unknown.",
    ),
    R(
        "miles.model-args",
        "note",
        "miles",
        ("info",),
        "A Python driver's model flags (scripts/models/<type>.py, the architecture) are not read.",
    ),
)
