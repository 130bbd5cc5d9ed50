"""Value ranges every framework has, checked on the canonical model (so one rule serves all of them):

- the learning rate (``optimizer.lr``, ``critic.lr``): torch.optim's Adam/AdamW raise
  ``ValueError("Invalid learning rate: ...")`` unless ``0.0 <= lr`` (a NaN fails too): an error for a framework
  that builds torch.optim.AdamW. A framework whose optimizer checks nothing (its registration's
  ``optimizer_checks_lr`` is false) runs a negative rate and climbs the loss: a warning. A rate of 0 passes
  everywhere and nothing is learned: a warning.
- the share of a GPU's memory the rollout engine may take (``topology.rollout_gpu_memory_fraction``,
  vLLM's ``gpu_memory_utilization``): vLLM's CacheConfig rejects a value above 1 ("GPU memory utilization must
  be less than 1.0", and newer releases declare the field ``gt=0, le=1``); 0 or less leaves no room for the KV
  cache, so the engine fails when it starts: an error either way.
"""

from __future__ import annotations

import math
from typing import Any

from translator.checks.findings import Finding, Suggestion
from translator.dialects import registry
from translator.plan import RunSpec

VLLM_DEFAULT_FRACTION = 0.9


def check(spec: RunSpec) -> list[Finding]:
    found = []
    for dotted in ("optimizer.lr", "critic.lr"):
        item = learning_rate(spec, dotted)
        if item is not None:
            found.append(item)
    item = memory_fraction(spec)
    if item is not None:
        found.append(item)
    return found


def _number(value: Any) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError):
        return None


def _keys(spec: RunSpec, dotted: str) -> list[str]:
    """The native keys a canonical value was read from (the field itself when none is recorded)."""
    derivation = spec.derivations.get(dotted)
    return list(derivation.keys) if derivation is not None and derivation.keys else [dotted]


def learning_rate(spec: RunSpec, dotted: str) -> Finding | None:
    lr = _number(spec.get(dotted))
    if lr is None or lr > 0:
        return None
    keys = _keys(spec, dotted)
    fix = [Suggestion({keys[0]: None}, f"remove {keys[0]} (the framework's default rate)")]
    rule = f"{spec.framework}.learning-rate-range"
    if lr == 0:
        return Finding(
            rule,
            "warning",
            f"{keys[0]} is 0: the optimizer runs but no weight ever changes",
            keys,
            {keys[0]: spec.get(dotted)},
            fix,
        )
    entry = registry.lookup(spec.framework)
    if entry is not None and not entry.optimizer_checks_lr:  # DeepSpeed's Adam: no check on lr
        return Finding(
            rule,
            "warning",
            f"{keys[0]} is {lr!r}: DeepSpeed's Adam accepts it and every update "
            "climbs the loss instead of descending it",
            keys,
            {keys[0]: spec.get(dotted)},
            fix,
        )
    return Finding(
        rule,
        "error",
        f"Invalid learning rate: {lr!r} (torch.optim.AdamW needs 0.0 <= lr)",
        keys,
        {keys[0]: spec.get(dotted)},
        fix,
    )


def memory_fraction(spec: RunSpec) -> Finding | None:
    dotted = "topology.rollout_gpu_memory_fraction"
    fraction = _number(spec.get(dotted))
    if fraction is None or (math.isfinite(fraction) and 0 < fraction <= 1):
        return None
    keys = _keys(spec, dotted)
    return Finding(
        f"{spec.framework}.gpu-memory-fraction-range",
        "error",
        f"{keys[0]} is {fraction!r}: GPU memory utilization is a share of one GPU's memory, in (0, 1] "
        "(vLLM rejects more than 1; 0 or less leaves no room for the KV cache)",
        keys,
        {keys[0]: spec.get(dotted)},
        [Suggestion({keys[0]: VLLM_DEFAULT_FRACTION}, f"vLLM's default share, {VLLM_DEFAULT_FRACTION}")],
    )
