"""EasyR1: ``python3 -m verl.trainer.main config=BASE.yaml key=value ...`` launch scripts and their YAML configs.

Semantics (docs/frameworks/easyr1.md, with the EasyR1 source file of each claim): ``data.rollout_batch_size`` and
``worker.actor.global_batch_size`` count prompts (the worker multiplies the latter by ``rollout.n`` and splits it over
world ÷ Ulysses data-parallel ranks); the micro sizes count samples per data-parallel rank, or, with dynamic batching
(on by default since 0.3.2), multiply the padded sequence width into a token budget. Values merge as dataclass defaults
← base YAML (``config=``) ← dotlist overrides (OmegaConf, no Hydra). EasyR1 shares the ``verl`` module name with
upstream verl; the launcher (``verl.trainer.main`` with ``config=``) and the key tree (``worker.actor...``,
``data.rollout_batch_size``) tell them apart.
"""

from __future__ import annotations

import math
import os
import posixpath
import re
from fractions import Fraction
from functools import lru_cache
from typing import Any

import yaml

from translator.checks.findings import divisors
from translator.concordance import not_written
from translator.dialects.base import (
    Dialect,
    Reading,
    ReadOptions,
    Values,
    at_least,
    closest_key,
    describe_mini_batch_plan,
    entity_from_environment,
    exported,
    fmt,
    from_config,
    newer_than,
    note_launch,
    read_script,
    real,
    require_resolved,
    sibling_in_project,
    track_provenance,
)
from translator.dialects.settings import read_settings, write_settings
from translator.dialects.sniff import program_arguments
from translator.dialects.writing import (
    env_assignment,
    omegaconf_values,
    plan_summary,
    source_label,
    step_growth,
    whole_prompts,
    written_cadence,
)
from translator.errors import ConfigError
from translator.frameworks.easyr1.tables import (
    ACTOR,
    ALWAYS,
    AUTO_KEYS,
    CHANGES,
    COMPUTE_SCORES,
    CRITIC,
    DEFAULTS,
    DICT_FIELDS,
    ENTRY_MODULE,
    ESTIMATORS,
    FEB,
    GROUP_ESTIMATORS,
    KEY_RANGE,
    KL_ESTIMATOR_NAMES,
    KL_ESTIMATORS,
    LOGGERS,
    LOSS_AVG_MODES,
    LOSS_TYPES,
    MARCH,
    RENAMES,
    REWARD_EXAMPLES,
    REWARD_SIGNATURES,
    ROLLOUT,
    SETTINGS,
    STD_NORMALISED,
    VAL_OVERRIDE,
    VALUES,
    VERSIONS,
)
from translator.native_schemas import lacks
from translator.notes import NoteList
from translator.plan import Derivation, Extra, RunSpec
from translator.sources.code import in_run_dir
from translator.sources.files import Source, flatten, load_yaml_mapping, refuse_alias_bomb
from translator.sources.hydra import UNRESOLVED, resolve_interpolations, scalar
from translator.sources.shell import program_index, symbolic_names, unwrap_command

_KEY = re.compile(r"^[A-Za-z_][\w-]*(\.[\w-]+)*$")


class NativeEasyR1:
    """What an EasyR1 config says before interpretation: merged dotted key → value, and where each came from."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.origins: dict[str, str] = {}  # key → "file:line"
        self.base: str | None = None  # the config= YAML, as named on the launch line
        self.launch: tuple[str, str | None] | None = None  # the launched module or script, and its cwd
        self.fork_entry = False  # launched through a module or script that is not EasyR1's own
        self.wandb_entity: str | None = None  # WANDB_ENTITY as the launch sees it (EasyR1 has no config key)
        self.unknown_words: list[str] = []  # launch words whose value is not known: they may hold any override
        self.override_keys: list[str] = []  # the keys the launch's own key=value words set
        # keys the config file leaves null: merged into the structured config before the command line is
        self.file_nulls: dict[str, str] = {}

    def set(self, key: str, value: Any, origin: str) -> None:
        # A mapping replaces nothing wholesale: OmegaConf merges it key by key, as flattening does.
        if isinstance(value, dict) and value:
            for sub, item in flatten(value, key + ".").items():
                self.values[sub] = item
                self.origins[sub] = origin
            return
        self.values[key] = value
        self.origins[key] = origin

    def merge_yaml(self, source: Source) -> None:
        data = load_yaml_mapping(source)
        lines = _yaml_lines(source.text)
        for key, value in flatten(data).items():
            line = lines.get(key)
            self.values[key] = value
            self.origins[key] = f"{source.name}:{line}" if line else source.name
            if value is None:
                self.file_nulls[key] = self.origins[key]


class EasyR1Dialect(Dialect):
    name = "easyr1"
    aliases = ("hiyouga/easyr1", "easy-r1")
    versions = VERSIONS
    plan_bands = ("0.3.0", "0.3.1", "0.3.2")  # where its plan arithmetic branches
    changes = CHANGES
    # OmegaConf.merge into the structured PPOConfig raises ConfigKeyError on a key the dataclasses lack.
    rejects_unknown_keys = True
    # StatefulDataLoader(batch_size=rollout_batch_size, drop_last=True) (verl/trainer/data_loader.py:60-66@b44b311)
    steps_per_pass_from_rows = True
    # A copy of EasyR1 kept in the project states its release in its package (verl/__init__.py __version__, bumped
    # at each release tag: "0.3.0" from v0.3.0 until v0.3.1, then "0.3.2.dev0" until v0.3.2); verl/trainer beside
    # it tells EasyR1's package from another named verl.
    version_files = (("verl/__init__.py", "verl/trainer"),)

    copy_package = "verl"

    def keys_in(self, version: str) -> set[str] | None:
        return {key for key in all_keys() if valid_in(key, version)}

    def copy_keys(self, copy_dir: str) -> set[str] | None:
        from translator.frameworks.easyr1.copy_schema import declared_keys

        return declared_keys(os.path.join(copy_dir, self.copy_package))

    copy_refusal = "ConfigKeyError from its structured config"
    copy_declares = "config dataclasses"

    def null_in_copy(self, folder: str, key: str) -> str | None:
        """The type the project's copy declares ``key`` with, for a key its config file leaves null, where that
        type takes no None (``enable: bool``): OmegaConf's merge of the file into the structured config, before the
        command line's, stops (ValidationError "Incompatible value 'None' for field of type 'bool'")."""
        from translator.frameworks.easyr1.copy_schema import field_type

        declared = field_type(folder, key)
        return declared if declared in ("bool", "int", "float", "str") else None

    def missing_in_copy(self, folder: str, key: str, native: object) -> str | None:
        """The first part of ``key`` the project's copy (its package ``folder``) declares in no config dataclass
        (translator/frameworks/easyr1/copy_schema.py); None where it is declared or cannot be judged."""
        from translator.frameworks.easyr1.copy_schema import missing_part

        return missing_part(folder, key)

    description = "EasyR1 (python3 -m verl.trainer.main config=BASE.yaml key=value ..., or its YAML config)"

    def resolve_version(self, version: str | None) -> str:
        # '0.3.3' is only a development head here ('0.3.3.dev0'); '0.2.0' alone is ambiguous between two bands.
        if version:
            prefixed = [v for v in self.versions if v.startswith(version.removeprefix("v") + ".")]
            if len(prefixed) == 1:
                return prefixed[0]
        return super().resolve_version(version)

    # ---------------------------------------------------------------- reading
    def read(self, source: Source, options: ReadOptions) -> Reading:
        notes = NoteList()
        native = NativeEasyR1()
        if source.suffix in (".yaml", ".yml"):
            native.merge_yaml(source)
        else:
            self._collect_script(source, options, native, notes)
            if native.launch is not None and native.fork_entry:
                from translator.dialects import forkbatch

                forkbatch.apply_entry_overrides(
                    self.name, source, native.launch, all_keys(), native.values, native.origins, notes
                )
        version = self._version(native, options.version, notes)
        defaults = self._copy_defaults(source, native, defaults_for(version), notes)
        # OmegaConf resolves ${a.b} (and ${oc.env:NAME}) when the config becomes the PPOConfig dataclass.
        for key, value in list(native.values.items()):
            native.values[key] = resolve_interpolations(
                value, lambda ref: native.values.get(ref, defaults.get(ref, UNRESOLVED)), options.env
            )
        values = Values(native.values, native.origins, defaults, source.name)
        values.file_nulls = native.file_nulls
        spec = RunSpec(framework=self.name, version=version)
        with track_provenance(spec, values):
            _Interpreter(values, version, spec, notes).run()
        entity_from_environment(spec, native.wandb_entity)
        if native.unknown_words:
            from translator.dialects.forkbatch import unknown_launch_words

            unknown_launch_words(spec, notes, native.unknown_words, native.override_keys)
        copy = self._copy_package(source, native)
        declared = self.copy_keys(os.path.dirname(copy[0])) if copy else None
        _refuse_missing_files(source, values, spec, version, notes, declared)
        self._account(values, version, spec, notes)
        if native.launch is not None and native.launch[0]:
            from translator.dialects import forkbatch

            assumed = any(n.code == "version.assumed" for n in notes)
            # EasyR1's trainer is not verl's RayPPOTrainer: only the keys are compared here, not the fit
            unused = values.unused()
            forkbatch.check(
                source,
                native.launch[1],
                native.launch[0],
                unused,
                lambda key: not known_anywhere(key),
                forkbatch.suffixes(all_keys()),
                version,
                assumed,
                False,
                spec,
                notes,
                lineage="easyr1",
                # the copy's own defaults decide its branches where the launch leaves a key (filter_mode: "default")
                launch_values={**self._copy_declared(source, native), **native.values},
            )
        return Reading(spec, notes, values)

    @staticmethod
    def _copy_package(source: Source, native: NativeEasyR1) -> tuple[str, str] | None:
        """(the package folder, as the project names it) of the project's copy of EasyR1 the launched entry is in;
        None when the entry is not in one."""
        if native.launch is None or not native.launch[0].startswith("verl."):
            return None
        from translator.dialects import forkbatch

        found = forkbatch.locate(source, native.launch[1], native.launch[0])
        marker = os.sep + "verl" + os.sep
        if found is None or marker not in found[1]:
            return None
        package = found[1][: found[1].rindex(marker) + len(marker) - 1]
        return package, found[0].rel(package)

    def _copy_declared(self, source: Source, native: NativeEasyR1) -> dict[str, Any]:
        """Every literal default the copy's config classes give (its own keys too); {} without a copy."""
        from translator.frameworks.easyr1.copy_schema import declared_defaults

        copy = self._copy_package(source, native)
        return declared_defaults(copy[0]) if copy is not None else {}

    def _copy_defaults(
        self, source: Source, native: NativeEasyR1, defaults: dict[str, Any], notes: NoteList
    ) -> dict[str, Any]:
        """When the launched entry is the project's copy of EasyR1, the defaults its config dataclasses set
        otherwise than the release's (a fork's ``ppo_epochs: int = 2``) are the ones the run uses."""
        from translator.dialects import forkbatch
        from translator.frameworks.easyr1.checks import EXTRA_DEFAULTS
        from translator.frameworks.easyr1.copy_schema import declared_defaults

        copy = self._copy_package(source, native)
        if copy is None:
            return defaults
        what = "the config classes of the project's copy of EasyR1"
        # the checks' own defaults (max_num_batched_tokens) count too, where the copy changes them
        merged = forkbatch.copy_defaults(
            declared_defaults(copy[0]), {**EXTRA_DEFAULTS, **defaults}, native.values, what, copy[1], notes
        )
        return {key: value for key, value in merged.items() if key in defaults or value != EXTRA_DEFAULTS[key]}

    def _collect_script(self, source: Source, options: ReadOptions, native: NativeEasyR1, notes: NoteList) -> None:
        script = read_script(source, options.env, notes)
        found = None
        launches = [c for c in script.commands if _entry_index(unwrap_command(c.argv)) is not None]
        for command in launches[:1]:
            argv = unwrap_command(command.argv)
            start = _entry_index(argv)
            if start is not None:
                found = command, argv[start:]
                note_launch(notes, source, command, launches)
        if found is None:
            raise ConfigError(
                "no EasyR1 launch command found",
                file=source.name,
                hint="expected a line like 'python3 -m verl.trainer.main config=examples/config.yaml key=value ...'",
            )
        command, words = found
        require_resolved(command, source)
        # verl/utils/logger/logger.py@b44b311 calls wandb.init without an entity: wandb takes WANDB_ENTITY.
        native.wandb_entity = exported(script, command, "WANDB_ENTITY")
        origin = f"{source.name}:{command.line}"
        entry = unwrap_command(command.argv)[-len(words) - 1] if words else ""
        from translator.dialects.forkbatch import installed_copy

        native.launch = (
            entry,
            installed_copy(source, command.cwd, entry, options.copy_dir, exported(script, command, "PYTHONPATH")),
        )
        if entry != ENTRY_MODULE and not entry.endswith("verl/trainer/main.py"):
            native.fork_entry = True
            notes.warning(
                "framework.fork",
                f"{origin}: '{entry}' is not EasyR1's own entry point; it is read with "
                f"{ENTRY_MODULE}'s semantics, and keys it adds are reported as unknown to EasyR1",
            )
        overrides: list[tuple[str, Any]] = []
        for word in words:
            key, eq, text = word.partition("=")
            if not eq and not native.fork_entry and word.split(".")[0] not in _CONFIG_CLASSES and "$" not in word:
                # OmegaConf.from_cli reads a word without '=' as a key with no value (merge_with_dotlist), and
                # merging that into the structured PPOConfig stops (checked with omegaconf 2.3.0)
                raise ConfigError(
                    f"'{word}' is not a key=value override: EasyR1's OmegaConf.from_cli reads it as a key, and "
                    f"merging it into PPOConfig stops at start-up (ConfigKeyError: {key_error(word)})",
                    file=source.name,
                    line=command.line,
                    hint="remove the word (a space after a line-ending backslash ends the command there: "
                    "delete the space)"
                    if not word.strip()
                    else "remove the word, or write it as key=value",
                )
            if not eq and symbolic_names(word):
                native.unknown_words.append(word)  # an unset variable, a branch-dependent command: any override
                continue
            if not eq or not _KEY.match(key):
                notes.warning(
                    "keys.unrecognised-argument",
                    f"{origin}: '{word}' is not a key=value override; ignored",
                    source_keys=[word],
                )
                continue
            if key == "config":
                native.base = in_run_dir(text, command.cwd)  # OmegaConf.from_cli pops `config`; the last one wins
                continue
            overrides.append((key, _dotlist_value(text)))
        if native.base:
            # Resolved relative to the script, then the working directory (EasyR1 runs from its repo root).
            native.merge_yaml(sibling_in_project(source, native.base, "base config (config=)"))
        else:
            notes.info(
                "input.no-base-config",
                "the launch line names no config= YAML, so every key it does not "
                "override keeps EasyR1's dataclass default (not examples/config.yaml's values)",
            )
        for key, value in overrides:
            native.set(key, value, origin)
            native.override_keys.append(key)

    def _version(self, native: NativeEasyR1, explicit: str | None, notes: NoteList) -> str:
        """The band whose schema accepts the most of the config's keys (ties: the newest)."""
        if explicit:
            return self.resolve_version(explicit)
        keys = [k for k in native.values if known_anywhere(k)]
        scores = {version: sum(valid_in(k, version) for k in keys) for version in VERSIONS}
        best = max(scores.values(), default=0)
        version = [v for v in VERSIONS if scores[v] == best][-1]
        if keys and best == len(keys) and version == self.default_version:
            why = "the newest known schema, which accepts every key"
        elif keys and best == len(keys):
            era = [k for k in keys if not valid_in(k, self.default_version)]
            why = f"its schema accepts every key ({', '.join(era[:3])}{' …' if len(era) > 3 else ''} are gone later)"
        elif keys:
            why = f"its schema accepts the most keys ({best} of {len(keys)})"
        else:
            why = "the newest known schema"
        notes.info("version.assumed", f"assumed easyr1 {version}: {why}; pass --from easyr1@VERSION to choose")
        return version

    def _account(self, values: Values, version: str, spec: RunSpec, notes: NoteList) -> None:
        everything = all_keys()
        for key in list(values.values):
            auto = AUTO_KEYS.get(key)
            if auto and _within(version, auto[0], auto[1]):
                values.get(key)
                notes.warning(
                    "semantics.ignored-key",
                    f"'{key}' is set by EasyR1 itself (from {auto[2]}); the value given has no effect",
                    source_keys=[key],
                )
        for key, value in values.unused().items():
            spec.extras.append(Extra(self.name, key, value))
            if not known_anywhere(key):
                guess = closest_key(key, everything)
                hint = f"; did you mean '{guess}'?" if guess else ""
                notes.warning(
                    "keys.unknown",
                    f"'{key}' is not an EasyR1 key: its structured config refuses to start "
                    f'(omegaconf ConfigKeyError "{key_error(key)}"){hint}',
                    source_keys=[key],
                )
        for key, value in values.values.items():
            accepted = VALUES.get(key, {}).get(version)
            if accepted is not None and value not in accepted:
                notes.warning(
                    "keys.invalid-value",
                    f"{key} '{value}' is not accepted by EasyR1 {version} (one of {', '.join(map(str, accepted))})",
                    source_keys=[key],
                )
            if known_anywhere(key) and not valid_in(key, version):
                span = key_span(key)
                text = f"{span[0]}–{span[1]}" if span and span[1] else f"{span[0]} on" if span else "other bands"
                notes.warning(
                    "keys.unknown-in-version",
                    f"'{key}' is an EasyR1 key only in {text}, not in {version}",
                    source_keys=[key],
                )

    # ---------------------------------------------------------------- writing
    def write(self, spec: RunSpec, version: str, notes: NoteList) -> dict[str, str]:
        writer = _Writer(spec, version, notes)
        out = writer.config()
        header = [
            f"# EasyR1 {version} config written by rlconf from a {source_label(spec)} config.",
            "# Units: data.rollout_batch_size and worker.actor.global_batch_size count prompts (EasyR1",
            "# multiplies global_batch_size by worker.rollout.n); micro sizes count samples per data-parallel",
            "# rank (a token budget of micro × (max_prompt_length + max_response_length) with dynamic_batching).",
            *(f"#   {line}" for line in plan_summary(spec)),
        ]
        # Text reaches EasyR1 through OmegaConf: a variable the source left to the shell as ${oc.env:NAME}.
        config = (
            "\n".join(header + _emit_yaml(omegaconf_values(_nest(out), spec.shell_variables), writer.comments)) + "\n"
        )
        launch = [
            "#!/usr/bin/env bash",
            f"# EasyR1 {version} launch script written by rlconf; run it from the EasyR1 repository root",
            "# (EasyR1's verl.trainer.main, not upstream verl's main_ppo). Every value is in config.yaml.",
            "set -x",
            "",
            # no config key: wandb.init (verl/utils/logger/logger.py@b44b311, no entity passed) reads WANDB_ENTITY
            *(
                [env_assignment("WANDB_ENTITY", spec.logging.entity, spec.shell_variables)]
                if spec.logging.entity
                else []
            ),
            f'python3 -m {ENTRY_MODULE} \\\n    config=config.yaml "$@"',
        ]
        return {"config.yaml": config, "launch.sh": "\n".join(launch) + "\n"}


