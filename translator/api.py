"""The library: load / explain / translate. The CLI is a thin layer over these."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import field, replace
from fractions import Fraction
from math import prod
from os import PathLike
from typing import TYPE_CHECKING, Any

from translator import dialects
from translator.certainty import Certainty, assumed, plan_certainty
from translator.dialects import device_keys, rejected_keys
from translator.dialects.base import MAX_GPUS, Reading, ReadOptions, Values, unknown_because
from translator.errors import ConfigError
from translator.notes import Note, NoteList
from translator.patterns import lazy
from translator.plan import RunSpec, to_json_number
from translator.records import record
from translator.sources.files import Source, guess_suffix, read_source

if TYPE_CHECKING:
    from translator.checks import CheckReport, Finding
    from translator.rule_info import RuleInfo


@record
class Explanation:
    """A config read into the canonical model, with the notes made reading it."""

    spec: RunSpec
    notes: list[Note]
    source: str
    native: Values | None = field(default=None, repr=False)  # native values as read, for rule checks
    dataset_size: int | None = None  # prompts in the training set, when given (for the run length)
    # An uncertain version (Reading.candidates): the releases `check` also runs the rules for, and how to read
    # the config as one of them.
    candidates: tuple[str, ...] | None = field(default=None, repr=False)
    reread: Any = field(default=None, repr=False, compare=False)
    # A world size that is only assumed (a script given alone): how to read the config at a given world size.
    reread_world: Any = field(default=None, repr=False, compare=False)
    # Whether the launch certainly runs the release's own code (no fork, no copy in the project, no install from
    # a branch): only then is what that code refuses at start-up certain to stop this launch.
    release_code: bool = field(default=False, repr=False, compare=False)
    # The packages of the framework's copies in the project whose code the launch may run instead of the release's.
    own_code: tuple[str, ...] = field(default=(), repr=False, compare=False)
    # The errors the release's start-up checks certainly raise (``start_errors``), when the caller asked for them.
    start_errors: list[Finding] = field(default_factory=list, repr=False, compare=False)

    @property
    def framework(self) -> str:
        return self.spec.framework

    @property
    def version(self) -> str | None:
        return self.spec.version

    @property
    def plan(self) -> dict[str, Any]:
        return self.spec.plan.to_dict()

    @property
    def certainty(self) -> dict[str, Certainty]:
        """Each plan quantity's certainty: read, default, derived, assumed (and on what) or unknown (and why)."""
        if "_certainty" not in self.__dict__:
            self.__dict__["_certainty"] = plan_certainty(self.spec, self.notes, self._other_versions())
        certainty: dict[str, Certainty] = self.__dict__["_certainty"]
        return certainty

    def _other_versions(self) -> dict[str, dict[str, Any]]:
        """Where the version was inferred from the keys: the plan as each release where the reader's arithmetic
        changes would read the config, for the releases that have every key it sets."""
        if self.reread is None:
            return {}
        dialect = dialects.get(self.framework)
        if self.candidates:  # the project's statements leave these releases (a pin to a commit between two)
            wanted: tuple[str, ...] = self.candidates
        elif any(n.code == "version.assumed" for n in self.notes):
            wanted = (dialect.versions[0], *dialect.plan_bands)
        else:
            return {}
        others = {}
        for version in dict.fromkeys(wanted):
            if version == self.version:
                continue
            try:
                other = self.reread(version)
            except ConfigError:
                continue
            if not any(
                n.code in ("keys.unknown-in-version", "version.conflicting-keys", "version.program-missing")
                for n in other.notes
            ):
                others[version] = other.spec.plan.to_dict()
        return others

    def to_dict(self) -> dict[str, Any]:
        from translator.dialects.rlconf import to_document
        from translator.summary import policy_status, run_length, step_picture

        document = to_document(self.spec, redacted=True)  # explain never prints a secret's value
        return {
            "framework": document.pop("framework"),
            "version": document.pop("version"),
            "source": self.source,
            "plan": document.pop("plan"),
            "certainty": {name: c.to_dict() for name, c in self.certainty.items()},
            "notes": [n.to_dict() for n in self.notes],
            **document,
            "step": step_picture(self.spec),
            "policy": policy_status(self.spec),
            "run": run_length(self.spec, self.dataset_size),
        }


@record
class Translation:
    """A config written for another framework: the files, the plan they give, and what changed."""

    source: Explanation
    framework: str
    version: str
    files: dict[str, str]
    spec: RunSpec
    notes: list[Note] = field(default_factory=list)
    # When the plan could not be kept exactly: nearby settings of the target that keep it (see find_alternatives).
    alternatives: list[Alternative] = field(default_factory=list)
    suppressed: list[Any] = field(default_factory=list)  # rules.Suppressed: notes silenced by a comment

    @property
    def plan(self) -> dict[str, Any]:
        return self.spec.plan.to_dict()

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source.to_dict(),
            "target": {"framework": self.framework, "version": self.version},
            "files": dict(self.files),
            "plan": self.plan,
            "notes": [n.to_dict() for n in self.notes],
            "alternatives": [a.to_dict() for a in self.alternatives],
            "accounting": [entry.to_dict() for entry in self.accounting()],
            "suppressed": [s.to_dict() for s in self.suppressed],
        }

    @property
    def errors(self) -> list[Note]:
        """Error-level notes on what was written: the target would reject it (``target.rejected``) or run it
        differently in a way the writer could not avoid. ``rlconf translate`` exits 1 when there are any."""
        return [n for n in self.notes if n.severity == "error"]

    @property
    def failed(self) -> bool:
        """Whether `rlconf translate` exits 1 (without --strict): what it wrote has error notes. A property, so that
        ``if translation.failed:`` means what it says."""
        return self.fails()

    def fails(self, strict: bool = False) -> bool:
        """Whether `rlconf translate` exits 1: what it wrote has error notes; with --strict also any warning and
        any assumed plan quantity written (``plan.assumed``)."""
        notes = self.source.notes + self.notes
        return (
            bool(self.errors)
            or any(n.severity == "error" for n in self.source.notes)
            or (strict and any(n.severity == "warning" or n.code == "plan.assumed" for n in notes))
        )

    def accounting(self) -> list[KeyAccount]:
        """Where every key the source config sets went (see :class:`KeyAccount`)."""
        return account_keys(self.source, self.spec, self.notes)


class FilePath(str):
    """A string known to name a file (or ``-``), never config text: what the command line passes."""


def as_path(name: str) -> FilePath:
    return FilePath(name)


def _source(path_or_text: str | PathLike[str] | Source, stdin_text: str | None = None) -> Source:
    if isinstance(path_or_text, Source):
        return path_or_text
    if stdin_text is not None and not isinstance(stdin_text, str):
        raise ConfigError(
            f"stdin_text must be the text of standard input (a str), got {_kind(stdin_text)}",
            hint="pass sys.stdin.read(), or None",
        )
    if isinstance(path_or_text, PathLike):
        name = os.fspath(path_or_text)
        if not isinstance(name, str):
            raise ConfigError(f"a path must be text, got bytes {name!r}", hint="pass os.fsdecode(path)")
        return read_source(name)
    if not isinstance(path_or_text, str):  # None or a number is not the name of a file called 'None'
        raise ConfigError(
            f"a config is given as a path, the config text or a Source, got {_kind(path_or_text)}",
            hint="pass a str or pathlib.Path",
        )
    text = str(path_or_text)
    if text == "-":
        return stdin_source(stdin_text)
    if not isinstance(path_or_text, FilePath) and ("\n" in text or len(text) > 4096) and not _is_file(text):
        return Source(text, "<text>" + guess_suffix(text), os.getcwd())
    return read_source(text)


def source(path_or_text: str | PathLike[str] | Source, stdin_text: str | None = None) -> Source:
    """The config as read (once): a path, config text, ``-`` with standard input's text, or a Source."""
    return _source(path_or_text, stdin_text)


def stdin_source(text: str | None) -> Source:
    """Standard input's text as a Source, named by the kind of file it looks like (``<stdin>.yaml``)."""
    source = read_source("-", text)
    source.name = "<stdin>" + guess_suffix(source.text)
    return source


