"""Open-Instruct: ``python open_instruct/grpo_fast.py --flag value ...`` launch scripts, also behind
``python mason.py ... -- ...`` or ``uv run``, and the legacy ``{ppo,grpo}_vllm_thread_ray_gtrl.py`` scripts.

Semantics: docs/frameworks/open-instruct.md. grpo_fast: a step is ``num_unique_prompts_rollout``
prompts × ``num_samples_per_prompt_rollout`` samples; ``num_mini_batches`` is a *count* of optimizer steps
per epoch; ``per_device_train_batch_size`` counts packed rows of ``pack_length`` tokens; learners are
``sum(num_learners_per_node)`` GPUs and vLLM engines run on GPUs of their own; ``total_episodes`` counts
samples. gtrl: ``local_*`` batch sizes are per learner GPU and are multiplied by the learner world size.
Versions are snapshot dates (``open_instruct_tables``).
"""

from __future__ import annotations

import json
import math
import os
import posixpath
import re
from fractions import Fraction
from typing import Any

from translator.checks.findings import divisors
from translator.concordance import not_written
from translator.dialects.base import (
    MAX_COUNT,
    Dialect,
    Reading,
    ReadOptions,
    Values,
    at_least,
    closest_key,
    derived,
    fmt,
    note_launch,
    read_script,
    sibling_in_project,
    track_provenance,
    version_key,
)
from translator.dialects.settings import Setting, read_settings, write_settings
from translator.dialects.sniff import program_arguments
from translator.dialects.writing import flag_words, plan_summary, shell_word, source_label
from translator.errors import ConfigError
from translator.frameworks.open_instruct.tables import (
    ADVANTAGE_TYPE,
    BUILTIN_R1_FORMAT,
    BUILTIN_VERIFIABLE,
    CHANGES,
    DEFAULTS,
    EXACT_MINI_BATCHES,
    FIRST_GRPO_GTRL,
    GLOBAL_TOKEN_LOSS,
    IGNORED_KEYS,
    IGNORED_SINCE,
    KEY_RANGES,
    KL_ESTIMATORS,
    KL_INDEX,
    KL_RENUMBERED,
    LEGACY_WRITE_UNTIL,
    LIST_KEYS,
    MASON_FLAGS,
    PROGRAMS,
    PYTHON_LAUNCHERS,
    RUN_PART_DEFAULTS,
    SYNC_REJECTED,
    UNSUPPORTED_PROGRAMS,
    VERSION_ALIASES,
    VERSIONS,
    WARMUP_RATIO_FIX,
    ZERO2_FIX,
    ZERO_STD_FILTER,
)
from translator.notes import NoteList, Severity
from translator.plan import Derivation, Extra, RunSpec, exact
from translator.sources.code import ArgumentFields
from translator.sources.files import Source, load_yaml_mapping
from translator.sources.shell import ShellCommand, parse_shell, program_index, symbolic_names, unwrap_command

NAME = "open-instruct"
# Run settings outside the plan (translator/dialects/settings.py): grpo_fast has no discount, λ or value clip
# (no critic) and no evaluation temperature (eval_top_p None: the training top_p); names and defaults from its schema.
SETTINGS = (
    Setting(
        "optimizer.gradient_checkpointing",
        None,
        fixed=True,
        why="grpo_fast always enables gradient checkpointing (--gradient_checkpointing is accepted but ignored)",
    ),
    Setting(
        "data.apply_chat_template",
        None,
        fixed=True,
        why="Open-Instruct always tokenizes prompts with a chat template (open_instruct/dataset_transformation.py)",
    ),
    Setting("data.chat_template", "chat_template_name"),
    Setting("evaluation.top_p", "eval_top_p", needs="eval"),
    # "Number of completions per eval prompt for local pass@k metrics" (open_instruct/grpo_fast.py Args)
    Setting("evaluation.samples_per_prompt", "eval_pass_at_k", needs="eval"),
    Setting("launch.seed", "seed", explicit=True),
    Setting("logging.entity", "wandb_entity"),
    # The PPO script's GAE (ppo_vllm_thread_ray_gtrl.py Args gamma, lam, cliprange_value); grpo_fast has none.
    Setting("algorithm.gamma", "gamma", needs="discount"),
    Setting("algorithm.gae_lambda", "lam", needs="gae"),
    Setting("critic.value_clip", "cliprange_value", needs="gae"),
)
_SEPARATORS = {"&&", "||", ";", "|"}
_SENTINEL = "\x00rlconf-unset:{}\x00"  # stands in for an unset variable to find where it is used
LR_SCHEDULES = ("linear", "cosine", "cosine_with_restarts", "polynomial", "constant", "constant_with_warmup")
# Old key → new key, for writing an old config's extras into a version that renamed the key.
KEY_RENAMES = {
    "wandb_project_name": "wandb_project",
    "torch_dtype": "dtype",
    "chat_template": "chat_template_name",
    "enable_prefix_caching": "vllm_enable_prefix_caching",
    "add_r1_style_format_reward": "apply_r1_style_format_reward",
    "penalty_reward_value": "non_stop_penalty_value",
}


class NativeOI:
    """What a launch script says, before interpretation: flag → value (a string, a list of strings, or a
    bool for bare and ``--no_`` flags), where each came from, the program and the mason.py options."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.origins: dict[str, str] = {}
        self.program = "grpo_fast.py"
        self.kind = "fast"
        self.origin = ""
        self.mason: dict[str, str] = {}
        self.launch: tuple[str, str | None] | None = None  # the program word as launched, the launch's cd
        self.own_program = False  # the project holds its own copy of the program the launch runs
        self.unknown_words: list[str] = []  # launch words whose value is not known: they may hold any flag


class OpenInstructDialect(Dialect):
    # HfArgumentParser.parse_args_into_dataclasses raises on any flag no dataclass declares (docs page "Flags").
    rejects_unknown_keys = True
    name = NAME
    aliases = ("open_instruct", "allenai/open-instruct")
    versions = VERSIONS
    plan_bands = ("2025.12.01", "2026.04.02")  # where its plan arithmetic branches
    changes = CHANGES
    description = (
        "Open-Instruct (python open_instruct/grpo_fast.py --flags, also behind mason.py or uv run; "
        "legacy *_vllm_thread_ray_gtrl.py)"
    )

    def resolve_version(self, version: str | None) -> str:
        """A dated version ``YYYY.MM.DD`` (or ``YYYY-MM-DD``), a tag (``v0.3.0``) or a name (``head``,
        ``classic``, ``tulu3``); a date between two listed versions means the older one."""
        if version is None:
            return self.default_version
        text = VERSION_ALIASES.get(version.strip().lower(), version.strip().replace("-", "."))
        if text in self.versions:
            return text
        wanted = version_key(text)
        if wanted is not None and len(wanted) == 3 and wanted[0] > 2000:
            older = [v for v in self.versions if (version_key(v) or ()) <= wanted]
            if older:
                return older[-1]
        if text.lower() == "latest" or (wanted is not None and wanted[0] > 2000):
            return super().resolve_version(text)  # 2025.03 (a month), latest, newer/older than listed
        raise ConfigError(
            f"unknown {self.name} version '{version}'",
            hint=f"a date YYYY.MM.DD or YYYY.MM from {self.versions[0]} on, latest, a tag (v0.1.0, "
            f"v0.2.0, v0.3.0), or one of: {', '.join(self.versions)}",
        )

    # ---------------------------------------------------------------- reading
    def read(self, source: Source, options: ReadOptions) -> Reading:
        notes = NoteList()
        native = self._collect(source, options, notes)
        version = self._version(native, options.version, notes)
        self._normalise_keys(native, version, notes)
        if options.version is None:
            self._note_drifting_defaults(native, version, notes)
        values = Values(native.values, native.origins, defaults_for(native.kind, version), source.name)
        spec = RunSpec(framework=self.name, version=version)
        if native.launch is not None:
            from translator.frameworks.open_instruct import forks

            native.own_program = forks.locate(source, native.launch[1], native.launch[0]) is not None
        with track_provenance(spec, values):
            _Interpreter(values, native, version, spec, notes).run()
        if native.unknown_words:
            from translator.dialects.forkbatch import unknown_launch_words

            given = [key for key, origin in native.origins.items() if origin == native.origin]
            unknown_launch_words(spec, notes, native.unknown_words, given)
        own = None
        if native.launch is not None:  # the project's own copy of the program, when it holds one
            from translator.frameworks.open_instruct import forks

            word, cwd = native.launch
            own = forks.launched_arguments(source, cwd, word)
        self._account(values, native, version, spec, notes, own)
        reading = Reading(spec, notes, values)
        if own is not None:
            # the copy's own additions; the flags upstream has keep their type checks
            known = KEY_RANGES[native.kind]
            reading.own_flags = frozenset(key for key in native.values if key not in known and _accepts(own, key))
        if native.launch is not None:
            bands = forks.check(source, cwd, word, native.program, version, options.version is None, spec, notes)
            if bands:  # its code follows another snapshot: explain compares the plan as each reads it
                reading.candidates = tuple(v for v in self.versions if v == version or v in bands)
        return reading

    def _collect(self, source: Source, options: ReadOptions, notes: NoteList) -> NativeOI:
        if source.suffix in (".yaml", ".yml"):  # `python open_instruct/grpo_fast.py config.yaml`: the fields alone
            native = NativeOI()
            native.kind, native.origin = PROGRAMS[native.program][0], source.name
            self._merge_yaml(source, native)
            # the program that reads it: the project's own copy where the project holds one (forks.locate)
            native.launch = f"open_instruct/{native.program}", None
            return native
        script = read_script(source, options.env, notes)
        found = [
            (command, index)
            for command in script.commands
            if (index := _program_index(unwrap_command(command.argv, options.env))) is not None
        ]
        if not found:
            raise ConfigError(
                "no Open-Instruct launch command found",
                file=source.name,
                hint="expected a line like 'python open_instruct/grpo_fast.py --flag value ...'",
            )
        command, index = found[0]
        note_launch(notes, source, command, [c for c, _ in found])
        argv = unwrap_command(command.argv, options.env)
        program = posixpath.basename(argv[index])
        if program not in PROGRAMS and program not in UNSUPPORTED_PROGRAMS:
            notes.warning(
                "framework.fork",
                f"{source.name}:{command.line}: '{argv[index]}' is not an Open-Instruct "
                "program; it is read with grpo_fast.py's semantics, and flags it adds are reported as "
                "unknown to Open-Instruct",
            )
            program = "grpo_fast.py"
        if program in UNSUPPORTED_PROGRAMS:
            raise ConfigError(
                f"{program} (PPO with a value model and packing) is not read by rlconf",
                file=source.name,
                line=command.line,
                hint="rlconf reads grpo_fast.py, grpo.py and the *_vllm_thread_ray_gtrl.py scripts",
            )
        if command.unresolved:
            argv, index = self._check_unresolved(source, options, command, notes)
        native = NativeOI()
        native.program = program
        native.kind = PROGRAMS[program][0]
        native.origin = f"{source.name}:{command.line}"
        native.mason = _mason_options(command.argv)
        native.launch = argv[index], command.cwd
        end = next((i for i in range(index + 1, len(argv)) if argv[i] in _SEPARATORS), len(argv))
        self._parse_flags(argv[index + 1 : end], native, source, notes)
        return native

    def _check_unresolved(
        self, source: Source, options: ReadOptions, command: ShellCommand, notes: NoteList
    ) -> tuple[list[str], int]:
        """Only variables the training command uses are errors; unset mason options are noted and skipped."""
        env = {**{name: _SENTINEL.format(name) for name in command.unresolved}, **options.env}
        again = parse_shell(source.text, env=env, source=source.name)
        # The same command, now with placeholders where the unset variables expanded to nothing.
        argv, index = next(
            (unwrap_command(c.argv, env), i)
            for c in again.commands
            if c.line == command.line and (i := _program_index(unwrap_command(c.argv, env))) is not None
        )
        for name in command.unresolved:
            marker = _SENTINEL.format(name)
            if any(marker in word for word in argv[index:]):
                continue  # the variable policy: kept symbolic as ${NAME}; a count built from it is unknown
            notes.info(
                "input.unset-variable",
                f"${name} is never set; it is used only by the launcher "
                "(mason.py options), which rlconf reads for the GPU count alone",
                source_keys=[name],
            )
        return [re.sub(r"\x00rlconf-unset:(\w+)\x00", r"${\1}", word) for word in argv], index

    def _parse_flags(self, words: list[str], native: NativeOI, source: Source, notes: NoteList) -> None:
        """HfArgumentParser syntax: ``--key value``, ``--key=value``, ``--key v1 v2`` (nargs lists), a bare
        ``--flag`` (True), ``--no_flag`` (False); dashes in names equal underscores."""
        i = 0
        while i < len(words):
            word = words[i]
            i += 1
            if not word.startswith("--") or word == "--":
                if symbolic_names(word):  # an unset variable, a branch-dependent command: any flags
                    native.unknown_words.append(word)
                elif i == 1 and word.endswith((".yaml", ".yml")):  # ArgumentParserPlus: a YAML of the fields first
                    self._merge_yaml(sibling_in_project(source, word, "config"), native)
                else:
                    notes.warning(
                        "keys.unrecognised-argument",
                        f"{native.origin}: '{word}' is not a --flag; HfArgumentParser rejects stray arguments",
                        source_keys=[word],
                    )
                continue
            key, eq, inline = word[2:].partition("=")
            key = key.replace("-", "_")
            values: list[str] = [inline] if eq else []
            while not eq and i < len(words) and not (words[i].startswith("--") and len(words[i]) > 2):
                values.append(words[i])
                i += 1
            if key not in LIST_KEYS and len(values) > 1 and all(symbolic_names(w) for w in values[1:]):
                native.unknown_words += values[1:]  # a one-value flag, then words that may hold any flags
                values = values[:1]
            value: Any = values if key in LIST_KEYS or len(values) > 1 else values[0] if values else True
            if isinstance(value, str) and value.lower() in ("true", "false"):
                value = value.lower() == "true"  # HfArgumentParser's string_to_bool
            if key.startswith("no_") and value is True and _known_anywhere(native.kind, key[3:]):
                key, value = key[3:], False
            if key in native.values and native.origins.get(key) == native.origin:
                notes.info(
                    "keys.repeated", f"--{key} is given more than once; the last value is used", source_keys=[key]
                )
            native.values[key] = value
            native.origins[key] = native.origin

    @staticmethod
    def _merge_yaml(config: Source, native: NativeOI) -> None:
        """ArgumentParserPlus.parse() reads a YAML file of the dataclass fields given first; flags after it
        override it (open_instruct/utils.py ArgumentParserPlus.parse)."""
        for key, value in load_yaml_mapping(config).items():
            if isinstance(value, list):
                value = [str(v) for v in value]
            native.values[str(key)] = value
            native.origins[str(key)] = config.name

    def _version(self, native: NativeOI, explicit: str | None, notes: NoteList) -> str:
        first, last = PROGRAMS[native.program][1:]
        if explicit:
            version = self.resolve_version(explicit)
            if not at_least(version, first) or (last and not at_least(last, version)):
                era = first if not at_least(version, first) else str(last)
                notes.warning(
                    "version.program-missing",
                    f"{native.program} exists from {first}"
                    + (f" to {last}" if last else "")
                    + f", not in {version}; it is read with the semantics of its own era, as {era}",
                )
                return era
            return version
        candidates = [v for v in self.versions if at_least(v, first) and (not last or at_least(last, v))]
        ranges = KEY_RANGES[native.kind]
        known = [k for k in native.values if k in ranges]

        def score(version: str) -> int:
            accepted = sum(_in_range(version, ranges[k]) for k in known)
            kl = native.values.get("kl_estimator")
            if isinstance(kl, str) and native.kind in ("fast", "olmo-core"):
                accepted += (kl.lower().startswith("kl")) != at_least(version, KL_RENUMBERED)
            return accepted

        best = max(score(v) for v in candidates)
        version = [v for v in candidates if score(v) == best][-1]
        stale = [k for k in known if not _in_range(version, ranges[k])]
        if stale:
            why = (
                f"the version that accepts the most flags ({len(known) - len(stale)} of {len(known)}; not "
                f"{', '.join(stale[:6])})"
            )
        elif version != candidates[-1]:
            why = "the newest version that accepts every flag"
        else:
            why = "the newest known version"
        if native.kind != "fast":
            why += f" of {native.program}"
        notes.info(
            "version.assumed",
            f"assumed open-instruct {version}: {why}; pass --from "
            "open-instruct@VERSION (a date YYYY.MM.DD or a tag) to choose",
        )
        return version

    def _normalise_keys(self, native: NativeOI, version: str, notes: NoteList) -> None:
        """argparse accepts unambiguous prefixes of a flag (``--chat_template`` for ``--chat_template_name``)."""
        valid = [k for k, span in KEY_RANGES[native.kind].items() if _in_range(version, span)]
        for key in list(native.values):
            if _known_anywhere(native.kind, key):
                continue
            matches = [k for k in valid if k.startswith(key)]
            if len(matches) == 1 and matches[0] not in native.values:
                native.values[matches[0]] = native.values.pop(key)
                native.origins[matches[0]] = native.origins.pop(key)
                notes.info(
                    "keys.abbreviated",
                    f"--{key} is an abbreviation argparse expands to --{matches[0]}",
                    source_keys=[key],
                    target_keys=[matches[0]],
                )

    @staticmethod
    def _note_drifting_defaults(native: NativeOI, version: str, notes: NoteList) -> None:
        """With an assumed version, the defaults a script relies on may not be the ones it was written for."""
        changes = []
        for key, history in DEFAULTS[native.kind].items():
            if key in native.values or len(history) < 2 or not key_in_version(native.kind, key, version):
                continue
            current = [value for since, value in history if at_least(version, since)][-1]
            others = [
                f"{_show(previous)} before {since}" if at_least(version, since) else f"{_show(value)} from {since}"
                for (since, value), (_, previous) in zip(history[1:], history[:-1], strict=True)
            ]
            changes.append(f"{key} {_show(current)} ({'; '.join(others)})")
        if changes:
            notes.info(
                "defaults.version-dependent",
                f"flags this script leaves unset take open-instruct {version}'s defaults, which differ in other "
                "versions: " + ", ".join(changes),
                source_keys=[c.split(" ", 1)[0] for c in changes],
            )

    def _account(
        self,
        values: Values,
        native: NativeOI,
        version: str,
        spec: RunSpec,
        notes: NoteList,
        own: ArgumentFields | None = None,
    ) -> None:
        """Carry the flags rlconf does not interpret and report the ones the program rejects. ``own``: the flags
        of the project's copy of the program, which decide when the copy's parser is all the project's code."""
        ranges = KEY_RANGES[native.kind]
        if own is not None and own.complete:
            _refuse_foreign_flags(native, own)
        for key, value in values.unused().items():
            spec.extras.append(Extra(self.name, key, value))
            if own is not None and _accepts(own, key):
                continue  # a flag the project's copy adds: carried
            if key not in ranges:
                guess = closest_key(key, ranges)
                hint = f"; did you mean '{guess}'?" if guess else ""
                notes.warning(
                    "keys.unknown",
                    f"--{key} is not an Open-Instruct {native.program} flag{hint} "
                    "(HfArgumentParser rejects unknown flags)",
                    source_keys=[key],
                )
        for key in native.values:
            span = ranges.get(key)
            if span and not _in_range(version, span) and not (own is not None and _accepts(own, key)):
                since, until = span
                life = f"{since}–{until}" if until else f"{since} on"
                notes.warning(
                    "keys.unknown-in-version",
                    f"--{key} is a {native.program} flag only in {life}, not in {version}; that version rejects it",
                    source_keys=[key],
                )
        if native.kind in ("fast", "olmo-core"):
            for key, why in IGNORED_KEYS.items():
                if (
                    key in native.values
                    and _in_range(version, ranges.get(key, ("9999", None)))
                    and at_least(version, IGNORED_SINCE.get(key, "2026.04.02"))
                ):
                    notes.warning(
                        "semantics.ignored-key",
                        f"--{key} {_show(native.values[key])} is accepted but ignored: {why}",
                        source_keys=[key],
                    )

    # ---------------------------------------------------------------- writing
    def write(self, spec: RunSpec, version: str, notes: NoteList) -> dict[str, str]:
        writer = _Writer(spec, version, notes)
        program, flags, gpu_line = writer.flags()
        lines = [
            "#!/usr/bin/env bash",
            f"# Open-Instruct {version} launch script written by rlconf from a {source_label(spec)} config.",
            *writer.unit_comments(),
            *(f"#   {line}" for line in plan_summary(spec)),
            f"# {gpu_line}",
            "set -euo pipefail",
            "",
        ]
        command = ["python " + shell_word(f"open_instruct/{program}")]
        command.extend(flag_words(key, value, spec.shell_variables) for key, value in flags.items())
        command.append('"$@"')
        lines.append(" \\\n    ".join(command))
        return {"launch.sh": "\n".join(lines) + "\n"}


