"""OpenRLHF's version table as data: releases, flag renames, flag lifetimes, defaults per release.

Source: the ``add_argument`` calls of ``openrlhf/cli/train_ppo_ray.py`` in every release wheel from 0.4.0 (read
from 0.4.0.post2/.post3, the only 0.4.0 wheels) to 0.11.2 (``pip download --no-deps openrlhf==X``);
docs/frameworks/openrlhf.md explains them with the source file at each tag.
Flags are written without the leading ``--``.

Internally rlconf names every flag by its dotted (≥ 0.10.2) name when it has one, else by its flat name
(flags that never got a dotted name: ``prompt_max_len``, ``flash_attn``, ``ptx_coef``, ...).
"""

from __future__ import annotations

from translator.dialects.settings import Setting

VERSIONS = (
    "0.4.0",
    "0.4.1",
    "0.4.2",
    "0.4.3",
    "0.4.4",
    "0.4.5",
    "0.4.6",
    "0.5.0",
    "0.5.1",
    "0.5.2",
    "0.5.3",
    "0.5.4",
    "0.5.5",
    "0.5.6",
    "0.5.7",
    "0.5.8",
    "0.5.9",
    "0.6.0",
    "0.6.1",
    "0.6.2",
    "0.6.3",
    "0.6.4",
    "0.7.0",
    "0.7.1",
    "0.7.2",
    "0.7.3",
    "0.7.4",
    "0.7.5",
    "0.8.0",
    "0.8.1",
    "0.8.3",
    "0.8.4",
    "0.8.5",
    "0.8.6",
    "0.8.7",
    "0.8.8",
    "0.8.9",
    "0.8.10",
    "0.8.11",
    "0.9.0",
    "0.9.1",
    "0.9.2",
    "0.9.3",
    "0.9.4",
    "0.9.5",
    "0.9.6",
    "0.9.7",
    "0.9.8",
    "0.9.9",
    "0.9.10",
    "0.10.0",
    "0.10.1",
    "0.10.2",
    "0.10.3",
    "0.10.4",
    "0.11.0",
    "0.11.1",
    "0.11.2",
)

