"""NeMo-RL (NVIDIA-NeMo/RL): the reader and writer of its GRPO configs (docs/frameworks/nemo-rl.md).

A run is ``uv run examples/run_grpo.py --config FILE.yaml key=value ...``: a YAML whose top-level ``defaults:``
names parent files (merged recursively, the child winning), then Hydra-syntax overrides, then OmegaConf's
resolvers (``mul``, ``div``, ``max``). The release's base recipe (examples/configs/grpo_math_1B.yaml) is held as
data per release (tables.BASE) so that a recipe inheriting it is read without the file present.
"""

from __future__ import annotations

import ast
import posixpath
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import yaml

from translator.concordance import not_written, shapes_plan
from translator.dialects.base import (
    Dialect,
    Reading,
    ReadOptions,
    Values,
    at_least,
    exported,
    note_launch,
    read_script,
    require_resolved,
    sibling_in_project,
    track_provenance,
)
from translator.dialects.formatting import fmt
from translator.dialects.provenance import from_config
from translator.dialects.writing import omegaconf_values, plan_summary, shell_word, source_label, whole_prompts
from translator.errors import ConfigError
from translator.framework import DataLoader
from translator.frameworks.nemo_rl.checks import RM_GPN, RM_NODES, RM_SINCE, RM_USED_BY, placed_gpus
from translator.frameworks.nemo_rl.tables import (
    BASE,
    BASE_FILES,
    BASE_PATH,
    CHANGES,
    DATA_SECTION,
    ENTRY,
    IGNORE_TP_CHECK,
    NAMED_DATASET_PROMPTS,
    RELEASE_RECIPES,
    SETUP_RETURNS,
    VERSIONS,
)
from translator.notes import NoteList
from translator.plan import Derivation, Extra, RunSpec
from translator.sources.code import Project, files_ending, in_run_dir, launched_scripts, path_default
from translator.sources.files import Source, flatten, load_yaml_mapping
from translator.sources.hydra import parse_override
from translator.sources.shell import (
    ShellCommand,
    ShellScript,
    parse_shell,
    program_index,
    symbolic_names,
    unwrap_command,
)

_ENTRY = re.compile(ENTRY)
# NeMo-RL's Slurm launcher runs the command held in $COMMAND on the Ray head node (ray.sub:101,200-210@v0.7.0;
# NeMo-RL's cluster guide: `COMMAND="uv run ./examples/run_grpo.py ..." sbatch ... ray.sub`)
_RAY_SUB, _HELD = "ray.sub", "COMMAND"


def held_by_ray_sub(script: ShellScript, source: Source) -> list[ShellCommand]:
    """The commands of $COMMAND where the script submits ray.sub (the variable given as the submission's prefix
    assignment, else as the script leaves it), on the submission's line."""
    held: list[ShellCommand] = []
    for command in script.commands:
        if not any(posixpath.basename(word) == _RAY_SUB for word in command.argv):
            continue
        body = command.assignments.get(_HELD) or script.variables.get(_HELD)
        if not body:
            continue
        inner = parse_shell(body, {**script.variables, **command.assignments}, source=f"{source.name} ${_HELD}")
        for found in inner.commands:
            found.line, found.cwd = command.line, command.cwd
            held.append(found)
    return held


_REF = re.compile(r"\$\{([^${}]*)\}")
_RESOLVERS: dict[str, Callable[[Any, Any], Any]] = {"mul": lambda a, b: a * b, "div": lambda a, b: a / b, "max": max}
_UNSET = object()
MAX_DEPTH = 16  # a `defaults:` chain deeper than this is a loop


def data_loader(spec: RunSpec) -> DataLoader | None:
    """What NeMo-RL's ResponseDataset reads from a row of the file rlconf writes as its data, per release: each
    row's input_key column (default `input`) becomes the user message's content, a string, and its output_key
    column (default `output`) the ground truth (math_hf_data_processor, nemo_rl/data/processors.py@v0.7.0:390-406).
    From 0.5.0 a file with a `messages` column is taken as it stands instead. 0.3.1 has no ResponseDataset: the
    source's data is not written there, so no column of it is read."""
    version = spec.version or VERSIONS[-1]
    if version == "0.3.1":
        return None
    where = (
        "data.train.data_path (nemo_rl/data/datasets/response_datasets/response_dataset.py@v0.7.0:78-85)"
        if version in ("0.6.0", "0.7.0")
        else f"data.train_data_path (nemo_rl/data/datasets/response_datasets/response_dataset.py@v{version}:40-"
        + ("84)" if version == "0.5.0" else "80)")
    )
    return DataLoader(
        "input",
        "text",
        f"ResponseDataset, which reads a local file set as {where}",
        (("answer", "output"),),  # output_key: the answer column
        instead="" if version == "0.4.0" else "messages",
    )


def _way_keys(word: str, ways: dict[str, list[str]], depth: int = 0) -> set[str] | None:
    """The keys the overrides a branch-dependent word may stand for set, over every way through its chain (and the
    chains whose markers its ways hold); None when a way gives anything else, or the word is no chain's marker."""
    marker = next((m for m in ways if word.startswith(m)), None)
    if marker is None or depth > 4:
        return None
    keys: set[str] = set()
    for value in ways[marker]:
        for part in re.findall(r"\$\([^)]*\)\S*|\S+", value):  # a marker is one word, spaces and all
            if any(part.startswith(m) for m in ways):
                inner = _way_keys(part, ways, depth + 1)
                if inner is None:
                    return None
                keys |= inner
                continue
            override = parse_override(part)
            if override is None:
                return None
            keys.add(override.key)
    return keys


class _Native:
    """The merged config before interpretation: dotted key → value and where each came from; ``base`` holds the
    values of the release's base recipe (read as defaults: a key the user never wrote is not an extra)."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.origins: dict[str, str] = {}
        self.base_named: str | None = None  # the base recipe a `defaults:` or --config named, when held as data
        self.unknown_words: list[str] = []  # launch words whose value is not known: they may hold any override
        self.override_keys: list[str] = []  # the keys the launch's own overrides set
        self.unknown_config: str | None = None  # a --config path holding what rlconf cannot read (made at run time)
        self.replaced: set[str] = set()  # top-level sections a recipe replaces whole (`_override_: true`)
        # a project entry's `a, b, ... = setup(...)` of the release's grpo.setup: (names, file, line)
        self.setup_unpacked: tuple[int, str, int] | None = None
        self.environment: dict[str, str] = {}  # what the launch exports of the variables NeMo-RL's checks read

    def merge(self, flat: dict[str, Any], origin: str | dict[str, str]) -> None:
        for key, value in flat.items():
            self.values[key] = value
            self.origins[key] = origin if isinstance(origin, str) else origin.get(key, "")

    def replace(self, section: str) -> None:
        """merge_with_override (nemo_rl/utils/config.py:30-44@v0.6.0): a top-level section marked `_override_:
        true` drops what the parents set under it, the base recipe's values included."""
        self.replaced.add(section)
        for key in [k for k in self.values if k == section or k.startswith(section + ".")]:
            del self.values[key]
            self.origins.pop(key, None)

    def base(self, version: str) -> dict[str, Any]:
        """The release's base recipe values, less those of the sections a recipe replaced (the keys it restates
        stay: equal to the base's, they are no setting of the user's)."""
        return {
            k: v
            for k, v in BASE[version].items()
            if k in self.values or not any(k.startswith(s + ".") for s in self.replaced)
        }


def _yaml_lines(text: str, name: str) -> dict[str, str]:
    """Dotted key → "file:line" of its key in a YAML mapping."""
    lines: dict[str, str] = {}
    try:
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return lines

    def walk(node: Any, prefix: str) -> None:
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                dotted = f"{prefix}{key_node.value}"
                lines[dotted] = f"{name}:{key_node.start_mark.line + 1}"
                walk(value_node, dotted + ".")

    walk(root, "")
    return lines


def _is_base(name: str) -> bool:
    return posixpath.basename(name) in BASE_FILES


