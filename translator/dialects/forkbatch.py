"""Fork code that forms batches its own way: keys a fork adds, and a fork entry's own trainer.

A launch that sets a key the upstream release lacks runs code that reads it; where that code (or the block it
guards) repeats, concatenates, splits, filters or counts the batch's rows, or sets a batch or group size
(translator/sources/code.py ``batch_touches``), the plan quantities of that kind are unknown
(``framework.fork-batch-key``). A fork entry's trainer (``python -m pkg.main_x`` resolving to project code) has
its ``fit`` compared with upstream's batch-forming statements (fork_tables.UPSTREAM_FIT, short signatures per
release band): statements upstream does not have make the plan unknown (``framework.fork-batch-code``); none
make it verified (``framework.fork-verified``). The project's own copy of the workers' mini- and micro-batch
sizing (fork_tables.UPSTREAM_WORKER: verl, EasyR1, OpenRLHF's strategy) is compared the same way
(``compare_workers``); when it matches upstream's, or the project holds none, code outside it that repeats
prompts or sizes the step leaves the per-update quantities known (TRAINER_AFFECTS).
"""

from __future__ import annotations

import ast
import copy
import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from translator.dialects.base import UNKNOWN, version_key
from translator.dialects.fork_tables import UPSTREAM_FIT, UPSTREAM_WORKER
from translator.dialects.release_names import Installed
from translator.errors import ConfigError
from translator.notes import NoteList
from translator.patterns import lazy
from translator.plan import Derivation, RunSpec
from translator.records import record
from translator.sources.code import (
    ClassInfo,
    KeyEffects,
    Project,
    RunConfig,
    Touch,
    batch_touches,
    behind_switch,
    decided_away,
    dotted_path,
    instance_settings,
    normalisation_touches,
    normalising_functions,
    project_root,
    refuse_startup_failures,
    run_dirs,
    substitute,
    untaken,
    validation_function,
)
from translator.sources.files import Source, flatten, read_text
from translator.sources.pyconfig import Override

# The plan quantities each kind of batch-forming code decides (the data-parallel size is the launch's GPU
# arithmetic and the epochs its own key: a fork keeps both).
AFFECTS = {
    "group": (
        "samples_per_prompt",
        "samples_per_step",
        "samples_per_optimizer_step",
        "optimizer_steps_per_step",
        "micro_batch_per_device",
        "grad_accum_steps",
    ),
    "size": (
        "prompts_per_step",
        "samples_per_step",
        "samples_per_optimizer_step",
        "optimizer_steps_per_step",
        "micro_batch_per_device",
        "grad_accum_steps",
        "total_steps",
    ),
    "rows": ("samples_per_optimizer_step", "optimizer_steps_per_step", "grad_accum_steps"),
    # a dataset class's own filtering or counting: how many prompts there are, so the run's length only
    "dataset": ("total_steps",),
}
AFFECTS["batches"] = tuple(dict.fromkeys(AFFECTS["group"] + AFFECTS["size"]))
# When the workers size mini- and micro-batches as upstream's do, from the configured sizes (fork_tables
# UPSTREAM_WORKER), code outside them that repeats prompts or sizes the step leaves the per-update quantities alone.
TRAINER_AFFECTS = {
    "group": ("samples_per_prompt", "samples_per_step", "optimizer_steps_per_step"),
    "size": ("prompts_per_step", "samples_per_step", "optimizer_steps_per_step", "total_steps"),
    # rows the trainer filters, resamples or counts before the update: how many samples the step trains on
    "rows": ("samples_per_step", "optimizer_steps_per_step"),
    "dataset": AFFECTS["dataset"],
}
TRAINER_AFFECTS["batches"] = tuple(dict.fromkeys(TRAINER_AFFECTS["group"] + TRAINER_AFFECTS["size"]))
_ALL = tuple(dict.fromkeys(q for qs in AFFECTS.values() for q in qs))
# The leaf names of a group size (samples per prompt): a fork's own key of that name sets its group
_GROUP_LEAF = lazy(r"n|n_samples(_per_prompt)?|num_samples(_per_prompt)?|group_(n|size)|num_generations|rollout_n")
MAX_CONFIG_BYTES = 2_000_000  # a Hydra config is a few kB


def installed_copy(
    source: Source, cwd: str | None, entry: str, copy_dir: str | None, pythonpath: str | None = None
) -> str | None:
    """The folder to look ``python -m <entry>`` up from: ``cwd`` when the project code is found from there (see
    :func:`locate`), else a folder of the launch's PYTHONPATH (``pythonpath``, as the script sets it) that holds
    it, else the folder holding the package of a copy of the framework the project
    keeps and installs (``cd verl && pip install -e .``: the module runs from that copy), when the module is there."""
    if entry.endswith(".py") or "/" in entry or locate(source, cwd, entry) is not None:
        return cwd
    for part in (pythonpath or "").split(":"):
        if part and not set("$`~") & set(part):
            # from the command's folder; or from where rlconf runs, for a folder the shell reader resolved
            # from the script's own (``$(cd "$(dirname "$0")" && pwd)/examples``)
            for folder in dict.fromkeys((os.path.normpath(os.path.join(cwd or ".", part)), os.path.abspath(part))):
                if locate(source, folder, entry) is not None:
                    return folder
    if copy_dir is None:
        return cwd
    return copy_dir if locate(source, copy_dir, entry) is not None else cwd


def run_counter(source: Source, cwd: str | None, entry: str, total: str) -> tuple[str, str] | None:
    """What the launched entry's own trainer counts toward the run's length: the first ``self.X >= self.<total>``
    (or ``self.<total> <= self.X``) in the entry or the project modules it imports (at most 40), as ``(X,
    'file:line')``; None when the entry is not project code or no such comparison is there."""
    found = locate(source, cwd, entry)
    if found is None:
        return None
    project, path = found
    for module in project.reachable(path, limit=40):
        for node in ast.walk(project.tree(module) or ast.Module([], [])):
            if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
                continue
            left, right = node.left, node.comparators[0]
            if isinstance(node.ops[0], ast.LtE):
                left, right = right, left
            elif not isinstance(node.ops[0], ast.GtE):
                continue
            if isinstance(right, ast.Attribute) and right.attr == total and isinstance(left, ast.Attribute):
                return left.attr, f"{project.rel(module)}:{node.lineno}"
    return None


