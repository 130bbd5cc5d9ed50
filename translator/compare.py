"""Semantic comparison of two configs on the canonical model, whatever their frameworks: one implementation for
``rlconf diff`` and for ``translate``'s check of what it wrote (so every difference diff reports has a note)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from translator.dialects import registry
from translator.framework import load
from translator.plan import SECTIONS, RunSpec, field_names, to_json_number
from translator.records import record

if TYPE_CHECKING:
    from translator.api import Explanation

# section → category, with the exceptions by field below.
CATEGORIES = {
    "plan": "batch",
    "generation": "batch",
    "token_budget": "infrastructure",
    "topology": "infrastructure",
    "run_length": "run-length",
    "algorithm": "algorithm",
    "critic": "algorithm",
    "sampling": "algorithm",
    "optimizer": "algorithm",
    "lengths": "algorithm",
    "asynchrony": "algorithm",
    "references": "other",
    "reward": "algorithm",
    "data": "other",
    "checkpointing": "infrastructure",
    "evaluation": "other",
    "logging": "other",
    "launch": "infrastructure",
}
FIELD_CATEGORIES = {
    "plan.total_steps": "run-length",
    # How generation runs, not what is generated:
    "generation.logprob_micro_batch_per_device": "infrastructure",
    "generation.rollout_backend": "infrastructure",
    "generation.rollout_mode": "infrastructure",
    "data.max_train_prompts": "run-length",
}
# A field whose number only means something with its unit field: compared after conversion to one unit.
WARMUP = ("optimizer.warmup_steps", "optimizer.warmup_unit")
RUN_LENGTH = ("plan.total_steps", "run_length.total_optimizer_steps", "run_length.total_samples")
KINDS = ("changed", "added", "removed", "renamed")
# Values that mean the same as "not set" for a field: no parallelism of that kind, the default split, and equal
# mixture weights (every framework samples its sources uniformly without weights).
NEUTRAL = {
    "topology.sequence_parallel_size": 1,
    "topology.tensor_parallel_size": 1,
    "topology.pipeline_parallel_size": 1,
    "topology.context_parallel_size": 1,
    "data.train_split": "train",
    "algorithm.gamma": 1,
}  # no discount: what a framework without one does


def _neutral(name: str, value: Any) -> Any:
    """``value`` as compared: None where it means the same as not set."""
    if name in NEUTRAL and same_value(value, NEUTRAL[name]):
        return None
    if name == "data.train_weights" and isinstance(value, (list, tuple)) and len(set(value)) == 1:
        return None
    if name == "optimizer.lr_schedule" and value == "cosine_with_min_lr":
        return "cosine"  # a cosine decay whose floor is optimizer.min_lr_ratio, compared on its own
    return value


@record
class Side:
    value: Any
    keys: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {"value": to_json_number(self.value), "keys": self.keys}


@record
class Difference:
    """One canonical field (or, within one framework, one native key without a field) whose meaning differs.

    ``kind``: changed (both set, different), added (set in B only), removed (set in A only), renamed (a native key
    a later release of the framework renamed: ``a.keys`` holds A's name, ``b.keys`` B's, the value may be equal)."""

    field: str  # canonical dotted name, or "extras.<native key>" (A's name for a renamed key)
    category: str  # batch | algorithm | infrastructure | run-length | other
    a: Side
    b: Side
    kind: str = "changed"
    reason: str | None = None  # a native key of one framework only: why it has no canonical field (the concordance)

    def to_dict(self) -> dict[str, Any]:
        found = {
            "field": self.field,
            "category": self.category,
            "kind": self.kind,
            "a": self.a.to_dict(),
            "b": self.b.to_dict(),
        }
        return found if self.reason is None else {**found, "reason": self.reason}


@record
class DiffReport:
    a: Explanation
    b: Explanation
    differences: list[Difference] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        def side(e: Explanation) -> dict[str, Any]:
            return {"framework": e.framework, "version": e.version, "source": e.source}

        return {"a": side(self.a), "b": side(self.b), "differences": [d.to_dict() for d in self.differences]}


def diff(a: Explanation, b: Explanation) -> DiffReport:
    """Every canonical field whose values differ, classified, with both sides' native keys."""
    return DiffReport(a, b, differences(a.spec, b.spec, _defaults(a), _defaults(b)))


def _defaults(explanation: Explanation) -> Mapping[str, Any]:
    return explanation.native.defaults if explanation.native is not None else {}


