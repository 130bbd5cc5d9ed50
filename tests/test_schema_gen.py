"""The native schema generator's TypedDict walk (translator/schema_gen.py: record_properties), on a small package of
our own, and NeMo-RL's schema regenerated from its release when a checkout is at hand."""

from __future__ import annotations

import json
import os
from argparse import Namespace
from pathlib import Path

import pytest

from translator.schema_gen import Resolver, Tree, class_in, record_properties

# A config package of our own shape: a pydantic master config over TypedDicts, with the annotation forms NeMo-RL uses.
CONFIG = """
from typing import Any, Literal, NotRequired, Optional, TypedDict

from pydantic import BaseModel

from pkg.parts import Gen


class InnerOn(TypedDict):
    enabled: Literal[True]
    size: int
    ratio: NotRequired[float | None]


class InnerOff(TypedDict):
    enabled: Literal[False]


class Node(TypedDict):
    value: int
    child: NotRequired["Node"]


class Root(BaseModel):
    inner: NotRequired[InnerOn | InnerOff]
    gen: Gen
    extra: dict[str, Any]
    maybe: Optional[InnerOff] = None
    mode: Literal["a", "b"]
    node: Node
"""
PARTS = """
from typing import NotRequired, TypedDict


class Gen(TypedDict):
    backend: str
    stops: list[int] | None


class Fast(TypedDict):
    threads: int


class FastGen(Gen):
    fast_cfg: NotRequired[Fast]
"""


def _walk(widen: bool) -> dict[str, dict[str, object]]:
    tree = Tree({"pkg/__init__.py": "", "pkg/config.py": CONFIG, "pkg/parts.py": PARTS}, "pkg")
    resolver = Resolver([tree])
    out: dict[str, dict[str, object]] = {}
    record_properties(resolver, *class_in(resolver, tree, "pkg.config", "Root"), "", out, widen=widen)
    return out


# Worked out from the annotations above:
# inner: NotRequired[InnerOn | InnerOff] → the keys of both members; `enabled` is Literal[True] in one and
#   Literal[False] in the other → a boolean taking either; ratio: float | None → number or null.
# gen: Gen → backend string; stops: list[int] | None → an array of integers, or null.
# extra: dict[str, Any] → an object (its sub-keys are open). mode: Literal["a", "b"] → a string of those two.
# maybe: Optional[InnerOff] → a section: its key `enabled` (only False); `maybe` itself is no property.
# node: Node, whose child is a Node again: the walk does not go round; child's type is not told ({}).
EXPECTED = {
    "inner.enabled": {"type": "boolean", "enum": [True, False]},
    "inner.size": {"type": "integer"},
    "inner.ratio": {"type": ["number", "null"]},
    "gen.backend": {"type": "string"},
    "gen.stops": {"type": ["array", "null"], "items": {"type": "integer"}},
    "extra": {"type": "object"},
    "maybe.enabled": {"type": "boolean", "enum": [False]},
    "mode": {"type": "string", "enum": ["a", "b"]},
    "node.value": {"type": "integer"},
    "node.child": {},
}


def test_a_typeddict_tree_becomes_typed_dotted_keys() -> None:
    assert _walk(widen=False) == EXPECTED


def test_widening_adds_the_keys_of_a_derived_config() -> None:
    # FastGen derives from Gen and adds fast_cfg: Fast (threads: int); it is read from the `gen` section.
    assert _walk(widen=True) == {**EXPECTED, "gen.fast_cfg.threads": {"type": "integer"}}


SRC = os.environ.get("RLCONF_NEMO_RL_SRC")


@pytest.mark.skipif(not SRC, reason="RLCONF_NEMO_RL_SRC names no NeMo-RL checkout")
def test_the_shipped_nemo_rl_schema_is_what_the_release_gives(tmp_path: Path) -> None:
    from translator.frameworks.nemo_rl import schema_gen

    shipped = Path(__file__).resolve().parent.parent / "translator" / "schema_data" / "nemo-rl-0.7.0.schema.json"
    schema_gen.generate(Namespace(nemo_rl_src=Path(str(SRC)), nemo_rl_version="0.7.0"), [tmp_path], {"nemo-rl"})
    assert json.loads((tmp_path / shipped.name).read_text()) == json.loads(shipped.read_text())
