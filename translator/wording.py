"""Canonical values worded for people: with their units, lists as ``a, b``, a fix as ``key=value``. The library
words its notes and fixes with these, and the text reports (translator/render.py) their lines."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from translator.dialects.base import fmt
from translator.plan import PLAN_FIELDS
from translator.summary import plural

# canonical field → the unit phrase that follows its value: (one, many).
UNITS: dict[str, tuple[str, str]] = {
    "plan.prompts_per_step": ("prompt per step", "prompts per step"),
    "plan.samples_per_prompt": ("sample per prompt", "samples per prompt"),
    "plan.samples_per_step": ("sample per step", "samples per step"),
    "plan.samples_per_optimizer_step": ("sample per optimizer step", "samples per optimizer step"),
    "plan.optimizer_steps_per_step": ("optimizer step per step", "optimizer steps per step"),
    "plan.epochs_per_step": ("pass over each step's samples", "passes over each step's samples"),
    "plan.data_parallel_size": ("data-parallel rank", "data-parallel ranks"),
    "plan.micro_batch_per_device": ("sample per micro-batch per rank", "samples per micro-batch per rank"),
    "plan.grad_accum_steps": ("micro-batch per optimizer step per rank", "micro-batches per optimizer step per rank"),
    "plan.total_steps": ("step in the run", "steps in the run"),
    "topology.nodes": ("node", "nodes"),
    "topology.gpus_per_node": ("GPU per node", "GPUs per node"),
    "topology.training_gpus": ("training GPU", "training GPUs"),
    "topology.rollout_gpus": ("GPU for rollout only", "GPUs for rollout only"),
    "topology.rollout_engines": ("inference engine", "inference engines"),
    "token_budget.max_tokens_per_device": ("token per micro-batch per rank", "tokens per micro-batch per rank"),
    "token_budget.logprob_max_tokens_per_device": (
        "token per log-prob micro-batch per rank",
        "tokens per log-prob micro-batch per rank",
    ),
    "generation.prompts_per_round": ("prompt per generation round", "prompts per generation round"),
    "generation.max_rounds_per_step": ("round per step", "rounds per step"),
    "generation.logprob_micro_batch_per_device": (
        "sample per log-prob micro-batch per rank",
        "samples per log-prob micro-batch per rank",
    ),
    "run_length.dataset_passes": ("pass over the dataset", "passes over the dataset"),
    "run_length.total_optimizer_steps": ("optimizer step", "optimizer steps"),
    "run_length.total_samples": ("sample", "samples"),
    "lengths.max_prompt_tokens": ("token", "tokens"),
    "lengths.max_response_tokens": ("token", "tokens"),
    "critic.samples_per_optimizer_step": ("sample per optimizer step", "samples per optimizer step"),
    "critic.epochs_per_step": ("pass over each step's samples", "passes over each step's samples"),
    "critic.micro_batch_per_device": ("sample per micro-batch per rank", "samples per micro-batch per rank"),
    "asynchrony.max_steps_ahead": ("step ahead", "steps ahead"),
    "data.max_train_prompts": ("prompt", "prompts"),
    "data.max_eval_prompts": ("prompt", "prompts"),
    "checkpointing.every_steps": ("step between checkpoints", "steps between checkpoints"),
    "checkpointing.keep_last": ("checkpoint kept", "checkpoints kept"),
    "evaluation.every_steps": ("step between evaluations", "steps between evaluations"),
}
WARMUP_UNITS = {"steps": ("rollout step", "rollout steps"), "optimizer_steps": ("optimizer step", "optimizer steps")}
PLAN_UNITS = {name: UNITS[f"plan.{name}"][1] for name in PLAN_FIELDS}  # the plural phrases, by plan field


def quantity(name: str, value: Any, spec: Any = None) -> str:
    """A canonical field's value for people: with its unit, lists as ``a, b``, None as ``unset``."""
    if value is None:
        return "unset"
    unit = UNITS.get(name)
    if name == "optimizer.warmup_steps" and spec is not None:
        unit = WARMUP_UNITS.get(spec.optimizer.warmup_unit or "optimizer_steps")
    if unit is not None and isinstance(value, (int, float, Fraction)) and not isinstance(value, bool):
        return plural(value, *unit)
    return show(value)


def show(value: Any) -> str:
    """A value as people read it in a sentence: lists as ``a, b``, mappings as ``k: v``, never a Python repr."""
    if isinstance(value, (list, tuple)):
        return ", ".join(show(v) for v in value) if value else "(empty list)"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return fmt(value)


def setting(key: str, value: Any) -> str:
    """A native ``key=value`` as a fix shows it: ``key=(remove)`` for a removal, lists in YAML flow style."""
    if value is None:
        return f"{key}=(remove)"
    if isinstance(value, (list, tuple)):
        return f"{key}=[{', '.join(show(v) for v in value)}]"
    return f"{key}={show(value)}"


def settings(changes: dict[str, Any]) -> str:
    return ", ".join(setting(k, v) for k, v in changes.items())
