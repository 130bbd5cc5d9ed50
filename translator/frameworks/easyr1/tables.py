"""EasyR1's version table as data: schema bands, defaults per band, renames, key lifetimes, auto keys.

Source: the dataclasses (``verl/trainer/config.py``, ``verl/workers/**/config.py``) of hiyouga/EasyR1 at the
commit named for each band in SNAPSHOTS; docs/frameworks/easyr1.md explains each table with its source.

EasyR1 tagged v0.3.0, v0.3.1 and v0.3.2 only. Before v0.3.0 every commit says ``__version__ = "0.2.0.dev"``,
yet the schema changed twice, so the two early bands carry the date of the commit they were read at:
``0.2.0.dev20250223`` (the initial schema: ``fsdp/offload.param_offload``, ``trainer.test_freq``) and
``0.2.0.dev20250316`` (``offload.offload_params``, ``val_freq``, ``lr_warmup_ratio``, ``ref.fsdp``; KL and
the entropy bonus still under ``worker.actor``, ``trainer.total_episodes``). ``0.3.3.dev0`` is the development
head after v0.3.2.
"""

from __future__ import annotations

from translator.dialects.settings import Setting

FEB = "0.2.0.dev20250223"
MARCH = "0.2.0.dev20250316"
VERSIONS = (FEB, MARCH, "0.3.0", "0.3.1", "0.3.2", "0.3.3.dev0")

# What changed in each band that changes what a config means (docs/frameworks/easyr1.md; the tables below:
# RENAMES, KEY_RANGE, DEFAULTS).
CHANGES = {
    FEB: "initial schema: trainer.total_episodes, test_freq, remove_previous_ckpt, offload.param_offload; KL and "
    "entropy_coeff under worker.actor; adv_estimator gae; micro sizes required; reward = built-in scorer "
    "worker.reward.compute_score 'math'; loggers console/wandb/mlflow/swanlab",
    MARCH: "test_freq→val_freq, offload_params/offload_optimizer, lr_warmup_ratio, fsdp.enable_cpu_offload; "
    "adv_estimator grpo; micro sizes default 4/16; data.answer_key/image_key; compute_score 'math' or 'r1v'",
    "0.3.0": "KL moved to algorithm.* (use_kl_loss off by default, kl_coef, kl_penalty, disable_kl); "
    "clip_ratio→clip_ratio_low/high (0.2/0.3)/dual; entropy_coeff gone; reward from a file: "
    "worker.reward.score_function=path.py:fn(predict, ground_truth) (start-up fails without one); "
    "save_limit replaces remove_previous_ckpt; data.format_prompt, val_batch_size; tensorboard logger",
    "0.3.1": "total_episodes→total_epochs (15); ulysses_size; loss_avg_mode; mini_rollout_batch_size; "
    "online_filtering; score_function→reward_function (reward_type batch|sequential: a list of "
    "{response, response_length, ground_truth} dicts or one); save_model_only; local json/jsonl data",
    "0.3.2": "dynamic_batching on by default (micro size × padded length = token budget); loss token-weighted "
    "over all micro-batches and ranks; trainer.find_last_checkpoint (auto-resume, on by default)",
    "0.3.3.dev0": "worker.reward.reward_type removed (the reward module's REWARD_TYPE decides batch|sequential); "
    "worker.actor.model.lora.* (rank 0 = off); warmup_style→lr_scheduler_type (constant|cosine, "
    "cosine decays to optim.min_lr_ratio); actor.loss_type (gspo/cispo/sapo); grpo_passk; file logger",
}

# The commit each band's schema was read at.
SNAPSHOTS = {
    FEB: "b3d72a7 (2025-02-23, initial commit)",
    MARCH: "6618637 (2025-03-16, the last commit with the entropy bonus and KL under the actor)",
    "0.3.0": "7435d3c (tag v0.3.0, 2025-04-15)",
    "0.3.1": "149fbfc (tag v0.3.1, 2025-06-19)",
    "0.3.2": "a23fb5b (tag v0.3.2, 2025-09-18)",
    "0.3.3.dev0": "b44b311 (2026-07-30, HEAD)",
}

ACTOR = "worker.actor"
ROLLOUT = "worker.rollout"
CRITIC = "worker.critic"
REF = "worker.ref"

