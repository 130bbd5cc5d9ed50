"""``@record``: a light ``@dataclass`` for the model's plain data classes.

``dataclasses.dataclass`` writes the source of ``__init__``, ``__repr__`` and ``__eq__`` for each class and
compiles it, about 0.25 ms a class: with the forty classes a command creates, the largest single part of
rlconf's start-up. A record gets the same fields (``dataclasses.fields``, ``asdict``, ``replace`` and
``is_dataclass`` work on it), the same ``__init__`` (positional or keyword arguments in field order, defaults
and ``field(default_factory=...)``), ``__repr__`` (``field(repr=False)`` left out) and ``__eq__`` (same class,
equal field values; an equal-comparing record is unhashable), from shared functions instead of generated code.

Not supported (use ``dataclasses.dataclass``): frozen, slots, order, keyword-only fields, ``InitVar``,
``field(init=False)``, ``__post_init__``.
"""
from __future__ import annotations

import dataclasses
from reprlib import recursive_repr
from typing import Any, TypeVar

T = TypeVar("T", bound=type)

_MISSING = dataclasses.MISSING


@dataclasses.dataclass
class _Params:
    """Gives the parameters a plain ``@dataclass`` records (for a dataclass that subclasses a record)."""


_PARAMS = _Params.__dataclass_params__  # type: ignore[attr-defined]


def record(cls: T) -> T:
    """Make ``cls`` a data class: fields from its annotations, in order, after those of record bases."""
    fields: dict[str, dataclasses.Field[Any]] = {}
    for base in cls.__mro__[-1:0:-1]:
        fields.update(getattr(base, "__dataclass_fields__", {}))
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
        if text.startswith(("ClassVar", "typing.ClassVar", "InitVar", "dataclasses.InitVar")):
            raise TypeError(f"{cls.__qualname__}.{name}: @record has no ClassVar or InitVar fields")
        default = cls.__dict__.get(name, _MISSING)
        if isinstance(default, dataclasses.Field):
            field = default
            if not field.init or getattr(field, "kw_only", False) is True:
                raise TypeError(f"{cls.__qualname__}.{name}: @record fields are all init, not keyword-only")
            if field.default is _MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, field.default)
        else:
            field = dataclasses.field(default=default)
        field.name = name
        field.type = annotation
        field._field_type = dataclasses._FIELD  # type: ignore[attr-defined]
        if hasattr(field, "kw_only"):
            field.kw_only = False
        fields[name] = field
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__qualname__}: @record does not call __post_init__")
    cls.__dataclass_fields__ = fields  # type: ignore[attr-defined]
    cls.__dataclass_params__ = _PARAMS  # type: ignore[attr-defined]
    names = tuple(fields)
    methods = {"__init__": _init(cls, names, fields), "__repr__": _repr(tuple(n for n in names if fields[n].repr)),
               "__eq__": _eq(tuple(n for n in names if fields[n].compare))}
    for method_name, method in methods.items():
        if method_name not in cls.__dict__:
            method.__qualname__ = f"{cls.__qualname__}.{method_name}"
            setattr(cls, method_name, method)
    if "__hash__" not in cls.__dict__:
        cls.__hash__ = None  # type: ignore[assignment]
    if "__match_args__" not in cls.__dict__:
        cls.__match_args__ = names  # type: ignore[attr-defined]
    return cls


def _init(cls: type, names: tuple[str, ...], fields: dict[str, dataclasses.Field[Any]]) -> Any:
    defaults = {n: f.default for n, f in fields.items() if f.default is not _MISSING}
    factories = {n: f.default_factory for n, f in fields.items() if f.default_factory is not _MISSING}
    count = len(names)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > count:
            raise TypeError(f"{cls.__qualname__}.__init__() takes {count + 1} positional arguments but "
                            f"{len(args) + 1} were given")
        for name, value in zip(names, args):
            if name in kwargs:
                raise TypeError(f"{cls.__qualname__}.__init__() got multiple values for argument '{name}'")
            setattr(self, name, value)
        missing = []
        for name in names[len(args):]:
            if name in kwargs:
                setattr(self, name, kwargs.pop(name))
            elif name in defaults:
                setattr(self, name, defaults[name])
            elif name in factories:
                setattr(self, name, factories[name]())
            else:
                missing.append(name)
        if missing:
            raise TypeError(f"{cls.__qualname__}.__init__() missing {len(missing)} required argument(s): "
                            + ", ".join(repr(n) for n in missing))
        if kwargs:
            raise TypeError(f"{cls.__qualname__}.__init__() got an unexpected keyword argument "
                            f"'{next(iter(kwargs))}'")

    return __init__


def _repr(shown: tuple[str, ...]) -> Any:
    @recursive_repr()
    def __repr__(self: Any) -> str:
        return f"{self.__class__.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in shown)})"

    return __repr__


def _eq(compared: tuple[str, ...]) -> Any:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return tuple(getattr(self, n) for n in compared) == tuple(getattr(other, n) for n in compared)
        return NotImplemented

    return __eq__
