"""verl's version table as data: releases, defaults that changed, and when keys appeared.

Source: docs/frameworks/verl.md (§1, §5.1 default drift, §5.2 key existence), read from the released
wheels. Keys are written without the ``actor_rollout_ref.`` prefix where that reads better (see ``AR``).
"""

from __future__ import annotations

import re

from translator.dialects.settings import Setting

# 0.1 is the version file of the copies vendored by early-2025 projects (TinyZero, Logic-RL, Search-R1, rllm,
# DeepScaleR/Light-R1), not PyPI's 0.1 wheel (Nov 2024, no rollout.n); 0.2.0.post2 is PyPI's 0.2 release.
VERSIONS = ("0.1", "0.2.0.post2", "0.3.0", "0.4.1", "0.5.0", "0.6.1", "0.7.1", "0.8.0", "0.9.0", "0.9.1")

# What changed in each release that changes what a config means (docs/frameworks/verl.md §0, §2, §5).
CHANGES = {
    "0.1": "vendored copies of early 2025: ppo_micro_batch_size and log_prob_micro_batch_size count prompts "
    "(global, ×n, default 64/128); no *_per_gpu keys; the FSDP actor has no ppo_epochs loop; "
    "entropy_coeff 0.001; rlconf reads it but does not write it",
    "0.2.0.post2": "*_micro_batch_size_per_gpu keys; the deprecated global micro-batch keys count samples (not ×n); "
    "the FSDP actor still has no ppo_epochs loop; rlconf reads it but does not write it",
    "0.3.0": "in-reward KL always on unless use_kl_loss; entropy_coeff 0.001; critic mini-batch counts samples",
    "0.4.1": "use_kl_in_reward (default off); clip_ratio_low/high take precedence over clip_ratio; critic mini-batch "
    "counts prompts (×n); loss_agg_mode",
    "0.5.0": "policy_loss.loss_mode; trainer.use_legacy_worker_impl (auto)",
    "0.6.1": "rollout.name mandatory; fsdp_config.ulysses_sequence_parallel_size; optim.lr_scheduler_type and "
    "optim.clip_grad",
    "0.7.1": "rollout.mode async only; reward.custom_reward_function.path; use_remove_padding on by default",
    "0.8.0": "engine workers only: loss normalised over the whole mini-batch; lr_warmup_steps 0 means 'use the "
    "ratio'; actor.grad_clip ignored; deprecated global micro-batch keys unsupported; removed "
    "trainer.use_legacy_worker_impl, data.sampler.* (curriculum sampler), data.datagen.*; "
    "rollout.skip_rollout/skip_dump_dir became rollout.skip.enable/dump_dir",
    "0.9.0": "trainer.use_v1 (default): the v1 trainer with trainer.v1.trainer_mode sync | colocate_async | "
    "separate_async; separate_async splits each step into parameter_sync_step (4) updates of "
    "train_batch_size / parameter_sync_step prompts and stretches the LR horizon by the same factor; "
    "async modes prefetch num_warmup_batches (1) steps ahead, trajectories older than "
    "trainer.v1.sampler.max_off_policy_threshold (8) versions dropped; data.gen_batch_size is the fetch "
    "size (forced to 1 in async modes); batches padded to whole mini-batches; algorithm.filter_groups in "
    "core; rollout.skip.* moved to skip.rollout.*; defaults rollout.max_num_seqs 1024 → 256, "
    "rollout.calculate_log_probs False → True",
    "0.9.1": "separate_async: trainer.v1.separate_async.hybrid_rollout (lend the training GPUs to generation); "
    "actor_rollout_ref.hybrid_engine=False serves rollout from the standalone pool only; "
    "max_off_policy_threshold null turns off the staleness bound",
}

AR = "actor_rollout_ref"
ACTOR = f"{AR}.actor"
ROLLOUT = f"{AR}.rollout"
REF = f"{AR}.ref"
V1 = "trainer.v1"
V1_MODE = f"{V1}.trainer_mode"
# The v1 trainer's modes (verl/trainer/ppo/v1/trainer_{sync,colocate_async,separate_async}.py@v0.9.1
# register_trainer): sync generates each step's batch with the current weights; colocate_async keeps
# num_warmup_batches batches in flight on the training GPUs (generation paused while training, partial rollouts
# resumed with the new weights); separate_async generates on a standalone pool of rollout.nnodes ×
# rollout.n_gpus_per_node GPUs and trains each step in parameter_sync_step local updates.
V1_MODES = ("sync", "colocate_async", "separate_async")
ASYNC_MODES = ("colocate_async", "separate_async")