# Defaults of the dataclasses (not of examples/config.yaml, which overrides many of them):
# key → [(first band with this default, value), ...] in band order. None = no default (must be set).
DEFAULTS: dict[str, list[tuple[str, object]]] = {
    "data.rollout_batch_size": [(FEB, 512)],
    "data.mini_rollout_batch_size": [("0.3.1", None)],
    "data.max_prompt_length": [(FEB, 512)],
    "data.max_response_length": [(FEB, 512)],
    f"{ACTOR}.global_batch_size": [(FEB, 256)],
    # The initial schema declared both micro sizes init=False with -1: a config has to set them.
    f"{ACTOR}.micro_batch_size_per_device_for_update": [(FEB, None), (MARCH, 4)],
    f"{ACTOR}.micro_batch_size_per_device_for_experience": [(FEB, None), (MARCH, 16)],
    f"{ACTOR}.ppo_epochs": [(FEB, 1)],
    f"{ACTOR}.ulysses_sequence_parallel_size": [(FEB, 1)],
    f"{ACTOR}.ulysses_size": [("0.3.1", 1)],
    f"{ACTOR}.dynamic_batching": [("0.3.2", True)],
    f"{ACTOR}.max_grad_norm": [(FEB, 1.0)],
    f"{ACTOR}.clip_ratio": [(FEB, 0.2)],
    f"{ACTOR}.clip_ratio_low": [("0.3.0", 0.2)],
    f"{ACTOR}.clip_ratio_high": [("0.3.0", 0.3)],  # asymmetric since 39cab8f (2025-04-03)
    f"{ACTOR}.clip_ratio_dual": [("0.3.0", 3.0)],
    f"{ACTOR}.entropy_coeff": [(FEB, 1e-3)],
    f"{ACTOR}.use_kl_loss": [(FEB, True)],  # a user key up to March; an auto copy of algorithm.use_kl_loss after
    f"{ACTOR}.kl_loss_coef": [(FEB, 1e-3)],
    f"{ACTOR}.kl_loss_type": [(FEB, "low_var_kl")],
    f"{ACTOR}.loss_avg_mode": [("0.3.1", "token")],
    f"{ACTOR}.loss_type": [("0.3.3.dev0", "default")],
    f"{ACTOR}.optim.lr": [(FEB, 1e-6)],
    f"{ACTOR}.optim.weight_decay": [(FEB, 1e-2)],
    f"{ACTOR}.optim.lr_warmup_steps_ratio": [(FEB, 0.0)],
    f"{ACTOR}.optim.lr_warmup_ratio": [(MARCH, 0.0)],
    f"{ACTOR}.optim.lr_warmup_steps": [("0.3.1", None)],
    f"{ACTOR}.optim.warmup_style": [(FEB, "constant")],
    f"{ACTOR}.optim.lr_scheduler_type": [("0.3.3.dev0", "constant")],
    f"{ACTOR}.model.model_path": [(FEB, None)],
    f"{ACTOR}.fsdp.enable_cpu_offload": [(MARCH, False)],
    f"{ROLLOUT}.n": [(FEB, 1)],
    f"{ROLLOUT}.name": [(FEB, "vllm")],
    f"{ROLLOUT}.temperature": [(FEB, 1.0)],
    f"{ROLLOUT}.top_p": [(FEB, 1.0)],
    f"{ROLLOUT}.top_k": [(FEB, -1)],
    f"{ROLLOUT}.tensor_parallel_size": [(FEB, 2)],
    f"{CRITIC}.global_batch_size": [(FEB, 256)],
    f"{CRITIC}.micro_batch_size_per_device_for_update": [(FEB, None), (MARCH, 4)],
    f"{CRITIC}.micro_batch_size_per_device_for_experience": [(FEB, None), (MARCH, 16)],
    f"{CRITIC}.ppo_epochs": [(MARCH, 1)],
    f"{CRITIC}.ulysses_sequence_parallel_size": [(FEB, 1)],
    f"{CRITIC}.ulysses_size": [("0.3.1", 1)],
    f"{CRITIC}.dynamic_batching": [("0.3.2", True)],
    f"{CRITIC}.optim.lr": [(FEB, 1e-6)],
    f"{CRITIC}.model.model_path": [(FEB, None)],
    "algorithm.adv_estimator": [(FEB, "gae"), (MARCH, "grpo")],
    "algorithm.disable_kl": [("0.3.0", False)],
    "algorithm.use_kl_loss": [("0.3.0", False)],
    "algorithm.kl_penalty": [(FEB, "kl")],
    "algorithm.kl_coef": [(FEB, 1e-3)],
    "algorithm.kl_type": [(FEB, "fixed")],
    "algorithm.online_filtering": [("0.3.1", False)],
    "algorithm.filter_key": [("0.3.1", "overall")],
    "trainer.total_episodes": [(FEB, 10)],
    "trainer.total_epochs": [("0.3.1", 15)],
    "trainer.max_steps": [(FEB, None)],
    "trainer.max_try_make_batch": [("0.3.1", 20)],
    "trainer.n_gpus_per_node": [(FEB, 8)],
    "trainer.nnodes": [(FEB, 1)],
    # The run beyond the batch (trainer/config.py TrainerConfig, workers/reward/config.py, rollout/config.py).
    "data.train_files": [(FEB, "")],
    "data.val_files": [(FEB, "")],
    "data.prompt_key": [(FEB, "prompt")],
    "data.answer_key": [(MARCH, "answer")],
    f"{ROLLOUT}.gpu_memory_utilization": [(FEB, 0.5), ("0.3.0", 0.6)],
    f"{ACTOR}.optim.min_lr_ratio": [(FEB, None)],
    f"{ACTOR}.model.tokenizer_path": [(FEB, None)],
    "worker.reward.compute_score": [(FEB, "math")],
    "worker.reward.score_function": [("0.3.0", None)],
    "worker.reward.reward_function": [("0.3.1", None)],
    "trainer.project_name": [(FEB, "easy_r1")],
    "trainer.experiment_name": [(FEB, "demo")],
    "trainer.logger": [(FEB, ["console", "wandb"])],
    "trainer.save_freq": [(FEB, -1)],
    "trainer.save_limit": [("0.3.0", -1)],
    "trainer.remove_previous_ckpt": [(FEB, False)],
    "trainer.save_checkpoint_path": [(FEB, None)],
    "trainer.load_checkpoint_path": [(FEB, None)],
    "trainer.find_last_checkpoint": [("0.3.2", True)],
    "trainer.test_freq": [(FEB, -1)],
    "trainer.val_freq": [(MARCH, -1)],
    "trainer.val_before_train": [(FEB, True)],
}

