"""Every fixture explains to the plan worked out by hand in its .expect.yaml, and the JSON fits the schema."""
from __future__ import annotations

import json
import math
from pathlib import Path

import jsonschema
import pytest

import translator
from translator.plan import PLAN_FIELDS
from tests.conftest import CASES, ROOT, Case

SCHEMA = json.loads((ROOT / "schemas" / "plan.schema.json").read_text())


def close(actual: object, expected: object) -> bool:
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)) and not isinstance(expected, bool):
        return math.isclose(actual, expected, rel_tol=1e-9)
    return actual == expected


def test_there_are_enough_fixtures() -> None:
    per_framework = {fw: sum(c.framework == fw for c in CASES) for fw in ("verl", "trl")}
    assert per_framework["verl"] >= 8 and per_framework["trl"] >= 6, per_framework


def test_fixture_explains_to_its_expected_plan(case: Case) -> None:
    explanation = translator.explain(case.path, **case.load_kwargs())
    plan = explanation.plan
    assert set(case.expected["plan"]) == set(PLAN_FIELDS), "an expectation must state all ten plan names"
    wrong = {k: (plan[k], v) for k, v in case.expected["plan"].items() if not close(plan[k], v)}
    assert not wrong, f"(actual, expected): {wrong}"
    assert explanation.version == str(case.expected["version"])
    for dotted, expected in (case.expected.get("fields") or {}).items():
        assert close(explanation.spec.get(dotted), expected), dotted
    codes = {note.code for note in explanation.notes}
    assert set(case.expected.get("notes") or []) <= codes


def test_fixture_json_matches_the_schema(case: Case) -> None:
    document = translator.explain(case.path, **case.load_kwargs()).to_dict()
    jsonschema.validate(json.loads(json.dumps(document, default=str)), SCHEMA)


def test_every_fixture_file_is_used() -> None:
    used = {c.path.resolve() for c in CASES}
    for path in Path(ROOT / "fixtures" / "verl").glob("*"):
        if path.suffix in (".sh", ".yaml") and not path.name.endswith(".expect.yaml"):
            assert path.resolve() in used, f"{path.name} has no .expect.yaml"


@pytest.mark.parametrize("framework", ["verl", "trl"])
def test_fixtures_are_detected_without_from(framework: str) -> None:
    for case in CASES:
        if case.framework == framework:
            kwargs = case.load_kwargs()
            version = (kwargs.pop("framework") or "").partition("@")[2]
            explanation = translator.load(case.path, **kwargs)
            assert explanation.framework == framework
            if not version:
                assert explanation.version == str(case.expected["version"])