def _setup_unpacked(project: Project, entry: str) -> tuple[int, str, int] | None:
    """(names, file, line) of the entry's ``a, b, ... = setup(...)`` of the release's grpo.setup, where the project
    holds no nemo_rl copy of its own (whose setup would decide); None when it unpacks none (or with a starred name)."""
    if files_ending(project.root, "nemo_rl/algorithms/grpo.py"):
        return None
    tree = project.tree(entry)
    for node in ast.walk(tree) if tree is not None else ():
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], (ast.Tuple, ast.List))
            and not any(isinstance(e, ast.Starred) for e in node.targets[0].elts)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "setup"
        ):
            return len(node.targets[0].elts), project.rel(entry), node.lineno
    return None


def _check_setup_unpacking(native: _Native, version: str, options: ReadOptions, notes: NoteList) -> None:
    """Where the project entry unpacks grpo.setup() into another number of names than the release returns
    (Python's ValueError at start-up): a refusal when the release is stated (the project's pin or --from) or when no
    release returns that number and the project pins no commit (which might); else an error note under the assumed
    release. Either says which releases would run it."""
    if native.setup_unpacked is None:
        return
    count, file, line = native.setup_unpacked
    if count == SETUP_RETURNS[version]:
        return
    fitting = [v for v, n in SETUP_RETURNS.items() if n == count]
    message = (
        f"unpacks {count} values from nemo_rl.algorithms.grpo.setup(), which returns {SETUP_RETURNS[version]} in "
        f"NeMo-RL {version}: the entry stops at start-up (ValueError: "
        f"{'too many' if SETUP_RETURNS[version] > count else 'not enough'} values to unpack); "
        + (
            f"the releases that return {count} are {', '.join(fitting)}"
            if fitting
            else f"no release returns {count} (the entry was written for a commit between releases)"
        )
    )
    if options.version or (not fitting and options.candidates != ()):  # () : a git pin to a commit, no release
        raise ConfigError(
            message,
            file=file,
            line=line,
            hint="unpack as many names as the installed release returns, or install a release that fits",
        )
    notes.error("nemo-rl.setup-unpacking", f"{file}:{line} {message}", source_keys=[])