# Defaults of the newest release; DEFAULT_CHANGES lists the releases where a default differed.
DEFAULTS: dict[str, object] = {
    "data.train_batch_size": 1024,
    "data.max_prompt_length": 512,
    "data.max_response_length": 512,
    f"{ROLLOUT}.n": 1,
    f"{ROLLOUT}.name": None,  # mandatory (???) since 0.6
    f"{ROLLOUT}.tensor_model_parallel_size": 2,
    f"{ROLLOUT}.temperature": 1.0,
    f"{ROLLOUT}.top_p": 1.0,
    f"{ROLLOUT}.top_k": -1,
    f"{ACTOR}.ppo_mini_batch_size": 256,
    f"{ACTOR}.ppo_epochs": 1,
    f"{ACTOR}.use_dynamic_bsz": False,
    f"{ACTOR}.ppo_max_token_len_per_gpu": 16384,
    f"{ACTOR}.ulysses_sequence_parallel_size": 1,
    f"{ACTOR}.fsdp_config.ulysses_sequence_parallel_size": 1,
    f"{ACTOR}.megatron.tensor_model_parallel_size": 1,
    f"{ACTOR}.megatron.pipeline_model_parallel_size": 1,
    f"{ACTOR}.megatron.context_parallel_size": 1,
    f"{ACTOR}.use_kl_loss": False,
    f"{ACTOR}.kl_loss_coef": 0.001,
    f"{ACTOR}.kl_loss_type": "low_var_kl",
    f"{ACTOR}.clip_ratio": 0.2,
    f"{ACTOR}.clip_ratio_low": 0.2,
    f"{ACTOR}.clip_ratio_high": 0.2,
    f"{ACTOR}.clip_ratio_c": 3.0,
    f"{ACTOR}.entropy_coeff": 0.0,
    f"{ACTOR}.loss_agg_mode": "token-mean",
    f"{ACTOR}.policy_loss.loss_mode": "vanilla",
    f"{ACTOR}.grad_clip": 1.0,
    f"{ACTOR}.optim.lr": 1e-6,
    f"{ACTOR}.optim.lr_warmup_steps": -1,
    f"{ACTOR}.optim.lr_warmup_steps_ratio": 0.0,
    f"{ACTOR}.optim.lr_scheduler_type": "constant",
    f"{ACTOR}.optim.warmup_style": "constant",
    f"{ACTOR}.optim.weight_decay": 0.01,
    f"{ACTOR}.optim.clip_grad": 1.0,
    "algorithm.adv_estimator": "gae",
    "algorithm.norm_adv_by_std_in_grpo": True,
    "algorithm.use_kl_in_reward": False,
    "algorithm.kl_penalty": "kl",
    "algorithm.kl_ctrl.kl_coef": 0.001,
    "algorithm.filter_groups.enable": False,
    "algorithm.filter_groups.metric": None,
    "algorithm.filter_groups.max_num_gen_batches": 0,
    "trainer.n_gpus_per_node": 8,
    "trainer.nnodes": 1,
    "trainer.total_epochs": 30,
    "trainer.total_training_steps": None,
    # The run parts (verl/trainer/config/ppo_trainer.yaml; docs/frameworks/verl.md "Run parts").
    "data.train_files": "~/data/rlhf/gsm8k/train.parquet",
    "data.val_files": "~/data/rlhf/gsm8k/test.parquet",
    "data.prompt_key": "prompt",
    "data.train_max_samples": -1,
    "data.val_max_samples": -1,
    "reward.custom_reward_function.path": None,
    "reward.custom_reward_function.name": "compute_score",
    "custom_reward_function.path": None,
    "custom_reward_function.name": "compute_score",
    "reward.reward_model.enable": False,
    "reward.reward_model.model_path": None,
    "reward_model.enable": False,
    "reward_model.model.path": None,
    f"{ACTOR}.optim.min_lr_ratio": 0.0,
    f"{ACTOR}.checkpoint.save_contents": ["model", "optimizer", "extra"],
    f"{ACTOR}.checkpoint.contents": ["model", "hf_model", "optimizer", "extra"],  # 0.3's key, HF weights included
    f"{ROLLOUT}.gpu_memory_utilization": 0.5,
    "trainer.project_name": "verl_examples",
    "trainer.experiment_name": "gsm8k",
    "trainer.logger": ["console", "wandb"],
    "trainer.save_freq": -1,
    "trainer.test_freq": -1,
    "trainer.val_before_train": True,
    "trainer.default_local_dir": None,  # checkpoints/${trainer.project_name}/${trainer.experiment_name}
    "trainer.resume_mode": "auto",
    "trainer.resume_from_path": None,
    "trainer.max_actor_ckpt_to_keep": None,
    # The v1 trainer (0.9; verl/trainer/config/ppo_trainer.yaml@v0.9.1 trainer.v1, rollout/rollout.yaml).
    "trainer.use_v1": True,
    V1_MODE: "sync",
    f"{V1}.colocate_async.num_warmup_batches": 1,
    f"{V1}.separate_async.num_warmup_batches": 1,
    f"{V1}.separate_async.parameter_sync_step": 4,
    f"{V1}.separate_async.hybrid_rollout.enable_switch": False,
    f"{V1}.sampler.max_off_policy_threshold": 8,
    f"{V1}.sampler.max_off_policy_strategy": "drop",
    f"{V1}.sampler.custom_sampler.path": None,
    f"{V1}.sampler.custom_sampler.name": None,
    f"{AR}.hybrid_engine": True,
    f"{ROLLOUT}.nnodes": 0,
    f"{ROLLOUT}.n_gpus_per_node": None,  # ${oc.select:trainer.n_gpus_per_node,8}
    f"{ROLLOUT}.checkpoint_engine.backend": "naive",
    f"{ROLLOUT}.max_num_seqs": 256,
    f"{ROLLOUT}.calculate_log_probs": True,
}

