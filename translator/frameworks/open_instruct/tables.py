"""Open-Instruct's version table as data: dated versions, programs, key lifetimes, defaults per version.

Source: docs/frameworks/open-instruct.md, checked against github:allenai/open-instruct (HEAD e6c3044aa,
2026-08-20). Open-Instruct has few releases (v0.1.0 on 2026-01-26), so a version here is the *date* of a
snapshot of the repository, written ``YYYY.MM.DD``: "version V" means the code as of the end of day V.
Key lifetimes were read from the dataclasses each program's ``ArgumentParserPlus((...))`` parses, at the
snapshot of every version below (a key "first" seen at a version may have been added during the band
before it).
"""

from __future__ import annotations

from typing import Any

# Oldest → newest. Each date is a snapshot where flags, defaults or semantics changed.
VERSIONS = (
    "2024.11.20",  # Tulu 3 (PPO-T3 9c2d44bec): ppo_vllm_thread_ray_gtrl.py only
    "2025.01.22",  # grpo_vllm_thread_ray_gtrl.py added (648539372)
    "2025.03.13",  # grpo_fast.py added (INITIAL 7dba4c9e2, #587): packed rows, num_unique_prompts_rollout, ...
    "2025.06.02",  # cliprange → clip_lower/clip_higher (49d13e92b); async_steps (05-29) beside async_mode
    "2025.10.20",  # max_token_length and async_mode gone; last band with the gtrl scripts (deleted 2025-11-03)
    "2025.11.15",  # OLMo 3 era: active_sampling, filter_zero_std_samples (2025-11-09); kl_estimator still "kl3"
    "2025.12.01",  # kl_estimator "kl1".."kl4" → 0..3 (c4c1b1c8f); global token loss denominator (7708f0adf, #1161)
    "2025.12.31",  # CLASSIC (1611e3df6): last grpo_fast.py with one monolithic `class Args`
    "2026.01.26",  # v0.1.0: config split into StreamingDataLoaderConfig/VLLMConfig/ExperimentConfig; SP, max_grad_norm
    "2026.03.01",  # v0.2.0
    "2026.03.20",  # defaults follow OLMo 3 (7917d4173): async_steps 8, inflight_updates, centered, clip_higher .272
    "2026.04.02",  # OLMo-core config classes (0b847cf32): warm_up_steps and wandb_project_name gone, seed 42
    "2026.06.11",  # v0.3.0: rho correction replaces the TIS cap
    "2026.08.20",  # HEAD (e6c3044aa): temperature default 1.0 since 2026-06-15
)

# What changed at each version that changes what a launch line means (docs/frameworks/open-instruct.md §1–§5,
# §7, §9; the tables below: PROGRAMS, the key ranges, the defaults and the semantic dates that follow).
CHANGES = {
    "2024.11.20": "Tulu 3 PPO (ppo_vllm_thread_ray_gtrl.py): local_rollout_batch_size prompts/GPU, "
    "local_mini_batch_size samples/GPU; KL in the reward; warm_up_steps ignored",
    "2025.01.22": "grpo_vllm_thread_ray_gtrl.py added (GRPO: group-normalised advantages, beta × KL in the loss); "
    "vllm_enforce_eager",
    "2025.03.13": "grpo_fast.py added (U prompts × S samples, packed rows); gtrl: dataset_mixer_list, exact "
    "num_mini_batches, GRPO kl3 default, warmup_ratio fix",
    "2025.06.02": "cliprange → clip_lower/clip_higher; async_steps; advantage_normalization_type; zero-std groups "
    "dropped; max_prompt_token_length 256 in gtrl",
    "2025.10.20": "max_token_length, async_mode and num_evals gone (local_eval_every); inflight_updates, "
    "use_vllm_logprobs, TIS ratio cap; last gtrl band",
    "2025.11.15": "active_sampling and filter_zero_std_samples (default on); deepspeed_offload_*; fill_completions "
    "gone; gtrl scripts deleted",
    "2025.12.01": "kl_estimator kl1..kl4 → 0..3 (kl3 → 2); loss over the accumulation group's tokens on all ranks; "
    "loss_denominator; masked_mean_* gone",
    "2025.12.31": "torch_dtype → dtype; loss_fn (dapo | cispo); allow_world_padding gone (world-aware packing)",
    "2026.01.26": "v0.1.0: config split into several dataclasses (flag names kept); sequence_parallel_size; "
    "max_grad_norm flag (was fixed 1.0); tool flags",
    "2026.03.01": "v0.2.0: ZeRO-2 keeps every micro-batch's gradient (was only the last); max_steps; "
    "reward_aggregator; evolving-rubric rewards",
    "2026.03.20": "OLMo 3 defaults: async_steps 8, inflight_updates on, centered advantages, clip_higher 0.272, "
    "TIS cap 2.0; grpo.py",
    "2026.04.02": "OLMo-core config classes: warm_up_steps gone, wandb_project_name → wandb_project, seed 42; "
    "gradient_accumulation_steps parsed but ignored",
    "2026.06.11": "v0.3.0: rho correction (use_rho_correction, on) replaces the TIS ratio cap; cp_degree; "
    "eval_response_length",
    "2026.08.20": "temperature default 1.0 (was 0.7); results older than async_steps dropped and resampled",
}