class NemoRLDialect(Dialect):
    name = "nemo-rl"
    aliases = ("nemo_rl", "nemorl")
    versions = VERSIONS
    changes = CHANGES
    description = "NeMo-RL (uv run examples/run_grpo.py --config FILE.yaml key=value ..., or its YAML recipe)"
    # a checkout of NeMo-RL (the project is a fork, or runs from one): MAJOR.MINOR.PATCH + PRE_RELEASE; main between
    # releases says the next one with "rc0" (so does the v0.5.0 tag)
    version_files = (("nemo_rl/package_info.py", None),)
    # policy GPUs = the cluster's less the generation's and, from 0.6.0, a reward model environment's `resources`
    # (grpo.py setup()): an environment's `resources` rlconf does not model may take from the policy
    gpus_taken_by = r"env\..+\.resources\.(gpus_per_node|num_nodes)"
    # StatefulDataLoader(batch_size=num_prompts_per_step, drop_last=True) (nemo_rl/algorithms/grpo.py:358-365@v0.7.0)
    steps_per_pass_from_rows = True

    # ---------------------------------------------------------------- reading
    def read(self, source: Source, options: ReadOptions) -> Reading:
        notes = NoteList()
        native = _Native()
        if source.suffix in (".yaml", ".yml"):
            self._merge_file(source, native, 0)
        else:
            self._collect_script(source, options, native, notes)
        version = self.resolve_version(options.version)
        if not options.version:
            notes.info(
                "version.assumed",
                f"assumed nemo-rl {version}: the newest release; pass --from nemo-rl@VERSION to choose",
            )
        _check_setup_unpacking(native, version, options, notes)
        defaults = native.base(version)
        if native.base_named is None:
            notes.info(
                "input.no-base-config",
                f"the config inherits no base recipe; keys it does not set are read as {BASE_PATH}@v{version} has "
                "them (NeMo-RL itself would stop on a missing key)",
            )
        merged = {**defaults, **native.values}
        resolved = {k: _resolve(v, merged, 0) for k, v in native.values.items()}
        base_resolved = {k: _resolve(v, merged, 0) for k, v in defaults.items()}
        values = Values(resolved, native.origins, base_resolved, source.name)
        values.environment = native.environment
        spec = RunSpec(framework=self.name, version=version)
        with track_provenance(spec, values):
            _Interpreter(values, version, spec, notes).run()
        # what the launch reads that rlconf cannot: every quantity its own overrides do not set is unknown
        from translator.dialects.forkbatch import unknown_launch_words, unknown_unless_set

        if native.unknown_config is not None:
            names = ", ".join(symbolic_names(native.unknown_config)[:2])
            why = f"the config file's path depends on {names}, which rlconf cannot read; the launch's overrides do not"
            unknown_unless_set(spec, native.override_keys, f"unknown: {why} set it")
            notes.warning(
                "input.config-unknown",
                f"--config {native.unknown_config}: the path depends on {names} (given by the environment, or a "
                "file the script writes at run time), so which config the launch reads is not known: the plan "
                "quantities the launch's own overrides do not set are unknown (pass --env with the values, or "
                "explain the config file itself)",
                source_keys=[native.unknown_config],
            )
        unknown_launch_words(spec, notes, native.unknown_words, native.override_keys)
        for key, value in values.unused().items():
            spec.extras.append(Extra(self.name, key, value))
        return Reading(spec, notes, values)

    def _merge_file(self, source: Source, native: _Native, depth: int) -> None:
        """A recipe and its `defaults:` parents (load_config_with_inheritance, nemo_rl/utils/config.py@v0.7.0):
        parents first, in order, then the file itself."""
        if depth > MAX_DEPTH:
            raise ConfigError("`defaults:` chain too deep (a loop?)", file=source.name, hint="break the cycle")
        data = load_yaml_mapping(source)
        parents = data.pop("defaults", None)
        for parent in [parents] if isinstance(parents, str) else parents or []:
            if not isinstance(parent, str):
                raise ConfigError(
                    f"`defaults:` entry {parent!r} is not a file name",
                    file=source.name,
                    key="defaults",
                    hint="defaults: ../../grpo_math_1B.yaml (a path relative to this file)",
                )
            self._merge_parent(source, parent, native, depth)
        for section, body in data.items():
            if isinstance(body, dict) and body.get("_override_"):
                native.replace(str(section))
        flat = {k: v for k, v in flatten(data).items() if "_override_" not in k.split(".")}
        native.merge(flat, _yaml_lines(source.text, source.name))

    def _merge_parent(self, source: Source, parent: str, native: _Native, depth: int) -> None:
        relative = posixpath.normpath(posixpath.join(posixpath.dirname(source.name), parent))
        if _is_base(parent):
            # The release's base recipe: its values are tables.BASE (the version's defaults), not user settings.
            native.base_named = parent
            return
        found = None
        for name in (relative, parent):
            if source.has_sibling(name):
                found = source.sibling(name, "parent recipe (defaults:)")
                break
        if found is None:
            raise ConfigError(
                f"parent recipe '{parent}' (defaults:) not found",
                file=source.name,
                key="defaults",
                hint="run from the NeMo-RL checkout the recipe belongs to, or inline the parent's keys",
            )
        self._merge_file(found, native, depth + 1)

    @staticmethod
    def _grpo_entry(source: Source, cwd: str | None, word: str) -> bool:
        """A project's own entry under another name (examples/run_rl.py) that imports grpo_train from nemo_rl, as
        run_grpo.py does (examples/run_grpo.py:26@v0.7.0): it runs NeMo-RL's GRPO loop, or the project's copy."""
        if not word.endswith(".py") or _ENTRY.search(word):
            return False
        return any(
            project.imports_name(path, "nemo_rl", "grpo_train") for project, path in launched_scripts(source, cwd, word)
        )

    def _collect_script(self, source: Source, options: ReadOptions, native: _Native, notes: NoteList) -> None:
        script = read_script(source, options.env, notes)
        launches = []
        for command in [*script.commands, *held_by_ray_sub(script, source)]:
            argv = unwrap_command(command.argv)
            # the program the command runs: a script python (or a launcher) runs, else the command's own word
            # (`uv run examples/run_grpo.py`); a word that only mentions the entry (`echo entry: ...`) runs nothing
            index = program_index(argv) if argv else None
            index = 0 if index is None else index
            if argv and (_ENTRY.search(argv[index]) or self._grpo_entry(source, command.cwd, argv[index])):
                launches.append((command, argv[index + 1 :]))
        if not launches:
            raise ConfigError(
                "no NeMo-RL launch command found",
                file=source.name,
                hint="expected 'uv run examples/run_grpo.py --config examples/configs/grpo_math_1B.yaml key=value ...'",
            )
        command, words = launches[0]
        note_launch(notes, source, command, [c for c, _ in launches])
        if ignore := exported(script, command, IGNORE_TP_CHECK):
            native.environment[IGNORE_TP_CHECK] = ignore
        require_resolved(command, source)
        origin = f"{source.name}:{command.line}"
        argv = unwrap_command(command.argv)
        entry = next(w for w in argv if _ENTRY.search(w) or self._grpo_entry(source, command.cwd, w))
        own = next(iter(launched_scripts(source, command.cwd, entry)), None)
        if own is not None and not own[0].imports(own[1], "nemo_rl"):
            raise ConfigError(
                f"{entry} is the project's own script ({own[0].rel(own[1])}), and neither it nor a module it imports "
                "imports nemo_rl: it is not NeMo-RL's run_grpo.py, and what it launches is not read",
                file=source.name,
                line=command.line,
                hint="pass the config or the command that script runs (with --from FRAMEWORK where it is another "
                "framework's)",
            )
        if own is not None and own[0].imports_name(own[1], "nemo_rl", "setup"):
            native.setup_unpacked = _setup_unpacked(own[0], own[1])
        config = None
        overrides = []
        i = 0
        while i < len(words):
            word = words[i]
            if word == "--config" and i + 1 < len(words):
                config, i = words[i + 1], i + 2
                continue
            if word.startswith("--config="):
                config, i = word.partition("=")[2], i + 1
                continue
            override = parse_override(word)
            if override is None and symbolic_names(word) and not word.partition("=")[1]:
                keys = _way_keys(word, script.ways)
                if keys is not None and not any(shapes_plan(self.name, key) for key in keys):
                    notes.warning(  # every way through the chain that sets it gives overrides of keys outside the plan
                        "keys.unrecognised-argument",
                        f"{origin}: '{word}' depends on a branch; each way gives only overrides of keys that decide "
                        f"no plan quantity ({', '.join(sorted(keys)[:3])}): not read",
                        source_keys=[word],
                    )
                else:
                    native.unknown_words.append(word)  # an array or variable rlconf cannot read: any override there
                i += 1
                continue
            if override is None and own is None:
                # the release's run_grpo.py hands every word but --config to Hydra's override parser
                # (parse_known_args, then parse_hydra_overrides: examples/run_grpo.py:58,79@v0.7.0)
                raise ConfigError(
                    f"'{word}' is not a key=value override: NeMo-RL's run_grpo.py passes it to Hydra's override "
                    "parser, which stops at start-up (OverridesError: Failed to parse Hydra overrides)",
                    file=source.name,
                    line=command.line,
                    hint="write it as key=value (a NeMo-RL config key), or remove it",
                )
            if override is None:
                notes.warning(
                    "keys.unrecognised-argument",
                    f"{origin}: '{word}' is not a key=value override; ignored (the project's own {entry} may take it)",
                    source_keys=[word],
                )
            else:
                overrides.append(override)
                native.override_keys.append(override.key)
            i += 1
        # run_grpo.py's --config default is examples/configs/grpo_math_1B.yaml (examples/run_grpo.py@v0.7.0); a
        # project's own entry (run_grpo_nemo_gym.py) may name another, or set one beside itself when none is given
        if config is None and own is not None:
            config = path_default(own[1], "config")
        config = in_run_dir(config, command.cwd) if config else BASE_PATH
        recipe = RELEASE_RECIPES.get(posixpath.basename(config))
        if symbolic_names(config):  # a path rlconf cannot know (made at run time, from the environment): no file
            native.unknown_config = config
        elif _is_base(config):
            native.base_named = config
        elif recipe is not None and not source.has_sibling(config):
            # a release recipe the project does not hold (the launch runs in the release's checkout): its keys
            native.base_named = BASE_PATH
            native.merge(recipe, f"{config} (the release's, held as data)")
            notes.info(
                "input.release-recipe",
                f"{config} is not in the project: the release's own (grpo_math_1B.yaml's values, then its own, the "
                "same in every release rlconf reads) is used",
                source_keys=[config],
            )
        else:
            self._merge_file(sibling_in_project(source, config, "config (--config)"), native, 0)
        for override in overrides:
            if override.op == "~":
                native.values.pop(override.key, None)
                continue
            flat = flatten(override.value, override.key + ".") if isinstance(override.value, dict) else None
            native.merge(flat or {override.key: override.value}, origin)

    def training_prompts(self, spec: RunSpec, values: Values) -> tuple[int, str] | None:
        """The prompts of datasets loaded by registry name (tables.NAMED_DATASET_PROMPTS) whose entries keep the split
        the count holds for; from 0.6.0 the training entries (each filled from data.default) are concatenated into
        one set unless data.use_multiple_dataloader is on (nemo_rl/data/utils.py:190-218@v0.7.0)."""
        merged = {**values.defaults, **values.values}  # looked up after the read: nothing marked used
        settings = ("dataset_name", "data_path", *{k for _, _, holds in NAMED_DATASET_PROMPTS.values() for k in holds})

        def section(prefix: str) -> dict[str, Any]:
            return {k: merged[f"{prefix}.{k}"] for k in settings if f"{prefix}.{k}" in merged}

        if not at_least(spec.version or "", "0.6.0"):  # data.dataset_name; the classes' own splits (not configurable)
            entries = [{"dataset_name": merged.get("data.dataset_name")}]
        else:
            listed, default = merged.get("data.train"), section("data.default")
            if isinstance(listed, list):
                entries = [{**default, **e} for e in listed if isinstance(e, dict)]
            else:
                entries = [{**default, **section("data.train")}]
            if len(entries) > 1 and merged.get("data.use_multiple_dataloader") is True:
                return None  # a dataloader per dataset, each its own share of the step
        total, held = 0, []
        for entry in entries:
            found = None if entry.get("data_path") else NAMED_DATASET_PROMPTS.get(str(entry.get("dataset_name")))
            if found is None or any(k in entry and entry[k] != value for k, value in found[2].items()):
                return None
            total += found[0]
            held.append(f"{entry['dataset_name']} ({found[1]})")
        return (total, " + ".join(held)) if held else None

    # ---------------------------------------------------------------- writing
    def write(self, spec: RunSpec, version: str, notes: NoteList) -> dict[str, str]:
        writer = _Writer(spec, version, notes)
        # Text reaches NeMo-RL through OmegaConf: a variable the source left to the shell as ${oc.env:NAME}.
        keys = {
            key: value if key in writer.verbatim else omegaconf_values(value, spec.shell_variables)
            for key, value in writer.run().items()
        }
        header = [
            f"# NeMo-RL {version} recipe written by rlconf from a {source_label(spec)} config; it inherits the",
            f"# release's base recipe ({BASE_PATH}) and sets every batch key. Units: num_prompts_per_step counts",
            "# prompts; train_global_batch_size samples (global); train_micro_batch_size samples per DP rank.",
            *(f"#   {line}" for line in plan_summary(spec)),
            "defaults: " + BASE_PATH,
        ]
        body = yaml.safe_dump(
            _nest(keys),
            sort_keys=False,
            default_flow_style=False,
            allow_unicode=True,
        )
        launch = [
            "#!/usr/bin/env bash",
            f"# NeMo-RL {version} launch script written by rlconf; run it from the NeMo-RL checkout root",
            "# (config.yaml beside it inherits examples/configs/grpo_math_1B.yaml through its defaults: line).",
            "set -euo pipefail",
            "",
            f"uv run {_entry(version)} \\\n    --config " + shell_word("config.yaml") + ' "$@"',
        ]
        return {"config.yaml": "\n".join(header) + "\n" + body, "launch.sh": "\n".join(launch) + "\n"}


