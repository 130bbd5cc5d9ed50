"""OpenRLHF: ``python3 -m openrlhf.cli.train_ppo_ray --flag value ...`` launch scripts (usually behind
``ray job submit ... --``).

Semantics (docs/frameworks/openrlhf.md, with the source file of each release): the rollout batch counts
prompts (global), the train batch counts samples (global, one optimizer step), the micro batch counts samples
per GPU; ring attention and DeepSpeed tensor parallelism divide the actor GPUs into data-parallel ranks. Up to
0.7.0 every actor rank draws its own rollout_batch_size // ranks prompts; from 0.7.1 one controller draws them
all. Flags are flat up to 0.10.1 and dotted from 0.10.2, with no aliases: a flag of the other scheme is an
argparse error.
"""

from __future__ import annotations

import math
import os
from collections.abc import Collection
from fractions import Fraction
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from translator.checks.findings import divisors
from translator.concordance import not_written
from translator.dialects.base import (
    Dialect,
    Installed,
    Reading,
    ReadOptions,
    Values,
    at_least,
    closest_key,
    derived,
    fmt,
    from_config,
    newer_than,
    note_launch,
    read_script,
    require_resolved,
    track_provenance,
)
from translator.dialects.settings import read_settings, write_settings
from translator.dialects.sniff import program_arguments
from translator.dialects.writing import (
    flag_name,
    flag_words,
    plan_summary,
    requirements,
    shell_word,
    source_label,
    whole_prompts,
)
from translator.errors import ConfigError
from translator.framework import DataLoader
from translator.frameworks.openrlhf.tables import (
    ALL_DOTTED,
    ALL_FLAT,
    CHANGES,
    CLI_MODULES,
    COLOCATE_MEMORY_FORCED,
    COMMON,
    CORRECTION_SCHEMES,
    DEFAULTS,
    DOTTED_SINCE,
    DOTTED_TO_FLAT,
    ENGINES_COMPARED,
    ENGINES_GE_UNTIL,
    ENTRY_MODULE,
    ESTIMATOR_SINCE,
    ESTIMATORS,
    EVAL_ONCE_PER_EPISODE_UNTIL,
    FLAT_ONLY,
    FLAT_TO_DOTTED,
    GEN_BATCH_IGNORED_SINCE,
    GEN_BATCH_OVERSAMPLING_SINCE,
    GROUP_ASSERT,
    GROUP_ASSERT_DR_GRPO_SINCE,
    GROUP_ASSERT_SINCE,
    HF_GENERATE_UNTIL,
    KEY_GAPS,
    KEY_RANGE,
    KL_ESTIMATORS,
    LAST_FLAT,
    LOSS_SCOPE_GLOBAL_MICRO,
    LOSS_SCOPE_OPTIMIZER_STEP,
    MANY_VALUES,
    MAX_STEPS_BUG,
    MIN_LR_RATIO_FIXED,
    NO_REF_WITHOUT_KL_SINCE,
    PER_RANK_PROMPTS_UNTIL,
    POWER_OF_TWO_UNTIL,
    RBS_DIVISIBLE_SINCE,
    REWARD_FILE_SINCE,
    REWARD_FUNC_SIGNATURE,
    RLOO_UNWHITENED_SINCE,
    SAMPLE_DATASET_UNTIL,
    SECRET_FLAGS,
    SECRET_PLACEHOLDER,
    SETTINGS,
    SINGLE_JOB_ENTRY,
    STORE_TRUE,
    TOKEN_MEAN_LOSS_SINCE,
    TWO_VALUES,
    VALUE_RENAMES,
    VERSIONS,
    WARMUP_FIXED,
)
from translator.notes import NoteList
from translator.plan import Derivation, Extra, RunSpec, exact, quotient
from translator.sources.files import Source
from translator.sources.processes import Processes, launcher_of, processes
from translator.sources.shell import program_index, symbolic_names, unwrap_command

_ALL_NAMES = ALL_FLAT | ALL_DOTTED


# ---------------------------------------------------------------- names and versions
def is_dotted_version(version: str) -> bool:
    return at_least(version, DOTTED_SINCE)


def internal_name(native: str) -> str:
    """A flag's scheme-neutral name: its dotted name when it has one, else its flat name."""
    if native in FLAT_TO_DOTTED:
        return FLAT_TO_DOTTED[native][0]
    return native


def spelled(internal: str, version: str) -> str | None:
    """The flag as ``version``'s parser spells it (no leading dashes), or None if that scheme has no such flag."""
    if internal in COMMON:
        return internal
    if is_dotted_version(version):
        return internal if internal in ALL_DOTTED else None
    if internal in FLAT_ONLY:
        return internal
    return DOTTED_TO_FLAT.get(internal)


def _has_flag(internal: str, version: str) -> bool:
    native = spelled(internal, version)
    return native is not None and flag_exists(native, version)


@lru_cache(maxsize=64)
def _flags_of(version: str) -> tuple[str, ...]:
    """The flags ``version``'s parser accepts (for the nearest one to an unknown flag)."""
    return tuple(n for n in _ALL_NAMES if flag_exists(n, version))


@lru_cache(maxsize=16384)  # version inference asks for every flag of a script at every version of a band
def flag_exists(native: str, version: str) -> bool:
    """Whether ``version``'s train_ppo_ray parser accepts ``--native``."""
    if native not in COMMON:
        if is_dotted_version(version) and native not in ALL_DOTTED:
            return False
        if not is_dotted_version(version) and native not in ALL_FLAT:
            return False
    since, until = KEY_RANGE.get(native, (None, None))
    if since and not at_least(version, since):
        return False
    gap = KEY_GAPS.get(native)
    if gap and at_least(version, gap[0]) and not newer_than(version, gap[1]):
        return False
    return not (until and newer_than(version, until))


def defaults_for(version: str) -> dict[str, Any]:
    """Defaults by internal name for the flags ``version`` has."""
    defaults: dict[str, Any] = {}
    for name, changes in DEFAULTS.items():
        native = spelled(name, version)
        if native is None or not flag_exists(native, version):
            continue
        for since, value in changes:
            if at_least(version, since):
                defaults[name] = value
    return defaults


# ---------------------------------------------------------------- the native launch line
class NativeOpenRlhf:
    """The flags of one launch line: native name (as written) → value, with where each came from."""

    def __init__(self) -> None:
        self.flags: dict[str, Any] = {}  # native name → str | list[str] | True
        self.origins: dict[str, str] = {}
        self.ray_address: str | None = None  # `ray job submit --address`: the Ray head's dashboard
        self.launch: tuple[str, str | None] | None = None  # the launched module or script, and its cwd
        self.fork_entry = False  # launched through a module or script that is not OpenRLHF's own
        self.single_job: Processes | None = None  # the launcher's processes, for the single-job entry (train_ppo)
        self.typed: dict[str, str] = {}  # a flag → its abbreviation as typed (argparse expands unique prefixes)
        self.unknown_words: list[str] = []  # launch words whose value is not known: they may hold any flag


class _Flags(Values):
    """Values keyed by internal name; messages name the flag as the user wrote it."""

    def __init__(
        self,
        values: dict[str, Any],
        origins: dict[str, str],
        defaults: dict[str, Any],
        source_name: str,
        written: dict[str, str],
    ) -> None:
        super().__init__(values, origins, defaults, source_name)
        self.written = written  # internal → native name as written
        self.entry: str | None = None  # the launched module (openrlhf.cli.train_ppo_ray)
        self.typed: dict[str, str] = {}  # a flag → its abbreviation as typed

    def _error(self, key: str, message: str, hint: str) -> ConfigError:
        native = self.written.get(key, key)
        error = super()._error(key, message.replace(key, f"--{native}"), hint.replace(key, f"--{native}"))
        error.key = f"--{native}"
        return error


def data_loader(spec: RunSpec) -> DataLoader:
    """What PromptDataset reads (openrlhf/datasets/prompts_dataset.py@v0.11.2 preprocess_data): with
    --apply_chat_template the input column is a chat list, or a string it makes one user message; without, the
    prompt text itself; the label column, where --label_key names one, for every row."""
    return DataLoader(
        "input",  # --input_key's default
        "any" if spec.data.apply_chat_template else "text",
        "preprocess_data (openrlhf/datasets/prompts_dataset.py@v0.11.2)",
        (("answer", ""),),
    )


class OpenRlhfDialect(Dialect):
    name = "openrlhf"
    aliases = ("openrlhf/openrlhf",)
    versions = VERSIONS
    # where its plan arithmetic branches (0.4.5: rollout_batch_size counts prompts, no longer samples)
    plan_bands = ("0.4.5", "0.5.3", "0.6.1", "0.7.0", "0.7.2", "0.9.8", "0.11.2")
    # 0.4.x are read, not written (0.4.0–0.4.4 count rollout_batch_size in samples, docs/frameworks/openrlhf.md §13)
    writes_from = "0.5.0"

    def spelling(self, key: str, version: str | None) -> str:
        return (spelled(key, version) if version else None) or key

    changes = CHANGES
    pip_name = "openrlhf"
    # OpenRLHF's checkout, or a project that vendors it (MM-EUREKA): setup.py reads the version from version.txt.
    version_files = (("version.txt", "openrlhf"),)
    release_names = "release_names.txt"  # scripts/gen_release_names.py

    rejects_unknown_keys = True  # argparse's parse_args(): "unrecognized arguments"
    copy_refusal = "argparse: unrecognized arguments"
    copy_declares = "add_argument calls"

    def missing_in_copy(self, folder: str, key: str, native: object) -> str | None:
        """The flag of ``key`` (a key read, or a flag as written) when the project's copy (its package
        ``folder``) runs a launched module whose parser certainly lacks it (translator/sources/code.py
        ``argparse_options``: every option is a literal, none starts with the flag, so argparse's prefix
        matching cannot take it); None otherwise."""
        from translator.sources.code import argparse_options

        entry = getattr(native, "entry", None)
        if not entry or not entry.startswith(self.name + "."):
            return None
        values, written = getattr(native, "values", {}), getattr(native, "written", {})
        # a key read is named internally (actor.num_nodes): the flag is as the launch wrote it
        as_written = written.get(key) if key in values else key
        if not as_written:
            return None
        # as typed: a copy whose parser has --eval_data takes it as itself, not as release's --eval_dataset
        flag = "--" + str(getattr(native, "typed", {}).get(as_written, as_written)).lstrip("-")
        options = argparse_options(os.path.join(folder, *entry.split(".")[1:]) + ".py")
        if options is None or any(option.startswith(flag) for option in options):
            return None
        return flag

    description = "OpenRLHF (python -m openrlhf.cli.train_ppo_ray flags, usually behind ray job submit)"

    # ---------------------------------------------------------------- reading
    def read(self, source: Source, options: ReadOptions) -> Reading:
        notes = NoteList()
        native = self._collect(source, options, notes)
        version = self._version(native, options.version, notes)
        values, written, foreign = self._values(native, version, notes)
        flags = _Flags(
            values, {k: native.origins[w] for k, w in written.items()}, defaults_for(version), source.name, written
        )
        flags.entry = native.launch[0] if native.launch else None  # the module a copy's parser is read from
        flags.typed = native.typed
        spec = RunSpec(framework=self.name, version=version)
        with track_provenance(spec, flags):
            _Interpreter(flags, version, spec, notes, native.fork_entry, native.single_job).run()
        if native.unknown_words:
            from translator.dialects.forkbatch import unknown_launch_words

            unknown_launch_words(spec, notes, native.unknown_words, written.values())
        try:
            host = urlsplit(native.ray_address).hostname if native.ray_address else None
        except ValueError:  # not an address (a malformed IPv6 literal): nothing to carry
            host = None
        if host:
            spec.launch.main_process_host = host
            spec.derivations["launch.main_process_host"] = from_config(
                f"ray job submit --address {native.ray_address}: the Ray head", "--address"
            )
        if options.num_processes is not None and options.num_processes != spec.topology.training_gpus:
            notes.warning(
                "topology.world-size-option-ignored",
                f"--num-processes {options.num_processes} is ignored: the actor flags place "
                f"{spec.topology.training_gpus} training processes",
            )
        self._account(flags, foreign, version, spec, notes)
        self._fork_code(
            source, native, foreign, version, spec, notes, self.installed(options, options.version or "", version)
        )
        return Reading(spec, notes, flags)

    def _fork_code(
        self,
        source: Source,
        native: NativeOpenRlhf,
        foreign: dict[str, Any],
        version: str,
        spec: RunSpec,
        notes: NoteList,
        installed: Installed | None,
    ) -> None:
        """Flags no OpenRLHF release has, read in the project's code, and the project's own copy of the strategy's
        batch sizing (translator/dialects/forkbatch.py)."""
        if native.launch is None:
            return
        from translator.dialects import forkbatch

        unknown = {n: v for n, v in foreign.items() if n not in _ALL_NAMES}
        assumed = any(n.code == "version.assumed" for n in notes)
        forkbatch.check(
            source,
            native.launch[1],
            native.launch[0],
            unknown,
            lambda name: name not in _ALL_NAMES,
            forkbatch.suffixes(_ALL_NAMES),
            version,
            assumed,
            native.fork_entry,
            spec,
            notes,
            lineage="openrlhf",
            installed=installed,
        )

    def _collect(self, source: Source, options: ReadOptions, notes: NoteList) -> NativeOpenRlhf:
        script = read_script(source, options.env, notes)
        found = None
        launches = []
        for command in script.commands:
            argv = unwrap_command(command.argv)
            index = _entry_index(argv)
            if index is not None:
                found = command, argv[index + 1 :]
                launches.append(command)
        if found is not None:
            note_launch(notes, source, found[0], launches)
        if found is None:
            others = [w for c in script.commands for w in unwrap_command(c.argv) if w in CLI_MODULES]
            raise ConfigError(
                "no OpenRLHF launch command found"
                + (f" ({others[0]} is OpenRLHF's program of another kind: it trains no RL policy)" if others else ""),
                file=source.name,
                hint=f"expected a line like 'python3 -m {ENTRY_MODULE} --rollout.batch_size 128 ...'",
            )
        command, words = found
        require_resolved(command, source)
        argv = unwrap_command(command.argv)
        entry = argv[-len(words) - 1]
        single_job = entry == SINGLE_JOB_ENTRY or entry.endswith("openrlhf/cli/train_ppo.py")
        own_entry = single_job or entry == ENTRY_MODULE or entry.endswith("openrlhf/cli/train_ppo_ray.py")
        launcher = argv[: -len(words) - 1]
        launcher = launcher[:-1] if launcher[-1:] in (["-m"], ["--module"]) else launcher
        # a project's own entry started by a process launcher (deepspeed, torchrun) trains in those processes, as the
        # single-job entry does: a Ray entry is started once (python -m, ray job submit) and places its own actors
        single_job = single_job or (not own_entry and launcher_of(launcher) in ("deepspeed", "torchrun"))
        if not own_entry:
            from translator.dialects.forkbatch import refuse_absent_module

            refuse_absent_module(source, command.cwd, entry, CLI_MODULES, command.line, "OpenRLHF", ENTRY_MODULE)
            notes.warning(
                "framework.fork",
                f"{source.name}:{command.line}: '{entry}' is not OpenRLHF's own entry "
                f"point; it is read with {ENTRY_MODULE}'s semantics, and flags it adds are reported as "
                "unknown to OpenRLHF",
            )
        if not own_entry:
            from translator.sources.code import refuse_script_the_project_lacks, refuse_unopened_file_options

            refuse_script_the_project_lacks(source, command.cwd, entry, command.line)
            refuse_unopened_file_options(source, command.cwd, entry, words, command.line)
        native = NativeOpenRlhf()
        native.launch = entry, command.cwd
        native.fork_entry = not own_entry
        if single_job:  # the words before the entry (and its -m / --module): the launcher's
            native.single_job = processes(launcher, command, f"{source.name}:{command.line}")
        native.ray_address = _ray_address(command.argv)
        origin = f"{source.name}:{command.line}"
        stray: list[str] = []
        for name, value, typed in _parse_arguments(words, origin, notes, native.unknown_words, stray):
            if typed != name:
                native.typed[name] = typed
            if name in SECRET_FLAGS:
                # An API key: keep that it is set, never its value.
                notes.info(
                    "keys.secret-redacted",
                    f"--{name} holds a wandb API key; rlconf keeps it as "
                    f"{SECRET_PLACEHOLDER} and never copies the value",
                    source_keys=[name],
                )
                value = SECRET_PLACEHOLDER
            if name in native.flags:
                notes.info(
                    "keys.repeated",
                    f"--{name} is given more than once; argparse keeps the last value",
                    source_keys=[name],
                )
            native.flags[name] = value
            native.origins[name] = origin
        # the project's own entry script, or its copy of OpenRLHF's (whose helpers it may have changed): its own
        # checks after parsing run first
        from translator.dialects import forkbatch

        located = forkbatch.locate(source, command.cwd, entry)
        if located is not None:
            what = "the project's entry script" if not own_entry else "the project's copy of OpenRLHF's entry"
            if not own_entry and located[1].endswith(".py"):
                as_typed = [native.typed.get(name, name) for name in native.flags]
                forkbatch.refuse_undeclared_flags(source, *located, as_typed, command.line, stray)
            forkbatch.refuse_certain_stop(source, *located, None, native.flags, command.line, what)
        if own_entry and stray:
            # OpenRLHF's entry parses with parse_args() in every release (cli/train_ppo_ray.py): no positionals
            raise ConfigError(
                f"{', '.join(repr(w) for w in stray[:3])} {'is' if len(stray) == 1 else 'are'} no flag's value and "
                f"{ENTRY_MODULE} takes no positional arguments: its parse_args() stops at start-up (error: "
                f"unrecognized arguments: {' '.join(stray[:3])}{' ...' if len(stray) > 3 else ''})",
                file=source.name,
                line=command.line,
                hint="remove the stray words, or quote a value that holds spaces or a glob pattern (*)",
            )
        return native

    def _version(self, native: NativeOpenRlhf, explicit: str | None, notes: NoteList) -> str:
        if explicit:
            return self.resolve_version(explicit)
        names = [n for n in native.flags if n in _ALL_NAMES and n not in COMMON]
        dotted = sum("." in n for n in names)
        scheme_dotted = dotted * 2 >= len(names) if names else True
        band = [v for v in VERSIONS if is_dotted_version(v) == scheme_dotted]
        fitting = [v for v in band if all(flag_exists(n, v) for n in names if ("." in n) == scheme_dotted)]
        # A value a release added bounds the version too: the estimator choices (ESTIMATOR_SINCE).
        estimator = native.flags.get("algo.advantage.estimator", native.flags.get("advantage_estimator"))
        if isinstance(estimator, str) and estimator in ESTIMATOR_SINCE:
            fitting = [v for v in fitting if at_least(v, ESTIMATOR_SINCE[estimator])]
        scheme = "dotted (≥ 0.10.2)" if scheme_dotted else "flat (≤ 0.10.1)"
        if fitting and fitting[-1] != band[-1]:
            version, why = fitting[-1], f"the newest release whose {scheme} flags include every flag given"
        elif fitting:
            version, why = band[-1], f"the flags are {scheme}; the newest such release"
        else:
            version, why = band[-1], f"the flags are {scheme}, but no release has all of them"
        if not names:
            why = "the newest known release"
        notes.info("version.assumed", f"assumed OpenRLHF {version}: {why}; pass --from openrlhf@VERSION to choose")
        return version

    def _values(
        self, native: NativeOpenRlhf, version: str, notes: NoteList
    ) -> tuple[dict[str, Any], dict[str, str], dict[str, Any]]:
        """The flags this version understands, by internal name; the others get notes and stay native."""
        values: dict[str, Any] = {}
        written: dict[str, str] = {}
        foreign: dict[str, Any] = {}
        for name, value in native.flags.items():
            if name not in _ALL_NAMES:
                foreign[name] = value  # unknown: reported in _account
                continue
            key = internal_name(name)
            own = spelled(key, version)
            if own is not None and own != name and flag_exists(own, version):
                # The other scheme's spelling of a flag this version has (0.10.2 renamed every flag).
                how = (
                    f"a flat (≤ {LAST_FLAT}) flag; {DOTTED_SINCE} renamed it --{own} with no alias"
                    if "." in own
                    else f"a dotted (≥ {DOTTED_SINCE}) flag; {version} spells it --{own}"
                )
                notes.error(
                    "keys.unknown-in-version",
                    f"--{name} is {how}, so OpenRLHF {version}'s train_ppo_ray rejects --{name}; it is read "
                    f"here as --{own}",
                    source_keys=[name],
                    target_keys=[own],
                )
            elif own is None or not flag_exists(own, version):
                notes.error("keys.unknown-in-version", _missing_flag_text(name, version), source_keys=[name])
                foreign[name] = value
                continue
            values[key] = value
            written[key] = name
        return values, written, foreign

    def _account(self, flags: _Flags, foreign: dict[str, Any], version: str, spec: RunSpec, notes: NoteList) -> None:
        for key, value in flags.unused().items():
            spec.extras.append(Extra(self.name, flags.written.get(key, key), _extra_value(value)))
        for name, value in foreign.items():
            spec.extras.append(Extra(self.name, name, _extra_value(value)))
            if name in _ALL_NAMES:
                continue
            guess = closest_key(name, _flags_of(version))
            hint = f"; did you mean --{guess}?" if guess else ""
            notes.warning(
                "keys.unknown",
                f"--{name} is not an OpenRLHF {version} flag{hint} (train_ppo_ray's "
                "argparse stops with 'unrecognized arguments')",
                source_keys=[name],
            )

    # ---------------------------------------------------------------- writing
    def write(self, spec: RunSpec, version: str, notes: NoteList) -> dict[str, str]:
        if self.writable(version) != version:
            raise ConfigError(
                f"rlconf reads OpenRLHF {version} but writes OpenRLHF {self.writes_from} and newer",
                hint=f"pass --to openrlhf@{self.writes_from} or a newer version",
            )
        flags = _Writer(spec, version, notes).flags()
        dotted = is_dotted_version(version)
        batch = "--rollout.batch_size" if dotted else "--rollout_batch_size"
        train = "--train.batch_size" if dotted else "--train_batch_size"
        micro = "--train.micro_batch_size" if dotted else "--micro_train_batch_size"
        lines = [
            "#!/usr/bin/env bash",
            f"# OpenRLHF {version} launch script written by rlconf from a {source_label(spec)} config.",
            f"# Units: {batch} counts prompts (global, one rollout step); {train} counts samples",
            f"# (completions, global, one optimizer step); {micro} counts samples per GPU.",
            (
                f"# {'Dotted' if dotted else 'Flat'} flags: OpenRLHF {'≥ 0.10.2' if dotted else '≤ 0.10.1'} "
                "accepts only this spelling."
            ),
            *(f"#   {line}" for line in plan_summary(spec)),
            "set -x",
            "",
        ]
        if any(name in SECRET_FLAGS for name in flags):
            lines += [
                "# The wandb API key is read from the environment; rlconf never copies it.",
                'export WANDB_API_KEY="${WANDB_API_KEY:-}"',
                "",
            ]
        head = spec.launch.main_process_host or "127.0.0.1"  # the Ray head's dashboard (port 8265)
        command = [
            "ray job submit " + shell_word(f"--address=http://{head}:8265", spec.shell_variables),
            f"-- python3 -m {ENTRY_MODULE}",
        ]
        for name, value in flags.items():
            command.append(_flag_text(name, value, spec.shell_variables))
        command.append('"$@"')
        lines.append(" \\\n   ".join(command))
        return {"launch.sh": "\n".join(lines) + "\n", **requirements("OpenRLHF", [("openrlhf", version)])}


