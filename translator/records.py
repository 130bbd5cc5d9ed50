"""``@record``: a light ``@dataclass`` for the model's plain data classes.

``dataclasses.dataclass`` writes the source of ``__init__``, ``__repr__`` and ``__eq__`` for each class and
compiles it, about 0.25 ms a class: with the forty classes a command creates, the largest single part of
rlconf's start-up. A record gets the same fields (``dataclasses.fields``, ``asdict``, ``replace`` and
``is_dataclass`` work on it), the same ``__init__`` (positional or keyword arguments in field order, defaults
and ``field(default_factory=...)``, each field assigned in order), ``__repr__`` (``field(repr=False)`` left
out) and ``__eq__`` (same class, equal field values; an equal-comparing record is unhashable), from shared
functions instead of generated code. A class made more than a hundred times in a process (reading many
configs) then gets the compiled ``__init__`` dataclasses would have written, which is faster per instance.

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
    methods = {"__init__": _init(cls, fields), "__repr__": _repr(tuple(n for n in names if fields[n].repr)),
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


_HOT = 100  # instances after which a class's __init__ is compiled (see _compiled_init)


def _init(cls: type, fields: dict[str, dataclasses.Field[Any]]) -> Any:
    # (name, default or _MISSING, factory or None) in field order
    plan = tuple((n, f.default, None if f.default_factory is _MISSING else f.default_factory)
                 for n, f in fields.items())
    count = len(plan)
    made = 0

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        nonlocal made
        made += 1
        if made == _HOT and cls.__dict__.get("__init__") is __init__:
            compiled = _compiled_init(cls, plan)
            if compiled is not None:
                cls.__init__ = compiled  # type: ignore[misc]
        if len(args) > count:
            raise TypeError(f"{cls.__qualname__}.__init__() takes {count + 1} positional arguments but "
                            f"{len(args) + 1} were given")
        missing = []
        for index, (name, default, factory) in enumerate(plan):
            if index < len(args):
                if name in kwargs:
                    raise TypeError(f"{cls.__qualname__}.__init__() got multiple values for argument '{name}'")
                value = args[index]
            elif name in kwargs:
                value = kwargs.pop(name)
            elif factory is not None:
                value = factory()
            elif default is not _MISSING:
                value = default
            else:
                missing.append(name)
                continue
            setattr(self, name, value)
        if missing:
            raise TypeError(f"{cls.__qualname__}.__init__() missing {len(missing)} required argument(s): "
                            + ", ".join(repr(n) for n in missing))
        if kwargs:
            raise TypeError(f"{cls.__qualname__}.__init__() got an unexpected keyword argument "
                            f"'{next(iter(kwargs))}'")

    return __init__


def _compiled_init(cls: type, plan: tuple[tuple[str, Any, Any], ...]) -> Any:
    """The __init__ dataclasses would write, for a class made often enough that compiling it (about 0.1 ms)
    pays: it assigns the same values in the same order, faster. None where the fields do not allow it."""
    names = [name for name, _, _ in plan]
    if "self" in names or any(not name.isidentifier() for name in names):
        return None
    namespace: dict[str, Any] = {"_MISSING": _MISSING}
    params, body, seen_default = [], [], False
    for index, (name, default, factory) in enumerate(plan):
        if factory is not None:
            namespace[f"_factory_{index}"] = factory
            params.append(f"{name}=_MISSING")
            body.append(f"    self.{name} = _factory_{index}() if {name} is _MISSING else {name}")
            seen_default = True
        elif default is not _MISSING:
            namespace[f"_default_{index}"] = default
            params.append(f"{name}=_default_{index}")
            body.append(f"    self.{name} = {name}")
            seen_default = True
        elif seen_default:
            return None  # a required field after one with a default: the generic __init__ handles it
        else:
            params.append(name)
            body.append(f"    self.{name} = {name}")
    source = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(body) or "    pass") + "\n"
    exec(source, namespace)  # noqa: S102  (source built from the field names above)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    return init


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
