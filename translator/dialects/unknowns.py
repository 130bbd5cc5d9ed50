"""Unknown arithmetic: a count that depends on a variable with no known value, and the derivations that say so."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from translator.plan import RunSpec

handed_out: list[list[str]] = []  # per read in progress: the variables of the Unknowns handed out


class Unknown:
    """A count that depends on a variable with no known value (``$NODES``). The typed getters of
    :class:`Values` return it so a dialect's arithmetic runs unchanged: every operation gives Unknown again,
    comparisons are false and it is falsy like None. After a read, :func:`mark_unknowns` turns each one left
    in the spec into None with the derivation "unknown: depends on $NODES"."""

    __slots__ = ("names",)

    def __init__(self, names: Iterable[str]) -> None:
        self.names = list(dict.fromkeys(names))
        if handed_out:
            handed_out[-1].extend(self.names)

    def _join(self, other: Any) -> Unknown:
        return Unknown(self.names + (other.names if isinstance(other, Unknown) else []))

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _join
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __pow__ = __rpow__ = _join

    def __neg__(self) -> Unknown:
        return self

    def __ceil__(self) -> Unknown:
        return self

    __floor__ = __trunc__ = __round__ = __abs__ = __ceil__

    def __bool__(self) -> bool:
        return False

    def _false(self, other: Any) -> bool:
        return False

    __lt__ = __le__ = __gt__ = __ge__ = _false

    def __eq__(self, other: object) -> bool:
        return other is self

    def __hash__(self) -> int:
        return id(self)

    def __str__(self) -> str:
        return " × ".join(n if n.startswith(("$(", "`")) else f"${n}" for n in self.names)

    __repr__ = __str__
    __format__ = lambda self, spec: str(self)  # noqa: E731


UNKNOWN = "unknown"  # Derivation.origin of a quantity that depends on a variable with no known value


def unknown_text(names: Iterable[str]) -> str:
    names = list(names)
    env = " ".join(f"--env {n}=..." for n in names if not n.startswith(("$(", "`")))
    return f"unknown: depends on {', '.join(n if n.startswith(('$(', '`')) else '$' + n for n in names)}" + (
        f" (pass {env})" if env else ""
    )


def unknown_because(spec: RunSpec, dotted: str) -> list[str]:
    """The variables (``NODES``) or command substitutions (``$(nproc)``) that make ``spec``'s field
    ``dotted`` (e.g. ``plan.prompts_per_step``) unknown; empty when the field is known or unknown for another
    reason. ``translate`` uses this to stop with exit 2 naming the variable."""
    derivation = spec.derivations.get(dotted)
    if derivation is None or derivation.origin != UNKNOWN:
        return []
    blocking = [k for k in derivation.keys if k.startswith(("$", "`"))]
    return [k if k.startswith(("$(", "`")) else k[1:] for k in blocking]


def unknown_variables(spec: RunSpec) -> dict[str, list[str]]:
    """Every field that is unknown because of a variable: dotted name → the blocking names."""
    return {dotted: names for dotted in spec.derivations if (names := unknown_because(spec, dotted))}


def blocking_keys(blocking: list[str], keys: list[str]) -> list[str]:
    """Derivation keys of an unknown quantity: ``$NAME`` per blocking variable, then the native keys."""
    return [n if n.startswith(("$(", "`")) else f"${n}" for n in blocking] + keys


def real(value: Any) -> Any:
    """A number as a float; None, or an :class:`Unknown` (a value from an unset variable), as it is, so a field
    that no count depends on (a memory fraction) ends unknown with what to pass rather than stopping the read."""
    return value if value is None or isinstance(value, Unknown) else float(value)
