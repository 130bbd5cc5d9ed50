"""What every dialect provides, and the helpers readers share."""
from __future__ import annotations

import dataclasses
import math
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from translator.errors import ConfigError
from translator.notes import NoteList
from translator.plan import SECTIONS, Derivation, RunSpec
from translator.records import record
from translator.sources.files import Source
from translator.sources.project import Evidence
from translator.sources.shell import ShellCommand, ShellScript, parse_shell, symbolic_names


@record
class ReadOptions:
    version: str | None = None  # None: infer from the keys, else the newest known
    env: Mapping[str, str] = field(default_factory=dict)
    num_processes: int | None = None  # training world size where the config does not state it
    companion: tuple[str, str] | None = None  # (version, where) the project pins Dialect.companion at


@record
class Reading:
    """What a reader returns: the canonical model and the notes made on the way."""

    spec: RunSpec
    notes: NoteList
    native: Values | None = None  # the native values as read (for rule checks); None for plan files
    # When the version is uncertain (conflicting or commit pins, an undecided pre-release copy): the releases
    # `check` runs its rules for; () every release that fits the keys; None: the version is not in doubt.
    candidates: tuple[str, ...] | None = None


class Dialect:
    """A framework: its reader, writer and version table. Subclasses fill the class attributes."""

    name: str = ""
    aliases: tuple[str, ...] = ()
    versions: tuple[str, ...] = ()  # oldest → newest
    # The releases from which the reader's plan arithmetic changes (the oldest listed release starts the first band):
    # where the version is inferred from the keys, the plan is read again as each that fits them, and a quantity
    # that comes out differently is stated as assumed.
    plan_bands: tuple[str, ...] = ()
    description: str = ""
    # Whether a run with both a step limit and a number of dataset passes stops at whichever comes first
    # (verl, EasyR1); TRL's max_steps overrides num_train_epochs instead.
    stops_at_first_limit: bool = True
    changes: dict[str, str] = {}  # noqa: RUF012  (version → what changed in it that matters to a config)
    writes_from: str | None = None  # the oldest version the writer writes; older listed ones are read only
    pip_name: str | None = None  # the package a project pins (name==X) to say which release it runs
    # A copy of the framework kept in the project: (its version file, a folder that must stand beside that file).
    version_files: tuple[tuple[str, str | None], ...] = ()

    # A copy's own config file (relative to the folder holding the package), whose keys tell a pre-release
    # copy's era: ``verl/trainer/config/ppo_trainer.yaml``.
    copy_config: str | None = None
    # A package the project pins beside this one that the reader takes with it (TRL: transformers).
    companion: str | None = None

    def project_evidence(self, source: Source) -> list[Evidence]:
        """What the script's project states about this framework's version (:mod:`translator.sources.project`):
        copies of the framework it keeps (:attr:`version_files`, at any depth), pins of :attr:`pip_name` in its
        dependency files, install lines and READMEs, and git pins; the strongest first."""
        from translator.sources.project import evidence, normal

        if source.base_dir is None or source.files:
            return []
        wanted = {normal(self.pip_name or self.name), normal(self.companion or self.name)}
        copies = tuple((normal(self.pip_name or self.name), relative, beside) for relative, beside in self.version_files)
        return [e for e in evidence(os.fspath(source.base_dir), copies, source.text) if e.package in wanted]

    def keys_in(self, version: str) -> set[str] | None:
        """The config keys ``version`` has (to tell a pre-release copy's era from its own config); None: unknown."""
        del version
        return None

    def writable(self, version: str) -> str:
        """``version``, or the oldest version the writer writes when ``version`` is read only."""
        return self.writes_from if self.writes_from and not at_least(version, self.writes_from) else version

    @property
    def default_version(self) -> str:
        return self.versions[-1]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "read" in cls.__dict__:  # every dialect's reading gets the variable policy applied once, centrally
            cls.read = _with_unknowns(cls.__dict__["read"])  # type: ignore[method-assign]

    def read(self, source: Source, options: ReadOptions) -> Reading:
        raise NotImplementedError

    def spelling(self, key: str, version: str | None) -> str:
        """How ``version`` spells a native key as the reader stores it (derivations name keys so): the same key,
        unless a framework stores keys under scheme-neutral names (one flag spelled flat or dotted by release)."""
        return key

    def write(self, spec: RunSpec, version: str, notes: NoteList) -> dict[str, str]:
        """The files a user runs for this framework and version, by relative name."""
        raise NotImplementedError

    def resolve_version(self, version: str | None) -> str:
        """A version as users spell it → the listed version whose behaviour applies. Accepted: a listed
        version, a leading ``v``, ``latest``, ``MAJOR.MINOR`` (the newest listed release of it; for
        dated versions ``2025.03``), any release inside the listed range (the newest listed one at or
        below it, with an info note), a newer one (the newest listed, with a warning). Older than the oldest
        listed is a ConfigError. Notes are kept until :meth:`take_version_notes` (a read includes them)."""
        if version is None:
            return self.default_version
        text = version.strip()
        text = text[1:] if text[:1] in "vV" and text[1:2].isdigit() else text
        if text in self.versions:
            return text
        if text.lower() in ("latest", "newest", "head"):
            return self.default_version
        release = _RELEASE.fullmatch(text)
        if release and release["pre"]:
            return self._before(release["release"], version)
        if release:  # '0.3.0.post1', '0.4.1+cu124': the release's own behaviour
            text = release["release"]
            if text in self.versions:
                return text
        wanted = version_key(text) if _NUMBERS.fullmatch(text) else None
        if wanted is None:  # '-1', '', 'x.y': no release is spelled so
            raise ConfigError(f"unknown {self.name} version '{version}'",
                              hint=f"a release ({self._nearest(text)}), MAJOR.MINOR, or latest")
        keys = [(version_key(v) or (), v) for v in self.versions]
        if (keys[0][0][:1] or (0,))[0] >= 1000 > wanted[0]:  # dated versions (2025.03.13): '9' is no date
            raise ConfigError(f"unknown {self.name} version '{version}'",
                              hint=f"a date YYYY.MM.DD or YYYY.MM, latest, or one of: {', '.join(self.versions)}")
        same_prefix = [v for k, v in keys if k[:len(wanted)] == wanted]
        if len(same_prefix) > 1 and len(wanted) >= 3:  # 0.2.0 when only 0.2.0.devA and 0.2.0.devB are listed
            raise ConfigError(f"{self.name} version '{version}' is ambiguous",
                              hint=f"known versions: {', '.join(same_prefix)}")
        if same_prefix and len(wanted) < max(len(k) for k, _ in keys):
            return same_prefix[-1]  # MAJOR.MINOR (or a date's year.month): its newest listed release
        if wanted < keys[0][0]:
            raise ConfigError(f"{self.name} {version} is older than the oldest supported version, {self.versions[0]}",
                              hint=f"rlconf reads {self.name} {self.versions[0]} to {self.versions[-1]}; "
                                   f"pass --from {self.name}@{self.versions[0]} if the config is the same there")
        if wanted > keys[-1][0] and wanted[:len(keys[-1][0])] != keys[-1][0]:
            if wanted[0] > keys[-1][0][0] and wanted[0] < 1000:
                # A later release of the newest series may come out after rlconf; a new major version is a
                # different program, and '99.0' no release at all: reading it as the newest would be a guess.
                raise ConfigError(f"{self.name} {version} is not a release rlconf knows (the newest is "
                                  f"{self.default_version})",
                                  hint=f"pass a release ({self._nearest(text)}) or latest")
            self.pending_notes.append(("warning", "version.newer-than-known",
                                       f"{self.name} {version} is newer than the newest version rlconf knows, "
                                       f"{self.default_version}; it is read as {self.default_version}"))
            return self.default_version
        band = [v for k, v in keys if k <= wanted][-1]
        self.pending_notes.append(("info", "version.band",
                                   f"{self.name} {version} has no entry of its own; it behaves like {band}, the "
                                   f"newest listed release at or below it"))
        return band

    def _nearest(self, text: str) -> str:
        """The listed releases nearest ``text`` in spelling, and the newest: for a hint."""
        import difflib

        near = difflib.get_close_matches(text, self.versions, n=3, cutoff=0.0)
        return ", ".join(dict.fromkeys([*near, self.default_version]))

    def _before(self, release: str, spelled: str) -> str:
        """A development snapshot or pre-release of ``release`` ('0.8.0.dev', '0.2.0rc1'): the newest listed
        release before it, with a note, since the snapshot holds some of ``release``'s changes at most."""
        wanted = version_key(release)
        older = [v for v in self.versions if (version_key(v) or ()) < wanted]  # type: ignore[operator]
        if not older:
            raise ConfigError(f"{self.name} {spelled} is older than the oldest supported version, {self.versions[0]}",
                              hint=f"rlconf reads {self.name} {self.versions[0]} to {self.versions[-1]}")
        self.pending_notes.append(("info", "version.pre-release",
                                   f"{self.name} {spelled} is a pre-release of {release}; it is read "
                                   f"as {older[-1]}, the newest release before it (pass --from "
                                   f"{self.name}@{release} if it already has {release}'s changes)"))
        return older[-1]

    @property
    def pending_notes(self) -> list[tuple[str, str, str]]:
        """(level, code, message) from resolving versions, not yet given to the user."""
        return self.__dict__.setdefault("_pending_notes", [])

    def take_version_notes(self, notes: NoteList | None = None) -> list[tuple[str, str, str]]:
        """The pending version notes, emptied; added to ``notes`` when given."""
        pending, self.__dict__["_pending_notes"] = list(self.pending_notes), []
        for level, code, message in pending:
            if notes is not None:
                notes.add(level, code, message)
        return pending


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
        if isinstance(value, Unknown):
            spec.derivations[dotted] = Derivation(unknown_text(value.names), _blocking_keys(value.names, keys),
                                                  UNKNOWN)
            return
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


