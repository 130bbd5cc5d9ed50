"""SkyRL's tables as data (docs/frameworks/skyrl.md, docs/frameworks/data/skyrl.yaml): releases, key names per
era, defaults per release, the releases a key exists in."""

from __future__ import annotations

from typing import Any

# Oldest → newest: the Hydra package skyrl_train (spelled with its tag prefix, as in the docs' data), then the
# dataclass package skyrl.
OLD_ERA = ("skyrl_train-0.1.0", "skyrl_train-0.2.0", "skyrl_train-0.3.0", "skyrl_train-0.4.0")
NEW_ERA = ("0.1.0", "0.2.0", "0.3.0", "0.4.0")
VERSIONS = (*OLD_ERA, *NEW_ERA)
CHANGES = {
    "skyrl_train-0.1.0": "the Hydra app skyrl_train.entrypoints.main_base over ppo_base_config.yaml; "
    "policy_num_gpus_per_node and inference_engine_tensor_parallel_size default 4; no lcm check",
    "skyrl_train-0.2.0": "the lcm check of the policy and reference data-parallel sizes; Megatron",
    "skyrl_train-0.3.0": "fully_async knobs",
    "skyrl_train-0.4.0": "policy/ref GPUs and inference TP default 1; the colocate_all GPU check",
    "0.1.0": "the skyrl package: dataclass config, key=value overrides via SkyRLTrainConfig.from_cli_overrides "
    "('+key' refused); inference-engine keys nested under generator.inference_engine.",
    "0.2.0": "trainer.strategy still defaults to fsdp2",
    "0.3.0": "trainer.strategy defaults to fsdp (fsdp2 renamed to it); trainer.max_tokens_per_microbatch; "
    "trainer.max_training_steps; trainer.fully_async.enabled",
    "0.4.0": "batch defaults and validate_batch_sizes unchanged (needs Python >= 3.12)",
}
ENTRY = {"skyrl.train.entrypoints.main_base": "new", "skyrl_train.entrypoints.main_base": "old"}
# SkyRL's own entry points that train no policy on rollouts (skyrl/train@skyrl-v0.3.0, the same in the 0.4.0 wheel;
# skyrl_train's before): what each runs instead. A project entry that imports the SFT trainer is the first kind.
NOT_RL_ENTRIES = {
    "skyrl.train.main_sft": "SkyRL's supervised fine-tuning (SFTTrainer, skyrl/train/sft_trainer.py)",
    "skyrl.train.entrypoints.main_generate": "generation and evaluation only (main_generate trains nothing)",
    "skyrl_train.entrypoints.main_generate": "generation and evaluation only (main_generate trains nothing)",
    "skyrl.train.entrypoints.serve": "an inference server (serve trains nothing)",
}
SFT_TRAINING = "SkyRL's supervised fine-tuning (it imports the SFT trainer, skyrl/train/sft_trainer.py)"
STEP_WISE = "generator.step_wise_trajectories"  # each turn a training sequence of its own
PADDED_FROM = "0.2.0"  # stage_chunks pads an uneven mini-batch per rank (dispatch.py:197@skyrl-v0.2.0); 0.1.0 asserts
SCHEMA_RELEASES = ("0.3.0", "0.4.0")  # the releases whose config schema rlconf ships (translator/schema_data)
CONFIG_ROOT = "SkyRLTrainConfig"  # the skyrl package's config class (skyrl/train/config/config.py@skyrl-v0.3.0)
# Keys from_cli_overrides rewrites before the dataclasses check the rest (skyrl/train/config/config.py:1289-1336
# @skyrl-v0.3.0, the same in the 0.4.0 wheel; fields of their own in 0.1.0 and 0.2.0): the first release that does,
# and key → the key it becomes (None: dropped when true; false is refused with SkyRL's message).
# trainer.fully_async.simulate_training=true: main_base builds no models and FullyAsyncTrainerSim sleeps in place of
# each training step (main_base.py:301-313, fully_async_trainer_sim.py:54-73@skyrl-v0.3.0; a key from 0.3.0)
SIMULATED_TRAINING = "trainer.fully_async.simulate_training"
REWRITTEN_FROM = "0.3.0"
REWRITTEN_KEYS: dict[str, str | None] = {
    "generator.inference_engine.async_engine": None,
    "trainer.use_sample_packing": "trainer.remove_microbatch_padding",
}
ASYNC_ENGINE_FALSE = (
    "`async_engine=False` is no longer supported; SkyRL always uses the async HTTP/vLLM inference path. Remove the "
    "override."
)