# What changed in each release that changes what a launch line means (docs/frameworks/openrlhf.md; the tables
# below: FLAT_TO_DOTTED, KEY_RANGE, VALUE_RENAMES, DEFAULTS and the *_SINCE constants).
CHANGES = {
    "0.4.0": "flat flags; rollout_batch_size counts samples: the prompt dataset holds each prompt "
    "n_samples_per_prompt times and each actor rank trains after rollout_batch_size // (actor GPUs × "
    "micro_rollout_batch_size) loader batches of micro_rollout_batch_size samples; gae only; KL in the reward; "
    "actor and critic GPU counts must be powers of 2; warmup fixed at 3%; temperature fixed at 1",
    "0.4.1": "input_template default None (was 'User: {}\\nAssistant: ')",
    "0.4.2": "no config-relevant change",
    "0.4.3": "no config-relevant change",
    "0.4.4": "packing_samples, enforce_eager, use_tensorboard",
    "0.4.5": "rollout_batch_size counts prompts: one prompt loop per actor rank (rollout_batch_size // actor GPUs "
    "prompts each), each prompt repeated n_samples_per_prompt times in the step",
    "0.4.6": "temperature, reward_clip_range, use_kl_estimator_k3; asserts actor GPUs ≥ vllm_num_engines",
    "0.5.0": "no config-relevant change (the reader's band A, 0.4.5–0.7.0, starts at 0.4.5)",
    "0.5.1": "advantage_estimator (gae | reinforce)",
    "0.5.2": "no config-relevant change",
    "0.5.3": "lr_warmup_ratio; rloo estimator (asserts n_samples_per_prompt > 1)",
    "0.5.4": "no config-relevant change",
    "0.5.5": "overlap_comm",
    "0.5.6": "rollout_batch_size must be divisible by the actor GPUs (power-of-2 assert dropped); actor GPUs "
    "divisible by vllm_num_engines",
    "0.5.7": "save_hf_ckpt, disable_ds_ckpt, vllm_sync_with_ray",
    "0.5.8": "colocate_all_models (vLLM on the actor GPUs; vllm_gpu_memory_utilization ≥ 0.9 forced to 0.4), "
    "vllm_enable_sleep; remote_rm_url may be a .py file defining reward_func(queries, prompts, labels)",
    "0.5.9": "colocate_all_models asserts actor GPUs = vllm_num_engines × vllm_tensor_parallel_size",
    "0.6.0": "reinforce_baseline and group_norm estimators (assert n_samples_per_prompt > 1); use_kl_loss; "
    "ring_attn_size; label_key; no reference model when init_kl_coef is 0",
    "0.6.1": "use_kl_estimator_k3 → kl_estimator (k1 | k2 | k3); vllm_gpu_memory_utilization no longer forced "
    "under colocate_all_models",
    "0.6.2": "full_determinism, use_liger_kernel",
    "0.6.3": "no config-relevant change",
    "0.6.4": "dr_grpo estimator; no_advantage_std_norm; vllm_gpu_memory_utilization default 0.95 (was 0.9)",
    "0.7.0": "eval_dataset (needs remote_rm_url); token-mean loss per micro-batch (was a mean of per-sequence "
    "means); prompt_split removed (train split only)",
    "0.7.1": "single controller: one global prompt loader of rollout_batch_size prompts; the LR horizon leaves "
    "out num_episodes × max_epochs (bug)",
    "0.7.2": "entropy_loss_coef (0); asserts n × rollout_batch_size // micro_rollout_batch_size ≥ actor GPUs "
    "// ring_attn_size",
    "0.7.3": "LR horizon fixed: len(prompts) × n // train_batch_size × num_episodes × max_epochs",
    "0.7.4": "ds_tensor_parallel_size; prompt_split and eval_split",
    "0.7.5": "no config-relevant change",
    "0.8.0": "agent_func_path, async_train (asynchronous rollouts); generation needs vLLM engines (no HF-generate "
    "fallback); eval_steps -1 = once per episode for the last time",
    "0.8.1": "vllm_generate_batch_size (the prompt-dataloader batch); dynamic_filtering + reward range; "
    "eval_steps -1 = never",
    "0.8.3": "eps_clip_low_high (asymmetric clip); value_clip default 0.5; entropy_loss_coef default None "
    "(entropy not computed)",
    "0.8.4": "no config-relevant change",
    "0.8.5": "lr_scheduler flag (was hard-coded cosine_with_min_lr); rloo advantages no longer whitened over the batch",
    "0.8.6": "use_dynamic_batch with train/rollout_max_tokens_per_gpu (16192 tokens); dual_clip",
    "0.8.7": "overlong_buffer_len / overlong_penalty_factor (DAPO overlong penalty)",
    "0.8.8": "policy_loss_type (ppo | gspo)",
    "0.8.9": "enable_vllm_is_correction / vllm_is_truncated_threshold (train/rollout importance-sampling correction)",
    "0.8.10": "--flash_attn → --attn_implementation (default flash_attention_2)",
    "0.8.11": "no config-relevant change",
    "0.9.0": "no config-relevant change",
    "0.9.1": "async_queue_size; use_icepop; vllm_generate_batch_size read by nothing (ignored)",
    "0.9.2": "--bf16 → --param_dtype (bf16 | fp16); stop_properly_penalty_coef",
    "0.9.3": "vllm_is_correction_type (tis | icepop | seq-mask-tis) replaces use_icepop",
    "0.9.4": "no config-relevant change",
    "0.9.5": "last rollout of an episode may be partial (batch-1 prompt loader) instead of dropped",
    "0.9.6": "no config-relevant change",
    "0.9.7": "partial_rollout (needs async_train)",
    "0.9.8": "prompt_max_len + generate_max_len → max_len (2048, prompt+response) + max_new_tokens; dynamic "
    "filtering refills each dropped group",
    "0.9.9": "best_metric_key (best checkpoint kept apart from rotation)",
    "0.9.10": "dataloader_num_workers",
    "0.10.0": "micro_rollout/micro_train_batch_size default 1 (was 8/4); VLM flags; vllm_generate_batch_size "
    "= prompts per vLLM call (oversampling)",
    "0.10.1": "no config-relevant change",
    "0.10.2": "every flag renamed to dotted names (--rollout.batch_size ...), no aliases; per-model optimizer flags; "
    "ptx_coef removed",
    "0.10.3": "token-mean loss counts tokens over all data-parallel ranks per micro-batch",
    "0.10.4": "token-mean loss over the whole optimizer step (all accumulation micro-batches × ranks)",
    "0.11.0": "dr_grpo also requires n_samples_per_prompt > 1",
    "0.11.1": "algo.kl.unbiased_gradient",
    "0.11.2": "is_correction_enable/type → is_correction_level/mode/gating; actor.loss_agg_mode; flash_reinforce "
    "estimator",
}

DOTTED_SINCE = "0.10.2"  # commit ed62d0e2: every flag renamed, no aliases (a wrong-scheme flag is an argparse error)
LAST_FLAT = "0.10.1"
ENTRY_MODULE = "openrlhf.cli.train_ppo_ray"
# The single-job PPO entry of releases up to 0.6.1 (deepspeed --module openrlhf.cli.train_ppo): DeepSpeed alone, no
# Ray, so the actor's ranks are the launcher's processes, not --actor_num_nodes × --actor_num_gpus_per_node
# (openrlhf/cli/train_ppo.py@v0.6.1: strategy = get_strategy(args); the prompt loader's batch is
# rollout_batch_size // strategy.world_size, as train_ppo_ray's up to 0.7.0)
SINGLE_JOB_ENTRY = "openrlhf.cli.train_ppo"
# Every module of openrlhf/cli in the releases rlconf reads (the wheels' RECORD, 0.4.3 – 0.11.2): `python -m` of any
# other openrlhf.cli module stops with "No module named …" unless the project holds it.
CLI_MODULES = frozenset(
    f"openrlhf.cli.{name}"
    for name in (
        "batch_inference",
        "interactive_chat",
        "lora_combiner",
        "serve_rm",
        "train_dpo",
        "train_kd",
        "train_kto",
        "train_ppo",
        "train_ppo_ray",
        "train_prm",
        "train_rm",
        "train_sft",
    )
)

