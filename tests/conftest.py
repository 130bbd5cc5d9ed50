"""Shared test helpers: the fixtures with their hand-derived expectations, and the shared corpus."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
CORPUS = ROOT.parent / "shared" / "corpus"


@dataclass
class Case:
    """One fixture and what `rlconf explain` must report for it (see fixtures/README.md)."""

    name: str
    framework: str
    path: Path
    options: dict[str, Any]
    expected: dict[str, Any]

    def load_kwargs(self) -> dict[str, Any]:
        return {"framework": self.options.get("from"),
                "env": {k: str(v) for k, v in (self.options.get("env") or {}).items()},
                "num_processes": self.options.get("num_processes")}


def fixture_cases() -> list[Case]:
    cases = []
    for expect in sorted(FIXTURES.glob("*/*.expect.yaml")):
        data = yaml.safe_load(expect.read_text())
        cases.append(Case(expect.name.removesuffix(".expect.yaml"), expect.parent.name,
                          expect.parent / data["input"], data.get("options") or {}, data))
    return cases


CASES = fixture_cases()


def case_id(case: Case) -> str:
    return f"{case.framework}/{case.name}"


@pytest.fixture(params=CASES, ids=case_id)
def case(request: pytest.FixtureRequest) -> Case:
    return request.param
