"""Open-Instruct rules: what grpo_fast.py / grpo.py (and the legacy gtrl scripts) reject at start-up, and what
they accept but silently change or ignore.

Source: docs/frameworks/open-instruct.md §1.2 (constraints), §3 (accumulation), §7.2 (gtrl exact_div), §9
(pitfalls), each check's first date read from github:allenai/open-instruct (``git log -S``). Versions are
snapshot dates (``YYYY.MM.DD``, see ``open_instruct_tables``); a rule applies from the first snapshot that has
it. Units: ``num_unique_prompts_rollout`` U counts prompts per training step, ``num_samples_per_prompt_rollout``
S completions per prompt, ``num_mini_batches`` a *count* of optimizer steps per epoch,
``per_device_train_batch_size`` packed rows per micro-batch (samples in gtrl); learners are one GPU each.
Keys are flag names; a suggested value ``None`` means "drop the flag".
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Literal

from translator.checks.findings import (
    Finding,
    Suggestion,
    divisors,
    nearest,
    nearest_multiple,
)
from translator.dialects.base import Values, at_least
from translator.frameworks.open_instruct.dialect import key_in_version
from translator.frameworks.open_instruct.tables import (
    EXACT_MINI_BATCHES,
    IGNORED_KEYS,
    IGNORED_SINCE,
    KL_RENUMBERED,
    SYNC_REJECTED,
    WARMUP_RATIO_FIX,
    ZERO2_FIX,
)
from translator.plan import RunSpec

# Dates of the checks that are not flag lifetimes (git log -S on the message).
GROUP_OVER_ONE_UNTIL = "2025.04.25"  # INITIAL asserted S > 1 "for GRPO" until bd244ffb2
ROUNDED_ACCUMULATION = "2025.06.10"  # d1288bed1: max(ceil(n / mini - 0.5), 1) replaced n // mini (0 → crash)
ACTIVE_SAMPLING_CHECKS = "2025.11.09"  # da87d77d8 (active_sampling asserts); zero-std ValueError 2025-11-12
SAMPLES_PER_RANK = "2025.12.25"  # b22984caf "World-aware packing"
SEQUENCE_PARALLEL = "2026.01.07"  # 5335693c2: SP message and the ZeRO-3 requirement
SINGLE_GPU_TP = "2026.01.23"  # 6a440c606: ValueError in vllm_utils.create_vllm_engines
ENGINES_WARNING = "2025.10.20"  # the U < vllm_num_engines warning (first seen in that snapshot)
KL_CHOICES = {True: ("0", "1", "2", "3"), False: ("kl1", "kl2", "kl3", "kl4")}  # renumbered → choices


class _Run:
    """One launch line's flags, read without side effects, with the quantities the rules share."""

    def __init__(self, native: Values, spec: RunSpec, version: str) -> None:
        self.native, self.spec, self.version = native, spec, version
        if "local_rollout_batch_size" in native.defaults:
            self.kind = "ppo-gtrl" if spec.algorithm.advantage_estimator == "gae" else "grpo-gtrl"
        else:
            self.kind = "olmo-core" if spec.topology.training_backend == "fsdp" else "fast"
        self.gtrl = self.kind.endswith("gtrl")
        self.world = spec.topology.training_gpus or 1
        self.sp = self.count("sequence_parallel_size", 1) if self.has("sequence_parallel_size") else 1
        self.dp = max(1, self.world // self.sp)
        if not self.gtrl:
            self.prompts = self.count("num_unique_prompts_rollout")
            self.group = self.count("num_samples_per_prompt_rollout")
            self.samples = self.prompts * self.group
            self.mini_batches = self.count("num_mini_batches", 1)
            self.rows = self.count("per_device_train_batch_size", 1)  # packed rows per micro-batch

    def has(self, key: str) -> bool:
        """Whether this version's parser has the flag."""
        return key_in_version(self.kind, key, self.version)

    def since(self, date: str) -> bool:
        return at_least(self.version, date)

    def raw(self, key: str, default: Any = None) -> Any:
        if key in self.native.values:
            return self.native.values[key]
        return self.native.defaults.get(key, default)

    def num(self, key: str, default: float | None = None) -> int | float | None:
        value = _number(self.raw(key))
        return default if value is None else value

    def count(self, key: str, default: int = 0) -> int:
        number = self.num(key, default) or 0
        return int(number) if abs(number) < float("inf") else default

    def on(self, key: str) -> bool:
        return self.raw(key) in (True, "true", "True", 1)

    def finding(
        self,
        rule: str,
        severity: Literal["error", "warning"],
        message: str,
        keys: list[str],
        fixes: list[tuple[dict[str, Any], str]],
    ) -> Finding:
        values = {k: _plain(self.raw(k)) for k in keys}
        return Finding(
            rule,
            severity,
            message,
            keys,
            values,
            [Suggestion(changes, text) for changes, text in fixes],
        )


def _number(value: Any) -> int | float | None:
    if isinstance(value, bool) or value is None or isinstance(value, list):
        return None
    if isinstance(value, int):
        return value  # exact: float() of an integer past 1e308 raises OverflowError
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return int(number) if number.is_integer() else number


def _plain(value: Any) -> Any:
    number = _number(value)
    return value if number is None else number


def check(native: Values, spec: RunSpec, version: str) -> list[Finding]:
    run = _Run(native, spec, version)
    rules = GTRL_RULES if run.gtrl else FAST_RULES
    findings: list[Finding] = []
    for rule in rules + COMMON_RULES:
        findings.extend(rule(run))
    return findings


# ---------------------------------------------------------------- grpo_fast / grpo.py: errors
def pack_length(run: _Run) -> list[Finding]:
    """A packed row must hold the longest prompt plus the longest response (§1.2)."""
    pack, prompt = run.count("pack_length"), run.count("max_prompt_token_length")
    response = run.count("response_length")
    if pack >= prompt + response:
        return []
    fixes = [({"pack_length": prompt + response}, f"keeps {prompt} prompt and {response} response tokens")]
    if pack > prompt:
        fixes.append(({"response_length": pack - prompt}, f"keeps pack_length {pack} and {prompt} prompt tokens"))
    return [
        run.finding(
            "open-instruct.pack-length",
            "error",
            "The `pack_length` needs to be greater than the sum of `max_prompt_token_length` and `response_length`!",
            ["pack_length", "max_prompt_token_length", "response_length"],
            fixes,
        )
    ]


def _bigger_groups(run: _Run) -> list[tuple[dict[str, Any], str]]:
    """Groups of 2: keeping the prompts per step, or (halving the prompts) the samples per step."""
    more: dict[str, Any] = {"num_samples_per_prompt_rollout": 2}
    most = -(-(run.prompts * 2 // run.dp) // run.rows)  # micro-batches per rank with the bigger groups
    if 0 < most < run.mini_batches:
        more["num_mini_batches"] = most  # as many optimizer steps as the ranks have micro-batches
    fixes: list[tuple[dict[str, Any], str]] = [(more, f"keeps {run.prompts} prompts per step; groups of 2")]
    if run.prompts % 2 == 0 and run.prompts // 2 * 2 >= run.dp:
        fixes.append(
            (
                {"num_samples_per_prompt_rollout": 2, "num_unique_prompts_rollout": run.prompts // 2},
                f"keeps {run.samples} samples per step",
            )
        )
    return fixes


def group_over_one(run: _Run) -> list[Finding]:
    """The first grpo_fast asserted S > 1; from 2025-04-25 S = 1 only warns (group_of_one)."""
    if run.since(GROUP_OVER_ONE_UNTIL) or run.group > 1:
        return []
    return [
        run.finding(
            "open-instruct.group-size",
            "error",
            "Number of samples per prompt must be greater than 1 for GRPO!",
            ["num_samples_per_prompt_rollout"],
            _bigger_groups(run),
        )
    ]


def _filters_zero_std(run: _Run) -> bool:
    return run.has("filter_zero_std_samples") and run.on("filter_zero_std_samples")


def zero_std_filter_needs_group(run: _Run) -> list[Finding]:
    if not (run.since(ACTIVE_SAMPLING_CHECKS) and run.group == 1 and _filters_zero_std(run)):
        return []
    off = {"filter_zero_std_samples": False} | ({"active_sampling": False} if run.on("active_sampling") else {})
    return [
        run.finding(
            "open-instruct.zero-std-filter-needs-group",
            "error",
            "`filter_zero_std_samples` cannot be True when `num_samples_per_prompt_rollout` is 1, as the "
            "reward standard deviation will always be 0, causing all samples to be filtered.",
            ["filter_zero_std_samples", "num_samples_per_prompt_rollout"],
            [*_bigger_groups(run), (off, "keeps the batch; no group filtering (REINFORCE-like updates)")],
        )
    ]


def active_sampling(run: _Run) -> list[Finding]:
    """Active sampling refills filtered groups: it needs the filter and prompts queued ahead (§1.2)."""
    if not (run.has("active_sampling") and run.on("active_sampling") and run.since(ACTIVE_SAMPLING_CHECKS)):
        return []
    findings, ahead = [], run.count("async_steps", 1)
    off = ({"active_sampling": False}, "no refill: filtered groups shrink the step's batch")
    if ahead <= 1:
        findings.append(
            run.finding(
                "open-instruct.active-sampling-async-steps",
                "error",
                "With active_sampling, you should set async_steps > 1 to account for filtering of the first batch. "
                "Otherwise, your generator only generates only one batch worth of prompts and a single filtered prompt "
                "will cause the trainer to stall waiting for more data  . ",
                ["active_sampling", "async_steps"],
                [({"async_steps": 2}, "keeps active sampling; generation runs up to 2 steps ahead"), off],
            )
        )
    if not _filters_zero_std(run):
        on = {"filter_zero_std_samples": True} | ({"num_samples_per_prompt_rollout": 2} if run.group == 1 else {})
        findings.append(
            run.finding(
                "open-instruct.active-sampling-needs-filter",
                "error",
                "filter_zero_std_samples must be True when "
                "active_sampling is True. Active sampling requires filtering to work correctly.",
                ["active_sampling", "filter_zero_std_samples"],
                [(on, "keeps active sampling"), off],
            )
        )
    return findings


def async_steps_positive(run: _Run) -> list[Finding]:
    """Since PR #1220 (2025-11-21) async_steps 0 no longer means synchronous: it is rejected."""
    if not (run.has("async_steps") and run.since(SYNC_REJECTED)) or run.count("async_steps", 1) >= 1:
        return []
    least = 2 if run.has("active_sampling") and run.on("active_sampling") else 1
    return [
        run.finding(
            "open-instruct.async-steps-positive",
            "error",
            "`async_steps` must be greater than 0. Fully synchronous training is not supported.",
            ["async_steps"],
            [({"async_steps": least}, (f"the nearest to synchronous: up to {least} step(s) off-policy"))],
        )
    ]


def samples_per_rank(run: _Run) -> list[Finding]:
    """Every data-parallel rank needs at least one sample (world-aware packing, 2025-12-25)."""
    if not run.since(SAMPLES_PER_RANK):
        return []
    sp_era = run.since(SEQUENCE_PARALLEL)
    needed = run.dp if sp_era else run.world
    if run.samples >= needed:
        return []
    message = (
        "num_samples_per_prompt_rollout * num_unique_prompts_rollout must be greater than or equal to "
        "world_size // sequence_parallel_size to ensure we have a batch for each rank in distributed training."
        if sp_era
        else "You must have at least as many samples as training GPUs (DP ranks) for distributed training!"
    )
    prompts = -(-needed // run.group)
    return [
        run.finding(
            "open-instruct.samples-per-rank",
            "error",
            message,
            ["num_unique_prompts_rollout", "num_samples_per_prompt_rollout", "num_learners_per_node"],
            [
                (
                    {"num_unique_prompts_rollout": prompts},
                    (f"keeps groups of {run.group} and the GPUs: {prompts * run.group} samples for {needed} ranks"),
                )
            ],
        )
    ]


def sequence_parallel_zero3(run: _Run) -> list[Finding]:
    if run.sp <= 1 or not run.since(SEQUENCE_PARALLEL) or run.count("deepspeed_stage") == 3:
        return []
    return [
        run.finding(
            "open-instruct.sequence-parallel-needs-zero3",
            "error",
            "`sequence_parallel_size` > 1 requires `deepspeed_stage` to be 3!",
            ["sequence_parallel_size", "deepspeed_stage"],
            [
                ({"deepspeed_stage": 3}, f"keeps sequence parallel {run.sp}"),
                *(
                    [
                        (
                            {"sequence_parallel_size": 1},
                            (f"keeps ZeRO stage {run.count('deepspeed_stage')}; {run.world} data-parallel ranks"),
                        )
                    ]
                    if run.samples >= run.world
                    else []
                ),
            ],
        )
    ]


def kl_without_reference(run: _Run) -> list[Finding]:
    beta = run.num("beta", 0.0) or 0.0
    if not run.has("load_ref_policy") or run.on("load_ref_policy") or beta == 0.0:
        return []
    return [
        run.finding(
            "open-instruct.kl-without-reference",
            "error",
            f"When load_ref_policy=False, beta must be 0.0. Got beta={float(beta)}. Set --beta 0.0 or "
            "--load_ref_policy to use KL penalty.",
            ["load_ref_policy", "beta"],
            [
                ({"beta": 0.0}, "keeps the memory saving: no reference model, no KL term"),
                ({"load_ref_policy": True}, f"keeps the KL penalty beta {beta}"),
            ],
        )
    ]


def single_gpu_tensor_parallel(run: _Run) -> list[Finding]:
    tp = run.count("vllm_tensor_parallel_size", 1)
    if not (run.since(SINGLE_GPU_TP) and run.on("single_gpu_mode") and tp > 1):
        return []
    return [
        run.finding(
            "open-instruct.single-gpu-tensor-parallel",
            "error",
            "tensor_parallel_size > 1 is not supported with single_gpu_mode",
            ["single_gpu_mode", "vllm_tensor_parallel_size"],
            [
                ({"vllm_tensor_parallel_size": 1}, "vLLM shares the learner GPU"),
                ({"single_gpu_mode": False}, f"the engines get {tp} GPUs each of their own"),
            ],
        )
    ]


def kl_estimator_choice(run: _Run) -> list[Finding]:
    """kl_estimator is a Literal: "kl1".."kl4" until 2025-12-01, then 0..3 (kl1→0, kl2→1, kl3→2, kl4→3)."""
    renumbered = run.since(KL_RENUMBERED)
    value = str(run.raw("kl_estimator")).strip().lower()
    choices = KL_CHOICES[renumbered]
    if value in choices:
        return []
    if renumbered and value in KL_CHOICES[False]:
        fix: Any = int(value[2:]) - 1
    elif not renumbered and value in KL_CHOICES[True]:
        fix = f"kl{int(value) + 1}"
    else:
        fix = 2 if renumbered else "kl3"  # the default, k3
    shown = ", ".join(choices if renumbered else (repr(c) for c in choices))
    return [
        run.finding(
            "open-instruct.kl-estimator-choice",
            "error",
            f"argument --kl_estimator: invalid choice: '{value}' (choose from {shown})",
            ["kl_estimator"],
            [({"kl_estimator": fix}, f"the same estimator in this version's spelling ({fix})")],
        )
    ]


def _max_micro_batches(run: _Run) -> int:
    """An upper bound of the micro-batches per rank and epoch: each packed row holds at least one sample and a
    rank gets rows // dp of them (§3 steps 3-4)."""
    return -(-(run.samples // run.dp) // run.rows)


def mini_batches_vs_micro_batches(run: _Run) -> list[Finding]:
    """num_mini_batches is a count of optimizer steps per epoch; a rank cannot make more than it has micro-batches
    (§3 step 5). Before 2025-06-10 the accumulation was micro-batches // num_mini_batches, 0 → a modulo by zero."""
    most = _max_micro_batches(run)
    if run.mini_batches <= most or most == 0:
        return []
    crash = run.kind == "fast" and not run.since(ROUNDED_ACCUMULATION)
    fixes = [
        (
            {"num_mini_batches": most},
            (f"at most {most} micro-batch(es) per rank: {most} optimizer step(s) per epoch, as the LR schedule counts"),
        )
    ]
    prompts = -(-run.mini_batches * run.rows * run.dp // run.group)
    fixes.append(
        (
            {"num_unique_prompts_rollout": prompts},
            (f"keeps num_mini_batches {run.mini_batches}: {prompts * run.group} samples give each rank enough rows"),
        )
    )
    if crash:
        message = (
            f"ZeroDivisionError: integer modulo by zero — each rank has at most {most} micro-batch(es) "
            f"({run.samples} samples ÷ {run.dp} ranks in rows of {run.rows}), so accumulation_steps = "
            f"micro-batches // num_mini_batches {run.mini_batches} = 0"
        )
    else:
        message = (
            f"num_mini_batches {run.mini_batches} is more than the at most {most} micro-batch(es) each rank "
            f"gets ({run.samples} samples ÷ {run.dp} ranks in rows of {run.rows}): accumulation is 1 and each "
            f"epoch makes at most {most} optimizer step(s), while the LR schedule counts {run.mini_batches}"
        )
    return [
        run.finding(
            "open-instruct.num-mini-batches-too-large",
            "error" if crash else "warning",
            message,
            [
                "num_mini_batches",
                "num_unique_prompts_rollout",
                "num_samples_per_prompt_rollout",
                "per_device_train_batch_size",
            ],
            fixes,
        )
    ]


# ---------------------------------------------------------------- grpo_fast / grpo.py: warnings
def group_of_one(run: _Run) -> list[Finding]:
    if not run.since(GROUP_OVER_ONE_UNTIL) or run.group != 1:
        return []
    if run.since(ACTIVE_SAMPLING_CHECKS) and _filters_zero_std(run):
        return []  # zero_std_filter_needs_group's error
    return [
        run.finding(
            "open-instruct.group-of-one",
            "warning",
            "num_samples_per_prompt_rollout is 1. This reduces GRPO to REINFORCE.",
            ["num_samples_per_prompt_rollout"],
            _bigger_groups(run),
        )
    ]


def kl_estimator_renumbered(run: _Run) -> list[Finding]:
    """The 2025-12-01 renumbering trap: the old kl3 is 2; 3 is ratio·d, the old kl4 (§3.2, §9.7)."""
    if not run.since(KL_RENUMBERED) or str(run.raw("kl_estimator")).strip() != "3" or not run.num("beta", 0.0):
        return []
    return [
        run.finding(
            "open-instruct.kl-estimator-renumbered",
            "warning",
            "kl_estimator 3 is ratio × d (the old kl4), not the old kl3: since 2025-12-01 the old kl3 "
            "(expm1(-d) + d, k3) is 2; a script converted from 'kl3' to 3 computes another KL",
            ["kl_estimator", "beta"],
            [({"kl_estimator": 2}, "k3, what --kl_estimator kl3 meant")],
        )
    ]


def engines_exceed_prompts(run: _Run) -> list[Finding]:
    engines = run.count("vllm_num_engines", 1)
    if run.kind != "fast" or not run.since(ENGINES_WARNING) or run.prompts >= engines or run.on("single_gpu_mode"):
        return []
    return [
        run.finding(
            "open-instruct.engines-exceed-prompts",
            "warning",
            f"With num_unique_prompts_rollout={run.prompts} < vllm_num_engines={engines}, vllm will be "
            "generating data for multiple batches simultaneously. This is fine but might be unexpected "
            "behaviour.",
            ["num_unique_prompts_rollout", "vllm_num_engines"],
            [
                ({"num_unique_prompts_rollout": engines}, (f"one prompt per engine and step; groups of {run.group}")),
                ({"vllm_num_engines": run.prompts}, f"{run.prompts} engine(s) for {run.prompts} prompts"),
            ],
        )
    ]


def zero2_discarded_gradients(run: _Run) -> list[Finding]:
    """Before PR #1498 (2026-02-26) ZeRO-2 kept only the last backward of each accumulation group (§9.2)."""
    if run.kind != "fast" or run.since(ZERO2_FIX) or run.count("deepspeed_stage") != 2:
        return []
    if _max_micro_batches(run) <= run.mini_batches:
        return []  # one micro-batch per optimizer step: nothing to accumulate, nothing lost
    return [
        run.finding(
            "open-instruct.zero2-discarded-gradients",
            "warning",
            "deepspeed_stage 2 before 2026-02-26: every backward() is an accumulation boundary, so only "
            "the last micro-batch's gradient of each optimizer step survives; the rest are discarded",
            ["deepspeed_stage", "num_mini_batches"],
            [({"deepspeed_stage": 3}, "ZeRO-3 accumulates every micro-batch")],
        )
    ]


def ignored_flags(run: _Run) -> list[Finding]:
    """Flags grpo_fast parses but never reads (§6); the gtrl scripts overwrite two of theirs (§7.2)."""
    findings = []
    if run.gtrl:
        overwritten = {
            "gradient_accumulation_steps": "it is recomputed as local_mini_batch_size ÷ per_device_train_batch_size"
        }
        if run.since(EXACT_MINI_BATCHES):
            overwritten["num_mini_batches"] = "it is recomputed from the rollout and mini-batch sizes"
        ignored = {k: why for k, why in overwritten.items() if k in run.native.values}
    else:
        ignored = {
            k: why
            for k, why in IGNORED_KEYS.items()
            if run.kind == "fast"
            and k in run.native.values
            and run.has(k)
            and run.since(IGNORED_SINCE.get(k, "2026.04.02"))
        }
    for key, why in ignored.items():
        findings.append(
            run.finding(
                "open-instruct.ignored-flag",
                "warning",
                f"--{key} {_show(run.native.values[key])} is accepted but ignored: {why}",
                [key],
                [({key: None}, "the run is the same without it")],
            )
        )
    return findings


def _show(value: Any) -> str:
    return " ".join(map(str, value)) if isinstance(value, list) else str(value)


def no_training_steps(run: _Run) -> list[Finding]:
    per_step = (
        run.samples
        if not run.gtrl
        else run.count("local_rollout_batch_size") * run.world * run.count("number_samples_per_prompt", 1)
    )
    episodes = run.count("total_episodes")
    if episodes >= per_step:
        return []
    return [
        run.finding(
            "open-instruct.no-training-steps",
            "warning",
            f"total_episodes {episodes} is less than one training step of {per_step} samples: "
            f"num_training_steps = {episodes} // {per_step} = 0 and nothing is trained",
            ["total_episodes"],
            [({"total_episodes": per_step}, f"one step of {per_step} samples")],
        )
    ]


# ---------------------------------------------------------------- both kinds
def warmup_steps_ignored(run: _Run) -> list[Finding]:
    """A positive warmup_ratio wins over warm_up_steps (gtrl before 2025-02-25: any ratio ≥ 0 did, §5)."""
    steps, ratio = run.num("warm_up_steps", 0) if run.has("warm_up_steps") else 0, run.num("warmup_ratio", 0.0) or 0.0
    ratio_wins = ratio > 0 or (run.gtrl and not run.since(WARMUP_RATIO_FIX))
    if not steps or not ratio_wins:
        return []
    fixes: list[tuple[dict[str, Any], str]] = [
        ({"warm_up_steps": None}, f"warmup_ratio {ratio} as the run already uses")
    ]
    if ratio > 0 and (run.since(WARMUP_RATIO_FIX) or not run.gtrl):
        fixes.append(({"warmup_ratio": 0.0}, f"warm_up_steps {steps} as written"))
    return [
        run.finding(
            "open-instruct.warmup-steps-ignored",
            "warning",
            f"warm_up_steps {steps} is ignored: warmup_ratio {ratio} takes precedence",
            ["warm_up_steps", "warmup_ratio"],
            fixes,
        )
    ]


def weight_decay_ignored(run: _Run) -> list[Finding]:
    """Without the bias/norm grouping AdamW gets all parameters and torch's default decay 0.01."""
    if not (
        run.has("set_weight_decay_on_bias_and_norm")
        and "weight_decay" in run.native.values
        and run.raw("set_weight_decay_on_bias_and_norm") is False
    ):
        return []
    return [
        run.finding(
            "open-instruct.weight-decay-ignored",
            "warning",
            "--weight_decay is ignored when set_weight_decay_on_bias_and_norm is False: AdamW gets all "
            "parameters with torch's default weight_decay 0.01",
            ["weight_decay", "set_weight_decay_on_bias_and_norm"],
            [
                (
                    {"set_weight_decay_on_bias_and_norm": True},
                    (f"weight_decay {_plain(run.raw('weight_decay'))} applies (bias and norms excluded)"),
                )
            ],
        )
    ]


# ---------------------------------------------------------------- legacy gtrl scripts
def gtrl_mini_batch_divisible(run: _Run) -> list[Finding]:
    mini, micro = run.count("local_mini_batch_size"), run.count("per_device_train_batch_size", 1)
    if mini % micro == 0:
        return []
    local_samples = run.count("local_rollout_batch_size") * run.count("number_samples_per_prompt", 1)
    fixes = [
        ({"per_device_train_batch_size": nearest(divisors(mini), micro, 1)[0]}, f"keeps local_mini_batch_size {mini}")
    ]
    minis = multiples_dividing(micro, local_samples)
    if minis:
        fixes.append(
            ({"local_mini_batch_size": nearest(minis, mini, 1)[0]}, (f"keeps per_device_train_batch_size {micro}"))
        )
    return [
        run.finding(
            "open-instruct.gtrl-mini-batch-divisible",
            "error",
            "`local_mini_batch_size` must be a multiple of `per_device_train_batch_size`, inexact "
            f"division: {mini} / {micro} = {mini / micro}",
            ["local_mini_batch_size", "per_device_train_batch_size"],
            fixes,
        )
    ]


def multiples_dividing(step: int, total: int) -> list[int]:
    """The multiples of ``step`` that divide ``total``: step × each divisor of total ÷ step (none unless step divides
    total), found by divisor arithmetic rather than by trying every multiple up to a total that may be 10**18."""
    return [step * d for d in divisors(total // step)] if step > 0 and total % step == 0 else []


def gtrl_rollout_divisible(run: _Run) -> list[Finding]:
    """num_mini_batches = exact_div(rollout × n, mini-batch) since 2025-02-11, with no message of its own (§7.1)."""
    prompts, n = run.count("local_rollout_batch_size"), run.count("number_samples_per_prompt", 1)
    mini, micro = run.count("local_mini_batch_size"), run.count("per_device_train_batch_size", 1)
    total, minibatch = prompts * run.world * n, mini * run.world
    if not run.since(EXACT_MINI_BATCHES) or total % minibatch == 0:
        return []
    minis = multiples_dividing(micro, prompts * n)
    fixes = (
        [({"local_mini_batch_size": nearest(minis, mini, 1)[0]}, f"keeps {prompts} prompts × {n} per learner")]
        if minis
        else []
    )
    step = mini // math.gcd(mini, n)
    fixes.append(
        (
            {"local_rollout_batch_size": nearest_multiple(prompts, step)[0]},
            f"keeps the mini-batch of {mini} samples per learner",
        )
    )
    return [
        run.finding(
            "open-instruct.gtrl-rollout-divisible",
            "error",
            f", inexact division: {total} / {minibatch} = {total / minibatch}",
            ["local_rollout_batch_size", "number_samples_per_prompt", "local_mini_batch_size"],
            fixes,
        )
    ]


Rule = Callable[[_Run], list[Finding]]
FAST_RULES: tuple[Rule, ...] = (
    pack_length,
    group_over_one,
    zero_std_filter_needs_group,
    active_sampling,
    async_steps_positive,
    samples_per_rank,
    sequence_parallel_zero3,
    kl_without_reference,
    single_gpu_tensor_parallel,
    kl_estimator_choice,
    mini_batches_vs_micro_batches,
    group_of_one,
    kl_estimator_renumbered,
    engines_exceed_prompts,
    zero2_discarded_gradients,
)
GTRL_RULES: tuple[Rule, ...] = (gtrl_mini_batch_divisible, gtrl_rollout_divisible)
COMMON_RULES: tuple[Rule, ...] = (ignored_flags, no_training_steps, warmup_steps_ignored, weight_decay_ignored)