def _entry(version: str) -> str:
    """The GRPO entry a launch runs: examples/run_grpo.py from 0.5.0; 0.3.1 and 0.4.0 have only
    examples/run_grpo_math.py (the same --config FILE and key=value overrides: run_grpo_math.py:49-54@v0.4.0)."""
    return "examples/run_grpo_math.py" if version in ("0.3.1", "0.4.0") else "examples/run_grpo.py"


def _resolve(value: Any, merged: dict[str, Any], depth: int) -> Any:
    """OmegaConf's interpolation for the forms NeMo-RL's recipes use: ``${a.b}`` and ``${mul:x, y}`` (also div,
    max); a reference to no key (a shell variable the script never set) stays as written, and one that cannot be
    computed because a key it reads holds such a variable keeps that variable (so the value is unknown, not
    malformed)."""
    if not isinstance(value, str) or "${" not in value or depth > MAX_DEPTH:
        return value

    def one(body: str) -> Any:
        name, colon, args = body.partition(":")
        if colon and name.strip() in _RESOLVERS:
            parts = [_number(a.strip()) for a in args.split(",")]
            if any(p is None for p in parts):
                return _UNSET
            result = _RESOLVERS[name.strip()](*parts)
            return int(result) if isinstance(result, float) and result.is_integer() else result
        found = merged.get(body.strip(), _UNSET)
        return _resolve(found, merged, depth + 1) if found is not _UNSET else _UNSET

    text = value
    for _ in range(MAX_DEPTH):  # innermost first: ${mul:${a}, ${b}}
        match = _REF.search(text)
        if match is None:
            break
        found = one(match.group(1))
        if found is _UNSET:  # a shell value substituted so far (the script's unset variable) makes it unknown
            return text if symbolic_names(text) else value
        if match.group(0) == text:
            return found
        text = text[: match.start()] + str(found) + text[match.end() :]
    return text


def _number(text: str) -> int | float | None:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return None


def _nest(flat: dict[str, Any]) -> dict[str, Any]:
    tree: dict[str, Any] = {}
    for key, value in flat.items():
        node = tree
        *parents, leaf = key.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    return tree


