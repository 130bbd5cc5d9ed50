"""Rule findings: what a framework would reject (errors) or silently change (warnings), with fixes, and the
search for fixes that the rule modules share."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import field
from typing import Any, Literal

from translator.plan import to_json_number
from translator.records import record


@record
class Suggestion:
    """One way to satisfy the rule: native key → new value (all applied together), and what it does to the
    quantities people plan with: ``keeps`` (metric → value) and ``changes_plan`` (metric → [before, after])."""

    changes: dict[str, Any]
    text: str  # what the change keeps, e.g. "keeps 256 prompts per step and 8 GPUs"
    keeps: dict[str, Any] = field(default_factory=dict)
    changes_plan: dict[str, list[Any]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "changes": {k: to_json_number(v) for k, v in self.changes.items()},
            "text": self.text,
            "keeps": {k: to_json_number(v) for k, v in self.keeps.items()},
            "changes_plan": {k: [to_json_number(v) for v in pair] for k, pair in self.changes_plan.items()},
        }


# What a fix should keep, most important first: the update size and the group size define the algorithm; the
# world size and the generation round are easier to change. Metric names are plan field names.
PREFERRED = ("samples_per_optimizer_step", "samples_per_prompt")


def metric_id(name: str) -> str:
    """A metric's plan-style name: "samples per optimizer step" → "samples_per_optimizer_step"."""
    return name.strip().lower().replace(" ", "_").replace("-", "_")


def effects(before: dict[str, Any], after: dict[str, Any]) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """(kept, changed) among the metrics both sides know: name → value, name → [before, after]."""
    known = [k for k in before if before[k] is not None and after.get(k) is not None]
    kept = {metric_id(k): before[k] for k in known if before[k] == after[k]}
    changed = {metric_id(k): [before[k], after[k]] for k in known if before[k] != after[k]}
    return kept, changed


def preference(suggestion: Suggestion) -> tuple[int, ...]:
    """Sort key: fixes that keep the PREFERRED metrics first (in their order of importance)."""
    kept = set(suggestion.keeps)
    return tuple(0 if name in kept else 1 for name in PREFERRED)


# Rules whose fix is the key the author meant (a typo), whatever it does to the batch: never re-ranked.
SPELLING_RULES = ("unknown-key", "unknown-config-key", "unknown-cli-argument", "unknown-flag")


def ranked(suggestions: list[Suggestion], rule: str = "") -> list[Suggestion]:
    """Fixes that keep the PREFERRED metrics first; the rule's own order within the same preference."""
    if rule.rpartition(".")[2] in SPELLING_RULES:
        return suggestions
    return sorted(suggestions, key=preference)


def split_product(total: int, current: int, limit: int = 64) -> list[tuple[int, int]]:
    """The ways to write ``total`` as a × b (whole numbers), a nearest ``current`` first (ties: the larger), a !=
    current; at most ``limit``: e.g. per-device batch × accumulation steps that keep their product."""
    if total <= 0 or total > 10**12:
        return []
    pairs = [(a, total // a) for a in divisors(total) if a != current]
    return sorted(pairs, key=lambda pair: (abs(pair[0] - current), -pair[0]))[:limit]


def combined(approaches: Approaches, per_way: int = 4) -> list[Changes]:
    """Pairs of changes from two different ways with no key in common (the first ``per_way`` of each): a fix may
    need two knobs at once, e.g. the group size and the batch."""
    heads = [[c for c in way if c][:per_way] for way in approaches]
    pairs = []
    for i, first in enumerate(heads):
        for second in heads[i + 1 :]:
            pairs += [{**a, **b} for a in first for b in second if not set(a) & set(b)]
    return pairs


@record
class Finding:
    """A rule the config breaks. Errors carry the framework's own message text."""

    rule: str  # stable id, e.g. "trl.generation-batch-divisible"
    severity: Literal["error", "warning", "skipped"]
    message: str
    keys: list[str]
    values: dict[str, Any]
    suggestions: list[Suggestion] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "severity": self.severity,
            "message": self.message,
            "keys": list(self.keys),
            "values": {k: to_json_number(v) for k, v in self.values.items()},
            "suggestions": [s.to_dict() for s in self.suggestions],
        }


@record
class Skipped(Finding):
    """A rule that could not run for want of an input the config does not state (e.g. a world size only the launcher
    states): not a pass. A rule function returns one (see :func:`needs`) where it would otherwise have to return
    None."""

    needs: str = ""  # what is missing, e.g. "the world size"
    hint: str = ""  # how to supply it, e.g. "pass --num-processes N"

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "needs": self.needs, "hint": self.hint}


