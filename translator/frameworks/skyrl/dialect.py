"""SkyRL: ``python -m skyrl.train.entrypoints.main_base key=value ...`` (the skyrl package: OmegaConf overrides
merged onto dataclass defaults) and ``-m skyrl_train.entrypoints.main_base key=value ...`` (the older Hydra app).

Semantics from docs/frameworks/skyrl.md: train_batch_size and policy_mini_batch_size count prompts (× n inside),
micro-batches count samples per data-parallel rank, the policy's GPUs divided by Ulysses SP (FSDP) or Megatron
TP×PP×CP are the data-parallel ranks (skyrl/train/utils/utils.py validate_batch_sizes@skyrl-v0.3.0).
"""

from __future__ import annotations

import ast
import functools
import math
import os
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, cast

import yaml

from translator.checks.findings import largest_divisor
from translator.concordance import not_written
from translator.dialects.base import (
    Dialect,
    Reading,
    ReadOptions,
    Values,
    entity_from_environment,
    exported,
    fmt,
    note_launch,
    read_script,
    real,
    track_provenance,
)
from translator.dialects.sniff import program_arguments
from translator.dialects.writing import (
    HYDRA_KEY,
    checked_name,
    env_assignment,
    hydra_override,
    omegaconf_values,
    plan_summary,
    requirements,
    shell_word,
    source_label,
    whole_prompts,
)
from translator.errors import ConfigError
from translator.framework import DataLoader
from translator.frameworks.skyrl import tables as T
from translator.notes import NoteList
from translator.plan import Derivation, Extra, RunSpec, exact
from translator.sources.files import Source
from translator.sources.hydra import UNRESOLVED, parse_override, resolve_interpolations, scalar
from translator.sources.shell import ShellCommand, program_index, symbolic_names, unwrap_command

# The launch module: main_base of either package, or a fully-async entry point of one's own (the skyrl
# examples' main_dapo_fully_async: a subclass of main_base's experiment with FullyAsyncRayPPOTrainer).
ENTRY_PATTERN = re.compile(
    r"(?P<module>skyrl\.train\.entrypoints\.main_base|skyrl_train\.entrypoints\.main_base"
    r"|[\w.]*main_\w*fully_async)(\.py)?"
)


def _entry(argv: list[str]) -> tuple[int, str] | None:
    """(index, module) of the word that names SkyRL's entry point, if the command runs one; or a project's own entry
    module or script (an integration's main_openenv, a subclass of main_base's experiment) that takes SkyRL's
    key=value overrides: (index, its name), read with main_base's semantics (noted as a fork)."""
    for i, word in enumerate(argv):
        name = word.replace("/", ".").removesuffix(".py")
        match = ENTRY_PATTERN.fullmatch(name) or ENTRY_PATTERN.fullmatch(name.rpartition(".")[2])
        runs = i == 0 or argv[i - 1] == "-m" or word.endswith(".py")
        if match and runs:
            return i, match["module"]
        # SkyRL's own other entry points (serve, main_generate) do not train: only a project's own module is a fork
        own = not name.startswith(("skyrl.", "skyrl_train."))
        if runs and i > 0 and own and program_arguments("skyrl", argv, i):
            return i, name
    return None


def _refuse_keys_the_entry_class_lacks(
    source: Source, command: ShellCommand, module: str, given: Mapping[str, Any]
) -> None:
    """A project entry of the skyrl package builds its own config class (``cfg = MyConfig.from_cli_overrides(
    sys.argv[1:])``, a subclass of SkyRLTrainConfig) with ``build_nested_dataclass``, which checks each level's keys
    (``validate_dict_keys_against_dataclass``: ValueError "Invalid fields {...} for X",
    skyrl/train/config/config.py@skyrl-v0.3.0): a launch key that class's tree certainly lacks stops the run at
    start-up. The tree is read from the entry and the project modules it imports; a class not found there (the
    installed release's), or a ``from_cli_overrides`` that renames keys first (legacy flat keys), is not judged."""
    from translator.dialects.forkbatch import locate
    from translator.sources.dataclass_schema import dataclasses_in, missing_part

    found = locate(source, command.cwd, module)
    tree = found[0].tree(found[1]) if found is not None else None
    if found is None or tree is None:
        return
    roots = {
        call.func.value.id
        for call in ast.walk(tree)
        if isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "from_cli_overrides"
        and isinstance(call.func.value, ast.Name)
    }
    if len(roots) != 1:
        return
    project, path = found
    trees = [t for t in (project.tree(p) for p in project.reachable(path, limit=60)) if t is not None]
    if any(_translates_keys(t) for t in trees):
        return  # keys renamed before the dataclasses see them (a later upstream's legacy flat keys): not judged
    classes, root = dataclasses_in(trees), roots.pop()
    for key in given:
        part = missing_part(classes, root, key.lstrip("+"))
        if part is not None:
            raise ConfigError(
                f"'{key}': {project.rel(path)} builds {root} from the launch's keys, and its dataclasses declare no "
                f"'{part}': SkyRL's build_nested_dataclass stops at start-up (ValueError: Invalid fields)",
                file=source.name,
                line=command.line,
                key=key,
                hint=f"remove or rename the key (the fields of {root} and of the dataclasses it holds are the keys)",
            )


_RENAMES = re.compile(r"legacy|translate|migrate|rename|alias", re.I)


def _rewrite_before_validation(
    given: dict[str, Any], source: Source, line: int, notes: NoteList, *, certain: bool
) -> None:
    """What from_cli_overrides does to a key before its dataclasses check the rest (tables.REWRITTEN_KEYS): a
    renamed key takes its new name (both given: SkyRL refuses), async_engine=true is dropped, false refused where
    the release is ``certain`` (0.1.0 and 0.2.0 hold async_engine as a field: with the release assumed, a warning)."""
    for key, becomes in T.REWRITTEN_KEYS.items():
        if key not in given:
            continue
        if becomes is None and str(given[key]).lower() != "true":
            if certain:
                raise ConfigError(T.ASYNC_ENGINE_FALSE, file=source.name, line=line, key=key, hint=f"remove {key}")
            notes.warning(
                "keys.unknown-in-version",
                f"{key}=false: SkyRL from {T.REWRITTEN_FROM} refuses it ({T.ASYNC_ENGINE_FALSE}); 0.1.0 and 0.2.0 "
                "take it (pass --from skyrl@VERSION for the release the project runs)",
                source_keys=[key],
            )
            continue
        value = given.pop(key)
        if becomes is not None and becomes in given:
            raise ConfigError(
                f"Specify only one of {key} (deprecated) and {becomes}",
                file=source.name,
                line=line,
                key=key,
                hint=f"remove {key}",
            )
        if becomes is not None:
            given[becomes] = value
        notes.info(
            "keys.renamed",
            f"{key} is "
            + (f"read as {becomes}" if becomes else "dropped (always on)")
            + " by SkyRL's from_cli_overrides before its config is checked",
            source_keys=[key],
            target_keys=[becomes] if becomes else [],
        )


