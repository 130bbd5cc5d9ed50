"""TRL GRPOTrainer as used by Open-R1: recipe YAML + accelerate config + ``accelerate launch`` line.

Semantics in docs/frameworks/trl.md (read from the trl wheels' grpo_config.py / grpo_trainer.py at each release).
The world size W is the number of training processes (a separate vLLM server does not count). A target is a
TRL release plus the transformers its parser uses (``trl@1.16.0+transformers5.10.4``; by default the newest
transformers that release resolves to, trl_tables.TRANSFORMERS).
Eras: 0.14 counts per_device_train_batch_size in prompts;
0.15–0.16 generate on every micro-step; 0.17 once per accumulation window; 0.18+ once per
``steps_per_generation`` micro-steps.
"""

from __future__ import annotations

import ast
import keyword
import math
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

import yaml

from translator.checks.findings import divisors
from translator.concordance import not_written
from translator.dialects import registry
from translator.dialects.base import (
    UNKNOWN,
    Dialect,
    Reading,
    ReadOptions,
    Values,
    at_least,
    closest_key,
    derived,
    entity_from_environment,
    fmt,
    newer_than,
    note_launch,
    read_script,
    require_resolved,
    sibling_in_project,
    track_provenance,
    version_key,
)
from translator.dialects.release_names import load as load_release_names
from translator.dialects.release_names import releases_allowing
from translator.dialects.settings import Setting, read_settings, write_settings
from translator.dialects.unknowns import Unknown
from translator.dialects.writing import env_assignment, flag_words, live_names, plan_summary, requirements, source_label
from translator.errors import ConfigError
from translator.framework import DataLoader
from translator.frameworks.trl import ACCELERATE_KEYS, RECIPE_KEYS, python_script
from translator.frameworks.trl.reward_bridge import BRIDGE_MODULE, bridge_source, bridgeable, importable_as_is
from translator.frameworks.trl.tables import (
    ACCELERATE_VALUE_OPTIONS,
    BATCH_METHODS,
    BUILTIN_REWARD_MAP,
    CHANGES,
    DEFAULTS,
    EXPERIMENTAL_GONE,
    KEY_RANGE,
    LINEAGES,
    LOSS_TYPES,
    OPEN_R1_KEYS,
    OPEN_R1_REWARDS,
    OPEN_R1_TO_TRL_REWARD,
    OPEN_R1_TRL_VERSION,
    OTHER_KNOWN_KEYS,
    SAME_AS,
    TRANSFORMERS,
    TRANSFORMERS_RESPELLED,
    TRL_SCRIPT_REWARDS,
    TRL_TO_OPEN_R1_REWARD,
    VERSIONS,
    Lineage,
)
from translator.native_schemas import lacks
from translator.notes import NoteList, Severity
from translator.plan import Derivation, Extra, RunSpec, quotient
from translator.sources.code import (
    MAX_FILE_BYTES,
    ArgumentFields,
    Candidate,
    ClassInfo,
    PackageImport,
    Project,
    assignment_targets,
    dotted_path,
    files_ending,
    files_named,
    in_run_dir,
    launched_scripts,
    mentions,
    option_test,
    post_init_fields,
    project_files,
    project_root,
    refuse_script_the_project_lacks,
)
from translator.sources.files import Source, absent_from_project, flatten, load_yaml_mapping, read_text
from translator.sources.hydra import scalar
from translator.sources.processes import (
    VALUE_OPTIONS,
    default_processes,
    launcher_of,
    options_of,
    visible_gpus,
    whole,
)
from translator.sources.shell import ShellCommand, symbolic_names, unwrap_command

_FLAG_OPTIONS = {
    "--multi_gpu",
    "--use_deepspeed",
    "--use_fsdp",
    "--same_network",
    "--cpu",
    "--no_python",
    "--debug",
    "--quiet",
    "-q",
    "--tpu",
    "--standalone",
}
# the launcher options (accelerate's, torchrun's, deepspeed's) that take a value
_LAUNCHER_VALUE_OPTIONS = (ACCELERATE_VALUE_OPTIONS | VALUE_OPTIONS) - _FLAG_OPTIONS


# Run settings outside the plan (translator/dialects/settings.py): GRPO has no discount, λ or value clip; names
# and defaults (gradient_checkpointing off before GRPOConfig turned it on) from the release's schema.
SETTINGS = (
    Setting("optimizer.gradient_checkpointing", "gradient_checkpointing"),
    Setting(
        "data.apply_chat_template",
        None,
        fixed=True,
        why="GRPOTrainer always applies the tokenizer's chat template to conversational prompts "
        "(trl/data_utils.py maybe_apply_chat_template)",
    ),
    Setting("data.chat_template", "chat_template"),
    Setting("evaluation.samples_per_prompt", "num_generations_eval", needs="eval"),
    Setting("launch.seed", "seed", explicit=True),
    Setting("logging.entity", "wandb_entity"),
)


class TrlValues(Values):
    """Values with what TRL's check rules also read: the transformers release the parser is, a fork's script and
    the fields the script's own argument dataclasses add."""

    transformers: str | None = None
    fork_script: str | None = None
    own_fields: frozenset[str] = frozenset()  # fields of the script's own argument dataclasses
    visible_gpus: int | None = None  # GPUs the training processes see (torch.cuda.device_count()), when stated
    visible_from: str | None = None  # where that count is stated


