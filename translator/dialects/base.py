"""What every dialect provides, and the helpers readers share."""
from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from translator.errors import ConfigError
from translator.notes import NoteList
from translator.plan import SECTIONS, Derivation, RunSpec
from translator.sources.files import Source
from translator.sources.shell import ShellCommand, ShellScript, parse_shell


@dataclass
class ReadOptions:
    version: str | None = None  # None: infer from the keys, else the newest known
    env: Mapping[str, str] = field(default_factory=dict)
    num_processes: int | None = None  # training world size where the config does not state it


@dataclass
class Reading:
    """What a reader returns: the canonical model and the notes made on the way."""

    spec: RunSpec
    notes: NoteList
    native: Values | None = None  # the native values as read (for rule checks); None for plan files


class Dialect:
    """A framework: its reader, writer and version table. Subclasses fill the class attributes."""

    name: str = ""
    aliases: tuple[str, ...] = ()
    versions: tuple[str, ...] = ()  # oldest → newest
    description: str = ""
    # Whether a run with both a step limit and a number of dataset passes stops at whichever comes first
    # (verl, EasyR1); TRL's max_steps overrides num_train_epochs instead.
    stops_at_first_limit: bool = True
    changes: dict[str, str] = {}  # noqa: RUF012  (version → what changed in it that matters to a config)

    @property
    def default_version(self) -> str:
        return self.versions[-1]

    def read(self, source: Source, options: ReadOptions) -> Reading:
        raise NotImplementedError

    def write(self, spec: RunSpec, version: str, notes: NoteList) -> dict[str, str]:
        """The files a user runs for this framework and version, by relative name."""
        raise NotImplementedError

    def resolve_version(self, version: str | None) -> str:
        if version is None:
            return self.default_version
        if version in self.versions:
            return version
        # A patch release we do not list behaves like the newest listed release at or below it.
        wanted = version_key(version)
        if wanted is not None:
            older = [v for v in self.versions if version_key(v) <= wanted]
            if older and version_key(older[-1])[:2] == wanted[:2]:
                return older[-1]
        raise ConfigError(f"unknown {self.name} version '{version}'",
                          hint=f"known versions: {', '.join(self.versions)}")


@contextmanager
def track_provenance(spec: RunSpec, values: Values) -> Iterator[None]:
    """While a reader interprets ``values`` into ``spec``, record for each canonical field the native keys
    read since the previous assignment, unless the reader recorded a derivation itself. A field assigned
    with no key read since is a derived value."""
    start = {"index": len(values.reads)}

    def observe(section: str, name: str, value: Any) -> None:
        keys = list(dict.fromkeys(values.reads[start["index"]:]))
        start["index"] = len(values.reads)
        dotted = f"{section}.{name}"
        if value is None or dotted in spec.derivations:
            return
        if not keys:
            spec.derivations[dotted] = Derivation("derived", [], "derived")
            return
        origin = "config" if any(k in values for k in keys) else "default"
        shown = ", ".join(f"{k} {fmt(values.values.get(k, values.defaults.get(k)))}" for k in keys[:3])
        spec.derivations[dotted] = Derivation(shown, keys, origin)

    sections = list(SECTIONS.values())
    for cls in sections:
        cls._observer = observe
    try:
        yield
    finally:
        for cls in sections:
            cls._observer = None


MAX_COUNT = 2**53  # larger counts are no real config, and would lose precision as floats


def read_script(source: Source, env: Mapping[str, str], notes: NoteList) -> ShellScript:
    """A launch script read statically (never executed); what the shell reader noticed becomes info notes."""
    script = parse_shell(source.text, env=env, source=source.name)
    for shell_note in script.notes:
        notes.info(shell_note.code, f"{source.name}:{shell_note.line}: {shell_note.message}")
    return script


def require_resolved(command: ShellCommand, source: Source) -> None:
    """The launch command must not use a variable the script never sets: its value is unknown."""
    if command.unresolved:
        name = command.unresolved[0]
        raise ConfigError(f"variable ${name} is used by the launch command but never set", file=source.name,
                          line=command.line, key=name, hint=f"pass --env {name}=VALUE, or set it in the script")


