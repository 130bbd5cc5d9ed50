"""What every dialect provides (the Dialect base, a read's options and result) and the reader's glue: a launch
script read, unknown variables marked; the shared helpers are re-exported from their own modules."""

from __future__ import annotations

import dataclasses
import os
import posixpath
import sys
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any

# The Dialect base and the reader's glue live here; the helpers each job needs live in a module of their own
# (values, provenance, unknowns, versions, pins, formatting) and are re-exported ("as") for the dialects' imports.
from translator.dialects.formatting import fmt as fmt
from translator.dialects.pins import ProjectVersion as ProjectVersion
from translator.dialects.pins import project_version
from translator.dialects.provenance import derived as derived
from translator.dialects.provenance import from_config as from_config
from translator.dialects.provenance import track_provenance as track_provenance
from translator.dialects.release_names import Installed
from translator.dialects.release_names import load as load_release_names
from translator.dialects.unknowns import UNKNOWN as UNKNOWN
from translator.dialects.unknowns import Unknown as Unknown
from translator.dialects.unknowns import blocking_keys, handed_out
from translator.dialects.unknowns import real as real
from translator.dialects.unknowns import unknown_because as unknown_because
from translator.dialects.unknowns import unknown_text as unknown_text
from translator.dialects.unknowns import unknown_variables as unknown_variables
from translator.dialects.values import MAX_COUNT as MAX_COUNT
from translator.dialects.values import MAX_GPUS as MAX_GPUS
from translator.dialects.values import Values as Values
from translator.dialects.values import closest_key as closest_key
from translator.dialects.versions import NUMBERS_PATTERN, RELEASE_PATTERN
from translator.dialects.versions import at_least as at_least
from translator.dialects.versions import newer_than as newer_than
from translator.dialects.versions import split_version as split_version
from translator.dialects.versions import version_key as version_key
from translator.errors import ConfigError
from translator.notes import NoteList, Severity
from translator.plan import SECTIONS, Derivation, RunSpec
from translator.records import record
from translator.sources.files import Source, below
from translator.sources.project import Evidence
from translator.sources.shell import (
    Include,
    Listing,
    ShellCommand,
    ShellScript,
    job_runtime_env_json,
    parse_shell,
    symbolic_names,
)


@record
class CutOff:
    """Options on a line the line before does not continue onto: bash runs them as a command of their own (not
    found), and the launch runs without them."""

    line: int
    message: str
    hint: str
    options: list[str]


@record
class ReadOptions:
    version: str | None = None  # None: infer from the keys, else the newest known
    env: Mapping[str, str] = field(default_factory=dict)
    num_processes: int | None = None  # training world size where the config does not state it
    companion: tuple[str, str] | None = None  # (version, where) the project pins Dialect.companion at
    # The folder holding the framework's package in a copy the project keeps (its version file said so): an
    # editable install of it (`cd verl; pip install -e .`) is what `python -m verl...` runs when the run folder
    # does not hold the package itself.
    copy_dir: str | None = None
    # The releases the project's statements leave possible (a commit pin between two releases); None: the version
    # alone, (): any release that fits the keys
    candidates: tuple[str, ...] | None = None
    # Where the release the launched code imports is stated, when that is certain ("from requirements.txt:3", "as
    # --from names it"); None: a copy, a git install of the package anywhere in the project, or no statement
    release_installed: str | None = None


