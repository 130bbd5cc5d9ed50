"""Rule findings: what a framework would reject (errors) or silently change (warnings), with fixes, and the
search for fixes that the rule modules share."""
from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from translator.plan import to_json_number


@dataclass
class Suggestion:
    """One way to satisfy the rule: native key → new value (all applied together)."""

    changes: dict[str, Any]
    text: str  # what the change keeps, e.g. "keeps 256 prompts per step and 8 GPUs"

    def to_dict(self) -> dict[str, Any]:
        return {"changes": {k: to_json_number(v) for k, v in self.changes.items()}, "text": self.text}


@dataclass
class Finding:
    """A rule the config breaks. Errors carry the framework's own message text."""

    rule: str  # stable id, e.g. "trl.generation-batch-divisible"
    severity: Literal["error", "warning", "skipped"]
    message: str
    keys: list[str]
    values: dict[str, Any]
    suggestions: list[Suggestion] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "severity": self.severity, "message": self.message, "keys": list(self.keys),
                "values": {k: to_json_number(v) for k, v in self.values.items()},
                "suggestions": [s.to_dict() for s in self.suggestions]}


@dataclass
class Skipped(Finding):
    """A rule that could not run for want of an input the config does not state (e.g. TRL's world size): not a
    pass. A rule function returns one (see :func:`needs`) where it would otherwise have to return None."""

    needs: str = ""  # what is missing, e.g. "the world size"
    hint: str = ""  # how to supply it, e.g. "pass --num-processes N"

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "needs": self.needs, "hint": self.hint}


def needs(rule: str, what: str, hint: str) -> Skipped:
    """The rule ``rule`` is skipped: it needs ``what`` (``hint`` says how to give it)."""
    return Skipped(rule, "skipped", f"skipped: {rule} needs {what} ({hint})", [], {}, [], what, hint)  # type: ignore[arg-type]


def needs_world_size(rule: str) -> Skipped:
    return needs(rule, "the world size", "pass --num-processes N")


@dataclass
class CheckReport:
    framework: str
    version: str | None
    source: str
    errors: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)  # rules that could not run, with what they need

    def add(self, findings: Iterable[Finding]) -> None:
        for finding in findings:
            if isinstance(finding, Skipped):
                if all(s.rule != finding.rule for s in self.skipped):
                    self.skipped.append(finding)
            else:
                (self.errors if finding.severity == "error" else self.warnings).append(finding)

    def to_dict(self) -> dict[str, Any]:
        return {"framework": self.framework, "version": self.version, "source": self.source,
                "errors": [f.to_dict() for f in self.errors], "warnings": [f.to_dict() for f in self.warnings],
                "skipped": [s.to_dict() for s in self.skipped]}


def divisors(number: int) -> list[int]:
    """All positive divisors of a whole number, ascending."""
    small = [d for d in range(1, int(number ** 0.5) + 1) if number % d == 0]
    return sorted(set(small + [number // d for d in small]))


def nearest(candidates: Iterable[int], target: float, count: int = 2) -> list[int]:
    """The candidates closest to target (ties: the larger first), at most ``count``."""
    return sorted(candidates, key=lambda c: (abs(c - target), -c))[:count]


def nearest_multiple(value: int, factor: int) -> list[int]:
    """The multiples of factor just below and above value (positive), nearest first."""
    below, above = (value // factor) * factor, -(-value // factor) * factor
    return nearest({m for m in (below, above) if m > 0}, value)


def as_int(value: Any) -> int | None:
    """A whole number from a native value (int, float or numeric text), else None."""
    try:
        number = math.nan if value is None or isinstance(value, bool) else float(value)
    except (TypeError, ValueError):
        return None
    return int(number) if number.is_integer() else None


def finding(view: Any, rule: str, severity: str, message: str, keys: Iterable[str]) -> Finding:
    """A finding whose values are the view's values of its keys."""
    keys = list(dict.fromkeys(keys))
    return Finding(rule, severity, message, keys, {k: view.get(k) for k in keys})  # type: ignore[arg-type]


Changes = dict[str, Any]
Approaches = list[list[Changes]]  # ways to fix a rule (change the group size, the batch, ...), nearest first


def suggest(view: Any, item: Finding, approaches: Approaches, rules: Callable[[Any], list[Finding]],
            metrics: Callable[[Any], dict[str, int]], count: int = 2) -> list[Suggestion]:
    """Up to ``count`` changes after which the config breaks no rule with an error and no longer this one: the
    nearest valid change of each way first, then the next of the first way. Fallback: the first change that at
    least clears this rule, saying what still fails."""
    valid: list[list[tuple[int, Suggestion]]] = []
    partial: list[Suggestion] = []
    seen: list[Changes] = []
    for approach in approaches:
        valid.append([])
        for changes in approach:
            if not changes or changes in seen:
                continue
            seen.append(changes)
            after = view.changed(changes)
            left = rules(after)
            if any(f.rule == item.rule and f.keys == item.keys for f in left):
                continue
            others = sorted({f.rule for f in left if f.severity == "error"})
            text = describe(metrics(view), metrics(after))
            if not others:  # a change that also clears the warnings ranks first within its way
                valid[-1].append((len(left), Suggestion(changes, text)))
            elif not partial:
                partial.append(Suggestion(changes, f"{text}; still fails {', '.join(others)}"))
    ways = [[s for _, s in sorted(way, key=lambda pair: pair[0])] for way in valid]
    ranked = [way[0] for way in ways if way] + [s for way in ways for s in way[1:]]
    return ranked[:count] or partial


def describe(before: dict[str, int], after: dict[str, int]) -> str:
    """What a change keeps and what it moves, in the plan's units."""
    kept = [f"{before[k]} {k}" for k in before if before[k] == after[k]]
    moved = [f"{k} {before[k]} → {after[k]}" for k in before if before[k] != after[k]]
    return "; ".join(filter(None, [f"keeps {', '.join(kept)}" if kept else "", ", ".join(moved)]))


def near(current: int, ok: Callable[[int], bool], count: int = 3, low: int = 1, limit: int = 4096) -> list[int]:
    """The values nearest to current (ties: the larger) for which ok holds, at most ``count``."""
    values = (v for d in range(1, limit) for v in (current + d, current - d) if v >= low)
    return list(itertools.islice((v for v in values if ok(v)), count))


class SettingsAccess:
    """Typed reads of a flat ``values`` mapping of native settings, for the rule modules' views."""

    values: dict[str, Any]
    version: str

    def get(self, key: str) -> Any:
        return self.values.get(key)

    def int(self, key: str) -> int | None:
        return as_int(self.values.get(key))

    def flag(self, key: str) -> bool:
        value = self.values.get(key)
        return value.lower() == "true" if isinstance(value, str) else bool(value)

    def since(self, version: str) -> bool:
        from translator.dialects.base import at_least

        return at_least(self.version, version)