# ---------------------------------------------------------------------------- schema helpers
def _within(version: str, since: str, until: str | None) -> bool:
    return at_least(version, since) and (until is None or not newer_than(version, until))


_CONFIG_CLASSES = {
    "data": "DataConfig",
    "algorithm": "AlgorithmConfig",
    "trainer": "TrainerConfig",
    "worker": "WorkerConfig",
    "worker.actor": "ActorConfig",
    "worker.critic": "CriticConfig",
    "worker.ref": "RefConfig",
    "worker.rollout": "RolloutConfig",
    "worker.reward": "RewardConfig",
    "worker.actor.optim": "OptimConfig",
    "worker.actor.fsdp": "FSDPConfig",
    "worker.actor.model": "ModelConfig",
    "worker.actor.offload": "OffloadConfig",
    "worker.actor.model.lora": "LoraConfig",
    "": "PPOConfig",
}


def _config_class(section: str) -> str | None:
    """The dataclass at a dotted section (trainer/config.py, workers/*/config.py), None if there is none."""
    generic = section.replace("worker.critic.", "worker.actor.").replace("worker.ref.", "worker.actor.")
    return _CONFIG_CLASSES.get(section) or _CONFIG_CLASSES.get(generic)


def key_error(key: str) -> str:
    """OmegaConf's ConfigKeyError for an unknown key: the first part the dataclasses lack, and its parent."""
    parts = key.split(".")
    for i in range(len(parts) - 1, -1, -1):
        owner = _config_class(".".join(parts[:i]))
        if owner:
            return f"Key '{parts[i]}' not in '{owner}'"
    return f"Key '{parts[0]}' not in 'PPOConfig'"


_REWARD_KEYS = ("worker.reward.reward_function", "worker.reward.score_function", "worker.reward.compute_score")


def reward_key(version: str) -> str:
    """The key naming the reward in a band (workers/reward/config.py)."""
    return (
        "worker.reward.reward_function"
        if at_least(version, "0.3.1")
        else "worker.reward.score_function"
        if at_least(version, "0.3.0")
        else "worker.reward.compute_score"
    )


def _refuse_missing_files(
    source: Source, values: Values, spec: RunSpec, version: str, notes: NoteList, declared: set[str] | None = None
) -> None:
    """A file the config names relative to where the run starts, whose folder (a folder of its own, not where the run
    starts) is in the project but the file is not. The reward file → ConfigError: EasyR1 drops it
    (RewardConfig.post_init) and then stops before training. The prompt template → a warning: DataConfig.post_init
    drops a template file that does not exist (`self.format_prompt = None`, verl/trainer/config.py since
    hiyouga/EasyR1@7f9d952, the commit that made it a file; `get_abs_path` from ebf1a3c) and the run trains on the
    prompts without it. A folder the project lacks too may be made by the user's setup, and a file beside the script
    may be written by it: neither is judged, except for a reward module (a .py file) in a project that holds a copy
    of EasyR1 (``declared``: its dataclasses' keys): project code, which no setup step writes, judged where the
    project holds the top folder of its path."""
    if source.base_dir is None or source.files:
        return
    from translator.sources.code import project_root

    where = list(dict.fromkeys([os.getcwd(), os.fspath(source.base_dir), project_root(os.fspath(source.base_dir))]))
    reward = reward_key(version)
    # a copy between releases names its reward by the key its own dataclasses declare (0.3.0's copy, 0.3.1's key)
    own = [k for k in _REWARD_KEYS if declared and k in declared and k != reward and values.values.get(k)]
    path = spec.reward.function_path or (values.values.get(own[0]) if own else None)
    reward = reward if spec.reward.function_path or not own else own[0]
    named = [(reward, path), ("data.format_prompt", values.values.get("data.format_prompt"))]
    for key, path in named:
        if not isinstance(path, str) or path.startswith(("/", "~")) or "$" in path:
            continue
        if not posixpath.dirname(posixpath.normpath(path)):  # beside where the run starts: the script may write it
            continue
        folders = [os.path.dirname(os.path.join(base, path)) for base in where]
        if key == reward and declared is not None and posixpath.splitext(path.split(":")[0])[1] == ".py":
            # in a project holding EasyR1's own code, a reward module is project code that no setup step writes:
            # judged where the project holds the path's top folder
            top = posixpath.normpath(path).split("/")[0]
            folders = [os.path.join(base, top) for base in where if top not in ("", ".", "..")]
            path = path.split(":")[0]
        if any(os.path.isfile(os.path.join(base, path)) for base in where) or not any(map(os.path.isdir, folders)):
            continue
        if key != reward:
            notes.warning(
                "data.template-dropped",
                f"{key} names {path}, which is not in the project (its folder is): EasyR1 drops a template file "
                "that does not exist (DataConfig.post_init) and trains on the prompts without it",
                source_keys=[key],
            )
            continue
        raise ConfigError(
            f"{key} names {path}, which is not in the project: EasyR1 drops a reward file that does "
            "not exist (RewardConfig.post_init) and then stops at start-up: 'Reward function is not provided.'",
            file=source.name,
            key=key,
            hint="add the file to the project, or name one that is there",
        )


def _band_value(table: dict[str, Any], version: str) -> Any:
    """The entry of a table keyed by first band that applies to ``version``."""
    return table[[band for band in table if at_least(version, band)][-1]]


def loggers_for(version: str) -> tuple[str, ...]:
    return _band_value(LOGGERS, version)


def reward_signature(version: str) -> str:
    return _band_value(REWARD_SIGNATURES, version)


def reward_examples(version: str) -> tuple[str, tuple[str, ...]] | None:
    return _band_value(REWARD_EXAMPLES, version) if at_least(version, "0.3.0") else None


_LOCAL_SUFFIXES = (".parquet", ".json", ".jsonl", ".csv", ".arrow", ".txt")


def looks_local(path: str) -> bool:
    """Whether a data source is a local file or directory rather than a Hub dataset id ('org/name'). EasyR1
    decides with os.path.isdir/isfile at run time; statically, a path shape or a file suffix tells."""
    return path.startswith(("/", "./", "../", "~", "$")) or path.endswith(_LOCAL_SUFFIXES) or path.count("/") != 1


def split_source(text: str) -> tuple[str, str | None]:
    """'source@split' as utils/dataset.py reads it (split 'train' when no '@'): the source and, for Hub ids or
    an explicit '@', the split."""
    source, at, split = text.partition("@")
    if at:
        return source, split
    return source, None if looks_local(source) else "train"


def _dict_parent(key: str) -> str | None:
    return next((f for f in DICT_FIELDS if key.startswith(f + ".")), None)


def key_span(key: str) -> tuple[str, str | None] | None:
    """The bands a key exists in (first, last or None), None for keys of every band."""
    parent = _dict_parent(key)
    if parent:
        return key_span(parent)
    if key in KEY_RANGE:
        return KEY_RANGE[key]
    if key in AUTO_KEYS:
        return AUTO_KEYS[key][:2]
    return None


def known_anywhere(key: str) -> bool:
    parent = _dict_parent(key) or key
    return parent in KEY_RANGE or parent in AUTO_KEYS or parent in _ALWAYS


def valid_in(key: str, version: str) -> bool:
    """Whether the band's PPOConfig has this key (auto keys included: OmegaConf accepts them)."""
    parent = _dict_parent(key) or key
    if parent in _ALWAYS:
        return True
    spans = [KEY_RANGE[parent]] if parent in KEY_RANGE else []
    if parent in AUTO_KEYS:
        spans.append(AUTO_KEYS[parent][:2])
    return any(_within(version, since, until) for since, until in spans)


def all_keys() -> list[str]:
    return sorted(_ALWAYS | set(KEY_RANGE) | set(AUTO_KEYS))


_ALWAYS = frozenset(ALWAYS)


def defaults_for(version: str) -> dict[str, Any]:
    """The dataclass defaults of a band (only keys that band has)."""
    defaults: dict[str, Any] = {}
    for key, changes in DEFAULTS.items():
        if not valid_in(key, version) or (key in AUTO_KEYS and _within(version, *AUTO_KEYS[key][:2])):
            continue
        for since, value in changes:
            if at_least(version, since):
                defaults[key] = value
    return defaults


def _yaml_lines(text: str) -> dict[str, int]:
    """Dotted key → 1-based line of the key in a YAML mapping (for messages)."""
    lines: dict[str, int] = {}
    try:
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return lines

    def walk(node: Any, prefix: str) -> None:
        if not isinstance(node, yaml.MappingNode):
            return
        for key_node, value_node in node.value:
            dotted = f"{prefix}{key_node.value}"
            lines[dotted] = key_node.start_mark.line + 1
            walk(value_node, dotted + ".")

    walk(root, "")
    return lines


def _dotlist_value(text: str) -> Any:
    """A dotlist value as OmegaConf.from_cli reads it: YAML, with its float resolver (1e-5 is a float)."""
    value = _dotlist_scalar(text)
    if value is None or (isinstance(value, (str, int, float)) and value == value):  # bool is an int
        return value
    return _read_dotlist_value(text)  # a list, a mapping, a date, NaN: a new object each time, as before


