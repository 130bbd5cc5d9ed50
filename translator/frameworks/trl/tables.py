"""TRL GRPOTrainer / Open-R1 version table as data: releases, default changes, key lifetimes, the transformers
each release runs with.

Read from the released wheels (``trl/trainer/grpo_config.py``, ``trl/scripts/grpo.py``, ``*.dist-info/METADATA``
at each version) and Open-R1's ``setup.py``/``src/open_r1/configs.py``; docs/frameworks/trl.md cites each.
"""

from __future__ import annotations

from dataclasses import dataclass

VERSIONS = (
    "0.14.0",
    "0.15.2",
    "0.16.0",
    "0.17.0",
    "0.18.0",
    "0.19.1",
    "0.20.0",
    "0.22.2",
    "0.23.0",
    "0.26.0",
    "0.27.0",
    "0.28.0",
    "1.0.0",
    "1.10.0",
    "1.16.0",
)

# What changed in each release that changes what a config means (docs/frameworks/trl.md §3).
CHANGES = {
    "0.14.0": "per_device_train_batch_size counts prompts; a generation round every micro-step; beta 0.04",
    "0.15.2": "per_device_train_batch_size counts completions; (W × pdtbs) must divide into groups",
    "0.16.0": "num_iterations, epsilon/epsilon_high, scale_rewards; vLLM server; local token-mean loss",
    "0.17.0": "one generation per accumulation window; loss_type (default bnpo)",
    "0.18.0": "generation_batch_size / steps_per_generation; vllm_mode (server); temperature 1.0",
    "0.19.1": "beta 0.0 (no reference model); unknown YAML keys rejected",
    "0.20.0": "checks rewritten (gbs % num_generations); importance_sampling_level",
    "0.22.2": "loss_type dapo by default; scale_rewards group|batch|none",
    "0.23.0": "vLLM importance-sampling correction on by default",
    "0.26.0": "max_prompt_length deprecated and ignored; num_generations_eval",
    "0.27.0": "top_k 0 means disabled",
    "0.28.0": "max_prompt_length removed",
    "1.0.0": "vllm_mode colocate by default",
    "1.10.0": (
        "max_completion_length 256 → 512; use_bias_correction_kl on by default; auto_find_batch_size "
        "rejected; dapo normaliser fixed for steps_per_generation != GAS; experimental gfpo, papo, dppo gone"
    ),
    "1.16.0": (
        "pad_to_multiple_of 'auto'; router_aux_loss_coef None; use_liger_kernel deprecated for GRPO; "
        "experimental ppo, grpo_with_replay_buffer, gspo_token, bco, prm, xpo, nash_md, minillm gone; "
        "pip resolves transformers 5.24 (no warmup_ratio, logging_dir)"
    ),
}

# The transformers a TRL release runs with. TRL's wheels require only a lower bound (METADATA
# ``Requires-Dist: transformers>=X``, no upper bound in any release 0.14–1.16), so today pip resolves every one of
# them to the newest transformers on PyPI. trl version → (lower bound, upper bound or None, newest resolvable).
NEWEST_TRANSFORMERS = "5.24.0"  # `pip index versions transformers`, 2026-11-25
TRANSFORMERS: dict[str, tuple[str, str | None, str]] = {
    "0.14.0": ("4.46.0", None, NEWEST_TRANSFORMERS),
    "0.15.2": ("4.46.0", None, NEWEST_TRANSFORMERS),
    "0.16.0": ("4.46.0", None, NEWEST_TRANSFORMERS),
    "0.17.0": ("4.46.0", None, NEWEST_TRANSFORMERS),
    "0.18.0": ("4.50.0", None, NEWEST_TRANSFORMERS),
    "0.19.1": ("4.51.0", None, NEWEST_TRANSFORMERS),
    "0.20.0": ("4.53.2", None, NEWEST_TRANSFORMERS),
    "0.22.2": ("4.55.0", None, NEWEST_TRANSFORMERS),
    "0.23.0": ("4.56.1", None, NEWEST_TRANSFORMERS),
    "0.26.0": ("4.56.1", None, NEWEST_TRANSFORMERS),
    "0.27.0": ("4.56.2", None, NEWEST_TRANSFORMERS),
    "0.28.0": ("4.56.2", None, NEWEST_TRANSFORMERS),
    "1.0.0": ("4.56.2", None, NEWEST_TRANSFORMERS),
    "1.10.0": ("4.56.2", None, NEWEST_TRANSFORMERS),
    "1.16.0": ("4.56.2", None, NEWEST_TRANSFORMERS),
}
OPEN_R1_TRANSFORMERS = "4.52.3"  # open-r1 setup.py pins transformers==4.52.3 beside trl[vllm]==0.18.0