def copy_defaults(
    declared: Mapping[str, Any],
    defaults: dict[str, Any],
    launch: Mapping[str, Any],
    what: str,
    where: str,
    notes: NoteList,
) -> dict[str, Any]:
    """``defaults`` with those a copy of the framework sets otherwise (``declared``, in ``what``, at the file or
    folder ``where``) for the keys the ``launch`` leaves: the run uses the copy's (``framework.copy-defaults``). An
    interpolation, a mapping or a list keeps the release's default."""
    from translator.sources.hydra import scalar

    own = {
        key: value
        for key, value in declared.items()
        if key in defaults
        and key not in launch
        and not (isinstance(value, str) and "${" in value)
        and not isinstance(value, (dict, list))
        and scalar(str(value)) != scalar(str(defaults[key]))
    }
    if own:
        shown = ", ".join(f"{k}={v} (the release's {defaults[k]})" for k, v in list(own.items())[:4])
        notes.info(
            "framework.copy-defaults",
            f"{what} ({where}) sets defaults of its own: {shown}"
            + (f" and {len(own) - 4} more" if len(own) > 4 else "")
            + "; the run uses them",
            source_keys=[where, *own],
        )
    return {**defaults, **own}


def locate(source: Source, cwd: str | None, entry: str) -> tuple[Project, str] | None:
    """The project and the entry's file: ``pkg.mod`` (python -m) or a script path, looked up from the working
    directory, then from the launching script's folder; None when the entry is not project code."""
    for run_dir in run_dirs(source, cwd):
        project = Project(project_root(run_dir), run_dir)
        if entry.endswith(".py") or "/" in entry:
            path = project.script(entry)
        else:  # python -m from the run dir, or from a folder above the launching script (the project's top)
            near = os.path.join(str(source.base_dir), "-") if source.base_dir is not None and not source.files else None
            path = project.module(entry, near)
        if path is not None:
            return project, path
    return None


def hydra_entry_naming(source: Source) -> str | None:
    """The project script whose ``@hydra.main(config_path=..., config_name=...)`` composes the config file
    ``source`` (read alone): the run's entry, as the project's own instructions launch it (``python train.py
    --config-name base``). Looked for in the config's folder and each folder above it up to the project's top,
    where a script's ``config_path`` can reach it; None when no script there names it."""
    from translator.sources.hydra import hydra_main

    if source.base_dir is None or source.files:
        return None
    config = os.path.realpath(os.path.join(str(source.base_dir), os.path.basename(source.name)))
    folder = os.path.dirname(config)
    root = project_root(folder)
    while True:
        try:
            names = sorted(n for n in os.listdir(folder) if n.endswith(".py"))
        except OSError:
            names = []
        for name in names[:_MAX_ENTRY_CANDIDATES]:
            path = os.path.join(folder, name)
            text = read_text(path, MAX_CONFIG_BYTES)
            if text is None or "hydra.main" not in text:
                continue
            try:
                found = hydra_main(ast.parse(text))
            except (SyntaxError, ValueError):
                continue
            if found is not None:
                named = os.path.join(folder, found[0], found[1] + ".yaml")
                if os.path.realpath(named) == config:
                    return path
        if folder == root or os.path.dirname(folder) == folder:
            return None
        folder = os.path.dirname(folder)


_MAX_ENTRY_CANDIDATES = 200  # scripts looked at per folder


def null_numbers_unknown(values: dict[str, Any], defaults: Mapping[str, Any], where: str, notes: NoteList) -> None:
    """Keys the config leaves null where the framework's own entry needs a number (``data.max_prompt_length:
    null``), in a run of the project's own entry (at ``where``): that code, not the framework's, decides what they
    mean (it may never read them), so each stands for an unknown value instead of stopping the read."""
    nulls = [
        key
        for key, value in values.items()
        if value is None and isinstance(defaults.get(key), (int, float)) and not isinstance(defaults.get(key), bool)
    ]
    for key in nulls:
        values[key] = f"$({key} left null for {where})"
    if nulls:
        notes.info(
            "framework.fork-null-keys",
            f"the config leaves {', '.join(nulls[:4])}{' and more' if len(nulls) > 4 else ''} null, which the "
            f"framework's entry needs as numbers; the project's own entry {where} runs instead, and what it makes "
            "of them is not read: unknown",
            source_keys=nulls,
        )


def refuse_certain_stop(
    source: Source,
    project: Project,
    path: str,
    function: str | None,
    flags: Mapping[str, Any],
    line: int,
    what: str,
    prefixed_parses: Mapping[str, tuple[str, ...]] | None = None,
) -> None:
    """Stop (ConfigError) where the project's code at ``path`` (its ``function``, or the script's main block for
    None) raises, asserts or compares with None for certain on the launch's ``flags`` (option → word, or True for a
    switch; translator/sources/startup.py): the run stops there before training, whatever rlconf reads of it."""
    from translator.sources.startup import first_stop

    tree = project.tree(path)
    if tree is None:
        return
    given = {name.lstrip("-").replace("-", "_"): value for name, value in flags.items()}
    stop = first_stop(tree, function, given, prefixed_parses, project.imported_function)
    if stop is not None:
        held = (project.path_of(stop.module) if stop.module is not None else None) or path
        raise ConfigError(
            f"the launch stops at start-up in {project.rel(held)}:{stop.line} ({what}, which this launch's flags "
            f"reach): {' '.join(stop.message.split())}",
            file=source.name,
            line=line,
            hint="change the flags that check tests, as its message asks",
        )


def refuse_undeclared_flags(
    source: Source, project: Project, path: str, typed: list[str], line: int, stray: list[str] | None = None
) -> None:
    """Stop (ConfigError) where the project's own entry script at ``path`` builds its parser in that file alone
    (translator/sources/code.py ``closed_argparse_options``) and a flag of the launch (``typed``: as written, no
    dashes) is none of its options nor a prefix of one (argparse's allow_abbrev), or a word no option takes
    (``stray``) is left over where the parser declares no positional argument: ``parse_args()`` exits with
    'unrecognized arguments' before training."""
    from translator.sources.code import closed_argparse_options

    tree = project.tree(path)
    options = closed_argparse_options(tree) if tree is not None else None
    if options is None:
        return
    missing = [f"--{name}" for name in typed if not any(o.startswith(f"--{name}") for o in options)]
    extra = [] if any(not o.startswith("-") for o in options) else list(stray or [])  # no positional declared
    if missing or extra:
        what = [f"declares no {', '.join(missing[:3])}"] if missing else []
        what += [f"takes no positional argument ({', '.join(extra[:3])})"] if extra else []
        raise ConfigError(
            f"{project.rel(path)}'s parser {' and '.join(what)}: its parse_args() stops at start-up "
            f"(error: unrecognized arguments: {' '.join((missing + extra)[:3])})",
            file=source.name,
            line=line,
            hint=f"remove the flag, or add parser.add_argument('{missing[0]}', ...) to {project.rel(path)}"
            if missing
            else "remove the stray words, or quote a value that holds spaces or a glob pattern (*)",
        )