class NativeTrl:
    """What the files say: recipe keys (after CLI flags), accelerate settings, the launch topology."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.origins: dict[str, str] = {}
        self.accelerate: dict[str, Any] = {}
        self.accelerate_name: str | None = None
        self.accelerate_unknown: str | None = None  # the accelerate config's path, when the script leaves it unknown
        self.world_size: int | None = None
        self.world_size_from: str | None = None
        self.world_size_assumed = False  # a script given on its own: one process if run as written
        self.rollout_gpus: int | None = None  # GPUs of a `trl vllm-serve` process
        self.trl_serve_line: str | None = None  # where the script runs `trl vllm-serve` (TRL's CLI, 0.16+)
        self.server_memory: float | None = None  # its --gpu_memory_utilization
        self.server_port: int | None = None
        self.server_layout: tuple[int, int] | None = None  # its (tensor parallel, data parallel) engines
        self.addresses: dict[str, str | None] = {}  # accelerate --main_process_ip / --machine_rank / ... as written
        self.node_variables: list[str] = []  # per-node variables the launch line leaves to the user
        self.open_r1_script = False  # launched as Open-R1's src/open_r1/grpo.py
        self.trl_script = False  # launched as TRL's own trl.scripts.grpo (whose transformers is TRL's, not Open-R1's)
        self.fork_script: str | None = None  # a fork's own training script (grpo_rec.py): it may add arguments
        self.fork_trainer: ForkTrainer | None = None  # the project's own trainer class, when it forms batches itself
        # fields of the project's own argument dataclasses the launched script hands TrlParser (ScriptArguments)
        self.own_fields: frozenset[str] = frozenset()
        self.own_defaults: dict[str, Any] = {}  # their literal defaults (a switch of the project's own trainer)
        self.own_arguments: ArgumentFields | None = None  # those dataclasses (their __post_init__ may set fields)
        self.script_arguments: dict[str, Any] = {}  # a script's own argparse options, as the launch sets them
        self.composed_by_hydra = False  # those are Hydra overrides of the script's own composed config
        # whether those and TRL's are all the arguments the launched program takes (TRL's own script; a project
        # script whose parser is read in full)
        self.arguments_known = True
        self.wandb_env: dict[str, str] = {}  # WANDB_PROJECT / WANDB_ENTITY the launch script sets
        self.python_script: str | None = None  # the Python script whose GRPOConfig(...) call was read
        self.variant: str | None = None  # the TRL variant that script imports (python_script.VARIANTS)
        self.release: str | None = None  # that variant's release, when its dialect reads the config
        self.world_size_word: str | None = None  # the launch line's process count as written (maybe "${NPROC}")
        self.visible_gpus: int | None = None  # GPUs the training processes see, when the launch states it
        self.visible_from: str | None = None  # where: CUDA_VISIBLE_DEVICES or accelerate's gpu_ids
        self.launch_flags: list[str] = []  # the training script's --flags on the launch line (after expansion)
        self.unknown_words: list[str] = []  # its words whose value is not known: they may hold any flag
        self.trl_imports: list[PackageImport] = []  # the training code's imports of trl at start-up


def data_loader(spec: RunSpec) -> DataLoader:
    """What the launched script reads. Open-R1's grpo.py (its recipe keys: the reader sets data.prompt_key from
    dataset_prompt_column) makes the column's text the user message (open-r1:src/open_r1/grpo.py@1416fa0:91-100):
    a string. TRL's own script hands the dataset to GRPOTrainer, which reads the `prompt` column as text or a chat
    list (x["prompt"]: trl/trainer/grpo_trainer.py@v1.16.0:2338, @v0.18.0:989); every other column reaches the
    reward functions as a keyword argument (@v1.16.0:1584-1585), so none is required."""
    columns = REWARD_COLUMNS_OPEN_R1 if spec.data.prompt_key is not None else REWARD_COLUMNS_TRL
    needed = tuple(dict.fromkeys(("column", columns[name]) for name in spec.reward.builtin or [] if name in columns))
    if spec.data.prompt_key is not None:
        cited = "make_conversation (open-r1:src/open_r1/grpo.py@1416fa0)"
        if needed:
            cited += " and its reward functions' own columns (open-r1:src/open_r1/rewards.py@1416fa0)"
        return DataLoader(spec.data.prompt_key, "text", cited, needed)
    cited = "GRPOTrainer (trl/trainer/grpo_trainer.py@v1.16.0:2338)"
    if needed:
        cited += " and its reward functions' own columns (trl/rewards/accuracy_rewards.py@v1.16.0)"
    return DataLoader("prompt", "any", cited, needed)


# The dataset column each built-in reward function takes by name (every column reaches the reward functions as a
# keyword argument): Open-R1's registry (open-r1:src/open_r1/rewards.py@1416fa0: accuracy_reward :40, len_reward
# :132 and the cosine reward :212 take `solution`; code_reward reads kwargs["verification_info"] :570, which
# binary_code_reward hands on; ioi_code_reward zips kwargs["id"] :389) and TRL's own script's
# (trl/scripts/grpo.py@v1.16.0:84-89: accuracy_reward and reasoning_accuracy_reward take `solution`,
# trl/rewards/accuracy_rewards.py@v1.16.0:28-30, :223-225).
# Training scripts the frameworks' own repositories hold, which a checkout of them beside the project provides:
# Open-R1's (open-r1:src/open_r1/@1416fa0 grpo.py, sft.py) and TRL's (trl:trl/scripts/@v0.18.0 grpo.py, sft.py).
UPSTREAM_SCRIPTS = ("open_r1/grpo.py", "open_r1/sft.py", "trl/scripts/grpo.py", "trl/scripts/sft.py")
REWARD_COLUMNS_OPEN_R1 = {
    "accuracy": "solution",
    "length": "solution",
    "cosine": "solution",
    "code": "verification_info",
    "binary_code": "verification_info",
    "ioi_code": "id",
}
REWARD_COLUMNS_TRL = {"accuracy_reward": "solution", "reasoning_accuracy_reward": "solution"}


class TrlDialect(Dialect):
    name = "trl"
    aliases = ("open-r1", "openr1", "open_r1", "huggingface/trl")
    versions = VERSIONS
    # the releases its plan arithmetic branches on
    plan_bands = ("0.15.2", "0.16.0", "0.17.0", "0.18.0", "0.19.1", "0.20.0", "0.22.2", "0.26.0", "0.27.0", "1.10.0")
    changes = CHANGES
    pip_name = "trl"
    version_files = (("trl/__init__.py", None),)  # a copy of TRL kept in the project: its __version__
    companion = "transformers"  # a transformers pin beside the trl pin decides TrainingArguments' keys
    stops_at_first_limit = False

    @staticmethod
    def rejects_unknown_keys(version: str) -> bool:
        """TrlParser stops on a recipe key no dataclass declares from 0.19 (<= 0.18 drops it: the rule
        trl.unknown-config-key makes that a warning for those releases)."""
        return at_least(split_target(version)[0], "0.19.0")

    # HfArgumentParser stops on a command-line argument no dataclass declares, in every release
    # (parse_args_into_dataclasses: "Some specified arguments are not used by the HfArgumentParser")
    rejects_unknown_flags = True
    commit_bands = os.path.join(os.path.dirname(__file__), "commits.txt")
    release_dates = os.path.join(os.path.dirname(__file__), "release_dates.txt")  # scripts/gen_release_dates.py
    release_names = "release_names.txt"  # scripts/gen_release_names.py
    same_as = SAME_AS
    description = "TRL GRPOTrainer / Open-R1 (recipe YAML + accelerate config + accelerate launch)"

    # ---------------------------------------------------------------- reading
    def read(self, source: Source, options: ReadOptions) -> Reading:
        return self.read_native(source, options, NativeTrl())

    def read_native(self, source: Source, options: ReadOptions, native: NativeTrl) -> Reading:
        """The read itself; ``native`` may come with a variant's release (a variant's dialect reads through this)."""
        notes = NoteList()
        if source.suffix == ".py":
            native.trl_imports = python_script.script_imports(source)  # (its start-up stops first)
            python_script.read_python(source, native, notes, options.env)
            python_script.apply_overrides(source, _known_fields(), native, notes, options.env)
        elif source.suffix in (".yaml", ".yml"):
            data = load_yaml_mapping(source)
            if re.search(ACCELERATE_KEYS, source.text, re.M) and not re.search(RECIPE_KEYS, source.text, re.M):
                return self._read_accelerate_only(data, source, options)
            self._merge_recipe(native, data, source.name)
            native.fork_trainer = _recipe_trainer(source, native)
        else:
            self._read_script(source, options, native, notes)
            _set_by_post_init(native, notes)
        if native.variant is not None and native.release is None and not options.version:
            return self._hand_over(native.variant, source, options)
        self._world_size(native, options, notes)
        version, transformers = split_target(self._version(native, options.version, notes))
        installed = self.installed(options, split_target(options.version or "")[0], version)
        if installed is not None and native.release is None:  # a variant's release is not trl's
            installed.refuse_unavailable(native.trl_imports)
        fork = native.fork_trainer
        reused = str(native.values.get("num_iterations", 1)) != "1"  # a buffer reused over iterations
        if fork is not None and fork.lineage is not None and "plain_sampler" in fork.lineage.requires and reused:
            fork = native.fork_trainer = replace(fork, lineage=None)  # that arithmetic is no release's
        if fork is not None and fork.lineage is not None:
            notes.warning(
                "framework.fork-trainer",
                f"{fork.where}: the launched script's trainer is the project's own "
                f"copy of {fork.lineage.label} (its batch-forming code at {fork.code_line}); its batching "
                f"is read as trl {fork.lineage.release}'s"
                + ("" if fork.lineage.release == version else f", not as trl {version}'s"),
                source_keys=[fork.where],
            )
            version = fork.lineage.release
        if native.trl_serve_line is not None and not at_least(version, "0.16.0"):
            # trl/cli.py gains the vllm-serve subcommand in v0.16.0; before, argparse refuses it. Those releases run
            # vLLM inside the training process (vllm_device), so the training line never waits for that server.
            notes.warning(
                "trl.vllm-serve-missing",
                f"{native.trl_serve_line}: `trl vllm-serve` is a command from trl 0.16.0 on; trl {version}'s CLI "
                "refuses it (invalid choice), so that server never starts. The training does not need it (trl "
                f"{version} runs vLLM in the training process, on vllm_device): a leftover line, or the project "
                "means trl 0.16 or later",
            )
        values = TrlValues(native.values, native.origins, self.defaults(version, native), source.name)
        values.fork_script = native.fork_script
        values.own_fields = native.own_fields
        values.visible_gpus, values.visible_from = native.visible_gpus, native.visible_from
        self.variant_rules(values, native, version, notes)
        # The transformers the parser uses (check rules and the unknown-key account read it).
        values.transformers, why = transformers_for(
            version,
            transformers,
            open_r1=native.open_r1_script or (not native.trl_script and bool(set(native.values) & OPEN_R1_KEYS)),
        )
        if transformers is None and options.companion and values.transformers != options.companion[0]:
            try:
                self.resolve_version(f"{version}{_TF_MARK}{options.companion[0]}")
            except ConfigError as error:
                notes.warning(
                    "version.transformers-project",
                    f"transformers {options.companion[0]} from {options.companion[1]} is not read: {error.message}",
                    source_keys=[options.companion[1]],
                )
            else:
                transformers = values.transformers = options.companion[0]
                notes.info(
                    "version.transformers-project",
                    f"TrlParser's TrainingArguments are transformers "
                    f"{transformers}'s, the release the project pins at {options.companion[1]}; pass "
                    f"--from trl@{version}+transformersX.Y.Z for another",
                    source_keys=[options.companion[1]],
                )
        if transformers is None and source.suffix != ".toml":
            notes.info(
                "version.transformers-assumed",
                f"TrlParser's TrainingArguments are transformers "
                f"{values.transformers}'s ({why}); pass --from trl@{version}+transformersX.Y.Z for another",
            )
        spec = RunSpec(framework=self.name, version=version)
        with track_provenance(spec, values):
            _Interpreter(values, native, version, spec, notes).run()
        if native.unknown_words:
            from translator.dialects.forkbatch import unknown_launch_words

            # the words are the training script's arguments: what they cannot set (the process count) stays
            known = _known_fields()
            fixed = [key for d in spec.derivations.values() for key in d.keys if key not in known]
            unknown_launch_words(spec, notes, native.unknown_words, [*native.launch_flags, *fixed])
        if fork is not None and (fork.lineage is None or fork.rewrites):
            _fork_unknown(spec, fork, notes)
        self._account(values, version, spec, notes, native.own_fields)
        own_files = fork.files if fork is not None and fork.lineage is not None and not fork.rewrites else ()
        reading = Reading(spec, notes, values, own_files=own_files)
        reading.own_flags = frozenset(k for k in native.values if k in native.own_fields)
        reading.arguments_known = native.arguments_known
        return reading

    # A variant of TRL (a package that patches GRPOConfig, python_script.VARIANTS) is its own dialect, reading
    # through read_native with these hooks: its defaults in place of TRL's, its own rewrites of the values.
    @staticmethod
    def _hand_over(variant: str, source: Source, options: ReadOptions) -> Reading:
        """The training script imports a variant of TRL: its dialect reads the config (the registry's)."""
        from translator.dialects import registry

        return registry.get(variant).read(source, options)

    def trl_release(self, version: str) -> str:
        """The TRL release a version names (a variant's dialect names its own releases otherwise)."""
        return self.resolve_version(version)

    def defaults(self, version: str, native: NativeTrl) -> dict[str, Any]:
        """GRPOConfig's defaults in ``version`` (a variant puts in its own)."""
        return defaults_for(version)

    def variant_rules(self, values: Values, native: NativeTrl, version: str, notes: NoteList) -> None:
        """What a variant does to the values before TRL's own __post_init__ sees them (TRL itself: nothing)."""

    def _read_accelerate_only(self, data: dict[str, Any], source: Source, options: ReadOptions) -> Reading:
        """An accelerate config alone fixes the topology; the batch plan lives in the recipe."""
        notes = NoteList()
        native = NativeTrl()
        native.accelerate, native.accelerate_name = data, source.name
        self._world_size(native, options, notes)
        version = split_target(self.resolve_version(options.version))[0]
        spec = RunSpec(framework=self.name, version=version)
        values = Values({}, {}, {}, source.name)
        _Interpreter(values, native, version, spec, notes).topology()
        notes.warning(
            "input.accelerate-config-only",
            "this is an accelerate config: it gives the number of processes, not the batch plan; explain "
            "the recipe or the launch script that names both",
        )
        for key, value in flatten(data).items():
            spec.extras.append(Extra("accelerate", key, value))
        return Reading(spec, notes, values)

    @staticmethod
    def _merge_recipe(native: NativeTrl, data: dict[str, Any], origin: str) -> None:
        for key, value in data.items():
            native.values[str(key)] = value
            native.origins[str(key)] = origin

    def _read_script(self, source: Source, options: ReadOptions, native: NativeTrl, notes: NoteList) -> None:
        script = read_script(source, options.env, notes)
        launch = None
        launches = []
        skipped: list[str] = []
        others: list[str] = []  # launches of TRL trainers other than GRPO's ('sft.py builds trl.SFTTrainer')
        grpo: dict[int, bool] = {}  # a launch's command → whether its script names GRPO
        modules: dict[int, str] = {}  # a launch's command → the project module it runs with -m
        for command in script.commands:
            argv = unwrap_command(command.argv)
            if argv[:2] == ["trl", "vllm-serve"] or argv[:2] == ["vllm", "serve"]:
                native.rollout_gpus = _server_gpus(argv, command.assignments.get("CUDA_VISIBLE_DEVICES"))
                if argv[0] == "trl":
                    native.trl_serve_line = f"{source.name}:{command.line}"
                serve = _serve_options(argv[2:])
                memory = serve.get("--gpu_memory_utilization") or serve.get("--gpu-memory-utilization")
                native.server_memory = _fraction(memory)
                native.server_port = _count(serve.get("--port"))
                tp = _count(serve.get("--tensor_parallel_size") or serve.get("--tensor-parallel-size") or "1")
                dp = _count(serve.get("--data_parallel_size") or serve.get("--data-parallel-size") or "1")
                native.server_layout = (tp, dp) if tp is not None and dp is not None else None
            elif (index := _training_script_index(argv, source, command.cwd)) is not None:
                shown = argv[index]
                if index and argv[index - 1] in ("-m", "--module") and not argv[index].startswith("trl."):
                    # the project's own module: read as the file it is (run as a module of its package)
                    modules[id(command)] = argv[index]
                    argv = [*argv[: index - 1], _module_file(source, command.cwd, argv[index]), *argv[index + 1 :]]
                    index -= 1
                if index and python_script.trains_without_trl(source, command.cwd, argv[index]):
                    skipped.append(argv[index])  # a project script that imports no trl: a data builder, a test
                    continue
                if index and (other := _other_trl_trainer(source, command.cwd, argv[index])):
                    others.append(f"{shown} builds {other}")
                    continue
                if launch is not None and grpo.get(id(launch[0])) and not _names_grpo(source, command, argv[index]):
                    continue  # an SFT or evaluation script after the GRPO launch: the GRPO run is the one read
                launch = (command, argv)
                launches.append(command)
                grpo[id(command)] = _names_grpo(source, command, argv[index])
            else:
                _experimental(argv, source)
        if launch is None:
            raise ConfigError(
                "no GRPO training launch found"
                + (
                    f" ({', '.join(skipped)}: import no trl and name no trainer, so they train nothing)"
                    if skipped
                    else ""
                )
                + (f" ({'; '.join(others)}: rlconf reads TRL's GRPOTrainer and its forks only)" if others else ""),
                file=source.name,
                hint="expected 'accelerate launch ... src/open_r1/grpo.py --config recipe.yaml'",
            )
        command, argv = launch
        note_launch(notes, source, command, launches)
        # transformers' WandbCallback reads WANDB_PROJECT, wandb.init WANDB_ENTITY: the script's own exports count.
        assigned = {**script.variables, **command.assignments}
        native.wandb_env = {
            name: str(assigned[name]) for name in ("WANDB_PROJECT", "WANDB_ENTITY") if assigned.get(name)
        }
        _experimental(argv, source)
        # Per-node addresses of a multi-node launch are the user's to set on each node (rlconf writes them so).
        node_variables = set(_NODE_VARIABLES.values())
        native.node_variables = [n for n in command.unresolved if n in node_variables]
        require_resolved(
            replace(command, unresolved=[n for n in command.unresolved if n not in node_variables]), source
        )
        origin = f"{source.name}:{command.line}"
        script_index = _training_script_index(argv)
        assert script_index is not None  # the launch was chosen for having one
        launcher_options = options_of(argv[:script_index], _LAUNCHER_VALUE_OPTIONS)
        script_args = argv[script_index + 1 :]
        native.open_r1_script = "open_r1" in argv[script_index]
        native.trl_script = argv[script_index] in ("trl.scripts.grpo", "grpo")
        script_name = argv[script_index].rsplit("/", 1)[-1]
        accelerate_file = launcher_options.get("--config_file") or launcher_options.get("--config-file")
        if accelerate_file and symbolic_names(accelerate_file):
            # which file depends on a variable or a branch: its settings (machines, backend) are not read
            native.accelerate_unknown = accelerate_file
            notes.warning(
                "input.accelerate-config-unknown",
                f"{origin}: the accelerate config ({accelerate_file}) depends on what the script leaves unknown: its "
                "settings are not read, so the machines and the backend are unknown"
                + ("" if "--num_processes" in launcher_options else ", and so are the processes")
                + " (pass --env with the variable, or explain with the config named)",
                source_keys=["--config_file"],
            )
        elif accelerate_file:
            accelerate_source = sibling_in_project(
                source, in_run_dir(accelerate_file, command.cwd), "accelerate config"
            )
            native.accelerate = load_yaml_mapping(accelerate_source)
            native.accelerate_name = accelerate_source.name
            _refuse_absent_deepspeed_file(source, native.accelerate, accelerate_source.name)
        # accelerate's DeepSpeed launcher puts the folder it runs in on PYTHONPATH (prepare_deepspeed_cmd_env,
        # accelerate/utils/launch.py:557@v1.15.0, the same since 0.26); its other launchers do not
        # (accelerate/commands/launch.py:1220-1228, 1393-1398: the config's backend unless the line picks another)
        words = argv[:script_index]
        chosen = {"--multi_gpu", "--use_fsdp", "--tpu", "--use_megatron_lm"} & set(words)
        configured = str(native.accelerate.get("distributed_type", "")).upper() == "DEEPSPEED" and not chosen
        deepspeed = ("--use_deepspeed" in words or configured) and "--cpu" not in words
        path_set = "PYTHONPATH" in assigned or (launcher_of(words) == "accelerate" and deepspeed)
        training_script = python_script.launched(
            source, command.cwd, argv[script_index], native, path_set, modules.get(id(command))
        )
        own_options = False
        if training_script is not None and script_name.endswith(".py"):
            # a script that builds its GRPOConfig itself is read, not a fork; so is the module it hands that to
            own_options = python_script.follow(training_script, native, notes, options.env, script_args)
            handed = (
                python_script.delegate(source, command.cwd, argv[script_index]) if not native.python_script else None
            )
            if handed is not None:
                own_options = python_script.follow(handed, native, notes, options.env, script_args, training_script)
        builder = (
            _trl_own_trainer(source, command.cwd, argv[script_index])
            if script_name.endswith(".py") and native.python_script is None
            else None
        )
        if script_name.endswith(".py"):
            own = _own_argument_fields(source, command.cwd, argv[script_index])
            # Open-R1's grpo.py, when the checkout lacks it, takes Open-R1's arguments and TRL's
            upstream = native.open_r1_script and script_name == "grpo.py"
            native.own_fields, native.arguments_known, native.own_defaults, native.own_arguments = (
                own if own is not None else (frozenset(), bool(upstream), {}, None)
            )
        if builder is not None:
            notes.info(
                "framework.trl-trainer",
                f"{origin}: '{argv[script_index]}' builds TRL's own GRPOTrainer (in {builder}): the installed "
                "release's batching",
            )
        elif script_name.endswith(".py") and script_name != "grpo.py" and native.python_script is None:
            native.fork_script = argv[script_index]
            notes.warning(
                "framework.fork",
                f"{origin}: '{argv[script_index]}' is not Open-R1's or TRL's own GRPO "
                "script; it is read with GRPOConfig's semantics for the TRL version in use, and the "
                "arguments it adds are reported as unknown to TRL (a fork that changed GRPOTrainer's "
                "batching trains differently)",
            )
        launcher = launcher_of(argv[:script_index])
        native.visible_gpus, native.visible_from = _visible_gpus(command, argv, launcher_options, native, origin)
        for flag in ("--num_processes", "--num-processes", "--nproc_per_node", "--nproc-per-node"):
            if flag in launcher_options:
                word = launcher_options[flag]
                native.world_size_word = word
                if launcher == "torchrun" and word in ("gpu", "auto"):  # one process per visible GPU
                    native.world_size = native.visible_gpus
                    native.world_size_from = f"{flag.lstrip('-')} {word}: one per GPU, {native.visible_from}"
                    continue
                native.world_size = whole(word, flag, origin)
                native.world_size_from = f"{flag.lstrip('-')} {native.world_size} on the launch line"
        if launcher == "torchrun" and "--nnodes" in launcher_options and native.world_size:
            span = launcher_options["--nnodes"]  # MIN:MAX is an elastic range: as many nodes as join (unknown)
            nodes = None if ":" in span else whole(span, "--nnodes", origin)
            native.world_size = native.world_size * nodes if nodes else None
            if nodes and native.world_size_from:
                native.world_size_from = native.world_size_from.replace(" on ", f" × nnodes {nodes} on ")
                native.accelerate.setdefault("num_machines", nodes)
        if native.world_size is None and native.world_size_word is None:
            native.world_size, native.world_size_from = default_processes(
                launcher, launcher_options, native.visible_gpus, native.visible_from, origin
            )
        if "--num_machines" in launcher_options:
            native.accelerate["num_machines"] = whole(launcher_options["--num_machines"], "--num_machines", origin)
        for flag, variable in _NODE_VARIABLES.items():
            value = launcher_options.get(flag, launcher_options.get(flag.replace("_", "-")))
            if value is not None:
                native.addresses[flag] = value or (f"${{{variable}}}" if variable in native.node_variables else None)
        # a script that composes TRL's arguments with Hydra (not its own config call's): the words are Hydra's
        composed = python_script.hydra_recipe(training_script) if training_script and not own_options else None
        if composed is not None:
            config, files, hydra_notes = composed(script_args)
            for text in hydra_notes:
                notes.info("input.hydra-composed", f"{origin}: {text}")
            if _drops_extra_keys(training_script):  # HfArgumentParser.parse_dict(..., allow_extra_keys=True)
                extra = [k for k in config if k not in _known_fields()]
                if extra:
                    notes.info(
                        "input.hydra-composed",
                        f"{origin}: {', '.join(map(str, extra))} in the composed config are no TRL arguments; the "
                        "script's parser drops them (allow_extra_keys=True)",
                    )
                config = {k: v for k, v in config.items() if k not in extra}
            self._merge_recipe(native, config, " + ".join(files) or origin)
            script_args = []
        recipe, flags, native.unknown_words = _script_arguments(script_args)
        if own_options:  # the words are the script's own options, which its GRPOConfig(...) call was read with
            given = " ".join(script_args)
            notes.info(
                "input.script-arguments",
                f"{origin}: the launch's arguments ({given}) are "
                + (
                    f"Hydra overrides of {script_name}'s own config; its GRPOConfig call was read from the config "
                    "they compose"
                    if native.composed_by_hydra
                    else f"{script_name}'s own argparse options; its GRPOConfig call was read with their values, "
                    "and the options it does not pass there are the script's own"
                ),
                source_keys=[w.lstrip("-").partition("=")[0] for w in script_args if w.startswith("--")],
            )
            recipe, flags, native.unknown_words = None, {}, []
        if recipe:
            recipe_source = sibling_in_project(source, in_run_dir(recipe, command.cwd), "recipe")
            _refuse_other_framework_config(recipe_source, f"{origin}: --config")
            self._merge_recipe(native, load_yaml_mapping(recipe_source), recipe_source.name)
        elif native.python_script is None:  # a script with its own GRPOConfig(...) call needs no recipe
            notes.warning("input.no-recipe", "the launch line names no --config recipe; only its flags are read")
        known = _known_fields()
        for key, value in flags.items():
            if key not in known:
                # HfArgumentParser is an argparse parser with allow_abbrev: a unique prefix names its field.
                longer = [k for k in known if k.startswith(key)]
                if len(longer) == 1:
                    notes.info(
                        "keys.abbreviated",
                        f"--{key} is read as --{longer[0]} (argparse accepts a unique prefix of an option)",
                        source_keys=[key],
                        target_keys=longer,
                    )
                    key = longer[0]
            if value == "" and key == "vllm_server_host" and "VLLM_SERVER_HOST" in native.node_variables:
                value = "${VLLM_SERVER_HOST}"  # set per run by the user (rlconf's multi-node launch)
            native.values[key] = value
            native.origins[key] = origin
            native.launch_flags.append(key)
        if training_script is not None and script_name.endswith(".py"):
            python_script.apply_overrides(training_script, known, native, notes, options.env)
        if argv[script_index].endswith(".py"):
            refuse_script_the_project_lacks(source, command.cwd, argv[script_index], command.line, UPSTREAM_SCRIPTS)
            _refuse_deepspeed_file_the_run_folder_lacks(
                source, command, argv[script_index], native.values.get("deepspeed")
            )
            native.fork_trainer = _fork_trainer(
                source,
                command.cwd,
                argv[script_index],
                lambda key: (
                    native.script_arguments[key]
                    if key in native.script_arguments
                    else _flag_value({**native.own_defaults, **native.values}, key)
                ),
            )

    def _world_size(self, native: NativeTrl, options: ReadOptions, notes: NoteList) -> None:
        if native.world_size_assumed and options.num_processes is not None:  # the user states what was assumed
            native.world_size, native.world_size_assumed = None, False
        # the launch line's count overrides the accelerate file's, even when it is a variable left unset
        if native.world_size is None and native.world_size_word is None and "num_processes" in native.accelerate:
            native.world_size = whole(native.accelerate["num_processes"], "num_processes", native.accelerate_name)
            native.world_size_from = f"num_processes {native.world_size} in {native.accelerate_name}"
        if native.world_size is None:
            if options.num_processes is not None:
                native.world_size = options.num_processes
                native.world_size_from = f"--num-processes {options.num_processes}"
                notes.info(
                    "topology.world-size-from-option",
                    f"the config does not state the world size; --num-processes {options.num_processes} is used",
                )
            elif native.world_size_word is not None:
                notes.warning(
                    "topology.world-size-not-stated",
                    f"the launch line's process count {native.world_size_word} depends on a variable the script "
                    "never sets (it overrides the accelerate config's), so the global batch quantities are unknown; "
                    "pass --num-processes N or --env NAME=N",
                )
            else:
                notes.warning(
                    "topology.world-size-not-stated",
                    "the config does not state the number of training processes, so the global batch "
                    "quantities are unknown; pass --num-processes N (GPUs serving vLLM do not count)",
                )
        elif options.num_processes is not None and options.num_processes != native.world_size:
            notes.warning(
                "topology.world-size-option-ignored",
                f"--num-processes {options.num_processes} is ignored: {native.world_size_from}",
            )

    def _version(self, native: NativeTrl, explicit: str | None, notes: NoteList) -> str:
        if explicit:
            return self.trl_release(explicit)
        keys = set(native.values)
        bounded = sorted(k for k in keys if k in KEY_RANGE)
        importable, imports_why = self._importable(native, notes)
        fits = [v for v in VERSIONS if all(_has_key(v, k) for k in bounded)]
        fits = [v for v in fits if v in importable] or fits
        if not bounded and importable != VERSIONS:
            open_r1 = bool(keys & OPEN_R1_KEYS) and OPEN_R1_TRL_VERSION in importable
            version = OPEN_R1_TRL_VERSION if open_r1 else importable[-1]
            why = f"the {'release Open-R1 pins' if open_r1 else 'newest release'} in which {imports_why}"
        elif not bounded:
            version, why = (
                (OPEN_R1_TRL_VERSION, "Open-R1 recipes run with the TRL its setup.py pins")
                if keys & OPEN_R1_KEYS
                else (self.default_version, "the newest known release")
            )
        elif fits:
            open_r1 = bool(keys & OPEN_R1_KEYS) and OPEN_R1_TRL_VERSION in fits
            version = OPEN_R1_TRL_VERSION if open_r1 else fits[-1]
            spans = ", ".join(f"{k} ({_span(k)})" for k in bounded if KEY_RANGE[k][1] or KEY_RANGE[k][0] != VERSIONS[0])
            why = (
                "Open-R1 recipes run with the TRL its setup.py pins, which has "
                if open_r1
                else "the newest release with "
            ) + f"every version-specific key: {spans}"
            if importable != VERSIONS and version in importable:
                why += f", and in which {imports_why}"
        else:
            # Keys of releases that never coexisted: the release that has most of them.
            version = max(VERSIONS, key=lambda v: (sum(_has_key(v, k) for k in bounded), VERSIONS.index(v)))
            missing = [k for k in bounded if not _has_key(version, k)]
            notes.warning(
                "version.conflicting-keys",
                "no TRL release has all of "
                + ", ".join(f"{k} ({_span(k)})" for k in bounded)
                + f"; trl {version} has most of them (not {', '.join(missing)})",
                source_keys=missing,
            )
            why = "the release with most of the version-specific keys"
        notes.info("version.assumed", f"assumed trl {version}: {why}; pass --from trl@VERSION to choose")
        return version

    def _importable(self, native: NativeTrl, notes: NoteList) -> tuple[tuple[str, ...], str]:
        """The listed releases at which the training code's trl imports all work (every one when the imports do
        not tell, or when no release has them all: then a note), and what narrows them, for the assumption's why."""
        table = self.release_table()
        assert table is not None  # TRL names its release_names file
        allowed, narrowest = releases_allowing(load_release_names(table), native.trl_imports)
        if narrowest is None:
            return VERSIONS, ""
        what = f"{os.path.basename(narrowest.path)}:{narrowest.line} imports from {narrowest.module}"
        importable = tuple(v for v in VERSIONS if v in allowed)
        if not importable:
            notes.warning(
                "version.imports-unreleased",
                f"{what} names that no trl release from {VERSIONS[0]} to {VERSIONS[-1]} has all of (a development "
                "install, or a name a later release removed?); the version is inferred without them",
                source_keys=[f"{narrowest.path}:{narrowest.line}"],
            )
            return VERSIONS, ""
        return importable, f"{what} work (trl {allowed[0]}–{allowed[-1]})"

    def _account(
        self, values: Values, version: str, spec: RunSpec, notes: NoteList, own: frozenset[str] = frozenset()
    ) -> None:
        known = _known_fields()
        for key, value in values.unused().items():
            spec.extras.append(Extra(self.name, key, value))
            if key not in known and key not in own:  # a field of the script's own dataclasses is its argument
                guess = closest_key(key, known)
                hint = f"; did you mean '{guess}'?" if guess else ""
                flag = str(values.origins.get(key, "")).rpartition(":")[2].isdigit()  # on the launch line
                notes.warning(
                    "keys.unknown",
                    f"'{key}' is not a TRL {version} or Open-R1 argument{hint}"
                    + (
                        " (HfArgumentParser stops on an unknown command-line argument)"
                        if flag
                        else " (TrlParser rejects unknown keys since 0.19)"
                        if at_least(version, "0.19.1")
                        else " (TrlParser ≤ 0.18 drops it silently)"
                    ),
                    source_keys=[key],
                )
        for key in values.values:
            if key in KEY_RANGE:
                since, until = KEY_RANGE[key]
                if not at_least(version, since) or (until and newer_than(version, until)):
                    span = f"{since}–{until}" if until else f"{since} on"
                    notes.warning(
                        "keys.unknown-in-version",
                        f"'{key}' is a TRL argument only in {span}, not in {version}",
                        source_keys=[key],
                    )

    # ---------------------------------------------------------------- writing
    def write(self, spec: RunSpec, version: str, notes: NoteList) -> dict[str, str]:
        trl_version, named = split_target(version)
        writer = _Writer(spec, trl_version, notes)
        transformers, why = transformers_for(trl_version, named, open_r1=writer.script == "open-r1")
        writer.transformers = transformers
        notes.info(
            "version.transformers-assumed",
            f"written for trl {trl_version} with transformers {transformers} "
            f"({why}); name another with --to trl@{trl_version}+transformersX.Y.Z",
            target_keys=["transformers"],
        )
        recipe, world, nodes, server_gpus = writer.recipe()
        recipe = _accepted_keys(recipe, trl_version, transformers, writer.script, notes)
        python_script.variant_note(recipe, world, notes)
        recipe, moved = _live_values_to_command_line(recipe, spec.shell_variables, notes)
        header = [
            f"# TRL {trl_version} GRPO recipe written by rlconf from a {source_label(spec)} "
            f"config, for transformers {transformers}.",
            "# per_device_train_batch_size counts completions per process per micro-step"
            if at_least(trl_version, "0.15.2")
            else "# per_device_train_batch_size counts prompts per process (trl 0.14)",
            *(f"#   {line}" for line in plan_summary(spec)),
        ]
        if moved:
            header.append(
                f"# {', '.join(moved)}: on the launch line in launch.sh (the shell expands their variables; "
                "TrlParser takes the command line over this file)"
            )
        accelerate = {
            "compute_environment": "LOCAL_MACHINE",
            "distributed_type": "DEEPSPEED",
            "deepspeed_config": {
                "deepspeed_multinode_launcher": "standard",
                "offload_optimizer_device": "none",
                "offload_param_device": "none",
                "zero3_init_flag": True,
                "zero_stage": 3,
            },
            "machine_rank": 0,
            "main_training_function": "main",
            "mixed_precision": "bf16",
            "num_machines": nodes,
            "num_processes": world,
            "rdzv_backend": "static",
            "same_network": True,
            "use_cpu": False,
        }
        files = {
            "recipe.yaml": "\n".join(header) + "\n" + yaml.safe_dump(recipe, sort_keys=False, width=100),
            "accelerate.yaml": yaml.safe_dump(accelerate, sort_keys=True),
            "launch.sh": "\n".join(writer.launch_lines(header[0], world, nodes, server_gpus, moved)) + "\n",
        }
        if writer.bridge:
            files[f"{BRIDGE_MODULE}.py"] = writer.bridge
        # TrlParser's TrainingArguments are the installed transformers': it is pinned beside TRL.
        files.update(requirements("TRL", [("trl", trl_version), ("transformers", transformers)]))
        return files

    def resolve_version(self, version: str | None) -> str:
        """A TRL release, optionally with the transformers it runs with: ``1.16.0+transformers5.10.4``."""
        if version is None:
            return self.default_version
        trl_version, transformers = split_target(version)
        trl_version = super().resolve_version(trl_version)
        if transformers is None:
            return trl_version
        key = version_key(transformers)
        if key is None or key[0] not in (4, 5):
            raise ConfigError(
                f"unknown transformers version '{transformers}'",
                hint=f"name a release, e.g. trl@{trl_version}+transformers{TRANSFORMERS[trl_version][2]}",
            )
        lowest = TRANSFORMERS[trl_version][0]
        if key < version_key(lowest):  # type: ignore[operator]
            raise ConfigError(
                f"trl {trl_version} requires transformers>={lowest}, not {transformers}",
                hint=f"name transformers {lowest} or newer",
            )
        return f"{trl_version}{_TF_MARK}{transformers}"


_TF_MARK = "+transformers"
_TRL_SCRIPT_KEYS = frozenset({"reward_funcs", "reward_model_name_or_path"})  # trl/scripts/grpo.py GRPOScriptArguments
# Launch-line variables the user sets per node in a written multi-node script: option → variable.
_NODE_VARIABLES = {
    "--main_process_ip": "MAIN_PROCESS_IP",
    "--machine_rank": "MACHINE_RANK",
    "--main_process_port": "MAIN_PROCESS_PORT",
    "--vllm_server_host": "VLLM_SERVER_HOST",
}


def _known_address(host: str | None) -> str | None:
    """A concrete host name or address (not a variable left to the user, nor TRL's listen-on-all default)."""
    if not host or "$" in host or host in ("0.0.0.0", "localhost", "127.0.0.1"):
        return None
    return host if re.fullmatch(r"[\w.:-]+", host) else None


def split_target(version: str) -> tuple[str, str | None]:
    """'1.16.0+transformers5.10.4' → ('1.16.0', '5.10.4'); '1.16.0' → ('1.16.0', None)."""
    trl_version, mark, transformers = version.partition(_TF_MARK)
    return trl_version, (transformers.lstrip("@=") or None) if mark else None


def transformers_for(trl_version: str, named: str | None, open_r1: bool = False) -> tuple[str, str]:
    """The transformers a TRL release runs with, and why that one."""
    if named:
        if not re.fullmatch(r"[0-9A-Za-z.+-]+", named):  # it is written into comments and the recipe's header
            raise ConfigError(
                f"'{named}' is not a transformers version", key="--to", hint="name one as trl@1.16.0+transformers5.10.4"
            )
        return named, "as named"
    lowest, highest, newest = TRANSFORMERS[trl_version]
    if open_r1 and trl_version == OPEN_R1_TRL_VERSION:
        from translator.frameworks.trl.tables import OPEN_R1_TRANSFORMERS

        return OPEN_R1_TRANSFORMERS, "Open-R1's setup.py pins it with trl 0.18.0"
    bound = f">={lowest}" + (f",<{highest}" if highest else "")
    return (
        newest,
        f"the newest transformers `pip install trl=={trl_version}` resolves to today (trl requires "
        f"transformers{bound})",
    )


@lru_cache(maxsize=4096)  # the check asks for every recipe key; the schemas do not change in a process
def training_arguments_lack(key: str, trl_version: str, transformers: str) -> bool:
    """Whether ``key`` is a transformers TrainingArguments field (of some release) that ``transformers`` lacks and
    TRL ``trl_version`` does not declare itself: TrlParser rejects it (>= 0.19) or drops it."""
    from translator.native_schemas import available, lacks, schema_for

    if not lacks("transformers", transformers, key):
        return False
    if not any(not lacks("transformers", v, key) for _, v, _ in available().get("transformers", [])):
        return False  # not a TrainingArguments field at all
    document = schema_for("trl", trl_version) or {}
    if key in document.get("properties", {}):
        # The trl schema holds TrainingArguments of the transformers it was read with: TRL's own field if not there.
        read_with = next(
            (
                s["file"].split("-")[1]
                for s in document.get("x-source", [])
                if str(s.get("file", "")).startswith("transformers-")
            ),
            None,
        )
        return read_with is None or not lacks("transformers", read_with, key)
    return True


_RENAMED = {"torch_dtype": "dtype"}  # ModelConfig renamed it (transformers' own rename)
_RENAMED_EITHER_WAY = {**_RENAMED, **{new: old for old, new in _RENAMED.items()}}


def _accepted_keys(
    recipe: dict[str, Any], version: str, transformers: str, script: str, notes: NoteList
) -> dict[str, Any]:
    """The recipe without the keys TRL ``version``'s parser lacks with ``transformers`` (the native schemas; TrlParser
    >= 0.19 would reject them, <= 0.18 drop them silently), renaming the ones it renamed; Open-R1's own keys only
    for Open-R1's script."""
    from translator.native_schemas import lacks

    out: dict[str, Any] = {}
    dropped, gone = [], []
    for key, value in recipe.items():
        if key in OPEN_R1_KEYS and script != "open-r1" and key not in _TRL_SCRIPT_KEYS:
            dropped.append(key)
            continue
        if training_arguments_lack(key, version, transformers):
            gone.append(key)
            continue
        if not lacks("transformers", transformers, key):
            out[key] = value  # a TrainingArguments field of the transformers this run uses
            continue
        if key in KEY_RANGE and _has_key(version, key):
            out[key] = value  # rlconf's own table says this version has it
        elif key not in KEY_RANGE and (not lacks("trl", version, key) or key in OPEN_R1_KEYS):
            out[key] = value
        elif (other := _RENAMED_EITHER_WAY.get(key)) and _has_key(version, other) and other not in recipe:
            out[other] = value
            notes.info("keys.renamed", f"{key} is {other} in TRL {version}", source_keys=[key], target_keys=[other])
        else:
            dropped.append(key)
    if dropped:
        notes.warning(
            "keys.not-in-version",
            f"TRL {version} has no {', '.join(dropped)} (its parser "
            + ("rejects" if at_least(version, "0.19.1") else "silently drops")
            + " unknown recipe keys); not written",
            source_keys=dropped,
        )
    for key in gone:
        instead = TRANSFORMERS_RESPELLED.get(key, "nothing: remove it")
        notes.warning(
            "keys.not-in-transformers",
            f"transformers {transformers}'s TrainingArguments has no {key}, so "
            f"TrlParser {'rejects' if at_least(version, '0.19.1') else 'drops'} it; not written (use "
            f"{instead})",
            source_keys=[key],
        )
    return out


# datasets names the splits of a data directory after its files (datasets/data_files.py SPLIT_KEYWORDS).
_SPLIT_KEYWORDS = {
    "train": "train",
    "training": "train",
    "validation": "validation",
    "valid": "validation",
    "dev": "validation",
    "val": "validation",
    "test": "test",
    "testing": "test",
    "eval": "test",
    "evaluation": "test",
}
_DATA_SUFFIXES = (".parquet", ".json", ".jsonl", ".csv", ".arrow", ".txt")


def _dataset_form(source: str, split: str | None) -> tuple[str, str]:
    """(dataset_name, split) for TRL's load_dataset(dataset_name)[split]: a Hub id or a directory as it is; a local
    data file as its directory, the split named after the file (train.parquet → train)."""
    if source.endswith(_DATA_SUFFIXES):
        directory, _, file = source.rpartition("/")
        return directory or ".", _SPLIT_KEYWORDS.get(file.split(".")[0].lower(), "train")
    return source, split or "train"


def _has_key(version: str, key: str) -> bool:
    since, until = KEY_RANGE[key]
    return at_least(version, since) and not (until and newer_than(version, until))


def _span(key: str) -> str:
    since, until = KEY_RANGE[key]
    return f"{since}–{until}" if until else f"{since} on"


def _drops_extra_keys(script: Source | None) -> bool:
    """Whether the script parses its arguments with ``allow_extra_keys=True`` (HfArgumentParser.parse_dict), so keys
    no argument class declares are dropped rather than refused."""
    import ast

    from translator.sources.pyconfig import parse

    if script is None:
        return False
    return any(
        isinstance(node, ast.keyword)
        and node.arg == "allow_extra_keys"
        and isinstance(node.value, ast.Constant)
        and node.value.value is True
        for node in ast.walk(parse(script))
    )


def _refuse_other_framework_config(config: Source, where: str) -> None:
    """A launch read as TRL's (its program is a project script, `python boot.py --config x.yaml`) whose config has
    another framework's key structure (NeMo-RL's `grpo:` / `policy:` sections) runs that framework, not TRL: reading
    it with GRPOConfig's defaults would state a plan nobody configured."""
    from translator.dialects import registry, sniff

    if any(sniff.matches(f, config.text, config.suffix) for f in registry.registered() if f.name == "trl"):
        return
    others = (f for f in registry.registered() if f.name not in ("trl", "rlconf"))
    other = next((f for f in others if sniff.matches(f, config.text, ".yaml")), None)
    if other is not None:
        raise ConfigError(
            f"{where} {config.name} is a {other.label} config (its key structure), not a TRL recipe",
            file=config.name,
            hint=f"pass --from {other.name} if the launch runs {other.label}'s trainer",
        )


def _known_fields() -> frozenset[str]:
    """The names of every TRL / transformers / Open-R1 argument rlconf knows (any release)."""
    return frozenset(DEFAULTS) | frozenset(KEY_RANGE) | OPEN_R1_KEYS | OTHER_KNOWN_KEYS


def defaults_for(version: str) -> dict[str, Any]:
    defaults: dict[str, Any] = {}
    for key, changes in DEFAULTS.items():
        for since, value in changes:
            if at_least(version, since):
                defaults[key] = value
    return defaults


def _training_script_index(argv: list[str], source: Source | None = None, cwd: str | None = None) -> int | None:
    """Index of the training script (grpo.py, `trl grpo`, `-m trl.scripts.grpo`, `-m` a module of the project that
    imports trl) in a launch command, if this is one."""
    if not argv:
        return None
    if argv[:2] == ["trl", "grpo"]:
        return 1
    launcher = argv[0].rsplit("/", 1)[-1]
    for i, word in enumerate(argv[:-1]):
        if word in ("-m", "--module") and argv[i + 1].startswith("trl.scripts."):
            return i + 1
        if (
            word in ("-m", "--module")
            and source is not None
            and (launcher in ("accelerate", "torchrun", "deepspeed") or launcher.startswith("python"))
            and (found := _module_file(source, cwd, argv[i + 1])) != argv[i + 1]
            and not python_script.trains_without_trl(source, cwd, found)
        ):
            return i + 1
    for i, word in enumerate(argv):
        if word.endswith(".py") and ("grpo" in word or i > 0) and not word.startswith("-"):
            launcher = argv[0].rsplit("/", 1)[-1]
            if launcher in ("accelerate", "torchrun", "deepspeed") or launcher.startswith("python"):
                return i
    return None


def _live_values_to_command_line(
    recipe: dict[str, Any], live: list[str], notes: NoteList
) -> tuple[dict[str, Any], dict[str, str]]:
    """TrlParser never expands a variable in a YAML value, but takes ``--key value`` after ``--config`` over the
    recipe: a text with a variable the source left to the shell goes on the launch line, where the shell expands
    it as the source's did. A list or mapping with one cannot be a single flag: an error note names it."""
    kept: dict[str, Any] = {}
    moved: dict[str, str] = {}
    for key, value in recipe.items():
        names = live_names(value, live)
        if names and isinstance(value, str):
            moved[key] = value
            continue
        if names:
            notes.error(
                "shell.not-expressible",
                f"{key} holds ${{{names[0]}}}, which the source left to the shell; "
                f"TRL reads recipe.yaml without expanding variables and {key} is not one text to move to the "
                f"command line: replace ${{{names[0]}}} in {key} with its value (or translate with --env "
                f"{names[0]}=VALUE)",
                source_keys=[key],
                target_keys=[key],
            )
        kept[key] = value
    return kept, moved


def _script_arguments(words: list[str]) -> tuple[str | None, dict[str, Any], list[str]]:
    """`--config recipe.yaml` and `--key value` overrides after the training script, and the words where a flag
    would be whose value is not known (an unset variable: it may hold any flags)."""
    recipe, flags, unknown = None, {}, []
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if not word.startswith("--"):
            if symbolic_names(word):
                unknown.append(word)
            continue
        key, eq, value = word[2:].partition("=")
        if not eq:
            if i < len(words) and not words[i].startswith("--"):
                value = words[i]
                i += 1
            else:
                value = "true"
        key = key.replace("-", "_")
        if key == "config":
            recipe = value
        else:
            flags[key] = scalar(value)
    return recipe, flags, unknown


def _serve_options(words: list[str]) -> dict[str, str]:
    """`--option value` / `--option=value` pairs of a `trl vllm-serve` / `vllm serve` line (every option has a value
    but the few boolean ones, which are followed by another option)."""
    found: dict[str, str] = {}
    for i, word in enumerate(words):
        if word.startswith("--"):
            flag, eq, value = word.partition("=")
            if not eq:
                following = words[i + 1] if i + 1 < len(words) else ""
                value = following if following and not following.startswith("--") else "true"
            found[flag] = value
    return found


def _fraction(text: str | None) -> float | None:
    try:
        return float(text) if text else None
    except ValueError:
        return None


def _experimental(argv: list[str], source: Source) -> None:
    """A launch of one of TRL's experimental trainers that later releases removed: said plainly."""
    for word in argv:
        match = re.search(r"trl[./]experimental[./](\w+)", word)
        if match and match.group(1) in EXPERIMENTAL_GONE:
            last, gone = EXPERIMENTAL_GONE[match.group(1)]
            raise ConfigError(
                f"TRL's experimental '{match.group(1)}' trainer is not in trl {gone} and later (last "
                f"seen in {last}); rlconf reads GRPOTrainer launches",
                file=source.name,
                hint=f"pin trl=={last} to run it, or move the recipe to GRPOTrainer",
            )


def _refuse_absent_deepspeed_file(source: Source, accelerate: Mapping[str, Any], where: str) -> None:
    """An accelerate config whose ``deepspeed_config.deepspeed_config_file`` is not in the project (and no launch
    script writes it): accelerate's DeepSpeed plugin cannot load it (HfDeepSpeedConfig: "Expected a string path to an
    existing deepspeed config ...") when the trainer starts, so the run stops before training."""
    section = accelerate.get("deepspeed_config")
    named = section.get("deepspeed_config_file") if isinstance(section, Mapping) else None
    if isinstance(named, str) and absent_from_project(source, named, source.text):
        raise ConfigError(
            f"deepspeed_config_file names {named}, which is not in the project: accelerate's DeepSpeed plugin "
            "cannot load it, and the run stops at start-up",
            file=where,
            key="deepspeed_config.deepspeed_config_file",
            hint="add the DeepSpeed config to the project, or name one that is there",
        )


def _refuse_deepspeed_file_the_run_folder_lacks(source: Source, command: ShellCommand, script: str, given: Any) -> None:
    """``--deepspeed path.json`` is opened from the folder the run starts in (TrainingArguments.__post_init__ hands
    it to HfTrainerDeepSpeedConfig, which raises on a path that is not a file). Where the launched script is found
    from a run folder that does not hold that path while the project holds it elsewhere (a path written from the
    repository's root, run from a subfolder), or holds no such path but files of that name in other folders (the
    configs moved: local_scripts/zero3.json for scripts/zero3.json), the run stops at start-up: ConfigError. A path
    with a variable, an absolute one, and a name the project holds nowhere (made by the user's setup) are not
    judged."""
    if not isinstance(given, str) or not given.endswith(".json"):
        return
    tail = os.path.normpath(script)
    for project, _ in launched_scripts(source, command.cwd, script):
        if os.path.isfile(os.path.join(project.run_dir, script)):
            folders = [project.run_dir]
        elif os.path.isabs(tail) or tail.startswith(".."):
            return
        else:  # the script found from another folder: the run starts in a folder that holds it at that path
            folders = [path[: -len(tail)].rstrip(os.sep) for path in files_ending(project.root, tail)]
        if not folders or os.path.isabs(given) or set("$`~") & set(given):
            return
        if any(os.path.isfile(os.path.join(folder, given)) for folder in folders):
            return
        # the path below another folder (written from elsewhere), else a file of that name (moved)
        named = files_ending(project.root, given) or files_named(project.root, os.path.basename(given))
        if not named:
            return
        held = ", ".join(project.rel(path) for path in named[:3])
        starts = ", ".join(project.rel(folder) or "." for folder in folders)
        raise ConfigError(
            f"--deepspeed {given} is not in the folder the run starts in ({starts}, where {script} is), though the "
            f"project holds {held}: "
            'TrainingArguments stops at start-up ("Expected a string path to an existing deepspeed config")',
            file=source.name,
            line=command.line,
            hint="name the file from the folder the run starts in",
        )


def _module_file(source: Source, cwd: str | None, module: str) -> str:
    """The project file ``python -m module`` runs (its absolute path), else the module's name as it is."""
    from translator.dialects.forkbatch import locate

    found = locate(source, cwd, module)
    return found[1] if found is not None else module


# TRL's trainers whose batches rlconf does not read (every one but GRPOTrainer)
_OTHER_TRL_TRAINER = re.compile(r"trl(\.\w+)*\.(?!GRPO)\w*Trainer")


def _other_trl_trainer(source: Source, cwd: str | None, script: str) -> str | None:
    """The TRL trainer other than GRPO's (``trl.SFTTrainer``, ``trl.PPOTrainer``) that the launched project script
    builds, when every trainer it builds is one (directly or through a project subclass of one); None otherwise."""
    for project, path in launched_scripts(source, cwd, script):
        return _other_trainers(_trainer_module(project, path)[1])
    return None


def _other_trainers(found: list[Candidate]) -> str | None:
    """The TRL trainers other than GRPO's that ``found`` (a script's trainer classes) are, when all are."""
    names = [
        c.cls if isinstance(c.cls, str) else next(iter(c.cls.external_bases()), "") if c.cls else "" for c in found
    ]
    if names and all(_OTHER_TRL_TRAINER.fullmatch(n) for n in names):
        return ", ".join(dict.fromkeys(names))
    return None


def _names_grpo(source: Source, command: ShellCommand, script: str) -> bool:
    """Whether the launched script is a GRPO one: its path says so (``grpo.py``, ``trl grpo``), or the project's file
    itself names GRPO (``GRPOTrainer``, ``GRPOConfig``); an SFT or evaluation script of the project does not."""
    if "grpo" in script.lower():
        return True
    for project, path in launched_scripts(source, command.cwd, script):
        tree = project.tree(path)
        return tree is not None and any(
            "GRPO" in (n.id if isinstance(n, ast.Name) else n.attr if isinstance(n, ast.Attribute) else "")
            or (isinstance(n, ast.alias) and "GRPO" in n.name)
            for n in ast.walk(tree)
        )
    return False


def _visible_gpus(
    command: ShellCommand, argv: list[str], options: Mapping[str, str], native: NativeTrl, origin: str
) -> tuple[int | None, str | None]:
    """How many GPUs the training processes see (torch.cuda.device_count()), when the launch states it: accelerate
    launch sets CUDA_VISIBLE_DEVICES to its gpu_ids (flag or config) unless that is "all"
    (accelerate/utils/launch.py@v1.3.0: prepare_simple_launcher_cmd_env, prepare_multi_gpu_env,
    prepare_deepspeed_cmd_env); else what the script states (its CUDA_VISIBLE_DEVICES, a Slurm job's GPUs). None
    leaves the machine's count unknown."""
    gpu_ids = options.get("--gpu_ids", options.get("--gpu-ids"))
    where = f"--gpu_ids on {origin}"
    if gpu_ids is None and native.accelerate.get("gpu_ids") is not None:
        gpu_ids, where = str(native.accelerate["gpu_ids"]), f"gpu_ids in {native.accelerate_name}"
    accelerate = launcher_of(argv) == "accelerate"
    if accelerate and gpu_ids is not None and gpu_ids != "all":
        devices, where = gpu_ids, f"{where} ({gpu_ids})"
    else:
        return visible_gpus(command, origin)
    if symbolic_names(devices):
        return None, None
    count = len([d for d in devices.split(",") if d.strip()])
    return count, where


def _server_gpus(argv: list[str], visible: str | None) -> int:
    if visible:
        return len([d for d in visible.split(",") if d.strip()])
    options = _serve_options(argv[2:])
    tp = _count(options.get("--tensor_parallel_size") or options.get("--tensor-parallel-size") or "1")
    dp = _count(options.get("--data_parallel_size") or options.get("--data-parallel-size") or "1")
    return tp * dp if tp is not None and dp is not None else 1


def _count(text: str | None) -> int | None:
    """A server option's whole number; None when absent, not digits, or past any real count (an edited script)."""
    return int(text) if text and text.isdigit() and len(text) <= 9 else None


@dataclass
class ForkTrainer:
    """The trainer class a launched script instantiates, when it is project code that forms GRPO batches itself:
    the TRL lineage its batch-forming code matches (trl_tables.LINEAGES), or None when it matches none."""

    where: str  # 'path:line ClassName' (several candidates joined)
    lineage: Lineage | None
    code_line: str  # path:line of its generation / batching code
    # 'path:line args.FIELD': where it sets a batch field of the parsed config (no TRL release's GRPOTrainer does)
    rewrites: tuple[str, ...] = ()
    files: tuple[str, ...] = ()  # the files of the class and of its project bases (they may keep TRL's checks)
    # 'script (trainer)': a recipe's readers among the project's scripts, when they build different trainers
    readers: tuple[str, ...] = ()
    own_group: bool = False  # it generates without num_generations (a count of its own): the group is not known


def _fork_trainer(source: Source, cwd: str | None, script: str, flag: Callable[[str], Any]) -> ForkTrainer | None:
    """Follow the launched script to the trainer class it instantiates (through the project's imports); None when
    the script is not in the project or its trainer is TRL's own (imported from trl, or a project subclass that
    overrides none of the batch-forming methods). ``flag`` gives a config flag's value (None if not known): it
    picks between the classes of ``trainer_cls = A if args.use_vllm else B``."""
    for project, path in launched_scripts(source, cwd, script):
        return _trainer_of(project, path, flag)
    return None


def _trainer_of(project: Project, path: str, flag: Callable[[str], Any]) -> ForkTrainer | None:
    """The project trainer a script (``path``) builds, as :func:`_fork_trainer` reads it."""
    candidates = [
        c
        for c in _trainer_module(project, path)[1]
        if c.condition is None or _may_be(flag(c.condition[0]), c.condition[1])
    ]
    found = [_classify(project, c.cls, flag) for c in candidates if isinstance(c.cls, ClassInfo)]
    return _one_trainer([f for f in found if f is not None])


def _one_trainer(forks: list[ForkTrainer]) -> ForkTrainer | None:
    """The trainer that one of several candidate classes (or scripts) stands for: None when none is the project's
    own; their lineage when they share one; else a trainer of no lineage (which one runs is not read here)."""
    if not forks:
        return None
    releases = {f.lineage.release if f.lineage else None for f in forks}
    where, own_group = "; ".join(f.where for f in forks), any(f.own_group for f in forks)
    if len(releases) == 1:
        files = tuple(dict.fromkeys(path for f in forks for path in f.files))
        return (
            forks[0]
            if len(forks) == 1
            else ForkTrainer(where, forks[0].lineage, forks[0].code_line, (), files, own_group=own_group)
        )
    return ForkTrainer(where, None, "; ".join(f.code_line for f in forks), own_group=own_group)


_RECIPE_READERS = 40  # project scripts that parse a recipe, read at most
_RECIPE_SCAN = 3_000  # project Python files searched for them


def _recipe_trainer(source: Source, native: NativeTrl) -> ForkTrainer | None:
    """The trainer a recipe read on its own trains with: TrlParser's ``--config`` hands it to a project script, so
    the recipe's readers are the project's scripts that build a TrlParser and a trainer, the nearest first (those
    under the recipe's folder, else under the folder above, up to its package: a folder with setup.py, setup.cfg or
    pyproject.toml, or the project's root). The project says which of them reads this recipe where its own launch
    lines run it (:func:`_named_readers`), else where a reader's name is a folder of the recipe's path (Open-R1's
    ``recipes/<model>/<script>/config.yaml`` run by ``<script>.py``). Readers that build only TRL trainers other than
    GRPO's (``sft.py``) make the recipe no GRPO recipe: ConfigError naming them. Of the GRPO readers: when they all
    build TRL's own, None; when they build one project trainer (one lineage), that one; when they build different
    ones, a trainer of no lineage whose ``readers`` name the scripts. Where one reader remains, its imports of trl
    at start-up go to ``native.trl_imports`` (the release must have them, as for a launched script)."""
    if source.files or source.base_dir is None:
        return None

    def flag(key: str) -> Any:
        return _flag_value(native.values, key)

    folder = recipe_folder = os.path.realpath(source.base_dir)
    root = project_root(folder)
    project = Project(root, root)
    scripts = [path for path in project_files(root) if path.endswith(".py")][:_RECIPE_SCAN]
    verdicts: dict[str, ForkTrainer | None] = {}  # GRPO readers → their project trainer (None: TRL's own)
    others: dict[str, str] = {}  # readers that build other TRL trainers → which
    while not verdicts and not others:
        for path in scripts:
            if len(verdicts) + len(others) >= _RECIPE_READERS or not path.startswith(folder + os.sep):
                continue
            if "TrlParser" not in (read_text(path, MAX_FILE_BYTES) or ""):
                continue
            found = _trainer_module(project, path)[1]
            if any("GRPO" in (c.cls.name if isinstance(c.cls, ClassInfo) else str(c.cls)) for c in found):
                verdicts[project.rel(path)] = _trainer_of(project, path, flag)
            elif other := _other_trainers(found):
                others[project.rel(path)] = other
        if folder == root or not folder.startswith(root) or _is_package(folder):
            break
        folder = os.path.dirname(folder)
    recipe = os.path.relpath(os.path.join(recipe_folder, os.path.basename(source.name)), root)
    named = _named_readers(root, recipe) or [
        rel for rel in (*verdicts, *others) if os.path.splitext(os.path.basename(rel))[0] in recipe.split(os.sep)[:-1]
    ]
    if named and set(named) <= set(others):
        shown = "; ".join(f"{rel}, which builds {others[rel]}," for rel in named)
        raise ConfigError(
            f"no GRPO recipe: the project runs it with {shown} and rlconf reads TRL's GRPOTrainer and its forks only",
            file=source.name,
            hint="explain a GRPO recipe or launch script",
        )
    if named and set(named) <= set(verdicts):
        verdicts = {rel: verdicts[rel] for rel in named}
    if len(verdicts) == 1:
        native.trl_imports = project.package_imports(os.path.join(root, *verdicts), None, "trl")
    forks = [f for f in verdicts.values() if f is not None]
    if len(forks) == len(verdicts):
        return _one_trainer(forks)
    if not forks:
        return None
    readers = tuple(f"{rel} ({f.where if f else 'trl.GRPOTrainer'})" for rel, f in verdicts.items())
    return ForkTrainer("; ".join(f.where for f in forks), None, "; ".join(f.code_line for f in forks), readers=readers)


_LAUNCH_TEXTS = (".md", ".sh", ".bash", ".slurm", ".sbatch", ".txt")
_CONTINUED = re.compile(r"\\\n\s*")


def _named_readers(root: str, recipe: str) -> list[str]:
    """The project scripts (paths from ``root``) that the project's own launch lines run with the recipe
    (``recipe``: its path from ``root``): a README's or a script's command naming both a ``.py`` file and the
    recipe (``accelerate launch ... src/pkg/grpo.py --config recipes/x.yaml``), lines joined at a trailing
    backslash. Empty when no such line names it."""
    found: list[str] = []
    pattern = re.compile(rf"(?:^|[\s=\"'(])(?:\./)?{re.escape(recipe)}(?:$|[\s\"')])")
    for path in project_files(root)[:_RECIPE_SCAN]:
        if not path.endswith(_LAUNCH_TEXTS) or not (text := read_text(path, MAX_FILE_BYTES)) or recipe not in text:
            continue
        for line in _CONTINUED.sub(" ", text).splitlines():
            if pattern.search(line):
                found += [w.removeprefix("./") for w in re.findall(r"[\w./-]+\.py\b", line)]
    return list(dict.fromkeys(found))


def _is_package(folder: str) -> bool:
    return any(os.path.isfile(os.path.join(folder, name)) for name in ("setup.py", "setup.cfg", "pyproject.toml"))


def _trainer_module(project: Project, path: str) -> tuple[str, list[Candidate]]:
    """The module that builds the launched script's trainer and the trainer classes it builds: the script itself,
    else the first project module it imports (directly or through others) that builds one (``main.py`` calling
    ``train.pipeline.main``); (path, []) when none does."""
    for module in project.reachable(path, limit=_TRAINER_SEARCH_FILES):
        found = project.trainer_classes(module)
        if found:
            return module, found
    return path, []


def _trl_own_trainer(source: Source, cwd: str | None, script: str) -> str | None:
    """The project file that builds TRL's own GRPOTrainer (imported from trl, no project subclass) when the
    launched script or a module it imports does: the script is then a driver of the installed release, not a
    fork."""
    for project, path in launched_scripts(source, cwd, script):
        module, found = _trainer_module(project, path)
        own = bool(found) and all(isinstance(c.cls, str) and c.cls.split(".")[0] == "trl" for c in found)
        return project.rel(module) if own and any("GRPOTrainer" in str(c.cls) for c in found) else None
    return None


def _set_by_post_init(native: NativeTrl, notes: NoteList) -> None:
    """Batch fields the project's own argument class sets in its __post_init__ (MTPOConfig: ``self.num_generations =
    self.num_answer_generations * self.num_confidence_generations``): that value is the run's, whatever the launch
    passed; one that is not plain arithmetic of known fields is unknown."""
    if native.own_arguments is None:
        return
    known = _known_fields()
    own = native.own_arguments.fields - known
    for key, (value, where) in post_init_fields(
        native.own_arguments, native.values, _REWRITTEN, own.__contains__
    ).items():
        if value is not None:
            native.values[key], native.origins[key] = value, where
            notes.info(
                "keys.set-by-post-init",
                f"{where}: the project's argument class sets {key} to {value} in __post_init__ (from its own fields)",
                source_keys=[key],
            )
        else:
            native.values[key], native.origins[key] = f"${{{key}}}", where  # symbolic: the counts on it are unknown
            notes.warning(
                "keys.set-by-post-init",
                f"{where}: the project's argument class sets {key} in __post_init__ from what rlconf cannot compute: "
                f"{key} is unknown",
                source_keys=[key],
            )


def _own_argument_fields(
    source: Source, cwd: str | None, script: str
) -> tuple[frozenset[str], bool, dict[str, Any], ArgumentFields] | None:
    """The fields of the project's own dataclasses the launched script (or a module it imports) hands its
    argument parser (TrlParser((ScriptArguments, GRPOConfig, ModelConfig)) takes them besides TRL's), and whether
    they and TRL's are all it takes: not when that file also adds options of its own (``add_argument``) or keeps
    the arguments no field takes (``parse_known_args``, ``return_remaining_strings=True``), and their literal
    defaults. None: the script is not in the project (whatever the launch runs is not at hand), or builds no parser
    rlconf reads."""
    launched = next(iter(launched_scripts(source, cwd, script)), None)
    if launched is None:
        return None
    project, path = launched
    for module in project.reachable(path, limit=_TRAINER_SEARCH_FILES):
        fields = project.argument_fields(module)
        if fields is not None:
            return fields.fields, not _takes_more_arguments(project.tree(module)), fields.defaults, fields
    return None


def _takes_more_arguments(tree: ast.Module | None) -> bool:
    """Whether a module's parser takes options besides its dataclasses' fields or keeps unknown ones."""
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("add_argument", "parse_known_args"):
                return True
            if any(k.arg == "return_remaining_strings" and not _false(k.value) for k in node.keywords):
                return True
    return False


def _false(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


_TRAINER_SEARCH_FILES = 40  # project modules searched for the trainer a launched script builds (breadth first)

# What a project trainer leaves open: how many completions a micro-step holds and when generation happens, hence
# every count built on them (the group size, world size and accumulation stay known). One that matches no TRL
# lineage also decides how often it trains on them (epochs_per_step; a lineage's is its release's num_iterations).
_CADENCE_QUANTITIES = (
    "prompts_per_step",
    "samples_per_step",
    "samples_per_optimizer_step",
    "optimizer_steps_per_step",
    "micro_batch_per_device",
    "total_steps",
)


def _fork_unknown(spec: RunSpec, fork: ForkTrainer, notes: NoteList) -> None:
    if fork.rewrites:
        lines = list(fork.rewrites)
        text = (
            f"{fork.where} is the project's own trainer and sets the parsed config's batch fields itself "
            f"({', '.join(fork.rewrites)}; no TRL release's GRPOTrainer does), so the batch it forms is not the "
            "configured one"
        )
    elif fork.readers:
        lines = [r.split(" ", 1)[0] for r in fork.readers]
        text = (
            f"the recipe is read by the project's scripts {'; '.join(fork.readers)}, which build different trainers, "
            "so which one's batching it trains with depends on the script launched (explain that launch instead)"
        )
    else:
        lines = [fork.code_line]
        text = (
            f"{fork.where} is the project's own trainer; its batch-forming code ({fork.code_line}) matches no TRL "
            "release's GRPOTrainer, so how many completions a micro-step holds and when it generates are not known"
        )
    if fork.own_group:
        text += "; it generates without num_generations, so its group size is not the configured one either"
    names = (
        _CADENCE_QUANTITIES
        + (() if fork.lineage else ("epochs_per_step",))
        + (("samples_per_prompt",) if fork.own_group else ())
        + tuple(
            quantity for field, quantity in _REWRITTEN.items() if any(r.endswith(f".{field}") for r in fork.rewrites)
        )
    )
    for name in names:
        setattr(spec.plan, name, None)
        spec.derivations[f"plan.{name}"] = Derivation(text, lines, UNKNOWN)
    notes.warning(
        "framework.fork-trainer-unknown",
        f"{text}: {', '.join(names)} are left unknown (read the trainer's generation and sampler code, then pass "
        "--from trl@VERSION of the release it follows)",
        source_keys=[fork.where],
    )


# Config fields a trainer may rewrite after parsing → the quantity a rewrite leaves unknown besides the cadence ones.
_REWRITTEN = {
    "per_device_train_batch_size": "micro_batch_per_device",
    "gradient_accumulation_steps": "grad_accum_steps",
    "num_generations": "samples_per_prompt",
    "steps_per_generation": "optimizer_steps_per_step",
    "generation_batch_size": "samples_per_step",
    "num_iterations": "optimizer_steps_per_step",
}


def _config_rewrites(
    project: Project,
    methods: dict[str, tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]],
    flag: Callable[[str], Any],
) -> tuple[str, ...]:
    """'path:line NAME.FIELD' for each statement of the trainer's project methods that sets a batch field of the
    parsed config (``args.per_device_train_batch_size = ...``, ``self.args.num_generations = ...``) or the
    trainer's own copy of one to anything but the config's value (``self.num_generations = int(args.x * 0.5)``;
    TRL's GRPOTrainer only copies ``self.num_generations = args.num_generations``). A statement in a branch of
    ``if args.FLAG:`` or ``if args.name == "x":`` that the launch's value does not take (``flag``) is skipped, and
    so is the branch of ``if self.control.should_evaluate:`` (the Trainer's flag while it evaluates: no training
    batch is formed there). A copy of a copy (``self.train_n = args.n`` then ``self.n = self.train_n``) is a copy."""
    found: list[str] = []
    copies = _config_copies(methods)

    def visit(statements: list[ast.stmt], path: str) -> None:
        for node in statements:
            if isinstance(node, ast.If) and dotted_path(node.test) == "self.control.should_evaluate":
                visit(node.orelse, path)
                continue
            if isinstance(node, ast.If):
                test = option_test(node.test)
                value = flag(test[0]) if test is not None else None
                taken = None if test is None or value is None else _may_be(value, test[1])
                visit(node.body if taken is not False else [], path)
                visit(node.orelse if taken is not True else [], path)
                continue
            value = getattr(node, "value", None)
            for target in assignment_targets(node):
                if not (isinstance(target, ast.Attribute) and target.attr in _REWRITTEN):
                    continue
                holder = dotted_path(target.value)
                source = dotted_path(value) if isinstance(node, ast.Assign) and isinstance(value, ast.expr) else None
                copied = source in (f"args.{target.attr}", f"self.args.{target.attr}") or (
                    source is not None and copies.get(source.removeprefix("self.")) == target.attr
                )
                if holder in ("args", "self.args") or (holder == "self" and not copied):
                    found.append(f"{project.rel(path)}:{node.lineno} {holder}.{target.attr}")
            for block in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, block, None)
                if isinstance(inner, list) and not isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                    visit(
                        [s for s in inner if isinstance(s, ast.stmt)]
                        + [s for h in inner if isinstance(h, ast.ExceptHandler) for s in h.body],
                        path,
                    )

    for path, method in methods.values():
        visit(method.body, path)
    return tuple(found)


