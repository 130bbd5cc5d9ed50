"""TRL's check rules in the catalogue of codes (translator/rules.py ``catalogue``; docs/rules.md is
generated from it): each code its checks can report, with its severities, a one-line description, the framework's
own message where the rule mirrors one, and the source it cites."""

from __future__ import annotations

from translator.rule_info import RuleInfo as R

RULES: tuple[R, ...] = (
    R(
        "framework.trl-trainer",
        "note",
        "trl",
        ("info",),
        "The launched script (or a module it imports) builds TRL's own GRPOTrainer: the installed release's batching.",
        source="docs/launch-scripts.md",
    ),
    R(
        "trl.auto-find-batch-size",
        "check",
        "trl",
        ("error", "warning"),
        "auto_find_batch_size may shrink the per-device batch at run time, changing the plan.",
        versions="0.15.0 –",
    ),
    R(
        "trl.cosine-min-lr-unset",
        "check",
        "trl",
        ("error",),
        "cosine_with_min_lr without min_lr or min_lr_rate in lr_scheduler_kwargs; the Trainer raises when it "
        "creates the scheduler.",
        message="One of min_lr or min_lr_rate should be set through the `lr_scheduler_kwargs`",
        message_from="transformers",
        at_start=True,
    ),
    R(
        "trl.dapo-loss-scale",
        "check",
        "trl",
        ("skipped", "warning"),
        "dapo/cispo/vespo losses with steps_per_generation ≠ gradient accumulation come out scaled by GAS/spg"
        " before TRL 1.10.",
        source="docs/frameworks/trl.md §5",
        versions="0.22.0 – 1.9.x",
    ),
    R(
        "trl.eval-batch-divisible",
        "check",
        "trl",
        ("error", "skipped"),
        "The evaluation batch (per device × processes) must be divisible by num_generations.",
        # the newest wording; 0.15 – 0.21 '… must be evenly divisible by the number of generations per prompt …', 0.22
        # on '… by num_generations ({…}).' until num_generations_eval
        message=(
            "The global eval batch size ({…} * {…}) must be divisible by the number of generations used for evaluation "
            "({…})."
        ),
        versions="0.15.0 –",
        at_start=True,
    ),
    R(
        "trl.generation-batch-divisible",
        "check",
        "trl",
        ("error", "skipped"),
        "generation_batch_size is not divisible by per_device_train_batch_size × W (0.18.0–0.19.0 test only "
        "the first).",
        message="generation_batch_size ({…}) must be divisible by the global batch size ({…}).",
        source="docs/frameworks/trl.md §2.1",
        versions="0.18.0 –",
        at_start=True,
    ),
    R(
        "trl.generation-batch-exclusive",
        "check",
        "trl",
        ("error",),
        "'generation_batch_size' and 'steps_per_generation' can not be both configured at the same time",
        message="'generation_batch_size' and 'steps_per_generation' can not be both configured at the same time",
        versions="0.18.0 –",
        at_start=True,
    ),
    R(
        "trl.generation-batch-floored",
        "check",
        "trl",
        ("error", "skipped", "warning"),
        "0.18.0–0.19.0: a gbs that passes the buggy test but is no multiple of pdtbs·W gets spg = gbs // (pdtbs·W).",
        message=(
            "trl {…} only checks generation_batch_size % per_device_train_batch_size (a precedence bug fixed in "
            "0.19.1): {…} is not a multiple of {…} x {…} processes = {…}, so steps_per_generation is floored to {…} "
            "and each generation round takes {…} completions, out of step with the sampler's batches of {…}"
        ),
        versions="0.18.0 – 0.19.0",
    ),
    R("trl.gpu-memory-fraction-range", "check", "trl", ("error",), "vllm_gpu_memory_utilization must lie in (0, 1]."),
    R(
        "trl.learning-rate-range",
        "check",
        "trl",
        ("error", "warning"),
        "The learning rate is 0 (no update) or negative (rejected by AdamW).",
    ),
    R(
        "trl.liger-two-sided",
        "check",
        "trl",
        ("error",),
        "Delta (two-sided clipping) is not in the Liger GRPO loss (0.18+; driven by use_liger_kernel from 0.26)",
        versions="0.18.0 – 1.7.x",
    ),
    R(
        "trl.max-prompt-length-ignored",
        "check",
        "trl",
        ("warning",),
        "0.26–0.27 accept max_prompt_length with a FutureWarning but never read it (removed in 0.28).",
        source="docs/frameworks/trl.md §1",
        versions="0.26.0 – 0.27.x",
    ),
    R(
        "trl.num-generations-divisible",
        "check",
        "trl",
        ("error", "skipped"),
        "The generation batch (global) must be divisible by num_generations.",
        message="generation_batch_size ({…}) must be divisible by num_generations ({…}).",
        # grpo_trainer.py@v0.16.0:430-433 (0.15–0.16) and @v0.17.0:604-607 (0.17, then grpo_config.py to 0.21)
        earlier_messages=(
            "The global train batch size ({…} x {…}) must be evenly divisible by the number of generations per "
            "prompt ({…}). Given the current train batch size, the valid values for the number of generations are: "
            "{…}.",
            "The effective train batch size ({…} x {…} x {…}) must be evenly divisible by the number of generations "
            "per prompt ({…}). Given the current effective train batch size, the valid values for the number of "
            "generations are: {…}.",
        ),
        versions="0.15.0 –",
        at_start=True,
    ),
    R(
        "trl.num-generations-min",
        "check",
        "trl",
        ("error", "warning"),
        "G >= 2 from 0.17 (PR #3199; 0.15–0.16 leave it to the divisibility check)",
        message=(
            "GRPO requires at least 2 generations per prompt to calculate the advantages. You provided {…}, which is "
            "less than the minimum required."
        ),
        versions="0.14.0, 0.17.0 –",
        at_start=True,
    ),
    R(
        "trl.off-policy-steps",
        "check",
        "trl",
        ("skipped", "warning"),
        "steps_per_generation larger than gradient_accumulation_steps makes later updates off-policy.",
        versions="0.16.0 –",
    ),
    R(
        "trl.reward-weights-length",
        "check",
        "trl",
        ("error",),
        "One weight per reward function (0.15+); Open-R1's reward_funcs default is accuracy, format, tag_count.",
        message="Number of reward weights ({…}) must match number of reward functions ({…})",
        versions="0.15.0 –",
        at_start=True,
    ),
    R(
        "trl.sequence-parallel",
        "check",
        "trl",
        ("error",),
        "1.4+: GRPO builds its inputs after generation, so context/sequence-parallel input sharding is rejected.",
        message=(
            "GRPOTrainer does not support sequence-dim parallelism (`parallelism_config.cp_size > 1` or "
            "`parallelism_config.sp_size > 1`) yet. GRPO builds model inputs after generation inside the trainer, so "
            "Transformers' context-parallel / Ulysses sequence-parallel input sharding cannot be applied to the raw "
            "generation batch. Set both `cp_size=1` and `sp_size=1`, or disable `parallelism_config`."
        ),
        versions="1.4.0 –",
        at_start=True,
    ),
    R(
        "trl.sync-ref-model-beta",
        "check",
        "trl",
        ("error", "warning"),
        "sync_ref_model with beta 0.0, where no reference model is loaded: 0.28+ refuses it, earlier releases"
        " sync nothing.",
        # 0.28's ValueError
        message=(
            "You passed `sync_ref_model=True` while `beta=0.0`, which means the reference model is not used during "
            "training. Consequently, GRPOTrainer does not create a `ref_model` instance, and there is nothing to "
            "synchronize. Please set `sync_ref_model=False`, or set `beta` to a non-zero value."
        ),
        versions="0.16.0 –",
        at_start=True,
    ),
    R(
        "trl.unknown-cli-argument",
        "check",
        "trl",
        ("error", "warning"),
        "Flags after the training script go through HfArgumentParser, which rejects unknown ones in every release.",
    ),
    R(
        "trl.unknown-script-argument",
        "check",
        "trl",
        ("error",),
        "A GRPOConfig(...) call in a Python script with a keyword GRPOConfig does not declare: TypeError when the "
        "script runs.",
        message="GRPOConfig.__init__() got an unexpected keyword argument '{key}'",
    ),
    R(
        "trl.unknown-config-key",
        "check",
        "trl",
        ("error", "warning"),
        "A recipe key GRPOConfig (or Open-R1's script arguments) does not have.",
    ),
    R(
        "trl.unknown-key",
        "check",
        "trl",
        ("error",),
        "A key TRL's argument parser refuses (unknown-key notes turned into errors).",
    ),
    R(
        "trl.vllm-device-available",
        "check",
        "trl",
        ("error", "skipped"),
        "0.14–0.15: vllm_device (auto: the GPU after the W training processes) must be among the GPUs the launch "
        "states the processes see.",
        message=(
            "The requested device for vllm ({…}) is not available. You are likely using vLLM without restricting "
            "the number of GPUs for training. Set the `--num_processes` argument to a value lower than the number "
            "of GPUs available on your machine—typically, reducing it by one is sufficient. In your case: "
            "`--num_processes {…}`."
        ),
        source="trl/trainer/grpo_trainer.py:287-298@v0.14.0, :373-387@v0.15.2; docs/frameworks/trl.md §4",
        versions="0.14.0 – 0.15.2",
        at_start=True,
    ),
    R(
        "trl.vllm-serve-missing",
        "note",
        "trl",
        ("warning",),
        "The script runs `trl vllm-serve`, a command TRL's CLI has from 0.16.0 only: before, that line fails.",
        source="trl/cli.py@v0.16.0",
        versions="0.14.0 – 0.15.2",
    ),
    R(
        "trl.vllm-is-clip-range",
        "check",
        "trl",
        ("error",),
        "1.6+: the vLLM importance-sampling bounds must be ordered (clip_max 3.0 by default; the _cap alias wins).",
        message="vllm_importance_sampling_clip_min ({…}) must be less than vllm_importance_sampling_clip_max ({…}).",
        versions="1.6.0 –",
        at_start=True,
    ),
    R(
        "trl.vllm-is-truncate-bounds",
        "check",
        "trl",
        ("error",),
        "1.6+: a *_truncate importance-sampling mode needs a bound.",
        message=(
            "At least one of `vllm_importance_sampling_clip_min` or `vllm_importance_sampling_clip_max` must be set "
            "when `vllm_importance_sampling_mode` is a `*_truncate` mode."
        ),
        versions="1.6.0 –",
        at_start=True,
    ),
    R(
        "trl.vllm-tensor-parallel",
        "check",
        "trl",
        ("error", "skipped"),
        "Colocated vLLM groups consecutive ranks into TP groups, so W % vllm_tensor_parallel_size == 0 (0.18+).",
        versions="0.18.0 –",
    ),
)