def differences(
    a: RunSpec, b: RunSpec, defaults_a: Mapping[str, Any] | None = None, defaults_b: Mapping[str, Any] | None = None
) -> list[Difference]:
    """The differences of two canonical models: every field of every section (values equal after unit conversion
    are no difference), then, within one framework, the native keys without a canonical field (a key a later
    release renamed is one difference of kind renamed; a key one side leaves at its default compares as that
    default, given the sides' native defaults)."""
    found = []
    for name in _fields():
        value_a, value_b = a.get(name), b.get(name)
        if (
            name == "topology.gpus_per_node"
            and (value_a is None) != (value_b is None)
            and (value_a or value_b) in _per_node(a if value_a is None else b)
        ):
            continue  # stated on one side only, and what the other side's GPUs and nodes give
        if name in WARMUP:
            if name == WARMUP[0] and not same_value(_warmup(a), _warmup(b)):
                found.append(_difference(name, a, b, value_a, value_b))
            continue
        if name in RUN_LENGTH and (value_a is None) != (value_b is None):  # stated in one unit on one side only
            value_a, value_b = (
                value_a if value_a is not None else _run_length(a, name),
                value_b if value_b is not None else _run_length(b, name),
            )
            if same_value(value_a, value_b):
                continue
            value_a, value_b = a.get(name), b.get(name)
        if not same_value(_neutral(name, value_a), _neutral(name, value_b)):
            found.append(_difference(name, a, b, value_a, value_b))
    if a.framework == b.framework:  # native keys without a canonical field only compare within a framework
        found.extend(_extras(a, b, defaults_a or {}, defaults_b or {}))
    else:
        found.extend(_unmodelled(a, b, defaults_a or {}, defaults_b or {}))
    return found


def _unmodelled(
    a: RunSpec, b: RunSpec, defaults_a: Mapping[str, Any], defaults_b: Mapping[str, Any]
) -> list[Difference]:
    """Across frameworks: each native key a side sets (away from its default) that carries training semantics
    rlconf does not model (a `none` group of the concordance: LoRA, extra losses, reward shaping ...) is a
    difference the other side does not have, with the concordance's reason. Infrastructure keys are not."""
    from translator import concordance

    found = []
    for spec, defaults, first in ((a, defaults_a, True), (b, defaults_b, False)):
        if spec.framework not in concordance.names():
            continue
        table = concordance.load(spec.framework)
        for extra in spec.extras:
            key = extra.key.lstrip("+")
            group = table.group_of(key)
            if (
                extra.framework != spec.framework
                or group is None
                or group.kind != "none"
                or _unset(extra.value)
                or (key in defaults and same_value(extra.value, defaults[key]))
            ):
                continue
            here, there = Side(extra.value, [extra.key]), Side(None, [])
            found.append(
                Difference(
                    f"extras.{extra.key}",
                    "other",
                    here if first else there,
                    there if first else here,
                    "removed" if first else "added",
                    f"{group.name}: {group.why}",
                )
            )
    return sorted(found, key=lambda d: d.field)