# ------------------------------------------------------------------------ helpers


def defaults_for(kind: str, version: str) -> dict[str, Any]:
    defaults: dict[str, Any] = {}
    for key, changes in DEFAULTS[kind].items():
        for since, value in changes:
            if at_least(version, since):
                defaults[key] = value
    return defaults


def _in_range(version: str, span: tuple[str, str | None]) -> bool:
    first, last = span
    return at_least(version, first) and (last is None or at_least(last, version))


def _known_anywhere(kind: str, key: str) -> bool:
    return key in KEY_RANGES[kind]


def key_in_version(kind: str, key: str, version: str) -> bool:
    span = KEY_RANGES[kind].get(key)
    return span is not None and _in_range(version, span)


def _program_index(argv: list[str]) -> int | None:
    """Index of the training program in a command, if it launches one (directly, via python/uv, or after a
    `source ... &&` that mason.py runs)."""
    start = 0
    for i, word in enumerate(argv):
        if word in _SEPARATORS:
            start = i + 1
            continue
        base = posixpath.basename(word)
        if base not in PROGRAMS and base not in UNSUPPORTED_PROGRAMS:
            continue
        if base in ("grpo.py", "ppo.py") and "open_instruct/" not in word:
            continue  # Open-R1's src/open_r1/grpo.py and the like
        launcher = argv[start:i]
        if not launcher or posixpath.basename(launcher[0]).startswith(PYTHON_LAUNCHERS):
            return i
    # A fork's own program that takes grpo_fast.py's flags (read as grpo_fast.py, with a framework.fork warning)
    index = program_index(argv[start:])
    return start + index if index is not None and program_arguments("open-instruct", argv[start:], index) else None


def _mason_options(argv: list[str]) -> dict[str, str]:
    """mason.py's own options (before its `--`): only --num_nodes and --gpus matter here."""
    start = next((i + 1 for i, w in enumerate(argv[:6]) if posixpath.basename(w) in ("mason.py", "mason")), None)
    if start is None:
        return {}
    options: dict[str, str] = {}
    i = start
    while i < len(argv) and argv[i] != "--":
        word = argv[i]
        i += 1
        if not word.startswith("--"):
            continue
        flag, eq, inline = word.partition("=")
        if eq:
            options[flag] = inline
        elif flag in MASON_FLAGS or i >= len(argv) or argv[i].startswith("--"):
            options[flag] = "true"
        else:
            options[flag] = argv[i]
            i += 1
    return options


