"""NeMo-RL's check rules in the catalogue of codes (translator/rules.py ``catalogue``; docs/rules.md is generated
from it): each code checks.py can report, with NeMo-RL's own message and the source it cites."""

from __future__ import annotations

from translator.rule_info import RuleInfo as R

_DOC = "docs/frameworks/nemo-rl.md §5"

RULES: tuple[R, ...] = (
    R(
        "lengths.max-new-tokens-null",
        "note",
        "nemo-rl",
        ("warning",),
        "policy.generation.max_new_tokens is null: the response length is unknown; NeMo-RL's backends expect a number.",
        source="nemo_rl/models/generation/interfaces.py@v0.7.0",
    ),
    R(
        "nemo-rl.world-too-small",
        "check",
        "nemo-rl",
        ("error",),
        "From 0.4.0 the policy stops at start-up when the training GPUs are fewer than PP × CP × TP.",
        message="World size ({…}) is insufficient for the parallelism configuration. Required minimum world size: …",
        source="nemo_rl/models/policy/lm_policy.py:196-202@v0.7.0",
        versions="0.4.0 –",
    ),
    R(
        "nemo-rl.world-indivisible",
        "check",
        "nemo-rl",
        ("error",),
        "From 0.4.0 the policy stops at start-up when the training GPUs are not a multiple of PP × CP × TP.",
        message="World size ({…}) must be divisible by PP * CP * TP ({…}). …",
        source="nemo_rl/models/policy/lm_policy.py:204-211@v0.7.0",
        versions="0.4.0 –",
    ),
    R(
        "nemo-rl.tp4-micro-equals-logprob",
        "check",
        "nemo-rl",
        ("error",),
        "From 0.6.0, with TP ≥ 4 the training and log-prob micro-batches must be equal (unless "
        "NRL_IGNORE_TP_ACCURACY_CHECK is set or force_on_policy_ratio is on).",
        message="There is a known batch-variant accuracy issue with TP>=4 for both DTensor and Megatron backend.",
        source="nemo_rl/models/policy/lm_policy.py:178-194@v0.7.0",
        versions="0.6.0 –",
        at_start=True,
    ),
    R(
        "nemo-rl.force-on-policy",
        "check",
        "nemo-rl",
        ("error",),
        "From 0.5.0 loss_fn.force_on_policy_ratio needs one optimizer step per rollout step.",
        message="force_on_policy_ratio requires train_global_batch_size == num_prompts_per_step * "
        "num_generations_per_prompt",
        source="nemo_rl/algorithms/grpo.py:427-436@v0.7.0",
        versions="0.5.0 –",
        at_start=True,
    ),
    R(
        "nemo-rl.batch-multiplier",
        "check",
        "nemo-rl",
        ("error",),
        "From 0.4.0 grpo.batch_multiplier other than 1 needs dynamic sampling.",
        message="batch_multiplier>1 can only be used if use_dynamic_sampling=True",
        source="nemo_rl/algorithms/grpo.py:342-345@v0.7.0",
        versions="0.4.0 –",
        at_start=True,
    ),
    R(
        "nemo-rl.prompts-per-dataloader",
        "check",
        "nemo-rl",
        ("error",),
        "From 0.6.0, with data.use_multiple_dataloader a step's prompts must be whole draws of "
        "data.num_prompts_per_dataloader.",
        message="Expected num_prompts_per_step to be a multiple of num_prompts_per_dataloader, but got {…} and {…}.",
        source="nemo_rl/algorithms/grpo.py:297-302@v0.6.0, 348-353@v0.7.0",
        versions="0.6.0 –",
        at_start=True,
    ),
    R(
        "nemo-rl.non-colocated-needs-gpus",
        "check",
        "nemo-rl",
        ("error",),
        "Generation on its own GPUs of a one-node cluster needs their count.",
        message="policy.generation.colocated.resources.gpus_per_node must be explicitly set to a value > 0 when "
        "policy_nodes = 1 and inference is non-colocated, but got {…}.",
        source="nemo_rl/algorithms/grpo.py:617-623@v0.7.0",
    ),
    R(
        "nemo-rl.no-gpu-left-for-training",
        "check",
        "nemo-rl",
        ("error",),
        "Generation on its own GPUs of a one-node cluster must leave at least one GPU for training.",
        message="No enough GPUs for training, train_gpus_per_node:{…} = cluster_config['gpus_per_node']:{…} - "
        "inference_gpus_per_node:{…}",
        source="nemo_rl/algorithms/grpo.py:636-644@v0.7.0",
    ),
    R(
        "nemo-rl.async-not-colocated",
        "check",
        "nemo-rl",
        ("error",),
        "From 0.4.0 async GRPO needs generation on its own GPUs.",
        message="Colocated inference is not supported for async GRPO. Please use non-colocated inference.",
        source="nemo_rl/algorithms/grpo.py:3421-3423@v0.7.0",
        versions="0.4.0 –",
        at_start=True,
    ),
    R(
        "nemo-rl.step-multiple-of-gbs",
        "check",
        "nemo-rl",
        ("error",),
        "The first training call splits a step's samples into whole global batches of train_global_batch_size.",
        message="Total batch size ({…}) is not a multiple of batch_size ({…})",
        source="nemo_rl/distributed/batched_data_dict.py:395-397@v0.7.0",
    ),
    R(
        "nemo-rl.gbs-multiple-of-dp",
        "check",
        "nemo-rl",
        ("error", "skipped"),
        "The first training call shards each global batch over the data-parallel ranks.",
        message="Batch size ({…}) is not a multiple of shards ({…})",
        source="nemo_rl/distributed/batched_data_dict.py:398-401@v0.7.0",
    ),
    R(
        "nemo-rl.async-dp",
        "check",
        "nemo-rl",
        ("error",),
        "From 0.4.0 async GRPO needs a step's samples to divide over the data-parallel ranks.",
        message="Configuration error: (num_prompts_per_step * num_generations_per_prompt) = {…} must be divisible "
        "by data_parallel size {…}.",
        source="nemo_rl/algorithms/grpo.py:3747-3750@v0.7.0",
        versions="0.4.0 –",
    ),
    R(
        "nemo-rl.learning-rate-range",
        "check",
        "nemo-rl",
        ("error", "warning"),
        "The learning rate is 0 (no update) or negative (rejected by AdamW).",
    ),
    R(
        "nemo-rl.gpu-memory-fraction-range",
        "check",
        "nemo-rl",
        ("error",),
        "The rollout's GPU memory share must lie in (0, 1].",
    ),
    R(
        "nemo-rl.unknown-key",
        "check",
        "nemo-rl",
        ("error",),
        "A key NeMo-RL's configuration does not have (unknown-key notes turned into errors).",
    ),
)