_made: list[list[str]] = []  # per read in progress: the variables of the Unknowns handed out
_unset: list[list[str]] = []  # per read in progress: the variables its shell scripts never set (read_script)


def _with_unknowns(read: Any) -> Any:
    def wrapped(self: Dialect, source: Source, options: ReadOptions) -> Reading:
        _made.append([])
        _unset.append([])
        project = _project_version(self, source) if options.version is None else None
        if project and project.read_as:
            options = dataclasses.replace(options, version=project.read_as)
        if project and project.companion and options.companion is None:
            options = dataclasses.replace(options, companion=(project.companion.version, project.companion.where))
        try:
            reading = read(self, source, options)
        except (TypeError, ValueError, ZeroDivisionError) as error:
            names = list(dict.fromkeys(_made[-1]))
            if isinstance(error, ConfigError) or not names:
                raise
            # Where a dialect's arithmetic cannot carry an unknown count along, the old rule applies.
            env = " ".join(f"--env {n}=VALUE" for n in names if not n.startswith(("$(", "`")))
            raise ConfigError(f"{self.name} needs the value of {', '.join('$' + n for n in names)} to read "
                              f"this config, and the script never sets it", file=source.name,
                              hint=f"pass {env or '--env NAME=VALUE'}, or set it in the script") from None
        else:
            reading.spec.shell_variables = list(dict.fromkeys(_unset[-1]))
        finally:
            _made.pop()
            _unset.pop()
        self.take_version_notes(reading.notes)  # how --from FW@VERSION was resolved reaches the user
        if project:
            project.report(self, reading)
        mark_unknowns(reading)
        return reading

    wrapped.__doc__, wrapped.__name__ = read.__doc__, read.__name__
    return wrapped