def _is_file(text: str) -> bool:
    """Whether text names an existing file (a name may hold a newline; config text is never a file name)."""
    try:
        return len(text) <= 4096 and os.path.isfile(text)
    except (OSError, ValueError):
        return False


def _kind(value: Any) -> str:
    shown = repr(value)
    return f"{type(value).__name__} {shown[:60] + '...' if len(shown) > 60 else shown}"


def _check_arguments(framework: Any, env: Any) -> dict[str, str]:
    """The library's own arguments, checked before any file is read: a wrong type is bad input (ConfigError),
    never an AttributeError deep inside a reader. Returns env as a plain dict."""
    if framework is not None and not isinstance(framework, str):
        raise ConfigError(
            f"framework must be a str: a framework name or alias, optionally @VERSION, got {_kind(framework)}",
            key="--from",
        )
    if env is None:
        return {}
    if not isinstance(env, Mapping):
        raise ConfigError(
            f"env must be a mapping of variable names to values, got {_kind(env)}",
            key="--env",
            hint="pass e.g. {'NGPUS': '8'}",
        )
    for name, value in env.items():
        if not isinstance(name, str) or not name:
            raise ConfigError(f"env names must be non-empty str, got {_kind(name)}", key="--env")
        if not isinstance(value, str):  # a shell variable holds text: 42 would be read back as '42' or not at all
            raise ConfigError(
                f"env value of {name} must be a str (shell variables are text), got {_kind(value)}",
                key="--env",
                hint=f"pass {{{name!r}: {str(value)!r}}}",
            )
    return dict(env)


def load(
    path_or_text: str | PathLike[str] | Source,
    framework: str | None = None,
    env: Mapping[str, str] | None = None,
    num_processes: int | None = None,
    stdin_text: str | None = None,
    refuse_rejected_keys: bool = False,
    find_start_errors: bool = False,
    *,
    other_releases: bool = True,
) -> Explanation:
    """Read a config (a path, ``-`` for standard input, or the text itself) into the canonical model.

    ``framework`` is ``NAME`` or ``NAME@VERSION`` (detected when None); ``env`` supplies shell variables a
    script expects; ``num_processes`` is the training world size where the config does not state it.
    Raises ConfigError for bad input, and with ``refuse_rejected_keys`` for a key the release's parser refuses
    (explain and translate: no plan of a launch that stops at start-up; check reports such keys as findings).
    With ``find_start_errors`` the errors the release's start-up checks certainly raise are kept in
    ``start_errors`` (explain refuses the config, translate notes them). ``other_releases`` False: the config is
    read as one other release only, for the comparison of plans (that reading compares with no release in turn).
    """
    if num_processes is not None and (
        isinstance(num_processes, bool) or not isinstance(num_processes, int) or num_processes <= 0
    ):
        raise ConfigError(
            f"num_processes must be a positive whole number, got {num_processes!r}", key="--num-processes"
        )
    env = _check_arguments(framework, env)
    source = _source(path_or_text, stdin_text)
    if framework:
        dialect, version = dialects.parse_framework(framework)
    else:
        dialect, version = dialects.detect(source), None
    options = ReadOptions(
        version=version,
        env=env,
        num_processes=num_processes,
        release_installed="as --from names it" if version else None,
    )
    held = _arguments_only(dialect, source)
    if held is not None:  # a file of arguments: read as passed to the launch that takes them
        source = replace(source, text=f"{source.text.rstrip()}\n{held[1]} ${held[0]}\n")
    reading = dialect.read(source, options)
    if held is not None:
        reading.notes.info(
            "input.arguments-only",
            f"{source.name} runs no program: its {held[0]} holds {dialect.name}'s arguments, read as passed to "
            f"`{held[1]}` (the job script that passes them on may add more: read it to see them all)",
            source_keys=[held[0]],
        )
    _refuse_cut_off_plan_options(dialect.name, source, reading)
    _settle_ways(dialect, source, options, reading)
    _weigh_step_cap(dialect, reading)
    device_keys.apply(reading, dialect.gpus_taken_by)
    _refuse_huge_cluster(reading.spec, source.name)
    notes = list(reading.notes)
    for read in source.relocated:  # the author's path, read as the project's file the user would point it at
        notes.append(Note("warning", "input.config-in-project", read, [], []))
    for read in source.outside:  # read as asked, but a config should not reach out of its project unseen
        notes.append(
            Note(
                "warning",
                "input.outside-project",
                f"{read}, outside the script's folder and the working directory",
                [],
                [],
            )
        )
    if reading.native is not None and reading.own_copy is None and source.base_dir is not None:
        rejected_keys.note_copy_in_project(dialect, reading, str(source.base_dir))
    if reading.native is not None:  # the native keys against the framework version's own schema
        from translator.native_schemas import validate_reading

        notes.extend(validate_reading(reading, source.text))  # raises ConfigError for a rejected value type
        if refuse_rejected_keys:
            rejected_keys.refuse(dialect, reading, notes, source.name, source.base_dir)
    explanation = Explanation(reading.spec, notes, source.name, reading.native)
    explanation.release_code = rejected_keys.runs_release_code(dialect, reading, notes, source.base_dir)
    explanation.own_code = rejected_keys.own_code_folders(dialect, reading, notes, source.base_dir)
    if reading.candidates is not None:
        explanation.candidates = reading.candidates
    if other_releases and (reading.candidates is not None or any(n.code == "version.assumed" for n in notes)):
        explanation.reread = lambda version: load(
            source,
            f"{dialect.name}@{version}",
            env,
            num_processes,
            refuse_rejected_keys=refuse_rejected_keys,
            other_releases=False,
        )
    if num_processes is None and getattr(explanation.certainty.get("data_parallel_size"), "level", "") == "assumed":
        explanation.reread_world = lambda world: load(
            source, framework, env, world, refuse_rejected_keys=refuse_rejected_keys
        )
    if find_start_errors:
        explanation.start_errors = start_errors(explanation, source.text)
    return explanation


def _arguments_only(dialect: Any, source: Source) -> tuple[str, str] | None:
    """(variable, launch) when ``source`` is a script of ``dialect``'s arguments that runs nothing
    (translator/dialects/sniff.py ``arguments_only``)."""
    from translator.dialects.sniff import arguments_only

    held = arguments_only(source) if not source.files else None
    return (held[1], held[2]) if held is not None and held[0] == dialect.name else None


def _refuse_cut_off_plan_options(framework: str, source: Source, reading: Reading) -> None:
    """Options a broken line continuation cut off from the launch (:class:`CutOff`) that set a plan quantity of the
    framework (``--n-samples-per-prompt``, its concordance says so): the run bash starts differs from the one written
    in just what rlconf reports, so the file is refused, naming them; other options (``--seed``) stay an error note
    on a plan read as bash runs the launch."""
    from translator.concordance import names, shapes_plan

    # a framework without a concordance of its own (Miles, slime's fork): any framework's plan keys
    frameworks = [framework] if framework in names() else names()
    for cut in reading.cut_off:
        shaping = [
            option
            for option in cut.options
            if any(
                shapes_plan(name, key)
                for name in frameworks
                for key in _spellings(option.lstrip("-").partition("=")[0])
            )
        ]
        if shaping:
            raise ConfigError(
                f"{cut.message} ({', '.join(shaping[:4])} set the batch plan: the run is not the one written)",
                file=source.name,
                line=cut.line,
                hint=cut.hint,
            )


def _spellings(key: str) -> set[str]:
    """A command-line option's key as a framework's concordance may spell it (``n-samples-per-prompt`` or
    ``n_samples_per_prompt``)."""
    return {key, key.replace("-", "_")}


MAX_WAYS = 12  # combinations of ways through a script's undecided chains read one at a time