# Release tags and names people use → the dated version.
VERSION_ALIASES = {
    "v0.1.0": "2026.01.26",
    "0.1.0": "2026.01.26",
    "v0.2.0": "2026.03.01",
    "0.2.0": "2026.03.01",
    "v0.3.0": "2026.06.11",
    "0.3.0": "2026.06.11",
    "head": "2026.08.20",
    "latest": "2026.08.20",
    "main": "2026.08.20",
    "classic": "2025.12.31",
    "tulu3": "2024.11.20",
    "tulu-3": "2024.11.20",
}

# The training programs rlconf reads: file name → (kind, first version, last version or None).
PROGRAMS: dict[str, tuple[str, str, str | None]] = {
    "ppo_vllm_thread_ray_gtrl.py": ("ppo-gtrl", "2024.11.20", "2025.10.20"),
    "grpo_vllm_thread_ray_gtrl.py": ("grpo-gtrl", "2025.01.22", "2025.10.20"),
    "grpo_fast.py": ("fast", "2025.03.13", None),
    "grpo.py": ("olmo-core", "2026.03.20", None),  # added 2026-03-19; "accepts the same flags" as grpo_fast
}
UNSUPPORTED_PROGRAMS = ("ppo_fast.py", "ppo.py")  # PPO with packing: not read by rlconf

# Dates where a semantic (not a flag) changed; compared with at_least() like versions.
FIRST_GRPO_GTRL = "2025.01.22"
KL3_DEFAULT_GRPO_GTRL = "2025.01.31"  # grpo-gtrl kl_estimator default kl1 → kl3
EXACT_MINI_BATCHES = "2025.02.11"  # gtrl: num_mini_batches = exact_div(rollout × n, mini) (d746b67eb / 473749964)
WARMUP_RATIO_FIX = "2025.02.25"  # `if warmup_ratio >= 0.0` (warm_up_steps always overridden) → `> 0.0` (#579)
ZERO_STD_FILTER = "2025.04.12"  # zero-std groups dropped unconditionally (bbd2e7a82), configurable 2025-11-12
ADVANTAGE_TYPE = "2025.04.21"  # advantage_normalization_type added (standard | centered)
SYNC_REJECTED = "2025.11.21"  # async_steps < 1 raises (PR #1220); before, 0 meant synchronous
KL_RENUMBERED = "2025.12.01"  # kl_estimator strings kl1..kl4 → ints 0..3 (kl3 → 2)
GLOBAL_TOKEN_LOSS = "2025.12.01"  # loss normalised by the accumulation group's token count over all ranks
ZERO2_FIX = "2026.02.26"  # ZeRO-2 kept only the last backward's gradient of each accumulation group (#1498)
LEGACY_WRITE_UNTIL = "2025.03.13"  # versions before this write a gtrl script (grpo_fast.py does not exist)