# TrainingArguments keys a transformers release removed, and how a recipe says the same without them.
# warmup_ratio: from 5.0 a float warmup_steps below 1 is a ratio (TrainingArguments.get_warmup_steps).
TRANSFORMERS_RESPELLED = {
    "warmup_ratio": "warmup_steps",
    "logging_dir": "the environment variable TENSORBOARD_LOGGING_DIR",
    "overwrite_output_dir": "nothing (transformers 5 always writes into output_dir)",
    "save_safetensors": "nothing (transformers 5 always saves safetensors)",
    "no_cuda": "use_cpu",
}

# trl/experimental/<name> modules (GRPO relatives and other trainers) no longer shipped: name → (last release
# rlconf read that has it, first one that lacks it).
EXPERIMENTAL_GONE = {
    "gfpo": ("1.0.0", "1.10.0"),
    "papo": ("1.0.0", "1.10.0"),
    "dppo": ("1.0.0", "1.10.0"),
    "judges": ("1.0.0", "1.10.0"),
    "openenv": ("1.0.0", "1.10.0"),
    "self_distillation": ("1.0.0", "1.10.0"),
    "ppo": ("1.10.0", "1.16.0"),
    "grpo_with_replay_buffer": ("1.10.0", "1.16.0"),
    "gspo_token": ("1.10.0", "1.16.0"),
    "bco": ("1.10.0", "1.16.0"),
    "prm": ("1.10.0", "1.16.0"),
    "xpo": ("1.10.0", "1.16.0"),
    "nash_md": ("1.10.0", "1.16.0"),
    "minillm": ("1.10.0", "1.16.0"),
    "ssd": ("1.10.0", "1.16.0"),
}

# Reward functions by name. Open-R1's registry (src/open_r1/rewards.py get_reward_funcs) and TRL's own
# `trl grpo` registry (trl/scripts/grpo.py; 0.18: think_format_reward only; 1.0+: the four below).
OPEN_R1_REWARDS = (
    "accuracy",
    "format",
    "reasoning_steps",
    "cosine",
    "repetition_penalty",
    "length",
    "code",
    "binary_code",
    "ioi_code",
    "cf_code",
    "code_format",
    "tag_count",
    "soft_overlong_punishment",
)
TRL_SCRIPT_REWARDS = (
    "accuracy_reward",
    "reasoning_accuracy_reward",
    "think_format_reward",
    "get_soft_overlong_punishment",
)
# The same reward in the two registries: Open-R1 name ↔ `trl grpo` name.
OPEN_R1_TO_TRL_REWARD = {
    "accuracy": "accuracy_reward",
    "format": "think_format_reward",
    "soft_overlong_punishment": "get_soft_overlong_punishment",
}
TRL_TO_OPEN_R1_REWARD = {**{v: k for k, v in OPEN_R1_TO_TRL_REWARD.items()}, "reasoning_accuracy_reward": "accuracy"}
# Other frameworks' built-in scorers → the nearest Open-R1 reward (all compare the final answer with the
# reference; Open-R1's accuracy verifies LaTeX math with math_verify).
BUILTIN_REWARD_MAP = {
    "math": "accuracy",
    "math_verify": "accuracy",
    "gsm8k": "accuracy",
    "math_dapo": "accuracy",
    "dapo": "accuracy",
    "r1v": "accuracy",
    "geo3k": "accuracy",
    "boxed": "accuracy",
    "math_reward": "accuracy",
    "accuracy": "accuracy",
    "format": "format",
    "tag_count": "tag_count",
    "length": "length",
    "cosine": "cosine",
    "code": "code",
    "prime_code": "code",
    "sandbox_fusion": "code",
}