# ≤ 0.10.1 flat name → its ≥ 0.10.2 dotted name(s). Several flat optimizer flags became one flag per model.
FLAT_TO_DOTTED: dict[str, tuple[str, ...]] = {
    "actor_learning_rate": ("actor.adam.lr",),
    "actor_num_gpus_per_node": ("actor.num_gpus_per_node",),
    "actor_num_nodes": ("actor.num_nodes",),
    "adam_betas": ("actor.adam.betas", "critic.adam.betas"),
    "adam_offload": ("ds.adam_offload",),
    "advantage_estimator": ("algo.advantage.estimator",),
    "agent_func_path": ("train.agent_func_path",),
    "apply_chat_template": ("data.apply_chat_template",),
    "async_queue_size": ("train.async_queue_size",),
    "async_train": ("train.async_enable",),
    "attn_implementation": ("ds.attn_implementation",),
    "aux_loss_coef": ("actor.aux_loss_coef",),
    "best_metric_key": ("ckpt.best_metric_key",),
    "ckpt_path": ("ckpt.path",),
    "colocate_actor_ref": ("train.colocate_actor_ref",),
    "colocate_all_models": ("train.colocate_all",),
    "colocate_critic_reward": ("train.colocate_critic_reward",),
    "critic_learning_rate": ("critic.adam.lr",),
    "critic_num_gpus_per_node": ("critic.num_gpus_per_node",),
    "critic_num_nodes": ("critic.num_nodes",),
    "critic_pretrain": ("critic.model_name_or_path",),
    "dataloader_num_workers": ("data.dataloader_num_workers",),
    "deepcompile": ("ds.deepcompile",),
    "deepspeed_enable_sleep": ("ds.enable_sleep",),
    "disable_ds_ckpt": ("ckpt.disable_ds",),
    "disable_fast_tokenizer": ("data.disable_fast_tokenizer",),
    "ds_tensor_parallel_size": ("ds.tensor_parallel_size",),
    "dual_clip": ("actor.dual_clip",),
    "dynamic_filtering": ("algo.dynamic_filtering_enable",),
    "dynamic_filtering_reward_range": ("algo.dynamic_filtering_range",),
    "ema_beta": ("train.ema_beta",),
    "enable_ema": ("train.enable_ema",),
    "enable_prefix_caching": ("vllm.enable_prefix_caching",),
    "enable_vllm_is_correction": ("algo.advantage.is_correction_enable",),
    "enforce_eager": ("vllm.enforce_eager",),
    "entropy_loss_coef": ("actor.entropy_coef",),
    "eps_clip": ("actor.eps_clip",),
    "eps_clip_low_high": ("actor.eps_clip_low_high",),
    "eval_dataset": ("eval.dataset",),
    "eval_n_samples_per_prompt": ("eval.n_samples_per_prompt",),
    "eval_split": ("eval.split",),
    "eval_steps": ("eval.steps",),
    "eval_temperature": ("eval.temperature",),
    "freeze_visual_encoder": ("actor.freeze_visual_encoder",),
    "freezing_actor_steps": ("critic.freezing_steps",),
    "full_determinism": ("train.full_determinism_enable",),
    "gamma": ("algo.advantage.gamma",),
    "grad_accum_dtype": ("ds.grad_accum_dtype",),
    "gradient_checkpointing": ("actor.gradient_checkpointing_enable",),
    "gradient_checkpointing_use_reentrant": ("actor.gradient_checkpointing_reentrant",),
    "image_key": ("data.image_key",),
    "init_kl_coef": ("algo.kl.init_coef",),
    "input_key": ("data.input_key",),
    "input_template": ("data.input_template",),
    "kl_estimator": ("algo.kl.estimator",),
    "kl_horizon": ("algo.kl.horizon",),
    "kl_target": ("algo.kl.target",),
    "l2": ("actor.adam.weight_decay", "critic.adam.weight_decay"),
    "label_key": ("data.label_key",),
    "lambd": ("algo.advantage.lambd",),
    "load_checkpoint": ("ckpt.load_enable",),
    "load_in_4bit": ("ds.load_in_4bit",),
    "logging_steps": ("logger.logging_steps",),
    "lora_alpha": ("ds.lora.alpha",),
    "lora_dropout": ("ds.lora.dropout",),
    "lora_rank": ("ds.lora.rank",),
    "lr_scheduler": ("actor.lr_scheduler", "critic.lr_scheduler"),
    "lr_warmup_ratio": ("actor.lr_warmup_ratio", "critic.lr_warmup_ratio"),
    "max_ckpt_mem": ("ckpt.max_mem",),
    "max_ckpt_num": ("ckpt.max_num",),
    "max_epochs": ("train.max_epochs",),
    "max_images_per_prompt": ("data.max_images_per_prompt",),
    "max_len": ("data.max_len",),
    "max_new_tokens": ("rollout.max_new_tokens",),
    "max_norm": ("actor.max_norm", "critic.max_norm"),
    "max_samples": ("data.max_samples",),
    "micro_rollout_batch_size": ("rollout.micro_batch_size",),
    "micro_train_batch_size": ("train.micro_batch_size",),
    "n_samples_per_prompt": ("rollout.n_samples_per_prompt",),
    "no_advantage_std_norm": ("algo.advantage.no_std_norm",),
    "normalize_reward": ("reward.normalize_enable",),
    "num_episodes": ("train.num_episodes",),
    "overlap_comm": ("ds.overlap_comm",),
    "overlong_buffer_len": ("reward.overlong_buffer_len",),
    "overlong_penalty_factor": ("reward.overlong_penalty_factor",),
    "packing_samples": ("ds.packing_samples",),
    "param_dtype": ("ds.param_dtype",),
    "partial_rollout": ("train.partial_rollout_enable",),
    "policy_loss_type": ("actor.policy_loss_type",),
    "pretrain": ("actor.model_name_or_path",),
    "prompt_data": ("data.prompt_dataset",),
    "prompt_data_probs": ("data.prompt_probs",),
    "prompt_split": ("data.prompt_split",),
    "ref_num_gpus_per_node": ("ref.num_gpus_per_node",),
    "ref_num_nodes": ("ref.num_nodes",),
    "ref_reward_offload": ("ref.offload", "reward.offload"),
    "remote_rm_url": ("reward.remote_url",),
    "reward_clip_range": ("reward.clip_range",),
    "reward_num_gpus_per_node": ("reward.num_gpus_per_node",),
    "reward_num_nodes": ("reward.num_nodes",),
    "reward_pretrain": ("reward.model_name_or_path",),
    "ring_attn_size": ("ds.ring_attn_size",),
    "ring_head_stride": ("ds.ring_attn_head_stride",),
    "rollout_batch_size": ("rollout.batch_size",),
    "rollout_max_tokens_per_gpu": ("rollout.max_tokens_per_gpu",),
    "save_hf_ckpt": ("ckpt.save_hf",),
    "save_path": ("ckpt.output_dir",),
    "save_steps": ("ckpt.save_steps",),
    "save_value_network": ("critic.save_value_network",),
    "seed": ("train.seed",),
    "stop_properly_penalty_coef": ("reward.stop_properly_penalty_coef",),
    "target_modules": ("ds.lora.target_modules",),
    "temperature": ("rollout.temperature",),
    "top_p": ("rollout.top_p",),
    "train_batch_size": ("train.batch_size",),
    "train_max_tokens_per_gpu": ("train.max_tokens_per_gpu",),
    "use_ds_universal_ckpt": ("ds.use_universal_ckpt",),
    "use_dynamic_batch": ("train.dynamic_batch_enable",),
    "use_kl_loss": ("algo.kl.use_loss",),
    "use_liger_kernel": ("ds.use_liger_kernel",),
    "use_tensorboard": ("logger.tensorboard_dir",),
    "use_wandb": ("logger.wandb.key",),
    "value_clip": ("critic.value_clip",),
    "value_head_prefix": ("ds.value_head_prefix",),
    "vllm_enable_sleep": ("vllm.enable_sleep",),
    "vllm_generate_batch_size": ("rollout.vllm_generate_batch_size",),
    "vllm_gpu_memory_utilization": ("vllm.gpu_memory_utilization",),
    "vllm_is_correction_type": ("algo.advantage.is_correction_type",),
    "vllm_is_truncated_threshold": ("algo.advantage.is_correction_threshold",),
    "vllm_num_engines": ("vllm.num_engines",),
    "vllm_sync_backend": ("vllm.sync_backend",),
    "vllm_sync_with_ray": ("vllm.sync_with_ray",),
    "vllm_tensor_parallel_size": ("vllm.tensor_parallel_size",),
    "wandb_group": ("logger.wandb.group",),
    "wandb_org": ("logger.wandb.org",),
    "wandb_project": ("logger.wandb.project",),
    "wandb_run_name": ("logger.wandb.run_name",),
    "zero_stage": ("ds.zero_stage",),
    "zpg": ("ds.zpg",),
}
# dotted name → flat name (for the flags that had one).
DOTTED_TO_FLAT: dict[str, str] = {dotted: flat for flat, targets in FLAT_TO_DOTTED.items() for dotted in targets}