@functools.lru_cache(maxsize=8)
def _copy_config_classes(folder: str) -> dict[str, Any]:
    """The dataclasses of a skyrl package copy's config modules (``folder``/train/config/*.py, read, never run)."""
    from translator.sources.code import MAX_FILE_BYTES
    from translator.sources.dataclass_schema import dataclasses_in
    from translator.sources.files import read_text

    config = os.path.join(folder, "train", "config")
    names = sorted(os.listdir(config))[:50] if os.path.isdir(config) else []
    trees = []
    for name in names:
        if name.endswith(".py"):
            try:
                trees.append(ast.parse(read_text(os.path.join(config, name), MAX_FILE_BYTES) or ""))
            except (SyntaxError, ValueError):
                continue
    return dict(dataclasses_in(trees)) if trees else {}


def _translates_keys(tree: ast.Module) -> bool:
    """Whether a ``from_cli_overrides`` of the file rewrites the keys before building the config (a call named for
    it: ``translate_legacy_config``), so which keys it takes is not its dataclasses' alone."""
    return any(
        isinstance(node, ast.FunctionDef)
        and node.name == "from_cli_overrides"
        and any(isinstance(call, ast.Call) and _RENAMES.search(ast.unparse(call.func)) for call in ast.walk(node))
        for node in ast.walk(tree)
    )


def _importing_entry(source: Source, command: ShellCommand) -> tuple[int, str] | None:
    """(index, name) of a project's own Python entry that imports the skyrl (or skyrl_train) package at its top,
    whatever overrides it takes: a fork's entry whose keys rlconf's patterns do not know; None for one that trains
    with SkyRL's SFT trainer (:func:`_not_rl_training`)."""
    found = _project_entry(source, command)
    return None if found is None or found[2] else found[:2]


def _project_entry(source: Source, command: ShellCommand) -> tuple[int, str, bool] | None:
    """(index, name, whether it is supervised fine-tuning) of a project's own Python entry that imports the skyrl
    (or skyrl_train) package at its top; None for any other command."""
    from translator.dialects.forkbatch import locate
    from translator.sources.code import top_imports

    argv = command.argv
    words = unwrap_command(argv)
    found = program_index(words)
    if found is None or words[found].startswith(("skyrl.", "skyrl_train.")):
        return None
    index = len(argv) - len(words) + found
    name = words[found].replace("/", ".").removesuffix(".py") if found and words[found - 1] == "-m" else words[found]
    located = locate(source, command.cwd, words[found])
    tree = located[0].tree(located[1]) if located is not None else None
    modules, names = top_imports(tree)
    if not any(m.split(".")[0] in ("skyrl", "skyrl_train") for m in modules):
        return None
    # SkyRL's supervised fine-tuning (skyrl.train.sft_trainer.SFTTrainer) trains no RL policy
    sft = any("sft" in part for m in modules for part in m.split(".")) or any(n.startswith("SFT") for n in names)
    return index, name, sft


def _not_rl_training(source: Source, command: ShellCommand) -> str | None:
    """What a command runs in place of RL training, when it runs SkyRL code that trains no policy on rollouts:
    one of SkyRL's own entry points of another kind (tables.NOT_RL_ENTRIES), or a project entry that imports the
    SFT trainer; None otherwise."""
    words = unwrap_command(command.argv)
    found = program_index(words)
    if found is None:
        return None
    name = words[found].replace("/", ".").removesuffix(".py")
    for module, what in T.NOT_RL_ENTRIES.items():
        if name == module or name.endswith("." + module):
            return f"{module} is {what}"
    own = _project_entry(source, command)
    return f"{own[1]} is {T.SFT_TRAINING}" if own is not None and own[2] else None


_OLD_IMPORT = re.compile(r"^\s*(?:from|import)\s+skyrl_train\b", re.M)


def _imports_old_package(source: Source, cwd: str | None, module: str) -> bool:
    """Whether a project's own entry module (or script) builds on the skyrl_train package (the Hydra era: it
    imports skyrl_train, as integrations built on main_base's experiment and validate_cfg do), read from its file
    in the project; False when the file is not there."""
    from translator.dialects.forkbatch import locate
    from translator.sources.code import MAX_FILE_BYTES
    from translator.sources.files import read_text

    found = locate(source, cwd, module)
    text = read_text(found[1], MAX_FILE_BYTES) if found else None
    return bool(text and _OLD_IMPORT.search(text))


def data_loader(spec: RunSpec) -> DataLoader:
    """What SkyRL reads from a row: main_base builds PromptDataset without a prompt key, so its default column
    `prompt` (skyrl/train/entrypoints/main_base.py@skyrl-v0.3.0:78-83, skyrl/train/dataset/dataset.py:23), handed
    to apply_chat_template (dataset.py:9-13): a chat list; and the column the environment.env_class environment
    asserts (tables.ENV_ANSWER_COLUMN; nothing for an environment of the user's own)."""
    env = spec.reward.builtin[0] if spec.reward.builtin else None
    column = T.ENV_ANSWER_COLUMN.get(env or "")
    cited = "PromptDataset (skyrl/train/dataset/dataset.py@skyrl-v0.3.0)"
    if column:
        cited += f"; the {env} environment's {column}.ground_truth (skyrl-gym/skyrl_gym/envs@skyrl-v0.3.0)"
    # a row's own env_class picks its environment; environment.env_class is the default for rows without one
    # (skyrl/train/generators/utils.py@skyrl-v0.3.0:476-501 prepare_generator_input; dataset.py:86-94)
    return DataLoader("prompt", "chat", cited, ((column, column),) if column else (), row_reward="env_class")


