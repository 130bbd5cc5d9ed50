"""Native key → value tables (:class:`Values`): typed getters that name the key, the keys a reader consumed, the
closest known key to a typo, and the limits on counts."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from translator.dialects.unknowns import Unknown
from translator.errors import ConfigError
from translator.sources.shell import symbolic_names

MAX_COUNT = 2**53  # larger counts are no real config, and would lose precision as floats


MAX_GPUS = 1_000_000  # GPU, node and process counts beyond any real cluster (writers list device ids and nodes)


def closest_key(key: str, known: Iterable[str]) -> str | None:
    """The known key a typo most likely meant: the whole dotted key, or the last part under the same parent."""
    return _closest_key(key, tuple(known))


@lru_cache(maxsize=256)  # a directory of configs repeats its typos; difflib compares with every known key
def _closest_key(key: str, known: tuple[str, ...]) -> str | None:
    import difflib  # only a config with a key its framework lacks gets here

    match = difflib.get_close_matches(key, known, n=1, cutoff=0.85)
    if match:
        return match[0]
    parent, _, leaf = key.rpartition(".")
    siblings = {k.rpartition(".")[2]: k for k in known if k.rpartition(".")[0] == parent}
    match = difflib.get_close_matches(leaf, list(siblings), n=1, cutoff=0.8)
    return siblings[match[0]] if match else None


class Values:
    """Native key → value, with where each came from and which keys a reader has consumed.

    Readers ask for values through :meth:`get` and the typed getters, which validate and remember the
    key; the keys never asked for become extras, so nothing is lost silently.
    """

    def __init__(
        self, values: Mapping[str, Any], origins: Mapping[str, str], defaults: Mapping[str, Any], source_name: str
    ) -> None:
        self.values = dict(values)
        self.origins = dict(origins)  # key → "file:line" or "file"
        self.defaults = dict(defaults)
        self.source_name = source_name
        self.used: set[str] = set()
        self.reads: list[str] = []  # keys in the order they were read (for provenance)
        # key → variables with no known value its value uses: typed getters give None for such a key
        self.unknown: dict[str, list[str]] = {}
        # key → where a config file leaves it null (a reader that merges the file before the command line sets it)
        self.file_nulls: dict[str, str] = {}
        # environment variables the launch command sees (as its script sets them) that a framework's checks read
        self.environment: dict[str, str] = {}

    def _symbolic(self, key: str, value: Any) -> bool:
        """Whether ``value`` depends on a variable the script never sets (kept as ``${NAME}``): then the
        quantity is unknown, not an error; the names are remembered for the derivation."""
        names = symbolic_names(value) if isinstance(value, str) else []
        if names:
            self.unknown[key] = names
        return bool(names)

    def __contains__(self, key: str) -> bool:
        return key in self.values

    def get(self, key: str, default: Any = None) -> Any:
        self.used.add(key)
        self.reads.append(key)
        if key in self.values:
            return self.values[key]
        return self.defaults.get(key, default)

    def consume(self, key: str) -> Any:
        """The value of a key the reader accounts for without it shaping a canonical field (an ignored
        alias, a value only used in a note): marked used, not recorded as a read."""
        self.used.add(key)
        return self.values.get(key, self.defaults.get(key))

    def origin(self, key: str) -> str:
        """config | default: whether the value was written by the user or is the version's default."""
        return "config" if key in self.values else "default"

    def first(self, *keys: str) -> str:
        """The first key that is set (else the first key): for reading a value with a deprecated alias."""
        for key in keys:
            self.used.add(key)
        self.reads.extend(keys)
        return next((k for k in keys if k in self.values), keys[0])

    def _error(self, key: str, message: str, hint: str) -> ConfigError:
        where = self.origins.get(key, self.source_name)
        file, _, line = where.rpartition(":")
        if not file or not line.isdigit():
            file, line = where, ""
        return ConfigError(message, file=file, line=int(line) if line else None, key=key, hint=hint)

    def positive_int(self, key: str, default: Any = None, allow_none: bool = True) -> int | None:
        """A batch-like count: a whole number > 0 (or None when unset and allowed)."""
        value = self.get(key, default)
        if self._symbolic(key, value):
            return Unknown(self.unknown[key])  # type: ignore[return-value]
        if value is None and key in self.values and self.defaults.get(key, default) is not None:
            raise self._error(key, f"{key} must be a whole number, got null", f"set {key} to a positive integer")
        if value is None and allow_none:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise self._error(key, f"{key} must be a whole number, got {value!r}", f"set {key} to a positive integer")
        if isinstance(value, str):
            try:
                value = float(value) if any(c in value for c in ".eE") else int(value)
            except ValueError:
                raise self._error(
                    key, f"{key} must be a whole number, got '{value}'", f"set {key} to a positive integer"
                ) from None
        if isinstance(value, float):
            if not value.is_integer():
                raise self._error(key, f"{key} must be a whole number, got {value}", f"set {key} to a positive integer")
            value = int(value)
        if value <= 0:
            raise self._error(key, f"{key} must be greater than 0, got {value}", f"set {key} to a positive integer")
        if value > MAX_COUNT:
            raise self._error(
                key,
                f"{key} is larger than any real run ({str(value)[:12]}…)",
                f"set {key} to a realistic positive integer",
            )
        return value

    def number(self, key: str, default: Any = None) -> float | None:
        value = self.get(key, default)
        if self._symbolic(key, value):
            return Unknown(self.unknown[key])  # type: ignore[return-value]
        if value is None:
            return None
        if isinstance(value, bool):
            raise self._error(key, f"{key} must be a number, got {value!r}", f"set {key} to a number")
        try:
            number = float(value) if not isinstance(value, int) else value
        except (TypeError, ValueError, OverflowError):
            raise self._error(key, f"{key} must be a number, got {value!r}", f"set {key} to a number") from None
        if isinstance(number, float) and not math.isfinite(
            number
        ):  # nan/inf parse as floats but make every later comparison meaningless
            raise self._error(key, f"{key} must be a finite number, got {value!r}", f"set {key} to a real number")
        if abs(number) > MAX_COUNT:
            raise self._error(
                key, f"{key} is larger than any real run ({str(value)[:12]}…)", f"set {key} to a realistic value"
            )
        return number

    def flag(self, key: str, default: Any = None) -> bool | None:
        value = self.get(key, default)
        if self._symbolic(key, value):
            return Unknown(self.unknown[key])  # type: ignore[return-value]
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        raise self._error(key, f"{key} must be true or false, got {value!r}", f"set {key} to true or false")

    def unused(self) -> dict[str, Any]:
        return {k: v for k, v in self.values.items() if k not in self.used}