# grpo_fast.py / grpo.py keys: (first version, last version or None) → keys.
_FAST_KEY_RANGES: dict[tuple[str, str | None], tuple[str, ...]] = {
    ("2025.03.13", "2025.03.13"): (
        "apply_arithmetic_reward",
        "arithmetic_reward",
        "cliprange",
        "saved_tokenizer_type",
    ),
    ("2025.03.13", "2025.06.02"): (
        "async_mode",
        "eval_freq",
        "max_token_length",
        "num_evals",
    ),
    ("2025.03.13", "2025.12.01"): ("torch_dtype",),
    ("2025.03.13", "2026.03.20"): (
        "wandb_project_name",
        "warm_up_steps",
    ),
    ("2025.03.13", None): (
        "add_bos",
        "apply_r1_style_format_reward",
        "apply_verifiable_reward",
        "attn_implementation",
        "beta",
        "bnb_4bit_quant_type",
        "cache_dataset_only",
        "chat_template_name",
        "dataset_mixer_eval_list",
        "dataset_mixer_eval_list_splits",
        "dataset_mixer_list",
        "dataset_mixer_list_splits",
        "deepspeed_stage",
        "exp_name",
        "fused_optimizer",
        "gather_whole_model",
        "gradient_checkpointing",
        "ground_truths_key",
        "gs_bucket_path",
        "hf_entity",
        "hf_repo_id",
        "hf_repo_revision",
        "hf_repo_url",
        "kl_estimator",
        "learning_rate",
        "load_in_4bit",
        "load_in_8bit",
        "lora_alpha",
        "lora_dropout",
        "lora_modules_to_save",
        "lora_r",
        "lora_target_modules",
        "lora_task_type",
        "lr_scheduler_type",
        "max_prompt_token_length",
        "model_name_or_path",
        "model_revision",
        "non_stop_penalty",
        "non_stop_penalty_value",
        "num_epochs",
        "num_learners_per_node",
        "num_mini_batches",
        "num_samples_per_prompt_rollout",
        "num_training_steps",
        "num_unique_prompts_rollout",
        "oe_eval_max_length",
        "oe_eval_tasks",
        "output_dir",
        "pack_length",
        "per_device_train_batch_size",
        "push_to_hub",
        "r1_style_format_reward",
        "response_length",
        "run_name",
        "save_freq",
        "save_traces",
        "seed",
        "single_gpu_mode",
        "stop_strings",
        "temperature",
        "tokenizer_name",
        "tokenizer_revision",
        "total_episodes",
        "trust_remote_code",
        "try_auto_save_to_beaker",
        "try_launch_beaker_eval_jobs_on_weka",
        "use_bnb_nested_quant",
        "use_cache",
        "use_peft",
        "use_slow_tokenizer",
        "verification_reward",
        "vllm_enable_prefix_caching",
        "vllm_enforce_eager",
        "vllm_gpu_memory_utilization",
        "vllm_num_engines",
        "vllm_sync_backend",
        "vllm_tensor_parallel_size",
        "wandb_entity",
        "warmup_ratio",
        "weight_decay",
        "with_tracking",
        "world_size",
    ),
    ("2025.06.02", "2025.11.15"): ("masked_mean_axis",),
    ("2025.06.02", "2025.12.31"): (
        "code_tool_api_endpoint",
        "number_documents_to_search",
        "search_api_endpoint",
    ),
    ("2025.06.02", "2026.01.26"): (
        "max_tool_calls",
        "shuffle_eval_dataset",
    ),
    ("2025.06.02", None): (
        "additive_format_reward",
        "advantage_normalization_type",
        "alpha",
        "async_steps",
        "checkpoint_state_dir",
        "checkpoint_state_freq",
        "clip_higher",
        "clip_lower",
        "dataset_cache_mode",
        "dataset_config_eval_hash",
        "dataset_config_hash",
        "dataset_local_cache_dir",
        "dataset_skip_cache",
        "dataset_transform_fn",
        "eval_priority",
        "get_tokenizer_fn",
        "gs_checkpoint_state_dir",
        "keep_last_n_checkpoints",
        "mask_tool_use",
        "mask_truncated_completions",
        "only_reward_good_outputs",
        "ref_policy_update_freq",
        "set_weight_decay_on_bias_and_norm",
        "sft_messages_key",
        "tokenizer_files_hash",
        "tokenizer_name_or_path",
        "tools",
        "use_fast",
        "vllm_top_p",
    ),
    ("2025.10.20", "2025.10.20"): ("fill_completions",),
    ("2025.10.20", "2025.11.15"): (
        "inference_batch_size",
        "masked_mean_denominator",
        "use_fp8_kv_cache",
    ),
    ("2025.10.20", "2025.12.01"): (
        "allow_world_padding",
        "update_progress_every",
    ),
    ("2025.10.20", "2026.04.02"): ("truncated_importance_sampling_ratio_cap",),
    ("2025.10.20", None): (
        "backend_timeout",
        "code_api_url",
        "code_apply_perf_penalty",
        "code_max_execution_time",
        "code_pass_rate_reward_threshold",
        "enable_queue_dashboard",
        "eval_on_step_0",
        "inflight_updates",
        "llm_judge_max_context_length",
        "llm_judge_max_tokens",
        "llm_judge_model",
        "llm_judge_temperature",
        "llm_judge_timeout",
        "local_eval_every",
        "max_length_verifier_max_length",
        "oe_eval_beaker_image",
        "queue_dashboard_port",
        "record_entropy",
        "remap_verifier",
        "system_prompt_override_file",
        "use_vllm_logprobs",
        "verbose",
    ),
    ("2025.11.15", None): (
        "active_sampling",
        "deepspeed_offload_optimizer",
        "deepspeed_offload_param",
        "deepspeed_zpg",
        "filter_zero_std_samples",
        "no_resampling_pass_rate",
        "oe_eval_gpu_multiplier",
        "send_slack_alerts",
    ),
    ("2025.12.01", None): (
        "eval_workspace",
        "load_ref_policy",
        "loss_denominator",
    ),
    ("2025.12.31", None): (
        "dtype",
        "loss_fn",
    ),
    ("2026.01.26", None): (
        "max_grad_norm",
        "max_possible_score",
        "num_nodes",
        "pass_tools_to_chat_template",
        "rollouts_save_path",
        "sequence_parallel_size",
        "tool_call_names",
        "tool_configs",
        "tool_parser_type",
    ),
    ("2026.03.01", None): (
        "apply_evolving_rubric_reward",
        "cache_evolving_rubric_data_dir",
        "max_active_rubrics",
        "max_steps",
        "per_turn_max_tokens",
        "pool_size",
        "reward_aggregator",
    ),
    ("2026.03.20", None): ("model_dtype",),
    ("2026.04.02", None): (
        "activation_memory_budget",
        "checkpointing_steps",
        "compile_model",
        "ephemeral_save_interval",
        "fsdp_num_replicas",
        "fsdp_shard_degree",
        "gradient_accumulation_steps",
        "logging_steps",
        "max_seq_length",
        "max_train_steps",
        "report_to",
        "resume_from_checkpoint",
        "vllm_attention_backend",
        "wandb_group_name",
        "wandb_project",
    ),
    ("2026.06.11", None): (
        "activation_checkpointing_mode",
        "activation_checkpointing_modules",
        "cp_degree",
        "cp_strategy",
        "data_loader_seed",
        "deepspeed_checkpoint_load_universal",
        "eval_pass_at_k",
        "eval_response_length",
        "eval_top_p",
        "rho_clamp_lower_bound",
        "rho_clamp_upper_bound",
        "rho_mask_lower_bound",
        "rho_mask_sequence_level",
        "rho_mask_tv_divergence",
        "rho_mask_upper_bound",
        "use_rho_correction",
    ),
}