class SkyrlDialect(Dialect):
    name = "skyrl"
    aliases = ("NovaSky-AI/SkyRL", "skyrl-train", "skyrl_train")
    versions = T.VERSIONS
    changes = T.CHANGES
    description = "SkyRL: main_base key=value overrides (skyrl dataclass config; skyrl_train Hydra app)"
    pip_name = "skyrl"
    # a checkout of SkyRL (or a project holding its package): skyrl/__init__.py's __version__ (skyrl-v0.3.0: "0.3.0")
    version_files = (("skyrl/__init__.py", "skyrl/train"),)

    # the skyrl package's from_cli_overrides builds the dataclass config with build_nested_dataclass, which raises
    # on a key a level lacks (validate_dict_keys_against_dataclass: "Invalid fields {...} for X",
    # skyrl/train/config/config.py:1055-1064,1148@skyrl-v0.3.0)
    @staticmethod
    def rejects_unknown_keys(version: str) -> bool:
        """Refused keys are judged where rlconf holds the release's schema (0.3.0, 0.4.0)."""
        return version in T.SCHEMA_RELEASES

    copy_refusal = "build_nested_dataclass: ValueError: Invalid fields"
    copy_declares = "config dataclasses (skyrl/train/config/)"

    def missing_in_copy(self, folder: str, key: str, native: object) -> str | None:
        """The first part of ``key`` that the project's copy of the skyrl package (its package ``folder``) certainly
        lacks in the SkyRLTrainConfig tree of its skyrl/train/config modules; None where declared, not judged (a
        field that is a dict or a class not found there) or where the copy has no such tree (skyrl_train's Hydra
        app)."""
        from translator.sources.dataclass_schema import missing_part

        classes = _copy_config_classes(folder)
        return missing_part(classes, T.CONFIG_ROOT, key.lstrip("+")) if T.CONFIG_ROOT in classes else None

    def read(self, source: Source, options: ReadOptions) -> Reading:
        notes = NoteList()
        script = read_script(source, options.env, notes)
        entries = {id(c): e for c in script.commands if (e := _entry(c.argv) or _importing_entry(source, c))}
        launches = [c for c in script.commands if id(c) in entries]
        if not launches:
            other = next(
                (f"{what} ({source.name}:{c.line})" for c in script.commands if (what := _not_rl_training(source, c))),
                None,
            )
            raise ConfigError(
                f"no SkyRL RL training launch found: {other}; rlconf reads launches that train a policy on rollouts "
                "(main_base and entries built on it), and this run has no rollout batch plan"
                if other
                else "no SkyRL launch command found",
                file=source.name,
                hint="expected a line like 'python -m skyrl.train.entrypoints.main_base key=value ...'",
            )
        command = launches[0]
        note_launch(notes, source, command, launches)
        index, module = entries[id(command)]
        own_entry = module not in T.ENTRY and not ENTRY_PATTERN.fullmatch(module)
        old = module == "skyrl_train.entrypoints.main_base" or (
            own_entry and _imports_old_package(source, command.cwd, module)
        )
        fully_async = module not in T.ENTRY and not own_entry
        version = self._version(old, options.version, source, notes)
        origin = f"{source.name}:{command.line}"
        if own_entry:
            notes.warning(
                "framework.fork",
                f"{origin}: '{module}' is the project's own entry point, not SkyRL's main_base; it takes SkyRL's "
                "overrides and is read with main_base's semantics, which its own code may change",
            )
        given: dict[str, Any] = {}
        unknown_words = []  # launch words whose value is not known: they may hold any override
        for word in command.argv[index + 1 :]:
            if word in ("", "$@", "${@}"):
                continue
            override = parse_override(word)
            if override is None and symbolic_names(word) and not word.partition("=")[1]:
                unknown_words.append(word)
                continue
            if override is None or override.op == "~":
                notes.warning(
                    "keys.unrecognised-argument",
                    f"{origin}: '{word}' is not a key=value override; ignored",
                    source_keys=[word],
                )
                continue
            # '+key' appends a key in the Hydra app; the skyrl package refuses it (checks.py plus-prefix).
            value = override.value if old else yaml_value(word.partition("=")[2])
            given[("+" if override.op else "") + override.key] = value
        if not old and T.since(version, T.REWRITTEN_FROM):
            _rewrite_before_validation(given, source, command.line, notes, certain=options.version is not None)
            if str(given.get(T.SIMULATED_TRAINING)).lower() == "true":
                raise ConfigError(
                    f"{T.SIMULATED_TRAINING}=true: SkyRL builds no models and sleeps in place of each training step "
                    "(a benchmark of generation), so the run trains nothing and has no batch plan",
                    file=source.name,
                    line=command.line,
                    key=T.SIMULATED_TRAINING,
                    hint=f"set {T.SIMULATED_TRAINING}=false for a training run",
                )
        # a module of the project (an own entry, or a fully-async one such as the examples' main_dapo_fully_async)
        # builds its own config class (make_config(algorithm_cls=...)): its keys are its dataclasses', not the release's
        project_entry = not module.startswith(("skyrl.", "skyrl_train."))
        if project_entry and not old:
            _refuse_keys_the_entry_class_lacks(source, command, module, given)
        defaults = T.defaults_for(version)
        for key, value in list(given.items()):
            resolved = resolve_interpolations(value, lambda k: given.get(k, defaults.get(k, UNRESOLVED)), options.env)
            given[key] = resolved if old else omegaconf_literal(resolved)
        values = Values(given, dict.fromkeys(given, origin), defaults, source.name)
        spec = RunSpec(framework=self.name, version=version)
        with track_provenance(spec, values):
            _Reader(values, version, spec, notes, fully_async).run()
        # skyrl/train/utils/tracking.py (wheel 0.3.0) calls wandb.init with no entity: wandb takes WANDB_ENTITY.
        entity_from_environment(spec, exported(script, command, "WANDB_ENTITY"))
        if unknown_words:
            from translator.dialects.forkbatch import unknown_launch_words

            unknown_launch_words(spec, notes, unknown_words, given)
        for key, value in values.unused().items():
            spec.extras.append(Extra(self.name, key, value))
            if not key.startswith("+") and not T.exists(_new_name(key), version):
                notes.warning(
                    "keys.unknown-in-version",
                    f"'{key}' does not exist in SkyRL {version} (first in {T.KEY_SINCE[_new_name(key)]})",
                    source_keys=[key],
                )
        reading = Reading(spec, notes, values)
        if project_entry or options.version is None:
            # the release's keys are not the entry's (judged above where readable), or the release is only assumed
            # (0.1.0 and 0.2.0 hold keys 0.3.0 refuses): no key is refused on one release's schema
            reading.arguments_known = False
        return reading

    def _version(self, old: bool, explicit: str | None, source: Source, notes: NoteList) -> str:
        """The version asked for, else the newest release of the package the entry point belongs to."""
        if explicit is None:
            return T.OLD_ERA[-1] if old else T.NEW_ERA[-1]
        version = self.resolve_version(explicit)
        if T.is_old(version) != old:
            package = "skyrl_train" if old else "skyrl"
            notes.warning(
                "skyrl.version-era",
                f"{source.name}: the launch runs the {package} package, but SkyRL {version} is the "
                f"{'skyrl_train' if T.is_old(version) else 'skyrl'} package; the keys are read as {version}'s",
            )
        return version

    # ---------------------------------------------------------------- writing
    def write(self, spec: RunSpec, version: str, notes: NoteList) -> dict[str, str]:
        overrides = _Writer(spec, version, notes).overrides()
        old = T.is_old(version)
        module = "skyrl_train.entrypoints.main_base" if old else "skyrl.train.entrypoints.main_base"
        lines = [
            "#!/usr/bin/env bash",
            f"# SkyRL {version} launch script written by rlconf from a {source_label(spec)} config.",
            "# Units: trainer.train_batch_size and policy_mini_batch_size count prompts (SkyRL multiplies them by",
            "# generator.n_samples_per_prompt); micro_*_batch_size_per_gpu counts samples per data-parallel rank.",
            *(f"#   {line}" for line in plan_summary(spec)),
            "set -x",
            "",
        ]
        live = spec.shell_variables
        if spec.logging.entity:  # no config key: wandb.init reads WANDB_ENTITY (reader above)
            lines.append(env_assignment("WANDB_ENTITY", spec.logging.entity, live))
        words = [f"python -m {module}"]
        for key, value in overrides.items():
            words.append(hydra_override(key, value, live) if old else cli_override(key, value, live))
        words.append('"$@"')
        lines.append(" \\\n    ".join(words))
        # The skyrl package's releases are on PyPI under that name (the Hydra package's are skyrl-train, which
        # the launch module already tells apart).
        pins = requirements("SkyRL", [("skyrl", version)]) if not old else {}
        return {"launch.sh": "\n".join(lines) + "\n", **pins}