def refuse_absent_module(
    source: Source, cwd: str | None, entry: str, modules: frozenset[str], line: int, label: str, instead: str
) -> None:
    """Stop (ConfigError) on ``python -m <entry>`` of a module in the framework's package (the namespace of
    ``modules``, every module of it in the releases rlconf reads) that no release holds and the project does not
    have either: Python stops with 'No module named …' before training. ``line``: the launch's line; ``instead``:
    the entry to suggest."""
    package = min(modules).rpartition(".")[0] + "."
    if entry.endswith(".py") or "/" in entry or not entry.startswith(package) or entry in modules:
        return
    if locate(source, cwd, entry) is not None:
        return  # the project's own module (a copy of the framework with a module added)
    raise ConfigError(
        f"'{entry}' is no module of any {label} release rlconf reads, nor of the project: python -m stops with "
        f"'No module named {entry}' before training",
        file=source.name,
        line=line,
        hint=f"launch {instead}, or add the module to the project",
    )


def refuse_module_its_package_lacks(source: Source, cwd: str | None, entry: str) -> None:
    """Stop (ConfigError) on ``python -m a.b.c`` run from a folder (where rlconf runs, after the launch's ``cd``)
    that holds ``a`` as a regular package (``a/__init__.py``) but not ``a/b/c``: Python imports ``a`` from that
    folder (the first entry of sys.path with -m), so it stops with 'No module named a.b.c' before training."""
    parts = entry.split(".")
    if entry.endswith(".py") or "/" in entry or len(parts) < 2 or not all(p.isidentifier() for p in parts):
        return
    run_dir = os.path.join(os.getcwd(), cwd or "")
    if {"$", "`"} & set(cwd or "") or not os.path.isfile(os.path.join(run_dir, parts[0], "__init__.py")):
        return
    module = os.path.join(run_dir, *parts)
    if os.path.isfile(module + ".py") or os.path.isfile(os.path.join(module, "__main__.py")):
        return
    raise ConfigError(
        f"python -m {entry}: the folder the launch runs in holds the package '{parts[0]}' without that module, "
        f"so Python stops with 'No module named {entry}' before training",
        file=source.name,
        hint="launch a module the package holds, or add it to the project",
    )


def apply_overrides(
    found: Iterable[Override],
    values: dict[str, Any],
    origins: dict[str, str],
    notes: NoteList,
    shapes_plan: Callable[[str], bool],
    symbolic: Callable[[Override], str],
    hint: Callable[[str], str],
    env: Mapping[str, str] | None = None,
) -> None:
    """Keys the launched code sets after parsing its arguments or composing its config
    (translator/sources/pyconfig.py ``overrides``): a literal set unconditionally replaces the launch's value (it
    runs after it); ``env`` gives a value for one it computes or sets under a condition; else, when the key
    shapes the plan, its value becomes ``symbolic(found)`` so every count built on it is unknown; a key that does
    not keeps the launch's value, with a note."""
    for override in found:
        key, where = override.key, override.origin
        if override.why is None and not override.conditional:
            notes.info(
                "input.code-sets-value",
                f"{where}: the launched code sets {key} = {override.value!r} after parsing; the run uses that value",
                source_keys=[key],
            )
            values[key], origins[key] = override.value, where
            continue
        if env and key in env:
            values[key], origins[key] = env[key], f"--env {key}"
            continue
        why = "under a condition" if override.why is None else override.why
        if not shapes_plan(key):
            notes.info(
                "input.code-sets-value",
                f"{where}: the launched code sets {key} after parsing ({why}); the launch's value is kept, and the "
                "run may use another",
                source_keys=[key],
            )
            continue
        notes.warning(
            "input.code-sets-value",
            f"{where}: the launched code sets {key} after parsing ({why}); {key} is unknown, and so is every count "
            f"built on it ({hint(key)})",
            source_keys=[key],
        )
        values[key], origins[key] = symbolic(override), where


def apply_entry_overrides(
    framework: str,
    source: Source,
    launch: tuple[str, str | None],
    fields: frozenset[str] | Iterable[str],
    values: dict[str, Any],
    origins: dict[str, str],
    notes: NoteList,
) -> None:
    """The keys of ``fields`` a fork's own entry (``launch``: module or script, working directory) sets on the
    config after the launch's overrides are composed (``config.data.x = 64`` in its ``main``), applied to
    ``values`` (:func:`apply_overrides`; the framework's concordance says which keys shape the plan)."""
    from translator.concordance import shapes_plan
    from translator.sources.pyconfig import overrides

    entry, cwd = launch
    located = locate(source, cwd, entry)
    if located is None:
        return
    project, path = located
    found = [
        replace(o, origin=f"{project.rel(path)}:{o.origin.rsplit(':', 1)[1]}")
        for o in overrides(source.sibling(str(path), "entry module"), frozenset(fields))
    ]
    apply_overrides(
        found,
        values,
        origins,
        notes,
        shapes_plan=lambda key: shapes_plan(framework, key),
        symbolic=lambda override: f"$({override.key} computed at {override.origin})",
        hint=lambda key: "read the entry's code at that line for the value the run uses",
    )


