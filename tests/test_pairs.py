"""Every ordered pair of frameworks: A → B → A keeps the plan, or notes explain each difference.

For every fixture of A (with a known world size) and every other framework B, the plan that comes back
must equal the source plan field by field, except fields for which one of the two legs noted
`plan.not-preserved`. The specific losses of each pair are asserted in the dialects' own tests.
"""

from __future__ import annotations

import itertools

import pytest

import translator
from tests.conftest import CASES, Case, case_id, has_group, read_back
from translator import dialects
from translator.plan import PLAN_FIELDS

FRAMEWORKS = [name for name in dialects.names() if name != "rlconf"]
PAIRS = [(a, b) for a, b in itertools.permutations(FRAMEWORKS, 2)]


def test_all_ordered_pairs_are_covered() -> None:
    assert len(PAIRS) == len(FRAMEWORKS) * (len(FRAMEWORKS) - 1)
    for a, _ in PAIRS:
        assert any(c.framework == a for c in CASES), f"no fixture for {a}"


def _cases(framework: str) -> list[Case]:
    return [c for c in CASES if c.framework == framework and has_group(c)]


@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{a}->{b}" for a, b in PAIRS])
def test_round_trip_through_every_other_framework(a: str, b: str) -> None:
    checked = 0
    for case in _cases(a):
        source = translator.load(case.path, **case.load_kwargs())
        if source.plan["data_parallel_size"] is None:
            continue  # translation needs the world size (tested in test_roundtrip.py)
        there = translator.translate(source, to=b)
        back = translator.translate(read_back(there), to=f"{a}@{dialects.get(a).writable(source.version)}")
        noted = {
            key.removeprefix("plan.")
            for t in (there, back)
            for n in t.notes
            if n.code == "plan.not-preserved"
            for key in n.source_keys
        }
        changed = {f for f in PLAN_FIELDS if source.plan[f] != back.plan[f]}
        assert changed <= noted, f"{case_id(case)}: {changed - noted} changed without a note"
        checked += 1
    assert checked, f"no {a} fixture with a known world size"
