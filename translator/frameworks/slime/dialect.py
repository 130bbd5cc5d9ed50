"""slime (THUDM/slime): its reader and writer.

A run is ``python3 train.py`` (or ``train_async.py``) with Megatron-style argparse flags, usually behind ``ray job
submit ... --`` and collected in bash arrays; the shell reader expands those. Units (docs/frameworks/slime.md §2-3):
``--rollout-batch-size`` counts prompts per rollout step, ``--n-samples-per-prompt`` completions per prompt,
``--global-batch-size`` samples per optimizer step (global), ``--num-steps-per-rollout`` optimizer steps per rollout
step (gbs = rbs × n // steps), ``--micro-batch-size`` samples per micro-batch per DP rank; DP = actor GPUs ÷ (TP ×
PP × CP). Each rollout batch is trained on once.
"""

from __future__ import annotations

import ast
import math
import os
import posixpath
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from translator.dialects.base import (
    Dialect,
    Reading,
    ReadOptions,
    Unknown,
    Values,
    at_least,
    derived,
    fmt,
    from_config,
    note_launch,
    read_script,
    track_provenance,
)
from translator.dialects.writing import flag_words, is_number, plan_summary, shell_word, source_label, whole_prompts
from translator.errors import ConfigError
from translator.framework import DataLoader
from translator.frameworks.slime.tables import (
    CHANGES,
    CISPO_SINCE,
    DEFAULTS,
    ENTRY_POINTS,
    ESTIMATORS,
    MANY_VALUE_PREFIXES,
    MANY_VALUES,
    MEGATRON_DEFAULT_SINCE,
    MODEL_ARGS_HELPERS,
    OWN_MODEL_FILES,
    PREFIXED_PARSES,
    SECRET_FLAGS,
    SWITCHES,
    VERSIONS,
)
from translator.notes import NoteList
from translator.plan import Derivation, Extra, RunSpec, exact
from translator.sources.files import Source
from translator.sources.shell import ShellCommand, ShellScript, symbolic_names, unwrap_command

if TYPE_CHECKING:
    from translator.frameworks.slime.driver import Helper
    from translator.sources.code import Project

SECRET_PLACEHOLDER = "<redacted>"
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")  # module.function, as load_function takes it
# slime's kl-loss-type → canonical estimator (low_var_kl is k3 clamped, as verl's reader counts it); and back.
KL_TYPES = {"k1": "k1", "k2": "k2", "k3": "k3", "low_var_kl": "k3"}
KL_WRITTEN = {"k1": "k1", "k2": "k2", "k3": "low_var_kl"}
SCHEDULES = ("constant", "linear", "cosine", "inverse-square-root", "WSD")


def data_loader(spec: RunSpec) -> DataLoader:
    """What slime's Dataset reads (slime/utils/data.py@v0.3.1 Dataset, _build_messages): with --apply-chat-template
    the --input-key column is a chat list, or a string it makes one user message; without, the string is the
    prompt, and the rollout tokenizes it as text (slime/rollout/sglang_rollout.py@v0.3.1 _prepare_prompt_ids);
    the --label-key column, where one is named, for every row."""
    return DataLoader(
        "input",  # --input-key's default
        "any" if spec.data.apply_chat_template else "text",
        "Dataset (slime/utils/data.py@v0.3.1)",
        (("answer", ""),),
    )


