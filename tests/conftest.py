"""Test helpers: the fixtures with their hand-derived expectations."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from translator.api import Translation
from translator.checks.findings import CheckReport, Finding
from translator.plan import PLAN_FIELDS
from translator.sources.files import Source

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


@dataclass
class Case:
    """One fixture and what `rlconf explain` must report for it (see fixtures/README.md)."""

    name: str
    framework: str
    path: Path
    options: dict[str, Any]
    expected: dict[str, Any]

    def load_kwargs(self) -> dict[str, Any]:
        return {
            "framework": self.options.get("from"),
            "env": {k: str(v) for k, v in (self.options.get("env") or {}).items()},
            "num_processes": self.options.get("num_processes"),
        }


def fixture_cases() -> list[Case]:
    cases = []
    for expect in sorted(FIXTURES.glob("*/*.expect.yaml")):
        data = yaml.safe_load(expect.read_text())
        cases.append(
            Case(
                expect.name.removesuffix(".expect.yaml"),
                expect.parent.name,
                expect.parent / data["input"],
                data.get("options") or {},
                data,
            )
        )
    return cases


def readable_frameworks() -> set[str]:
    """The frameworks rlconf has a dialect for."""
    from translator import dialects

    return set(dialects.names())


# Fixtures of a framework without a dialect yet (docs/frameworks/data/README.md) wait in PENDING: their
# expectations are checked for consistency (tests/test_framework_data.py), not against rlconf's output.
ALL_CASES = fixture_cases()
CASES = [c for c in ALL_CASES if c.framework in readable_frameworks()]
PENDING = [c for c in ALL_CASES if c.framework not in readable_frameworks()]


def translatable(case: Case) -> bool:
    """A fixture with a plan to write: its world size and group size are known (a fork's own batching leaves the
    group unknown, and translate refuses a config without one)."""
    return bool(case.expected["plan"]["data_parallel_size"]) and has_group(case)


# Fixtures whose prompts or samples per step depend on a value the config does not give (the launched code computes
# it when it runs, docs/launch-scripts.md "Values the launched code sets after parsing"; or a variable the script
# never sets): translate refuses them, naming it (tests/test_python_config.py).
COMPUTED_AT_RUN = frozenset(
    {"verl/fork_entry_sets", "easyr1/fork_entry_sets", "trl/script_sets_args", "miles/unset_rollout_batch"}
)


def has_group(case: Case) -> bool:
    """The fixture's group size is known (a fork's own batching may leave it unknown: nothing to write), and no
    count depends on a value its code computes when it runs."""
    return case.expected["plan"]["samples_per_prompt"] is not None and case_id(case) not in COMPUTED_AT_RUN


def write_project(root: Path, files: dict[str, str]) -> Path:
    """A project at ``root`` (its top marked by .git) holding ``files`` (path → text); returns ``root``."""
    (root / ".git").mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def case_id(case: Case) -> str:
    return f"{case.framework}/{case.name}"


def differing(a: dict[str, Any], b: dict[str, Any]) -> set[str]:
    """The plan fields whose values differ."""
    return {name for name in PLAN_FIELDS if a[name] != b[name]}


def noted(translation: Translation) -> set[str]:
    """The plan fields a translation noted as not preserved."""
    return {
        key.removeprefix("plan.") for n in translation.notes if n.code == "plan.not-preserved" for key in n.source_keys
    }


def read_back(translation: Translation) -> Source:
    """The written files as a source, entered through launch.sh (which names its siblings)."""
    main = "launch.sh" if "launch.sh" in translation.files else next(iter(translation.files))
    return Source(translation.files[main], main, None, translation.files)


def findings_of(report: CheckReport, rule: str) -> list[Finding]:
    """The findings of one rule in a check report."""
    return [f for f in report.errors + report.warnings if f.rule == rule]


def expect_finding(report: CheckReport, rule: str, severity: str, message: str) -> Finding:
    """The one finding of ``rule``: its severity, the framework's message, and at least one fix."""
    found = findings_of(report, rule)
    assert len(found) == 1, [f.rule for f in report.errors + report.warnings]
    finding = found[0]
    assert finding.severity == severity
    assert finding.message == message
    assert finding.suggestions, "every rule suggests at least one fix"
    assert set(finding.values) == set(finding.keys)
    return finding


def assert_fixed_report(report: CheckReport, rule: str, suggestion: object) -> None:
    """The check of a config with a suggestion applied: that rule is cleared and no error is left."""
    assert not findings_of(report, rule), (suggestion, findings_of(report, rule))
    assert not report.errors, [e.message for e in report.errors]


@pytest.fixture(params=CASES, ids=case_id)
def case(request: pytest.FixtureRequest) -> Case:
    return request.param