def check(
    source: Source,
    cwd: str | None,
    entry: str | None,
    values: Mapping[str, Any],
    fork_key: Callable[[str], bool],
    ambiguous: Callable[[str], bool],
    version: str,
    version_assumed: bool,
    fork_entry: bool,
    spec: RunSpec,
    notes: NoteList,
    lineage: str = "verl",
    launch_values: Mapping[str, Any] | None = None,
    installed: Installed | None = None,
    fit_lineage: str | None = None,
    whole_config: Mapping[str, Any] | None = None,
    refill: bool = False,
) -> None:
    """Mark the plan quantities that a fork's own keys or own trainer form differently unknown (see module doc).
    ``fork_key``: whether upstream lacks a key; ``ambiguous``: whether a key's last words (``n``, ``rollout.n``)
    also end an upstream key (:func:`suffixes` builds it);
    ``launch_values``: every key the launch sets (``values`` holds those the reader left), which decide the
    branches of the entry that pick the code it runs; ``installed``: the framework release the project installs
    (its imports from it are checked); ``fit_lineage``: the UPSTREAM_FIT table the entry's trainer is compared
    with, when it is not ``lineage``'s own (a recipe's trainer: verl's DAPO); ``whole_config``: the dotted keys of
    the whole config the entry composes, when known (a key neither it nor the launch holds is not in the run's);
    ``refill``: the plan was read as the DAPO recipe's loop, which the trainer's fit must hold (:func:`refill_cut`)."""
    if entry is None:
        return
    fit_lineage = fit_lineage or lineage
    found = locate(source, cwd, entry)
    if found is None:
        refuse_module_its_package_lacks(source, cwd, entry)
        return
    project, path = found
    module = None if entry.endswith(".py") or "/" in entry else entry
    refuse_startup_failures(project, path, module, source.name)
    if installed is not None:  # the release the project installs must have what the entry imports from it
        installed.refuse_unavailable(project.package_imports(path, module, installed.package))
    keys = [k for k in values if fork_key(k)]
    if not keys and fit_lineage not in UPSTREAM_FIT:
        return
    # code behind a branch the launch's values do not take is not run (the legacy or the engine workers)
    chosen = {**(launch_values or {}), **values}
    leaves = {key.lstrip("+-").split(".")[-1]: value for key, value in chosen.items()}
    files = project.reachable(path, leaves=leaves)
    effects = KeyEffects(project, files, leaves)
    upstream = upstream_signatures(fit_lineage, version, True)
    workers = compare_workers(project, files, lineage, version, values, spec, notes)
    read_for_keys: set[tuple[str, int]] = set()  # statements the keys' reading already accounts for
    for key in (k for k in launch_values or {} if k not in values and fork_key(k)):
        # a fork key the reader interprets itself (Search-R1's rollout.n_agent): its code is already in the plan
        bare = key.lstrip("+-").replace("-", "_")
        interpreted = effects.effects(bare, chosen[key], *_ambiguity(bare, ambiguous))
        read_for_keys.update((t.path, t.line) for t in interpreted)
    for key in keys:
        leaf = key.lstrip("+-").split(".")[-1].replace("-", "_")
        bare = key.lstrip("+-").replace("-", "_")
        touches = effects.effects(bare, values[key], *_ambiguity(bare, ambiguous))
        read_for_keys.update((t.path, t.line) for t in touches)
        # a branch the key picks may hold upstream's own repeat by rollout.n: that forms batches as upstream does
        touches = [t for t in touches if not (t.kind == "group" and t.signature in upstream and "=" in t.signature)]
        critic = [t for t in touches if _in_critic_code(project, t)]
        if critic and len(critic) == len(touches):
            where, _ = _places(project, critic)
            notes.info(
                "framework.fork-batch-key",
                f"'{key}' is not an upstream key; the project's code that reads it forms the critic's batches only "
                f"({where}): the policy's plan, which is what rlconf states, does not depend on it",
                source_keys=[key],
            )
        touches = [t for t in touches if t not in critic]
        if values[key] == 1 and not isinstance(values[key], bool):  # a repeat by the key 1 leaves the rows as they are
            touches = [t for t in touches if not (t.kind == "group" and f"repeat_times={leaf})" in t.signature)]
        if _group_key_in_place_of_n(key, values[key], touches, upstream, workers, spec, project, path, notes):
            continue
        if touches:
            where, lines = _places(project, touches)
            decided = _decided(touches, workers)
            if _GROUP_LEAF.fullmatch(leaf):  # a key named as a group size sets the group, whatever its code counts
                same = workers is not None and workers.same
                decided |= set((TRAINER_AFFECTS if same else AFFECTS)["group"])
            what = "filters or counts the dataset's rows" if decided == {"total_steps"} else "forms batches"
            _unknown(spec, decided, [key, *lines], f"'{key}' is the fork's own key, and its code {what} ({where})")
            notes.warning(
                "framework.fork-batch-key",
                f"'{key}' is not an upstream key; the project's code that reads it {what}: {where}; the plan "
                f"quantities this decides ({', '.join(q for q in _ALL if q in decided)}) are unknown (read that "
                "code and state them by hand)",
                source_keys=[key],
            )
    if fit_lineage in UPSTREAM_FIT:
        # a copy launched through upstream's own entry may be taken at any commit: it is compared with every band
        assumed = version_assumed or not fork_entry

        def unset_switch(leaf: str) -> bool:
            # a fork's own key nothing sets: the fork's config would have to define it (OmegaConf raises on a read
            # of a key it lacks), so the branch it guards is not the run's
            return leaf not in leaves and not ambiguous(leaf)

        run_config = RunConfig(
            {**(whole_config or {}), **{k.lstrip("+-"): v for k, v in chosen.items()}}, whole_config is not None
        )
        _compare_trainer(
            project,
            path,
            fit_lineage,
            version,
            assumed,
            workers,
            read_for_keys,
            leaves,
            unset_switch,
            run_config,
            spec,
            notes,
        )
        if refill:
            _refill_held(project, path, run_config, spec, notes)


def _refill_held(project: Project, path: str, config: RunConfig, spec: RunSpec, notes: NoteList) -> None:
    """A step read as the DAPO recipe's loop trains on data.train_batch_size prompts only where the trainer's fit
    refills and cuts as that loop does; otherwise how many it keeps is the fit's own."""
    where = refill_cut(project, path, config)
    if where is not None:
        notes.info(
            "framework.fork-verified",
            f"the launched trainer draws more rows while fewer than data.train_batch_size prompts are kept and cuts "
            f"them to data.train_batch_size × rollout.n ({where}): a step trains on data.train_batch_size prompts",
            source_keys=[where],
        )
        return
    why = (
        "the launched trainer filters groups, but its fit does not both draw more rows while fewer than "
        "data.train_batch_size prompts are kept and cut them to data.train_batch_size × rollout.n"
    )
    _unknown(spec, {"prompts_per_step", "samples_per_step", "optimizer_steps_per_step"}, [path], why)
    notes.warning(
        "framework.fork-batch-code",
        f"{why}: how many prompts a step trains on is its own; the step's prompts, samples and optimizer steps are "
        "unknown (read its fit and state them by hand)",
        source_keys=[path],
    )


# Attributes every tensor and batch object has (``x.device``, ``data.batch.batch_size``): a fork key with such a last
# word (``research.ar.device``) is read only where its section is named, as a leaf that ends an upstream key is.
_OBJECT_ATTRIBUTES = frozenset({"device", "dtype", "shape", "batch_size"})


def _ambiguity(key: str, ambiguous: Callable[[str], bool]) -> tuple[bool, bool]:
    """Whether the key's leaf, and its section and leaf (``rollout.n`` of ``env.rollout.n``), also end an upstream
    key (or the leaf names an attribute every tensor has): a read of ``x.rollout.n`` is then upstream's
    ``actor_rollout_ref.rollout.n`` unless it names ``env``."""
    parts = key.split(".")
    leaf_shared = ambiguous(parts[-1]) or (len(parts) > 1 and parts[-1] in _OBJECT_ATTRIBUTES)
    return leaf_shared, len(parts) > 2 and ambiguous(".".join(parts[-2:]))