# ---------------------------------------------------------------------------- reading
class _Interpreter:
    """Native NeMo-RL values → the canonical model (docs/frameworks/nemo-rl.md §3)."""

    def __init__(self, values: Values, version: str, spec: RunSpec, notes: NoteList) -> None:
        self.v, self.version, self.spec, self.notes = values, version, spec, notes

    def run(self) -> None:
        self.topology()
        self.batch()
        self.other()

    def megatron(self) -> bool:
        return bool(self.v.flag("policy.megatron_cfg.enabled"))

    def topology(self) -> None:
        # Each field is set right after the keys it comes from are read (track_provenance records them).
        v, t = self.v, self.spec.topology
        t.nodes = nodes = v.positive_int("cluster.num_nodes")
        t.gpus_per_node = gpn = v.positive_int("cluster.gpus_per_node")
        t.colocate_models = colocated = v.flag("policy.generation.colocated.enabled")
        megatron = self.megatron()
        t.training_backend = "megatron" if megatron else "fsdp"  # DTensor FSDP2 (policy.dtensor_cfg)
        m, d = "policy.megatron_cfg.", "policy.dtensor_cfg."
        t.tensor_parallel_size = tp = (
            v.positive_int(m + "tensor_model_parallel_size" if megatron else d + "tensor_parallel_size") or 1
        )
        t.pipeline_parallel_size = pp = (v.positive_int(m + "pipeline_model_parallel_size") or 1) if megatron else 1
        t.context_parallel_size = cp = v.positive_int((m if megatron else d) + "context_parallel_size") or 1
        t.rollout_tensor_parallel_size = v.positive_int("policy.generation.vllm_cfg.tensor_parallel_size")
        if not isinstance(nodes, int) or not isinstance(gpn, int):
            return  # a count the script leaves to an unset variable: the world size is unknown
        # grpo.py:525-664@v0.7.0: the GPUs left for training when generation, and from 0.6.0 a reward model
        # environment the data uses, have their own.
        v.reads += ["cluster.num_nodes", "cluster.gpus_per_node", "policy.generation.colocated.enabled"]
        # which environments the data uses only switches the reward model's share on: accounted for, not a source
        placed = placed_gpus(
            lambda key: v.consume(key) if key in RM_USED_BY else v.get(key),
            bool(colocated),
            at_least(self.version, RM_SINCE),
        )
        if placed is None:
            return  # a count left to a variable, or a split the start-up checks (checks.py) reject
        train, rollout = placed.training, placed.generation
        for key in (RM_NODES, RM_GPN) if at_least(self.version, RM_SINCE) else ():
            v.consume(key)  # grpo.py reads them, and takes no GPU when the data uses no reward model
        if placed.reward_nodes or placed.reward_gpus_per_node:
            self.spec.derivations["topology.training_gpus"] = from_config(
                f"the cluster's {nodes} × {gpn} GPUs less the reward model environment's "
                + (f"{placed.reward_gpus_per_node} on the node" if nodes == 1 else f"{placed.reward_nodes} node(s)")
                + (f" and generation's {rollout}" if rollout else ""),
                "cluster.num_nodes",
                "cluster.gpus_per_node",
                RM_GPN if nodes == 1 else RM_NODES,
            )
        t.training_gpus = train
        t.rollout_gpus = rollout
        model = tp * pp * cp
        if train % model:
            self.notes.warning(
                "topology.indivisible",
                f"{train} training GPUs are not divisible by TP {tp} × PP {pp} × CP {cp} = {model}: "
                "NeMo-RL stops at start-up (nemo_rl/models/policy/lm_policy.py:204-211@v0.7.0)",
                source_keys=["cluster.gpus_per_node", "cluster.num_nodes"],
            )
            return
        self.spec.plan.data_parallel_size = train // model

    def batch(self) -> None:
        v, plan, budget = self.v, self.spec.plan, self.spec.token_budget
        plan.prompts_per_step = v.positive_int("grpo.num_prompts_per_step")
        plan.samples_per_prompt = v.positive_int("grpo.num_generations_per_prompt")
        plan.samples_per_optimizer_step = v.positive_int("policy.train_global_batch_size")
        plan.epochs_per_step = 1  # one pass over each step's samples: no PPO-epochs key
        packing = bool(v.flag("policy.sequence_packing.enabled"))
        dynamic = bool(v.flag("policy.dynamic_batching.enabled"))
        budget.dynamic_batching = packing or dynamic
        if packing or dynamic:
            section = "policy.sequence_packing" if packing else "policy.dynamic_batching"
            budget.max_tokens_per_device = v.positive_int(f"{section}.train_mb_tokens")
            budget.logprob_max_tokens_per_device = v.positive_int(f"{section}.logprob_mb_tokens")
            v.consume("policy.train_micro_batch_size")  # only inside the token budget's interpolation
        else:
            # samples: token-packed micro-batches have no sample count
            plan.micro_batch_per_device = v.positive_int("policy.train_micro_batch_size")
        self.spec.generation.logprob_micro_batch_per_device = v.positive_int("policy.logprob_batch_size")
        # MultipleDataloaderWrapper is an infinite iterator: max_num_epochs is ignored and the run is max_num_steps
        # steps of num_prompts_per_step prompts each (grpo.py:1397-1401@v0.6.0, 2221-2225@v0.7.0;
        # data/dataloader.py:18-70@v0.7.0 asserts each step's count)
        multiple = at_least(self.version, "0.6.0") and v.flag("data.use_multiple_dataloader")
        # async_grpo_train loops `while step < max_num_steps` with no epoch bound (grpo.py:1782@v0.4.0,
        # 3650@v0.7.0), but its collector makes one pass over the data (trajectory_collector.py:252@v0.7.0): a
        # dataset too small for those steps stalls the run after that pass
        asynchronous = at_least(self.version, "0.4.0") and v.flag("grpo.async_grpo.enabled")
        # min(max_num_steps, max_num_epochs × len(dataloader)) (grpo.py:818-822@v0.7.0); up to 0.3.1 one pass (`for
        # batch in dataloader`, stopping at max_num_steps: grpo.py:516,808@v0.3.1). Both limits are kept: the run is
        # max_num_steps long only with enough prompts (translator/api.py weighs that; --dataset-size decides it).
        steps = v.positive_int("grpo.max_num_steps")
        plan.total_steps = steps
        switch = "data.use_multiple_dataloader" if multiple else "grpo.async_grpo.enabled" if asynchronous else None
        endless = " (data.use_multiple_dataloader: its loaders never end, so grpo.max_num_epochs is ignored)"
        self.spec.derivations["plan.total_steps"] = Derivation(
            f"grpo.max_num_steps {steps}{endless if multiple else ''}",
            ["grpo.max_num_steps", *([switch] if switch else [])],
            "config" if "grpo.max_num_steps" in v.values else "default",
        )
        if multiple:
            v.consume("grpo.max_num_epochs")
        elif asynchronous:
            self.spec.run_length.dataset_passes = 1
            v.consume("grpo.max_num_epochs")
            self.notes.info(
                "semantics.run-length",
                "async GRPO trains until grpo.max_num_steps and ignores grpo.max_num_epochs, but its trajectory "
                "collector passes over the dataset once: a dataset of fewer steps' prompts stalls the run after it",
                source_keys=["grpo.async_grpo.enabled", "grpo.max_num_epochs"],
            )
        else:
            self.spec.run_length.dataset_passes = 1 if self.version == "0.3.1" else v.number("grpo.max_num_epochs")
        if self.version != "0.3.1":
            self.spec.generation.filter_groups = v.flag("grpo.use_dynamic_sampling")
            if v.consume("grpo.batch_multiplier") not in (None, 1):
                multiplier = v.number("grpo.batch_multiplier")  # prompts generated per step = P × multiplier
                if isinstance(plan.prompts_per_step, int) and isinstance(multiplier, (int, float)):
                    self.spec.generation.prompts_per_round = int(plan.prompts_per_step * multiplier)
            asynchronous = v.flag("grpo.async_grpo.enabled")
            self.spec.generation.rollout_mode = "async" if asynchronous else "sync"
            self.spec.asynchrony.max_steps_ahead = (
                v.positive_int("grpo.async_grpo.max_trajectory_age_steps") if asynchronous else 0
            )
        plan.complete()
        step, gbs = plan.samples_per_step, plan.samples_per_optimizer_step
        if isinstance(step, int) and isinstance(gbs, int) and step % gbs:
            # No partial global batch and no accumulation over steps: the first training call asserts whole ones
            # (batched_data_dict.py:395-397@v0.7.0), so the run makes no optimizer step at all.
            plan.optimizer_steps_per_step = None
            self.spec.derivations["plan.optimizer_steps_per_step"] = Derivation(
                f"{step} samples per step are not whole global batches of {gbs}: the first training call stops",
                ["policy.train_global_batch_size"],
                "unknown",
            )

    def other(self) -> None:
        v, s = self.v, self.spec
        new = self.version in ("0.6.0", "0.7.0")
        s.references.model = model = v.get("policy.model_name")
        tokenizer = v.get("policy.tokenizer.name")
        s.references.tokenizer = tokenizer if tokenizer != model else None
        self.data(new)
        # get_tokenizer (nemo_rl/algorithms/utils.py:373-387@v0.7.0): "default" keeps the tokenizer's template; a
        # .jinja path or Jinja text replaces it (null, a pass-through template, is not read)
        template = v.get("policy.tokenizer.chat_template")
        s.data.chat_template = template if isinstance(template, str) and template.lower() != "default" else None
        s.algorithm.advantage_estimator = v.get("grpo.adv_estimator.name") if new else "grpo"
        kl = v.number("loss_fn.reference_policy_kl_penalty")
        placement = "loss"
        if new and v.flag("loss_fn.use_kl_in_reward"):
            # the loss drops its KL term (loss_functions.py:225@v0.7.0); only REINFORCE++ adds it to the reward
            # (advantage_estimator.py:158-213@v0.7.0)
            placement = "reward" if s.algorithm.advantage_estimator == "reinforce_plus_plus" else "none"
        s.algorithm.kl_placement = placement if kl else "none"
        s.algorithm.kl_coef = kl if kl and placement != "none" else 0.0
        if self.version not in ("0.3.1", "0.4.0"):
            s.algorithm.kl_estimator = v.get("loss_fn.reference_policy_kl_type")
        s.algorithm.advantage_std_normalization = v.flag("grpo.normalize_rewards")
        s.algorithm.clip_ratio_low = v.number("loss_fn.ratio_clip_min")
        s.algorithm.clip_ratio_high = v.number("loss_fn.ratio_clip_max")
        s.algorithm.clip_ratio_dual = v.number("loss_fn.ratio_clip_c")
        s.algorithm.loss_aggregation = "token-mean" if v.flag("loss_fn.token_level_loss") else "seq-mean-token-mean"
        megatron = bool(v.consume("policy.megatron_cfg.enabled"))
        optimizer = "policy.megatron_cfg.optimizer" if megatron else "policy.optimizer.kwargs"
        s.optimizer.lr = v.number(f"{optimizer}.lr")
        s.optimizer.weight_decay = v.number(f"{optimizer}.weight_decay")
        s.optimizer.grad_clip = v.number(
            "policy.megatron_cfg.optimizer.clip_grad" if self.megatron() else "policy.max_grad_norm"
        )
        s.topology.rollout_gpu_memory_fraction = v.number("policy.generation.vllm_cfg.gpu_memory_utilization")
        null_length = v.get("policy.generation.max_new_tokens") is None
        s.lengths.max_response_tokens = None if null_length else v.positive_int("policy.generation.max_new_tokens")
        if null_length and v.get("policy.generation.backend") in ("vllm", "megatron"):
            # the release types it `int` (models/generation/interfaces.py) and its workers pass it on as the token
            # limit; a fork's own backend may take null, so this is no reason to refuse the plan
            self.notes.warning(
                "lengths.max-new-tokens-null",
                "policy.generation.max_new_tokens is null; NeMo-RL's own generation backends expect a whole "
                "number of tokens (set it, e.g. to ${policy.max_total_sequence_length})",
                source_keys=["policy.generation.max_new_tokens"],
            )
        s.sampling.temperature = v.number("policy.generation.temperature")
        s.sampling.top_p = v.number("policy.generation.top_p")
        top_k = v.get("policy.generation.top_k")
        s.sampling.top_k = -1 if top_k is None else top_k
        s.generation.rollout_backend = v.get("policy.generation.backend")
        s.checkpointing.every_steps = (
            v.positive_int("checkpointing.save_period") if v.flag("checkpointing.enabled") else 0
        )
        s.checkpointing.directory = v.get("checkpointing.checkpoint_dir")
        # grpo.py validates when val_period > 0 (grpo.py:404@v0.7.0): 0 or a negative value (-1) turns it off
        period = v.number("grpo.val_period")
        s.evaluation.every_steps = v.positive_int("grpo.val_period") if period is not None and period > 0 else 0
        s.evaluation.before_training = v.flag("grpo.val_at_start")
        backends = [
            name
            for name, key in (
                ("wandb", "logger.wandb_enabled"),
                ("tensorboard", "logger.tensorboard_enabled"),
                ("mlflow", "logger.mlflow_enabled"),
                ("swanlab", "logger.swanlab_enabled"),
            )
            if v.flag(key)
        ]
        s.logging.backends = ["console", *backends]
        s.logging.project = v.get("logger.wandb.project")
        s.logging.run_name = v.get("logger.wandb.name")
        # WandbLogger passes logger.wandb to wandb.init(**cfg) (nemo_rl/utils/logger.py@v0.7.0; WandbConfig
        # declares entity from 0.6.0)
        s.logging.entity = v.get("logger.wandb.entity")
        if self.version != "0.3.1":
            s.launch.seed = v.get("grpo.seed")

    def data(self, new: bool) -> None:
        v, d = self.v, self.spec.data
        if new and any(isinstance(v.values.get(f"data.{part}"), list) for part in ("train", "validation")):
            self.dataset_lists()
            return
        # NeMo-RL's dataset registry name (data.dataset_name up to 0.5.0, data.train.dataset_name from 0.6.0)
        dataset = v.get("data.train.dataset_name" if new else "data.dataset_name")
        if not new and dataset == "ResponseDataset" and self.version != "0.3.1":
            # 0.4.0 and 0.5.0: load_response_dataset builds ResponseDataset(train_data_path, val_data_path,
            # input_key, output_key, train_split, val_split) from the flat data section
            # (nemo_rl/data/datasets/response_datasets/__init__.py:97-115@v0.4.0, :109-127@v0.5.0)
            path = v.get("data.train_data_path")
            d.train_sources = [path] if isinstance(path, str) else None
            path = v.get("data.val_data_path")
            d.eval_sources = [path] if isinstance(path, str) else None
            d.prompt_key = v.get("data.input_key")
            d.answer_key = v.get("data.output_key")
            d.train_split = v.get("data.train_split")
            d.eval_split = v.get("data.val_split")
            return
        # a ResponseDataset loads data_path, a local file or a Hub id (response_dataset.py:42-61@v0.7.0)
        path = v.get("data.train.data_path") if new else None
        d.train_sources = [path] if isinstance(path, str) else [dataset] if isinstance(dataset, str) else None
        if new:
            path = v.get("data.validation.data_path")
            d.eval_sources = [path] if isinstance(path, str) else None
            answer = v.get(v.first("data.train.output_key", "data.default.output_key"))
            d.answer_key = answer if isinstance(answer, str) else None
            # the training dataset's prompt column (input_key; prompt_key in a preference dataset) and split, and the
            # validation set's split (ResponseDatasetConfig, PreferenceDatasetConfig: nemo_rl/data/__init__.py@v0.7.0);
            # data.default holds the settings every dataset entry inherits (grpo_math_1B.yaml@v0.7.0)
            d.prompt_key = v.get(
                v.first(
                    "data.train.input_key", "data.train.prompt_key", "data.default.input_key", "data.default.prompt_key"
                )
            )
            d.train_split = v.get("data.train.split") or v.get("data.default.split")
            d.eval_split = v.get("data.validation.split") or v.get("data.default.split")

    def dataset_lists(self) -> None:
        """From 0.6.0 data.train (and data.validation) may be a list of dataset entries, each filled from
        data.default where it leaves a key out (update_single_dataset_config); the training entries are
        concatenated into one dataset unless data.use_multiple_dataloader is on (setup_response_data,
        nemo_rl/data/utils.py:98-145@v0.6.0; merge_datasets from 0.7.0)."""
        v, d = self.v, self.spec.data

        def entries(part: str) -> list[dict[str, Any]]:
            value = v.get(f"data.{part}")
            listed = value if isinstance(value, list) else [value] if isinstance(value, dict) else []
            return [e for e in listed if isinstance(e, dict)]

        def common(found: list[dict[str, Any]], *names: str) -> Any:
            # the first entry's setting (a column or split rlconf models once for all its sources)
            return next((e[n] for e in found for n in names if isinstance(e.get(n), str)), None)

        def sources(found: list[dict[str, Any]]) -> list[str] | None:
            named = [e.get("data_path") or e.get("dataset_name") for e in found]
            return [str(n) for n in named if isinstance(n, str)] or None

        train = entries("train")
        d.train_sources = sources(train)
        prompt = common(entries("train"), "input_key", "prompt_key")
        d.prompt_key = prompt or v.get(v.first("data.default.input_key", "data.default.prompt_key"))
        answer = common(entries("train"), "output_key")
        d.answer_key = answer or v.get("data.default.output_key")
        d.train_split = common(entries("train"), "split") or v.get("data.default.split")
        validation = entries("validation")
        d.eval_sources = sources(validation)
        d.eval_split = common(entries("validation"), "split") or (v.get("data.default.split") if validation else None)


