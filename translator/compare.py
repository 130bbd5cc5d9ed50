"""Semantic diff of two configs on the canonical model, whatever their frameworks."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from translator.api import Explanation, same_value
from translator.plan import SECTIONS, to_json_number

# section → category, with the exceptions by field below.
CATEGORIES = {
    "plan": "batch", "generation": "batch", "token_budget": "infrastructure", "topology": "infrastructure",
    "run_length": "run-length", "algorithm": "algorithm", "critic": "algorithm", "sampling": "algorithm",
    "optimizer": "algorithm", "lengths": "algorithm", "asynchrony": "algorithm", "references": "other",
    "reward": "algorithm", "data": "other", "checkpointing": "infrastructure", "evaluation": "other",
    "logging": "other", "launch": "infrastructure",
}
FIELD_CATEGORIES = {
    "plan.total_steps": "run-length",
    # How generation runs, not what is generated:
    "generation.logprob_micro_batch_per_device": "infrastructure",
    "generation.rollout_backend": "infrastructure",
    "generation.rollout_mode": "infrastructure",
    "data.max_train_prompts": "run-length",
}


@dataclass
class Side:
    value: Any
    keys: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {"value": to_json_number(self.value), "keys": self.keys}


@dataclass
class Difference:
    field: str  # canonical dotted name, or "extras.<native key>"
    category: str  # batch | algorithm | infrastructure | run-length | other
    a: Side
    b: Side

    def to_dict(self) -> dict[str, Any]:
        return {"field": self.field, "category": self.category, "a": self.a.to_dict(), "b": self.b.to_dict()}


@dataclass
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
    from deepdiff import DeepDiff  # only this command needs it

    left, right = _comparable(a), _comparable(b)
    if a.framework != b.framework:  # native keys without a canonical field only compare within a framework
        left.pop("extras"), right.pop("extras")
    found = DeepDiff(left, right, ignore_numeric_type_changes=True, math_epsilon=1e-12, view="tree")
    fields = set()
    for levels in found.values():
        for level in levels:
            path = level.path(output_format="list")
            if len(path) >= 2:
                fields.add(f"{path[0]}.{path[1]}")
            else:  # a whole section differs (e.g. no extras on one side)
                fields.update(f"{path[0]}.{key}" for side in (left, right) for key in side.get(path[0], {}))
    report = DiffReport(a, b)
    for name in sorted(fields, key=_order):
        value_a, value_b = _lookup(left, name), _lookup(right, name)
        if same_value(value_a, value_b):
            continue
        section = name.split(".", 1)[0]
        category = "other" if section == "extras" else FIELD_CATEGORIES.get(name, CATEGORIES[section])
        report.differences.append(Difference(name, category, Side(value_a, _keys(a, name)),
                                             Side(value_b, _keys(b, name))))
    return report


def _comparable(explanation: Explanation) -> dict[str, Any]:
    document: dict[str, Any] = explanation.spec.sections_dict()
    document["extras"] = {e.key: e.value for e in explanation.spec.extras if e.framework == explanation.framework}
    return document


def _lookup(document: dict[str, Any], name: str) -> Any:
    section, key = name.split(".", 1)
    return document.get(section, {}).get(key)


def _keys(explanation: Explanation, name: str) -> list[str]:
    if name.startswith("extras."):
        key = name.removeprefix("extras.")
        return [key] if any(e.key == key for e in explanation.spec.extras) else []
    derivation = explanation.spec.derivations.get(name)
    return list(derivation.keys) if derivation else []


def _order(name: str) -> tuple[int, str]:
    section = name.split(".", 1)[0]
    order = list(SECTIONS) + ["extras"]
    return order.index(section) if section in order else len(order), name