# Flat flags with no dotted successor: older names and flags dropped in 0.10.2.
FLAT_ONLY = frozenset(
    {
        "prompt_max_len",
        "generate_max_len",
        "flash_attn",
        "bf16",
        "use_icepop",
        "ptx_coef",
        "perf",
        "actor_init_on_gpu",
        "use_kl_estimator_k3",
        "disable_trace_cache",
        "torch_compile",
        "universal_ckpt",
        "pretrain_data",
        "pretrain_data_probs",
        "pretrain_split",
    }
)
# The same name in both schemes.
COMMON = frozenset({"local_rank", "use_ms"})
# Dotted flags with no flat predecessor.
DOTTED_ONLY = frozenset(
    {
        f"{model}.{name}"
        for model in ("actor", "critic")
        for name in (
            "adam.eps",
            "min_lr_ratio",
            "optim",
            "muon.lr",
            "muon.momentum",
            "muon.ns_steps",
            "muon.nesterov",
            "muon.no_nesterov",
        )
    }
    | {
        "ds.experts_implementation",
        "algo.kl.unbiased_gradient",
        "actor.loss_agg_mode",
        "algo.advantage.is_correction_level",
        "algo.advantage.is_correction_mode",
        "algo.advantage.is_correction_gating",
    }
)

ALL_FLAT = frozenset(FLAT_TO_DOTTED) | FLAT_ONLY | COMMON
ALL_DOTTED = frozenset(DOTTED_TO_FLAT) | DOTTED_ONLY | COMMON

