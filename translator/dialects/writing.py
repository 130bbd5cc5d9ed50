"""Helpers writers share: plan comments for file headers, values quoted for launch scripts."""
from __future__ import annotations

import re
import shlex
from typing import Any

from translator.dialects.base import fmt
from translator.plan import RunSpec


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
        inner = ",".join(f"{k}:{hydra_value(v)}" for k, v in value.items())
        return shlex.quote("{" + inner + "}")
    text = str(value)
    return text if re.fullmatch(r"[\w@%+,./:=-]+", text) else shlex.quote(text)


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
