"""Miles' own start-up rules (docs/frameworks/miles.md §4), with Miles' messages.

Miles runs slime's batch statements unchanged (``miles_validate_args``, miles/utils/arguments.py:3430-3467@v0.1.0,
and slime 0.3.1's kl/save/eval/REINFORCE++ statements at :3061-3140): those are slime's rules, reported under
slime's codes (translator/frameworks/slime/checks.py). What Miles adds is its FSDP backend's rules and its async
PPO rule, under ``miles.*`` codes. Megatron's micro-batch calculator and its silent gbs default run on the Megatron
backend only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from translator.checks.findings import Approaches, Finding, divisors, finding, nearest
from translator.dialects.base import Values
from translator.frameworks.miles.dialect import backend_of
from translator.frameworks.miles.tables import DEFAULTS, FSDP_DEFAULTS, MEGATRON_ONLY
from translator.frameworks.slime import checks as slime
from translator.frameworks.slime.checks import GBS, MICRO, STEPS, nonzero
from translator.plan import RunSpec

# The flags that name a behaviour policy for async PPO (miles/utils/arguments.py:3603@v0.1.0).
CORRECTIONS = ("use-rollout-logprobs", "use-tis", "keep-old-actor")


class View(slime.View):
    """Miles' flags over its defaults (by backend), and the flags the command gives (the FSDP parser refuses the
    Megatron-only ones)."""

    def __init__(
        self, values: Mapping[str, Any], version: str, asynchronous: bool, given: frozenset[str] = frozenset()
    ) -> None:
        super().__init__(values, version, asynchronous)
        self.given = given

    def changed(self, changes: Mapping[str, Any]) -> View:
        return View({**self.values, **changes}, self.version, self.asynchronous, self.given | set(changes))

    @property
    def fsdp(self) -> bool:
        return self.get("train-backend") == "fsdp"

    @property
    def dp(self) -> int | None:
        if not self.fsdp:
            return super().dp
        nodes, gpus = self.int("actor-num-nodes"), self.int("actor-num-gpus-per-node")
        # every actor GPU (miles/utils/arguments.py:2697@v0.1.0): no TP/PP on the FSDP parser, CP refused
        return nodes * gpus if nodes and gpus else None

    @property
    def megatron_sets_gbs(self) -> bool:
        return not self.fsdp

    @property
    def asserts_rollout_multiple(self) -> bool:
        return False

    @property
    def megatron_calculator(self) -> bool:
        return not self.fsdp

    @property
    def late_checks(self) -> bool:
        return True

    def megatron_flags(self) -> list[str]:
        """The Megatron-only flags the command gives (set to a value)."""
        return [k for k in MEGATRON_ONLY if k in self.given and self.get(k) not in (None, False)]


def rules(view: View) -> list[Finding]:
    found = slime.rules(view)
    if view.fsdp:
        found += fsdp_rules(view)
    if view.get("advantage-estimator") == "ppo":
        if view.fsdp:
            found.append(
                finding(
                    view,
                    "miles.ppo-needs-megatron",
                    "error",
                    "Shared Actor/Critic PPO requires the Megatron backend",
                    ["train-backend", "advantage-estimator"],
                )
            )
        if nonzero(view.get("kl-coef")):
            found.append(
                finding(
                    view,
                    "miles.ppo-reward-kl",
                    "error",
                    "Shared Actor/Critic PPO does not support reward-level KL (--kl-coef): the critic trains before "
                    "the actor and never sees ref log probs, so its value targets would silently exclude the KL "
                    "penalty applied to the actor's rewards. Use --use-kl-loss for KL regularization instead.",
                    ["kl-coef", "advantage-estimator"],
                )
            )
        if view.asynchronous and not any(view.flag(k) for k in CORRECTIONS):
            found.append(
                finding(
                    view,
                    "miles.async-ppo-correction",
                    "error",
                    "Async PPO training requires an explicit behavior-policy correction, because rollouts are "
                    "generated before the current weight update while log probs are recomputed by the current actor "
                    "by default. Pass one of: --use-rollout-logprobs (use the rollout engine's log probs as the ratio "
                    "denominator), --use-tis (truncated importance sampling correction), or --keep-old-actor "
                    "(recompute the denominator with the weights the rollout engines used).",
                    [*CORRECTIONS, "advantage-estimator"],
                )
            )
    return found


def fsdp_rules(view: View) -> list[Finding]:
    """The FSDP backend's parser and start-up (miles/utils/arguments.py:2693-2702, fsdp_utils/arguments.py)."""
    found: list[Finding] = []
    extra = view.megatron_flags()
    if extra:
        found.append(
            finding(
                view,
                "miles.fsdp-megatron-flag",
                "error",
                # argparse names each word it could not take: the flag and its value
                "unrecognized arguments: "
                + " ".join(f"--{k}" if view.get(k) is True else f"--{k} {view.get(k)}" for k in extra),
                [*extra, "train-backend"],
            )
        )
    if (view.int("context-parallel-size") or 1) != 1:
        found.append(
            finding(
                view,
                "miles.fsdp-context-parallel",
                "error",
                "Context parallelism is not supported for FSDP backend.",
                ["context-parallel-size", "train-backend"],
            )
        )
    replicas, nodes, gpus = (
        view.int("dp-replicate-size"),
        view.int("actor-num-nodes"),
        view.int("actor-num-gpus-per-node"),
    )
    if replicas is not None and replicas < 1:
        found.append(
            finding(
                view,
                "miles.fsdp-replicate",
                "error",
                f"dp_replicate_size must be at least 1, got {replicas}",
                ["dp-replicate-size"],
            )
        )
    elif replicas and nodes and gpus and (nodes * gpus) % replicas:
        found.append(
            finding(
                view,
                "miles.fsdp-replicate",
                "error",
                f"world_size({nodes * gpus}) must be divisible by dp_replicate_size({replicas})",
                ["dp-replicate-size", "actor-num-gpus-per-node"],
            )
        )
    gbs, dp, micro = view.gbs(), view.dp, view.int(MICRO)
    if gbs is None and view.samples is not None:
        found.append(
            finding(
                view,
                "miles.fsdp-gbs-none",
                "error",
                "unsupported operand type(s) for //: 'int' and 'NoneType'",
                [GBS, STEPS],
            )
        )
    elif gbs and dp and micro and not view.flag("use-dynamic-batch-size") and gbs % (micro * dp):
        found.append(
            finding(
                view,
                "miles.fsdp-micro-batch-floor",
                "warning",
                f"global_batch_size {gbs} is not a multiple of micro_batch_size {micro} × {dp} data-parallel ranks: "
                f"each rank trains {gbs // dp // micro} micro-batches of {micro} per step and skips the rest",
                [GBS, MICRO, "actor-num-gpus-per-node"],
            )
        )
    return found