def yaml_value(text: str) -> Any:
    """A value as SkyRLTrainConfig.from_cli_overrides reads it: OmegaConf.from_cli loads the text after the first
    '=' as YAML (omegaconf.py _merge_dotlist); its loader reads 1e-6 as a float, as YAML 1.1 alone does not."""
    try:
        value = yaml.safe_load(text)
    except (yaml.YAMLError, ValueError, RecursionError):  # ValueError: an int beyond Python's digit limit
        return scalar(text)
    if isinstance(value, str) and value == text:
        return scalar(value)  # numbers YAML 1.1 leaves as text (1e-6)
    return value


def omegaconf_literal(value: Any) -> Any:
    """OmegaConf's escape undone: in a string, 2n+1 backslashes before '${' are n backslashes and a literal '${'
    (the inverse of translator.dialects.writing.omegaconf_text)."""
    if isinstance(value, list):
        return [omegaconf_literal(v) for v in value]
    if isinstance(value, dict):
        return {k: omegaconf_literal(v) for k, v in value.items()}
    if not isinstance(value, str) or "\\${" not in value:
        return value

    def one(match: re.Match[str]) -> str:
        slashes = len(match.group(1))
        return "\\" * (slashes // 2) + "${"  # an even count: an interpolation, left as read

    return re.sub(r"(\\+)\$\{", one, value)


def n_of(spec: RunSpec) -> int:
    """The group size, read before the critic's mini-batch (samples = prompts × n)."""
    return cast(int, spec.plan.samples_per_prompt)


def _new_name(key: str) -> str:
    """A key in the skyrl package's spelling (the Hydra package's flat inference-engine keys renamed)."""
    return next((new for new, old in T.OLD_NAMES.items() if old == key), key)


def cli_override(key: str, value: Any, live: list[str]) -> str:
    """One ``key=value`` for ``SkyRLTrainConfig.from_cli_overrides`` as a shell word. OmegaConf.from_cli splits at
    the first '=' and reads the value as YAML (omegaconf.py from_dotlist / _utils.get_yaml_loader): the value is
    written as a one-line YAML flow node; '${' is escaped (or made an ${oc.env:NAME} for a variable the source
    script left to the shell), since OmegaConf resolves interpolations in strings."""
    checked_name(key, HYDRA_KEY, "SkyRL override key", "'trainer.train_batch_size'")
    if key.startswith(("+", "~")):
        raise ConfigError(
            f"'{key}' cannot be written: SkyRL's from_cli_overrides refuses '+' and '~' overrides",
            key=key,
            hint="remove it from the source",
        )
    text = yaml.safe_dump(omegaconf_values(value, live), default_flow_style=True, width=math.inf, allow_unicode=False)
    text = text.strip().removesuffix("...").strip()
    return shell_word(f"{key}={text}", live)


class _Reader:
    def __init__(self, values: Values, version: str, spec: RunSpec, notes: NoteList, fully_async: bool) -> None:
        self.v, self.version, self.spec, self.notes, self.fully_async = values, version, spec, notes, fully_async

    def count(self, key: str) -> int:
        """A count key (every one has a default, so never None; an Unknown from an unset variable computes on)."""
        return cast(int, self.v.positive_int(key))

    def key(self, name: str) -> str:
        return T.spelled(name, self.version)

    def run(self) -> None:
        self.topology()
        self.batch()
        self.algorithm()
        self.other()

    def topology(self) -> None:
        v, t, spec = self.v, self.spec.topology, self.spec
        t.nodes = nodes = self.count(T.NODES)
        t.gpus_per_node = per_node = self.count(T.GPUS)
        strategy = v.get(T.STRATEGY)
        if strategy not in T.BACKENDS:
            raise ConfigError(
                f"{T.STRATEGY} must be fsdp, fsdp2 or megatron, got {strategy!r}",
                key=T.STRATEGY,
                hint="set trainer.strategy=fsdp or trainer.strategy=megatron",
            )
        t.training_backend = T.BACKENDS[strategy]
        world = nodes * per_node
        t.training_gpus = world
        if t.training_backend == "megatron":
            t.tensor_parallel_size = tp = self.count(T.MEG_TP)
            t.pipeline_parallel_size = pp = self.count(T.MEG_PP)
            t.context_parallel_size = cp = self.count(T.MEG_CP)
            split, keys, how = tp * pp * cp, [T.NODES, T.GPUS, T.MEG_TP, T.MEG_PP, T.MEG_CP], "÷ (TP × PP × CP)"
        else:
            t.sequence_parallel_size = split = self.count(T.SP)
            keys, how = [T.NODES, T.GPUS, T.SP], "÷ Ulysses SP"
        # utils.py:82-94@skyrl-v0.3.0: policy_dp_size = world // split (Megatron asserts it divides: checks.py)
        spec.derivations["plan.data_parallel_size"] = Derivation(
            f"{fmt(world)} policy GPUs {how} {fmt(split)} (floored)", keys, "derived"
        )
        spec.plan.data_parallel_size = world // split
        t.colocate_models = colocated = v.flag(T.COLOCATE)
        t.rollout_engines = engines = self.count(self.key(T.ENGINES))
        t.rollout_tensor_parallel_size = per_engine = self.count(self.key(T.ENGINE_TP))
        if colocated:
            spec.derivations["topology.rollout_gpus"] = Derivation(
                "colocate_all: the inference engines share the policy's GPUs", [T.COLOCATE], "derived"
            )
            t.rollout_gpus = 0
        else:
            for part in (T.ENGINE_PP, T.ENGINE_DP):
                if T.exists(part, self.version):
                    per_engine = per_engine * self.count(self.key(part))
            t.rollout_gpus = engines * per_engine
        t.rollout_gpu_memory_fraction = real(v.number(self.key(T.GPU_MEMORY)))
        spec.generation.rollout_backend = v.get(self.key(T.BACKEND))

    def uneven_mini_batch(self, samples: int, dp: int, micro: int) -> None:
        """A mini-batch whose samples do not split evenly over the data-parallel ranks. From the skyrl package's 0.2.0
        on, stage_chunks pads it with zero-loss rows to a multiple of the ranks, each rank's rows are cut into
        micro-batches with the last one short (dispatch.py:151-163, worker_utils.py:187-194@skyrl-v0.3.0): a rank
        runs ceil(ceil(samples / dp) / micro) micro-batches. Before, dispatch asserts the split is even."""
        plan, keys = self.spec.plan, [T.MINI, T.N, T.GPUS]
        if T.is_old(self.version) or not T.since(self.version, T.PADDED_FROM):
            self.notes.warning(
                "batch.indivisible",
                f"a mini-batch's {samples} samples do not split evenly over {dp} data-parallel ranks: SkyRL "
                f"{self.version} stops at the first training step (dispatch.py asserts mini_batch_size % dp_size == 0)",
                source_keys=keys,
            )
            return
        rows = -(-samples // dp)
        plan.grad_accum_steps = -(-rows // micro)
        self.spec.derivations["plan.grad_accum_steps"] = Derivation(
            f"a mini-batch's {samples} samples padded to {rows * dp} over {dp} ranks ({rows} rows a rank, "
            f"{rows * dp - samples} of zero loss), in micro-batches of {micro}, the last one short",
            [T.MINI, T.N, T.MICRO],
            "derived",
        )
        self.notes.warning(
            "batch.indivisible",
            f"a mini-batch's {samples} samples do not split evenly over {dp} data-parallel ranks: SkyRL pads it with "
            f"{rows * dp - samples} zero-loss rows to {rows} a rank, so each rank runs {plan.grad_accum_steps} "
            f"micro-batches of at most {micro} (dispatch.py:151-163@skyrl-v0.3.0)",
            source_keys=keys,
        )

    def batch(self) -> None:
        v, plan, spec = self.v, self.spec.plan, self.spec
        plan.prompts_per_step = train = self.count(T.TBS)
        plan.samples_per_prompt = n = self.count(T.N)
        mini = self.count(T.MINI)
        spec.derivations["plan.samples_per_optimizer_step"] = Derivation(
            f"policy_mini_batch_size {fmt(mini)} prompts × n_samples_per_prompt {fmt(n)}", [T.MINI, T.N], "config"
        )
        plan.samples_per_optimizer_step = mini * n
        plan.epochs_per_step = epochs = self.count(T.EPOCHS_PER_BATCH)
        # trainer.py:768-770@skyrl-v0.3.0: train_batch_size // policy_mini_batch_size mini-batches per epoch
        spec.derivations["plan.optimizer_steps_per_step"] = Derivation(
            f"train_batch_size {fmt(train)} // policy_mini_batch_size {fmt(mini)} × update_epochs_per_batch "
            f"{fmt(epochs)}",
            [T.TBS, T.MINI, T.EPOCHS_PER_BATCH],
            "derived",
        )
        plan.optimizer_steps_per_step = train // mini * epochs
        tokens = self.count(T.TOKENS) if T.exists(T.TOKENS, self.version) and (v.number(T.TOKENS) or -1) > 0 else None
        dp = plan.data_parallel_size
        if tokens is not None:
            # config.py:944-955: > 0 packs micro-batches by tokens, replacing both sample counts
            spec.token_budget.dynamic_batching = True
            spec.token_budget.max_tokens_per_device = tokens
            spec.token_budget.logprob_max_tokens_per_device = tokens
        else:
            if T.exists(T.TOKENS, self.version):
                v.get(T.TOKENS)
            spec.token_budget.dynamic_batching = False
            micro = self.count(T.MICRO)
            plan.micro_batch_per_device = micro
            # utils.py:103-115: validate_batch_sizes floors the per-rank mini-batch and checks it against the micro
            per_rank = mini * n // cast(int, dp)
            spec.derivations["plan.grad_accum_steps"] = Derivation(
                f"(policy_mini_batch_size {fmt(mini)} × n {fmt(n)} // {fmt(dp)} ranks) ÷ micro {fmt(micro)}",
                [T.MINI, T.N, T.MICRO],
                "derived",
            )
            plan.grad_accum_steps = exact(Fraction(per_rank) / micro) if isinstance(per_rank, int) else per_rank
            if isinstance(per_rank, int) and isinstance(mini * n, int) and isinstance(dp, int):
                if mini * n % dp:
                    self.uneven_mini_batch(mini * n, dp, micro)
                if per_rank % micro:
                    self.notes.warning(
                        "batch.indivisible",
                        f"each rank's {per_rank} samples of a mini-batch do not split into micro-batches of {micro}: "
                        "SkyRL stops at start-up (utils.py:112-115@skyrl-v0.3.0)",
                        source_keys=[T.MICRO, T.MINI, T.N],
                    )
            spec.generation.logprob_micro_batch_per_device = self.count(T.FORWARD_MICRO)
        spec.run_length.dataset_passes = self.count(T.EPOCHS)
        plan.complete()  # before the step limit is read: the derived counts are not built from it
        if str(v.consume(T.STEP_WISE)).lower() == "true":
            # each turn of a trajectory is a sequence of its own: a mini-batch of prompts holds as many sequences
            # as the turns make (preprocess.py:235-262, trainer.py:1046-1054@skyrl-v0.3.0)
            plan.grad_accum_steps = None
            spec.derivations["plan.grad_accum_steps"] = Derivation(
                f"unknown: {T.STEP_WISE} trains each turn as a sequence of its own, so how many sequences (and "
                "micro-batches) a mini-batch of prompts holds depends on the turns the rollouts take",
                [T.STEP_WISE],
                "unknown",
            )
        if T.exists(T.MAX_STEPS, self.version) and (limit := v.consume(T.MAX_STEPS)) is not None:
            mark = len(v.reads)
            self.count(T.MAX_STEPS)  # validated; its read is plan.total_steps' own (below), not the next field's
            del v.reads[mark:]
            # trainer.py:225-227: min(len(dataloader) × epochs, max_training_steps): the dataset decides
            spec.derivations["plan.total_steps"] = Derivation(
                f"min(len(train_dataloader) × trainer.epochs, {T.MAX_STEPS} {limit}): at most "
                f"{limit} steps, fewer when the dataset runs out first",
                [T.MAX_STEPS, T.EPOCHS],
                "unknown",
            )
        if self.fully_async and T.exists(T.ASYNC, self.version):
            enabled = v.flag(T.ASYNC)
            spec.generation.rollout_mode = "async" if enabled else "sync"
            spec.asynchrony.max_steps_ahead = self.count(T.STALENESS) if enabled else 0
        else:
            if T.exists(T.ASYNC, self.version) and v.flag(T.ASYNC):
                self.notes.warning(
                    "skyrl.async-ignored",
                    f"{T.ASYNC} is set, but main_base runs the synchronous RayPPOTrainer; fully async training "
                    "needs an entry point with FullyAsyncRayPPOTrainer (fully_async_trainer.py@skyrl-v0.3.0)",
                    source_keys=[T.ASYNC],
                )
            spec.generation.rollout_mode = "sync"
            spec.asynchrony.max_steps_ahead = 0
        spec.derivations["asynchrony.max_steps_ahead"] = Derivation(
            "staleness bound of the fully async trainer" if spec.asynchrony.max_steps_ahead else "synchronous trainer",
            [T.STALENESS] if spec.asynchrony.max_steps_ahead else [],
            "config" if spec.asynchrony.max_steps_ahead else "default",
        )

    def algorithm(self) -> None:
        v, a, spec = self.v, self.spec.algorithm, self.spec
        estimator = str(v.get(T.ESTIMATOR))
        a.advantage_estimator = T.ESTIMATORS.get(estimator, estimator)
        a.advantage_std_normalization = v.flag(T.NORM_BY_STD)
        in_loss, in_reward = v.flag(T.KL_LOSS), v.flag(T.KL_REWARD)
        coef = v.number(T.KL_COEF)
        a.kl_placement = "loss" if in_loss else "reward" if in_reward else "none"
        a.kl_coef = 0.0 if a.kl_placement == "none" else real(coef)
        a.kl_estimator = str(v.get(T.KL_TYPE))
        a.clip_ratio_low, a.clip_ratio_high = real(v.number(T.CLIP_LOW)), real(v.number(T.CLIP_HIGH))
        reduction = str(v.get(T.LOSS_REDUCTION))
        a.loss_aggregation = T.LOSS_AGGREGATION.get(reduction, reduction)
        if estimator == "gae":
            a.gamma, a.gae_lambda = real(v.number(T.GAMMA)), real(v.number(T.LAMBDA))
            c = spec.critic
            c.enabled = True
            c.model = v.get(T.CRITIC_MODEL)
            c.samples_per_optimizer_step = self.count(T.CRITIC_MINI) * n_of(spec)
            c.lr = real(v.number(T.CRITIC_LR))
        o = spec.optimizer
        o.lr = real(v.number(T.LR))
        o.weight_decay = real(v.number(T.WEIGHT_DECAY))
        o.grad_clip = real(v.number(T.GRAD_CLIP))
        warmup = v.number(T.WARMUP)
        o.warmup_steps = int(warmup) if isinstance(warmup, (int, float)) else warmup
        o.warmup_unit = "optimizer_steps"  # ppo_base_config.yaml:43: "number of mini-batch steps to warmup"

    def other(self) -> None:
        v, s = self.v, self.spec
        if T.MODEL in v:
            s.references.model = str(v.get(T.MODEL))
        s.lengths.max_prompt_tokens = self.count(T.MAX_PROMPT)
        s.lengths.max_response_tokens = self.count(T.MAX_GENERATE)
        s.sampling.temperature = real(v.number(T.TEMPERATURE))
        s.sampling.top_p = real(v.number(T.TOP_P))
        top_k = v.number(T.TOP_K)
        s.sampling.top_k = int(top_k) if isinstance(top_k, (int, float)) else top_k
        for key, field in ((T.TRAIN_DATA, "data.train_sources"), (T.VAL_DATA, "data.eval_sources")):
            if key in v:
                data = v.get(key)
                s.set(field, [str(d) for d in data] if isinstance(data, list) else [str(data)])
        s.reward.builtin = [str(v.get(T.ENV_CLASS))]
        every = v.number(T.CKPT_INTERVAL)
        s.checkpointing.every_steps = max(int(every), 0) if isinstance(every, (int, float)) else every
        if T.CKPT_PATH in v:
            s.checkpointing.directory = str(v.get(T.CKPT_PATH))
        keep = v.number(T.MAX_CKPTS)
        s.checkpointing.keep_last = int(keep) if isinstance(keep, (int, float)) and keep > 0 else None
        every = v.number(T.EVAL_INTERVAL)
        s.evaluation.every_steps = max(int(every), 0) if isinstance(every, (int, float)) else every
        s.evaluation.before_training = v.flag(T.EVAL_BEFORE)
        eval_n = v.number(T.EVAL_N)
        s.evaluation.samples_per_prompt = int(eval_n) if isinstance(eval_n, (int, float)) else eval_n
        s.logging.project = str(v.get(T.PROJECT))
        s.logging.run_name = str(v.get(T.RUN_NAME))
        logger = v.get(T.LOGGER)
        s.logging.backends = [str(x) for x in logger] if isinstance(logger, list) else [str(logger)]
        seed = v.number(T.SEED)
        s.launch.seed = int(seed) if isinstance(seed, (int, float)) else seed


class _Writer:
    def __init__(self, spec: RunSpec, version: str, notes: NoteList) -> None:
        self.spec, self.version, self.notes = spec, version, notes
        self.out: dict[str, Any] = {}
        self.label = f"SkyRL {version}"

    def put(self, key: str, value: Any) -> None:
        if value is not None:
            self.out[T.spelled(key, self.version)] = value

    def lost(self, field: str, message: str, *target: str) -> None:
        section = field.split(".")[0]
        code = {
            "plan": "batch.not-expressible",
            "token_budget": "batch.token-budget-not-expressible",
            "run_length": "run-length.not-expressible",
        }.get(section, f"{section}.not-expressible")
        self.notes.warning(
            code,
            message,
            source_keys=[field],
            target_keys=[T.spelled(k, self.version) for k in target],
        )

    def overrides(self) -> dict[str, Any]:
        p = self.spec.plan
        for name in ("samples_per_prompt", "data_parallel_size"):
            if getattr(p, name) is None:
                raise ConfigError(
                    f"the plan's {name} is unknown: a SkyRL launch needs it",
                    hint="give the source the missing value (--num-processes N for the world size)",
                )
        self.topology()
        self.batch()
        self.algorithm()
        self.other()
        self.extras()
        return self.out

    def topology(self) -> None:
        s, t, dp = self.spec, self.spec.topology, int(self.spec.plan.data_parallel_size or 1)
        megatron = t.training_backend == "megatron" and T.exists(T.MEG_TP, self.version)
        if t.training_backend == "megatron" and not megatron:
            self.lost("topology.training_backend", f"{self.label} has no Megatron backend; FSDP is written", T.STRATEGY)
        if megatron:
            tp, pp, cp = t.tensor_parallel_size or 1, t.pipeline_parallel_size or 1, t.context_parallel_size or 1
            self.put(T.STRATEGY, "megatron")
            for key, size in ((T.MEG_TP, tp), (T.MEG_PP, pp), (T.MEG_CP, cp)):
                self.put(key, size)
                self.put(key.replace("trainer.policy.", "trainer.ref."), size)
            split = tp * pp * cp
        else:
            self.put(T.STRATEGY, "fsdp" if T.since(self.version, "0.3.0") else "fsdp2")
            split = t.sequence_parallel_size or 1
            self.put(T.SP, split)
            if (t.tensor_parallel_size or 1) * (t.pipeline_parallel_size or 1) * (t.context_parallel_size or 1) > 1:
                self.lost(
                    "topology.tensor_parallel_size",
                    f"{self.label}'s FSDP backend has no tensor/pipeline/context parallelism: "
                    f"{dp} data-parallel ranks are written without it",
                    T.STRATEGY,
                )
        gpus = dp * split
        nodes = t.nodes if t.nodes and gpus % t.nodes == 0 else 1
        self.put(T.NODES, nodes)
        self.put(T.GPUS, gpus // nodes)
        self.put(T.REF_NODES, nodes)
        self.put(T.REF_GPUS, gpus // nodes)
        engine_tp = t.rollout_tensor_parallel_size or 1
        separate = bool(t.rollout_gpus)
        if separate:
            rollout = int(t.rollout_gpus or 0)
            if rollout % engine_tp:
                engine_tp = 1
            self.put(T.COLOCATE, False)
            self.put(T.ENGINES, rollout // engine_tp)
        else:
            # utils.py:436-445: colocate_all needs the policy's GPUs = engines × TP × PP × DP
            if gpus % engine_tp:
                self.lost(
                    "topology.rollout_tensor_parallel_size",
                    f"engines of TP {engine_tp} do not fill the {gpus} colocated GPUs; {self.label} is written "
                    f"with TP 1",
                    T.ENGINE_TP,
                )
                engine_tp = 1
            self.put(T.COLOCATE, True)
            self.put(T.ENGINES, gpus // engine_tp)
        self.put(T.ENGINE_TP, engine_tp)
        if t.rollout_gpu_memory_fraction is not None:
            self.put(T.GPU_MEMORY, t.rollout_gpu_memory_fraction)
        backend = s.generation.rollout_backend
        if backend in ("vllm", "sglang"):
            self.put(T.BACKEND, backend)
        elif backend:
            self.lost("generation.rollout_backend", f"{self.label} generates with vllm or sglang, not {backend}")

    def batch(self) -> None:
        s, p = self.spec, self.spec.plan
        n = int(p.samples_per_prompt or 1)
        dp = int(p.data_parallel_size or 1)
        train = whole_prompts(s, self.notes, "SkyRL", T.TBS)
        if p.samples_per_optimizer_step is None:
            # A source whose update size is unknown (a fork's own batching): one update per step is written.
            fallback = train or int(T.COMMON[T.MINI])
            self.lost(
                "plan.samples_per_optimizer_step",
                f"the source's samples per optimizer step is unknown; {self.label} is written with one optimizer "
                f"step per step (policy_mini_batch_size {fallback})",
                T.MINI,
            )
            mini_exact = Fraction(fallback)
        else:
            mini_exact = Fraction(p.samples_per_optimizer_step) / n
        mini = max(1, round(mini_exact))
        if train is None or mini > train:
            # SkyRL asserts train_batch_size >= policy_mini_batch_size (utils.py:73): one step generates at
            # least the whole optimizer batch.
            self.lost(
                "plan.prompts_per_step",
                f"the source's prompts per step ({fmt(p.prompts_per_step) if train else 'unknown'}) is not a "
                f"whole number of {self.label} mini-batches of {mini} prompts; each step generates one "
                f"mini-batch: train_batch_size {mini} is written",
                T.TBS,
            )
            train = mini
        if train % mini:
            mini = largest_divisor(train, mini) or 1
        if mini != mini_exact:
            self.lost(
                "plan.samples_per_optimizer_step",
                f"{fmt(p.samples_per_optimizer_step)} samples per optimizer step is not a number of whole prompts "
                f"that divides {train} prompts per step; {self.label} needs one (utils.py:96-99): "
                f"policy_mini_batch_size {mini} ({mini * n} samples) is written",
                T.MINI,
            )
        self.put(T.TBS, train)
        self.put(T.N, n)
        self.put(T.MINI, mini)
        epochs = p.epochs_per_step or 1
        self.put(T.EPOCHS_PER_BATCH, epochs)
        per_rank = mini * n // dp
        budget = s.token_budget
        if budget.dynamic_batching and budget.max_tokens_per_device and T.exists(T.TOKENS, self.version):
            self.put(T.TOKENS, budget.max_tokens_per_device)
        else:
            if budget.dynamic_batching:
                self.lost(
                    "token_budget.max_tokens_per_device",
                    f"{self.label} has no token budget per micro-batch (trainer.max_tokens_per_microbatch is "
                    "new in 0.3.0): sample micro-batches are written",
                    T.MICRO,
                )
            micro = p.micro_batch_per_device
            whole = int(micro) if micro and Fraction(micro).denominator == 1 else 1
            if per_rank and per_rank % whole:
                whole = largest_divisor(per_rank, whole) or 1
            if micro != whole and micro is not None:
                self.lost(
                    "plan.micro_batch_per_device",
                    f"micro-batch {fmt(micro)} does not divide the {per_rank} samples per rank of a mini-batch "
                    f"(utils.py:112-115); {whole} is written",
                    T.MICRO,
                )
            self.put(T.MICRO, whole)
            forward = s.generation.logprob_micro_batch_per_device or whole
            self.put(T.FORWARD_MICRO, forward)
        passes = s.run_length.dataset_passes
        if passes is not None:
            whole_passes = max(1, math.ceil(passes))
            if whole_passes != passes:
                self.lost(
                    "run_length.dataset_passes",
                    f"{fmt(passes)} dataset passes: {self.label}'s trainer.epochs is a whole number; "
                    f"{whole_passes} is written",
                    T.EPOCHS,
                )
            self.put(T.EPOCHS, whole_passes)
        if p.total_steps is not None:
            if T.exists(T.MAX_STEPS, self.version):
                self.put(T.MAX_STEPS, p.total_steps)
                self.notes.info(
                    "skyrl.total-steps-cap",
                    f"{T.MAX_STEPS} {p.total_steps} caps the run; SkyRL stops at min(len(dataloader) × "
                    "trainer.epochs, max_training_steps) (trainer.py:225-227), so the step count depends on the "
                    "dataset",
                    source_keys=["plan.total_steps"],
                    target_keys=[T.MAX_STEPS],
                )
            else:
                self.lost(
                    "plan.total_steps",
                    f"{self.label} has no step limit (trainer.max_training_steps is new in 0.3.0): the run "
                    "is trainer.epochs passes over the dataset",
                    T.EPOCHS,
                )
        if s.asynchrony.max_steps_ahead:
            self.lost(
                "asynchrony.max_steps_ahead",
                f"main_base runs SkyRL's synchronous trainer: generation {s.asynchrony.max_steps_ahead} step(s) "
                "ahead of the policy is not written (fully async needs an entry point of one's own with "
                "FullyAsyncRayPPOTrainer); the written run is on-policy",
            )

    def algorithm(self) -> None:
        s, a = self.spec, self.spec.algorithm
        estimator = a.advantage_estimator
        native = {v: k for k, v in T.ESTIMATORS.items()}.get(estimator or "", estimator)
        if native in ("grpo", "gae", "rloo", "reinforce++"):
            self.put(T.ESTIMATOR, native)
        elif estimator:
            self.lost(
                "algorithm.advantage_estimator",
                f"{self.label}'s advantage estimators are grpo, gae, rloo and reinforce++ (and registered ones); "
                f"{estimator} is not written: grpo applies",
                T.ESTIMATOR,
            )
        if a.advantage_std_normalization is not None:
            self.put(T.NORM_BY_STD, a.advantage_std_normalization)
        placement = a.kl_placement
        if placement is not None:
            self.put(T.KL_LOSS, placement == "loss")
            self.put(T.KL_REWARD, placement == "reward")
            if placement != "none" and a.kl_coef is not None:
                self.put(T.KL_COEF, a.kl_coef)
        if a.kl_estimator in T.KL_ESTIMATORS:
            self.put(T.KL_TYPE, a.kl_estimator)
        self.put(T.CLIP_LOW, a.clip_ratio_low)
        self.put(T.CLIP_HIGH, a.clip_ratio_high)
        aggregation = {v: k for k, v in T.LOSS_AGGREGATION.items()}.get(a.loss_aggregation or "")
        if aggregation:
            self.put(T.LOSS_REDUCTION, aggregation)
        if native == "gae":
            self.put(T.GAMMA, a.gamma)
            self.put(T.LAMBDA, a.gae_lambda)
            c = s.critic
            self.put(T.CRITIC_MODEL, c.model or s.references.model)
            if c.samples_per_optimizer_step:
                self.put(T.CRITIC_MINI, max(1, round(c.samples_per_optimizer_step / (s.plan.samples_per_prompt or 1))))
            else:  # the source's critic updates on the policy's batch (slime, Miles); SkyRL's default (256
                # prompts) may exceed the step, which validate_batch_sizes refuses
                self.put(T.CRITIC_MINI, self.out.get(T.spelled(T.MINI, self.version)))
            self.put(T.CRITIC_LR, c.lr)
        o = s.optimizer
        self.put(T.LR, o.lr)
        self.put(T.WEIGHT_DECAY, o.weight_decay)
        self.put(T.GRAD_CLIP, o.grad_clip)
        if o.warmup_steps is not None:
            warmup = o.warmup_steps
            if o.warmup_unit == "steps":  # rollout steps → optimizer (mini-batch) steps
                warmup = int(warmup * (s.plan.optimizer_steps_per_step or 1))
            self.put(T.WARMUP, warmup)

    def other(self) -> None:
        s = self.spec
        self.put(T.MODEL, s.references.model)
        self.put(T.MAX_PROMPT, s.lengths.max_prompt_tokens)
        self.put(T.MAX_GENERATE, s.lengths.max_response_tokens)
        self.put(T.TEMPERATURE, s.sampling.temperature)
        self.put(T.TOP_P, s.sampling.top_p)
        self.put(T.TOP_K, s.sampling.top_k)
        if s.data.train_sources:
            self.put(T.TRAIN_DATA, list(s.data.train_sources))
        if s.data.eval_sources:
            self.put(T.VAL_DATA, list(s.data.eval_sources))
        builtin = s.reward.builtin or []
        if s.framework == "skyrl" and len(builtin) == 1:
            self.put(T.ENV_CLASS, builtin[0])
        elif builtin or s.reward.function_path or s.reward.model or s.reward.remote_url:
            self.lost(
                "reward.builtin",
                f"{self.label} computes rewards in a skyrl_gym environment (environment.env_class); the source's "
                "reward is not written: register an environment that scores as it does",
                T.ENV_CLASS,
            )
        c = s.checkpointing
        if c.every_steps is not None:
            self.put(T.CKPT_INTERVAL, c.every_steps if c.every_steps > 0 else -1)
        self.put(T.CKPT_PATH, c.directory)
        if c.keep_last:
            self.put(T.MAX_CKPTS, c.keep_last)
        e = s.evaluation
        if e.every_steps is not None:
            self.put(T.EVAL_INTERVAL, e.every_steps if e.every_steps > 0 else -1)
        self.put(T.EVAL_BEFORE, e.before_training)
        self.put(T.EVAL_N, e.samples_per_prompt)
        lg = s.logging
        self.put(T.PROJECT, lg.project)
        self.put(T.RUN_NAME, lg.run_name)
        if lg.backends:
            self.put(T.LOGGER, lg.backends[0])
            if len(lg.backends) > 1:
                self.lost(
                    "logging.backends", f"{self.label} logs to one backend: {lg.backends[0]} is written", T.LOGGER
                )
        self.put(T.SEED, s.launch.seed)

    def extras(self) -> None:
        own = [x for x in self.spec.extras if x.framework == "skyrl"]
        for extra in own:
            key = _new_name(extra.key.lstrip("+"))
            if T.spelled(key, self.version) in self.out or extra.key.startswith("+"):
                continue
            if T.exists(key, self.version):
                self.put(key, extra.value)
        foreign = [x for x in self.spec.extras if x.framework != "skyrl"]
        if foreign:
            keys = [x.key for x in foreign]
            self.notes.info(
                "keys.not-translated", not_written(foreign[0].framework, keys, self.label), source_keys=keys
            )