# Flags that exist only in part of their scheme's releases: name → (first release, last release or None).
KEY_RANGE: dict[str, tuple[str, str | None]] = {
    "advantage_estimator": ("0.5.1", None),
    "lr_warmup_ratio": ("0.5.3", None),
    "disable_trace_cache": ("0.4.0", "0.5.4"),
    "packing_samples": ("0.4.4", None),
    "enforce_eager": ("0.4.4", None),
    "use_tensorboard": ("0.4.4", None),
    "temperature": ("0.4.6", None),
    "reward_clip_range": ("0.4.6", None),
    "overlap_comm": ("0.5.5", None),
    "disable_ds_ckpt": ("0.5.7", None),
    "save_hf_ckpt": ("0.5.7", None),
    "vllm_sync_with_ray": ("0.5.7", None),
    "colocate_all_models": ("0.5.8", None),
    "vllm_enable_sleep": ("0.5.8", None),
    "vllm_gpu_memory_utilization": ("0.5.8", None),
    "label_key": ("0.6.0", None),
    "ring_attn_size": ("0.6.0", None),
    "ring_head_stride": ("0.6.0", None),
    "use_kl_loss": ("0.6.0", None),
    "use_ms": ("0.6.0", None),
    "use_kl_estimator_k3": ("0.4.6", "0.6.0"),
    "kl_estimator": ("0.6.1", None),
    "deepspeed_enable_sleep": ("0.6.1", None),
    "full_determinism": ("0.6.2", None),
    "use_liger_kernel": ("0.6.2", None),
    "torch_compile": ("0.6.2", "0.7.0"),
    "universal_ckpt": ("0.6.3", "0.6.3"),
    "no_advantage_std_norm": ("0.6.4", None),
    "use_ds_universal_ckpt": ("0.6.4", None),
    "eval_dataset": ("0.7.0", None),
    "eval_n_samples_per_prompt": ("0.7.0", None),
    "eval_temperature": ("0.7.0", None),
    "pretrain_data": ("0.4.0", "0.7.0"),
    "pretrain_data_probs": ("0.4.0", "0.7.0"),
    "pretrain_split": ("0.4.0", "0.7.0"),
    "deepcompile": ("0.7.1", None),
    "ema_beta": ("0.7.1", None),
    "kl_horizon": ("0.7.1", None),
    "entropy_loss_coef": ("0.7.2", None),
    "ds_tensor_parallel_size": ("0.7.4", None),
    "eval_split": ("0.7.4", None),
    "agent_func_path": ("0.8.0", None),
    "async_train": ("0.8.0", None),
    "vllm_generate_batch_size": ("0.8.1", None),
    "dynamic_filtering": ("0.8.1", None),
    "dynamic_filtering_reward_range": ("0.8.1", None),
    "eps_clip_low_high": ("0.8.3", None),
    "lr_scheduler": ("0.8.5", None),
    "use_dynamic_batch": ("0.8.6", None),
    "train_max_tokens_per_gpu": ("0.8.6", None),
    "rollout_max_tokens_per_gpu": ("0.8.6", None),
    "dual_clip": ("0.8.6", None),
    "overlong_buffer_len": ("0.8.7", None),
    "overlong_penalty_factor": ("0.8.7", None),
    "policy_loss_type": ("0.8.8", None),
    "enable_vllm_is_correction": ("0.8.9", None),
    "vllm_is_truncated_threshold": ("0.8.9", None),
    "flash_attn": ("0.4.0", "0.8.9"),
    "attn_implementation": ("0.8.10", None),
    "async_queue_size": ("0.9.1", None),
    "use_icepop": ("0.9.1", "0.9.2"),
    "bf16": ("0.4.0", "0.9.1"),
    "param_dtype": ("0.9.2", None),
    "stop_properly_penalty_coef": ("0.9.2", None),
    "vllm_is_correction_type": ("0.9.3", None),
    "partial_rollout": ("0.9.7", None),
    "prompt_max_len": ("0.4.0", "0.9.7"),
    "generate_max_len": ("0.4.0", "0.9.7"),
    "max_new_tokens": ("0.9.8", None),
    "best_metric_key": ("0.9.9", None),
    "dataloader_num_workers": ("0.9.10", None),
    "image_key": ("0.10.0", None),
    "max_images_per_prompt": ("0.10.0", None),
    "freeze_visual_encoder": ("0.10.0", None),
    "algo.kl.unbiased_gradient": ("0.11.1", None),
    "algo.advantage.is_correction_enable": (DOTTED_SINCE, "0.11.1"),
    "algo.advantage.is_correction_type": (DOTTED_SINCE, "0.11.1"),
    "actor.loss_agg_mode": ("0.11.2", None),
    "algo.advantage.is_correction_level": ("0.11.2", None),
    "algo.advantage.is_correction_mode": ("0.11.2", None),
    "algo.advantage.is_correction_gating": ("0.11.2", None),
}

# Releases in which a flag of an older and a newer range was missing: name → (first, last release without it).
KEY_GAPS: dict[str, tuple[str, str]] = {
    "prompt_split": ("0.7.0", "0.7.3"),  # the train split only, until 0.7.4 brought the flag back
}

# Switches that became valued flags: old flat switch → (internal name of the new flag, its value when on).
VALUE_RENAMES: dict[str, tuple[str, str]] = {
    "flash_attn": ("ds.attn_implementation", "flash_attention_2"),  # 0.8.10
    "bf16": ("ds.param_dtype", "bf16"),  # 0.9.2
    "use_kl_estimator_k3": ("algo.kl.estimator", "k3"),  # 0.6.1
}