# Keys every band has (PPOConfig fields from the initial commit to HEAD).
ALWAYS: tuple[str, ...] = (
    "data.train_files",
    "data.val_files",
    "data.prompt_key",
    "data.max_prompt_length",
    "data.max_response_length",
    "data.rollout_batch_size",
    "data.shuffle",
    "data.seed",
    "data.max_pixels",
    "data.min_pixels",
    "worker.hybrid_engine",
    *(
        f"{role}.{key}"
        for role in (ACTOR, CRITIC)
        for key in (
            "strategy",
            "global_batch_size",
            "micro_batch_size_per_device_for_update",
            "micro_batch_size_per_device_for_experience",
            "max_grad_norm",
            "padding_free",
            "model.model_path",
            "model.tokenizer_path",
            "model.override_config",
            "model.enable_gradient_checkpointing",
            "model.trust_remote_code",
            "optim.lr",
            "optim.betas",
            "optim.weight_decay",
            "optim.min_lr_ratio",
            "fsdp.enable_full_shard",
            "fsdp.torch_dtype",
            "fsdp.mp_param_dtype",
            "fsdp.mp_reduce_dtype",
            "fsdp.mp_buffer_dtype",
        )
    ),
    f"{ACTOR}.ppo_epochs",
    f"{CRITIC}.cliprange_value",
    f"{REF}.strategy",
    *(
        f"{ROLLOUT}.{key}"
        for key in (
            "name",
            "temperature",
            "top_k",
            "top_p",
            "dtype",
            "gpu_memory_utilization",
            "ignore_eos",
            "enforce_eager",
            "enable_chunked_prefill",
            "tensor_parallel_size",
            "max_num_batched_tokens",
            "disable_log_stats",
            "n",
            "limit_images",
        )
    ),
    "algorithm.gamma",
    "algorithm.lam",
    "algorithm.adv_estimator",
    "algorithm.kl_penalty",
    "algorithm.kl_type",
    "algorithm.kl_coef",
    "algorithm.kl_horizon",
    "algorithm.kl_target",
    "trainer.max_steps",
    "trainer.project_name",
    "trainer.experiment_name",
    "trainer.logger",
    "trainer.nnodes",
    "trainer.n_gpus_per_node",
    "trainer.save_freq",
    "trainer.load_checkpoint_path",
    "trainer.val_before_train",
    "trainer.val_only",
    "trainer.critic_warmup",
    "trainer.save_checkpoint_path",
)