class SlimeDialect(Dialect):
    name = "slime"
    aliases = ("thudm/slime",)
    versions: tuple[str, ...] = VERSIONS
    changes = CHANGES
    # the gbs of a run with neither gbs nor steps differs
    plan_bands: tuple[str, ...] = ("0.1.0", MEGATRON_DEFAULT_SINCE)
    description = "slime (ray job submit -- python3 train.py / train_async.py with Megatron-style flags)"
    # slime parses with ignore_unknown_args=True (Megatron's parser): an unknown flag is dropped, not refused.
    rejects_unknown_keys = False
    label = "slime"  # the name in messages and in the written script's header

    def defaults(self, flags: dict[str, Any]) -> dict[str, Any]:
        """The flags' defaults (a fork's may depend on a flag, such as its training backend)."""
        return DEFAULTS

    def reader(self, values: Values, version: str, spec: RunSpec, notes: NoteList, entry: str) -> SlimeReader:
        return SlimeReader(values, version, spec, notes, entry)

    def writer(self, spec: RunSpec, version: str, notes: NoteList) -> SlimeWriter:
        return SlimeWriter(spec, version, notes)

    # ---------------------------------------------------------------- reading
    def helper(self) -> Helper:
        """The framework's launch helper that Python drivers call (translator/frameworks/slime/driver.py)."""
        from translator.frameworks.slime.driver import SLIME_HELPER

        return SLIME_HELPER

    def read(self, source: Source, options: ReadOptions) -> Reading:
        notes = NoteList()
        if source.suffix == ".py":  # a Python driver that builds the command (translator/frameworks/slime/driver.py)
            from translator.frameworks.slime.driver import read_driver

            launch = read_driver(source, options.env, notes, self.helper())
            flags, _ = parse_flags(launch.words, f"{source.name}:{launch.line}", notes)
            origins = {key: launch.origins.get(key, f"{source.name}:{launch.line}") for key in flags}
            return self.read_flags(source, options, notes, flags, origins, os.path.basename(launch.entry))
        script = read_script(source, options.env, notes)
        launches = [(c, argv, i) for c in script.commands for argv in [unwrap_command(c.argv)] if (i := _entry(argv))]
        if not launches:
            raise ConfigError(
                f"no {self.label} launch command found",
                file=source.name,
                hint="expected a line like 'python3 train.py --rollout-batch-size 32 --n-samples-per-prompt 8 ...'",
            )
        command, argv, index = launches[-1]
        note_launch(notes, source, command, [c for c, _, _ in launches])
        entry = os.path.basename(argv[index])
        unknown: list[str] = []
        flags, origins = parse_flags(argv[index + 1 :], f"{source.name}:{command.line}", notes, script, unknown)
        reading = self.read_flags(source, options, notes, flags, origins, entry)
        if unknown:
            from translator.dialects.forkbatch import unknown_launch_words

            unknown_launch_words(reading.spec, notes, unknown, flags)
        _ray_head(command, reading.spec)
        self._own_flags(source, command.cwd, argv[index], flags, reading)
        self._copy_stops(source, command.cwd, argv[index], flags, command.line)
        job = _job_path(source, command, argv[index], script.variables)
        if job is not None:
            _refuse_unreachable_functions(source, command.line, flags, *job)
        self._custom_generate(source, command.cwd, flags, reading, job)
        return reading

    def _custom_generate(
        self,
        source: Source,
        cwd: str | None,
        flags: dict[str, Any],
        reading: Reading,
        job: tuple[Project, list[str]] | None = None,
    ) -> None:
        """``--custom-generate-function-path module.func``: the project's function makes each of a prompt's
        ``n`` samples and may return several (slime/rollout/sglang_rollout.py:298-305@v0.3.1: a fan-out of
        prefix-chained samples is flattened into the step). Read, never run: when every ``return`` of the function
        gives one sample (``return sample``, ``return [sample]``), the group is ``n``; otherwise the samples per
        prompt, and every count built on them, are unknown, naming the function and the return that decides."""
        from translator.dialects import forkbatch

        path = flags.get("custom-generate-function-path")
        if isinstance(path, str) and "." in path:
            module, _, name = path.rpartition(".")
            found = _on_job_path(job, module) or forkbatch.locate(source, cwd, module)
            why = returns_one_sample(found[0].tree(found[1]) if found else None, name)
            if why is not None:
                shown = f"{found[0].rel(found[1])}:{why[0]}" if found and why[0] else path
                _samples_unknown(
                    reading,
                    "custom-generate-function-path",
                    f"the custom generate function {path} ({shown}) {why[1]}, so a prompt's samples may be more than n",
                    f"{why[1]} ({shown}); slime flattens what it returns into the step",
                )
        # --rollout-function-path replaces slime's whole rollout (sglang_rollout.generate_rollout): a project's own
        # that sets the batch flags or regroups the samples decides the counts itself
        path = flags.get("rollout-function-path")
        module = path.rpartition(".")[0] if isinstance(path, str) else ""
        if not module or module.split(".")[0] in (self.name, "slime"):
            return
        found = _on_job_path(job, module) or forkbatch.locate(source, cwd, module)
        if found is None:
            return
        changed = _regroups(found[0], found[1], (self.name, "slime"))
        if changed is not None:
            _samples_unknown(
                reading,
                "rollout-function-path",
                f"the project's rollout function {path} {changed}",
                changed,
            )

    def _own_flags(self, source: Source, cwd: str | None, entry: str, flags: dict[str, Any], reading: Reading) -> None:
        """Flags that the project's own copy of the framework defines (its ``<package>/utils/arguments.py`` beside
        the launched entry) and no release does, read in the copy's code where it forms batches
        (translator/dialects/forkbatch.py): an undocumented way of forming the step is unknown, not upstream's."""
        from translator import native_schemas
        from translator.dialects import forkbatch
        from translator.sources.pyconfig import option_names

        copy = self._copy_arguments(source, cwd, entry)
        if copy is None:
            return
        defined = option_names(copy[2]) if copy[2] is not None else frozenset()
        upstream = {key.replace("-", "_") for key in native_schemas.keys(self.name)}
        read = reading.native.used if reading.native is not None else set()  # the reader's own: not the fork's
        own = {
            name.replace("-", "_"): value
            for name, value in flags.items()
            if name.replace("-", "_") in defined - upstream and name not in read
        }
        if own:
            forkbatch.check(
                source,
                cwd,
                entry,
                own,
                lambda key: True,
                forkbatch.suffixes(upstream),
                reading.spec.version or self.default_version,
                any(n.code == "version.assumed" for n in reading.notes),
                False,
                reading.spec,
                reading.notes,
                lineage=self.name,
            )

    def _copy_arguments(
        self, source: Source, cwd: str | None, entry: str
    ) -> tuple[Project, str, ast.Module | None] | None:
        """The project's copy of the framework that the launched entry runs: (project, its arguments module's path,
        that module's tree or None)."""
        from translator.dialects import forkbatch

        found = forkbatch.locate(source, cwd, entry)
        if found is None:
            return None
        project, path = found
        arguments = os.path.join(os.path.dirname(path), self.name, "utils", "arguments.py")
        return project, arguments, project.tree(arguments)

    def _copy_stops(self, source: Source, cwd: str | None, entry: str, flags: dict[str, Any], line: int) -> None:
        """Stop (ConfigError) where the copy's own argument parsing (its ``parse_args`` and the functions it hands
        the arguments to) stops the launch for certain on its flags (:func:`forkbatch.refuse_certain_stop`)."""
        from translator.dialects.forkbatch import refuse_certain_stop
        from translator.sources.startup import declared_dests

        copy = self._copy_arguments(source, cwd, entry)
        if copy is None:
            return
        project, path, _ = copy
        parses = {}
        for function, (module, prefixes) in PREFIXED_PARSES.items():
            named = declared_dests(project.tree(os.path.normpath(os.path.join(os.path.dirname(path), "..", module))))
            if named is not None:  # a copy without that module: its merge leaves every field unknown
                parses[function] = (*prefixes, *named)
        what = f"the project's {self.label} argument checks"
        refuse_certain_stop(source, project, path, "parse_args", flags, line, what, parses)

    def read_flags(
        self,
        source: Source,
        options: ReadOptions,
        notes: NoteList,
        flags: dict[str, Any],
        origins: dict[str, str],
        entry: str,
    ) -> Reading:
        """The reading of a launch's flags (from a shell script's command, or a driver that builds one)."""
        if options.version:
            version = self.resolve_version(options.version)
        else:
            version = self.default_version
            notes.info(
                "version.assumed",
                f"assumed {self.label} {version}, the newest release rlconf knows (the batch flags are the same in "
                f"every release); pass --from {self.name}@VERSION to choose",
            )
        values = Values(flags, origins, self.defaults(flags), source.name)
        spec = RunSpec(framework=self.name, version=version)
        with track_provenance(spec, values):
            self.reader(values, version, spec, notes, entry).run()
        for key, value in values.unused().items():
            spec.extras.append(Extra(self.name, key, value))
        if options.num_processes is not None and spec.topology.training_gpus not in (None, options.num_processes):
            notes.warning(
                "slime.num-processes-ignored",
                f"--num-processes {options.num_processes} is ignored: --actor-num-nodes × "
                f"--actor-num-gpus-per-node place {spec.topology.training_gpus} training processes",
            )
        return Reading(spec, notes, values)

    # ---------------------------------------------------------------- writing
    def write(self, spec: RunSpec, version: str, notes: NoteList) -> dict[str, str]:
        writer = self.writer(spec, version, notes)
        flags = writer.flags()
        live = spec.shell_variables
        lines = [
            "#!/usr/bin/env bash",
            f"# {self.label} {version} launch script written by rlconf from a {source_label(spec)} config.",
            "# Units: --rollout-batch-size counts prompts per rollout step; --global-batch-size samples (completions)",
            "# per optimizer step, global; --num-steps-per-rollout optimizer steps per rollout step (both written:",
            f"# {self.label} checks gbs = rbs × n // steps); --micro-batch-size samples per micro-batch per DP rank.",
            *(f"#   {line}" for line in plan_summary(spec)),
            "set -ex",
            "",
        ]
        head = spec.launch.main_process_host or "127.0.0.1"  # the Ray head's dashboard (port 8265)
        command = [
            "ray job submit " + shell_word(f"--address=http://{head}:8265", live),
            f"-- python3 {writer.entry}",
        ]
        for name, value in flags.items():
            command.append(f"--{name}" if value is True else flag_words(name, value, live))
        command.append('"$@"')
        lines.append(" \\\n   ".join(command))
        return {"launch.sh": "\n".join(lines) + "\n"}


def _entry(argv: list[str]) -> int | None:
    """The index of train.py / train_async.py run by python in ``argv`` (0: none)."""
    for i, word in enumerate(argv[1:], start=1):
        if os.path.basename(word) in ENTRY_POINTS and os.path.basename(argv[i - 1]).startswith("python"):
            return i
    return None