# Native keys (the skyrl package's spelling; OLD_NAMES gives the Hydra package's where it differs).
TBS, N, MINI = "trainer.train_batch_size", "generator.n_samples_per_prompt", "trainer.policy_mini_batch_size"
CRITIC_MINI = "trainer.critic_mini_batch_size"
MICRO, FORWARD_MICRO = "trainer.micro_train_batch_size_per_gpu", "trainer.micro_forward_batch_size_per_gpu"
TOKENS = "trainer.max_tokens_per_microbatch"
EPOCHS_PER_BATCH, EPOCHS, MAX_STEPS = "trainer.update_epochs_per_batch", "trainer.epochs", "trainer.max_training_steps"
P = "trainer.placement."
NODES, GPUS = P + "policy_num_nodes", P + "policy_num_gpus_per_node"
REF_NODES, REF_GPUS = P + "ref_num_nodes", P + "ref_num_gpus_per_node"
CRITIC_NODES, CRITIC_GPUS = P + "critic_num_nodes", P + "critic_num_gpus_per_node"
COLOCATE = P + "colocate_all"
IE = "generator.inference_engine."
ENGINES, ENGINE_TP, ENGINE_PP, ENGINE_DP = (
    IE + "num_engines",
    IE + "tensor_parallel_size",
    IE + "pipeline_parallel_size",
    IE + "data_parallel_size",
)
BACKEND, GPU_MEMORY = IE + "backend", IE + "gpu_memory_utilization"
STRATEGY, SP = "trainer.strategy", "trainer.policy.sequence_parallel_size"
MEGATRON = "trainer.policy.megatron_config."
MEG_TP, MEG_PP, MEG_CP = (
    MEGATRON + "tensor_model_parallel_size",
    MEGATRON + "pipeline_model_parallel_size",
    MEGATRON + "context_parallel_size",
)
A = "trainer.algorithm."
ESTIMATOR, NORM_BY_STD, BATCH_NORM = A + "advantage_estimator", A + "grpo_norm_by_std", A + "advantage_batch_normalize"
KL_LOSS, KL_REWARD, KL_COEF, KL_TYPE = (
    A + "use_kl_loss",
    A + "use_kl_in_reward",
    A + "kl_loss_coef",
    A + "kl_estimator_type",
)
CLIP_LOW, CLIP_HIGH, LOSS_REDUCTION, POLICY_LOSS = (
    A + "eps_clip_low",
    A + "eps_clip_high",
    A + "loss_reduction",
    A + "policy_loss_type",
)
GAMMA, LAMBDA = A + "gamma", A + "lambd"
OPT = "trainer.policy.optimizer_config."
LR, WEIGHT_DECAY, GRAD_CLIP, WARMUP, SCHEDULER = (
    OPT + "lr",
    OPT + "weight_decay",
    OPT + "max_grad_norm",
    OPT + "num_warmup_steps",
    OPT + "scheduler",
)
CRITIC_LR = "trainer.critic.optimizer_config.lr"
MODEL, CRITIC_MODEL = "trainer.policy.model.path", "trainer.critic.model.path"
CKPT_INTERVAL, CKPT_PATH, MAX_CKPTS, HF_INTERVAL, RESUME = (
    "trainer.ckpt_interval",
    "trainer.ckpt_path",
    "trainer.max_ckpts_to_keep",
    "trainer.hf_save_interval",
    "trainer.resume_mode",
)
EVAL_INTERVAL, EVAL_BEFORE, EVAL_N = (
    "trainer.eval_interval",
    "trainer.eval_before_train",
    "generator.eval_n_samples_per_prompt",
)
LOGGER, PROJECT, RUN_NAME = "trainer.logger", "trainer.project_name", "trainer.run_name"
TRAIN_DATA, VAL_DATA, ENV_CLASS = "data.train_data", "data.val_data", "environment.env_class"
# The row column each skyrl_gym environment's constructor asserts in its extras (every column but prompt and
# env_class reaches it: skyrl/train/dataset/dataset.py@skyrl-v0.3.0:86-94): reward_spec.ground_truth
# (skyrl-gym/skyrl_gym/envs/{gsm8k/env.py:14-16, gsm8k/multi_turn_env.py:14-15, lcb/env.py:19-20,
# search/env.py:29-30, searchcode/env.py:17-18, sql/env.py:27}@skyrl-v0.3.0), reward_model.ground_truth for aime
# (aime/env.py:14-16). The ids are those skyrl_gym/envs/__init__.py registers.
ENV_ANSWER_COLUMN = {
    "gsm8k": "reward_spec",
    "gsm8k_multi_turn": "reward_spec",
    "lcb": "reward_spec",
    "search": "reward_spec",
    "searchcode": "reward_spec",
    "text2sql": "reward_spec",
    "aime": "reward_model",
}
MAX_PROMPT, MAX_GENERATE = "trainer.max_prompt_length", "generator.sampling_params.max_generate_length"
TEMPERATURE, TOP_P, TOP_K = (
    "generator.sampling_params.temperature",
    "generator.sampling_params.top_p",
    "generator.sampling_params.top_k",
)
SEED = "trainer.seed"
ASYNC, STALENESS = "trainer.fully_async.enabled", "trainer.fully_async.max_staleness_steps"