# Keys both gtrl scripts share (ppo_vllm_thread_ray_gtrl.py and grpo_vllm_thread_ray_gtrl.py).
_GTRL_COMMON = (
    "actor_num_gpus_per_node",
    "apply_verifiable_reward",
    "async_mode",
    "attn_implementation",
    "beta",
    "bnb_4bit_quant_type",
    "cliprange",
    "deepspeed_stage",
    "enable_prefix_caching",
    "eps",
    "exp_name",
    "gamma",
    "gather_whole_model",
    "gradient_accumulation_steps",
    "gradient_checkpointing",
    "ground_truths_key",
    "hf_entity",
    "hf_repo_id",
    "hf_repo_revision",
    "hf_repo_url",
    "kl_estimator",
    "learning_rate",
    "load_in_4bit",
    "load_in_8bit",
    "local_dataloader_batch_size",
    "local_mini_batch_size",
    "local_rollout_batch_size",
    "local_rollout_forward_batch_size",
    "lora_alpha",
    "lora_dropout",
    "lora_modules_to_save",
    "lora_r",
    "lora_target_modules",
    "lora_task_type",
    "lr_scheduler_type",
    "max_prompt_token_length",
    "max_token_length",
    "micro_batch_size",
    "min_response_length",
    "mini_batch_size",
    "model_name_or_path",
    "model_revision",
    "non_stop_penalty",
    "num_epochs",
    "num_evals",
    "num_mini_batches",
    "num_training_steps",
    "number_samples_per_prompt",
    "oe_eval_tasks",
    "output_dir",
    "penalty_reward_value",
    "per_device_eval_batch_size",
    "per_device_train_batch_size",
    "push_to_hub",
    "response_length",
    "reward_model_multiplier",
    "reward_model_path",
    "reward_model_revision",
    "rollout_batch_size",
    "run_name",
    "save_freq",
    "seed",
    "sft_messages_key",
    "stop_token",
    "stop_token_id",
    "temperature",
    "torch_dtype",
    "total_episodes",
    "trust_remote_code",
    "try_launch_beaker_eval_jobs",
    "try_launch_beaker_eval_jobs_on_weka",
    "use_bnb_nested_quant",
    "use_cache",
    "use_peft",
    "vllm_num_engines",
    "vllm_sync_backend",
    "vllm_tensor_parallel_size",
    "wandb_entity",
    "wandb_project_name",
    "warm_up_steps",
    "warmup_ratio",
    "whiten_rewards",
    "with_tracking",
    "world_size",
)
_GTRL_DATASET_CONFIG = (  # DatasetConfig fields parsed until the TokenizerConfig refactor
    "batched",
    "binary_messages_key",
    "chat_template",
    "convert_preference_to_binary_dataset",
    "dataset_source_key",
    "label",
    "load_from_cache_file",
    "ncols",
    "num_proc",
    "preference_chosen_key",
    "preference_rejected_key",
    "sanity_check",
    "sanity_check_max_samples",
    "train_only_on_prompt",
)
_GTRL_TOKENIZER_CONFIG = (
    "dataset_cache_mode",
    "dataset_config_eval_hash",
    "dataset_config_hash",
    "dataset_local_cache_dir",
    "dataset_skip_cache",
    "dataset_transform_fn",
    "eval_priority",
    "get_tokenizer_fn",
    "tokenizer_files_hash",
    "tokenizer_name_or_path",
    "use_fast",
)
_GTRL_MIXER_LISTS = (
    "add_bos",
    "add_r1_style_format_reward",
    "cache_dataset_only",
    "chat_template_name",
    "dataset_mixer_eval_list",
    "dataset_mixer_eval_list_splits",
    "dataset_mixer_list",
    "dataset_mixer_list_splits",
    "local_total_prompts",
    "r1_style_format_reward",
    "single_gpu_mode",
    "stop_strings",
    "tokenizer_name",
    "tokenizer_revision",
    "use_slow_tokenizer",
    "verification_reward",
    "vllm_gpu_memory_utilization",
)
_GTRL_JUDGES = (
    "code_api_url",
    "code_apply_perf_penalty",
    "code_max_execution_time",
    "code_pass_rate_reward_threshold",
    "llm_judge_max_context_length",
    "llm_judge_max_tokens",
    "llm_judge_model",
    "llm_judge_temperature",
    "llm_judge_timeout",
    "local_eval_freq",
    "remap_verifier",
)
_GTRL_OLD_DATASETS = (
    "answer_extraction_model",
    "dataset_eval_mixer",
    "dataset_eval_mixer_dict",
    "dataset_eval_splits",
    "dataset_mixer",
    "dataset_mixer_dict",
    "dataset_train_splits",
    "num_train_epochs",
)