OPEN_R1_TRL_VERSION = "0.18.0"  # open-r1 setup.py pins trl[vllm]==0.18.0 (HEAD)

# key → [(first release with this default, value), ...] in release order.
DEFAULTS: dict[str, list[tuple[str, object]]] = {
    "per_device_train_batch_size": [("0.14.0", 1), ("0.15.2", 8)],  # 0.14's GRPOConfig overrides HF's 8
    "gradient_accumulation_steps": [("0.14.0", 8), ("0.15.2", 1)],
    "num_generations": [("0.14.0", 8)],
    "num_iterations": [("0.14.0", 1)],
    "steps_per_generation": [("0.14.0", None)],
    "generation_batch_size": [("0.14.0", None)],
    "beta": [("0.14.0", 0.04), ("0.19.1", 0.0)],
    "temperature": [("0.14.0", 0.9), ("0.18.0", 1.0)],
    "top_p": [("0.14.0", 1.0)],
    "top_k": [("0.14.0", None), ("0.16.0", 50), ("0.18.0", None), ("0.27.0", 0)],
    "max_completion_length": [("0.14.0", 256), ("1.10.0", 512)],
    "use_bias_correction_kl": [("0.26.0", False), ("1.10.0", True)],
    "pad_to_multiple_of": [("1.0.0", None), ("1.16.0", "auto")],
    "router_aux_loss_coef": [("1.0.0", 0.001), ("1.16.0", None)],
    "vllm_gpu_memory_utilization": [("0.14.0", 0.9), ("0.18.0", 0.3)],
    "save_strategy": [("0.14.0", "steps")],
    "save_steps": [("0.14.0", 500)],
    "eval_strategy": [("0.14.0", "no")],
    "logging_steps": [("0.14.0", 500), ("0.19.1", 10)],
    "output_dir": [("0.14.0", None)],
    "dataset_train_split": [("0.14.0", "train")],
    "dataset_test_split": [("0.14.0", "test")],
    "dataset_prompt_column": [("0.14.0", "prompt")],
    "report_to": [("0.14.0", "all")],
    "max_prompt_length": [("0.14.0", 512), ("0.26.0", None)],
    "loss_type": [("0.14.0", None), ("0.17.0", "bnpo"), ("0.22.2", "dapo")],
    "scale_rewards": [("0.14.0", True), ("0.22.2", "group")],
    "epsilon": [("0.14.0", 0.2)],
    "epsilon_high": [("0.14.0", None)],
    "importance_sampling_level": [("0.14.0", "token")],
    "vllm_mode": [("0.14.0", None), ("0.18.0", "server"), ("1.0.0", "colocate")],
    "vllm_tensor_parallel_size": [("0.14.0", 1)],
    "use_vllm": [("0.14.0", False)],
    "learning_rate": [("0.14.0", 1e-6)],
    "lr_scheduler_type": [("0.14.0", "linear")],
    "warmup_ratio": [("0.14.0", 0.0)],
    "warmup_steps": [("0.14.0", 0)],
    "weight_decay": [("0.14.0", 0.0)],
    "max_grad_norm": [("0.14.0", 1.0)],
    "num_train_epochs": [("0.14.0", 3.0)],
    "max_steps": [("0.14.0", -1)],
    "seed": [("0.14.0", 42)],
}

