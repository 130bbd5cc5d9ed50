"""How sure rlconf is of each plan quantity: read, default, derived, assumed or unknown, with why.

A quantity is *assumed* when its value rests on something neither the config nor the code it runs states: the
default of a version that was inferred from the keys, or a fork whose own code was read with upstream semantics.
It is *unknown* (no value) when nothing determines it: a variable the script never sets, the world size, the dataset
size, a token budget, a fork's code that forms batches differently. ``translate --strict`` exits 1 when an assumed
quantity reaches the written plan.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from translator.notes import Note
from translator.patterns import lazy
from translator.plan import PLAN_FIELDS, RunSpec
from translator.records import record

Level = Literal["read", "default", "derived", "assumed", "unknown"]

_READER_UNKNOWN = lazy(r"(?:unknown: )?(.*?)(?: \((pass .*)\))?", re.S)
# Notes that say the plan was read with semantics the launch's own code was not shown to have.
UNVERIFIED_CODE_NOTES = ("framework.fork",)
# Notes that say the fork's own code was compared with upstream's and forms batches the same way.
VERIFIED_CODE_NOTES = ("framework.fork-verified",)


@record
class Certainty:
    """One plan quantity's certainty. ``why`` says what it rests on; ``hint`` what would settle it."""

    level: Level
    why: str
    hint: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"level": self.level, "why": self.why, "hint": self.hint}


def plan_certainty(
    spec: RunSpec, notes: Iterable[Note], other_versions: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, Certainty]:
    """Every plan quantity's certainty, by plan field name. ``other_versions``: where the version was inferred from
    the keys, or the project's statements leave several releases, the plan as each other release would read it
    (release → plan field → value)."""
    notes = list(notes)
    fork = next((n for n in notes if n.code in UNVERIFIED_CODE_NOTES), None)
    if any(n.code in VERIFIED_CODE_NOTES for n in notes):
        fork = None  # the fork's trainer forms batches with upstream's statements only (forkbatch.py)
    inferred = next((n for n in notes if n.code == "version.assumed"), None)
    # a count derived from an assumed world size (a script taken as one process) is assumed too
    world = spec.derivations.get("plan.data_parallel_size")
    assumed_keys = set(world.keys) if world is not None and world.origin == "assumed" else set()
    out = {}
    for name in PLAN_FIELDS:
        value = getattr(spec.plan, name)
        derivation = spec.derivations.get(f"plan.{name}")
        if value is None:
            out[name] = _unknown(
                name, spec, derivation.text if derivation is not None and derivation.origin == "unknown" else None
            )
            continue
        origin = derivation.origin if derivation is not None else "derived"
        why = derivation.text if derivation is not None else "derived"
        others = {v: plan[name] for v, plan in (other_versions or {}).items() if plan.get(name) != value}
        rests_on_assumption = derivation is not None and bool(assumed_keys & set(derivation.keys))
        if origin == "assumed" or (origin == "derived" and rests_on_assumption):
            out[name] = Certainty("assumed", why)
        elif others:
            differ = ", ".join(f"{_shown(v)} as {version}" for version, v in others.items())
            basis = "a release inferred from the keys" if inferred is not None else "one the project's statements allow"
            out[name] = Certainty(
                "assumed",
                f"{why}, as {spec.framework} {spec.version}, {basis}; {differ}",
                f"pass --from {spec.framework}@VERSION (the release it runs)",
            )
        elif fork is not None and name != "data_parallel_size":
            # The data-parallel size is the launch's GPU arithmetic, not the trainer's: a fork keeps it.
            out[name] = Certainty(
                "assumed",
                f"{why}{UPSTREAM}{fork.message}",
                "check the fork's trainer, or pass --from with the release it follows",
            )
        else:
            level: Level = "read" if origin == "config" else "default" if origin == "default" else "derived"
            out[name] = Certainty(level, why)
    return out


def _unknown(name: str, spec: RunSpec, because_variable: str | None) -> Certainty:
    if because_variable is not None:  # the reader's words: "unknown: depends on $X (pass --env X=...)"
        found = _READER_UNKNOWN.fullmatch(because_variable)
        return Certainty("unknown", found[1], found[2]) if found else Certainty("unknown", because_variable)
    if name in ("micro_batch_per_device", "grad_accum_steps") and spec.token_budget.dynamic_batching:
        return Certainty("unknown", "micro-batches are packed by a token budget")
    if name == "total_steps":
        return Certainty("unknown", "depends on the dataset size", "pass --dataset-size PROMPTS")
    if spec.plan.data_parallel_size is None:
        return Certainty("unknown", "the world size is not stated", "pass --num-processes N")
    return Certainty("unknown", "the config does not determine it")


UPSTREAM = "; read with upstream semantics: "  # joins a quantity's own derivation to the fork it rests on


def basis(why: str) -> tuple[str, str]:
    """(the quantity's own derivation, the assumption it shares with others: the fork read with upstream
    semantics, or "")."""
    own, _, shared = why.partition(UPSTREAM)
    return own, shared


def assumed(certainty: dict[str, Certainty]) -> list[str]:
    """The plan quantities that rest on an assumption."""
    return [name for name, c in certainty.items() if c.level == "assumed"]


def _shown(value: Any) -> str:
    from translator.dialects.base import fmt

    return "unknown" if value is None else fmt(value)