_PPO_GTRL_KEY_RANGES: dict[tuple[str, str | None], tuple[str, ...]] = {
    ("2024.11.20", "2025.01.22"): _GTRL_OLD_DATASETS,
    ("2024.11.20", "2025.03.13"): (*_GTRL_DATASET_CONFIG, "hf_metadata_dataset"),
    ("2024.11.20", "2025.06.02"): ("eval_freq",),
    ("2024.11.20", None): (
        *_GTRL_COMMON,
        "checkpoint_output_dir",
        "cliprange_value",
        "init_value_from_scratch",
        "lam",
        "vf_coef",
    ),
    ("2025.01.22", None): ("try_auto_save_to_beaker", "vllm_enforce_eager"),
    ("2025.03.13", "2025.03.13"): ("eval_max_length",),
    ("2025.03.13", None): (*_GTRL_MIXER_LISTS, "save_value_model"),
    ("2025.06.02", None): (*_GTRL_TOKENIZER_CONFIG, "gs_bucket_path", "oe_eval_max_length"),
    ("2025.10.20", None): _GTRL_JUDGES,
}
_GRPO_GTRL_KEY_RANGES: dict[tuple[str, str | None], tuple[str, ...]] = {
    ("2025.01.22", "2025.01.22"): _GTRL_OLD_DATASETS,
    ("2025.01.22", "2025.03.13"): (*_GTRL_DATASET_CONFIG, "checkpoint_output_dir"),
    ("2025.01.22", "2025.06.02"): ("eval_freq",),
    ("2025.01.22", None): (*_GTRL_COMMON, "hf_metadata_dataset", "try_auto_save_to_beaker", "vllm_enforce_eager"),
    ("2025.03.13", "2025.03.13"): ("saved_tokenizer_type",),
    ("2025.03.13", None): (*_GTRL_MIXER_LISTS, "gs_bucket_path", "oe_eval_max_length"),
    ("2025.06.02", None): _GTRL_TOKENIZER_CONFIG,
    ("2025.10.20", None): _GTRL_JUDGES,
}