def _config_copies(methods: dict[str, tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]) -> dict[str, str]:
    """The trainer's attributes every assignment of which copies the same config field (``self.train_n = args.n``):
    attribute → field."""
    fields: dict[str, set[str]] = {}
    other: set[str] = set()
    for _, method in methods.values():
        for node in ast.walk(method):
            for target in assignment_targets(node) if isinstance(node, ast.stmt) else []:
                if not (isinstance(target, ast.Attribute) and dotted_path(target.value) == "self"):
                    continue
                value = getattr(node, "value", None)
                source = dotted_path(value) if isinstance(node, ast.Assign) and isinstance(value, ast.expr) else None
                field = next(
                    (source[len(p) :] for p in ("args.", "self.args.") if source and source.startswith(p)), None
                )
                if field is None or "." in field:
                    other.add(target.attr)
                else:
                    fields.setdefault(target.attr, set()).add(field)
    return {name: found.pop() for name, found in fields.items() if len(found) == 1 and name not in other}


def _may_be(value: Any, wanted: Any) -> bool:
    """Whether an option whose value is ``value`` (None: not known) may select a branch that wants ``wanted``;
    text compares without case (the test is often ``args.x.lower() == "grpo"``)."""
    if value is None:
        return True
    if isinstance(value, str) and isinstance(wanted, str):
        return value.lower() == wanted.lower()
    return bool(value == wanted)