@record
class Reading:
    """What a reader returns: the canonical model and the notes made on the way."""

    spec: RunSpec
    notes: NoteList
    native: Values | None = None  # the native values as read (for rule checks); None for plan files
    # When the version is uncertain (conflicting or commit pins, an undecided pre-release copy): the releases
    # `check` runs its rules for; () every release that fits the keys; None: the version is not in doubt.
    candidates: tuple[str, ...] | None = None
    # The folder of the framework's own copy the project keeps and the launch imports (its code may differ from the
    # release's: a value type the release rejects may be one the copy accepts); None: the installed release runs.
    own_copy: str | None = None
    # Flags the project's own copy of the launched program defines (its parser takes them whatever the release's
    # schema says): not judged as unknown keys.
    own_flags: frozenset[str] = frozenset()
    # Whether every argument the launched program's parser takes is known (False: a project script whose parser
    # rlconf could not read in full, so no key is refused as unknown); None: the dialect does not say.
    arguments_known: bool | None = None
    # The launch script's undecided chains that left a variable unknown: the chain's line → its ways (branch numbers
    # for translator.sources.shell.BRANCH), to read the plan once per way.
    branch_ways: dict[int, list[int]] = field(default_factory=dict)
    # Options a broken line continuation cut off the launch (bash runs them as a command of their own)
    cut_off: list[CutOff] = field(default_factory=list)
    # Project files of the launched code's own that may keep the framework's start-up checks (a trainer copied from
    # a release's lineage), wherever the framework itself comes from.
    own_files: tuple[str, ...] = ()


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
    # Whether the training loader takes prompts_per_step prompts a step and drops the last partial batch, so that one
    # pass over a training set of P prompts is floor(P / prompts_per_step) steps (api._steps_from_the_dataset).
    steps_per_pass_from_rows: bool = False
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
    # The framework's commit bands (scripts/gen_commit_bands.py): which releases a pinned git commit lies between.
    commit_bands: str | None = None
    # The day each release was published (scripts/gen_release_dates.py): which releases a branch pin (git+…@main)
    # lies between at the day of the project's own commit.
    release_dates: str | None = None
    # Releases without an entry of their own that behave like a listed one, checked in the source at both tags:
    # release → (the listed release, why).
    same_as: dict[str, tuple[str, str]] = {}  # noqa: RUF012

    # The names each module of the framework's package defines per release, a file beside the dialect's module
    # (scripts/gen_release_names.py)
    release_names: str | None = None
    # Where the policy trains on the cluster's GPUs that other roles leave (NeMo-RL): a pattern of the keys whose GPU
    # counts, when the reader does not model them, may shrink it (translator/dialects/device_keys.py); None where
    # each role states its own GPUs.
    gpus_taken_by: str | None = None

    def release_table(self) -> str | None:
        """The path of :attr:`release_names` (a subclass's file is the parent's that names it); None: none."""
        if self.release_names is None:
            return None
        owner = next(c for c in type(self).__mro__ if "release_names" in vars(c))
        return os.path.join(os.path.dirname(sys.modules[owner.__module__].__file__ or ""), self.release_names)

    def installed(self, options: ReadOptions, stated: str, version: str) -> Installed | None:
        """The release(s) of the framework the launched code imports, when the project (or --from) states them as
        ``stated`` and keeps no copy of its own (``version``: the listed release it reads as); None: not judged."""
        table = self.release_table()
        if table is None or not options.release_installed or options.candidates == () or options.copy_dir:
            return None
        releases = options.candidates or (stated if stated in load_release_names(table).releases else version,)
        return Installed(self.name, table, releases, options.release_installed)

    def project_evidence(self, source: Source) -> list[Evidence]:
        """What the script's project states about this framework's version (:mod:`translator.sources.project`):
        copies of the framework it keeps (:attr:`version_files`, at any depth), pins of :attr:`pip_name` in its
        dependency files, install lines and READMEs, and git pins; the strongest first."""
        from translator.sources.project import evidence, normal, stated_in, written_for

        wanted = {normal(self.pip_name or self.name), normal(self.companion or self.name), normal(self.name)}
        # A file rlconf wrote names the release it was written for in its header, in a form the user reads too.
        header = [e for e in written_for(source.text, source.name) if e.package in wanted]
        if source.files:  # files held in memory (a written folder read back): its requirements.txt pins the release
            name = "requirements.txt"
            return header + [e for e in stated_in(source.files.get(name, ""), name) if e.package in wanted]
        if source.base_dir is None:
            return header
        copies = tuple(
            (normal(self.pip_name or self.name), relative, beside) for relative, beside in self.version_files
        )
        return header + [e for e in evidence(os.fspath(source.base_dir), copies, source.text) if e.package in wanted]

    def keys_in(self, version: str) -> set[str] | None:
        """The config keys ``version`` has (to tell a pre-release copy's era from its own config); None: unknown."""
        del version
        return None

    # A copy whose config is classes, not a file (EasyR1's dataclasses): the package folder they are read from.
    copy_package: str | None = None

    def copy_keys(self, copy_dir: str) -> set[str] | None:
        """The dotted keys a project's copy of the framework declares in its config classes (``copy_dir``: the
        folder holding the package); None where the dialect reads the copy's config file instead."""
        del copy_dir
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

    def training_prompts(self, spec: RunSpec, values: Values) -> tuple[int, str] | None:
        """The prompts the run's training set holds where the framework loads it by a registry name of its own and the
        config leaves it as the count holds for: (prompts, the set and where the count comes from). A step limit is
        weighed against it instead of an assumed size (api._weigh_step_cap). None: not known here."""
        return None

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
        release = RELEASE_PATTERN.fullmatch(text)
        if release and release["pre"]:
            return self._before(release["release"], version)
        if release:  # '0.3.0.post1', '0.4.1+cu124': the release's own behaviour
            text = release["release"]
            if text in self.versions:
                return text
        wanted = version_key(text) if NUMBERS_PATTERN.fullmatch(text) else None
        if wanted is None:  # '-1', '', 'x.y': no release is spelled so
            raise ConfigError(
                f"unknown {self.name} version '{version}'",
                hint=f"a release ({self._nearest(text)}), MAJOR.MINOR, or latest",
            )
        keys = [(version_key(v) or (), v) for v in self.versions]
        if (keys[0][0][:1] or (0,))[0] >= 1000 > wanted[0]:  # dated versions (2025.03.13): '9' is no date
            raise ConfigError(
                f"unknown {self.name} version '{version}'",
                hint=f"a date YYYY.MM.DD or YYYY.MM, latest, or one of: {', '.join(self.versions)}",
            )
        same_prefix = [v for k, v in keys if k[: len(wanted)] == wanted]
        if len(same_prefix) > 1 and len(wanted) >= 3:  # 0.2.0 when only 0.2.0.devA and 0.2.0.devB are listed
            raise ConfigError(
                f"{self.name} version '{version}' is ambiguous", hint=f"known versions: {', '.join(same_prefix)}"
            )
        if same_prefix and len(wanted) < max(len(k) for k, _ in keys):
            return same_prefix[-1]  # MAJOR.MINOR (or a date's year.month): its newest listed release
        if wanted < keys[0][0]:
            raise ConfigError(
                f"{self.name} {version} is older than the oldest supported version, {self.versions[0]}",
                hint=f"rlconf reads {self.name} {self.versions[0]} to {self.versions[-1]}; "
                f"pass --from {self.name}@{self.versions[0]} if the config is the same there",
            )
        if wanted > keys[-1][0] and wanted[: len(keys[-1][0])] != keys[-1][0]:
            if wanted[0] > keys[-1][0][0] and wanted[0] < 1000:
                # A later release of the newest series may come out after rlconf; a new major version is a
                # different program, and '99.0' no release at all: reading it as the newest would be a guess.
                raise ConfigError(
                    f"{self.name} {version} is not a release rlconf knows (the newest is {self.default_version})",
                    hint=f"pass a release ({self._nearest(text)}) or latest",
                )
            self.pending_notes.append(
                (
                    "warning",
                    "version.newer-than-known",
                    f"{self.name} {version} is newer than the newest version rlconf knows, "
                    f"{self.default_version}; it is read as {self.default_version}",
                )
            )
            return self.default_version
        spelled = ".".join(str(part) for part in wanted)
        if spelled in self.same_as:  # checked in the framework's source: it behaves like a listed release
            same, why = self.same_as[spelled]
            self.pending_notes.append(("info", "version.band", f"{self.name} {version} behaves like {same}: {why}"))
            return same
        band = [v for k, v in keys if k <= wanted][-1]
        above = next(v for k, v in keys if k > wanted)
        # Its code lies between two releases rlconf reads: both are candidates (explain marks the quantities they
        # read differently as assumed; check gives the verdict of each).
        self.__dict__["_band_candidates"] = (band, above)
        self.pending_notes.append(
            (
                "info",
                "version.band",
                f"{self.name} {version} has no entry of its own: it is read as {band}, the newest listed release "
                f"below it, and checked against {above} too (quantities the two read differently are assumed)",
            )
        )
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
            raise ConfigError(
                f"{self.name} {spelled} is older than the oldest supported version, {self.versions[0]}",
                hint=f"rlconf reads {self.name} {self.versions[0]} to {self.versions[-1]}",
            )
        listed = next((v for v in self.versions if version_key(v) == wanted), None)
        if listed is not None:  # its code lies between the two: both are candidates, as for a band
            self.__dict__["_band_candidates"] = (older[-1], listed)
        self.pending_notes.append(
            (
                "info",
                "version.pre-release",
                f"{self.name} {spelled} is a pre-release of {release}; it is read "
                f"as {older[-1]}, the newest release before it"
                + (
                    f", and checked against {listed} too (quantities the two read differently are assumed)"
                    if listed
                    else ""
                )
                + f" (pass --from {self.name}@{release} if it already has {release}'s changes)",
            )
        )
        return older[-1]

    @property
    def pending_notes(self) -> list[tuple[Severity, str, str]]:
        """(level, code, message) from resolving versions, not yet given to the user."""
        return self.__dict__.setdefault("_pending_notes", [])

    def take_version_notes(self, notes: NoteList | None = None) -> list[tuple[Severity, str, str]]:
        """The pending version notes, emptied; added to ``notes`` when given."""
        self.__dict__.pop("_band_candidates", None)
        pending, self.__dict__["_pending_notes"] = list(self.pending_notes), []
        for level, code, message in pending:
            if notes is not None:
                notes.add(level, code, message)
        return pending