def _flatten(ranges: dict[tuple[str, str | None], tuple[str, ...]]) -> dict[str, tuple[str, str | None]]:
    return {key: span for span, keys in ranges.items() for key in keys}


# kind → key → (first version, last version or None).
KEY_RANGES: dict[str, dict[str, tuple[str, str | None]]] = {
    "fast": _flatten(_FAST_KEY_RANGES),
    "olmo-core": _flatten(_FAST_KEY_RANGES),
    "ppo-gtrl": _flatten(_PPO_GTRL_KEY_RANGES),
    "grpo-gtrl": _flatten(_GRPO_GTRL_KEY_RANGES),
}

# Keys whose value is a list (HfArgumentParser nargs): always read as a list, written space-separated.
LIST_KEYS = frozenset(
    {
        "num_learners_per_node",
        "actor_num_gpus_per_node",
        "dataset_mixer_list",
        "dataset_mixer_eval_list",
        "dataset_mixer_list_splits",
        "dataset_mixer_eval_list_splits",
        "stop_strings",
        "dataset_transform_fn",
        "oe_eval_tasks",
        "tools",
        "tool_call_names",
        "tool_configs",
        "activation_checkpointing_modules",
        "lora_target_modules",
        "lora_modules_to_save",
    }
)

# Defaults per program kind: key → [(first version with this default, value), ...] in version order.
# Values are written as the CLI spells them (lists of strings) where rlconf parses them like flags.
_FAST_DEFAULTS: dict[str, list[tuple[str, object]]] = {
    "num_unique_prompts_rollout": [("2025.03.13", 16)],
    "num_samples_per_prompt_rollout": [("2025.03.13", 4)],
    "num_mini_batches": [("2025.03.13", 1)],
    "num_epochs": [("2025.03.13", 1)],
    "per_device_train_batch_size": [("2025.03.13", 1)],  # TrainingConfig 8 from 2026-04-02, set_defaults → 1
    "pack_length": [("2025.03.13", 512)],
    "total_episodes": [("2025.03.13", 100000)],
    "num_learners_per_node": [("2025.03.13", ["1"])],
    "sequence_parallel_size": [("2025.03.13", 1)],
    "single_gpu_mode": [("2025.03.13", False)],
    "vllm_num_engines": [("2025.03.13", 1)],
    "vllm_tensor_parallel_size": [("2025.03.13", 1)],
    "deepspeed_stage": [("2025.03.13", 0)],
    "max_prompt_token_length": [("2025.03.13", 256)],
    "response_length": [("2025.03.13", 256)],
    "temperature": [("2025.03.13", 0.7), ("2026.06.15", 1.0)],
    "vllm_top_p": [("2025.03.13", 1.0)],
    "learning_rate": [("2025.03.13", 2e-5)],
    "lr_scheduler_type": [("2025.03.13", "linear")],
    "warmup_ratio": [("2025.03.13", 0.0)],  # TrainingConfig 0.1 from 2026-04-02, set_defaults → 0.0
    "warm_up_steps": [("2025.03.13", 0)],
    "weight_decay": [("2025.03.13", 0.0)],
    "set_weight_decay_on_bias_and_norm": [("2025.03.13", True)],
    "max_grad_norm": [("2025.03.13", 1.0)],  # a flag from 2026-01-20; hard-coded 1.0 before
    "beta": [("2025.03.13", 0.05)],
    "kl_estimator": [("2025.03.13", "kl3"), (KL_RENUMBERED, 2)],
    "cliprange": [("2025.03.13", 0.2)],
    "clip_lower": [("2025.03.13", 0.2)],
    "clip_higher": [("2025.03.13", 0.2), ("2026.03.20", 0.272)],
    "advantage_normalization_type": [("2025.03.13", "standard"), ("2026.03.20", "centered")],
    "loss_denominator": [("2025.03.13", "token")],
    "masked_mean_axis": [("2025.03.13", None)],
    "masked_mean_denominator": [("2025.03.13", None)],
    "loss_fn": [("2025.03.13", "dapo")],
    "async_mode": [("2025.03.13", True)],
    "async_steps": [("2025.03.13", 1), ("2026.03.20", 8)],
    "inflight_updates": [("2025.03.13", False), ("2026.03.20", True)],
    "active_sampling": [("2025.03.13", False)],
    "filter_zero_std_samples": [("2025.03.13", True)],
    "load_ref_policy": [("2025.03.13", True)],
    "model_name_or_path": [("2025.03.13", None)],
}
_GTRL_DEFAULTS: dict[str, list[tuple[str, object]]] = {
    "local_rollout_batch_size": [("2024.11.20", 64)],
    "local_mini_batch_size": [("2024.11.20", 64)],
    "number_samples_per_prompt": [("2024.11.20", 1)],
    "per_device_train_batch_size": [("2024.11.20", 1)],
    "num_epochs": [("2024.11.20", 4)],
    "total_episodes": [("2024.11.20", 100000)],
    "actor_num_gpus_per_node": [("2024.11.20", ["1"])],
    "single_gpu_mode": [("2024.11.20", False)],
    "vllm_num_engines": [("2024.11.20", 1)],
    "vllm_tensor_parallel_size": [("2024.11.20", 1)],
    "deepspeed_stage": [("2024.11.20", 0)],
    "max_prompt_token_length": [("2024.11.20", None), ("2025.06.02", 256)],
    "response_length": [("2024.11.20", 53)],
    "temperature": [("2024.11.20", 0.7)],
    "learning_rate": [("2024.11.20", 2e-5)],
    "lr_scheduler_type": [("2024.11.20", "linear")],
    "warmup_ratio": [("2024.11.20", 0.0)],
    "warm_up_steps": [("2024.11.20", 0)],
    "beta": [("2024.11.20", 0.05)],
    "cliprange": [("2024.11.20", 0.2)],
    "async_mode": [("2024.11.20", True)],
    "gamma": [("2024.11.20", 1.0)],
    "lam": [("2024.11.20", 0.95)],
    "reward_model_path": [("2024.11.20", "EleutherAI/pythia-160m")],
    "init_value_from_scratch": [("2024.11.20", False)],
    "model_name_or_path": [("2024.11.20", None)],
}
DEFAULTS: dict[str, dict[str, list[tuple[str, object]]]] = {
    "fast": _FAST_DEFAULTS,
    "olmo-core": _FAST_DEFAULTS,
    "ppo-gtrl": {**_GTRL_DEFAULTS, "kl_estimator": [("2024.11.20", "kl1")]},
    "grpo-gtrl": {**_GTRL_DEFAULTS, "kl_estimator": [("2024.11.20", "kl1"), (KL3_DEFAULT_GRPO_GTRL, "kl3")]},
}