def _show(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return fmt(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)


def _whole_list(values: Values, key: str, zero_allowed: bool = False) -> list[int]:
    """A list of positive whole numbers (``--num_learners_per_node 8 8``); ConfigError naming the key. Upstream's
    learner placement gives each entry a Ray bundle of that many GPUs, and Ray refuses a bundle of none; a
    project's own copy of the program may place no learner on a node (``4 0``: ``zero_allowed``)."""
    raw = values.get(key)
    items = raw if isinstance(raw, list) else [raw]
    numbers = []
    for item in items:
        text = str(item)
        if not re.fullmatch(r"\d{1,18}", text) or int(text) < (0 if zero_allowed else 1):
            raise _config_error(
                values,
                key,
                f"{key} must be positive whole numbers (one per node), got {_show(raw)!r}",
                f"write --{key} 8 8 for two nodes of 8 GPUs",
            )
        numbers.append(int(text))
    if not any(numbers):
        raise _config_error(values, key, f"{key} needs at least one learner GPU", f"write --{key} 8")
    return numbers


def _config_error(values: Values, key: str, message: str, hint: str) -> ConfigError:
    """A ConfigError naming the file and line the flag was read from."""
    where = values.origins.get(key, values.source_name)
    file, _, line = where.rpartition(":")
    if not file or not line.isdigit():
        file, line = where, ""
    return ConfigError(message, file=file, line=int(line) if line else None, key=key, hint=hint)


class _Interpreter:
    """Native Open-Instruct flags → the canonical model, with derivations and notes."""

    def __init__(self, values: Values, native: NativeOI, version: str, spec: RunSpec, notes: NoteList) -> None:
        self.v, self.native, self.version, self.spec, self.notes = values, native, version, spec, notes
        self.kind = native.kind
        self.gtrl = self.kind in ("ppo-gtrl", "grpo-gtrl")

    def has(self, key: str) -> bool:
        return key_in_version(self.kind, key, self.version)

    def origin(self, text: str, *keys: str) -> Derivation:
        return Derivation(text, list(keys), "config" if any(k in self.v for k in keys) else "default")

    def run(self) -> None:
        self.topology()
        if self.gtrl:
            self.gtrl_batch()
        else:
            self.fast_batch()
        self.run_length()
        self.algorithm()
        self.read_non_plan_sections()
        self.spec.plan.complete()
        self.describe_derived()

    # ------------------------------------------------------------ topology
    def topology(self) -> None:
        v, t, plan, notes = self.v, self.spec.topology, self.spec.plan, self.notes
        key = "actor_num_gpus_per_node" if self.gtrl else "num_learners_per_node"
        learners = _whole_list(v, key, zero_allowed=self.native.own_program)
        single = bool(v.flag("single_gpu_mode")) if self.has("single_gpu_mode") else False
        engines = v.positive_int("vllm_num_engines")
        rollout_tp = v.positive_int("vllm_tensor_parallel_size")
        sp = v.positive_int("sequence_parallel_size") if self.has("sequence_parallel_size") else 1
        assert engines is not None and rollout_tp is not None and sp is not None  # Open-Instruct's defaults
        t.training_gpus = sum(learners)
        t.nodes = len(learners)  # one Ray bundle per entry, placed STRICT_SPREAD: one node each
        t.gpus_per_node = learners[0] if len(set(learners)) == 1 else None
        t.sequence_parallel_size = sp
        t.rollout_tensor_parallel_size = rollout_tp
        t.rollout_gpus = 0 if single else engines * rollout_tp
        if self.kind == "olmo-core":
            t.training_backend = "fsdp"
        else:
            t.training_backend = f"deepspeed-zero{v.get('deepspeed_stage')}"
        self.spec.derivations["topology.rollout_gpus"] = self.origin(
            "single_gpu_mode: vLLM shares the learner GPU"
            if single
            else f"vllm_num_engines {engines} × vllm_tensor_parallel_size {rollout_tp} (GPUs of their own)",
            "vllm_num_engines",
            "vllm_tensor_parallel_size",
            "single_gpu_mode",
        )
        if single and rollout_tp > 1:
            notes.warning(
                "topology.single-gpu-mode",
                "single_gpu_mode needs vllm_tensor_parallel_size 1; Open-Instruct raises otherwise",
                source_keys=["single_gpu_mode", "vllm_tensor_parallel_size"],
            )
        if t.training_gpus % sp:
            notes.warning(
                "topology.indivisible",
                f"{t.training_gpus} learner GPUs are not divisible by sequence_parallel_size {sp}",
                source_keys=["sequence_parallel_size", key],
            )
        plan.data_parallel_size = t.training_gpus // sp
        self.spec.derivations["plan.data_parallel_size"] = self.origin(
            f"sum({key} {_show(learners)}) learner GPUs" + (f" ÷ sequence_parallel_size {sp}" if sp > 1 else ""),
            key,
            "sequence_parallel_size",
        )
        if self.kind == "ppo-gtrl" and not at_least(self.version, FIRST_GRPO_GTRL) and engines > 1:
            notes.warning(
                "semantics.ignored-key",
                f"vllm_num_engines {engines}: this version generates with "
                "vllm_engines[0] only; the other engines sit idle",
                source_keys=["vllm_num_engines"],
            )
        self.mason_check(t.training_gpus + t.rollout_gpus)

    def mason_check(self, needed: int) -> None:
        mason = self.native.mason
        nodes, gpus = mason.get("--num_nodes", "1"), mason.get("--gpus")
        if not gpus or not nodes.isdigit() or not gpus.isdigit() or len(nodes) + len(gpus) > 12:
            return
        requested = int(nodes) * int(gpus)
        t = self.spec.topology
        text = (
            f"the run needs {needed} GPUs ({t.training_gpus} learners + {t.rollout_gpus} for vLLM engines); "
            f"mason.py requests --num_nodes {nodes} × --gpus {gpus} = {requested}"
        )
        if requested < needed:
            self.notes.warning(
                "topology.gpus-requested",
                text + "; the Ray placement groups cannot be scheduled",
                source_keys=["--num_nodes", "--gpus"],
            )
        elif requested > needed:
            self.notes.info(
                "topology.gpus-requested",
                text + f"; {requested - needed} GPU(s) stay idle",
                source_keys=["--num_nodes", "--gpus"],
            )

    # ------------------------------------------------------------ batch
    def fast_batch(self) -> None:
        v, plan, notes, d = self.v, self.spec.plan, self.notes, self.spec.derivations
        prompts = v.positive_int("num_unique_prompts_rollout")
        group = v.positive_int("num_samples_per_prompt_rollout")
        mini_batches = v.positive_int("num_mini_batches")
        epochs = v.positive_int("num_epochs")
        rows = v.positive_int("per_device_train_batch_size")
        pack = v.positive_int("pack_length")
        # grpo_fast's defaults set all six
        assert prompts is not None and group is not None and mini_batches is not None and epochs is not None
        assert rows is not None and pack is not None
        plan.prompts_per_step, plan.samples_per_prompt, plan.epochs_per_step = prompts, group, epochs
        d["plan.prompts_per_step"] = self.origin(
            f"num_unique_prompts_rollout {prompts} prompts", "num_unique_prompts_rollout"
        )
        d["plan.samples_per_prompt"] = self.origin(
            f"num_samples_per_prompt_rollout {group}", "num_samples_per_prompt_rollout"
        )
        d["plan.epochs_per_step"] = self.origin(f"num_epochs {epochs}", "num_epochs")
        samples = prompts * group
        plan.samples_per_optimizer_step = exact(Fraction(samples, mini_batches))
        d["plan.samples_per_optimizer_step"] = derived(
            f"{prompts} prompts × {group} samples ÷ num_mini_batches {mini_batches}",
            "num_unique_prompts_rollout",
            "num_samples_per_prompt_rollout",
            "num_mini_batches",
        )
        # The LR schedule counts num_training_steps × num_epochs × num_mini_batches optimizer steps.
        plan.optimizer_steps_per_step = epochs * mini_batches
        d["plan.optimizer_steps_per_step"] = derived(
            f"num_epochs {epochs} × num_mini_batches {mini_batches} (the count the LR schedule assumes)",
            "num_epochs",
            "num_mini_batches",
        )
        if mini_batches > 1:
            # grpo_fast rounds (and drops leftovers); OLMo-core's grpo.py takes the ceiling and drops nothing.
            rule = (
                f"ceil(micro-batches ÷ {mini_batches}); a last partial group also steps"
                if self.kind == "olmo-core"
                else f"max(round(micro-batches ÷ {mini_batches}), 1); leftover micro-batches are dropped"
            )
            notes.info(
                "batch.mini-batch-count",
                f"num_mini_batches {mini_batches} is a count, not a size: each rank groups its packed "
                f"micro-batches into about {mini_batches} optimizer steps per epoch (accumulation = {rule}), "
                "so the realised number of updates depends on packing",
                source_keys=["num_mini_batches"],
            )
        budget = self.spec.token_budget
        budget.dynamic_batching = True
        budget.max_tokens_per_device = rows * pack
        d["token_budget.max_tokens_per_device"] = self.origin(
            f"per_device_train_batch_size {rows} packed rows × pack_length {pack} tokens",
            "per_device_train_batch_size",
            "pack_length",
        )
        notes.info(
            "batch.token-budget",
            f"per_device_train_batch_size counts packed rows: each micro-batch is {rows} row(s) of up to "
            f"pack_length {pack} tokens holding as many samples as fit, so micro_batch_per_device and "
            "grad_accum_steps depend on sequence lengths (null)",
            source_keys=["per_device_train_batch_size", "pack_length"],
        )
        dp = plan.data_parallel_size
        if dp and samples < dp:
            notes.warning(
                "batch.world-size",
                "num_samples_per_prompt_rollout * num_unique_prompts_rollout must be greater than or equal "
                f"to world_size // sequence_parallel_size ({samples} < {dp})",
                source_keys=["num_unique_prompts_rollout", "num_samples_per_prompt_rollout"],
            )
        if group == 1:
            notes.info(
                "algorithm.group-of-one",
                "num_samples_per_prompt_rollout is 1. This reduces GRPO to REINFORCE.",
                source_keys=["num_samples_per_prompt_rollout"],
            )

    def gtrl_batch(self) -> None:
        v, plan, notes, d = self.v, self.spec.plan, self.notes, self.spec.derivations
        world = plan.data_parallel_size
        local_prompts = v.positive_int("local_rollout_batch_size")
        local_mini = v.positive_int("local_mini_batch_size")
        group = v.positive_int("number_samples_per_prompt")
        micro = v.positive_int("per_device_train_batch_size")
        epochs = v.positive_int("num_epochs")
        # the gtrl scripts' defaults set the five keys; topology() sets world
        assert local_prompts is not None and local_mini is not None and group is not None and micro is not None
        assert epochs is not None and world is not None
        plan.prompts_per_step = local_prompts * world
        plan.samples_per_prompt = group
        plan.samples_per_optimizer_step = local_mini * world
        plan.micro_batch_per_device = micro
        plan.epochs_per_step = epochs
        d["plan.prompts_per_step"] = self.origin(
            f"local_rollout_batch_size {local_prompts} prompts per learner × {world} learner GPUs",
            "local_rollout_batch_size",
            "actor_num_gpus_per_node",
        )
        d["plan.samples_per_prompt"] = self.origin(f"number_samples_per_prompt {group}", "number_samples_per_prompt")
        d["plan.samples_per_optimizer_step"] = self.origin(
            f"local_mini_batch_size {local_mini} samples per learner × {world} learner GPUs",
            "local_mini_batch_size",
            "actor_num_gpus_per_node",
        )
        d["plan.micro_batch_per_device"] = self.origin(
            f"per_device_train_batch_size {micro} samples", "per_device_train_batch_size"
        )
        d["plan.epochs_per_step"] = self.origin(f"num_epochs {epochs}", "num_epochs")
        notes.info(
            "units.per-device-vs-global",
            f"local_rollout_batch_size and local_mini_batch_size are per learner GPU: × {world} learners = "
            f"{local_prompts * world} prompts per step and {local_mini * world} samples per optimizer step",
            source_keys=["local_rollout_batch_size", "local_mini_batch_size", "actor_num_gpus_per_node"],
        )
        if local_mini % micro:
            notes.warning(
                "batch.indivisible",
                "`local_mini_batch_size` must be a multiple of "
                f"`per_device_train_batch_size`, inexact division: {local_mini} / {micro} = "
                f"{local_mini / micro}",
                source_keys=["local_mini_batch_size", "per_device_train_batch_size"],
            )
        local_samples = local_prompts * group
        if local_samples % local_mini:
            if at_least(self.version, EXACT_MINI_BATCHES):
                notes.warning(
                    "batch.indivisible",
                    f"num_mini_batches = exact_div(rollout {local_samples * world} "
                    f"samples, mini-batch {local_mini * world}) fails: inexact division; Open-Instruct "
                    "raises",
                    source_keys=["local_rollout_batch_size", "local_mini_batch_size"],
                )
            else:
                notes.warning(
                    "batch.indivisible",
                    f"{local_samples} samples per learner are walked in chunks of "
                    f"local_mini_batch_size {local_mini}; the last chunk is partial",
                    source_keys=["local_mini_batch_size"],
                )
        recomputed = {
            "gradient_accumulation_steps": "it is recomputed as local_mini_batch_size ÷ per_device_train_batch_size",
            "num_mini_batches": "it is recomputed from the rollout and mini-batch sizes"
            if at_least(self.version, EXACT_MINI_BATCHES)
            else "this version never reads it",
        }
        for key, why in recomputed.items():
            if key in v:
                notes.warning(
                    "semantics.ignored-key", f"--{key} {_show(v.values[key])} is overwritten: {why}", source_keys=[key]
                )

    def run_length(self) -> None:
        v, plan, notes, d = self.v, self.spec.plan, self.notes, self.spec.derivations
        episodes = v.positive_int("total_episodes")
        assert episodes is not None  # a default of both programs
        assert plan.prompts_per_step is not None and plan.samples_per_prompt is not None  # the batch set them
        per_step = plan.prompts_per_step * plan.samples_per_prompt
        self.spec.run_length.total_samples = episodes
        d["run_length.total_samples"] = self.origin(
            f"total_episodes {episodes} (an episode is one sample)", "total_episodes"
        )
        steps = episodes // per_step
        if steps == 0:
            notes.warning(
                "run-length.no-steps",
                f"total_episodes {episodes} is less than one step of {per_step} "
                "samples: num_training_steps is 0 and nothing is trained",
                source_keys=["total_episodes"],
            )
            return
        plan.total_steps = steps
        d["plan.total_steps"] = derived(
            f"total_episodes {episodes} samples // {per_step} samples per step", "total_episodes"
        )
        if episodes % per_step:
            notes.info(
                "batch.floor-division",
                f"total_episodes {episodes} is not a multiple of {per_step} samples "
                f"per step; num_training_steps = {episodes} // {per_step} = {steps} "
                f"({episodes - steps * per_step} episodes are never run)",
                source_keys=["total_episodes"],
            )
        if not self.gtrl:
            assert plan.optimizer_steps_per_step is not None  # fast_batch: num_epochs × num_mini_batches
            total = steps * plan.optimizer_steps_per_step
            self.spec.run_length.total_optimizer_steps = total
            d["run_length.total_optimizer_steps"] = derived(
                f"{steps} steps × num_epochs × num_mini_batches (the LR scheduler's num_training_steps)"
            )

    # ------------------------------------------------------------ algorithm
    def algorithm(self) -> None:
        v, a, notes = self.v, self.spec.algorithm, self.notes
        beta = v.number("beta")
        estimator_key = str(v.get("kl_estimator")).strip().lower()
        if self.kind == "ppo-gtrl":
            a.advantage_estimator = "gae"
            a.advantage_std_normalization, a.advantage_normalization_scope = True, "batch"  # masked_whiten per rank
            a.kl_placement = "reward" if beta else "none"  # -beta·kl is added to the per-token reward
            self.critic()
        elif self.kind == "grpo-gtrl":
            a.advantage_estimator = "grpo"
            a.advantage_std_normalization, a.advantage_normalization_scope = True, "group"
            a.kl_placement = "loss" if beta else "none"
        else:
            a.advantage_estimator = "grpo"
            a.advantage_normalization_scope = "group"
            if self.has("advantage_normalization_type"):
                kind = str(v.get("advantage_normalization_type"))
                if kind not in ("standard", "centered"):
                    notes.warning(
                        "algorithm.unknown-advantage-normalization",
                        f"advantage_normalization_type '{kind}' is not standard or centered",
                        source_keys=["advantage_normalization_type"],
                    )
                a.advantage_std_normalization = kind != "centered"
                self.spec.derivations["algorithm.advantage_std_normalization"] = self.origin(
                    f"advantage_normalization_type {kind}: (r - mean)"
                    + ("/(std + 1e-8)" if kind != "centered" else " only"),
                    "advantage_normalization_type",
                )
            else:
                a.advantage_std_normalization = True  # (r - mean)/(std + 1e-8) per group
            a.kl_placement = "loss" if beta else "none"
            if self.has("load_ref_policy") and v.flag("load_ref_policy") is False and beta:
                notes.warning(
                    "algorithm.kl-without-reference",
                    "When load_ref_policy=False, beta must be 0.0; Open-Instruct raises",
                    source_keys=["load_ref_policy", "beta"],
                )
        a.kl_coef = beta or 0.0  # the effective coefficient: 0 when there is no KL term
        self.kl_estimator(estimator_key, bool(beta))
        clip_keys = ("clip_lower", "clip_higher") if self.has("clip_lower") else ("cliprange", "cliprange")
        a.clip_ratio_low, a.clip_ratio_high = v.number(clip_keys[0]), v.number(clip_keys[1])
        a.entropy_coef = 0.0  # no entropy bonus in any Open-Instruct RL script
        self.loss()
        if self.has("loss_fn"):
            loss_fn = str(v.get("loss_fn")).rsplit(".", 1)[-1]
            a.policy_loss = "vanilla" if loss_fn == "dapo" else loss_fn  # dapo: PPO-clip with asymmetric bounds
        else:
            a.policy_loss = "vanilla"

    def kl_estimator(self, raw: str, active: bool) -> None:
        a, notes = self.spec.algorithm, self.notes
        name = KL_ESTIMATORS.get(raw)
        if name is None:
            notes.warning(
                "algorithm.unknown-kl-estimator",
                f"kl_estimator {raw} is not 0–3 (or kl1–kl4 before {KL_RENUMBERED})",
                source_keys=["kl_estimator"],
            )
            a.kl_estimator = raw
            return
        canonical, formula = name
        a.kl_estimator = canonical
        self.spec.derivations["algorithm.kl_estimator"] = self.origin(
            f"kl_estimator {raw}: {formula} with d = logπ − logπ_ref", "kl_estimator"
        )
        renumbered = self.kind in ("fast", "olmo-core") and at_least(self.version, KL_RENUMBERED)
        if raw.startswith("kl") and renumbered:
            notes.warning(
                "keys.stale-value",
                f"kl_estimator {raw}: since {KL_RENUMBERED} the choices are 0–3 and "
                f"Open-Instruct rejects '{raw}'; the old {raw} is {int(raw[2]) - 1} now",
                source_keys=["kl_estimator"],
            )
        elif raw.isdigit() and not renumbered:
            notes.warning(
                "keys.stale-value",
                f"kl_estimator {raw}: before {KL_RENUMBERED} the choices are "
                f"kl1–kl4 and this version rejects '{raw}'; read as kl{int(raw) + 1}",
                source_keys=["kl_estimator"],
            )
        if raw in ("3", "kl4"):
            # ratio × d has no canonical name: the flag also stays a native extra so Open-Instruct gets it back.
            self.v.used.discard("kl_estimator")
        if raw in ("3", "kl4") and active:
            notes.warning(
                "algorithm.kl-estimator",
                f"kl_estimator {raw} is ratio × d (importance-weighted k1), not k3: k3 is "
                + ("2" if renumbered else "kl3")
                + " (the renumbering of 2025-12-01 made the old kl3 "
                "index 2); recorded as k1",
                source_keys=["kl_estimator"],
            )

    def loss(self) -> None:
        v, a, notes = self.v, self.spec.algorithm, self.notes
        d = self.spec.derivations
        a.loss_aggregation, a.loss_normalizer_scope = "token-mean", "micro_batch"
        if self.gtrl:
            d["algorithm.loss_aggregation"] = derived("masked_mean over each micro-batch's response tokens")
            return
        if at_least(self.version, GLOBAL_TOKEN_LOSS):
            denominator = str(v.get("loss_denominator"))
            if denominator == "token":
                a.loss_normalizer_scope = "optimizer_step"
                d["algorithm.loss_aggregation"] = self.origin(
                    "loss_denominator token: summed over the accumulation group's response tokens on all ranks",
                    "loss_denominator",
                )
            else:
                # The constant has no canonical field: the flag stays a native extra (peeked, not consumed).
                v.used.discard("loss_denominator")
                try:
                    constant: float | None = float(denominator)
                except ValueError:
                    constant = None
                if constant is None or constant <= 0:
                    notes.warning(
                        "algorithm.loss-denominator",
                        f"loss_denominator must be a valid float greater than 0 if not 'token', got: {denominator}",
                        source_keys=["loss_denominator"],
                    )
                a.loss_aggregation, a.loss_normalizer_scope = "seq-mean-token-sum-norm", "optimizer_step"
                d["algorithm.loss_aggregation"] = self.origin(
                    f"loss_denominator {denominator}: token losses summed, divided by the constant "
                    f"{denominator} (Dr. GRPO style)",
                    "loss_denominator",
                )
            return
        axis = v.get("masked_mean_axis") if self.has("masked_mean_axis") else None
        constant = v.get("masked_mean_denominator") if self.has("masked_mean_denominator") else None
        if constant is not None:
            a.loss_aggregation = "seq-mean-token-sum-norm"
            d["algorithm.loss_aggregation"] = self.origin(
                f"masked_mean_denominator {constant}: each micro-batch's token sum ÷ {constant}",
                "masked_mean_denominator",
            )
        elif axis is not None and str(axis) == "1":
            notes.warning(
                "algorithm.loss-aggregation",
                "masked_mean_axis 1 averages each packed row (several "
                "samples), then the rows; rlconf records it as token-mean per micro-batch",
                source_keys=["masked_mean_axis"],
            )
        else:
            d["algorithm.loss_aggregation"] = derived(
                "masked_mean over each packed micro-batch's response tokens, ÷ accumulation steps (before 2025-12-01)"
            )

    def critic(self) -> None:
        v, c, plan = self.v, self.spec.critic, self.spec.plan
        c.enabled = True
        c.samples_per_optimizer_step = plan.samples_per_optimizer_step
        c.epochs_per_step = plan.epochs_per_step
        c.micro_batch_per_device = int(plan.micro_batch_per_device) if plan.micro_batch_per_device else None
        c.lr = v.number("learning_rate")  # the value model trains with the policy's learning rate
        scratch = v.flag("init_value_from_scratch")
        c.model = None if scratch else v.get("reward_model_path")
        self.spec.derivations["critic.model"] = self.origin(
            "the value model starts from reward_model_path", "reward_model_path", "init_value_from_scratch"
        )

    # ------------------------------------------------------------ the rest
    def read_non_plan_sections(self) -> None:
        v, s, notes, version = self.v, self.spec, self.notes, self.version
        d = s.derivations
        prompt = v.get("max_prompt_token_length")
        s.lengths.max_prompt_tokens = v.positive_int("max_prompt_token_length") if prompt is not None else None
        s.lengths.max_response_tokens = v.positive_int("response_length")
        if s.lengths.max_prompt_tokens is not None and "max_prompt_token_length" in v:
            notes.info(
                "lengths.prompt-filter",
                f"max_prompt_token_length {s.lengths.max_prompt_tokens} drops longer "
                "prompts from the dataset; it does not truncate them",
                source_keys=["max_prompt_token_length"],
            )
        if not self.gtrl:
            pack = v.positive_int("pack_length")
            assert s.lengths.max_response_tokens is not None and pack is not None  # grpo_fast's defaults
            total = (s.lengths.max_prompt_tokens or 0) + s.lengths.max_response_tokens
            if pack < total:
                notes.warning(
                    "batch.pack-length",
                    "The `pack_length` needs to be greater than the sum of "
                    f"`max_prompt_token_length` and `response_length`! ({pack} < {total})",
                    source_keys=["pack_length", "max_prompt_token_length", "response_length"],
                )
        s.sampling.temperature = v.number("temperature")
        s.sampling.top_p = v.number("vllm_top_p") if self.has("vllm_top_p") else 1.0
        s.sampling.top_k = -1  # no top-k flag: vLLM's default, disabled
        d["sampling.top_k"] = Derivation("no top-k flag: vLLM's default -1 (disabled)", [], "default")
        self.optimizer()
        g = s.generation
        g.rollout_backend = "vllm"
        single = bool(v.flag("single_gpu_mode")) if self.has("single_gpu_mode") else False
        g.rollout_mode = "colocate" if single else "server"
        if not self.gtrl:
            if self.has("filter_zero_std_samples"):
                g.filter_groups = bool(v.flag("filter_zero_std_samples"))
            else:
                g.filter_groups = at_least(version, ZERO_STD_FILTER)
            active = bool(v.flag("active_sampling")) if self.has("active_sampling") else False
            if g.filter_groups:
                g.filter_metric = "score"
                g.max_rounds_per_step = 0 if active else 1  # active sampling refills; otherwise the batch shrinks
                per_update = d.get("plan.samples_per_optimizer_step")
                if not active and per_update is not None and s.plan.samples_per_optimizer_step is not None:
                    # How many groups survive depends on the rewards: the configured count is an upper bound.
                    per_update.origin = "assumed"
                    per_update.text += (
                        ", if no group is dropped: zero-std groups are dropped without refill (active_sampling "
                        f"off), so an optimizer step trains on at most {fmt(s.plan.samples_per_optimizer_step)}"
                    )
                d["generation.max_rounds_per_step"] = self.origin(
                    "active_sampling: sample until num_unique_prompts_rollout groups survive (0 = unlimited)"
                    if active
                    else "no refill: zero-std groups are dropped and the step trains on fewer samples",
                    "active_sampling",
                    "filter_zero_std_samples",
                )
                if s.plan.samples_per_prompt == 1 and at_least(version, "2025.12.01"):
                    notes.warning(
                        "algorithm.group-too-small",
                        "`filter_zero_std_samples` cannot be True when "
                        "`num_samples_per_prompt_rollout` is 1, as the reward standard deviation will always "
                        "be 0, causing all samples to be filtered.",
                        source_keys=["filter_zero_std_samples", "num_samples_per_prompt_rollout"],
                    )
            elif active:
                notes.warning(
                    "generation.active-sampling",
                    "filter_zero_std_samples must be True when active_sampling is True; Open-Instruct raises",
                    source_keys=["active_sampling"],
                )
            ahead = v.number("async_steps") if self.has("async_steps") else None
            if active and ahead is not None and ahead <= 1:
                notes.warning(
                    "generation.active-sampling",
                    "With active_sampling, you should set async_steps > 1 to "
                    "account for filtering of the first batch (Open-Instruct asserts it; async_steps is "
                    f"{fmt(ahead)})",
                    source_keys=["active_sampling", "async_steps"],
                )
        self.asynchrony()
        s.references.model = v.get("model_name_or_path")
        _RunParts(self).read()
        stage = v.get("deepspeed_stage")
        if str(stage) == "2" and not at_least(version, ZERO2_FIX) and self.kind == "fast":
            notes.warning(
                "semantics.zero2-gradients",
                "before 2026-02-26 (PR #1498), with deepspeed_stage 2 only the "
                "last micro-batch's gradient of each accumulation group survived; the rest were discarded",
                source_keys=["deepspeed_stage"],
            )

    def optimizer(self) -> None:
        v, o, notes, version = self.v, self.spec.optimizer, self.notes, self.version
        d = self.spec.derivations
        o.lr = v.number("learning_rate")
        o.lr_schedule = str(v.get("lr_scheduler_type"))
        ratio = v.number("warmup_ratio")
        steps = v.number("warm_up_steps") if self.has("warm_up_steps") else None
        ratio_wins = ratio is not None and (ratio > 0 or (self.gtrl and not at_least(version, WARMUP_RATIO_FIX)))
        if steps and ratio_wins:
            notes.warning(
                "semantics.ignored-key",
                f"warm_up_steps {fmt(steps)} is ignored: warmup_ratio {fmt(ratio)} "
                "takes precedence" + ("" if ratio else " (the `>= 0.0` bug of this version)"),
                source_keys=["warm_up_steps", "warmup_ratio"],
            )
        if steps and not ratio_wins:
            o.warmup_steps, o.warmup_unit = int(steps), "optimizer_steps"
            d["optimizer.warmup_steps"] = self.origin(
                f"warm_up_steps {int(steps)} scheduler (optimizer) steps", "warm_up_steps"
            )
        else:
            o.warmup_ratio = ratio
            d["optimizer.warmup_ratio"] = self.origin(
                f"warmup_ratio {fmt(ratio)} of num_training_steps × num_epochs × num_mini_batches scheduler steps",
                "warmup_ratio",
            )
        if self.gtrl:
            o.weight_decay = 0.01  # torch.optim.AdamW(params, lr=...) with torch's default weight_decay
            d["optimizer.weight_decay"] = Derivation("no flag: torch.optim.AdamW's default 0.01", [], "default")
        elif self.has("set_weight_decay_on_bias_and_norm") and v.flag("set_weight_decay_on_bias_and_norm") is False:
            o.weight_decay = 0.01
            if "weight_decay" in v:
                notes.warning(
                    "semantics.ignored-key",
                    "--weight_decay is ignored when "
                    "set_weight_decay_on_bias_and_norm is False: AdamW gets all parameters with torch's "
                    "default weight_decay 0.01",
                    source_keys=["weight_decay", "set_weight_decay_on_bias_and_norm"],
                )
            v.get("weight_decay")
        else:
            o.weight_decay = v.number("weight_decay")
        if self.has("max_grad_norm"):
            o.grad_clip = v.number("max_grad_norm")
        else:
            o.grad_clip = 1.0
            d["optimizer.grad_clip"] = Derivation(
                "no flag: DeepSpeed gradient_clipping hard-coded to 1.0", [], "default"
            )

    def asynchrony(self) -> None:
        v, notes, version = self.v, self.notes, self.version
        d = self.spec.derivations
        if self.has("async_steps"):
            ahead = v.number("async_steps")
            if ahead is None or not float(ahead).is_integer() or ahead < 0:
                raise _config_error(
                    v,
                    "async_steps",
                    f"async_steps must be a whole number, got {v.get('async_steps')!r}",
                    "set --async_steps to 1 or more",
                )
            ahead = int(ahead)
            if ahead < 1 and at_least(version, SYNC_REJECTED):
                notes.warning(
                    "asynchrony.async-steps",
                    "`async_steps` must be greater than 0. Fully synchronous training is not supported.",
                    source_keys=["async_steps"],
                )
            d["asynchrony.max_steps_ahead"] = self.origin(
                f"async_steps {ahead}: generation runs up to {ahead} training step(s) ahead", "async_steps"
            )
            if self.has("async_mode") and "async_mode" in v:
                notes.warning(
                    "semantics.ignored-key",
                    "async_mode is superseded by async_steps in this version",
                    source_keys=["async_mode"],
                )
                v.get("async_mode")
        else:
            ahead = 1 if v.flag("async_mode") else 0
            d["asynchrony.max_steps_ahead"] = self.origin(
                "async_mode: learn from the second-latest policy (one step behind)"
                if ahead
                else "async_mode False: synchronous",
                "async_mode",
            )
        self.spec.asynchrony.max_steps_ahead = ahead
        # inflight_updates stays a native extra (no canonical field); it is read here only for the note.
        inflight = (
            self.has("inflight_updates")
            and str(v.values.get("inflight_updates", v.defaults.get("inflight_updates"))).lower() == "true"
        )
        if ahead:
            notes.warning(
                "asynchrony.off-policy",
                f"generation runs up to {ahead} training step(s) ahead of the learner, so samples come from "
                f"a policy up to {ahead} update(s) old (off-policy)"
                + (
                    "; inflight_updates also swaps weights during generation, so one completion can mix policies"
                    if inflight
                    else ""
                ),
                source_keys=["async_steps" if self.has("async_steps") else "async_mode"],
            )

    def describe_derived(self) -> None:
        plan, d = self.spec.plan, self.spec.derivations
        if plan.samples_per_step is not None:
            d["plan.samples_per_step"] = derived(
                f"{fmt(plan.prompts_per_step)} prompts × {plan.samples_per_prompt} samples per prompt"
            )
        if self.gtrl and plan.optimizer_steps_per_step is not None:
            d["plan.optimizer_steps_per_step"] = derived(
                f"num_epochs {plan.epochs_per_step} × ceil({fmt(plan.samples_per_step)} samples ÷ "
                f"{fmt(plan.samples_per_optimizer_step)} per mini-batch)"
            )
        if plan.grad_accum_steps is not None:
            d["plan.grad_accum_steps"] = derived(
                f"{fmt(plan.samples_per_optimizer_step)} samples ÷ {plan.data_parallel_size} learners ÷ micro "
                f"{fmt(plan.micro_batch_per_device)} (DeepSpeed gradient_accumulation_steps)"
            )


def _mixer_pairs(mixer: Any, key: str, values: Values) -> list[tuple[str, float]]:
    """(dataset, amount) pairs from a mixer: ``name amount name amount`` (a list) or a JSON dict string
    (PPO-T3 ``dataset_mixer``). An amount with a "." is a fraction of the dataset, one without a count of
    prompts (dataset_transformation.py: "\"1\" = 1 sample, \"1.0\" = 100% of dataset")."""
    if mixer is None:
        return []
    words = mixer if isinstance(mixer, list) else [mixer]
    if any(symbolic_names(str(word)) for word in words):
        return []  # a mixer from a variable the script never sets: the data is unknown (noted by the caller)
    if isinstance(mixer, str):
        try:
            mixer = json.loads(mixer)
        except ValueError:
            mixer = mixer.split()
    if isinstance(mixer, dict):
        items = [(str(name), amount) for name, amount in mixer.items()]
    elif isinstance(mixer, list):
        if len(mixer) % 2:
            raise _config_error(
                values,
                key,
                f"--{key} needs dataset/amount pairs, got {len(mixer)} words",
                f"give an amount after every dataset, e.g. --{key} org/name 1.0",
            )
        items = [(str(name), amount) for name, amount in zip(mixer[0::2], mixer[1::2], strict=False)]
    else:
        raise _config_error(
            values, key, f"--{key} {mixer!r} is not a list of dataset/amount pairs", f"write --{key} org/name 1.0"
        )
    pairs = []
    for name, amount in items:
        text = str(amount)
        try:
            number = float(text) if "." in text or isinstance(amount, float) else int(text)
        except ValueError:
            raise _config_error(
                values,
                key,
                f"--{key}: the amount {text!r} of {name} is not a number",
                "use a fraction such as 1.0 (the whole dataset) or a count of prompts",
            ) from None
        if number < 0:
            raise _config_error(
                values,
                key,
                f"--{key}: the amount {text} of {name} is negative",
                "use a fraction such as 1.0 or a count of prompts",
            )
        if number > MAX_COUNT:
            raise _config_error(
                values,
                key,
                f"--{key}: the amount {text} of {name} is larger than any dataset",
                "use a fraction such as 1.0 or a count of prompts",
            )
        pairs.append((name, float(number)))
    return pairs


def _one_split(values: Values, key: str, default: list[str] | None) -> str | None:
    """The split of every mixer dataset: Open-Instruct broadcasts a single split to all of them."""
    raw = values.get(key) if key in values else default
    if raw is None:
        return None
    splits = [str(x) for x in (raw if isinstance(raw, list) else str(raw).split())]
    if len(set(splits)) > 1:
        raise _config_error(
            values,
            key,
            f"--{key} {' '.join(splits)}: one split per dataset is not expressible in rlconf's model",
            f"use one split for every dataset (--{key} {splits[0]})",
        )
    return splits[0] if splits else None


class _RunParts:
    """Reward, data, checkpoints, evaluation, logging and placement of a read Open-Instruct run."""

    def __init__(self, reader: _Interpreter) -> None:
        self.r = reader
        self.v, self.spec, self.notes = reader.v, reader.spec, reader.notes
        self.defaults = RUN_PART_DEFAULTS["gtrl" if reader.gtrl else "fast"]

    def get(self, key: str) -> Any:
        """A run-part flag's value: the source's, else the program's default (None when it has none)."""
        if not self.r.has(key):
            return None
        value = self.v.get(key)
        return self.defaults.get(key) if value is None else value

    def number(self, key: str) -> float | None:
        value = self.get(key)
        try:
            number = None if value is None else float(value)
        except (TypeError, ValueError, OverflowError):
            # The native-schema check names the flag and its expected type after reading.
            return None
        if number is not None and (not math.isfinite(number) or abs(number) > MAX_COUNT):
            raise _config_error(
                self.v, key, f"--{key} {value} is not a usable number", f"give --{key} a number below {MAX_COUNT}"
            )
        return number

    def flag(self, key: str) -> bool:
        value = self.get(key)
        return str(value).strip().lower() in ("true", "1", "yes") if not isinstance(value, bool) else value

    def read(self) -> None:
        self.data()
        self.reward()
        self.checkpointing()
        self.evaluation()
        self.logging()
        self.placement()
        read_settings(self.spec, self.v, SETTINGS, NAME, self.r.version, self.r.has)

    def data(self) -> None:
        d, v = self.spec.data, self.v
        key = "dataset_mixer_list" if self.r.has("dataset_mixer_list") else "dataset_mixer"
        pairs = _mixer_pairs(v.get(key), key, v) if self.r.has(key) else []
        if self.r.has(key) and not pairs and symbolic_names(str(v.get(key))):
            mixer = v.get(key)
            shown = " ".join(map(str, mixer)) if isinstance(mixer, list) else mixer
            self.notes.info(
                "data.sources-unknown",
                f"--{key} {shown} depends on a variable the script never sets: the training datasets are unknown",
                source_keys=[key],
            )
        if pairs:
            d.train_sources = [name for name, _ in pairs]
            d.train_weights = [amount for _, amount in pairs]
            self.spec.derivations["data.train_weights"] = self.r.origin(
                'mixer amounts: a fraction of each dataset (with a ".") or a count of its prompts', key
            )
            split_key = (
                "dataset_mixer_list_splits" if self.r.has("dataset_mixer_list_splits") else "dataset_train_splits"
            )  # PPO-T3's DatasetConfig
            d.train_split = (
                _one_split(v, split_key, self.defaults.get("dataset_mixer_list_splits"))
                if self.r.has(split_key)
                else "train"
            )
        eval_key = "dataset_mixer_eval_list" if self.r.has("dataset_mixer_eval_list") else "dataset_eval_mixer"
        eval_pairs = _mixer_pairs(v.get(eval_key), eval_key, v) if self.r.has(eval_key) else []
        if eval_pairs:
            d.eval_sources = [name for name, _ in eval_pairs]
            split_key = (
                "dataset_mixer_eval_list_splits"
                if self.r.has("dataset_mixer_eval_list_splits")
                else "dataset_eval_splits"
            )
            d.eval_split = _one_split(v, split_key, None) if self.r.has(split_key) else None
            counts = [amount for _, amount in eval_pairs if amount.is_integer() and amount > 1]
            if len(counts) == len(eval_pairs):
                d.max_eval_prompts = int(sum(counts))
        d.answer_key = self.get("ground_truths_key")
        d.prompt_key = self.get("sft_messages_key")

    def reward(self) -> None:
        rw, notes = self.spec.reward, self.notes
        builtin = []
        if self.flag("apply_verifiable_reward"):
            builtin.append(BUILTIN_VERIFIABLE)
        if self.r.has("apply_r1_style_format_reward") and self.flag("apply_r1_style_format_reward"):
            builtin.append(BUILTIN_R1_FORMAT)
        rw.builtin = builtin or None
        if self.r.kind == "ppo-gtrl":
            multiplier = self.number("reward_model_multiplier")
            if multiplier is None or multiplier != 0:
                rw.model = self.v.values.get("reward_model_path", self.v.defaults.get("reward_model_path"))
        if not builtin and rw.model is None:
            notes.warning(
                "reward.missing",
                "no reward is applied (apply_verifiable_reward is off and no reward "
                'model scores); Open-Instruct asserts "At least one reward must be applied!" unless '
                "non_stop_penalty is set",
                source_keys=["apply_verifiable_reward"],
            )

    def checkpointing(self) -> None:
        c, notes = self.spec.checkpointing, self.notes
        every = self.number("save_freq")
        if every is not None:
            c.every_steps = int(every) if every > 0 else 0
            self.spec.derivations["checkpointing.every_steps"] = self.r.origin(
                f"save_freq {int(every)} training steps (one rollout step each)"
                if every > 0
                else f"save_freq {int(every)}: no checkpoints",
                "save_freq",
            )
            c.hf_format = True  # save_freq saves the model in Hugging Face format
        out_key = (
            "output_dir"
            if not self.r.has("checkpoint_output_dir") or "output_dir" in self.v
            else "checkpoint_output_dir"
        )
        c.directory = self.get(out_key)
        keep = self.number("keep_last_n_checkpoints")
        c.keep_last = int(keep) if keep is not None and 0 < keep <= MAX_COUNT else None
        # The state directory and cadence stay native extras (no canonical field holds a second cadence);
        # they are peeked at here, not consumed.
        state_dir = self.v.values.get("checkpoint_state_dir") if self.r.has("checkpoint_state_dir") else None
        if state_dir:
            state_every = self.number("checkpoint_state_freq") if "checkpoint_state_freq" in self.v.values else -1
            if state_every is not None and state_every <= 0:
                notes.warning(
                    "checkpointing.state-freq",
                    "checkpoint_state_dir is set but checkpoint_state_freq is "
                    f"{fmt(state_every)}; Open-Instruct raises (set --checkpoint_state_freq to a positive "
                    "number of training steps)",
                    source_keys=["checkpoint_state_dir", "checkpoint_state_freq"],
                )
            c.resume = "auto"  # the latest state in checkpoint_state_dir is loaded at start

    def evaluation(self) -> None:
        e, d = self.spec.evaluation, self.spec.data
        if self.r.has("local_eval_every"):
            every = self.number("local_eval_every")
            e.every_steps = int(every) if every and every > 0 and d.eval_sources else 0
            self.spec.derivations["evaluation.every_steps"] = self.r.origin(
                f"local_eval_every {fmt(every)} training steps"
                if d.eval_sources
                else "no dataset_mixer_eval_list: no evaluation",
                "local_eval_every",
                "dataset_mixer_eval_list",
            )
        elif self.r.has("num_evals"):
            evals = self.number("num_evals")
            steps = self.spec.plan.total_steps
            if not d.eval_sources and self.r.kind == "fast":
                e.every_steps = 0
            elif evals and evals > 0 and steps:
                e.every_steps = max(1, steps // int(evals))
                self.spec.derivations["evaluation.every_steps"] = self.r.origin(
                    f"max(1, {steps} training steps // num_evals {int(evals)})", "num_evals", "total_episodes"
                )
        if self.r.has("eval_on_step_0") and d.eval_sources:  # grpo_fast Args: "run local evaluation at step 0"
            e.before_training = bool(self.flag("eval_on_step_0"))
            self.spec.derivations["evaluation.before_training"] = self.r.origin(
                f"eval_on_step_0 {e.before_training}", "eval_on_step_0"
            )

    def logging(self) -> None:
        lg = self.spec.logging
        lg.backends = ["wandb"] if self.flag("with_tracking") else ["console"]
        project_key = "wandb_project" if self.r.has("wandb_project") else "wandb_project_name"
        lg.project = self.get(project_key)
        name = self.get("exp_name")
        lg.run_name = str(name) if name is not None else None
        if "run_name" in self.v:
            lg.run_name = str(self.v.get("run_name"))

    def placement(self) -> None:
        t = self.spec.topology
        t.rollout_engines = self.v.positive_int("vllm_num_engines")
        fraction = self.number("vllm_gpu_memory_utilization")
        t.rollout_gpu_memory_fraction = fraction
        # The reference policy (and in the PPO script the value and reward models) live in the learner
        # processes, on the learners' GPUs.
        t.colocate_models = True


# ------------------------------------------------------------------------ writing


class _Writer:
    """Canonical model → Open-Instruct flags for one version: grpo_fast.py, or a gtrl script before 2025-03-13."""

    def __init__(self, spec: RunSpec, version: str, notes: NoteList) -> None:
        self.spec, self.version, self.notes = spec, version, notes
        self.out: dict[str, Any] = {}
        self.program = self.choose_program()
        self.kind = PROGRAMS[self.program][0]
        self.gtrl = self.kind != "fast"

    def choose_program(self) -> str:
        """The program that keeps the most of the plan among those the version has: PPO (GAE) needs the ppo
        gtrl script; where grpo_fast.py and the grpo gtrl script coexist, fixed micro-batches of samples need
        the gtrl script and token budgets need grpo_fast's packed rows."""
        spec, version = self.spec, self.version
        gae = spec.algorithm.advantage_estimator == "gae"
        gtrl_last = PROGRAMS["grpo_vllm_thread_ray_gtrl.py"][2]
        if not at_least(version, LEGACY_WRITE_UNTIL):
            return (
                "ppo_vllm_thread_ray_gtrl.py"
                if gae or not at_least(version, FIRST_GRPO_GTRL)
                else "grpo_vllm_thread_ray_gtrl.py"
            )
        if gtrl_last and at_least(gtrl_last, version):
            if gae:
                return "ppo_vllm_thread_ray_gtrl.py"  # the only PPO with a value model rlconf writes
            plan = spec.plan
            fixed_micro = plan.micro_batch_per_device is not None and not spec.token_budget.max_tokens_per_device
            dp = plan.data_parallel_size or 1
            per_learner = all(
                x is not None and Fraction(x) % dp == 0
                for x in (plan.prompts_per_step, plan.samples_per_optimizer_step)
            )
            if fixed_micro and per_learner:
                self.notes.info(
                    "target.program",
                    f"open-instruct {version} has grpo_fast.py and "
                    "grpo_vllm_thread_ray_gtrl.py; the gtrl script is written because it keeps the "
                    "source's micro-batches of samples (grpo_fast packs rows of tokens)",
                    target_keys=["grpo_vllm_thread_ray_gtrl.py"],
                )
                return "grpo_vllm_thread_ray_gtrl.py"
        return "grpo_fast.py"

    def has(self, key: str) -> bool:
        return key_in_version(self.kind, key, self.version)

    def put(self, key: str, value: Any) -> None:
        if value is not None:
            self.out[key] = value

    def flags(self) -> tuple[str, dict[str, Any], str]:
        if self.spec.references.model:
            self.out["model_name_or_path"] = self.spec.references.model
        learners = self.topology()
        if self.gtrl:
            self.gtrl_batch(learners)
        else:
            self.fast_batch()
        self.algorithm()
        self.write_non_plan_sections()
        self.extras()
        engines, tp = self.out["vllm_num_engines"], self.out["vllm_tensor_parallel_size"]
        shared = self.out.get("single_gpu_mode") is True
        gpu_line = (
            f"Ray cluster: {learners} learner GPU(s) + {engines} vLLM engine(s) × TP {tp} = "
            f"{learners + engines * tp} GPUs"
            if not shared
            else "single_gpu_mode: the learner and vLLM share one GPU"
        )
        return self.program, self.out, gpu_line

    def unit_comments(self) -> list[str]:
        if self.gtrl:
            return [
                "# Units: local_rollout_batch_size (prompts) and local_mini_batch_size (samples) are per",
                "# learner GPU (× sum(actor_num_gpus_per_node)); per_device_train_batch_size counts samples;",
                "# total_episodes counts samples.",
            ]
        return [
            "# Units: num_unique_prompts_rollout prompts × num_samples_per_prompt_rollout samples per step;",
            "# num_mini_batches counts optimizer steps per epoch; per_device_train_batch_size counts packed rows",
            "# of pack_length tokens; total_episodes counts samples; vLLM engines use GPUs of their own.",
        ]

    # ------------------------------------------------------------ topology
    def topology(self) -> int:
        s, notes, out = self.spec, self.notes, self.out
        t, plan = s.topology, s.plan
        dp = plan.data_parallel_size or t.training_gpus or 1
        sp = t.sequence_parallel_size or 1
        if sp > 1 and not self.has("sequence_parallel_size"):
            notes.warning(
                "topology.not-expressible",
                f"sequence parallelism needs open-instruct 2026.01.26 or later; {dp} learners without it are written",
                target_keys=["sequence_parallel_size"],
            )
            sp = 1
        learners = dp * sp
        model_parallel = [
            f"{name} {size}"
            for name, size in (
                ("tensor parallel", t.tensor_parallel_size),
                ("pipeline parallel", t.pipeline_parallel_size),
                ("context parallel", t.context_parallel_size),
            )
            if size and size > 1
        ]
        if model_parallel or (t.training_gpus and t.training_gpus != learners):
            layout = ", ".join(model_parallel) or "no model parallelism"
            notes.warning(
                "topology.gpus-changed",
                f"the source trains on {t.training_gpus} GPUs ({layout}); Open-Instruct runs one learner "
                f"per GPU, so {learners} learners keep the {dp} data-parallel ranks",
                source_keys=["topology.training_gpus"],
                target_keys=["num_learners_per_node" if not self.gtrl else "actor_num_gpus_per_node"],
            )
        nodes = t.nodes if t.nodes and learners % t.nodes == 0 else max(1, math.ceil(learners / 8))
        if learners % nodes:
            nodes = 1
        per_node = [learners // nodes] * nodes
        out["actor_num_gpus_per_node" if self.gtrl else "num_learners_per_node"] = [str(n) for n in per_node]
        if self.has("sequence_parallel_size"):
            out["sequence_parallel_size"] = sp
        tp = t.rollout_tensor_parallel_size or 1
        if t.rollout_gpus:
            engines = max(1, t.rollout_gpus // tp)
            if t.rollout_engines and t.rollout_engines * tp == t.rollout_gpus:
                engines = t.rollout_engines
        else:
            engines = 1
            if s.framework != NAME:
                source_gpus = t.training_gpus or learners
                notes.warning(
                    "topology.gpus-changed",
                    f"the source generates on its {source_gpus} training GPUs; Open-Instruct runs vLLM on "
                    f"GPUs of its own: 1 engine × TP {tp} is written beside the {learners} learners, "
                    f"{learners + tp} GPUs in all instead of {source_gpus}",
                    target_keys=["vllm_num_engines", "vllm_tensor_parallel_size"],
                )
        if (
            t.rollout_gpus == 0
            and s.generation.rollout_mode == "colocate"
            and s.framework == NAME
            and learners == 1
            and self.has("single_gpu_mode")
        ):
            out["single_gpu_mode"] = True
        out["vllm_num_engines"], out["vllm_tensor_parallel_size"] = engines, tp
        backend = t.training_backend or ""
        stage = (
            backend.removeprefix("deepspeed-zero")
            if backend.startswith("deepspeed-zero")
            else ("3" if backend in ("fsdp", "megatron", "fsdp2") else None)
        )
        if stage and stage.isdigit():
            out["deepspeed_stage"] = int(stage)
        return learners

    # ------------------------------------------------------------ batch
    def whole(self, value: Any, what: str, key: str) -> int:
        if value is None:
            return 1
        number = Fraction(value)
        if number.denominator != 1 or number < 1:
            rounded = max(1, round(number))
            self.notes.warning(
                "batch.not-expressible",
                f"{fmt(number)} {what} is not a whole number; {key} {rounded} is written",
                target_keys=[key],
            )
            return rounded
        return int(number)

    def fast_batch(self) -> None:
        s, plan, notes, out = self.spec, self.spec.plan, self.notes, self.out
        prompts = self.whole(plan.prompts_per_step, "prompts per step", "num_unique_prompts_rollout")
        group = plan.samples_per_prompt or 1
        out["num_unique_prompts_rollout"] = prompts
        out["num_samples_per_prompt_rollout"] = group
        samples = prompts * group
        per_opt = plan.samples_per_optimizer_step or samples
        mini = Fraction(samples) / Fraction(per_opt)
        if mini < 1:
            notes.warning(
                "batch.not-expressible",
                f"the source updates once per {fmt(Fraction(per_opt) / samples)} steps ({fmt(per_opt)} "
                f"samples per optimizer step, {samples} per step); Open-Instruct updates at least once per "
                "step, so num_mini_batches 1 is written",
                target_keys=["num_mini_batches"],
            )
            mini = Fraction(1)
        out["num_mini_batches"] = self.whole(mini, "optimizer steps per epoch", "num_mini_batches")
        if s.framework != NAME:
            notes.info(
                "units.prompts-vs-samples",
                f"num_mini_batches is a count: {samples} samples per step ÷ {fmt(per_opt)} samples per "
                f"optimizer step = {out['num_mini_batches']} (Open-Instruct realises it over packed "
                "micro-batches)",
                source_keys=["plan.samples_per_optimizer_step"],
                target_keys=["num_mini_batches"],
            )
        out["num_epochs"] = plan.epochs_per_step or 1
        prompt = s.lengths.max_prompt_tokens or 256
        response = s.lengths.max_response_tokens or 256
        budget = s.token_budget.max_tokens_per_device
        if budget:
            pack = budget
            why = f"the source's {budget}-token budget per micro-batch"
        elif plan.micro_batch_per_device:
            micro = math.ceil(plan.micro_batch_per_device)
            pack = micro * (prompt + response)
            why = (
                f"{micro} samples × ({prompt} + {response}) tokens, the most the source's micro-batch of "
                f"{micro} samples can hold"
            )
        else:
            pack, why = prompt + response, "one prompt + response"
        if pack < prompt + response:
            pack, why = prompt + response, "max_prompt_token_length + response_length, the least Open-Instruct accepts"
        out["per_device_train_batch_size"] = 1
        out["pack_length"] = pack
        if plan.micro_batch_per_device is not None:
            notes.warning(
                "batch.token-budget",
                f"Open-Instruct packs samples into rows of pack_length tokens; a "
                f"micro-batch of {fmt(plan.micro_batch_per_device)} samples is not expressible, so one row "
                f"of pack_length {pack} tokens ({why}) is written per micro-batch",
                target_keys=["per_device_train_batch_size", "pack_length"],
            )
        elif s.framework != NAME:
            notes.info(
                "batch.token-budget",
                f"per_device_train_batch_size 1 packed row of pack_length {pack} tokens ({why})",
                target_keys=["per_device_train_batch_size", "pack_length"],
            )
        self.total_episodes(samples)

    def gtrl_batch(self, learners: int) -> None:
        plan, notes, out = self.spec.plan, self.notes, self.out
        world = learners
        prompts = self.whole(plan.prompts_per_step, "prompts per step", "local_rollout_batch_size")
        group = plan.samples_per_prompt or 1
        local_prompts = Fraction(prompts, world)
        out["local_rollout_batch_size"] = self.whole(
            local_prompts, f"prompts per learner ({prompts} ÷ {world})", "local_rollout_batch_size"
        )
        out["number_samples_per_prompt"] = group
        samples = out["local_rollout_batch_size"] * world * group
        per_opt = Fraction(plan.samples_per_optimizer_step or samples)
        if per_opt > samples:
            notes.warning(
                "batch.not-expressible",
                f"{fmt(per_opt)} samples per optimizer step is more than the "
                f"{samples} samples of a step; the step's {samples} are written",
                target_keys=["local_mini_batch_size"],
            )
            per_opt = Fraction(samples)
        local_mini = self.whole(
            per_opt / world,
            f"samples per learner per optimizer step ({fmt(per_opt)} ÷ {world})",
            "local_mini_batch_size",
        )
        out["local_mini_batch_size"] = local_mini
        notes.info(
            "units.per-device-vs-global",
            f"gtrl batch sizes are per learner GPU: {fmt(plan.prompts_per_step)} prompts ÷ {world} learners = "
            f"local_rollout_batch_size {out['local_rollout_batch_size']}; {fmt(per_opt)} samples ÷ {world} = "
            f"local_mini_batch_size {local_mini}",
            target_keys=["local_rollout_batch_size", "local_mini_batch_size"],
        )
        wanted = plan.micro_batch_per_device
        whole = divisors(local_mini)
        if wanted is not None and Fraction(wanted).denominator == 1 and wanted > 0 and local_mini % int(wanted) == 0:
            micro = int(wanted)
        else:
            target = int(wanted) if wanted else 1
            micro = min(whole, key=lambda m: (abs(m - target), -m))
            notes.warning(
                "batch.micro-changed",
                f"per_device_train_batch_size {micro} samples is written (it must "
                f"divide local_mini_batch_size {local_mini}); the source "
                + (f"uses micro-batches of {fmt(wanted)}" if wanted else "packs micro-batches by tokens"),
                target_keys=["per_device_train_batch_size"],
            )
        out["per_device_train_batch_size"] = micro
        out["num_epochs"] = plan.epochs_per_step or 1
        self.total_episodes(samples)

    def total_episodes(self, samples: int) -> None:
        plan, notes = self.spec.plan, self.notes
        if plan.total_steps is not None:
            stated = self.spec.run_length.total_samples
            # Keep the source's own sample count when it gives the same number of steps (floor division).
            same = stated is not None and stated // samples == plan.total_steps
            self.out["total_episodes"] = stated if same else plan.total_steps * samples
            if self.spec.framework != NAME:
                notes.info(
                    "units.episodes",
                    f"total_episodes counts samples: {plan.total_steps} steps × {samples} "
                    f"samples per step = {plan.total_steps * samples}",
                    target_keys=["total_episodes"],
                )
        else:
            notes.warning(
                "run-length.not-expressible",
                "the source's run length depends on its dataset size; Open-Instruct needs total_episodes "
                "(samples) and loops over the data forever, so its default 100000 applies: set "
                "--total_episodes to steps × " + str(samples),
                target_keys=["total_episodes"],
            )

    # ------------------------------------------------------------ algorithm
    def algorithm(self) -> None:
        a, notes, out, version = self.spec.algorithm, self.notes, self.out, self.version
        estimator = a.advantage_estimator or "grpo"
        if self.kind == "ppo-gtrl":
            if estimator != "gae":
                notes.warning(
                    "algorithm.not-expressible",
                    f"open-instruct {version} has PPO only "
                    f"({self.program}: GAE with a value model); the source uses '{estimator}'",
                    source_keys=["algorithm.advantage_estimator"],
                )
        elif estimator not in ("grpo", "grpo_vectorized", "grpo_passk"):
            severity: Severity = "error" if estimator == "gae" else "warning"
            notes.add(
                severity,
                "algorithm.not-expressible",
                f"{self.program} computes group-normalised (GRPO) advantages; the source uses '{estimator}'"
                + (
                    ", which needs a value model (open-instruct ≤ 2025.10.20 has ppo_vllm_thread_ray_gtrl.py)"
                    if estimator == "gae"
                    else ""
                ),
                source_keys=["algorithm.advantage_estimator"],
            )
        if not self.gtrl:
            if a.advantage_normalization_scope == "batch":
                notes.warning(
                    "algorithm.not-expressible",
                    "grpo_fast normalises advantages within each group; the source normalises over the batch",
                    source_keys=["algorithm.advantage_normalization_scope"],
                )
            if self.has("advantage_normalization_type"):
                out["advantage_normalization_type"] = (
                    "centered" if a.advantage_std_normalization is False else "standard"
                )
            elif a.advantage_std_normalization is False:
                notes.warning(
                    "algorithm.not-expressible",
                    f"open-instruct {version} always divides advantages by "
                    f"the group std (advantage_normalization_type arrived on {ADVANTAGE_TYPE})",
                    target_keys=["advantage_normalization_type"],
                )
        self.kl()
        if self.has("clip_lower"):
            self.put("clip_lower", a.clip_ratio_low)
            self.put("clip_higher", a.clip_ratio_high if a.clip_ratio_high is not None else a.clip_ratio_low)
        else:
            self.put("cliprange", a.clip_ratio_low)
            if a.clip_ratio_high not in (None, a.clip_ratio_low):
                notes.warning(
                    "algorithm.not-expressible",
                    f"open-instruct {version} has one symmetric cliprange; clip_ratio_high {a.clip_ratio_high} is lost",
                    target_keys=["cliprange"],
                )
        if a.clip_ratio_dual is not None:
            notes.info(
                "algorithm.not-expressible",
                f"Open-Instruct has no dual-clip bound (the source's {a.clip_ratio_dual} is dropped)",
                source_keys=["algorithm.clip_ratio_dual"],
            )
        if a.entropy_coef:
            notes.warning(
                "algorithm.not-expressible",
                f"Open-Instruct has no entropy bonus (the source's {a.entropy_coef} is dropped)",
                source_keys=["algorithm.entropy_coef"],
            )
        if a.policy_loss not in (None, "vanilla"):
            if a.policy_loss == "cispo" and self.has("loss_fn"):
                out["loss_fn"] = "cispo"
            else:
                notes.warning(
                    "algorithm.not-expressible",
                    f"policy loss '{a.policy_loss}' has no Open-Instruct {version} loss_fn",
                    source_keys=["algorithm.policy_loss"],
                )
        self.loss()

    def kl(self) -> None:
        a, notes, out, version = self.spec.algorithm, self.notes, self.out, self.version
        placement = a.kl_placement or "none"
        where = "reward" if self.kind == "ppo-gtrl" else "loss"
        if placement not in ("none", where, "both"):
            notes.warning(
                "algorithm.not-expressible",
                f"{self.program} puts KL only in the {where}; the source's "
                f"in-{placement} KL (coefficient {a.kl_coef}) is dropped",
                source_keys=["algorithm.kl_placement"],
                target_keys=["beta"],
            )
        elif placement == "both":
            notes.warning(
                "algorithm.not-expressible",
                f"{self.program} puts KL only in the {where}; the source "
                f"also has it in the {'loss' if where == 'reward' else 'reward'}",
                source_keys=["algorithm.kl_placement"],
            )
        beta = a.kl_coef if placement in (where, "both") and a.kl_coef else 0.0
        out["beta"] = beta
        estimator = a.kl_estimator or "k3"
        index = KL_INDEX.get(estimator)
        if str(self.own_extras().get("kl_estimator")).lower() in ("3", "kl4") and self.kind != "ppo-gtrl":
            index = 3  # the source's ratio × d, which the canonical k1 only approximates
        if index is None:
            notes.warning(
                "algorithm.kl-estimator",
                f"KL estimator '{estimator}' has no Open-Instruct counterpart; k3 (expm1(-d) + d) is written",
                target_keys=["kl_estimator"],
            )
            index = 2
        if self.kind in ("fast", "olmo-core") and at_least(version, KL_RENUMBERED):
            out["kl_estimator"] = index
            if beta and self.spec.framework != NAME:
                notes.info(
                    "algorithm.kl-estimator",
                    f"kl_estimator {index} is {estimator} (0 = k1, 1 = k2, 2 = k3; 3 is ratio × d, not k3)",
                    target_keys=["kl_estimator"],
                )
        else:
            out["kl_estimator"] = f"kl{index + 1}"

    def loss(self) -> None:
        a, notes, out, version = self.spec.algorithm, self.notes, self.out, self.version
        aggregation = a.loss_aggregation or "token-mean"
        if self.gtrl or not at_least(version, GLOBAL_TOKEN_LOSS):
            scope = "micro_batch"
            written = "token-mean"
            if aggregation != "token-mean":
                notes.warning(
                    "algorithm.not-expressible",
                    f"open-instruct {version} {self.program} averages the loss "
                    f"over each micro-batch's tokens; the source's '{aggregation}' is not written",
                    source_keys=["algorithm.loss_aggregation"],
                )
        else:
            scope = "optimizer_step"
            if aggregation == "seq-mean-token-sum-norm":
                # Dr. GRPO divides by a constant, the maximum response length unless the source names its own.
                constant = self.own_extras().get("loss_denominator", self.spec.lengths.max_response_tokens or 256)
                out["loss_denominator"] = str(constant)
                written = aggregation
            else:
                out["loss_denominator"] = "token"
                written = "token-mean"
                if aggregation != "token-mean":
                    notes.warning(
                        "algorithm.not-expressible",
                        f"loss aggregation '{aggregation}' has no "
                        "Open-Instruct loss_denominator; 'token' (a token mean) is written",
                        target_keys=["loss_denominator"],
                    )
        if written == aggregation and a.loss_normalizer_scope and a.loss_normalizer_scope != scope:
            notes.warning(
                "algorithm.loss-normalizer-scope",
                f"the source normalises the loss over each {a.loss_normalizer_scope.replace('_', ' ')}; "
                f"open-instruct {version} normalises over each {scope.replace('_', ' ')}",
                target_keys=["loss_denominator"],
            )

    # ------------------------------------------------------------ the rest
    def write_non_plan_sections(self) -> None:
        s, notes, out = self.spec, self.notes, self.out
        if s.lengths.max_prompt_tokens is not None:
            out["max_prompt_token_length"] = s.lengths.max_prompt_tokens
            if s.framework != NAME:
                notes.info(
                    "lengths.prompt-filter",
                    f"max_prompt_token_length {s.lengths.max_prompt_tokens} drops "
                    "longer prompts instead of truncating them",
                    target_keys=["max_prompt_token_length"],
                )
        self.put("response_length", s.lengths.max_response_tokens)
        self.put("temperature", s.sampling.temperature)
        if s.sampling.top_p not in (None, 1.0):
            if self.has("vllm_top_p"):
                out["vllm_top_p"] = s.sampling.top_p
            else:
                notes.warning(
                    "sampling.not-expressible",
                    f"top_p {s.sampling.top_p} needs open-instruct 2025.06.02 or later (vllm_top_p)",
                    target_keys=["vllm_top_p"],
                )
        elif self.has("vllm_top_p"):
            out["vllm_top_p"] = 1.0
        if s.sampling.top_k is not None and s.sampling.top_k > 0:
            notes.warning(
                "sampling.not-expressible",
                f"Open-Instruct has no top-k flag; the source's top_k "
                f"{s.sampling.top_k} is dropped (vLLM samples from the full vocabulary)",
                source_keys=["sampling.top_k"],
            )
        self.optimizer()
        self.generation()
        self.asynchrony()
        _RunPartsWriter(self).write()
        if s.critic.enabled and self.kind == "ppo-gtrl":
            self.put("reward_model_path", s.critic.model)
            if s.critic.lr is not None and s.optimizer.lr is not None and s.critic.lr != s.optimizer.lr:
                notes.warning(
                    "algorithm.not-expressible",
                    f"the value model trains with the policy's learning rate "
                    f"{s.optimizer.lr}; the source's critic lr {s.critic.lr} is lost",
                    source_keys=["critic.lr"],
                    target_keys=["learning_rate"],
                )

    def optimizer(self) -> None:
        s, notes, out = self.spec, self.notes, self.out
        o = s.optimizer
        self.put("learning_rate", o.lr)
        if o.lr_schedule is not None:
            schedule = o.lr_schedule
            if schedule not in LR_SCHEDULES:
                # HF get_scheduler is called without scheduler kwargs: only the plain schedules work.
                schedule = "cosine" if "cosine" in schedule else "constant" if "constant" in schedule else "linear"
                notes.warning(
                    "optimizer.not-expressible",
                    f"lr schedule '{o.lr_schedule}' needs scheduler "
                    f"arguments Open-Instruct does not pass; '{schedule}' is written",
                    source_keys=["optimizer.lr_schedule"],
                    target_keys=["lr_scheduler_type"],
                )
            out["lr_scheduler_type"] = schedule
        steps = o.warmup_steps
        if steps is not None and o.warmup_unit == "steps":
            per_step = s.plan.optimizer_steps_per_step or 1
            steps = math.ceil(steps * per_step)
            notes.info(
                "units.warmup",
                f"warmup of {o.warmup_steps} rollout steps = {steps} optimizer steps; "
                "Open-Instruct counts warmup in scheduler (optimizer) steps",
                target_keys=["warm_up_steps"],
            )
        ratio_bug = self.gtrl and not at_least(self.version, WARMUP_RATIO_FIX)
        if steps and self.has("warm_up_steps") and not ratio_bug:
            out["warm_up_steps"], out["warmup_ratio"] = steps, 0.0
        elif steps:
            total = (s.plan.total_steps or 0) * (s.plan.optimizer_steps_per_step or 1)
            if total:
                out["warmup_ratio"] = round(steps / total, 6)
                notes.info(
                    "units.warmup",
                    f"warm-up of {steps} optimizer steps = warmup_ratio {out['warmup_ratio']} "
                    f"of {fmt(total)} scheduler steps"
                    + (" (warm_up_steps is ignored by this version)" if ratio_bug else ""),
                    target_keys=["warmup_ratio"],
                )
            else:
                notes.warning(
                    "optimizer.not-expressible",
                    f"a warm-up of {steps} optimizer steps needs "
                    "warm_up_steps (gone since 2026-04-02) or a known run length for warmup_ratio",
                    target_keys=["warmup_ratio"],
                )
        else:
            out["warmup_ratio"] = o.warmup_ratio or 0.0
        if self.gtrl:
            if o.weight_decay not in (None, 0.01):
                notes.warning(
                    "optimizer.not-expressible",
                    f"the gtrl scripts use torch's AdamW default weight_decay "
                    f"0.01; the source's {o.weight_decay} is lost",
                    source_keys=["optimizer.weight_decay"],
                )
        else:
            self.put("weight_decay", o.weight_decay)
        if self.has("max_grad_norm"):
            self.put("max_grad_norm", o.grad_clip)
        elif o.grad_clip not in (None, 1.0):
            notes.warning(
                "optimizer.not-expressible",
                f"open-instruct {self.version} clips gradients at 1.0 (hard-coded); the source's {o.grad_clip} is lost",
                source_keys=["optimizer.grad_clip"],
            )

    def generation(self) -> None:
        g, notes, out = self.spec.generation, self.notes, self.out
        if self.gtrl:
            if g.filter_groups:
                notes.warning(
                    "generation.not-expressible",
                    "the gtrl scripts do not filter groups",
                    source_keys=["generation.filter_groups"],
                )
            return
        group = self.out["num_samples_per_prompt_rollout"]
        filtering = bool(g.filter_groups) and group > 1
        if g.filter_groups and group == 1:
            notes.warning(
                "generation.not-expressible",
                "zero-std filtering with one sample per prompt would drop "
                "every group; filter_zero_std_samples False is written",
                target_keys=["filter_zero_std_samples"],
            )
        if self.has("filter_zero_std_samples"):
            out["filter_zero_std_samples"] = filtering
            out["active_sampling"] = filtering and g.max_rounds_per_step == 0
        elif not filtering and at_least(self.version, ZERO_STD_FILTER):
            notes.warning(
                "generation.not-expressible",
                f"open-instruct {self.version} always drops zero-std groups",
                target_keys=["filter_zero_std_samples"],
            )
        elif filtering and not at_least(self.version, ZERO_STD_FILTER):
            notes.warning(
                "generation.not-expressible",
                f"open-instruct {self.version} does not filter groups",
                source_keys=["generation.filter_groups"],
            )
        if g.prompts_per_round is not None:
            notes.warning(
                "generation.not-expressible",
                f"{g.prompts_per_round} prompts per generation round "
                "(over-sampling) has no Open-Instruct flag; active_sampling refills instead",
                source_keys=["generation.prompts_per_round"],
            )

    def asynchrony(self) -> None:
        ahead, notes, out = self.spec.asynchrony.max_steps_ahead, self.notes, self.out
        if self.has("async_steps"):
            steps = ahead if ahead is not None else 1
            if out.get("active_sampling") and steps < 2:
                steps = 2
                notes.warning(
                    "asynchrony.changed",
                    "active_sampling needs async_steps > 1 (Open-Instruct asserts "
                    f"it); async_steps 2 is written instead of {ahead}",
                    target_keys=["async_steps"],
                )
            elif steps < 1 and at_least(self.version, SYNC_REJECTED):
                steps = 1
                notes.warning(
                    "asynchrony.not-expressible",
                    "Open-Instruct does not support fully synchronous "
                    "training since 2025-11-21: async_steps 1 (generation one step ahead) is written",
                    target_keys=["async_steps"],
                )
            out["async_steps"] = steps
            if self.has("inflight_updates"):
                # Weight swaps during generation have no counterpart elsewhere; keep the source's own choice.
                out["inflight_updates"] = self.own_setting("inflight_updates", False)
        else:
            out["async_mode"] = bool(ahead)
            if ahead and ahead > 1:
                notes.warning(
                    "asynchrony.not-expressible",
                    f"async_mode runs one step ahead; the source's {ahead}-step asynchrony is not expressible",
                    target_keys=["async_mode"],
                )

    def own_extras(self) -> dict[str, Any]:
        return {e.key: e.value for e in self.spec.extras if e.framework == NAME}

    def own_setting(self, key: str, otherwise: Any) -> Any:
        """An Open-Instruct source's own value of a key rlconf carries natively (its flag, else the source
        version's default); ``otherwise`` for other frameworks."""
        extras = self.own_extras()
        if key in extras:
            return extras[key]
        if self.spec.framework == NAME and self.spec.version:
            return defaults_for("fast", self.spec.version).get(key, otherwise)
        return otherwise

    def extras(self) -> None:
        foreign, stale = [], []
        for extra in self.spec.extras:
            if extra.framework != NAME:
                foreign.append(extra)
                continue
            key = extra.key
            if not self.has(key) and KEY_RENAMES.get(key) and self.has(KEY_RENAMES[key]):
                key = KEY_RENAMES[key]
            if self.has(key):
                self.out.setdefault(key, extra.value)
            else:
                stale.append(extra.key)
        if foreign:
            self.notes.info(
                "keys.not-translated",
                not_written(foreign[0].framework, [e.key for e in foreign], "Open-Instruct"),
                source_keys=[e.key for e in foreign],
            )
        if stale:
            self.notes.info(
                "keys.not-translated",
                f"{len(stale)} Open-Instruct flag(s) of the source do not exist in {self.program} "
                f"{self.version} and are not written: " + ", ".join(stale[:12]) + (" …" if len(stale) > 12 else ""),
                source_keys=stale,
            )


def _amount_text(weight: float) -> str:
    """A mixer amount: a count of prompts is written without a ".", a fraction with one."""
    return str(int(weight)) if weight > 1 and float(weight).is_integer() else repr(float(weight))


class _RunPartsWriter:
    """Reward, data, checkpoints, evaluation, logging and placement → Open-Instruct flags."""

    def __init__(self, writer: _Writer) -> None:
        self.w, self.spec, self.notes, self.out = writer, writer.spec, writer.notes, writer.out
        self.foreign = writer.spec.framework != NAME

    def write(self) -> None:
        self.data()
        self.reward()
        self.checkpointing()
        self.evaluation()
        self.logging()
        w = self.w
        write_settings(self.spec, SETTINGS, f"{w.program} {w.version}", w.has, w.put, self.notes)
        self.placement()

    def mixer(
        self,
        sources: list[str],
        weights: list[float] | None,
        list_key: str,
        dict_key: str,
        split_key: str,
        split: str | None,
    ) -> None:
        w, notes = self.w, self.notes
        if weights is not None and len(weights) != len(sources):
            notes.warning(
                "data.not-expressible",
                f"{len(weights)} mixture weights for {len(sources)} datasets; every dataset is written whole (1.0)",
                target_keys=[list_key],
            )
            weights = None
        amounts = weights or [1.0] * len(sources)
        if w.has(list_key):
            self.out[list_key] = [
                x for name, amount in zip(sources, amounts, strict=False) for x in (name, _amount_text(amount))
            ]
            if split and w.has(split_key):
                self.out[split_key] = [split]
        elif w.has(dict_key):
            self.out[dict_key] = json.dumps(dict(zip(sources, amounts, strict=False)))
            old_split_key = "dataset_train_splits" if dict_key == "dataset_mixer" else "dataset_eval_splits"
            if split and w.has(old_split_key):
                self.out[old_split_key] = [split]
            elif split and split != "train":
                notes.warning(
                    "data.not-expressible",
                    f"split {split!r}: {self.w.program} {self.w.version} reads the train split only",
                    target_keys=[dict_key],
                )
        else:
            notes.warning(
                "data.not-expressible",
                f"{self.w.program} {self.w.version} has no {list_key}; set the datasets by hand",
                target_keys=[list_key],
            )
        local = [
            name
            for name in sources
            if name.startswith((".", "/", "~")) or name.endswith((".json", ".jsonl", ".parquet"))
        ]
        if local and self.foreign:
            notes.info(
                "data.local-files",
                f"{', '.join(local)}: Open-Instruct loads a local file or directory by "
                f"path only when its rows carry the {self.spec.data.prompt_key or 'messages'!r} (a chat list), "
                f"{self.spec.data.answer_key or 'ground_truth'!r} and 'dataset' (the verifier's name) columns the "
                "launch line makes its transforms read (dataset_transformation.py rlvr_tokenize_v1)",
                target_keys=[list_key],
            )

    def data(self) -> None:
        d, w, notes = self.spec.data, self.w, self.notes
        if d.train_sources:
            self.mixer(
                d.train_sources,
                d.train_weights,
                "dataset_mixer_list",
                "dataset_mixer",
                "dataset_mixer_list_splits",
                d.train_split,
            )
        if d.max_train_prompts is not None:
            notes.warning(
                "run-length.not-expressible",
                f"max_train_prompts {d.max_train_prompts}: Open-Instruct "
                "caps prompts per dataset in dataset_mixer_list (a count instead of 1.0), not in total; "
                "the run length is total_episodes",
                target_keys=["dataset_mixer_list"],
            )
        if d.eval_sources:
            weights = None
            if d.max_eval_prompts is not None and len(d.eval_sources) == 1:
                weights = [float(d.max_eval_prompts)]
            self.mixer(
                d.eval_sources,
                weights,
                "dataset_mixer_eval_list",
                "dataset_eval_mixer",
                "dataset_mixer_eval_list_splits",
                d.eval_split,
            )
        # The columns Open-Instruct reads are the source's own, by name: its answer column, and its prompt column
        # where it is not Open-Instruct's default, messages (dataset_transformation.py@e6c3044aa TokenizerConfig,
        # rlvr_tokenize_v1; verl's default column is prompt).
        if d.answer_key is not None and w.has("ground_truths_key"):
            self.out["ground_truths_key"] = d.answer_key
        if d.prompt_key is not None:
            default = RUN_PART_DEFAULTS["fast"]["sft_messages_key"]
            if w.has("sft_messages_key") and (not self.foreign or d.prompt_key != default):
                self.out["sft_messages_key"] = d.prompt_key
            from translator.dialects import registry

            entry = registry.lookup(self.spec.framework) if self.foreign else None
            loader = entry.data_loader if entry else None
            if self.foreign and (loader is None or loader.prompt_kind != "chat"):  # a chat list already fits
                notes.info(
                    "data.prompt-format",
                    f"prompt column {d.prompt_key!r}: Open-Instruct's RLVR transforms "
                    "read a chat list from sft_messages_key, not a plain-text prompt",
                    target_keys=["sft_messages_key"],
                )

    def reward(self) -> None:
        rw, w, notes = self.spec.reward, self.w, self.notes
        builtin = rw.builtin or []
        known = {BUILTIN_VERIFIABLE, BUILTIN_R1_FORMAT}
        verifiable = BUILTIN_VERIFIABLE in builtin or (self.foreign and bool(rw.function_path or builtin))
        self.out["apply_verifiable_reward"] = verifiable
        if BUILTIN_R1_FORMAT in builtin and w.has("apply_r1_style_format_reward"):
            self.out["apply_r1_style_format_reward"] = True
        other = [name for name in builtin if name not in known]
        if other:
            notes.warning(
                "reward.not-expressible",
                f"built-in reward(s) {', '.join(other)} have no Open-Instruct "
                "counterpart; its verifiers are chosen per row by the `dataset` column (gsm8k, math, "
                "ifeval, code, llm-judge ...): label the rows with the nearest verifier",
                target_keys=["apply_verifiable_reward"],
            )
        if rw.function_path:
            notes.warning(
                "reward.not-expressible",
                f"reward function {rw.function_path}"
                f"{':' + rw.function_name if rw.function_name else ''} cannot be hooked into "
                "Open-Instruct: its rewards are the built-in verifiers of ground_truth_utils.py, chosen "
                "by each row's `dataset` column. Add a VerifierFunction subclass there (its "
                "__call__(tokenized_prediction, prediction, label, query) returns a VerificationResult) "
                "and name it in the `dataset` column",
                target_keys=["apply_verifiable_reward"],
            )
        if rw.model:
            if self.w.kind == "ppo-gtrl":
                self.out["reward_model_path"] = rw.model
                self.out["reward_model_multiplier"] = 1.0
            else:
                notes.warning(
                    "reward.not-expressible",
                    f"reward model {rw.model}: {self.w.program} scores with "
                    "verifiers only; the reward model is dropped",
                    target_keys=["apply_verifiable_reward"],
                )
        elif self.w.kind == "ppo-gtrl":
            self.out["reward_model_multiplier"] = 0.0  # rule-based rewards only, as in the Tulu 3 RLVR runs
            self.out["apply_verifiable_reward"] = True
        if rw.remote_url:
            notes.warning(
                "reward.not-expressible",
                f"remote reward {rw.remote_url}: Open-Instruct has no reward "
                "server flag; wrap the call in a verifier of ground_truth_utils.py",
                target_keys=["apply_verifiable_reward"],
            )
        if self.foreign and not (builtin or rw.function_path or rw.model or rw.remote_url):
            notes.warning(
                "reward.missing",
                "the source names no reward; apply_verifiable_reward (Open-Instruct's "
                "verifiers chosen by each row's `dataset` column) is written: check that your data has "
                "`dataset` and `ground_truth` columns",
                target_keys=["apply_verifiable_reward"],
            )
            self.out["apply_verifiable_reward"] = True
        if (
            self.foreign
            and w.kind in ("fast", "olmo-core")
            and not (self.out.get("apply_verifiable_reward") or self.out.get("apply_r1_style_format_reward"))
        ):
            # StreamingDataLoaderConfig.__post_init__ (data_loader.py@e6c3044aa; grpo_fast.py's Args before
            # 2026.01.26) asserts a reward: the written line would stop before the first step.
            notes.error(
                "reward.missing",
                f"no reward the source names can be written, so none is applied: "
                f'{w.program} asserts "At least one reward must be applied!" at start-up; label the rows '
                "with a verifier in the `dataset` column (and a `ground_truth` column) and pass "
                "--apply_verifiable_reward True",
                target_keys=["apply_verifiable_reward"],
            )

    def checkpointing(self) -> None:
        c, w, notes, out = self.spec.checkpointing, self.w, self.notes, self.out
        if c.every_steps is not None:
            out["save_freq"] = c.every_steps if c.every_steps > 0 else -1
        elif self.foreign:
            notes.info(
                "checkpointing.default",
                "the source sets no checkpoint cadence; Open-Instruct's default "
                f"save_freq {RUN_PART_DEFAULTS['gtrl' if w.gtrl else 'fast'].get('save_freq')} applies",
                target_keys=["save_freq"],
            )
        if c.directory:
            key = "output_dir" if w.has("output_dir") else "checkpoint_output_dir"
            out[key] = c.directory
        if c.keep_last is not None:
            if w.has("keep_last_n_checkpoints"):
                out["keep_last_n_checkpoints"] = c.keep_last
            else:
                notes.warning(
                    "checkpointing.not-expressible",
                    f"keep_last {c.keep_last}: {w.program} {w.version} keeps every checkpoint",
                    target_keys=["save_freq"],
                )
        if c.resume and c.resume != "never":
            if w.has("checkpoint_state_dir") and c.every_steps and c.every_steps > 0:
                own = self.w.own_extras()  # an Open-Instruct source's own state directory and cadence win
                directory = c.resume if c.resume != "auto" else posixpath.join(c.directory or "output", "state")
                out["checkpoint_state_dir"] = own.get("checkpoint_state_dir", directory)
                out["checkpoint_state_freq"] = own.get("checkpoint_state_freq", c.every_steps)
            elif self.foreign:
                notes.warning(
                    "checkpointing.not-expressible",
                    f"resume {c.resume!r}: {w.program} {w.version} cannot resume from a saved state"
                    if not w.has("checkpoint_state_dir")
                    else f"resume {c.resume!r} needs a positive checkpoint cadence (checkpoint_state_freq)",
                    target_keys=["checkpoint_state_dir"],
                )
        if self.foreign and c.hf_format is False:
            notes.info(
                "checkpointing.hf-format",
                "Open-Instruct's save_freq checkpoints are Hugging Face model folders",
                target_keys=["save_freq"],
            )

    def evaluation(self) -> None:
        e, w, notes, out = self.spec.evaluation, self.w, self.notes, self.out
        if e.every_steps is not None and e.every_steps > 0:
            if not self.spec.data.eval_sources:
                notes.warning(
                    "evaluation.not-expressible",
                    f"evaluation every {e.every_steps} steps needs an eval dataset: add --dataset_mixer_eval_list",
                    target_keys=["dataset_mixer_eval_list"],
                )
            if w.has("local_eval_every"):
                out["local_eval_every"] = e.every_steps
            elif w.has("num_evals"):
                steps = self.spec.plan.total_steps
                if steps:
                    evals = max(1, steps // e.every_steps)
                    out["num_evals"] = evals
                    if max(1, steps // evals) != e.every_steps:
                        notes.warning(
                            "evaluation.not-expressible",
                            f"evaluation every {e.every_steps} steps: "
                            f"num_evals {evals} evaluates every max(1, {steps} // {evals}) = "
                            f"{max(1, steps // evals)} steps",
                            target_keys=["num_evals"],
                        )
        elif e.every_steps == 0 and w.has("local_eval_every") and self.spec.data.eval_sources:
            out["local_eval_every"] = -1
        # Args.__post_init__ refuses eval_on_step_0 unless local_eval_every > 0 (default 100; grpo_utils.py@e6c3044aa)
        periodic = out.get("local_eval_every", 100) > 0
        if e.before_training and w.has("eval_on_step_0") and periodic:
            out["eval_on_step_0"] = True
        elif e.before_training and w.has("eval_on_step_0"):
            notes.warning(
                "evaluation.not-expressible",
                f"evaluation before training alone has no flag in "
                f"{w.program}: eval_on_step_0 needs local_eval_every > 0, and the source evaluates at no "
                "other step",
                source_keys=["evaluation.before_training"],
                target_keys=["eval_on_step_0", "local_eval_every"],
            )
        elif e.before_training and self.foreign:
            notes.warning(
                "evaluation.not-expressible",
                f"evaluation before training has no flag in {w.program} {w.version} (eval_on_step_0 from 2025.10.20)",
                source_keys=["evaluation.before_training"],
                target_keys=["local_eval_every"],
            )

    def logging(self) -> None:
        lg, w, out = self.spec.logging, self.w, self.out
        backends = lg.backends or []
        if "wandb" in backends:
            out["with_tracking"] = True
        other = [b for b in backends if b not in ("wandb", "console")]
        if other and self.foreign:
            self.notes.warning(
                "logging.not-expressible",
                f"logging to {', '.join(other)}: Open-Instruct logs to Weights & Biases only (--with_tracking)",
                target_keys=["with_tracking"],
            )
        if lg.project:
            key = "wandb_project" if w.has("wandb_project") else "wandb_project_name"
            if w.has(key):
                out[key] = lg.project
        if lg.run_name:
            out["exp_name"] = lg.run_name

    def placement(self) -> None:
        t, w, out = self.spec.topology, self.w, self.out
        if t.rollout_gpu_memory_fraction is not None and w.has("vllm_gpu_memory_utilization"):
            out["vllm_gpu_memory_utilization"] = t.rollout_gpu_memory_fraction


def _accepts(own: ArgumentFields, key: str) -> bool:
    """Whether the copy's parser takes ``--key``: a field, ``--no_field`` (HfArgumentParser's negation of a
    boolean field), or a prefix of just one field (argparse expands abbreviations)."""
    if key in own.fields or (key.startswith("no_") and key[3:] in own.fields):
        return True
    return len([f for f in own.fields if f.startswith(key)]) == 1


def _refuse_foreign_flags(native: NativeOI, own: ArgumentFields) -> None:
    """A flag that no field of the copy's argument dataclasses takes stops the launch: HfArgumentParser raises
    "Some specified arguments are not used by the HfArgumentParser" (parse_args_into_dataclasses)."""
    foreign = [key for key in native.values if not _accepts(own, key)]
    if not foreign:
        return
    where = f"{os.path.basename(own.path)}:{own.line}"
    shown = ", ".join(f"--{key}" for key in foreign[:6]) + (f" and {len(foreign) - 6} more" if len(foreign) > 6 else "")
    origin = native.origins.get(foreign[0], "")
    file, _, line = origin.rpartition(":")
    raise ConfigError(
        f"{shown} {'is not a flag' if len(foreign) == 1 else 'are not flags'} of the launched program: no field of "
        f"the dataclasses its parser is given ({', '.join(own.classes)}, {where}) takes "
        f"{'it' if len(foreign) == 1 else 'them'}, so HfArgumentParser stops with 'Some specified arguments are "
        "not used by the HfArgumentParser'",
        file=file if line.isdigit() else origin or None,
        line=int(line) if line.isdigit() else None,
        hint="remove or rename the flag(s) to fields the program defines",
    )