@record
class ProjectVersion:
    """What a read takes from the project's own statements (:meth:`Dialect.project_evidence`)."""

    read_as: str | None  # the version to read with; None: the project states no release rlconf reads
    used: Evidence | None  # the evidence read_as comes from
    others: list[Evidence]  # other releases the project states (conflicts), strongest first
    commits: list[Evidence]  # git pins to a commit or branch: no release
    why: str = ""  # how a pre-release copy was placed
    candidates: tuple[str, ...] | None = None  # uncertain: the releases to check against (() every fitting one)
    companion: Evidence | None = None  # the pin of the dialect's companion package (TRL: transformers)

    def report(self, dialect: Dialect, reading: Reading) -> None:
        """The notes saying where the version came from, what else the project states, and what is unknown."""
        name, notes = dialect.name, reading.notes
        reading.candidates = self.candidates
        used = self.used
        if used is not None:
            kind = f"the {name} copy in this project" if used.kind == "copy" else \
                f"a git pin to tag {used.version}" if used.kind == "git-tag" else "a pin"
            if self.read_as:
                notes.info("version.project", f"{name} {used.version} from {used.where} ({kind}){self.why}; pass "
                           f"--from {name}@VERSION to choose another", source_keys=[used.where])
            else:
                notes.warning("version.project-unsupported", f"{name} {used.version} from {used.where} is not a "
                              f"version rlconf reads ({dialect.versions[0]} to {dialect.versions[-1]}); the version was "
                              "inferred from the keys instead", source_keys=[used.where])
        if self.others and used is not None:
            reason = "a copy kept in the project is what the launch imports" if used.kind == "copy" else \
                "it is the nearest to the script"
            listed = "; ".join(f"{e.version} at {e.where}" for e in self.others)
            ranged = " (rules whose verdict differs between them are checked per release)" if self.candidates else ""
            notes.warning("version.conflict", f"the project states other {name} releases: {listed}; "
                          f"{used.version} from {used.where} is used because {reason}{ranged}",
                          source_keys=[e.where for e in self.others])
        for commit in self.commits:
            what = "commit" if commit.kind == "git-commit" else "git reference"
            instead = f"{used.version} from {used.where} is used instead" if used is not None and self.read_as else \
                "the version is inferred from the keys, and check reports rules whose verdict differs per release"
            notes.warning("version.project-commit", f"{commit.where} installs {name} from {what} {commit.version}, "
                          f"not a release, so the release it matches is unknown; {instead}",
                          source_keys=[commit.where])