# key → [(first release with this default, value), ...]; releases before the first entry use DEFAULTS.
DEFAULT_CHANGES: dict[str, list[tuple[str, object]]] = {
    f"{ACTOR}.entropy_coeff": [("0.1", 0.001), ("0.4.1", 0.0)],
    f"{ROLLOUT}.name": [("0.1", "vllm"), ("0.6.1", None)],
    # 0.1's YAML sets the global micro-batches (ppo_trainer.yaml of the vendored copies); null from 0.2.
    f"{ACTOR}.ppo_micro_batch_size": [("0.1", 64), ("0.2.0.post2", None)],
    f"{ROLLOUT}.log_prob_micro_batch_size": [("0.1", 128), ("0.2.0.post2", None)],
    f"{REF}.log_prob_micro_batch_size": [("0.1", 128), ("0.2.0.post2", None)],
    "critic.ppo_micro_batch_size": [("0.1", 64), ("0.2.0.post2", None)],
    # vLLM's concurrent sequences and the rollout log-probs (kept for rollout correction) changed in 0.9.0
    # (_generated_ppo_trainer.yaml@v0.8.0 vs @v0.9.0); neither is in 0.3.0's config.
    f"{ROLLOUT}.max_num_seqs": [("0.3.0", 1024), ("0.9.0", 256)],
    f"{ROLLOUT}.calculate_log_probs": [("0.3.0", False), ("0.9.0", True)],
}

# Defaults that no canonical field holds but that change what a run does: a verl source of another release that
# leaves them unset gets its own release's value written when translated (keys.default-changed).
CARRIED_DEFAULTS = (f"{ROLLOUT}.max_num_seqs", f"{ROLLOUT}.calculate_log_probs")