def _missing_flag_text(name: str, version: str) -> str:
    since, until = KEY_RANGE.get(name, (None, None))
    if since and not at_least(version, since):
        return f"--{name} does not exist before OpenRLHF {since}; {version}'s train_ppo_ray rejects it"
    if until:
        return f"--{name} was last an OpenRLHF flag in {until}; {version}'s train_ppo_ray rejects it"
    scheme = f"flat (≤ {LAST_FLAT})" if "." not in name else f"dotted (≥ {DOTTED_SINCE})"
    return f"--{name} is a {scheme} flag with no counterpart in OpenRLHF {version}; train_ppo_ray rejects it"


def _ray_address(argv: list[str]) -> str | None:
    """``ray job submit --address=URL`` (or ``--address URL``) before the ``--`` that starts the trainer."""
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word.startswith("--address="):
            return word.partition("=")[2]
        if word == "--address" and i + 1 < len(argv):
            return argv[i + 1]
    return None


def _entry_index(argv: list[str]) -> int | None:
    for i, word in enumerate(argv):
        if word == ENTRY_MODULE and i > 0 and argv[i - 1] in ("-m", "--module"):
            return i
        if word.endswith("openrlhf/cli/train_ppo_ray.py"):
            return i
    # A fork's own entry point (lmm_r1.cli.train_ppo_ray) that takes OpenRLHF's flags; not OpenRLHF's other
    # programs (train_sft, train_dpo, train_rm: no RL run), whatever flags they share
    index = program_index(argv)
    if index is None or not program_arguments("openrlhf", argv, index):
        return None
    module = argv[index].removesuffix(".py").replace("/", ".")
    other = next((m for m in CLI_MODULES if module.endswith(m)), None)
    return None if other is not None and other not in (ENTRY_MODULE, SINGLE_JOB_ENTRY) else index


def _expand(name: str) -> str:
    """argparse's allow_abbrev: a unique prefix of a known flag means that flag."""
    if name in _ALL_NAMES:
        return name
    matches = [n for n in _ALL_NAMES if n.startswith(name)]
    return matches[0] if len(matches) == 1 else name


def _parse_arguments(
    words: list[str], origin: str, notes: NoteList, unknown: list[str], stray: list[str]
) -> list[tuple[str, Any, str]]:
    """argparse-like: ``--flag``, ``--flag value``, ``--flag=value``, two-value and many-value flags, each as
    (the flag it is, its value, the flag as typed: an abbreviation is expanded). A word where a flag would be whose
    value is not known (an unset variable) goes to ``unknown``: it may hold any flags; a known word no flag takes (a
    positional argument, a second value of a one-value flag) goes to ``stray``."""
    queue = list(words)
    parsed: list[tuple[str, Any, str]] = []
    i = 0
    while i < len(queue):
        word = queue[i]
        i += 1
        if symbolic_names(word) and not word.startswith("-"):
            unknown.append(word)
            continue
        if not word.startswith("--") or word == "--":
            notes.warning(
                "keys.unrecognised-argument",
                f"{origin}: '{word}' is not a --flag; train_ppo_ray takes no positional arguments",
                source_keys=[word],
            )
            stray.append(word)
            continue
        raw, eq, inline = word[2:].partition("=")
        name = _expand(raw)
        if name != raw:
            notes.info("keys.abbreviated", f"--{raw} is argparse's abbreviation of --{name}", source_keys=[raw])
        if eq:
            parsed.append((name, inline, raw))
            continue
        following: list[str] = []
        while i < len(queue) and not queue[i].startswith("--"):
            following.append(queue[i])
            i += 1
        if name in _ALL_NAMES and name not in STORE_TRUE:
            # argparse: "expected one argument" / "expected 2 arguments" (the 0.8.x IS threshold took one).
            wanted = 2 if name in TWO_VALUES and name != "vllm_is_truncated_threshold" else 1
            if len(following) < wanted:
                file, _, line = origin.rpartition(":")
                raise ConfigError(
                    f"--{name} expects {'two values' if wanted == 2 else 'a value'}, got {len(following) or 'none'}",
                    file=file,
                    line=int(line) if line.isdigit() else None,
                    key=f"--{name}",
                    hint=f"write --{name} {'LOW HIGH' if wanted == 2 else 'VALUE'}",
                )
        if name in STORE_TRUE:
            value: Any = True
            extra = following
        elif name in TWO_VALUES:
            value, extra = (following[:2] if len(following) > 1 else following[0]), following[2:]
        elif name in MANY_VALUES:
            value, extra = list(following), []
        elif name in _ALL_NAMES:
            value, extra = following[0], following[1:]
        else:  # unknown: take what follows as its value(s)
            value = True if not following else following[0] if len(following) == 1 else list(following)
            extra = []
        unknown.extend(word for word in extra if symbolic_names(word))
        for word in [w for w in extra if not symbolic_names(w)]:
            notes.warning(
                "keys.unrecognised-argument",
                f"{origin}: '{word}' after --{name} is not a value it takes",
                source_keys=[name],
            )
            stray.append(word)
        parsed.append((name, value, raw))
    return parsed


def _extra_value(value: Any) -> Any:
    """A carried-along value in its natural type (argparse would convert it the same way)."""
    if isinstance(value, list):
        return [_extra_value(v) for v in value]
    if isinstance(value, str):
        for convert in (int, float):
            try:
                return convert(value)
            except ValueError:
                pass
    return value


def _flag_text(name: str, value: Any, live: Collection[str]) -> str:
    if value is True:
        return f"--{flag_name(name)}"
    if name in SECRET_FLAGS:
        return f'--{name} "${{WANDB_API_KEY}}"'
    return flag_words(name, value, live)