def _both(key: str, span: tuple[str, str | None]) -> dict[str, tuple[str, str | None]]:
    return {f"{ACTOR}.{key}": span, f"{CRITIC}.{key}": span}


# Keys that exist only in some bands: key → (first band, last band or None for "still there").
KEY_RANGE: dict[str, tuple[str, str | None]] = {
    "data.return_raw_input_ids": (FEB, FEB),
    "data.return_raw_prompt": (FEB, FEB),
    "data.answer_key": (MARCH, None),
    "data.image_key": (MARCH, None),
    "data.system_prompt": (MARCH, MARCH),
    "data.val_batch_size": ("0.3.0", None),
    "data.format_prompt": ("0.3.0", None),
    "data.filter_overlong_prompts": ("0.3.0", None),
    "data.image_dir": ("0.3.1", None),
    "data.mini_rollout_batch_size": ("0.3.1", None),
    "data.override_chat_template": ("0.3.1", None),
    "data.video_key": ("0.3.2", None),
    "data.video_fps": ("0.3.2", None),
    "data.filter_overlong_prompts_workers": ("0.3.2", None),
    f"{ACTOR}.clip_ratio": (FEB, MARCH),
    f"{ACTOR}.entropy_coeff": (FEB, MARCH),
    f"{ACTOR}.use_kl_loss": (FEB, MARCH),  # then an auto key (AUTO_KEYS)
    f"{ACTOR}.kl_loss_coef": (FEB, MARCH),
    f"{ACTOR}.kl_loss_type": (FEB, MARCH),
    f"{ACTOR}.clip_ratio_low": ("0.3.0", None),
    f"{ACTOR}.clip_ratio_high": ("0.3.0", None),
    f"{ACTOR}.clip_ratio_dual": ("0.3.0", None),
    f"{ACTOR}.use_torch_compile": ("0.3.0", None),
    f"{ACTOR}.loss_type": ("0.3.3.dev0", None),
    f"{ACTOR}.tau_positive": ("0.3.3.dev0", None),
    f"{ACTOR}.tau_negative": ("0.3.3.dev0", None),
    **_both("ulysses_sequence_parallel_size", (FEB, "0.3.0")),
    **_both("ulysses_size", ("0.3.1", None)),
    **_both("loss_avg_mode", ("0.3.1", None)),
    **_both("dynamic_batching", ("0.3.2", None)),
    **_both("optim.lr_warmup_steps_ratio", (FEB, FEB)),
    **_both("optim.lr_warmup_ratio", (MARCH, None)),
    **_both("optim.lr_warmup_steps", ("0.3.1", None)),
    **_both("optim.warmup_style", (FEB, "0.3.2")),
    **_both("optim.lr_scheduler_type", ("0.3.3.dev0", None)),
    **_both("optim.strategy", ("0.3.0", None)),
    **_both("fsdp.param_offload", (FEB, FEB)),
    **_both("fsdp.optimizer_offload", (FEB, FEB)),
    **_both("fsdp.enable_cpu_offload", (MARCH, None)),
    **_both("fsdp.enable_rank0_init", (MARCH, None)),
    **_both("fsdp.use_orig_params", (MARCH, None)),
    **_both("fsdp.fsdp_size", (MARCH, None)),
    **_both("offload.param_offload", (FEB, FEB)),
    **_both("offload.optimizer_offload", (FEB, FEB)),
    **_both("offload.offload_params", (MARCH, None)),
    **_both("offload.offload_optimizer", (MARCH, None)),
    **_both("model.freeze_vision_tower", (MARCH, None)),
    **{
        f"{role}.model.lora.{key}": ("0.3.3.dev0", None)
        for role in (ACTOR, CRITIC)
        for key in ("rank", "alpha", "target_modules", "exclude_modules")
    },
    f"{CRITIC}.ppo_epochs": (MARCH, None),
    f"{REF}.offload.param_offload": (FEB, FEB),
    f"{REF}.offload.optimizer_offload": (FEB, FEB),
    f"{REF}.offload.offload_params": (MARCH, None),
    f"{REF}.offload.offload_optimizer": (MARCH, None),
    **{
        f"{REF}.fsdp.{key}": (MARCH, None)
        for key in (
            "enable_full_shard",
            "enable_cpu_offload",
            "enable_rank0_init",
            "use_orig_params",
            "torch_dtype",
            "fsdp_size",
            "mp_param_dtype",
            "mp_reduce_dtype",
            "mp_buffer_dtype",
        )
    },
    "worker.reward.reward_type": (FEB, "0.3.2"),
    "worker.reward.compute_score": (FEB, MARCH),
    "worker.reward.score_function": ("0.3.0", "0.3.0"),
    "worker.reward.score_function_kwargs": ("0.3.0", "0.3.0"),
    "worker.reward.skip_special_tokens": ("0.3.0", None),
    "worker.reward.reward_function": ("0.3.1", None),
    "worker.reward.reward_function_kwargs": ("0.3.1", None),
    "worker.reward.num_cpus": ("0.3.1", None),
    f"{ROLLOUT}.free_cache_engine": (FEB, MARCH),
    f"{ROLLOUT}.max_num_seqs": (FEB, MARCH),
    f"{ROLLOUT}.do_sample": (FEB, MARCH),
    f"{ROLLOUT}.seed": ("0.3.0", None),
    f"{ROLLOUT}.max_model_len": ("0.3.0", None),
    f"{ROLLOUT}.val_override_config": ("0.3.0", None),
    f"{ROLLOUT}.disable_tqdm": ("0.3.2", None),
    "algorithm.disable_kl": ("0.3.0", None),
    "algorithm.use_kl_loss": ("0.3.0", None),
    "algorithm.online_filtering": ("0.3.1", None),
    "algorithm.filter_key": ("0.3.1", None),
    "algorithm.filter_low": ("0.3.1", None),
    "algorithm.filter_high": ("0.3.1", None),
    "trainer.total_episodes": (FEB, "0.3.0"),
    "trainer.total_epochs": ("0.3.1", None),
    "trainer.test_freq": (FEB, FEB),
    "trainer.val_freq": (MARCH, None),
    "trainer.val_generations_to_log_to_wandb": (FEB, FEB),
    "trainer.val_generations_to_log": (MARCH, None),
    "trainer.del_local_ckpt_after_load": (FEB, FEB),
    "trainer.remove_ckpt_after_load": (MARCH, MARCH),
    "trainer.remove_previous_ckpt": (FEB, MARCH),
    "trainer.save_limit": ("0.3.0", None),
    "trainer.save_model_only": ("0.3.1", None),
    "trainer.max_try_make_batch": ("0.3.1", None),
    "trainer.ray_timeline": ("0.3.2", None),
    "trainer.find_last_checkpoint": ("0.3.2", None),
}