def _flag_value(values: dict[str, Any], key: str) -> bool | None:
    """A boolean flag as the launch sets it, else its TRL default when every release has the same one."""
    value = values.get(key)
    if value is None:
        defaults = {default for _, default in DEFAULTS.get(key, [])}
        only = defaults.pop() if len(defaults) == 1 else None
        return only if isinstance(only, bool) else None
    text = str(value).strip().lower()
    return True if text in ("true", "1", "yes", "") else False if text in ("false", "0", "no") else None


def _classify(project: Project, info: ClassInfo, flag: Callable[[str], Any]) -> ForkTrainer | None:
    methods: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    owner: dict[str, str] = {}
    for cls in info.lineage():
        for name, node in cls.methods().items():
            if name not in methods:
                methods[name], owner[name] = node, cls.path
    signatures = _signatures(methods)
    overrides = [m for m in BATCH_METHODS if m in methods]
    from_trl = any(b.split(".")[0] == "trl" for b in info.external_bases())
    if from_trl and not {"_get_train_sampler", "get_train_dataloader"} & set(methods):
        signatures["inherited_sampler"] = ("", 0)  # the installed TRL's sampler feeds it, not the Trainer's default
    if from_trl and not overrides and "generate_in_loss" not in signatures:
        return None  # TRL's own batching: the installed release's semantics
    where = f"{project.rel(info.path)}:{info.node.lineno} {info.name}"
    lineage = next(
        (
            lin
            for lin in LINEAGES
            if all(r in signatures for r in lin.requires) and not any(e in signatures for e in lin.excludes)
        ),
        None,
    )
    anchor = next(
        (
            signatures[k]
            for k in ("generate_in_loss", "generate_in_prepare", "buffer_per_micro_step")
            if k in signatures
        ),
        None,
    )
    if anchor is not None:
        code_line = f"{project.rel(owner.get(anchor[0], info.path))}:{anchor[1]}"
    else:
        name = overrides[0] if overrides else "compute_loss"
        method = methods.get(name)
        code_line = f"{project.rel(owner.get(name, info.path))}:{method.lineno if method else info.node.lineno}"
    rewrites = _config_rewrites(
        project, {name: (owner.get(name, info.path), node) for name, node in methods.items()}, flag
    )
    generating = [
        node
        for name, node in methods.items()
        if name != "__init__"
        and any(
            isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr in _GENERATE_CALLS
            for c in ast.walk(node)
        )
    ]
    grouped = _grouped_by_num_generations(generating, methods.get("__init__"))
    if lineage is not None and "plain_sampler" in lineage.requires and not grouped:
        lineage = None  # groups of a count of its own: no release's arithmetic
    own_group = lineage is None and bool(generating) and not grouped
    files = tuple(dict.fromkeys([info.path, *owner.values()]))
    return ForkTrainer(where, lineage, code_line, rewrites, files, own_group=own_group)


