"""The tables of the frameworks rlconf does not read yet (docs/frameworks/data/*.yaml) and their pending fixtures.

A table must be loadable by a dialect: every native key names a canonical field of translator/plan.py (or none),
a unit, defaults over ranges of the table's own releases, and a source; every check an exact message and a
source. A pending fixture's hand-derived plan must agree with itself (the plan's identities, docs/plan.md) and, where
the framework itself stops or rewrites the run, quote a message of the table's checks. Nothing here runs rlconf on
the fixtures: that starts when a dialect registers the framework and the fixture moves from PENDING to CASES.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import PENDING, ROOT, Case, case_id
from translator.plan import PLAN_FIELDS, SECTIONS, field_names

DATA = ROOT / "docs" / "frameworks" / "data"
TABLES: dict[str, dict[str, Any]] = {p.stem: yaml.safe_load(p.read_text()) for p in sorted(DATA.glob("*.yaml"))}
CANONICAL = {f"{section}.{name}" for section in SECTIONS for name in field_names(section)}
WHEN = {"start-up", "first-step", "async"}
OUTCOMES = {"accepted", "rejected", "rewritten", "unknown"}
# A citation: a file (with a line or not) at a release, or a
# Megatron-LM file (slime reads whichever copy its image has).
CITATION = re.compile(r"[\w./-]+\.(?:py|yaml|sh)(?::[\d,-]+)?@[\w.+-]+|Megatron-LM ")


def release_range(table: dict[str, Any], bounds: object) -> list[str]:
    """The releases a `[first, last]` range covers (ValueError when it names no release of the table)."""
    releases = [str(r) for r in table["releases"]]
    assert isinstance(bounds, list) and len(bounds) == 2, bounds
    first, last = (releases.index(str(b)) for b in bounds)
    assert first <= last, bounds
    return releases[first : last + 1]


def template_regex(message: str) -> re.Pattern[str]:
    """A check's message with its `{fields}` as wildcards: the text the framework prints, whatever the values."""
    parts = re.split(r"\{[^{}]*\}", message)
    return re.compile(".+?".join(re.escape(p) for p in parts), re.DOTALL)


@pytest.mark.parametrize("framework", sorted(TABLES))
def test_table_is_complete(framework: str) -> None:
    table = TABLES[framework]
    assert table["framework"] == framework
    assert (ROOT / table["doc"]).exists()
    keys = [k["key"] for k in table["keys"]]
    assert len(keys) == len(set(keys)), "a native key is listed once"
    for entry in table["keys"]:
        assert entry["canonical"] is None or entry["canonical"] in CANONICAL, entry["key"]
        assert isinstance(entry["unit"], str) and entry["unit"], entry["key"]
        assert CITATION.search(entry["source"]), entry["key"]
        for default in entry["default"]:
            release_range(table, default["releases"])
    ids = [c["id"] for c in table["checks"]]
    assert len(ids) == len(set(ids))
    for check in table["checks"]:
        assert check["when"] in WHEN, check["id"]
        release_range(table, check["releases"])
        assert isinstance(check["message"], str) and CITATION.search(check["source"]), check["id"]
    assert set(table["plan"]) <= set(PLAN_FIELDS) | {"generation_batch_size", "training_gpus"}


def test_the_batch_keys_of_each_table_cover_the_plan() -> None:
    # Every table names the native key of the group size and of the prompts (or, for Unsloth on TRL, the
    # per-device batch from which TRL derives them).
    for framework, table in TABLES.items():
        canonical = {k["canonical"] for k in table["keys"]}
        assert "plan.samples_per_prompt" in canonical, framework
        assert canonical & {"plan.prompts_per_step", "plan.micro_batch_per_device"}, framework


def consistent(plan: dict[str, Any]) -> list[str]:
    """The plan identities of docs/plan.md that a hand-derived plan breaks (only where all their terms are known)."""

    def known(*names: str) -> bool:
        return all(plan[n] is not None for n in names)

    broken = []
    if known("prompts_per_step", "samples_per_prompt", "samples_per_step") and not math.isclose(
        plan["prompts_per_step"] * plan["samples_per_prompt"], plan["samples_per_step"]
    ):
        broken.append("samples_per_step = prompts_per_step × samples_per_prompt")
    if known(
        "samples_per_step", "samples_per_optimizer_step", "epochs_per_step", "optimizer_steps_per_step"
    ) and not math.isclose(
        plan["epochs_per_step"] * plan["samples_per_step"] / plan["samples_per_optimizer_step"],
        plan["optimizer_steps_per_step"],
    ):
        broken.append("optimizer_steps_per_step = epochs × samples_per_step / samples_per_optimizer_step")
    if known(
        "samples_per_optimizer_step", "data_parallel_size", "micro_batch_per_device", "grad_accum_steps"
    ) and not math.isclose(
        plan["samples_per_optimizer_step"],
        plan["data_parallel_size"] * plan["micro_batch_per_device"] * plan["grad_accum_steps"],
    ):
        broken.append("samples_per_optimizer_step = data_parallel_size × micro_batch_per_device × grad_accum_steps")
    return broken