# Auto keys: fields that post_init overwrites, so a value a config gives them has no effect.
# key → (first band, last band or None, what overwrites it).
AUTO_KEYS: dict[str, tuple[str, str | None, str]] = {
    f"{ACTOR}.global_batch_size_per_device": (FEB, None, "global_batch_size × n ÷ data-parallel ranks"),
    f"{CRITIC}.global_batch_size_per_device": (FEB, None, "global_batch_size × n ÷ data-parallel ranks"),
    f"{ACTOR}.optim.training_steps": (FEB, None, "the trainer's step count"),
    f"{CRITIC}.optim.training_steps": (FEB, None, "the trainer's step count"),
    f"{ROLLOUT}.prompt_length": (FEB, None, "data.max_prompt_length"),
    f"{ROLLOUT}.response_length": (FEB, None, "data.max_response_length"),
    f"{ROLLOUT}.trust_remote_code": ("0.3.0", None, f"{ACTOR}.model.trust_remote_code"),
    f"{REF}.micro_batch_size_per_device_for_experience": (
        FEB,
        None,
        f"{ACTOR}.micro_batch_size_per_device_for_experience",
    ),
    f"{REF}.padding_free": (FEB, None, f"{ACTOR}.padding_free"),
    f"{REF}.ulysses_sequence_parallel_size": (MARCH, "0.3.0", f"{ACTOR}.ulysses_sequence_parallel_size"),
    f"{REF}.ulysses_size": ("0.3.1", None, f"{ACTOR}.ulysses_size"),
    f"{REF}.dynamic_batching": ("0.3.2", None, f"{ACTOR}.dynamic_batching"),
    f"{REF}.use_torch_compile": ("0.3.0", None, f"{ACTOR}.use_torch_compile"),
    f"{ACTOR}.use_kl_loss": ("0.3.0", None, "algorithm.use_kl_loss"),
    f"{ACTOR}.disable_kl": ("0.3.0", None, "algorithm.disable_kl"),
    f"{ACTOR}.kl_penalty": ("0.3.0", None, "algorithm.kl_penalty"),
    f"{ACTOR}.kl_coef": ("0.3.0", None, "algorithm.kl_coef"),
    "worker.reward.score_function_name": ("0.3.0", "0.3.0", "the ':name' part of score_function"),
    "worker.reward.reward_function_name": ("0.3.1", None, "the ':name' part of reward_function"),
}

