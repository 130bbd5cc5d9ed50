"""A TRL training script written as Python: the keyword arguments of its ``GRPOConfig(...)`` call, read statically
(translator/sources/pyconfig.py), whether the script is given itself or a launch script runs it; and which
variant of TRL it runs (a package imported before trl that patches GRPOConfig)."""

from __future__ import annotations

import ast
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from translator.errors import ConfigError
from translator.notes import NoteList
from translator.sources.code import (
    MAX_FILE_BYTES,
    PackageImport,
    Project,
    launched_scripts,
    main_block,
    project_files,
    project_root,
    refuse_import_off_the_path,
    refuse_startup_failures,
)
from translator.sources.files import Source, read_text
from translator.sources.pyconfig import PythonConfig, config_calls, overrides, parse, read_config

if TYPE_CHECKING:
    from translator.frameworks.trl.dialect import NativeTrl

# GRPOConfig as imported from trl (``trl.GRPOConfig`` too: the called name's last part) and Unsloth's patched class.
CONFIG_CLASSES = ("GRPOConfig", "UnslothGRPOConfig")
CONSUMER = ("GRPOTrainer", "args")  # with several config calls, the one the trainer receives is read
# A package that patches TRL's GRPOConfig when imported before trl → the dialect of that variant.
VARIANTS = {"unsloth": "unsloth"}


_ENTRY_SCAN = 3_000  # project Python files searched for the one script that imports a module given itself


def _importing_entry(source: Source) -> Source | None:
    """The program a module given itself runs in: for a file with no ``if __name__ == "__main__":`` block (a module,
    not a script), the one project script (a file with such a block) whose imports reach it; None otherwise."""
    if source.files or source.base_dir is None or not os.path.isfile(source.name):
        return None
    if main_block(parse(source)) is not None:
        return None
    module = os.path.realpath(source.name)
    root = project_root(os.path.dirname(module))
    entries = []
    for path in [p for p in project_files(root) if p.endswith(".py")][:_ENTRY_SCAN]:
        if os.path.realpath(path) == module or "__main__" not in (read_text(path, MAX_FILE_BYTES) or ""):
            continue
        project = Project(root, os.path.dirname(path))
        tree = project.tree(path)
        if tree is not None and main_block(tree) and module in project.reachable(path, limit=_DELEGATE_FILES):
            entries.append(path)
    return source.sibling(entries[0], "entry script") if len(entries) == 1 else None


def program_variant(entry: Source, fallback: str | None) -> str | None:
    """The TRL variant the program started at ``entry`` runs, by the imports Python runs from it in order: a patching
    package (Unsloth) imported, anywhere in the project's modules, before trl is; None when trl comes first;
    ``fallback`` (the config's own file's imports) when the entry is not a project file."""
    for project, path in launched_scripts(entry, None, entry.name):
        return VARIANTS.get(project.first_import(path, ("trl", *VARIANTS)) or "")
    return fallback


def variant_of(config: PythonConfig) -> str | None:
    """The registered dialect of the TRL variant the script runs: a patching package imported before trl."""
    for module in config.imports:
        top = module.split(".")[0]
        if top == "trl":
            return None
        if top in VARIANTS:
            return VARIANTS[top]
    return None


def merge(config: PythonConfig, where: str, native: NativeTrl, notes: NoteList, env: Mapping[str, str]) -> None:
    """The config call's keyword arguments into ``native`` (a value already set by the launch line's flags or a
    recipe stays); a value not read is taken from ``--env KEY=VALUE`` when given, else it becomes unknown, with the
    line and what would make it readable."""
    call = config.call
    assert call is not None
    for key, value in call.values.items():
        if key not in native.values:
            native.values[key] = value
            native.origins[key] = call.origins[key]
    for key, why in call.unknown.items():
        if key in env and key not in native.values:
            native.values[key], native.origins[key] = env[key], f"--env {key}"
            continue
        notes.warning(
            "input.python-value-not-read",
            f"{why}; {key} is unknown (pass --env {key}=VALUE, or write a literal, or a name bound once at module "
            "level to one, for rlconf to read it)",
            source_keys=[key],
        )
        if key.isidentifier() and key not in native.values:
            native.values[key] = f"${{{key}}}"  # symbolic: the counts built on it are unknown, naming the key
            native.origins[key] = why.split(": ", 1)[0]
    native.variant = variant_of(config)
    native.python_script = where