@lru_cache(maxsize=4096)  # the same values recur in every script of a directory (PyYAML's pure-Python loader)
def _dotlist_scalar(text: str) -> Any:
    return _read_dotlist_value(text)


def _read_dotlist_value(text: str) -> Any:
    if text == "":
        return None
    if "*" in text and "&" in text:
        refuse_alias_bomb(text, "a command-line value")
    try:
        value = yaml.safe_load(text)
    except (yaml.YAMLError, ValueError):  # ValueError: an integer too long to convert
        return text
    return scalar(value) if isinstance(value, str) and value == text else value


def _entry_index(argv: list[str]) -> int | None:
    """Index of the first word after EasyR1's entry point in a command, if it is one."""
    for i, word in enumerate(argv):
        if word == "-m" and i + 1 < len(argv) and argv[i + 1] == ENTRY_MODULE:
            return i + 2
        if word.endswith("verl/trainer/main.py") and i > 0:
            return i + 1
    # A fork's own entry point that takes EasyR1's config= / worker.* arguments
    index = program_index(argv)
    return index + 1 if index is not None and program_arguments("easyr1", argv, index) else None


# ---------------------------------------------------------------------------- reading
class _Interpreter:
    """Turns native EasyR1 values into the canonical model, with derivations and notes."""

    def __init__(self, values: Values, version: str, spec: RunSpec, notes: NoteList) -> None:
        self.v, self.version, self.spec, self.notes = values, version, spec, notes

    def run(self) -> None:
        self.topology()
        self.lengths()
        self.batch()
        self.generation()
        self.algorithm()
        self.critic()
        self.read_non_plan_sections()
        self.spec.plan.complete()
        describe_mini_batch_plan(self.spec, "rollout_batch_size ")

    def origin(self, field: str, text: str, *keys: str) -> None:
        origin = "config" if any(k in self.v for k in keys) else "default"
        self.spec.derivations[field] = Derivation(text, list(keys), origin)

    def peek(self, key: str) -> Any:
        """A value looked at only to check it: the key stays an extra, so writing it back keeps it."""
        return self.v.values.get(key, self.v.defaults.get(key))

    def sp_key(self, role: str) -> str:
        return f"{role}.ulysses_size" if at_least(self.version, "0.3.1") else f"{role}.ulysses_sequence_parallel_size"

    def topology(self) -> None:
        v, t, notes = self.v, self.spec.topology, self.notes
        t.gpus_per_node = v.positive_int("trainer.n_gpus_per_node")
        t.nodes = v.positive_int("trainer.nnodes")
        assert t.gpus_per_node is not None and t.nodes is not None  # EasyR1's defaults set both
        world = t.training_gpus = t.gpus_per_node * t.nodes
        t.rollout_gpus = 0  # actor, rollout and ref share one resource pool: vLLM is colocated
        t.training_backend = "fsdp"
        tp = t.rollout_tensor_parallel_size = v.positive_int(f"{ROLLOUT}.tensor_parallel_size")
        assert tp is not None  # an EasyR1 default
        if tp > world:
            notes.warning(
                "topology.indivisible",
                f"worker.rollout.tensor_parallel_size {tp} > {world} GPUs: "
                '"Tensor parallelism size should be less than world size."',
                source_keys=[f"{ROLLOUT}.tensor_parallel_size"],
            )
        elif world % tp:
            notes.warning(
                "topology.indivisible",
                f"rollout world size {world} is not divisible by tp size {tp} (EasyR1 refuses to start)",
                source_keys=[f"{ROLLOUT}.tensor_parallel_size"],
            )
        sp_key = self.sp_key(ACTOR)
        sp = t.sequence_parallel_size = v.positive_int(sp_key)
        assert sp is not None  # an EasyR1 default
        if sp > world:
            raise v._error(
                sp_key,
                f"{sp_key} {sp} is larger than the {world} GPUs",
                "Ulysses groups are made of the training GPUs; use at most n_gpus_per_node × nnodes",
            )
        if world % sp:
            notes.warning(
                "topology.indivisible",
                f"{world} GPUs are not divisible by the Ulysses size {sp}; the device mesh cannot be built",
                source_keys=[sp_key],
            )
        self.spec.plan.data_parallel_size = world // sp
        self.origin(
            "plan.data_parallel_size",
            f"n_gpus_per_node {t.gpus_per_node} × nnodes {t.nodes} GPUs ÷ Ulysses {sp}",
            "trainer.n_gpus_per_node",
            "trainer.nnodes",
            sp_key,
        )

    def lengths(self) -> None:
        s, v = self.spec, self.v
        s.lengths.max_prompt_tokens = v.positive_int("data.max_prompt_length")
        s.lengths.max_response_tokens = v.positive_int("data.max_response_length")

    def per_device(self, role: str, gbs: int, n: int, sp_key: str) -> tuple[int, str]:
        """global_batch_size_per_device (samples per DP rank) as the band's fsdp_workers computes it."""
        world = self.spec.topology.training_gpus
        sp = self.v.positive_int(sp_key) if role == ACTOR else int(self.peek(sp_key) or 1)
        assert world is not None and sp is not None  # topology() sets world; the Ulysses keys have defaults
        samples = gbs * n  # global_batch_size *= rollout.n (prompts → samples)
        if not at_least(self.version, "0.3.1"):
            per_device, text = samples // world * sp, f"{samples} // {world} GPUs × Ulysses {sp}"
        elif not at_least(self.version, "0.3.2"):
            per_device, text = samples * sp // world, f"{samples} × Ulysses {sp} // {world} GPUs"
        else:
            per_device, text = samples // (world // sp), f"{samples} // ({world} GPUs ÷ Ulysses {sp})"
        if per_device == 0:
            key = f"{role}.global_batch_size"
            raise self.v._error(
                key,
                f"{key} {gbs} prompts × rollout.n {n} = {samples} samples is less than one "
                f"per data-parallel rank ({text} = 0)",
                'EasyR1: "global batch size * ulysses size must be larger than num gpus"; raise it or use fewer GPUs',
            )
        return per_device, text

    def batch(self) -> None:
        v, plan, notes = self.v, self.spec.plan, self.notes
        dp, world = plan.data_parallel_size, self.spec.topology.training_gpus
        n = plan.samples_per_prompt = v.positive_int(f"{ROLLOUT}.n")
        self.origin("plan.samples_per_prompt", f"worker.rollout.n {n}", f"{ROLLOUT}.n")
        rbs = plan.prompts_per_step = v.positive_int("data.rollout_batch_size")
        self.origin("plan.prompts_per_step", f"data.rollout_batch_size {rbs} prompts", "data.rollout_batch_size")
        gbs_key = f"{ACTOR}.global_batch_size"
        gbs = v.positive_int(gbs_key)
        # EasyR1's defaults set the three keys; topology() sets dp and world
        assert n is not None and rbs is not None and gbs is not None and dp is not None and world is not None
        per_device, text = self.per_device(ACTOR, gbs, n, self.sp_key(ACTOR))
        plan.samples_per_optimizer_step = per_device * dp
        if per_device * dp != gbs * n:
            notes.warning(
                "batch.floor-division",
                f"global_batch_size {gbs} prompts × n {n} = {gbs * n} samples do not split evenly over "
                f"{dp} data-parallel ranks: EasyR1 floors it to {per_device} per rank ({text}), so an "
                f"optimizer step uses {per_device * dp} samples",
                source_keys=[gbs_key],
            )
            self.origin(
                "plan.samples_per_optimizer_step",
                f"global_batch_size_per_device {per_device} ({text}) × {dp} DP ranks",
                gbs_key,
                f"{ROLLOUT}.n",
            )
        else:
            self.origin(
                "plan.samples_per_optimizer_step",
                f"worker.actor.global_batch_size {gbs} prompts × rollout.n {n}",
                gbs_key,
                f"{ROLLOUT}.n",
            )
        if n > 1:
            notes.info(
                "units.prompts-vs-samples",
                f"worker.actor.global_batch_size counts prompts although its docstring says samples: EasyR1 "
                f"multiplies it by rollout.n ({gbs} × {n} = {gbs * n} samples per optimizer step)",
                source_keys=[gbs_key],
            )
        if rbs % gbs:
            notes.warning(
                "batch.indivisible",
                f'"Rollout batch size must be divisible by actor global batch size."'
                f" ({rbs} % {gbs} = {rbs % gbs}; EasyR1 refuses to start)",
                source_keys=["data.rollout_batch_size", gbs_key],
            )
        samples = rbs * n
        if samples % dp == 0 and (samples // dp) % per_device:
            notes.warning(
                "batch.indivisible",
                f"each rank holds {samples // dp} samples, which do not split into "
                f"mini-batches of {per_device} (DataProto.split asserts an equal split)",
                source_keys=["data.rollout_batch_size", gbs_key],
            )
        epochs_key = f"{ACTOR}.ppo_epochs"
        plan.epochs_per_step = v.positive_int(epochs_key)
        self.origin("plan.epochs_per_step", f"worker.actor.ppo_epochs {plan.epochs_per_step}", epochs_key)
        if self.version == FEB and plan.epochs_per_step != 1:
            notes.warning(
                "batch.not-supported",
                f"EasyR1 {FEB} raises NotImplementedError for ppo_epochs != 1",
                source_keys=[epochs_key],
            )
        plan.total_steps = v.positive_int("trainer.max_steps")
        if plan.total_steps is not None:
            self.origin("plan.total_steps", f"trainer.max_steps {plan.total_steps}", "trainer.max_steps")
        self.micro_batch(per_device, samples, world)

    def micro_batch(self, per_device: int, samples: int, world: int) -> None:
        v, plan, notes, budget = self.v, self.spec.plan, self.notes, self.spec.token_budget
        upd_key = f"{ACTOR}.micro_batch_size_per_device_for_update"
        exp_key = f"{ACTOR}.micro_batch_size_per_device_for_experience"
        dynamic = bool(v.flag(f"{ACTOR}.dynamic_batching")) if at_least(self.version, "0.3.2") else False
        budget.dynamic_batching = dynamic
        update, experience = v.positive_int(upd_key), v.positive_int(exp_key)
        for key, value in ((upd_key, update), (exp_key, experience)):
            if value is None:
                notes.warning(
                    "keys.missing", f"{key} has no default in EasyR1 {self.version} (-1): set it", source_keys=[key]
                )
        if update is not None and per_device % update:
            notes.warning(
                "batch.indivisible",
                f'"global batch size per device must be divisible by the micro batch '
                f'size": {per_device} % {update} = {per_device % update} (checked even with dynamic '
                "batching; EasyR1 refuses to start)",
                source_keys=[upd_key],
            )
        if experience is not None and samples % experience:
            notes.warning(
                "batch.indivisible",
                f'"Rollout batch size * rollout.n must be divisible by actor micro '
                f'batch size for experience." ({samples} % {experience})',
                source_keys=[exp_key],
            )
        offload_key = f"{ACTOR}.fsdp.enable_cpu_offload"
        if update is not None and self.peek(offload_key) in (True, "true", "True") and per_device != update:
            notes.warning(
                "batch.offload-with-accumulation",
                f"FSDP CPU offload needs one micro-batch per optimizer "
                f"step (micro {update} ≠ {per_device} per rank); EasyR1 refuses to start",
                source_keys=[offload_key, upd_key],
            )
        if dynamic:
            lengths = self.spec.lengths
            assert lengths.max_prompt_tokens is not None and lengths.max_response_tokens is not None  # defaults
            width = lengths.max_prompt_tokens + lengths.max_response_tokens
            width_text = (
                f"(max_prompt_length {self.spec.lengths.max_prompt_tokens} + max_response_length "
                f"{self.spec.lengths.max_response_tokens}) tokens"
            )
            if update is not None:
                budget.max_tokens_per_device = update * width
                self.spec.derivations["token_budget.max_tokens_per_device"] = from_config(
                    f"micro_batch_size_per_device_for_update {update} × {width_text} per DP rank",
                    upd_key,
                    "data.max_prompt_length",
                    "data.max_response_length",
                )
            if experience is not None:
                budget.logprob_max_tokens_per_device = experience * width
                self.spec.derivations["token_budget.logprob_max_tokens_per_device"] = from_config(
                    f"micro_batch_size_per_device_for_experience {experience} × {width_text}", exp_key
                )
            notes.info(
                "batch.token-budget",
                f"worker.actor.dynamic_batching{'' if f'{ACTOR}.dynamic_batching' in v else ' (on by default)'}"
                f" packs micro-batches up to micro_batch_size_per_device_for_update {update} × {width} padded "
                f"tokens = {budget.max_tokens_per_device} tokens per rank, so micro_batch_per_device and "
                "grad_accum_steps depend on sequence lengths (null)",
                source_keys=[f"{ACTOR}.dynamic_batching", upd_key],
            )
            return
        plan.micro_batch_per_device = update
        self.spec.generation.logprob_micro_batch_per_device = experience
        if update is not None:
            self.origin(
                "plan.micro_batch_per_device", f"micro_batch_size_per_device_for_update {update} samples", upd_key
            )

    def generation(self) -> None:
        v, g, notes, plan = self.v, self.spec.generation, self.notes, self.spec.plan
        world, rbs = self.spec.topology.training_gpus, plan.prompts_per_step
        assert world is not None and rbs is not None and plan.samples_per_prompt is not None  # set by batch()
        g.rollout_backend = str(v.get(f"{ROLLOUT}.name"))
        round_prompts, round_key = rbs, "data.rollout_batch_size"
        if at_least(self.version, "0.3.1"):
            mini = v.positive_int("data.mini_rollout_batch_size")
            g.filter_groups = bool(v.flag("algorithm.online_filtering"))
            if mini is not None:
                round_prompts, round_key = mini, "data.mini_rollout_batch_size"
                g.prompts_per_round = mini
                self.spec.derivations["generation.prompts_per_round"] = from_config(
                    f"data.mini_rollout_batch_size {mini} prompts", "data.mini_rollout_batch_size"
                )
                if mini > rbs:
                    notes.info(
                        "generation.surplus-discarded",
                        f"each round generates {mini} prompts but a step keeps "
                        f"rollout_batch_size {rbs}: the other {mini - rbs} groups are discarded",
                        source_keys=["data.mini_rollout_batch_size"],
                    )
            if mini is not None or g.filter_groups:
                tries = v.number("trainer.max_try_make_batch")  # only then can a step need more than one round
                g.max_rounds_per_step = int(tries) if tries and tries > 0 else 0
                if tries and tries > 0 and not g.filter_groups and mini is not None and mini * tries < rbs:
                    notes.warning(
                        "generation.too-few-rounds",
                        f"{int(tries)} rounds of {mini} prompts never reach "
                        f'rollout_batch_size {rbs}; EasyR1 raises "Generated too many"',
                        source_keys=["trainer.max_try_make_batch"],
                    )
            if g.filter_groups:
                g.filter_metric = str(v.get("algorithm.filter_key"))
                notes.info(
                    "generation.filter-groups",
                    f"online_filtering keeps a group only when the mean of its '{g.filter_metric}' reward "
                    "metric lies strictly between filter_low and filter_high",
                    source_keys=["algorithm.online_filtering", "algorithm.filter_key"],
                )
        # Every worker call chunks its batch into world-size pieces (DataProto.chunk asserts an equal chunk):
        # the prompts of a round, then the rbs × n samples of the step.
        if round_prompts % world:
            notes.warning(
                "batch.indivisible",
                f"{round_key} {round_prompts} prompts do not split over {world} GPUs "
                "(DataProto.chunk asserts an equal chunk)",
                source_keys=[round_key],
            )
        elif (rbs * plan.samples_per_prompt) % world:
            notes.warning(
                "batch.indivisible",
                f"{rbs} prompts × n {plan.samples_per_prompt} samples do not split "
                f"over {world} GPUs (DataProto.chunk asserts an equal chunk)",
                source_keys=["data.rollout_batch_size", f"{ROLLOUT}.n"],
            )

    def algorithm(self) -> None:
        v, a, notes, version = self.v, self.spec.algorithm, self.notes, self.version
        estimator = a.advantage_estimator = str(v.get("algorithm.adv_estimator"))
        since = ESTIMATORS.get(estimator)
        if since is None or not at_least(version, since):
            notes.warning(
                "algorithm.unknown-estimator",
                f"algorithm.adv_estimator '{estimator}' is not an EasyR1 "
                f'{version} estimator ("Unknown advantage estimator")',
                source_keys=["algorithm.adv_estimator"],
            )
        a.advantage_normalization_scope = "group" if estimator in GROUP_ESTIMATORS else "batch"
        a.advantage_std_normalization = estimator in STD_NORMALISED
        if estimator in ("grpo", "rloo") and self.spec.plan.samples_per_prompt == 1:
            notes.warning(
                "algorithm.group-too-small",
                '"GRPO and RLOO algorithm need `config.worker.rollout.n > 1`."'
                " (rollout.n defaults to 1 in the dataclasses)",
                source_keys=[f"{ROLLOUT}.n"],
            )
        self.kl()
        if at_least(version, "0.3.0"):
            a.clip_ratio_low = v.number(f"{ACTOR}.clip_ratio_low")
            a.clip_ratio_high = v.number(f"{ACTOR}.clip_ratio_high")
            a.clip_ratio_dual = v.number(f"{ACTOR}.clip_ratio_dual")
            a.entropy_coef = 0.0  # the entropy bonus was removed on 2025-03-18
        else:
            a.clip_ratio_low = a.clip_ratio_high = v.number(f"{ACTOR}.clip_ratio")
            a.entropy_coef = v.number(f"{ACTOR}.entropy_coeff")
        if at_least(version, "0.3.1"):
            mode = str(v.get(f"{ACTOR}.loss_avg_mode"))
            a.loss_aggregation = LOSS_AVG_MODES.get(mode)
            if a.loss_aggregation is None:
                notes.warning(
                    "algorithm.unknown-loss-mode",
                    f"loss_avg_mode '{mode}' is neither token nor seq",
                    source_keys=[f"{ACTOR}.loss_avg_mode"],
                )
                a.loss_aggregation = mode
        else:
            a.loss_aggregation = "token-mean"  # masked mean over each micro-batch
        if at_least(version, "0.3.2"):
            # PR #417/#419: loss × micro tokens × world ÷ all-reduced mini-batch tokens = a global token mean.
            a.loss_normalizer_scope = "optimizer_step"
            if a.loss_aggregation == "seq-mean-token-mean":
                notes.info(
                    "algorithm.loss-aggregation",
                    "loss_avg_mode seq averages sequences within each "
                    "micro-batch, then weights micro-batches by their token counts over the optimizer step",
                    source_keys=[f"{ACTOR}.loss_avg_mode"],
                )
        else:
            a.loss_normalizer_scope = "micro_batch"  # pg_loss ÷ gradient_accumulation: a mean of micro-batch means
        if at_least(version, "0.3.3.dev0"):
            loss_type = str(v.get(f"{ACTOR}.loss_type"))
            a.policy_loss = LOSS_TYPES.get(loss_type, loss_type)
        else:
            a.policy_loss = "vanilla"

    def kl(self) -> None:
        v, a, notes = self.v, self.spec.algorithm, self.notes
        if not at_least(self.version, "0.3.0"):
            # KL under the actor: the loss when use_kl_loss, else in the reward (algorithm.kl_coef/kl_penalty).
            if v.flag(f"{ACTOR}.use_kl_loss"):
                a.kl_placement, a.kl_coef = "loss", v.number(f"{ACTOR}.kl_loss_coef")
                a.kl_estimator = self.kl_estimator(f"{ACTOR}.kl_loss_type")
                self.origin(
                    "algorithm.kl_coef",
                    f"worker.actor.kl_loss_coef {fmt(a.kl_coef)} (use_kl_loss)",
                    f"{ACTOR}.kl_loss_coef",
                )
                self.unused_alternatives(
                    "the KL term is in the actor loss (worker.actor.use_kl_loss)",
                    "algorithm.kl_coef",
                    "algorithm.kl_penalty",
                )
            else:
                a.kl_placement, a.kl_coef = "reward", v.number("algorithm.kl_coef")
                a.kl_estimator = self.kl_estimator("algorithm.kl_penalty")
                self.origin(
                    "algorithm.kl_coef",
                    f"algorithm.kl_coef {fmt(a.kl_coef)} (use_kl_loss false: KL in the reward)",
                    "algorithm.kl_coef",
                )
                self.unused_alternatives(
                    "worker.actor.use_kl_loss is false, so KL goes into the reward",
                    f"{ACTOR}.kl_loss_coef",
                    f"{ACTOR}.kl_loss_type",
                )
            return
        if v.flag("algorithm.disable_kl"):
            a.kl_placement, a.kl_coef = "none", 0.0  # no reference model is built
            self.origin("algorithm.kl_coef", "0 (algorithm.disable_kl: no reference model)", "algorithm.disable_kl")
            self.unused_alternatives(
                "algorithm.disable_kl builds no reference model, so there is no KL term",
                "algorithm.use_kl_loss",
                "algorithm.kl_coef",
                "algorithm.kl_penalty",
            )
            return
        loss = bool(v.flag("algorithm.use_kl_loss"))
        a.kl_placement, a.kl_coef = ("loss" if loss else "reward"), v.number("algorithm.kl_coef")
        a.kl_estimator = self.kl_estimator("algorithm.kl_penalty")
        self.origin(
            "algorithm.kl_coef",
            f"algorithm.kl_coef {fmt(a.kl_coef)} ("
            + ("use_kl_loss: in the actor loss)" if loss else "use_kl_loss false: in the reward)"),
            "algorithm.kl_coef",
            "algorithm.use_kl_loss",
        )
        kind = str(v.get("algorithm.kl_type"))
        if kind == "adaptive":
            if loss:
                notes.warning(
                    "semantics.ignored-key",
                    "algorithm.kl_type adaptive only steers the in-reward KL; "
                    "with use_kl_loss the coefficient stays fixed",
                    source_keys=["algorithm.kl_type"],
                )
            else:
                notes.info(
                    "algorithm.adaptive-kl",
                    f"kl_type adaptive: algorithm.kl_coef {fmt(a.kl_coef)} is the "
                    "initial coefficient, steered towards kl_target",
                    source_keys=["algorithm.kl_type"],
                )

    def unused_alternatives(self, reason: str, *keys: str) -> None:
        """Keys the chosen KL branch does not read: a value given for them has no effect (one note for all)."""
        given = [key for key in keys if key in self.v]
        for key in keys:
            self.v.get(key)
        if given:
            self.notes.info(
                "semantics.ignored-key",
                ", ".join(given) + f" {'has' if len(given) == 1 else 'have'} no effect: {reason}",
                source_keys=given,
            )

    def kl_estimator(self, key: str) -> str:
        raw = str(self.v.get(key))
        name = KL_ESTIMATORS.get(raw)
        if name is None:
            self.notes.warning(
                "algorithm.unknown-kl-estimator",
                f'{key}={raw} is not a known KL estimator ("Unknown KL penalty")',
                source_keys=[key],
            )
            return raw
        return name

    def critic(self) -> None:
        """The value model (adv_estimator gae): its own global batch (prompts × n) and micro sizes."""
        v, c, plan = self.v, self.spec.critic, self.spec.plan
        c.enabled = self.spec.algorithm.advantage_estimator == "gae"
        if not c.enabled:
            return
        gbs_key = f"{CRITIC}.global_batch_size"
        gbs = v.positive_int(gbs_key)
        assert gbs is not None and plan.samples_per_prompt is not None and plan.prompts_per_step is not None
        assert self.spec.topology.training_gpus is not None  # a default; batch() and topology() set the rest
        # The critic worker builds its mesh from its own ulysses size (the actor's before 0.3.0's split); it is
        # peeked at, not consumed, so the critic's own value is written back as an extra.
        sp_key = self.sp_key(CRITIC) if at_least(self.version, "0.3.0") else self.sp_key(ACTOR)
        sp = int(self.peek(sp_key) or 1)
        per_device, text = self.per_device(CRITIC, gbs, plan.samples_per_prompt, sp_key)
        dp = self.spec.topology.training_gpus // sp
        c.samples_per_optimizer_step = per_device * dp
        self.origin(
            "critic.samples_per_optimizer_step",
            f"worker.critic.global_batch_size {gbs} prompts × rollout.n {plan.samples_per_prompt} ({text} per rank)",
            gbs_key,
        )
        if plan.prompts_per_step % gbs:
            self.notes.warning(
                "batch.indivisible",
                '"Rollout batch size must be divisible by critic global batch '
                f'size." ({plan.prompts_per_step} % {gbs})',
                source_keys=[gbs_key],
            )
        c.epochs_per_step = v.positive_int(f"{CRITIC}.ppo_epochs") if at_least(self.version, MARCH) else 1
        dynamic = at_least(self.version, "0.3.2") and bool(v.flag(f"{CRITIC}.dynamic_batching"))
        micro = v.positive_int(f"{CRITIC}.micro_batch_size_per_device_for_update")
        c.micro_batch_per_device = None if dynamic else micro
        c.lr = v.number(f"{CRITIC}.optim.lr")
        c.model = v.get(f"{CRITIC}.model.model_path")

    def read_non_plan_sections(self) -> None:
        v, s, notes, version = self.v, self.spec, self.notes, self.version
        s.sampling.temperature = v.number(f"{ROLLOUT}.temperature")
        s.sampling.top_p = v.number(f"{ROLLOUT}.top_p")
        top_k = v.number(f"{ROLLOUT}.top_k")
        s.sampling.top_k = int(top_k) if top_k is not None else None
        o = s.optimizer
        o.lr = v.number(f"{ACTOR}.optim.lr")
        o.weight_decay = v.number(f"{ACTOR}.optim.weight_decay")
        o.grad_clip = v.number(f"{ACTOR}.max_grad_norm")
        if at_least(version, "0.3.3.dev0"):
            o.lr_schedule = str(v.get(f"{ACTOR}.optim.lr_scheduler_type"))
        else:
            o.lr_schedule = "constant"  # get_constant_schedule_with_warmup, whatever warmup_style says
            style = v.get(f"{ACTOR}.optim.warmup_style")
            if f"{ACTOR}.optim.warmup_style" in v and style != "constant":
                notes.warning(
                    "semantics.ignored-key",
                    f"warmup_style '{style}' is read by nothing in EasyR1 "
                    f"{version}: the schedule is constant after warmup (cosine arrived after 0.3.2)",
                    source_keys=[f"{ACTOR}.optim.warmup_style"],
                )
        warmup = v.positive_int(f"{ACTOR}.optim.lr_warmup_steps") if at_least(version, "0.3.1") else None
        if warmup is not None:
            # lr_scheduler.step() runs once per update_actor call, i.e. once per rollout step.
            o.warmup_steps, o.warmup_unit = warmup, "steps"
        else:
            o.warmup_ratio = v.number(
                f"{ACTOR}.optim.lr_warmup_ratio" if at_least(version, MARCH) else f"{ACTOR}.optim.lr_warmup_steps_ratio"
            )
        self.min_lr()
        self.run_length()
        s.asynchrony.max_steps_ahead = 0
        s.references.model = v.get(f"{ACTOR}.model.model_path")
        tokenizer = v.get(f"{ACTOR}.model.tokenizer_path")
        if tokenizer and tokenizer != s.references.model:
            s.references.tokenizer = tokenizer
        self.placement()
        self.reward()
        self.data()
        self.checkpointing()
        self.evaluation()
        self.logging()
        version = self.version
        read_settings(self.spec, self.v, SETTINGS, "easyr1", version, lambda key: not lacks("easyr1", version, key))
        self.evaluation_sampling()

    def evaluation_sampling(self) -> None:
        """worker.rollout.val_override_config: sampling keys that replace the rollout's for validation (the
        rollout's own temperature and top_p otherwise, one sample per prompt)."""
        s = self.spec
        if not (s.data.eval_sources and (s.evaluation.every_steps != 0 or s.evaluation.before_training)):
            return
        override = self.v.get(VAL_OVERRIDE)
        if not isinstance(override, dict):  # a YAML mapping arrives flattened: val_override_config.temperature, ...
            prefix = f"{VAL_OVERRIDE}."
            override = {
                key.removeprefix(prefix): self.v.get(key) for key in list(self.v.values) if key.startswith(prefix)
            }
        for name, convert, fallback in (
            ("temperature", float, s.sampling.temperature or 1.0),
            ("top_p", float, s.sampling.top_p or 1.0),
            ("n", int, 1),
        ):
            value = override.get(name, fallback)
            try:
                number = convert(value)
            except (TypeError, ValueError):
                key = f"{VAL_OVERRIDE}.{name}"
                raise self.v._error(key, f"{key} must be a number, got {value!r}", f"set {key} to a number") from None
            setattr(s.evaluation, "samples_per_prompt" if name == "n" else name, number)

    def min_lr(self) -> None:
        """optim.min_lr_ratio is the floor of the cosine schedule (0.3.3.dev0, default 0); the constant
        schedule never reads it."""
        o, key = self.spec.optimizer, f"{ACTOR}.optim.min_lr_ratio"
        if o.lr_schedule == "cosine":
            ratio = self.v.number(key)
            o.min_lr_ratio = ratio if ratio is not None else 0.0
        elif key in self.v and self.v.consume(key) is not None:
            self.notes.info(
                "semantics.ignored-key",
                f"{key} has no effect: only the cosine schedule (after 0.3.2) decays to it",
                source_keys=[key],
            )

    def placement(self) -> None:
        """One Ray resource pool: actor, rollout (vLLM) and reference share every GPU (main.py
        resource_pool_spec); vLLM runs world ÷ tensor_parallel_size engines."""
        t, v = self.spec.topology, self.v
        t.colocate_models = True
        assert t.training_gpus is not None and t.rollout_tensor_parallel_size is not None  # topology() sets them
        t.rollout_engines = (
            t.training_gpus // t.rollout_tensor_parallel_size
            if t.training_gpus % t.rollout_tensor_parallel_size == 0
            else None
        )
        fraction = v.number(f"{ROLLOUT}.gpu_memory_utilization")
        t.rollout_gpu_memory_fraction = real(fraction)

    def reward(self) -> None:
        """≥ 0.3.0 a file 'path.py:function' (no ':' → 'main'); before, a built-in scorer by name."""
        v, r, notes, version = self.v, self.spec.reward, self.notes, self.version
        key = reward_key(version)
        value = v.get(key)
        if not at_least(version, "0.3.0"):
            r.builtin = [str(value)] if value else None
            if value not in COMPUTE_SCORES[MARCH if at_least(version, MARCH) else FEB]:
                notes.warning(
                    "reward.unknown-builtin",
                    f"{key} '{value}' is not a built-in scorer of EasyR1 {version} (NotImplementedError)",
                    source_keys=[key],
                )
            return
        if not value or not str(value).rpartition(":")[0 if ":" in str(value) else 2]:
            # An empty file part is dropped by RewardConfig.post_init ("... not found."), as if none were given.
            message = "Score function is not provided." if version == "0.3.0" else "Reward function is not provided."
            notes.warning(
                "reward.missing",
                f'{key} is not set: EasyR1 raises "{message}" at start-up; set it to path/to/reward.py:function',
                source_keys=[key],
            )
            return
        text = str(value)
        # 0.3.0 split at the first ':', later releases at the last one.
        path, colon, name = text.partition(":") if version == "0.3.0" else text.rpartition(":")
        if not colon:
            path, name = text, "main"
        r.function_path, r.function_name = path, name
        self.spec.derivations["reward.function_name"] = Derivation(
            f"{key} {value}" + ("" if colon else " (no ':': EasyR1 calls main)"), [key], "config"
        )

    def data(self) -> None:
        v, d = self.v, self.spec.data
        for role, key in (("train", "data.train_files"), ("eval", "data.val_files")):
            value = v.get(key)
            if not value:
                continue
            source, split = split_source(str(value))
            setattr(d, f"{role}_sources", [source])
            setattr(d, f"{role}_split", split)
        d.prompt_key = str(v.get("data.prompt_key"))
        if at_least(self.version, MARCH):
            d.answer_key = str(v.get("data.answer_key"))
        template = v.values.get("data.format_prompt") if at_least(self.version, "0.3.0") else None
        if template:
            # Kept as an EasyR1 extra; another framework must apply the same template to its prompts.
            self.notes.info(
                "data.format-prompt",
                f"each prompt is rendered through the Jinja template {template} "
                "(content = the prompt column) before the chat template; other frameworks need the same "
                "wording in their data or prompt template",
                source_keys=["data.format_prompt"],
            )

    def checkpointing(self) -> None:
        v, c, notes, version = self.v, self.spec.checkpointing, self.notes, self.version
        every = v.number("trainer.save_freq")
        c.every_steps = int(every) if every and every > 0 else 0
        if c.every_steps == 0 and "trainer.save_freq" in v:
            notes.info(
                "checkpointing.final-save",
                "trainer.save_freq <= 0 saves no checkpoint during the run, but "
                "EasyR1 always saves one after the last step",
                source_keys=["trainer.save_freq"],
            )
        path = v.get("trainer.save_checkpoint_path")
        project, experiment = v.get("trainer.project_name"), v.get("trainer.experiment_name")
        c.directory = str(path) if path else f"checkpoints/{project}/{experiment}"
        if not path:
            self.spec.derivations["checkpointing.directory"] = Derivation(
                "checkpoints/{project_name}/{experiment_name} (EasyR1's default)",
                ["trainer.project_name", "trainer.experiment_name"],
                "default",
            )
        # Shards per rank plus huggingface/ with config and tokenizer only: the weights need scripts/model_merger.py.
        c.hf_format = False
        if at_least(version, "0.3.0"):
            limit = v.number("trainer.save_limit")
            c.keep_last = int(limit) if limit and limit > 0 else None
        else:
            c.keep_last = 1 if v.flag("trainer.remove_previous_ckpt") else None
        if at_least(version, "0.3.1") and self.peek("trainer.save_model_only") in (True, "true", "True"):
            # Peeked, not read: the key still travels as an EasyR1 extra.
            notes.info(
                "checkpointing.model-only",
                "trainer.save_model_only saves the model shards without the optimizer and scheduler state",
                source_keys=["trainer.save_model_only"],
            )
        load = v.get("trainer.load_checkpoint_path")
        if load:
            c.resume = str(load)
        elif at_least(version, "0.3.2"):
            c.resume = "auto" if v.flag("trainer.find_last_checkpoint") else "never"
        else:
            c.resume = "never"

    def evaluation(self) -> None:
        v, e = self.v, self.spec.evaluation
        key = "trainer.val_freq" if at_least(self.version, MARCH) else "trainer.test_freq"
        every = v.number(key)
        e.every_steps = int(every) if every and every > 0 else 0
        e.before_training = bool(v.flag("trainer.val_before_train"))
        if e.every_steps == 0:
            self.notes.info(
                "evaluation.final",
                f"{key} <= 0 does not turn validation off: EasyR1 validates after "
                "the last step" + (" and before the first" if e.before_training else ""),
                source_keys=[key],
            )

    def logging(self) -> None:
        v, g, notes = self.v, self.spec.logging, self.notes
        g.project = str(v.get("trainer.project_name"))
        g.run_name = str(v.get("trainer.experiment_name"))
        backends = v.get("trainer.logger")
        g.backends = [str(b) for b in (backends if isinstance(backends, (list, tuple)) else [backends])]
        known = loggers_for(self.version)
        unknown = [b for b in g.backends if b not in known]
        if unknown:
            notes.warning(
                "logging.unknown-backend",
                f"trainer.logger {', '.join(unknown)} is not an EasyR1 {self.version} logger ({', '.join(known)})",
                source_keys=["trainer.logger"],
            )

    def run_length(self) -> None:
        v, s, notes = self.v, self.spec, self.notes
        key = "trainer.total_epochs" if at_least(self.version, "0.3.1") else "trainer.total_episodes"
        other = next((o if key == n else n for o, n, _ in RENAMES if key in (o, n)), key)
        if other in v and key not in v:
            # the other era's name only: EasyR1's structured config refuses a key it lacks, so the code that runs
            # with it (a copy between the releases) has that name; the release read would refuse it at start-up
            key = other
        epochs = v.number(key)
        if s.plan.total_steps is not None and at_least(self.version, "0.3.1"):
            # "if specified, total_epochs is ignored": the data iterator restarts until max_steps.
            if key in v:
                notes.info(
                    "semantics.ignored-key",
                    f"{key} has no effect: trainer.max_steps {s.plan.total_steps} sets the run length",
                    source_keys=[key],
                )
            return
        passes = Fraction(epochs).limit_denominator(1000) if isinstance(epochs, (int, float)) else epochs
        g = s.generation
        if passes is not None and g.prompts_per_round and not g.filter_groups:
            # A step pulls ceil(rbs / mini) rounds of mini prompts, but training_steps counts rbs per step.
            rbs = s.plan.prompts_per_step
            assert rbs is not None  # a source with rounds of prompts states the step's prompts too
            pulled = math.ceil(rbs / g.prompts_per_round) * g.prompts_per_round
            if pulled != rbs:
                passes = passes * Fraction(pulled, rbs)
                notes.info(
                    "run-length.data-wraps",
                    f"each step pulls {pulled} prompts and keeps {rbs}, while the step "
                    f"count assumes {rbs}: the data loader wraps, so {key} {fmt(epochs)} reads the prompt "
                    f"data {fmt(passes)} times",
                    source_keys=[key, "data.mini_rollout_batch_size"],
                )
        s.run_length.dataset_passes = real(passes)
        if s.plan.total_steps is not None and passes is not None:
            notes.info(
                "run-length.whichever-first",
                f"EasyR1 {self.version} stops after {key} {fmt(epochs)} or "
                f"trainer.max_steps {s.plan.total_steps}, whichever comes first",
                source_keys=[key],
            )


# ---------------------------------------------------------------------------- writing
class _Writer:
    """Canonical model → one EasyR1 band's config (dotted keys), every batch and algorithm knob explicit."""

    def __init__(self, spec: RunSpec, version: str, notes: NoteList) -> None:
        self.spec, self.version, self.notes = spec, version, notes
        self.out: dict[str, Any] = {}
        self.comments: dict[str, str] = {}
        self.total_steps: int | None = spec.plan.total_steps  # changed when a step must grow to a whole update
        self.gpus = 0

    def put(self, key: str, value: Any, comment: str | None = None) -> None:
        if value is not None:
            self.out[key] = value
            if comment:
                self.comments[key] = comment

    def has(self, key: str) -> bool:
        return valid_in(key, self.version)

    def settings(self) -> None:
        s = self.spec
        write_settings(
            s,
            SETTINGS,
            f"EasyR1 {self.version}",
            self.has,
            self.put,
            self.notes,
            skip=("evaluation.temperature", "evaluation.top_p", "evaluation.samples_per_prompt", "logging.entity"),
        )  # the entity has no config key: launch.sh exports WANDB_ENTITY (write)
        e = s.evaluation
        override = {
            name: value
            for name, value in (("temperature", e.temperature), ("top_p", e.top_p), ("n", e.samples_per_prompt))
            if value is not None
        }
        if override:
            self.put(VAL_OVERRIDE, override, "validation sampling")

    def config(self) -> dict[str, Any]:
        self.references()
        self.reward()
        self.data()
        self.checkpointing()
        self.evaluation()
        self.logging()
        self.settings()
        self.launch()
        self.topology()
        self.batch()
        self.algorithm()
        self.generation()
        self.critic()
        self.write_non_plan_sections()
        self.extras()
        self.settle()
        return self.out

    # Rules only the user can satisfy (a data set, a reward file, a checkpoint): error notes, not adjustments.
    _USER_ONLY = frozenset({"easyr1.reward-missing", "easyr1.data-missing", "easyr1.resume-path"})

    def settle(self) -> None:
        """Run EasyR1's own rules on the written config and apply the nearest change each suggests (validated
        against every rule) until none fails; a rule no change can satisfy is a ConfigError."""
        from translator.frameworks.easyr1.checks import CANDIDATES, EXTRA_DEFAULTS, View, detect, suggest

        def rules(view: View) -> list[Any]:
            return [f for f in detect(view) if f.rule not in self._USER_ONLY]

        defaults = {**EXTRA_DEFAULTS, **defaults_for(self.version)}
        for attempt in range(7):
            view = View({**defaults, **self.out}, self.version)
            errors = [f for f in rules(view) if f.severity == "error"]
            if not errors:
                return
            item = errors[0]
            found = suggest(view, item, CANDIDATES[item.rule](view, item), rules, View.metrics)
            if not found or attempt == 6:
                break
            self.out.update(found[0].changes)
            changed = ", ".join(f"{k}={fmt(v)}" for k, v in found[0].changes.items())
            self.notes.warning(
                "target.adjusted",
                f"EasyR1 {self.version} would refuse the direct translation "
                f'("{item.message}"); written instead: {changed} ({found[0].text})',
                target_keys=list(found[0].changes),
            )
        alternatives = "; ".join(
            ", ".join(f"{k}={fmt(v)}" for k, v in option.items())
            for approach in CANDIDATES[item.rule](view, item)
            for option in approach[:2]
        )
        raise ConfigError(
            f'no EasyR1 {self.version} config keeps this run: "{item.message}"',
            key=", ".join(item.keys),
            hint=f"change the source, e.g. {alternatives}"
            if alternatives
            else "change the source's batch sizes or GPU count",
        )

    def sp_key(self, role: str) -> str:
        return f"{role}.ulysses_size" if at_least(self.version, "0.3.1") else f"{role}.ulysses_sequence_parallel_size"

    def references(self) -> None:
        r = self.spec.references
        self.put(f"{ACTOR}.model.model_path", r.model)
        if r.tokenizer and r.tokenizer != r.model:
            self.put(f"{ACTOR}.model.tokenizer_path", r.tokenizer)

    def reward(self) -> None:
        """The reward hook-up of the band; EasyR1 ≥ 0.3.0 refuses to start without a reward file."""
        rw, notes, version = self.spec.reward, self.notes, self.version
        key = reward_key(version)
        others = [
            f"reward model {rw.model}" if rw.model else "",
            f"reward server {rw.remote_url}" if rw.remote_url else "",
        ]
        others = [o for o in others if o]
        if others:
            notes.warning(
                "reward.not-expressible",
                f"EasyR1 scores with a rule-based function only; the source's {' and '.join(others)} cannot be written",
                source_keys=["reward.model", "reward.remote_url"],
                target_keys=[key],
            )
        if (rw.builtin and len(rw.builtin) > 1) or rw.weights:
            notes.warning(
                "reward.not-expressible",
                f"EasyR1 takes one reward function; the source combines "
                f"{', '.join(rw.builtin or [])}"
                + (f" with weights {rw.weights}" if rw.weights else "")
                + ": write one function that returns their weighted sum as 'overall'",
                source_keys=["reward.builtin", "reward.weights"],
                target_keys=[key],
            )
        if not at_least(version, "0.3.0"):
            self.builtin_scorer(key)
            return
        written = None
        if rw.function_path:
            name = rw.function_name or "main"
            written = f"{rw.function_path}:{name}"
            if not rw.function_name:
                notes.info(
                    "reward.function-name",
                    f"the source does not name the function; EasyR1 calls 'main' in {rw.function_path}",
                    target_keys=[key],
                )
        elif rw.builtin:
            examples = reward_examples(version)
            name = rw.builtin[0]
            if examples and name in examples[1]:
                written = f"{examples[0]}/{name}.py:compute_score"
                notes.info(
                    "reward.builtin",
                    f"the built-in scorer '{name}' is EasyR1's {written} (run from the EasyR1 repository root)",
                    target_keys=[key],
                )
        if written is None:
            what = f"the built-in scorer(s) {', '.join(rw.builtin)} have no EasyR1 counterpart; " if rw.builtin else ""
            message = "Score function is not provided." if version == "0.3.0" else "Reward function is not provided."
            notes.error(
                "reward.missing",
                f"{what}EasyR1 {version} refuses to start without a reward function "
                f'("{message}"): add {key}=path/to/reward.py:function, called as '
                f"{reward_signature(version)}",
                target_keys=[key],
            )
            return
        self.put(key, written, "file.py:function (no ':' → main)")
        if rw.function_path and self.spec.framework != "easyr1":
            notes.info(
                "reward.signature",
                f"EasyR1 {version} calls {written} as {reward_signature(version)}; a "
                "function written for another framework's call signature needs a wrapper",
                source_keys=["reward.function_path"],
                target_keys=[key],
            )

    def builtin_scorer(self, key: str) -> None:
        rw, notes, version = self.spec.reward, self.notes, self.version
        known = COMPUTE_SCORES[MARCH if at_least(version, MARCH) else FEB]
        name = rw.builtin[0] if rw.builtin else None
        if name in known:
            self.put(key, name, "built-in scorer")
            return
        what = (
            f"the reward function {rw.function_path}"
            if rw.function_path
            else f"the built-in scorer '{name}'"
            if name
            else "no reward"
        )
        notes.warning(
            "reward.not-expressible",
            f"EasyR1 {version} scores only with a built-in scorer "
            f"({', '.join(known)}); the source has {what}, so EasyR1's default 'math' scorer runs",
            target_keys=[key],
        )
        self.put(key, "math", "built-in scorer")

    def data(self) -> None:
        d, notes = self.spec.data, self.notes
        train = self.data_source("train", d.train_sources, d.train_split, d.train_subset, "data.train_files")
        evaluation = self.data_source("eval", d.eval_sources, d.eval_split, None, "data.val_files")
        if train is None:
            notes.error(
                "data.missing",
                "the source names no training data; EasyR1 cannot start without it: set "
                "data.train_files (a Hub dataset 'org/name@split', a file or a directory)",
                target_keys=["data.train_files"],
            )
        elif evaluation is None:
            # EasyR1 always builds the validation set and validates after the last step; keep that one pass only.
            evaluation = train
            notes.warning(
                "data.eval-required",
                "EasyR1 always loads data.val_files and validates after the last "
                "step; the source has no evaluation data, so the training data is written there and "
                "validation before training is turned off (set a smaller held-out set)",
                target_keys=["data.val_files", "trainer.val_before_train"],
            )
            if not self.spec.evaluation.before_training:
                self.put("trainer.val_before_train", False)
        self.put("data.train_files", train, "Hub id@split, a file or a directory")
        self.put("data.val_files", evaluation)
        if d.train_weights and len(d.train_sources or []) > 1:
            notes.warning(
                "data.not-expressible",
                f"EasyR1 reads one training source; the mixture weights {d.train_weights} are lost",
                source_keys=["data.train_weights"],
            )
        if d.prompt_key:
            self.put("data.prompt_key", d.prompt_key, "column with the prompt")
        if d.answer_key:
            if self.has("data.answer_key"):
                self.put("data.answer_key", d.answer_key, "column with the ground truth")
            elif d.answer_key != "answer":
                notes.warning(
                    "data.not-expressible",
                    f"EasyR1 {self.version} reads no answer column ('{d.answer_key}' is lost)",
                    source_keys=["data.answer_key"],
                )
        if d.max_eval_prompts is not None:
            notes.warning(
                "data.not-expressible",
                f"EasyR1 has no cap on validation prompts; all of data.val_files "
                f"is used instead of {d.max_eval_prompts}",
                source_keys=["data.max_eval_prompts"],
            )

    def data_source(
        self, role: str, sources: list[str] | None, split: str | None, subset: str | None, key: str
    ) -> str | None:
        """One source as utils/dataset.py reads it: 'path' or 'path@split' (split 'train' by default)."""
        if not sources:
            return None
        if len(sources) > 1:
            self.notes.warning(
                "data.not-expressible",
                f"EasyR1 reads one {role} source; only {sources[0]} of {', '.join(sources)} is written",
                source_keys=[f"data.{role}_sources"],
                target_keys=[key],
            )
        if subset:
            self.notes.warning(
                "data.not-expressible",
                f"EasyR1 loads Hub datasets without a config name; "
                f"'{subset}' of {sources[0]} cannot be chosen (load_dataset picks the default)",
                source_keys=[f"data.{role}_subset"],
                target_keys=[key],
            )
        source = sources[0]
        if "@" in source:
            self.notes.warning(
                "data.not-expressible",
                f"EasyR1 reads '@' as the split separator; the source path {source} contains one",
                source_keys=[f"data.{role}_sources"],
                target_keys=[key],
            )
        return f"{source}@{split}" if split else source

    def checkpointing(self) -> None:
        c, notes, version = self.spec.checkpointing, self.notes, self.version
        if c.every_steps is not None:
            every = written_cadence(c.every_steps, step_growth(self.spec), notes, "checkpointing", "trainer.save_freq")
            self.put(
                "trainer.save_freq",
                every if every > 0 else -1,
                "rollout steps between checkpoints (-1: only the final one)",
            )
            if c.every_steps == 0:
                notes.info(
                    "checkpointing.final-save",
                    "the source saves no checkpoint; EasyR1 always saves one after the last step",
                    target_keys=["trainer.save_freq"],
                )
        logging = self.spec.logging
        if c.directory != f"checkpoints/{logging.project}/{logging.run_name}":  # EasyR1's default
            self.put("trainer.save_checkpoint_path", c.directory)
        if c.keep_last is not None:
            if self.has("trainer.save_limit"):
                self.put("trainer.save_limit", c.keep_last, "checkpoints kept, the newest and the best included")
            elif c.keep_last == 1:
                self.put("trainer.remove_previous_ckpt", True)
            else:
                notes.warning(
                    "checkpointing.not-expressible",
                    f"EasyR1 {version} keeps every checkpoint or the "
                    f"last one only; keeping {c.keep_last} is not expressible, all are kept",
                    source_keys=["checkpointing.keep_last"],
                )
        if c.hf_format:
            notes.info(
                "checkpointing.hf-export",
                "EasyR1 saves sharded checkpoints; run scripts/model_merger.py "
                "--local_dir <checkpoint>/global_step_N/actor for Hugging Face weights",
                source_keys=["checkpointing.hf_format"],
            )
        self.resume(c.resume)

    def resume(self, resume: str | None) -> None:
        notes, version, auto = self.notes, self.version, self.has("trainer.find_last_checkpoint")
        if resume in (None, "auto", "never"):
            if resume is not None and auto:
                self.put("trainer.find_last_checkpoint", resume == "auto", "resume from the latest checkpoint")
            elif resume == "auto":
                notes.warning(
                    "checkpointing.not-expressible",
                    f"EasyR1 {version} does not resume by itself "
                    "(find_last_checkpoint arrived in 0.3.2): set trainer.load_checkpoint_path to resume",
                    target_keys=["trainer.load_checkpoint_path"],
                )
            return
        self.put("trainer.load_checkpoint_path", resume)
        if "global_step_" not in resume.strip("/").rsplit("/", 1)[-1]:
            notes.warning(
                "checkpointing.resume-path",
                f"EasyR1 resumes only from a directory named global_step_N "
                f"(\"`load_checkpoint_path` should end with `global_step_*`.\"); '{resume}' is not one",
                target_keys=["trainer.load_checkpoint_path"],
            )

    def launch(self) -> None:
        host, port = self.spec.launch.main_process_host, self.spec.launch.main_process_port
        if host:
            address = f"{host}:{port}" if port else host
            self.notes.info(
                "launch.ray-cluster",
                f"EasyR1 joins nodes through Ray, outside its config: run 'ray start "
                f"--head' on {host} and 'ray start --address={address}' on the others (use the Ray port), "
                "then the launch script on the head node only",
                source_keys=["launch.main_process_host"],
            )

    def evaluation(self) -> None:
        e = self.spec.evaluation
        key = "trainer.val_freq" if at_least(self.version, MARCH) else "trainer.test_freq"
        if e.every_steps is not None:
            every = written_cadence(e.every_steps, step_growth(self.spec), self.notes, "evaluation", key)
            self.put(key, every if every > 0 else -1, "rollout steps between validations (-1: none)")
        if e.before_training is not None:
            self.put("trainer.val_before_train", e.before_training)

    def logging(self) -> None:
        g, notes = self.spec.logging, self.notes
        self.put("trainer.project_name", g.project)
        self.put("trainer.experiment_name", g.run_name)
        if g.backends is not None:
            known = loggers_for(self.version)
            kept = [b for b in g.backends if b in known]
            lost = [b for b in g.backends if b not in known]
            if lost:
                notes.warning(
                    "logging.not-expressible",
                    f"EasyR1 {self.version} has no {', '.join(lost)} logger ({', '.join(known)}); not written",
                    source_keys=["logging.backends"],
                    target_keys=["trainer.logger"],
                )
            self.put("trainer.logger", kept or ["console"])

    def topology(self) -> None:
        t, plan, notes = self.spec.topology, self.spec.plan, self.notes
        dp = plan.data_parallel_size or t.training_gpus or 8
        sp = t.sequence_parallel_size or 1
        gpus = dp * sp
        others = [
            f"{name} {size}"
            for name, size in (
                ("tensor parallel", t.tensor_parallel_size),
                ("pipeline parallel", t.pipeline_parallel_size),
                ("context parallel", t.context_parallel_size),
            )
            if size and size > 1
        ]
        if others:
            notes.warning(
                "topology.not-expressible",
                f"EasyR1 trains with FSDP and Ulysses only; the source's "
                f"{', '.join(others)} is dropped and the {dp} data-parallel ranks are kept",
                source_keys=["topology.training_backend"],
            )
        if t.training_gpus and t.training_gpus != gpus:
            notes.warning(
                "topology.gpus-changed",
                f"the source trains on {t.training_gpus} GPUs; EasyR1 needs "
                f"{gpus} to keep {dp} data-parallel ranks" + (f" with Ulysses {sp}" if sp > 1 else ""),
                source_keys=["topology.training_gpus"],
                target_keys=["trainer.n_gpus_per_node", "trainer.nnodes"],
            )
        if t.rollout_gpus:
            total = (t.training_gpus or gpus) + t.rollout_gpus
            notes.warning(
                "topology.rollout-colocated",
                f"the source uses {total} GPUs ({t.rollout_gpus} of them for "
                f"a separate rollout server); EasyR1 colocates vLLM with training, so the written config "
                f"uses {gpus} GPUs for both",
                source_keys=["topology.rollout_gpus"],
                target_keys=["trainer.n_gpus_per_node", f"{ROLLOUT}.tensor_parallel_size"],
            )
        ahead = self.spec.asynchrony.max_steps_ahead
        if ahead:
            notes.warning(
                "asynchrony.not-expressible",
                f"EasyR1 generates each step's batch with the current weights; "
                f"the source's generation {ahead} step(s) ahead of training is dropped (on-policy here)",
                source_keys=["asynchrony.max_steps_ahead"],
            )
        nodes = t.nodes if t.nodes and gpus % t.nodes == 0 else 1
        self.put("trainer.n_gpus_per_node", gpus // nodes, "GPUs per node (all of them train and generate)")
        self.put("trainer.nnodes", nodes)
        self.put(self.sp_key(ACTOR), sp, "Ulysses sequence parallelism: data-parallel ranks = GPUs ÷ this")
        rollout_tp = t.rollout_tensor_parallel_size or 1
        if gpus % rollout_tp:
            rollout_tp = math.gcd(gpus, rollout_tp)
        self.put(f"{ROLLOUT}.tensor_parallel_size", rollout_tp, "GPUs per vLLM engine")
        self.gpus = gpus
        self.placement(gpus, rollout_tp)

    def placement(self, gpus: int, rollout_tp: int) -> None:
        """EasyR1 colocates everything: vLLM runs gpus ÷ TP engines on the training GPUs, next to the reference."""
        t, notes = self.spec.topology, self.notes
        if t.rollout_gpu_memory_fraction is not None:
            self.put(
                f"{ROLLOUT}.gpu_memory_utilization",
                t.rollout_gpu_memory_fraction,
                "share of each GPU's memory vLLM may take (it shares the GPU with training)",
            )
        engines = gpus // rollout_tp
        if t.rollout_engines is not None and t.rollout_engines != engines:
            notes.warning(
                "topology.rollout-engines-changed",
                f"the source runs {t.rollout_engines} rollout engine(s)"
                f"; EasyR1 runs one per {rollout_tp} GPU(s) on all {gpus} GPUs: {engines}",
                source_keys=["topology.rollout_engines"],
                target_keys=[f"{ROLLOUT}.tensor_parallel_size"],
            )
        if t.colocate_models is False:
            notes.info(
                "topology.colocated",
                "the source gives the reference/critic models GPUs of their own; EasyR1 "
                "places every model on the same GPUs",
                source_keys=["topology.colocate_models"],
            )

    def batch(self) -> None:
        plan, notes, version = self.spec.plan, self.notes, self.version
        dp = plan.data_parallel_size or self.gpus
        n = plan.samples_per_prompt or 1
        rbs = whole_prompts(self.spec, notes, "EasyR1", "data.rollout_batch_size")
        per_opt = plan.samples_per_optimizer_step
        gbs = None
        if per_opt is not None:
            mini = Fraction(per_opt) / n
            gbs = max(1, round(mini))
            if mini.denominator != 1:
                notes.warning(
                    "units.prompts-vs-samples",
                    f"{fmt(per_opt)} samples per optimizer step is not a whole "
                    f"number of prompts (n = {n}); worker.actor.global_batch_size counts prompts, so {gbs} "
                    f"prompts ({gbs * n} samples) is written",
                    target_keys=[f"{ACTOR}.global_batch_size"],
                )
            elif self.spec.framework != "easyr1":
                notes.info(
                    "units.prompts-vs-samples",
                    f"worker.actor.global_batch_size counts prompts: {fmt(per_opt)} "
                    f"samples per optimizer step ÷ rollout.n {n} = {gbs} prompts (global); EasyR1 splits "
                    f"{gbs * n} samples over the {dp} data-parallel ranks itself",
                    source_keys=["plan.samples_per_optimizer_step"],
                    target_keys=[f"{ACTOR}.global_batch_size"],
                )
            if rbs is not None and rbs < gbs:
                # EasyR1 needs rollout_batch_size % global_batch_size == 0: one step feeds whole updates.
                notes.warning(
                    "batch.not-expressible",
                    f"the source updates every {fmt(Fraction(gbs, rbs))} steps "
                    f"({rbs} prompts per step, {gbs} per optimizer step); EasyR1 needs rollout_batch_size "
                    "to be a multiple of global_batch_size, so one step generates the whole optimizer batch",
                    target_keys=["data.rollout_batch_size"],
                )
                if plan.total_steps is not None and plan.optimizer_steps_per_step:
                    self.total_steps = math.ceil(
                        plan.total_steps * Fraction(plan.optimizer_steps_per_step) / (plan.epochs_per_step or 1)
                    )
                rbs = gbs
            elif rbs is not None and rbs % gbs:
                notes.warning(
                    "batch.indivisible",
                    f"rollout_batch_size {rbs} is not a multiple of global_batch_size "
                    f'{gbs}; EasyR1 refuses to start ("Rollout batch size must be divisible by actor '
                    'global batch size.")',
                    target_keys=["data.rollout_batch_size"],
                )
        self.put("data.rollout_batch_size", rbs, "prompts per step (each sampled worker.rollout.n times)")
        self.put(f"{ROLLOUT}.n", n, "samples per prompt")
        self.put(f"{ACTOR}.global_batch_size", gbs, "prompts per optimizer step (× rollout.n samples)")
        epochs = plan.epochs_per_step or 1
        if version == FEB and epochs != 1:
            notes.warning(
                "batch.not-expressible",
                f"EasyR1 {FEB} supports only ppo_epochs 1; the source passes {epochs} times over each step's samples",
                target_keys=[f"{ACTOR}.ppo_epochs"],
            )
        self.put(f"{ACTOR}.ppo_epochs", epochs, "passes over each step's samples")
        self.put("trainer.max_steps", self.total_steps, "rollout steps in the run")
        self.micro_batch(rbs, gbs, n, dp)

    def micro_batch(self, rbs: int | None, gbs: int | None, n: int, dp: int) -> None:
        plan, budget, notes, version = self.spec.plan, self.spec.token_budget, self.notes, self.version
        per_device = gbs * n // dp if gbs else None
        lengths = self.spec.lengths
        defaults = defaults_for(version)
        width = (lengths.max_prompt_tokens or defaults["data.max_prompt_length"]) + (
            lengths.max_response_tokens or defaults["data.max_response_length"]
        )
        update_key = f"{ACTOR}.micro_batch_size_per_device_for_update"
        experience_key = f"{ACTOR}.micro_batch_size_per_device_for_experience"
        dynamic_key = f"{ACTOR}.dynamic_batching"
        if plan.micro_batch_per_device is not None:
            update = int(plan.micro_batch_per_device)
            experience = int(self.spec.generation.logprob_micro_batch_per_device or update)
            if self.has(dynamic_key):
                self.put(dynamic_key, False, "micro-batches count samples, not a token budget")
        elif self.has(dynamic_key):
            # EasyR1's token budget is micro × padded width: the largest whole micro whose budget stays within the
            # source's (never more memory per micro-batch than the source used).
            tokens = budget.max_tokens_per_device
            if tokens is None:
                notes.warning(
                    "batch.token-budget-assumed",
                    "the source sets neither a micro-batch nor a token "
                    f"budget; micro_batch_size_per_device_for_update {defaults[update_key]} (EasyR1's "
                    "default) is written",
                    target_keys=[update_key],
                )
            update = self.divisor(per_device, tokens // width if tokens else defaults[update_key], at_most=True)
            logprob = budget.logprob_max_tokens_per_device or tokens
            experience = self.divisor(
                rbs * n if rbs else None, logprob // width if logprob else defaults[experience_key], at_most=True
            )
            self.put(dynamic_key, True, "pack micro-batches by tokens: budget = micro × (max_prompt + max_response)")
            if tokens is not None and update * width != tokens:
                notes.info(
                    "batch.token-budget",
                    f"EasyR1 derives the token budget from the micro size: "
                    f"{update} × {width} padded tokens = {update * width} tokens per rank (the source's "
                    f"budget is {tokens})",
                    source_keys=["token_budget.max_tokens_per_device"],
                    target_keys=[update_key],
                )
        else:
            tokens = budget.max_tokens_per_device
            update = self.divisor(per_device, tokens // width if tokens else defaults[update_key], at_most=bool(tokens))
            experience = self.divisor(rbs * n if rbs else None, update)
            notes.warning(
                "batch.token-budget-not-expressible",
                f"EasyR1 {version} has no dynamic batching (0.3.2 added it); a fixed micro-batch of "
                f"{update} samples per rank is written"
                + (f" (the source packs up to {tokens} tokens)" if tokens else ""),
                target_keys=[update_key],
            )
        if per_device and update and per_device % update:
            notes.warning(
                "batch.indivisible",
                f"{per_device} samples per rank per optimizer step are not a multiple "
                f"of the micro-batch {update}; EasyR1 refuses to start",
                target_keys=[update_key],
            )
        self.put(
            update_key,
            update,
            "samples per micro-batch per data-parallel rank"
            + (" (× padded width = token budget)" if self.out.get(dynamic_key) else ""),
        )
        self.put(
            experience_key,
            experience,
            "samples per log-prob micro-batch per rank (actor and ref)"
            + (" (× padded width = token budget)" if self.out.get(dynamic_key) else ""),
        )

    @staticmethod
    def divisor(total: int | None, wanted: int, at_most: bool = False) -> int:
        """The divisor of ``total`` closest to ``wanted`` (EasyR1 checks divisibility even with dynamic batching);
        with ``at_most``, the largest one not above ``wanted``."""
        wanted = max(1, int(wanted))
        if not total:
            return wanted
        whole = divisors(total)
        if at_most:
            return max(d for d in whole if d <= wanted)
        return min(whole, key=lambda d: (abs(d - wanted), -d))

    def generation(self) -> None:
        g, notes, version = self.spec.generation, self.notes, self.version
        if g.prompts_per_round is not None:
            if self.has("data.mini_rollout_batch_size"):
                self.put("data.mini_rollout_batch_size", g.prompts_per_round, "prompts per generation round")
            else:
                notes.warning(
                    "generation.not-expressible",
                    f"{g.prompts_per_round} prompts per generation round "
                    f"needs data.mini_rollout_batch_size (EasyR1 0.3.1+)",
                    source_keys=["generation.prompts_per_round"],
                )
        if g.filter_groups:
            if self.has("algorithm.online_filtering"):
                self.put("algorithm.online_filtering", True)
                self.put("algorithm.filter_key", g.filter_metric or "overall", "reward metric the filter reads")
                if self.spec.framework != "easyr1":
                    notes.info(
                        "generation.filter-groups",
                        "EasyR1 keeps a group when the mean of its filter_key "
                        "metric lies strictly in (filter_low, filter_high) = (0.01, 0.99), which for a 0/1 "
                        "accuracy is the same as dropping groups whose metric is constant",
                        target_keys=["algorithm.online_filtering"],
                    )
            else:
                notes.warning(
                    "generation.not-expressible",
                    f"group filtering needs EasyR1 0.3.1+ (algorithm.online_filtering), not {version}",
                    source_keys=["generation.filter_groups"],
                )
        elif self.has("algorithm.online_filtering"):
            self.put("algorithm.online_filtering", False)
        if g.max_rounds_per_step is not None and self.has("trainer.max_try_make_batch"):
            self.put(
                "trainer.max_try_make_batch", g.max_rounds_per_step or -1, "generation rounds per step (-1: no limit)"
            )

    def algorithm(self) -> None:
        a, notes, version = self.spec.algorithm, self.notes, self.version
        estimator = a.advantage_estimator or "grpo"
        since = ESTIMATORS.get(estimator)
        if since is None or not at_least(version, since):
            fallback = "grpo" if a.advantage_normalization_scope != "batch" else "reinforce_plus_plus"
            notes.warning(
                "algorithm.not-expressible",
                f"advantage estimator '{estimator}' is not in EasyR1 {version}; '{fallback}' is written",
                source_keys=["algorithm.advantage_estimator"],
                target_keys=["algorithm.adv_estimator"],
            )
            estimator = fallback
        self.put("algorithm.adv_estimator", estimator)
        if a.advantage_std_normalization is not None and a.advantage_std_normalization != (estimator in STD_NORMALISED):
            notes.warning(
                "algorithm.not-expressible",
                f"EasyR1's {estimator} "
                + (
                    "always divides advantages by the std"
                    if estimator in STD_NORMALISED
                    else "does not divide advantages by the std"
                )
                + "; the source "
                + ("does not" if not a.advantage_std_normalization else "does"),
                source_keys=["algorithm.advantage_std_normalization"],
            )
        if estimator in GROUP_ESTIMATORS and a.advantage_normalization_scope == "batch":
            notes.warning(
                "algorithm.not-expressible",
                f"EasyR1's {estimator} normalises within each group; the source normalises over the batch",
                source_keys=["algorithm.advantage_normalization_scope"],
            )
        if estimator in ("grpo", "rloo") and (self.spec.plan.samples_per_prompt or 1) < 2:
            notes.warning(
                "algorithm.group-too-small",
                f"EasyR1's {estimator} needs worker.rollout.n > 1",
                target_keys=[f"{ROLLOUT}.n"],
            )
        self.kl()
        if at_least(version, "0.3.0"):
            low = a.clip_ratio_low if a.clip_ratio_low is not None else 0.2
            high = a.clip_ratio_high if a.clip_ratio_high is not None else low  # EasyR1's 0.3 default would differ
            self.put(f"{ACTOR}.clip_ratio_low", low)
            self.put(f"{ACTOR}.clip_ratio_high", high)
            if a.clip_ratio_dual is None:
                notes.info(
                    "algorithm.dual-clip",
                    "EasyR1 always applies dual-clip for negative advantages; the "
                    "source has none, so its default bound 3.0 is written",
                    target_keys=[f"{ACTOR}.clip_ratio_dual"],
                )
            self.put(f"{ACTOR}.clip_ratio_dual", a.clip_ratio_dual if a.clip_ratio_dual is not None else 3.0)
            if a.entropy_coef:
                notes.warning(
                    "algorithm.not-expressible",
                    f"EasyR1 {version} has no entropy bonus; the source's coefficient {a.entropy_coef} is dropped",
                    source_keys=["algorithm.entropy_coef"],
                )
        else:
            clip = a.clip_ratio_low if a.clip_ratio_low is not None else 0.2
            self.put(f"{ACTOR}.clip_ratio", clip)
            if a.clip_ratio_high not in (None, clip):
                notes.warning(
                    "algorithm.not-expressible",
                    f"EasyR1 {version} has one symmetric clip_ratio; clip_ratio_high {a.clip_ratio_high} is lost",
                    target_keys=[f"{ACTOR}.clip_ratio"],
                )
            if a.clip_ratio_dual is not None:
                notes.warning(
                    "algorithm.not-expressible",
                    f"EasyR1 {version} has no dual-clip; bound {a.clip_ratio_dual} is lost",
                    source_keys=["algorithm.clip_ratio_dual"],
                )
            self.put(f"{ACTOR}.entropy_coeff", a.entropy_coef or 0.0)  # the default 1e-3 would add a bonus
        self.loss()

    def kl(self) -> None:
        a, notes, version = self.spec.algorithm, self.notes, self.version
        placement = a.kl_placement or "none"
        coef = a.kl_coef if a.kl_coef is not None else 0.0
        if placement == "both":
            notes.warning(
                "algorithm.not-expressible",
                "EasyR1 puts KL in the loss or in the reward, not both; the loss term is kept",
                source_keys=["algorithm.kl_placement"],
            )
            placement = "loss"
        estimator = a.kl_estimator or ("k3" if placement == "loss" else "k1")
        name = KL_ESTIMATOR_NAMES.get(estimator)
        if name is None:
            notes.warning(
                "algorithm.not-expressible",
                f"KL estimator '{estimator}' is not in EasyR1; low_var_kl (k3) is written",
                source_keys=["algorithm.kl_estimator"],
            )
            name = "low_var_kl"
        if not at_least(version, "0.3.0"):
            if placement == "none":
                notes.warning(
                    "algorithm.not-expressible",
                    f"EasyR1 {version} always builds the reference model and "
                    "applies KL in the reward when use_kl_loss is off; a zero coefficient is written",
                    source_keys=["algorithm.kl_placement"],
                    target_keys=["algorithm.kl_coef"],
                )
            self.put(f"{ACTOR}.use_kl_loss", placement == "loss")
            if placement == "loss":
                self.put(f"{ACTOR}.kl_loss_coef", coef)
                self.put(f"{ACTOR}.kl_loss_type", name)
            else:
                self.put("algorithm.kl_coef", coef if placement == "reward" else 0.0)
                self.put("algorithm.kl_penalty", name)
            return
        self.put("algorithm.disable_kl", placement == "none", "true: no reference model, no KL at all")
        self.put("algorithm.use_kl_loss", placement == "loss", "true: KL in the actor loss; false: in the reward")
        self.put("algorithm.kl_coef", coef if placement != "none" else 0.0)
        self.put("algorithm.kl_penalty", name)
        if placement == "reward":
            self.put("algorithm.kl_type", "fixed")

    def loss(self) -> None:
        a, notes, version = self.spec.algorithm, self.notes, self.version
        aggregation = a.loss_aggregation or "token-mean"
        modes = {agg: mode for mode, agg in LOSS_AVG_MODES.items()}
        if at_least(version, "0.3.1"):
            mode = modes.get(aggregation)
            if mode is None:
                mode = "seq" if aggregation.startswith("seq") else "token"
                notes.warning(
                    "algorithm.not-expressible",
                    f"loss aggregation '{aggregation}' has no EasyR1 "
                    f"loss_avg_mode; '{mode}' ({LOSS_AVG_MODES[mode]}) is written",
                    target_keys=[f"{ACTOR}.loss_avg_mode"],
                )
            self.put(f"{ACTOR}.loss_avg_mode", mode, "token: token mean; seq: mean of per-sequence means")
        elif aggregation != "token-mean":
            notes.warning(
                "algorithm.not-expressible",
                f"EasyR1 {version} averages the loss over tokens only; '{aggregation}' is lost",
                target_keys=[f"{ACTOR}.loss_avg_mode"],
            )
        scope = "optimizer_step" if at_least(version, "0.3.2") else "micro_batch"
        if a.loss_normalizer_scope and a.loss_normalizer_scope != scope:
            notes.warning(
                "algorithm.loss-normalizer-scope",
                f"the source normalises the loss over each {a.loss_normalizer_scope.replace('_', ' ')}; "
                f"EasyR1 {version} over each {scope.replace('_', ' ')}",
                source_keys=["algorithm.loss_normalizer_scope"],
            )
        policy = a.policy_loss or "vanilla"
        names = {canonical: native for native, canonical in LOSS_TYPES.items()}
        if at_least(version, "0.3.3.dev0"):
            native = names.get(policy)
            if native is None:
                notes.warning(
                    "algorithm.not-expressible",
                    f"policy loss '{policy}' has no EasyR1 loss_type; default (PPO clip) is written",
                    target_keys=[f"{ACTOR}.loss_type"],
                )
                native = "default"
            self.put(f"{ACTOR}.loss_type", native)
        elif policy != "vanilla":
            notes.warning(
                "algorithm.not-expressible",
                f"policy loss '{policy}' needs EasyR1 after 0.3.2 (loss_type)",
                target_keys=[f"{ACTOR}.loss_type"],
            )

    def critic(self) -> None:
        c, plan, version = self.spec.critic, self.spec.plan, self.version
        if not (c.enabled or self.out.get("algorithm.adv_estimator") == "gae"):
            return
        n = plan.samples_per_prompt or 1
        samples = c.samples_per_optimizer_step or plan.samples_per_optimizer_step
        if samples is not None:
            self.put(f"{CRITIC}.global_batch_size", max(1, round(Fraction(samples) / n)), "prompts (× rollout.n)")
        if self.has(f"{CRITIC}.ppo_epochs"):
            self.put(f"{CRITIC}.ppo_epochs", c.epochs_per_step or plan.epochs_per_step)
        micro = c.micro_batch_per_device or plan.micro_batch_per_device
        if micro is not None:
            self.put(f"{CRITIC}.micro_batch_size_per_device_for_update", int(micro))
            if self.has(f"{CRITIC}.dynamic_batching"):
                self.put(f"{CRITIC}.dynamic_batching", False)
        elif self.has(f"{CRITIC}.dynamic_batching"):
            self.put(f"{CRITIC}.dynamic_batching", True)
            self.put(
                f"{CRITIC}.micro_batch_size_per_device_for_update",
                self.out.get(f"{ACTOR}.micro_batch_size_per_device_for_update"),
            )
        # The critic's own experience micro-batch and Ulysses size travel as EasyR1 extras when the source has them.
        if not self.own_extra(f"{CRITIC}.micro_batch_size_per_device_for_experience"):
            self.put(
                f"{CRITIC}.micro_batch_size_per_device_for_experience",
                self.out.get(f"{ACTOR}.micro_batch_size_per_device_for_experience"),
            )
        sp = self.spec.topology.sequence_parallel_size or 1
        if sp > 1 and at_least(version, "0.3.0") and not self.own_extra(self.sp_key(CRITIC)):
            self.put(self.sp_key(CRITIC), sp)
        self.put(f"{CRITIC}.optim.lr", c.lr)
        self.put(f"{CRITIC}.model.model_path", c.model or self.spec.references.model)

    def write_non_plan_sections(self) -> None:
        s, notes, version = self.spec, self.notes, self.version
        self.put("data.max_prompt_length", s.lengths.max_prompt_tokens, "tokens")
        self.put("data.max_response_length", s.lengths.max_response_tokens, "tokens")
        self.put(f"{ROLLOUT}.temperature", s.sampling.temperature)
        self.put(f"{ROLLOUT}.top_p", s.sampling.top_p)
        if s.sampling.top_k is not None:
            self.put(f"{ROLLOUT}.top_k", s.sampling.top_k if s.sampling.top_k > 0 else -1)
        o = s.optimizer
        self.put(f"{ACTOR}.optim.lr", o.lr)
        self.put(f"{ACTOR}.optim.weight_decay", o.weight_decay)
        self.put(f"{ACTOR}.max_grad_norm", o.grad_clip)
        schedule = o.lr_schedule or "constant"
        if at_least(version, "0.3.3.dev0"):
            if schedule not in ("constant", "cosine"):
                written = "cosine" if "cosine" in schedule else "constant"
                notes.warning(
                    "optimizer.not-expressible",
                    f"lr schedule '{schedule}' is not in EasyR1 (constant or cosine); '{written}' is written",
                    source_keys=["optimizer.lr_schedule"],
                    target_keys=[f"{ACTOR}.optim.lr_scheduler_type"],
                )
                schedule = written
            self.put(f"{ACTOR}.optim.lr_scheduler_type", schedule)
            if schedule == "cosine" and o.min_lr_ratio is not None:
                self.put(f"{ACTOR}.optim.min_lr_ratio", o.min_lr_ratio, "cosine floor as a fraction of lr")
        elif schedule != "constant":
            notes.warning(
                "optimizer.not-expressible",
                f"EasyR1 {version} keeps the lr constant after warmup; the source's '{schedule}' schedule is lost",
                source_keys=["optimizer.lr_schedule"],
            )
        self.warmup()
        self.run_length()

    def warmup(self) -> None:
        s, notes, version = self.spec, self.notes, self.version
        o = s.optimizer
        ratio_key = (
            f"{ACTOR}.optim.lr_warmup_ratio" if at_least(version, MARCH) else f"{ACTOR}.optim.lr_warmup_steps_ratio"
        )
        if o.warmup_steps is not None:
            steps = o.warmup_steps
            if o.warmup_unit == "optimizer_steps":
                per_step = s.plan.optimizer_steps_per_step or 1
                steps = math.ceil(o.warmup_steps / per_step)
                notes.info(
                    "units.warmup",
                    f"warmup of {o.warmup_steps} optimizer steps = {steps} rollout steps "
                    f"({fmt(per_step)} optimizer steps per step); EasyR1 steps its scheduler once per rollout "
                    "step",
                    target_keys=[f"{ACTOR}.optim.lr_warmup_steps"],
                )
            if not steps:  # no warm-up, as a ratio: EasyR1's config refuses lr_warmup_steps 0
                self.put(ratio_key, 0.0, "no warm-up")
            elif at_least(version, "0.3.1"):
                self.put(f"{ACTOR}.optim.lr_warmup_steps", steps, "rollout steps (one scheduler step per update)")
            elif s.plan.total_steps:
                self.put(
                    ratio_key, steps / s.plan.total_steps, f"fraction of the run: {steps} of {s.plan.total_steps} steps"
                )
            else:
                notes.warning(
                    "optimizer.not-expressible",
                    f"EasyR1 {version} sets warmup as a fraction of the run "
                    f"and the run length is unknown; {steps} warmup steps are not written",
                    target_keys=[ratio_key],
                )
        else:
            self.put(ratio_key, o.warmup_ratio if o.warmup_ratio is not None else 0.0, "fraction of the run")

    def run_length(self) -> None:
        s, notes = self.spec, self.notes
        key = "trainer.total_epochs" if at_least(self.version, "0.3.1") else "trainer.total_episodes"
        passes = s.run_length.dataset_passes
        self.prompt_cap(passes)
        if passes is None:
            return
        g, rbs = s.generation, self.out.get("data.rollout_batch_size")
        epochs = Fraction(passes).limit_denominator(1000)
        mini = self.out.get("data.mini_rollout_batch_size")
        if mini and rbs and not g.filter_groups:
            pulled = math.ceil(rbs / mini) * mini  # the step count assumes rbs per step; the loader wraps
            epochs = epochs * Fraction(rbs, pulled)
        if epochs.denominator != 1:
            notes.warning(
                "run-length.rounded",
                f"{fmt(epochs)} epochs rounded up to {math.ceil(epochs)}: {key} is a whole number",
                target_keys=[key],
            )
        self.put(key, math.ceil(epochs), "passes over the prompt data")

    def prompt_cap(self, passes: float | None) -> None:
        """EasyR1 has no cap on the prompts read: the run length it implies becomes trainer.max_steps (the
        loader drops the last partial batch: floor(cap ÷ rollout_batch_size) steps per pass)."""
        cap, rbs = self.spec.data.max_train_prompts, self.out.get("data.rollout_batch_size")
        if cap is None or not rbs:
            return
        passes_fraction = Fraction(passes if passes is not None else 1).limit_denominator(1000)
        steps = math.ceil(cap // rbs * passes_fraction)
        if self.out.get("trainer.max_steps") is None and steps > 0:
            self.put("trainer.max_steps", steps, "rollout steps in the run")
            self.notes.warning(
                "data.max-prompts-as-steps",
                f"EasyR1 cannot limit the training set to {cap} "
                f"prompts; the run length it gives is written as trainer.max_steps {steps} ({cap} "
                f"// {rbs} prompts per step × {fmt(passes_fraction)} pass(es)), and the prompts "
                "are drawn from the whole data set",
                source_keys=["data.max_train_prompts"],
                target_keys=["trainer.max_steps"],
            )
        else:
            self.notes.warning(
                "data.not-expressible",
                f"EasyR1 cannot limit the training set to {cap} prompts; the prompts are drawn from the whole data set",
                source_keys=["data.max_train_prompts"],
            )

    def extras(self) -> None:
        foreign, gone = [], []
        for extra in self.spec.extras:
            if extra.framework != "easyr1":
                foreign.append(extra)
                continue
            key = self.spelling(extra.key)
            if key is None or (key in VALUES and extra.value not in VALUES[key].get(self.version, (extra.value,))):
                gone.append(extra)  # a key of another band, or a value this band's code rejects
            elif not (key in AUTO_KEYS and _within(self.version, *AUTO_KEYS[key][:2])):
                self.out.setdefault(key, extra.value)
        if gone:
            self.notes.info(
                "keys.not-translated",
                f"{len(gone)} EasyR1 key(s) of another band have no counterpart "
                f"in EasyR1 {self.version} and are not written: " + ", ".join(f"{e.key}={e.value}" for e in gone),
                source_keys=[e.key for e in gone],
            )
        if foreign:
            self.notes.info(
                "keys.not-translated",
                not_written(foreign[0].framework, [e.key for e in foreign], "EasyR1"),
                source_keys=[e.key for e in foreign],
            )

    def own_extra(self, key: str) -> bool:
        """Whether the source carries this EasyR1 key (in any band's spelling) as an extra."""
        return any(e.framework == "easyr1" and self.spelling(e.key) == key for e in self.spec.extras)

    def spelling(self, key: str) -> str | None:
        """The key's name in the target band, following renames in either direction (None: gone)."""
        parent = _dict_parent(key)
        if parent:
            renamed = self.spelling(parent)
            return renamed + key[len(parent) :] if renamed else None
        if valid_in(key, self.version):
            return key
        for old, new, _since in RENAMES:
            if key == old and valid_in(new, self.version):
                return new
            if key == new and valid_in(old, self.version):
                return old
        return None if known_anywhere(key) else key


def _nest(flat: dict[str, Any]) -> dict[str, Any]:
    tree: dict[str, Any] = {}
    for key, value in flat.items():
        node = tree
        *parents, leaf = key.split(".")
        for part in parents:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):  # a scalar and a sub-key: keep the sub-keys
                child = node[part] = {}
            node = child
        if not (isinstance(node.get(leaf), dict) and node[leaf]):
            node[leaf] = value
    return tree


_ORDER = ("data", "algorithm", "worker", "trainer")


def _emit_yaml(tree: dict[str, Any], comments: dict[str, str], prefix: str = "", depth: int = 0) -> list[str]:
    """Nested YAML in EasyR1's section order, with a unit comment after the keys that have one."""
    lines: list[str] = []
    keys = sorted(tree, key=lambda k: _ORDER.index(k) if k in _ORDER else len(_ORDER)) if depth == 0 else list(tree)
    for key in keys:
        value = tree[key]
        dotted = prefix + key
        pad = "  " * depth
        name = _scalar(key)
        if isinstance(value, dict) and value:
            if depth == 0 and lines:
                lines.append("")
            lines.append(f"{pad}{name}:")
            lines.extend(_emit_yaml(value, comments, dotted + ".", depth + 1))
        else:
            comment = comments.get(dotted)
            lines.append(f"{pad}{name}: {_scalar(value)}" + (f"  # {comment}" if comment else ""))
    return lines


def _scalar(value: Any) -> str:
    text = yaml.safe_dump(value, default_flow_style=True, width=10_000, allow_unicode=True).strip()
    return text.removesuffix("\n...").removesuffix("...").strip()