_unset: list[list[str]] = []  # per read in progress: the variables its shell scripts never set (read_script)
_chains: list[dict[int, list[int]]] = []  # per read in progress: its scripts' undecided chains (read_script)
_cut_offs: list[list[CutOff]] = []  # per read in progress: options its scripts cut off their launch (read_script)


def _with_unknowns(read: Any) -> Any:
    def wrapped(self: Dialect, source: Source, options: ReadOptions) -> Reading:
        handed_out.append([])
        _unset.append([])
        _chains.append({})
        _cut_offs.append([])
        project = project_version(self, source) if options.version is None else None
        if project and project.read_as:
            # a release installed from PyPI (a pin, or a commit of the framework's own history): not when the project
            # also installs the package from git (a fork's repository, a branch)
            used = project.used
            certain = used is not None and used.kind in ("pin", "git-commit") and not project.commits
            options = dataclasses.replace(
                options,
                version=project.read_as,
                candidates=project.candidates,
                release_installed=f"from {used.where}" if certain and used is not None else None,
            )
        if project and project.companion and options.companion is None:
            options = dataclasses.replace(options, companion=(project.companion.version, project.companion.where))
        if project and project.used and project.used.kind == "copy" and project.used.copy_dir:
            options = dataclasses.replace(options, copy_dir=project.used.copy_dir)
        try:
            reading = read(self, source, options)
        except (TypeError, ValueError, ZeroDivisionError) as error:
            names = list(dict.fromkeys(handed_out[-1]))
            if isinstance(error, ConfigError) or not names:
                raise
            # Where a dialect's arithmetic cannot carry an unknown count along, the old rule applies.
            env = " ".join(f"--env {n}=VALUE" for n in names if not n.startswith(("$(", "`")))
            raise ConfigError(
                f"{self.name} needs the value of {', '.join('$' + n for n in names)} to read "
                f"this config, and the script never sets it",
                file=source.name,
                hint=f"pass {env or '--env NAME=VALUE'}, or set it in the script",
            ) from None
        else:
            reading.spec.shell_variables = list(dict.fromkeys(_unset[-1]))
            reading.branch_ways = dict(_chains[-1])
            reading.cut_off = list(_cut_offs[-1])
        finally:
            handed_out.pop()
            _unset.pop()
            _chains.pop()
            _cut_offs.pop()
        band = self.__dict__.get("_band_candidates")
        if band and reading.candidates is None:  # a release between two listed ones: both are candidates
            reading.candidates = band
        self.take_version_notes(reading.notes)  # how --from FW@VERSION was resolved reaches the user
        if project:
            project.report(self, reading)
        mark_unknowns(reading)
        return reading

    wrapped.__doc__, wrapped.__name__ = read.__doc__, read.__name__
    return wrapped


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
            derivations[f"{section}.{name}"] = Derivation(
                unknown_text(value.names), blocking_keys(value.names, keys), UNKNOWN
            )
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
            derivations[dotted] = Derivation(unknown_text(everything), blocking_keys(everything, []), UNKNOWN)


