"""Helpers writers share: plan comments for file headers, values quoted for launch scripts."""
from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from translator.dialects.base import fmt
from translator.notes import NoteList
from translator.plan import RunSpec
from translator.sources.shell import symbolic_names


def hydra_value(value: Any) -> str:
    """A Hydra/OmegaConf override value, quoted for the shell."""
    if isinstance(value, bool):
        return "True" if value else "False"
    if value is None:
        return "null"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (list, tuple)):
        inner = ",".join(f'"{item}"' if isinstance(item, str) else hydra_value(item) for item in value)
        return f"'[{inner}]'"
    if isinstance(value, dict):
        import shlex

        inner = ",".join(f"{k}:{hydra_value(v)}" for k, v in value.items())
        return shlex.quote("{" + inner + "}")
    text = str(value)
    if re.fullmatch(r"[\w@%+./:=-]+", text):  # a bare comma would make Hydra read a sweep (a,b)
        return text
    # Anything else is a Hydra quoted string ('~/x', 'a b'), so that Hydra's grammar takes it as one value.
    hydra = "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
    shell = hydra.replace("\\", "\\\\").replace('"', '\\"')
    if not symbolic_names(text):
        shell = shell.replace("$", "\\$").replace("`", "\\`")
    # In double quotes a ${NAME} or $(...) the source left to the shell stays an expansion when the script runs.
    return f'"{shell}"'


def plan_summary(spec: RunSpec) -> list[str]:
    """A few comment lines stating the batch plan in units (for the top of written files)."""
    p = spec.plan
    lines = []
    if p.prompts_per_step is not None:
        lines.append(f"{fmt(p.prompts_per_step)} prompts/step × {p.samples_per_prompt} samples/prompt = "
                     f"{fmt(p.samples_per_step)} samples/step")
    if p.samples_per_optimizer_step is not None:
        lines.append(f"{fmt(p.samples_per_optimizer_step)} samples/optimizer step, "
                     f"{fmt(p.optimizer_steps_per_step)} optimizer steps/step ({p.epochs_per_step} epoch(s))")
    if p.micro_batch_per_device is not None:
        lines.append(f"{p.data_parallel_size} data-parallel ranks × {fmt(p.micro_batch_per_device)} samples/micro-batch"
                     f" × {fmt(p.grad_accum_steps)} accumulation steps")
    return lines


def whole_prompts(spec: RunSpec, notes: NoteList, framework: str, key: str) -> int | None:
    """Prompts per step as the whole number every writer's batch key needs (rounded, with a note when it was
    not whole, e.g. from TRL < 0.17 where a round is one micro-step)."""
    prompts = spec.plan.prompts_per_step
    if prompts is None:
        return None
    whole = max(1, round(prompts))
    if Fraction(prompts).denominator != 1:
        notes.warning("batch.not-expressible", f"{fmt(prompts)} prompts per step is not a whole number; {framework} "
                      f"needs one, {whole} is written", target_keys=[key])
    return whole

