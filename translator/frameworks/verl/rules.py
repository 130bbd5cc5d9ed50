"""verl's check rules in the catalogue of codes (translator/rules.py ``catalogue``; docs/rules.md is
generated from it): each code its checks can report, with its severities, a one-line description, the framework's
own message where the rule mirrors one, and the source it cites."""

from __future__ import annotations

from translator.rule_info import RuleInfo as R

RULES: tuple[R, ...] = (
    R(
        "verl.clip-ratio-c",
        "check",
        "verl",
        ("error",),
        "The vanilla PPO loss asserts clip_ratio_c > 1 in the first update (dual-clip since 0.4).",
        message=(
            "The lower bound of the clip_ratio_c for dual-clip PPO should be greater than 1.0, but get the value: {…}."
        ),
        source="docs/frameworks/verl.md §3.1",
        versions="0.4.1 –",
    ),
    R(
        "verl.clip-ratio-ignored",
        "check",
        "verl",
        ("warning",),
        "clip_ratio alone is shadowed by clip_ratio_low/high (0.4+); actor.grad_clip is read by nothing in the "
        "engine (0.8+), which clips with optim.clip_grad.",
        source="docs/frameworks/verl.md §8",
        versions="0.4.1 –",
    ),
    R(
        "verl.deprecated-micro-batch-unsupported",
        "check",
        "verl",
        ("error",),
        "The deprecated global micro-batch (samples) against the mini-batch (prompts!) and the GPUs; 0.8+ engine "
        "workers need the per-GPU key.",
        message="AssertionError: assert self.config.actor.ppo_micro_batch_size_per_gpu is not None",
        source="docs/frameworks/verl.md §3.1",
        versions="0.8.0 –",
    ),
    R(
        "verl.deprecated-micro-divides-mini",
        "check",
        "verl",
        ("error",),
        "The deprecated global micro-batch must divide the mini-batch's samples.",
    ),
    R(
        "verl.deprecated-micro-too-small",
        "check",
        "verl",
        ("error",),
        "The deprecated global micro-batch is smaller than the data-parallel world (0 per GPU).",
    ),
    R(
        "verl.fully-async-gen-batch",
        "check",
        "verl",
        ("error",),
        "The fully asynchronous rollouter's start-up asserts (fully_async_rollouter.py@v0.9.1:350-356, :733), in "
        "verl's words: no hybrid engine …",
        message="gen_batch_size must be one",
        source="fully_async_rollouter.py@v0.9.1",
    ),
    R(
        "verl.fully-async-hybrid-engine",
        "check",
        "verl",
        ("error",),
        "The fully asynchronous rollouter's start-up asserts (fully_async_rollouter.py@v0.9.1:350-356, :733), in "
        "verl's words: no hybrid engine …",
        message=(
            "AssertionError: assert not self.hybrid_engine (the fully asynchronous trainer needs "
            "actor_rollout_ref.hybrid_engine=False)"
        ),
        source="fully_async_rollouter.py@v0.9.1",
    ),
    R(
        "verl.fully-async-log-probs",
        "check",
        "verl",
        ("error",),
        "The fully asynchronous rollouter's start-up asserts (fully_async_rollouter.py@v0.9.1:350-356, :733), in "
        "verl's words: no hybrid engine …",
        message="must rollout calculate log_probs",
        source="fully_async_rollouter.py@v0.9.1",
    ),
    R(
        "verl.fully-async-staleness",
        "check",
        "verl",
        ("error",),
        "The fully asynchronous rollouter's start-up asserts (fully_async_rollouter.py@v0.9.1:350-356, :733), in "
        "verl's words: no hybrid engine …",
        message="staleness_threshold must larger than 0",
        source="fully_async_rollouter.py@v0.9.1",
    ),
    R(
        "verl.fully-async-sync-step",
        "check",
        "verl",
        ("error",),
        "The fully asynchronous rollouter's start-up asserts (fully_async_rollouter.py@v0.9.1:350-356, :733), in "
        "verl's words: no hybrid engine …",
        message="trigger_parameter_sync_step must larger or equal than 1",
        source="fully_async_rollouter.py@v0.9.1",
    ),
    R(
        "verl.fully-async-train-batch",
        "check",
        "verl",
        ("error",),
        "The fully asynchronous rollouter's start-up asserts (fully_async_rollouter.py@v0.9.1:350-356, :733), in "
        "verl's words: no hybrid engine …",
        message="train_batch_size must be zero",
        source="fully_async_rollouter.py@v0.9.1",
    ),
    R(
        "verl.gen-batch-divisible",
        "check",
        "verl",
        ("error",),
        "train_batch_size is fetched in whole gen_batch_size pieces (forced to 1 with filtering).",
        message=(
            "num_prompts ({…}) must be a positive multiple of gen_batch_size ({…}); it is submitted in whole "
            "gen_batch_size dataloader fetches."
        ),
        source="docs/frameworks/verl.md §3.2; fully_async_main.py@v0.9.1",
        versions="0.9.0 –",
    ),
    R(
        "verl.gpu-memory-fraction-range",
        "check",
        "verl",
        ("error",),
        "rollout.gpu_memory_utilization must lie in (0, 1].",
    ),
    R(
        "verl.grad-clip-ignored",
        "check",
        "verl",
        ("warning",),
        "clip_ratio alone is shadowed by clip_ratio_low/high (0.4+); actor.grad_clip is read by nothing in the "
        "engine (0.8+), which clips with optim.clip_grad.",
        source="docs/frameworks/verl.md §8",
        versions="0.8.0 –",
    ),
    R(
        "verl.group-size-one",
        "check",
        "verl",
        ("warning",),
        "a group of one sample gets mean 0 and std 1, so the advantage is the raw score.",
        source="docs/frameworks/verl.md §5",
    ),
    R(
        "verl.learning-rate-range",
        "check",
        "verl",
        ("error", "warning"),
        "The learning rate is 0 (no update) or negative (rejected by AdamW).",
    ),
    R(
        "verl.loss-agg-mode",
        "check",
        "verl",
        ("error",),
        "loss_agg_mode must be one verl knows (key since 0.4; token-sum since 0.9).",
        message="Invalid loss_agg_mode: {…}",
        source="docs/frameworks/verl.md §3.1",
        versions="0.4.1 –",
    ),
    R(
        "verl.megatron-parallel-divisible",
        "check",
        "verl",
        ("error",),
        "Megatron's TP × PP × CP must divide the GPUs.",
        message="n_gpus ({…}) must be divisible by model_parallel_size ({…}) times context_parallel_size ({…})",
        source="docs/frameworks/verl.md §3.1",
    ),
    R(
        "verl.micro-batch-both-set",
        "check",
        "verl",
        ("error",),
        "Both the global and the per-GPU micro-batch key are set for one section.",
    ),
    R(
        "verl.micro-batch-divides-mini",
        "check",
        "verl",
        ("error", "warning"),
        "The per-rank mini-batch must split into micro-batches (legacy asserts even with dynamic batch sizes; 0.3 "
        "only for the global key).",
        message="normalized ppo_mini_batch_size {…} should be divisible by ppo_micro_batch_size_per_gpu {…}",
        source="docs/frameworks/verl.md §2.1",
    ),
    R(
        "verl.micro-batch-missing",
        "check",
        "verl",
        ("error",),
        "Neither micro-batch key is set for a section (without dynamic batch sizes).",
    ),
    R(
        "verl.mini-batch-dp-divisible",
        "check",
        "verl",
        ("error",),
        "Mini × n samples over the DP ranks",
        message="Got mini_batch_size={…} and self.engine.get_data_parallel_size()={…}",
        source="docs/frameworks/verl.md §2.1",
    ),
    R(
        "verl.mini-batch-floor-division",
        "check",
        "verl",
        ("warning",),
        "Mini × n samples over the DP ranks",
        source="docs/frameworks/verl.md §2.1",
        versions="0.1 – 0.7.1",
    ),
    R(
        "verl.mini-batch-larger-than-train",
        "check",
        "verl",
        ("error",),
        "ppo_mini_batch_size is larger than train_batch_size.",
        versions="0.3.0 –",
    ),
    R(
        "verl.mini-batch-remainder",
        "check",
        "verl",
        ("error", "warning"),
        "a step of train_batch_size prompts is cut into mini-batches of ppo_mini_batch_size prompts",
        source="docs/frameworks/verl.md §2.3; fully_async_main.py@v0.9.1",
    ),
    R(
        "verl.mini-batch-zero",
        "check",
        "verl",
        ("error",),
        "Mini × n samples over the DP ranks",
        message="ppo_mini_batch_size 0 should be larger than 0 after normalization",
        source="docs/frameworks/verl.md §2.1",
        versions="0.1 – 0.7.1",
    ),
    R(
        "verl.off-policy-strategy",
        "check",
        "verl",
        ("error",),
        "replay_buffer.py ReplayBuffer.__init__: the staleness threshold is a positive integer (0.9.1: or null) "
        "and the strategy drop or wait",
        message="Invalid max off policy strategy: {…}, must be one of ['drop', 'wait']",
        versions="0.9.0 –",
    ),
    R(
        "verl.off-policy-threshold",
        "check",
        "verl",
        ("error",),
        "The fully asynchronous trainer's staleness threshold must be a positive integer.",
        versions="0.9.0 –",
    ),
    R(
        "verl.parameter-sync-divisible",
        "check",
        "verl",
        ("error",),
        "The v1 step (trainer_base.py@v0.9.1 PPOTrainer.step) splits train_batch_size into parameter_sync_step "
        "local updates; separate_async …",
        message="train_batch_size ({…}) must be divisible by parameter_sync_step ({…})",
        source="trainer_base.py@v0.9.1; trainer_separate_async.py@v0.9.1",
        versions="0.9.0 –",
    ),
    R(
        "verl.real-batch-divisible",
        "check",
        "verl",
        ("error",),
        "The rollout's samples must split evenly over the data-parallel ranks.",
    ),
    R(
        "verl.rollout-name-missing",
        "check",
        "verl",
        ("error",),
        "rollout.name is `???` (mandatory) since 0.6; OmegaConf fails on the first access.",
        message="Missing mandatory value: {…}.name",
        source="docs/frameworks/verl.md §5",
        versions="0.6.1 –",
    ),
    R(
        "verl.rollout-tp-divisible",
        "check",
        "verl",
        ("error",),
        "Every vLLM/SGLang replica takes TP (× DP × PP from 0.6) of the N colocated GPUs.",
        message="rollout world_size: {…} is not divisible by {…}: {…}",
        source="docs/frameworks/verl.md §1",
    ),
    R(
        "verl.separate-async-backend",
        "check",
        "verl",
        ("error",),
        "trainer_separate_async.py@v0.9.1 __init__: a standalone rollout pool, a weight-transfer backend other "
        "than naive, and a reward model with GPUs of its …",
        message="please use nccl/nixl/mooncake, etc. backend for separate async training",
        source="trainer_separate_async.py@v0.9.1",
        versions="0.9.0 –",
    ),
    R(
        "verl.separate-async-batch",
        "check",
        "verl",
        ("error",),
        "The v1 step (trainer_base.py@v0.9.1 PPOTrainer.step) splits train_batch_size into parameter_sync_step "
        "local updates; separate_async …",
        message=(
            "train_batch_size must equal parameter_sync_step * ppo_mini_batch_size in separate async training, but "
            "got train_batch_size={…}, parameter_sync_step={…}, ppo_mini_batch_size={…}"
        ),
        source="trainer_base.py@v0.9.1; trainer_separate_async.py@v0.9.1",
        versions="0.9.0 –",
    ),
    R(
        "verl.separate-async-reward-model",
        "check",
        "verl",
        ("error",),
        "trainer_separate_async.py@v0.9.1 __init__: a standalone rollout pool, a weight-transfer backend other "
        "than naive, and a reward model with GPUs of its …",
        message=(
            "Colocate reward model (reward.reward_model.enable_resource_pool=False) is not supported in separate "
            "async mode, because the standalone rollout never pauses to free GPU memory. Use standalone mode "
            "(reward.reward_model.enable_resource_pool=True) instead."
        ),
        source="trainer_separate_async.py@v0.9.1",
        versions="0.9.0 –",
    ),
    R(
        "verl.separate-async-rollout-pool",
        "check",
        "verl",
        ("error",),
        "trainer_separate_async.py@v0.9.1 __init__: a standalone rollout pool, a weight-transfer backend other "
        "than naive, and a reward model with GPUs of its …",
        message="nnodes must be > 0 in separate async training",
        source="trainer_separate_async.py@v0.9.1",
        versions="0.9.0 –",
    ),
    R(
        "verl.sequence-parallel-remove-padding",
        "check",
        "verl",
        ("error",),
        " FSDPActorConfig.validate (≤ 0.5 _validate_config, also the ref's key): Ulysses needs use_remove_padding "
        "(default False before 0.7)",
        message="When using sequence parallelism for actor/ref policy, you must enable `use_remove_padding`.",
        source="docs/frameworks/verl.md §3.1",
    ),
    R(
        "verl.trainer-mode",
        "check",
        "verl",
        ("error",),
        "trainer_base.py@v0.9.1 get_trainer_cls: the mode names a registered trainer.",
        message="Unknown trainer '{…}'. Available trainers: {…}.",
        source="trainer_base.py@v0.9.1",
        versions="0.9.0 –",
    ),
    R(
        "verl.unknown-key",
        "check",
        "verl",
        ("error",),
        "An override of a key verl's config does not have (Hydra refuses it without +).",
    ),
    R(
        "verl.validation-temperature",
        "check",
        "verl",
        ("error",),
        "Sampled validation needs a positive temperature.",
        message="validation gen temperature should be greater than 0 when enabling do_sample",
        source="docs/frameworks/verl.md §3.1",
    ),
)