_last_parse: dict[tuple[Any, ...], ShellScript] = {}  # the last script parsed (one entry)


def _parsed(source: Source, env: Mapping[str, str]) -> ShellScript:
    """The last script parsed, kept: where the release is inferred, explain reads the script again as each band of
    releases (api.Explanation._other_versions), and the parse does not depend on the release. No reader changes a
    parsed script (its commands, words and notes are only read). The key holds what the scripts it follows are
    found by (the script's folder, the files held in memory)."""
    key = (source.text, source.name, tuple(env.items()), str(source.base_dir), id(source.files) if source.files else 0)
    if key not in _last_parse:
        _last_parse.clear()
        _last_parse[key] = parse_shell(
            source.text, env=env, source=source.name, include=script_files(source), listing=script_listing(source)
        )
    return _last_parse[key]


def read_script(source: Source, env: Mapping[str, str], notes: NoteList) -> ShellScript:
    """A launch script read statically (never executed); what the shell reader noticed becomes info notes."""
    script = _parsed(source, env)
    _flags_run_as_commands(script, source, notes)
    _refuse_unparsable_job_env(script, source)
    for shell_note in script.notes:
        notes.info(shell_note.code, f"{source.name}:{shell_note.line}: {shell_note.message}")
    unset = list(dict.fromkeys(name for c in script.commands for name in c.unresolved))
    if _unset:
        _unset[-1].extend(unset)
    if _chains:
        _chains[-1].update(script.chains)
    if unset:
        shown = ", ".join(f"${n}" for n in unset)
        notes.info(
            "shell.unset-variables",
            f"{source.name}: never set in the script, kept as written "
            f"(${{NAME}}): {shown}; pass --env NAME=VALUE to give a value",
            source_keys=unset,
        )
    return script