# Argument shapes (argparse): store_true flags take no value, these take two, these take one or more.
STORE_TRUE = frozenset(
    {
        "actor_init_on_gpu",
        "adam_offload",
        "use_kl_estimator_k3",
        "disable_trace_cache",
        "torch_compile",
        "universal_ckpt",
        "apply_chat_template",
        "async_train",
        "bf16",
        "colocate_actor_ref",
        "colocate_all_models",
        "colocate_critic_reward",
        "deepcompile",
        "deepspeed_enable_sleep",
        "disable_ds_ckpt",
        "disable_fast_tokenizer",
        "dynamic_filtering",
        "enable_ema",
        "enable_prefix_caching",
        "enable_vllm_is_correction",
        "enforce_eager",
        "flash_attn",
        "freeze_visual_encoder",
        "full_determinism",
        "gradient_checkpointing",
        "gradient_checkpointing_use_reentrant",
        "load_checkpoint",
        "load_in_4bit",
        "no_advantage_std_norm",
        "normalize_reward",
        "overlap_comm",
        "packing_samples",
        "partial_rollout",
        "perf",
        "ref_reward_offload",
        "save_hf_ckpt",
        "save_value_network",
        "use_ds_universal_ckpt",
        "use_dynamic_batch",
        "use_icepop",
        "use_kl_loss",
        "use_liger_kernel",
        "use_ms",
        "vllm_enable_sleep",
        "vllm_sync_with_ray",
        "actor.freeze_visual_encoder",
        "actor.gradient_checkpointing_enable",
        "actor.gradient_checkpointing_reentrant",
        "actor.muon.nesterov",
        "actor.muon.no_nesterov",
        "critic.muon.nesterov",
        "critic.muon.no_nesterov",
        "algo.advantage.is_correction_enable",
        "algo.advantage.no_std_norm",
        "algo.dynamic_filtering_enable",
        "algo.kl.unbiased_gradient",
        "algo.kl.use_loss",
        "ckpt.disable_ds",
        "ckpt.load_enable",
        "ckpt.save_hf",
        "critic.save_value_network",
        "data.apply_chat_template",
        "data.disable_fast_tokenizer",
        "ds.adam_offload",
        "ds.deepcompile",
        "ds.enable_sleep",
        "ds.load_in_4bit",
        "ds.overlap_comm",
        "ds.packing_samples",
        "ds.use_liger_kernel",
        "ds.use_universal_ckpt",
        "ref.offload",
        "reward.normalize_enable",
        "reward.offload",
        "train.async_enable",
        "train.colocate_actor_ref",
        "train.colocate_all",
        "train.colocate_critic_reward",
        "train.dynamic_batch_enable",
        "train.enable_ema",
        "train.full_determinism_enable",
        "train.partial_rollout_enable",
        "vllm.enable_prefix_caching",
        "vllm.enable_sleep",
        "vllm.enforce_eager",
        "vllm.sync_with_ray",
    }
)
TWO_VALUES = frozenset(
    {
        "adam_betas",
        "eps_clip_low_high",
        "dynamic_filtering_reward_range",
        "reward_clip_range",
        "vllm_is_truncated_threshold",
        "actor.adam.betas",
        "critic.adam.betas",
        "actor.eps_clip_low_high",
        "algo.dynamic_filtering_range",
        "reward.clip_range",
    }
)
MANY_VALUES = frozenset({"target_modules", "ds.lora.target_modules", "algo.advantage.is_correction_threshold"})