def _project_version(dialect: Dialect, source: Source) -> ProjectVersion | None:
    """The project's statements about ``dialect``'s version, ranked (see docs/launch-scripts.md, "The version
    the project states"): a copy of the framework beats pins, nearer beats farther; commits state no release."""
    from translator.sources.project import normal

    found = dialect.project_evidence(source)
    own = [e for e in found if e.package == normal(dialect.pip_name or dialect.name)]
    # The companion pin counts beside the framework's own statement (one install list), not from any other file.
    own_files = [e.file for e in own]
    companion = min((e for e in found if dialect.companion and e.package == normal(dialect.companion)
                     and e.kind == "pin" and e.file in own_files),
                    key=lambda e: own_files.index(e.file), default=None)
    if not own and companion is None:
        return None
    releases = [e for e in own if e.states_release]
    commits = list({e.version: e for e in reversed(own) if not e.states_release}.values())[::-1]
    used = releases[0] if releases else None
    read_as, why, candidates = _readable(dialect, used) if used else (None, "", None)
    others: list[Evidence] = []
    for evidence in releases[1:]:
        if evidence.version != used.version and all(o.version != evidence.version for o in others):  # type: ignore[union-attr]
            others.append(evidence)
    if read_as and others and candidates is None:
        resolved = {r for r in (_resolved(dialect, e.version) for e in [used, *others]) if r}  # type: ignore[list-item]
        if len(resolved) > 1:
            candidates = tuple(sorted(resolved, key=lambda v: version_key(split_version(v)) or ()))
    if commits and used is None:
        candidates = ()
    return ProjectVersion(read_as, used, others, commits, why, candidates, companion)


def split_version(version: str) -> str:
    """A version without a companion suffix ('0.16.0+transformers4.49.0' → '0.16.0')."""
    return version.split("+", 1)[0]


def _resolved(dialect: Dialect, version: str) -> str | None:
    """The listed version ``version`` reads as (None: rlconf reads no such version), without keeping notes."""
    try:
        return dialect.resolve_version(version)
    except ConfigError:
        return None
    finally:
        dialect.take_version_notes()


