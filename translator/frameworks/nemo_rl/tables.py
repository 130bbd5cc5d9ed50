"""NeMo-RL's version table, as data (docs/frameworks/nemo-rl.md, docs/frameworks/data/nemo-rl.yaml).

NeMo-RL has no defaults in code: its TypedDict schema takes every value from the YAML chain, and a user's recipe
inherits the release's base recipe (``defaults: ../../grpo_math_1B.yaml``). BASE holds, per release, the values of
that base file (``examples/configs/grpo_math_1B.yaml`` at the tag) for the keys rlconf reads, so that a recipe that
inherits is read right without the base file present. Values were taken from the file at each tag; a key absent
from a release's base is absent from its row.
"""

from __future__ import annotations

from typing import Any

VERSIONS: tuple[str, ...] = ("0.3.1", "0.4.0", "0.5.0", "0.6.0", "0.7.0")
CHANGES: dict[str, str] = {
    "0.3.1": "oldest release read (examples/run_grpo_math.py): one pass over the data, capped by grpo.max_num_steps",
    "0.4.0": "grpo.max_num_epochs, grpo.async_grpo, grpo.use_dynamic_sampling/batch_multiplier; world-size checks",
    "0.5.0": "loss_fn.force_on_policy_ratio (requires gbs == prompts × generations); reference_policy_kl_type",
    "0.6.0": "policy.logprob_batch_size interpolates train_micro_batch_size; TP>=4 accuracy check; adv_estimator",
    "0.7.0": "newest release",
}
TAGS: dict[str, str] = {v: f"v{v}" for v in VERSIONS}

# The training prompts of the datasets NeMo-RL loads by registry name (data.dataset_name; data.train.dataset_name from
# 0.6.0), the Hub split each loads for training (nemo_rl/data/datasets/response_datasets/*.py@v0.7.0, the same splits
# at v0.4.0 - v0.6.0; run_grpo_math.py@v0.3.1 knows OpenMathInstruct-2 and DeepScaler), and the dataset entry's
# settings the count holds for (a key left out takes the dataset class's default, which is that value): the Hub row
# count of OpenMathInstruct-2's train_1M split (its default) less its default 5% validation split
# (split_validation_size 0.05, HF train_test_split: 50,000 rows; test_size 0.05 before 0.6.0, not configurable
# there); DAPO-Math-17k and DeepScaleR load their train split whatever the entry says (**kwargs); gsm8k its `split`.
NAMED_DATASET_PROMPTS: dict[str, tuple[int, str, dict[str, Any]]] = {
    "DAPOMath17K": (1_791_700, "BytedTsinghua-SIA/DAPO-Math-17k train: 17,917 prompts, each 100 times", {}),
    "OpenMathInstruct-2": (
        950_000,
        "nvidia/OpenMathInstruct-2 train_1M less a 5% validation split",
        {"split": "train_1M", "split_validation_size": 0.05},
    ),
    "DeepScaler": (40_315, "agentica-org/DeepScaleR-Preview-Dataset train", {}),
    "gsm8k": (7_473, "openai/gsm8k main train", {"split": "train"}),
    "GSM8K": (7_473, "openai/gsm8k main train", {"split": "train"}),
}

# How many values grpo.setup() returns at each release (the tuple of its last `return`: nemo_rl/algorithms/grpo.py
# :360@v0.3.1, :526@v0.4.0, :648@v0.5.0, :784@v0.6.0, :1235@v0.7.0; 0.7.0 adds the environment and two more). A
# project entry unpacking another number stops with ValueError before training.
SETUP_RETURNS: dict[str, int] = {"0.3.1": 10, "0.4.0": 10, "0.5.0": 10, "0.6.0": 10, "0.7.0": 13}