# ---------------------------------------------------------------------------- writing
# File suffixes load_dataset_from_path reads as local files (nemo_rl/data/datasets/utils.py:109-116@v0.7.0); any
# other data_path is a Hub id, whose split is given apart.
_LOCAL_DATA = (".arrow", ".csv", ".json", ".jsonl", ".parquet", ".txt")


def _local(path: str) -> bool:
    return path.endswith(_LOCAL_DATA)


def _unreadable(path: str) -> bool:
    """A local file 0.4.0 and 0.5.0 cannot load: their load_dataset_from_path reads .json and .jsonl
    (nemo_rl/data/datasets/utils.py:71-75@v0.4.0)."""
    return _local(path) and not path.endswith((".json", ".jsonl"))


class _Writer:
    """The canonical model → NeMo-RL keys (the ones that differ from nothing: every batch key is written)."""

    def __init__(self, spec: RunSpec, version: str, notes: NoteList) -> None:
        self.spec, self.version, self.notes = spec, version, notes
        self.keys: dict[str, Any] = {}
        self.verbatim: set[str] = set()  # keys whose text is written as it stands (not escaped for OmegaConf)

    def put(self, key: str, value: Any) -> None:
        if value is not None:
            self.keys[key] = value

    def run(self) -> dict[str, Any]:
        self.batch()
        self.topology()
        self.other()
        self.dropped()
        return self.keys

    def batch(self) -> None:
        p, s = self.spec.plan, self.spec
        prompts = whole_prompts(s, self.notes, "NeMo-RL", "grpo.num_prompts_per_step")
        n, gbs = p.samples_per_prompt, p.samples_per_optimizer_step
        if prompts and n and gbs and prompts * n < gbs and Fraction(gbs, n).denominator == 1:
            # NeMo-RL splits one step's samples into whole global batches (batched_data_dict.py:395-397@v0.7.0):
            # a source that updates once per several steps is written to generate the whole batch in one step.
            self.notes.warning(
                "batch.not-expressible",
                f"the source updates every {fmt(Fraction(gbs, prompts * n))} steps ({prompts} prompts × {n} per "
                f"step, {fmt(gbs)} samples per optimizer step); NeMo-RL needs a step's samples to be a multiple of "
                f"train_global_batch_size, so one step generates the whole optimizer batch ({gbs // n} prompts)",
                target_keys=["grpo.num_prompts_per_step"],
            )
            prompts = int(gbs) // n
        self.put("grpo.num_prompts_per_step", prompts)
        self.put("grpo.num_generations_per_prompt", n)
        if gbs is not None:
            whole = max(1, round(gbs))
            if Fraction(gbs).denominator != 1:
                self.notes.warning(
                    "batch.not-expressible",
                    f"{gbs} samples per optimizer step is not a whole number; policy.train_global_batch_size "
                    f"{whole} is written",
                    target_keys=["policy.train_global_batch_size"],
                )
            self.put("policy.train_global_batch_size", whole)
        if p.epochs_per_step not in (None, 1):
            self.notes.warning(
                "plan.not-preserved",
                f"NeMo-RL makes one pass over each step's samples; the source's {p.epochs_per_step} epochs per step "
                "are not written",
                source_keys=["plan.epochs_per_step", "plan.optimizer_steps_per_step"],
            )
        micro = p.micro_batch_per_device
        budget = s.token_budget
        if micro is not None and Fraction(micro).denominator == 1:
            self.put("policy.sequence_packing.enabled", False)
            self.put("policy.dynamic_batching.enabled", False)
            self.put("policy.train_micro_batch_size", int(micro))
            lp = s.generation.logprob_micro_batch_per_device
            if (
                lp
                and lp != micro
                and (s.topology.tensor_parallel_size or 1) >= 4
                and self.version in ("0.6.0", "0.7.0")
            ):
                # lm_policy.py:178-194@v0.7.0 refuses TP >= 4 with different training and log-prob micro-batches
                self.notes.warning(
                    "translation.changed",
                    f"NeMo-RL {self.version} needs the log-prob micro-batch to equal the training one with TP >= 4: "
                    f"policy.logprob_batch_size {int(micro)} is written (the source's {lp})",
                    target_keys=["policy.logprob_batch_size"],
                )
                lp = int(micro)
            self.put("policy.logprob_batch_size", lp or int(micro))
        elif budget.dynamic_batching and budget.max_tokens_per_device:
            # token-packed micro-batches (the base recipe's default): a budget of tokens per DP rank
            self.put("policy.sequence_packing.enabled", True)
            self.put("policy.dynamic_batching.enabled", False)
            self.put("policy.sequence_packing.train_mb_tokens", int(budget.max_tokens_per_device))
            logprob = budget.logprob_max_tokens_per_device or budget.max_tokens_per_device
            self.put("policy.sequence_packing.logprob_mb_tokens", int(logprob))
        else:
            self.put("policy.sequence_packing.enabled", True)
        if p.total_steps is not None:
            self.put("grpo.max_num_steps", int(p.total_steps))
        if s.run_length.dataset_passes is not None and self.version != "0.3.1":
            passes = s.run_length.dataset_passes
            if float(passes).is_integer():
                self.put("grpo.max_num_epochs", int(passes))
        if self.version != "0.3.1":
            ahead = s.asynchrony.max_steps_ahead
            if s.generation.rollout_mode == "async" or (ahead or 0) > 0:
                self.put("grpo.async_grpo.enabled", True)
                self.put("grpo.async_grpo.max_trajectory_age_steps", max(ahead or 1, 1))
            else:
                self.put("grpo.async_grpo.enabled", False)

    def topology(self) -> None:
        t, p = self.spec.topology, self.spec.plan
        if p.data_parallel_size is None:
            raise ConfigError("NeMo-RL needs the world size: the source's data-parallel size is unknown")
        tp = t.tensor_parallel_size or 1
        pp = t.pipeline_parallel_size or 1
        cp = t.context_parallel_size or 1
        megatron = t.training_backend == "megatron" or pp > 1
        if megatron:
            self.put("policy.megatron_cfg.enabled", True)
            self.put("policy.dtensor_cfg.enabled", False)
            self.put("policy.megatron_cfg.tensor_model_parallel_size", tp)
            self.put("policy.megatron_cfg.pipeline_model_parallel_size", pp)
            self.put("policy.megatron_cfg.context_parallel_size", cp)
        else:
            self.put("policy.dtensor_cfg.tensor_parallel_size", tp)
            self.put("policy.dtensor_cfg.context_parallel_size", cp)
        if t.sequence_parallel_size not in (None, 1):
            self.notes.warning(
                "plan.not-preserved",
                f"NeMo-RL has no Ulysses sequence parallelism; the source's degree {t.sequence_parallel_size} is "
                "not written (the data-parallel size is kept)",
                source_keys=["topology.sequence_parallel_size"],
            )
        train = p.data_parallel_size * tp * pp * cp
        rollout = t.rollout_gpus or 0
        asynchronous = self.keys.get("grpo.async_grpo.enabled", False)
        gpn, nodes = t.gpus_per_node, t.nodes
        if rollout or asynchronous:
            rollout = rollout or 1
            if gpn and nodes and nodes > 1 and train % gpn == 0 and rollout % gpn == 0:
                self.put("cluster.gpus_per_node", gpn)
                self.put("cluster.num_nodes", train // gpn + rollout // gpn)
                self.put("policy.generation.colocated.resources.num_nodes", rollout // gpn)
                self.put("policy.generation.colocated.resources.gpus_per_node", gpn)
            else:
                self.put("cluster.gpus_per_node", train + rollout)
                self.put("cluster.num_nodes", 1)
                self.put("policy.generation.colocated.resources.gpus_per_node", rollout)
            self.put("policy.generation.colocated.enabled", False)
        else:
            if gpn and nodes and gpn * nodes == train:
                self.put("cluster.gpus_per_node", gpn)
                self.put("cluster.num_nodes", nodes)
            else:
                self.put("cluster.gpus_per_node", train)
                self.put("cluster.num_nodes", 1)
            self.put("policy.generation.colocated.enabled", True)
        self.put("policy.generation.vllm_cfg.tensor_parallel_size", t.rollout_tensor_parallel_size)

    def other(self) -> None:
        s = self.spec
        self.put("policy.model_name", s.references.model)
        a = s.algorithm
        if a.kl_placement == "none":
            self.put("loss_fn.reference_policy_kl_penalty", 0.0)
        elif (
            a.kl_placement == "reward"
            and self.version in ("0.6.0", "0.7.0")
            and (a.advantage_estimator == "reinforce_plus_plus")
        ):
            self.put("grpo.adv_estimator.name", "reinforce_plus_plus")
            self.put("loss_fn.use_kl_in_reward", True)
            self.put("loss_fn.reference_policy_kl_penalty", a.kl_coef)
        elif a.kl_coef is not None:
            if a.kl_placement == "reward":
                self.notes.warning(
                    "translation.changed",
                    "NeMo-RL puts the KL penalty in the loss; the source's KL in the reward is written as a loss term",
                    target_keys=["loss_fn.reference_policy_kl_penalty"],
                )
            self.put("loss_fn.reference_policy_kl_penalty", a.kl_coef)
        if a.kl_estimator in ("k1", "k2", "k3") and self.version not in ("0.3.1", "0.4.0"):
            self.put("loss_fn.reference_policy_kl_type", a.kl_estimator)
        self.put("loss_fn.ratio_clip_min", a.clip_ratio_low)
        self.put("loss_fn.ratio_clip_max", a.clip_ratio_high)
        if a.advantage_std_normalization is not None:
            self.put("grpo.normalize_rewards", a.advantage_std_normalization)
        optimizer = (
            "policy.megatron_cfg.optimizer"
            if self.keys.get("policy.megatron_cfg.enabled")
            else "policy.optimizer.kwargs"
        )
        self.put(f"{optimizer}.lr", s.optimizer.lr)
        self.put(f"{optimizer}.weight_decay", s.optimizer.weight_decay)
        self.put("policy.max_grad_norm", s.optimizer.grad_clip)
        self.put("policy.generation.vllm_cfg.gpu_memory_utilization", s.topology.rollout_gpu_memory_fraction)
        self.put("policy.generation.temperature", s.sampling.temperature)
        self.put("policy.generation.top_p", s.sampling.top_p)
        if s.evaluation.every_steps is not None:
            self.put("grpo.val_period", int(s.evaluation.every_steps))
        if s.checkpointing.every_steps is not None:
            if s.checkpointing.every_steps:
                self.put("checkpointing.save_period", int(s.checkpointing.every_steps))
            else:
                self.put("checkpointing.enabled", False)
        self.put("checkpointing.checkpoint_dir", s.checkpointing.directory)
        backends = s.logging.backends or []
        for name in ("wandb", "tensorboard", "mlflow") + (("swanlab",) if self.version != "0.3.1" else ()):
            if name in backends:
                self.put(f"logger.{name}_enabled", True)
        self.put("logger.wandb.project", s.logging.project)
        self.put("logger.wandb.name", s.logging.run_name)
        self.put("logger.wandb.entity", s.logging.entity)
        if self.version != "0.3.1" and isinstance(s.launch.seed, int):
            self.put("grpo.seed", s.launch.seed)
        self.data()

    def data(self) -> None:
        """The source's prompts as NeMo-RL's generic ResponseDataset (a local file or a Hub id; input_key the prompt
        column, output_key the answer column), so the recipe does not train on the base recipe's
        OpenMathInstruct-2: the flat data.train_data_path form in 0.4.0 and 0.5.0, data.train from 0.6.0 (a list
        of datasets for several sources)."""
        d = self.spec.data
        if not d.train_sources:
            return
        if self.version == "0.3.1":
            # run_grpo_math.py:135-145@v0.3.1 builds OpenMathInstruct-2 or DeepScaler and nothing else
            self.not_written("NeMo-RL 0.3.1's GRPO entry loads only its OpenMathInstruct-2 and DeepScaler datasets")
            return
        from translator.dialects.registry import data_loader

        own = data_loader(self.spec.framework, self.spec)  # the source loader's default columns
        prompt = d.prompt_key or (own.prompt_default if own else None)
        answer = d.answer_key or next((name for role, name in (own.required if own else ()) if role == "answer"), None)
        flat = self.version in ("0.4.0", "0.5.0")
        written = self.flat_data(prompt, answer) if flat else self.dataset_entries(prompt, answer)
        if not written:
            return
        weights = d.train_weights
        if weights and len(d.train_sources) > 1 and any(w != 1 for w in weights):
            self.notes.warning(
                "data.not-expressible",
                f"NeMo-RL concatenates its training datasets whole (nemo_rl/data/utils.py:136-145@v0.6.0); the "
                f"source's mixture weights {weights} (a share or a count of prompts per source) are not written",
                source_keys=["data.train_weights"],
                target_keys=["data.train"],
            )
        relative = [path for path in written if path.endswith(_LOCAL_DATA) and not path.startswith(("/", "~", "$"))]
        if relative:
            self.notes.warning(
                "data.local-files",
                f"{', '.join(relative)}: a relative path resolves against the NeMo-RL checkout root, where the "
                "written launch.sh runs; give the file's absolute path or copy it there",
                source_keys=["data.train_sources"],
                target_keys=["data.train_data_path" if flat else "data.train.data_path"],
            )

    def not_written(self, why: str) -> None:
        d = self.spec.data
        self.notes.warning(
            "data.not-expressible",
            f"the training data ({', '.join(d.train_sources or ())}) is not written for NeMo-RL {self.version}: "
            f"{why}; the recipe trains on the base recipe's dataset (OpenMathInstruct-2) instead",
            source_keys=["data.train_sources"],
            target_keys=["data.dataset_name" if self.version in ("0.3.1", "0.4.0", "0.5.0") else "data.train"],
        )

    def no_validation(self, why: str) -> None:
        """0.4.0 and 0.5.0 assert a validation set when grpo.val_period > 0 or val_at_start (grpo.py:271-274@v0.4.0,
        277-280@v0.5.0; both false in the base recipe); a ResponseDataset without val_data_path has none
        (response_dataset.py:54-57@v0.4.0)."""
        e = self.spec.evaluation
        self.put("grpo.val_period", 0)
        if e.every_steps or e.before_training:
            self.notes.warning(
                "evaluation.not-expressible",
                f"{why}: NeMo-RL {self.version} validates only on data.val_data_path, so the source's evaluation "
                "is not run (grpo.val_period 0; set data.val_data_path to a JSON Lines file to validate)",
                source_keys=["evaluation.every_steps", "data.eval_sources"],
                target_keys=["grpo.val_period", "data.val_data_path"],
            )

    def flat_data(self, prompt: str | None, answer: str | None) -> list[str]:
        """0.4.0 and 0.5.0: load_response_dataset builds ResponseDataset(train_data_path, val_data_path, input_key,
        output_key, train_split, val_split) from the flat data section when data.dataset_name is ResponseDataset
        (nemo_rl/data/datasets/response_datasets/__init__.py:97-115@v0.4.0, 109-127@v0.5.0; run_grpo_math.py
        and, in 0.5.0, run_grpo.py call it). Its load_dataset_from_path reads only .json and .jsonl as local
        files; any other path goes to load_dataset(path), a Hub id or a dataset directory (utils.py:71-75@v0.4.0,
        71-81@v0.5.0). The paths written are returned (none: the data is not written)."""
        d = self.spec.data
        sources = d.train_sources or []
        if len(sources) > 1:
            self.not_written(
                f"NeMo-RL {self.version} reads one training dataset (data.train_data_path); a list of datasets "
                "under data.train arrives in 0.6.0"
            )
            return []
        if _unreadable(sources[0]):
            self.not_written(
                f"NeMo-RL {self.version} reads only .json and .jsonl files as local data (convert "
                f"{sources[0]} to JSON Lines)"
            )
            return []
        self.put("data.dataset_name", "ResponseDataset")
        self.put("data.train_data_path", sources[0])
        self.put("data.input_key", prompt)
        self.put("data.output_key", answer or None)
        if not _local(sources[0]):
            self.put("data.train_split", d.train_split)
        evals = d.eval_sources or []
        if not evals:
            self.no_validation("the source names no validation set")
            return sources[:1]
        if _unreadable(evals[0]):
            self.no_validation(f"{evals[0]} is not a .json or .jsonl file, the only local files this release reads")
            return sources[:1]
        if len(evals) > 1:
            self.notes.warning(
                "evaluation.not-expressible",
                f"NeMo-RL {self.version} validates on one dataset (data.val_data_path): {evals[0]} is written, "
                f"{', '.join(evals[1:])} not",
                source_keys=["data.eval_sources"],
                target_keys=["data.val_data_path"],
            )
        self.put("data.val_data_path", evals[0])
        if not _local(evals[0]):
            self.put("data.val_split", d.eval_split)
        return [sources[0], evals[0]]

    def dataset_entries(self, prompt: str | None, answer: str | None) -> list[str]:
        """From 0.6.0: one ResponseDataset entry per source (data_path, input_key, output_key; split for a Hub
        id: response_dataset.py:42-61@v0.7.0). One training and at most one validation source are written as
        data.train / data.validation mappings, merged into the base recipe's; several as lists, which OmegaConf
        cannot merge into the base's mapping, so the whole data section is written with `_override_: true`
        (merge_with_override, nemo_rl/utils/config.py:30-44@v0.6.0), restating the base's other data keys
        (grpo_math_1B.yaml:366-386@v0.7.0, the same at v0.6.0). setup_response_data concatenates the training
        entries into one dataset, as verl concatenates its train files, and the validation entries likewise
        (data/utils.py:98-145,175-211@v0.6.0); use_multiple_dataloader false keeps that (true would draw
        num_prompts_per_dataloader prompts from each dataset per step)."""
        d = self.spec.data
        trains, evals = d.train_sources or [], d.eval_sources or []

        def entry(path: str, split: str | None) -> dict[str, Any]:
            e = {"dataset_name": "ResponseDataset", "data_path": path, "input_key": prompt, "output_key": answer}
            if not _local(path):
                e["split"] = split
            return {k: v for k, v in e.items() if v}

        if len(trains) == 1 and len(evals) <= 1:
            for key, value in entry(trains[0], d.train_split).items():
                self.put(f"data.train.{key}", value)
            if evals:
                for key, value in entry(evals[0], d.eval_split).items():
                    self.put(f"data.validation.{key}", value)
                # the base holds back 5% of the training data for validation (split_validation_size 0.05): the
                # source validates on its own set, so none is cut
                self.put("data.train.split_validation_size", 0)
            return [*trains, *evals]
        self.keys["data._override_"] = True
        self.keys.update(DATA_SECTION)
        self.verbatim.add("data.max_input_seq_length")  # an interpolation OmegaConf resolves, not text
        self.keys["data.train"] = [entry(path, d.train_split) for path in trains]
        self.keys["data.validation"] = [entry(path, d.eval_split) for path in evals] or None
        if not evals:
            # the base's 5% held back from the training data goes with the section it replaces; grpo.py:403-410
            # @v0.7.0 asserts a validation set when grpo.val_period > 0 (val_at_start, val_at_end: false in the base)
            e = self.spec.evaluation
            self.put("grpo.val_period", 0)
            if e.every_steps or e.before_training:
                self.notes.warning(
                    "evaluation.not-expressible",
                    "the source names no validation set and the written data section holds back none: the "
                    "source's evaluation is not run (grpo.val_period 0; add a data.validation entry to validate)",
                    source_keys=["evaluation.every_steps", "data.eval_sources"],
                    target_keys=["grpo.val_period", "data.validation"],
                )
        return [*trains, *evals]

    def dropped(self) -> None:
        keys = [e.key for e in self.spec.extras if e.framework != "nemo-rl"]
        if keys:
            self.notes.info(
                "keys.not-translated",
                not_written(self.spec.extras[0].framework, keys, "NeMo-RL"),
                source_keys=keys,
            )
