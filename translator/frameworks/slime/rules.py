"""slime's check rules in the catalogue of codes (translator/rules.py ``catalogue``; docs/rules.md is generated
from it): each code its checks can report, with its severities, a description, slime's own message and the source
it cites (docs/frameworks/slime.md §5-6)."""

from __future__ import annotations

from translator.rule_info import RuleInfo as R

ARGS = "slime/utils/arguments.py"

RULES: tuple[R, ...] = (
    R(
        "slime.async-colocate",
        "check",
        "slime",
        ("error",),
        "train_async.py refuses --colocate (generation and training overlap, so they cannot share GPUs).",
        message="Colocation is not supported for async training.",
        source="docs/frameworks/slime.md §5; train_async.py:11@v0.3.1",
    ),
    R(
        "slime.dynamic-needs-max-tokens",
        "check",
        "slime",
        ("error",),
        "Token-budget micro-batches (--use-dynamic-batch-size) need --max-tokens-per-gpu.",
        message="max_tokens_per_gpu must be set when use_dynamic_batch_size is set",
        source=f"docs/frameworks/slime.md §5; {ARGS}:1809@v0.3.1",
    ),
    R(
        "slime.eval-needs-data",
        "check",
        "slime",
        ("error",),
        "--eval-interval without --eval-prompt-data.",
        message="Evaluation datasets must be configured when eval_interval is set.",
        source=f"docs/frameworks/slime.md §5; {ARGS}:1781-1782@v0.3.1",
        versions="0.3.1",
    ),
    R(
        "slime.gbs-identity",
        "check",
        "slime",
        ("error",),
        "--global-batch-size and --num-steps-per-rollout both given must agree: gbs = rbs × n // steps.",
        message="global_batch_size {…} is not equal to rollout_batch_size {…} * n_samples_per_prompt {…} // "
        "num_steps_per_rollout {…}",
        source=f"docs/frameworks/slime.md §5; {ARGS}:1907-1915@v0.3.1",
    ),
    R(
        "slime.gbs-none",
        "check",
        "slime",
        ("error",),
        "Up to 0.2.1, a run with neither --global-batch-size nor --num-steps-per-rollout stops: rbs × n % None.",
        message="unsupported operand type(s) for %: 'int' and 'NoneType'",
        source=f"docs/frameworks/slime.md §6; {ARGS}:1518@v0.2.1",
        versions="0.1.0 – 0.2.1",
    ),
    R(
        "slime.megatron-default-gbs",
        "check",
        "slime",
        ("warning",),
        "From 0.2.2, with neither --global-batch-size nor --num-steps-per-rollout Megatron sets gbs = micro × DP "
        "silently.",
        source="docs/frameworks/slime.md §3; Megatron-LM megatron/training/arguments.py validate_args",
        versions="0.2.2 – 0.3.1",
    ),
    R(
        "slime.micro-batch-calculator",
        "check",
        "slime",
        ("error",),
        "Megatron's micro-batch calculator: gbs must be a multiple of micro-batch × DP (with dynamic batching too).",
        message="global batch size ({…}) is not divisible by micro batch size ({…}) times data parallel size ({…})",
        source="docs/frameworks/slime.md §5; slime/backends/megatron_utils/initialize.py:78-86@v0.3.1",
    ),
    R(
        "slime.one-kl",
        "check",
        "slime",
        ("error",),
        "--kl-coef and --kl-loss-coef both non-zero.",
        message="Only one of kl_coef and kl_loss_coef can be set",
        source=f"docs/frameworks/slime.md §5; {ARGS}:1787@v0.3.1",
        versions="0.3.1",
    ),
    R(
        "slime.over-sampling",
        "check",
        "slime",
        ("error",),
        "--over-sampling-batch-size below --rollout-batch-size.",
        message="over_sampling_batch_size {…} should be greater than or equal to rollout_batch_size {…}",
        source=f"docs/frameworks/slime.md §5; {ARGS}:1924-1927@v0.3.1",
    ),
    R(
        "slime.reinforce-pp-normalization",
        "check",
        "slime",
        ("error",),
        "The REINFORCE++ estimators need --normalize-advantages.",
        message="The 'reinforce_plus_plus' and 'reinforce_plus_plus_baseline' advantage estimators require advantage "
        "normalization. Please add `--normalize-advantages` to your command.",
        source=f"docs/frameworks/slime.md §5; {ARGS}:1789-1793@v0.3.1",
        versions="0.3.1",
    ),
    R(
        "slime.remainder-dropped",
        "check",
        "slime",
        ("warning",),
        "From 0.2.2, rbs × n not a multiple of gbs: the training loop cuts len(samples) // gbs steps and drops the rest.",
        source="docs/frameworks/slime.md §3; slime/utils/dp_schedule.py:135-139@v0.3.1",
        versions="0.2.2 – 0.3.1",
    ),
    R(
        "slime.rollout-multiple-of-gbs",
        "check",
        "slime",
        ("error",),
        "Up to 0.2.1, rbs × n must be a multiple of the global batch.",
        message="rollout_batch_size {…} * n_samples_per_prompt {…} is not a multiple of global_batch_size {…}",
        source=f"docs/frameworks/slime.md §6; {ARGS}:1518-1521@v0.2.1",
        versions="0.1.0 – 0.2.1",
    ),
    R(
        "slime.run-length",
        "check",
        "slime",
        ("error",),
        "Neither --num-rollout nor --num-epoch.",
        message="num_epoch is not set, but num_rollout is not set, please set --num-rollout or --num-epoch",
        source=f"docs/frameworks/slime.md §5; {ARGS}:1938-1941@v0.3.1",
    ),
    R(
        "slime.save-needs-dir",
        "check",
        "slime",
        ("error",),
        "--save-interval without --save.",
        message="'--save' is required when save_interval is set.",
        source=f"docs/frameworks/slime.md §5; {ARGS}:1784-1785@v0.3.1",
        versions="0.3.1",
    ),
)