def _job_path(
    source: Source, command: ShellCommand, entry: str, variables: Mapping[str, str]
) -> tuple[Project, list[str]] | None:
    """The project and the folders of the job's ``sys.path`` inside or outside it: the entry script's folder, then
    each PYTHONPATH folder (relative ones from the run folder). None when the entry is not the project's or the
    script does not state PYTHONPATH with every part known (in the job's ``--runtime-env-json``, the command's own
    assignment or the script's variable: an unstated one is the user's environment's)."""
    from translator.sources.code import launched_scripts
    from translator.sources.shell import ray_job_env

    job_env = ray_job_env(command.argv)
    if job_env is None:
        return None
    stated = [job_env.get("PYTHONPATH"), command.assignments.get("PYTHONPATH"), variables.get("PYTHONPATH")]
    parts = [part for value in stated if value is not None for part in value.split(":") if part]
    # Ray expands ${NAME} in env_vars too (the cluster's value): any $ leaves a folder unknown
    if all(value is None for value in stated) or any("$" in part or "`" in part for part in parts):
        return None
    found = next(launched_scripts(source, command.cwd, entry), None)
    if found is None:
        return None
    project, script = found
    return project, [os.path.dirname(script)] + [os.path.join(project.run_dir, part) for part in parts]


def _on_job_path(job: tuple[Project, list[str]] | None, module: str) -> tuple[Project, str] | None:
    """(project, file) of ``module`` as the job imports it: the first folder of its path that holds it."""
    if job is None:
        return None
    project, path = job
    relative = module.replace(".", os.sep)
    for folder in path:
        for candidate in (os.path.join(folder, relative + ".py"), os.path.join(folder, relative, "__init__.py")):
            if os.path.isfile(candidate) and project.inside(candidate):
                return project, candidate
    return None


def _refuse_unreachable_functions(
    source: Source, line: int, flags: dict[str, Any], project: Project, path: list[str]
) -> None:
    """Stop (ConfigError) on a ``--*-path module.function`` flag whose module the project holds in a folder the
    job cannot import from (``path``: its ``sys.path`` folders, :func:`_job_path`). slime imports each such module
    (load_function, slime/utils/misc.py:39@v0.3.1) in the job, whose ``sys.path`` is the entry script's folder and
    its PYTHONPATH (Ray workers take the driver's), so the run stops with ModuleNotFoundError before the first
    training step."""
    from translator.sources.code import module_elsewhere

    for flag, value in flags.items():
        if not (flag.endswith("-path") and isinstance(value, str) and _DOTTED.fullmatch(value)):
            continue
        module = value.rpartition(".")[0]
        held = module_elsewhere(project.root, module, path)
        if held is not None:
            shown = ":".join(project.rel(folder) for folder in path if project.inside(folder))
            raise ConfigError(
                f"--{flag} {value}: the module {module} is {project.rel(held)} in the project, which the job "
                f"cannot import (its sys.path: {shown} and outside the project): slime stops with "
                "ModuleNotFoundError before the first training step",
                file=source.name,
                line=line,
                hint=f"add {os.path.dirname(project.rel(held)) or '.'} to the job's PYTHONPATH, or name the module "
                "as it is imported from a folder on it",
            )


def _ray_head(command: ShellCommand, spec: RunSpec) -> None:
    """``ray job submit --address=http://HOST:8265``: the Ray head, carried as launch.main_process_host."""
    from urllib.parse import urlsplit

    argv = command.argv
    for i, word in enumerate(argv):
        if word == "--":
            return
        address = word.partition("=")[2] if word.startswith("--address=") else None
        if word == "--address" and i + 1 < len(argv):
            address = argv[i + 1]
        if address and not symbolic_names(address):
            try:
                host = urlsplit(address).hostname
            except ValueError:
                return
            if host:
                spec.launch.main_process_host = host
                spec.derivations["launch.main_process_host"] = from_config(
                    f"ray job submit --address {address}: the Ray head", "--address"
                )
            return


def _samples_unknown(reading: Reading, flag: str, why: str, note: str) -> None:
    """A project function decides how many samples a prompt has in the step: those, and the counts built on them
    (the global batch too where it is not given), are unknown."""
    spec, v = reading.spec, reading.native
    fixed_gbs = v is not None and "global-batch-size" in v
    quantities = ["samples_per_prompt", "samples_per_step", "optimizer_steps_per_step"]
    quantities += [] if fixed_gbs else ["samples_per_optimizer_step", "grad_accum_steps"]
    for quantity in quantities:
        setattr(spec.plan, quantity, None)
        spec.derivations[f"plan.{quantity}"] = Derivation(f"unknown: {why}", [flag], "unknown")
    reading.notes.warning(
        "slime.custom-generate",
        f"--{flag}: {note}, so the samples per prompt and the counts built on them are unknown (read the function "
        "and pass the plan by hand)",
        source_keys=[flag],
    )


# the batch flags a rollout function may set on slime's args before generating
_ROLLOUT_FLAGS = ("n_samples_per_prompt", "rollout_batch_size", "over_sampling_batch_size", "global_batch_size")


def _regroups(project: Project, path: str, packages: tuple[str, ...]) -> str | None:
    """Where the project's rollout module (or a project file it imports, outside its copy of the framework's own
    ``packages``, whose argument checks set flags too) sets a batch flag on the arguments (``args.n_samples_per_prompt
    = args.k + 1``) or replaces the samples it returns (``output.samples = ...``): 'sets X at file:line'; None when it
    does neither."""
    from translator.sources.code import assignment_targets

    for file in project.reachable(path, limit=40):
        if project.rel(file).split("/")[0] in packages:
            continue
        tree = project.tree(file)
        for node in ast.walk(tree) if tree is not None else ():
            for target in assignment_targets(node):
                if isinstance(target, ast.Attribute) and (
                    target.attr in _ROLLOUT_FLAGS or (target.attr == "samples" and isinstance(node, ast.Assign))
                ):
                    return f"sets {ast.unparse(target)} at {project.rel(file)}:{target.lineno}"
    return None


def returns_one_sample(tree: Any, name: str, depth: int = 0) -> tuple[int, str] | None:
    """None when the module-level function ``name`` of ``tree`` returns one sample on every ``return``: its own
    parameter, a list holding one item, a name bound to what another function of the module returns when that one
    does, or anything but a list or tuple when the function is annotated ``-> Sample`` (its author's statement); else
    (line, what) of the first return that may give more, or (0, why) when the function is not found."""
    import ast

    functions = {
        n.name: n
        for n in (tree.body if tree is not None else [])
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    function = functions.get(name)
    if function is None:
        return 0, "is not a function rlconf finds in the project"
    parameters = {a.arg for a in function.args.args}
    annotated = function.returns is not None and ast.unparse(function.returns).split(".")[-1] == "Sample"

    def returns(body: list[ast.stmt]) -> list[ast.Return]:
        out: list[ast.Return] = []
        for statement in body:
            if isinstance(statement, ast.Return):
                out.append(statement)
            elif not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for block in ("body", "orelse", "finalbody"):
                    out += returns([s for s in getattr(statement, block, []) if isinstance(s, ast.stmt)])
                for handler in getattr(statement, "handlers", []):
                    out += returns(handler.body)
        return out

    def from_single_function(variable: str) -> bool:
        # every binding of the name is (await) f(...) of a module function that itself returns one sample
        values = [
            n.value
            for n in ast.walk(function)
            if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == variable for t in n.targets)
        ]
        calls = [v.value if isinstance(v, ast.Await) else v for v in values]
        return (
            bool(calls)
            and depth < 3
            and all(
                isinstance(c, ast.Call)
                and isinstance(c.func, ast.Name)
                and c.func.id in functions
                and returns_one_sample(tree, c.func.id, depth + 1) is None
                for c in calls
            )
        )

    for found in returns(function.body):
        value = found.value
        one_item = isinstance(value, ast.List) and len(value.elts) == 1 and not isinstance(value.elts[0], ast.Starred)
        single = (
            one_item
            or (isinstance(value, ast.Name) and (value.id in parameters or from_single_function(value.id)))
            or (annotated and value is not None and not isinstance(value, (ast.List, ast.Tuple, ast.ListComp)))
        )
        if not single:
            shown = ast.unparse(value) if value is not None else "None"
            shown = shown if len(shown) <= 60 else shown[:59] + "…"
            return found.lineno, f"returns {shown}, which may hold several samples"
    return None