# GRPOConfig / ModelConfig keys that exist only in a range of releases: key → (first release, last release or
# None), read from grpo_config.py / model_config.py of every listed wheel (a first release is the first listed
# one that has the key). Version inference uses every bound.
KEY_RANGE: dict[str, tuple[str, str | None]] = {
    "max_prompt_length": ("0.14.0", "0.27.0"),
    "vllm_device": ("0.14.0", "0.17.0"),
    "vllm_dtype": ("0.15.2", "0.17.0"),
    "vllm_max_model_len": ("0.15.2", "0.17.0"),
    "vllm_enable_prefix_caching": ("0.16.0", "0.17.0"),
    "vllm_guided_decoding_regex": ("0.16.0", "0.27.0"),
    "ds3_gather_for_generation": ("0.15.2", None),
    "reward_weights": ("0.15.2", None),
    "sync_ref_model": ("0.15.2", None),
    "ref_model_mixup_alpha": ("0.15.2", None),
    "ref_model_sync_steps": ("0.15.2", None),
    "log_completions": ("0.15.2", None),
    "num_iterations": ("0.16.0", None),
    "epsilon": ("0.16.0", None),
    "epsilon_high": ("0.16.0", None),
    "scale_rewards": ("0.16.0", None),
    "top_p": ("0.16.0", None),
    "top_k": ("0.16.0", None),
    "min_p": ("0.16.0", None),
    "repetition_penalty": ("0.16.0", None),
    "cache_implementation": ("0.16.0", None),
    "vllm_server_host": ("0.16.0", None),
    "vllm_server_port": ("0.16.0", None),
    "vllm_server_timeout": ("0.16.0", None),
    "loss_type": ("0.17.0", None),
    "mask_truncated_completions": ("0.17.0", None),
    "shuffle_dataset": ("0.17.0", None),
    "disable_dropout": ("0.17.0", None),
    "num_completions_to_print": ("0.17.0", None),
    "use_liger_loss": ("0.17.0", "0.27.0"),
    "generation_batch_size": ("0.18.0", None),
    "steps_per_generation": ("0.18.0", None),
    "vllm_mode": ("0.18.0", None),
    "vllm_tensor_parallel_size": ("0.18.0", None),
    "vllm_server_base_url": ("0.18.0", None),
    "delta": ("0.18.0", None),
    "generation_kwargs": ("0.19.1", None),
    "importance_sampling_level": ("0.20.0", None),
    "top_entropy_quantile": ("0.20.0", None),
    "use_transformers_paged": ("0.20.0", None),
    "vllm_model_impl": ("0.22.2", None),
    "vllm_importance_sampling_correction": ("0.23.0", None),
    "vllm_importance_sampling_cap": ("0.23.0", None),
    "vllm_enable_sleep_mode": ("0.23.0", None),
    "num_generations_eval": ("0.26.0", None),
    "use_bias_correction_kl": ("0.26.0", None),
    "vllm_importance_sampling_mode": ("0.26.0", None),
    "vllm_max_model_length": ("0.26.0", None),
    "cast_lm_head_to_fp32": ("0.26.0", None),
    "chat_template_kwargs": ("0.26.0", None),
    "log_unique_prompts": ("0.26.0", None),
    "sapo_temperature_neg": ("0.26.0", None),
    "sapo_temperature_pos": ("0.26.0", None),
    "multi_objective_aggregation": ("0.27.0", None),
    "off_policy_mask_threshold": ("0.27.0", None),
    "vllm_group_port": ("0.27.0", None),
    "vllm_structured_outputs_regex": ("0.27.0", None),
    "max_tool_calling_iterations": ("0.27.0", None),
    "log_completions_hub_repo": ("0.28.0", None),
    "pad_to_multiple_of": ("1.0.0", None),
    "vespo_k_neg": ("1.0.0", None),
    "vespo_k_pos": ("1.0.0", None),
    "vespo_lambda_neg": ("1.0.0", None),
    "vespo_lambda_pos": ("1.0.0", None),
    "entropy_coef": ("1.10.0", None),
    "entropy_coef_delta": ("1.10.0", None),
    "entropy_coef_max": ("1.10.0", None),
    "entropy_coef_min": ("1.10.0", None),
    "entropy_target": ("1.10.0", None),
    "use_adaptive_entropy": ("1.10.0", None),
    "log_multimodal": ("1.10.0", None),
    "vllm_importance_sampling_clip_max": ("1.10.0", None),
    "vllm_importance_sampling_clip_min": ("1.10.0", None),
    "use_transformers_continuous_batching": ("1.10.0", None),
    "transformers_continuous_batching_config": ("1.10.0", None),
    # ModelConfig: torch_dtype until 0.27 (0.26 has both), dtype from 0.26 (read from the wheels).
    "torch_dtype": ("0.14.0", "0.27.0"),
    "dtype": ("0.26.0", None),
}