# The plan quantities each derived one is computed from (the plan's own arithmetic, the same in every framework).
_BUILT_FROM = {
    "samples_per_step": ("prompts_per_step", "samples_per_prompt"),
    "optimizer_steps_per_step": ("samples_per_step", "samples_per_optimizer_step", "epochs_per_step"),
    "grad_accum_steps": ("samples_per_optimizer_step", "data_parallel_size", "micro_batch_per_device"),
}


def entry_arguments_unknown(
    spec: RunSpec, arguments: list[str], launch_keys: Iterable[str], where: str, notes: NoteList
) -> None:
    """A fork entry that takes options of its own (``--config run.yaml``) builds the framework's config itself, so a
    plan quantity read from a default, or from a key the launch does not set, may be anything that config says:
    unknown, naming the options; a quantity computed from one of those is unknown too. What the launch sets itself
    (the framework's overrides it passes on) stays. The note (``framework.fork-entry-options``) also tells the
    start-up checks that the config they see is not the whole run's."""
    shown = " ".join(arguments[:4])
    why = (
        f"unknown: the launched entry ({where}) takes options of its own ({shown}) and builds the config from them; "
        "rlconf reads only the overrides the launch passes"
    )
    unknown_unless_set(spec, launch_keys, why)
    notes.warning(
        "framework.fork-entry-options",
        f"{where} takes options of its own ({shown}) and builds the config from them: only the overrides the launch "
        "passes are read, and the quantities they do not set are unknown (pass the config it builds to read it)",
        source_keys=arguments[:1],
    )


def unknown_launch_words(spec: RunSpec, notes: NoteList, words: list[str], launch_keys: Iterable[str]) -> None:
    """Words of the launch whose value rlconf cannot read (a variable the script never sets, a command that
    depends on an undecided branch) may hold any key=value override: the plan quantities the launch's own overrides
    do not set are unknown, with a warning naming the words."""
    if not words:
        return
    shown = " ".join(words[:2])
    why = f"the launch passes words whose value rlconf cannot read ({shown}); any override there may"
    unknown_unless_set(spec, launch_keys, f"unknown: {why} set it")
    notes.warning(
        "input.unknown-overrides",
        f"the launch passes {shown}, whose value rlconf cannot read: any option or override may be among "
        "them, so the plan quantities the launch's own overrides do not set are unknown (pass --env with "
        "the values, or the overrides as written)",
        source_keys=words[:1],
    )


def unknown_unless_set(spec: RunSpec, launch_keys: Iterable[str], why: str) -> None:
    """Where something rlconf cannot read may set any key (options an entry builds its config from, words of a
    launch whose value is not known): a plan quantity read from a default, or from a key the launch does not set
    itself, is unknown (``why``), and so is one computed from those. What the launch sets itself stays."""
    from translator.plan import PLAN_FIELDS

    set_here = {key.lstrip("+~") for key in launch_keys}
    unknown: set[str] = set()
    for name in PLAN_FIELDS:
        derivation = spec.derivations.get(f"plan.{name}")
        if getattr(spec.plan, name) is None or derivation is None:
            continue
        if (
            derivation.origin == "default"
            or any(key.lstrip("+~") not in set_here for key in derivation.keys)
            or (not derivation.keys and name not in _BUILT_FROM)
        ):
            unknown.add(name)
    changed = True
    while changed:
        changed = False
        for name, parts in _BUILT_FROM.items():
            if name not in unknown and unknown & set(parts) and getattr(spec.plan, name) is not None:
                derivation = spec.derivations.get(f"plan.{name}")
                if derivation is None or derivation.origin != "config":
                    unknown.add(name)
                    changed = True
    for name in unknown:
        setattr(spec.plan, name, None)
        spec.derivations[f"plan.{name}"] = Derivation(why, [], "unknown")


def suffixes(keys: Iterable[str]) -> Callable[[str], bool]:
    """Whether a dotted suffix (``n``, ``rollout.n``) ends one of ``keys``."""
    ends = {".".join(parts[i:]) for key in keys for parts in [key.split(".")] for i in range(len(parts))}
    return ends.__contains__


# Upstream's repeat of each prompt's row by the group size, to line the prompts up with the generated samples
# (``batch.repeat(repeat_times=rollout.n, interleave=True)`` before ``batch.union(gen_batch_output)``).
GROUP_KEY = "n"


def _group_key_in_place_of_n(
    key: str,
    value: Any,
    touches: list[Touch],
    upstream: Mapping[str, int],
    workers: Workers | None,
    spec: RunSpec,
    project: Project,
    entry: str,
    notes: NoteList,
) -> bool:
    """A fork key that stands where upstream's trainer has rollout.n in its repeat of the prompts (the only
    statements the key touches are upstream's with ``repeat_times=<key>`` for ``repeat_times=n``), while no repeat
    by rollout.n is left in the trainer: the generated samples per prompt are the key's value, since the repeated
    prompts are joined row by row with them (DataProto.union asserts equal lengths). The workers must size the
    mini-batches as upstream's do (from ppo_mini_batch_size × rollout.n), so the per-update sizes stay as read.
    Then the step's quantities follow from the key (``framework.fork-group-key``); True when so."""
    leaf = key.lstrip("+-").split(".")[-1].replace("-", "_")
    if not touches or workers is None or not workers.same or isinstance(value, bool) or not isinstance(value, int):
        return False
    if value <= 0 or any(t.signature.replace(f"={leaf}", f"={GROUP_KEY}") not in upstream for t in touches):
        return False
    if any(t.kind != "group" for t in touches):
        return False
    replaced = {t.signature.replace(f"={leaf}", f"={GROUP_KEY}") for t in touches}
    trainer = trainer_touches(project, entry)  # fit and what it calls (validation left out)
    if trainer is None or any(t.signature in replaced for t in trainer[1]):
        return False  # upstream's repeat by rollout.n kept beside it (both repeat), or no trainer of its own
    where, lines = _places(project, touches)
    plan = spec.plan
    plan.samples_per_prompt = value
    plan.samples_per_step = plan.optimizer_steps_per_step = None
    plan.complete()
    why = f"'{key}' {value} stands for rollout.n in the trainer's repeat of the prompts ({where})"
    for name in ("samples_per_prompt", "samples_per_step", "optimizer_steps_per_step"):
        spec.derivations[f"plan.{name}"] = Derivation(why, [key, *lines], "derived")
    notes.info(
        "framework.fork-group-key",
        f"'{key}' is not an upstream key; the project's trainer repeats each prompt by it where upstream repeats by "
        f"rollout.n ({where}), so each prompt gets {value} samples; the workers size mini-batches as upstream's "
        "do (from rollout.n), so the per-update sizes are as read",
        source_keys=[key],
    )
    return True