# ---------------------------------------------------------------- reading: native flags → canonical model
class _Interpreter:
    """Turns OpenRLHF flags into the canonical model, with derivations and notes."""

    def __init__(
        self,
        values: _Flags,
        version: str,
        spec: RunSpec,
        notes: NoteList,
        fork_entry: bool = False,
        single_job: Processes | None = None,
    ) -> None:
        self.v, self.version, self.spec, self.notes = values, version, spec, notes
        self.fork_entry = fork_entry  # a fork's own entry module: its parser may take values upstream's refuses
        self.single_job = single_job  # the launcher's processes, for the single-job entry (SINGLE_JOB_ENTRY)

    # Flag names as the user wrote them (else as this version spells them), for derivations and notes.
    def k(self, internal: str) -> str:
        return self.v.written.get(internal) or spelled(internal, self.version) or internal

    def f(self, internal: str) -> str:
        return f"--{self.k(internal)}"

    def origin(self, field: str, text: str, *internals: str) -> None:
        config = any(k in self.v for k in internals)
        self.spec.derivations[field] = Derivation(
            text, [self.k(k) for k in internals], "config" if config else "default"
        )

    def has_flag(self, internal: str) -> bool:
        """Whether this version's parser has the flag."""
        native = spelled(internal, self.version)
        return native is not None and flag_exists(native, self.version)

    def peek(self, internal: str) -> Any:
        """A value read for a note only: the flag stays an extra, so it is carried along."""
        if internal in self.v.values:
            return self.v.values[internal]
        return self.v.defaults.get(internal)

    def peek_int(self, internal: str) -> int:
        try:
            return int(self.peek(internal))
        except (TypeError, ValueError):
            return 0

    def run(self) -> None:
        self.undetermined: set[str] = set()  # plan fields the run leaves without a value (no optimizer step)
        self.topology()
        self.batch()
        self.algorithm()
        self.critic()
        self.read_non_plan_sections()
        self.spec.plan.complete()
        for name in self.undetermined:
            # complete() would compute them from the configured sizes; OpenRLHF's floors give none.
            setattr(self.spec.plan, name, None)
        self.describe_derived()
        if self.single_job is not None and self.single_job.per_node is None:
            self.world_unknown(self.single_job.why)

    def world_unknown(self, why: str) -> None:
        """The single-job entry's processes are not known (the plan was computed with one): the data-parallel
        size and the per-rank accumulation are unknown, and the step's prompts hold only if the processes divide
        the rollout batch (each loads rollout_batch_size // processes prompts)."""
        plan, derivations, topology = self.spec.plan, self.spec.derivations, self.spec.topology
        because = f"unknown: {why} (pass --num-processes N)"
        for name in ("data_parallel_size", "grad_accum_steps"):
            setattr(plan, name, None)
            derivations[f"plan.{name}"] = Derivation(because, [], "unknown")
        for name in ("nodes", "gpus_per_node", "training_gpus"):  # computed with one process: no real count
            setattr(topology, name, None)
            derivations[f"topology.{name}"] = Derivation(because, [], "unknown")
        rollout = self.f("rollout.batch_size")
        for name in ("prompts_per_step", "samples_per_step", "optimizer_steps_per_step", "total_steps"):
            if getattr(plan, name) is not None:
                derivations[f"plan.{name}"] = Derivation(
                    f"the same for any number of processes that divides {rollout} (each loads its share); "
                    f"the launcher's count is not stated",
                    [self.k("rollout.batch_size")],
                    "assumed",
                )

    # ---------------------------------------------------------------- topology
    def topology(self) -> None:
        v, t, plan = self.v, self.spec.topology, self.spec.plan
        t.nodes = v.positive_int("actor.num_nodes")
        t.gpus_per_node = v.positive_int("actor.num_gpus_per_node")
        assert t.nodes is not None and t.gpus_per_node is not None  # OpenRLHF's argparse defaults set both
        single = self.single_job
        if single is not None:  # DeepSpeed's processes are the actor's; unknown ones: computed with one
            t.nodes, t.gpus_per_node = single.nodes or 1, single.per_node or 1
        world = t.nodes * t.gpus_per_node
        t.training_gpus = world
        ring = v.positive_int("ds.ring_attn_size") or 1
        tp = v.positive_int("ds.tensor_parallel_size") or 1
        t.sequence_parallel_size, t.tensor_parallel_size = ring, tp
        t.training_backend = f"deepspeed-zero{v.get('ds.zero_stage')}"
        if world % (ring * tp):
            self.notes.warning(
                "topology.indivisible",
                f"{world} actor GPUs are not divisible by ring_attn_size {ring} × DeepSpeed tensor "
                f"parallel {tp}; OpenRLHF does not check this and its device mesh cannot be built",
                source_keys=[self.k("ds.ring_attn_size"), self.k("ds.tensor_parallel_size")],
            )
        if not newer_than(self.version, POWER_OF_TWO_UNTIL) and world & (world - 1):
            self.notes.error(
                "topology.power-of-two",
                f"actor_world_size must be power of 2, got {world}",
                source_keys=[self.k("actor.num_gpus_per_node")],
            )
        dp = world // (ring * tp)
        if dp == 0:
            raise ConfigError(
                f"ring_attn_size {ring} × tensor parallel {tp} exceeds the {world} actor GPUs",
                file=self.v.source_name,
                key=self.f("ds.ring_attn_size"),
                hint="lower --ds.ring_attn_size / --ds.tensor_parallel_size or add actor GPUs",
            )
        plan.data_parallel_size = dp
        self.origin(
            "plan.data_parallel_size",
            f"{self.f('actor.num_nodes')} {t.nodes} × {self.f('actor.num_gpus_per_node')} {t.gpus_per_node} "
            f"GPUs ÷ (ring_attn_size {ring} × DeepSpeed tensor parallel {tp})",
            "actor.num_nodes",
            "actor.num_gpus_per_node",
            "ds.ring_attn_size",
            "ds.tensor_parallel_size",
        )
        if single is not None and single.per_node is not None:
            self.spec.derivations["plan.data_parallel_size"] = Derivation(
                f"{single.why} ({SINGLE_JOB_ENTRY}: DeepSpeed's processes) ÷ (ring_attn_size {ring} × DeepSpeed "
                f"tensor parallel {tp})",
                [self.k("ds.ring_attn_size"), self.k("ds.tensor_parallel_size")],
            )
        raw_engines = v.get("vllm.num_engines")
        # --vllm_num_engines 0 is how releases up to 0.7.5 are told to generate with the actor
        engines = None if str(raw_engines).strip() == "0" else v.positive_int("vllm.num_engines")
        vllm_tp = v.positive_int("vllm.tensor_parallel_size") or 1
        t.rollout_tensor_parallel_size = vllm_tp
        t.rollout_engines = engines
        colocate_all = bool(v.flag("train.colocate_all"))
        t.colocate_models = colocate_all
        self.memory_fraction(colocate_all)
        self.asynchronous = bool(v.flag("train.async_enable"))
        g = self.spec.generation
        g.rollout_backend = "vllm"
        g.rollout_mode = "async" if self.asynchronous else "sync"
        if engines is None and not newer_than(self.version, HF_GENERATE_UNTIL):
            g.rollout_backend, t.rollout_gpus = "hf", 0
            self.spec.derivations["topology.rollout_gpus"] = from_config(
                f"no vLLM engines: OpenRLHF {self.version} generates with the actor's model on its GPUs (HF generate)",
                self.k("vllm.num_engines"),
            )
            if raw_engines is None and engines_compared(self.version):
                self.notes.error(
                    "topology.engines-unset",
                    engines_type_error(self.version, self.f("vllm.num_engines")),
                    source_keys=[self.k("vllm.num_engines")],
                )
            self.gpu_budget(world, 0, colocate_all)
            return
        if engines is None:
            self.notes.warning(
                "keys.missing",
                f"{self.f('vllm.num_engines')} is not set: OpenRLHF generates only "
                "with vLLM engines, so this run cannot roll out",
                source_keys=[self.k("vllm.num_engines")],
            )
            return
        if colocate_all and not self.asynchronous:
            t.rollout_gpus = 0
            self.spec.derivations["topology.rollout_gpus"] = from_config(
                f"{self.f('train.colocate_all')}: the {engines} vLLM engine(s) share the actor GPUs",
                self.k("train.colocate_all"),
            )
            if world != engines * vllm_tp:
                self.notes.error(
                    "topology.colocation-mismatch",
                    f"actor_num_nodes * actor_num_gpus_per_node must be equal to vllm_num_engines * "
                    f"vllm_tensor_parallel_size, got {world} and {engines * vllm_tp}",
                    source_keys=[self.k("vllm.num_engines"), self.k("actor.num_gpus_per_node")],
                )
        else:
            t.rollout_gpus = engines * vllm_tp
            why = " (async training colocates only the DeepSpeed models)" if colocate_all else ""
            if colocate_all:
                self.notes.info(
                    "topology.async-not-colocated",
                    f"[Warning] Using {self.f('train.colocate_all')} in async RLHF only colocates "
                    f"DeepSpeed models: the {engines} vLLM engine(s) get {engines * vllm_tp} GPUs of their "
                    "own",
                    source_keys=[self.k("train.colocate_all"), self.k("train.async_enable")],
                )
            self.spec.derivations["topology.rollout_gpus"] = from_config(
                f"{self.f('vllm.num_engines')} {engines} × {self.f('vllm.tensor_parallel_size')} {vllm_tp} GPUs of "
                f"their own{why}",
                self.k("vllm.num_engines"),
                self.k("vllm.tensor_parallel_size"),
            )
        self.gpu_budget(world, engines * vllm_tp, colocate_all)

    def memory_fraction(self, colocate_all: bool) -> None:
        """vLLM's share of GPU memory; 0.5.8–0.6.0 lowered it to 0.4 under colocate_all_models
        (cli/train_ppo_ray.py)."""
        fraction = self.v.number("vllm.gpu_memory_utilization")
        t = self.spec.topology
        first, last = COLOCATE_MEMORY_FORCED
        if (
            fraction is not None
            and colocate_all
            and fraction >= 0.9
            and at_least(self.version, first)
            and not newer_than(self.version, last)
        ):
            self.notes.warning(
                "topology.memory-fraction-forced",
                f"Set args.vllm_gpu_memory_utilization to 0.4 for colocate_all_models! (OpenRLHF "
                f"{self.version} replaces {self.f('vllm.gpu_memory_utilization')} {fmt(fraction)} "
                "≥ 0.9 when every model shares the GPUs)",
                source_keys=[self.k("vllm.gpu_memory_utilization")],
            )
            fraction = 0.4
        t.rollout_gpu_memory_fraction = fraction

    def gpu_budget(self, actor: int, rollout: int, colocate_all: bool) -> None:
        """The run's total GPUs (docs/frameworks/openrlhf.md §3 'Total GPUs'), as an info note: the plan counts actor
        GPUs only."""
        groups = [f"actor {actor}"]
        total = actor
        # Before 0.6.0 the reference model was created whatever the KL coefficient.
        kl = (self.v.number("algo.kl.init_coef") or 0) > 0 or not at_least(self.version, NO_REF_WITHOUT_KL_SINCE)
        gae = str(self.v.get("algo.advantage.estimator") or "gae") == "gae"
        remote = bool(self.peek("reward.remote_url")) or bool(self.peek("train.agent_func_path"))

        def gpus(model: str) -> int:
            return self.peek_int(f"{model}.num_nodes") * self.peek_int(f"{model}.num_gpus_per_node")

        if colocate_all and not self.asynchronous:
            self.notes.info(
                "topology.gpus-total",
                f"all models and the vLLM engines share the {actor} actor GPUs ({self.f('train.colocate_all')})",
            )
            return
        if kl and not self.peek("train.colocate_actor_ref") and not colocate_all:
            groups.append(f"ref {gpus('ref')}")
            total += gpus("ref")
        if gae and not colocate_all:
            groups.append(f"critic {gpus('critic')}")
            total += gpus("critic")
        if not remote and not colocate_all and not (gae and self.peek("train.colocate_critic_reward")):
            groups.append(f"reward {gpus('reward')}")
            total += gpus("reward")
        groups.append(f"vLLM {rollout}")
        total += rollout
        self.notes.info("topology.gpus-total", f"the run places {total} GPUs: " + " + ".join(groups))

    # ---------------------------------------------------------------- batch plan
    def batch(self) -> None:
        v, plan, notes = self.v, self.spec.plan, self.notes
        dp = plan.data_parallel_size
        rbs = v.positive_int("rollout.batch_size")
        n = v.positive_int("rollout.n_samples_per_prompt")
        assert dp is not None and rbs is not None and n is not None  # topology() sets dp; argparse defaults the rest
        rollout_micro = v.positive_int("rollout.micro_batch_size")
        assert rollout_micro is not None  # an argparse default
        if not newer_than(self.version, SAMPLE_DATASET_UNTIL):
            samples = self.sample_dataset_step(rbs, n, rollout_micro)
        else:
            plan.samples_per_prompt = n
            self.origin(
                "plan.samples_per_prompt",
                f"{self.f('rollout.n_samples_per_prompt')} {n}",
                "rollout.n_samples_per_prompt",
            )
            plan.prompts_per_step = self.prompts_per_step(rbs)
            samples = plan.prompts_per_step * n
        tbs = v.positive_int("train.batch_size")
        epochs = v.positive_int("train.max_epochs")
        plan.epochs_per_step = epochs
        self.origin(
            "plan.epochs_per_step",
            f"{self.f('train.max_epochs')} {epochs} (passes over each rollout)",
            "train.max_epochs",
        )
        assert tbs is not None and epochs is not None  # argparse defaults
        dynamic = bool(v.flag("train.dynamic_batch_enable"))
        self.spec.token_budget.dynamic_batching = dynamic
        if dynamic:
            self.dynamic_batch(samples, tbs, epochs, dp)
        else:
            self.static_batch(samples, tbs, epochs, dp, rollout_micro)
        if n <= 1 and v.flag("algo.dynamic_filtering_enable"):
            notes.error(
                "generation.filter-needs-groups",
                "n_samples_per_prompt must be greater than 1 when using dynamic filtering",
                source_keys=[self.k("algo.dynamic_filtering_enable")],
            )

    def prompts_per_step(self, rbs: int) -> int:
        """Prompts per rollout step; ``vllm_generate_batch_size`` changed meaning twice (docs/frameworks/openrlhf.md §3,
        §5.4)."""
        v, notes, version = self.v, self.notes, self.version
        gen = v.positive_int("rollout.vllm_generate_batch_size")
        filtering = bool(v.flag("algo.dynamic_filtering_enable"))
        rbs_key, gen_key = self.f("rollout.batch_size"), self.f("rollout.vllm_generate_batch_size")
        text, keys = f"{rbs_key} {rbs} prompts", ["rollout.batch_size"]
        prompts = rbs
        if not newer_than(version, PER_RANK_PROMPTS_UNTIL):
            prompts, text = self.per_rank_prompts(rbs)
            self.origin("plan.prompts_per_step", text, *keys)
            return prompts
        if gen is not None and gen != rbs:
            if not at_least(version, GEN_BATCH_IGNORED_SINCE):
                # 0.8.x: the prompt dataloader's batch; without filtering one batch is one rollout.
                if filtering:
                    self.prompts_per_round(gen)
                else:
                    prompts, text, keys = (
                        gen,
                        f"{gen_key} {gen} prompts (the prompt dataloader batch)",
                        ["rollout.vllm_generate_batch_size"],
                    )
                    notes.warning(
                        "semantics.generate-batch-is-step",
                        f"in OpenRLHF {version} {gen_key} {gen} is the prompt dataloader's batch, so each "
                        f"rollout step trains on {gen} prompts, not {rbs_key} {rbs}",
                        source_keys=[self.k("rollout.vllm_generate_batch_size"), self.k("rollout.batch_size")],
                    )
            elif not at_least(version, GEN_BATCH_OVERSAMPLING_SINCE):
                notes.info(
                    "semantics.ignored-key",
                    f"{gen_key} {gen} is read by nothing in OpenRLHF {version}: each "
                    f"step draws {rbs_key} {rbs} prompts",
                    source_keys=[self.k("rollout.vllm_generate_batch_size")],
                )
            elif gen > rbs:
                if not self.v.flag("train.async_enable"):
                    # The assert's own text, which names the flags as this version spells them.
                    notes.error(
                        "generation.oversampling-needs-async",
                        f"{gen_key} > {rbs_key} requires {self.f('train.async_enable')} (over-sampling needs "
                        "async queue to buffer extra batches).",
                        source_keys=[self.k("rollout.vllm_generate_batch_size")],
                    )
                self.prompts_per_round(gen)
            else:
                # One vLLM call of `gen` prompts fills the buffer; the step takes what it holds.
                prompts, text, keys = (
                    gen,
                    f"{gen_key} {gen} prompts (one vLLM call per step)",
                    ["rollout.vllm_generate_batch_size"],
                )
                notes.warning(
                    "semantics.generate-batch-is-step",
                    f"{gen_key} {gen} < {rbs_key} {rbs}: each step generates {gen} prompts in one vLLM call "
                    f"and trains on those",
                    source_keys=[self.k("rollout.vllm_generate_batch_size")],
                )
        elif gen is not None and not at_least(version, GEN_BATCH_IGNORED_SINCE) and filtering:
            self.prompts_per_round(gen)
        self.origin("plan.prompts_per_step", text, *keys)
        return prompts

    def sample_dataset_step(self, rbs: int, n: int, rollout_micro: int) -> int:
        """0.4.0–0.4.4: the samples of one rollout step (docs/frameworks/openrlhf.md §13). PromptDataset holds every
        prompt n times; each rank's loader yields micro_rollout_batch_size of those copies in random order, and the
        trainer trains after update_timesteps = rollout_batch_size // (world × micro_rollout_batch_size) of them. A
        step holds no group of n samples of one prompt, so the plan counts each sample as a prompt drawn once and
        the n copies as n passes over the prompts (run_length.dataset_passes)."""
        plan, notes = self.spec.plan, self.notes
        world = self.spec.topology.training_gpus
        assert world is not None  # topology() sets it
        rbs_key, micro_key, n_key = (
            self.f("rollout.batch_size"),
            self.f("rollout.micro_batch_size"),
            self.f("rollout.n_samples_per_prompt"),
        )
        per_round = world * rollout_micro
        timesteps = rbs // per_round
        samples = timesteps * per_round
        keys = [self.k("rollout.batch_size"), self.k("rollout.micro_batch_size")]
        if timesteps == 0:
            notes.error(
                "batch.update-timesteps-zero",
                f"integer modulo by zero (OpenRLHF {self.version}'s fit: update_timesteps = {rbs_key} {rbs} // "
                f"({world} actor GPUs × {micro_key} {rollout_micro}) = 0, and the first loader batch computes "
                "steps % update_timesteps)",
                source_keys=keys,
            )
        elif rbs % per_round:
            notes.warning(
                "batch.rollout-per-rank",
                f"{rbs_key} {rbs} is not divisible by {world} actor GPUs × {micro_key} {rollout_micro} = "
                f"{per_round}: OpenRLHF {self.version} trains after {rbs} // {per_round} = {timesteps} loader "
                f"batches per rank, so a step holds {samples} samples, not {rbs}",
                source_keys=keys,
            )
        plan.samples_per_prompt = 1
        self.origin(
            "plan.samples_per_prompt",
            f"1: OpenRLHF {self.version}'s prompt dataset holds each prompt {n_key} {n} time(s) and a step draws "
            "its samples from those copies in random order, so a step holds no group of samples of one prompt",
            "rollout.n_samples_per_prompt",
        )
        plan.prompts_per_step = plan.samples_per_step = samples
        self.spec.derivations["plan.samples_per_step"] = derived(
            f"{timesteps} loader batches × {micro_key} {rollout_micro} samples × {world} actor GPUs",
            self.k("rollout.batch_size"),
            self.k("rollout.micro_batch_size"),
        )
        self.origin(
            "plan.prompts_per_step",
            f"{rbs_key} {rbs} // ({world} actor GPUs × {micro_key} {rollout_micro}) = {timesteps} loader batches "
            f"per rank × {per_round} samples, each one prompt copy (OpenRLHF ≤ {SAMPLE_DATASET_UNTIL}: "
            f"{rbs_key} counts samples)",
            "rollout.batch_size",
            "rollout.micro_batch_size",
        )
        if n > 1:
            notes.info(
                "semantics.samples-not-grouped",
                f"{n_key} {n}: OpenRLHF {self.version} repeats each prompt {n} times in its prompt dataset, not "
                f"within a step; the {samples} samples of a step are about {fmt(quotient(samples, n))} prompts' "
                f"worth of copies in random order. rlconf reads one sample per prompt and {n} passes over the "
                "prompts per episode",
                source_keys=[self.k("rollout.n_samples_per_prompt")],
            )
        return samples

    def per_rank_prompts(self, rbs: int) -> tuple[int, str]:
        """Up to 0.7.0 each data-parallel group loads its own rollout_batch_size // groups prompts
        (trainer/ray/ppo_actor.py: ``setup_dataloader(prompts, rollout_batch_size // (world // ring))``)."""
        t = self.spec.topology
        world = t.training_gpus
        assert world is not None  # topology() sets it
        groups = world // (t.sequence_parallel_size or 1)
        per_rank = rbs // groups
        rbs_key = self.f("rollout.batch_size")
        if rbs % world and at_least(self.version, RBS_DIVISIBLE_SINCE):
            self.notes.error(
                "batch.rollout-per-rank",
                f"rollout_bach_size must be divisible by actor_world_size, got {rbs} and {world}",
                source_keys=[self.k("rollout.batch_size"), self.k("actor.num_gpus_per_node")],
            )
        elif rbs % groups:
            self.notes.warning(
                "batch.rollout-per-rank",
                f"{rbs_key} {rbs} is not divisible by the {groups} actor ranks: OpenRLHF "
                f"{self.version} gives each rank {rbs} // {groups} = {per_rank} prompts, "
                f"{per_rank * groups} per step",
                source_keys=[self.k("rollout.batch_size")],
            )
        if per_rank == 0:
            raise ConfigError(
                f"{rbs_key} {rbs} is smaller than the {groups} actor ranks: each rank would load 0 prompts per step",
                file=self.v.source_name,
                key=rbs_key,
                hint=f"set {rbs_key} to a multiple of {groups}",
            )
        return per_rank * groups, (
            f"{rbs_key} {rbs} // {groups} actor ranks = {per_rank} prompts on each rank "
            f"(OpenRLHF ≤ {PER_RANK_PROMPTS_UNTIL} loads prompts per rank) × {groups}"
        )

    def prompts_per_round(self, gen: int) -> None:
        self.spec.generation.prompts_per_round = gen
        self.spec.derivations["generation.prompts_per_round"] = from_config(
            f"{self.f('rollout.vllm_generate_batch_size')} {gen} prompts per vLLM call",
            self.k("rollout.vllm_generate_batch_size"),
        )

    def static_batch(self, samples: int, tbs: int, epochs: int, dp: int, rollout_micro: int) -> None:
        """DeepSpeed micro-batches: GA = train_batch // micro // dp, unchecked by OpenRLHF (docs/frameworks/openrlhf.md
        §4)."""
        v, plan, notes = self.v, self.spec.plan, self.notes
        micro = v.positive_int("train.micro_batch_size")
        assert micro is not None  # an argparse default
        plan.micro_batch_per_device = micro
        self.origin(
            "plan.micro_batch_per_device",
            f"{self.f('train.micro_batch_size')} {micro} samples per GPU",
            "train.micro_batch_size",
        )
        plan.samples_per_optimizer_step = tbs
        self.origin(
            "plan.samples_per_optimizer_step",
            f"{self.f('train.batch_size')} {tbs} samples (global)",
            "train.batch_size",
        )
        self.spec.generation.logprob_micro_batch_per_device = rollout_micro
        accumulation = tbs // micro // dp
        tbs_key, micro_key = self.k("train.batch_size"), self.k("train.micro_batch_size")
        if tbs % (micro * dp):
            deepspeed = (
                "Gradient accumulation steps: 0 has to be greater than 0"
                if accumulation == 0
                else f"Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * "
                f"gradient_acc_step * world_size {tbs} != {micro} * {accumulation} * {dp}"
            )
            notes.error(
                "batch.indivisible",
                f"--{tbs_key} {tbs} is not divisible by --{micro_key} {micro} × {dp} data-parallel ranks = "
                f"{micro * dp}: OpenRLHF does not check this and floors the accumulation to {tbs} // {micro} "
                f"// {dp} = {accumulation} ({accumulation * micro * dp} samples per optimizer step), then "
                f"DeepSpeed stops: '{deepspeed}'",
                source_keys=[tbs_key, micro_key],
            )
        if accumulation == 0:
            self.undetermined |= {"grad_accum_steps", "optimizer_steps_per_step"}
            return
        plan.grad_accum_steps = accumulation
        self.spec.derivations["plan.grad_accum_steps"] = derived(
            f"{self.f('train.batch_size')} {tbs} // {self.f('train.micro_batch_size')} {micro} // {dp} DP ranks",
            tbs_key,
            micro_key,
        )
        local = samples // dp
        micro_batches = local // micro
        # Up to 0.7.0 each rank makes experiences of its own prompts; from 0.7.1 one controller deals them out.
        dealt = newer_than(self.version, PER_RANK_PROMPTS_UNTIL)
        if dealt and samples // rollout_micro < dp and at_least(self.version, "0.7.2"):
            notes.error(
                "batch.too-few-rollout-batches",
                "The number of sample batches must be greater than or equal to the effective number of "
                f"actor processes. ({samples} samples // {self.f('rollout.micro_batch_size')} "
                f"{rollout_micro} < {dp})",
                source_keys=[self.k("rollout.micro_batch_size")],
            )
        elif dealt and samples % (rollout_micro * dp) and samples // rollout_micro >= dp:
            notes.warning(
                "batch.uneven-shards",
                f"{samples} rollout samples in experiences of {self.f('rollout.micro_batch_size')} "
                f"{rollout_micro} do not split evenly over {dp} data-parallel ranks; ranks train on "
                "different numbers of micro-batches, which DeepSpeed's collectives do not expect",
                source_keys=[self.k("rollout.micro_batch_size")],
            )
        per_step = quotient(epochs * micro_batches, accumulation)
        effective = accumulation * micro * dp  # samples per optimizer step after OpenRLHF's floor division
        if per_step == 0:
            notes.error(
                "batch.no-optimizer-step",
                f"each rank gets {local} samples per step, fewer than one micro-batch of {micro}: nothing is trained",
                source_keys=[tbs_key, micro_key],
            )
            self.undetermined.add("optimizer_steps_per_step")
            return
        plan.optimizer_steps_per_step = exact(per_step)
        exact_split = not (samples % effective or local % micro or micro_batches % accumulation)
        self.spec.derivations["plan.optimizer_steps_per_step"] = derived(
            f"{self.f('train.max_epochs')} {epochs} × {fmt(samples)} samples ÷ {self.f('train.batch_size')} {tbs}"
            if exact_split and effective == tbs
            else f"{self.f('train.max_epochs')} {epochs} × ({fmt(samples)} samples ÷ {dp} DP ranks // micro {micro} = "
            f"{micro_batches} micro-batches) ÷ {accumulation} per optimizer step",
            tbs_key,
            micro_key,
        )
        if not exact_split:
            dropped = local - micro_batches * micro
            carried = micro_batches % accumulation
            if micro_batches < accumulation:
                # DeepSpeed counts micro-steps across calls: its accumulation window spans several rollouts.
                carry = (
                    f"; one optimizer step spans {fmt(quotient(accumulation, micro_batches))} rollout steps "
                    "(DeepSpeed keeps accumulating across rollouts)"
                )
            else:
                carry = (
                    f"; DeepSpeed carries the {carried} left-over micro-batch(es) into the next step" if carried else ""
                )
            notes.warning(
                "batch.floor-division",
                f"{fmt(samples)} rollout samples are not a whole number of optimizer steps of "
                f"{effective} samples (--{tbs_key} {tbs}): OpenRLHF does not check this. Each of the {dp} "
                f"ranks trains on {local} samples as {micro_batches} micro-batches of {micro}"
                + (f" (drop_last drops {dropped})" if dropped else "")
                + f", i.e. {fmt(quotient(micro_batches, accumulation))} optimizer steps of {accumulation} "
                "micro-batches per epoch" + carry,
                source_keys=[self.k("rollout.batch_size"), tbs_key],
            )

    def dynamic_batch(self, samples: int, tbs: int, epochs: int, dp: int) -> None:
        """Token-budget micro-batches: train_batch // dp samples per rank and step (replay_buffer.py)."""
        v, plan, notes, budget = self.v, self.spec.plan, self.notes, self.spec.token_budget
        tokens = v.positive_int("train.max_tokens_per_gpu")
        rollout_tokens = v.positive_int("rollout.max_tokens_per_gpu") or tokens
        budget.max_tokens_per_device, budget.logprob_max_tokens_per_device = tokens, rollout_tokens
        t = self.spec.topology
        scale = (t.sequence_parallel_size or 1) * (t.tensor_parallel_size or 1)
        self.spec.derivations["token_budget.max_tokens_per_device"] = from_config(
            f"{self.f('train.max_tokens_per_gpu')} {tokens} tokens (prompt + response) per GPU"
            + (f" (× ring × TP {scale} per data-parallel group)" if scale > 1 else ""),
            self.k("train.max_tokens_per_gpu"),
        )
        v.get("train.micro_batch_size")  # ignored under dynamic batching: DeepSpeed gets micro 1, GA 1
        v.get("rollout.micro_batch_size")
        v.get("ds.packing_samples")  # forced on
        tbs_key = self.k("train.batch_size")
        notes.info(
            "batch.token-budget",
            f"{self.f('train.dynamic_batch_enable')} packs micro-batches up to {tokens} tokens per GPU, so "
            "micro_batch_per_device and grad_accum_steps depend on sequence lengths (null); the micro-batch "
            "flags are ignored",
            source_keys=[self.k("train.dynamic_batch_enable"), self.k("train.max_tokens_per_gpu")],
        )
        local = tbs // dp
        plan.samples_per_optimizer_step = local * dp
        self.origin(
            "plan.samples_per_optimizer_step",
            f"{self.f('train.batch_size')} {tbs} samples // {dp} DP ranks × {dp}",
            "train.batch_size",
        )
        if tbs % dp:
            notes.warning(
                "batch.floor-division",
                f"--{tbs_key} {tbs} is not divisible by {dp} data-parallel ranks: with dynamic batching "
                f"each rank takes {tbs} // {dp} = {local} samples per optimizer step ({local * dp} in all)",
                source_keys=[tbs_key],
            )
        steps = samples // tbs
        if steps == 0:
            notes.error(
                "batch.no-optimizer-step",
                f"{fmt(samples)} rollout samples are fewer than --{tbs_key} {tbs}: with dynamic batching "
                f"OpenRLHF computes {fmt(samples)} // {tbs} = 0 optimizer steps, so nothing is trained",
                source_keys=[tbs_key],
            )
            self.undetermined.add("optimizer_steps_per_step")
            return
        if samples % tbs:
            notes.warning(
                "batch.floor-division",
                f"{fmt(samples)} rollout samples are not a whole number of --{tbs_key} {tbs}: dynamic "
                f"batching runs {fmt(samples)} // {tbs} = {steps} optimizer step(s) per epoch and leaves "
                f"{fmt(samples - steps * tbs)} samples untrained",
                source_keys=[tbs_key],
            )
        plan.optimizer_steps_per_step = epochs * steps
        self.spec.derivations["plan.optimizer_steps_per_step"] = derived(
            f"{self.f('train.max_epochs')} {epochs} × ({fmt(samples)} samples // {self.f('train.batch_size')} {tbs})",
            tbs_key,
        )

    # ---------------------------------------------------------------- algorithm
    def algorithm(self) -> None:
        v, a, notes, version = self.v, self.spec.algorithm, self.notes, self.version
        raw = str(v.get("algo.advantage.estimator") or "gae")  # 0.5.0 has no such flag: always GAE
        est_key = self.k("algo.advantage.estimator")
        if raw not in ESTIMATORS or (raw in ESTIMATOR_SINCE and not at_least(version, ESTIMATOR_SINCE[raw])):
            notes.error(
                "algorithm.unknown-estimator",
                f"--{est_key} {raw} is not a choice of OpenRLHF {version}",
                source_keys=[est_key],
            )
            a.advantage_estimator = raw
        else:
            a.advantage_estimator, a.advantage_normalization_scope = ESTIMATORS[raw]
        self.estimator = raw
        no_std = bool(v.flag("algo.advantage.no_std_norm"))
        whitened = raw in ("gae", "reinforce", "reinforce_baseline") or (
            raw == "rloo" and not at_least(version, RLOO_UNWHITENED_SINCE)
        )
        if whitened:
            a.advantage_normalization_scope = "batch"  # token-masked whitening over the whole rollout
            a.advantage_std_normalization = not no_std
        else:
            a.advantage_std_normalization = raw == "group_norm"
            if no_std:
                notes.info(
                    "semantics.ignored-key",
                    f"{self.f('algo.advantage.no_std_norm')} changes only the "
                    f"global whitening, which {raw} does not use",
                    source_keys=[self.k("algo.advantage.no_std_norm")],
                )
        if not self.has_flag("algo.advantage.estimator"):
            self.spec.derivations["algorithm.advantage_estimator"] = Derivation(
                f"OpenRLHF {version} has no --advantage_estimator: always GAE with a critic", [], "default"
            )
        else:
            self.spec.derivations["algorithm.advantage_estimator"] = from_config(
                f"--{est_key} {raw}"
                + (
                    " (GRPO)"
                    if raw == "group_norm"
                    else " (GRPO advantages without the std, Dr. GRPO)"
                    if raw == "dr_grpo"
                    else ""
                ),
                est_key,
            )
        n = self.spec.plan.samples_per_prompt or 1
        group_assert, message = group_assert_of(version, raw)
        if raw in group_assert and n <= 1:
            notes.error(
                "algorithm.group-too-small", message, source_keys=[est_key, self.k("rollout.n_samples_per_prompt")]
            )
        self.kl()
        eps = v.number("actor.eps_clip")
        low_high = v.get("actor.eps_clip_low_high")
        if isinstance(low_high, list) and len(low_high) == 2:
            a.clip_ratio_low = _float(low_high[0], self.f("actor.eps_clip_low_high"), v.source_name)
            a.clip_ratio_high = _float(low_high[1], self.f("actor.eps_clip_low_high"), v.source_name)
        else:
            a.clip_ratio_low = a.clip_ratio_high = eps
        a.clip_ratio_dual = v.number("actor.dual_clip")
        entropy = v.number("actor.entropy_coef")
        a.entropy_coef = entropy if entropy is not None else 0.0  # None: not even computed
        loss_type = v.get("actor.policy_loss_type") or "ppo"
        a.policy_loss = "gspo" if loss_type == "gspo" else "vanilla"
        agg = v.get("actor.loss_agg_mode") or native_aggregation(version)  # ≤ 0.6.4: a mean of sequence means
        a.loss_aggregation = "seq-mean-token-mean" if loss_type == "gspo" else str(agg)
        if at_least(version, LOSS_SCOPE_OPTIMIZER_STEP):
            a.loss_normalizer_scope = "optimizer_step"
        else:
            a.loss_normalizer_scope = "micro_batch"
            if at_least(version, LOSS_SCOPE_GLOBAL_MICRO):
                notes.info(
                    "algorithm.loss-normalizer-scope",
                    "OpenRLHF 0.10.3 divides each micro-batch's token sum "
                    "by that micro-batch's tokens summed over all data-parallel ranks",
                )

    def kl(self) -> None:
        v, a, notes = self.v, self.spec.algorithm, self.notes
        coef = v.number("algo.kl.init_coef") or 0.0
        use_loss = bool(v.flag("algo.kl.use_loss"))  # 0.6.0+; KL was always in the reward before
        if at_least(self.version, "0.6.1"):
            estimator = str(v.get("algo.kl.estimator"))
        else:  # a switch until 0.6.0
            estimator = "k3" if v.flag("use_kl_estimator_k3") else "k1"
        coef_key, loss_key = self.k("algo.kl.init_coef"), self.k("algo.kl.use_loss")
        if estimator not in KL_ESTIMATORS:
            notes.error(
                "algorithm.unknown-kl-estimator",
                f"--{self.k('algo.kl.estimator')} {estimator} is not one of {', '.join(KL_ESTIMATORS)}",
                source_keys=[self.k("algo.kl.estimator")],
            )
        if coef <= 0:
            # No reference model is created at all (from 0.6.0; before, one computes a KL weighted by 0).
            a.kl_placement, a.kl_coef, a.kl_estimator = "none", 0.0, None
            self.spec.derivations["algorithm.kl_placement"] = from_config(
                f"--{coef_key} {fmt(coef)}: no reference model, no KL term", coef_key
            )
            return
        a.kl_placement = "loss" if use_loss else "reward"
        a.kl_coef, a.kl_estimator = coef, estimator
        self.spec.derivations["algorithm.kl_placement"] = Derivation(
            f"--{loss_key}: KL × --{coef_key} added to the actor loss"
            if use_loss
            else f"--{loss_key} not set: per-token −{fmt(coef)} × KL added to the reward",
            [loss_key, coef_key],
            "config" if "algo.kl.use_loss" in v else "default",
        )
        target = v.number("algo.kl.target")
        if target is not None:
            v.get("algo.kl.horizon")
            notes.warning(
                "algorithm.adaptive-kl",
                f"{self.f('algo.kl.target')} {fmt(target)} makes the KL coefficient adaptive "
                f"(AdaptiveKLController from {fmt(coef)}); kl_coef is only its starting value",
                source_keys=[self.k("algo.kl.target")],
            )
        expected = ("k2", "k3") if use_loss else ("k1",)
        if (
            estimator in KL_ESTIMATORS
            and estimator not in expected
            and not v.flag("algo.kl.unbiased_gradient")
            and at_least(self.version, "0.6.1")
        ):
            notes.info(
                "algorithm.kl-estimator",
                f"OpenRLHF recommends {' or '.join(expected)} when KL is {'a loss' if use_loss else 'in the reward'}"
                f"; this config uses {estimator}",
                source_keys=[self.k("algo.kl.estimator")],
            )

    def critic(self) -> None:
        v, c, plan = self.v, self.spec.critic, self.spec.plan
        c.enabled = self.estimator == "gae"
        if not c.enabled:
            return
        c.samples_per_optimizer_step = int(plan.samples_per_optimizer_step) if plan.samples_per_optimizer_step else None
        c.epochs_per_step = plan.epochs_per_step
        c.micro_batch_per_device = int(plan.micro_batch_per_device) if plan.micro_batch_per_device else None
        self.spec.derivations["critic.samples_per_optimizer_step"] = derived(
            f"the critic trains with the actor's {self.f('train.batch_size')}, {self.f('train.max_epochs')} and "
            f"{self.f('train.micro_batch_size')}",
            self.k("train.batch_size"),
        )
        c.lr = v.number("critic.adam.lr")
        model = v.get("critic.model_name_or_path")
        if model is None:
            # The critic defaults to the first reward model, or to the actor when rewards are remote.
            reward = self.peek("reward.model_name_or_path")
            remote = self.peek("reward.remote_url") or self.peek("train.agent_func_path")
            model = self.peek("actor.model_name_or_path") if remote else (str(reward).split(",")[0] if reward else None)
            if model is None:
                self.notes.error(
                    "keys.missing",
                    "gae needs a critic: set --critic.model_name_or_path or a reward "
                    "model (train_ppo_ray crashes on reward.model_name_or_path None)",
                    source_keys=[self.k("critic.model_name_or_path")],
                )
        c.model = str(model) if model is not None else None
        world = self.peek_int("critic.num_nodes") * self.peek_int("critic.num_gpus_per_node")
        t = self.spec.topology
        critic_dp = world // ((t.sequence_parallel_size or 1) * (t.tensor_parallel_size or 1))
        micro = plan.micro_batch_per_device
        tbs = plan.samples_per_optimizer_step
        if micro and tbs and critic_dp and not self.spec.token_budget.dynamic_batching and tbs % (micro * critic_dp):
            self.notes.error(
                "batch.indivisible",
                f"the critic's {critic_dp} data-parallel ranks × micro {fmt(micro)} do not divide "
                f"{self.f('train.batch_size')} {fmt(tbs)}: DeepSpeed rejects the critic's batch sizes",
                source_keys=[self.k("train.batch_size"), self.k("critic.num_gpus_per_node")],
            )

    # ---------------------------------------------------------------- the rest
    def read_non_plan_sections(self) -> None:
        v, s, version, notes = self.v, self.spec, self.version, self.notes
        if at_least(version, "0.9.8"):
            max_len = v.positive_int("data.max_len")
            new = v.positive_int("rollout.max_new_tokens")
            s.lengths.max_response_tokens = new
            if new is not None and max_len is not None:
                s.lengths.max_prompt_tokens = max_len - new if max_len > new else None
                self.spec.derivations["lengths.max_prompt_tokens"] = derived(
                    f"{self.f('data.max_len')} {max_len} − {self.f('rollout.max_new_tokens')} {new} (longer prompts "
                    "are left-truncated)",
                    self.k("data.max_len"),
                    self.k("rollout.max_new_tokens"),
                )
                if max_len <= new:
                    notes.warning(
                        "lengths.no-room-for-prompt",
                        f"{self.f('data.max_len')} {max_len} counts prompt + "
                        f"response and leaves no room for a prompt beside {new} new tokens",
                        source_keys=[self.k("data.max_len")],
                    )
            elif new is None:
                notes.info(
                    "lengths.dynamic",
                    f"{self.f('rollout.max_new_tokens')} is not set: vLLM generates up to "
                    f"{self.f('data.max_len')} {max_len} tokens minus each prompt's length",
                    source_keys=[self.k("rollout.max_new_tokens")],
                )
        else:
            s.lengths.max_prompt_tokens = v.positive_int("prompt_max_len")
            s.lengths.max_response_tokens = v.positive_int("generate_max_len")
            if v.get("data.max_len") is not None:
                notes.info(
                    "semantics.ignored-key",
                    f"--max_len is 'deprecated' in OpenRLHF {version}: prompts are cut "
                    "at --prompt_max_len and responses at --generate_max_len",
                    source_keys=["max_len"],
                )
        sampling = s.sampling
        sampling.temperature = v.number("rollout.temperature")
        if sampling.temperature is None and not _has_flag("rollout.temperature", version):
            sampling.temperature = 1.0  # before --temperature (0.4.6): temperature=1 in ActorModelRayActor.fit
            self.spec.derivations["sampling.temperature"] = Derivation(
                f"1, hard-coded in OpenRLHF {version} (trainer/ray/ppo_actor.py fit; --temperature came in 0.4.6)",
                [],
                "default",
            )
        sampling.top_p = v.number("rollout.top_p")
        sampling.top_k = -1  # hard-coded in the vLLM sampling parameters
        self.spec.derivations["sampling.top_k"] = Derivation(
            "hard-coded -1 (disabled); OpenRLHF has no top-k flag", [], "default"
        )
        o = s.optimizer
        o.lr = v.number("actor.adam.lr")
        o.lr_schedule = str(v.get("actor.lr_scheduler") or "cosine_with_min_lr")  # hard-coded before 0.8.5
        o.warmup_ratio = v.number("actor.lr_warmup_ratio")
        if o.warmup_ratio is None:  # before 0.5.3: ceil(max_steps × 0.03)
            o.warmup_ratio = WARMUP_FIXED
        ratio = v.number("actor.min_lr_ratio")
        o.min_lr_ratio = ratio if ratio is not None else MIN_LR_RATIO_FIXED
        if o.lr_schedule not in ("cosine_with_min_lr", "cosine_warmup_with_min_lr"):
            o.min_lr_ratio = None
        elif ratio is None:
            self.spec.derivations["optimizer.min_lr_ratio"] = Derivation(
                f"min_lr = lr × {MIN_LR_RATIO_FIXED}, hard-coded in OpenRLHF {self.version}", [], "default"
            )
        self.spec.derivations["optimizer.warmup_ratio"] = Derivation(
            f"{self.f('actor.lr_warmup_ratio')} {fmt(o.warmup_ratio)} of the LR horizon max_steps (optimizer steps)",
            [self.k("actor.lr_warmup_ratio")],
            "config" if "actor.lr_warmup_ratio" in v else "default",
        )
        o.weight_decay = v.number("actor.adam.weight_decay")
        o.grad_clip = v.number("actor.max_norm")
        episodes = v.positive_int("train.num_episodes")
        assert episodes is not None  # an argparse default
        first, last = MAX_STEPS_BUG
        passes_run = episodes * (self.spec.plan.epochs_per_step or 1)
        if at_least(version, first) and not newer_than(version, last) and passes_run > 1:
            notes.warning(
                "optimizer.lr-horizon",
                f"OpenRLHF {version} sets the LR horizon to len(prompts) × n // train_batch_size, leaving out "
                f"{self.f('train.num_episodes')} {episodes} × {self.f('train.max_epochs')} "
                f"{self.spec.plan.epochs_per_step}: the {o.lr_schedule} schedule ends after the first "
                "episode's first epoch and stays at its floor (fixed in 0.7.3)",
                source_keys=[self.k("train.num_episodes"), self.k("train.max_epochs")],
            )
        if not newer_than(version, SAMPLE_DATASET_UNTIL):
            # the prompt dataset holds n copies of each prompt: one episode is n passes over the prompts
            n = v.positive_int("rollout.n_samples_per_prompt") or 1
            s.run_length.dataset_passes = episodes * n
            self.origin(
                "run_length.dataset_passes",
                f"{self.f('train.num_episodes')} {episodes} episodes × {self.f('rollout.n_samples_per_prompt')} "
                f"{n} copies of each prompt in the dataset",
                "train.num_episodes",
                "rollout.n_samples_per_prompt",
            )
        else:
            s.run_length.dataset_passes = episodes
            self.origin(
                "run_length.dataset_passes",
                f"{self.f('train.num_episodes')} {episodes} passes over the prompts",
                "train.num_episodes",
            )
        g = s.generation
        if v.flag("algo.dynamic_filtering_enable"):
            g.filter_groups, g.filter_metric, g.max_rounds_per_step = True, "score", 0
            if not (self.peek("reward.remote_url") or self.peek("train.agent_func_path")):
                notes.error(
                    "generation.filter-needs-remote-reward",
                    "remote_rm_url or agent_func_path must be specified when using dynamic filtering",
                    source_keys=[self.k("algo.dynamic_filtering_enable")],
                )
            notes.info(
                "generation.filter",
                f"{self.f('algo.dynamic_filtering_enable')} drops prompt groups whose "
                "mean score is outside the open range "
                f"{self.f('algo.dynamic_filtering_range')} and draws a replacement prompt",
                source_keys=[self.k("algo.dynamic_filtering_enable")],
            )
        elif "algo.dynamic_filtering_enable" in v.defaults:
            g.filter_groups = False
        if self.asynchronous:
            depth = v.positive_int("train.async_queue_size") if "train.async_queue_size" in v.defaults else 1
            s.asynchrony.max_steps_ahead = depth
            self.spec.derivations["asynchrony.max_steps_ahead"] = from_config(
                f"{self.f('train.async_enable')}: generation runs up to the queue size {depth} step(s) ahead",
                self.k("train.async_enable"),
            )
        else:
            s.asynchrony.max_steps_ahead = 0
        s.references.model = v.get("actor.model_name_or_path")
        s.plan.total_steps = None  # num_episodes passes over a dataset whose size the config does not state
        _RunParts(self).read()

    def describe_derived(self) -> None:
        plan, d = self.spec.plan, self.spec.derivations
        if plan.samples_per_step is not None and newer_than(self.version, SAMPLE_DATASET_UNTIL):
            d["plan.samples_per_step"] = derived(
                f"{fmt(plan.prompts_per_step)} prompts × {self.f('rollout.n_samples_per_prompt')} "
                f"{plan.samples_per_prompt}"
            )