def _flags_run_as_commands(script: ShellScript, source: Source, notes: NoteList) -> None:
    r"""A command whose program word is an option (``--rollout-batch-size 8`` on a line of its own) is one bash
    cannot run ("command not found"): the line before it ended its command (a line ending in ``\\`` escapes the
    backslash; a space after ``\`` or a blank line breaks the continuation). Where those words hold the program the
    launch runs (``-- python3 -m pkg.train ...`` after ``ray job submit``), the training never starts:
    ConfigError. Otherwise the launch runs without those options: the plan is read as bash runs it, with an error
    note naming what it drops (translator/api.py refuses the file where one of them sets a plan quantity)."""
    for command in script.commands:
        if not command.argv or not command.argv[0].startswith("-") or command.argv[0] == "-":
            continue
        message = (
            f"'{command.argv[0]}' runs as a command (bash: command not found): the line before it does not continue "
            "onto it, so the launch runs without the options from here on"
        )
        hint = "end each continued line with a single '\\' and nothing after it"
        if any(_names_program(word) for word in command.argv[1:]):
            raise ConfigError(message, file=source.name, line=command.line, hint=hint)
        dropped = [word for word in command.argv if word.startswith("-")]
        notes.error(
            "shell.options-run-as-command",
            f"{source.name}:{command.line}: {message} ({', '.join(dropped[:6])}"
            f"{' …' if len(dropped) > 6 else ''} are not passed; the plan is read without them); {hint}",
            source_keys=dropped,
        )
        if _cut_offs:
            _cut_offs[-1].append(CutOff(command.line, message, hint, dropped))


def _refuse_unparsable_job_env(script: ShellScript, source: Source) -> None:
    """A ``ray job submit --runtime-env-json TEXT`` whose TEXT (every part known) is not JSON: Ray's job CLI reads
    it with ``json.loads`` (``parse_runtime_env_args``, ray/dashboard/modules/dashboard_sdk.py) before it submits
    anything, so the job never starts: ConfigError."""
    import json

    for command in script.commands:
        text = job_runtime_env_json(command.argv)
        if text is None or symbolic_names(text):
            continue
        try:
            json.loads(text)
        except ValueError as error:
            raise ConfigError(
                f"ray job submit's --runtime-env-json is not JSON ({error}): Ray reads it with json.loads before "
                "it submits the job, so the training never starts",
                file=source.name,
                line=command.line,
                hint="write the runtime env as JSON (every string in double quotes)",
            ) from None


