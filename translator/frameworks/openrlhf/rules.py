"""OpenRLHF's check rules in the catalogue of codes (translator/rules.py ``catalogue``; docs/rules.md is
generated from it): each code its checks can report, with its severities, a one-line description, the framework's
own message where the rule mirrors one, and the source it cites."""

from __future__ import annotations

from translator.rule_info import RuleInfo as R

RULES: tuple[R, ...] = (
    R(
        "openrlhf.async-vllm-sleep",
        "check",
        "openrlhf",
        ("error",),
        "Async RLHF is not supported with ….",
        message="Async RLHF is not supported with {…}.",
    ),
    R(
        "openrlhf.colocate-actor-ref-sizes",
        "check",
        "openrlhf",
        ("error",),
        "Colocating actor and reference needs the same node and GPU counts for both.",
    ),
    R(
        "openrlhf.colocate-all-async",
        "check",
        "openrlhf",
        ("warning",),
        "[Warning] Using --colocate_all_models in async RLHF only colocates DeepSpeed models. (the … vLLM "
        "engine(s) take … GPUs of their own)",
    ),
    R(
        "openrlhf.colocate-all-engine-gpus",
        "check",
        "openrlhf",
        ("error",),
        "Synchronous colocate_all puts one vLLM GPU on every actor GPU.",
        message=(
            "actor_num_nodes * actor_num_gpus_per_node must be equal to vllm_num_engines * vllm_tensor_parallel_size, "
            "got {…} and {…}"
        ),
        source="docs/frameworks/openrlhf.md §6",
    ),
    R(
        "openrlhf.colocate-critic-reward-sizes",
        "check",
        "openrlhf",
        ("error",),
        "Colocating critic and reward model needs the same node and GPU counts for both.",
    ),
    R(
        "openrlhf.colocate-memory-forced",
        "check",
        "openrlhf",
        ("warning",),
        "0.5.8–0.6.0 lower vllm_gpu_memory_utilization ≥ 0.9 to 0.4 under colocate_all_models (train()).",
    ),
    R(
        "openrlhf.critic-divides-actor",
        "check",
        "openrlhf",
        ("error",),
        "Up to 0.7.0 the critic's world size must divide the actor's (only with a critic from 0.5.1).",
        message="actor_world_size must be divisible by critic_world_size, got {…} and {…}",
    ),
    R(
        "openrlhf.critic-train-batch-divisible",
        "check",
        "openrlhf",
        ("error",),
        "The train batch must split over the critic's data-parallel ranks and micro-batches (DeepSpeed's check).",
    ),
    R(
        "openrlhf.dual-clip-range",
        "check",
        "openrlhf",
        ("error",),
        "dual_clip must be > 1.0, got …",
        message="dual_clip must be > 1.0, got {…}",
    ),
    R(
        "openrlhf.dynamic-filtering-needs-remote-reward",
        "check",
        "openrlhf",
        ("error",),
        "Dynamic filtering (0.8.1+) keeps groups by their mean score: it needs groups and a scoring function.",
        message="remote_rm_url or agent_func_path must be specified when using dynamic filtering",
    ),
    R(
        "openrlhf.dynamic-filtering-needs-samples",
        "check",
        "openrlhf",
        ("error",),
        "Dynamic filtering (0.8.1+) keeps groups by their mean score: it needs groups and a scoring function.",
        message="n_samples_per_prompt must be greater than 1 when using dynamic filtering",
    ),
    R(
        "openrlhf.dynamic-filtering-range",
        "check",
        "openrlhf",
        ("error",),
        "Dynamic filtering (0.8.1+) keeps groups by their mean score: it needs groups and a scoring function.",
        message="reward_clip_range[0] must be less than reward_clip_range[1]",
    ),
    R(
        "openrlhf.dynamic-train-batch-per-rank",
        "check",
        "openrlhf",
        ("warning",),
        "Dynamic batching takes train.batch_size // dp samples per rank and optimizer step (replay_buffer.py).",
    ),
    R(
        "openrlhf.engines-divide-actor",
        "check",
        "openrlhf",
        ("error",),
        "The vLLM engines must divide the actor's GPUs when they are colocated.",
    ),
    R(
        "openrlhf.eval-needs-remote-reward",
        "check",
        "openrlhf",
        ("error",),
        "Evaluation needs a remote reward or agent function in this release.",
    ),
    R(
        "openrlhf.flag-scheme",
        "check",
        "openrlhf",
        ("error",),
        "0.10.2 renamed every flag with no alias: the other scheme's spelling is an argparse error.",
        message="unrecognized arguments: {…}",
        source="docs/frameworks/openrlhf.md §1",
    ),
    R(
        "openrlhf.gamma-ignored",
        "check",
        "openrlhf",
        ("warning",),
        "Gamma is set to 1.0 for rloo, reinforce_baseline, and group_norm (--… … is replaced for …)",
    ),
    R(
        "openrlhf.generate-batch-ignored",
        "check",
        "openrlhf",
        ("warning",),
        "vllm_generate_batch_size changed meaning twice.",
        source="docs/frameworks/openrlhf.md §3",
    ),
    R(
        "openrlhf.generate-batch-is-step",
        "check",
        "openrlhf",
        ("warning",),
        "vllm_generate_batch_size changed meaning twice.",
        source="docs/frameworks/openrlhf.md §3",
    ),
    R(
        "openrlhf.gpu-memory-fraction-range",
        "check",
        "openrlhf",
        ("error",),
        "The vLLM GPU memory share must lie in (0, 1].",
    ),
    R(
        "openrlhf.group-estimator-needs-samples",
        "check",
        "openrlhf",
        ("error",),
        "A group-based advantage estimator needs more than one sample per prompt.",
    ),
    R(
        "openrlhf.invalid-estimator",
        "check",
        "openrlhf",
        ("error",),
        "--advantage_estimator is an argparse choice; a name from another framework (grpo) is rejected.",
        message="argument --{…}: invalid choice: {…} (choose from {…})",
        source="docs/frameworks/openrlhf.md §5.1",
    ),
    R(
        "openrlhf.is-correction-threshold",
        "check",
        "openrlhf",
        ("error",),
        '0.11.2 takes one (HIGH) or two (LOW HIGH) threshold values (nargs="+";).',
        message="--algo.advantage.is_correction_threshold takes HIGH or LOW HIGH",
        source="docs/frameworks/openrlhf.md §5.5",
    ),
    R(
        "openrlhf.learning-rate-range",
        "check",
        "openrlhf",
        ("error", "warning"),
        "The learning rate is 0 (no update) or negative (DeepSpeed's Adam accepts it and climbs the loss).",
    ),
    R(
        "openrlhf.oversampling-needs-async",
        "check",
        "openrlhf",
        ("error",),
        "Over-sampling generation is only supported with asynchronous training.",
    ),
    R(
        "openrlhf.parallel-divides-gpus",
        "check",
        "openrlhf",
        ("error",),
        "Ring attention × DeepSpeed TP groups must tile the actor GPUs; OpenRLHF builds them without a check.",
    ),
    R(
        "openrlhf.partial-rollout-needs-async",
        "check",
        "openrlhf",
        ("error",),
        "Partial rollouts are only supported with asynchronous training.",
    ),
    R(
        "openrlhf.rollout-not-whole-train-batches",
        "check",
        "openrlhf",
        ("warning",),
        "Nothing checks rbs·n ÷ tbs; the floors drop or carry samples.",
        source="docs/frameworks/openrlhf.md §4",
    ),
    R(
        "openrlhf.rollout-per-rank",
        "check",
        "openrlhf",
        ("error", "warning"),
        "Up to 0.7.0 each actor rank loads rollout_batch_size // ranks prompts; 0.5.6–0.7.0 assert divisibility.",
        message="rollout_bach_size must be divisible by actor_world_size, got {…} and {…}",
    ),
    R(
        "openrlhf.tensor-parallel-needs-bf16",
        "check",
        "openrlhf",
        ("error",),
        "DeepspeedStrategy asserts bf16 for AutoTP: `--bf16` up to 0.9.1, `param_dtype bf16` after.",
        message="BF16 is required for tensor parallel training",
        source="docs/frameworks/openrlhf.md §6",
    ),
    R(
        "openrlhf.too-few-rollout-batches",
        "check",
        "openrlhf",
        ("error",),
        "Every DP group needs one experience batch: n·rbs // micro_rollout ≥ effective actors.",
        message=(
            "The number of sample batches must be greater than or equal to the effective number of actor processes."
        ),
        source="docs/frameworks/openrlhf.md §6",
    ),
    R(
        "openrlhf.train-batch-divisible",
        "check",
        "openrlhf",
        ("error",),
        "The train batch must split over the actor's data-parallel ranks and micro-batches (DeepSpeed's check).",
    ),
    R(
        "openrlhf.uneven-rollout-shards",
        "check",
        "openrlhf",
        ("warning",),
        "Experiences of micro_rollout samples are dealt to the ranks in whole chunks of ceil(len / dp).",
        source="docs/frameworks/openrlhf.md §3",
    ),
    R(
        "openrlhf.unknown-flag",
        "check",
        "openrlhf",
        ("error",),
        "A flag this version's parser does not have (in neither scheme): argparse's 'unrecognized arguments' ",
        message="unrecognized arguments: {…}",
        source="docs/frameworks/openrlhf.md §1",
    ),
    R("openrlhf.unknown-key", "check", "openrlhf", ("error",), "A flag this release's argument parser does not have."),
    R(
        "openrlhf.vllm-engines-required",
        "check",
        "openrlhf",
        ("error",),
        "From 0.8.0 there is no HF-generate fallback: without vLLM engines a run cannot roll out ",
        message=(
            "'>' not supported between instances of 'NoneType' and 'int' (_validate_args compares --{…}, not set, "
            "with 0; 0 generates with the actor)"
        ),
        source="docs/frameworks/openrlhf.md §3",
    ),
    R(
        "openrlhf.vllm-sleep-ignored",
        "check",
        "openrlhf",
        ("warning",),
        "vLLM sleep mode is set where this release ignores it.",
    ),
    R(
        "openrlhf.vlm-no-critic",
        "check",
        "openrlhf",
        ("error",),
        "max_images_per_prompt > 0 (VLM, 0.10.0+) allows no critic (GAE) and no --packing_samples as written: "
        "ring attention and dynamic batching switch …",
        message=(
            "VLM training does not support critic model. Use --advantage_estimator other than 'gae' (e.g., "
            "reinforce_baseline, rloo, group_norm)."
        ),
        source="docs/frameworks/openrlhf.md §6",
    ),
    R(
        "openrlhf.vlm-no-packing",
        "check",
        "openrlhf",
        ("error",),
        "max_images_per_prompt > 0 (VLM, 0.10.0+) allows no critic (GAE) and no --packing_samples as written: "
        "ring attention and dynamic batching switch …",
        message=(
            "VLM training does not support --packing_samples. Packing collapses the batch dimension, breaking "
            "alignment between image tokens and pixel_values. VLM models also require model-computed position_ids "
            "(e.g., M-RoPE) which is incompatible with packing."
        ),
        source="docs/frameworks/openrlhf.md §6",
    ),
    R(
        "openrlhf.zero3-needs-vllm",
        "check",
        "openrlhf",
        ("error",),
        "ZeRO-3 is only supported when vLLM enabled",
        message="ZeRO-3 is only supported when vLLM enabled",
    ),
)
