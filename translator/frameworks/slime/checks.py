"""slime's own start-up rules (docs/frameworks/slime.md §5-6), with slime's messages.

Errors are what ``slime_validate_args`` (slime/utils/arguments.py), Megatron's micro-batch calculator and
``train_async.py`` refuse; warnings what slime accepts but changes silently. Units: --rollout-batch-size prompts,
--global-batch-size samples per optimizer step, --micro-batch-size samples per DP rank; DP = actor GPUs ÷ (TP × PP
× CP). Suggestions are validated by running these rules again on the changed flags (translator/checks/findings.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from translator.checks.findings import (
    Approaches,
    Finding,
    SettingsAccess,
    divisors,
    finding,
    nearest,
    needs_world_size,
    suggest,
)
from translator.dialects.base import Values
from translator.frameworks.slime.tables import DEFAULTS, LATE_CHECKS_SINCE, MEGATRON_DEFAULT_SINCE
from translator.plan import RunSpec

RBS, N, GBS, STEPS, MICRO = (
    "rollout-batch-size",
    "n-samples-per-prompt",
    "global-batch-size",
    "num-steps-per-rollout",
    "micro-batch-size",
)
REINFORCE_PP = ("reinforce_plus_plus", "reinforce_plus_plus_baseline")


class View(SettingsAccess):
    """slime's flags over their defaults, the entry point, and what the start-up derives from them. A fork (Miles)
    subclasses it: the properties below say which of slime's statements its start-up runs."""

    def __init__(self, values: Mapping[str, Any], version: str, asynchronous: bool) -> None:
        self.values, self.version, self.asynchronous = dict(values), version, asynchronous

    def changed(self, changes: Mapping[str, Any]) -> View:
        return type(self)({**self.values, **changes}, self.version, self.asynchronous)

    @property
    def megatron_sets_gbs(self) -> bool:
        """Neither batch flag: Megatron's validate_args sets gbs = micro × DP (slime from 0.2.2)."""
        return self.since(MEGATRON_DEFAULT_SINCE)

    @property
    def asserts_rollout_multiple(self) -> bool:
        """slime up to 0.2.1 asserts rbs × n % gbs == 0 (and fails on gbs None)."""
        return not self.since(MEGATRON_DEFAULT_SINCE)

    @property
    def megatron_calculator(self) -> bool:
        """Megatron's micro-batch calculator checks gbs % (micro × DP) (slime trains with Megatron only)."""
        return True

    @property
    def late_checks(self) -> bool:
        """The kl/save/eval/REINFORCE++ statements (slime 0.3.1)."""
        return self.since(LATE_CHECKS_SINCE)

    @property
    def samples(self) -> int | None:
        rbs, n = self.int(RBS), self.int(N)
        return rbs * n if rbs is not None and n is not None else None

    @property
    def dp(self) -> int | None:
        keys = ("actor-num-nodes", "actor-num-gpus-per-node")
        parallel = ("tensor-model-parallel-size", "pipeline-model-parallel-size", "context-parallel-size")
        # a model-parallel flag removed (a suggestion sets it None) is Megatron's default, 1
        counts = [self.int(k) for k in keys] + [1 if self.get(k) is None else self.int(k) for k in parallel]
        if None in counts or 0 in counts:
            return None
        nodes, gpus, tp, pp, cp = counts
        world, model = nodes * gpus, tp * pp * cp  # type: ignore[operator]
        return world // model if world % model == 0 else None

    def gbs(self) -> int | None:
        """The global batch slime and Megatron settle on (None: none is formed)."""
        steps, samples, gbs = self.int(STEPS), self.samples, self.int(GBS)
        if gbs is not None:  # as the reader takes it (slime stops when it differs from rbs × n // steps)
            return gbs
        if steps and samples is not None:
            return samples // steps
        if self.megatron_sets_gbs and self.dp is not None and self.int(MICRO):
            return self.int(MICRO) * self.dp  # type: ignore[operator]
        return None