# Defaults by internal name: [(first release with this default, value), ...] in release order.
DEFAULTS: dict[str, list[tuple[str, object]]] = {
    "actor.num_nodes": [("0.4.0", 1)],
    "actor.num_gpus_per_node": [("0.4.0", 8)],
    "ref.num_nodes": [("0.4.0", 1)],
    "ref.num_gpus_per_node": [("0.4.0", 8)],
    "critic.num_nodes": [("0.4.0", 1)],
    "critic.num_gpus_per_node": [("0.4.0", 8)],
    "reward.num_nodes": [("0.4.0", 1)],
    "reward.num_gpus_per_node": [("0.4.0", 8)],
    "vllm.num_engines": [("0.4.0", None)],
    "vllm.tensor_parallel_size": [("0.4.0", 1)],
    "train.colocate_all": [("0.4.0", False)],
    "train.colocate_actor_ref": [("0.4.0", False)],
    "train.colocate_critic_reward": [("0.4.0", False)],
    "ds.ring_attn_size": [("0.4.0", 1)],
    "ds.tensor_parallel_size": [("0.4.0", 1)],
    "ds.zero_stage": [("0.4.0", 2)],
    "ds.packing_samples": [("0.4.0", False)],
    "rollout.batch_size": [("0.4.0", 1024)],
    "rollout.n_samples_per_prompt": [("0.4.0", 1)],
    "rollout.micro_batch_size": [("0.4.0", 8), ("0.10.0", 1)],
    "rollout.vllm_generate_batch_size": [("0.8.1", None)],
    "train.batch_size": [("0.4.0", 128)],
    "train.micro_batch_size": [("0.4.0", 4), ("0.10.0", 1)],
    "train.max_epochs": [("0.4.0", 1)],
    "train.num_episodes": [("0.4.0", 1)],
    "train.dynamic_batch_enable": [("0.8.6", False)],
    "train.max_tokens_per_gpu": [("0.8.6", 16192)],  # really 16192, not 16384
    "rollout.max_tokens_per_gpu": [("0.8.6", None)],
    "train.async_enable": [("0.4.0", False)],
    "train.async_queue_size": [("0.9.1", 1)],
    "algo.dynamic_filtering_enable": [("0.8.1", False)],
    "data.max_len": [("0.4.0", None), ("0.9.8", 2048)],  # ≤ 0.9.7: "deprecated", prompt_max_len + generate_max_len
    "rollout.max_new_tokens": [("0.9.8", None)],
    "prompt_max_len": [("0.4.0", 1024)],
    "generate_max_len": [("0.4.0", 1024)],
    "rollout.temperature": [("0.4.0", 1.0)],
    "rollout.top_p": [("0.4.0", 1.0)],
    "actor.adam.lr": [("0.4.0", 1e-6)],
    "critic.adam.lr": [("0.4.0", 9e-6)],
    "actor.adam.weight_decay": [("0.4.0", 0.0)],
    "actor.lr_scheduler": [("0.4.0", "cosine_with_min_lr")],  # hard-coded before the flag (0.8.5)
    "actor.lr_warmup_ratio": [("0.4.0", 0.03)],
    "actor.max_norm": [("0.4.0", 1.0)],
    "actor.eps_clip": [("0.4.0", 0.2)],
    "actor.eps_clip_low_high": [("0.8.3", None)],
    "actor.dual_clip": [("0.8.6", None)],
    "actor.entropy_coef": [("0.7.2", 0.0), ("0.8.3", None)],
    "actor.policy_loss_type": [("0.8.8", "ppo")],
    "actor.loss_agg_mode": [("0.11.2", "token-mean")],
    "critic.value_clip": [("0.4.0", 0.2), ("0.8.3", 0.5)],
    "algo.advantage.estimator": [("0.4.0", "gae")],
    "algo.advantage.no_std_norm": [("0.4.0", False)],
    "algo.kl.init_coef": [("0.4.0", 0.01)],
    "algo.kl.target": [("0.4.0", None)],
    "algo.kl.use_loss": [("0.4.0", False)],
    "algo.kl.estimator": [("0.6.1", "k1")],
    "vllm.gpu_memory_utilization": [("0.5.8", 0.9), ("0.6.4", 0.95)],
    "ckpt.save_steps": [("0.4.0", -1)],
    "ckpt.path": [("0.4.0", "./ckpt/checkpoints_ppo_ray")],
    "ckpt.output_dir": [("0.4.0", "./ckpt")],
    "ckpt.max_num": [("0.4.0", 3)],
    "eval.steps": [("0.4.0", -1)],
    "eval.split": [("0.7.4", "train")],
    "data.prompt_split": [("0.4.0", "train")],
    "data.input_key": [("0.4.0", "input")],
    # blending_datasets asserts one probability per dataset; "1.0" fits one dataset only (utils/utils.py@v0.6.4)
    "data.prompt_probs": [("0.4.0", "1.0"), ("0.7.0", None)],
    "logger.wandb.project": [("0.4.0", "openrlhf_train_ppo")],
    "actor.min_lr_ratio": [("0.10.2", 0.1)],
    "data.max_samples": [("0.4.0", 100000000)],
}

# Advantage estimators → canonical name (verl's spelling), whether advantages are divided by a std
# (before --no_advantage_std_norm), and the scope of that normalisation (§5.1).
ESTIMATORS: dict[str, tuple[str, str]] = {
    "gae": ("gae", "batch"),
    "reinforce": ("reinforce_plus_plus", "batch"),  # discounted returns, global whitening (REINFORCE++)
    "reinforce_baseline": ("reinforce_plus_plus_baseline", "batch"),  # r - group mean, then global whitening
    "rloo": ("rloo", "group"),  # leave-one-out baseline; whitened globally before 0.8.5
    "group_norm": ("grpo", "group"),  # (r - mean) / (std + 1e-9) per group
    "dr_grpo": ("grpo", "group"),  # r - group mean, no std
    "flash_reinforce": ("flash_reinforce", "batch"),  # r - batch mean, no whitening (0.11.2)
}
# The release that added each choice of --advantage_estimator (0.5.0 has no such flag: always gae).
ESTIMATOR_SINCE = {
    "reinforce": "0.5.1",
    "rloo": "0.5.3",
    "reinforce_baseline": "0.6.0",
    "group_norm": "0.6.0",
    "dr_grpo": "0.6.4",
    "flash_reinforce": "0.11.2",
}
RLOO_UNWHITENED_SINCE = "0.8.5"
# Estimators that need n_samples_per_prompt > 1 (an assert in train_ppo_ray.py); dr_grpo joined in 0.11.0.
GROUP_ASSERT = ("rloo", "reinforce_baseline", "group_norm")
GROUP_ASSERT_DR_GRPO_SINCE = "0.11.0"
# 0.5.3–0.5.9 asserted for rloo only, in other words: "RLOO requires n_samples_per_prompt > 1".
GROUP_ASSERT_SINCE = "0.6.0"

