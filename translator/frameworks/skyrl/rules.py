"""SkyRL's check rules and its own notes in the catalogue of codes (translator/rules.py ``catalogue``;
docs/rules.md is generated from it), with SkyRL's message text and the source each cites."""

from __future__ import annotations

from translator.rule_info import RuleInfo as R

_U = "skyrl/train/utils/utils.py"
RULES: tuple[R, ...] = (
    R(
        "skyrl.train-ge-mini",
        "check",
        "skyrl",
        ("error",),
        "validate_batch_sizes asserts train_batch_size >= policy_mini_batch_size (a bare assert: no message).",
        # a bare assert: the statement as SkyRL writes it
        message="assert cfg.trainer.train_batch_size >= cfg.trainer.policy_mini_batch_size",
        source=f"docs/frameworks/skyrl.md §5; {_U}:73@skyrl-v0.3.0",
        at_start=True,
    ),
    R(
        "skyrl.mini-positive",
        "check",
        "skyrl",
        ("error",),
        "The policy mini-batch (prompts) must be positive.",
        message="policy_mini_batch_size must be greater than 0",
        source=f"docs/frameworks/skyrl.md §5; {_U}:74@skyrl-v0.3.0",
        at_start=True,
    ),
    R(
        "skyrl.micro-positive",
        "check",
        "skyrl",
        ("error",),
        "The training micro-batch (samples per GPU) must be positive.",
        message="micro_train_batch_size_per_gpu must be greater than 0",
        source=f"docs/frameworks/skyrl.md §5; {_U}:78@skyrl-v0.3.0",
        at_start=True,
    ),
    R(
        "skyrl.megatron-world",
        "check",
        "skyrl",
        ("error",),
        "Megatron: the policy's GPUs must split into whole pipeline × context × tensor groups.",
        message=(
            "policy_world_size {…} should be divisible by (pp * cp * tp) {…}. This ensures that the data "
            "parallel size is an integer."
        ),
        source=f"docs/frameworks/skyrl.md §5; {_U}:88-91@skyrl-v0.3.0",
        versions="skyrl_train-0.2.0+",
        at_start=True,
    ),
    R(
        "skyrl.train-divisible-by-mini",
        "check",
        "skyrl",
        ("error",),
        "A step's prompts must split into whole mini-batches of prompts.",
        message="train_batch_size {…} should be divisible by policy_mini_batch_size {…}",
        source=f"docs/frameworks/skyrl.md §5; {_U}:96-99@skyrl-v0.3.0",
        at_start=True,
    ),
    R(
        "skyrl.mini-per-gpu-positive",
        "check",
        "skyrl",
        ("error",),
        "A mini-batch's samples (mini × n) floored per data-parallel rank must be at least one.",
        message=(
            "Invalid policy_mini_batch_size_per_gpu: {…}. mini_batch_size={…}, n_samples_per_prompt={…}, dp_size={…}"
        ),
        source=f"docs/frameworks/skyrl.md §5; {_U}:106-111@skyrl-v0.3.0",
        at_start=True,
    ),
    R(
        "skyrl.mini-per-gpu-divisible-by-micro",
        "check",
        "skyrl",
        ("error",),
        "Each rank's share of a mini-batch (floored) must split into whole micro-batches.",
        message=(
            "normalized policy_mini_batch_size_per_gpu {…} should be divisible by micro_train_batch_size_per_gpu {…}"
        ),
        source=f"docs/frameworks/skyrl.md §5; {_U}:112-115@skyrl-v0.3.0",
        at_start=True,
    ),
    R(
        "skyrl.train-per-gpu-divisible-by-mini-per-gpu",
        "check",
        "skyrl",
        ("error",),
        "Each rank's share of the step (floored) must split into whole per-rank mini-batches.",
        message=(
            "normalized policy_train_batch_size_per_gpu (train_batch_size * n_samples_per_prompt // "
            "policy_dp_size) {…} should be divisible by policy_mini_batch_size_per_gpu "
            "(policy_mini_batch_size * n_samples_per_prompt // policy_dp_size) {…}"
        ),
        source=f"docs/frameworks/skyrl.md §5; {_U}:125-129@skyrl-v0.3.0",
        at_start=True,
    ),
    R(
        "skyrl.lcm-dp",
        "check",
        "skyrl",
        ("error",),
        "A step's samples must be at least the lcm of the policy's and (with KL) the reference's data-parallel sizes.",
        message=(
            "train_batch_size * n_samples_per_prompt ({…}) should be larger than or equal to the least "
            "common multiple of the data parallel sizes of the enabled models: policy_dp_size={…}, "
            "ref_dp_size={…}, lcm_dp_size={…}"
        ),
        source=f"docs/frameworks/skyrl.md §5; {_U}:185-190@skyrl-v0.3.0",
        versions="skyrl_train-0.2.0+",
        at_start=True,
    ),
    R(
        "skyrl.colocate-all-gpus",
        "check",
        "skyrl",
        ("error",),
        "colocate_all: the policy's GPUs must equal the inference engines' (engines × TP × PP × DP).",
        message="num_policy_gpus ({…}) and num_rollout_gpus ({…}) must be the same when colocating all models",
        source=f"docs/frameworks/skyrl.md §5; {_U}:436-445@skyrl-v0.3.0",
        versions="skyrl_train-0.4.0+",
        at_start=True,
    ),
    R(
        "skyrl.kl-exclusive",
        "check",
        "skyrl",
        ("error",),
        "KL in the reward and KL in the loss cannot both be on (use_kl_loss is on by default).",
        message="use_kl_in_reward and use_kl_loss should be mutually exclusive",
        source=f"docs/frameworks/skyrl.md §5; {_U}:300-302@skyrl-v0.3.0",
        at_start=True,
    ),
    R(
        "skyrl.gae-needs-critic",
        "check",
        "skyrl",
        ("error",),
        "The gae estimator needs a critic model.",
        message="`trainer.critic.model.path` should be provided for PPO training, got `None`",
        source=f"docs/frameworks/skyrl.md §5; {_U}:295-298@skyrl-v0.3.0",
        at_start=True,
    ),
    R(
        "skyrl.max-training-steps",
        "check",
        "skyrl",
        ("error",),
        "A step limit, when set, must be positive.",
        message="max_training_steps must be > 0, got {…}",
        source=f"docs/frameworks/skyrl.md §5; {_U}:272-274@skyrl-v0.3.0",
        versions="0.3.0+",
        at_start=True,
    ),
    R(
        "skyrl.plus-prefix",
        "check",
        "skyrl",
        ("error",),
        "The skyrl package's from_cli_overrides refuses '+key=value' (the Hydra package appends the key).",
        message=(
            "The '+' prefix for adding new config fields is not supported: '{…}'. To add custom config "
            "fields, subclass the relevant config dataclass."
        ),
        source="docs/frameworks/skyrl.md §1; skyrl/train/config/config.py:1241-1247@skyrl-v0.3.0",
        versions="0.1.0+",
        at_start=True,
    ),
    R(
        "skyrl.async-ignored",
        "note",
        "skyrl",
        ("warning",),
        "trainer.fully_async.enabled under main_base, whose trainer is synchronous: the knob is read by nothing.",
        source="docs/frameworks/skyrl.md §4; skyrl/train/fully_async_trainer.py:360@skyrl-v0.3.0",
    ),
    R(
        "skyrl.version-era",
        "note",
        "skyrl",
        ("warning",),
        "The launch runs one package (skyrl or skyrl_train) and --from names a release of the other.",
        source="docs/frameworks/skyrl.md §1",
    ),
    R(
        "skyrl.total-steps-cap",
        "note",
        "skyrl",
        ("info",),
        (
            "The step count is written as trainer.max_training_steps, a cap: SkyRL stops at min(dataset "
            "batches × epochs, it)."
        ),
        source="docs/frameworks/skyrl.md §3; skyrl/train/trainer.py:225-227@skyrl-v0.3.0",
    ),
    R(
        "skyrl.gpu-memory-fraction-range",
        "check",
        "skyrl",
        ("error",),
        "generator.inference_engine.gpu_memory_utilization must lie in (0, 1].",
    ),
    R(
        "skyrl.learning-rate-range",
        "check",
        "skyrl",
        ("error", "warning"),
        "The learning rate is 0 (no update) or negative (rejected by AdamW).",
    ),
    R(
        "skyrl.unknown-key",
        "check",
        "skyrl",
        ("error",),
        "An override of a key SkyRL's config does not have (from_cli_overrides refuses it).",
    ),
)