def rules(view: View) -> list[Finding]:
    found: list[Finding] = []
    samples, steps, given = view.samples, view.int(STEPS), view.int(GBS)
    if steps and given is not None and samples is not None and given != samples // steps:
        found.append(
            finding(
                view,
                "slime.gbs-identity",
                "error",
                f"global_batch_size {given} is not equal to rollout_batch_size {view.int(RBS)} * "
                f"n_samples_per_prompt {view.int(N)} // num_steps_per_rollout {steps}",
                [GBS, STEPS, RBS, N],
            )
        )
    elif view.asserts_rollout_multiple and samples is not None:
        gbs = view.gbs()
        if gbs is None:
            found.append(
                finding(
                    view,
                    "slime.gbs-none",
                    "error",
                    "unsupported operand type(s) for %: 'int' and 'NoneType'",
                    [GBS, STEPS],
                )
            )
        elif samples % gbs:
            found.append(
                finding(
                    view,
                    "slime.rollout-multiple-of-gbs",
                    "error",
                    f"rollout_batch_size {view.int(RBS)} * n_samples_per_prompt {view.int(N)} is not a multiple of "
                    f"global_batch_size {gbs}",
                    [GBS, STEPS, RBS, N] if steps else [GBS, RBS, N],
                )
            )
    over = view.int("over-sampling-batch-size")
    if over is not None and view.int(RBS) is not None and over < view.int(RBS):  # type: ignore[operator]
        found.append(
            finding(
                view,
                "slime.over-sampling",
                "error",
                f"over_sampling_batch_size {over} should be greater than or equal to rollout_batch_size "
                f"{view.int(RBS)}",
                ["over-sampling-batch-size", RBS],
            )
        )
    if view.get("num-epoch") is None and view.get("num-rollout") is None:
        found.append(
            finding(
                view,
                "slime.run-length",
                "error",
                "num_epoch is not set, but num_rollout is not set, please set --num-rollout or --num-epoch",
                ["num-rollout", "num-epoch"],
            )
        )
    if view.flag("use-dynamic-batch-size") and view.get("max-tokens-per-gpu") is None:
        found.append(
            finding(
                view,
                "slime.dynamic-needs-max-tokens",
                "error",
                "max_tokens_per_gpu must be set when use_dynamic_batch_size is set",
                ["max-tokens-per-gpu", "use-dynamic-batch-size"],
            )
        )
    found += megatron_rules(view)
    if view.late_checks:
        found += late_rules(view)
    if view.asynchronous and view.flag("colocate"):
        found.append(
            finding(
                view, "slime.async-colocate", "error", "Colocation is not supported for async training.", ["colocate"]
            )
        )
    return found


def megatron_rules(view: View) -> list[Finding]:
    """Megatron's micro-batch calculator, and the silent cases of slime.md §5."""
    found: list[Finding] = []
    gbs, dp, micro, samples = view.gbs(), view.dp, view.int(MICRO), view.samples
    if view.megatron_calculator and gbs and dp and micro and gbs % (micro * dp):
        found.append(
            finding(
                view,
                "slime.micro-batch-calculator",
                "error",
                f"global batch size ({gbs}) is not divisible by micro batch size ({micro}) times data parallel size "
                f"({dp})",
                [GBS, MICRO, "actor-num-gpus-per-node"],
            )
        )
    if view.megatron_sets_gbs and view.int(GBS) is None and view.int(STEPS) is None and gbs:
        found.append(
            finding(
                view,
                "slime.megatron-default-gbs",
                "warning",
                f"neither --global-batch-size nor --num-steps-per-rollout is set: Megatron sets global_batch_size = "
                f"micro_batch_size {micro} × data parallel size {dp} = {gbs} and only prints 'setting global batch "
                f"size to {gbs}'",
                [GBS, STEPS],
            )
        )
    if gbs and samples is not None and samples > gbs and samples % gbs and not view.asserts_rollout_multiple:
        found.append(
            finding(
                view,
                "slime.remainder-dropped",
                "warning",
                f"{samples} samples per rollout step are not a multiple of global_batch_size {gbs}: the last "
                f"{samples % gbs} are not trained",
                [GBS, STEPS, RBS, N],
            )
        )
    return found


def late_rules(view: View) -> list[Finding]:
    """The checks slime 0.3.1 adds (slime/utils/arguments.py:1781-1793@v0.3.1)."""
    found: list[Finding] = []
    kl, kl_loss = view.get("kl-coef"), view.get("kl-loss-coef")
    if nonzero(kl) and nonzero(kl_loss):
        found.append(
            finding(
                view,
                "slime.one-kl",
                "error",
                "Only one of kl_coef and kl_loss_coef can be set",
                ["kl-coef", "kl-loss-coef"],
            )
        )
    if view.get("save-interval") is not None and view.get("save") is None:
        found.append(
            finding(
                view,
                "slime.save-needs-dir",
                "error",
                "'--save' is required when save_interval is set.",
                ["save", "save-interval"],
            )
        )
    # the datasets come from --eval-prompt-data or --eval-config (_resolve_eval_datasets, slime/utils/arguments.py:
    # 1671-1715@v0.3.1; miles/utils/arguments.py:2747-2852@v0.1.0)
    if (
        view.get("eval-interval") is not None
        and view.get("eval-prompt-data") is None
        and view.get("eval-config") is None
    ):
        found.append(
            finding(
                view,
                "slime.eval-needs-data",
                "error",
                "Evaluation datasets must be configured when eval_interval is set.",
                ["eval-interval", "eval-prompt-data"],
            )
        )
    if view.get("advantage-estimator") in REINFORCE_PP and not view.flag("normalize-advantages"):
        found.append(
            finding(
                view,
                "slime.reinforce-pp-normalization",
                "error",
                "The 'reinforce_plus_plus' and 'reinforce_plus_plus_baseline' advantage estimators require advantage "
                "normalization. Please add `--normalize-advantages` to your command.",
                ["normalize-advantages", "advantage-estimator"],
            )
        )
    return found