def approaches(view: View, item: Finding) -> Approaches:
    rule = item.rule
    if rule == "miles.fsdp-megatron-flag":
        return [[dict.fromkeys(view.megatron_flags())], [{"train-backend": "megatron"}]]
    if rule == "miles.fsdp-context-parallel":
        return [[{"context-parallel-size": 1}], [{"train-backend": "megatron"}]]
    if rule == "miles.fsdp-replicate":
        world = (view.int("actor-num-nodes") or 1) * (view.int("actor-num-gpus-per-node") or 1)
        return [[{"dp-replicate-size": r} for r in nearest(divisors(world), view.int("dp-replicate-size") or 1, 2)]]
    if rule == "miles.fsdp-gbs-none":
        samples = view.samples or 1
        return [[{STEPS: k} for k in divisors(samples) if k <= 64][:8], [{GBS: samples}]]
    if rule == "miles.fsdp-micro-batch-floor":
        gbs, dp = view.gbs() or 1, view.dp or 1
        return [
            [{MICRO: m} for m in nearest([m for m in divisors(gbs) if gbs % (m * dp) == 0], view.int(MICRO) or 1, 2)]
        ]
    if rule == "miles.ppo-needs-megatron":
        return [[{"train-backend": "megatron"}], [{"advantage-estimator": "grpo"}]]
    if rule == "miles.ppo-reward-kl":
        return [[{"kl-coef": 0.0}], [{"kl-coef": 0.0, "use-kl-loss": True, "kl-loss-coef": view.get("kl-coef")}]]
    if rule == "miles.async-ppo-correction":
        return [[{"keep-old-actor": True}], [{"use-tis": True}], [{"use-rollout-logprobs": True}]]
    return slime.approaches(view, item)


def check(native: Values, spec: RunSpec, version: str) -> list[Finding]:
    defaults = FSDP_DEFAULTS if backend_of(native.values) == "fsdp" else DEFAULTS
    view = View({**defaults, **native.values}, version, bool(spec.asynchrony.max_steps_ahead), frozenset(native.values))
    return slime.run(view, native, rules, approaches)