_GENERATE_CALLS = ("generate", "_generate", "_generate_and_score_completions", "_generate_completions")


def _grouped_by_num_generations(
    loss: list[ast.FunctionDef | ast.AsyncFunctionDef], init: ast.FunctionDef | ast.AsyncFunctionDef | None
) -> bool:
    """Whether the completions compute_loss generates come in groups of num_generations, as R1-V's do: the loss code
    names num_generations (``num_return_sequences=self.num_generations``, a repeat by it, vLLM's ``n=``), or a
    generating call takes ``generation_config=`` and __init__ builds that config from num_generations
    (``GenerationConfig(num_return_sequences=self.num_generations)``). A loss that generates a number of its own
    (``for _ in range(2): model.generate(...)``) forms groups of that number, not of the configured one."""
    if mentions(list(loss), ("num_generations",)) is not None:
        return True
    configured = any(
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr in _GENERATE_CALLS
        and mentions([*call.args, *(k.value for k in call.keywords)], _CONFIGS) is not None
        for node in loss
        for call in ast.walk(node)
    )
    return configured and init is not None and mentions([init], ("num_generations",)) is not None


# the generation settings a trainer builds once (in __init__) and hands each generating call
_CONFIGS = ("generation_config", "sampling_params")


def _expands_inputs(nodes: list[ast.FunctionDef | ast.AsyncFunctionDef]) -> tuple[str, int] | None:
    """Where the trainer repeats each item of its micro-batch num_generations times itself before generating
    (``for sample in inputs: for _ in range(self.num_generations): expanded.append(sample)``, or the comprehension
    ``[x for x in inputs for _ in range(self.num_generations)]``): each item is then one prompt's group."""

    def repeats(loop_iter: ast.expr) -> bool:
        return (
            isinstance(loop_iter, ast.Call)
            and isinstance(loop_iter.func, ast.Name)
            and loop_iter.func.id == "range"
            and mentions(list(loop_iter.args), ("num_generations",)) is not None
        )

    def bound(target: ast.expr) -> set[str]:  # the names a loop binds to each item (sample, or sample, kind)
        return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}

    for node in nodes:
        for outer in ast.walk(node):
            if isinstance(outer, ast.For) and not repeats(outer.iter):  # over the items (inputs, zip(inputs, ...))
                items = bound(outer.target)
                for inner in ast.walk(outer):
                    repeated = inner is not outer and isinstance(inner, ast.For) and repeats(inner.iter)
                    if repeated and any(  # the item itself appended once per round
                        isinstance(c, ast.Call)
                        and isinstance(c.func, ast.Attribute)
                        and c.func.attr == "append"
                        and len(c.args) == 1
                        and isinstance(c.args[0], ast.Name)
                        and c.args[0].id in items
                        for c in ast.walk(inner)
                    ):
                        return node.name, getattr(inner, "lineno", 0)
            if isinstance(outer, ast.ListComp) and len(outer.generators) == 2:
                first, second = outer.generators
                element = outer.elt
                itself = isinstance(element, ast.Name) and element.id in bound(first.target)
                if itself and not repeats(first.iter) and repeats(second.iter):
                    return node.name, outer.lineno
    return None


def _signatures(methods: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]) -> dict[str, tuple[str, int]]:
    """The batch-forming signatures (trl_tables.LINEAGES) of a trainer's project methods, each with the method
    name and line where it was seen."""

    def closure(start: str) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
        # The method and the project methods it calls as self.x(...), transitively (bounded by the class).
        order, queue = [], [start]
        while queue:
            name = queue.pop(0)
            node = methods.get(name)
            if node is None or node in order:
                continue
            order.append(node)
            queue += [
                c.func.attr
                for c in ast.walk(node)
                if isinstance(c, ast.Call)
                and isinstance(c.func, ast.Attribute)
                and isinstance(c.func.value, ast.Name)
                and c.func.value.id == "self"
                and c.func.attr in methods
            ]
        return order

    def generation(nodes: list[ast.FunctionDef | ast.AsyncFunctionDef]) -> tuple[str, int] | None:
        for node in nodes:
            for call in ast.walk(node):
                if (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute)
                    and call.func.attr in _GENERATE_CALLS
                    and call.func.attr not in methods
                ):
                    return node.name, call.lineno
        return None

    found: dict[str, tuple[str, int]] = {}
    prepare, loss = closure("_prepare_inputs"), closure("compute_loss")
    scope = prepare + loss + closure("_get_train_sampler") + closure("get_train_dataloader") + closure("training_step")
    for word in ("steps_per_generation", "generate_every"):
        hit = mentions(list(scope), (word,))
        if hit is not None:
            found[word] = ("", getattr(hit, "lineno", 0))
    for node in scope:
        for sub in ast.walk(node):
            if (
                isinstance(sub, ast.Subscript)
                and isinstance(sub.value, ast.Attribute)
                and sub.value.attr == "_buffered_inputs"
                and isinstance(sub.slice, ast.BinOp)
                and isinstance(sub.slice.op, ast.Mod)
                and mentions([sub.slice.right], ("gradient_accumulation_steps",)) is not None
            ):
                found.setdefault("buffer_per_micro_step", (node.name, sub.lineno))
    prepared, lossy = generation(prepare), generation(loss)
    if prepared:
        found["generate_in_prepare"] = prepared
    if lossy and not prepared and _grouped_by_num_generations(loss, methods.get("__init__")):
        found["generate_in_loss"] = lossy
    expanded = _expands_inputs(prepare + loss)
    if expanded is not None:
        found["expand_inputs"] = expanded
    sampler = closure("_get_train_sampler") + closure("get_train_dataloader")
    hit = mentions(list(sampler), ("RepeatRandomSampler", "RepeatSampler"))
    if hit is not None:
        found["repeat_sampler"] = ("_get_train_sampler", getattr(hit, "lineno", 0))
    plain = mentions(list(closure("_get_train_sampler")), ("RandomSampler", "SequentialSampler", "DistributedSampler"))
    if hit is None and plain is not None:
        found["plain_sampler"] = ("_get_train_sampler", getattr(plain, "lineno", 0))
    return found