# Keys grpo_fast parses but never reads (HEAD grep of grpo_fast.py, grpo_utils.py, data_loader.py): → why.
IGNORED_KEYS: dict[str, str] = {
    "gradient_accumulation_steps": "the DeepSpeed config hard-codes gradient_accumulation_steps 1 and grpo_fast "
    "derives its accumulation from num_mini_batches",
    "max_train_steps": "the run length is total_episodes // (num_unique_prompts_rollout × "
    "num_samples_per_prompt_rollout)",
    "max_seq_length": "sequence lengths come from max_prompt_token_length, response_length and pack_length",
    "checkpointing_steps": "grpo_fast saves every save_freq / checkpoint_state_freq training steps",
    "logging_steps": "grpo_fast logs every training step",
    "report_to": "grpo_fast logs to wandb when with_tracking is set",
    "ephemeral_save_interval": "grpo_fast does not read it",
    "data_loader_seed": "grpo_fast seeds its prompt loader from seed",
    "gradient_checkpointing": "grpo_fast always enables gradient checkpointing",
}
# From when each ignored key is parsed at all (before that HfArgumentParser rejects it).
IGNORED_SINCE = {"gradient_checkpointing": "2025.03.13", "data_loader_seed": "2026.06.11"}

# kl_estimator: the value as written → (canonical estimator, what Open-Instruct computes; d = logπ − logπ_ref).
KL_ESTIMATORS: dict[str, tuple[str, str]] = {
    "0": ("k1", "d"),
    "1": ("k2", "d²/2"),
    "2": ("k3", "expm1(-d) + d"),
    "3": ("k1", "ratio × d"),
    "kl1": ("k1", "d"),
    "kl2": ("k2", "d²/2"),
    "kl3": ("k3", "expm1(-d) + d"),
    "kl4": ("k1", "ratio × d"),
}
KL_INDEX = {"k1": 0, "k2": 1, "k3": 2}  # canonical → the int Open-Instruct has taken since KL_RENUMBERED