def test_consistency_catches_a_wrong_plan() -> None:
    # 64 prompts × 8 = 512 samples, 128 per update → 4 updates; 128 = DP 4 × micro 4 × GA 8. Each identity
    # is broken once on purpose.
    good = {
        "prompts_per_step": 64,
        "samples_per_prompt": 8,
        "samples_per_step": 512,
        "samples_per_optimizer_step": 128,
        "optimizer_steps_per_step": 4,
        "epochs_per_step": 1,
        "data_parallel_size": 4,
        "micro_batch_per_device": 4,
        "grad_accum_steps": 8,
        "total_steps": None,
    }
    assert consistent(good) == []
    assert len(consistent({**good, "samples_per_step": 256})) == 2  # breaks the first two identities
    assert len(consistent({**good, "optimizer_steps_per_step": 2})) == 1
    assert len(consistent({**good, "grad_accum_steps": 4})) == 1
    assert consistent({**good, "data_parallel_size": None, "grad_accum_steps": 4}) == []  # unknown: nothing to test


@pytest.fixture(params=PENDING, ids=case_id)
def pending(request: pytest.FixtureRequest) -> Case:
    return request.param


def test_pending_fixture_agrees_with_itself_and_its_table(pending: Case) -> None:
    table = TABLES[pending.framework]
    expected = pending.expected
    assert pending.path.exists(), pending.path
    version = str(expected["version"])
    assert version in [str(r) for r in table["releases"]]
    assert pending.options["from"] == f"{pending.framework}@{version}"
    plan = expected["plan"]
    assert list(plan) == PLAN_FIELDS, "an expectation states all ten plan names, in order"
    assert consistent(plan) == [], consistent(plan)
    assert set(expected.get("fields") or {}) <= CANONICAL
    check = expected["framework_check"]
    assert check["outcome"] in OUTCOMES
    if check["outcome"] == "unknown":
        assert any(plan[name] is None for name in ("prompts_per_step", "data_parallel_size", "micro_batch_per_device"))
        assert "shell.unset-variables" in (expected.get("notes") or [])
    if check["outcome"] in ("rejected", "rewritten"):
        rules = {c["id"]: c for c in table["checks"]}
        if check["check"] == "rewrite":
            rules = {"rewrite": next(r for r in table["rewrite"] if version in release_range(table, r["releases"]))}
        rule = rules[check["check"]]
        assert version in release_range(table, rule["releases"]), (check["check"], version)
        assert template_regex(rule["message"]).fullmatch(check["message"]), check["message"]
        assert check["source"].split("@")[0] in rule["source"]


@pytest.mark.parametrize("framework", sorted({c.framework for c in PENDING}))
def test_every_pending_file_is_used(framework: str) -> None:
    used = {c.path.resolve() for c in PENDING if c.framework == framework}
    used_dirs = {p.parent for p in used}
    for path in (ROOT / "fixtures" / framework).iterdir():
        if path.is_dir():
            assert path.resolve() in used_dirs, f"{path.name}: no expectation enters this directory"
        elif not path.name.endswith(".expect.yaml"):
            assert path.resolve() in used, f"{path.name} has no .expect.yaml"


def test_each_pending_framework_has_the_cases_a_dialect_needs() -> None:
    # At least four fixtures (two for Unsloth on TRL); one the framework itself rejects, and one (Unsloth: the
    # rewrite) whose plan depends on a value the script never sets.
    by_framework: dict[str, list[Case]] = {}
    for case in PENDING:
        by_framework.setdefault(case.framework, []).append(case)
    assert set(by_framework) <= {"slime", "miles", "skyrl", "nemo-rl", "unsloth"}
    for framework, cases in by_framework.items():
        outcomes = {c.expected["framework_check"]["outcome"] for c in cases}
        assert len(cases) >= (2 if framework == "unsloth" else 4), framework
        assert {"rejected", "unknown"} <= outcomes, (framework, outcomes)


def test_pending_inputs_stay_inside_the_fixtures() -> None:
    for case in PENDING:
        assert Path(case.path).resolve().is_relative_to((ROOT / "fixtures" / case.framework).resolve())
