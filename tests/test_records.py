"""translator/records.py: a @record is a dataclass whose shared __eq__ and __repr__ behave as the generated ones
(start-up speed, README "Speed")."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from translator.plan import BatchPlan, Derivation, RunSpec
from translator.records import record


@record
class Point:
    """A record with a required field, a default, a factory and a field left out of repr."""

    x: int
    y: int = 0
    tags: list[str] = dataclasses.field(default_factory=list)
    secret: str = dataclasses.field(default="s", repr=False)


@dataclasses.dataclass
class DataPoint:
    """The same class as a dataclass."""

    x: int
    y: int = 0
    tags: list[str] = dataclasses.field(default_factory=list)
    secret: str = dataclasses.field(default="s", repr=False)


CALLS = [
    ((1,), {}),
    ((1, 2), {}),
    ((1,), {"tags": ["a"]}),
    ((), {"x": 3, "y": 4, "secret": "t"}),
    ((1, 2, ["b"], "u"), {}),
]


@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_a_record_is_made_shown_and_compared_as_a_dataclass(args: tuple, kwargs: dict) -> None:
    mine, theirs = Point(*args, **kwargs), DataPoint(*args, **kwargs)
    assert repr(mine) == repr(theirs).replace("DataPoint", "Point")
    assert vars(mine) == vars(theirs)
    assert mine == Point(*args, **kwargs) and mine != Point(99) and mine != theirs
    assert dataclasses.asdict(mine) == dataclasses.asdict(theirs)
    assert [f.name for f in dataclasses.fields(mine)] == [f.name for f in dataclasses.fields(theirs)]
    changed = dataclasses.replace(mine, y=7)
    assert (changed.x, changed.y, changed.tags, changed.secret) == (mine.x, 7, mine.tags, mine.secret)
    assert copy.deepcopy(mine) == mine and pickle.loads(pickle.dumps(mine)) == mine


def test_factories_give_each_instance_its_own_value() -> None:
    a, b = Point(1), Point(2)
    a.tags.append("x")
    assert b.tags == [] and Point.__dataclass_fields__["tags"].default_factory is list  # type: ignore[attr-defined]


@pytest.mark.parametrize(("args", "kwargs"), [((), {}), ((1, 2, [], "s", 5), {}), ((1,), {"x": 2}), ((1,), {"z": 0})])
def test_wrong_arguments_are_a_type_error(args: tuple, kwargs: dict) -> None:
    with pytest.raises(TypeError):
        Point(*args, **kwargs)


def test_records_are_unhashable_like_dataclasses() -> None:
    with pytest.raises(TypeError):
        hash(Point(1))
    assert dataclasses.is_dataclass(Point) and dataclasses.is_dataclass(RunSpec())


def test_the_model_assigns_through_its_observer_in_field_order() -> None:
    seen: list[str] = []
    BatchPlan._observer = lambda section, name, value: seen.append(name)  # type: ignore[assignment]
    try:
        BatchPlan(prompts_per_step=8)
    finally:
        BatchPlan._observer = None
    assert seen == [f.name for f in dataclasses.fields(BatchPlan)]
    assert Derivation("t") == Derivation("t", [], "derived")


@record(frozen=True)
class FrozenPoint:
    """A frozen record with a required field, a default and a field left out of repr."""

    x: int
    y: int = 0
    secret: str = dataclasses.field(default="s", repr=False)


@dataclasses.dataclass(frozen=True)
class FrozenDataPoint:
    """The same class as a frozen dataclass."""

    x: int
    y: int = 0
    secret: str = dataclasses.field(default="s", repr=False)


@pytest.mark.parametrize(("args", "kwargs"), [((1,), {}), ((1, 2), {}), ((), {"x": 3, "secret": "t"})])
def test_a_frozen_record_behaves_as_a_frozen_dataclass(args: tuple, kwargs: dict) -> None:
    mine, theirs = FrozenPoint(*args, **kwargs), FrozenDataPoint(*args, **kwargs)
    assert repr(mine) == repr(theirs).replace("FrozenDataPoint", "FrozenPoint")
    assert vars(mine) == vars(theirs) and mine == FrozenPoint(*args, **kwargs) and mine != theirs
    # a frozen dataclass hashes the tuple of its fields: equal records hash alike, and as the dataclass does
    assert hash(mine) == hash(theirs) == hash((mine.x, mine.y, mine.secret))
    assert {mine, FrozenPoint(*args, **kwargs)} == {mine}
    for attempt in (lambda: setattr(mine, "x", 9), lambda: setattr(mine, "other", 1), lambda: delattr(mine, "y")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            attempt()
    changed = dataclasses.replace(mine, y=7)
    assert (changed.x, changed.y, mine.y) == (mine.x, 7, theirs.y)
    assert copy.deepcopy(mine) == mine and pickle.loads(pickle.dumps(mine)) == mine


def test_a_record_without_a_docstring_is_documented_by_its_fields() -> None:
    @record
    class Bare:
        a: int
        b: str = ""

    assert Bare.__doc__ == "Bare(a, b)" and Bare(1) == Bare(1, "")