# Keys a later release renamed: old name → new name.
RENAMED = {"torch_dtype": "dtype"}

# Open-R1's own script and trainer arguments (src/open_r1/configs.py): not TRL fields.
OPEN_R1_KEYS = frozenset(
    {
        "reward_funcs",
        "dataset_prompt_column",
        "dataset_mixture",
        "chat_template",
        "system_prompt",
        "benchmarks",
        "callbacks",
        "hub_model_revision",
        "overwrite_hub_revision",
        "push_to_hub_revision",
        "wandb_entity",
        "wandb_project",
        "wandb_run_group",
        "cosine_min_value_wrong",
        "cosine_max_value_wrong",
        "cosine_min_value_correct",
        "cosine_max_value_correct",
        "cosine_max_len",
        "repetition_n_grams",
        "repetition_max_penalty",
        "code_language",
        "code_eval_test_batch_size",
        "code_eval_scoring_mode",
        "parallel_code_exec_per_proc",
        "code_provider",
        "ioi_provider",
        "e2b_router_url",
        "morph_router_url",
        "max_completion_len",
        "soft_punish_cache",
    }
)

# TRL ModelConfig / ScriptArguments, HF TrainingArguments and other GRPOConfig fields of any release 0.14–1.16
# (transformers TrainingArguments 4.52 and 5.17), read from the wheels: a typo is a key outside these.
OTHER_KNOWN_KEYS = frozenset(
    {
        "model_name_or_path",
        "model_revision",
        "torch_dtype",
        "dtype",
        "trust_remote_code",
        "attn_implementation",
        "use_peft",
        "lora_r",
        "lora_alpha",
        "lora_dropout",
        "lora_target_modules",
        "lora_modules_to_save",
        "lora_task_type",
        "use_rslora",
        "use_dora",
        "load_in_8bit",
        "load_in_4bit",
        "bnb_4bit_quant_type",
        "dataset_name",
        "dataset_config",
        "dataset_configs",
        "dataset_train_split",
        "dataset_test_split",
        "output_dir",
        "overwrite_output_dir",
        "do_train",
        "do_eval",
        "do_predict",
        "eval_strategy",
        "eval_steps",
        "per_device_eval_batch_size",
        "eval_accumulation_steps",
        "adam_beta1",
        "adam_beta2",
        "adam_epsilon",
        "lr_scheduler_kwargs",
        "log_level",
        "log_level_replica",
        "log_on_each_node",
        "logging_dir",
        "logging_strategy",
        "logging_first_step",
        "logging_steps",
        "save_strategy",
        "save_steps",
        "save_total_limit",
        "save_only_model",
        "save_safetensors",
        "data_seed",
        "bf16",
        "fp16",
        "tf32",
        "dataloader_num_workers",
        "dataloader_drop_last",
        "run_name",
        "disable_tqdm",
        "remove_unused_columns",
        "report_to",
        "push_to_hub",
        "hub_model_id",
        "hub_strategy",
        "hub_private_repo",
        "hub_token",
        "gradient_checkpointing",
        "gradient_checkpointing_kwargs",
        "resume_from_checkpoint",
        "optim",
        "ddp_timeout",
        "deepspeed",
        "fsdp",
        "fsdp_config",
        "use_liger_kernel",
        "torch_compile",
        "auto_find_batch_size",
        "load_best_model_at_end",
        "metric_for_best_model",
        "model_init_kwargs",
        "disable_dropout",
        "ds3_gather_for_generation",
        "generation_kwargs",
        "use_transformers_paged",
        "cache_implementation",
        "vllm_gpu_memory_utilization",
        "vllm_server_base_url",
        "vllm_server_timeout",
        "vllm_group_port",
        "vllm_enable_sleep_mode",
        "vllm_guided_decoding_regex",
        "vllm_model_impl",
        "vllm_max_model_length",
        "vllm_importance_sampling_mode",
        "vllm_importance_sampling_cap",
        "reward_weights",
        "sync_ref_model",
        "ref_model_mixup_alpha",
        "ref_model_sync_steps",
        "log_completions",
        "num_completions_to_print",
        "wandb_log_unique_prompts",
        "log_unique_prompts",
        "off_policy_mask_threshold",
        "pad_to_multiple_of",
        "padding_free",
        "chat_template_kwargs",
        "cast_lm_head_to_fp32",
    }
) | frozenset(
    [
        "accelerator_config",
        "adafactor",
        "average_tokens_across_devices",
        "batch_eval_metrics",
        "bf16_full_eval",
        "bnb_4bit_quant_storage",
        "dataloader_in_order",
        "dataloader_multiprocessing_context",
        "dataloader_persistent_workers",
        "dataloader_pin_memory",
        "dataloader_prefetch_factor",
        "dataset_streaming",
        "ddp_backend",
        "ddp_broadcast_buffers",
        "ddp_bucket_cap_mb",
        "ddp_find_unused_parameters",
        "ddp_static_graph",
        "debug",
        "enable_jit_checkpoint",
        "entropy_coef_delta",
        "entropy_coef_max",
        "entropy_coef_min",
        "entropy_target",
        "eval_delay",
        "eval_do_concat_batches",
        "eval_on_start",
        "eval_use_gather_object",
        "fp16_backend",
        "fp16_full_eval",
        "fp16_opt_level",
        "fsdp_min_num_params",
        "fsdp_transformer_layer_cls_to_wrap",
        "full_determinism",
        "gradient_checkpointing_use_reentrant",
        "greater_is_better",
        "group_by_length",
        "half_precision_backend",
        "hub_always_push",
        "hub_revision",
        "ignore_bias_buffers",
        "ignore_data_skip",
        "include_for_metrics",
        "include_inputs_for_metrics",
        "include_num_input_tokens_seen",
        "include_tokens_per_second",
        "jit_mode_eval",
        "label_names",
        "label_smoothing_factor",
        "length_column_name",
        "liger_kernel_config",
        "local_rank",
        "log_completions_hub_repo",
        "log_multimodal",
        "logging_nan_inf_filter",
        "lora_target_parameters",
        "max_tool_calling_iterations",
        "mp_parameters",
        "neftune_noise_alpha",
        "no_cuda",
        "optim_args",
        "optim_target_modules",
        "parallelism_config",
        "past_index",
        "per_gpu_eval_batch_size",
        "per_gpu_train_batch_size",
        "prediction_loss_only",
        "project",
        "push_to_hub_model_id",
        "push_to_hub_organization",
        "push_to_hub_token",
        "ray_scope",
        "restore_callback_states_from_checkpoint",
        "reward_model_name_or_path",
        "router_aux_loss_coef",
        "sapo_temperature_neg",
        "sapo_temperature_pos",
        "save_on_each_node",
        "skip_memory_metrics",
        "torch_compile_backend",
        "torch_compile_mode",
        "torch_empty_cache_steps",
        "torchdynamo",
        "tpu_metrics_debug",
        "tpu_num_cores",
        "trackio_bucket_id",
        "trackio_space_id",
        "trackio_static_space_id",
        "train_sampling_strategy",
        "transformers_continuous_batching_config",
        "use_adaptive_entropy",
        "use_bnb_nested_quant",
        "use_cache",
        "use_cpu",
        "use_ipex",
        "use_legacy_prediction_loop",
        "use_mps_device",
        "use_transformers_continuous_batching",
        "vespo_k_neg",
        "vespo_k_pos",
        "vespo_lambda_neg",
        "vespo_lambda_pos",
        "vllm_dtype",
        "vllm_enable_prefix_caching",
        "vllm_importance_sampling_clip_max",
        "vllm_importance_sampling_clip_min",
        "vllm_max_model_len",
        "vllm_structured_outputs_regex",
    ]
)