class _RunParts:
    """Reads the run beyond the batch plan: reward, prompts, checkpoints, evaluation, logging."""

    def __init__(self, reading: _Interpreter) -> None:
        self.r, self.v, self.spec, self.notes, self.version = (
            reading,
            reading.v,
            reading.spec,
            reading.notes,
            reading.version,
        )

    def read(self) -> None:
        self.reward()
        self.data()
        self.checkpointing()
        self.evaluation()
        self.logging()
        version = self.version
        read_settings(
            self.spec,
            self.v,
            SETTINGS,
            "openrlhf",
            version,
            lambda key: _has_flag(key, version),
            lambda key: spelled(key, version) or key,
        )

    def reward(self) -> None:
        v, r, notes, f = self.v, self.spec.reward, self.notes, self.r.f
        remote = v.get("reward.remote_url")
        urls = [u.strip() for u in str(remote).split(",") if u.strip()] if remote else []
        if urls and urls[0].endswith(".py"):
            r.function_path, r.function_name = urls[0], "reward_func"
            notes.info(
                "reward.function",
                f"{f('reward.remote_url')} {urls[0]} is a reward-function file: OpenRLHF "
                f"imports it and calls {REWARD_FUNC_SIGNATURE} on each batch (queries = prompt + response "
                "texts, labels from --label_key), returning a tensor of rewards",
                source_keys=[self.r.k("reward.remote_url")],
            )
            if not at_least(self.version, REWARD_FILE_SINCE):
                notes.error(
                    "reward.function-file-unsupported",
                    f"OpenRLHF {self.version} sends rewards requests to {f('reward.remote_url')} as an HTTP "
                    f"URL; .py reward files are loaded from {REWARD_FILE_SINCE}",
                    source_keys=[self.r.k("reward.remote_url")],
                )
        elif urls:
            r.remote_url = urls[0]
        if len(urls) > 1:
            notes.warning(
                "reward.not-expressible",
                f"{f('reward.remote_url')} lists {len(urls)} reward sources; "
                f"the canonical model keeps the first ({urls[0]})",
                source_keys=[self.r.k("reward.remote_url")],
            )
        agent = v.get("train.agent_func_path")
        if agent:
            notes.warning(
                "reward.not-expressible",
                f"{f('train.agent_func_path')} {agent} is an agent workflow that "
                "generates and scores; no other framework reads it",
                source_keys=[self.r.k("train.agent_func_path")],
            )
        model = v.get("reward.model_name_or_path")
        if model:
            models = [m for m in str(model).split(",") if m]
            if urls or agent:
                notes.info(
                    "reward.model-unused",
                    f"{f('reward.model_name_or_path')} is not loaded as a reward model "
                    f"when {f('reward.remote_url')} is set (it only seeds the critic)",
                    source_keys=[self.r.k("reward.model_name_or_path")],
                )
            else:
                r.model = models[0]
                if len(models) > 1:
                    notes.warning(
                        "reward.not-expressible",
                        f"{len(models)} reward models are summed by OpenRLHF; the canonical model keeps {models[0]}",
                        source_keys=[self.r.k("reward.model_name_or_path")],
                    )

    def data(self) -> None:
        v, d, notes = self.v, self.spec.data, self.notes
        d.train_sources = self.sources("data.prompt_dataset")
        if self.r.has_flag("data.prompt_split"):
            d.train_split = str(v.get("data.prompt_split"))
        elif d.train_sources:
            d.train_split = "train"  # 0.7.0–0.7.3: blending_datasets' default split, with no flag to change it
            self.spec.derivations["data.train_split"] = Derivation(
                f"OpenRLHF {self.version} has no --prompt_split: the train split", [], "default"
            )
        probs = v.get("data.prompt_probs")
        if probs is not None and d.train_sources and symbolic_names(str(probs)):
            notes.info(
                "data.weights-unknown",
                f"{self.r.f('data.prompt_probs')} {probs} depends on a variable the "
                "script never sets: the dataset weights are unknown",
                source_keys=[self.r.k("data.prompt_probs")],
            )
        elif probs is not None and d.train_sources:
            try:
                weights = [float(p) for p in str(probs).split(",")]
            except ValueError:
                raise ConfigError(
                    f"{self.r.f('data.prompt_probs')} takes comma-separated numbers, got {probs!r}",
                    file=v.source_name,
                    key=self.r.f("data.prompt_probs"),
                    hint="write one probability per dataset, e.g. 0.7,0.3",
                ) from None
            if len(weights) != len(d.train_sources):
                notes.error(
                    "data.weights-mismatch",
                    f"{self.r.f('data.prompt_probs')} gives {len(weights)} "
                    f"probabilities for {len(d.train_sources)} datasets (blending_datasets asserts equal "
                    "lengths)",
                    source_keys=[self.r.k("data.prompt_probs")],
                )
            elif len(weights) > 1:
                d.train_weights = weights
        d.prompt_key = str(v.get("data.input_key"))
        label = v.get("data.label_key")
        d.answer_key = str(label) if label else None
        cap_value = v.get("data.max_samples")
        if self.r.fork_entry and "data.max_samples" in v and not (isinstance(cap_value, int) and cap_value > 0):
            # upstream's blending_datasets selects range(max_samples): a fork's own entry may read it otherwise
            self.notes.warning(
                "keys.invalid-value",
                f"{self.r.f('data.max_samples')} {cap_value} is no count of prompts OpenRLHF's own entry takes; "
                "the fork's entry may read it otherwise (check its code): the prompt cap is left unset",
                source_keys=[self.r.k("data.max_samples")],
            )
        elif "data.max_samples" in v:
            cap = v.positive_int("data.max_samples")
            d.max_train_prompts = cap
            self.spec.derivations["data.max_train_prompts"] = from_config(
                f"{self.r.f('data.max_samples')} {cap}: at most {cap} prompts are read (each run length is "
                f"{self.r.f('train.num_episodes')} passes over them)",
                self.r.k("data.max_samples"),
            )
        else:
            v.get("data.max_samples")  # the default 1e8 caps nothing
        if self.r.has_flag("eval.dataset") and v.get("eval.dataset"):
            d.eval_sources = self.sources("eval.dataset")
            d.eval_split = str(v.get("eval.split")) if self.r.has_flag("eval.split") else "train"
            d.max_eval_prompts = d.max_train_prompts  # the eval set is cut at max_samples too

    def sources(self, internal: str) -> list[str] | None:
        """Comma-separated datasets; ``name@dir`` loads ``name`` with ``data_dir=dir`` (utils.blending_datasets)."""
        text = self.v.get(internal)
        if not text:
            return None
        sources = []
        for item in str(text).split(","):
            name, at, data_dir = item.strip().partition("@")
            if at:
                self.notes.warning(
                    "data.not-expressible",
                    f"{self.r.f(internal)} {item.strip()}: '@{data_dir}' is load_dataset's data_dir "
                    f"(a sub-directory of {name}), which other frameworks cannot select; {name} is "
                    "kept",
                    source_keys=[self.r.k(internal)],
                )
            sources.append(name.strip())
        return sources

    def checkpointing(self) -> None:
        v, c = self.v, self.spec.checkpointing
        steps = _int_or_none(v.get("ckpt.save_steps"))
        c.every_steps = steps if steps and steps > 0 else 0
        self.spec.derivations["checkpointing.every_steps"] = Derivation(
            f"{self.r.f('ckpt.save_steps')} {steps} rollout steps (global_step counts rollouts)"
            if c.every_steps
            else f"{self.r.f('ckpt.save_steps')} {steps}: never (float('inf'))",
            [self.r.k("ckpt.save_steps")],
            "config" if "ckpt.save_steps" in v else "default",
        )
        c.directory = str(v.get("ckpt.path"))
        c.hf_format = bool(v.flag("ckpt.save_hf")) if self.r.has_flag("ckpt.save_hf") else False
        keep = _int_or_none(v.get("ckpt.max_num"))
        c.keep_last = keep if keep and keep > 0 else None
        c.resume = "auto" if v.flag("ckpt.load_enable") else "never"

    def evaluation(self) -> None:
        v, e, notes = self.v, self.spec.evaluation, self.notes
        e.before_training = False
        if not self.spec.data.eval_sources:
            e.every_steps = 0  # the PPO trainer evaluates only an eval dataset
            return
        steps = _int_or_none(v.get("eval.steps"))
        if steps and steps > 0:
            e.every_steps = steps
        elif not newer_than(self.version, EVAL_ONCE_PER_EPISODE_UNTIL):
            e.every_steps = None
            notes.info(
                "evaluation.once-per-episode",
                f"{self.r.f('eval.steps')} -1 evaluates once per episode in "
                f"OpenRLHF {self.version} (every len(prompts) // rollout batch rollout steps), which depends on "
                "the dataset's size",
                source_keys=[self.r.k("eval.steps")],
            )
        else:
            e.every_steps = 0

    def logging(self) -> None:
        v, log = self.v, self.spec.logging
        backends = ["console"]
        if v.get("logger.wandb.key"):
            backends.append("wandb")
            log.project = str(v.get("logger.wandb.project"))
            name = v.get("logger.wandb.run_name")
            log.run_name = str(name) if name else None
        elif v.get("logger.tensorboard_dir"):
            backends.append("tensorboard")  # used only without wandb
            name = v.get("logger.wandb.run_name")
            log.run_name = str(name) if name else None
        log.backends = backends