class _Interpreter:
    """Native TRL values → the canonical model."""

    def __init__(self, values: Values, native: NativeTrl, version: str, spec: RunSpec, notes: NoteList) -> None:
        self.v, self.native, self.version, self.spec, self.notes = values, native, version, spec, notes

    def run(self) -> None:
        self.topology()
        self.batch()
        self.algorithm()
        self.read_non_plan_sections()

    def topology(self) -> None:
        t, native = self.spec.topology, self.native
        world = native.world_size
        t.training_gpus = world
        machines = native.accelerate.get("num_machines")
        if machines is None and native.accelerate_unknown:
            t.nodes = None  # the unknown accelerate config may name several machines
        else:
            t.nodes = int(str(machines)) if str(machines).isdigit() else 1
        nodes = t.nodes
        t.gpus_per_node = world // nodes if world and nodes and world % nodes == 0 else None
        kind = str(native.accelerate.get("distributed_type", "")).upper()
        deepspeed = native.accelerate.get("deepspeed_config") or {}
        if not isinstance(deepspeed, dict):  # accelerate reads it as a mapping of DeepSpeed settings
            raise ConfigError(
                f"deepspeed_config must be a mapping (zero_stage: 3, ...), got {deepspeed!r}",
                file=native.accelerate_name,
                key="deepspeed_config",
                hint="write it as 'deepspeed_config:' with 'zero_stage: N' indented below",
            )
        zero = deepspeed.get("zero_stage")
        t.training_backend = (
            {
                "DEEPSPEED": f"deepspeed-zero{zero}" if zero is not None else "deepspeed",
                "FSDP": "fsdp",
                "MULTI_GPU": "ddp",
                "NO": "single",
            }.get(kind)
            if kind
            else None
        )
        if world is not None:
            self.spec.plan.data_parallel_size = world
            self.spec.derivations["plan.data_parallel_size"] = Derivation(
                f"{native.world_size_from}", ["num_processes"], "assumed" if native.world_size_assumed else "config"
            )

    def batch(self) -> None:
        v, plan, version, notes = self.v, self.spec.plan, self.version, self.notes
        d = self.spec.derivations
        world = plan.data_parallel_size
        pdtbs = v.positive_int("per_device_train_batch_size")
        gas = v.positive_int("gradient_accumulation_steps")
        group = v.positive_int("num_generations")
        iterations = v.positive_int("num_iterations") if at_least(version, "0.16.0") else 1
        # TRL's defaults set all four (from 0.14.0)
        assert pdtbs is not None and gas is not None and group is not None and iterations is not None
        plan.samples_per_prompt = group
        plan.epochs_per_step = iterations
        plan.grad_accum_steps = gas
        d["plan.samples_per_prompt"] = self.origin(
            "plan.samples_per_prompt", f"num_generations {group}", "num_generations"
        )
        d["plan.epochs_per_step"] = self.origin(
            "plan.epochs_per_step", f"num_iterations {iterations}", "num_iterations"
        )
        d["plan.grad_accum_steps"] = self.origin(
            "plan.grad_accum_steps", f"gradient_accumulation_steps {gas}", "gradient_accumulation_steps"
        )
        per_round_per_process: int | None  # None: the round's size is unknown (steps_per_generation)
        if not at_least(version, "0.15.2"):  # 0.14: per_device_train_batch_size counts prompts
            plan.micro_batch_per_device = pdtbs * group
            d["plan.micro_batch_per_device"] = derived(
                f"per_device_train_batch_size {pdtbs} prompts × num_generations {group}",
                "per_device_train_batch_size",
                "num_generations",
            )
            notes.info(
                "units.prompts-vs-samples",
                f"in trl 0.14 per_device_train_batch_size counts prompts: "
                f"{pdtbs} prompts × {group} generations = {pdtbs * group} completions per process per "
                "micro-step",
                source_keys=["per_device_train_batch_size"],
            )
            per_round_per_process, round_text = pdtbs * group, "one micro-step (trl 0.14 generates every micro-step)"
            plan.optimizer_steps_per_step = quotient(1, gas)
        else:
            plan.micro_batch_per_device = pdtbs
            d["plan.micro_batch_per_device"] = self.origin(
                "plan.micro_batch_per_device",
                f"per_device_train_batch_size {pdtbs} completions",
                "per_device_train_batch_size",
            )
            if not at_least(version, "0.17.0"):
                per_round_per_process = pdtbs
                round_text = f"one micro-step (trl {version} generates every micro-step)"
                plan.optimizer_steps_per_step = quotient(iterations, gas)
            elif not at_least(version, "0.18.0"):
                per_round_per_process = pdtbs * gas
                round_text = "one accumulation window (gradient_accumulation_steps micro-steps)"
                plan.optimizer_steps_per_step = iterations
            else:
                spg = self.steps_per_generation(pdtbs, gas, world)
                per_round_per_process = pdtbs * spg if spg else None
                round_text = f"steps_per_generation {spg} micro-steps"
                plan.optimizer_steps_per_step = quotient(spg * iterations, gas) if spg else None
        d["plan.optimizer_steps_per_step"] = derived(
            f"one generation round = {round_text}; trained on {iterations} time(s), one optimizer step every "
            f"{gas} micro-steps",
            "gradient_accumulation_steps",
            "num_iterations",
            "steps_per_generation",
        )
        max_steps = v.number("max_steps")
        if isinstance(max_steps, Unknown):
            plan.total_steps = max_steps  # unknown, naming what it depends on (not the dataset: max_steps wins)
        elif max_steps and max_steps > 0 and plan.optimizer_steps_per_step and not at_least(version, "0.17.0"):
            # ≤ 0.16 generates on every micro-step of an optimizer step whose global_step % num_iterations == 0
            # (grpo_trainer.py _prepare_inputs@v0.16.0:646), the others reuse the buffer: whole optimizer steps count
            generating = math.ceil(Fraction(int(max_steps), iterations))
            plan.total_steps = gas * generating
            self.spec.run_length.total_optimizer_steps = int(max_steps)
            d["plan.total_steps"] = derived(
                f"gradient_accumulation_steps {gas} rounds × {generating} of max_steps {int(max_steps)} optimizer "
                f"steps that generate (one in every num_iterations {iterations}, from the first)",
                "max_steps",
                "num_iterations",
            )
        elif max_steps and max_steps > 0 and plan.optimizer_steps_per_step:
            plan.total_steps = math.ceil(Fraction(int(max_steps)) / Fraction(plan.optimizer_steps_per_step))
            self.spec.run_length.total_optimizer_steps = int(max_steps)
            d["plan.total_steps"] = derived(
                f"ceil(max_steps {int(max_steps)} optimizer steps ÷ {fmt(plan.optimizer_steps_per_step)} per step)",
                "max_steps",
            )
        per_process_opt = plan.micro_batch_per_device * gas
        if world is None:
            return
        plan.samples_per_optimizer_step = per_process_opt * world
        d["plan.samples_per_optimizer_step"] = derived(
            f"{fmt(plan.micro_batch_per_device)} completions × {world} processes × gradient_accumulation_steps {gas}",
            "per_device_train_batch_size",
            "gradient_accumulation_steps",
            "num_processes",
        )
        if per_round_per_process is None:
            return
        samples = per_round_per_process * world
        plan.samples_per_step = samples
        plan.prompts_per_step = quotient(samples, group)
        d["plan.samples_per_step"] = derived(
            f"{per_round_per_process} completions per process per round × {world} processes",
            "per_device_train_batch_size",
            "num_processes",
        )
        d["plan.prompts_per_step"] = derived(
            f"{samples} completions ÷ num_generations {group}", "num_generations", "num_processes"
        )
        if samples % group:
            valid = [g for g in divisors(samples) if g >= 2][:24]
            notes.warning(
                "batch.indivisible",
                f"{self.divisibility_message(samples, group, pdtbs, gas, world)} "
                f"(TRL rejects this; num_generations values that divide {samples}: {valid})",
                source_keys=["num_generations", "per_device_train_batch_size"],
            )

    def divisibility_message(self, samples: int, group: int, pdtbs: int, gas: int, world: int) -> str:
        """The era's own wording of the rule that a generation round holds whole groups."""
        if at_least(self.version, "0.20.0"):
            return f"generation_batch_size ({samples}) must be divisible by num_generations ({group})."
        if at_least(self.version, "0.18.0"):
            spg = samples // (pdtbs * world)
            return (
                f"The effective train batch size ({world} x {pdtbs} x {spg}) must be evenly divisible by the "
                f"number of generations per prompt ({group})."
            )
        if at_least(self.version, "0.17.0"):
            return (
                f"The effective train batch size ({world} x {pdtbs} x {gas}) must be evenly divisible by the "
                f"number of generations per prompt ({group})."
            )
        return (
            f"The global train batch size ({world} x {pdtbs}) must be evenly divisible by the number of "
            f"generations per prompt ({group})."
        )

    def steps_per_generation(self, pdtbs: int, gas: int, world: int | None) -> int | None:
        v = self.v
        spg, gbs = v.positive_int("steps_per_generation"), v.positive_int("generation_batch_size")
        if spg is not None and gbs is not None:
            self.notes.warning(
                "keys.conflict",
                "'generation_batch_size' and 'steps_per_generation' can not be both configured at the same time",
                source_keys=["generation_batch_size", "steps_per_generation"],
            )
        if spg is not None:
            return spg
        if gbs is None:
            return gas
        if world is None:
            return None
        if gbs % (pdtbs * world):
            self.notes.warning(
                "batch.indivisible",
                f"generation_batch_size ({gbs}) must be divisible by the global batch size ({pdtbs * world})",
                source_keys=["generation_batch_size"],
            )
        return gbs // (pdtbs * world)

    def origin(self, field: str, text: str, *keys: str) -> Derivation:
        return Derivation(text, list(keys), "config" if any(k in self.v for k in keys) else "default")

    def algorithm(self) -> None:
        v, a, version, notes = self.v, self.spec.algorithm, self.version, self.notes
        a.advantage_estimator = "grpo"
        scale = v.get("scale_rewards")
        if isinstance(scale, str) and scale.lower() in ("true", "false"):
            scale = scale.lower() == "true"
        a.advantage_std_normalization = scale not in (False, "none")
        a.advantage_normalization_scope = "batch" if scale == "batch" else "group"
        beta = v.number("beta")
        a.kl_placement = "loss" if beta else "none"
        a.kl_coef = beta or 0.0  # the effective coefficient: 0 when there is no KL term
        a.kl_estimator = "k3" if beta else None
        if at_least(version, "0.16.0"):
            a.clip_ratio_low = v.number("epsilon")
            high = v.number("epsilon_high")
            a.clip_ratio_high = high if high is not None else a.clip_ratio_low
        loss_type = v.get("loss_type")
        if loss_type is None:  # before 0.17: per-sequence mean (0.14–0.15), local token mean (0.16)
            loss_type = "bnpo" if at_least(version, "0.16.0") else "grpo"
        aggregation: tuple[str, str | None] | None = LOSS_TYPES.get(str(loss_type))
        if aggregation is None:
            notes.warning(
                "algorithm.unknown-loss-type",
                f"loss_type '{loss_type}' is not known to rlconf",
                source_keys=["loss_type"],
            )
            aggregation = (str(loss_type), None)
        a.loss_aggregation, a.loss_normalizer_scope = aggregation
        if loss_type == "dapo" and not at_least(version, "1.10.0"):
            spg = v.get("steps_per_generation")
            if spg and spg != v.get("gradient_accumulation_steps"):
                notes.warning(
                    "algorithm.loss-scaling",
                    f"trl {version} mis-scales the dapo loss by gradient_accumulation_steps ÷ "
                    "steps_per_generation when they differ (fixed in 1.10)",
                    source_keys=["loss_type"],
                )
        delta = v.number("delta") if at_least(version, "0.18.0") else None
        a.clip_ratio_dual = delta
        level = v.get("importance_sampling_level")
        a.policy_loss = "gspo" if level == "sequence" else "vanilla"
        entropy = v.number("entropy_coef")
        a.entropy_coef = entropy if entropy is not None else 0.0

    def read_non_plan_sections(self) -> None:
        v, s, version, notes = self.v, self.spec, self.version, self.notes
        prompt_length = v.consume("max_prompt_length")
        if "max_prompt_length" in v and at_least(version, "0.26.0"):
            notes.warning(
                "semantics.ignored-key",
                f"max_prompt_length is ignored by trl {version} (deprecated in "
                "0.26, removed in 0.28): prompts are not truncated",
                source_keys=["max_prompt_length"],
            )
        elif prompt_length is not None:
            s.lengths.max_prompt_tokens = v.positive_int("max_prompt_length")
        s.lengths.max_response_tokens = v.positive_int("max_completion_length")
        s.sampling.temperature = v.number("temperature")
        s.sampling.top_p = v.number("top_p")
        top_k = v.number("top_k")
        s.sampling.top_k = int(top_k) if top_k and top_k > 0 else -1  # None and 0 disable top-k in TRL
        o = s.optimizer
        o.lr = v.number("learning_rate")
        warmup_steps = v.number("warmup_steps")
        if warmup_steps:
            o.warmup_steps, o.warmup_unit = int(warmup_steps), "optimizer_steps"
        else:
            o.warmup_ratio = v.number("warmup_ratio")
        o.weight_decay = v.number("weight_decay")
        o.grad_clip = v.number("max_grad_norm")
        # a max_steps the config does not give decides the run instead of the epochs: how many passes is unknown
        unknown_steps = isinstance(v.number("max_steps"), Unknown)
        s.run_length.dataset_passes = None if unknown_steps else v.number("num_train_epochs")
        g = s.generation
        use_vllm = bool(v.flag("use_vllm"))
        g.rollout_backend = "vllm" if use_vllm else "hf"
        t = s.topology
        if not use_vllm:
            t.rollout_gpus = 0
        elif at_least(version, "0.18.0"):
            g.rollout_mode = str(v.get("vllm_mode"))
            t.rollout_gpus = 0 if g.rollout_mode == "colocate" else self.native.rollout_gpus
            if g.rollout_mode == "colocate":
                t.rollout_tensor_parallel_size = v.positive_int("vllm_tensor_parallel_size")
        elif at_least(version, "0.16.0"):
            g.rollout_mode = "server"
            t.rollout_gpus = self.native.rollout_gpus
            v.consume("vllm_device")
        else:
            g.rollout_mode = "device"  # in-process vLLM on one spare GPU (vllm_device, default "auto")
            v.consume("vllm_device")
            t.rollout_gpus = 1
        if g.rollout_mode == "server":  # the server's own --gpu_memory_utilization; the recipe key is colocate-only
            t.rollout_gpu_memory_fraction = self.native.server_memory
            v.consume("vllm_gpu_memory_utilization")
            if t.rollout_gpus and self.native.server_layout:
                t.rollout_tensor_parallel_size, t.rollout_engines = self.native.server_layout
        elif use_vllm:
            t.rollout_gpu_memory_fraction = v.number("vllm_gpu_memory_utilization")
        host = v.get("vllm_server_host") if g.rollout_mode == "server" else None
        if t.rollout_gpus and host and (_known_address(str(host)) or str(host).startswith("$")) and t.nodes:
            t.nodes += 1  # the vLLM server runs on a node of its own, reached by address
        s.references.model = v.get("model_name_or_path")
        s.asynchrony.max_steps_ahead = 0
        self.schedule()
        self.data()
        self.reward()
        self.checkpointing()
        self.evaluation()
        self.logging()
        self.launch()
        version = self.version
        read_settings(self.spec, self.v, SETTINGS, "trl", version, lambda key: not lacks("trl", version, key))
        # After the settings: Open-R1's wandb_entity, where the recipe sets it, is what wandb.init gets.
        entity_from_environment(self.spec, self.native.wandb_env.get("WANDB_ENTITY"))

    def schedule(self) -> None:
        v, o = self.v, self.spec.optimizer
        schedule = str(v.get("lr_scheduler_type"))
        kwargs = v.get("lr_scheduler_kwargs")
        kwargs = kwargs if isinstance(kwargs, dict) else {}
        if schedule == "cosine_with_min_lr":
            schedule = "cosine"
            if kwargs.get("min_lr_rate") is not None:
                o.min_lr_ratio = float(kwargs["min_lr_rate"])
            elif kwargs.get("min_lr") is not None and o.lr:
                o.min_lr_ratio = float(kwargs["min_lr"]) / o.lr
            else:
                self.notes.warning(
                    "optimizer.min-lr-missing",
                    "lr_scheduler_type cosine_with_min_lr without "
                    'lr_scheduler_kwargs min_lr_rate or min_lr: transformers raises "One of min_lr or '
                    'min_lr_rate should be set" when it creates the scheduler',
                    source_keys=["lr_scheduler_type", "lr_scheduler_kwargs"],
                )
        elif schedule == "constant_with_warmup":
            schedule = "constant"
        o.lr_schedule = schedule

    def data(self) -> None:
        v, d = self.v, self.spec.data
        # First, so the keys read for the prompt column are its own. Open-R1's key: TRL's own script hands the dataset
        # to GRPOTrainer as it is, which reads `prompt` (trl/scripts/grpo.py@v1.16.0).
        if self.script_keys() and not self.native.trl_script:
            d.prompt_key = str(v.get("dataset_prompt_column"))
        mixture = v.get("dataset_mixture")
        if isinstance(mixture, dict) and isinstance(mixture.get("datasets"), list):
            entries = [e for e in mixture["datasets"] if isinstance(e, dict) and e.get("id")]
            d.train_sources = [str(e["id"]) for e in entries]
            d.train_weights = [float(e.get("weight", 1.0)) for e in entries]
            splits = {str(e.get("split", "train")) for e in entries}
            d.train_split = splits.pop() if len(splits) == 1 else None
            configs = {e.get("config") for e in entries}
            d.train_subset = configs.pop() if len(configs) == 1 else None
        elif v.get("dataset_name"):
            d.train_sources = [str(v.get("dataset_name"))]
            d.train_split = str(v.get("dataset_train_split"))
            config = v.get("dataset_config")
            d.train_subset = str(config) if config is not None else None
        evaluating = str(v.get("eval_strategy")) not in ("no", "None")
        if evaluating and d.train_sources and len(d.train_sources) == 1:
            d.eval_sources = list(d.train_sources)
            d.eval_split = str(v.get("dataset_test_split"))
        else:
            v.consume("dataset_test_split")
            d.eval_sources = None  # no evaluation data: eval_strategy, read for it, is no other field's key

    def script_keys(self) -> bool:
        """Whether the recipe is read by Open-R1's script (its keys present), whose defaults then apply."""
        return bool(set(self.v.values) & OPEN_R1_KEYS) or "dataset_mixture" in self.v

    def reward(self) -> None:
        v, r = self.v, self.spec.reward
        funcs = v.get("reward_funcs")
        funcs = [funcs] if isinstance(funcs, str) else funcs
        if isinstance(funcs, list):
            builtin = [str(f) for f in funcs if "." not in str(f)]
            dotted = [str(f) for f in funcs if "." in str(f)]
            r.builtin = builtin or None
            if dotted:
                module, _, name = dotted[0].rpartition(".")
                r.function_path, r.function_name = module.replace(".", "/") + ".py", name
            weights = v.get("reward_weights")
            if (
                isinstance(weights, list)
                and len(weights) == len(funcs)
                and not any(symbolic_names(str(w)) for w in weights)
            ):  # from an unset variable: unknown
                try:
                    r.weights = [float(w) for w, f in zip(weights, funcs, strict=False) if "." not in str(f)]
                except (TypeError, ValueError):
                    raise v._error(
                        "reward_weights",
                        f"reward_weights must be numbers, got {weights!r}",
                        "set reward_weights to one number per reward function",
                    ) from None
        model = v.get("reward_model_name_or_path")
        r.model = str(model) if model else None

    def checkpointing(self) -> None:
        v, c = self.v, self.spec.checkpointing
        strategy = str(v.get("save_strategy"))
        if strategy == "no":
            c.every_steps = 0
            v.consume("save_steps")
        elif strategy == "steps":
            c.every_steps = self.rollout_steps(v.number("save_steps"), "save_steps")
        directory = v.get("output_dir")
        c.directory = directory if isinstance(directory, str) and directory else None  # a bare flag names none
        limit = v.get("save_total_limit")
        c.keep_last = int(limit) if isinstance(limit, (int, float)) and not isinstance(limit, bool) else None
        resume = v.get("resume_from_checkpoint")
        c.resume = str(resume) if resume else ("auto" if self.script_keys() else None)
        c.hf_format = True  # TRL checkpoints are Hugging Face model directories

    def rollout_steps(self, optimizer_steps: float | None, key: str) -> int | None:
        """A cadence in optimizer steps as rollout steps (exact when it is a whole number of them)."""
        per_step = self.spec.plan.optimizer_steps_per_step
        if isinstance(optimizer_steps, Unknown):
            return optimizer_steps  # unknown, naming what it depends on
        if optimizer_steps is None or optimizer_steps <= 0 or not per_step:
            return None
        steps = Fraction(int(optimizer_steps)) / Fraction(per_step)
        if steps.denominator != 1:
            self.notes.info(
                "units.cadence",
                f"{key} {int(optimizer_steps)} optimizer steps is {fmt(steps)} rollout "
                f"steps; {math.ceil(steps)} is used",
                source_keys=[key],
            )
        return math.ceil(steps)

    def evaluation(self) -> None:
        v, e = self.v, self.spec.evaluation
        strategy = str(v.get("eval_strategy"))
        if strategy == "no":
            e.every_steps = 0
            v.consume("eval_steps")
        elif strategy == "steps":
            eval_steps = v.number("eval_steps")
            if eval_steps is None or eval_steps <= 0:
                eval_steps = v.number("logging_steps")  # TrainingArguments: eval_steps defaults to logging_steps
            e.every_steps = self.rollout_steps(eval_steps, "eval_steps")
        e.before_training = bool(v.flag("eval_on_start")) if "eval_on_start" in v else False

    def logging(self) -> None:
        v, lg = self.v, self.spec.logging
        report = v.get("report_to")
        if report is not None:
            names = [report] if isinstance(report, str) else list(report) if isinstance(report, list) else []
            lg.backends = ["console"] + [str(n) for n in names if str(n) not in ("none", "all")]
        run_name = v.get("run_name")
        lg.run_name = str(run_name) if run_name else None
        project = v.get("wandb_project")
        lg.project = str(project) if project else None
        if not project and "WANDB_PROJECT" in self.native.wandb_env:
            lg.project = self.native.wandb_env["WANDB_PROJECT"]
            self.spec.derivations["logging.project"] = Derivation(
                f"WANDB_PROJECT={lg.project} exported by the launch script (transformers' WandbCallback)", [], "config"
            )

    def launch(self) -> None:
        v, la, addresses = self.v, self.spec.launch, self.native.addresses
        la.main_process_host = addresses.get("--main_process_ip") or self.native.accelerate.get("main_process_ip")
        port = addresses.get("--main_process_port") or self.native.accelerate.get("main_process_port")
        la.main_process_port = int(port) if port is not None and str(port).isdigit() else None
        if self.spec.generation.rollout_mode == "server":
            host = v.get("vllm_server_host")
            la.rollout_server_host = str(host) if host else None
            port = v.get("vllm_server_port")
            la.rollout_server_port = int(port) if isinstance(port, int) else self.native.server_port


