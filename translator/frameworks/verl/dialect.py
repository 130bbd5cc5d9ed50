"""verl: ``python3 -m verl.trainer.main_ppo key=value ...`` launch scripts and Hydra YAML configs.

Semantics from docs/frameworks/verl.md: mini-batches count prompts (×n), micro-batches count samples
per data-parallel rank, Ulysses SP or Megatron TP×PP×CP divide the GPUs into data-parallel ranks.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Collection
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from translator.checks.findings import divisors, largest_divisor
from translator.concordance import not_written
from translator.dialects.base import (
    Dialect,
    Installed,
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
    version_key,
)
from translator.dialects.settings import read_settings, write_settings
from translator.dialects.sniff import program_arguments
from translator.dialects.writing import (
    env_assignment,
    hydra_override,
    plan_summary,
    requirements,
    source_label,
    step_growth,
    whole_prompts,
    written_cadence,
)
from translator.errors import ConfigError
from translator.frameworks.verl.tables import (
    ACTOR,
    ADVANTAGE_NORMALISATION,
    ASYNC_MODES,
    CARRIED_DEFAULTS,
    CHANGES,
    COMMON_KEYS,
    DEFAULT_CHANGES,
    DEFAULTS,
    DEPRECATED_GLOBAL_MICRO,
    ENTRY_MODULES,
    FORK_ENTRY,
    FULLY_ASYNC_DEFAULTS,
    FULLY_ASYNC_ENTRY,
    GROUP_ESTIMATORS,
    KEY_SINCE,
    KEY_UNTIL,
    KL_ESTIMATOR_NAMES,
    KL_ESTIMATORS,
    REF,
    REMOVED,
    RENAMES,
    ROLLOUT,
    SETTINGS,
    V1,
    V1_MODE,
    V1_MODES,
    VAL_DO_SAMPLE,
    VERSIONS,
)
from translator.native_schemas import lacks
from translator.notes import NoteList
from translator.plan import Derivation, Extra, RunSpec, exact
from translator.sources.code import registered_resolvers
from translator.sources.files import Source, flatten, load_yaml_mapping
from translator.sources.hydra import UNRESOLVED, parse_override, refuse_escaped_space, resolve_interpolations
from translator.sources.shell import program_index, symbolic_names, unwrap_command

if TYPE_CHECKING:
    from translator.dialects.forkbatch import EntryConfig

_STANDARD_CONFIGS = {"ppo_trainer", "ppo_megatron_trainer", "dapo_trainer"}


class NativeVerl:
    """What a verl config says, before interpretation: merged key → value, and how it was launched."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.origins: dict[str, str] = {}
        self.appended: dict[str, str] = {}  # keys written with '+' (absent from that version's config) → where
        self.plain: dict[str, str] = {}  # keys written without '+' or '++' → where (Hydra wants them in the config)
        self.entry_config: EntryConfig | None = None  # the Hydra config the launched copy's own entry names
        self.entry = "core"  # core | dapo | fully_async
        self.megatron = False
        self.config_name: str | None = None
        self.launch: tuple[str, str | None] | None = None  # the launched module or script, and its cwd
        self.fork_entry = False  # launched through a module or script that is not verl's own
        self.entry_options: list[str] = []  # a fork entry's own options (words not overrides: --config FILE)
        self.wandb_entity: str | None = None  # WANDB_ENTITY as the launch sees it (verl has no config key)
        self.unknown_words: list[str] = []  # launch words whose value is not known: they may hold any override

    def set(self, key: str, value: Any, origin: str) -> None:
        self.values[key] = value
        self.origins[key] = origin

    def merge_yaml(self, data: dict[str, Any], origin: str) -> None:
        defaults = data.get("defaults")
        if isinstance(defaults, list) and any("megatron" in str(item) for item in defaults):
            self.megatron = True
        for key, value in flatten({k: v for k, v in data.items() if k not in ("defaults", "hydra")}).items():
            if not key.endswith("._target_"):
                self.set(key, value, origin)


def _refuse_unresolvable(source: Source, data: dict[str, Any]) -> None:
    """Stop (ConfigError) where a ``${name:...}`` interpolation in a config's ``data`` (its hydra: section too) names
    a resolver the run lacks: verl resolves the whole config at start-up (OmegaConf.resolve,
    verl/trainer/main_ppo.py:145@v0.9.1) and Hydra its run directory, so an unregistered one (``${PROJECT_DIR:-/x}``,
    bash's default syntax) stops the run with UnsupportedInterpolationType."""
    from translator.sources.hydra import BUILT_IN_RESOLVERS, resolvers_used

    unknown = [used for used in resolvers_used(data) if used[1] not in BUILT_IN_RESOLVERS]
    if not unknown or source.base_dir is None:
        return
    registered = registered_resolvers(str(source.base_dir))
    for key, name, text in unknown:
        if name not in registered:
            raise ConfigError(
                f"'{text}' is an OmegaConf interpolation of a resolver named {name}, which neither OmegaConf, Hydra "
                "nor the project registers: resolving the config at start-up stops with UnsupportedInterpolationType",
                file=source.name,
                line=next((i for i, row in enumerate(source.text.splitlines(), 1) if text in row), None),
                key=key,
                hint=f"write ${{oc.env:{name},DEFAULT}} for an environment variable with a default, or a value",
            )


class VerlDialect(Dialect):
    name = "verl"
    aliases = ("volcengine/verl", "verl-project/verl")
    versions = VERSIONS
    # the releases its plan arithmetic branches on
    plan_bands = ("0.2.0.post2", "0.3.0", "0.4.1", "0.5.0", "0.6.1", "0.7.1", "0.8.0", "0.9.0", "0.9.1")
    changes = CHANGES
    commit_bands = os.path.join(os.path.dirname(__file__), "commits.txt")  # scripts/gen_commit_bands.py
    description = "verl (Hydra overrides to verl.trainer.main_ppo, or a Hydra YAML config)"
    writes_from = "0.3.0"  # 0.1's and 0.2's micro-batch keys and missing epoch loop are read, not written
    pip_name = "verl"
    # StatefulDataLoader(batch_size=train_batch_size, drop_last=True) (verl/trainer/ppo/ray_trainer.py:405-412@v0.9.1)
    steps_per_pass_from_rows = True
    # Projects built on early verl (TinyZero, Logic-RL; rllm as a sub-project) keep a copy with its version file;
    # the copy's own trainer config tells a pre-release copy's era.
    version_files = (("verl/version/version", None), ("verl/verl/version/version", None))
    copy_config = "verl/trainer/config/ppo_trainer.yaml"
    release_names = "release_names.txt"  # scripts/gen_release_names.py

    def keys_in(self, version: str) -> set[str] | None:
        return {
            k
            for k in KNOWN_KEYS
            if (k not in KEY_SINCE or at_least(version, KEY_SINCE[k]))
            and (k not in KEY_UNTIL or not newer_than(version, KEY_UNTIL[k]))
        }

    # ---------------------------------------------------------------- reading
    def read(self, source: Source, options: ReadOptions) -> Reading:
        notes = NoteList()
        native = self._collect(source, options, notes)
        version = self._version(native, options.version, notes)
        defaults = defaults_for(version)
        if native.entry == "fully_async":
            defaults = {**defaults, **FULLY_ASYNC_DEFAULTS}
        defaults = self._copy_config(source, native, defaults, notes)
        values = Values(native.values, native.origins, defaults, source.name)
        spec = RunSpec(framework=self.name, version=version)
        interpreter = _Interpreter(values, native, version, spec, notes)
        with track_provenance(spec, values):
            interpreter.run()
        entity_from_environment(spec, native.wandb_entity)
        if native.unknown_words:
            from translator.dialects.forkbatch import unknown_launch_words

            unknown_launch_words(spec, notes, native.unknown_words, [*native.plain, *native.appended])
        self._account(values, native, version, spec, notes)
        self._fork_code(
            source,
            native,
            values,
            version,
            spec,
            notes,
            self.installed(options, options.version or "", version),
            interpreter.filtered_by_own_trainer,
        )
        if native.entry_options and native.launch is not None:
            from translator.dialects.forkbatch import entry_arguments_unknown

            entry_arguments_unknown(spec, native.entry_options, native.values, native.launch[0], notes)
        return Reading(spec, notes, values)

    def _fork_code(
        self,
        source: Source,
        native: NativeVerl,
        values: Values,
        version: str,
        spec: RunSpec,
        notes: NoteList,
        installed: Installed | None,
        own_filter: bool = False,
    ) -> None:
        """Keys upstream never had, and a fork entry's own trainer, read in the project's code
        (translator/dialects/forkbatch.py). A config read alone runs under the project's own copy of verl's entry,
        where the project holds one: its keys are read in that copy's code. ``own_filter``: the copy's own trainer
        filters groups, read as the DAPO recipe's loop: its fit is compared with that loop's."""
        from translator import native_schemas
        from translator.dialects import forkbatch

        launch = native.launch
        core = "verl.trainer.main_ppo"
        composed = native.entry_config
        if launch is None and source.suffix in (".yaml", ".yml") and forkbatch.locate(source, None, core) is not None:
            launch = (core, None)
            composed = forkbatch.entry_config(source, None, core)
        if launch is None:
            return
        # the entry's own config, whole, with the launch's values over it is the run's: a key it lacks is not set
        whole = composed.keys if composed is not None and composed.complete and native.config_name is None else None

        known = self.keys_in(version) or set()

        upstream_ends: list[Callable[[str], bool]] = []

        def upstream_leaf(suffix: str) -> bool:
            # asked only for a fork key found in the project's code: every release's schema is loaded then
            if not upstream_ends:
                upstream_ends.append(forkbatch.suffixes(native_schemas.keys(self.name) | KNOWN_KEYS))
            return upstream_ends[0](suffix)

        def fork_key(key: str) -> bool:
            bare = key.lstrip("+")
            return bare not in known and bare not in KNOWN_KEYS and not native_schemas.known_in_any(self.name, bare)

        assumed = any(n.code == "version.assumed" for n in notes)
        # keys the reader interprets (a fork key it knows, such as rollout.n_agent) are not left to the code
        unused = {k: v for k, v in native.values.items() if k in values.unused()}
        unused = {**self._fork_config_keys(native, fork_key, notes), **unused}
        forkbatch.check(
            source,
            launch[1],
            launch[0],
            unused,
            fork_key,
            upstream_leaf,
            version,
            assumed,
            native.fork_entry,
            spec,
            notes,
            launch_values=native.values,
            installed=installed,
            fit_lineage="verl-dapo" if native.entry == "dapo" or own_filter else None,
            refill=own_filter,
            whole_config=whole,
        )
        self._run_counter(source, launch, spec, notes)
        self._copy_epoch_loop(source, launch, native, spec, notes)

    @staticmethod
    def _copy_epoch_loop(
        source: Source, launch: tuple[str, str | None], native: NativeVerl, spec: RunSpec, notes: NoteList
    ) -> None:
        """verl before 0.3.0's FSDP actor makes one pass whatever ppo_epochs says (the reader states 1); a copy the
        project runs whose ``verl/workers/actor/dp_actor.py`` loops ``for _ in range(self.config.ppo_epochs)`` (the
        loop 0.3.0 added, kept by many copies of 0.1 and 0.2) makes ppo_epochs passes."""
        import ast

        from translator.dialects import forkbatch
        from translator.sources.code import dotted_path, files_ending

        if spec.derivations.get("plan.epochs_per_step", None) is None or not any(
            n.code == "semantics.ignored-key" and f"{ACTOR}.ppo_epochs" in n.source_keys for n in notes
        ):
            return
        found = forkbatch.locate(source, launch[1], launch[0])
        actors = files_ending(found[0].root, "verl/workers/actor/dp_actor.py") if found is not None else []
        tree = found[0].tree(actors[0]) if found is not None and len(actors) == 1 else None
        loop = next(
            (
                node
                for node in ast.walk(tree or ast.Module(body=[], type_ignores=[]))
                if isinstance(node, ast.For)
                and isinstance(node.iter, ast.Call)
                and dotted_path(node.iter.func) == "range"
                and len(node.iter.args) == 1
                and (dotted_path(node.iter.args[0]) or "").endswith("config.ppo_epochs")
            ),
            None,
        )
        epochs = native.values.get(f"{ACTOR}.ppo_epochs")
        if loop is None or found is None or not isinstance(epochs, int) or isinstance(epochs, bool):
            return
        where = f"{found[0].rel(actors[0])}:{loop.lineno}"
        notes[:] = [
            n for n in notes if not (n.code == "semantics.ignored-key" and f"{ACTOR}.ppo_epochs" in n.source_keys)
        ]
        steps = spec.plan.optimizer_steps_per_step
        if steps is not None:  # computed with 1 pass: each pass makes as many updates again
            spec.plan.optimizer_steps_per_step = steps * epochs
            stated = spec.derivations.get("plan.optimizer_steps_per_step")
            if stated is not None:
                text = stated.text.replace("ppo_epochs 1 ×", f"ppo_epochs {epochs} ×", 1)
                spec.derivations["plan.optimizer_steps_per_step"] = Derivation(text, stated.keys, stated.origin)
        spec.plan.epochs_per_step = epochs
        spec.derivations["plan.epochs_per_step"] = Derivation(
            f"ppo_epochs {epochs} (the project's copy loops over them: {where})", [f"{ACTOR}.ppo_epochs"], "config"
        )
        notes.info(
            "semantics.copy-epoch-loop",
            f"{where} loops over ppo_epochs, as verl 0.3.0 does: each step makes {epochs} passes (verl "
            f"{spec.version}'s own actor makes 1)",
            source_keys=[f"{ACTOR}.ppo_epochs"],
        )

    @staticmethod
    def _run_counter(source: Source, launch: tuple[str, str | None], spec: RunSpec, notes: NoteList) -> None:
        """trainer.total_training_steps ends the run when the trainer's own counter reaches it: verl's fit counts
        training steps (``self.global_steps >= self.total_training_steps``), but the DAPO recipe of verl 0.5.0
        (recipe/dapo/dapo_ray_trainer.py:131@v0.5.0) counts generation batches (``self.gen_steps``), one more for
        every refill group filtering asks for. The recipe is never in the wheel: its code is the project's, read
        where the launch runs it. A counter other than the training steps leaves the run's length in steps unknown,
        except DAPO's without group filtering (one generation batch per training step)."""
        from translator.dialects import forkbatch

        if spec.plan.total_steps is None:
            return
        found = forkbatch.run_counter(source, launch[1], launch[0], "total_training_steps")
        if found is None or found[0] == "global_steps":
            return
        counter, where = found
        if counter == "gen_steps" and spec.generation.filter_groups is False:
            return
        text = (
            f"unknown: the launched trainer ends the run when self.{counter} reaches trainer.total_training_steps "
            f"{spec.plan.total_steps} ({where}), not when its training steps do, so how many steps it trains "
            "depends on its loop"
            + (" (group filtering adds a generation batch per refill)" if counter == "gen_steps" else "")
        )
        spec.plan.total_steps = None
        spec.derivations["plan.total_steps"] = Derivation(text, [where], "unknown")
        notes.warning(
            "framework.fork-run-length",
            f"{text[len('unknown: ') :]} (read that loop to state the run length)",
            source_keys=["trainer.total_training_steps"],
        )

    @staticmethod
    def _copy_config(source: Source, native: NativeVerl, defaults: dict[str, Any], notes: NoteList) -> dict[str, Any]:
        """When the launched entry is the project's own (a copy or fork of verl) and composes its own config: an
        override of a key that config lacks, written without '+', stops Hydra at start-up (ConfigError); a default
        the copy's config sets otherwise than the release's is the one the run uses (returned in ``defaults``)."""
        if native.launch is None:
            return defaults
        from translator.dialects import forkbatch

        config = native.entry_config = forkbatch.entry_config(source, native.launch[1], native.launch[0])
        if config is None or native.config_name is not None:
            return defaults
        # a defaults entry whose file the entry's config folder lacks, with no search path to look elsewhere and
        # no launch word choosing another option of that group: Hydra stops composing (MissingConfigException)
        for relative in config.absent:
            group = os.path.dirname(relative).replace("/", ".")
            if "hydra" not in config.tree and group not in native.values and "$" not in relative:
                raise ConfigError(
                    f"the launched entry's config {config.where} names '{relative.removesuffix('.yaml')}' in its "
                    f"defaults list, and its config folder holds no {relative}: Hydra stops at start-up "
                    f"(MissingConfigException: Could not find '{relative.removesuffix('.yaml')}')",
                    file=config.where,
                    hint=f"add {relative} to the project (a .gitignore may have kept it out), or change that entry",
                )
        if config.complete:
            for key, origin in native.appended.items():
                appended = str(native.values.get(key, "")).strip()
                if appended.startswith(("{", "[")) or key.replace(".", "/") in config.groups:
                    continue  # Hydra merges a mapping or list into the item there
                if _set_in(config.tree, key):
                    _hydra_stops(
                        origin,
                        f"'{key}' is already in the config the launched entry composes ({config.where}), and the "
                        f"launch appends it with '+': Hydra stops at start-up (\"Could not append to config. An item "
                        f"is already at '{key}'\")",
                        f"write {key}=... (without '+') to override it, or ++{key}=... to set it either way",
                    )
            for key, origin in native.plain.items():
                if key.replace(".", "/") not in config.groups and _absent(config.tree, key):
                    _hydra_stops(
                        origin,
                        f"'{key}' is not in the config the launched entry composes ({config.where}), and the launch "
                        f"sets it without '+': Hydra stops at start-up (\"Could not override '{key}'. To append to "
                        f'your config use +{key}=...")',
                        f"write +{key}=... to add the key, or correct its name to one {config.where} has",
                    )
        what = "the launched entry's own config"
        return forkbatch.copy_defaults(config.keys, defaults, native.values, what, config.where, notes)

    @staticmethod
    def _fork_config_keys(native: NativeVerl, fork_key: Callable[[str], bool], notes: NoteList) -> dict[str, Any]:
        """The keys upstream lacks that the launched entry's own Hydra config (a copy or fork kept in the project)
        sets and the launch does not: the fork's code may form batches by their defaults (a group size of its
        own), so they are read in its code like keys the launch sets."""
        found = native.entry_config  # composed by _copy_config
        if found is None:
            return {}
        where, keys = found.where, found.keys
        added = {
            k: v
            for k, v in keys.items()
            if k not in native.values and k != "defaults" and fork_key(k) and not isinstance(v, (dict, list))
        }
        if added:
            shown = ", ".join(f"{k}={v}" for k, v in list(added.items())[:4])
            notes.info(
                "framework.fork-config-keys",
                f"the launched entry's own config {where} sets keys upstream "
                f"lacks ({shown}{', ...' if len(added) > 4 else ''}); the project's code that reads them is "
                "checked like keys the launch sets",
                source_keys=[where],
            )
        return added

    def _collect(self, source: Source, options: ReadOptions, notes: NoteList) -> NativeVerl:
        native = NativeVerl()
        if source.suffix in (".yaml", ".yml"):
            data = load_yaml_mapping(source)
            _refuse_unresolvable(source, data)
            native.merge_yaml(data, source.name)
            from translator.dialects import forkbatch

            entry = forkbatch.hydra_entry_naming(source)
            if entry is not None and not entry.endswith(os.path.join("verl", "trainer", "main_ppo.py")):
                # the project's own entry composes this config (python train.py --config-name base): it runs
                native.launch, native.fork_entry = (entry, None), True
                forkbatch.apply_entry_overrides(
                    self.name, source, native.launch, KNOWN_KEYS, native.values, native.origins, notes
                )
                shown = os.path.relpath(entry, os.path.dirname(os.path.abspath(source.name)))
                forkbatch.null_numbers_unknown(native.values, DEFAULTS, shown, notes)
        else:
            self._collect_script(source, options, native, notes)
            if native.launch is not None and native.fork_entry:
                from translator.dialects import forkbatch

                forkbatch.apply_entry_overrides(
                    self.name, source, native.launch, KNOWN_KEYS, native.values, native.origins, notes
                )
        lookup_env = dict(options.env)

        def lookup(key: str) -> Any:
            if key in native.values:
                return native.values[key]
            return DEFAULTS.get(key, UNRESOLVED)

        for key, value in list(native.values.items()):
            native.values[key] = resolve_interpolations(value, lookup, lookup_env)
        return native

    def _collect_script(self, source: Source, options: ReadOptions, native: NativeVerl, notes: NoteList) -> None:
        script = read_script(source, options.env, notes)
        command = None
        launches = [c for c in script.commands if _entry_module(unwrap_command(c.argv))]
        for candidate in launches[:1]:
            argv = unwrap_command(candidate.argv)
            module = _entry_module(argv)
            if module:
                command, entry_argv = candidate, argv[argv.index(module) + 1 :]
                from translator.dialects.forkbatch import installed_copy

                native.launch = (
                    module,
                    installed_copy(
                        source, candidate.cwd, module, options.copy_dir, exported(script, candidate, "PYTHONPATH")
                    ),
                )
                native.entry = (
                    "fully_async" if FULLY_ASYNC_ENTRY.fullmatch(module) else ENTRY_MODULES.get(module, "core")
                )
                if native.entry == "fully_async" and not re.fullmatch(
                    r"(verl\.experimental|recipe|verl\.recipe)\.fully_async_policy\.fully_async_main", module
                ):
                    notes.warning(
                        "framework.fork",
                        f"{source.name}:{candidate.line}: '{module}' is not verl's own "
                        "entry point; it is read as verl's fully asynchronous trainer",
                    )
                elif (
                    native.entry != "fully_async"
                    and module not in ENTRY_MODULES
                    and not module.endswith("verl/trainer/main_ppo.py")
                ):
                    notes.warning(
                        "framework.fork",
                        f"{source.name}:{candidate.line}: '{module}' is not verl's own "
                        "entry point; it is read with verl.trainer.main_ppo's semantics, and keys it adds "
                        "are reported as unknown to verl",
                    )
                    native.fork_entry = True
                break
        if command is None:
            raise ConfigError(
                "no verl launch command found",
                file=source.name,
                hint="expected a line like 'python3 -m verl.trainer.main_ppo key=value ...'",
            )
        require_resolved(command, source)
        note_launch(notes, source, command, launches)
        # verl/utils/tracking.py@v0.9.1 passes os.environ["WANDB_ENTITY"] to wandb.init: the script's export counts.
        native.wandb_entity = exported(script, command, "WANDB_ENTITY")
        origin = f"{source.name}:{command.line}"
        config_path: str | None = None
        words = iter(entry_argv)
        for word in words:
            flag, _, inline = word.partition("=")
            if flag in ("--config-path", "-cp", "--config-name", "-cn", "--config-dir", "-cd"):
                value = inline or next(words, "")
                if flag in ("--config-path", "-cp", "--config-dir", "-cd"):
                    config_path = value
                else:
                    native.config_name = value.removesuffix(".yaml")
                continue
            override = parse_override(word)
            if override is None and word[:1].isspace():
                refuse_escaped_space(word, origin)  # `\ #` at a line's end: the command ended on that line
            if override is None and symbolic_names(word) and not word.partition("=")[1]:
                native.unknown_words.append(word)  # an unset variable, a branch-dependent command: any override
                continue
            if override is None:
                if native.fork_entry and word.startswith("-"):
                    native.entry_options.append(word)
                notes.warning(
                    "keys.unrecognised-argument",
                    f"{origin}: '{word}' is not a Hydra override; ignored",
                    source_keys=[word],
                )
                continue
            if override.key.startswith("hydra."):
                continue
            if override.key == "model_engine":
                native.megatron = override.value == "megatron"
                continue
            if override.op == "~":
                native.values.pop(override.key, None)
                continue
            if override.op == "+":
                native.appended[override.key] = origin
            elif not override.op:
                native.plain[override.key] = origin
            native.set(override.key, override.value, origin)
        if native.config_name and "megatron" in native.config_name:
            native.megatron = True
        if native.config_name and native.config_name not in _STANDARD_CONFIGS:
            self._load_user_config(source, config_path, native, notes)

    def _load_user_config(self, source: Source, config_path: str | None, native: NativeVerl, notes: NoteList) -> None:
        relative = f"{config_path or '.'}/{native.config_name}.yaml"
        try:  # a --config-path below the author's checkout is the project's folder (sibling_in_project)
            base = sibling_in_project(source, relative, "config (--config-path, --config-name)")
        except ConfigError:
            notes.warning(
                "input.config-not-found",
                f"--config-name {native.config_name}: '{relative}' was not found, so the values it sets "
                "are unknown; verl defaults are assumed for them",
                source_keys=["--config-name"],
            )
            return
        overrides = dict(native.values), dict(native.origins)
        native.values.clear()
        data = load_yaml_mapping(base)
        _refuse_unresolvable(base, data)
        native.merge_yaml(data, base.name)
        native.values.update(overrides[0])
        native.origins.update(overrides[1])

    def _version(self, native: NativeVerl, explicit: str | None, notes: NoteList) -> str:
        if explicit:
            return self.resolve_version(explicit)
        keys = set(native.values)
        newest_key = max(
            (KEY_SINCE[k] for k in keys if k in KEY_SINCE and k not in native.appended),
            key=lambda version: version_key(version) or (),
            default="0.1",
        )
        if f"{ROLLOUT}.name" not in keys and not at_least(newest_key, "0.6.1") and native.config_name is None:
            version, why = (
                "0.5.0",
                (
                    "actor_rollout_ref.rollout.name is not set, which verl requires from 0.6.1 on "
                    "(it defaulted to vllm before), and no key of a later release is"
                ),
            )
        elif keys & set(DEPRECATED_GLOBAL_MICRO) or "trainer.use_legacy_worker_impl" in keys:
            version, why = "0.7.1", "the deprecated global micro-batch keys are honoured only up to 0.7"
        elif keys & {"data.sampler.class_path", f"{ROLLOUT}.skip_rollout"} and not keys & native.appended.keys():
            version, why = "0.7.1", "data.sampler.* and rollout.skip_rollout were removed in 0.8.0"
        elif "data.gen_batch_size" in native.appended:
            version, why = "0.8.0", "'+data.gen_batch_size' appends a key that 0.9 already has"
        elif any(k.startswith(f"{ROLLOUT}.skip.") for k in keys - native.appended.keys()):
            version, why = "0.8.0", "rollout.skip.* exists in 0.8.0 only (0.9 moved it to skip.rollout.*)"
        else:
            version, why = self.default_version, "the newest known release"
        notes.info("version.assumed", f"assumed verl {version}: {why}; pass --from verl@VERSION to choose")
        return version

    def _account(self, values: Values, native: NativeVerl, version: str, spec: RunSpec, notes: NoteList) -> None:
        from translator.native_schemas import schema_for

        # Where the version's own key schema exists, it judges unknown keys (translator/native_schemas.py);
        # rlconf's short list of keys only catches typos for the versions without one.
        own_list = schema_for(self.name, version) is None
        for key, value in values.unused().items():
            appended = key in native.appended
            spec.extras.append(Extra(self.name, ("+" if appended else "") + key, value))
            if own_list and key not in KNOWN_KEYS and not appended:
                guess = closest_key(key, KNOWN_KEYS)
                if guess and guess != key:
                    notes.warning(
                        "keys.unknown",
                        f"'{key}' is not a verl {version} key; did you mean '{guess}'?",
                        source_keys=[key],
                    )
        for key in native.values:
            since, until = KEY_SINCE.get(key), KEY_UNTIL.get(key)
            own = native.entry == "fully_async" and key in FULLY_ASYNC_DEFAULTS  # in fully_async_ppo_trainer.yaml
            if since and not at_least(version, since) and key not in native.appended and not own:
                notes.warning(
                    "keys.unknown-in-version",
                    f"'{key}' does not exist before verl {since}; {version} rejects it unless written as '+{key}'",
                    source_keys=[key],
                )
            if until and newer_than(version, until):
                notes.info("keys.deprecated", f"'{key}' was last a verl key in {until}", source_keys=[key])
            new, why = renamed_for(key, version)
            if new != key and key not in native.appended:
                notes.warning(
                    "keys.renamed",
                    f"'{key}' is '{new}' in verl {version}, whose config has no '{key}' "
                    f"(Hydra rejects the override){why}",
                    source_keys=[key],
                    target_keys=[new],
                )
            for old, last, why in REMOVED:
                if key == old and newer_than(version, last) and key not in native.appended:
                    notes.warning(
                        "keys.removed",
                        f"'{old}' was last a verl key in {last}; verl {version}'s config "
                        f"has no such key (Hydra rejects the override): {why}",
                        source_keys=[key],
                    )

    # ---------------------------------------------------------------- writing
    def write(self, spec: RunSpec, version: str, notes: NoteList) -> dict[str, str]:
        if self.writable(version) != version:
            raise ConfigError(
                f"rlconf reads verl {version} but writes verl {self.writes_from} and newer",
                hint=f"pass --to verl@{self.writes_from} or a newer version",
            )
        overrides, megatron = _Writer(spec, version, notes).overrides()
        lines = [
            "#!/usr/bin/env bash",
            f"# verl {version} launch script written by rlconf from a {source_label(spec)} config.",
            "# Units: data.train_batch_size and ppo_mini_batch_size count prompts (verl multiplies them by",
            "# rollout.n); *_micro_batch_size_per_gpu counts samples per data-parallel rank.",
            *(f"#   {line}" for line in plan_summary(spec)),
            "set -x",
            "",
        ]
        if spec.logging.entity:  # no config key: verl/utils/tracking.py@v0.9.1 hands WANDB_ENTITY to wandb.init
            lines.append(env_assignment("WANDB_ENTITY", spec.logging.entity, spec.shell_variables))
        command = ["python3 -m verl.trainer.main_ppo"]
        if megatron and not at_least(version, "0.8.0"):
            command.append("--config-path=config --config-name=ppo_megatron_trainer")
        command.extend(override_word(key, value, version, spec.shell_variables) for key, value in overrides.items())
        command.append('"$@"')
        lines.append(" \\\n    ".join(command))
        return {"launch.sh": "\n".join(lines) + "\n", **requirements("verl", [("verl", version)])}