def _int_or_none(value: Any) -> int | None:
    try:
        return int(float(value))
    except (TypeError, ValueError, OverflowError):
        return None


IS_CORRECTION_FLAGS = frozenset(
    {
        "algo.advantage.is_correction_enable",
        "algo.advantage.is_correction_type",
        "use_icepop",
        "algo.advantage.is_correction_level",
        "algo.advantage.is_correction_mode",
        "algo.advantage.is_correction_gating",
        "algo.advantage.is_correction_threshold",
    }
)


def _correction_scheme(flags: dict[str, Any]) -> tuple[str, str, str] | None:
    """(level, mode, gating) of an IS correction given in either generation of flags, or None when it is off."""
    level = flags.get("algo.advantage.is_correction_level")
    if level is not None:
        if str(level) == "off":
            return None
        return (
            str(level),
            str(flags.get("algo.advantage.is_correction_mode", "mask")),
            str(flags.get("algo.advantage.is_correction_gating", "ratio")),
        )
    if flags.get("algo.advantage.is_correction_enable") not in (True, "true", "True"):
        return None
    named = str(flags.get("algo.advantage.is_correction_type") or ("icepop" if flags.get("use_icepop") else "tis"))
    return CORRECTION_SCHEMES.get(named, CORRECTION_SCHEMES["tis"])


