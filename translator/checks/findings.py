"""Rule findings: what a framework would reject (errors) or silently change (warnings), with fixes."""
from __future__ import annotations

from collections.abc import Iterable
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
    severity: Literal["error", "warning"]
    message: str
    keys: list[str]
    values: dict[str, Any]
    suggestions: list[Suggestion] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "severity": self.severity, "message": self.message, "keys": list(self.keys),
                "values": {k: to_json_number(v) for k, v in self.values.items()},
                "suggestions": [s.to_dict() for s in self.suggestions]}


@dataclass
class CheckReport:
    framework: str
    version: str | None
    source: str
    errors: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)

    def add(self, findings: Iterable[Finding]) -> None:
        for finding in findings:
            (self.errors if finding.severity == "error" else self.warnings).append(finding)

    def to_dict(self) -> dict[str, Any]:
        return {"framework": self.framework, "version": self.version, "source": self.source,
                "errors": [f.to_dict() for f in self.errors], "warnings": [f.to_dict() for f in self.warnings]}


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
