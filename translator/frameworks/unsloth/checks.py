"""Unsloth's rules (docs/frameworks/unsloth.md §2-§3): its rewrite reported as a warning with its exact printed
message, its mini-batch start-up check, and TRL's rules for the TRL release it runs on."""

from __future__ import annotations

import copy
from dataclasses import replace

from translator.checks.findings import Finding, Suggestion, needs_world_size
from translator.dialects.base import Values
from translator.frameworks.trl import checks as trl_checks
from translator.frameworks.unsloth.tables import MINI_BATCH_MESSAGE, MINI_BATCH_SINCE, OWN_KEYS, RELEASES
from translator.plan import RunSpec

PDTBS = "per_device_train_batch_size"


def check(native: Values, spec: RunSpec, version: str) -> list[Finding]:
    trl_version = getattr(native, "trl_version", None) or version
    trl_values = copy.copy(native)  # Unsloth's own arguments are not TRL's unknown keys
    trl_values.values = {k: v for k, v in native.values.items() if k not in OWN_KEYS}
    findings = trl_checks.check(trl_values, replace(spec, version=trl_version), trl_version)
    rewrite = getattr(native, "rewrite", None)
    if rewrite is not None:
        state, message, cited, written, group = rewrite
        if state == "unknown":  # whether it fires depends on WORLD_SIZE, which the config does not state
            findings.append(needs_world_size("unsloth.batch-rewrite"))
        if state == "rewritten":
            findings.append(
                Finding(
                    "unsloth.batch-rewrite",
                    "warning",
                    message,
                    [PDTBS, "num_generations"],
                    {PDTBS: written, "num_generations": group},
                    [
                        Suggestion(
                            {PDTBS: group},
                            f"write the {group} that runs ({cited}); the micro-batch grows from {written} to {group}",
                        )
                    ],
                )
            )
    mini = native.values.get("unsloth_grpo_mini_batch")
    plan = spec.plan
    if (
        isinstance(mini, int)
        and RELEASES.index(version) >= RELEASES.index(MINI_BATCH_SINCE)
        and isinstance(plan.samples_per_step, (int, float))
        and mini > plan.samples_per_step
    ):
        findings.append(
            Finding(
                "unsloth.grpo-mini-batch",
                "error",
                MINI_BATCH_MESSAGE,
                ["unsloth_grpo_mini_batch"],
                {"unsloth_grpo_mini_batch": mini},
                [
                    Suggestion(
                        {"unsloth_grpo_mini_batch": int(plan.samples_per_step)},
                        f"the generation batch, {int(plan.samples_per_step)} completions",
                    )
                ],
            )
        )
    return findings