class _Writer:
    """Canonical model → a TRL recipe for one version, choosing batch knobs that keep the plan."""

    def __init__(self, spec: RunSpec, version: str, notes: NoteList, transformers: str = "5.24.0") -> None:
        self.spec, self.version, self.notes, self.transformers = spec, version, notes, transformers
        # Open-R1's src/open_r1/grpo.py, or TRL's own trl/scripts/grpo.py (>= 0.18), which imports reward functions
        # by dotted path and loads reward models: the one that can hold the source's reward.
        # A chat list in the source's prompt column suits TRL's script (GRPOTrainer takes it), not Open-R1's, which
        # makes the column's value the text of one user message (open-r1:src/open_r1/grpo.py@1416fa0:91-100).
        reward = spec.reward
        chat = registry.prompt_kind(spec) == "chat"
        own = bool(reward.function_path or reward.model or chat) and at_least(version, "0.18.0")
        self.script = "trl" if own else "open-r1"
        self.env: dict[str, str] = {}  # environment variables the launch script sets
        self.max_optimizer_steps: int | None = None
        self.server_gpus = 0
        self.server_node = False  # the vLLM server on a node of its own
        self.server_memory: float | None = None
        self.bridge: str | None = None  # the reward bridge module's text (reward_bridge.py), when one is written

    def recipe(self) -> tuple[dict[str, Any], int, int, int]:
        s, notes = self.spec, self.notes
        recipe: dict[str, Any] = {}
        if s.references.model:
            recipe["model_name_or_path"] = s.references.model
        world, batch = self.batch_knobs()
        recipe.update(batch)
        recipe.update(self.algorithm())
        recipe.update(self.other())
        recipe.update(self.data())
        recipe.update(self.reward())
        recipe.update(self.checkpointing())
        recipe.update(self.evaluation(world, batch))
        recipe.update(self.logging())
        recipe.update(self.settings())
        nodes = self.training_nodes(world)
        if s.topology.training_gpus and s.topology.training_gpus != world:
            parallel = [
                f"{name} {size}"
                for name, size in (
                    ("sequence parallel", s.topology.sequence_parallel_size),
                    ("tensor parallel", s.topology.tensor_parallel_size),
                    ("pipeline parallel", s.topology.pipeline_parallel_size),
                    ("context parallel", s.topology.context_parallel_size),
                )
                if size and size > 1
            ]
            layout = ", ".join(parallel) or "no model parallelism"
            notes.warning(
                "topology.gpus-changed",
                f"the source trains on {s.topology.training_gpus} GPUs ({layout}); TRL GRPO runs one "
                f"data-parallel process per GPU, so {world} processes keep the {world} data-parallel "
                "ranks",
                source_keys=["topology.training_gpus"],
                target_keys=["num_processes"],
            )
        recipe.update(self.placement(world, nodes))
        server_gpus = self.server_gpus
        per_node = s.topology.gpus_per_node
        # The server gets a node of its own when the training spans nodes or the node has no room for both.
        self.server_node = bool(server_gpus) and (nodes > 1 or bool(per_node and world + server_gpus > per_node))
        self.compare_placement(world, nodes, server_gpus)
        foreign = [e for e in s.extras if e.framework != "trl"]
        for extra in s.extras:
            if extra.framework == "trl":
                recipe.setdefault(extra.key, extra.value)
        if foreign:
            notes.info(
                "keys.not-translated",
                not_written(foreign[0].framework, [e.key for e in foreign], "TRL"),
                source_keys=[e.key for e in foreign],
            )
        return recipe, world, nodes, server_gpus

    def training_nodes(self, world: int) -> int:
        """Nodes the training processes span: whole nodes of the source's GPUs per node."""
        t = self.spec.topology
        per_node = t.gpus_per_node
        if not per_node and t.nodes:
            total = (t.training_gpus or world) + (t.rollout_gpus or 0)
            per_node = total // t.nodes if total % t.nodes == 0 else None
        if per_node and world > per_node and world % per_node == 0:
            return world // per_node
        return t.nodes if t.nodes and world % t.nodes == 0 and (not per_node or world > per_node) else 1

    def compare_placement(self, world: int, nodes: int, server_gpus: int) -> None:
        """The GPUs and nodes written against the source's: a difference is a warning saying how they differ."""
        t = self.spec.topology
        source_total = (t.training_gpus or 0) + (t.rollout_gpus or 0)
        written_total = world + server_gpus
        if source_total and written_total != source_total:
            self.notes.warning(
                "topology.gpus-changed",
                f"the source uses {source_total} GPUs "
                f"({t.training_gpus} training, {t.rollout_gpus or 0} for generation); the written run "
                f"uses {written_total} ({world} training, {server_gpus} for vLLM)",
                source_keys=["topology.training_gpus", "topology.rollout_gpus"],
                target_keys=["num_processes"],
            )
        written_nodes = nodes + (1 if self.server_node else 0)
        if t.nodes and written_nodes != t.nodes:
            self.notes.warning(
                "topology.nodes-changed",
                f"the source runs on {t.nodes} node(s); the written run on "
                f"{written_nodes}" + (" (the vLLM server on a node of its own)" if self.server_node else ""),
                source_keys=["topology.nodes"],
                target_keys=["num_machines"],
            )

    def placement(self, world: int, nodes: int) -> dict[str, Any]:
        """vLLM: in the training processes (colocate) or on GPUs of its own (server), as the source places it."""
        s, version, notes = self.spec, self.version, self.notes
        out: dict[str, Any] = {"use_vllm": True}
        server = s.topology.rollout_gpus or 0
        if not server and s.generation.rollout_mode in ("server", "device"):
            server = 1  # a TRL 0.14–0.17 recipe read alone: vLLM had a GPU of its own, how many is not stated
            notes.info(
                "topology.rollout-gpus-assumed",
                "the source runs vLLM on GPUs of its own without saying how many; one is written for trl vllm-serve",
                source_keys=["topology.rollout_gpus"],
            )
        fraction = s.topology.rollout_gpu_memory_fraction
        if at_least(version, "0.18.0"):
            out["vllm_mode"] = "server" if server else "colocate"
            if not server and s.topology.rollout_tensor_parallel_size:
                tp = s.topology.rollout_tensor_parallel_size
                out["vllm_tensor_parallel_size"] = tp if world % tp == 0 else 1
                if world % tp:
                    notes.warning(
                        "topology.rollout-tp-changed",
                        f"vLLM tensor parallel {tp} does not divide {world} "
                        "training processes (TRL colocate needs it to); 1 is written",
                        target_keys=["vllm_tensor_parallel_size"],
                    )
            if fraction is not None:
                if server:
                    self.server_memory = fraction  # trl vllm-serve --gpu_memory_utilization
                else:
                    out["vllm_gpu_memory_utilization"] = fraction
        elif at_least(version, "0.16.0"):
            server = server or 1
            self.server_memory = fraction
        else:
            out["vllm_device"] = "auto"
            if server > 1:
                notes.warning(
                    "topology.rollout-gpus-changed",
                    f"trl {version} runs vLLM in-process on one spare GPU; the source gives it {server}",
                    source_keys=["topology.rollout_gpus"],
                )
            if fraction is not None:
                out["vllm_gpu_memory_utilization"] = fraction
            server = 0  # in-process on GPU number `world`
        per_node = s.topology.gpus_per_node
        tp = s.topology.rollout_tensor_parallel_size or 1
        if server and per_node and server > per_node and per_node >= tp:
            # trl vllm-serve starts its data-parallel workers on the GPUs of the node it runs on (trl/scripts/
            # vllm_serve.py): a pool spanning nodes is written as the most whole engines one node holds.
            fits = per_node // tp * tp
            notes.warning(
                "topology.rollout-gpus-changed",
                f"trl vllm-serve runs on one node: the source's {server} "
                f"vLLM GPUs over {math.ceil(server / per_node)} nodes become {fits} on one node of "
                f"{per_node} ({fits // tp} engine(s) of tensor parallel {tp})",
                source_keys=["topology.rollout_gpus"],
            )
            server = fits
        if s.launch.rollout_server_port and server:
            out["vllm_server_port"] = s.launch.rollout_server_port
        self.server_gpus = server
        return {k: v for k, v in out.items() if v is not None}

    def launch_lines(
        self, title: str, world: int, nodes: int, server_gpus: int, moved: dict[str, str] | None = None
    ) -> list[str]:
        """launch.sh: accelerate on every training node (addresses as variables the user sets per node), the vLLM
        server on GPUs (one node: the first GPUs; several nodes: a node) of its own."""
        s = self.spec
        lines = [
            "#!/usr/bin/env bash",
            title.replace("GRPO recipe", "launch script"),
            f"# {world} training processes on {nodes} node(s) (accelerate num_processes; GPUs serving vLLM do "
            "not count).",
            "set -euo pipefail",
        ]
        live = s.shell_variables
        lines += [env_assignment(name, value, live) for name, value in self.env.items()]
        model = s.references.model or "MODEL"
        memory = (
            " " + flag_words("gpu_memory_utilization", str(self.server_memory), live)
            if self.server_memory is not None
            else ""
        )
        port = " " + flag_words("port", s.launch.rollout_server_port, live) if s.launch.rollout_server_port else ""
        tp = s.topology.rollout_tensor_parallel_size
        engines = server_gpus // tp if tp and server_gpus and server_gpus % tp == 0 else 1
        tp = max(1, server_gpus // engines)
        layout = f" --tensor_parallel_size {tp}" + (f" --data_parallel_size {engines}" if engines > 1 else "")
        serve = f"trl vllm-serve {flag_words('model', model, live)}{layout}{memory}{port}"
        training_devices = ""
        address = ""
        if nodes > 1:
            lines += [
                f"# Run this script on each of the {nodes} training nodes with MACHINE_RANK 0 … {nodes - 1} and "
                "MAIN_PROCESS_IP the address of the node with rank 0.",
                ': "${MACHINE_RANK:?set MACHINE_RANK to the rank of this node, 0 to ' + str(nodes - 1) + '}"',
            ]
            host = _known_address(s.launch.main_process_host)
            if not host:
                lines.append(
                    ': "${MAIN_PROCESS_IP:?set MAIN_PROCESS_IP to the address of the node with machine rank 0}"'
                )
            main_ip = f'"${{MAIN_PROCESS_IP:-{host}}}"' if host else '"$MAIN_PROCESS_IP"'
            # Inside "${X:-default}" only a plain address and a whole number are written (nothing the shell expands).
            main_process_port = s.launch.main_process_port
            main_port = (
                main_process_port
                if isinstance(main_process_port, int) and not isinstance(main_process_port, bool)
                else 29500
            )
            address = (
                f' --num_machines {nodes} --machine_rank "$MACHINE_RANK" --main_process_ip {main_ip}'
                f' --main_process_port "${{MAIN_PROCESS_PORT:-{main_port}}}"'
            )
        if self.server_node:
            devices = ",".join(str(i) for i in range(server_gpus))
            lines += [
                f"# On one more node, NODE_ROLE=vllm starts the vLLM server on {server_gpus} GPU(s); the "
                "training processes reach it at VLLM_SERVER_HOST.",
                'if [ "${NODE_ROLE:-train}" = vllm ]; then',
                f"  CUDA_VISIBLE_DEVICES={devices} {serve} --host 0.0.0.0",
                "  exit 0",
                "fi",
            ]
            if not _known_address(s.launch.rollout_server_host):
                lines.append(': "${VLLM_SERVER_HOST:?set VLLM_SERVER_HOST to the address of the node running vLLM}"')
        elif server_gpus:
            # The vLLM server takes the first GPUs; training runs on the next ones.
            devices = ",".join(str(i) for i in range(server_gpus))
            lines.append(f"CUDA_VISIBLE_DEVICES={devices} {serve} &")
            training_devices = (
                "CUDA_VISIBLE_DEVICES=" + ",".join(str(i) for i in range(server_gpus, server_gpus + world)) + " "
            )
        program = "-m trl.scripts.grpo" if self.script == "trl" else "src/open_r1/grpo.py"
        server_host = _known_address(s.launch.rollout_server_host)
        extra = (
            (
                f' --vllm_server_host "${{VLLM_SERVER_HOST:-{server_host}}}"'
                if server_host
                else ' --vllm_server_host "$VLLM_SERVER_HOST"'
            )
            if self.server_node
            else ""
        )
        lines.append(
            f"{training_devices}accelerate launch --config_file accelerate.yaml --num_processes {world}"
            f"{address} {program} --config recipe.yaml{extra}"
            + "".join(" " + flag_words(key, value, live) for key, value in (moved or {}).items())
            + ' "$@"'
        )
        return lines

    def batch_knobs(self) -> tuple[int, dict[str, Any]]:
        plan, version, notes = self.spec.plan, self.version, self.notes
        world = plan.data_parallel_size or self.spec.topology.training_gpus or 8
        group = plan.samples_per_prompt or 8
        per_opt = Fraction(plan.samples_per_optimizer_step or world * (plan.micro_batch_per_device or 1))
        per_step = Fraction(plan.samples_per_step or per_opt)
        if group < 2:
            growth = self.two_per_prompt(group, per_step, per_opt)
            if growth.denominator == 1 and growth > 1:  # the batches had to grow: × 2 ÷ the source's group
                per_opt, per_step = per_opt * growth, per_step * growth
            group = 2
        epochs = plan.epochs_per_step or 1
        knobs: dict[str, Any] = {"num_generations": group}
        if not at_least(version, "0.15.2"):
            # 0.14: per_device_train_batch_size counts prompts; a round is one micro-step.
            micro = Fraction(plan.micro_batch_per_device or per_opt / world)
            pdtbs = max(1, round(micro / group))
            accumulation = max(1, round(per_opt / (pdtbs * group * world)))
            knobs.update(per_device_train_batch_size=pdtbs, gradient_accumulation_steps=accumulation)
            return world, knobs
        pdtbs = self.choose_micro(world, per_opt, per_step)
        if not at_least(version, "0.17.0") and (pdtbs * world) % group:
            # 0.15–0.16 generate every micro-step: W × pdtbs completions must hold whole groups (§4).
            step = group // math.gcd(group, world)
            fitted = max(step, round(pdtbs / step) * step)
            notes.warning(
                "batch.micro-changed",
                f"trl {version} generates every micro-step, so {world} processes × "
                f"per_device_train_batch_size must be a multiple of num_generations {group}; "
                f"per_device_train_batch_size {fitted} is written instead of {pdtbs}",
                target_keys=["per_device_train_batch_size"],
            )
            pdtbs = fitted
        gas = per_opt / (pdtbs * world)
        if gas.denominator != 1:
            gas = Fraction(max(1, round(gas)))
            notes.warning(
                "batch.not-expressible",
                f"{fmt(per_opt)} samples per optimizer step is not a multiple of "
                f"{world} processes × {pdtbs}; gradient_accumulation_steps {gas} is written",
                target_keys=["gradient_accumulation_steps"],
            )
        knobs.update(per_device_train_batch_size=pdtbs, gradient_accumulation_steps=int(gas))
        if self.spec.framework != "trl":
            notes.info(
                "units.per-device-vs-global",
                f"TRL batches are per process: per_device_train_batch_size {pdtbs} completions × {world} "
                f"processes × gradient_accumulation_steps {gas} = {fmt(per_opt)} samples per optimizer step",
                source_keys=["plan.samples_per_optimizer_step"],
                target_keys=["per_device_train_batch_size", "gradient_accumulation_steps"],
            )
        if at_least(version, "0.18.0"):
            spg = per_step / (pdtbs * world)
            if spg.denominator != 1:
                spg = Fraction(max(1, round(spg)))
                notes.warning(
                    "batch.not-expressible",
                    f"{fmt(per_step)} samples per step is not a multiple of "
                    f"{world} processes × {pdtbs}; steps_per_generation {spg} is written",
                    target_keys=["steps_per_generation"],
                )
            knobs["steps_per_generation"] = int(spg)
        if at_least(version, "0.16.0"):
            knobs["num_iterations"] = epochs
        elif epochs != 1:
            notes.warning(
                "batch.not-expressible",
                f"trl {version} has no num_iterations; {epochs} passes per generation round cannot be written",
                target_keys=["num_iterations"],
            )
        return world, knobs

    def two_per_prompt(self, group: int, per_step: Fraction, per_opt: Fraction) -> Fraction:
        """TRL GRPO needs >= 2 completions per prompt (it centres rewards within a group). The samples per step are
        kept (half the prompts) when that is a whole number of groups; else the prompts are kept and every batch
        grows: returns the factor the batches grow by (1 when kept)."""
        estimator = self.spec.algorithm.advantage_estimator or "single-sample"
        keys = ["plan.samples_per_prompt", "plan.prompts_per_step"]
        if per_step.denominator == 1 and per_step % 2 == 0 and per_opt.denominator == 1 and per_opt % 2 == 0:
            self.notes.warning(
                "algorithm.group-size-changed",
                f'TRL GRPO needs num_generations >= 2 ("GRPO requires at least 2 generations per '
                f'prompt"); the source samples {group} completion per prompt, so num_generations 2 is '
                f"written with the same {fmt(per_step)} completions per step ({fmt(per_step / 2)} "
                f"prompts), and advantages become group-relative (GRPO) instead of '{estimator}'",
                source_keys=keys,
                target_keys=["num_generations"],
            )
            return Fraction(1)
        scale = Fraction(2, group)
        self.notes.warning(
            "algorithm.group-size-changed",
            'TRL GRPO needs num_generations >= 2 ("GRPO requires at least 2 generations per '
            f'prompt"); the source samples {group} completion per prompt and {fmt(per_step)} per step '
            "(not a whole number of pairs), so num_generations 2 is written with the same prompts: "
            f"{fmt(per_step * scale)} completions per step and {fmt(per_opt * scale)} per optimizer "
            f"step, and advantages become group-relative (GRPO) instead of '{estimator}'",
            source_keys=["plan.samples_per_prompt", "plan.samples_per_step", "plan.samples_per_optimizer_step"],
            target_keys=["num_generations"],
        )
        return scale

    def choose_micro(self, world: int, per_opt: Fraction, per_step: Fraction) -> int:
        """The per-device batch: the source's micro-batch if it divides the global batches, else the closest."""
        wanted = self.spec.plan.micro_batch_per_device
        common = math.gcd(int(per_opt), int(per_step)) if per_opt.denominator == per_step.denominator == 1 else 0
        candidates = divisors(common // world) if common and common % world == 0 else []  # d × world divides common
        if wanted is not None and int(wanted) in candidates:
            return int(wanted)
        target = int(wanted) if wanted else 8
        if not candidates:
            return max(1, target)
        best = min(candidates, key=lambda d: (abs(d - target), -d))
        if wanted is not None:
            self.notes.warning(
                "batch.micro-changed",
                f"a micro-batch of {fmt(wanted)} samples per device does not "
                f"divide the batches over {world} processes; per_device_train_batch_size {best}",
                target_keys=["per_device_train_batch_size"],
            )
        else:
            self.notes.warning(
                "batch.token-budget-not-expressible",
                f"TRL has no token-budget micro-batching; per_device_train_batch_size {best} is written "
                f"(the source packs up to {self.spec.token_budget.max_tokens_per_device} tokens)",
                target_keys=["per_device_train_batch_size"],
            )
        return best

    def algorithm(self) -> dict[str, Any]:
        a, version, notes = self.spec.algorithm, self.version, self.notes
        out: dict[str, Any] = {}
        if a.advantage_estimator not in (None, "grpo", "grpo_vectorized", "grpo_passk"):
            severity: Severity = "error" if a.advantage_estimator == "gae" else "warning"
            notes.add(
                severity,
                "algorithm.not-expressible",
                f"TRL GRPOTrainer computes group-normalised (GRPO) advantages; the source uses "
                f"'{a.advantage_estimator}'" + (", which needs a critic" if severity == "error" else ""),
                source_keys=["algorithm.advantage_estimator"],
            )
        if a.kl_placement in ("reward", "both"):
            notes.warning(
                "algorithm.not-expressible",
                f"TRL puts KL only in the loss (beta); the source's in-reward KL (coefficient {a.kl_coef}) is dropped",
                source_keys=["algorithm.kl_placement"],
                target_keys=["beta"],
            )
        out["beta"] = a.kl_coef if a.kl_placement in ("loss", "both") and a.kl_coef else 0.0
        if out["beta"] and a.kl_estimator not in (None, "k3"):
            notes.warning(
                "algorithm.kl-estimator",
                f"TRL's KL term is the k3 estimator; the source uses {a.kl_estimator}",
                target_keys=["beta"],
            )
        if at_least(version, "0.16.0"):
            if a.clip_ratio_low is not None:
                out["epsilon"] = a.clip_ratio_low
            if a.clip_ratio_high is not None and a.clip_ratio_high != a.clip_ratio_low:
                out["epsilon_high"] = a.clip_ratio_high
        elif a.clip_ratio_low is not None:
            notes.info(
                "algorithm.not-expressible",
                f"trl {version} has no clipping knobs (epsilon from 0.16)",
                target_keys=["epsilon"],
            )
        if a.clip_ratio_dual is not None:
            if at_least(version, "0.18.0"):
                # TRL's two-sided clipping caps the unclipped ratio at delta: for a negative advantage the loss is
                # then bounded by delta × |A|, the dual-clip bound c.
                out["delta"] = a.clip_ratio_dual
            else:
                notes.warning(
                    "algorithm.not-expressible",
                    f"dual-clip (c = {a.clip_ratio_dual}) needs trl 0.18+ (delta); not written",
                    source_keys=["algorithm.clip_ratio_dual"],
                    target_keys=["delta"],
                )
        if at_least(version, "0.22.2"):
            out["scale_rewards"] = (
                "none"
                if a.advantage_std_normalization is False
                else ("batch" if a.advantage_normalization_scope == "batch" else "group")
            )
        elif at_least(version, "0.16.0"):
            out["scale_rewards"] = a.advantage_std_normalization is not False
            if a.advantage_normalization_scope == "batch":
                notes.warning(
                    "algorithm.not-expressible",
                    "batch-level std scaling needs trl 0.22+",
                    target_keys=["scale_rewards"],
                )
        loss_type = self.loss_type()
        if loss_type:
            out["loss_type"] = loss_type
        if a.policy_loss == "gspo":
            if at_least(version, "0.20.0"):
                out["importance_sampling_level"] = "sequence"
            else:
                notes.warning("algorithm.not-expressible", "GSPO (sequence-level ratios) needs trl 0.20+")
        elif a.policy_loss not in (None, "vanilla"):
            notes.warning("algorithm.not-expressible", f"policy loss '{a.policy_loss}' has no TRL counterpart")
        if a.entropy_coef:
            if at_least(version, "1.10.0"):
                out["entropy_coef"] = a.entropy_coef
            else:
                notes.warning("algorithm.not-expressible", f"an entropy bonus ({a.entropy_coef}) needs trl 1.8+")
        return out

    def loss_type(self) -> str | None:
        a, version, notes = self.spec.algorithm, self.version, self.notes
        if not at_least(version, "0.17.0"):
            if a.loss_aggregation:
                notes.info(
                    "algorithm.loss-aggregation",
                    f"trl {version} has no loss_type; its loss is "
                    + ("a local token mean" if at_least(version, "0.16.0") else "a per-sequence mean"),
                    target_keys=["loss_type"],
                )
            return None
        wanted = (a.loss_aggregation or "token-mean", a.loss_normalizer_scope)
        available = {
            name: agg
            for name, agg in LOSS_TYPES.items()
            if name in ("grpo", "bnpo", "dr_grpo") or (name == "dapo" and at_least(version, "0.22.2"))
        }
        for name, agg in available.items():
            if agg == wanted:
                return name
        for name, agg in available.items():
            if agg[0] == wanted[0]:
                notes.warning(
                    "algorithm.loss-normalizer-scope",
                    f"loss '{wanted[0]}' normalised over each {str(wanted[1]).replace('_', ' ')} has no exact "
                    f"TRL {version} loss_type; '{name}' normalises over each {agg[1].replace('_', ' ')}",
                    target_keys=["loss_type"],
                )
                return name
        fallback = "dapo" if at_least(version, "0.22.2") else "bnpo"
        notes.warning(
            "algorithm.not-expressible",
            f"loss aggregation '{wanted[0]}' has no TRL {version} loss_type; '{fallback}' is written",
            target_keys=["loss_type"],
        )
        return fallback

    def max_steps(self, rounds: int, per_round: Fraction) -> int:
        """max_steps (optimizer steps) for ``rounds`` generation rounds: the source's own optimizer step count
        where it gives exactly that many rounds on this release, else ceil(rounds × optimizer steps per round)."""
        total = self.spec.run_length.total_optimizer_steps
        wanted = int(total) if total is not None and total == int(total) else None
        gas, iterations = self.spec.plan.grad_accum_steps, self.spec.plan.epochs_per_step or 1
        if wanted and not at_least(self.version, "0.17.0") and gas:
            # ≤ 0.16: every micro-step of each num_iterations-th optimizer step generates (the reader's total_steps)
            if gas * math.ceil(Fraction(wanted) / Fraction(iterations)) == rounds:
                return wanted
        elif wanted and math.ceil(Fraction(wanted) / per_round) == rounds:
            return wanted
        return math.ceil(rounds * per_round)

    def other(self) -> dict[str, Any]:
        s, version, notes = self.spec, self.version, self.notes
        out: dict[str, Any] = {}
        if s.lengths.max_prompt_tokens is not None:
            if at_least(version, "0.26.0"):
                notes.warning(
                    "lengths.not-expressible",
                    f"trl {version} does not truncate prompts "
                    f"(max_prompt_length {s.lengths.max_prompt_tokens} not written); filter the dataset",
                    source_keys=["lengths.max_prompt_tokens"],
                )
            else:
                out["max_prompt_length"] = s.lengths.max_prompt_tokens
        if s.lengths.max_response_tokens is not None:
            out["max_completion_length"] = s.lengths.max_response_tokens
        if s.sampling.temperature is not None:
            out["temperature"] = s.sampling.temperature
        if at_least(version, "0.16.0"):
            if s.sampling.top_p is not None:
                out["top_p"] = s.sampling.top_p
            if s.sampling.top_k is not None:
                disabled = s.sampling.top_k <= 0
                out["top_k"] = (0 if at_least(version, "0.27.0") else None) if disabled else s.sampling.top_k
        o = s.optimizer
        if o.lr is not None:
            out["learning_rate"] = o.lr
        if o.weight_decay is not None:
            out["weight_decay"] = o.weight_decay
        if o.grad_clip is not None:
            out["max_grad_norm"] = o.grad_clip
        if s.run_length.dataset_passes is not None:
            out["num_train_epochs"] = s.run_length.dataset_passes
        if s.plan.total_steps is not None and s.plan.optimizer_steps_per_step:
            out["max_steps"] = self.max_steps(s.plan.total_steps, Fraction(s.plan.optimizer_steps_per_step))
            self.max_optimizer_steps = out["max_steps"]
        out.update(self.schedule())
        if s.asynchrony.max_steps_ahead:
            notes.warning(
                "asynchrony.not-expressible",
                "TRL GRPOTrainer generates synchronously; the source's "
                f"{s.asynchrony.max_steps_ahead}-step asynchrony is dropped",
            )
        out["bf16"] = True
        return out

    def schedule(self) -> dict[str, Any]:
        """LR schedule, floor and warmup in spellings every transformers release accepts where possible."""
        s, notes = self.spec, self.notes
        o = s.optimizer
        out: dict[str, Any] = {}
        warmup = self.warmup_optimizer_steps()
        schedule = o.lr_schedule
        if schedule == "cosine_with_min_lr" and not o.min_lr_ratio:
            schedule = "cosine"  # transformers cannot create it without the floor: decay to 0
            notes.warning(
                "optimizer.not-expressible",
                "the source's cosine schedule decays to a floor rlconf was not "
                "told (optimizer.min_lr_ratio unset); 'cosine' (to 0) is written: set lr_scheduler_type "
                "cosine_with_min_lr with lr_scheduler_kwargs {min_lr_rate: FLOOR/learning_rate}",
                source_keys=["optimizer.lr_schedule"],
                target_keys=["lr_scheduler_type"],
            )
        if schedule in ("cosine", "cosine_with_min_lr") and o.min_lr_ratio:
            # transformers' cosine_with_min_lr raises "One of min_lr or min_lr_rate should be set" without kwargs.
            out["lr_scheduler_type"] = "cosine_with_min_lr"
            out["lr_scheduler_kwargs"] = {"min_lr_rate": o.min_lr_ratio}
        elif schedule == "constant" and (warmup or o.warmup_ratio):
            out["lr_scheduler_type"] = "constant_with_warmup"  # TRL's plain "constant" ignores the warmup
        elif schedule and schedule != "None":
            out["lr_scheduler_type"] = schedule
            if o.min_lr_ratio:
                notes.warning(
                    "optimizer.not-expressible",
                    f"a floor of {o.min_lr_ratio} × lr exists in transformers "
                    f"only for cosine_with_min_lr; the '{schedule}' schedule decays without it",
                    source_keys=["optimizer.min_lr_ratio"],
                    target_keys=["lr_scheduler_type"],
                )
        if warmup is not None:
            out["warmup_steps"] = warmup
        elif o.warmup_ratio:
            if at_least(self.transformers, "5.0.0"):
                # transformers >= 5: a warmup_steps below 1 is a ratio (TrainingArguments.get_warmup_steps); 4.x
                # would read it as 0 steps, 5.15+ has no warmup_ratio.
                out["warmup_steps"] = o.warmup_ratio
                notes.info(
                    "units.warmup",
                    f"warmup of {o.warmup_ratio} of the run is written as warmup_steps "
                    f"{o.warmup_ratio} (transformers ≥ 5 reads a value below 1 as a ratio; the run length is "
                    "not known, so it cannot be whole steps)",
                    target_keys=["warmup_steps"],
                )
            else:
                out["warmup_ratio"] = o.warmup_ratio
        return out

    def warmup_optimizer_steps(self) -> int | None:
        """Warmup in whole optimizer steps, when the source states it in steps or as a ratio of a known run."""
        s, notes = self.spec, self.notes
        o = s.optimizer
        if o.warmup_steps is not None:
            if o.warmup_unit != "steps":
                return int(o.warmup_steps)
            per_step = s.plan.optimizer_steps_per_step or 1
            steps = math.ceil(o.warmup_steps * Fraction(per_step))
            notes.info(
                "units.warmup",
                f"warmup of {o.warmup_steps} rollout steps = {steps} optimizer steps; "
                "TRL counts warmup_steps in optimizer steps",
                target_keys=["warmup_steps"],
            )
            return steps
        if o.warmup_ratio and self.max_optimizer_steps:
            steps = math.ceil(self.max_optimizer_steps * o.warmup_ratio)  # transformers' get_warmup_steps
            notes.info(
                "units.warmup",
                f"warmup of {o.warmup_ratio} of {self.max_optimizer_steps} optimizer steps is "
                f"written as warmup_steps {steps} (valid in every transformers release; 5.15+ has no "
                "warmup_ratio)",
                source_keys=["optimizer.warmup_ratio"],
                target_keys=["warmup_steps"],
            )
            return steps
        return None

    def cadence(self, rollout_steps: int, what: str, key: str) -> int | None:
        """A cadence in rollout steps as TRL's optimizer steps (exact when optimizer steps per step is whole)."""
        per_step = self.spec.plan.optimizer_steps_per_step
        if not per_step:
            return None
        steps = Fraction(rollout_steps) * Fraction(per_step)
        if steps.denominator != 1:
            rounded = max(1, round(steps))
            self.notes.warning(
                f"{what}.not-expressible",
                f"every {rollout_steps} rollout steps is {fmt(steps)} "
                f"optimizer steps, not a whole number; {key} {rounded} is written",
                target_keys=[key],
            )
            return rounded
        return int(steps)

    def data(self) -> dict[str, Any]:
        """Hub ids as dataset_name/config/splits; local files through their directory (load_dataset(dir) names
        splits after the files: train.parquet → train); several sources as Open-R1's dataset_mixture."""
        d, notes = self.spec.data, self.notes
        out: dict[str, Any] = {}
        sources = d.train_sources or []
        if len(sources) > 1 and self.script == "open-r1" and at_least(self.version, "0.18.0"):
            weights = d.train_weights or [1.0] * len(sources)
            entries = []
            for source, weight in zip(sources, weights, strict=False):
                name, split = _dataset_form(source, d.train_split)
                entry: dict[str, Any] = {"id": name, "split": split}
                if d.train_subset:
                    entry["config"] = d.train_subset
                if weight is not None and weight <= 1:
                    entry["weight"] = weight
                else:
                    notes.warning(
                        "data.not-expressible",
                        f"Open-R1's dataset_mixture weights are fractions of each "
                        f"dataset; a count of {weight} prompts from {source} is not written",
                        target_keys=["dataset_mixture"],
                    )
                entries.append(entry)
            out["dataset_mixture"] = {"datasets": entries}
        elif sources:
            if len(sources) > 1:
                notes.warning(
                    "data.not-expressible",
                    f"TRL's grpo script loads one dataset; {len(sources)} training "
                    f"sources are given, only {sources[0]} is written (mix them into one dataset)",
                    target_keys=["dataset_name"],
                )
            name, split = _dataset_form(sources[0], d.train_split)
            out["dataset_name"] = name
            if d.train_subset:
                out["dataset_config"] = d.train_subset
            if split != "train":
                out["dataset_train_split"] = split
            if name != sources[0]:
                notes.info(
                    "data.local-files",
                    f"{sources[0]} is loaded as load_dataset('{name}'), whose splits are "
                    f"named after the data files in that directory ('{split}' here); keep only that "
                    "dataset's files there",
                    source_keys=["data.train_sources"],
                    target_keys=["dataset_name"],
                )
        else:
            notes.warning(
                "data.missing",
                "the source names no training data; set dataset_name (a Hub dataset id or a local dataset directory)",
                target_keys=["dataset_name"],
            )
        if d.eval_sources:
            name, split = _dataset_form(d.eval_sources[0], d.eval_split or "test")
            if out.get("dataset_name") in (None, name) and len(d.eval_sources) == 1:
                out["dataset_test_split"] = split
            else:
                notes.warning(
                    "data.not-expressible",
                    f"TRL evaluates on a split of the training dataset "
                    f"(dataset_test_split); the eval data {', '.join(d.eval_sources)} is another dataset: "
                    "not written",
                    source_keys=["data.eval_sources"],
                    target_keys=["dataset_test_split"],
                )
        if d.prompt_key and d.prompt_key != "prompt":
            if self.script == "open-r1":
                out["dataset_prompt_column"] = d.prompt_key
            else:
                notes.warning(
                    "data.not-expressible",
                    f"TRL's grpo script reads prompts from the 'prompt' column; rename '{d.prompt_key}'",
                    target_keys=["dataset_name"],
                )
        if d.answer_key and d.answer_key != "solution":
            notes.info(
                "data.answer-column",
                f"TRL passes every dataset column to the reward functions as a keyword "
                f"argument; the reference answer is the '{d.answer_key}' column (Open-R1's accuracy reward "
                "reads 'solution')",
                source_keys=["data.answer_key"],
            )
        if d.max_train_prompts:
            severity: Severity = "info" if self.max_optimizer_steps else "warning"
            notes.add(
                severity,
                "data.not-expressible",
                f"TRL has no cap on training prompts ({d.max_train_prompts} in "
                "the source)"
                + (
                    "; max_steps keeps the run length"
                    if self.max_optimizer_steps
                    else ": the run covers the whole dataset; select the prompts in the dataset"
                ),
                source_keys=["data.max_train_prompts"],
            )
        return out

    def reward(self) -> dict[str, Any]:
        r, notes = self.spec.reward, self.notes
        out: dict[str, Any] = {}
        funcs: list[str] = []
        weights: list[float] = []
        if r.function_path:
            name = r.function_name or "compute_score"
            if self.script == "trl":
                entry = self.reward_entry(r.function_path, name)
                if entry:
                    funcs.append(entry)
                    weights.append(1.0)
            else:
                notes.warning(
                    "reward.not-expressible",
                    f"trl {self.version}'s grpo script cannot import a reward "
                    f"function ({r.function_path}:{name}; dotted paths from 0.18) and Open-R1 names only "
                    "its registry; register it in Open-R1's rewards.py",
                    target_keys=["reward_funcs"],
                )
        for index, builtin in enumerate(r.builtin or []):
            mapped = (
                builtin
                if builtin in OPEN_R1_REWARDS
                else TRL_TO_OPEN_R1_REWARD.get(builtin) or BUILTIN_REWARD_MAP.get(builtin.lower())
            )
            if self.script == "trl":
                mapped = builtin if builtin in TRL_SCRIPT_REWARDS else OPEN_R1_TO_TRL_REWARD.get(mapped or "")
            if mapped is None or (self.script == "trl" and mapped not in TRL_SCRIPT_REWARDS):
                notes.warning(
                    "reward.not-expressible",
                    f"no {'TRL' if self.script == 'trl' else 'Open-R1'} reward "
                    f"function matches the source's '{builtin}'",
                    source_keys=["reward.builtin"],
                    target_keys=["reward_funcs"],
                )
                continue
            if mapped != builtin:
                notes.info(
                    "reward.builtin-mapped",
                    f"the source's '{builtin}' scorer is written as "
                    f"'{mapped}', the nearest {'Open-R1' if self.script == 'open-r1' else 'TRL'} reward",
                    source_keys=["reward.builtin"],
                    target_keys=["reward_funcs"],
                )
            funcs.append(mapped)
            weights.append(r.weights[index] if r.weights and index < len(r.weights) else 1.0)
        if r.model:
            if self.script == "trl":
                out["reward_model_name_or_path"] = r.model
            else:
                notes.warning(
                    "reward.not-expressible",
                    f"trl {self.version}'s scripts cannot load the reward model "
                    f"{r.model} (from 0.18 TRL's grpo script can)",
                    target_keys=["reward_funcs"],
                )
        if r.remote_url:
            notes.warning(
                "reward.not-expressible",
                f"TRL has no remote reward server ({r.remote_url}); wrap it in a reward function",
                target_keys=["reward_funcs"],
            )
        if funcs:
            out["reward_funcs"] = funcs
            if any(w != 1.0 for w in weights) and at_least(self.version, "0.15.2"):
                out["reward_weights"] = weights
        elif not out:
            stops = self.script == "trl" and at_least(self.version, "1.16.0")
            then = (
                "Open-R1 then uses its default reward_funcs: accuracy, format, tag_count"
                if self.script == "open-r1"
                # GRPOTrainer raises "No reward source provided" (trl/trainer/grpo_trainer.py@v1.16.0:734)
                else "TRL's grpo script then hands GRPOTrainer none, and it stops: 'No reward source provided'"
                if stops
                else "TRL's grpo script then hands GRPOTrainer none"
            )
            (notes.error if stops else notes.warning)(
                "reward.missing",
                f"the written recipe names no reward ({then}); add reward_funcs",
                target_keys=["reward_funcs"],
            )
        return out

    def reward_entry(self, path: str, name: str) -> str | None:
        """The reward_funcs entry for the user's file: ``module.function`` where TRL's import of it from the launch
        directory finds that file and the function already has TRL's signature (a TRL source); else a bridge
        module written next to the recipe that loads the file by path and calls it as the source framework does
        (:mod:`translator.dialects.reward_bridge`). None, with an error note, where neither works."""
        framework, notes = self.spec.framework, self.notes
        if framework == "trl" and importable_as_is(path, name):
            notes.info(
                "reward.signature",
                f"TRL's grpo script imports '{path.removesuffix('.py')}.{name}' from the "
                "launch directory (it puts the working directory on sys.path); keep the file there",
                target_keys=["reward_funcs"],
            )
            return f"{path.removesuffix('.py')}.{name}"
        if not bridgeable(framework) or not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_"):
            why = (
                f"rlconf does not know how {framework} calls its reward function"
                if not bridgeable(framework)
                else f"'{name}' is not a Python name rlconf can define"
            )
            notes.error(
                "reward.not-expressible",
                f"TRL's grpo script cannot call {path}:{name} as written: {why}; "
                "write a module next to recipe.yaml whose function takes (completions, **kwargs) and returns "
                "a list of floats, and name it in reward_funcs",
                source_keys=["reward.function_path"],
                target_keys=["reward_funcs"],
            )
            return None
        self.bridge = bridge_source(framework, path, name, self.spec.shell_variables, self.spec.data.answer_key)
        notes.info(
            "reward.bridge",
            f"reward_funcs names {BRIDGE_MODULE}.{name} ({BRIDGE_MODULE}.py, written next to "
            f"recipe.yaml; run launch.sh from that folder): it loads {path} by its path, so no module of the "
            f"same name is imported instead, and calls its {name} as {framework} does, from TRL's "
            f"{name}(completions, **kwargs) -> list[float]",
            source_keys=["reward.function_path"],
            target_keys=["reward_funcs"],
        )
        return f"{BRIDGE_MODULE}.{name}"

    def checkpointing(self) -> dict[str, Any]:
        c, notes = self.spec.checkpointing, self.notes
        out: dict[str, Any] = {}
        if c.every_steps == 0:
            out["save_strategy"] = "no"
        elif c.every_steps:
            steps = self.cadence(c.every_steps, "checkpointing", "save_steps")
            if steps:
                out["save_strategy"], out["save_steps"] = "steps", steps
                if self.spec.framework != "trl":
                    notes.info(
                        "units.save-steps",
                        f"a checkpoint every {c.every_steps} rollout steps = save_steps {steps} optimizer steps",
                        source_keys=["checkpointing.every_steps"],
                        target_keys=["save_steps"],
                    )
        if c.directory:
            out["output_dir"] = c.directory
        if c.keep_last:
            out["save_total_limit"] = c.keep_last
        if c.resume and c.resume not in ("auto", "never"):
            out["resume_from_checkpoint"] = c.resume
        elif c.resume == "never" and self.script == "open-r1":
            notes.warning(
                "checkpointing.not-expressible",
                "Open-R1 resumes from the last checkpoint in output_dir "
                "when there is one; start with an empty output_dir to train from scratch",
                target_keys=["output_dir"],
            )
        return out

    def evaluation(self, world: int, batch: dict[str, Any]) -> dict[str, Any]:
        e, notes = self.spec.evaluation, self.notes
        out: dict[str, Any] = {}
        if not e.every_steps and not e.before_training:
            return out
        if not self.spec.data.eval_sources:
            notes.warning(
                "evaluation.not-expressible",
                "the source evaluates but names no eval data TRL can load; set "
                "eval_strategy, eval_steps and dataset_test_split",
                target_keys=["eval_strategy"],
            )
            return out
        if e.every_steps:
            steps = self.cadence(e.every_steps, "evaluation", "eval_steps")
            if steps:
                out["eval_strategy"], out["eval_steps"] = "steps", steps
        if e.before_training:
            out["eval_on_start"] = True
        if out and "eval_strategy" not in out:
            out["eval_strategy"] = "steps"
            out["eval_steps"] = self.max_optimizer_steps or 10**9  # only the evaluation before training
        group = batch.get("num_generations", 2)
        # TRL checks that (per_device_eval_batch_size × W) holds whole groups: the smallest such batch.
        out["per_device_eval_batch_size"] = group // math.gcd(group, world)
        return out

    def settings(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        version = self.version
        open_r1 = self.script == "open-r1"
        skip = () if open_r1 else ("logging.entity", "data.chat_template")
        write_settings(
            self.spec,
            SETTINGS,
            f"TRL {version}",
            lambda key: not lacks("trl", version, key),
            out.__setitem__,
            self.notes,
            skip=skip,
        )
        template = self.spec.data.chat_template
        if not open_r1 and template:
            # chat_template is Open-R1's argument (its GRPOConfig); TRL's GRPOConfig has chat_template_kwargs only
            # (trl/trainer/grpo_config.py@v1.16.0), and its script sets no template
            self.notes.warning(
                "data.not-expressible",
                f"TRL's own grpo script takes no chat template (chat_template is an Open-R1 argument): the "
                f"source's {template!r} is not written; the tokenizer's own chat template is used",
                source_keys=["data.chat_template"],
                target_keys=["chat_template"],
            )
        if not open_r1 and self.spec.logging.entity:
            self.env["WANDB_ENTITY"] = self.spec.logging.entity  # TRL's own script has no wandb_entity
        return out

    def logging(self) -> dict[str, Any]:
        lg = self.spec.logging
        out: dict[str, Any] = {}
        if lg.backends is not None:
            backends = [b for b in lg.backends if b not in ("console", "stdout")]
            out["report_to"] = backends or "none"
        if lg.run_name:
            out["run_name"] = lg.run_name
        if lg.project:
            if self.script == "open-r1":
                out["wandb_project"] = lg.project
            else:
                self.env["WANDB_PROJECT"] = lg.project
        return out
