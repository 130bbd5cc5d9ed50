"""Open-Instruct's check rules in the catalogue of codes (translator/rules.py ``catalogue``; docs/rules.md is
generated from it): each code its checks can report, with its severities, a one-line description, the framework's
own message where the rule mirrors one, and the source it cites."""

from __future__ import annotations

from translator.rule_info import RuleInfo as R

RULES: tuple[R, ...] = (
    R(
        "open-instruct.active-sampling-async-steps",
        "check",
        "open-instruct",
        ("error",),
        "Active sampling refills filtered groups: it needs the filter and prompts queued ahead.",
        message=(
            "With active_sampling, you should set async_steps > 1 to account for filtering of the first batch. "
            "Otherwise, your generator only generates only one batch worth of prompts and a single filtered prompt "
            "will cause the trainer to stall waiting for more data  . "
        ),
        source="docs/frameworks/open-instruct.md §1.2",
        versions="2025.11.09 –",
        at_start=True,
    ),
    R(
        "open-instruct.active-sampling-needs-filter",
        "check",
        "open-instruct",
        ("error",),
        "Active sampling refills filtered groups: it needs the filter and prompts queued ahead.",
        message=(
            "filter_zero_std_samples must be True when active_sampling is True. Active sampling requires filtering to "
            "work correctly."
        ),
        source="docs/frameworks/open-instruct.md §1.2",
        versions="2025.11.09 –",
        at_start=True,
    ),
    R(
        "open-instruct.async-steps-positive",
        "check",
        "open-instruct",
        ("error",),
        "Since PR #1220 (2025-11-21) async_steps 0 no longer means synchronous: it is rejected.",
        message="`async_steps` must be greater than 0. Fully synchronous training is not supported.",
        versions="2025.11.21 –",
        at_start=True,
    ),
    R(
        "open-instruct.engines-exceed-prompts",
        "check",
        "open-instruct",
        ("warning",),
        "num_unique_prompts_rollout is below vllm_num_engines, so vLLM generates for several batches at once "
        "(a warning).",
        versions="2025.10.20 –",
    ),
    R(
        "open-instruct.gpu-memory-fraction-range",
        "check",
        "open-instruct",
        ("error",),
        "The vLLM GPU memory share must lie in (0, 1].",
    ),
    R(
        "open-instruct.group-of-one",
        "check",
        "open-instruct",
        ("warning",),
        "num_samples_per_prompt_rollout is 1. This reduces GRPO to REINFORCE.",
        versions="2025.04.25 –",
    ),
    R(
        "open-instruct.group-size",
        "check",
        "open-instruct",
        ("error",),
        "The first grpo_fast asserted S > 1; from 2025-04-25 S = 1 only warns (group_of_one).",
        message="Number of samples per prompt must be greater than 1 for GRPO!",
        versions="2024.11.20 – 2025.04.24",
        at_start=True,
    ),
    R(
        "open-instruct.gtrl-mini-batch-divisible",
        "check",
        "open-instruct",
        ("error",),
        "local_mini_batch_size is not a multiple of per_device_train_batch_size, which the gtrl script asserts.",
        message=(
            "`local_mini_batch_size` must be a multiple of `per_device_train_batch_size`, inexact division: {…} / {…} "
            "= {…}"
        ),
        at_start=True,
    ),
    R(
        "open-instruct.gtrl-rollout-divisible",
        "check",
        "open-instruct",
        ("error",),
        "num_mini_batches = exact_div(rollout × n, mini-batch) since 2025-02-11, with no message of its own.",
        message=", inexact division: {…} / {…} = {…}",
        source="docs/frameworks/open-instruct.md §7.1",
        versions="2025.02.11 –",
        at_start=True,
    ),
    R(
        "open-instruct.ignored-flag",
        "check",
        "open-instruct",
        ("warning",),
        "Flags grpo_fast parses but never reads; the gtrl scripts overwrite two of theirs.",
        source="docs/frameworks/open-instruct.md §9.2",
    ),
    R(
        "open-instruct.kl-estimator-choice",
        "check",
        "open-instruct",
        ("error",),
        'kl_estimator is a Literal: "kl1".."kl4" until 2025-12-01, then 0..3 (kl1→0, kl2→1, kl3→2, kl4→3).',
        message="argument --kl_estimator: invalid choice: '{…}' (choose from {…})",
        message_from="argparse",
        at_start=True,
    ),
    R(
        "open-instruct.kl-estimator-renumbered",
        "check",
        "open-instruct",
        ("warning",),
        "The 2025-12-01 renumbering trap: the old kl3 is 2; 3 is ratio·d, the old kl4.",
        source="docs/frameworks/open-instruct.md §3.2",
        versions="2025.12.01 –",
    ),
    R(
        "open-instruct.kl-without-reference",
        "check",
        "open-instruct",
        ("error",),
        "beta is not 0.0 while load_ref_policy is False, which Open-Instruct refuses.",
        message=(
            "When load_ref_policy=False, beta must be 0.0. Got beta={…}. Set --beta 0.0 or --load_ref_policy to use "
            "KL penalty."
        ),
        at_start=True,
    ),
    R(
        "open-instruct.learning-rate-range",
        "check",
        "open-instruct",
        ("error", "warning"),
        "The learning rate is 0 (no update) or negative (rejected by AdamW).",
    ),
    R(
        "open-instruct.no-training-steps",
        "check",
        "open-instruct",
        ("warning",),
        "total_episodes is less than one training step of samples, so num_training_steps is 0 and nothing is trained.",
    ),
    R(
        "open-instruct.num-mini-batches-too-large",
        "check",
        "open-instruct",
        ("error", "warning"),
        "num_mini_batches exceeds the micro-batches each rank gets (a crash in some releases, a schedule mismatch "
        "in others).",
    ),
    R(
        "open-instruct.pack-length",
        "check",
        "open-instruct",
        ("error",),
        "A packed row must hold the longest prompt plus the longest response.",
        message=(
            "The `pack_length` needs to be greater than the sum of `max_prompt_token_length` and `response_length`!"
        ),
        source="docs/frameworks/open-instruct.md §1.2",
        at_start=True,
    ),
    R(
        "open-instruct.samples-per-rank",
        "check",
        "open-instruct",
        ("error",),
        "A step's samples must split evenly over the training ranks.",
        # from 2026-01-07; 2025-12-25 – 2026-01-06 'You must have at least as many samples as training GPUs (DP ranks)
        # for distributed training!'
        message=(
            "num_samples_per_prompt_rollout * num_unique_prompts_rollout must be greater than or equal to world_size "
            "// sequence_parallel_size to ensure we have a batch for each rank in distributed training."
        ),
        versions="2025.12.25 –",
        at_start=True,
    ),
    R(
        "open-instruct.sequence-parallel-needs-zero3",
        "check",
        "open-instruct",
        ("error",),
        "`sequence_parallel_size` > 1 requires `deepspeed_stage` to be 3!",
        message="`sequence_parallel_size` > 1 requires `deepspeed_stage` to be 3!",
        versions="2026.01.07 –",
        at_start=True,
    ),
    R(
        "open-instruct.single-gpu-tensor-parallel",
        "check",
        "open-instruct",
        ("error",),
        "tensor_parallel_size > 1 is not supported with single_gpu_mode",
        message="tensor_parallel_size > 1 is not supported with single_gpu_mode",
        versions="2026.01.23 –",
        at_start=True,
    ),
    R(
        "open-instruct.unknown-key",
        "check",
        "open-instruct",
        ("error",),
        "A flag the script's argument parser does not have.",
    ),
    R(
        "open-instruct.warmup-steps-ignored",
        "check",
        "open-instruct",
        ("warning",),
        "A positive warmup_ratio wins over warm_up_steps (gtrl before 2025-02-25: any ratio ≥ 0 did).",
        source="docs/frameworks/open-instruct.md §5",
    ),
    R(
        "open-instruct.weight-decay-ignored",
        "check",
        "open-instruct",
        ("warning",),
        "Without the bias/norm grouping AdamW gets all parameters and torch's default decay 0.01.",
        source="docs/frameworks/open-instruct.md §9.7",
    ),
    R(
        "open-instruct.zero-std-filter-needs-group",
        "check",
        "open-instruct",
        ("error",),
        "filter_zero_std_samples with one sample per prompt would filter every sample (std 0), which "
        "Open-Instruct refuses.",
        message=(
            "`filter_zero_std_samples` cannot be True when `num_samples_per_prompt_rollout` is 1, as the reward "
            "standard deviation will always be 0, causing all samples to be filtered."
        ),
        versions="2025.11.09 –",
        at_start=True,
    ),
    R(
        "open-instruct.zero2-discarded-gradients",
        "check",
        "open-instruct",
        ("warning",),
        "Before PR #1498 (2026-02-26) ZeRO-2 kept only the last backward of each accumulation group.",
        source="docs/frameworks/open-instruct.md §3.1",
        versions="2024.11.20 – 2026.02.25",
    ),
)