# The entry points a launch runs (examples/run_grpo.py@v0.7.0; run_grpo_math.py in the older releases).
ENTRY = r"(^|/)run_grpo\w*\.py$"
BASE_FILES = ("grpo_math_1B.yaml",)  # base recipes held as data (file name under examples/configs/)
# Release recipes that inherit the base, held as data for a launch whose --config names one the project does not
# hold (it runs in the release's container, `cd /opt/nemo-rl`): examples/configs/grpo_math_8B.yaml, the keys that
# are the same at v0.3.1, v0.4.0, v0.5.0, v0.6.0 and v0.7.0 (0.7.0 adds grpo.async_grpo and cluster.segment_size,
# 0.6.0 drops policy.fsdp_offload_enabled and activation_checkpointing_enabled: none decides the batch).
RELEASE_RECIPES: dict[str, dict[str, Any]] = {
    "grpo_math_8B.yaml": {
        "grpo.num_prompts_per_step": 64,
        "grpo.num_generations_per_prompt": 32,
        "policy.model_name": "meta-llama/Llama-3.1-8B-Instruct",
        "policy.tokenizer.name": "${policy.model_name}",
        "policy.train_global_batch_size": 512,
        "policy.train_micro_batch_size": 1,
        "policy.generation_batch_size": 32,
        "policy.logprob_batch_size": 2,
        "policy.max_total_sequence_length": 4096,
        "policy.precision": "bfloat16",
        "policy.dtensor_cfg.enabled": True,
        "policy.optimizer.name": "torch.optim.AdamW",
        "policy.optimizer.kwargs.lr": 3.0e-7,
        "policy.optimizer.kwargs.weight_decay": 0.01,
        "policy.optimizer.kwargs.betas": [0.9, 0.999],
        "policy.optimizer.kwargs.eps": 1e-8,
        "policy.generation.backend": "vllm",
        "policy.generation.max_new_tokens": "${policy.max_total_sequence_length}",
        "policy.generation.temperature": 1.0,
        "policy.generation.top_p": 1.0,
        "policy.generation.top_k": None,
        "policy.generation.vllm_cfg.tensor_parallel_size": 1,
        "policy.generation.vllm_cfg.gpu_memory_utilization": 0.6,
        "policy.generation.vllm_cfg.max_model_len": "${policy.max_total_sequence_length}",
        "policy.generation.vllm_cfg.enforce_eager": False,
        "cluster.gpus_per_node": 8,
        "cluster.num_nodes": 1,
    },
}
BASE_PATH = "examples/configs/grpo_math_1B.yaml"

_MB = "${mul:${policy.max_total_sequence_length}, ${policy.train_micro_batch_size}}"
_LP = "${mul:${policy.max_total_sequence_length}, ${policy.logprob_batch_size}}"