def _whole(value: Any) -> int | None:
    """A whole number written as one (int, '12', 12.0), else None."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value  # exact, however long (float() of a 400-digit int overflows)
    try:
        number = float(value) if isinstance(value, (float, str)) else None
    except (ValueError, OverflowError):
        return None
    return int(number) if number is not None and math.isfinite(number) and number.is_integer() else None


def _entry_module(argv: list[str]) -> str | None:
    for i, word in enumerate(argv):
        if (
            word == "-m"
            and i + 1 < len(argv)
            and (
                argv[i + 1] in ENTRY_MODULES
                or FORK_ENTRY.fullmatch(argv[i + 1])
                or FULLY_ASYNC_ENTRY.fullmatch(argv[i + 1])
            )
        ):
            return argv[i + 1]
        # verl's own file, or an example's copy of it that takes the same overrides (main_ppo_split.py)
        if word.endswith("verl/trainer/main_ppo.py") or re.fullmatch(r"(.*/)?main_ppo\w*\.py", word):
            return word
    # Any other module or file python runs with verl's overrides (a fork's own trainer): read as verl's, with a
    # framework.fork warning from the caller since the entry point is not verl's own.
    index = program_index(argv)
    return argv[index] if index is not None and program_arguments("verl", argv, index) else None


REWARD_SIGNATURE = "compute_score(data_source, solution_str, ground_truth, extra_info)"
DEFAULT_SCORER = "verl:default_compute_score"
# trainer.logger backends (verl/utils/tracking.py Tracking.supported_backend@v0.9.1)
LOGGERS = (
    "wandb",
    "mlflow",
    "swanlab",
    "vemlp_wandb",
    "tensorboard",
    "console",
    "clearml",
    "trackio",
    "file",
)  # verl's data_source-dispatching scorer, as a built-in name


def reward_keys(version: str, part: str) -> tuple[str, ...]:
    """The custom reward function keys to read, newest spelling first (reward.* from 0.7)."""
    old = f"custom_reward_function.{part}"
    return (f"reward.{old}", old) if at_least(version, "0.7.1") else (old,)


def reward_model_keys(version: str) -> tuple[str, str]:
    """(switch, model path) of the reward model: reward.reward_model.* with model_path from 0.7."""
    if at_least(version, "0.7.1"):
        return "reward.reward_model.enable", "reward.reward_model.model_path"
    return "reward_model.enable", "reward_model.model.path"


def data_files(value: Any) -> list[str] | None:
    """data.train_files / val_files: one path or a list of paths (RLHFDataset reads each as parquet)."""
    if value is None or value == "":
        return None
    items = value if isinstance(value, (list, tuple)) else [value]
    return [str(item) for item in items]


_FILE_SUFFIXES = (".parquet", ".json", ".jsonl", ".csv", ".arrow", ".txt")


def looks_like_hub_id(source: str) -> bool:
    """'org/name' with no file extension and no path prefix: a Hub dataset id, not a file."""
    return (
        source.count("/") == 1
        and not source.startswith(("/", ".", "~", "$", "hdfs:"))
        and not source.lower().endswith(_FILE_SUFFIXES)
    )


def renamed_for(key: str, version: str) -> tuple[str, str]:
    """The name a release gives a key verl renamed (RENAMES, followed forwards for a newer release and backwards
    for an older one), with what to tell about it; the key itself when it was not renamed."""
    why = ""
    for old, new, since, reason in RENAMES:  # forwards, in release order
        if key == old and at_least(version, since):
            key, why = new, reason or why
    for old, new, since, _ in reversed(RENAMES):  # backwards
        if key == new and not at_least(version, since):
            key = old
    return key, why


def _hydra_stops(origin: str, message: str, hint: str) -> None:
    """ConfigError at the override's ``origin`` ('file:line')."""
    file, _, line = origin.rpartition(":")
    raise ConfigError(message, file=file, line=int(line) if line.isdigit() else None, hint=hint)


def _set_in(tree: dict[str, Any], key: str) -> bool:
    """Whether the dotted ``key`` certainly holds a value in the composed config ``tree``: Hydra 1.3 refuses to
    append it with '+' then, and appends over a null (hydra-core 1.3.8, config_loader_impl.py:370-380:
    ``OmegaConf.select(cfg, key) is None``). A missing value (``???``) or an interpolation is not judged."""
    node: Any = tree
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return node is not None and not (isinstance(node, str) and (node == "???" or "${" in node))


def _absent(tree: dict[str, Any], key: str) -> bool:
    """Whether the dotted ``key`` is certainly not in the composed config ``tree``: a mapping on its path lacks the
    next part, or a part on it holds null or a plain value (Hydra 1.3 refuses `a.b.c=1` where `a.b` is null or 1,
    "Could not override 'a.b.c'"); an interpolation there (``${...}``, which may resolve to a mapping) is not
    judged."""
    node: Any = tree
    for part in key.split("."):
        if isinstance(node, str) and "${" in node:
            return False
        if not isinstance(node, dict):
            return True
        if part not in node:
            return True
        node = node[part]
    return False


def defaults_for(version: str) -> dict[str, Any]:
    defaults = dict(DEFAULTS)
    for key, changes in DEFAULT_CHANGES.items():
        for since, value in changes:
            if at_least(version, since):
                defaults[key] = value
    if not at_least(version, "0.4.1"):
        for key in ("algorithm.use_kl_in_reward", f"{ACTOR}.clip_ratio_low", f"{ACTOR}.clip_ratio_high"):
            defaults.pop(key, None)
    return defaults


KNOWN_KEYS = frozenset(DEFAULTS) | frozenset(KEY_SINCE) | frozenset(COMMON_KEYS) | frozenset(DEPRECATED_GLOBAL_MICRO)


def override_word(key: str, value: Any, version: str, live: Collection[str] = ()) -> str:
    """``key=value`` as one shell word, with '+' where the version's config lacks the key (Hydra rejects plain
    overrides of absent keys and '+' for present ones). Extras read as '+key' keep their '+' unless rlconf knows
    the key. ``live``: the source shell script's unset variables (see :func:`shell_word`)."""
    bare = key.removeprefix("+")
    if key == "model_engine":
        prefix = ""
    elif bare in KNOWN_KEYS:
        since = KEY_SINCE.get(bare)
        prefix = "+" if since and not at_least(version, since) else ""
    else:
        prefix = "+" if key.startswith("+") else ""
    return hydra_override(prefix + bare, value, live)