def _readable(dialect: Dialect, used: Evidence) -> tuple[str | None, str, tuple[str, ...] | None]:
    """(version to read with, how it was placed, candidates when undecided) for the evidence used. A copy whose
    version file names a pre-release ('0.2.0.dev') holds the release before it plus some of the release's
    changes: its own config file (:attr:`Dialect.copy_config`) tells which of the two its keys are."""
    before = _resolved(dialect, used.version)
    if before is None:
        return None, "", None
    release = _RELEASE.fullmatch(used.version)
    if used.kind != "copy" or not (release and release["pre"]):
        return used.version, "", None
    itself = _resolved(dialect, release["release"])
    if itself is None or itself == before:
        return used.version, "", None
    keys = _copy_keys(dialect, used)
    known_before, known_itself = dialect.keys_in(before), dialect.keys_in(itself)
    if keys is None or known_before is None or known_itself is None:
        return used.version, "", (before, itself)
    added, dropped = known_itself - known_before, known_before - known_itself
    score_itself = len(keys & added) + len(dropped - keys)
    score_before = len(keys & dropped) + len(added - keys)
    from translator.sources.project import shown

    config = shown(os.path.join(used.copy_dir or "", dialect.copy_config or ""))
    if score_itself > score_before:
        sample = ", ".join(sorted(keys & added)[:2]) or ", ".join(sorted(dropped - keys)[:2])
        return itself, (f"; a pre-release of {release['release']} whose own {config} has the keys of {itself} "
                        f"(e.g. {sample}), so it is read as {itself}"), None
    if score_before > score_itself:
        return before, (f"; a pre-release of {release['release']} whose own {config} has the keys of {before}, "
                        f"not those {itself} added, so it is read as {before}"), None
    return used.version, "", (before, itself)


def _copy_keys(dialect: Dialect, used: Evidence) -> set[str] | None:
    """The dotted keys of a copy's own config file (None: the copy has none rlconf can read)."""
    if not dialect.copy_config or not used.copy_dir:
        return None
    from translator.sources.files import flatten, load_yaml, read_text
    from translator.sources.project import MAX_FILE_BYTES

    path = os.path.join(used.copy_dir, dialect.copy_config)
    text = read_text(path, MAX_FILE_BYTES)
    try:
        data = load_yaml(text, path) if text is not None else None  # bounded: an alias bomb is refused
    except ConfigError:
        return None
    return set(flatten(data)) if isinstance(data, dict) else None


def mark_unknowns(reading: Reading) -> None:
    """Each :class:`Unknown` left in the spec becomes None with the derivation "unknown: depends on $NAME";
    plan quantities left None because of them (computed later, e.g. by BatchPlan.complete) get it too."""
    spec, derivations = reading.spec, reading.spec.derivations
    everything: list[str] = []  # the variables the batch plan's own inputs depend on
    for section in SECTIONS:
        part = getattr(spec, section)
        for name, value in list(vars(part).items()):
            if not isinstance(value, Unknown):
                continue
            setattr(part, name, None)
            old = derivations.get(f"{section}.{name}")
            keys = [k for k in (old.keys if old else []) if not k.startswith(("$", "`"))]
            derivations[f"{section}.{name}"] = Derivation(unknown_text(value.names),
                                                         _blocking_keys(value.names, keys), UNKNOWN)
            if section == "plan" or (section == "topology" and not name.startswith("rollout_")):
                everything += value.names
    everything = list(dict.fromkeys(everything))
    if not everything:
        return
    by_tokens = spec.token_budget.dynamic_batching  # micro-batches packed by tokens are null by design
    for name, value in vars(spec.plan).items():
        dotted = f"plan.{name}"
        old = derivations.get(dotted)
        if value is None and not name.startswith("_") and (old is None or old.origin != UNKNOWN):
            if name == "total_steps" and old is None:
                continue  # unknown for its own reason (the dataset size)
            if by_tokens and name in ("micro_batch_per_device", "grad_accum_steps"):
                continue
            derivations[dotted] = Derivation(unknown_text(everything), _blocking_keys(everything, []), UNKNOWN)


def _blocking_keys(blocking: list[str], keys: list[str]) -> list[str]:
    """Derivation keys of an unknown quantity: ``$NAME`` per blocking variable, then the native keys."""
    return [n if n.startswith(("$(", "`")) else f"${n}" for n in blocking] + keys


MAX_COUNT = 2**53  # larger counts are no real config, and would lose precision as floats
MAX_GPUS = 1_000_000  # GPU, node and process counts beyond any real cluster (writers list device ids and nodes)


def read_script(source: Source, env: Mapping[str, str], notes: NoteList) -> ShellScript:
    """A launch script read statically (never executed); what the shell reader noticed becomes info notes."""
    script = parse_shell(source.text, env=env, source=source.name)
    for shell_note in script.notes:
        notes.info(shell_note.code, f"{source.name}:{shell_note.line}: {shell_note.message}")
    unset = list(dict.fromkeys(name for c in script.commands for name in c.unresolved))
    if _unset:
        _unset[-1].extend(unset)
    if unset:
        shown = ", ".join(f"${n}" for n in unset)
        notes.info("shell.unset-variables", f"{source.name}: never set in the script, kept as written "
                   f"(${{NAME}}): {shown}; pass --env NAME=VALUE to give a value", source_keys=unset)
    return script