# Fields whose value is a free-form mapping: their dotted sub-keys are the user's own.
DICT_FIELDS = (
    f"{ACTOR}.model.override_config",
    f"{CRITIC}.model.override_config",
    f"{ROLLOUT}.val_override_config",
    "worker.reward.score_function_kwargs",
    "worker.reward.reward_function_kwargs",
)

# Renames: (old key, new key, first band with the new key). The writer follows them to carry a key
# the reader kept as an extra into the target band's spelling.
RENAMES: tuple[tuple[str, str, str], ...] = (
    ("trainer.test_freq", "trainer.val_freq", MARCH),
    ("trainer.val_generations_to_log_to_wandb", "trainer.val_generations_to_log", MARCH),
    ("trainer.del_local_ckpt_after_load", "trainer.remove_ckpt_after_load", MARCH),
    *((f"{role}.offload.param_offload", f"{role}.offload.offload_params", MARCH) for role in (ACTOR, CRITIC, REF)),
    *(
        (f"{role}.offload.optimizer_offload", f"{role}.offload.offload_optimizer", MARCH)
        for role in (ACTOR, CRITIC, REF)
    ),
    *((f"{role}.fsdp.param_offload", f"{role}.fsdp.enable_cpu_offload", MARCH) for role in (ACTOR, CRITIC)),
    *((f"{role}.optim.lr_warmup_steps_ratio", f"{role}.optim.lr_warmup_ratio", MARCH) for role in (ACTOR, CRITIC)),
    *((f"{role}.ulysses_sequence_parallel_size", f"{role}.ulysses_size", "0.3.1") for role in (ACTOR, CRITIC)),
    *((f"{role}.optim.warmup_style", f"{role}.optim.lr_scheduler_type", "0.3.3.dev0") for role in (ACTOR, CRITIC)),
    (f"{ACTOR}.use_kl_loss", "algorithm.use_kl_loss", "0.3.0"),
    (f"{ACTOR}.kl_loss_coef", "algorithm.kl_coef", "0.3.0"),
    (f"{ACTOR}.kl_loss_type", "algorithm.kl_penalty", "0.3.0"),
    ("worker.reward.score_function", "worker.reward.reward_function", "0.3.1"),
    ("worker.reward.score_function_kwargs", "worker.reward.reward_function_kwargs", "0.3.1"),
    ("trainer.total_episodes", "trainer.total_epochs", "0.3.1"),
)

# Keys whose accepted values changed between bands: key → {band: accepted values}; bands not listed
# accept anything (reward_type was read by nothing before 0.3.1, and is gone after 0.3.2).
VALUES: dict[str, dict[str, tuple[object, ...]]] = {
    "worker.reward.reward_type": {"0.3.1": ("batch", "sequential"), "0.3.2": ("batch", "sequential")},
}

# Advantage estimators each band accepts (core_algos.AdvantageEstimator).
ESTIMATORS: dict[str, str] = {  # name → first band
    "gae": FEB,
    "grpo": FEB,
    "reinforce_plus_plus": FEB,
    "remax": FEB,
    "rloo": MARCH,
    "grpo_passk": "0.3.3.dev0",
}
# Estimators that normalise within each prompt's group (the rest whiten or use no scaling over the batch),
# and whether they divide by the standard deviation (GRPO always does: there is no switch).
GROUP_ESTIMATORS = {"grpo", "grpo_passk", "rloo", "remax"}
STD_NORMALISED = {"grpo", "grpo_passk", "gae", "reinforce_plus_plus"}