def nonzero(value: Any) -> bool:
    try:
        return value is not None and float(value) != 0.0
    except (TypeError, ValueError):
        return True


def metrics(view: View) -> dict[str, int]:
    """What people plan with, for the suggestions' texts."""
    shown = {"samples per step": view.samples, "samples per optimizer step": view.gbs(), "data parallel size": view.dp}
    return {k: v for k, v in shown.items() if v is not None}


def approaches(view: View, item: Finding) -> Approaches:
    """Ways to satisfy a rule, nearest first."""
    samples, dp, micro = view.samples or 1, view.dp or 1, view.int(MICRO) or 1
    rule = item.rule.partition(".")[2]  # slime's codes (a fork reports them too) and the fork's own
    if rule == "gbs-identity":
        steps = view.int(STEPS) or 1
        keep_gbs = [{STEPS: samples // g} for g in [view.int(GBS) or 1] if g and samples % g == 0]
        return [keep_gbs, [{GBS: samples // steps}], [{GBS: None}]]
    if rule in ("gbs-none", "rollout-multiple-of-gbs"):
        return [[{STEPS: k, GBS: None} for k in divisors(samples) if k <= 64][:8], [{GBS: samples}]]
    if rule == "over-sampling":
        return [[{"over-sampling-batch-size": view.int(RBS)}], [{"over-sampling-batch-size": None}]]
    if rule == "run-length":
        return [[{"num-epoch": 1}]]
    if rule == "dynamic-needs-max-tokens":
        return [[{"max-tokens-per-gpu": 16384}], [{"use-dynamic-batch-size": False}]]
    if rule == "micro-batch-calculator":
        gbs = view.gbs() or 1
        micros = [m for m in divisors(gbs) if gbs % (m * dp) == 0]
        ways: Approaches = [[{MICRO: m} for m in nearest(micros, micro, 3)]]
        if view.int(STEPS) is None:
            ways.append([{GBS: g} for g in nearest([g for g in divisors(samples) if g % (micro * dp) == 0], gbs, 2)])
        else:
            ways.append(
                [
                    {STEPS: samples // g}
                    for g in nearest([g for g in divisors(samples) if g % (micro * dp) == 0], gbs, 2)
                ]
            )
        return ways
    if rule == "megatron-default-gbs":
        return [[{STEPS: 1}], [{GBS: view.gbs()}]]
    if rule == "remainder-dropped":
        gbs = view.gbs() or 1
        return [[{STEPS: k, GBS: None} for k in nearest(divisors(samples), samples // gbs, 2)]]
    if rule == "one-kl":
        return [[{"kl-coef": 0.0}], [{"kl-loss-coef": 0.0}]]
    if rule == "save-needs-dir":
        return [[{"save": "checkpoints"}], [{"save-interval": None}]]
    if rule == "eval-needs-data":
        return [[{"eval-interval": None}]]
    if rule == "reinforce-pp-normalization":
        return [[{"normalize-advantages": True}]]
    if rule == "async-colocate":
        return [[{"colocate": False}]]
    return []


def check(native: Values, spec: RunSpec, version: str) -> list[Finding]:
    values = {**DEFAULTS, **native.values}
    return run(View(values, version, bool(spec.asynchrony.max_steps_ahead)), native, rules, approaches)


def run(
    view: View,
    native: Values,
    rules: Callable[[Any], list[Finding]],
    approaches: Callable[[Any, Finding], Approaches],
) -> list[Finding]:
    """The rules on ``view``, each finding with suggestions validated by the same rules (a fork passes its own)."""
    found = rules(view)
    if view.dp is None and any(k in native.unknown for k in ("actor-num-nodes", "actor-num-gpus-per-node")):
        found.append(needs_world_size("slime.micro-batch-calculator"))
    for item in found:
        if item.severity != "skipped":
            item.suggestions = suggest(view, item, approaches(view, item), rules, metrics)
    return found
