"""Detection: which framework a file belongs to, from the patterns each registration holds (its ``detection``),
so that detection imports only the dialect that matches.

A script matches by its launcher line; a YAML file by its key structure. Detection asks the frameworks in the
registry's order (translator/frameworks/__init__.py says why that order).
"""

from __future__ import annotations

import os
import re
from functools import cache

from translator.dialects import registry
from translator.dialects.base import Dialect
from translator.errors import ConfigError
from translator.framework import Framework
from translator.sources.files import Source

# (a quoted interpreter path counts too: "$ROOT/.venv/bin/python" -m pkg.main)
PYTHON_LAUNCH = r"^[^#\n]*(^|[\s/;&|(\"'])(python[\d.]*|torchrun|deepspeed|accelerate|uv\s+run)[\"']?(\s|$)"
YAML_SUFFIXES = (".yaml", ".yml")
PLAN_SUFFIXES = (".toml", ".json")


@cache
def _compiled(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """A pattern compiled when first used: detection stops at the first framework that matches, so reading one
    file compiles one or two patterns (about 0.1 ms each) rather than all of them."""
    return re.compile(pattern, flags)


def _search(pattern: str | None, text: str, flags: int = 0) -> bool:
    return pattern is not None and _compiled(pattern, flags).search(text) is not None


def _argument_search(pattern: str) -> str:
    """A one-word argument pattern (``^...(=|$)``) as a search through a whole script's text."""
    return r"(?:^|[\s'\"])" + pattern[1:].replace("$)", "(?=[\\s'\"]|$))")


def matches_arguments(framework: Framework, text: str, suffix: str) -> bool:
    """Whether a script runs python with arguments in the framework's namespace (a fork's own entry point)."""
    pattern = framework.detection.arguments
    return (
        suffix not in YAML_SUFFIXES + PLAN_SUFFIXES
        and pattern is not None
        and _search(PYTHON_LAUNCH, text, re.MULTILINE)
        and _search(_argument_search(pattern), text, re.MULTILINE)
    )


def program_arguments(name: str, argv: list[str], start: int) -> bool:
    """Whether the words after ``argv[start]`` (the program) include one of the framework's own arguments, and
    none of a framework it yields to."""
    detection = registry.framework(name).detection
    if detection.arguments is None:
        return False
    words = argv[start + 1 :]
    for other in detection.yields_to:
        theirs = registry.framework(other).detection.arguments
        if theirs is not None and any(_compiled(theirs).search(w) for w in words):
            return False
    return any(_compiled(detection.arguments).search(word) for word in words)


def known_script(text: str) -> bool:
    """Whether a script launches some framework's training: a known entry point, or a fork's told by its arguments."""
    frameworks = registry.registered()
    return any(_search(f.detection.script, text) for f in frameworks) or any(
        matches_arguments(f, text, ".sh") for f in frameworks
    )


def known_yaml(text: str) -> bool:
    """Whether a YAML file has the key structure of some framework's config."""
    return any(_search(f.detection.yaml, text, re.MULTILINE) for f in registry.registered())


def matches(framework: Framework, text: str, suffix: str) -> bool:
    """Whether a file with this text and suffix looks like the framework's config."""
    if framework.name == registry.PLAN.name:
        return suffix in PLAN_SUFFIXES or text.lstrip().startswith("{")
    if suffix in YAML_SUFFIXES:
        return _search(framework.detection.yaml, text, re.MULTILINE)
    if suffix in PLAN_SUFFIXES:
        return False
    # a command continued over several lines is one line here: a pattern may ask what launches the entry
    return _search(framework.detection.script, _without_comments(text).replace("\\\n", " "))


_COMMENT = re.compile(r"^\s*#.*$|(?<=\s)#[^'\"\n]*$", re.MULTILINE)


def _without_comments(text: str) -> str:
    """A script's text without its comments (a whole-line `# ...`, or a trailing ` # ...` holding no quote): a
    comment that names another framework's script (`# entry: examples/run_grpo.py`) runs nothing."""
    return _COMMENT.sub("", text) if "#" in text else text


def detect(source: Source) -> Dialect:
    """The framework a file belongs to, from its launcher line or key structure."""
    frameworks = [f for f in registry.registered() if f.name != registry.PLAN.name]
    written = _written_by_rlconf(source.text, frameworks)
    if written is not None:  # a file rlconf wrote says whose it is in its header
        return registry.get(written.name)
    order = [registry.PLAN, *frameworks] if source.suffix in PLAN_SUFFIXES else [*frameworks, registry.PLAN]
    for framework in order:
        if matches(framework, source.text, source.suffix):  # imports only the dialect that matches
            return registry.get(_copy_held(source, framework, frameworks) or framework.name)
    reached = _reached_by_script(source, frameworks)
    if reached is not None:  # a Python script that hands the training to a project module (`from train import run`)
        return registry.get(reached.name)
    commands, followed = _commands(source)
    imported = _imported_by_entries(source, commands, frameworks)
    if imported is not None:  # no known entry point: the project's own entry, told by the framework it imports
        return registry.get(imported.name)
    for framework in frameworks:  # or by the arguments it takes
        if matches_arguments(framework, source.text, source.suffix):
            return registry.get(framework.name)
    if followed:  # a wrapper: the scripts it runs or sources hold the launch (`export N=2; bash examples/run.sh`)
        text = "\n".join(" ".join(argv) for argv in commands)
        for framework in frameworks:  # by a known entry point: a wrapper's commands carry many arguments
            if matches(framework, text, ".sh"):
                return registry.get(framework.name)
    from translator.sources.shell import program_index, unwrap_command

    # else by the arguments of a Python program the script (or one it calls) runs, as the shell reader expands its
    # words: a fork's entry, or an interpreter named by a variable ("${PYTHON_BIN}" "${ROOT}/train.py" --flags);
    # in the order the launch script's own arguments are told by
    for argv in commands:
        words = unwrap_command(argv)
        index = program_index(words)
        if index is None:
            continue
        for framework in frameworks:
            if program_arguments(framework.name, words, index):
                return registry.get(framework.name)
    held = arguments_only(source)
    if held is not None:  # a file of arguments another script passes on: by their namespace
        return registry.get(held[0])
    what = "launcher" if source.suffix not in (".yaml", ".yml", ".json", ".toml") else "key structure"
    raise ConfigError(
        f"cannot tell which framework this is from its {what}",
        file=source.name,
        hint=f"pass --from FRAMEWORK (one of {', '.join(registry.names())})",
    )


def _copy_held(source: Source, framework: Framework, frameworks: list[Framework]) -> str | None:
    """The framework whose copy the project holds where the launch matched another with the same entry scripts (a
    fork and its parent, both launching a train.py): a project that holds only the parent's copy (its
    ``copy_markers``) runs that copy, whatever flags it shares with the fork, unless the script names the fork
    itself (its name or package). None: the matched one stands."""
    if not framework.copy_markers or source.base_dir is None or source.files:
        return None
    if any(re.search(rf"\b{re.escape(name)}\b", source.text) for name in (framework.name, *framework.packages)):
        return None  # the script names the matched one (its checkout, its package): that one runs
    from translator.sources.code import files_ending, project_root

    root = project_root(str(source.base_dir))

    def holds(candidate: Framework) -> bool:
        return any(next(iter(files_ending(root, marker)), None) for marker in candidate.copy_markers)

    if holds(framework):
        return None
    sharing = [
        f
        for f in frameworks
        if f is not framework and f.copy_entries and f.copy_entries == framework.copy_entries and holds(f)
    ]
    return sharing[0].name if len(sharing) == 1 else None


def _written_by_rlconf(text: str, frameworks: list[Framework]) -> Framework | None:
    """The framework whose file this is, when rlconf wrote it: its header names the framework (and the release)."""
    from translator.sources.project import normal, written_for

    found = written_for(text, "")
    if not found:
        return None
    return next((f for f in frameworks if normal(f.label) == found[0].package or f.name == found[0].package), None)


MIN_HELD_ARGUMENTS = 3  # a variable of fewer words is no argument list


def arguments_only(source: Source) -> tuple[str, str, str] | None:
    """(framework, variable, launch) for a script that runs no program and holds one framework's arguments in a
    variable (``TRAINING_ARGS="--num_unique_prompts_rollout 8 ..."``, sourced by a job script that passes them
    on): the framework whose argument namespace its words have (the only one), the variable holding the most of
    them, and the launch that takes them (``Detection.launch``). None for anything else."""
    import shlex

    from translator.sources.shell import parse_shell, program_index, unwrap_command

    if source.suffix in YAML_SUFFIXES + PLAN_SUFFIXES:
        return None
    try:
        script = parse_shell(source.text, source=source.name)
    except ConfigError:
        return None
    if any(program_index(unwrap_command(c.argv)) is not None for c in script.commands):
        return None
    found: dict[str, tuple[int, str]] = {}  # framework → (words of its namespace, variable)
    for name, value in script.variables.items():
        try:
            words = shlex.split(value)
        except ValueError:
            continue
        if len(words) < MIN_HELD_ARGUMENTS:
            continue
        for framework in registry.registered():
            pattern, launch = framework.detection.arguments, framework.detection.launch
            if pattern is None or launch is None:
                continue
            count = sum(1 for w in words if _compiled(pattern).search(w))
            if count and count > found.get(framework.name, (0, ""))[0]:
                found[framework.name] = (count, name)
    if len(found) != 1 or _runs_a_program(source):
        return None
    ((framework_name, (_, variable)),) = found.items()
    launch = registry.framework(framework_name).detection.launch
    assert launch is not None
    return framework_name, variable, launch


def _runs_a_program(source: Source) -> bool:
    """Whether the script, read with the scripts it sources and the functions it calls, runs a program: a launch
    inside a function of a sourced file (``source common.sh; launch "$RUN"``) makes it a launch script, not a file
    of arguments."""
    from translator.dialects.base import read_script
    from translator.notes import NoteList
    from translator.sources.shell import program_index, unwrap_command

    try:
        script = read_script(source, {}, NoteList())
    except ConfigError:
        return False
    return any(program_index(unwrap_command(c.argv)) is not None for c in script.commands)


def _reached_by_script(source: Source, frameworks: list[Framework]) -> Framework | None:
    """For a Python script given itself: the framework whose launch pattern the project modules it imports match
    (the module that builds the config), the first module reached deciding between several (a module importing a
    patching variant of a framework first is the one Python runs first); None when none does."""
    if source.suffix != ".py" or source.base_dir is None or source.files or not os.path.isfile(source.name):
        return None
    from translator.sources.code import Project, project_root
    from translator.sources.files import read_text

    folder = os.path.dirname(os.path.realpath(source.name))
    project = Project(project_root(folder), folder)
    for path in project.reachable(source.name, limit=_REACHED_FILES)[1:]:
        text = read_text(path, _MODULE_BYTES)
        found = [f for f in frameworks if text is not None and matches(f, text, ".py")]
        if found:
            return found[0]
    return None


_REACHED_FILES = 12  # project modules a script given itself imports, searched for the one that trains
_MODULE_BYTES = 2_000_000


def _imported_by_entries(source: Source, commands: list[list[str]], frameworks: list[Framework]) -> Framework | None:
    """The one framework whose package the project's own launched Python entries import (at their top, in the
    entry file itself), when exactly one framework owns the names they import; None otherwise (no project entry,
    none or several imported, or a package two frameworks share)."""
    from translator.sources.code import Project, project_root, run_dirs, top_imports
    from translator.sources.shell import program_index, unwrap_command

    if source.base_dir is None or source.files:
        return None
    owners: set[str] = set()
    for argv in commands:
        words = unwrap_command(argv)
        index = program_index(words)
        if index is None:
            continue
        module = index > 0 and words[index - 1] in ("-m", "--module")
        for run_dir in run_dirs(source, None):
            project = Project(project_root(run_dir), run_dir)
            path = project.module(words[index]) if module else project.script(words[index])
            tree = project.tree(path) if path is not None else None
            if tree is None:
                continue
            names = {module.split(".")[0] for module in top_imports(tree)[0]}
            owners |= {f.name for f in frameworks if names & set(f.packages)}
            break
    shared = {p for f in frameworks for p in f.packages if sum(p in g.packages for g in frameworks) > 1}
    found = [f for f in frameworks if f.name in owners]
    if len(found) != 1 or set(found[0].packages) & shared:
        return None
    return found[0]


def _commands(source: Source) -> tuple[list[list[str]], bool]:
    """The commands a launch script runs, as the shell reader expands them (with those of the project scripts it
    runs or sources), and whether it runs or sources any; ([], False) for a config file. The commands, not the
    called files' text: a wrapper's other lines (paths, comments) would match loose patterns."""
    if source.suffix in YAML_SUFFIXES or source.suffix in PLAN_SUFFIXES or source.files:
        return [], False
    from translator.dialects.base import script_files, script_listing
    from translator.sources.shell import parse_shell

    followed: list[str] = []
    files = script_files(source)

    def include(path: str, cwd: str | None, inside: bool = False) -> tuple[str, str] | None:
        found = files(path, cwd, inside)
        if found is not None and not inside:  # a script run or sourced, not a file's text read
            followed.append(found[1])
        return found

    try:
        script = parse_shell(source.text, source=source.name, include=include, listing=script_listing(source))
    except ConfigError:
        return [], False
    return [command.argv for command in script.commands], bool(followed)