def _settle_ways(dialect: Any, source: Source, options: ReadOptions, reading: Reading) -> None:
    """A plan quantity left unknown because a variable depends on which branch of an undecided chain runs (the
    script's argument picks a GPU layout) is read again once per way through the chains: where every way gives the
    same value (the layouts differ in what the quantity does not depend on), it is that value, derived; otherwise
    it stays unknown. A way that launches no training or stops at start-up (refused) trains nothing: the ways that
    read decide."""
    from itertools import product

    from translator.plan import PLAN_FIELDS, Derivation
    from translator.sources.shell import BRANCH

    open_fields = [name for name in PLAN_FIELDS if getattr(reading.spec.plan, name) is None and name != "total_steps"]
    chains = sorted(reading.branch_ways.items())[:3]
    if not open_fields or not chains or prod(len(ways) for _, ways in chains) > MAX_WAYS:
        return
    plans = []
    for choice in product(*(ways for _, ways in chains)):
        chosen = {f"{BRANCH}{line}": str(way) for (line, _), way in zip(chains, choice, strict=True)}
        try:
            plans.append(dialect.read(source, replace(options, env={**options.env, **chosen})).spec.plan)
        except ConfigError:
            continue
    if not plans:
        return
    where = ", ".join(f"line {line}" for line, _ in chains)
    settled = []
    for name in open_fields:
        values = {getattr(plan, name) for plan in plans}
        if len(values) == 1 and None not in values:
            setattr(reading.spec.plan, name, values.pop())
            reading.spec.derivations[f"plan.{name}"] = Derivation(
                f"the same on each of the {len(plans)} ways through the undecided chain at {where} (read once per way)"
            )
            settled.append(name)
    if settled:
        reading.notes.info(
            "shell.same-every-way",
            f"{source.name}: {', '.join(settled)} come out the same on each way through the undecided chain at "
            f"{where}, read once per way; what differs between the ways stays unknown",
        )


# Prompts a run's dataset is assumed to hold at most without being told: more than the common RL prompt sets (GSM8K
# 7,473; MATH 12,000; DAPO-Math-17k; DeepScaleR 40,315) hold. A step limit that needs more is not assumed reached.
ASSUMED_DATASET_PROMPTS = 100_000