# skyrl key → skyrl_train key (docs/frameworks/data/skyrl.yaml renames)
OLD_NAMES = {
    ENGINES: "generator.num_inference_engines",
    ENGINE_TP: "generator.inference_engine_tensor_parallel_size",
    ENGINE_PP: "generator.inference_engine_pipeline_parallel_size",
    ENGINE_DP: "generator.inference_engine_data_parallel_size",
    BACKEND: "generator.backend",
    GPU_MEMORY: "generator.gpu_memory_utilization",
}

# The first release that has a key (keys not listed exist in every release).
KEY_SINCE = {
    TOKENS: "0.3.0",
    MAX_STEPS: "0.3.0",
    ASYNC: "0.3.0",
    MEG_TP: "skyrl_train-0.2.0",
    MEG_PP: "skyrl_train-0.2.0",
    MEG_CP: "skyrl_train-0.2.0",
    ENGINE_PP: "skyrl_train-0.4.0",
    ENGINE_DP: "skyrl_train-0.4.0",
}

# Defaults that hold in every release (skyrl/train/config/config.py@skyrl-v0.3.0;
# ppo_base_config.yaml@skyrl_train-v0.1.0/v0.4.0).
COMMON: dict[str, Any] = {
    TBS: 1024,
    N: 5,
    MINI: 256,
    CRITIC_MINI: 256,
    MICRO: 1,
    FORWARD_MICRO: 1,
    EPOCHS_PER_BATCH: 1,
    EPOCHS: 1,
    NODES: 1,
    REF_NODES: 1,
    CRITIC_NODES: 1,
    COLOCATE: True,
    ENGINES: 1,
    ENGINE_PP: 1,
    ENGINE_DP: 1,
    BACKEND: "vllm",
    GPU_MEMORY: 0.8,
    SP: 1,
    MEG_TP: 1,
    MEG_PP: 1,
    MEG_CP: 1,
    ESTIMATOR: "grpo",
    NORM_BY_STD: True,
    BATCH_NORM: False,
    KL_LOSS: True,
    KL_REWARD: False,
    KL_COEF: 0.001,
    KL_TYPE: "k3",
    CLIP_LOW: 0.2,
    CLIP_HIGH: 0.2,
    LOSS_REDUCTION: "token_mean",
    POLICY_LOSS: "regular",
    GAMMA: 1.0,
    LAMBDA: 1.0,
    LR: 1.0e-6,
    WEIGHT_DECAY: 1.0e-2,
    GRAD_CLIP: 1.0,
    WARMUP: 0,
    SCHEDULER: "constant_with_warmup",
    CRITIC_LR: 5.0e-6,
    CRITIC_MODEL: None,
    CKPT_INTERVAL: 10,
    MAX_CKPTS: -1,
    HF_INTERVAL: -1,
    RESUME: "latest",
    EVAL_INTERVAL: 5,
    EVAL_BEFORE: True,
    EVAL_N: 1,
    LOGGER: "wandb",
    PROJECT: "skyrl",
    RUN_NAME: "test_run",
    ENV_CLASS: "gsm8k",
    MAX_PROMPT: 512,
    MAX_GENERATE: 1024,
    TEMPERATURE: 1.0,
    TOP_P: 1.0,
    TOP_K: -1,
    SEED: 42,
    STALENESS: 4,
}
# What changed by release (first release → value).
CHANGED: dict[str, tuple[tuple[str, Any], ...]] = {
    GPUS: (("skyrl_train-0.1.0", 4), ("skyrl_train-0.4.0", 1)),
    REF_GPUS: (("skyrl_train-0.1.0", 4), ("skyrl_train-0.4.0", 1)),
    CRITIC_GPUS: (("skyrl_train-0.1.0", 4), ("skyrl_train-0.4.0", 1)),
    ENGINE_TP: (("skyrl_train-0.1.0", 4), ("skyrl_train-0.4.0", 1)),
    STRATEGY: (("skyrl_train-0.1.0", "fsdp2"), ("0.3.0", "fsdp")),
    TOKENS: (("0.3.0", -1),),
    MAX_STEPS: (("0.3.0", None),),
    ASYNC: (("0.3.0", False),),
}
# Canonical vocabularies (translator/plan.py) ↔ SkyRL's names.
ESTIMATORS = {"reinforce++": "reinforce_plus_plus"}
LOSS_AGGREGATION = {
    "token_mean": "token-mean",
    "sequence_mean": "seq-mean-token-mean",
    "seq_mean_token_sum_norm": "seq-mean-token-sum-norm",
}
KL_ESTIMATORS = ("k1", "k2", "k3", "abs")
BACKENDS = {"fsdp": "fsdp", "fsdp2": "fsdp", "megatron": "megatron"}


def index(version: str) -> int:
    return VERSIONS.index(version)


def since(version: str, first: str) -> bool:
    """``version`` is ``first`` or later (the list order: the release names of both eras do not compare as numbers)."""
    return index(version) >= index(first)


def is_old(version: str) -> bool:
    return version in OLD_ERA


def exists(key: str, version: str) -> bool:
    first = KEY_SINCE.get(key)
    return first is None or since(version, first)


def spelled(key: str, version: str) -> str:
    """The key as ``version`` spells it."""
    return OLD_NAMES.get(key, key) if is_old(version) else key


def defaults_for(version: str) -> dict[str, Any]:
    """Every known key's default at ``version``, spelled as that release spells it."""
    values = dict(COMMON)
    for key, bands in CHANGED.items():
        for first, value in bands:
            if since(version, first):
                values[key] = value
    return {spelled(k, version): v for k, v in values.items() if exists(k, version)}