@lru_cache(maxsize=4096)  # called ~2000 times per config by the version inference; versions repeat
def version_key(version: str) -> tuple[int, ...] | None:
    parts = []
    for part in version.split("."):
        digits = "".join(ch for ch in part if ch.isdigit())
        if not digits:
            return None
        parts.append(int(digits))
    return tuple(parts)


def at_least(version: str, minimum: str) -> bool:
    return version_key(version) >= version_key(minimum)  # type: ignore[operator]


def newer_than(version: str, other: str) -> bool:
    return version_key(version) > version_key(other)  # type: ignore[operator]


def closest_key(key: str, known: Iterable[str]) -> str | None:
    """The known key a typo most likely meant: the whole dotted key, or the last part under the same parent."""
    known = list(known)
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

    def __init__(self, values: Mapping[str, Any], origins: Mapping[str, str], defaults: Mapping[str, Any],
                 source_name: str) -> None:
        self.values = dict(values)
        self.origins = dict(origins)  # key → "file:line" or "file"
        self.defaults = dict(defaults)
        self.source_name = source_name
        self.used: set[str] = set()
        self.reads: list[str] = []  # keys in the order they were read (for provenance)

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
                raise self._error(key, f"{key} must be a whole number, got '{value}'",
                                  f"set {key} to a positive integer") from None
        if isinstance(value, float):
            if not value.is_integer():
                raise self._error(key, f"{key} must be a whole number, got {value}", f"set {key} to a positive integer")
            value = int(value)
        if value <= 0:
            raise self._error(key, f"{key} must be greater than 0, got {value}", f"set {key} to a positive integer")
        if value > MAX_COUNT:
            raise self._error(key, f"{key} is larger than any real run ({str(value)[:12]}…)",
                              f"set {key} to a realistic positive integer")
        return value

    def number(self, key: str, default: Any = None) -> float | None:
        value = self.get(key, default)
        if value is None:
            return None
        if isinstance(value, bool):
            raise self._error(key, f"{key} must be a number, got {value!r}", f"set {key} to a number")
        try:
            return float(value) if not isinstance(value, int) else value
        except (TypeError, ValueError):
            raise self._error(key, f"{key} must be a number, got {value!r}", f"set {key} to a number") from None

    def flag(self, key: str, default: Any = None) -> bool | None:
        value = self.get(key, default)
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        raise self._error(key, f"{key} must be true or false, got {value!r}", f"set {key} to true or false")

    def unused(self) -> dict[str, Any]:
        return {k: v for k, v in self.values.items() if k not in self.used}


def describe_mini_batch_plan(spec: RunSpec, prompts_label: str = "") -> None:
    """Derivations of the plan values BatchPlan.complete() computes, for frameworks that split a rollout into
    mini-batches of prompts × n (verl, EasyR1)."""
    plan, d = spec.plan, spec.derivations
    if plan.samples_per_step is not None:
        d["plan.samples_per_step"] = derived(
            f"{prompts_label}{fmt(plan.prompts_per_step)} prompts × rollout.n {plan.samples_per_prompt}")
    if plan.optimizer_steps_per_step is not None:
        d["plan.optimizer_steps_per_step"] = derived(
            f"ppo_epochs {plan.epochs_per_step} × ceil({fmt(plan.samples_per_step)} samples ÷ "
            f"{fmt(plan.samples_per_optimizer_step)} per mini-batch)")
    if plan.grad_accum_steps is not None:
        d["plan.grad_accum_steps"] = derived(
            f"{fmt(plan.samples_per_optimizer_step)} samples ÷ {plan.data_parallel_size} DP ranks ÷ micro "
            f"{fmt(plan.micro_batch_per_device)}")


def from_config(text: str, *keys: str) -> Derivation:
    return Derivation(text, list(keys), "config")


def derived(text: str, *keys: str) -> Derivation:
    return Derivation(text, list(keys), "derived")


def fmt(value: Any) -> str:
    """A number as people write it in a derivation: whole numbers without a point, fractions as 0.25."""
    if isinstance(value, Fraction):
        value = int(value) if value.denominator == 1 else float(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:.6g}"
    return str(value)
