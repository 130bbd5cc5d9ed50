"""Unsloth's rules in the catalogue of codes (translator/rules.py ``catalogue``; docs/rules.md is generated from
it). Its other rules are TRL's (translator/frameworks/trl/rules.py), checked with the TRL release it runs on."""

from __future__ import annotations

from translator.frameworks.unsloth.tables import MINI_BATCH_MESSAGE, MINI_BATCH_SOURCE
from translator.rule_info import RuleInfo as R

RULES: tuple[R, ...] = (
    R(
        "unsloth.batch-rewrite",
        "check",
        "unsloth",
        ("warning", "skipped"),
        "Unsloth raises per_device_train_batch_size to num_generations when the batch is not a multiple of the group.",
        message="Unsloth: We now expect `per_device_train_batch_size` … to be a multiple of `num_generations`.\n"
        "We will change the batch size of {b} to the `num_generations` of {g}",
        source="docs/frameworks/unsloth.md §2; unsloth/models/rl.py:3588-3603@2026.10.9, :600-608@2025.8.9",
        versions="2025.8.9 –",
    ),
    R(
        "unsloth.gpu-memory-fraction-range",
        "check",
        "unsloth",
        ("error",),
        "vllm_gpu_memory_utilization must lie in (0, 1].",
    ),
    R(
        "unsloth.grpo-mini-batch",
        "check",
        "unsloth",
        ("error",),
        "unsloth_grpo_mini_batch must not exceed TRL's generation batch.",
        message=MINI_BATCH_MESSAGE,
        source=f"docs/frameworks/unsloth.md §3; {MINI_BATCH_SOURCE}",
        versions="2026.10.9 –",
        at_start=True,
    ),
    R(
        "unsloth.learning-rate-range",
        "check",
        "unsloth",
        ("error", "warning"),
        "The learning rate is 0 (no update) or negative (rejected by AdamW).",
    ),
    R(
        "unsloth.plan-rewritten",
        "note",
        "unsloth",
        ("warning",),
        "The plan that runs after Unsloth's rewrite of per_device_train_batch_size (or that it depends on WORLD_SIZE).",
        source="docs/frameworks/unsloth.md §2",
    ),
    R(
        "unsloth.unknown-key",
        "check",
        "unsloth",
        ("error",),
        "A keyword argument GRPOConfig refuses (unknown-key notes turned into errors).",
    ),
    R(
        "unsloth.written-as-trl",
        "note",
        "unsloth",
        ("info",),
        "Unsloth is configured in Python: the recipe written is TRL's, for the TRL release Unsloth runs with.",
    ),
)