# examples/configs/grpo_math_1B.yaml@v0.3.1 (the keys rlconf reads).
_V031: dict[str, Any] = {
    "grpo.num_prompts_per_step": 32,
    "grpo.num_generations_per_prompt": 16,
    "grpo.max_num_steps": 1000000,
    "grpo.normalize_rewards": True,
    "grpo.use_leave_one_out_baseline": True,
    "grpo.val_period": 10,
    "grpo.val_at_start": False,
    "policy.model_name": "Qwen/Qwen2.5-1.5B",
    "policy.tokenizer.name": "${policy.model_name}",
    "data.dataset_name": "OpenMathInstruct-2",  # data.train.dataset_name from 0.6.0
    "policy.train_global_batch_size": 512,
    "policy.train_micro_batch_size": 4,
    "policy.logprob_batch_size": 4,
    "policy.max_total_sequence_length": 512,
    "policy.max_grad_norm": 1.0,
    "policy.optimizer.kwargs.lr": 5e-06,
    "policy.optimizer.kwargs.weight_decay": 0.01,
    "policy.sequence_packing.enabled": True,
    "policy.sequence_packing.train_mb_tokens": _MB,
    "policy.sequence_packing.logprob_mb_tokens": _LP,
    "policy.dynamic_batching.enabled": False,
    "policy.dynamic_batching.train_mb_tokens": _MB,
    "policy.dynamic_batching.logprob_mb_tokens": _LP,
    "policy.dtensor_cfg.enabled": True,
    "policy.dtensor_cfg.tensor_parallel_size": 1,
    "policy.dtensor_cfg.context_parallel_size": 1,
    "policy.megatron_cfg.enabled": False,
    "policy.generation.backend": "vllm",
    "policy.generation.temperature": 1.0,
    "policy.generation.top_p": 1.0,
    "policy.generation.top_k": None,
    "policy.generation.vllm_cfg.tensor_parallel_size": 1,
    "policy.generation.vllm_cfg.gpu_memory_utilization": 0.6,
    "policy.generation.max_new_tokens": "${policy.max_total_sequence_length}",
    "policy.generation.colocated.enabled": True,
    "policy.generation.colocated.resources.gpus_per_node": None,
    "policy.generation.colocated.resources.num_nodes": None,
    "loss_fn.reference_policy_kl_penalty": 0.01,
    "loss_fn.ratio_clip_min": 0.2,
    "loss_fn.ratio_clip_max": 0.2,
    "loss_fn.ratio_clip_c": None,
    "loss_fn.token_level_loss": True,
    "checkpointing.enabled": True,
    "checkpointing.checkpoint_dir": "results/grpo",
    "checkpointing.save_period": 10,
    "checkpointing.keep_top_k": 3,
    "logger.wandb_enabled": False,
    "logger.tensorboard_enabled": False,
    "logger.mlflow_enabled": False,
    "logger.wandb.project": "grpo-dev",
    "logger.wandb.name": "grpo-dev-logger",
    "cluster.gpus_per_node": 1,
    "cluster.num_nodes": 1,
}
# v0.4.0 adds epochs, async GRPO, dynamic sampling, the Megatron parallel sizes in the base, the seed, SwanLab.
_V040: dict[str, Any] = {
    **_V031,
    "grpo.max_num_epochs": 1,
    "grpo.use_dynamic_sampling": False,
    "grpo.batch_multiplier": 1,
    "grpo.seed": 42,
    "grpo.async_grpo.enabled": False,
    "grpo.async_grpo.max_trajectory_age_steps": 1,
    "policy.megatron_cfg.tensor_model_parallel_size": 1,
    "policy.megatron_cfg.pipeline_model_parallel_size": 1,
    "policy.megatron_cfg.context_parallel_size": 1,
    "policy.megatron_cfg.optimizer.lr": 5e-06,
    "policy.megatron_cfg.optimizer.weight_decay": 0.01,
    "policy.megatron_cfg.optimizer.clip_grad": "${policy.max_grad_norm}",
    "logger.swanlab_enabled": False,
}
_V050: dict[str, Any] = {**_V040, "loss_fn.reference_policy_kl_type": "k3", "loss_fn.force_on_policy_ratio": False}
_V060: dict[str, Any] = {
    **_V050,
    "policy.logprob_batch_size": "${policy.train_micro_batch_size}",
    "grpo.adv_estimator.name": "grpo",
    "loss_fn.use_kl_in_reward": False,  # REINFORCE++ only: the KL moves from the loss to the reward
    "data.dataset_name": None,
    "data.train.dataset_name": "OpenMathInstruct-2",
}
# The base recipe's data settings besides the datasets (grpo_math_1B.yaml:366-386@v0.7.0, the same at v0.6.0): a
# recipe that replaces the data section (`_override_: true`, for a list of datasets) restates them.
DATA_SECTION: dict[str, Any] = {
    "data.max_input_seq_length": "${policy.max_total_sequence_length}",
    "data.shuffle": True,
    "data.num_workers": 1,
    "data.use_multiple_dataloader": False,
    "data.default.prompt_file": "examples/prompts/cot.txt",
    "data.default.system_prompt_file": None,
    "data.default.processor": "math_hf_data_processor",
    "data.default.env_name": "math",
}
_V060.update(DATA_SECTION)
BASE: dict[str, dict[str, Any]] = {"0.3.1": _V031, "0.4.0": _V040, "0.5.0": _V050, "0.6.0": _V060, "0.7.0": _V060}

# Where a check first appears (docs/frameworks/data/nemo-rl.yaml `checks`).
CHECK_SINCE: dict[str, str] = {
    "world-too-small": "0.4.0",
    "world-indivisible": "0.4.0",
    "tp4-micro-equals-logprob": "0.6.0",
    "force-on-policy": "0.5.0",
    "batch-multiplier": "0.4.0",
    "non-colocated-needs-gpus": "0.3.1",
    "no-gpu-left-for-training": "0.3.1",
    "async-not-colocated": "0.4.0",
    "step-multiple-of-gbs": "0.3.1",
    "gbs-multiple-of-dp": "0.3.1",
    "async-dp": "0.4.0",
    "prompts-per-dataloader": "0.6.0",
}

# lm_policy.py:178-179@v0.7.0: an environment variable whose any non-empty value skips the TP>=4 micro-batch check
IGNORE_TP_CHECK = "NRL_IGNORE_TP_ACCURACY_CHECK"