def needs(rule: str, what: str, hint: str) -> Skipped:
    """The rule ``rule`` is skipped: it needs ``what`` (``hint`` says how to give it)."""
    return Skipped(rule, "skipped", f"skipped: {rule} needs {what} ({hint})", [], {}, [], what, hint)


def standing_in(found: Finding) -> Skipped | None:
    """The skipped rule a finding is when one of its values depends on a value the config does not give (``${BS}``
    from an unset variable, a value the launched code computes): its arithmetic judged a stand-in, not the run."""
    from translator.sources.shell import symbolic_names

    if isinstance(found, Skipped):
        return None
    for key, value in found.values.items():
        names = symbolic_names(value) if isinstance(value, str) else []
        if names:
            shown = ", ".join(n if n.startswith(("$(", "`")) else f"${n}" for n in names)
            settable = " ".join(f"--env {n}=VALUE" for n in names if not n.startswith(("$(", "`")))
            return needs(found.rule, f"the value of {key} (it depends on {shown})", f"pass {settable or 'it'}")
    return None


def needs_world_size(rule: str) -> Skipped:
    return needs(rule, "the world size", "pass --num-processes N")


@record
class CheckReport:
    framework: str
    version: str | None
    source: str
    errors: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)  # rules that could not run, with what they need
    suppressed: list[Any] = field(default_factory=list)  # rules.Suppressed: silenced by a comment in the config

    def add(self, findings: Iterable[Finding]) -> None:
        for finding in findings:
            finding = standing_in(finding) or finding
            if isinstance(finding, Skipped):
                if all(s.rule != finding.rule for s in self.skipped):
                    self.skipped.append(finding)
            else:
                (self.errors if finding.severity == "error" else self.warnings).append(finding)

    @property
    def failed(self) -> bool:
        """Whether `rlconf check` exits 1 (without --strict): the framework would reject the config. A property, so
        that ``if report.failed:`` means what it says."""
        return self.fails()

    def fails(self, strict: bool = False) -> bool:
        """Whether `rlconf check` exits 1: the framework would reject the config; with --strict also a warning or
        a rule skipped for want of an input."""
        return bool(self.errors or (strict and (self.warnings or self.skipped)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "framework": self.framework,
            "version": self.version,
            "source": self.source,
            "errors": [f.to_dict() for f in self.errors],
            "warnings": [f.to_dict() for f in self.warnings],
            "skipped": [s.to_dict() for s in self.skipped],
            "suppressed": [s.to_dict() for s in self.suppressed],
        }


DIVISOR_SEARCH = 100_000  # trial divisors tried at most: every divisor of a number up to 10**10 is found


def divisors(number: int) -> list[int]:
    """All positive divisors of a whole number, ascending (none for a number below 1). Past DIVISOR_SEARCH² (10**10,
    beyond any real batch) only the divisors up to DIVISOR_SEARCH and their cofactors: the search stays bounded
    (trial division to √n would take minutes for the 2**53-sized values a hostile config can state)."""
    if number < 1:
        return []
    small = [d for d in range(1, min(math.isqrt(number), DIVISOR_SEARCH) + 1) if number % d == 0]
    return sorted(set(small + [number // d for d in small]))


def largest_divisor(number: int, at_most: int) -> int | None:
    """The largest divisor of ``number`` that is ≤ ``at_most`` (None if there is none), from divisors()."""
    return max((d for d in divisors(number) if d <= at_most), default=None)


def nearest(candidates: Iterable[int], target: float, count: int = 2) -> list[int]:
    """The candidates closest to target (ties: the larger first), at most ``count``."""
    return sorted(candidates, key=lambda c: (abs(c - target), -c))[:count]


def nearest_multiple(value: int, factor: int) -> list[int]:
    """The multiples of factor just below and above value (positive), nearest first."""
    below, above = (value // factor) * factor, -(-value // factor) * factor
    return nearest({m for m in (below, above) if m > 0}, value)


def as_int(value: Any) -> int | None:
    """A whole number from a native value (int, float or numeric text), else None."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value  # whole already, however large (float() would overflow)
    try:
        number = math.nan if value is None or isinstance(value, bool) else float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return int(number) if number.is_integer() else None


def finding(view: Any, rule: str, severity: str, message: str, keys: Iterable[str]) -> Finding:
    """A finding whose values are the view's values of its keys."""
    keys = list(dict.fromkeys(keys))
    return Finding(rule, severity, message, keys, {k: view.get(k) for k in keys})  # type: ignore[arg-type]


Changes = dict[str, Any]
Approaches = list[list[Changes]]  # ways to fix a rule (change the group size, the batch, ...), nearest first


def suggest(
    view: Any,
    item: Finding,
    approaches: Approaches,
    rules: Callable[[Any], list[Finding]],
    metrics: Callable[[Any], dict[str, int]],
    count: int = 2,
) -> list[Suggestion]:
    """Up to ``count`` changes after which the config breaks no rule with an error and no longer this one: the
    nearest valid change of each way first, then the next of the first way. Fallback: the first change that at
    least clears this rule, saying what still fails."""
    valid: list[list[tuple[int, Suggestion]]] = []
    partial: list[Suggestion] = []
    seen: list[Changes] = []
    ideal = (0,) * len(PREFERRED)
    for approach in [*approaches, None]:
        if approach is None:  # two knobs at once, only when no single one keeps what matters most
            if any(preference(s) == ideal for way in valid for _, s in way):
                break
            approach = combined(approaches)
        valid.append([])
        for changes in approach:
            changes = {k: v for k, v in changes.items() if not _unchanged(view, k, v)}  # what it really changes
            if not changes or changes in seen:
                continue
            seen.append(changes)
            after = view.changed(changes)
            left = rules(after)
            if any(f.rule == item.rule and f.keys == item.keys for f in left):
                continue
            others = sorted({f.rule for f in left if f.severity == "error"})
            before, now = metrics(view), metrics(after)
            text = describe(before, now)
            kept, moved = effects(before, now)
            if not others:  # a change that also clears the warnings ranks first within its way
                warnings = len([f for f in left if f.severity == "warning"])
                valid[-1].append((warnings, Suggestion(changes, text, kept, moved)))
            elif not partial:
                partial.append(Suggestion(changes, f"{text}; still fails {', '.join(others)}", kept, moved))
    ways = [[s for _, s in sorted(way, key=lambda pair: pair[0])] for way in valid]
    # The best of each way first (so the fixes differ in kind), then the others; by preference within each tier.
    order = ranked([way[0] for way in ways if way], item.rule) + ranked([s for way in ways for s in way[1:]], item.rule)
    return order[:count] or partial


def _unchanged(view: Any, key: str, value: Any) -> bool:
    current = view.get(key)
    if value is None or current is None:
        return value is None and current is None
    number, now = as_int(value), as_int(current)
    return number == now if number is not None and now is not None else value == current


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

    def __init__(self, values: Mapping[str, Any], version: str) -> None:
        self.values, self.version = dict(values), version

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