# Shell words that launch a Python program (the training script follows them).
PYTHON_LAUNCHERS = ("python", "python3", "uv", "deepspeed", "accelerate", "torchrun")

# mason.py options that take no value (everything else takes one, `--opt value`).
MASON_FLAGS = frozenset(
    {
        "--preemptible",
        "--pure_docker_mode",
        "--mount_docker_socket",
        "--no_auto_dataset_cache",
        "--no_hf_cache_env",
        "--no_mount_nfs",
        "--non_resumable",
        "--no-host-networking",
    }
)

# Defaults of the run-part flags rlconf reads (grpo_fast.py Args / its config classes, and the gtrl scripts'
# Args; docs/frameworks/open-instruct.md "Run parts"). A missing entry means "not a flag of that program".
RUN_PART_DEFAULTS: dict[str, dict[str, Any]] = {
    "fast": {
        "save_freq": 200,
        "local_eval_every": 100,
        "with_tracking": False,
        "ground_truths_key": "ground_truth",
        "sft_messages_key": "messages",
        "dataset_mixer_list_splits": ["train"],
        "apply_verifiable_reward": True,
        "apply_r1_style_format_reward": False,
        "output_dir": "output",
    },
    "gtrl": {
        "save_freq": -1,
        "num_evals": 4,
        "with_tracking": False,
        "ground_truths_key": "ground_truth",
        "sft_messages_key": "messages",
        "dataset_mixer_list_splits": ["train"],
        "apply_verifiable_reward": False,
    },
}
# The canonical name of Open-Instruct's built-in rewards (verifiers chosen per row by its `dataset` column,
# ground_truth_utils.py) and of its format reward.
BUILTIN_VERIFIABLE = "open_instruct:verifiable"
BUILTIN_R1_FORMAT = "open_instruct:r1_style_format"