# algorithm.kl_penalty / worker.actor.kl_loss_type ↔ canonical estimator names.
KL_ESTIMATORS = {"kl": "k1", "abs": "abs", "mse": "k2", "low_var_kl": "k3", "full": "full"}
KL_ESTIMATOR_NAMES = {"k1": "kl", "k2": "mse", "k3": "low_var_kl", "abs": "abs", "full": "full"}

# worker.actor.loss_avg_mode ↔ canonical loss aggregation.
LOSS_AVG_MODES = {"token": "token-mean", "seq": "seq-mean-token-mean"}
# worker.actor.loss_type (0.3.3.dev0) ↔ canonical policy loss.
LOSS_TYPES = {"default": "vanilla", "gspo": "gspo", "gspo_token": "gspo_token", "cispo": "cispo", "sapo": "sapo"}

# Reward hook-up per band. Before 0.3.0, worker.reward.compute_score names a built-in scorer
# (workers/reward/custom.py); from 0.3.0 a file 'path.py:function' (no ':' → function 'main').
COMPUTE_SCORES: dict[str, tuple[str, ...]] = {FEB: ("math",), MARCH: ("math", "r1v")}
# The scorers EasyR1's repository ships as files from 0.3.0 (examples/score_function, then reward_function).
REWARD_EXAMPLES: dict[str, tuple[str, tuple[str, ...]]] = {  # first band → (directory, names)
    "0.3.0": ("./examples/score_function", ("math", "r1v")),
    "0.3.1": ("./examples/reward_function", ("math", "r1v", "dapo")),
}
# How EasyR1 calls the reward function, per first band (workers/reward/function.py).
REWARD_SIGNATURES: dict[str, str] = {
    "0.3.0": "fn(predict: str, ground_truth: str, **score_function_kwargs) -> dict with 'overall' (plus any "
    "other scores to log), once per response",
    "0.3.1": "fn(reward_inputs: list[dict], **reward_function_kwargs) -> list[dict] with 'overall' per response, "
    "each input {'response', 'response_length', 'ground_truth'} (worker.reward.reward_type batch, the "
    "default; sequential: one dict in, one dict out)",
    "0.3.3.dev0": "fn(reward_inputs: list[dict], **reward_function_kwargs) -> list[dict] with 'overall' per "
    "response, each input {'response', 'response_length', 'ground_truth'} (the module's REWARD_TYPE "
    "= 'batch', the default; 'sequential': one dict in, one dict out)",
}

# trainer.logger backends per first band (utils/tracking.py, then utils/logger/logger.py LOGGERS).
LOGGERS: dict[str, tuple[str, ...]] = {
    FEB: ("console", "mlflow", "swanlab", "wandb"),
    "0.3.0": ("console", "mlflow", "swanlab", "tensorboard", "wandb"),
    "0.3.3.dev0": ("console", "file", "mlflow", "swanlab", "tensorboard", "wandb"),
}

ENTRY_MODULE = "verl.trainer.main"

# Run settings outside the plan (translator/dialects/settings.py); names and defaults from the schema.
SETTINGS = (
    Setting("algorithm.gamma", "algorithm.gamma", needs="discount"),
    Setting("algorithm.gae_lambda", "algorithm.lam", needs="gae"),
    Setting("critic.value_clip", "worker.critic.cliprange_value", needs="gae"),
    Setting("optimizer.gradient_checkpointing", "worker.actor.model.enable_gradient_checkpointing"),
    Setting("data.image_key", "data.image_key", explicit=True),
    Setting(
        "data.apply_chat_template",
        None,
        fixed=True,
        why="EasyR1's RLHFDataset always applies the chat template (verl/utils/dataset.py)",
    ),
    Setting("data.chat_template", "data.override_chat_template"),
    Setting("data.filter_overlong_prompts", "data.filter_overlong_prompts"),
    Setting("launch.seed", "data.seed", explicit=True),
)
VAL_OVERRIDE = "worker.rollout.val_override_config"