def _in_critic_code(project: Project, touch: Touch) -> bool:
    """Whether a batch-forming statement is the critic's (its file, class or function is named for the critic:
    verl's dp_critic.py, OpenRLHF's ppo_critic.py, a trainer's _update_critic): the value model's batches, not the
    policy's, which the plan describes."""
    if "critic" in os.path.basename(touch.path).lower():
        return True
    tree = project.tree(touch.path)
    return tree is not None and any(
        isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and "critic" in node.name.lower()
        and node.lineno <= touch.line <= (node.end_lineno or node.lineno)
        for node in ast.walk(tree)
    )


def _places(project: Project, touches: list[Any]) -> tuple[str, list[str]]:
    """The first few places as 'file:line what' for a message, and every place as 'file:line' for the keys."""
    where = "; ".join(f"{project.rel(t.path)}:{t.line} {t.what}" for t in touches[:4])
    return where, [f"{project.rel(t.path)}:{t.line}" for t in touches]


def _unknown(spec: RunSpec, quantities: set[str], keys: list[str], why: str) -> None:
    plan = spec.plan
    # an update that covers the whole step (a mini-batch larger than the step, cut to it) is as unknown as the step
    whole_step = plan.samples_per_step is not None and plan.samples_per_optimizer_step == plan.samples_per_step
    if "samples_per_step" in quantities and whole_step:
        quantities = {*quantities, "samples_per_optimizer_step", "optimizer_steps_per_step"}
    for name in (q for q in _ALL if q in quantities):
        setattr(spec.plan, name, None)
        spec.derivations[f"plan.{name}"] = Derivation(f"unknown: {why}", keys, UNKNOWN)


def trainer_touches(
    project: Project,
    path: str,
    leaves: Mapping[str, Any] | None = None,
    unset_switch: Callable[[str], bool] | None = None,
    config: RunConfig | None = None,
) -> tuple[list[str], list[Touch]] | None:
    """The project trainer classes the entry instantiates and the batch-forming statements of their ``fit`` (and
    the project methods it calls through ``self.``), save those in a branch the launch's values (``leaves``: config
    leaf → value) do not take, behind a switch the launch leaves unset (``unset_switch``: whether a leaf is
    one), or that the run's ``config`` decides away (a branch on it, or on a flag ``__init__`` sets from it, not
    taken; an early ``return`` taken); None when the entry instantiates no project trainer with a ``fit`` of its
    own (upstream's trainer runs)."""
    found = _fit_methods(project, path, leaves, unset_switch, config)
    if found is None:
        return None
    names, methods = found
    touches = [t for node, owner, runs in methods for t in batch_touches(list(node.body), owner) if runs(t.line)]
    return names, touches


_FitMethod = tuple[ast.FunctionDef | ast.AsyncFunctionDef, str, Callable[[int], bool]]


def _fit_methods(
    project: Project,
    path: str,
    leaves: Mapping[str, Any] | None = None,
    unset_switch: Callable[[str], bool] | None = None,
    config: RunConfig | None = None,
) -> tuple[list[str], list[_FitMethod]] | None:
    """The trainer classes the entry instantiates (as ``trainer_touches`` names them) and the methods their ``fit``
    runs: each with its file and whether a line of it runs (see ``trainer_touches``); None without such a class."""
    classes = [c.cls for c in project.trainer_classes(path) if isinstance(c.cls, ClassInfo)]
    if not classes:
        # the entry may build the trainer in a module it imports (a task runner): look one import deep
        for other in project.reachable(path, limit=12)[1:]:
            classes += [c.cls for c in project.trainer_classes(other) if isinstance(c.cls, ClassInfo)]
    names: list[str] = []
    found: list[_FitMethod] = []
    for info in classes:
        methods: dict[str, tuple[ast.FunctionDef | ast.AsyncFunctionDef, str]] = {}
        for cls in info.lineage():
            for name, node in cls.methods().items():
                methods.setdefault(name, (node, cls.path))
        if "fit" not in methods:
            continue
        init = methods.get("__init__")
        settings = instance_settings(init[0], [m for m, _ in methods.values()]) if init else {}
        names.append(f"{project.rel(info.path)}:{info.node.lineno} {info.name}")
        queue, seen = ["fit"], set[str]()
        while queue and len(seen) < 24:
            name = queue.pop(0)
            if name in seen or name not in methods or validation_function(name):
                continue
            seen.add(name)
            node, owner = methods[name]
            # `if self._use_x():` read as what _use_x returns, `if self.use_x:` as what __init__ set it to
            tests = substitute(_with_predicates(node, methods), settings)

            def runs(line: int, tests: ast.AST = tests) -> bool:
                return not (
                    untaken(tests, line, leaves or {})
                    or (unset_switch is not None and behind_switch(tests, line, unset_switch))
                    or (config is not None and decided_away(tests, line, config))
                )

            found.append((node, owner, runs))
            # a method called only in a branch the launch does not take (if cfg.rejection_sample: ...) is not run
            queue += [
                n.func.attr
                for n in ast.walk(node)
                if isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute)
                and isinstance(n.func.value, ast.Name)
                and n.func.value.id == "self"
                and n.func.attr not in seen
                and runs(n.lineno)
            ]
    return (names, found) if names else None


def refill_cut(project: Project, path: str, config: RunConfig) -> str | None:
    """Where the launched trainer's fit, on the run's path, cuts the rows it kept to ``data.train_batch_size ×
    rollout.n`` after drawing more while fewer prompts are kept (the DAPO recipe's loop, recipe/dapo/
    dapo_ray_trainer.py@v0.5.0: ``if num_prompt_in_batch < prompt_bsz: ... continue`` and ``batch =
    batch[:traj_bsz]`` with ``traj_bsz = train_batch_size * rollout.n``): then every step trains on exactly that
    many. None when its fit does not hold both."""
    found = _fit_methods(project, path, config=config)
    if found is None:
        return None
    for node, owner, runs in found[1]:
        bound: dict[str, set[str | None]] = {}  # each name's assignments: train_batch_size, × n, or other
        for statement in ast.walk(node):
            if isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                for target in statement.targets if isinstance(statement, ast.Assign) else [statement.target]:
                    if isinstance(target, ast.Name):
                        kind = _train_batch_product(statement.value) if isinstance(statement, ast.Assign) else None
                        bound.setdefault(target.id, set()).add(kind)
        # a name bound to one of them everywhere (prompt_bsz, traj_bsz), not also to a count of its own
        sized = {name: kinds.pop() for name, kinds in bound.items() if len(kinds) == 1 and None not in kinds}
        refills = any(
            isinstance(test := statement.test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Lt)
            and _train_batch_product(test.comparators[0], sized) == "prompts"
            and any(isinstance(inner, ast.Continue) for inner in ast.walk(statement))
            and runs(statement.lineno)
            for statement in ast.walk(node)
            if isinstance(statement, ast.If)
        )
        for block in (b for n in ast.walk(node) for b in _blocks(n)):
            for index, statement in enumerate(block):
                if not (
                    refills
                    and isinstance(statement, ast.Assign)
                    and isinstance(cut := statement.value, ast.Subscript)
                    and isinstance(cut.slice, ast.Slice)
                    and cut.slice.lower is None
                    and cut.slice.step is None
                    and cut.slice.upper is not None
                    and runs(statement.lineno)
                ):
                    continue
                # the bound is the name's last assignment before the cut in its block, else its one binding
                local = dict(sized)
                for earlier in block[:index]:
                    if isinstance(earlier, ast.Assign):
                        for target in earlier.targets:
                            if isinstance(target, ast.Name):
                                local[target.id] = _train_batch_product(earlier.value, sized)
                if _train_batch_product(cut.slice.upper, local) == "samples":
                    return f"{project.rel(owner)}:{statement.lineno}"
    return None