_LAUNCHERS = frozenset(("torchrun", "deepspeed", "accelerate", "ray", "uv", "bash", "sh"))


def _names_program(word: str) -> bool:
    """A word that names a program or the script a launch runs (``python3``, ``torchrun``, ``train.py``, ``-m``)."""
    name = word.rsplit("/", 1)[-1]
    return (
        word in ("-m", "--module") or name.endswith((".py", ".sh")) or name.startswith("python") or (name in _LAUNCHERS)
    )


def _note_vanishing_values(command: ShellCommand, name: str, notes: NoteList) -> None:
    """An option's value written as an unquoted reference to a variable the script never sets (``--run_name
    $NAME``): unless the environment sets it, bash drops the word and the option takes the next word as its value
    (or none, and the program's parser stops)."""
    for i in command.vanishing:
        option, word = command.argv[i - 1] if i else "", command.argv[i]
        if not option.startswith("-") or "=" in option or option in ("-", "--"):
            continue
        following = command.argv[i + 1] if i + 1 < len(command.argv) else None
        then = f"takes the next word, {following!r}, as its value" if following else "has no value"
        notes.warning(
            "shell.vanishing-value",
            f"{name}:{command.line}: {option} {word}: the script never sets {word[2:-1]}, and the reference is not "
            f"quoted: unless the environment sets it, bash drops the word and {option} {then} (a parser that "
            "expects a value stops at start-up)",
            source_keys=[word[2:-1]],
        )


def sibling_in_project(source: Source, relative: str, what: str) -> Source:
    """:meth:`Source.sibling`, where an absolute path of the author's machine that this one lacks
    (``/home/me/repo/configs/x.yaml``) is the project's own file at that path below the checkout (the user points it
    at theirs): read so, and said in a warning ``input.config-in-project`` (``Source.relocated``)."""
    if posixpath.isabs(relative) and not os.path.exists(relative) and source.base_dir is not None and not source.files:
        from translator.sources.code import project_copy_of

        held = project_copy_of(os.fspath(source.base_dir), relative)
        if held is not None:
            found = source.sibling(held, what)
            source.relocated.append(
                f"{what} '{relative}' is not on this machine, so the launch as written stops there (file not "
                f"found): read as the project's {os.path.relpath(held, os.getcwd())}, the same path below the "
                "author's checkout (point the launch at your checkout)"
            )
            return found
    return source.sibling(relative, what)


def script_files(source: Source) -> Include:
    """How the shell reader gets a script the launch runs or sources: the file the path names, from the folder the
    script has moved to (``cd``), then as :meth:`Source.sibling` finds it (the script's folder, the working
    directory); read bounded, never run."""

    def include(path: str, cwd: str | None, inside: bool = False) -> tuple[str, str] | None:
        tried = [posixpath.join(cwd, path)] if cwd and not posixpath.isabs(path) else []
        for candidate in [*tried, path]:
            try:
                found = sibling_in_project(source, candidate, "script")
            except ConfigError:
                continue
            if inside and not _in_project(source, found.name):
                return None  # the machine's file (the author's /home/me/x), not the project's
            return found.text, found.name
        return None

    return include


def _in_project(source: Source, path: str) -> bool:
    """Whether ``path`` is a file of the project ``source`` belongs to (its checkout, found from the script's folder
    and from the working directory as :func:`script_listing` finds it)."""
    from translator.sources.code import project_root

    if source.files:
        return True  # files held in memory are the project's
    bases = [os.fspath(source.base_dir)] if source.base_dir is not None else []
    return any(below(os.path.realpath(path), project_root(base)) for base in [*bases, os.getcwd()])


MAX_LISTED = 1000  # paths one glob or find in a launch script may list