def engines_compared(version: str) -> bool:
    """Whether ``version``'s _validate_args compares --vllm_num_engines with 0 (a TypeError when it is unset)."""
    return any(at_least(version, first) and not newer_than(version, last) for first, last in ENGINES_COMPARED)


def engines_type_error(version: str, flag: str) -> str:
    """Python's TypeError for the first comparison of the unset --vllm_num_engines, with where it is made: up to
    0.5.0 the __main__ block's ``>= 1`` runs before _validate_args' ``> 0`` (cli/train_ppo_ray.py@v0.4.3,
    @v0.5.0)."""
    if not newer_than(version, ENGINES_GE_UNTIL):
        return (
            "'>=' not supported between instances of 'NoneType' and 'int' (train_ppo_ray's __main__ block compares "
            f"{flag}, not set, with 1; 0 generates with the actor)"
        )
    return (
        f"'>' not supported between instances of 'NoneType' and 'int' (_validate_args compares {flag}, not set, "
        "with 0; 0 generates with the actor)"
    )


def native_aggregation(version: str) -> str:
    """The policy loss's aggregation without --actor.loss_agg_mode (models/loss.py)."""
    return "token-mean" if at_least(version, TOKEN_MEAN_LOSS_SINCE) else "seq-mean-token-mean"


def group_assert_of(version: str, estimator: str) -> tuple[tuple[str, ...], str]:
    """The estimators ``version`` asserts n_samples_per_prompt > 1 for, and the assert's message."""
    if not at_least(version, "0.5.3"):
        return (), ""
    if not at_least(version, GROUP_ASSERT_SINCE):
        return ("rloo",), "RLOO requires n_samples_per_prompt > 1"
    group = GROUP_ASSERT + (("dr_grpo",) if at_least(version, GROUP_ASSERT_DR_GRPO_SINCE) else ())
    return group, f"{estimator} requires n_samples_per_prompt > 1"


def _float(value: Any, flag: str, source: str) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ConfigError(
            f"{flag} takes two numbers, got {value!r}", file=source, key=flag, hint=f"write {flag} LOW HIGH"
        ) from None