def read_python(source: Source, native: NativeTrl, notes: NoteList, env: Mapping[str, str]) -> None:
    """A training script given itself: its GRPOConfig call, or that of the one project module it hands the training
    to (``from train_module.train import train_model``; ConfigError when there is neither). Run as written
    (``python script.py``, no arguments: its own options take their defaults) it is one process, an assumption."""
    config = read_config(source, CONFIG_CLASSES, CONSUMER, [])
    where = source.name
    if config.call is None:
        handed = delegate(source, None, source.name)
        config = read_config(handed, CONFIG_CLASSES, CONSUMER, []) if handed is not None else config
        where = handed.name if handed is not None else where
    if config.call is None:
        raise ConfigError(
            "no GRPOConfig(...) call found",
            file=source.name,
            hint="pass the script that builds the GRPOConfig (or its launch script), or a TRL recipe YAML",
        )
    merge(config, where, native, notes, env)
    native.variant = program_variant(_importing_entry(source) or source, native.variant)
    # the file does not say how it is launched (python, accelerate launch, torchrun): one process is assumed
    native.world_size, native.world_size_assumed = 1, True
    native.world_size_from = "a Python script run as written (python script.py: one process; pass --num-processes N)"


def launched(
    source: Source, cwd: str | None, script: str, native: NativeTrl, path_set: bool = False, module: str | None = None
) -> Source | None:
    """The .py a launch line runs, when it is in the project (or among the files held in memory); its imports of
    trl at start-up go to ``native.trl_imports``. ``path_set``: the launch sets PYTHONPATH; ``module``: the
    launch runs the file as that module of its package (``-m pkg.train``), whose relative imports work."""
    if script in source.files:  # files held in memory (a translation read back)
        return source.sibling(script, "training script")
    for project, path in launched_scripts(source, cwd, script):
        refuse_startup_failures(project, path, module, source.name)
        if script.endswith(".py") and module is None:
            refuse_import_off_the_path(project, path, source.name, path_set)
        native.trl_imports = project.package_imports(path, None, "trl")
        return source.sibling(str(path), "training script")
    return None


def script_imports(source: Source) -> list[PackageImport]:
    """The imports of trl a training script given itself makes at start-up (after its own start-up checks:
    :func:`refuse_startup_failures`)."""
    if source.files or source.base_dir is None or not os.path.isfile(source.name):
        return []
    folder = os.path.dirname(os.path.realpath(source.name))
    project = Project(project_root(folder), folder)
    refuse_startup_failures(project, source.name, None, source.name)
    return project.package_imports(source.name, None, "trl")


def trains_without_trl(source: Source, cwd: str | None, script: str) -> bool:
    """Whether a project script a launch line runs certainly trains nothing with TRL: neither it nor a project
    file it imports imports trl (or Unsloth, which wraps it) or names a trainer in its code: a data builder or a
    reward self-test beside the training launch. False when the script is not in the project (nothing to tell by)
    or a file cannot be read."""
    for project, path in launched_scripts(source, cwd, script):
        for file in project.reachable(path):
            tree = project.tree(file)
            if tree is None or any(_trains(node) for node in ast.walk(tree)):
                return False
        return True
    return False


def _trains(node: ast.AST) -> bool:
    """An import of trl or Unsloth, or a name of a trainer (``GRPOTrainer``, a project's ``Trainer`` wrapper). Of
    trl, an import of its helpers alone (``from trl.data_utils import maybe_apply_chat_template``: an evaluation
    script formatting prompts) trains nothing."""
    if isinstance(node, ast.Import):
        return any(a.name.split(".")[0] in ("trl", "unsloth") for a in node.names)
    if isinstance(node, ast.ImportFrom):
        package = (node.module or "").split(".")[0]
        helpers_only = (
            package == "trl"
            and "." in (node.module or "")
            and not any(a.name == "*" or "Trainer" in a.name or "Config" in a.name for a in node.names)
        )
        return package in ("trl", "unsloth") and not helpers_only
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return "Trainer" in name or "GRPO" in name