# Keys that exist only from a release on (a launch script must write them with '+' before it).
KEY_SINCE: dict[str, str] = {
    f"{ACTOR}.ppo_micro_batch_size_per_gpu": "0.2.0.post2",
    f"{ROLLOUT}.log_prob_micro_batch_size_per_gpu": "0.2.0.post2",
    f"{REF}.log_prob_micro_batch_size_per_gpu": "0.2.0.post2",
    "critic.ppo_micro_batch_size_per_gpu": "0.2.0.post2",
    "data.shuffle": "0.2.0.post2",
    "algorithm.use_kl_in_reward": "0.4.1",
    "algorithm.norm_adv_by_std_in_grpo": "0.4.1",
    f"{ACTOR}.clip_ratio_low": "0.4.1",
    f"{ACTOR}.clip_ratio_high": "0.4.1",
    f"{ACTOR}.loss_agg_mode": "0.4.1",
    f"{ACTOR}.policy_loss.loss_mode": "0.5.0",
    f"{ACTOR}.fsdp_config.ulysses_sequence_parallel_size": "0.6.1",
    f"{ACTOR}.optim.lr_scheduler_type": "0.6.1",
    f"{ACTOR}.optim.clip_grad": "0.6.1",
    "data.seed": "0.6.1",
    "critic.enable": "0.6.1",
    "data.gen_batch_size": "0.9.0",
    "algorithm.filter_groups.enable": "0.9.0",
    "algorithm.filter_groups.metric": "0.9.0",
    "algorithm.filter_groups.max_num_gen_batches": "0.9.0",
    "trainer.use_v1": "0.9.0",
    V1_MODE: "0.9.0",
    f"{V1}.colocate_async.num_warmup_batches": "0.9.0",
    f"{V1}.separate_async.num_warmup_batches": "0.9.0",
    f"{V1}.separate_async.parameter_sync_step": "0.9.0",
    f"{V1}.sampler.max_off_policy_threshold": "0.9.0",
    f"{V1}.sampler.max_off_policy_strategy": "0.9.0",
    f"{V1}.sampler.custom_sampler.path": "0.9.0",
    f"{V1}.sampler.custom_sampler.name": "0.9.0",
    f"{V1}.separate_async.hybrid_rollout.enable_switch": "0.9.1",
    # _generated_ppo_trainer.yaml@v0.6.1 lacks the standalone rollout pool and the weight-transfer backend; 0.3.0's
    # ppo_trainer.yaml lacks max_num_seqs and calculate_log_probs (0.4.1 has them).
    f"{ROLLOUT}.nnodes": "0.7.1",
    f"{ROLLOUT}.n_gpus_per_node": "0.7.1",
    f"{ROLLOUT}.checkpoint_engine.backend": "0.7.1",
    f"{ROLLOUT}.max_num_seqs": "0.4.1",
    f"{ROLLOUT}.calculate_log_probs": "0.4.1",
    f"{AR}.hybrid_engine": "0.4.1",
    "reward.custom_reward_function.path": "0.7.1",
    "reward.custom_reward_function.name": "0.7.1",
    "reward.reward_model.enable": "0.7.1",
    "reward.reward_model.model_path": "0.7.1",
    "data.train_max_samples": "0.6.1",
    "data.val_max_samples": "0.6.1",
    "trainer.val_before_train": "0.4.1",
    f"{AR}.model.tokenizer_path": "0.7.1",
}

# Keys that stopped existing after a release (the last release that has them).
KEY_UNTIL: dict[str, str] = {
    f"{ACTOR}.optim.warmup_style": "0.5.0",  # then a deprecated alias of lr_scheduler_type (still accepted)
    "trainer.use_legacy_worker_impl": "0.7.1",
}

# Keys verl renamed or moved: (old key, new key, first release with the new key, what to tell). The chain
# rollout.skip_rollout (≤ 0.7) → rollout.skip.enable (0.8) → skip.rollout.enable (0.9) is read from each
# release's _generated_ppo_trainer.yaml; the writer moves a carried key to the target release's name.
RENAMES: tuple[tuple[str, str, str, str], ...] = (
    # _generated_ppo_trainer.yaml@v0.6.1 (512 MB) vs @v0.7.1 (2048 MB): moved under the checkpoint engine in 0.7.1.
    (
        f"{ROLLOUT}.update_weights_bucket_megabytes",
        f"{ROLLOUT}.checkpoint_engine.update_weights_bucket_megabytes",
        "0.7.1",
        "; its default went from 512 to 2048",
    ),
    (f"{ROLLOUT}.skip_rollout", f"{ROLLOUT}.skip.enable", "0.8.0", ""),
    (f"{ROLLOUT}.skip_dump_dir", f"{ROLLOUT}.skip.dump_dir", "0.8.0", ""),
    (
        f"{ROLLOUT}.skip.enable",
        "skip.rollout.enable",
        "0.9.0",
        "; the v1 trainer's own switch is skip.rollout_tq.enable (verl/utils/skip/skip_manager.py@v0.9.1)",
    ),
    (f"{ROLLOUT}.skip.dump_dir", "skip.rollout.dump_dir", "0.9.0", ""),
    (f"{ROLLOUT}.skip.action", "skip.rollout.action", "0.9.0", ""),
)
# Keys removed with no successor of the same meaning: (key, last release that has it, what to tell).
REMOVED: tuple[tuple[str, str, str], ...] = (
    (
        "data.sampler.class_path",
        "0.7.1",
        "the curriculum sampler hook (main_ppo.py@v0.7.1 create_rl_sampler) is gone; 0.9's "
        "trainer.v1.sampler.custom_sampler.path/name loads a ReplayBuffer subclass instead (trainer_base.py@v0.9.1 "
        "_build_replay_buffer), which orders finished rollouts, not dataset rows",
    ),
    ("data.sampler.class_name", "0.7.1", "see data.sampler.class_path"),
    ("data.datagen.path", "0.7.1", "the dynamic data generator hook is gone"),
    ("data.datagen.name", "0.7.1", "the dynamic data generator hook is gone"),
    (f"{ROLLOUT}.skip.max_dump_step", "0.8.0", "0.9's skip.rollout.steps lists the steps to dump instead"),
)