def parse_flags(
    words: list[str], origin: str, notes: NoteList, script: ShellScript | None = None, unknown: list[str] | None = None
) -> tuple[dict[str, Any], dict[str, str]]:
    """argparse-like: ``--flag``, ``--flag value``, ``--flag=value``, several values. A word whose value is not
    known goes to ``unknown`` (it may hold any flags), unless it is an array ``script`` never sets (empty)."""
    flags: dict[str, Any] = {}
    helper_words = False  # within the words a model-args helper's command left (`$(python3 HELPER TYPE)`)

    def not_a_flag(word: str) -> None:
        nonlocal helper_words
        if not helper_words:
            _not_a_flag(word, origin, notes, script, unknown)
        helper_words = helper_words or any(helper in word for helper in MODEL_ARGS_HELPERS)

    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if not word.startswith("--") or word == "--":
            not_a_flag(word)
            continue
        helper_words = False
        name, eq, inline = word[2:].partition("=")
        following: list[str] = []
        if not eq and name not in SWITCHES:
            while i < len(words) and not (words[i].startswith("--") and not is_number(words[i])):
                following.append(words[i])
                i += 1
        value: Any
        if eq:
            value = inline
        elif name in SWITCHES or not following:
            value = True
            for extra in following:
                notes.warning(
                    "keys.unrecognised-argument", f"{origin}: '{extra}' after --{name} is not a value it takes"
                )
        elif name in MANY_VALUES:
            value = list(following)
        elif name.startswith(MANY_VALUE_PREFIXES):  # SGLang's arity: a list when several words follow
            value = list(following) if len(following) > 1 else following[0]
        else:  # argparse gives a flag without nargs one value: what follows is another word of the command
            value = following[0]
            for extra in following[1:]:
                not_a_flag(extra)
        if name in SECRET_FLAGS:
            notes.info(
                "keys.secret-redacted",
                f"--{name} holds a wandb API key; rlconf keeps it as {SECRET_PLACEHOLDER} and never copies the value",
                source_keys=[name],
            )
            value = SECRET_PLACEHOLDER
        if name in flags:
            notes.info("keys.repeated", f"--{name} is given more than once; argparse keeps the last value")
        flags[name] = value
    return flags, dict.fromkeys(flags, origin)


def _not_a_flag(word: str, origin: str, notes: NoteList, script: ShellScript | None, unknown: list[str] | None) -> None:
    """A word of the command that no flag takes: one whose value is not known (an unset variable, which the
    environment may set), an array the script never sets (bash exports no arrays: empty), or a stray positional
    argument."""
    names = symbolic_names(word)
    if names and script is not None and script.followed_all and set(names) <= script.array_references:
        notes.info(
            "slime.unexpanded-array",
            f"{origin}: {word} is an array that neither the script nor a file it reads sets; bash exports no "
            "arrays, so it adds no flags",
            source_keys=[word],
        )
    elif (
        names
        and script is not None
        and set(names) <= script.array_references
        # a path outside the project (a container's /slime checkout): a relative one the project lacks is its own
        and all(posixpath.isabs(path) and OWN_MODEL_FILES.search(path) for path in script.not_followed)
    ):
        notes.info(
            "slime.unexpanded-array",
            f"{origin}: {word} is set by {', '.join(script.not_followed)}, slime's own model file, which is not in "
            "the project: slime's model files set the model's architecture flags only (no batch or parallelism "
            "flag, at every release); not read",
            source_keys=[word],
        )
    elif names and any(helper in word for helper in MODEL_ARGS_HELPERS):
        notes.info(
            "slime.unexpanded-array",
            f"{origin}: {word} are the model's architecture flags the model-args helper prints when the script runs "
            "(no batch or parallelism flag); not read",
            source_keys=[word],
        )
    elif names:
        if unknown is not None:
            unknown.append(word)
    else:
        notes.warning(
            "keys.unrecognised-argument",
            f"{origin}: '{word}' is not a --flag; train.py takes no positional arguments",
            source_keys=[word],
        )