def script_listing(source: Source) -> Listing:
    """How the shell reader lists the files a glob (``configs/*.yaml``) or ``find DIR -maxdepth 1 -name PAT``
    names: in the folder the script moved to, from the script's folder, then the working directory (as
    :meth:`Source.sibling` looks), inside the project, one folder level only, at most ``MAX_LISTED`` paths; None
    for a script held in memory or a pattern that leaves the project."""
    import glob

    def listing(pattern: str, cwd: str | None, kind: str | None) -> list[str] | None:
        if source.base_dir is None or source.files or "**" in pattern or posixpath.isabs(pattern):
            return None
        from translator.sources.code import project_root

        inside = False
        for base in (os.fspath(source.base_dir), os.getcwd()):
            folder = os.path.normpath(os.path.join(base, cwd or ""))
            if not below(os.path.realpath(os.path.join(folder, posixpath.dirname(pattern))), project_root(base)):
                continue  # outside the project the script belongs to
            inside = True
            if kind in _FILE_TESTS:  # `[[ -f path ]]`: the path itself, when it is there
                if _FILE_TESTS[kind](os.path.join(folder, pattern)):
                    return [pattern]
                continue
            found = sorted(glob.glob(pattern, root_dir=folder))[:MAX_LISTED]
            if kind is not None:
                test = os.path.isfile if kind == "f" else os.path.isdir
                found = [f for f in found if test(os.path.join(folder, f))]
            if found:
                return found
        return [] if inside and kind in _FILE_TESTS else None

    return listing


# `test`'s file operators the shell reader decides for a path inside the project (its checkout is the user's)
_FILE_TESTS: dict[str, Callable[[str], bool]] = {"-f": os.path.isfile, "-d": os.path.isdir, "-e": os.path.exists}


def exported(script: ShellScript, command: ShellCommand, name: str) -> str | None:
    """The value the launch command sees in the environment variable ``name`` (set in the script or on the
    command's line), or None."""
    value = {**script.variables, **command.assignments}.get(name)
    return str(value) if value else None


def entity_from_environment(spec: RunSpec, entity: str | None) -> None:
    """The W&B entity a framework with no config key for it takes from WANDB_ENTITY (wandb.init reads it), where
    the launch script exports it."""
    if entity and not spec.logging.entity:
        spec.logging.entity = entity
        spec.derivations["logging.entity"] = Derivation(
            f"WANDB_ENTITY={entity} exported by the launch script (wandb.init)", [], "config"
        )


def note_launch(notes: NoteList, source: Source, read: ShellCommand, launches: list[ShellCommand]) -> None:
    """What the launch command read says beyond its values: an option whose value may vanish; in a script that
    starts several trainings one after another, which one is read and where the others are (each is a run of its
    own; rlconf explains one)."""
    _note_vanishing_values(read, source.name, notes)
    others = [c.line for c in launches if c is not read]
    if others:
        notes.warning(
            "launch.several",
            f"{source.name}: {len(launches)} training launches in the script; the one "
            f"on line {read.line} is read, not those on line(s) {', '.join(map(str, others))} (explain a "
            "copy of the script with only the launch you mean)",
        )


def require_resolved(command: ShellCommand, source: Source) -> None:
    """The variable policy: a variable the script never sets stays symbolic (``${NAME}`` in the word), so the
    launch command is read anyway. Only a plan quantity built from it becomes unknown, which the typed
    getters of :class:`Values` record (see :func:`unknown_because`). Kept so the dialects' call sites stay."""
    del command, source


def describe_mini_batch_plan(spec: RunSpec, prompts_label: str = "") -> None:
    """Derivations of the plan values BatchPlan.complete() computes, for frameworks that split a rollout into
    mini-batches of prompts × n."""
    plan, d = spec.plan, spec.derivations
    if plan.samples_per_step is not None:
        d["plan.samples_per_step"] = derived(
            f"{prompts_label}{fmt(plan.prompts_per_step)} prompts × {plan.samples_per_prompt} samples per prompt"
        )
    if plan.optimizer_steps_per_step is not None:
        d["plan.optimizer_steps_per_step"] = derived(
            f"ppo_epochs {plan.epochs_per_step} × ceil({fmt(plan.samples_per_step)} samples ÷ "
            f"{fmt(plan.samples_per_optimizer_step)} per mini-batch)"
        )
    if plan.grad_accum_steps is not None:
        d["plan.grad_accum_steps"] = derived(
            f"{fmt(plan.samples_per_optimizer_step)} samples ÷ {plan.data_parallel_size} DP ranks ÷ micro "
            f"{fmt(plan.micro_batch_per_device)}"
        )