# TRL loss_type → (canonical loss aggregation, normaliser scope).
LOSS_TYPES = {
    "grpo": ("seq-mean-token-mean", "micro_batch"),
    "bnpo": ("token-mean", "micro_batch"),
    "dr_grpo": ("seq-mean-token-sum-norm", "micro_batch"),
    "dapo": ("token-mean", "optimizer_step"),
    "cispo": ("token-mean", "optimizer_step"),
    "vespo": ("token-mean", "optimizer_step"),
    "sapo": ("seq-mean-token-mean", "micro_batch"),
    "luspo": ("seq-mean-token-sum", "micro_batch"),
}

ACCELERATE_VALUE_OPTIONS = frozenset(
    {
        "--config_file",
        "--config-file",
        "--num_processes",
        "--num-processes",
        "--num_machines",
        "--num-machines",
        "--machine_rank",
        "--machine-rank",
        "--main_process_ip",
        "--main-process-ip",
        "--main_process_port",
        "--main-process-port",
        "--mixed_precision",
        "--mixed-precision",
        "--gradient_accumulation_steps",
        "--gradient-accumulation-steps",
        "--deepspeed_config_file",
        "--zero_stage",
        "--rdzv_backend",
        "--gpu_ids",
        "--dynamo_backend",
        "--deepspeed_multinode_launcher",
        "--num_cpu_threads_per_process",
        "--offload_param_device",
        "--offload_optimizer_device",
        "--fsdp_sharding_strategy",
        "--nproc_per_node",
        "--nproc-per-node",
        "--nnodes",
        "--node_rank",
        "--master_addr",
        "--master_port",
        "--rdzv_endpoint",
        "--rdzv_id",
        "--log_dir",
    }
)