# Deprecated global micro-batch keys (samples, divided by dp; honoured by the legacy workers ≤ 0.7 only).
DEPRECATED_GLOBAL_MICRO = (
    f"{ACTOR}.ppo_micro_batch_size",
    f"{ROLLOUT}.log_prob_micro_batch_size",
    f"{REF}.log_prob_micro_batch_size",
    "critic.ppo_micro_batch_size",
)

ENTRY_MODULES = {
    "verl.trainer.main_ppo": "core",
    "verl.trainer.main_ppo_v0": "core",
    "recipe.dapo.main_dapo": "dapo",
    "recipe.dapo.src.main_dapo": "dapo",
    "verl.recipe.dapo.main_dapo": "dapo",
}
# A fork's or recipe's own entry point that takes verl's Hydra overrides (recipe.prime.main_prime,
# mypkg.trainer.main_ppo): read with the core semantics, with a framework.fork warning.
FORK_ENTRY = re.compile(r"(verl\.)?recipe\.\w+\.(src\.)?main_\w+|[\w.]+\.main_ppo(_\w+)?")
# verl's fully asynchronous trainer (recipe/ in 0.6–0.7, verl/experimental/ since): a trainer of its own, read
# with native.entry "fully_async" (docs/frameworks/verl.md §2.7).
FULLY_ASYNC_ENTRY = re.compile(r"[\w.]*fully_async_policy\.fully_async_main")
# What its config (verl/experimental/fully_async_policy/config/fully_async_ppo_trainer.yaml@v0.9.1) adds to or
# changes in ppo_trainer. data.train_batch_size keeps ppo_trainer's 1024, which the rollouter refuses (it must be 0).
FULLY_ASYNC_DEFAULTS: dict[str, object] = {
    "async_training.staleness_threshold": 0.1,
    "async_training.trigger_parameter_sync_step": 4,
    "async_training.require_batches": 1,
    "async_training.partial_rollout": True,
    "async_training.use_trainer_do_validate": False,
    "async_training.use_dynamic_resource_scheduling": False,
    "async_training.dynamic_schedule_policy": "default",
    "async_training.dynamic_schedule_deactivate_ratio": 0.3,
    "async_training.dynamic_schedule_enable_rebalance": True,
    "async_training.concurrent_samples_per_replica": 16,
    "rollout.nnodes": 1,
    "rollout.n_gpus_per_node": 8,
    "rollout.n": 4,
    "rollout.total_rollout_steps": 100,
    "data.gen_batch_size": 1,
    "actor_rollout_ref.rollout.calculate_log_probs": True,
    "actor_rollout_ref.rollout.standalone_gpu_memory_utilization": None,
    "actor_rollout_ref.rollout.checkpoint_engine.backend": "nccl",
    "actor_rollout_ref.actor.use_rollout_log_probs": True,
    "actor_rollout_ref.model.use_remove_padding": True,
    "algorithm.rollout_correction.bypass_mode": True,
}

# verl KL estimators (algorithm.kl_penalty / actor.kl_loss_type) ↔ canonical names.
KL_ESTIMATORS = {
    "kl": "k1",
    "k1": "k1",
    "abs": "abs",
    "mse": "k2",
    "k2": "k2",
    "low_var_kl": "k3",
    "k3": "k3",
    "full": "full",
}
KL_ESTIMATOR_NAMES = {"k1": "kl", "k2": "mse", "k3": "low_var_kl", "abs": "abs", "full": "full"}

# Estimators whose advantages are normalised within a prompt's group (vs whitened over the batch).
# estimator → (divides by a std, over what): grpo's std division follows norm_adv_by_std_in_grpo; rloo and
# remax subtract a baseline without any std; the others whiten over the batch (core_algos.py).
ADVANTAGE_NORMALISATION: dict[str, tuple[bool, str]] = {
    "grpo": (True, "group"),
    "grpo_passk": (True, "group"),
    "grpo_vectorized": (True, "group"),
    "rloo": (False, "group"),
    "rloo_vectorized": (False, "group"),
    "remax": (False, "group"),
    "gae": (True, "batch"),
    "reinforce_plus_plus": (True, "batch"),
    "reinforce_plus_plus_baseline": (True, "batch"),
}
# (reinforce_plus_plus_baseline subtracts the group mean but whitens over the batch.)
GROUP_ESTIMATORS = {"grpo", "rloo", "grpo_passk", "opo", "gpg", "rloo_vectorized", "grpo_vectorized", "gdpo"}