def _blocks(node: ast.AST) -> list[list[ast.stmt]]:
    return [b for name in ("body", "orelse", "finalbody") if isinstance(b := getattr(node, name, None), list)]


def _train_batch_product(node: ast.expr, sized: Mapping[str, str | None] | None = None) -> str | None:
    """ "prompts" for a read of ``data.train_batch_size``, "samples" for it times ``rollout.n`` (either order),
    following names ``sized`` binds to either; None otherwise."""
    if isinstance(node, ast.Name) and sized is not None:
        return sized.get(node.id)
    if (dotted_path(node) or "").endswith("data.train_batch_size"):
        return "prompts"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        for one, other in ((node.left, node.right), (node.right, node.left)):
            if _train_batch_product(one, sized) == "prompts" and (dotted_path(other) or "").endswith("rollout.n"):
                return "samples"
    return None


def _with_predicates(
    function: ast.AST, methods: Mapping[str, tuple[ast.FunctionDef | ast.AsyncFunctionDef, str]]
) -> ast.AST:
    """A copy of ``function`` whose calls of the class's predicates (``self._should_x()``: a method whose body only
    returns an expression) stand for that expression, on the same lines: a branch it guards is then decided as an
    ``if`` on the expression would be."""
    returned = {}
    for name, (method, _) in methods.items():
        body = [s for s in method.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
            returned[name] = body[0].value

    class Inline(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            func = node.func
            if (
                not node.args
                and isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == "self"
                and func.attr in returned
            ):
                return ast.copy_location(copy.deepcopy(returned[func.attr]), node)
            return self.generic_visit(node)

    return Inline().visit(copy.deepcopy(function)) if returned else function


def upstream_signatures(lineage: str, version: str, assumed: bool) -> Counter[str]:
    """Upstream's fit signatures, each with the most times its trainer holds it, for the release band of
    ``version`` and the next (every band's, when the version is only assumed: the fork may follow any of them)."""

    def order(text: str) -> tuple[int, ...]:
        return version_key(text) or (0,)

    table = UPSTREAM_FIT.get(lineage, {})
    bands = sorted(table, key=order)
    if assumed:
        return _most(table)
    below = [b for b in bands if order(b) <= order(version)] or bands[:1]
    if not below:
        return Counter()
    # a fork of a release may be taken from the development line before the next one
    following = bands[bands.index(below[-1]) + 1 : bands.index(below[-1]) + 2]
    return Counter(table[below[-1]]) | (Counter(table[following[0]]) if following else Counter())


def _most(table: Mapping[str, Mapping[str, int]]) -> Counter[str]:
    """Each signature's largest count over the bands."""
    out: Counter[str] = Counter()
    for band in table.values():
        out |= Counter(band)
    return out


def _compare_trainer(
    project: Project,
    path: str,
    lineage: str,
    version: str,
    assumed: bool,
    workers: Workers | None,
    read_for_keys: set[tuple[str, int]],
    leaves: Mapping[str, Any],
    unset_switch: Callable[[str], bool],
    config: RunConfig,
    spec: RunSpec,
    notes: NoteList,
) -> None:
    found = trainer_touches(project, path, leaves, unset_switch, config)
    if found is None:
        return
    names, touches = found
    known = upstream_signatures(lineage, version, assumed)
    held = Counter(t.signature for t in touches)
    # a statement upstream lacks, or one it holds fewer times (a second rollout concatenated, a second index)
    extra = [t for t in touches if held[t.signature] > known[t.signature] and (t.path, t.line) not in read_for_keys]
    trainer = "; ".join(names)
    if extra:
        where, lines = _places(project, extra)
        decided = _decided(extra, workers)
        gen = spec.derivations.get("plan.prompts_per_step")
        refilled = spec.generation.prompts_per_round is not None  # a loop that draws rounds until a step is full
        if "samples_per_step" in decided and (refilled or (gen is not None and "data.gen_batch_size" in gen.keys)):
            # the step's prompts were read as the generation batch by upstream's trainer, which trains on all of
            # it; a trainer that filters or resamples rows may train on fewer (DAPO keeps train_batch_size)
            decided.add("prompts_per_step")
        _unknown(
            spec,
            decided,
            [trainer, *lines],
            f"the project's trainer {trainer} forms batches with code upstream's fit does not have ({where})",
        )
        notes.warning(
            "framework.fork-batch-code",
            f"the launched trainer {trainer} forms batches with statements "
            f"upstream's trainer ({lineage} {'any release' if assumed else version}) does not have, or has fewer "
            f"times: {where}; the plan quantities they decide are "
            "unknown (read that code and state them by hand)",
            source_keys=[trainer],
        )
    else:
        notes.info(
            "framework.fork-verified",
            f"the launched trainer {trainer}'s batch-forming statements are all "
            f"upstream's (verified against upstream's batch-forming code for {lineage} "
            f"{'releases' if assumed else version})",
            source_keys=[trainer],
        )


@record
class EntryConfig:
    """The Hydra config a launched entry of the project's own names (``@hydra.main(config_path, config_name)``),
    composed as Hydra would from its folder: the primary file as messages show it, its dotted keys, and whether
    every file its defaults list names was found (else a key missing from ``keys`` may be in a file not read)."""

    where: str
    keys: dict[str, Any]
    complete: bool
    tree: dict[str, Any]  # the composed config itself
    groups: frozenset[str]  # its folder's config groups (a launch word `group=option` chooses one)
    absent: tuple[str, ...] = ()  # files its defaults lists name (no `optional` entry) that its folder lacks


def entry_config(source: Source, cwd: str | None, entry: str) -> EntryConfig | None:
    """The Hydra config of the launched entry when the entry is project code (a copy or fork of the framework kept
    in the project); None when it is not, or names no config rlconf can read."""
    from translator.sources.hydra import compose

    found = locate(source, cwd, entry)
    if found is None:
        return None
    project, path = found
    tree = project.tree(path)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and dotted_path(node.func) == "hydra.main"):
            continue
        words = {
            k.arg: k.value.value
            for k in node.keywords
            if isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)
        }
        if "config_name" not in words:
            continue
        folder = os.path.normpath(os.path.join(os.path.dirname(path), words.get("config_path", ".")))

        def read(relative: str, folder: str = folder) -> tuple[str, str] | None:
            file = os.path.normpath(os.path.join(folder, relative))
            text = read_text(file, MAX_CONFIG_BYTES) if project.inside(file) and os.path.isfile(file) else None
            return None if text is None else (project.rel(file), text)

        missing: list[str] = []
        absent: list[str] = []
        try:
            config, files, _ = compose(read, words["config_name"].removesuffix(".yaml"), [], missing, absent)
        except ConfigError:
            return None
        if not files:
            return None
        keys = flatten(config)
        # a group file with a defaults list of its own brings keys not composed here; a search path
        # (hydra.searchpath) only adds folders searched after the primary one (Hydra's "Config Search Path"): it
        # changes nothing where every default was found here (else ``missing`` holds it)
        nested = any(part == "defaults" for key in keys for part in key.split("."))
        groups = frozenset(
            os.path.relpath(os.path.join(top, name), folder)
            for top, names, _ in os.walk(folder)
            for name in names
            if top.count(os.sep) - folder.count(os.sep) < 2
        )
        return EntryConfig(files[0], keys, not missing and not nested, config, groups, tuple(absent))
    return None