def follow(
    script: Source,
    native: NativeTrl,
    notes: NoteList,
    env: Mapping[str, str],
    argv: list[str],
    entry: Source | None = None,
) -> bool:
    """The .py a launch line runs, when it builds a GRPOConfig itself; ``argv`` are the words the launch passes
    it, which its own argparse options take (``GRPOConfig(num_generations=args.num_generations)``). Whether the
    script parses them with its own options (then they are its arguments, not TRL's). ``entry``: the program the
    launch starts, when ``script`` is a module it hands the training to (its imports decide the variant)."""
    recipe = hydra_recipe(script)
    compose = (lambda words: recipe(words)[0]) if recipe is not None else None
    config = read_config(script, CONFIG_CLASSES, CONSUMER, argv, compose)
    native.script_arguments = config.argument_values
    native.composed_by_hydra = config.composed_by_hydra
    if config.call is not None:
        merge(config, script.name, native, notes, env)
        native.variant = program_variant(entry or script, native.variant)
    return config.call is not None and config.own_arguments


def hydra_recipe(
    script: Source,
) -> Callable[[list[str]], tuple[dict[str, Any], list[str], list[str]]] | None:
    """A training script that composes its arguments with ``@hydra.main`` (its config folder beside it): how the
    launch's words compose them (translator/sources/hydra.py ``compose``); None for any other script."""
    from translator.sources.hydra import compose, hydra_main

    if script.files or not script.name.endswith(".py"):
        return None
    found = hydra_main(parse(script))
    if found is None:
        return None
    config_path, config_name = found
    folder = os.path.normpath(os.path.join(os.path.dirname(script.name), config_path))

    def read(relative: str) -> tuple[str, str] | None:
        path = os.path.normpath(os.path.join(folder, relative))
        if not path.startswith(folder + os.sep) or not os.path.isfile(path):
            return None
        text = read_text(path, 2_000_000)  # a config is a few kB
        return (os.path.relpath(path), text) if text is not None else None

    return lambda words: compose(read, config_name, words)


def delegate(source: Source, cwd: str | None, script: str) -> Source | None:
    """The project module a launched script hands the training to (``from training.grpo import main; main()``),
    when the script builds no GRPOConfig itself and exactly one project module it reaches does: that module reads
    the launch's arguments (``sys.argv`` is the script's) and builds the config. None otherwise."""
    for project, path in launched_scripts(source, cwd, script):
        found = [
            module
            for module in project.reachable(path, limit=_DELEGATE_FILES)[1:]
            if (tree := project.tree(module)) is not None and config_calls(tree, CONFIG_CLASSES)
        ]
        return source.sibling(found[0], "training module") if len(found) == 1 else None
    return None


_DELEGATE_FILES = 12  # modules a launched script's imports reach, searched for the one that builds the config


def apply_overrides(
    script: Source, fields: frozenset[str], native: NativeTrl, notes: NoteList, env: Mapping[str, str]
) -> None:
    """Fields the training script sets on its parsed arguments after parsing (``training_args.num_generations =
    4``, translator/dialects/forkbatch.py ``apply_overrides``); ``--env KEY=VALUE`` gives one it computes."""
    from translator.concordance import shapes_plan
    from translator.dialects.forkbatch import apply_overrides as apply

    apply(
        overrides(script, fields),
        native.values,
        native.origins,
        notes,
        shapes_plan=lambda key: shapes_plan("trl", key),
        symbolic=lambda found: f"${{{found.key}}}",  # the counts built on it are unknown, naming the key
        hint=lambda key: f"pass --env {key}=VALUE with the value the run uses",
        env=env,
    )


def variant_note(recipe: dict[str, Any], world: int, notes: NoteList) -> None:
    """A written recipe whose batch Unsloth would rewrite, were its values passed to GRPOConfig in a script that
    imports unsloth first (docs/frameworks/unsloth.md §2): which releases, and the batch that would run."""
    from translator.frameworks.unsloth.tables import RELEASES, fires

    keys = ("per_device_train_batch_size", "gradient_accumulation_steps", "num_generations")
    counts = [v for k in keys if isinstance(v := recipe.get(k), int) and not isinstance(v, bool) and v > 0]
    if len(counts) != len(keys):
        return
    b, gas, group = counts
    batch_set = recipe.get("steps_per_generation") is not None or recipe.get("generation_batch_size") is not None
    releases = [r for r in RELEASES if fires(r, b, gas, group, world, batch_set)]
    if releases:
        notes.warning(
            "unsloth.plan-rewritten",
            f"run under Unsloth (a script importing unsloth before trl), unsloth {', '.join(releases)} would set "
            f"per_device_train_batch_size {b} to num_generations {group}: {group * gas * world} completions per "
            f"optimizer step instead of {b * gas * world}; keep the batch a multiple of the group there",
            target_keys=["per_device_train_batch_size"],
        )