def _per_node(spec: RunSpec) -> set[Any]:
    """GPUs per node as the topology gives them: the training GPUs, or all of them, over the nodes."""
    t = spec.topology
    nodes = t.nodes or 1
    counts = {t.training_gpus, (t.training_gpus or 0) + (t.rollout_gpus or 0) if t.training_gpus else None}
    return {c // nodes for c in counts if c and c % nodes == 0}


def _fields() -> Iterator[str]:
    for section in SECTIONS:
        for name in field_names(section):
            yield f"{section}.{name}"


def _difference(name: str, a: RunSpec, b: RunSpec, value_a: Any, value_b: Any) -> Difference:
    kind = "added" if _unset(value_a) else "removed" if _unset(value_b) else "changed"
    return Difference(name, category(name), Side(value_a, _keys(a, name)), Side(value_b, _keys(b, name)), kind)


def category(name: str) -> str:
    section = name.split(".", 1)[0]
    return "other" if section == "extras" else FIELD_CATEGORIES.get(name, CATEGORIES.get(section, "other"))


def _unset(value: Any) -> bool:
    return value is None or value is False


def _warmup(spec: RunSpec) -> Any:
    """The warm-up in optimizer steps where the plan says how many there are per rollout step, else as stated."""
    steps, unit = spec.optimizer.warmup_steps, spec.optimizer.warmup_unit
    per_step = spec.plan.optimizer_steps_per_step
    if steps is None:
        return None
    if steps is not None and unit == "steps" and per_step is not None:
        return Fraction(steps) * Fraction(per_step)
    return steps if unit in (None, "optimizer_steps") else (steps, unit)


def _run_length(spec: RunSpec, name: str) -> Any:
    """A run length the plan determines in another unit: steps × optimizer steps (or samples) per step."""
    p = spec.plan
    per_step = {
        "run_length.total_optimizer_steps": p.optimizer_steps_per_step,
        "run_length.total_samples": p.samples_per_step,
    }.get(name)
    if name == "plan.total_steps":
        total, per = spec.run_length.total_optimizer_steps, p.optimizer_steps_per_step
        return Fraction(total) / Fraction(per) if total is not None and per else None
    return Fraction(p.total_steps) * Fraction(per_step) if p.total_steps is not None and per_step is not None else None


def _extras(a: RunSpec, b: RunSpec, defaults_a: Mapping[str, Any], defaults_b: Mapping[str, Any]) -> list[Difference]:
    left = {e.key: e.value for e in a.extras if e.framework == a.framework}
    right = {e.key: e.value for e in b.extras if e.framework == b.framework}
    # A key set on one side only, to the value the other side's version has by default, is no difference.
    for key in list(left.keys() ^ right.keys()):
        if key in left and key in defaults_b and same_value(left[key], defaults_b[key]):
            left.pop(key)
        elif key in right and key in defaults_a and same_value(right[key], defaults_a[key]):
            right.pop(key)
    found, paired = [], set()
    for key in left.keys() - right.keys():
        new = next(
            (k for k in sorted(right.keys() - left.keys()) if k not in paired and is_renamed(a.framework, key, k)), None
        )
        if new is not None:
            paired.add(new)
            found.append(
                Difference(f"extras.{key}", "other", Side(left[key], [key]), Side(right[new], [new]), "renamed")
            )
    renamed_from = {d.field.removeprefix("extras.") for d in found}
    for key in sorted(left.keys() | right.keys()):
        if key in renamed_from or key in paired:
            continue
        value_a, value_b = left.get(key), right.get(key)
        if not same_value(value_a, value_b):
            kind = "added" if key not in left else "removed" if key not in right else "changed"
            found.append(
                Difference(
                    f"extras.{key}",
                    "other",
                    Side(value_a, [key] if key in left else []),
                    Side(value_b, [key] if key in right else []),
                    kind,
                )
            )
    return sorted(found, key=lambda d: d.field)


def is_renamed(framework: str, old: str, new: str) -> bool:
    """Whether a release of ``framework`` renamed native key ``old`` to ``new`` (either direction: A may be the
    newer config). The renames are the dialects' own tables."""
    return (
        (old, new) in _renames(framework)
        or (new, old) in _renames(framework)
        or any(_moved(old, new, p, q) or _moved(new, old, p, q) for p, q in _prefix_renames(framework))
    )


def _moved(old: str, new: str, prefix_old: str, prefix_new: str) -> bool:
    return old.startswith(prefix_old) and new == prefix_new + old[len(prefix_old) :]


_RENAME_CACHE: dict[str, set[tuple[str, str]]] = {}


def _renames(framework: str) -> set[tuple[str, str]]:
    if framework not in _RENAME_CACHE:
        entry = registry.lookup(framework)
        _RENAME_CACHE[framework] = set(load(entry.renames)()) if entry and entry.renames else set()
    return _RENAME_CACHE[framework]


def _prefix_renames(framework: str) -> list[tuple[str, str]]:
    entry = registry.lookup(framework)
    return list(load(entry.moved_sections)()) if entry and entry.moved_sections else []


_ENV = re.compile(r"\$\{oc\.env:([A-Za-z_][A-Za-z0-9_]*)\}")


def same_value(a: Any, b: Any) -> bool:
    """Equal as canonical values: numbers compared exactly (int 2 = 2.0), 'off' equal to 'not set'."""
    if a in (None, False) and b in (None, False):  # "off" and "not set" mean the same for switches
        return True
    if _is_number(a) and _is_number(b):
        return abs(Fraction(a) - Fraction(b)) <= Fraction(1, 10**9) * max(Fraction(1), abs(Fraction(a)))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=False))
    if isinstance(a, str) and isinstance(b, str):  # ${oc.env:HOME} in a YAML config = ${HOME} left to the shell
        return _ENV.sub(r"${\1}", a) == _ENV.sub(r"${\1}", b)
    try:
        return bool(a == b)
    except Exception:
        return False


def _is_number(value: Any) -> bool:
    import math

    return (
        isinstance(value, (int, float, Fraction))
        and not isinstance(value, bool)
        and not (isinstance(value, float) and not math.isfinite(value))
    )


def _keys(spec: RunSpec, name: str) -> list[str]:
    derivation = spec.derivations.get(name)
    return list(derivation.keys) if derivation else []