class SlimeReader:
    """The canonical model from slime's flags (docs/frameworks/slime.md §3). A fork (Miles) subclasses it through the
    hooks below."""

    label = "slime"
    steps_source = "slime/utils/arguments.py:1907-1915"  # where gbs = rbs × n // steps is formed

    def __init__(self, values: Values, version: str, spec: RunSpec, notes: NoteList, entry: str) -> None:
        self.v, self.version, self.spec, self.notes, self.entry = values, version, spec, notes, entry

    def run(self) -> None:
        self.topology()
        self.batch()
        self.algorithm()
        self.run_parts()

    def megatron_sets_gbs(self) -> bool:
        """Whether a run with neither --global-batch-size nor --num-steps-per-rollout gets Megatron's gbs = micro ×
        DP (from 0.2.2; before, slime's own rbs × n % gbs raised a TypeError first)."""
        return at_least(self.version, MEGATRON_DEFAULT_SINCE)

    def no_global_batch(self) -> str:
        """Why a run with neither batch flag forms no global batch (when Megatron does not set it)."""
        return (
            f"slime {self.version} computes rbs × n % gbs with gbs None and stops with a TypeError; the optimizer "
            "batch is unknown"
        )

    def data_parallel_text(self, world: Any) -> str:
        t = self.spec.topology
        return (
            f"{fmt(world)} actor GPUs (--actor-num-nodes × --actor-num-gpus-per-node) ÷ (TP "
            f"{t.tensor_parallel_size} × PP {t.pipeline_parallel_size} × CP {t.context_parallel_size})"
        )

    def topology(self) -> None:
        v, t = self.v, self.spec.topology
        # Any: a count may be an Unknown (a variable the script never sets) that the arithmetic carries along
        nodes: Any = v.positive_int("actor-num-nodes")
        gpus: Any = v.positive_int("actor-num-gpus-per-node")
        t.nodes, t.gpus_per_node = nodes, gpus
        t.training_gpus = nodes * gpus if None not in (nodes, gpus) else None
        tp: Any = v.positive_int("tensor-model-parallel-size")
        pp: Any = v.positive_int("pipeline-model-parallel-size")
        cp: Any = v.positive_int("context-parallel-size")
        t.tensor_parallel_size, t.pipeline_parallel_size, t.context_parallel_size = tp, pp, cp
        t.training_backend = str(v.get("train-backend"))
        colocate = v.flag("colocate")
        # 0: no local SGLang engine (external ones serve the rollout; slime/ray/rollout.py:1244-1245@v0.3.1)
        rollout = 0 if str(v.get("rollout-num-gpus")).strip() == "0" else v.positive_int("rollout-num-gpus")
        # Under --colocate SGLang shares the actor GPUs (rollout_num_gpus then defaults to all of them): none of
        # its own (slime/utils/arguments.py:1875-1889@v0.3.1).
        t.rollout_gpus = 0 if colocate else rollout
        t.rollout_tensor_parallel_size = v.positive_int("rollout-num-gpus-per-engine")
        self.spec.generation.rollout_backend = "sglang"
        self.spec.derivations["generation.rollout_backend"] = derived(f"{self.label} generates with SGLang engines")
        model_parallel = tp * pp * cp
        world = t.training_gpus
        if isinstance(world, int) and world % model_parallel:
            self.notes.warning(
                "slime.model-parallel-indivisible",
                f"{world} actor GPUs are not a multiple of TP {t.tensor_parallel_size} × PP "
                f"{t.pipeline_parallel_size} × CP {t.context_parallel_size} = {model_parallel}: Megatron refuses "
                "this world size at start-up; the data-parallel size is unknown",
                source_keys=["actor-num-gpus-per-node", "tensor-model-parallel-size"],
            )
            self.spec.plan.data_parallel_size = None
            return
        self.spec.plan.data_parallel_size = world // model_parallel if world is not None else None
        self.spec.derivations["plan.data_parallel_size"] = derived(
            self.data_parallel_text(world),
            "actor-num-nodes",
            "actor-num-gpus-per-node",
            "tensor-model-parallel-size",
            "pipeline-model-parallel-size",
            "context-parallel-size",
        )
        if isinstance(world, Unknown):
            self.spec.plan.data_parallel_size = world  # type: ignore[assignment]  # mark_unknowns makes it None

    def batch(self) -> None:
        v, p, s, d = self.v, self.spec.plan, self.spec, self.spec.derivations
        p.prompts_per_step = v.positive_int("rollout-batch-size")
        if p.prompts_per_step is None and "rollout-batch-size" not in v:
            self.notes.error(
                "slime.rollout-batch-size-missing",
                f"--rollout-batch-size is not set: {self.label}'s argparse requires it (the following arguments are "
                "required: --rollout-batch-size); the prompts per step are unknown",
                source_keys=["rollout-batch-size"],
            )
        p.samples_per_prompt = v.positive_int("n-samples-per-prompt")
        p.epochs_per_step = 1  # slime has no PPO-epochs flag: each rollout batch is trained on once
        d["plan.epochs_per_step"] = derived(f"{self.label} trains on each rollout batch once (no epochs flag)")
        known = None not in (p.prompts_per_step, p.samples_per_prompt)
        samples = p.prompts_per_step * p.samples_per_prompt if known else None  # type: ignore[operator]
        p.samples_per_step = samples
        gbs: Any = v.positive_int("global-batch-size")
        steps: Any = v.positive_int("num-steps-per-rollout")
        dynamic = bool(v.flag("use-dynamic-batch-size"))
        micro: Any = v.positive_int("micro-batch-size")
        dp: Any = p.data_parallel_size
        if steps is not None and gbs is None:
            gbs = samples // steps if samples is not None else None
            d["plan.samples_per_optimizer_step"] = derived(
                f"{fmt(samples)} samples // --num-steps-per-rollout {fmt(steps)} ({self.steps_source})",
                "rollout-batch-size",
                "n-samples-per-prompt",
                "num-steps-per-rollout",
            )
            if isinstance(samples, int) and isinstance(steps, int) and samples % steps:
                self.notes.warning(
                    "batch.indivisible",
                    f"{samples} samples per rollout step are not a multiple of --num-steps-per-rollout {steps}: "
                    f"{self.label} floors the global batch to {gbs} and leaves {samples - gbs * steps} samples "
                    "untrained",
                    source_keys=["num-steps-per-rollout"],
                )
        elif gbs is None and self.megatron_sets_gbs():
            gbs = micro * dp if dp is not None else None
            d["plan.samples_per_optimizer_step"] = derived(
                f"Megatron's default: --micro-batch-size {micro} × DP {fmt(dp)} (neither --global-batch-size nor "
                "--num-steps-per-rollout is set; validate_args sets it and only prints it)",
                "micro-batch-size",
                "global-batch-size",
                "num-steps-per-rollout",
            )
            self.notes.warning(
                "slime.gbs-from-megatron",
                f"neither --global-batch-size nor --num-steps-per-rollout is set: Megatron's validate_args sets the "
                f"global batch to --micro-batch-size × DP = {fmt(gbs)} samples without a warning, so each rollout "
                f"step of {fmt(samples)} samples runs {fmt(samples // gbs if gbs and samples else None)} optimizer "
                "steps; set "
                "--num-steps-per-rollout (or --global-batch-size) to choose",
                source_keys=["global-batch-size", "num-steps-per-rollout"],
            )
        elif gbs is None:
            self.notes.warning(
                "slime.no-global-batch",
                f"neither --global-batch-size nor --num-steps-per-rollout is set: {self.no_global_batch()}",
                source_keys=["global-batch-size", "num-steps-per-rollout"],
            )
        p.samples_per_optimizer_step = gbs
        if "global-batch-size" in v and steps is None:
            d["plan.samples_per_optimizer_step"] = from_config(f"--global-batch-size {fmt(gbs)}", "global-batch-size")
        unknown = isinstance(gbs, Unknown) or isinstance(samples, Unknown)  # a variable the script never sets
        if gbs and samples is not None and not unknown:
            # The training loop cuts a rollout into len(samples) // gbs steps; a remainder is not trained
            # (slime/utils/dp_schedule.py:135-139@v0.3.1).
            p.optimizer_steps_per_step = samples // gbs if samples >= gbs else exact(Fraction(samples, gbs))
            d["plan.optimizer_steps_per_step"] = derived(
                f"{fmt(samples)} samples // {fmt(gbs)} per optimizer step", "global-batch-size"
            )
            if isinstance(samples, int) and isinstance(gbs, int) and samples > gbs and samples % gbs:
                self.notes.warning(
                    "batch.indivisible",
                    f"{samples} samples per rollout step are not a multiple of the global batch {gbs}: {self.label} "
                    f"runs {samples // gbs} optimizer steps and does not train on the last {samples % gbs} samples",
                    source_keys=["global-batch-size"],
                )
        elif unknown:
            names = [*getattr(gbs, "names", []), *getattr(samples, "names", [])]
            p.optimizer_steps_per_step = Unknown(names)  # type: ignore[assignment]  # mark_unknowns makes it None
        tb = self.spec.token_budget
        tb.dynamic_batching = dynamic
        if dynamic:
            tb.max_tokens_per_device = v.positive_int("max-tokens-per-gpu")
            logprob = v.positive_int("log-probs-max-tokens-per-gpu")
            tb.logprob_max_tokens_per_device = logprob if logprob is not None else tb.max_tokens_per_device
            p.micro_batch_per_device = None  # packed by tokens: the count per micro-batch depends on the data
            p.grad_accum_steps = None
        else:
            p.micro_batch_per_device = micro
            d["plan.micro_batch_per_device"] = (from_config if "micro-batch-size" in v else _default)(
                f"--micro-batch-size {micro}", "micro-batch-size"
            )
        p.total_steps = v.positive_int("num-rollout")
        epochs = v.number("num-epoch")
        if p.total_steps is None and epochs is not None:
            s.run_length.dataset_passes = epochs
        elif epochs is not None:
            v.consume("num-epoch")
            self.notes.info(
                "slime.num-epoch-ignored",
                "--num-epoch is ignored when --num-rollout is set (slime/utils/arguments.py:1929-1931)",
                source_keys=["num-epoch"],
            )
        over = v.positive_int("over-sampling-batch-size")
        if over is not None:
            s.generation.prompts_per_round = over
        if v.get("dynamic-sampling-filter-path") is not None:
            s.generation.filter_groups = True
        p.complete()
        if p.grad_accum_steps is not None:
            d["plan.grad_accum_steps"] = derived(
                f"{fmt(gbs)} samples per optimizer step ÷ {fmt(dp)} DP ranks ÷ micro {fmt(micro)} (Megatron's "
                "micro-batch calculator)",
                "micro-batch-size",
            )
        if self.entry == "train_async.py":
            # Generation of step k+1 overlaps training on step k: samples come from a policy one step old.
            s.asynchrony.max_steps_ahead = 1
            d["asynchrony.max_steps_ahead"] = derived(
                "train_async.py generates the next rollout while training on this one (one step behind)"
            )
        else:
            s.asynchrony.max_steps_ahead = 0
            d["asynchrony.max_steps_ahead"] = derived("train.py alternates generation and training (on-policy)")

    def algorithm(self) -> None:
        v, a = self.v, self.spec.algorithm
        estimator = str(v.get("advantage-estimator"))
        a.advantage_estimator = "gae" if estimator == "ppo" else estimator
        std = not v.flag("disable-grpo-std-normalization")
        n = self.spec.plan.samples_per_prompt
        if estimator in ("grpo", "gspo", "cispo"):
            a.advantage_std_normalization = std and n != 1  # n 1: forced off (:1917-1919)
            a.advantage_normalization_scope = "group"
        if v.flag("use-kl-loss"):
            a.kl_placement = "loss"
            a.kl_coef = v.number("kl-loss-coef")
            a.kl_estimator = KL_TYPES.get(str(v.get("kl-loss-type")), str(v.get("kl-loss-type")))
        else:
            kl = v.number("kl-coef")
            if kl and estimator in ("ppo", "reinforce_plus_plus", "reinforce_plus_plus_baseline"):
                a.kl_placement = "reward"
                a.kl_coef = kl
            else:
                a.kl_placement = "none"
                a.kl_coef = 0.0
        a.clip_ratio_low = v.number("eps-clip")
        high = v.number("eps-clip-high")
        a.clip_ratio_high = high if high is not None else a.clip_ratio_low
        a.clip_ratio_dual = v.number("eps-clip-c")
        a.entropy_coef = v.number("entropy-coef")
        if estimator == "ppo":
            a.gamma = v.number("gamma")
            a.gae_lambda = v.number("lambd")
            self.spec.critic.enabled = True

    def run_parts(self) -> None:
        v, s = self.v, self.spec
        s.optimizer.lr = v.number("lr")
        s.optimizer.lr_schedule = str(v.get("lr-decay-style"))
        warmup = v.get("lr-warmup-iters")
        if warmup:
            s.optimizer.warmup_steps = v.positive_int("lr-warmup-iters")
            s.optimizer.warmup_unit = "optimizer_steps"
        s.optimizer.grad_clip = v.number("clip-grad")
        s.optimizer.weight_decay = v.number("weight-decay")
        seed = v.number("seed")
        s.launch.seed = int(seed) if isinstance(seed, (int, float)) else seed
        s.sampling.temperature = v.number("rollout-temperature")
        s.sampling.top_p = v.number("rollout-top-p")
        top_k = v.number("rollout-top-k")
        s.sampling.top_k = int(top_k) if isinstance(top_k, (int, float)) else top_k
        s.lengths.max_response_tokens = v.positive_int("rollout-max-response-len")
        s.lengths.max_prompt_tokens = v.positive_int("rollout-max-prompt-len")
        s.references.model = _text(v.get("hf-checkpoint"))
        data = v.get("prompt-data")
        s.data.train_sources = [str(data)] if data is not None else None
        s.data.prompt_key = str(v.get("input-key"))
        s.data.answer_key = _text(v.get("label-key"))
        s.data.apply_chat_template = bool(v.flag("apply-chat-template"))
        rm = v.get("rm-type")
        if rm is not None:
            s.reward.builtin = [str(rm)]
        custom = _text(v.get("custom-rm-path"))
        if custom is not None:
            path, _, function = custom.partition(":")
            s.reward.function_path, s.reward.function_name = path, function or None
        s.checkpointing.directory = _text(v.get("save"))
        save = v.positive_int("save-interval")
        s.checkpointing.every_steps = save if save is not None else 0
        every = v.positive_int("eval-interval")
        s.evaluation.every_steps = every if every is not None else 0
        eval_data = v.get("eval-prompt-data")
        if isinstance(eval_data, list):
            s.data.eval_sources = [str(p) for p in eval_data[1::2]]  # NAME PATH pairs
        s.evaluation.samples_per_prompt = v.positive_int("n-samples-per-eval-prompt")
        backends = ["console"]
        if v.flag("use-wandb"):
            backends.append("wandb")
            s.logging.project = _text(v.get("wandb-project"))
            s.logging.entity = _text(v.get("wandb-team"))
            if v.flag("disable-wandb-random-suffix"):  # else the name is the group + a random id + the rank
                s.logging.run_name = _text(v.get("wandb-group"))
        s.logging.backends = backends