# ---------------------------------------------------------------- writing: canonical model → flags
class _Writer:
    """Canonical model → OpenRLHF flags (internal names) for one version, spelled for it at the end."""

    def __init__(self, spec: RunSpec, version: str, notes: NoteList) -> None:
        self.spec, self.version, self.notes = spec, version, notes
        self.out: dict[str, Any] = {}

    def flags(self) -> dict[str, Any]:
        self.reward()  # first: whether the reward is remote decides evaluation and dynamic filtering
        self.topology()
        self.batch()
        self.algorithm()
        self.write_non_plan_sections()
        parts = _RunPartsWriter(self)
        parts.write()
        fallback = self.out_defaults
        self.extras()
        for key, value in fallback.items():
            self.out.setdefault(key, value)
        if not any(
            self.out.get(k) for k in ("reward.remote_url", "reward.model_name_or_path", "train.agent_func_path")
        ):
            # train_ppo_ray has no default reward: the reward-model group (and GAE's default critic) load
            # --reward_pretrain None and the run stops at start-up.
            model, remote = (spelled(k, self.version) for k in ("reward.model_name_or_path", "reward.remote_url"))
            self.notes.error(
                "reward.missing",
                f"no reward is written (the source names none OpenRLHF can load): add --{model} (a "
                f"reward model) or --{remote} (an HTTP reward server, or a .py file defining "
                f"{REWARD_FUNC_SIGNATURE}) to the launch line; OpenRLHF does not start without one",
                target_keys=[remote, model],
            )
        parts.placement()
        return self.spell()

    def reward(self) -> None:
        """The reward hook-up: a function file or an HTTP server as --remote_rm_url, else a reward model."""
        r, notes, version = self.spec.reward, self.notes, self.version
        remote_key = spelled("reward.remote_url", version)
        self.remote_reward = False
        if r.function_path:
            if not at_least(version, REWARD_FILE_SINCE):
                notes.warning(
                    "reward.not-expressible",
                    f"OpenRLHF {version} reads --{remote_key} only as an HTTP reward server; reward files "
                    f"({r.function_path}) are loaded from {REWARD_FILE_SINCE}: serve the function over "
                    "HTTP or write for a newer release",
                    source_keys=["reward.function_path"],
                )
            elif not r.function_path.endswith(".py"):
                notes.warning(
                    "reward.not-expressible",
                    f"reward function file {r.function_path} is not a .py file, which is what OpenRLHF "
                    f"imports from --{remote_key}",
                    source_keys=["reward.function_path"],
                )
            else:
                self.out["reward.remote_url"] = r.function_path
                self.remote_reward = True
                name = r.function_name or "reward_func"
                wrapper = (
                    ""
                    if name == "reward_func"
                    else (
                        f"; the source's function is {name}: add a reward_func with that signature to the file that "
                        f"calls {name}"
                    )
                )
                notes.info(
                    "reward.function-signature",
                    f"--{remote_key} {r.function_path}: OpenRLHF imports the file and calls "
                    f"{REWARD_FUNC_SIGNATURE} (queries = prompt + response texts, labels = the --"
                    f"{spelled('data.label_key', version) or 'label_key'} column), which returns a tensor of "
                    f"rewards (or a dict with 'rewards' and 'scores' from 0.8)" + wrapper,
                    source_keys=["reward.function_path", "reward.function_name"],
                    target_keys=[remote_key],
                )
        elif r.remote_url:
            self.out["reward.remote_url"] = r.remote_url
            self.remote_reward = True
        if r.model:
            if self.remote_reward:
                notes.warning(
                    "reward.not-expressible",
                    f"OpenRLHF scores with --{remote_key} alone when it is set: the source's reward model "
                    f"{r.model} is not written (combine both in the reward server or function)",
                    source_keys=["reward.model"],
                )
            else:
                self.out["reward.model_name_or_path"] = r.model
        if r.builtin:
            notes.warning(
                "reward.not-expressible",
                f"OpenRLHF has no built-in scorers: {', '.join(r.builtin)} "
                + (
                    "are not written"
                    if self.remote_reward or r.model
                    else f"must become a .py file defining {REWARD_FUNC_SIGNATURE}, passed as --{remote_key}"
                ),
                source_keys=["reward.builtin"],
                target_keys=[remote_key],
            )

    def has(self, internal: str) -> bool:
        return _has_flag(internal, self.version)

    def put(self, internal: str, value: Any, missing: str | None = None) -> None:
        """Set a flag; when this version lacks it, say so (``missing``) instead."""
        if value is None or value is False:
            return
        if self.has(internal):
            self.out[internal] = value
        elif missing:
            self.notes.warning("algorithm.not-expressible", missing, target_keys=[internal])

    # ---------------------------------------------------------------- topology
    def topology(self) -> None:
        t, plan, notes = self.spec.topology, self.spec.plan, self.notes
        self.out_defaults: dict[str, Any] = {}
        dp = plan.data_parallel_size or t.training_gpus or 8
        ring = t.sequence_parallel_size or 1
        if t.context_parallel_size and t.context_parallel_size > 1:
            ring *= t.context_parallel_size  # Megatron CP splits the sequence like ring attention
        tp = t.tensor_parallel_size or 1
        if t.pipeline_parallel_size and t.pipeline_parallel_size > 1:
            notes.warning(
                "topology.not-expressible",
                f"OpenRLHF has no pipeline parallelism; pipeline size "
                f"{t.pipeline_parallel_size} is dropped and the {dp} data-parallel ranks kept",
                source_keys=["topology.pipeline_parallel_size"],
            )
        gpus = dp * ring * tp
        if t.training_gpus and t.training_gpus != gpus:
            notes.warning(
                "topology.gpus-changed",
                f"the source trains on {t.training_gpus} GPUs; OpenRLHF needs "
                f"{gpus} actor GPUs to keep {dp} data-parallel ranks (ring {ring} × tensor parallel {tp})",
                source_keys=["topology.training_gpus"],
                target_keys=["actor.num_gpus_per_node"],
            )
        nodes = t.nodes if t.nodes and gpus % t.nodes == 0 else 1
        if not newer_than(self.version, POWER_OF_TWO_UNTIL) and gpus & (gpus - 1):
            raise ConfigError(
                f"OpenRLHF {self.version} asserts 'actor_world_size must be power of 2', and this run "
                f"trains on {gpus} GPUs",
                hint=f"write for OpenRLHF 0.5.6 or later (--to "
                f"openrlhf@0.5.6), or change the source to {1 << (gpus.bit_length() - 1)} or "
                f"{1 << gpus.bit_length()} training GPUs",
            )
        self.actor_gpus = gpus
        self.put("actor.num_nodes", nodes)
        self.put("actor.num_gpus_per_node", gpus // nodes)
        if ring > 1:
            self.put("ds.ring_attn_size", ring)
            self.put("ds.packing_samples", True)  # ring attention requires packing
        if tp > 1:
            self.put("ds.tensor_parallel_size", tp)
        backend = t.training_backend or ""
        if backend.startswith("deepspeed-zero") and backend[-1:].isdigit():
            self.out_defaults["ds.zero_stage"] = int(backend[-1])
        rollout_tp = t.rollout_tensor_parallel_size or 1
        colocated = not t.rollout_gpus
        if colocated and not self.has("train.colocate_all"):
            notes.warning(
                "topology.not-expressible",
                f"OpenRLHF {self.version} cannot put vLLM on the training GPUs (--colocate_all_models from "
                f"0.5.8): the engines get {gpus} GPUs of their own",
                source_keys=["topology.rollout_gpus"],
                target_keys=["vllm.num_engines"],
            )
        if colocated:
            if gpus % rollout_tp:
                rollout_tp = math.gcd(gpus, rollout_tp)
            engines = gpus // rollout_tp
            self.put("train.colocate_all", True)
        else:
            assert t.rollout_gpus  # not colocated
            engines = max(1, t.rollout_gpus // rollout_tp)
            if t.rollout_gpus % rollout_tp:
                notes.warning(
                    "topology.gpus-changed",
                    f"{t.rollout_gpus} rollout GPUs are not a multiple of vLLM "
                    f"tensor parallel {rollout_tp}; {engines} engine(s) are written",
                    target_keys=["vllm.num_engines"],
                )
        engines = self.engines_dividing(gpus, engines, rollout_tp)
        self.put("vllm.num_engines", engines)
        self.put("vllm.tensor_parallel_size", rollout_tp)
        self.memory_fraction(colocated)
        # The other model groups default to 8 GPUs each: size the ones this run creates like the actor
        # (colocation requires equal sizes), unless the source's own flags say otherwise (extras).
        a = self.spec.algorithm
        groups = {
            "ref": a.kl_placement not in (None, "none") and bool(a.kl_coef),
            "critic": a.advantage_estimator == "gae" or not self.has("algo.advantage.estimator"),  # 0.5.0: GAE
            "reward": "reward.model_name_or_path" in self.out,
        }
        for model, used in groups.items():
            if used:
                self.out_defaults[f"{model}.num_nodes"] = nodes
                self.out_defaults[f"{model}.num_gpus_per_node"] = gpus // nodes
        if (not colocated or not self.has("train.colocate_all")) and self.spec.framework != "openrlhf":
            # vLLM has GPUs of its own: share what OpenRLHF can share with the actor (and the critic).
            if groups["ref"]:
                self.put("train.colocate_actor_ref", True)
            if groups["critic"] and groups["reward"]:
                self.put("train.colocate_critic_reward", True)

    def engines_dividing(self, gpus: int, engines: int, rollout_tp: int) -> int:
        """0.5.6–0.7.0 assert that the actor GPUs divide among the vLLM engines (0.6.0 also takes the reverse)."""
        if newer_than(self.version, PER_RANK_PROMPTS_UNTIL) or not at_least(self.version, RBS_DIVISIBLE_SINCE):
            return engines
        if gpus % engines == 0 or (at_least(self.version, GROUP_ASSERT_SINCE) and engines % gpus == 0):
            return engines
        fitting = max(d for d in divisors(gpus) if d <= engines)
        self.notes.warning(
            "topology.gpus-changed",
            f"OpenRLHF {self.version} asserts 'actor_world_size must be divisible by vllm_num_engines': "
            f"{fitting} engine(s) of {rollout_tp} GPU(s) are written instead of {engines}",
            source_keys=["topology.rollout_gpus"],
            target_keys=["vllm.num_engines"],
        )
        return fitting

    def memory_fraction(self, colocated: bool) -> None:
        fraction = self.spec.topology.rollout_gpu_memory_fraction
        if fraction is None:
            return
        self.put(
            "vllm.gpu_memory_utilization",
            fraction,
            missing=f"OpenRLHF {self.version} has no --vllm_gpu_memory_utilization (from 0.5.8); vLLM takes its "
            "default share of GPU memory",
        )
        first, last = COLOCATE_MEMORY_FORCED
        if colocated and fraction >= 0.9 and at_least(self.version, first) and not newer_than(self.version, last):
            self.notes.warning(
                "topology.memory-fraction-forced",
                f"OpenRLHF {self.version} lowers vllm_gpu_memory_utilization {fmt(fraction)} to 0.4 "
                "under colocate_all_models",
                target_keys=["vllm.gpu_memory_utilization"],
            )

    # ---------------------------------------------------------------- batch
    def batch(self) -> None:
        plan, notes, version = self.spec.plan, self.notes, self.version
        dp = plan.data_parallel_size or self.actor_gpus
        n = plan.samples_per_prompt or 1
        prompts = whole_prompts(self.spec, notes, "OpenRLHF", "rollout.batch_size")
        if prompts and not newer_than(version, PER_RANK_PROMPTS_UNTIL) and prompts % self.actor_gpus:
            # Each actor rank loads rollout_batch_size // ranks prompts; 0.5.6–0.7.0 assert divisibility.
            rounded = max(self.actor_gpus, round(prompts / self.actor_gpus) * self.actor_gpus)
            notes.warning(
                "batch.changed",
                f"OpenRLHF {version} splits the prompts of a step evenly over the "
                f"{self.actor_gpus} actor ranks: rollout_batch_size {rounded} is written for the source's "
                f"{prompts} prompts per step",
                source_keys=["plan.prompts_per_step"],
                target_keys=["rollout.batch_size"],
            )
            prompts = rounded
        self.put("rollout.batch_size", prompts)
        self.put("rollout.n_samples_per_prompt", n)
        per_opt = plan.samples_per_optimizer_step
        if per_opt is not None and Fraction(per_opt).denominator != 1:
            per_opt = max(1, round(per_opt))
        per_opt = int(per_opt) if per_opt is not None else None
        self.put("train.batch_size", per_opt)
        self.put("train.max_epochs", plan.epochs_per_step or 1)
        if self.spec.framework != "openrlhf" and per_opt is not None:
            notes.info(
                "units.prompts-vs-samples",
                f"rollout.batch_size counts prompts ({prompts}) and train.batch_size counts samples "
                f"({per_opt} = {fmt(plan.samples_per_optimizer_step)} samples per optimizer step, global)",
                source_keys=["plan.samples_per_optimizer_step"],
                target_keys=["train.batch_size"],
            )
        samples = (prompts or 0) * n
        budget = self.spec.token_budget
        micro = plan.micro_batch_per_device
        if micro is None and not self.has("train.dynamic_batch_enable"):
            micro = self.choose_micro(per_opt, dp, 1, token_budget=True)
        if micro is None:
            tokens = budget.max_tokens_per_device or 16192
            self.put("train.dynamic_batch_enable", True)
            self.put("ds.packing_samples", True)
            self.put("train.max_tokens_per_gpu", tokens)
            self.put("rollout.max_tokens_per_gpu", budget.logprob_max_tokens_per_device or tokens)
            if budget.max_tokens_per_device is None:
                notes.warning(
                    "batch.token-budget-assumed",
                    "the source sets neither a micro-batch nor a token budget; "
                    "OpenRLHF's default train.max_tokens_per_gpu 16192 is written",
                    target_keys=["train.max_tokens_per_gpu"],
                )
            if per_opt and samples and samples < per_opt:
                notes.warning(
                    "batch.not-expressible",
                    f"the source updates every {fmt(Fraction(per_opt, samples))} "
                    "steps; OpenRLHF's dynamic batching needs at least one train batch per rollout",
                    target_keys=["train.batch_size"],
                )
        else:
            micro = self.choose_micro(per_opt, dp, int(micro))
            self.put("train.micro_batch_size", micro)
            logprob = self.spec.generation.logprob_micro_batch_per_device or micro
            if samples and logprob and dp and samples % (logprob * dp):
                # Experiences are sharded whole over the ranks: keep the shards even.
                fitting = divisors(samples // dp) if samples % dp == 0 else [1]
                logprob = max(m for m in fitting if m <= logprob)
            self.put("rollout.micro_batch_size", logprob)
        passes = self.spec.run_length.dataset_passes
        total_opt, per_step = self.spec.run_length.total_optimizer_steps, plan.optimizer_steps_per_step
        total_steps = plan.total_steps
        if total_steps is None and total_opt and prompts:
            # A run length in optimizer steps: rollout steps when a whole number of them fits.
            steps = Fraction(total_opt) / Fraction(per_step) if per_step else None
            if steps is not None and steps.denominator == 1:
                total_steps = int(steps)
                notes.info(
                    "run-length.converted",
                    f"{total_opt} optimizer steps = {total_steps} rollout steps "
                    f"of {fmt(per_step)} optimizer steps each",
                    source_keys=["run_length.total_optimizer_steps"],
                )
            else:
                notes.warning(
                    "run-length.not-expressible",
                    f"the source stops after {total_opt} optimizer steps, not a whole number of rollout "
                    f"steps ({fmt(per_step)} optimizer steps each); OpenRLHF stops after whole passes over "
                    "the prompts: set data.max_samples by hand",
                    source_keys=["run_length.total_optimizer_steps"],
                    target_keys=["data.max_samples"],
                )
        if total_steps is not None and prompts:
            # OpenRLHF runs whole passes over the prompts: cap the prompts so that one pass is total_steps steps.
            self.put("train.num_episodes", 1)
            self.out_defaults["data.max_samples"] = total_steps * prompts
            notes.warning(
                "run-length.approximated",
                f"OpenRLHF has no step limit: {total_steps} steps are written as data.max_samples "
                f"{total_steps * prompts} prompts (= {total_steps} × {prompts}) and one pass; "
                "that holds when the dataset has at least that many prompts",
                source_keys=["plan.total_steps"],
                target_keys=["data.max_samples", "train.num_episodes"],
            )
        elif passes is not None:
            if not float(passes).is_integer():
                notes.warning(
                    "run-length.rounded",
                    f"{passes} dataset passes rounded up to {math.ceil(passes)}: num_episodes is a whole number",
                    target_keys=["train.num_episodes"],
                )
            self.put("train.num_episodes", max(1, math.ceil(passes)))
        g = self.spec.generation
        if g.prompts_per_round is not None and g.prompts_per_round != prompts:
            if at_least(version, GEN_BATCH_OVERSAMPLING_SINCE) and prompts and g.prompts_per_round > prompts:
                self.put("rollout.vllm_generate_batch_size", g.prompts_per_round)
                self.async_needed = True
            elif (
                g.filter_groups
                and self.has("rollout.vllm_generate_batch_size")
                and not at_least(version, GEN_BATCH_IGNORED_SINCE)
            ):
                # 0.8.1–0.9.0: the dataloader batch, refilled until rollout_batch_size groups pass the filter.
                self.put("rollout.vllm_generate_batch_size", g.prompts_per_round)
            else:
                notes.warning(
                    "generation.not-expressible",
                    f"{g.prompts_per_round} prompts per generation round (over-sampling) is not written: "
                    f"OpenRLHF {version} generates rollout.batch_size prompts per step"
                    + (
                        ""
                        if at_least(version, GEN_BATCH_OVERSAMPLING_SINCE)
                        else " (vllm_generate_batch_size over-samples from 0.10.0, with async training)"
                    ),
                    source_keys=["generation.prompts_per_round"],
                )
        if g.filter_groups and not self.remote_reward:
            # train_ppo_ray asserts "remote_rm_url or agent_func_path must be specified when using dynamic filtering"
            notes.warning(
                "generation.not-expressible",
                "dynamic filtering is not written: OpenRLHF filters on the scores of a remote reward "
                "(an HTTP server or a .py reward function), and the source's reward is neither",
                source_keys=["generation.filter_groups"],
                target_keys=["algo.dynamic_filtering_enable"],
            )
        elif g.filter_groups and n <= 1:
            notes.warning(
                "generation.not-expressible",
                "dynamic filtering is not written: OpenRLHF needs n_samples_per_prompt > 1 to filter groups",
                source_keys=["generation.filter_groups"],
            )
        elif g.filter_groups:
            self.put("algo.dynamic_filtering_enable", True, missing="dynamic filtering needs OpenRLHF ≥ 0.8.1")
            if g.filter_metric not in (None, "score", "acc", "seq_reward", "seq_final_reward"):
                notes.warning(
                    "generation.filter-metric",
                    f"OpenRLHF filters on the mean reward score per group, not on '{g.filter_metric}'",
                    target_keys=["algo.dynamic_filtering_enable"],
                )

    def choose_micro(self, per_opt: int | None, dp: int, wanted: int, token_budget: bool = False) -> int:
        """The micro batch: the source's if it divides the per-rank batch, else the closest divisor."""
        if not per_opt or per_opt % dp:
            if per_opt:
                self.notes.warning(
                    "batch.not-expressible",
                    f"{per_opt} samples per optimizer step do not split over {dp} data-parallel ranks; "
                    "DeepSpeed rejects train.batch_size not divisible by micro × ranks",
                    target_keys=["train.batch_size"],
                )
            return wanted
        local = per_opt // dp
        wanted = max(1, wanted or 1)
        if local % wanted == 0 and not token_budget:
            return wanted
        candidates = divisors(local)
        target = 4 if token_budget else wanted
        best = min(candidates, key=lambda d: (abs(d - target), -d))
        if token_budget:
            self.notes.warning(
                "batch.token-budget-not-expressible",
                f"OpenRLHF {self.version} has no token-budget micro-batching (use_dynamic_batch "
                f"from 0.8.6); train.micro_batch_size {best} is written",
                target_keys=["train.micro_batch_size"],
            )
        else:
            self.notes.warning(
                "batch.micro-changed",
                f"a micro-batch of {wanted} samples per GPU does not divide the "
                f"{local} samples per rank and optimizer step; train.micro_batch_size {best} is written",
                target_keys=["train.micro_batch_size"],
            )
        return best

    # ---------------------------------------------------------------- algorithm
    def algorithm(self) -> None:
        a, notes, version, out = self.spec.algorithm, self.notes, self.version, self.out
        estimator = self.estimator(a.advantage_estimator or "grpo", a.advantage_std_normalization)
        out["algo.advantage.estimator"] = estimator
        whitened = estimator in ("gae", "reinforce", "reinforce_baseline") or (
            estimator == "rloo" and not at_least(version, RLOO_UNWHITENED_SINCE)
        )
        scope = "batch" if whitened else ESTIMATORS[estimator][1]
        if whitened and a.advantage_std_normalization is False:
            self.put(
                "algo.advantage.no_std_norm",
                True,
                missing=f"OpenRLHF {version} always divides {estimator}'s "
                "advantages by the batch std (--no_advantage_std_norm from 0.6.4); the source does not",
            )
        elif not whitened and estimator != "dr_grpo" and estimator != "group_norm" and a.advantage_std_normalization:
            notes.warning(
                "algorithm.not-expressible",
                f"OpenRLHF {version}'s {estimator} does not divide advantages by a std; the source does",
                source_keys=["algorithm.advantage_std_normalization"],
            )
        if (
            a.advantage_normalization_scope
            and a.advantage_normalization_scope != scope
            and a.advantage_std_normalization is not False
        ):
            notes.warning(
                "algorithm.not-expressible",
                f"OpenRLHF's {estimator} normalises advantages over the "
                f"{scope}; the source over the {a.advantage_normalization_scope}",
                source_keys=["algorithm.advantage_normalization_scope"],
                target_keys=["algo.advantage.estimator"],
            )
        if not self.has("algo.advantage.estimator"):
            del out["algo.advantage.estimator"]  # 0.5.0: always GAE
        placement = a.kl_placement or "none"
        if placement == "both":
            notes.warning(
                "algorithm.not-expressible",
                "OpenRLHF puts KL either in the reward or in the loss; the source uses both, the loss is kept",
                source_keys=["algorithm.kl_placement"],
            )
            placement = "loss"
        coef = a.kl_coef or 0.0
        if placement == "none" or coef <= 0:
            out["algo.kl.init_coef"] = 0.0  # no reference model
        else:
            out["algo.kl.init_coef"] = coef
            if placement == "loss" and not self.has("algo.kl.use_loss"):
                notes.warning(
                    "algorithm.not-expressible",
                    f"OpenRLHF {version} puts KL in the reward only "
                    "(--use_kl_loss from 0.6.0); the source's KL loss becomes a per-token KL penalty",
                    source_keys=["algorithm.kl_placement"],
                    target_keys=["init_kl_coef"],
                )
                placement = "reward"
            self.put("algo.kl.use_loss", placement == "loss")
            kl_estimator = a.kl_estimator or ("k3" if placement == "loss" else "k1")
            if kl_estimator not in KL_ESTIMATORS:
                fallback = "k3" if placement == "loss" else "k1"
                notes.warning(
                    "algorithm.kl-estimator",
                    f"OpenRLHF has k1/k2/k3 KL estimators; the source's '{kl_estimator}' is written as {fallback}",
                    target_keys=["algo.kl.estimator"],
                )
                kl_estimator = fallback
            if self.has("algo.kl.estimator"):
                out["algo.kl.estimator"] = kl_estimator
            elif kl_estimator == "k3":
                self.put("use_kl_estimator_k3", True)
            elif kl_estimator == "k2":
                notes.warning(
                    "algorithm.kl-estimator",
                    f"OpenRLHF {version} has the k1 and k3 KL estimators "
                    "(--use_kl_estimator_k3) only; the source's k2 is written as k3",
                    target_keys=["use_kl_estimator_k3"],
                )
                self.put("use_kl_estimator_k3", True)
        low, high = a.clip_ratio_low, a.clip_ratio_high
        if low is not None:
            out["actor.eps_clip"] = low
        if high is not None and low is not None and high != low:
            self.put(
                "actor.eps_clip_low_high",
                [low, high],
                missing=f"asymmetric clipping ({low}, {high}) needs OpenRLHF ≥ 0.8.3; eps_clip {low} is used",
            )
        self.put("actor.dual_clip", a.clip_ratio_dual, missing=f"dual clip {a.clip_ratio_dual} needs OpenRLHF ≥ 0.8.6")
        if a.entropy_coef:
            self.put(
                "actor.entropy_coef",
                a.entropy_coef,
                missing=f"OpenRLHF {version} has no entropy bonus "
                f"(--entropy_loss_coef from 0.7.2); the source's coefficient {fmt(a.entropy_coef)} is dropped",
            )
        if a.policy_loss == "gspo":
            self.put("actor.policy_loss_type", "gspo", missing="GSPO needs OpenRLHF ≥ 0.8.8")
        elif a.policy_loss not in (None, "vanilla"):
            notes.warning(
                "algorithm.not-expressible",
                f"policy loss '{a.policy_loss}' has no OpenRLHF counterpart",
                target_keys=["actor.policy_loss_type"],
            )
        aggregation = a.loss_aggregation or "token-mean"
        if self.has("actor.loss_agg_mode") and aggregation in ("token-mean", "seq-mean-token-mean"):
            if a.policy_loss != "gspo":
                out["actor.loss_agg_mode"] = aggregation
        elif aggregation != native_aggregation(version) and a.policy_loss != "gspo":
            notes.warning(
                "algorithm.not-expressible",
                f"loss aggregation '{aggregation}' is not available in OpenRLHF {version} ("
                + native_aggregation(version)
                + (", seq-mean-token-mean" if at_least(version, "0.11.2") else "")
                + ")",
                target_keys=["actor.loss_agg_mode"],
            )
        scope = "optimizer_step" if at_least(version, LOSS_SCOPE_OPTIMIZER_STEP) else "micro_batch"
        if a.loss_normalizer_scope and a.loss_normalizer_scope != scope:
            notes.warning(
                "algorithm.loss-normalizer-scope",
                f"the source normalises the loss over each {a.loss_normalizer_scope.replace('_', ' ')}; "
                f"OpenRLHF {version} normalises over each {scope.replace('_', ' ')}",
                target_keys=["actor.loss_agg_mode"],
            )
        c = self.spec.critic
        if estimator == "gae":
            self.put("critic.adam.lr", c.lr)
            model = c.model or self.spec.references.model
            self.put("critic.model_name_or_path", model)
            if (
                c.samples_per_optimizer_step
                and self.spec.plan.samples_per_optimizer_step
                and c.samples_per_optimizer_step != self.spec.plan.samples_per_optimizer_step
            ):
                notes.warning(
                    "critic.not-expressible",
                    f"OpenRLHF trains the critic with the actor's train.batch_size "
                    f"({fmt(self.spec.plan.samples_per_optimizer_step)} samples); the source's critic uses "
                    f"{c.samples_per_optimizer_step}",
                    source_keys=["critic.samples_per_optimizer_step"],
                )

    def estimator(self, canonical: str, std: bool | None) -> str:
        """OpenRLHF's estimator for the source's, else the nearest this version accepts (choices and the
        n_samples_per_prompt > 1 assert of each release), with a note saying what changed."""
        names = {
            "gae": "gae",
            "reinforce_plus_plus": "reinforce",
            "reinforce_plus_plus_baseline": "reinforce_baseline",
            "rloo": "rloo",
            "rloo_vectorized": "rloo",
            "flash_reinforce": "flash_reinforce",
            "grpo": "group_norm",
            "grpo_vectorized": "group_norm",
        }
        name = names.get(canonical)
        if name == "group_norm" and std is False:
            name = "dr_grpo"
        n = self.spec.plan.samples_per_prompt or 1
        # Nearest first: the same baseline without a group, then what every release has.
        nearest = {
            "dr_grpo": ("group_norm", "reinforce_baseline", "rloo"),
            "group_norm": ("reinforce_baseline", "rloo"),
            "reinforce_baseline": ("group_norm", "rloo"),
            "rloo": ("reinforce_baseline", "group_norm"),
            "flash_reinforce": ("reinforce",),
        }
        order = [name] if name else []
        order += [c for c in nearest.get(name or "", ()) if c not in order]
        order += [c for c in ("reinforce", "gae") if c not in order]
        for choice in order:
            group, _ = group_assert_of(self.version, choice)
            if (
                (choice in ESTIMATOR_SINCE and not at_least(self.version, ESTIMATOR_SINCE[choice]))
                or (choice in group and n <= 1)
                or (choice != "gae" and not self.has("algo.advantage.estimator"))
            ):
                continue
            if choice != name:
                why = (
                    f"OpenRLHF {self.version} asserts n_samples_per_prompt > 1 for {name} and the source samples "
                    "one completion per prompt"
                    if name and n <= 1 and name in group_assert_of(self.version, name)[0]
                    else f"'{canonical}' is not a choice of OpenRLHF {self.version}"
                )
                self.notes.warning(
                    "algorithm.estimator-changed",
                    f"{why}: {choice} is written"
                    + (
                        " (REINFORCE++: returns whitened over the batch, no group baseline)"
                        if choice == "reinforce"
                        else ""
                    )
                    + (" (with a critic)" if choice == "gae" else ""),
                    source_keys=["algorithm.advantage_estimator"],
                    target_keys=["algo.advantage.estimator"],
                )
            return choice
        return "gae"

    # ---------------------------------------------------------------- the rest
    def write_non_plan_sections(self) -> None:
        s, notes, version = self.spec, self.notes, self.version
        prompt, response = s.lengths.max_prompt_tokens, s.lengths.max_response_tokens
        if at_least(version, "0.9.8"):
            self.put("rollout.max_new_tokens", response)
            if prompt is not None and response is not None:
                self.put("data.max_len", prompt + response)
            elif response is not None:
                self.put("data.max_len", response + 1024)
                notes.info(
                    "lengths.assumed",
                    f"the source does not limit prompts; data.max_len counts prompt + "
                    f"response, so {response} + 1024 is written",
                    target_keys=["data.max_len"],
                )
        else:
            self.put("prompt_max_len", prompt)
            self.put("generate_max_len", response)
        self.put("rollout.temperature", s.sampling.temperature)
        self.put("rollout.top_p", s.sampling.top_p)
        if s.sampling.top_k is not None and s.sampling.top_k > 0:
            notes.warning(
                "sampling.not-expressible",
                f"OpenRLHF samples without top-k (hard-coded -1); the source's top_k {s.sampling.top_k} is dropped",
                source_keys=["sampling.top_k"],
            )
        o = s.optimizer
        self.put("actor.adam.lr", o.lr)
        schedule = o.lr_schedule
        if schedule == "cosine" and o.min_lr_ratio:
            schedule = "cosine_with_min_lr"  # a cosine with a floor (TRL's min_lr_rate, verl's min_lr_ratio)
        if schedule is not None:
            self.put(
                "actor.lr_scheduler",
                schedule,
                missing=None
                if schedule == "cosine_with_min_lr"
                else f"lr schedule '{schedule}' needs OpenRLHF ≥ 0.8.5 (cosine_with_min_lr is fixed)",
            )
        floor = o.min_lr_ratio
        if floor is not None and (schedule or "cosine_with_min_lr") in (
            "cosine_with_min_lr",
            "cosine_warmup_with_min_lr",
        ):
            self.put(
                "actor.min_lr_ratio",
                floor,
                missing=None
                if math.isclose(floor, MIN_LR_RATIO_FIXED)
                else f"OpenRLHF {version} fixes the LR floor at lr × {MIN_LR_RATIO_FIXED} (--actor.min_lr_ratio from "
                f"0.10.2); the source's floor {fmt(floor)} is not written",
            )
        ratio = o.warmup_ratio
        if o.warmup_steps is not None:
            total = s.run_length.total_optimizer_steps or (
                s.plan.total_steps * s.plan.optimizer_steps_per_step
                if s.plan.total_steps and s.plan.optimizer_steps_per_step
                else None
            )
            steps = (
                o.warmup_steps * (s.plan.optimizer_steps_per_step or 1) if o.warmup_unit == "steps" else o.warmup_steps
            )
            if total:
                ratio = float(Fraction(steps) / Fraction(total))
                notes.info(
                    "units.warmup",
                    f"warmup of {o.warmup_steps} {o.warmup_unit or 'steps'} = "
                    f"{fmt(ratio)} of {fmt(total)} optimizer steps; OpenRLHF sets warmup as a ratio",
                    target_keys=["actor.lr_warmup_ratio"],
                )
            else:
                ratio = 0.0
                notes.warning(
                    "optimizer.not-expressible",
                    f"warmup of {o.warmup_steps} {o.warmup_unit or 'steps'} "
                    "cannot be a ratio without the run's length; lr_warmup_ratio 0.0 is written",
                    target_keys=["actor.lr_warmup_ratio"],
                )
        self.put("actor.lr_warmup_ratio", ratio if ratio is not None else 0.0)
        if "actor.lr_warmup_ratio" not in self.out and self.has("actor.lr_warmup_ratio"):
            self.out["actor.lr_warmup_ratio"] = 0.0
        if o.weight_decay is not None:
            self.out["actor.adam.weight_decay"] = o.weight_decay
        self.put("actor.max_norm", o.grad_clip)
        self.put("actor.model_name_or_path", s.references.model)
        ahead = s.asynchrony.max_steps_ahead
        if ahead or getattr(self, "async_needed", False):
            self.put("train.async_enable", True)
            self.put("train.async_queue_size", max(1, ahead or 1))
            if ahead and ahead > 1 and not self.has("train.async_queue_size"):
                notes.warning(
                    "asynchrony.not-expressible",
                    f"OpenRLHF {version} queues one rollout ahead; the source runs {ahead} steps ahead",
                    target_keys=["train.async_enable"],
                )

    def extras(self) -> None:
        """Own-framework extras are written back under this version's names; the writer's own values win."""
        foreign = []
        correction: dict[str, Any] = {}
        for extra in self.spec.extras:
            if extra.framework != "openrlhf":
                foreign.append(extra)
                continue
            if extra.key not in _ALL_NAMES:
                continue  # an unknown flag: reported when it was read
            if internal_name(extra.key) in IS_CORRECTION_FLAGS:
                correction[internal_name(extra.key)] = extra.value
                continue
            targets = FLAT_TO_DOTTED.get(extra.key, (internal_name(extra.key),))
            kept = [t for t in targets if self.has(t)]
            if not kept:
                kept = self.renamed_value(extra.key, extra.value)
            for target in kept:
                self.out.setdefault(target, extra.value)
            if not kept:
                self.notes.warning(
                    "keys.unknown-in-version",
                    f"--{extra.key} has no counterpart in OpenRLHF {self.version}; it is not written",
                    source_keys=[extra.key],
                )
        if correction:
            self.is_correction(correction)
        if foreign:
            self.notes.info(
                "keys.not-translated",
                not_written(foreign[0].framework, [e.key for e in foreign], "OpenRLHF"),
                source_keys=[e.key for e in foreign],
            )

    def is_correction(self, flags: dict[str, Any]) -> None:
        """The train/rollout importance-sampling correction in this version's flags: enable + type up to 0.11.1,
        level + mode + gating from 0.11.2 (cli/train_ppo_ray.py help: TIS = token clip, ICEPOP = token mask,
        seq-mask-tis = seq mask)."""
        scheme = _correction_scheme(flags)
        threshold = flags.get("algo.advantage.is_correction_threshold")
        if scheme is None:
            return
        level, mode, gating = scheme
        if self.has("algo.advantage.is_correction_level"):
            self.out["algo.advantage.is_correction_level"] = level
            self.out["algo.advantage.is_correction_mode"] = mode
            self.out["algo.advantage.is_correction_gating"] = gating
        else:
            named = {v: k for k, v in CORRECTION_SCHEMES.items()}.get(scheme)
            if not self.has("algo.advantage.is_correction_enable") or named is None:
                self.notes.warning(
                    "algorithm.not-expressible",
                    f"the importance-sampling correction ({level} {mode}, {gating} gating) has no "
                    f"OpenRLHF {self.version} form"
                    + ("" if self.has("algo.advantage.is_correction_enable") else " (from 0.8.9)"),
                    target_keys=["algo.advantage.is_correction_enable"],
                )
                return
            self.out["algo.advantage.is_correction_enable"] = True
            if self.has("algo.advantage.is_correction_type"):
                self.out["algo.advantage.is_correction_type"] = named
            elif named == "icepop" and self.has("use_icepop"):
                self.out["use_icepop"] = True
            elif named != "tis":
                self.notes.warning(
                    "algorithm.not-expressible",
                    f"OpenRLHF {self.version} corrects with TIS only; the source's {named} is written as TIS",
                    target_keys=["vllm_is_correction_type"],
                )
        if threshold is not None:
            values = threshold if isinstance(threshold, list) else [threshold]
            if not self.has("algo.advantage.is_correction_level") and len(values) == 1:
                values = [0.0, values[0]]  # 0.11.2 reads one value as HIGH with LOW 0 (train_ppo_ray.py)
            self.out["algo.advantage.is_correction_threshold"] = values

    def renamed_value(self, key: str, value: Any) -> list[str]:
        """Switches that became valued flags (--flash_attn → attn_implementation, --bf16 → param_dtype) and back."""
        for old, (new, on) in VALUE_RENAMES.items():
            if key == old and value is True and self.has(new):
                self.out.setdefault(new, on)
                return [new]
            if internal_name(key) == new and value == on and self.has(old):
                self.out.setdefault(old, True)
                return [old]
        return []

    def spell(self) -> dict[str, Any]:
        """Internal names → this version's flags, in a stable order; values that are off are left out."""
        spelled_out: dict[str, Any] = {}
        for key, value in self.out.items():
            native = spelled(key, self.version)
            if native is None or value is None or value is False:
                continue
            if not flag_exists(native, self.version):
                # Never write a flag this release's parser rejects.
                self.notes.warning(
                    "keys.unknown-in-version",
                    f"--{native} does not exist in OpenRLHF {self.version}; {key} {value} is not written",
                    source_keys=[key],
                )
                continue
            if native in STORE_TRUE:
                if value in (True, "true", "True", 1):
                    spelled_out[native] = True
                continue
            if native in spelled_out and spelled_out[native] != value:
                # Flat releases have one optimizer flag for actor and critic.
                self.notes.warning(
                    "keys.not-translated",
                    f"--{native} is shared by actor and critic in OpenRLHF "
                    f"{self.version}: {spelled_out[native]} is written, {key} {value} is not",
                    source_keys=[key],
                    target_keys=[native],
                )
                continue
            spelled_out.setdefault(native, value)
        return spelled_out


# ---------------------------------------------------------------- writing: the run beyond the batch plan
class _RunPartsWriter:
    """Prompts, checkpoints, evaluation, logging and the GPU count, for one version's flags."""

    def __init__(self, writer: _Writer) -> None:
        self.w, self.spec, self.notes, self.version = writer, writer.spec, writer.notes, writer.version

    def key(self, internal: str) -> str:
        return f"--{spelled(internal, self.version) or internal}"

    def write(self) -> None:
        self.data()
        self.checkpointing()
        self.evaluation()
        self.logging()

    def data(self) -> None:
        d, w, notes = self.spec.data, self.w, self.notes
        if d.train_sources:
            w.put("data.prompt_dataset", ",".join(d.train_sources))
            if d.train_subset:
                notes.warning(
                    "data.not-expressible",
                    f"dataset config '{d.train_subset}' cannot be chosen: OpenRLHF loads "
                    f"{self.key('data.prompt_dataset')} with its default config ('name@dir' sets load_dataset's "
                    "data_dir, not the config)",
                    source_keys=["data.train_subset"],
                    target_keys=[self.key("data.prompt_dataset")],
                )
            split = d.train_split
            if split and split != "train":
                w.put("data.prompt_split", split, missing=None)
                if not w.has("data.prompt_split"):
                    notes.warning(
                        "data.not-expressible",
                        f"OpenRLHF {self.version} reads the train split only (no "
                        f"--prompt_split in 0.7.0–0.7.3); the source's split '{split}' is not written",
                        source_keys=["data.train_split"],
                    )
            weights = d.train_weights
            if (
                not weights
                and len(d.train_sources) > 1
                and self.w.out_defaults is not None
                and not at_least(self.version, "0.7.0")
            ):
                # ≤ 0.6.4 always samples datasets by probability and asserts one per dataset.
                weights = [round(1 / len(d.train_sources), 6)] * len(d.train_sources)
                notes.info(
                    "data.equal-probabilities",
                    f"OpenRLHF {self.version} needs one probability per dataset "
                    f"({self.key('data.prompt_probs')}): equal shares are written, sampled until every "
                    "dataset is exhausted, where the source concatenates them",
                    target_keys=[self.key("data.prompt_probs")],
                )
            if weights and len(weights) == len(d.train_sources):
                if all(0 <= x <= 1 for x in weights):
                    w.put("data.prompt_probs", ",".join(fmt(x) for x in weights))
                else:
                    notes.warning(
                        "data.not-expressible",
                        "OpenRLHF mixes datasets by probability "
                        f"({self.key('data.prompt_probs')}); the source's counts {weights} are not written",
                        source_keys=["data.train_weights"],
                    )
        if d.prompt_key:
            w.put("data.input_key", d.prompt_key)
        if d.answer_key:
            w.put(
                "data.label_key",
                d.answer_key,
                missing=f"OpenRLHF {self.version} has no --label_key (from 0.6.0): "
                f"the answer column '{d.answer_key}' is not passed to the reward",
            )
        cap = d.max_train_prompts
        if cap is not None:
            written = w.out_defaults.get("data.max_samples")
            w.out_defaults["data.max_samples"] = min(cap, written) if written else cap
        self.eval_data()

    def eval_data(self) -> None:
        d, w, notes = self.spec.data, self.w, self.notes
        self.eval_written = False
        if not d.eval_sources:
            return
        if not w.has("eval.dataset"):
            notes.warning(
                "evaluation.not-expressible",
                f"OpenRLHF {self.version} has no evaluation (--eval_dataset "
                "from 0.7.0); the source's eval data is not written",
                source_keys=["data.eval_sources"],
            )
            return
        if not w.remote_reward:
            # train_ppo_ray asserts "`--eval_dataset` is only supported with `--remote_rm_url`" (wording per release)
            notes.warning(
                "evaluation.not-expressible",
                f"the eval data {', '.join(d.eval_sources)} is not written: OpenRLHF scores evaluation only "
                f"with a remote reward ({self.key('reward.remote_url')}: an HTTP server or a .py reward "
                "function), and the source's reward is a reward model or none",
                source_keys=["data.eval_sources"],
                target_keys=[self.key("eval.dataset")],
            )
            return
        w.put("eval.dataset", ",".join(d.eval_sources))
        self.eval_written = True
        if d.eval_split and d.eval_split != "train":
            w.put(
                "eval.split",
                d.eval_split,
                missing=f"OpenRLHF {self.version} evaluates the train split of its eval "
                f"data (--eval_split from 0.7.4); the source's '{d.eval_split}' is not written",
            )
        cap = w.out_defaults.get("data.max_samples")
        if d.max_eval_prompts is not None and d.max_eval_prompts != cap:
            notes.warning(
                "data.not-expressible",
                f"OpenRLHF cuts the eval data at {self.key('data.max_samples')} "
                f"({cap or 'no limit'}), not at the source's {d.max_eval_prompts} prompts",
                source_keys=["data.max_eval_prompts"],
            )

    def checkpointing(self) -> None:
        c, w, notes = self.spec.checkpointing, self.w, self.notes
        if c.every_steps:
            w.put("ckpt.save_steps", c.every_steps)  # both count rollout steps (OpenRLHF's global_step)
        if c.directory:
            w.put("ckpt.path", c.directory)
        if c.hf_format:
            w.put("ckpt.save_hf", True, missing=None)
            if not w.has("ckpt.save_hf"):
                notes.warning(
                    "checkpointing.not-expressible",
                    f"OpenRLHF {self.version} saves no Hugging Face copy "
                    "of each checkpoint (--save_hf_ckpt from 0.5.7); only the final model is in that format",
                    source_keys=["checkpointing.hf_format"],
                )
        if c.keep_last:
            w.put("ckpt.max_num", c.keep_last)
        elif c.every_steps and c.keep_last is None and self.spec.framework != "openrlhf":
            # OpenRLHF keeps 3 by default; the source keeps every checkpoint.
            w.put("ckpt.max_num", 1_000_000)
            notes.info(
                "checkpointing.keep-all",
                f"the source keeps every checkpoint: {self.key('ckpt.max_num')} "
                "1000000 is written (OpenRLHF's default keeps 3)",
                target_keys=[self.key("ckpt.max_num")],
            )
        if c.resume == "auto":
            w.put("ckpt.load_enable", True)
        elif c.resume not in (None, "never"):
            w.put("ckpt.load_enable", True)
            notes.warning(
                "checkpointing.not-expressible",
                f"OpenRLHF resumes from the latest checkpoint under {self.key('ckpt.path')}, not from a given "
                f"one ({c.resume}): --load_checkpoint is written; keep only that checkpoint there",
                source_keys=["checkpointing.resume"],
            )

    def evaluation(self) -> None:
        e, w, notes = self.spec.evaluation, self.w, self.notes
        if not getattr(self, "eval_written", False):
            return
        if e.every_steps:
            w.put("eval.steps", e.every_steps)  # rollout steps in both
        elif e.every_steps == 0 and not newer_than(self.version, EVAL_ONCE_PER_EPISODE_UNTIL):
            notes.warning(
                "evaluation.cadence-changed",
                f"OpenRLHF {self.version} evaluates once per episode by "
                "default (eval_steps -1); the source never evaluates on a cadence",
                source_keys=["evaluation.every_steps"],
            )
        if e.before_training:
            notes.warning(
                "evaluation.not-expressible",
                "OpenRLHF does not evaluate before the first step; the source does",
                source_keys=["evaluation.before_training"],
            )

    def logging(self) -> None:
        log, w, notes = self.spec.logging, self.w, self.notes
        backends = [b for b in (log.backends or []) if b != "console"]
        if "wandb" in backends:
            w.put("logger.wandb.key", SECRET_PLACEHOLDER)
            if log.project:
                w.put("logger.wandb.project", log.project)
        if log.run_name and backends:
            w.put("logger.wandb.run_name", log.run_name)  # also names the tensorboard sub-directory
        if "tensorboard" in backends:
            if "wandb" in backends:
                notes.warning(
                    "logging.not-expressible",
                    "OpenRLHF logs to tensorboard only when wandb is off: wandb is written",
                    source_keys=["logging.backends"],
                )
            else:
                w.put("logger.tensorboard_dir", "./tensorboard")
                notes.info(
                    "logging.tensorboard-dir",
                    f"{self.key('logger.tensorboard_dir')} takes a directory: ./tensorboard is written",
                    target_keys=[self.key("logger.tensorboard_dir")],
                )
        others = [b for b in backends if b not in ("wandb", "tensorboard")]
        if others:
            notes.warning(
                "logging.not-expressible",
                f"OpenRLHF logs to wandb or tensorboard only; {', '.join(others)} is not written",
                source_keys=["logging.backends"],
            )
        version = self.version
        write_settings(
            self.spec, SETTINGS, f"OpenRLHF {version}", w.has, w.put, notes, lambda key: spelled(key, version) or key
        )

    def placement(self) -> None:
        """The GPUs the written flags place (every model group plus vLLM) against the source's."""
        t, out = self.spec.topology, self.w.out | {k: v for k, v in self.w.out_defaults.items() if k not in self.w.out}
        source = (t.training_gpus or 0) + (t.rollout_gpus or 0)
        if not t.training_gpus or self.spec.framework == "openrlhf":  # its own group sizes are carried along
            return
        total, groups = placed_gpus(out, self.version)
        if total != source:
            self.notes.warning(
                "topology.gpus-changed",
                f"the written launch line places {total} GPUs ({' + '.join(groups)}); the source runs "
                f"on {source} ({t.training_gpus} training"
                + (f" + {t.rollout_gpus} rollout" if t.rollout_gpus else ", rollout colocated")
                + ")",
                source_keys=["topology.training_gpus", "topology.rollout_gpus"],
                target_keys=[self.key("actor.num_gpus_per_node")],
            )


def placed_gpus(out: dict[str, Any], version: str) -> tuple[int, list[str]]:
    """GPUs a synchronous train_ppo_ray run takes (cli/train_ppo_ray.py:train): the actor group, a reference group
    unless colocated with the actor, a critic for GAE, a reward-model group for a reward model (none with a remote
    reward), vLLM engines unless colocate_all_models shares the actor GPUs."""

    def size(model: str) -> int:
        return int(out.get(f"{model}.num_nodes", 1)) * int(out.get(f"{model}.num_gpus_per_node", 8))

    actor = size("actor")
    engines = int(out.get("vllm.num_engines") or 0) * int(out.get("vllm.tensor_parallel_size") or 1)
    if out.get("train.colocate_all") and not out.get("train.async_enable"):
        return actor, [f"actor {actor} shared by every model and vLLM"]
    groups, total = [f"actor {actor}"], actor
    kl = float(out.get("algo.kl.init_coef", 0.01) or 0) > 0 or not at_least(version, NO_REF_WITHOUT_KL_SINCE)
    colocate_all = bool(out.get("train.colocate_all"))
    if kl and not out.get("train.colocate_actor_ref") and not colocate_all:
        groups.append(f"ref {size('ref')}")
        total += size("ref")
    gae = str(out.get("algo.advantage.estimator", "gae")) == "gae"
    if gae and not colocate_all:
        groups.append(f"critic {size('critic')}")
        total += size("critic")
    if (
        out.get("reward.model_name_or_path")
        and not out.get("reward.remote_url")
        and not colocate_all
        and not (gae and out.get("train.colocate_critic_reward"))
    ):
        groups.append(f"reward {size('reward')}")
        total += size("reward")
    groups.append(f"vLLM {engines}")
    return total + engines, groups
