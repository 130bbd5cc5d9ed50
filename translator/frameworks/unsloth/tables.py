"""Unsloth's tables (docs/frameworks/unsloth.md, docs/frameworks/data/unsloth.yaml): its releases, the TRL each
is read with, the defaults it puts into GRPOConfig, its rewrite of per_device_train_batch_size and its own checks'
messages. Sources are lines of unsloth/models/rl.py in the PyPI wheels."""

from __future__ import annotations

from typing import Any

RELEASES = ("2025.3.19", "2025.8.9", "2026.10.9")
# The newest TRL each release allows (Requires-Dist), which its batches are read with; 2025.8.9 has no upper
# bound: TRL 0.21.0, a release of the same month.
TRL_FOR = {"2025.3.19": "0.15.2", "2025.8.9": "0.21.0", "2026.10.9": "1.15.0"}
# The TRL releases each allows (its Requires-Dist for trl, in the wheel's METADATA): (lowest, highest or None,
# releases left out). A project's trl pin picks the Unsloth releases that install beside it.
TRL_ALLOWED: dict[str, tuple[str, str | None, tuple[str, ...]]] = {
    "2025.3.19": ("0.7.9", "0.15.2", ("0.9.0", "0.9.1", "0.9.2", "0.9.3", "0.15.0")),
    "2025.8.9": ("0.7.9", None, ("0.9.0", "0.9.1", "0.9.2", "0.9.3", "0.15.0", "0.19.0")),
    "2026.10.9": ("0.18.2", "1.15.0", ("0.19.0",)),
}
CHANGES = {
    "2025.3.19": "own GRPOConfig defaults (per_device_train_batch_size 4, gradient_accumulation_steps 2); rewrites "
    "per_device_train_batch_size to num_generations when it is not a multiple of it",
    "2025.8.9": "rewrites per_device_train_batch_size to num_generations when it is not a multiple of it",
    "2026.10.9": "the rewrite counts gradient accumulation and WORLD_SIZE; GRPO needs trl >= 0.20",
}

_COMMON: dict[str, Any] = {
    "per_device_train_batch_size": 4,
    "gradient_accumulation_steps": 2,
    "learning_rate": 5e-5,
    "optim": "adamw_8bit",
    "warmup_ratio": 0.1,
    "seed": 3407,
}
# unsloth/models/rl.py:3310-3352@2026.10.9, :475-495@2025.8.9, :428-443@2025.3.19
DEFAULTS: dict[str, dict[str, Any]] = {
    "2025.3.19": {**_COMMON, "weight_decay": 0.01},
    "2025.8.9": {**_COMMON, "weight_decay": 0.01, "num_generations": 8},
    "2026.10.9": {**_COMMON, "weight_decay": 0.001, "num_generations": 8},
}

SECOND_LINE = "We will change the batch size of {b} to the `num_generations` of {g}"
# (first line, source) of the rewrite per release; None: no rewrite (TRL's own check applies)
REWRITE: dict[str, tuple[str, str, bool] | None] = {
    # 2025.3.19 and 2025.8.9: per_device_train_batch_size % num_generations, whatever the accumulation and world
    # size. 2025.3.19 adds it to UnslothGRPOConfig.__init__ when TRL's GRPOTrainer holds "divisible by the number
    # of generations" (rl_replacements.py:309-321, injected by rl.py:481-484), as TRL 0.15.2's does (:348)
    "2025.3.19": (
        "Unsloth: We now expect `per_device_train_batch_size` to be a multiple of `num_generations`.",
        "unsloth/models/rl_replacements.py:309-321@2025.3.19",
        False,
    ),
    "2025.8.9": (
        "Unsloth: We now expect `per_device_train_batch_size` to be a multiple of `num_generations`.",
        "unsloth/models/rl.py:600-608@2025.8.9",
        False,
    ),
    # 2026.10.9 with TRL >= 0.18: (GAS × WORLD_SIZE × per_device_train_batch_size) % num_generations
    "2026.10.9": (
        "Unsloth: We now expect `per_device_train_batch_size` * `gradient_accumulation_steps` * `world_size` to "
        "be a multiple of `num_generations`.",
        "unsloth/models/rl.py:3588-3603@2026.10.9",
        True,
    ),
}


def fires(release: str, b: int, gas: int, group: int, world: int, batch_set: bool) -> bool:
    """Whether ``release`` rewrites per_device_train_batch_size ``b`` (``batch_set``: the config sets
    steps_per_generation or generation_batch_size, which 2026.10.9's form leaves alone)."""
    form = REWRITE[release]
    if form is None:
        return False
    if form[2]:  # counts accumulation and WORLD_SIZE
        return not batch_set and (gas * world * b) % group != 0
    return b % group != 0


MINI_BATCH_MESSAGE = (
    "Unsloth GRPO mini batch size needs to be less than or equal to the effective generation batch size, which is "
    "self.per_device_train_batch_size * gradient_accumulation_steps."
)
MINI_BATCH_SOURCE = "unsloth/models/rl.py:622-629@2026.10.9"
MINI_BATCH_SINCE = "2026.10.9"
# Unsloth's own argument (not TRL's): completions per hidden-state accumulation chunk
OWN_KEYS = frozenset({"unsloth_grpo_mini_batch"})