class _Interpreter:
    """Turns native verl values into the canonical model, with derivations and notes."""

    def __init__(self, values: Values, native: NativeVerl, version: str, spec: RunSpec, notes: NoteList) -> None:
        self.v, self.native, self.version, self.spec, self.notes = values, native, version, spec, notes
        self.legacy_workers = (
            not at_least(version, "0.8.0") and values.get("trainer.use_legacy_worker_impl", "auto") != "disable"
        )
        # verl 0.1's fsdp_workers multiplies the global micro-batches by rollout.n, as it does the mini-batch.
        self.micro_counts_prompts = not at_least(version, "0.2.0")
        self.mode = self.trainer_mode()
        self.sync_steps = 1  # parameter_sync_step: local updates (LR scheduler steps) per step
        self.filtered_by_own_trainer = False  # group filtering of a copy's own trainer decides the step

    def trainer_mode(self) -> str | None:
        """The v1 trainer's mode (0.9: trainer.use_v1, default true), None for the RayPPOTrainer loop
        (before 0.9, use_v1=False: main_ppo_v0.py@v0.9.1, or the DAPO recipe's entry point)."""
        v = self.v
        if not at_least(self.version, "0.9.0") or self.native.entry in ("dapo", "fully_async"):
            return None  # the DAPO recipe runs its own RayDAPOTrainer loop
        use_v1 = v.flag("trainer.use_v1")
        if use_v1 is False:
            if V1_MODE in v:
                v.consume(V1_MODE)
                self.notes.warning(
                    "semantics.ignored-key",
                    f"{V1_MODE} {v.values[V1_MODE]} is read by the v1 trainer "
                    "only; trainer.use_v1=False runs the legacy synchronous loop (main_ppo_v0.py)",
                    source_keys=[V1_MODE, "trainer.use_v1"],
                )
            return None
        mode = str(v.get(V1_MODE))
        if v._symbolic(V1_MODE, mode):
            return mode  # depends on a variable the script never sets: the asynchrony is unknown
        if mode not in V1_MODES:
            # verl/trainer/ppo/v1/trainer_base.py@v0.9.1 get_trainer_cls
            self.notes.error(
                "keys.invalid-value",
                f"Unknown trainer '{mode}'. Available trainers: {', '.join(sorted(V1_MODES))}.",
                source_keys=[V1_MODE],
            )
        return mode

    def run(self) -> None:
        self.topology()
        self.batch()
        self.algorithm()
        self.critic()
        self.read_non_plan_sections()
        self.spec.plan.complete()
        own = self.spec.derivations.get("plan.optimizer_steps_per_step")
        describe_mini_batch_plan(self.spec)
        if self.sync_steps > 1 and own is not None:
            self.spec.derivations["plan.optimizer_steps_per_step"] = own

    def own_group_filter(self) -> str | None:
        """Where group filtering that a copy of verl runs itself is switched on, in words (verl's main_ppo before 0.9
        has none): the copy's own config defines it, or the launch adds it ('+algorithm.filter_groups.enable=True')
        for the copy's trainer; None when it is off or the run is not such a copy."""
        config = self.native.entry_config
        if not (config and self.v.flag("algorithm.filter_groups.enable")):
            return None
        if any(key.startswith("algorithm.filter_groups.") for key in config.keys):
            return f"the launched copy's config ({config.where}) defines it"
        if any(key.startswith("algorithm.filter_groups.") for key in self.native.appended):
            return "the launch adds it (+algorithm.filter_groups) for the launched copy's trainer"
        return None

    def note_origin(self, field: str, text: str, *keys: str) -> None:
        origin = "config" if any(k in self.v for k in keys) else "default"
        self.spec.derivations[field] = Derivation(text, list(keys), origin)

    def topology(self) -> None:
        v, t = self.v, self.spec.topology
        t.gpus_per_node = v.positive_int("trainer.n_gpus_per_node")
        t.nodes = v.positive_int("trainer.nnodes")
        assert t.gpus_per_node is not None and t.nodes is not None  # verl's defaults set both
        t.training_gpus = t.gpus_per_node * t.nodes
        t.rollout_gpus = 0  # actor, rollout and reference share one pool of GPUs
        t.rollout_tensor_parallel_size = v.positive_int(f"{ROLLOUT}.tensor_model_parallel_size")
        gpus = t.training_gpus
        gpu_text = f"n_gpus_per_node {t.gpus_per_node} × nnodes {t.nodes}"
        megatron = self.native.megatron or v.get(f"{ACTOR}.strategy") == "megatron"
        if megatron:
            t.training_backend = "megatron"
            t.tensor_parallel_size = v.positive_int(f"{ACTOR}.megatron.tensor_model_parallel_size")
            t.pipeline_parallel_size = v.positive_int(f"{ACTOR}.megatron.pipeline_model_parallel_size")
            t.context_parallel_size = v.positive_int(f"{ACTOR}.megatron.context_parallel_size")
            # verl's defaults set all three (1 each)
            assert t.tensor_parallel_size is not None and t.pipeline_parallel_size is not None
            assert t.context_parallel_size is not None
            model_parallel = t.tensor_parallel_size * t.pipeline_parallel_size * t.context_parallel_size
            if gpus % model_parallel:
                self.notes.warning(
                    "topology.indivisible",
                    f"n_gpus ({gpus}) must be divisible by model_parallel_size × context_parallel_size "
                    f"({model_parallel}); verl rejects this",
                )
            dp = gpus // model_parallel
            if dp == 0:
                raise v._error(
                    f"{ACTOR}.megatron.tensor_model_parallel_size",
                    f"n_gpus ({gpus}) must be divisible by model_parallel_size "
                    f"({t.tensor_parallel_size * t.pipeline_parallel_size}) times context_parallel_size "
                    f"({t.context_parallel_size}) (verl's validate_config): {gpu_text} GPUs leave no "
                    "data-parallel rank",
                    f"use a multiple of {model_parallel} GPUs or smaller Megatron TP/PP/CP sizes",
                )
            self.spec.plan.data_parallel_size = dp
            self.note_origin(
                "plan.data_parallel_size",
                f"{gpu_text} GPUs ÷ (megatron TP {t.tensor_parallel_size} × PP {t.pipeline_parallel_size}"
                f" × CP {t.context_parallel_size})",
                "trainer.n_gpus_per_node",
                "trainer.nnodes",
                f"{ACTOR}.megatron.tensor_model_parallel_size",
                f"{ACTOR}.megatron.pipeline_model_parallel_size",
            )
            return
        t.training_backend = "fsdp"
        old_key, new_key = (
            f"{ACTOR}.ulysses_sequence_parallel_size",
            f"{ACTOR}.fsdp_config.ulysses_sequence_parallel_size",
        )
        old_sp = v.positive_int(old_key)
        new_sp = v.positive_int(new_key) if at_least(self.version, "0.6.1") else 1
        # 0.9 copies the deprecated key into fsdp_config only when it is > 1.
        sp, sp_key = (old_sp, old_key) if old_sp and old_sp > 1 else (new_sp or 1, new_key)
        t.sequence_parallel_size = sp
        if gpus % sp:
            self.notes.warning(
                "topology.indivisible", f"{gpus} GPUs are not divisible by the Ulysses sequence-parallel size {sp}"
            )
        if gpus < sp:
            raise v._error(
                sp_key,
                f"Ulysses sequence-parallel size {sp} exceeds the {gpus} GPUs ({gpu_text}): verl "
                f"builds a (dp, sp) device mesh of ({gpus} // {sp} = 0, {sp}) ranks and cannot start",
                f"set {sp_key} to a divisor of {gpus}",
            )
        self.spec.plan.data_parallel_size = gpus // sp
        self.note_origin(
            "plan.data_parallel_size",
            f"{gpu_text} GPUs ÷ Ulysses SP {sp}",
            "trainer.n_gpus_per_node",
            "trainer.nnodes",
            sp_key,
        )

    def batch(self) -> None:
        if self.native.entry == "fully_async":
            self.fully_async_batch()
            return
        v, plan, notes = self.v, self.spec.plan, self.notes
        n = v.positive_int(f"{ROLLOUT}.n")
        train = v.positive_int("data.train_batch_size")
        gen = v.positive_int("data.gen_batch_size")
        assert n is not None and train is not None  # verl's defaults set both
        self.rollout_n = n  # what the workers multiply the prompt-counted batch sizes by
        plan.samples_per_prompt = n
        self.note_origin("plan.samples_per_prompt", f"rollout.n {n}", f"{ROLLOUT}.n")
        plan.prompts_per_step = train
        self.note_origin("plan.prompts_per_step", f"data.train_batch_size {train} prompts", "data.train_batch_size")
        if f"{ROLLOUT}.n_agent" in v:
            self.agent_copies(train, n)
        if gen is not None:
            self.gen_batch(train, gen)
        elif self.mode is None and self.native.entry != "dapo" and self.own_group_filter():
            # without data.gen_batch_size a round draws one dataloader batch, data.train_batch_size prompts
            self.gen_batch(train, train)
        mini = v.positive_int(f"{ACTOR}.ppo_mini_batch_size")
        dp = plan.data_parallel_size
        assert mini is not None and dp is not None  # a verl default; topology() sets dp
        samples_per_mini = mini * n
        if self.legacy_workers and samples_per_mini % dp:
            local = samples_per_mini // dp
            notes.warning(
                "batch.floor-division",
                f"ppo_mini_batch_size {mini} × n {n} = {samples_per_mini} samples is not divisible by "
                f"{dp} data-parallel ranks; verl ≤ 0.7 floors it to {local} per rank, so an optimizer "
                f"step uses {local * dp} samples",
                source_keys=[f"{ACTOR}.ppo_mini_batch_size"],
            )
            plan.samples_per_optimizer_step = local * dp
        else:
            plan.samples_per_optimizer_step = samples_per_mini
        self.note_origin(
            "plan.samples_per_optimizer_step",
            f"ppo_mini_batch_size {mini} prompts × rollout.n {n}",
            f"{ACTOR}.ppo_mini_batch_size",
            f"{ROLLOUT}.n",
        )
        # Compared in samples: a fork that multiplies the step's prompts (Search-R1's rollout.n_agent) but not the
        # mini-batch makes a step of prompts × samples_per_prompt samples, split by ppo_mini_batch_size × n.
        assert plan.prompts_per_step is not None and plan.samples_per_prompt is not None  # set above
        step_samples = plan.prompts_per_step * plan.samples_per_prompt
        if step_samples < samples_per_mini and not at_least(self.version, "0.3.0"):
            self.whole_step_is_one_mini_batch(mini)
        elif step_samples < samples_per_mini:
            notes.warning(
                "batch.mini-larger-than-step",
                f"train_batch_size ({plan.prompts_per_step}) must be >= actor.ppo_mini_batch_size ({mini})",
                source_keys=["data.train_batch_size", f"{ACTOR}.ppo_mini_batch_size"],
            )
        plan.epochs_per_step = v.positive_int(f"{ACTOR}.ppo_epochs")
        self.note_origin("plan.epochs_per_step", f"ppo_epochs {plan.epochs_per_step}", f"{ACTOR}.ppo_epochs")
        if (
            isinstance(plan.epochs_per_step, int)
            and plan.epochs_per_step > 1
            and not at_least(self.version, "0.3.0")
            and self.spec.topology.training_backend == "fsdp"
        ):
            notes.warning(
                "semantics.ignored-key",
                f"ppo_epochs {plan.epochs_per_step} is ignored by the FSDP actor of verl {self.version} "
                "(dp_actor.update_policy makes one pass; the epoch loop came in 0.3.0), so each step makes "
                "1 pass; a vendored copy that added the loop (for _ in range(self.config.ppo_epochs) in "
                f"verl/workers/actor/dp_actor.py) makes {plan.epochs_per_step}",
                source_keys=[f"{ACTOR}.ppo_epochs"],
            )
            plan.epochs_per_step = 1
            self.note_origin(
                "plan.epochs_per_step",
                "1 pass: verl before 0.3.0's FSDP actor ignores ppo_epochs",
                f"{ACTOR}.ppo_epochs",
            )
        if self.mode is not None:
            self.local_updates(train, mini)
        plan.total_steps = v.positive_int("trainer.total_training_steps")
        if plan.total_steps is not None:
            self.note_origin(
                "plan.total_steps", f"trainer.total_training_steps {plan.total_steps}", "trainer.total_training_steps"
            )
        self.micro_batch()

    def fully_async_batch(self) -> None:
        """verl's fully asynchronous trainer (fully_async_policy/*@v0.9.1, docs/frameworks/verl.md §2.7). The
        rollouter feeds the message queue one prompt at a time (its dataloader batch is data.gen_batch_size 1),
        each queue item one prompt repeated actor_rollout_ref.rollout.n times (detach_utils.py:70); one trainer
        step (fit_step) takes required_samples = ppo_mini_batch_size × async_training.require_batches items
        (fully_async_trainer.py:158-159, :402) and trains on them as one batch: require_batches mini-batches ×
        ppo_epochs optimizer steps. That trainer step is rlconf's step. data.train_batch_size is not a batch here:
        the rollouter asserts it is 0 (fully_async_rollouter.py:351, a check rule)."""
        v, plan, notes = self.v, self.spec.plan, self.notes
        n = v.positive_int(f"{ROLLOUT}.n")
        assert n is not None  # a verl default
        self.rollout_n = n
        plan.samples_per_prompt = n
        self.note_origin(
            "plan.samples_per_prompt",
            f"actor_rollout_ref.rollout.n {n} (each queued prompt is repeated n times: detach_utils.py:70)",
            f"{ROLLOUT}.n",
        )
        v.consume("data.train_batch_size")  # asserted 0 by the rollouter (check rule verl.fully-async-train-batch)
        v.consume("data.gen_batch_size")  # asserted 1 (check rule verl.fully-async-gen-batch)
        top_n = v.consume("rollout.n")
        if "rollout.n" in v and top_n != v.values.get(f"{ROLLOUT}.n", v.defaults.get(f"{ROLLOUT}.n")):
            notes.warning(
                "semantics.ignored-key",
                f"rollout.n {top_n} is read by nothing in verl's fully "
                f"asynchronous trainer; groups have actor_rollout_ref.rollout.n {n} samples "
                "(detach_utils.py:70)",
                source_keys=["rollout.n"],
                target_keys=[f"{ROLLOUT}.n"],
            )
        mini = v.positive_int(f"{ACTOR}.ppo_mini_batch_size")
        batches = v.positive_int("async_training.require_batches")
        if isinstance(mini, int) and isinstance(batches, int):
            plan.prompts_per_step = mini * batches
        keys = [f"{ACTOR}.ppo_mini_batch_size", "async_training.require_batches"]
        origin = "config" if any(k in v for k in keys) else "default"
        self.spec.derivations["plan.prompts_per_step"] = Derivation(
            f"one trainer step's required_samples = ppo_mini_batch_size {fmt(mini)} × async_training.require_batches "
            f"{fmt(batches)} prompts (fully_async_trainer.py:159)",
            keys,
            origin,
        )
        if isinstance(mini, int) and isinstance(n, int):
            plan.samples_per_optimizer_step = mini * n
        self.note_origin(
            "plan.samples_per_optimizer_step",
            f"ppo_mini_batch_size {fmt(mini)} prompts × rollout.n {fmt(n)}",
            f"{ACTOR}.ppo_mini_batch_size",
            f"{ROLLOUT}.n",
        )
        plan.epochs_per_step = v.positive_int(f"{ACTOR}.ppo_epochs")
        self.note_origin("plan.epochs_per_step", f"ppo_epochs {plan.epochs_per_step}", f"{ACTOR}.ppo_epochs")
        plan.total_steps = None  # the rollouter's total_rollout_steps is min(it, dataset prompts × total_epochs)
        if "trainer.total_training_steps" in v:
            v.consume("trainer.total_training_steps")
            notes.warning(
                "semantics.ignored-key",
                "trainer.total_training_steps is read by nothing in verl's fully "
                "asynchronous trainer: the run ends when the rollouter has fed rollout.total_rollout_steps "
                "prompts (or the dataset's prompts × trainer.total_epochs, the smaller)",
                source_keys=["trainer.total_training_steps", "rollout.total_rollout_steps"],
            )
        # Read for the note only (consume: not recorded as reads of a canonical field); validated by asynchrony().
        cap, sync = (
            _whole(v.consume(k)) for k in ("rollout.total_rollout_steps", "async_training.trigger_parameter_sync_step")
        )
        prompts = fmt(plan.prompts_per_step) if plan.prompts_per_step is not None else "(unknown)"
        step_text = (
            f"a step is one trainer step (fit_step) of verl's fully asynchronous trainer: it takes "
            f"required_samples = ppo_mini_batch_size {fmt(mini)} × require_batches {fmt(batches)} = "
            f"{prompts} prompts ({prompts} × n {fmt(n)} samples) from "
            "the message queue, which the rollouter fills one prompt at a time on its own GPUs, and trains "
            f"on them in require_batches {fmt(batches)} mini-batch(es) × ppo_epochs "
            f"{fmt(plan.epochs_per_step)}; the rollouter receives new weights every "
            f"trigger_parameter_sync_step {fmt(sync)} trainer steps. data.train_batch_size (0) is not a "
            "batch in this trainer"
        )
        if isinstance(cap, int):
            steps = cap // plan.prompts_per_step if isinstance(plan.prompts_per_step, int) else None
            step_text += (
                f". The run feeds at most rollout.total_rollout_steps {cap} prompts (fewer when the "
                "dataset's prompts × trainer.total_epochs is smaller: fully_async_rollouter.py:405-407)"
                + (f", so at most {steps} trainer steps" if steps is not None else "")
                + "; the step count depends on the dataset and is left unknown"
            )
        notes.info(
            "semantics.fully-async",
            step_text,
            source_keys=[
                f"{ACTOR}.ppo_mini_batch_size",
                "async_training.require_batches",
                "async_training.trigger_parameter_sync_step",
                "data.train_batch_size",
            ],
        )
        self.micro_batch()

    def whole_step_is_one_mini_batch(self, mini: int) -> None:
        """verl before 0.3.0 does not check train_batch_size >= ppo_mini_batch_size: each rank's share of the
        step is split into mini-batches that are larger than it, so the step is one mini-batch (dp_actor
        ``batch.split(ppo_mini_batch_size)``)."""
        plan = self.spec.plan
        assert plan.prompts_per_step is not None and plan.samples_per_prompt is not None  # batch() set them
        step_samples = plan.prompts_per_step * plan.samples_per_prompt
        configured, plan.samples_per_optimizer_step = plan.samples_per_optimizer_step, step_samples
        self.note_origin(
            "plan.samples_per_optimizer_step",
            f"all {step_samples} samples of the step: ppo_mini_batch_size {mini} prompts "
            f"({configured} samples) exceeds them",
            f"{ACTOR}.ppo_mini_batch_size",
            "data.train_batch_size",
        )
        self.notes.warning(
            "batch.mini-larger-than-step",
            f"ppo_mini_batch_size {mini} prompts ({configured} samples) exceeds the step's "
            f"{step_samples} samples; verl {self.version} does not check this, so each step is one "
            f"mini-batch of {step_samples} samples and one optimizer step, and the loss is "
            "still divided by the gradient-accumulation count computed from the configured "
            "mini-batch (a smaller gradient)",
            source_keys=["data.train_batch_size", f"{ACTOR}.ppo_mini_batch_size"],
        )

    def local_updates(self, train: Any, mini: Any) -> None:
        """The v1 trainer's step (trainer_base.py@v0.9.1 PPOTrainer.step): parameter_sync_step local updates, each
        sampling train_batch_size / parameter_sync_step prompts from the replay buffer and running the whole PPO
        pipeline on them (old log-probs, advantages, critic and actor updates of whole mini-batches × ppo_epochs);
        the weights reach the rollout once per step. Only separate_async has the key (default 4); the others
        read 1 (trainer.v1.get(mode, {}).get("parameter_sync_step", 1))."""
        v, plan, notes, mode = self.v, self.spec.plan, self.notes, self.mode
        key = f"{V1}.{mode}.parameter_sync_step"
        steps = v.positive_int(key, 1)
        if not isinstance(steps, int) or not isinstance(train, int) or not isinstance(mini, int):
            return
        self.sync_steps = steps
        if steps == 1:
            return
        if mode == "separate_async" and train != steps * mini:
            notes.warning(
                "batch.indivisible",
                "train_batch_size must equal parameter_sync_step * ppo_mini_batch_size "
                f"in separate async training, but got train_batch_size={train}, parameter_sync_step="
                f"{steps}, ppo_mini_batch_size={mini}",
                source_keys=["data.train_batch_size", key, f"{ACTOR}.ppo_mini_batch_size"],
            )
        if train % steps:
            notes.warning(
                "batch.indivisible",
                f"train_batch_size ({train}) must be divisible by parameter_sync_step ({steps})",
                source_keys=["data.train_batch_size", key],
            )
            return
        local = train // steps
        minis = math.ceil(local / mini)  # the v1 trainer pads a batch to whole mini-batches
        epochs = plan.epochs_per_step or 1
        plan.optimizer_steps_per_step = steps * minis * epochs
        self.spec.derivations["plan.optimizer_steps_per_step"] = Derivation(
            f"parameter_sync_step {steps} local updates × ceil({local} prompts ÷ ppo_mini_batch_size {mini}) "
            f"mini-batch{'es' if minis > 1 else ''} × ppo_epochs {epochs}",
            [key, "data.train_batch_size", f"{ACTOR}.ppo_mini_batch_size", f"{ACTOR}.ppo_epochs"],
            "config" if key in v else "default",
        )
        notes.info(
            "semantics.local-updates",
            f"trainer_mode {mode}: each step trains in parameter_sync_step {steps} local updates of {local} "
            f"prompts ({local * (plan.samples_per_prompt or 1)} samples) taken from the replay buffer, each "
            f"with its own advantages and {minis * epochs} optimizer step{'s' if minis * epochs > 1 else ''} "
            f"(old log-probs from the weights at the start of the step); the rollout receives new weights "
            "once per step",
            source_keys=[key, "data.train_batch_size"],
        )

    def agent_copies(self, train: Any, n: Any) -> None:
        """Search-R1's fork adds rollout.n_agent: its ray_trainer repeats each prompt n_agent times before
        generation; with do_search (its default) the copies keep the prompt's index as their group id, so a group
        holds n_agent × n samples, otherwise each copy is a prompt of its own. The workers still multiply the
        mini-batch by rollout.n only."""
        v, plan = self.v, self.spec.plan
        copies = v.positive_int(f"{ROLLOUT}.n_agent")
        if not isinstance(copies, int) or not isinstance(n, int) or not isinstance(train, int) or copies == 1:
            return
        grouped = v.flag("do_search") is not False
        if grouped:
            plan.samples_per_prompt = n * copies
            self.note_origin(
                "plan.samples_per_prompt",
                f"rollout.n_agent {copies} copies × rollout.n {n} (one group per prompt: the copies share its index)",
                f"{ROLLOUT}.n_agent",
                f"{ROLLOUT}.n",
            )
        else:
            plan.prompts_per_step = train * copies
            self.note_origin(
                "plan.prompts_per_step",
                f"data.train_batch_size {train} × rollout.n_agent {copies} copies, each its own group",
                "data.train_batch_size",
                f"{ROLLOUT}.n_agent",
            )
        self.notes.warning(
            "framework.fork-key",
            f"rollout.n_agent {copies} is a fork's key (Search-R1's verl): each "
            f"prompt is generated {copies} times"
            + (" in one group" if grouped else "")
            + f"; ppo_mini_batch_size is still multiplied by rollout.n {n} only",
            source_keys=[f"{ROLLOUT}.n_agent"],
        )

    def gen_batch(self, train: int, gen: int) -> None:
        plan, notes = self.spec.plan, self.notes
        if self.native.entry == "dapo":
            self.spec.generation.prompts_per_round = gen
            self.spec.derivations["generation.prompts_per_round"] = from_config(
                f"data.gen_batch_size {gen} prompts", "data.gen_batch_size"
            )
        elif self.mode is not None and (self.mode != "sync" or self.v.flag("algorithm.filter_groups.enable")):
            # trainer_base.py@v0.9.1 _init_dataloader: async modes and group filtering refill prompt by prompt
            notes.warning(
                "semantics.ignored-key",
                f"data.gen_batch_size={gen} is overridden to 1. (verl's v1 trainer "
                "fetches single prompts in async modes and with group filtering; a step still trains on "
                f"data.train_batch_size {train} prompts)",
                source_keys=["data.gen_batch_size"],
            )
            self.spec.extras.append(Extra("verl", "data.gen_batch_size", gen))
        elif self.mode is not None:
            if train % gen:
                notes.warning(
                    "batch.indivisible",
                    f"num_prompts ({train}) must be a positive multiple of gen_batch_size ({gen})",
                    source_keys=["data.train_batch_size", "data.gen_batch_size"],
                )
            notes.info(
                "semantics.fetch-granularity",
                f"data.gen_batch_size {gen} is only the dataloader fetch size in verl 0.9; a step still "
                f"trains on data.train_batch_size {train} prompts",
                source_keys=["data.gen_batch_size"],
            )
            self.spec.extras.append(Extra("verl", "data.gen_batch_size", gen))
        elif where := self.own_group_filter():
            # read as the DAPO recipe's loop (draw data.gen_batch_size prompts a round until group filtering keeps
            # data.train_batch_size, train on those); the copy's fit is compared with that loop's statements after
            # reading (framework.fork-verified, or framework.fork-batch-code leaving the step unknown)
            self.filtered_by_own_trainer = True
            self.spec.generation.prompts_per_round = gen
            drawn = "data.gen_batch_size" if "data.gen_batch_size" in self.v else "data.train_batch_size"
            self.spec.derivations["generation.prompts_per_round"] = from_config(f"{drawn} {gen} prompts", drawn)
            notes.warning(
                "framework.fork-group-filter",
                f"algorithm.filter_groups is on, and verl's main_ppo before 0.9 has no group filter: {where}, so that "
                f"trainer decides how many of the {drawn} {gen} prompts a round draws a step trains on; "
                f"it is read as the DAPO recipe's loop, which refills until data.train_batch_size {train} prompts "
                "are kept, where the copy's fit has that loop's statements only",
                source_keys=["algorithm.filter_groups.enable", drawn],
            )
        else:
            plan.prompts_per_step = gen
            self.note_origin(
                "plan.prompts_per_step",
                f"data.gen_batch_size {gen} prompts (replaces train_batch_size {train} as the dataloader batch)",
                "data.gen_batch_size",
            )
            notes.warning(
                "semantics.gen-batch-size-replaces-train-batch",
                f"with verl.trainer.main_ppo before 0.9, data.gen_batch_size {gen} is the dataloader batch, "
                f"so each step trains on {gen} prompts, not data.train_batch_size {train}",
                source_keys=["data.gen_batch_size", "data.train_batch_size"],
            )

    def micro_batch(self) -> None:
        v, plan, notes, dp = self.v, self.spec.plan, self.notes, self.spec.plan.data_parallel_size
        assert dp is not None  # topology() sets it
        budget = self.spec.token_budget
        budget.dynamic_batching = bool(v.flag(f"{ACTOR}.use_dynamic_bsz"))
        self.logprob_micro(dp)
        per_gpu_key, global_key = f"{ACTOR}.ppo_micro_batch_size_per_gpu", f"{ACTOR}.ppo_micro_batch_size"
        per_gpu, global_micro = v.positive_int(per_gpu_key), v.positive_int(global_key)
        if budget.dynamic_batching:
            # verl packs ppo_max_token_len_per_gpu × SP tokens per micro-batch of one SP group (one DP rank).
            sp = self.spec.topology.sequence_parallel_size or 1
            per_gpu = v.positive_int(f"{ACTOR}.ppo_max_token_len_per_gpu")
            assert per_gpu is not None  # a verl default
            budget.max_tokens_per_device = per_gpu * sp
            logprob = v.positive_int(f"{ROLLOUT}.log_prob_max_token_len_per_gpu", per_gpu)
            assert logprob is not None  # defaults to per_gpu
            budget.logprob_max_tokens_per_device = logprob * sp
            self.spec.derivations["token_budget.max_tokens_per_device"] = from_config(
                f"ppo_max_token_len_per_gpu {per_gpu} tokens" + (f" × Ulysses SP {sp}" if sp > 1 else ""),
                f"{ACTOR}.ppo_max_token_len_per_gpu",
            )
            notes.info(
                "batch.token-budget",
                f"use_dynamic_bsz packs micro-batches up to {budget.max_tokens_per_device} tokens per GPU, so "
                "micro_batch_per_device and grad_accum_steps depend on sequence lengths (null)",
                source_keys=[f"{ACTOR}.use_dynamic_bsz", f"{ACTOR}.ppo_max_token_len_per_gpu"],
            )
            return
        if per_gpu is not None and global_micro is not None:
            notes.warning(
                "keys.conflict",
                f"[actor] You have set both '{global_key}' AND '{per_gpu_key}'; verl "
                "rejects this. The per-GPU value is used here",
                source_keys=[global_key, per_gpu_key],
            )
        if per_gpu is not None:
            plan.micro_batch_per_device = per_gpu
            self.note_origin(
                "plan.micro_batch_per_device", f"ppo_micro_batch_size_per_gpu {per_gpu} samples", per_gpu_key
            )
        elif global_micro is not None and self.micro_counts_prompts:
            n = self.rollout_n
            plan.micro_batch_per_device = exact(global_micro // dp * n)
            self.note_origin(
                "plan.micro_batch_per_device",
                f"ppo_micro_batch_size {global_micro} prompts (global) ÷ {dp} DP ranks × rollout.n {n}",
                global_key,
            )
            notes.info(
                "units.global-micro-batch-in-prompts",
                f"verl {self.version} counts {global_key} {global_micro} in prompts across all ranks: "
                f"fsdp_workers divides it by the {dp} data-parallel ranks and multiplies it by rollout.n "
                f"{n} → {plan.micro_batch_per_device} samples per GPU",
                source_keys=[global_key],
            )
        elif global_micro is not None:
            plan.micro_batch_per_device = exact(global_micro // dp)
            self.note_origin(
                "plan.micro_batch_per_device",
                f"deprecated ppo_micro_batch_size {global_micro} samples (global) ÷ {dp} DP ranks",
                global_key,
            )
            notes.warning(
                "units.deprecated-global-micro-batch",
                f"{global_key} {global_micro} counts samples across all ranks (not ×n); verl ≤ 0.7 "
                f"divides it by the {dp} data-parallel ranks → {global_micro // dp} per GPU"
                + (
                    ""
                    if not at_least(self.version, "0.8.0")
                    else f"; verl {self.version} no longer supports it (set {per_gpu_key})"
                ),
                source_keys=[global_key],
                target_keys=[per_gpu_key],
            )
        else:
            notes.warning(
                "keys.missing",
                f"[actor] Please set at least one of '{global_key}' or '{per_gpu_key}' "
                "if use_dynamic_bsz is not enabled",
                source_keys=[per_gpu_key],
            )
            return
        assert plan.samples_per_optimizer_step is not None  # batch() set it
        local_mini = plan.samples_per_optimizer_step // dp
        if (
            not at_least(self.version, "0.3.0")
            and isinstance(plan.micro_batch_per_device, int)
            and 0 < local_mini < plan.micro_batch_per_device
        ):
            plan.micro_batch_per_device = local_mini  # split() of a smaller mini-batch gives one micro-batch
            self.note_origin(
                "plan.micro_batch_per_device",
                f"the whole mini-batch of {local_mini} samples per rank (smaller than the configured micro-batch)",
                global_key,
                per_gpu_key,
            )
        if plan.micro_batch_per_device and local_mini % plan.micro_batch_per_device:
            notes.warning(
                "batch.indivisible",
                f"normalized ppo_mini_batch_size {local_mini} should be divisible by "
                f"ppo_micro_batch_size_per_gpu {plan.micro_batch_per_device}",
                source_keys=[f"{ACTOR}.ppo_mini_batch_size", per_gpu_key],
            )

    def logprob_micro(self, dp: int) -> None:
        v = self.v
        per_gpu = v.positive_int(f"{ROLLOUT}.log_prob_micro_batch_size_per_gpu")
        global_micro = v.positive_int(f"{ROLLOUT}.log_prob_micro_batch_size")
        v.positive_int(f"{REF}.log_prob_micro_batch_size_per_gpu")
        v.positive_int(f"{REF}.log_prob_micro_batch_size")
        if per_gpu is None and global_micro is not None:
            per_gpu = global_micro // dp * (self.rollout_n if self.micro_counts_prompts else 1)
        self.spec.generation.logprob_micro_batch_per_device = per_gpu

    def algorithm(self) -> None:
        v, a, notes, version = self.v, self.spec.algorithm, self.notes, self.version
        a.advantage_estimator = str(v.get("algorithm.adv_estimator"))
        a.advantage_std_normalization, a.advantage_normalization_scope = ADVANTAGE_NORMALISATION.get(
            a.advantage_estimator, (None, None)
        )
        if a.advantage_estimator.startswith("grpo"):
            a.advantage_std_normalization = bool(v.flag("algorithm.norm_adv_by_std_in_grpo"))
        kl_loss = bool(v.flag(f"{ACTOR}.use_kl_loss"))
        if at_least(version, "0.4.1"):
            kl_reward = bool(v.flag("algorithm.use_kl_in_reward"))
        else:
            kl_reward = not kl_loss  # ≤ 0.3: in-reward KL whenever the KL loss is off
            if kl_reward:
                notes.info(
                    "semantics.implicit-kl-in-reward",
                    "verl ≤ 0.3 applies KL in the reward whenever actor.use_kl_loss is False",
                    source_keys=[f"{ACTOR}.use_kl_loss"],
                )
        if kl_loss and kl_reward:
            a.kl_placement = "both"
            notes.warning(
                "algorithm.kl-both",
                "both in-reward KL and the KL loss are on",
                source_keys=["algorithm.use_kl_in_reward", f"{ACTOR}.use_kl_loss"],
            )
        else:
            a.kl_placement = "loss" if kl_loss else "reward" if kl_reward else "none"
        if kl_loss:
            a.kl_coef = v.number(f"{ACTOR}.kl_loss_coef")
            a.kl_estimator = self.kl_estimator(f"{ACTOR}.kl_loss_type")
        elif kl_reward:
            a.kl_coef = v.number("algorithm.kl_ctrl.kl_coef")
            a.kl_estimator = self.kl_estimator("algorithm.kl_penalty")
        else:
            a.kl_coef = 0.0  # the effective coefficient: 0 when there is no KL term
        v.consume(f"{ACTOR}.clip_ratio")  # the fallback of clip_ratio_low/high (noted above when set alone)
        if at_least(version, "0.4.1"):
            a.clip_ratio_low = v.number(f"{ACTOR}.clip_ratio_low")
            a.clip_ratio_high = v.number(f"{ACTOR}.clip_ratio_high")
            if f"{ACTOR}.clip_ratio" in v and not (
                {f"{ACTOR}.clip_ratio_low", f"{ACTOR}.clip_ratio_high"} & set(v.values)
            ):
                notes.warning(
                    "semantics.ignored-key",
                    f"actor.clip_ratio {v.consume(f'{ACTOR}.clip_ratio')} has no effect: clip_ratio_low/high "
                    f"(default 0.2) take precedence since verl 0.4",
                    source_keys=[f"{ACTOR}.clip_ratio"],
                )
        else:
            a.clip_ratio_low = a.clip_ratio_high = v.number(f"{ACTOR}.clip_ratio")
        a.clip_ratio_dual = v.number(f"{ACTOR}.clip_ratio_c")
        a.entropy_coef = v.number(f"{ACTOR}.entropy_coeff")
        a.loss_aggregation = str(v.get(f"{ACTOR}.loss_agg_mode"))
        # Legacy workers aggregate within each micro-batch; the engine (0.8+) over the whole mini-batch.
        a.loss_normalizer_scope = "micro_batch" if self.legacy_workers else "optimizer_step"
        a.policy_loss = str(v.get(f"{ACTOR}.policy_loss.loss_mode"))

    def critic(self) -> None:
        """The critic mini-batch counts samples in verl ≤ 0.3 and prompts (× n) from 0.4 (PR #853)."""
        v, c, plan = self.v, self.spec.critic, self.spec.plan
        enabled = v.flag("critic.enable") if at_least(self.version, "0.6.1") else None
        c.enabled = bool(enabled) if enabled is not None else self.spec.algorithm.advantage_estimator == "gae"
        if not c.enabled:
            return
        actor_mini = v.positive_int(f"{ACTOR}.ppo_mini_batch_size")
        mini = v.positive_int("critic.ppo_mini_batch_size", actor_mini)  # inherits the actor's by interpolation
        assert actor_mini is not None and mini is not None  # a verl default, and the critic's falls back to it
        n = plan.samples_per_prompt or 1
        if at_least(self.version, "0.4.1"):
            c.samples_per_optimizer_step = mini * n
            text = f"critic.ppo_mini_batch_size {mini} prompts × rollout.n {n}"
        else:
            c.samples_per_optimizer_step = mini
            text = f"critic.ppo_mini_batch_size {mini} samples (verl ≤ 0.3 does not multiply by n)"
            if n > 1:
                self.notes.warning(
                    "units.critic-mini-batch",
                    f"verl {self.version} counts critic.ppo_mini_batch_size in samples: {mini} samples, "
                    f"while the actor's {actor_mini} prompts are {actor_mini * n} samples (0.4 "
                    "changed the critic to prompts)",
                    source_keys=["critic.ppo_mini_batch_size"],
                )
        self.note_origin("critic.samples_per_optimizer_step", text, "critic.ppo_mini_batch_size")
        c.epochs_per_step = v.positive_int("critic.ppo_epochs", plan.epochs_per_step)
        c.micro_batch_per_device = v.positive_int("critic.ppo_micro_batch_size_per_gpu")
        global_micro = v.positive_int("critic.ppo_micro_batch_size")  # deprecated: samples, global (≤ 0.7)
        if c.micro_batch_per_device is None and global_micro is not None and plan.data_parallel_size:
            c.micro_batch_per_device = global_micro // plan.data_parallel_size
            self.note_origin(
                "critic.micro_batch_per_device",
                f"deprecated critic.ppo_micro_batch_size {global_micro} "
                f"samples (global) ÷ {plan.data_parallel_size} DP ranks",
                "critic.ppo_micro_batch_size",
            )
        c.lr = v.number("critic.optim.lr", 1e-5)
        c.model = v.get("critic.model.path")

    def kl_estimator(self, key: str) -> str:
        raw = str(self.v.get(key))
        name = KL_ESTIMATORS.get(raw.rstrip("+"))
        if name is None:
            self.notes.warning(
                "algorithm.unknown-kl-estimator", f"{key}={raw} is not a known KL estimator", source_keys=[key]
            )
            return raw
        return name

    def read_non_plan_sections(self) -> None:
        v, s = self.v, self.spec
        s.lengths.max_prompt_tokens = v.positive_int("data.max_prompt_length")
        s.lengths.max_response_tokens = v.positive_int("data.max_response_length")
        s.sampling.temperature = v.number(f"{ROLLOUT}.temperature")
        s.sampling.top_p = v.number(f"{ROLLOUT}.top_p")
        top_k = v.number(f"{ROLLOUT}.top_k")
        s.sampling.top_k = int(top_k) if top_k and top_k > 0 else -1  # -1 (and 0) disable top-k in vLLM
        o = s.optimizer
        o.lr = v.number(f"{ACTOR}.optim.lr")
        schedule_key = (
            v.first(f"{ACTOR}.optim.lr_scheduler_type", f"{ACTOR}.optim.warmup_style")
            if at_least(self.version, "0.6.1")
            else f"{ACTOR}.optim.warmup_style"
        )
        o.lr_schedule = str(v.get(schedule_key))
        warmup = v.number(f"{ACTOR}.optim.lr_warmup_steps")
        ratio = v.number(f"{ACTOR}.optim.lr_warmup_steps_ratio")
        # The engine (0.8+) treats lr_warmup_steps 0 as "use the ratio"; the legacy workers as no warmup.
        uses_steps = warmup is not None and (warmup > 0 or (warmup == 0 and self.legacy_workers))
        if uses_steps:
            assert warmup is not None  # uses_steps says so
            o.warmup_steps, o.warmup_unit = int(warmup), "steps"
            if self.sync_steps > 1:
                self.local_update_warmup(int(warmup))
        else:
            o.warmup_ratio = ratio
        if self.sync_steps > 1:
            total = self.spec.plan.total_steps
            horizon = (
                f"{total} × {self.sync_steps} = {total * self.sync_steps}"
                if isinstance(total, int)
                else f"(the run's steps) × {self.sync_steps}"
            )
            self.notes.info(
                "optimizer.lr-horizon",
                f"trainer_mode {self.mode} steps the LR scheduler once per local update, "
                f"parameter_sync_step {self.sync_steps} times per step: verl sets optim.total_training_steps "
                f"to total_training_steps {horizon} (trainer_base.py _init_dataloader), so "
                "lr_warmup_steps counts local updates and a warmup ratio is a share of all updates",
                source_keys=[f"{V1}.{self.mode}.parameter_sync_step", f"{ACTOR}.optim.lr_warmup_steps"],
            )
        o.weight_decay = v.number(f"{ACTOR}.optim.weight_decay")
        clip_key = (
            f"{ACTOR}.grad_clip"
            if self.legacy_workers or not at_least(self.version, "0.6.1")
            else f"{ACTOR}.optim.clip_grad"
        )
        o.grad_clip = v.number(clip_key)
        ignored_key = f"{ACTOR}.optim.clip_grad" if clip_key == f"{ACTOR}.grad_clip" else f"{ACTOR}.grad_clip"
        v.consume(ignored_key)
        if ignored_key in v:
            self.notes.warning(
                "semantics.ignored-key",
                f"{ignored_key} is read by nothing in verl {self.version} "
                f"({'legacy workers' if self.legacy_workers else 'engine workers'}); it uses {clip_key}",
                source_keys=[ignored_key],
                target_keys=[clip_key],
            )
        passes = v.number("trainer.total_epochs")
        s.run_length.dataset_passes = passes
        g = s.generation
        g.rollout_backend = v.get(f"{ROLLOUT}.name")
        if g.rollout_backend is None:
            self.notes.warning(
                "keys.missing",
                "actor_rollout_ref.rollout.name is mandatory since verl 0.6",
                source_keys=[f"{ROLLOUT}.name"],
            )
        g.filter_groups = (
            bool(v.flag("algorithm.filter_groups.enable"))
            if ("algorithm.filter_groups.enable" in v or at_least(self.version, "0.9.0"))
            else None
        )
        if g.filter_groups:
            g.filter_metric = v.get("algorithm.filter_groups.metric")
            rounds_key = "algorithm.filter_groups.max_num_gen_batches"
            g.max_rounds_per_step = v.positive_int(rounds_key, allow_none=True) if v.get(rounds_key) else 0
            if self.mode is not None and self.native.entry == "core" and g.max_rounds_per_step:
                # trainer_base.py@v0.9.1 _resolve_filter_groups_metric: the v1 replay buffer refills evicted groups
                # without a round limit.
                self.notes.warning(
                    "semantics.ignored-key",
                    f"algorithm.filter_groups.max_num_gen_batches="
                    f"{g.max_rounds_per_step} is ignored by the built-in V1 ReplayBuffer; use "
                    "max_inflight_gen_batches to bound concurrent Sync DAPO generation.",
                    source_keys=[rounds_key],
                )
                g.max_rounds_per_step = 0
        self.asynchrony()
        s.references.model = v.get(f"{AR_MODEL}.path")
        if at_least(self.version, "0.7.1"):
            tokenizer = v.get(f"{AR_MODEL}.tokenizer_path")
            s.references.tokenizer = str(tokenizer) if tokenizer else None
        o.min_lr_ratio = v.number(f"{ACTOR}.optim.min_lr_ratio")
        self.reward()
        self.data()
        self.checkpointing()
        self.evaluation()
        self.logging()
        self.placement()
        self.settings()

    def settings(self) -> None:
        """The run settings outside the plan (settings.SETTINGS). Validation without val_kwargs.do_sample is
        greedy whatever val_kwargs.temperature says (vllm_rollout generate_sequences: temperature 0, top_p 1)."""
        s, v, version = self.spec, self.v, self.version
        read_settings(s, v, SETTINGS, "verl", version, lambda key: not lacks("verl", version, key))
        if not at_least(version, "0.3.0"):  # the key came in 0.3.0, off by default; before, the filter always ran
            s.set(
                "data.filter_overlong_prompts",
                True,
                Derivation(
                    f"verl {version}'s RLHFDataset always drops prompts longer than data.max_prompt_length "
                    "(verl/utils/dataset/rl_dataset.py:111-116@v0.2.0.post2)",
                    [],
                    "default",
                ),
            )
        if s.evaluation.temperature is not None and not v.flag(VAL_DO_SAMPLE, False):
            greedy = f"{VAL_DO_SAMPLE} False: validation decodes greedily"
            s.set("evaluation.temperature", 0.0, Derivation(greedy, [VAL_DO_SAMPLE], v.origin(VAL_DO_SAMPLE)))
            s.set("evaluation.top_p", 1.0, Derivation(greedy, [VAL_DO_SAMPLE], v.origin(VAL_DO_SAMPLE)))

    def asynchrony(self) -> None:
        """How far generation runs ahead of the policy. Before 0.9 (and with trainer.use_v1=False) every step
        generates its own batch with the current weights. The v1 trainer's async modes submit
        num_warmup_batches batches of prompts before the first step and one batch per step, and sample the oldest
        finished groups first (trainer_base.py@v0.9.1 _add_async_warmup_batches, prepare_step;
        replay_buffer.py@v0.9.1 _select_prompt_uids), so a step trains on prompts submitted that many steps
        earlier, generated from weights that many versions old (partial rollouts resume with newer weights).
        trainer.v1.sampler.max_off_policy_threshold bounds it: a group that spans more versions than the threshold
        is dropped ('drop') or waited for ('wait') (ReplayBufferAsync), so no trained group lags more than
        threshold - 1 steps."""
        v, s, notes, mode = self.v, self.spec, self.notes, self.mode
        if self.native.entry == "fully_async":
            self.fully_async_asynchrony()
            return
        if mode is not None and mode != "sync":  # sync is verl's ordinary synchronous loop: no special mode
            s.generation.rollout_mode = mode
            s.derivations["generation.rollout_mode"] = Derivation(
                f"trainer.v1.trainer_mode {mode}", [V1_MODE], v.origin(V1_MODE)
            )
        if mode is not None and mode not in V1_MODES:
            return  # an unknown or unset mode: how far generation runs ahead is not known
        if mode not in ASYNC_MODES:
            s.asynchrony.max_steps_ahead = 0
            if mode is not None:
                s.derivations["asynchrony.max_steps_ahead"] = Derivation(
                    f"trainer.v1.trainer_mode {mode}: each step generates its batch with the current weights",
                    [V1_MODE],
                    v.origin(V1_MODE),
                )
            return
        warm_key = f"{V1}.{mode}.num_warmup_batches"
        threshold_key, strategy_key = f"{V1}.sampler.max_off_policy_threshold", f"{V1}.sampler.max_off_policy_strategy"
        warm = v.number(warm_key)
        # Read without marking them used: set explicitly, they travel as extras to a verl target.
        threshold = v.values.get(threshold_key, v.defaults.get(threshold_key))
        strategy = v.values.get(strategy_key, v.defaults.get(strategy_key))
        if not isinstance(warm, (int, float)):
            return
        if not float(warm).is_integer() and not at_least(self.version, "0.9.1"):
            # trainer_{colocate,separate}_async.py@v0.9.0 on_train_begin: `for _ in range(num_warmup_batches)`
            notes.error(
                "keys.invalid-value",
                f"'float' object cannot be interpreted as an integer: verl "
                f"{self.version} takes whole warmup batches ({warm_key} {fmt(warm)}; fractions from 0.9.1)",
                source_keys=[warm_key],
            )
        ahead = max(0, math.ceil(warm))
        text = (
            f"trainer_mode {mode}: num_warmup_batches {fmt(warm)} batch(es) of prompts in flight before each "
            f"step, so a step trains on prompts submitted {ahead} step(s) earlier"
        )
        if isinstance(threshold, int) and not isinstance(threshold, bool) and threshold > 0:
            if threshold - 1 < ahead:
                ahead = threshold - 1
                text += f", capped by max_off_policy_threshold {threshold} ({strategy}) at {ahead}"
            elif threshold - 1 > ahead:
                notes.info(
                    "asynchrony.staleness-bound",
                    f"trainer.v1.sampler.max_off_policy_threshold {threshold} ({strategy}): a slow group may "
                    f"still be trained up to {threshold - 1} steps after its prompt was submitted (the replay "
                    f"buffer takes the oldest finished groups first; num_warmup_batches {fmt(warm)} sets the "
                    f"usual lag of {ahead})",
                    source_keys=[threshold_key, warm_key],
                )
        elif threshold is None:
            notes.info(
                "asynchrony.staleness-bound",
                "trainer.v1.sampler.max_off_policy_threshold null: no staleness bound (verl 0.9.1); a slow group "
                f"may be trained any number of steps after submission (the usual lag is {ahead})",
                source_keys=[threshold_key],
            )
        s.asynchrony.max_steps_ahead = ahead
        s.derivations["asynchrony.max_steps_ahead"] = Derivation(
            text, [V1_MODE, warm_key, threshold_key], "config" if {V1_MODE, warm_key} & set(v.values) else "default"
        )
        if ahead:
            notes.info(
                "asynchrony.off-policy",
                f"trainer_mode {mode}: generation runs up to {ahead} step(s) ahead of training; the policy "
                "trains on samples from weights up to that many versions old",
                source_keys=[V1_MODE, warm_key],
            )

    def fully_async_asynchrony(self) -> None:
        """How far the fully asynchronous rollouter runs ahead (fully_async_rollouter.py@v0.9.1). After each
        weight sync it may submit prompts until staleness_samples reaches max_required_samples =
        int(required_samples × (staleness_threshold + 1) × trigger_parameter_sync_step) (:491-497, :1155), the
        count being reset at a sync to the prompts still in flight or queued (:605); the trainer syncs weights
        every trigger_parameter_sync_step steps (fully_async_trainer.py:684-688). A prompt generated with the
        weights of sync k is at most max_required_samples prompts behind that sync in the queue, so it is trained
        within ceil(max_required_samples ÷ required_samples) steps of it, by a policy that many steps minus one
        newer: max_steps_ahead = ceil(max_required_samples ÷ required_samples) − 1."""
        v, s, notes = self.v, self.spec, self.notes
        s.generation.rollout_mode = "fully_async"
        s.derivations["generation.rollout_mode"] = Derivation(
            "verl's fully asynchronous trainer (fully_async_policy.fully_async_main)", [], "config"
        )
        required = s.plan.prompts_per_step
        staleness_key, sync_key = "async_training.staleness_threshold", "async_training.trigger_parameter_sync_step"
        staleness, sync = v.number(staleness_key), v.number(sync_key)
        if (
            not isinstance(required, int)
            or not isinstance(staleness, (int, float))
            or not isinstance(sync, (int, float))
            or staleness < 0
            or sync < 1
            or not float(sync).is_integer()
        ):
            return  # unknown, or refused at start-up (check rules verl.fully-async-*)
        sync = int(sync)
        most = int(required * (staleness + 1) * sync)
        ahead = max(0, -(-most // required) - 1)
        s.asynchrony.max_steps_ahead = ahead
        s.derivations["asynchrony.max_steps_ahead"] = Derivation(
            f"max_required_samples = int(required_samples {required} × (staleness_threshold {fmt(staleness)} + 1) × "
            f"trigger_parameter_sync_step {sync}) = {most} prompts generated per weight version at most; "
            f"ceil({most} ÷ {required}) − 1 = {ahead} step(s)",
            [staleness_key, sync_key, "async_training.require_batches", f"{ACTOR}.ppo_mini_batch_size"],
            "config" if {staleness_key, sync_key} & set(v.values) else "default",
        )
        partial = v.flag("async_training.partial_rollout")
        if ahead:
            notes.info(
                "asynchrony.off-policy",
                f"verl's fully asynchronous trainer: the rollouter generates with weights synced every "
                f"trigger_parameter_sync_step {sync} trainer step(s) and may run up to {most} prompts "
                f"(staleness_threshold {fmt(staleness)}) ahead, so a step trains on samples from weights up "
                f"to {ahead} step(s) old"
                + (
                    "; with async_training.partial_rollout a response interrupted by a sync is finished with "
                    "the newer weights (one sample, two versions)"
                    if partial
                    else ""
                ),
                source_keys=[sync_key, staleness_key],
            )

    def reward(self) -> None:
        """A custom reward file (top-level custom_reward_function until 0.6, reward.custom_reward_function from
        0.7; 0.7/0.8 migrate the old keys, 0.9 ignores them), a reward model, else verl's default scorer."""
        v, r, notes, version = self.v, self.spec.reward, self.notes, self.version
        new = at_least(version, "0.7.1")
        path_key = v.first(*reward_keys(version, "path"))
        path = v.get(path_key)
        if path_key.startswith("custom_reward_function") and new and path:
            if at_least(version, "0.9.0"):
                notes.warning(
                    "reward.ignored-key",
                    f"verl {version} ignores the top-level {path_key}; the reward "
                    f"file {path} is not used (set reward.custom_reward_function.path)",
                    source_keys=[path_key],
                )
                path = None
            else:
                notes.info(
                    "keys.deprecated",
                    f"verl {version} moves {path_key} to reward.custom_reward_function.path at start-up",
                    source_keys=[path_key],
                )
        if path:
            name_key = path_key.rsplit(".", 1)[0] + ".name"
            r.function_path = str(path)
            r.function_name = str(v.get(name_key) or "compute_score")
        enable_key, model_key = reward_model_keys(version)
        if v.flag(enable_key):
            r.model = v.get(model_key)
            if not r.model:
                notes.warning(
                    "reward.missing",
                    f"{enable_key} is on but {model_key} is not set",
                    source_keys=[enable_key, model_key],
                )
        if not r.function_path and not r.model:
            # verl.utils.reward_score.default_compute_score picks a scorer by each row's data_source.
            r.builtin = [DEFAULT_SCORER]
            notes.info(
                "reward.builtin",
                "no custom reward function or reward model: verl's default scorer "
                "(verl/utils/reward_score/__init__.py default_compute_score) picks a rule by each row's "
                "data_source (gsm8k, MATH, ...)",
                source_keys=[path_key],
            )

    def data(self) -> None:
        v, d = self.v, self.spec.data
        for role, key in (("train", "data.train_files"), ("eval", "data.val_files")):
            sources = data_files(v.get(key))
            setattr(d, f"{role}_sources", sources)
            if sources and any(looks_like_hub_id(x) for x in sources):
                self.notes.warning(
                    "data.not-expressible",
                    f"{key} {', '.join(sources)}: verl reads parquet files "
                    "only (RLHFDataset); a Hub dataset id must be converted to parquet first",
                    source_keys=[key],
                )
        d.prompt_key = str(v.get("data.prompt_key", "prompt"))
        if at_least(self.version, "0.6.1"):
            for field, key in (
                ("max_train_prompts", "data.train_max_samples"),
                ("max_eval_prompts", "data.val_max_samples"),
            ):
                cap = v.number(key)
                setattr(d, field, int(cap) if cap is not None and cap > 0 else None)  # -1: all rows

    def checkpointing(self) -> None:
        v, c = self.v, self.spec.checkpointing
        every = v.number("trainer.save_freq")
        # ray_trainer saves when save_freq > 0 and (global_steps % save_freq == 0 or the last step).
        c.every_steps = int(every) if every and every > 0 else 0
        project, experiment = v.get("trainer.project_name"), v.get("trainer.experiment_name")
        directory = v.get("trainer.default_local_dir")
        c.directory = str(directory) if directory else f"checkpoints/{project}/{experiment}"
        contents_key = (
            f"{ACTOR}.checkpoint.save_contents" if at_least(self.version, "0.4.1") else f"{ACTOR}.checkpoint.contents"
        )
        contents = v.get(contents_key)
        c.hf_format = isinstance(contents, (list, tuple)) and "hf_model" in contents
        keep = v.number("trainer.max_actor_ckpt_to_keep")
        c.keep_last = int(keep) if keep and keep > 0 else None
        mode = str(v.get("trainer.resume_mode", "auto"))
        if mode == "resume_path":
            path = v.get("trainer.resume_from_path")
            c.resume = str(path) if path else "never"
            if not path:
                self.notes.warning(
                    "checkpointing.resume-path",
                    "trainer.resume_mode=resume_path needs trainer.resume_from_path; verl starts from scratch",
                    source_keys=["trainer.resume_mode"],
                )
        else:
            c.resume = "never" if mode == "disable" else "auto"

    def evaluation(self) -> None:
        v, e = self.v, self.spec.evaluation
        every = v.number("trainer.test_freq")
        e.every_steps = int(every) if every and every > 0 else 0
        e.before_training = bool(v.flag("trainer.val_before_train", True))

    def logging(self) -> None:
        v, g = self.v, self.spec.logging
        g.project = str(v.get("trainer.project_name"))
        g.run_name = str(v.get("trainer.experiment_name"))
        backends = v.get("trainer.logger")
        g.backends = [str(b) for b in (backends if isinstance(backends, (list, tuple)) else [backends])]

    def placement(self) -> None:
        """One Ray resource pool: actor, rollout (vLLM/SGLang) and reference share every GPU; the rollout runs
        GPUs ÷ rollout TP engines."""
        t = self.spec.topology
        t.colocate_models = True
        tp = t.rollout_tensor_parallel_size or 1
        assert t.training_gpus is not None  # topology() sets it
        t.rollout_engines = t.training_gpus // tp if t.training_gpus % tp == 0 else None
        self.rollout_pool()
        fraction = self.v.number(f"{ROLLOUT}.gpu_memory_utilization")
        t.rollout_gpu_memory_fraction = real(fraction)

    def local_update_warmup(self, warmup: int) -> None:
        """lr_warmup_steps in local updates (parameter_sync_step per step, each ceil(prompts ÷ mini) mini-batches ×
        ppo_epochs optimizer steps): in optimizer steps when an update is one optimizer step (exact), in rollout
        steps when it divides into whole steps (exact), else in optimizer steps (the LR holds within an update)."""
        o, plan = self.spec.optimizer, self.spec.plan
        per_update = (plan.optimizer_steps_per_step or self.sync_steps) // self.sync_steps
        if per_update > 1 and warmup % self.sync_steps == 0:
            o.warmup_steps, o.warmup_unit = warmup // self.sync_steps, "steps"
            text = f"lr_warmup_steps {warmup} local updates ÷ parameter_sync_step {self.sync_steps}"
        else:
            o.warmup_steps, o.warmup_unit = warmup * per_update, "optimizer_steps"
            text = f"lr_warmup_steps {warmup} local updates × {per_update} optimizer step(s) per update"
        self.spec.derivations["optimizer.warmup_steps"] = Derivation(
            text, [f"{ACTOR}.optim.lr_warmup_steps", f"{V1}.{self.mode}.parameter_sync_step"], "config"
        )

    def rollout_pool(self) -> None:
        """separate_async generates on a standalone pool of rollout.nnodes × rollout.n_gpus_per_node GPUs
        (trainer_separate_async.py@v0.9.1: LLMServerManager.create for the standalone replicas, asserting "nnodes
        must be > 0 in separate async training"); the training GPUs' own (hybrid) replicas serve only until the
        first step unless hybrid_rollout.enable_switch lends them back (0.9.1). Elsewhere main_ppo reads neither key
        (they serve verl's experimental one-step-off and fully-async entry points)."""
        v, t, notes = self.v, self.spec.topology, self.notes
        if self.native.entry == "fully_async":
            self.fully_async_pool()
            return
        nodes_key, gpus_key = f"{ROLLOUT}.nnodes", f"{ROLLOUT}.n_gpus_per_node"
        nodes = v.number(nodes_key) if (self.mode == "separate_async" or nodes_key in v) else None
        if self.mode != "separate_async":
            if nodes and nodes > 0:
                notes.info(
                    "semantics.ignored-key",
                    f"{nodes_key} {fmt(nodes)}: verl.trainer.main_ppo reads the "
                    "standalone rollout pool only in trainer.v1.trainer_mode separate_async (verl ≥ 0.9); "
                    "rollout shares the training GPUs here",
                    source_keys=[nodes_key, gpus_key],
                )
                v.consume(gpus_key)
            return
        per_node = v.positive_int(gpus_key) if gpus_key in v else t.gpus_per_node
        if not isinstance(nodes, (int, float)) or not isinstance(per_node, int):
            return
        t.rollout_gpus = int(nodes) * per_node if nodes > 0 else 0
        self.spec.derivations["topology.rollout_gpus"] = Derivation(
            f"separate_async standalone pool: rollout.nnodes {fmt(nodes)} × rollout.n_gpus_per_node {per_node}"
            + ("" if gpus_key in v else " (= trainer.n_gpus_per_node)"),
            [nodes_key, gpus_key],
            "config" if nodes_key in v else "default",
        )
        tp = t.rollout_tensor_parallel_size or 1
        if t.rollout_engines is not None and t.rollout_gpus % tp == 0:
            t.rollout_engines = t.rollout_gpus // tp  # the standalone replicas generate; hybrid ones are put to sleep
        if nodes <= 0:
            notes.error(
                "topology.rollout-pool",
                "nnodes must be > 0 in separate async training",
                source_keys=[nodes_key, V1_MODE],
            )

    def fully_async_pool(self) -> None:
        """The fully asynchronous trainer's rollouter has GPUs of its own: fully_async_main.py@v0.9.1:235-236 copies
        rollout.nnodes × rollout.n_gpus_per_node into actor_rollout_ref.rollout; the trainer keeps trainer.nnodes ×
        trainer.n_gpus_per_node (fully_async_trainer.py:170-171)."""
        v, t = self.v, self.spec.topology
        nodes, per_node = v.number("rollout.nnodes"), v.positive_int("rollout.n_gpus_per_node")
        v.consume(f"{ROLLOUT}.nnodes")
        v.consume(f"{ROLLOUT}.n_gpus_per_node")
        if not isinstance(nodes, (int, float)) or not isinstance(per_node, int):
            t.rollout_engines = None
            return
        t.rollout_gpus = int(nodes) * per_node if nodes > 0 else 0
        self.spec.derivations["topology.rollout_gpus"] = Derivation(
            f"fully async rollouter pool: rollout.nnodes {fmt(nodes)} × rollout.n_gpus_per_node {per_node}",
            ["rollout.nnodes", "rollout.n_gpus_per_node"],
            "config" if {"rollout.nnodes", "rollout.n_gpus_per_node"} & set(v.values) else "default",
        )
        tp = t.rollout_tensor_parallel_size or 1
        t.rollout_engines = t.rollout_gpus // tp if t.rollout_gpus % tp == 0 else None


class _Writer:
    """Canonical model → verl overrides for one version."""

    def __init__(self, spec: RunSpec, version: str, notes: NoteList) -> None:
        self.spec, self.version, self.notes = spec, version, notes
        self.out: dict[str, Any] = {}

    def overrides(self) -> tuple[dict[str, Any], bool]:
        self.mode = self.choose_mode()
        self.sync_steps = 1
        megatron = self.megatron = self.topology()
        self.batch()
        self.v1_mode()
        self.algorithm()
        self.critic()
        self.write_non_plan_sections()
        self.checkpointing()
        self.evaluation()
        self.logging()
        self.placement()
        self.run_length()
        self.settings()
        self.extras()
        self.from_fully_async()
        return self.out, megatron

    def from_fully_async(self) -> None:
        """A source read from verl's fully asynchronous trainer is written as verl.trainer.main_ppo: rlconf does not
        write fully_async_main scripts (docs/frameworks/verl.md §2.7)."""
        s = self.spec
        if s.framework != "verl" or s.generation.rollout_mode != "fully_async":
            return
        how = (
            f"trainer.v1.trainer_mode {self.mode}"
            if self.mode not in (None, "sync")
            else "its synchronous loop"
            if self.mode is None
            else "trainer_mode sync"
        )
        dropped = ""
        if self.mode != "separate_async" and self.out.get("actor_rollout_ref.hybrid_engine") in (
            False,
            "False",
            "false",
        ):
            # ray_trainer.py@v0.9.1:334 asserts the hybrid engine outside separate_async
            del self.out["actor_rollout_ref.hybrid_engine"]
            dropped = (
                "; actor_rollout_ref.hybrid_engine=False is not written (verl.trainer.main_ppo asserts "
                '"Currently, only support hybrid engine" outside separate_async)'
            )
        self.notes.warning(
            "asynchrony.changed",
            "the source runs verl's fully asynchronous trainer (fully_async_policy.fully_async_main); "
            f"rlconf writes verl.trainer.main_ppo with {how}, not a fully_async script: each step "
            "trains on data.train_batch_size prompts (the source's ppo_mini_batch_size × "
            "require_batches), and the async_training.* keys (staleness_threshold, "
            "trigger_parameter_sync_step) and the rollout.* pool keys are not written" + dropped,
            source_keys=["generation.rollout_mode", "actor_rollout_ref.hybrid_engine"],
            target_keys=["data.train_batch_size", V1_MODE],
        )

    def put(self, key: str, value: Any) -> None:
        if value is not None:
            self.out[key] = value

    def settings(self) -> None:
        version, e = self.version, self.spec.evaluation
        write_settings(
            self.spec,
            SETTINGS,
            f"verl {version}",
            lambda key: not lacks("verl", version, key),
            self.put,
            self.notes,
            skip=("logging.entity",),
        )  # the entity has no config key: launch.sh exports WANDB_ENTITY (write)
        if e.temperature is not None and not lacks("verl", version, VAL_DO_SAMPLE):
            # Without do_sample verl validates greedily and ignores val_kwargs.temperature/top_p.
            self.out[VAL_DO_SAMPLE] = e.temperature > 0

    def choose_mode(self) -> str | None:
        """The v1 trainer mode for a 0.9 target: the source's own (a verl 0.9 run), else sync for an on-policy
        source, and for one whose generation runs ahead separate_async when it keeps GPUs for rollout
        (OpenRLHF's separate vLLM engines, Open-Instruct's learners + engines), colocate_async when not."""
        s = self.spec
        if not at_least(self.version, "0.9.0"):
            return None
        if s.framework == "verl" and s.generation.rollout_mode in ASYNC_MODES:
            return s.generation.rollout_mode
        if not s.asynchrony.max_steps_ahead:
            return "sync"
        if (s.topology.rollout_gpus or 0) > 0 and s.reward.model:
            # separate_async refuses a reward model on the training GPUs (ray_trainer checks
            # reward.reward_model.enable_resource_pool; verl.separate-async-reward-model): rollout stays on them too.
            self.notes.warning(
                "asynchrony.changed",
                f"verl's separate_async cannot keep the reward model "
                f"{s.reward.model} on the training GPUs, so colocate_async is written: generation runs "
                f"on the training GPUs and the source's {s.topology.rollout_gpus} rollout GPU(s) are "
                "not used",
                source_keys=["topology.rollout_gpus", "reward.model"],
                target_keys=[V1_MODE],
            )
            return "colocate_async"
        return "separate_async" if (s.topology.rollout_gpus or 0) > 0 else "colocate_async"

    def v1_mode(self) -> None:
        """trainer.v1.*: the mode, its prefetch depth and staleness bound, and for separate_async the local updates
        (one mini-batch each: trainer_separate_async.py@v0.9.1 asserts train_batch_size = parameter_sync_step ×
        ppo_mini_batch_size), the standalone rollout pool and a weight-transfer backend other than naive."""
        s, out, notes, mode = self.spec, self.out, self.notes, self.mode
        ahead = s.asynchrony.max_steps_ahead or 0
        if mode is None:
            if ahead:
                notes.warning(
                    "asynchrony.not-expressible",
                    f"generation {ahead} step(s) ahead of the policy is not written; verl {self.version}'s "
                    "main_ppo runs synchronously (the v1 trainer's async modes need verl 0.9)",
                    source_keys=["asynchrony.max_steps_ahead"],
                )
            return
        train, mini = out.get("data.train_batch_size"), out.get(f"{ACTOR}.ppo_mini_batch_size")
        if mode == "separate_async" and not (isinstance(train, int) and isinstance(mini, int) and train % mini == 0):
            notes.warning(
                "asynchrony.changed",
                f"verl's separate_async trains each step in whole mini-batches "
                f"(train_batch_size = parameter_sync_step × ppo_mini_batch_size); {train} prompts per step "
                f"are not a multiple of the {mini}-prompt mini-batch, so colocate_async (rollout on the "
                "training GPUs) is written",
                source_keys=["topology.rollout_gpus"],
                target_keys=[V1_MODE],
            )
            mode = self.mode = "colocate_async"
        if mode == "sync":
            return  # the default
        out[V1_MODE] = mode
        if s.framework != "verl" or s.generation.rollout_mode != mode:
            out[f"{V1}.{mode}.num_warmup_batches"] = ahead
            out[f"{V1}.sampler.max_off_policy_threshold"] = ahead + 1
            notes.info(
                "asynchrony.mode",
                f"generation up to {ahead} step(s) ahead: verl's {mode} with "
                f"num_warmup_batches {ahead} (batches of prompts in flight before each step) and "
                f"max_off_policy_threshold {ahead + 1} (a group spanning more weight versions is dropped)",
                source_keys=["asynchrony.max_steps_ahead"],
                target_keys=[V1_MODE, f"{V1}.{mode}.num_warmup_batches"],
            )
        else:
            out[f"{V1}.{mode}.num_warmup_batches"] = ahead
        if mode != "separate_async":
            return
        assert isinstance(train, int) and isinstance(mini, int)  # else the mode became colocate_async above
        self.sync_steps = train // mini
        out[f"{V1}.separate_async.parameter_sync_step"] = self.sync_steps
        epochs = s.plan.epochs_per_step or 1
        if s.framework != "verl" or s.generation.rollout_mode == "fully_async":
            notes.info(
                "semantics.local-updates",
                f"verl's separate_async trains each step as parameter_sync_step {self.sync_steps} local updates "
                f"of one {mini}-prompt mini-batch each, with advantages computed per update"
                + (
                    f" and its {epochs} epochs run before the next mini-batch (the source runs each epoch over "
                    "the whole step)"
                    if epochs > 1
                    else ""
                )
                + "; the LR scheduler steps once per update",
                source_keys=["plan.optimizer_steps_per_step"],
                target_keys=[f"{V1}.separate_async.parameter_sync_step"],
            )
        rollout_gpus = s.topology.rollout_gpus or 0
        per_node = out.get("trainer.n_gpus_per_node") or 8
        if rollout_gpus <= 0:  # a verl source's pool left unset: verl rejects it, so keep the training pool's size
            rollout_gpus = per_node
        nodes = rollout_gpus // per_node if rollout_gpus % per_node == 0 else 1
        out[f"{ROLLOUT}.nnodes"] = nodes
        out[f"{ROLLOUT}.n_gpus_per_node"] = rollout_gpus // nodes
        out[f"{ROLLOUT}.checkpoint_engine.backend"] = self.own_backend()

    def own_backend(self) -> str:
        """The weight-transfer backend: the verl source's own unless naive (separate_async rejects it), else nccl."""
        for extra in self.spec.extras:
            if (
                extra.framework == "verl"
                and extra.key == f"{ROLLOUT}.checkpoint_engine.backend"
                and extra.value != "naive"
            ):
                return str(extra.value)
        return "nccl"

    def topology(self) -> bool:
        t, plan, notes = self.spec.topology, self.spec.plan, self.notes
        dp = plan.data_parallel_size or t.training_gpus or 8
        megatron = t.training_backend == "megatron" or any(
            (x or 1) > 1 for x in (t.tensor_parallel_size, t.pipeline_parallel_size, t.context_parallel_size)
        )
        if megatron:
            tp, pp, cp = t.tensor_parallel_size or 1, t.pipeline_parallel_size or 1, t.context_parallel_size or 1
            gpus = dp * tp * pp * cp
            if at_least(self.version, "0.8.0"):
                self.out["model_engine"] = "megatron"
            self.put(f"{ACTOR}.megatron.tensor_model_parallel_size", tp)
            self.put(f"{ACTOR}.megatron.pipeline_model_parallel_size", pp)
            if cp > 1:
                self.put(f"{ACTOR}.megatron.context_parallel_size", cp)
        else:
            sp = t.sequence_parallel_size or 1
            gpus = dp * sp
            if sp > 1:
                key = (
                    f"{ACTOR}.fsdp_config.ulysses_sequence_parallel_size"
                    if at_least(self.version, "0.6.1")
                    else f"{ACTOR}.ulysses_sequence_parallel_size"
                )
                self.put(key, sp)
                self.put(f"{AR_MODEL}.use_remove_padding", True)
        if t.training_gpus and t.training_gpus != gpus:
            notes.warning(
                "topology.gpus-changed",
                f"the source trains on {t.training_gpus} GPUs; verl needs {gpus} to keep {dp} data-parallel ranks",
                source_keys=["topology.training_gpus"],
                target_keys=["trainer.n_gpus_per_node", "trainer.nnodes"],
            )
        if t.rollout_gpus and self.mode != "separate_async":
            notes.warning(
                "topology.rollout-colocated",
                f"the source trains on {t.training_gpus} GPU(s) and keeps {t.rollout_gpus} more for vLLM "
                f"({(t.training_gpus or 0) + t.rollout_gpus} in all); verl's main_ppo colocates rollout with "
                f"training, so the written run uses {gpus} GPUs for both",
                source_keys=["topology.rollout_gpus"],
                target_keys=[f"{ROLLOUT}.name"],
            )
        nodes = t.nodes if t.nodes and gpus % t.nodes == 0 else 1
        self.put("trainer.n_gpus_per_node", gpus // nodes)
        self.put("trainer.nnodes", nodes)
        rollout_tp = t.rollout_tensor_parallel_size or 1
        if gpus % rollout_tp:
            rollout_tp = math.gcd(gpus, rollout_tp)
        self.put(f"{ROLLOUT}.tensor_model_parallel_size", rollout_tp)
        return megatron

    def batch(self) -> None:
        plan, notes, out = self.spec.plan, self.notes, self.out
        n = plan.samples_per_prompt or 1
        prompts = whole_prompts(self.spec, notes, "verl", "data.train_batch_size")
        self.put("data.train_batch_size", prompts)
        out[f"{ROLLOUT}.n"] = n
        samples_per_opt = plan.samples_per_optimizer_step
        step = plan.samples_per_step
        if samples_per_opt is not None and prompts is not None:
            assert step is not None  # translate refuses a plan without samples_per_prompt: × prompts is known
            if step < samples_per_opt:
                # verl rejects train_batch_size < ppo_mini_batch_size: one rollout feeds at least one update.
                # The closest run keeps the optimizer batch and generates it all at once.
                notes.warning(
                    "batch.not-expressible",
                    f"the source updates every {fmt(samples_per_opt / step)} steps "
                    f"({fmt(step)} samples per step, {fmt(samples_per_opt)} per optimizer "
                    "step); verl needs train_batch_size >= ppo_mini_batch_size, so one step generates the "
                    "whole optimizer batch",
                    target_keys=["data.train_batch_size"],
                )
                out["data.train_batch_size"] = max(1, round(float(samples_per_opt / n)))
                if plan.total_steps is not None and plan.optimizer_steps_per_step:
                    # Keep the number of optimizer updates: now `epochs` of them per step.
                    updates = plan.total_steps * plan.optimizer_steps_per_step
                    out["trainer.total_training_steps"] = math.ceil(updates / (plan.epochs_per_step or 1))
        if samples_per_opt is not None:
            mini = samples_per_opt / n
            if not float(mini).is_integer():
                notes.warning(
                    "units.prompts-vs-samples",
                    f"{fmt(samples_per_opt)} samples per optimizer step is not a whole number of prompts "
                    f"(n = {n}); verl's ppo_mini_batch_size counts prompts, so "
                    f"{max(1, round(float(mini)))} prompts ({max(1, round(float(mini))) * n} samples) is used",
                    target_keys=[f"{ACTOR}.ppo_mini_batch_size"],
                )
            self.put(f"{ACTOR}.ppo_mini_batch_size", self.divisible_mini(max(1, round(float(mini))), n))
            if self.spec.framework != "verl":
                notes.info(
                    "units.prompts-vs-samples",
                    f"ppo_mini_batch_size counts prompts: {fmt(samples_per_opt)} samples per optimizer step ÷ "
                    f"rollout.n {n} = {out[f'{ACTOR}.ppo_mini_batch_size']} prompts (global); verl splits it "
                    f"over the {plan.data_parallel_size} data-parallel ranks itself",
                    source_keys=["plan.samples_per_optimizer_step"],
                    target_keys=[f"{ACTOR}.ppo_mini_batch_size"],
                )
        self.put(f"{ACTOR}.ppo_epochs", plan.epochs_per_step)
        budget = self.spec.token_budget
        if plan.micro_batch_per_device is not None:
            micro = self.valid_micro(int(plan.micro_batch_per_device))
            out[f"{ACTOR}.use_dynamic_bsz"] = False
            out[f"{ACTOR}.ppo_micro_batch_size_per_gpu"] = micro
            logprob = self.spec.generation.logprob_micro_batch_per_device or micro
            out[f"{ROLLOUT}.log_prob_micro_batch_size_per_gpu"] = logprob
            out[f"{REF}.log_prob_micro_batch_size_per_gpu"] = logprob
        else:
            sp = self.spec.topology.sequence_parallel_size or 1
            tokens = budget.max_tokens_per_device or 16384 * sp
            out[f"{ACTOR}.use_dynamic_bsz"] = True
            out[f"{ACTOR}.ppo_max_token_len_per_gpu"] = max(1, tokens // sp)  # the budget is per GPU of an SP group
            out[f"{ROLLOUT}.log_prob_max_token_len_per_gpu"] = max(
                1, (budget.logprob_max_tokens_per_device or tokens) // sp
            )
            if budget.max_tokens_per_device is None:
                notes.warning(
                    "batch.token-budget-assumed",
                    "the source sets neither a micro-batch nor a token "
                    "budget; verl's default ppo_max_token_len_per_gpu 16384 is written",
                    target_keys=[f"{ACTOR}.ppo_max_token_len_per_gpu"],
                )
        if "trainer.total_training_steps" not in out:
            self.put("trainer.total_training_steps", self.spec.plan.total_steps)
        passes = self.spec.run_length.dataset_passes
        if passes is not None:
            if not float(passes).is_integer():
                notes.warning(
                    "run-length.rounded",
                    f"{passes} dataset passes rounded up to {math.ceil(passes)}: "
                    "trainer.total_epochs is a whole number",
                    target_keys=["trainer.total_epochs"],
                )
            self.put("trainer.total_epochs", math.ceil(passes))
        g = self.spec.generation
        if g.prompts_per_round is not None:
            notes.warning(
                "generation.not-expressible",
                f"{g.prompts_per_round} prompts per generation round (DAPO over-sampling) needs the DAPO "
                "recipe entry point; verl.trainer.main_ppo trains on data.train_batch_size prompts",
                source_keys=["generation.prompts_per_round"],
            )
        if g.filter_groups:
            if at_least(self.version, "0.9.0"):
                out["algorithm.filter_groups.enable"] = True
                self.put("algorithm.filter_groups.metric", g.filter_metric)
            else:
                notes.warning(
                    "generation.not-expressible",
                    f"group filtering is not in verl {self.version}'s main_ppo (it is in the DAPO recipe)",
                    source_keys=["generation.filter_groups"],
                )

    def divisible_mini(self, mini: int, n: int) -> int:
        """A mini-batch whose mini × n samples split evenly over the data-parallel ranks: the engine asserts it
        (workers/engine_workers.py@v0.9.1 "Got mini_batch_size=… and self.engine.get_data_parallel_size()=…"),
        the legacy workers floor the remainder away. The nearest such mini-batch, preferring one that divides
        the prompts per step; ConfigError when none fits in a step."""
        dp = self.spec.plan.data_parallel_size or self.spec.topology.training_gpus or 8
        if (mini * n) % dp == 0:
            return mini
        prompts = self.out.get("data.train_batch_size") or mini
        unit = dp // math.gcd(dp, n)  # mini must be a multiple of this
        if unit > max(prompts, mini):
            raise ConfigError(
                f'verl needs ppo_mini_batch_size × rollout.n divisible by the {dp} data-parallel ranks ("Got '
                f'mini_batch_size={mini * n} and self.engine.get_data_parallel_size()={dp}"); with n = {n} that '
                f"takes a multiple of {unit} prompts, more than the {prompts} prompts per step",
                key="actor_rollout_ref.actor.ppo_mini_batch_size",
                hint=f"train on at least {unit} prompts per step (data.train_batch_size={unit}), or on "
                f"{largest_divisor(mini * n, dp)} data-parallel ranks (a divisor of {mini * n} samples), or "
                f"with rollout.n a multiple of {dp // math.gcd(dp, mini)}",
            )
        # The multiples of unit up to max(prompts, mini), preferring one that divides the prompts, then the nearest
        # (the smaller on a tie): the dividing ones are unit × the divisors of prompts ÷ unit; otherwise the nearest
        # multiple is one of the two around mini (listing every multiple would take memory in proportion to prompts).
        dividing = [unit * d for d in divisors(prompts // unit)] if prompts % unit == 0 else []
        around = [m for m in ((mini // unit) * unit, -(-mini // unit) * unit) if unit <= m <= max(prompts, mini)]
        chosen = min(dividing or around, key=lambda m: (abs(m - mini), m))
        self.notes.warning(
            "batch.mini-changed",
            f"ppo_mini_batch_size {mini} × rollout.n {n} = {mini * n} samples do not split over "
            f'{dp} data-parallel ranks (verl: "Got mini_batch_size={mini * n} and '
            f'self.engine.get_data_parallel_size()={dp}"); {chosen} prompts ({chosen * n} samples, '
            f"{chosen * n // dp} per rank) are written instead",
            source_keys=["plan.samples_per_optimizer_step"],
            target_keys=[f"{ACTOR}.ppo_mini_batch_size"],
        )
        return chosen

    def valid_micro(self, micro: int) -> int:
        """The largest micro-batch ≤ the source's that verl accepts: it divides each rank's share of a
        mini-batch and, with Megatron, validate_config's minimal batch DP × micro divides the step's samples."""
        plan, out = self.spec.plan, self.out
        dp = plan.data_parallel_size or 1
        samples = int(out.get("data.train_batch_size", 0) * out[f"{ROLLOUT}.n"])
        local_mini = out.get(f"{ACTOR}.ppo_mini_batch_size", 0) * out[f"{ROLLOUT}.n"] // dp
        megatron = "model_engine" in out or f"{ACTOR}.megatron.tensor_model_parallel_size" in out

        # m must divide local_mini and (Megatron) samples ÷ dp: so m divides their gcd. The largest such divisor
        # ≤ micro, found among the gcd's divisors (not by counting down from a micro-batch that may be 10**9).
        bound = (
            0  # no micro-batch makes DP × micro divide the samples: the source's is kept
            if megatron and samples % dp
            else math.gcd(local_mini, samples // dp if megatron else 0)  # 0: no constraint at all
        )
        chosen = (largest_divisor(bound, micro) or micro) if bound else micro
        if chosen != micro:
            self.notes.warning(
                "batch.micro-changed",
                f"verl needs a micro-batch that divides each rank's {local_mini}-sample mini-batch"
                + (f" and, with Megatron, DP {dp} × micro dividing the {samples} samples per step" if megatron else "")
                + f": ppo_micro_batch_size_per_gpu {chosen}, not {micro}",
                target_keys=[f"{ACTOR}.ppo_micro_batch_size_per_gpu"],
            )
        return chosen

    def algorithm(self) -> None:
        a, notes, out, version = self.spec.algorithm, self.notes, self.out, self.version
        estimator = a.advantage_estimator or "grpo"
        out["algorithm.adv_estimator"] = estimator
        if estimator.startswith("grpo") and a.advantage_std_normalization is not None:
            out["algorithm.norm_adv_by_std_in_grpo"] = a.advantage_std_normalization
        if a.advantage_normalization_scope == "batch" and estimator in GROUP_ESTIMATORS:
            notes.warning(
                "algorithm.not-expressible",
                f"verl's {estimator} normalises advantages within each group; the source normalises over the batch",
                source_keys=["algorithm.advantage_normalization_scope"],
            )
        placement = a.kl_placement or "none"
        loss_on = placement in ("loss", "both")
        reward_on = placement in ("reward", "both")
        out[f"{ACTOR}.use_kl_loss"] = loss_on
        estimator_name = KL_ESTIMATOR_NAMES.get(a.kl_estimator or "k3", a.kl_estimator)
        if loss_on:
            self.put(f"{ACTOR}.kl_loss_coef", a.kl_coef)
            out[f"{ACTOR}.kl_loss_type"] = estimator_name
        if at_least(version, "0.4.1"):
            out["algorithm.use_kl_in_reward"] = reward_on
        elif not reward_on and not loss_on:
            notes.warning(
                "algorithm.not-expressible",
                "verl ≤ 0.3 always applies KL in the reward when the KL loss is off",
                target_keys=["algorithm.kl_ctrl.kl_coef"],
            )
        if reward_on:
            self.put("algorithm.kl_ctrl.kl_coef", a.kl_coef)
            out["algorithm.kl_penalty"] = estimator_name
        if a.kl_estimator == "k3" and placement != "none":
            notes.info(
                "algorithm.kl-estimator",
                "verl's low_var_kl is the k3 estimator clamped to [-10, 10]",
                target_keys=[f"{ACTOR}.kl_loss_type"],
            )
        if at_least(version, "0.4.1"):
            self.put(f"{ACTOR}.clip_ratio_low", a.clip_ratio_low)
            self.put(f"{ACTOR}.clip_ratio_high", a.clip_ratio_high)
        else:
            self.put(f"{ACTOR}.clip_ratio", a.clip_ratio_low)
            if a.clip_ratio_high not in (None, a.clip_ratio_low):
                notes.warning(
                    "algorithm.not-expressible",
                    f"verl {version} has one symmetric clip_ratio; clip_ratio_high {a.clip_ratio_high} is lost",
                    target_keys=[f"{ACTOR}.clip_ratio"],
                )
        self.put(f"{ACTOR}.clip_ratio_c", a.clip_ratio_dual)
        out[f"{ACTOR}.entropy_coeff"] = a.entropy_coef or 0.0
        aggregation = a.loss_aggregation or "token-mean"
        modes = {"token-mean", "seq-mean-token-sum", "seq-mean-token-mean", "seq-mean-token-sum-norm"}
        if at_least(version, "0.9.0"):
            modes.add("token-sum")
        if aggregation not in modes:
            notes.warning(
                "algorithm.not-expressible",
                f"loss aggregation '{aggregation}' has no verl {version} loss_agg_mode; token-mean is written",
                target_keys=[f"{ACTOR}.loss_agg_mode"],
            )
            aggregation = "token-mean"
        if at_least(version, "0.4.1"):
            out[f"{ACTOR}.loss_agg_mode"] = aggregation
        scope = "optimizer_step" if at_least(version, "0.8.0") else "micro_batch"
        if a.loss_normalizer_scope and a.loss_normalizer_scope != scope:
            notes.warning(
                "algorithm.loss-normalizer-scope",
                f"the source normalises the loss over each {a.loss_normalizer_scope.replace('_', ' ')}; "
                f"verl {version} normalises over each {scope.replace('_', ' ')}",
                target_keys=[f"{ACTOR}.loss_agg_mode"],
            )
        if a.policy_loss and a.policy_loss != "vanilla":
            if at_least(version, "0.5.0"):
                out[f"{ACTOR}.policy_loss.loss_mode"] = a.policy_loss
            else:
                notes.warning("algorithm.not-expressible", f"policy loss '{a.policy_loss}' needs verl ≥ 0.5")

    def critic(self) -> None:
        c, plan, out = self.spec.critic, self.spec.plan, self.out
        if not (c.enabled or self.spec.algorithm.advantage_estimator == "gae"):
            return
        if at_least(self.version, "0.6.1"):
            out["critic.enable"] = True
        n = plan.samples_per_prompt or 1
        samples = c.samples_per_optimizer_step or plan.samples_per_optimizer_step
        if samples is not None:
            # Critic mini-batches count samples up to 0.3 and prompts from 0.4.
            mini = samples if not at_least(self.version, "0.4.1") else max(1, round(samples / n))
            out["critic.ppo_mini_batch_size"] = mini
        self.put("critic.ppo_epochs", c.epochs_per_step or plan.epochs_per_step)
        micro = c.micro_batch_per_device or plan.micro_batch_per_device
        if micro is not None:
            out["critic.ppo_micro_batch_size_per_gpu"] = int(micro)
        self.put("critic.optim.lr", c.lr)
        self.put("critic.model.path", c.model or self.spec.references.model)
        sp = self.spec.topology.sequence_parallel_size or 1
        if sp > 1:
            out["critic.ulysses_sequence_parallel_size"] = sp

    def write_non_plan_sections(self) -> None:
        s, out, version = self.spec, self.out, self.version
        self.put("data.max_prompt_length", s.lengths.max_prompt_tokens)
        self.put("data.max_response_length", s.lengths.max_response_tokens)
        self.put(f"{ROLLOUT}.temperature", s.sampling.temperature)
        self.put(f"{ROLLOUT}.top_p", s.sampling.top_p)
        if s.sampling.top_k is not None:
            out[f"{ROLLOUT}.top_k"] = s.sampling.top_k if s.sampling.top_k > 0 else -1
        out[f"{ROLLOUT}.name"] = (
            s.generation.rollout_backend
            if s.generation.rollout_backend in ("vllm", "sglang", "trtllm", "hf")
            else "vllm"
        )
        o = s.optimizer
        self.put(f"{ACTOR}.optim.lr", o.lr)
        if o.lr_schedule is not None:
            schedule = o.lr_schedule if o.lr_schedule in ("constant", "cosine") else None
            if schedule is None:
                schedule = "cosine" if "cosine" in o.lr_schedule else "constant"
                self.notes.warning(
                    "optimizer.not-expressible",
                    f"lr schedule '{o.lr_schedule}' is not available in "
                    f"verl (constant or cosine); '{schedule}' is written",
                    source_keys=["optimizer.lr_schedule"],
                    target_keys=[f"{ACTOR}.optim.lr_scheduler_type"],
                )
            key = "lr_scheduler_type" if at_least(version, "0.6.1") else "warmup_style"
            if self.megatron and at_least(version, "0.4.1"):
                key = "lr_decay_style"  # the Megatron optimizer's name for it (optim/megatron.yaml)
            out[f"{ACTOR}.optim.{key}"] = schedule
        if o.warmup_steps is not None:
            steps = o.warmup_steps
            per_step = s.plan.optimizer_steps_per_step or 1
            if self.sync_steps > 1:
                # separate_async: the scheduler steps once per local update (trainer_base.py@v0.9.1 sets
                # optim.total_training_steps = total_training_steps × parameter_sync_step).
                per_update = Fraction(per_step) / self.sync_steps
                steps = (
                    math.ceil(o.warmup_steps / per_update)
                    if o.warmup_unit == "optimizer_steps"
                    else o.warmup_steps * self.sync_steps
                )
                self.notes.info(
                    "units.warmup",
                    f"warmup of {o.warmup_steps} "
                    f"{'optimizer' if o.warmup_unit == 'optimizer_steps' else 'rollout'} steps = {steps} "
                    f"local updates; verl's separate_async counts warmup in local updates "
                    f"(parameter_sync_step {self.sync_steps} per step, {fmt(per_update)} optimizer step(s) "
                    "each)",
                    target_keys=[f"{ACTOR}.optim.lr_warmup_steps"],
                )
            elif o.warmup_unit == "optimizer_steps":
                steps = math.ceil(o.warmup_steps / per_step)
                self.notes.info(
                    "units.warmup",
                    f"warmup of {o.warmup_steps} optimizer steps = {steps} rollout steps "
                    f"({fmt(per_step)} optimizer steps per step); verl counts warmup in rollout steps",
                    target_keys=[f"{ACTOR}.optim.lr_warmup_steps"],
                )
            out[f"{ACTOR}.optim.lr_warmup_steps"] = steps
        elif o.warmup_ratio is not None:
            out[f"{ACTOR}.optim.lr_warmup_steps"] = -1
            out[f"{ACTOR}.optim.lr_warmup_steps_ratio"] = o.warmup_ratio
        self.put(f"{ACTOR}.optim.weight_decay", o.weight_decay)
        if o.grad_clip is not None:
            if at_least(version, "0.6.1"):
                out[f"{ACTOR}.optim.clip_grad"] = o.grad_clip
            if not at_least(version, "0.8.0"):
                out[f"{ACTOR}.grad_clip"] = o.grad_clip
        if o.min_lr_ratio:
            if o.lr_schedule and "cosine" in o.lr_schedule:
                if self.megatron and at_least(version, "0.4.1"):
                    # Megatron's optimizer takes the floor as an absolute LR (optim/megatron.yaml min_lr).
                    if o.lr is not None:
                        out[f"{ACTOR}.optim.min_lr"] = o.lr * o.min_lr_ratio
                else:
                    out[f"{ACTOR}.optim.min_lr_ratio"] = o.min_lr_ratio
            else:
                self.notes.warning(
                    "optimizer.not-expressible",
                    f"verl applies min_lr_ratio {o.min_lr_ratio} to the "
                    "cosine schedule only; the source's schedule is "
                    f"'{o.lr_schedule or 'constant'}'",
                    source_keys=["optimizer.min_lr_ratio"],
                )
        r = s.references
        if r.model:
            out[f"{AR_MODEL}.path"] = r.model
        if r.tokenizer and r.tokenizer != r.model:
            if at_least(version, "0.7.1"):
                out[f"{AR_MODEL}.tokenizer_path"] = r.tokenizer
            else:
                self.notes.warning(
                    "references.not-expressible",
                    f"verl {version} loads the tokenizer from the "
                    f"model path; the source's tokenizer {r.tokenizer} must be copied into "
                    f"{r.model}",
                    source_keys=["references.tokenizer"],
                )
        self.reward()
        self.data()

    def reward(self) -> None:
        """The reward hook-up: a custom file, a reward model, else verl's default scorer (by data_source)."""
        rw, notes, version, out = self.spec.reward, self.notes, self.version, self.out
        path_key = reward_keys(version, "path")[0]
        name_key = reward_keys(version, "name")[0]
        if rw.function_path:
            out[path_key] = rw.function_path
            out[name_key] = rw.function_name or "compute_score"
            if self.spec.framework != "verl":
                notes.info(
                    "reward.signature",
                    f"verl calls {out[name_key]} in {rw.function_path} as "
                    f"{REWARD_SIGNATURE}; a function written for another framework's call signature needs a "
                    "wrapper",
                    source_keys=["reward.function_path"],
                    target_keys=[path_key],
                )
        if rw.model:
            enable_key, model_key = reward_model_keys(version)
            out[enable_key] = True
            out[model_key] = rw.model
        if rw.remote_url:
            notes.warning(
                "reward.not-expressible",
                f"verl's main_ppo has no HTTP reward server setting; the "
                f"source's {rw.remote_url} must be called from a custom reward function",
                source_keys=["reward.remote_url"],
                target_keys=[path_key],
            )
        builtin = [b for b in rw.builtin or [] if b != DEFAULT_SCORER]
        if builtin or (rw.weights and len(rw.builtin or []) > 1):
            notes.warning(
                "reward.builtin",
                f"the source's built-in scorer(s) {', '.join(rw.builtin or [])}"
                + (f" with weights {rw.weights}" if rw.weights else "")
                + " have no verl counterpart"
                + (
                    ""
                    if rw.function_path or rw.model
                    else "; verl's default scorer picks a rule by each row's data_source (gsm8k, MATH, ...)"
                )
                + f": to keep them, set {path_key} to a file "
                f"whose compute_score{REWARD_SIGNATURE[len('compute_score') :]} combines them",
                source_keys=["reward.builtin"],
                target_keys=[path_key],
            )
        elif not (rw.function_path or rw.model or rw.builtin or rw.remote_url):
            notes.warning(
                "reward.missing",
                "the source names no reward; verl's default scorer picks a rule by each "
                f"row's data_source (gsm8k, MATH, ...): set {path_key} to path/to/reward.py and "
                f"{name_key} to a function called as {REWARD_SIGNATURE}",
                target_keys=[path_key],
            )

    def data(self) -> None:
        d, notes, version = self.spec.data, self.notes, self.version
        for role, key, sources in (
            ("train", "data.train_files", d.train_sources),
            ("eval", "data.val_files", d.eval_sources),
        ):
            if not sources:
                continue
            hub = [x for x in sources if looks_like_hub_id(x)]
            if hub:
                split = d.train_split if role == "train" else d.eval_split
                notes.warning(
                    "data.not-expressible",
                    f"verl reads parquet files only (RLHFDataset); the {role} "
                    f"source {', '.join(hub)} is a Hub dataset id: convert it to parquet (load_dataset("
                    f"'{hub[0]}'"
                    + (f", '{d.train_subset}'" if role == "train" and d.train_subset else "")
                    + (f", split='{split}'" if split else "")
                    + ").to_parquet(...)) and point "
                    f"{key} at the file",
                    source_keys=[f"data.{role}_sources"],
                    target_keys=[key],
                )
            self.out[key] = sources[0] if len(sources) == 1 else list(sources)
        if not d.train_sources:
            notes.warning(
                "data.missing",
                "the source names no training data; verl's default data.train_files is "
                "~/data/rlhf/gsm8k/train.parquet: set data.train_files to your parquet file(s)",
                target_keys=["data.train_files"],
            )
        if d.train_weights and len(d.train_sources or []) > 1:
            notes.warning(
                "data.not-expressible",
                f"verl concatenates data.train_files; the mixture weights {d.train_weights} are lost",
                source_keys=["data.train_weights"],
            )
        self.put("data.prompt_key", d.prompt_key)
        if d.answer_key and d.answer_key != "answer":
            notes.info(
                "data.answer-key",
                f"verl takes the ground truth from each row's reward_model.ground_truth "
                f"field, not a column named '{d.answer_key}'",
                source_keys=["data.answer_key"],
            )
        for field, key in (
            ("max_train_prompts", "data.train_max_samples"),
            ("max_eval_prompts", "data.val_max_samples"),
        ):
            cap = getattr(d, field)
            if cap is None:
                continue
            if at_least(version, "0.6.1"):
                self.out[key] = cap
            else:
                notes.warning(
                    "data.not-expressible",
                    f"verl {version} has no {key} (0.6+): all rows are read, "
                    f"not {cap}; cut the parquet file to {cap} rows",
                    source_keys=[f"data.{field}"],
                )

    def checkpointing(self) -> None:
        c, notes, out, version = self.spec.checkpointing, self.notes, self.out, self.version
        if c.every_steps is not None:
            # save_freq <= 0 saves nothing at all, not even after the last step (ray_trainer.fit).
            every = written_cadence(c.every_steps, step_growth(self.spec), notes, "checkpointing", "trainer.save_freq")
            out["trainer.save_freq"] = every if every > 0 else -1
            if c.every_steps == 0 and self.spec.framework != "verl":
                notes.info(
                    "checkpointing.no-final-save",
                    "the source saves no checkpoint during the run; verl's "
                    "save_freq -1 saves none at all, not even after the last step",
                    target_keys=["trainer.save_freq"],
                )
        logging = self.spec.logging
        if c.directory and c.directory != f"checkpoints/{logging.project}/{logging.run_name}":
            out["trainer.default_local_dir"] = c.directory
        self.put("trainer.max_actor_ckpt_to_keep", c.keep_last)
        if c.hf_format:
            key = f"{ACTOR}.checkpoint.save_contents" if at_least(version, "0.4.1") else f"{ACTOR}.checkpoint.contents"
            out[key] = ["model", "optimizer", "extra", "hf_model"]
        elif c.hf_format is False and not at_least(version, "0.4.1"):
            out[f"{ACTOR}.checkpoint.contents"] = ["model", "optimizer", "extra"]  # 0.3 saves HF weights by default
        if c.resume in ("auto", "never"):
            out["trainer.resume_mode"] = "auto" if c.resume == "auto" else "disable"
        elif c.resume:
            out["trainer.resume_mode"] = "resume_path"
            out["trainer.resume_from_path"] = c.resume
            if "global_step_" not in c.resume:
                notes.warning(
                    "checkpointing.resume-path",
                    f"verl resumes only from a directory named global_step_N "
                    f"(\"resume ckpt must specify the global_steps\"); '{c.resume}' is not one",
                    target_keys=["trainer.resume_from_path"],
                )

    def evaluation(self) -> None:
        e, d, notes, out = self.spec.evaluation, self.spec.data, self.notes, self.out
        if e.every_steps is not None:
            every = written_cadence(e.every_steps, step_growth(self.spec), notes, "evaluation", "trainer.test_freq")
            out["trainer.test_freq"] = every if every > 0 else -1
        if e.before_training is not None:
            out["trainer.val_before_train"] = e.before_training
        if d.train_sources and not d.eval_sources:
            # RayPPOTrainer always builds the validation dataloader from data.val_files (default: a gsm8k file).
            out["data.val_files"] = out["data.train_files"]
            out["trainer.val_before_train"] = False
            out["trainer.test_freq"] = -1
            notes.warning(
                "data.eval-required",
                "verl always loads data.val_files; the source has no evaluation "
                "data, so the training data is written there with validation turned off "
                "(val_before_train False, test_freq -1)",
                target_keys=["data.val_files", "trainer.val_before_train", "trainer.test_freq"],
            )

    def logging(self) -> None:
        g, notes = self.spec.logging, self.notes
        self.put("trainer.project_name", g.project)
        self.put("trainer.experiment_name", g.run_name)
        if g.backends is not None:
            kept = [b for b in g.backends if b in LOGGERS]
            lost = [b for b in g.backends if b not in LOGGERS]
            if lost:
                notes.warning(
                    "logging.not-expressible",
                    f"verl has no {', '.join(lost)} logger ({', '.join(LOGGERS)}); not written",
                    source_keys=["logging.backends"],
                    target_keys=["trainer.logger"],
                )
            self.out["trainer.logger"] = kept or ["console"]

    def placement(self) -> None:
        t, notes = self.spec.topology, self.notes
        fraction = t.rollout_gpu_memory_fraction
        if fraction is not None:
            self.out[f"{ROLLOUT}.gpu_memory_utilization"] = fraction
        if t.colocate_models is False and self.spec.framework != "verl":
            notes.info(
                "topology.colocated",
                "the source gives the reference/critic/reward models GPUs of their own; "
                "verl's main_ppo places them on the training GPUs",
                source_keys=["topology.colocate_models"],
            )
        host, port = self.spec.launch.main_process_host, self.spec.launch.main_process_port
        if host:
            address = f"{host}:{port}" if port else host
            notes.info(
                "launch.ray-cluster",
                f"verl joins nodes through Ray, outside its config: run 'ray start "
                f"--head' on {host} and 'ray start --address={address}' on the others (use the Ray port), "
                "then the launch script on the head node only",
                source_keys=["launch.main_process_host"],
            )

    def run_length(self) -> None:
        """verl stops at whichever comes first: total_epochs passes or total_training_steps (ray_trainer.fit), so
        a step limit needs enough epochs behind it."""
        out, steps = self.out, self.out.get("trainer.total_training_steps")
        if steps is None or self.spec.run_length.dataset_passes is not None:
            return
        # An epoch has at least one step (a dataset of >= train_batch_size prompts), so steps epochs suffice.
        out["trainer.total_epochs"] = steps
        self.notes.info(
            "run-length.epochs",
            f"trainer.total_epochs {steps} is written so that "
            f"trainer.total_training_steps {steps} ends the run (verl stops at whichever comes first; "
            "every epoch has at least one step)",
            target_keys=["trainer.total_epochs"],
        )

    def moved(self, extra: Extra) -> Extra:
        """A verl key of another release under the name this release gives it (a section verl moved, a key verl
        renamed: RENAMES, followed forwards to a newer target and backwards to an older one)."""
        if extra.framework != "verl":
            return extra
        for old, new, since in MOVED_SECTIONS:
            if extra.key.startswith(old) and at_least(self.version, since):
                self.notes.info(
                    "keys.renamed",
                    f"{extra.key} is {new}{extra.key[len(old) :]} in verl {self.version}",
                    source_keys=[extra.key],
                    target_keys=[new + extra.key[len(old) :]],
                )
                return Extra(extra.framework, new + extra.key[len(old) :], extra.value)
        key, why = renamed_for(extra.key, self.version)
        if key != extra.key:
            self.notes.info(
                "keys.renamed",
                f"{extra.key} is {key} in verl {self.version}{why}",
                source_keys=[extra.key],
                target_keys=[key],
            )
            return Extra(extra.framework, key, extra.value)
        return extra

    def removed(self, extra: Extra) -> bool:
        """A verl key this release no longer has, with no successor of the same meaning: noted, not written. The v1
        trainer's settings (trainer.v1.*) mean nothing before 0.9.0."""
        if (
            extra.framework == "verl"
            and extra.key.removeprefix("+").startswith(f"{V1}.")
            and not at_least(self.version, "0.9.0")
        ):
            self.notes.info(
                "keys.not-in-version",
                f"{extra.key.removeprefix('+')} {extra.value!r} is not written: "
                f"verl {self.version} has no v1 trainer (trainer.v1.*, new in 0.9.0)",
                source_keys=[extra.key.removeprefix("+")],
            )
            return True
        for old, last, why in REMOVED:
            if extra.framework == "verl" and extra.key.removeprefix("+") == old and newer_than(self.version, last):
                self.notes.warning(
                    "keys.removed",
                    f"{old} {extra.value!r} is not written: verl {self.version} has no "
                    f"such key (last in {last}); {why}",
                    source_keys=[old],
                )
                return True
        return False

    def carried_defaults(self) -> None:
        """A verl source of another release that leaves a CARRIED_DEFAULTS key unset ran with its own release's
        default: written when the target's differs (rollout.max_num_seqs 1024 → 256 and calculate_log_probs False →
        True in 0.9.0)."""
        s = self.spec
        if (
            s.framework != "verl"
            or not s.version
            or s.version == self.version
            or not at_least(s.version, "0.4.1")
            or not at_least(self.version, "0.4.1")
        ):
            return
        own = {e.key.removeprefix("+") for e in s.extras if e.framework == "verl"}
        before, after = defaults_for(s.version), defaults_for(self.version)
        for key in CARRIED_DEFAULTS:
            if key in own or key in self.out or before.get(key) == after.get(key):
                continue
            self.out[key] = before[key]
            self.notes.info(
                "keys.default-changed",
                f"{key}: verl {s.version}'s default {before[key]} is written; "
                f"verl {self.version}'s default is {after[key]}",
                source_keys=[key],
                target_keys=[key],
            )

    def extras(self) -> None:
        from translator.native_schemas import closed_section, declares, lacks

        foreign, appended, refused = [], [], []
        self.carried_defaults()
        for extra in map(self.moved, self.spec.extras):
            if self.removed(extra):
                continue
            key = extra.key.removeprefix("+")
            if extra.framework != "verl":
                foreign.append(extra)
            elif declares("verl", self.version, key) is False and not lacks("verl", self.version, key):
                # Under a mapping the config has (model.override_config: {}): Hydra adds a key there only with '+'.
                self.out.setdefault("+" + key, extra.value)
            elif key in KNOWN_KEYS or key in self.out or not lacks("verl", self.version, key):
                # A key the source had to append ('+trainer.val_only') that this release has: Hydra refuses '+'
                # for a key already in the config ("Could not append to config"), so it is written plainly.
                self.out.setdefault(key if not lacks("verl", self.version, key) else extra.key, extra.value)
            elif closed_section("verl", self.version, key):
                refused.append(key)
            else:
                # Carried from another version or entry (a recipe's keys): this config lacks it, and Hydra
                # rejects a plain override of an absent key; '+' appends it.
                self.out.setdefault("+" + key, extra.value)
                appended.append(key)
        if refused:
            sections = sorted({closed_section("verl", self.version, k) or "" for k in refused})
            self.notes.warning(
                "keys.not-in-version",
                f"verl {self.version} has no {', '.join(refused[:8])}"
                + (" …" if len(refused) > 8 else "")
                + f"; not written: verl builds {', '.join(sections)} into a dataclass "
                "that stops at a field it does not have",
                source_keys=refused,
            )
        if appended:
            self.notes.warning(
                "keys.not-in-version",
                f"verl {self.version}'s config has no {', '.join(appended[:8])}"
                + (" …" if len(appended) > 8 else "")
                + "; written as '+key=value' (Hydra appends "
                "it; verl may ignore it)",
                source_keys=appended,
                target_keys=["+" + k for k in appended],
            )
        if foreign:
            self.notes.info(
                "keys.not-translated",
                not_written(foreign[0].framework, [e.key for e in foreign], "verl"),
                source_keys=[e.key for e in foreign],
            )


# (old prefix, new prefix, first release with the new one): the old path under '+' composes, but the dataclass
# built from the section rejects it (0.9.1: HFModelConfig "unexpected keyword argument 'fsdp_config'"; found by
# tests/test_oracle_verl.py; the 0.7.1 and 0.8.0 wheels' critic/dp_critic.yaml show the move).
MOVED_SECTIONS = (("critic.model.fsdp_config.", "critic.fsdp.", "0.8.0"),)
AR_MODEL = "actor_rollout_ref.model"
