"""``@record``: ``@dataclass`` with a shared ``__eq__`` and ``__repr__``.

``dataclasses.dataclass`` writes and compiles the source of ``__init__``, ``__repr__`` and ``__eq__`` for every
class; with the forty classes a command creates, that is the largest part of rlconf's start-up. A record is a
plain dataclass whose ``__eq__`` (same class, equal fields in order) and ``__repr__`` (the fields with
``repr=True``) are two shared functions instead of generated code; everything else is the dataclass's own.
"""
from __future__ import annotations

import dataclasses
from reprlib import recursive_repr
from typing import Any, TypeVar

T = TypeVar("T", bound=type)


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return all(getattr(self, f.name) == getattr(other, f.name) for f in dataclasses.fields(self))


@recursive_repr()
def _repr(self: Any) -> str:
    shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self) if f.repr)
    return f"{self.__class__.__qualname__}({shown})"


def record(cls: T) -> T:
    """``cls`` as a dataclass (``fields``, ``asdict``, ``replace`` work) with the shared ``__eq__``/``__repr__``."""
    cls = dataclasses.dataclass(cls, eq=False, repr=False)
    cls.__eq__, cls.__repr__, cls.__hash__ = _eq, _repr, None  # type: ignore[assignment,method-assign]
    return cls