def _weigh_step_cap(dialect: Any, reading: Reading) -> None:
    """A run that stops at total_steps C or when its E dataset passes end, whichever comes first (a dialect's
    ``stops_at_first_limit``; not one whose step limit passes over the data again): C steps only if the dataset
    holds C × prompts_per_step / E prompts. C stays the run's limit (run_length.step_cap: --dataset-size and
    translations use it); as the run's length it is assumed where the dataset is one the framework loads by name
    and holds that many prompts (``Dialect.training_prompts``), or, for any other, where that many prompts are at
    most ASSUMED_DATASET_PROMPTS; where a named dataset holds fewer, its passes are the run's length (assumed);
    else unknown."""
    from translator.dialects.base import UNKNOWN
    from translator.plan import Derivation
    from translator.summary import plural

    spec = reading.spec
    plan, passes = spec.plan, spec.run_length.dataset_passes
    cap, prompts = plan.total_steps, plan.prompts_per_step
    if not dialect.stops_at_first_limit or not isinstance(cap, int) or not passes:
        return
    spec.run_length.step_cap = cap
    if not prompts:  # how many steps a pass makes is not known, so neither is which limit comes first
        stated = spec.derivations.get("plan.total_steps")
        plan.total_steps = None
        spec.derivations["plan.total_steps"] = Derivation(
            f"unknown: the run stops at {stated.text if stated is not None else f'{cap} steps'} or when its passes "
            "over the dataset end, whichever comes first, and the prompts per step are unknown",
            list(stated.keys) if stated is not None else [],
            UNKNOWN,
        )
        return
    needed = -(-Fraction(cap) * Fraction(prompts) // Fraction(passes).limit_denominator(1000))
    stated = spec.derivations.get("plan.total_steps")
    why = stated.text if stated is not None else f"{cap} steps"
    keys = list(stated.keys) if stated is not None else []
    condition = (
        f"if the dataset holds at least {needed:,} prompts ({plural(passes, 'pass', 'passes')} of "
        f"{plural(prompts, 'prompt', 'prompts')} per step; with fewer, the passes end the run first)"
    )
    named = dialect.training_prompts(spec, reading.native) if reading.native is not None else None
    if named is not None:
        held = f"{named[1]}: {named[0]:,} prompts"
        condition = f"{condition}: {held}"
    arithmetic = _pass_arithmetic(dialect, spec)
    if named is not None and needed > named[0] and arithmetic is not None:
        # the named set ends the run first: its passes are the run, floor(held / prompts) steps each
        per_step, whole = arithmetic
        per_pass = int(min(named[0], spec.data.max_train_prompts or named[0]) // per_step)
        plan.total_steps = per_pass * whole
        spec.derivations["plan.total_steps"] = Derivation(
            f"{plural(per_pass, 'step', 'steps')} per pass ({held} // {per_step} prompts per step, the last partial "
            f"batch dropped) × {plural(whole, 'pass', 'passes')}, before {why}",
            [
                *keys,
                *(
                    spec.derivations["plan.prompts_per_step"].keys
                    if "plan.prompts_per_step" in spec.derivations
                    else []
                ),
            ],
            "assumed",
        )
    elif needed > (named[0] if named is not None else ASSUMED_DATASET_PROMPTS):
        plan.total_steps = None
        spec.derivations["plan.total_steps"] = Derivation(
            f"unknown: the run stops at {why} or when its passes over the dataset end, whichever comes first: "
            f"{cap} steps only {condition} (pass --dataset-size PROMPTS)",
            keys,
            UNKNOWN,
        )
    else:
        spec.derivations["plan.total_steps"] = Derivation(f"{why}, {condition}", keys, "assumed")


def _assumed_beyond_the_data(explanation: Explanation) -> list[str]:
    """The assumed plan quantities, leaving out a run length assumed only because the dataset may end the run
    before its step limit (:func:`_weigh_step_cap`): no start-up check reads it, and it rests on no assumption
    about the config."""
    spec = explanation.spec
    stated = spec.derivations.get("plan.total_steps")
    # weighed there (a step limit is kept) and assumed for that alone (no fork or other release changes it)
    dataset_only = (
        spec.run_length.step_cap is not None
        and stated is not None
        and stated.origin == "assumed"
        and explanation.certainty["total_steps"].why == stated.text
    )
    return [name for name in assumed(explanation.certainty) if not (name == "total_steps" and dataset_only)]


def _limited(spec: RunSpec) -> RunSpec:
    """The spec to write: a step limit the dataset may pre-empt (run_length.step_cap, plan.total_steps left unknown)
    is written as the target's step limit, beside the same dataset passes, so that the target stops where the
    source does; so is one whose run length is assumed from a dataset's size (the limit stays the source's)."""
    stated = spec.derivations.get("plan.total_steps")
    assumed_length = stated is not None and stated.origin == "assumed"
    if spec.run_length.step_cap is None or (spec.plan.total_steps is not None and not assumed_length):
        return spec
    return replace(spec, plan=replace(spec.plan, total_steps=spec.run_length.step_cap))


CLUSTER_COUNTS = (
    "nodes",
    "gpus_per_node",
    "training_gpus",
    "rollout_gpus",
    "sequence_parallel_size",
    "tensor_parallel_size",
    "pipeline_parallel_size",
    "context_parallel_size",
    "rollout_tensor_parallel_size",
    "rollout_engines",
)


def _refuse_huge_cluster(spec: RunSpec, name: str) -> None:
    """GPU, node and parallel counts past any real cluster → ConfigError, once for every reader: the writers list
    device ids and one entry per node, which such counts would make take minutes or all memory."""
    for field_name in CLUSTER_COUNTS:
        value = getattr(spec.topology, field_name)
        if isinstance(value, (int, Fraction)) and not isinstance(value, bool) and value > MAX_GPUS:
            keys = spec.derivations.get(f"topology.{field_name}")
            raise ConfigError(
                f"topology.{field_name} is {value}, beyond any real cluster (at most {MAX_GPUS})",
                file=name,
                key=", ".join(keys.keys) if keys and keys.keys else None,
                hint="state the real number of nodes, GPUs and parallel degrees",
            )


def explain(
    path_or_text: str | PathLike[str] | Source,
    framework: str | None = None,
    env: Mapping[str, str] | None = None,
    num_processes: int | None = None,
    stdin_text: str | None = None,
    dataset_size: int | None = None,
) -> Explanation:
    """The plan of a config with every value's derivation (see :func:`load`); ``dataset_size`` (prompts)
    lets the run length be stated in steps, optimizer steps and samples."""
    if dataset_size is not None and (
        isinstance(dataset_size, bool) or not isinstance(dataset_size, int) or dataset_size <= 0
    ):
        raise ConfigError(f"dataset_size must be a positive whole number, got {dataset_size!r}", key="--dataset-size")
    explanation = load(
        path_or_text, framework, env, num_processes, stdin_text, refuse_rejected_keys=True, find_start_errors=True
    )
    if explanation.start_errors:
        raise _stops_at_start(explanation)
    _refuse_empty_micro_batch(explanation)
    explanation.dataset_size = _steps_from_the_dataset(explanation, _base_dir(path_or_text), dataset_size)
    return explanation


def _refuse_empty_micro_batch(explanation: Explanation) -> None:
    """A micro-batch of 0 samples per rank (a global micro-batch smaller than the ranks a framework's workers divide
    it over: ``ppo_micro_batch_size //= world_size``) → ConfigError: the update splits each mini-batch into pieces of
    0 samples and stops at the first step (``split(0)``, a modulo by 0)."""
    spec = explanation.spec
    if spec.plan.micro_batch_per_device != 0:
        return
    derivation = spec.derivations.get("plan.micro_batch_per_device")
    raise ConfigError(
        f"0 samples per micro-batch per rank ({derivation.text if derivation is not None else 'derived'}): the update "
        "splits each mini-batch into micro-batches of 0 samples and stops at its first step",
        file=explanation.source,
        key=", ".join(derivation.keys) if derivation is not None and derivation.keys else None,
        hint="give a micro-batch of at least one sample per rank (a global one at least the data-parallel ranks)",
    )


def _base_dir(path_or_text: str | PathLike[str] | Source) -> str | None:
    """The folder of the config file given (where its relative paths are looked up first), when it is a file."""
    if isinstance(path_or_text, Source):
        return os.fspath(path_or_text.base_dir) if path_or_text.base_dir is not None else None
    name = os.fspath(path_or_text) if isinstance(path_or_text, (str, PathLike)) else None
    return os.path.dirname(os.path.abspath(name)) if isinstance(name, str) and _is_file(name) else None


def _pass_arithmetic(dialect: Any, spec: RunSpec) -> tuple[int | Fraction, int] | None:
    """(prompts per step, whole passes) where a pass over a training set of P prompts is floor(P / prompts_per_step)
    steps: the loader makes a step of prompts_per_step prompts and drops the last partial batch
    (``Dialect.steps_per_pass_from_rows``), the passes are whole, and no prompt is dropped first by a rule that needs
    the tokenizer (overlong prompts) or by the rollouts (group filtering, rounds of their own). None otherwise."""
    prompts, passes = spec.plan.prompts_per_step, spec.run_length.dataset_passes
    if (
        not dialect.steps_per_pass_from_rows
        or not prompts
        or not passes
        or passes != int(passes)
        or spec.data.filter_overlong_prompts
        or spec.generation.filter_groups
        or spec.generation.prompts_per_round
    ):
        return None
    return prompts, int(passes)


def _steps_from_the_dataset(explanation: Explanation, base_dir: str | None, given: int | None) -> int | None:
    """The prompts in the run's training set (``given`` by --dataset-size, else counted in the project's own files
    the config names: :func:`translator.sources.rows.counted_rows`) and, for a framework whose loader makes one step
    of prompts_per_step prompts and drops the last partial batch (``Dialect.steps_per_pass_from_rows``), the run
    length they give: floor(prompts / prompts_per_step) steps per pass × the passes, or the step limit when it comes
    first. Only where the run length waits on the dataset alone, and no prompt is dropped first by a rule that
    needs the tokenizer (overlong prompts) or by the rollouts (group filtering). Returns the prompt count."""
    from translator.dialects.unknowns import UNKNOWN
    from translator.plan import Derivation
    from translator.summary import plural

    spec = explanation.spec
    plan, passes, cap = spec.plan, spec.run_length.dataset_passes, spec.run_length.step_cap
    dialect = dialects.get(explanation.framework)
    stated = spec.derivations.get("plan.total_steps")
    # unknown, or assumed where a step limit was weighed against a dataset (reached, or a named set's passes first)
    waits_on_data = (plan.total_steps is None and (stated is None or cap is not None)) or (
        cap is not None and stated is not None and stated.origin == "assumed"
    )
    arithmetic = _pass_arithmetic(dialect, spec)
    if not waits_on_data or arithmetic is None:
        return given
    per_step, passes = arithmetic
    counted = (given, f"--dataset-size {given}") if given is not None else _counted_prompts(spec, base_dir)
    if counted is None:
        return given
    prompts, where = counted
    if spec.data.max_train_prompts and spec.data.max_train_prompts < prompts:
        prompts, where = spec.data.max_train_prompts, f"{where}, cut to max_train_prompts {spec.data.max_train_prompts}"
    per_pass = int(prompts // per_step)
    steps = per_pass * passes
    why = (
        f"{plural(per_pass, 'step', 'steps')} per pass ({where} // {per_step} prompts per step; the last "
        f"partial batch is dropped) × {plural(passes, 'pass', 'passes')}"
    )
    if cap is not None and cap < steps:
        steps, why = cap, f"the step limit {cap}, reached before the passes end ({why}: {steps})"
    elif cap is not None:
        why = f"{why}, before the step limit {cap}"
    prompt_keys = spec.derivations.get("plan.prompts_per_step")
    keys = [
        *(stated.keys if stated is not None and stated.origin != UNKNOWN else []),
        *(prompt_keys.keys if prompt_keys else []),
    ]
    plan.total_steps = steps
    spec.derivations["plan.total_steps"] = Derivation(why, list(dict.fromkeys(keys)), "derived")
    explanation.__dict__.pop("_certainty", None)
    if given is None:
        explanation.notes.append(
            Note(
                "info", "data.rows-counted", f"the run length is read from the training set the project holds: {where}"
            )
        )
    return prompts


def _counted_prompts(spec: RunSpec, base_dir: str | None) -> tuple[int, str] | None:
    """(rows, where they were counted) of the training source when it is one dataset file of the project the config
    belongs to, found from its folder, the working directory or the project's top (the same file from each that holds
    it); None otherwise (several sources, a Hub id, a folder, a variable, a file the project lacks or not counted)."""
    from translator.sources.code import project_root
    from translator.sources.files import below
    from translator.sources.rows import counted_rows

    sources = spec.data.train_sources or []
    if len(sources) != 1:  # several: concatenated by one loader, or a loader each (NeMo-RL): not told here
        return None
    start = base_dir or os.getcwd()
    root = project_root(start)
    written = sources[0]
    if "$" in written or not written.strip():
        return None
    bases = [] if os.path.isabs(written) else [start, os.getcwd(), root]
    candidates = {os.path.realpath(os.path.join(b, written)) for b in bases} if bases else {os.path.realpath(written)}
    found = [c for c in candidates if os.path.isfile(c) and below(c, root)]
    rows = counted_rows(found[0]) if len(found) == 1 else None
    return (rows, f"{rows:,} rows in {os.path.relpath(found[0], root)}") if rows is not None else None


def start_errors(explanation: Explanation, text: str) -> list[Finding]:
    """The errors the release's own code certainly stops on before training (check rules marked ``at_start``):
    the config is broken as published, and its plan is that of a run that never starts. Certain only where the
    launch runs the release's own code (or the project's own copy of it, whose code holds the framework's message
    for that check and forms batches as upstream's does), no plan quantity rests on an assumption (an assumed world
    size or default could be what breaks the rule), and, where the release is uncertain, the rule fails in every
    candidate release; a rule the config silences (``# rlconf: ignore[…]``) does not count."""
    if not explanation.release_code and not explanation.own_code:
        return []
    partial = ("framework.fork-entry-options", "input.unknown-overrides", "input.config-unknown")
    if any(n.code in partial for n in explanation.notes):
        return []  # options of the entry's own, words or a config rlconf cannot read: the checks see part of it
    from translator.checks import rules_for
    from translator.dialects import registry
    from translator.framework import load as load_object
    from translator.rules import filter_report

    errors = filter_report(check(explanation), text, None).errors
    at_start: dict[str, Any] = {}  # the rules of the frameworks whose codes the errors carry (Miles' give slime's)
    for name in {f.rule.split(".")[0] for f in errors}:
        entry = registry.lookup(name)
        rules_table = load_object(entry.rules) if entry is not None and entry.rules else ()
        at_start.update({rule.code: rule for rule in rules_table if rule.at_start})
    found = [f for f in errors if f.rule in at_start]
    assumed = _assumed_beyond_the_data(explanation)
    if found and assumed and (explanation.reread is None or explanation.reread_world is not None):
        # an assumed world size (or another assumption): only what stands at every world size; an uncertain
        # release alone is settled below, candidate by candidate
        found = _at_every_world_size(explanation, found, text)
    if not found:
        return []
    if not explanation.release_code:  # the project's own code runs: only the checks it keeps
        # code that forms batches its own way (a fork's batch code, a trainer copy of no known lineage) may feed its
        # checks other values than the config's; a trainer copy of a known release's lineage forms them as that one
        if any(
            n.code.startswith("framework.fork-batch") or n.code == "framework.fork-trainer-unknown"
            for n in explanation.notes
        ):
            return []
        other_release = [k for n in explanation.notes if n.code == "keys.unknown-in-version" for k in n.source_keys]
        if other_release and not _declared_by_copy(explanation, other_release):
            return []  # the config has keys of another release: the copy may be a snapshot other than the one read
        # declared by the copy, they are its keys; but the release read may take their section otherwise (another
        # release's reward_function beside its score_function): an error in that section is not certain
        sections = {k.rpartition(".")[0] for k in other_release}
        found = [f for f in found if not any(k.rpartition(".")[0] in sections for k in f.keys)]
        # a default the copy sets otherwise than the release may belong to a path of its code the run never takes
        # (a fork's server mode): an error built on it is reported by check, not certain enough to stop the read
        copied = {k for n in explanation.notes if n.code == "framework.copy-defaults" for k in n.source_keys[1:]}
        found = [f for f in found if not copied & set(f.keys)]
        kept = {code: _kept_by_copy(explanation.own_code, at_start[code]) for code in {f.rule for f in found}}
        found = [
            f
            for f in found
            if kept[f.rule]
            and not (at_start[f.rule].refuses_unknown_name and _value_named_by_copy(explanation.own_code, f))
        ]
        for f in found:
            f.message += f" ({kept[f.rule]})"
    rules = rules_for(explanation.framework)
    if explanation.reread is not None and rules is not None:  # an uncertain release: an error in every candidate
        verdicts = _release_verdicts(explanation, rules)
        found = [
            f
            for f in found
            if all(
                (f.rule, tuple(f.keys)) in by_rule and by_rule[(f.rule, tuple(f.keys))].severity == "error"
                for by_rule in verdicts.values()
            )
        ]
    return found


def _declared_by_copy(explanation: Explanation, keys: list[str]) -> bool:
    """Whether the project's one copy of the framework declares every one of ``keys`` in its own config classes
    (:meth:`Dialect.copy_keys`): then they are the copy's keys, not a sign that it is a snapshot of another
    release than the one read."""
    if len(explanation.own_code) != 1:
        return False
    declared = dialects.get(explanation.framework).copy_keys(os.path.dirname(explanation.own_code[0]))
    return declared is not None and set(keys) <= declared


# The training world sizes an error must stand at when the world size is only assumed (a script given alone)
WORLD_SIZES = (*range(1, 17), 24, 32, 48, 64, 96, 128)


def _at_every_world_size(explanation: Explanation, found: list[Finding], text: str) -> list[Finding]:
    """The errors that stand whatever the world size, where that is the only assumption (read at each of
    WORLD_SIZES, no quantity is assumed any more): a group size that divides no generation batch the config
    fixes, say. None otherwise: an assumed world size or default may be what breaks the rule."""
    from translator.rules import filter_report

    if explanation.reread_world is None:
        return []
    standing = {(f.rule, tuple(f.keys)) for f in found}
    for world in WORLD_SIZES:
        try:
            other = explanation.reread_world(world)
        except ConfigError:
            return []
        if _assumed_beyond_the_data(other):
            return []  # something else is assumed too
        standing &= {(f.rule, tuple(f.keys)) for f in filter_report(check(other), text, None).errors}
        if not standing:
            return []
    return [f for f in found if (f.rule, tuple(f.keys)) in standing]


FIRST_STEP = "the project's own code stops on it at the first training step"


def _kept_by_copy(own: tuple[str, ...], rule: RuleInfo) -> str | None:
    """How the project's copy of the framework (its packages ``own``) stops on ``rule``: the file:line holding the
    rule's start-up check, else the one holding its first-step assert; None when it holds neither. A text of
    another package (argparse, DeepSpeed, Python itself) tells nothing of what the copy keeps."""
    if rule.message_from:
        return None
    for message in (rule.message, *rule.earlier_messages):
        if where := rejected_keys.kept_by_own_code(own, message):
            return f"the project's own code keeps this check: {where}"
    if rule.first_step_message and (where := rejected_keys.kept_by_own_code(own, rule.first_step_message)):
        return f"{FIRST_STEP}: {where}"
    return None


_WORD = lazy(r"[A-Za-z_][\w.-]{2,63}")  # a name a copy may define (not a path, a number or a sentence)


def _value_named_by_copy(own: tuple[str, ...], finding: Finding) -> bool:
    """Whether the copy's code writes one of the finding's text values as a literal (a fork's own estimator or
    mode, "mbpo"): the copy may accept what the release's check refuses, so its kept check proves nothing."""
    words = [v for v in finding.values.values() if isinstance(v, str) and _WORD.fullmatch(v)]
    return any(rejected_keys.names_value(own, word) for word in words)


def _stops_at_start(explanation: Explanation) -> ConfigError:
    """`explain`'s refusal of a config with start-up errors: the first, with the fix `check` suggests."""
    found = explanation.start_errors
    first = found[0]
    file, line = rejected_keys.origin(explanation.native, first.keys, explanation.source)
    fixes = " or ".join(
        ", ".join(f"remove {k}" if v is None else f"{k}={v}" for k, v in fix.changes.items())
        for fix in first.suggestions[:2]
    )
    more = f" ({len(found) - 1} more start-up error(s): {', '.join(f.rule for f in found[1:4])})"
    when = "at its first training step" if FIRST_STEP in first.message else "at start-up"
    return ConfigError(
        first.message + (more if len(found) > 1 else ""),
        file=file,
        line=line,
        key=", ".join(first.keys) or None,
        hint=f"{explanation.framework} {explanation.version} stops {when} on this ({first.rule}"
        + (f"; fix: {fixes}" if fixes else "")
        + "); `rlconf check` lists every such error with its fixes",
    )


def read_back(dialect: Any, files: dict[str, str], main: str, version: str, spec: RunSpec) -> Reading:
    """The written files read with the target's reader. A variable the source left to the shell is written in
    the target's own live form ("${HOME}" in a script, ${oc.env:HOME} in OmegaConf YAML); it is read back as the
    source holds it, symbolic: ${HOME}."""
    symbolic = {name: f"${{{name}}}" for name in spec.shell_variables}
    reading = dialect.read(Source(files[main], main, None, files), ReadOptions(version=version, env=symbolic))
    _weigh_step_cap(dialect, reading)
    return reading


_POSITIONAL = lazy(r"\$\{?([0-9]+)\}?")


def _note_source_arguments(spec: RunSpec, target: str, notes: NoteList) -> None:
    """A value that holds one of the source script's own arguments (``$1``, never set: the user gives it when
    running that script) cannot be written: the written launch forwards its own arguments to the target as extra
    options, and a config file expands none. An error note names it and the ``--env`` that gives its value."""
    held = {name for name in spec.shell_variables if name.isdigit()}
    if not held:
        return
    values = [
        (f"{section}.{key}", value) for section, fields in spec.sections_dict().items() for key, value in fields.items()
    ]
    values += [(extra.key, extra.value) for extra in spec.extras]
    for where, value in values:
        numbers = [n for n in dict.fromkeys(_POSITIONAL.findall(str(value))) if n in held] if value is not None else []
        if numbers:
            notes.error(
                "shell.not-expressible",
                f"{where} holds ${{{numbers[0]}}}, argument {numbers[0]} of the source script, which the user gives "
                f"when running it; the written {target} launch takes no such argument, so the text ${{{numbers[0]}}} "
                f"would reach {target} as it is: translate with --env {numbers[0]}=VALUE",
                source_keys=[where],
            )


def translate(
    src: str | PathLike[str] | Source | Explanation,
    to: str,
    framework: str | None = None,
    env: Mapping[str, str] | None = None,
    num_processes: int | None = None,
    stdin_text: str | None = None,
) -> Translation:
    """Write ``src`` as a config for ``to`` (``NAME`` or ``NAME@VERSION``; default the newest release).

    The written files are read back with the target's own reader, and every plan quantity or key
    semantic field that came out different gets a note, so a lossy translation is never silent.
    """
    if not isinstance(to, str):
        raise ConfigError(
            f"to must be a str: a framework name or alias, optionally @VERSION, got {_kind(to)}", key="--to"
        )
    explanation = (
        src
        if isinstance(src, Explanation)
        else load(src, framework, env, num_processes, stdin_text, refuse_rejected_keys=True, find_start_errors=True)
    )
    dialect, version = dialects.parse_framework(to)
    version = version or dialect.default_version
    notes = NoteList()
    dialect.take_version_notes(notes)  # how --to's version was resolved (a band, the newest known, ...)
    for finding in explanation.start_errors:  # the source never starts: what is written is no run's equivalent
        notes.error(
            "input.stops-at-start",
            f"the source stops at start-up in {explanation.framework} {explanation.version} [{finding.rule}]: "
            f"{finding.message}; fix the source first (`rlconf check` gives the fixes)",
            source_keys=finding.keys,
        )
    _note_source_arguments(explanation.spec, dialect.name, notes)
    from translator.checks import ranges

    for finding in ranges.check(explanation.spec):  # nonsense in the source is carried over, never silently
        notes.warning(
            "value.out-of-range", f"the source's {finding.message}; written as it is", source_keys=finding.keys
        )
    if explanation.spec.plan.samples_per_prompt is None:
        group = explanation.spec.derivations.get("plan.samples_per_prompt")
        if group is not None and group.origin == "unknown":  # a fork's own batching, a variable never set
            raise ConfigError(
                f"cannot translate: the samples per prompt are {group.text}",
                file=explanation.source,
                hint="state the fork's batch plan by hand, or pass what the message names",
            )
        raise ConfigError(
            "cannot translate: this config has no batch plan (an accelerate config alone?)",
            file=explanation.source,
            hint="translate the recipe or the launch script that names it",
        )
    if explanation.spec.plan.data_parallel_size is None:
        variables = unknown_because(explanation.spec, "plan.data_parallel_size")
        if variables:
            shown = [v if v.startswith(("$(", "`")) else f"${v}" for v in variables]
            plain = [v for v in variables if not v.startswith(("$(", "`"))]
            raise ConfigError(
                f"cannot translate: the number of training processes is unknown: it depends on "
                f"{', '.join(shown)}, "
                "which the script never sets",
                file=explanation.source,
                key=shown[0],
                hint=" ".join(f"--env {v}=VALUE" for v in plain) or "set it in the script",
            )
        raise ConfigError(
            "cannot translate: the number of training processes is unknown, so the global batch sizes are unknown",
            file=explanation.source,
            hint="pass --num-processes N (GPUs serving vLLM do not count)",
        )
    for name in ESSENTIAL:  # a count a variable decides: a written number would be a guess stated as a fact
        variables = unknown_because(explanation.spec, f"plan.{name}")
        if variables:
            shown = [v if v.startswith(("$(", "`")) else f"${v}" for v in variables]
            plain = [v for v in variables if not v.startswith(("$(", "`"))]
            raise ConfigError(
                f"cannot translate: {name} is unknown: it depends on {', '.join(shown)}, whose value the config "
                "does not give",
                file=explanation.source,
                key=shown[0],
                hint=" ".join(f"--env {v}=VALUE" for v in plain) or "read that code for the value the run uses",
            )
    from translator.wording import settings

    certainty = explanation.certainty
    # a step limit the dataset may pre-empt is written with the same passes: a target that also stops at the first
    # limit stops where the source does, whatever the dataset holds
    on_assumption = _assumed_beyond_the_data(explanation) if dialect.stops_at_first_limit else assumed(certainty)
    if on_assumption:
        notes.info(
            "plan.assumed",
            "the written plan rests on assumptions (exit 1 under --strict): "
            + "; ".join(f"{name} ({certainty[name].why})" for name in on_assumption),
            source_keys=[f"plan.{name}" for name in on_assumption],
        )
    files = dialect.write(_limited(explanation.spec), version, notes)
    main = "launch.sh" if "launch.sh" in files else next(iter(files))
    reading = read_back(dialect, files, main, version, explanation.spec)
    target = reading.spec
    _compare(explanation, reading, notes)
    # The target framework's own rules, run on what was written: a rejection is never silent.
    report = check(Explanation(target, [], main, reading.native))
    for finding in report.errors:
        fix = f"; nearest fix: {settings(finding.suggestions[0].changes)}" if finding.suggestions else ""
        notes.error(
            "target.rejected",
            f"{dialect.name} {version} would reject the written config [{finding.rule}]: {finding.message}{fix}",
            target_keys=finding.keys,
        )
    from translator import data_contract

    # The columns the target's loader reads, against the user's data (a sample of a local file, or what the
    # source's own loader needs): a column it cannot use stops the run.
    data_contract.check(explanation.spec, target, dialect.name, explanation.source, notes)
    translation = Translation(explanation, dialect.name, version, files, target, list(notes))
    if any(n.code == "plan.not-preserved" and set(n.source_keys) & {f"plan.{f}" for f in ESSENTIAL} for n in notes):
        translation.alternatives = find_alternatives(explanation.spec, dialect, version, reading.native, files[main])
    return translation


# ---------------------------------------------------------------- exact alternatives
# What "the plan" is for an alternative: how much is generated and how it is cut into updates. The knobs (ranks,
# micro-batch, accumulation, GPU split) are what an alternative may change.
ESSENTIAL = (
    "prompts_per_step",
    "samples_per_prompt",
    "samples_per_step",
    "samples_per_optimizer_step",
    "optimizer_steps_per_step",
    "epochs_per_step",
)
KNOBS = (
    "plan.data_parallel_size",
    "plan.micro_batch_per_device",
    "plan.grad_accum_steps",
    "topology.training_gpus",
    "topology.rollout_gpus",
)
MAX_WRITES = 30  # variants written and read back at most per translation
MAX_ALTERNATIVES = 3


@record
class Alternative:
    """Settings of the target that keep the source's plan exactly where the translation could not.

    ``changes``: the target's native keys that differ from what was written (key → value; None: removed);
    ``canonical``: the canonical knobs varied; ``keeps``/``changes_plan``: plan fields kept (field → value) and
    changed (field → [written, alternative]); ``command``: the alternative's launch command as written."""

    changes: dict[str, Any]
    canonical: dict[str, Any]
    keeps: dict[str, Any]
    changes_plan: dict[str, list[Any]]
    command: str
    files: dict[str, str] = field(default_factory=dict, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "changes": {k: to_json_number(v) for k, v in self.changes.items()},
            "canonical": {k: to_json_number(v) for k, v in self.canonical.items()},
            "keeps": {k: to_json_number(v) for k, v in self.keeps.items()},
            "changes_plan": {k: [to_json_number(v) for v in pair] for k, pair in self.changes_plan.items()},
            "command": self.command,
        }


def find_alternatives(
    spec: RunSpec, dialect: Any, version: str, written: Values | None, written_script: str = ""
) -> list[Alternative]:
    """Vary the knobs on a copy of the source model (other training process counts, the vLLM GPU split, per-device
    batch × accumulation), write each with the target dialect, read it back, and keep those whose plan equals the
    source's and that the target's rules accept; nearest first, at most MAX_WRITES writes."""
    import copy

    from translator.compare import same_value

    found: list[Alternative] = []
    base_plan = {name: getattr(spec.plan, name) for name in ESSENTIAL}
    for canonical in _variants(spec)[:MAX_WRITES]:
        variant = copy.deepcopy(spec)
        for dotted, value in canonical.items():
            variant.set(dotted, value)
        _fit_nodes(variant)
        try:
            files = dialect.write(variant, version, NoteList())
            main = "launch.sh" if "launch.sh" in files else next(iter(files))
            reading = read_back(dialect, files, main, version, variant)
        except ConfigError:
            continue
        back = reading.spec
        if not all(same_value(base_plan[name], getattr(back.plan, name)) for name in ESSENTIAL):
            continue
        if check(Explanation(back, [], main, reading.native)).errors:
            continue
        alternative = _alternative(spec, back, canonical, files, main, written, reading.native)
        before = set(commands(written_script))
        alternative.command = "\n".join(c for c in commands(files[main]) if c not in before)
        if all(a.files != files for a in found):
            found.append(alternative)
        if len(found) >= MAX_ALTERNATIVES:
            break
    return found


def _variants(spec: RunSpec) -> list[dict[str, Any]]:
    """Knob settings to try, nearest the source's first: training ranks (the GPU split kept where rollout has GPUs
    of its own), each with per-device batch × accumulation dividing the rank's samples per optimizer step."""
    p, t = spec.plan, spec.topology
    dp, per_update = p.data_parallel_size, p.samples_per_optimizer_step
    if not dp or not per_update or Fraction(per_update).denominator != 1 or dp > 4096 or per_update > 10**9:
        return []  # beyond any real run: no search
    per_update = int(per_update)
    from translator.checks.findings import divisors

    parallel = max(1, (t.training_gpus or dp) // dp)  # GPUs per data-parallel rank (sequence/tensor/pipeline)
    rollout = t.rollout_gpus or 0
    total = (t.training_gpus or dp * parallel) + rollout
    if total > 8192:
        return []
    ranks: list[tuple[int, int]] = []  # (ranks, rollout GPUs)
    if rollout:  # the same GPUs, split differently between training and generation (none: colocated)
        ranks += [((total - r) // parallel, r) for r in range(total) if (total - r) % parallel == 0]
    ranks += [(d, rollout) for d in range(1, 2 * dp + 9)]
    ranks = [(d, r) for d, r in dict.fromkeys(ranks) if d > 0 and per_update % d == 0]
    # nearest rank count first; on a tie, the one that keeps the GPUs the run has
    ranks.sort(key=lambda pair: (abs(pair[0] - dp), pair[0] * parallel + pair[1] != total, -pair[0]))
    variants = []
    for d, r in ranks[:8]:
        per_rank = per_update // d
        micro = p.micro_batch_per_device
        options: list[Any] = (
            [None] if micro is None else sorted(divisors(per_rank), key=lambda m: (abs(m - Fraction(micro)), -m))[:2]
        )
        for m in options:
            variant: dict[str, Any] = {
                "plan.data_parallel_size": d,
                "topology.training_gpus": d * parallel,
                "plan.micro_batch_per_device": m,
                "plan.grad_accum_steps": None if m is None else per_rank // m,
            }
            if r != rollout:
                variant["topology.rollout_gpus"] = r
                if r == 0 and spec.generation.rollout_mode == "server":  # TRL: no GPUs of its own, so colocated
                    variant["generation.rollout_mode"] = "colocate"
            if variant["topology.training_gpus"] == t.training_gpus and d == dp and m == micro:
                continue  # the source itself
            variants.append(variant)
    return variants


def _fit_nodes(spec: RunSpec) -> None:
    """GPUs per node for a changed GPU count: the same nodes when the GPUs split evenly over them, else one node."""
    t = spec.topology
    gpus = (t.training_gpus or 0) + (t.rollout_gpus or 0)
    nodes = t.nodes or 1
    if not gpus or t.gpus_per_node is None:
        return
    counted = t.training_gpus if t.gpus_per_node * nodes == (t.training_gpus or 0) else gpus
    if counted and counted % nodes == 0:
        t.gpus_per_node = counted // nodes
    else:
        t.nodes, t.gpus_per_node = 1, counted


def _alternative(
    source: RunSpec,
    back: RunSpec,
    canonical: dict[str, Any],
    files: dict[str, str],
    main: str,
    written: Values | None,
    native: Values | None,
) -> Alternative:
    from translator.compare import same_value

    before = written.values if written is not None else {}
    after = native.values if native is not None else {}
    changes = {k: v for k, v in after.items() if not same_value(before.get(k), v)}
    changes.update({k: None for k in before if k not in after})
    keeps = {f"plan.{n}": getattr(back.plan, n) for n in ESSENTIAL}
    moved = {f: [source.get(f), back.get(f)] for f in KNOBS if not same_value(source.get(f), back.get(f))}
    for dotted in moved:  # a knob set outside the native config (TRL's accelerate --num_processes): its key too
        derivation = back.derivations.get(dotted)
        for key in derivation.keys if derivation is not None and derivation.origin == "config" else []:
            if key not in after and key not in changes:
                changes[key] = back.get(dotted)
    return Alternative(changes, {k: v for k, v in canonical.items() if v is not None}, keeps, moved, "", files)


def commands(script: str) -> list[str]:
    """The commands of a launch script, continuation lines joined; comments and shell set-up left out."""
    found, current = [], ""
    for raw in script.splitlines():
        line = raw.strip()
        if not current and (not line or line.startswith("#")):
            continue
        current += (" " if current else "") + line.removesuffix("\\").strip()
        if not line.endswith("\\"):
            found.append(current)
            current = ""
    return [c for c in found if not c.startswith(("set ", "export ", "cd ", "source ", "#!"))]


@record
class KeyAccount:
    """One input key's fate in a translation: exactly one of
    mapped (its canonical value is written to ``target_keys``), default (the target's default already equals
    it, so nothing is written), extra (carried along verbatim: same framework), unsupported (``reason``)."""

    key: str
    status: str  # mapped | default | extra | unsupported
    target_keys: list[str] = field(default_factory=list)
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "status": self.status, "target_keys": self.target_keys, "reason": self.reason}


def account_keys(source: Explanation, target: RunSpec, notes: list[Note]) -> list[KeyAccount]:
    """Each key the source sets: mapped when a canonical value it shapes is kept by the target (default when
    the target keeps it by its own default), extra when carried verbatim, otherwise unsupported, with the
    note that says why."""
    from translator.compare import same_value

    spec = source.spec
    fields_of: dict[str, list[str]] = {}
    for dotted, derivation in spec.derivations.items():
        for key in derivation.keys:
            fields_of.setdefault(key, []).append(dotted)
    extras = {e.key.removeprefix("+") for e in spec.extras if e.framework == spec.framework}
    dialect = dialects.get(spec.framework)
    entries = []
    for key in source.native.values if source.native is not None else []:
        spelled = dialect.spelling(key, spec.version)  # derivations name a key as that release spells it
        fields = [f for f in fields_of.get(key, fields_of.get(spelled, [])) if spec.get(f) is not None]
        kept = [f for f in fields if same_value(spec.get(f), target.get(f))]
        if kept:
            target_keys = sorted({k for f in kept if f in target.derivations for k in target.derivations[f].keys})
            by_default = all(f in target.derivations and target.derivations[f].origin == "default" for f in kept)
            entries.append(
                KeyAccount(key, "default", target_keys, "the target's default has the same value")
                if by_default
                else KeyAccount(key, "mapped", target_keys)
            )
        elif key in extras:
            entries.append(
                KeyAccount(key, "extra", [key])
                if target.framework == spec.framework
                else KeyAccount(
                    key,
                    "unsupported",
                    [],
                    f"a {spec.framework} key with no canonical field; {target.framework} has no counterpart",
                )
            )
        elif fields:
            why = [n.message for n in notes if any(f in n.source_keys for f in fields)]
            entries.append(
                KeyAccount(
                    key,
                    "unsupported",
                    [],
                    why[0] if why else f"{', '.join(fields)} cannot be kept in {target.framework} {target.version}",
                )
            )
        else:
            # Not "has no effect": the key may well act in the source
            # framework; rlconf's model just holds nothing for it.
            entries.append(
                KeyAccount(
                    key,
                    "unsupported",
                    [],
                    f"no canonical value is read from it in {spec.framework} "
                    f"{spec.version}, and nothing is written for it in {target.framework}",
                )
            )
    return entries


def _compare(explanation: Explanation, reading: Reading, notes: NoteList) -> None:
    """Note every difference ``rlconf diff`` finds between the source and what was written (read back): a plan
    quantity always (plan.not-preserved); any other field unless a note the writer made already names it."""
    from translator.compare import differences
    from translator.wording import quantity

    source, target = explanation.spec, reading.spec
    where = f"the {target.framework} {target.version} config"
    written = list(notes)
    defaults = [e.native.defaults if e.native is not None else {} for e in (explanation, reading)]
    for d in differences(source, target, *defaults):
        before, after = quantity(d.field, d.a.value, source), quantity(d.field, d.b.value, target)
        if d.field.startswith("plan."):
            notes.warning(
                "plan.not-preserved", f"{d.field}: {before} in the source, {after} in {where}", source_keys=[d.field]
            )
        elif not any(covers(note, d.field, source, target) for note in written):
            shown = f"{d.field.removeprefix('extras.')} (a native key)" if d.field.startswith("extras.") else d.field
            notes.warning(
                "translation.changed",
                f"{shown}: {before} in the source, {after} in {where}",
                source_keys=[d.field],
                target_keys=d.b.keys,
            )


def covers(note: Note, name: str, source: RunSpec, target: RunSpec) -> bool:
    """Whether a note speaks of canonical field ``name``: it names the field, or a native key it was read from
    (in the source) or written to (in the target)."""
    named = set(note.source_keys) | set(note.target_keys)
    if name in named or name in note.message:
        return True
    if name.startswith("extras."):
        return name.removeprefix("extras.") in named
    keys = set()
    for spec in (source, target):
        derivation = spec.derivations.get(name)
        if derivation is not None and derivation.origin != "derived":
            keys.update(derivation.keys)
    return bool(keys & named)


def check(
    src: str | PathLike[str] | Source | Explanation,
    framework: str | None = None,
    env: Mapping[str, str] | None = None,
    num_processes: int | None = None,
    stdin_text: str | None = None,
) -> CheckReport:
    """Evaluate the rules of the config's framework and version: errors are what the framework would reject,
    warnings what it accepts but silently changes. Each finding carries the nearest valid alternatives."""
    from translator.checks import CheckReport, rules_for

    explanation = src if isinstance(src, Explanation) else load(src, framework, env, num_processes, stdin_text)
    report = CheckReport(explanation.framework, explanation.version, explanation.source)
    rules = rules_for(explanation.framework)
    if rules is not None and explanation.native is not None:
        report.add(rules(explanation.native, explanation.spec, explanation.version or ""))
    from translator.checks import ranges

    report.add(ranges.check(explanation.spec))  # value ranges every framework has (learning rate, GPU memory share)
    report.add(unknown_key_errors(explanation, report))
    if explanation.candidates is not None and explanation.reread is not None and rules is not None:
        _per_release(explanation, report, rules)
    return report


def _per_release(explanation: Explanation, report: CheckReport, rules: Any) -> None:
    """Under an uncertain version, the rules run for each candidate release (every listed release that fits the
    keys when the project names none); a finding whose verdict differs between them says so per range."""
    from translator.checks.findings import Finding

    dialect = dialects.get(explanation.framework)
    verdicts = _release_verdicts(explanation, rules)
    if len(verdicts) < 2:
        return
    order = list(verdicts)
    every = {key for found in verdicts.values() for key in found}
    for key in sorted(every):
        states = [verdicts[v][key].severity if key in verdicts[v] else "fine" for v in order]
        if len(set(states)) == 1:
            continue
        ranges: list[tuple[str, str, str]] = []  # (state, first, last)
        for version, state in zip(order, states, strict=False):
            if ranges and ranges[-1][0] == state:
                ranges[-1] = (state, ranges[-1][1], version)
            else:
                ranges.append((state, version, version))
        text = "; ".join(f"{state} in {first}" + (f"–{last}" if last != first else "") for state, first, last in ranges)
        mine = [f for f in report.errors + report.warnings if (f.rule, tuple(f.keys)) == key]
        if mine:
            for finding in mine:
                finding.message += f" [the {dialect.name} release is uncertain: {text}]"
        else:
            first = next(verdicts[v][key] for v in order if key in verdicts[v])
            report.add(
                [
                    Finding(
                        first.rule,
                        "warning",
                        f"{first.message} [the {dialect.name} release is uncertain: {text}]",
                        first.keys,
                        first.values,
                        first.suggestions,
                    )
                ]
            )


def _release_verdicts(explanation: Explanation, rules: Any) -> dict[str, dict[tuple[str, tuple[str, ...]], Finding]]:
    """Release → the errors and warnings the rules give the config read as that release, for each candidate release
    (every listed release that has the config's keys when the project names none)."""
    from translator.checks.findings import standing_in

    wanted = explanation.candidates or dialects.get(explanation.framework).versions
    verdicts: dict[str, dict[tuple[str, tuple[str, ...]], Finding]] = {}
    for version in wanted:
        try:
            other = explanation.reread(version)
        except ConfigError:
            continue
        if not explanation.candidates and any(n.code == "keys.unknown-in-version" for n in other.notes):
            continue  # a release without one of the config's keys is not the one it runs
        found = rules(other.native, other.spec, other.version or "") if other.native is not None else []
        verdicts[version] = {
            (f.rule, tuple(f.keys)): f for f in found if f.severity in ("error", "warning") and not standing_in(f)
        }
    return verdicts


_GUESS = lazy(r"did you mean '?(?:--)?([^'?\s]+)'?\?")


def unknown_key_errors(explanation: Explanation, report: CheckReport) -> list[Finding]:
    """For a framework that refuses unknown keys (its dialect's ``rejects_unknown_keys``), each unknown-key note is
    an error, fixed by the key the note suggests (else by removing the key) — unless a rule already reports it."""
    from translator.checks.findings import Finding, Suggestion

    dialect = dialects.get(explanation.framework)
    rejects = getattr(dialect, "rejects_unknown_keys", False)
    if callable(rejects):
        rejects = rejects(explanation.version or dialect.default_version)
    if not rejects or explanation.native is None:
        return []
    reported = {key for f in report.errors + report.warnings for key in f.keys}
    values = explanation.native.values
    found = []
    for note in explanation.notes:
        if note.code not in ("keys.unknown", "keys.unknown-in-version"):
            continue
        for key in note.source_keys:
            if key in reported or key not in values:
                continue
            reported.add(key)
            match = _GUESS.search(note.message)
            guess = note.target_keys[0] if note.target_keys else match.group(1) if match else None
            fixes = (
                [Suggestion({key: None, guess: values[key]}, f"rename {key} → {guess}")]
                if guess and guess != key
                else []
            )
            fixes.append(Suggestion({key: None}, f"remove {key}"))
            found.append(
                Finding(f"{dialect.name}.unknown-key", "error", note.message, [key], {key: values[key]}, fixes)
            )
    return found