# How each TRL release forms a GRPO batch, as signatures of GRPOTrainer's code (trl/trainer/grpo_trainer.py at
# each tag), so that a project's own copy of the trainer is read with the semantics of the release it was copied
# from. A lineage matches when the project's batch-forming code has every ``requires`` signature and no
# ``excludes`` one; the first match (newest first) wins. Signatures (translator.frameworks.trl.dialect._signatures):
#   steps_per_generation   the buffer is indexed by self._step % steps_per_generation (0.18+)
#   generate_every         one generation per generate_every = GAS × num_iterations micro-steps (0.17)
#   buffer_per_micro_step  _buffered_inputs[self._step % ...gradient_accumulation_steps] = ... (0.16)
#   generate_in_prepare    generation reached from _prepare_inputs (0.15+: the RepeatRandomSampler feeds it
#                          per_device_train_batch_size completions, num_generations per prompt)
#   generate_in_loss       generation inside compute_loss, num_return_sequences / repeat by num_generations, fed by
#                          the Trainer's default sampler: per_device_train_batch_size counts prompts (0.14)
#   repeat_sampler         RepeatRandomSampler / RepeatSampler(mini_repeat_count=self.num_generations ...)
#   inherited_sampler      the class derives from TRL's GRPOTrainer and keeps its sampler (the installed release's)
#   expand_inputs          it repeats each item of its micro-batch num_generations times itself before generating
#                          (so each item is a prompt, whatever the sampler feeds it)
#   plain_sampler          its own _get_train_sampler returns a sampler that yields each prompt once (RandomSampler,
#                          SequentialSampler, DistributedSampler) and no repeating one
# A trainer that generates in _prepare_inputs but is fed by transformers' default sampler (R1-V's
# Qwen2VLGRPOVLLMTrainer, src/r1-v/src/open_r1/trainer/vllm_grpo_trainer.py: it gathers each rank's
# per_device_train_batch_size prompts and asks vLLM for num_generations completions of each) counts prompts per
# device as TRL 0.14 does, and generates every micro-step as 0.14 and 0.15 both do: 0.14's arithmetic.
@dataclass(frozen=True)
class Lineage:
    release: str  # the TRL release whose batching rlconf applies
    label: str
    requires: tuple[str, ...]
    excludes: tuple[str, ...] = ()


