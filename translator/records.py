"""``@record``: ``@dataclass`` with a shared ``__init__``, ``__eq__`` and ``__repr__`` (``@record(frozen=True)``:
``@dataclass(frozen=True)``, with a shared ``__setattr__``, ``__delattr__`` and ``__hash__`` as well).

``dataclasses.dataclass`` writes and compiles the source of ``__init__``, ``__repr__`` and ``__eq__`` for every
class; with the forty classes a command creates, that is the largest part of rlconf's start-up (README "Speed"). A
record is a plain dataclass (``fields``, ``asdict``, ``replace`` and ``is_dataclass`` work on it) made with
``init=False, eq=False, repr=False``, whose three methods are shared functions that read the dataclass's own
fields: ``__init__`` takes positional or keyword arguments in field order and assigns each field in that order
(defaults and ``default_factory`` as dataclasses do), ``__eq__`` compares the same class field by field,
``__repr__`` shows the fields with ``repr=True``. Fields must be ``init`` fields; ``__post_init__`` is called.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from reprlib import recursive_repr
from typing import TYPE_CHECKING, Any, TypeVar, cast, overload

if TYPE_CHECKING:  # typeshed's typing_extensions carries it for Python 3.10 checks; nothing imports it at run time
    from typing_extensions import dataclass_transform
elif sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # Python 3.10: the decorator only informs type checkers, so a no-op stands in at run time

    def dataclass_transform(**_: Any) -> Any:
        return lambda function: function


T = TypeVar("T", bound=type)
_MISSING = dataclasses.MISSING
_SPECS: dict[type, tuple[tuple[str, Any, Any], ...]] = {}  # class → (name, default, default_factory) per field


def _spec(cls: type) -> tuple[tuple[str, Any, Any], ...]:
    spec = _SPECS.get(cls)
    if spec is None:
        spec = _SPECS[cls] = tuple((f.name, f.default, f.default_factory) for f in dataclasses.fields(cls))
    return spec


def _fill(self: Any, args: tuple[Any, ...], kwargs: dict[str, Any], assign: Callable[[Any, str, Any], None]) -> None:
    cls = type(self)
    spec = _spec(cls)
    if len(args) > len(spec):
        raise TypeError(f"{cls.__qualname__}() takes {len(spec)} positional arguments but {len(args)} were given")
    if kwargs and not kwargs.keys() <= {name for name, _, _ in spec}:
        unknown = sorted(kwargs.keys() - {name for name, _, _ in spec})
        raise TypeError(f"{cls.__qualname__}() got an unexpected keyword argument '{unknown[0]}'")
    for index, (name, default, factory) in enumerate(spec):
        if index < len(args):
            if name in kwargs:
                raise TypeError(f"{cls.__qualname__}() got multiple values for argument '{name}'")
            value = args[index]
        elif name in kwargs:
            value = kwargs[name]
        elif factory is not _MISSING:
            value = factory()
        elif default is not _MISSING:
            value = default
        else:
            raise TypeError(f"{cls.__qualname__}() missing required argument: '{name}'")
        assign(self, name, value)
    post_init = getattr(self, "__post_init__", None)
    if post_init is not None:
        post_init()


def _init(self: Any, *args: Any, **kwargs: Any) -> None:
    _fill(self, args, kwargs, setattr)


def _frozen_init(self: Any, *args: Any, **kwargs: Any) -> None:
    _fill(self, args, kwargs, object.__setattr__)


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return all(getattr(self, name) == getattr(other, name) for name, _, _ in _spec(self.__class__))


@recursive_repr()
def _repr(self: Any) -> str:
    shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self) if f.repr)
    return f"{self.__class__.__qualname__}({shown})"


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _hash(self: Any) -> int:
    return hash(tuple(getattr(self, name) for name, _, _ in _spec(self.__class__)))


@overload
def record(cls: T, /) -> T: ...


@overload
def record(*, frozen: bool = False) -> Callable[[T], T]: ...


@dataclass_transform(eq_default=True)  # type checkers see the dataclass ``__init__`` a record has
def record(cls: T | None = None, /, *, frozen: bool = False) -> Any:
    """``cls`` as a dataclass with the shared ``__init__``, ``__eq__`` and ``__repr__``; ``@record(frozen=True)``
    as a frozen one (assigning a field raises FrozenInstanceError; hashed by its fields, as dataclass does)."""
    if cls is None:
        return lambda made: _make(made, frozen)
    return _make(cls, frozen)


def _make(cls: T, frozen: bool) -> T:
    # Without a docstring, dataclass makes one from inspect.signature, which for init=False tokenizes object's
    # signature text (a regular expression compiled at start-up, about 3 ms); the record names its fields instead.
    undocumented = not cls.__doc__
    if undocumented:
        cls.__doc__ = cls.__name__  # any text: dataclass only asks whether there is one
    made: Any = dataclasses.dataclass(cls, init=False, eq=False, repr=False)
    if undocumented:
        made.__doc__ = f"{made.__name__}({', '.join(f.name for f in dataclasses.fields(made))})"
    if any(not f.init for f in dataclasses.fields(made)):
        raise TypeError(f"{made.__qualname__}: a @record's fields are all init fields")
    made.__init__, made.__eq__, made.__repr__, made.__hash__ = _init, _eq, _repr, None
    if frozen:
        made.__init__, made.__hash__ = _frozen_init, _hash
        made.__setattr__, made.__delattr__ = _frozen_setattr, _frozen_delattr
    return cast(T, made)