# Keys rlconf knows beside the ones it reads: typo detection compares unknown keys with these.
COMMON_KEYS = (
    "data.train_files",
    "data.val_files",
    "data.prompt_key",
    "data.filter_overlong_prompts",
    "data.truncation",
    "data.shuffle",
    "data.return_raw_chat",
    "data.val_batch_size",
    "data.dataloader_num_workers",
    f"{AR}.hybrid_engine",
    f"{AR}.model.path",
    f"{AR}.model.use_remove_padding",
    f"{AR}.model.enable_gradient_checkpointing",
    f"{AR}.model.lora_rank",
    f"{AR}.model.lora_alpha",
    f"{ACTOR}.fsdp_config.param_offload",
    f"{ACTOR}.fsdp_config.optimizer_offload",
    f"{ACTOR}.strategy",
    f"{ACTOR}.shuffle",
    f"{ACTOR}.optim.min_lr_ratio",
    f"{ACTOR}.checkpoint.save_contents",
    f"{ROLLOUT}.gpu_memory_utilization",
    f"{ROLLOUT}.mode",
    f"{ROLLOUT}.enforce_eager",
    f"{ROLLOUT}.free_cache_engine",
    f"{ROLLOUT}.max_num_batched_tokens",
    f"{ROLLOUT}.max_num_seqs",
    f"{ROLLOUT}.enable_chunked_prefill",
    f"{ROLLOUT}.log_prob_use_dynamic_bsz",
    f"{ROLLOUT}.log_prob_max_token_len_per_gpu",
    f"{REF}.fsdp_config.param_offload",
    f"{REF}.log_prob_micro_batch_size_per_gpu",
    f"{REF}.log_prob_use_dynamic_bsz",
    "critic.model.path",
    "critic.optim.lr",
    "critic.ppo_mini_batch_size",
    "critic.ppo_epochs",
    "critic.ppo_micro_batch_size_per_gpu",
    "critic.ppo_max_token_len_per_gpu",
    "critic.ulysses_sequence_parallel_size",
    "critic.use_dynamic_bsz",
    "critic.model.use_remove_padding",
    "algorithm.gamma",
    "algorithm.lam",
    "algorithm.kl_ctrl.type",
    "trainer.critic_warmup",
    "trainer.logger",
    "trainer.project_name",
    "trainer.experiment_name",
    "trainer.save_freq",
    "trainer.test_freq",
    "trainer.val_before_train",
    "trainer.default_local_dir",
    "trainer.resume_mode",
    "trainer.balance_batch",
    "reward_model.reward_manager",
    "custom_reward_function.path",
    "custom_reward_function.name",
)

# Run settings outside the plan (translator/dialects/settings.py); names and defaults from the release's schema.
SETTINGS = (
    Setting("algorithm.gamma", "algorithm.gamma", needs="discount"),
    Setting("algorithm.gae_lambda", "algorithm.lam", needs="gae"),
    Setting("critic.value_clip", "critic.cliprange_value", needs="gae"),
    Setting("optimizer.gradient_checkpointing", f"{AR}.model.enable_gradient_checkpointing"),
    Setting("data.image_key", "data.image_key", explicit=True),
    Setting(
        "data.apply_chat_template",
        None,
        fixed=True,
        why="verl's RLHFDataset always applies the tokenizer's chat template to each prompt's messages "
        "(verl/utils/dataset/rl_dataset.py)",
    ),
    Setting("data.chat_template", f"{AR}.model.custom_chat_template"),
    Setting("data.filter_overlong_prompts", "data.filter_overlong_prompts"),
    Setting("evaluation.temperature", f"{ROLLOUT}.val_kwargs.temperature", needs="eval"),
    Setting("evaluation.top_p", f"{ROLLOUT}.val_kwargs.top_p", needs="eval"),
    Setting("evaluation.samples_per_prompt", f"{ROLLOUT}.val_kwargs.n", needs="eval"),
    Setting("launch.seed", "data.seed", explicit=True),
)
VAL_DO_SAMPLE = f"{ROLLOUT}.val_kwargs.do_sample"
