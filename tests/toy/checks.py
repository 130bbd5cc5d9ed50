"""The toy framework's rules."""
from __future__ import annotations

from translator.checks.findings import Finding
from translator.dialects.base import Values
from translator.plan import RunSpec


def check(native: Values, spec: RunSpec, version: str) -> list[Finding]:
    """toyrl asserts that the optimizer batch divides the rollout."""
    plan = spec.plan
    if plan.samples_per_step and plan.samples_per_optimizer_step and \
            plan.samples_per_step % plan.samples_per_optimizer_step:
        return [Finding("toyrl.divisible", "error", "update_batch must divide prompts × group",
                        ["--update_batch"], {"--update_batch": plan.samples_per_optimizer_step}, [])]
    return []