LINEAGES = (
    Lineage("0.18.0", "TRL 0.18+ (steps_per_generation)", ("steps_per_generation",)),
    Lineage("0.17.0", "TRL 0.17 (generate_every)", ("generate_every",), ("steps_per_generation",)),
    # 0.16's buffering fed by a sampler of its own that repeats no prompt: each micro-step generates num_generations
    # completions for each of per_device_train_batch_size prompts, as 0.14 does (with num_iterations 1 the buffer
    # changes no count; rlconf applies it only then)
    Lineage(
        "0.14.0",
        "TRL 0.16's buffering fed by a sampler that repeats no prompt (per_device_train_batch_size counts prompts)",
        ("buffer_per_micro_step", "plain_sampler"),
        ("repeat_sampler", "generate_every", "steps_per_generation"),
    ),
    # a copy that expands each item of the micro-batch into num_generations itself generates that many completions
    # for each of per_device_train_batch_size items every micro-step, whatever its sampler repeats (a repeating
    # sampler only feeds the same prompt to consecutive micro-steps): 0.14's arithmetic
    Lineage(
        "0.14.0",
        "a generation every micro-step that repeats each item of the micro-batch num_generations times itself "
        "(per_device_train_batch_size counts prompts)",
        ("expand_inputs",),
        ("generate_every", "steps_per_generation"),
    ),
    Lineage(
        "0.16.0",
        "TRL 0.15–0.16 (a generation every micro-step, buffered per accumulation step)",
        ("buffer_per_micro_step",),
        ("generate_every", "steps_per_generation", "plain_sampler"),
    ),
    Lineage(
        "0.14.0",
        "a generation every micro-step in _prepare_inputs from the default sampler (per_device_train_batch_size "
        "counts prompts)",
        ("generate_in_prepare",),
        ("repeat_sampler", "inherited_sampler", "buffer_per_micro_step", "generate_every", "steps_per_generation"),
    ),
    Lineage(
        "0.15.2",
        "TRL 0.15 (a generation every micro-step in _prepare_inputs)",
        ("generate_in_prepare",),
        ("buffer_per_micro_step", "generate_every", "steps_per_generation", "generate_in_loss"),
    ),
    Lineage(
        "0.14.0",
        "TRL 0.14 (generation in compute_loss; per_device_train_batch_size counts prompts)",
        ("generate_in_loss",),
        ("repeat_sampler", "generate_in_prepare", "buffer_per_micro_step", "generate_every", "steps_per_generation"),
    ),
)
# Methods whose override means the project forms GRPO batches itself (compute_loss only when it generates).
BATCH_METHODS = ("_prepare_inputs", "_get_train_sampler", "get_train_dataloader", "training_step")


# Releases without an entry of their own whose GRPO code is a listed release's (huggingface/trl at both tags:
# trl/trainer/grpo_config.py and trl/trainer/grpo_trainer.py). Any other unlisted release is read as the listed one
# below it with the one above as a second candidate.
SAME_AS: dict[str, tuple[str, str]] = {
    "0.15.0": (
        "0.15.2",
        "its GRPOConfig is 0.15.2's and its GRPOTrainer differs only in when a PEFT adapter is unmerged around the "
        "vLLM weight sync (grpo_trainer.py, v0.15.0 → v0.15.2)",
    ),
    "0.15.1": ("0.15.2", "its grpo_config.py and grpo_trainer.py are 0.15.2's, unchanged"),
    "0.16.1": ("0.16.0", "its grpo_config.py and grpo_trainer.py are 0.16.0's, unchanged"),
}