def _batches(samples: int, dp: int, near: int = 1) -> set[int]:
    """The global batches slime can form from ``samples`` per rollout step (rbs × n // steps) that ``dp`` divides:
    up to 4096 optimizer steps per rollout step, and those within 64 of ``near`` steps (a bounded search: a count
    near 2**53 stays fast)."""
    most = samples // dp
    steps = {*range(1, min(most, 4096) + 1), *range(max(1, near - 64), min(most, near + 64) + 1)}
    return {samples // k for k in steps if (samples // k) % dp == 0}


def _default(text: str, *keys: str) -> Derivation:
    return Derivation(text, list(keys), "default")


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


class SlimeWriter:
    """slime flags for a canonical spec; a note for whatever slime cannot hold. A fork (Miles) subclasses it through
    the hooks below."""

    label = "slime"
    # the dynamic-sampling filter of groups whose rewards all agree, in the framework's package
    filter_path = "slime.rollout.filter_hub.dynamic_sampling_filters.check_reward_nonzero_std"

    def estimators(self) -> tuple[str, ...]:
        """The --advantage-estimator choices of the release written."""
        return (*ESTIMATORS, "cispo") if at_least(self.version, CISPO_SINCE) else ESTIMATORS

    def backend(self) -> None:
        """The training backend's flags (slime: Megatron only)."""
        t = self.spec.topology
        if t.training_backend not in (None, "megatron"):
            self.notes.info(
                "slime.backend-megatron",
                f"training backend {t.training_backend} becomes Megatron (slime trains with Megatron-LM)",
                source_keys=["topology.training_backend"],
                target_keys=["train-backend"],
            )

    def __init__(self, spec: RunSpec, version: str, notes: NoteList) -> None:
        self.spec, self.version, self.notes = spec, version, notes
        self.out: dict[str, Any] = {}
        self.entry = "train.py"

    def flags(self) -> dict[str, Any]:
        self.topology()
        self.batch()
        self.algorithm()
        self.run_parts()
        return self.out

    def topology(self) -> None:
        s, t, out = self.spec, self.spec.topology, self.out
        tp = t.tensor_parallel_size or 1
        pp = t.pipeline_parallel_size or 1
        cp = t.context_parallel_size or 1
        sp = t.sequence_parallel_size or 1
        if sp > 1:
            # Ulysses/ring sequence parallelism divides the data-parallel ranks as Megatron's CP does.
            cp *= sp
            self.notes.info(
                "slime.sequence-parallel-as-cp",
                f"sequence parallelism {sp} is written as Megatron --context-parallel-size {cp} (both split a "
                "sequence over GPUs and divide the data-parallel ranks)",
                source_keys=["topology.sequence_parallel_size"],
                target_keys=["context-parallel-size"],
            )
        dp = s.plan.data_parallel_size
        if dp is None:
            raise ConfigError(
                f"{self.label} needs the number of training GPUs, and the source config does not state it",
                hint="pass --num-processes N (the training world size)",
            )
        world = dp * tp * pp * cp
        nodes = t.nodes if t.nodes and world % t.nodes == 0 else 1
        out["actor-num-nodes"] = nodes
        out["actor-num-gpus-per-node"] = world // nodes
        out["tensor-model-parallel-size"] = tp
        out["pipeline-model-parallel-size"] = pp
        out["context-parallel-size"] = cp
        if t.rollout_gpus:
            out["rollout-num-gpus"] = t.rollout_gpus
        else:
            out["colocate"] = True
        if t.rollout_tensor_parallel_size:
            out["rollout-num-gpus-per-engine"] = t.rollout_tensor_parallel_size
        self.backend()

    def batch(self) -> None:
        p, out, notes = self.spec.plan, self.out, self.notes
        rbs = whole_prompts(self.spec, notes, self.label, "rollout-batch-size")
        n = p.samples_per_prompt
        if rbs is None or n is None:
            notes.warning(
                "batch.not-expressible",
                f"the source does not determine its prompts per step; {self.label} requires --rollout-batch-size "
                "(argparse "
                "stops without it): set it in the written script",
                source_keys=["plan.prompts_per_step"],
                target_keys=["rollout-batch-size"],
            )
            if n is not None:
                out["n-samples-per-prompt"] = n
            self.length()
            return
        samples = rbs * n
        source_gbs = p.samples_per_optimizer_step
        whole = source_gbs is not None and Fraction(source_gbs).denominator == 1
        gbs: int = int(source_gbs) if whole else samples  # type: ignore[arg-type]
        if not whole:
            notes.warning(
                "batch.not-expressible",
                f"the source's optimizer batch ({fmt(p.samples_per_optimizer_step)}) is not a whole number of "
                f"samples; {self.label} takes one optimizer step of {samples} samples per rollout step",
                source_keys=["plan.samples_per_optimizer_step"],
                target_keys=["global-batch-size"],
            )
        if gbs > samples:
            notes.warning(
                "batch.not-expressible",
                f"the source accumulates {gbs} samples per optimizer step over several rollout steps of {samples}; "
                f"{self.label}'s optimizer batch is at most one rollout step (it stops with 'need at least one "
                f"rollout per step'): {samples} is written",
                source_keys=["plan.samples_per_optimizer_step"],
                target_keys=["global-batch-size"],
            )
            gbs = samples
        parallel = ("tensor-model-parallel-size", "pipeline-model-parallel-size", "context-parallel-size")
        dp = (
            self.out["actor-num-gpus-per-node"]
            * self.out["actor-num-nodes"]
            // math.prod(out.get(k, 1) for k in parallel)
        )
        if samples < dp:
            raise ConfigError(
                f"{self.label} cannot train {samples} samples per rollout step on {dp} data-parallel ranks: each "
                "optimizer step needs at least one sample per rank (slime/utils/dp_schedule.py)",
                hint="translate a config with at least as many samples per step as data-parallel ranks",
            )
        # slime forms gbs = rbs × n // steps and checks an explicit gbs against it; Megatron's calculator needs
        # gbs % (micro × DP) == 0. The written batch is the nearest one with both, whole splits first.
        candidates = _batches(samples, dp, samples // gbs)
        if not candidates:
            # No optimizer batch of a whole number of samples per rank: more prompts per step (the nearest count whose
            # samples split over the ranks).
            step = dp // math.gcd(n, dp)  # the prompt counts whose samples DP divides (then k = 1 fits)
            wider = (rbs // step + 1) * step
            notes.warning(
                "batch.not-expressible",
                f"{samples} samples per rollout step ({rbs} prompts × {n}) form no optimizer batch that {dp} "
                f"data-parallel ranks divide (Megatron: gbs % (micro × DP) == 0, slime: gbs = rbs × n // steps); "
                f"--rollout-batch-size {wider} is written",
                source_keys=["plan.prompts_per_step", "plan.samples_per_step"],
                target_keys=["rollout-batch-size"],
            )
            rbs, samples = wider, wider * n
            gbs = min(gbs, samples)
            candidates = _batches(samples, dp, samples // gbs)
        chosen_gbs = min(candidates, key=lambda g: (samples % g != 0, abs(g - gbs), -g))
        steps = samples // chosen_gbs
        if chosen_gbs != gbs:
            notes.warning(
                "batch.not-expressible",
                f"the source's {gbs} samples per optimizer step do not cut {samples} samples per rollout step into "
                f"equal batches that {dp} data-parallel ranks divide (slime: gbs = rbs × n // steps; Megatron: gbs % "
                f"(micro × DP) == 0); {steps} optimizer steps of {chosen_gbs} samples are written",
                source_keys=["plan.samples_per_optimizer_step", "plan.optimizer_steps_per_step"],
                target_keys=["global-batch-size", "num-steps-per-rollout"],
            )
            gbs = chosen_gbs
        if p.epochs_per_step not in (None, 1):
            notes.warning(
                "batch.not-expressible",
                f"the source passes over each rollout batch {p.epochs_per_step} times; {self.label} trains on it once "
                f"({steps} optimizer steps per rollout step, not {fmt(p.optimizer_steps_per_step)})",
                source_keys=["plan.epochs_per_step", "plan.optimizer_steps_per_step"],
            )
        out["rollout-batch-size"] = rbs
        out["n-samples-per-prompt"] = n
        out["global-batch-size"] = gbs
        out["num-steps-per-rollout"] = steps
        tb = self.spec.token_budget
        if tb.dynamic_batching and tb.max_tokens_per_device:
            out["use-dynamic-batch-size"] = True
            out["max-tokens-per-gpu"] = tb.max_tokens_per_device
            if tb.logprob_max_tokens_per_device not in (None, tb.max_tokens_per_device):
                out["log-probs-max-tokens-per-gpu"] = tb.logprob_max_tokens_per_device
        micro = p.micro_batch_per_device
        micro = int(micro) if micro is not None and Fraction(micro).denominator == 1 else None
        # Megatron's micro-batch calculator needs gbs % (micro × DP) == 0, with token budgets too.
        per_rank = gbs // dp  # gbs % dp == 0 by construction: micro 1 always fits
        wanted = micro or 1
        # the wanted micro-batch if it divides the rank's share, else the largest one below it that does
        chosen = next(m for m in (wanted, *range(min(wanted, per_rank, 4096), 0, -1)) if per_rank % m == 0)
        if micro is not None and chosen != micro:
            notes.warning(
                "batch.not-expressible",
                f"{micro} samples per micro-batch do not divide {gbs} samples over {dp} ranks (Megatron's "
                f"calculator refuses it); --micro-batch-size {chosen} is written",
                source_keys=["plan.micro_batch_per_device"],
                target_keys=["micro-batch-size"],
            )
        out["micro-batch-size"] = chosen
        self.length()
        self.generation(rbs)

    def length(self) -> None:
        p, out, notes = self.spec.plan, self.out, self.notes
        if p.total_steps is not None:
            out["num-rollout"] = p.total_steps
        elif self.spec.run_length.dataset_passes is not None:
            passes = self.spec.run_length.dataset_passes
            out["num-epoch"] = int(passes) if float(passes).is_integer() else passes
        else:
            out["num-epoch"] = 1
            notes.warning(
                "run-length.not-expressible",
                f"the source states no run length; {self.label} needs --num-rollout or --num-epoch: --num-epoch 1 is "
                "written",
                target_keys=["num-epoch"],
            )

    def generation(self, rbs: int) -> None:
        out, notes, g = self.out, self.notes, self.spec.generation
        if g.prompts_per_round is not None and g.prompts_per_round >= rbs:
            out["over-sampling-batch-size"] = g.prompts_per_round
        if g.filter_groups:
            out["dynamic-sampling-filter-path"] = self.filter_path
            notes.info(
                "slime.filter-written",
                f"group filtering is written as {self.label}'s filter of groups whose rewards all agree "
                "(check_reward_nonzero_std)",
                source_keys=["generation.filter_groups"],
                target_keys=["dynamic-sampling-filter-path"],
            )
        ahead = self.spec.asynchrony.max_steps_ahead
        if ahead:
            if "colocate" in out:
                notes.warning(
                    "asynchrony.not-expressible",
                    f"the source generates ahead of training, but on shared GPUs {self.label} cannot (train_async.py "
                    "refuses --colocate): train.py is written, on-policy",
                    source_keys=["asynchrony.max_steps_ahead"],
                )
            else:
                self.entry = "train_async.py"
                if ahead != 1:
                    notes.warning(
                        "asynchrony.not-expressible",
                        f"the source lets generation run {ahead} steps ahead; train_async.py runs one step ahead",
                        source_keys=["asynchrony.max_steps_ahead"],
                    )

    def algorithm(self) -> None:
        a, out, notes = self.spec.algorithm, self.out, self.notes
        estimator = a.advantage_estimator
        known = self.estimators()
        if estimator == "gae":
            out["advantage-estimator"] = "ppo"
        elif estimator in known:
            out["advantage-estimator"] = estimator
        elif estimator is not None:
            out["advantage-estimator"] = "grpo"
            notes.warning(
                "algorithm.not-expressible",
                f"advantage estimator {estimator} has no {self.label} {self.version} counterpart; grpo is written",
                source_keys=["algorithm.advantage_estimator"],
                target_keys=["advantage-estimator"],
            )
        if a.advantage_std_normalization is False and out.get("advantage-estimator", "grpo") in (
            "grpo",
            "gspo",
            "cispo",
        ):
            out["disable-grpo-std-normalization"] = True
        if out.get("advantage-estimator") in ("reinforce_plus_plus", "reinforce_plus_plus_baseline"):
            out["normalize-advantages"] = True  # slime refuses these estimators without it (§5 row 10)
        if a.kl_placement == "loss" and a.kl_coef:
            out["use-kl-loss"] = True
            out["kl-loss-coef"] = a.kl_coef
            out["kl-loss-type"] = KL_WRITTEN.get(a.kl_estimator or "k1", "k1")
        elif a.kl_placement == "reward" and a.kl_coef:
            if out.get("advantage-estimator") in ("ppo", "reinforce_plus_plus", "reinforce_plus_plus_baseline"):
                out["kl-coef"] = a.kl_coef
            else:
                notes.warning(
                    "algorithm.not-expressible",
                    f"a KL penalty in the reward ({a.kl_coef}) has no effect with {self.label}'s "
                    f"{out.get('advantage-estimator', 'grpo')} (only ppo and REINFORCE++ add it); not written",
                    source_keys=["algorithm.kl_coef", "algorithm.kl_placement"],
                )
        if a.clip_ratio_low is not None:
            out["eps-clip"] = a.clip_ratio_low
        if a.clip_ratio_high is not None:
            out["eps-clip-high"] = a.clip_ratio_high
        if a.clip_ratio_dual is not None:
            out["eps-clip-c"] = a.clip_ratio_dual
        if a.entropy_coef:
            out["entropy-coef"] = a.entropy_coef
        if out.get("advantage-estimator") == "ppo":
            if a.gamma is not None:
                out["gamma"] = a.gamma
            if a.gae_lambda is not None:
                out["lambd"] = a.gae_lambda

    def run_parts(self) -> None:
        s, out = self.spec, self.out
        if s.optimizer.lr is not None:
            out["lr"] = s.optimizer.lr
        schedule = s.optimizer.lr_schedule
        out["lr-decay-style"] = schedule if schedule in SCHEDULES else "constant"
        if s.optimizer.warmup_steps and s.optimizer.warmup_unit == "optimizer_steps":
            out["lr-warmup-iters"] = s.optimizer.warmup_steps
        if s.optimizer.grad_clip is not None:
            out["clip-grad"] = s.optimizer.grad_clip
        if s.optimizer.weight_decay is not None:
            out["weight-decay"] = s.optimizer.weight_decay
        if s.launch.seed is not None:
            out["seed"] = s.launch.seed
        if s.sampling.temperature is not None:
            out["rollout-temperature"] = s.sampling.temperature
        if s.sampling.top_p is not None:
            out["rollout-top-p"] = s.sampling.top_p
        if s.sampling.top_k is not None:
            out["rollout-top-k"] = s.sampling.top_k if s.sampling.top_k > 0 else -1
        if s.lengths.max_prompt_tokens is not None:
            out["rollout-max-prompt-len"] = s.lengths.max_prompt_tokens
        if s.lengths.max_response_tokens is not None:
            out["rollout-max-response-len"] = s.lengths.max_response_tokens
        if s.references.model is not None:
            out["hf-checkpoint"] = s.references.model
        if s.data.train_sources:
            out["prompt-data"] = s.data.train_sources[0]
        if s.data.prompt_key is not None:
            out["input-key"] = s.data.prompt_key
        if s.data.answer_key is not None:
            out["label-key"] = s.data.answer_key
        if s.data.apply_chat_template:
            out["apply-chat-template"] = True
        if s.reward.builtin:
            out["rm-type"] = s.reward.builtin[0]
        if s.reward.function_path:
            out["custom-rm-path"] = s.reward.function_path + (
                f":{s.reward.function_name}" if s.reward.function_name else ""
            )
        if s.checkpointing.every_steps:
            out["save-interval"] = s.checkpointing.every_steps
            out["save"] = s.checkpointing.directory or "checkpoints"
        elif s.checkpointing.directory:
            out["save"] = s.checkpointing.directory
        if s.evaluation.every_steps and s.data.eval_sources:
            out["eval-interval"] = s.evaluation.every_steps
            out["eval-prompt-data"] = [
                word for i, path in enumerate(s.data.eval_sources) for word in (f"eval{i}", path)
            ]
        if s.evaluation.samples_per_prompt is not None:
            out["n-samples-per-eval-prompt"] = s.evaluation.samples_per_prompt
        if s.logging.backends and "wandb" in s.logging.backends:
            out["use-wandb"] = True
            if s.logging.project:
                out["wandb-project"] = s.logging.project
            if s.logging.entity:
                out["wandb-team"] = s.logging.entity
            if s.logging.run_name:  # the run named exactly so: the group, with no random suffix
                out["wandb-group"] = s.logging.run_name
                out["disable-wandb-random-suffix"] = True
