"""What a plan means for one step and for the whole run: the step picture, on/off-policy, run length."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from translator.dialects.base import fmt
from translator.plan import RunSpec


def plural(count: Any, one: str, many: str) -> str:
    """``1 sample``, ``2 samples``, ``0.5 samples``: the singular only for exactly one."""
    return f"{fmt(count)} {one if count == 1 and not isinstance(count, bool) else many}"


def step_picture(spec: RunSpec) -> list[str]:
    """An ASCII picture of one rollout step: rollout → mini-batches → micro-batches per rank → updates."""
    p, budget = spec.plan, spec.token_budget
    if p.samples_per_step is None:
        if p.data_parallel_size is None:
            return ["(the step is unknown: the world size is not stated)"]
        return ["(the step is unknown: its samples per step are, as the batch plan says)"]
    lines = [
        f"rollout: {plural(p.prompts_per_step, 'prompt', 'prompts')} × "
        f"{plural(p.samples_per_prompt, 'sample', 'samples')} = {plural(p.samples_per_step, 'sample', 'samples')}"
    ]
    per_step = Fraction(p.optimizer_steps_per_step) if p.optimizer_steps_per_step is not None else None
    if p.samples_per_optimizer_step is None or not per_step:  # unknown, or no update at all
        return lines
    epochs = p.epochs_per_step or 1
    if per_step < 1:
        lines.append(
            f" └─ one optimizer step every {fmt(1 / per_step)} steps: an update of "
            f"{plural(p.samples_per_optimizer_step, 'sample', 'samples')} accumulates several rollouts"
        )
    elif spec.generation.rollout_mode == "separate_async" and per_step / epochs > 1:
        # verl 0.9's separate_async: the step is parameter_sync_step local updates, each sampled from the replay
        # buffer and trained on its own mini-batch(es) × epochs; the weights reach the rollout once per step.
        minis = per_step / epochs
        lines.append(
            f" └─ {plural(minis, 'local update', 'local updates')} of "
            f"{plural(Fraction(p.samples_per_step) / minis, 'sample', 'samples')} from the replay buffer, "
            f"each {plural(epochs, 'epoch', 'epochs')} over it = "
            f"{plural(per_step, 'optimizer step', 'optimizer steps')}; weights synced to the rollout once"
        )
    else:
        minis = per_step / epochs
        lines.append(
            f" └─ {plural(minis, 'mini-batch', 'mini-batches')} of "
            f"{plural(p.samples_per_optimizer_step, 'sample', 'samples')} × {plural(epochs, 'epoch', 'epochs')}"
            f" = {plural(per_step, 'optimizer step', 'optimizer steps')}"
        )
    if p.data_parallel_size:
        per_rank = Fraction(p.samples_per_optimizer_step) / p.data_parallel_size
        if p.micro_batch_per_device:
            micro = f"{plural(p.grad_accum_steps, 'micro-batch', 'micro-batches')} of {fmt(p.micro_batch_per_device)}"
        elif budget.max_tokens_per_device:
            micro = f"micro-batches packed up to {budget.max_tokens_per_device} tokens"
        else:
            micro = "micro-batches of unknown size"
        lines.append(
            f"     └─ per rank ({plural(p.data_parallel_size, 'rank', 'ranks')}): "
            f"{plural(per_rank, 'sample', 'samples')} = {micro}"
        )
        lines.append("          └─ gradients averaged over ranks → 1 optimizer step")
    return lines


def policy_status(spec: RunSpec) -> dict[str, Any]:
    """Whether updates train on samples from the current policy, and why not."""
    per_step = spec.plan.optimizer_steps_per_step
    ahead = spec.asynchrony.max_steps_ahead or 0
    reasons = []
    if per_step is not None and Fraction(per_step) > 1:
        reasons.append(
            f"{fmt(per_step)} optimizer steps per rollout: every update after the first trains on "
            "samples from an older policy (the clipped importance ratio matters)"
        )
    if ahead:
        reasons.append(f"generation runs up to {plural(ahead, 'step', 'steps')} ahead of training (asynchronous)")
    if per_step is None and not ahead:
        return {"on_policy": None, "reasons": ["unknown: optimizer steps per step are not determined"]}
    return {
        "on_policy": not reasons,
        "reasons": reasons or ["one update per rollout from the current policy"],
        "max_policy_lag_steps": ahead,
    }


def run_length(spec: RunSpec, dataset_size: int | None = None) -> dict[str, Any]:
    """The run in rollout steps, optimizer steps, samples and dataset passes, as far as it is determined.

    With ``dataset_size`` (prompts), steps per pass = floor(dataset_size / prompts_per_step): the frameworks'
    dataloaders drop the last partial batch."""
    p = spec.plan
    steps = p.total_steps
    passes = spec.run_length.dataset_passes
    basis = "total_steps" if steps is not None else None
    steps_per_pass = None
    if dataset_size and p.prompts_per_step:
        steps_per_pass = math.floor(Fraction(dataset_size) / Fraction(p.prompts_per_step))
        by_passes = math.floor(steps_per_pass * Fraction(passes).limit_denominator(1000)) if passes else None
        cap = spec.run_length.step_cap
        if steps is None and by_passes is not None and cap is not None and cap < by_passes:
            steps, basis = cap, f"step_cap {cap}, before dataset_passes × steps per pass ({by_passes})"
        elif steps is None and by_passes is not None:
            steps, basis = by_passes, "dataset_passes × steps per pass"
        elif steps is not None and by_passes is not None and by_passes < steps and _stops_at_first_limit(spec):
            steps, basis = by_passes, f"dataset_passes × steps per pass, before total_steps {steps}"
        elif steps is not None and steps_per_pass:
            passes = round(steps / steps_per_pass, 4)
    return {
        "steps": steps,
        "optimizer_steps": _times(steps, p.optimizer_steps_per_step),
        "samples": _times(steps, p.samples_per_step),
        "prompts": _times(steps, p.prompts_per_step),
        "dataset_passes": passes,
        "steps_per_dataset_pass": steps_per_pass,
        "dataset_size": dataset_size,
        "basis": basis,
    }


def _stops_at_first_limit(spec: RunSpec) -> bool:
    from translator import dialects
    from translator.errors import ConfigError

    try:
        return dialects.get(spec.framework).stops_at_first_limit
    except ConfigError:  # a plan file names no framework rlconf knows: assume the common rule
        return True


def _times(steps: int | None, per_step: Any) -> int | float | None:
    if steps is None or per_step is None:
        return None
    value = Fraction(steps) * Fraction(per_step)
    return int(value) if value.denominator == 1 else float(value)