@record
class Workers:
    """The project's own worker code that sizes mini- and micro-batches (``functions``: file → line spans), and
    whether it does so as upstream's workers of its release do (``same``)."""

    functions: dict[str, list[tuple[int, int]]]
    same: bool
    decides: tuple[str, ...]  # the per-update quantities their sizing decides
    anchors: tuple[str, ...]  # the sizes whose assignment marks the sizing (fork_tables.WorkerSizes)

    def holds(self, touch: Touch) -> bool:
        """Whether a batch-forming statement is part of the workers' sizing: inside a normalising function, or
        setting a mini-batch, micro-batch or per-device size wherever it is."""
        inside = any(start <= touch.line <= end for start, end in self.functions.get(touch.path, []))
        sets = touch.signature.split()[1] if touch.signature.startswith("set ") else ""
        return inside or sets in self.anchors or bool(_PER_UPDATE.search(touch.signature))


_PER_UPDATE = lazy(r"mini|micro|per_device|per_gpu|global_batch|accum")


def _decided(touches: list[Touch], workers: Workers | None) -> set[str]:
    """The plan quantities that batch-forming statements leave unknown: every quantity of their kind, except that
    statements outside workers that size batches as upstream's do leave the per-update quantities alone (the
    workers size the mini-batch from the configured keys, whatever the trainer does before), and a worker's own
    size statement leaves only those."""
    out: set[str] = set()
    for touch in touches:
        if workers is not None and workers.holds(touch) and touch.kind == "size":
            out.update(workers.decides)  # a worker's mini- or micro-batch size: the step's prompts stay
        elif workers is not None and workers.same and not workers.holds(touch):
            out.update(TRAINER_AFFECTS[touch.kind])
        else:
            out.update(AFFECTS[touch.kind])
    return out


def worker_bands(lineage: str, version: str) -> frozenset[str] | None:
    """Upstream's worker sizing shapes of every modelled band (fork_tables.UPSTREAM_WORKER); None when the band
    of ``version`` is not modelled (workers that are other code, or no source) or the lineage is not."""
    table = UPSTREAM_WORKER.get(lineage)
    if table is None:
        return None

    def order(text: str) -> tuple[int, ...]:
        return version_key(text) or (0,)

    bands = sorted(table.bands, key=order)
    own = [b for b in bands if order(b) <= order(version)] or bands[:1]
    if table.bands[own[-1]] is None:
        return None
    return frozenset(s for band in bands for s in table.bands[band] or ())


def compare_workers(
    project: Project,
    files: list[str],
    lineage: str,
    version: str,
    values: Mapping[str, Any],
    spec: RunSpec,
    notes: NoteList,
) -> Workers | None:
    """Compare the project's own worker sizing code (reachable from the entry) with upstream's for its release;
    the quantities a differing statement decides are unknown, naming its file and line (``framework.fork-batch-
    code``); a statement in a branch that the launch's value of a fork key does not take is not run. No worker
    code in the project: upstream's installed workers run (same). None: not modelled."""
    known = worker_bands(lineage, version)
    if known is None:
        return None
    table = UPSTREAM_WORKER[lineage]
    leaves = {key.lstrip("+-").split(".")[-1].replace("-", "_"): value for key, value in values.items()}
    functions: dict[str, list[tuple[int, int]]] = {}
    touches: list[Touch] = []
    for path in files:
        tree = project.tree(path)
        if tree is None:
            continue
        for function in normalising_functions(tree, table.anchors):
            functions.setdefault(path, []).append((function.lineno, function.end_lineno or function.lineno))
            touches += [t for t in normalisation_touches(function, path) if not untaken(function, t.line, leaves)]
    # the critic's own sizing (a value model's micro-batch) leaves the policy's plan as it is
    extra = [t for t in touches if t.signature not in known and not _in_critic_code(project, t)]
    if extra:
        where = "; ".join(f"{project.rel(t.path)}:{t.line} {t.signature}" for t in extra[:4])
        lines = [f"{project.rel(t.path)}:{t.line}" for t in extra]
        _unknown(
            spec,
            set(table.decides),
            lines,
            f"the project's workers size mini-batches with code upstream's do not have ({where})",
        )
        notes.warning(
            "framework.fork-batch-code",
            f"the project's workers size mini- or micro-batches with "
            f"statements upstream's {lineage} {version} workers do not have: {where}; the per-update "
            "quantities they decide are unknown (read that code and state them by hand)",
            source_keys=lines[:1],
        )
    elif touches:
        first = min(touches, key=lambda t: (t.path, t.line))
        count = sum(len(spans) for spans in functions.values())
        # its own code: the trainer may still differ, so the plan's other quantities keep their certainty
        notes.info(
            "framework.fork-workers-verified",
            f"the project's workers ({count} sizing function(s), the first at "
            f"{project.rel(first.path)}:{first.line}) size mini- and micro-batches with upstream's {lineage} "
            f"{version} statements only",
            source_keys=[f"{project.rel(first.path)}:{first.line}"],
        )
    return Workers(functions, not extra, table.decides, table.anchors)
