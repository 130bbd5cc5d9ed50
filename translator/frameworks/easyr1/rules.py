"""EasyR1's check rules in the catalogue of codes (translator/rules.py ``catalogue``; docs/rules.md is
generated from it): each code its checks can report, with its severities, a one-line description, the framework's
own message where the rule mirrors one, and the source it cites."""

from __future__ import annotations

from translator.rule_info import RuleInfo as R

RULES: tuple[R, ...] = (
    R(
        "easyr1.cpu-offload-grad-accum",
        "check",
        "easyr1",
        ("error",),
        "Gradient accumulation is refused while the actor's parameters or optimizer are offloaded to CPU.",
        versions="0.2.0.dev20250316 –",
    ),
    R(
        "easyr1.data-missing",
        "check",
        "easyr1",
        ("error",),
        "The training or validation data path is empty; EasyR1 loads both at start-up and fails.",
    ),
    R(
        "easyr1.equal-chunk",
        "check",
        "easyr1",
        ("error",),
        "generate_sequences chunks a round's prompts, the later calls the step's rbs × n samples, into W equal pieces.",
        message="only support equal chunk. Got size of DataProto {…} and chunk {…}.",
        source="docs/frameworks/easyr1.md §3",
    ),
    R(
        "easyr1.equal-split",
        "check",
        "easyr1",
        ("error",),
        "From 0.3.2 DataProto.split asserts that each rank's rollout samples split into equal mini-batches.",
        message="only support equal split. Got size of DataProto {…} and split {…}.",
        source="docs/frameworks/easyr1.md §2",
        versions="0.3.2 –",
    ),
    R(
        "easyr1.experience-micro-divisible",
        "check",
        "easyr1",
        ("error",),
        "rollout_batch_size × n (global) against the per-device log-prob micro size.",
        message="Rollout batch size * rollout.n must be divisible by {…} micro batch size for experience.",
        source="docs/frameworks/easyr1.md §3",
        versions="0.3.0 –",
    ),
    R(
        "easyr1.global-batch-too-small",
        "check",
        "easyr1",
        ("error",),
        "The optimizer mini-batch is smaller than the data-parallel world: some ranks get no sample.",
    ),
    R(
        "easyr1.gpu-memory-fraction-range",
        "check",
        "easyr1",
        ("error",),
        "The rollout's GPU memory share must lie in (0, 1].",
    ),
    R(
        "easyr1.group-size-one",
        "check",
        "easyr1",
        ("error", "warning"),
        "GRPO/RLOO need groups of at least two (a driver ValueError from 0.3.0; earlier a group of one is scored "
        "against mean 0 and std 1, i.e",
        message=(
            "algorithm.adv_estimator={…} with worker.rollout.n=1: each group holds one sample, scored against mean 0 "
            "(and std 1), so there is no group baseline"
        ),
        source="docs/frameworks/easyr1.md §3",
    ),
    R(
        "easyr1.learning-rate-range",
        "check",
        "easyr1",
        ("error", "warning"),
        "The learning rate is 0 (no update) or negative (rejected by AdamW).",
    ),
    R(
        "easyr1.max-num-batched-tokens",
        "check",
        "easyr1",
        ("error",),
        "One sequence must fit in a scheduler batch.",
        message="max_num_batched_tokens should be greater than prompt_length + response_length.",
        source="docs/frameworks/easyr1.md §3",
        versions="0.2.0.dev20250316 –",
    ),
    R(
        "easyr1.micro-batch-divisible",
        "check",
        "easyr1",
        ("error",),
        "The per-rank mini-batch must split into whole micro-batches.",
    ),
    R(
        "easyr1.mini-batch-floor-division",
        "check",
        "easyr1",
        ("warning",),
        "global_batch_size × n does not split evenly over the DP ranks; EasyR1 floors it, so a step uses "
        "fewer samples.",
        source="docs/frameworks/easyr1.md §2",
    ),
    R(
        "easyr1.resume-path",
        "check",
        "easyr1",
        ("error",),
        "ray_trainer.py _load_checkpoint (from 2025-03): a resume path must name a global_step_N directory.",
        message="`load_checkpoint_path` should end with `global_step_*`.",
        versions="0.2.0.dev20250316 –",
    ),
    R(
        "easyr1.reward-missing",
        "check",
        "easyr1",
        ("error",),
        "No reward function is configured: EasyR1 fails at start-up.",
        versions="0.3.0 –",
    ),
    R(
        "easyr1.rollout-batch-divisible",
        "check",
        "easyr1",
        ("error",),
        "a step's prompts must split into whole optimizer mini-batches.",
        message="Rollout batch size must be divisible by {…}global batch size.",
        source="docs/frameworks/easyr1.md §3",
        versions="0.2.0.dev20250316 –",
    ),
    R(
        "easyr1.rollout-tp-divisible",
        "check",
        "easyr1",
        ("error",),
        "The rollout's tensor-parallel size must divide the GPUs.",
    ),
    R(
        "easyr1.too-few-rounds",
        "check",
        "easyr1",
        ("error",),
        "Without filtering, max_try_make_batch rounds of mini_rollout_batch_size prompts cannot reach "
        "rollout_batch_size.",
        message="num_try_make_batch={…} >= max_try_make_batch={…}. Generated too many. Please check your data.",
        source="docs/frameworks/easyr1.md §3",
        versions="0.3.1 –",
    ),
    R(
        "easyr1.unknown-estimator",
        "check",
        "easyr1",
        ("error",),
        "algorithm.adv_estimator names an estimator EasyR1 does not have.",
    ),
    R(
        "easyr1.unknown-key",
        "check",
        "easyr1",
        ("error",),
        "A key EasyR1's config dataclasses do not have (its loader refuses unknown keys).",
    ),
)