def note_several_launches(notes: NoteList, source: Source, read: ShellCommand, launches: list[ShellCommand]) -> None:
    """A script that starts several trainings one after another: which one is read, and where the others are
    (each is a run of its own; rlconf explains one)."""
    others = [c.line for c in launches if c is not read]
    if others:
        notes.warning("launch.several", f"{source.name}: {len(launches)} training launches in the script; the one "
                      f"on line {read.line} is read, not those on line(s) {', '.join(map(str, others))} (explain a "
                      "copy of the script with only the launch you mean)")


def require_resolved(command: ShellCommand, source: Source) -> None:
    """The variable policy: a variable the script never sets stays symbolic (``${NAME}`` in the word), so the
    launch command is read anyway. Only a plan quantity built from it becomes unknown, which the typed
    getters of :class:`Values` record (see :func:`unknown_because`). Kept so the dialects' call sites stay."""
    del command, source


class Unknown:
    """A count that depends on a variable with no known value (``$NODES``). The typed getters of
    :class:`Values` return it so a dialect's arithmetic runs unchanged: every operation gives Unknown again,
    comparisons are false and it is falsy like None. After a read, :func:`mark_unknowns` turns each one left
    in the spec into None with the derivation "unknown: depends on $NODES"."""

    __slots__ = ("names",)

    def __init__(self, names: Iterable[str]) -> None:
        self.names = list(dict.fromkeys(names))
        if _made:
            _made[-1].extend(self.names)

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
        f" (pass {env})" if env else "")


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


_NUMBERS = re.compile(r"\d+(?:\.\d+)*")  # a release or release prefix once pre/post/local parts are read
# A PEP 440 version as releases and checkouts spell it: '0.8.0.dev', '0.2.0.dev0', '0.3.0.post1', '0.9.0rc1'.
_RELEASE = re.compile(r"(?P<release>\d+(?:\.\d+)*)(?:[.-]?(?P<pre>dev|a|alpha|b|beta|rc|pre)\.?\d*)?"
                      r"(?:[.-]?post\.?\d*)?(?:\+[\w.]+)?", re.IGNORECASE)


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

    def __init__(self, values: Mapping[str, Any], origins: Mapping[str, str], defaults: Mapping[str, Any],
                 source_name: str) -> None:
        self.values = dict(values)
        self.origins = dict(origins)  # key → "file:line" or "file"
        self.defaults = dict(defaults)
        self.source_name = source_name
        self.used: set[str] = set()
        self.reads: list[str] = []  # keys in the order they were read (for provenance)
        # key → variables with no known value its value uses: typed getters give None for such a key
        self.unknown: dict[str, list[str]] = {}

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
        if isinstance(number, float) and not math.isfinite(number):  # nan/inf parse as floats but make every later comparison meaningless
            raise self._error(key, f"{key} must be a finite number, got {value!r}", f"set {key} to a real number")
        if abs(number) > MAX_COUNT:
            raise self._error(key, f"{key} is larger than any real run ({str(value)[:12]}…)",
                              f"set {key} to a realistic value")
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


def describe_mini_batch_plan(spec: RunSpec, prompts_label: str = "") -> None:
    """Derivations of the plan values BatchPlan.complete() computes, for frameworks that split a rollout into
    mini-batches of prompts × n."""
    plan, d = spec.plan, spec.derivations
    if plan.samples_per_step is not None:
        d["plan.samples_per_step"] = derived(
            f"{prompts_label}{fmt(plan.prompts_per_step)} prompts × {plan.samples_per_prompt} samples per prompt")
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
    """A value as people write it in a derivation: whole numbers without a point, fractions as 0.25, switches as
    true/false, lists as [a, b], a missing value as unset (never a Python repr)."""
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(fmt(item) for item in value) + "]"
    if isinstance(value, Fraction):
        value = int(value) if value.denominator == 1 else float(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:.6g}"
    return str(value)