# Releases before 0.8.0 (docs/frameworks/openrlhf.md §13):
# 0.4.0–0.4.4: PromptDataset holds each prompt n_samples_per_prompt times (datasets/prompts_dataset.py), each rank's
# loader yields micro_rollout_batch_size samples, and the trainer updates after rollout_batch_size // (actor GPUs ×
# micro_rollout_batch_size) of them (trainer/ppo_trainer.py fit: update_timesteps); rollout_batch_size counts samples.
SAMPLE_DATASET_UNTIL = "0.4.4"
PER_RANK_PROMPTS_UNTIL = "0.7.0"  # each actor rank loads rollout_batch_size // world prompts (trainer/ray/ppo_actor.py)
RBS_DIVISIBLE_SINCE = "0.5.6"  # _validate_args: rollout_batch_size % actor_world_size == 0 (until 0.7.0)
POWER_OF_TWO_UNTIL = "0.5.5"  # _validate_args: actor/critic world sizes powers of 2
MAX_STEPS_BUG = ("0.7.1", "0.7.2")  # LR horizon without num_episodes × max_epochs (ppo_trainer.py prepare_datasets)
TOKEN_MEAN_LOSS_SINCE = "0.7.0"  # PolicyLoss(token_level_loss=True); before: mean of per-sequence means
NO_REF_WITHOUT_KL_SINCE = "0.6.0"  # no reference model when init_kl_coef == 0 (<= 0 from 0.7.2)
REWARD_FILE_SINCE = "0.5.8"  # remote_rm_url ending in .py: a local reward_func file
COLOCATE_MEMORY_FORCED = ("0.5.8", "0.6.0")  # colocate_all_models: vllm_gpu_memory_utilization >= 0.9 → 0.4
EVAL_ONCE_PER_EPISODE_UNTIL = "0.8.0"  # eval_steps -1 = once per episode; from 0.8.1, never
HF_GENERATE_UNTIL = "0.7.5"  # without vLLM engines the actor generates (experience_maker.py _generate_with_hf)
# _validate_args compares args.vllm_num_engines (default None) with 0: a TypeError when the flag is left out.
ENGINES_COMPARED = (("0.4.0", "0.5.0"), ("0.5.6", "0.7.0"))
# ... which up to 0.5.0 is first the __main__ block's `args.vllm_num_engines >= 1` (cli/train_ppo_ray.py@v0.4.3).
ENGINES_GE_UNTIL = "0.5.0"
# _validate_args: actor GPUs >= vllm_num_engines (added in 0.4.6, cli/train_ppo_ray.py@v0.4.6; divisibility from 0.5.6)
ENGINES_GREATER = ("0.4.6", "0.5.0")
PACKING_SINCE = "0.4.4"  # --packing_samples; 0.4.4 alone also refuses it with a remote reward
WARMUP_FIXED = 0.03  # before --lr_warmup_ratio (0.5.3): get_scheduler(num_warmup_steps=ceil(max_steps * 0.03))
MIN_LR_RATIO_FIXED = 0.1  # min_lr = lr * 0.1, hard-coded before --actor.min_lr_ratio (0.10.2)
REWARD_FUNC_SIGNATURE = "reward_func(queries, prompts, labels)"

KL_ESTIMATORS = ("k1", "k2", "k3")

# Loss normalisation (§5.3): token-mean per micro-batch and rank up to 0.10.2; per micro-batch over all
# DP ranks in 0.10.3; over the whole optimizer step (all accumulation micro-batches × ranks) from 0.10.4.
LOSS_SCOPE_GLOBAL_MICRO = "0.10.3"
LOSS_SCOPE_OPTIMIZER_STEP = "0.10.4"

# vllm_generate_batch_size (§5.4): the dataloader batch in 0.8.1–0.9.0; read by nothing in 0.9.1–0.9.10; the
# prompts per vLLM call (over-sampling needs async) from 0.10.0.
GEN_BATCH_IGNORED_SINCE = "0.9.1"
GEN_BATCH_OVERSAMPLING_SINCE = "0.10.0"

# The named IS-correction schemes of 0.9.3–0.11.1 (--vllm_is_correction_type) as 0.11.2's (level, mode, gating)
# (0.11.2 cli/train_ppo_ray.py: "TIS = token clip, ICEPOP = token mask, seq-mask-tis = seq mask").
CORRECTION_SCHEMES = {
    "tis": ("token", "clip", "ratio"),
    "icepop": ("token", "mask", "ratio"),
    "seq-mask-tis": ("seq", "mask", "ratio"),
}

# Flags whose value is a secret: never copied into output.
SECRET_FLAGS = frozenset({"use_wandb", "logger.wandb.key"})
SECRET_PLACEHOLDER = "$WANDB_API_KEY"

# Run settings outside the plan (translator/dialects/settings.py), by internal (0.11) name; each release's
# default comes from its schema (λ 0.95 and value clip 0.2 in early releases, 1 and 0.5 later).
SETTINGS = (
    Setting("algorithm.gamma", "algo.advantage.gamma", needs="discount"),
    Setting("algorithm.gae_lambda", "algo.advantage.lambd", needs="gae"),
    Setting("critic.value_clip", "critic.value_clip", needs="gae"),
    Setting("algorithm.reward_normalization", "reward.normalize_enable"),
    Setting("optimizer.gradient_checkpointing", "actor.gradient_checkpointing_enable"),
    Setting("data.image_key", "data.image_key", explicit=True),
    Setting("data.apply_chat_template", "data.apply_chat_template"),
    Setting("evaluation.temperature", "eval.temperature", needs="eval"),
    Setting("evaluation.samples_per_prompt", "eval.n_samples_per_prompt", needs="eval"),
    Setting("launch.seed", "train.seed", explicit=True),
    Setting("logging.entity", "logger.wandb.org"),
)
