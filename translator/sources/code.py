"""Following a launch to the Python code it runs: the project's own files, read with ``ast``, never imported.

A launch names an entry (``python -m pkg.mod``, ``torchrun x.py``, ``accelerate launch x.py``); this module finds
that file inside the project, follows its ``import`` / ``from X import Y`` statements within the project to the
trainer class it instantiates and that class's project-local bases, and finds where a config key's leaf name is
read. Reading is bounded (files over 2 MB skipped, at most 200 files / 20 MB per launch) and never leaves the
project root.
"""

from __future__ import annotations

import ast
import copy
import os
import posixpath
import re
import sys
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import field, replace
from typing import Any, TypeVar

from translator.errors import ConfigError
from translator.patterns import lazy
from translator.records import record
from translator.sources.files import Source, read_text

MAX_FILE_BYTES = 2_000_000
MAX_FILES = 200
MAX_TOTAL_BYTES = 20_000_000
MAX_WALK_ENTRIES = 50_000  # files looked at when searching the project for a launched script
MAX_CACHED = 2_000  # parsed files kept per process


def project_root(start: str) -> str:
    """The folder of the project ``start`` belongs to (see :func:`translator.sources.project.project_root`: the
    nearest folder with .git, else the highest marked folder a few levels up)."""
    from translator.sources.project import project_root as root_and_above

    return root_and_above(os.path.realpath(start))[0]


def in_run_dir(path: str, cwd: str | None) -> str:
    """A path the launch names inside the folder it moved to when that folder is not on this machine (``cd
    /opt/project`` in the author's container, then ``--config /opt/project/examples/x.yaml``): the same path from
    the folders that stand for it (:func:`run_dirs`), i.e. relative; any other path as it is."""
    if cwd and posixpath.isabs(cwd) and posixpath.isabs(path) and not os.path.isdir(cwd):
        prefix = cwd.rstrip("/") + "/"
        if path.startswith(prefix):
            return path[len(prefix) :]
    return path


def run_dirs(source: Source, cwd: str | None) -> list[str]:
    """The folders a launch may run in: its ``cd`` target from the working directory, then from the launching
    script's folder; a ``cd`` to a folder not on this machine (the author's /home/me/project) leaves those folders
    themselves to stand for it (the launched path is then matched inside the project)."""
    bases = [os.getcwd()] + ([str(source.base_dir)] if source.base_dir is not None and not source.files else [])
    dirs = [os.path.join(base, cwd or "") for base in bases] + (bases if cwd else [])
    return [d for d in dict.fromkeys(dirs) if os.path.isdir(d)]


def launched_scripts(source: Source, cwd: str | None, script: str) -> Iterator[tuple[Project, str]]:
    """(project, path) of the script a launch line runs, found from each folder the launch may run in
    (:func:`run_dirs`), when the script is in that project. A launch that changes into a folder of the project
    (``cd sub``, relative) and then runs a relative path that folder does not hold stops at start-up (Python
    "can't open file"): ConfigError, even where the path exists from elsewhere in the project."""
    near = str(source.base_dir) if source.base_dir is not None and not source.files else None
    if near is not None and cwd:
        _refuse_path_the_cd_lacks(source.name, near, cwd, script)
    for run_dir in run_dirs(source, cwd):
        project = Project(project_root(run_dir), run_dir)
        path = project.script(script, near=near)
        if path is not None:
            yield project, path


def _refuse_path_the_cd_lacks(name: str, near: str, cwd: str, script: str) -> None:
    """Stop (ConfigError) on a relative script path that the project folder a relative ``cd`` enters (from the
    working directory or the launching script's folder ``near``) does not hold, while another folder of the project
    does: Python cannot open the file. A path or folder with a variable, a ``cd`` out of the project, and a path
    the project holds nowhere are not judged."""
    if not script.endswith(".py") or {"$", "`"} & set(cwd + script) or os.path.isabs(cwd) or os.path.isabs(script):
        return
    root = project_root(near)
    entered = [
        d
        for d in (os.path.realpath(os.path.join(b, cwd)) for b in (os.getcwd(), near))
        if os.path.isdir(d) and (d == root or d.startswith(root + os.sep))
    ]
    elsewhere = entered and not any(os.path.isfile(os.path.join(d, script)) for d in entered)
    # only where the file is in the project under another folder: a checkout without it tells nothing of the cd
    if elsewhere and files_ending(root, script.removeprefix("./")):
        raise ConfigError(
            f"the launch changes into {cwd} and then runs {script}, which {cwd} does not hold "
            f'({os.path.join(cwd, script)} is not in the project): Python stops with "can\'t open file" '
            "before training",
            file=name,
            hint=f"write the script's path relative to {cwd}, or remove the cd",
        )


def refuse_startup_failures(project: Project, path: str, module: str | None, launch: str) -> None:
    """Stop (ConfigError) when the launched code certainly fails at start-up: an import that finds nothing
    (:func:`refuse_missing_import`), or a read of an option its own parser does not define
    (:func:`unparsed_option`)."""
    refuse_missing_import(project, path, module, launch)
    read = unparsed_option(project.tree(path))
    if read is not None:
        line, name = read
        raise ConfigError(
            f"{module or project.rel(path)} (run by {launch}) reads args.{name} before training, and its parser "
            f"defines no --{name}: Python stops with AttributeError: 'Namespace' object has no attribute '{name}'",
            file=project.rel(path),
            line=line,
            hint=f"add parser.add_argument('--{name}', ...) to the script, or remove the read",
        )


def main_block(tree: ast.Module) -> ast.If | None:
    """The module's ``if __name__ == "__main__":`` block (a script's, not a module's), if it has one."""
    return next((n for n in tree.body if isinstance(n, ast.If) and "__main__" in ast.unparse(n.test)), None)


def unparsed_option(tree: ast.Module | None) -> tuple[int, str] | None:
    """(line, name) of the first ``args.NAME`` that a script's main path certainly reads and its own parser does
    not define: the module's ``if __name__ == "__main__":`` block builds an ``argparse.ArgumentParser`` of literal
    options only (no parents, no parse_known_args, the parser handed to no other function) and passes the parsed
    ``args`` to a function of the module, whose top-level statements (not under if/for/while/try) read it. A name
    the module assigns (``args.x = ...``, setattr) or reads with getattr is not judged."""
    from translator.sources.pyconfig import option_names, option_words

    if tree is None or option_words(tree) is None:
        return None
    main = main_block(tree)
    if main is None:
        return None
    calls = [n for n in ast.walk(main) if isinstance(n, ast.Call)]
    parser_built = any(dotted_path(c.func) in ("argparse.ArgumentParser", "ArgumentParser") for c in calls)
    handed = any(
        isinstance(a, ast.Name) and a.id == "parser" for c in calls for a in [*c.args, *(k.value for k in c.keywords)]
    )
    if not parser_built or handed or any(k.arg == "parents" for c in calls for k in c.keywords):
        return None
    defined = option_names(tree)
    assigned = {
        t.attr
        for n in ast.walk(tree)
        if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))
        for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
        if isinstance(t, ast.Attribute)
    }
    if any(isinstance(n, ast.Call) and dotted_path(n.func) in ("setattr", "vars") for n in ast.walk(tree)):
        return None
    parsed = next(
        (
            n.targets[0].id
            for n in ast.walk(main)
            if isinstance(n, ast.Assign)
            and isinstance(n.targets[0], ast.Name)
            and isinstance(n.value, ast.Call)
            and isinstance(n.value.func, ast.Attribute)
            and n.value.func.attr == "parse_args"
        ),
        None,
    )
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    # the module's function main calls with the parsed options, and the parameter that receives them
    called = [
        (functions[c.func.id], functions[c.func.id].args.args[i].arg)
        for c in calls
        if isinstance(c.func, ast.Name) and c.func.id in functions
        for i, a in enumerate(c.args)
        if isinstance(a, ast.Name) and a.id == parsed and i < len(functions[c.func.id].args.args)
    ]
    for function, param in called[:1]:
        for statement in function.body:
            if isinstance(statement, (ast.If, ast.For, ast.While, ast.Try, ast.With, ast.FunctionDef)):
                continue
            for node in ast.walk(statement):
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.ctx, ast.Load)
                    and isinstance(node.value, ast.Name)
                    and node.value.id == param
                    and node.attr not in defined
                    and node.attr not in assigned
                ):
                    return node.lineno, node.attr
    return None


def refuse_missing_import(project: Project, path: str, module: str | None, launch: str) -> None:
    """Stop (ConfigError) when the launched code certainly fails to import one of the project's own modules at
    start-up (:meth:`Project.missing_import`): the run never starts, so no plan of it is stated."""
    missing = project.missing_import(path, module)
    if missing is None:
        return
    started = module or project.rel(path)
    if missing.syntax:
        raise ConfigError(
            f"{started} (run by {launch}) imports {project.rel(missing.path)} at start-up, which no Python compiles "
            f"({missing.syntax}): Python stops with SyntaxError before training",
            file=project.rel(missing.path),
            line=missing.line,
            hint="fix the syntax at that line",
        )
    if missing.name:
        message = (
            f"imports {missing.name} from {missing.module or 'its package'} at start-up, which the project's module "
            "neither defines nor holds as a submodule: Python stops with ImportError before training"
        )
        hint = (
            f"define {missing.name} in the project's {missing.module or 'package'} (is its copy older than the "
            "script?), or launch the release's own code"
        )
    elif missing.via:
        message = (
            f"imports {missing.module} at start-up from {missing.via}, which it adds to sys.path and which is neither "
            "in the project nor on this machine: Python stops with ModuleNotFoundError before training"
        )
        hint = f"put the project that holds {missing.module} at {missing.via}, or point sys.path at it"
    else:
        message = (
            f"imports {missing.module} at start-up, and the project has no such module: Python stops with "
            "ModuleNotFoundError before training"
        )
        hint = (
            f"add {missing.module.replace('.', '/')}.py to the project (is it left out by a .gitignore rule?), "
            "or launch the release's own code"
        )
    raise ConfigError(
        f"{started} (run by {launch}) {message}", file=project.rel(missing.path), line=missing.line, hint=hint
    )


@record
class ClassInfo:
    """A class defined in the project: its file, node, and its bases as resolved (project classes) or as the
    dotted name they come from outside the project ('pkg.Trainer')."""

    name: str
    path: str
    node: ast.ClassDef
    bases: list[ClassInfo | str] = field(default_factory=list)

    def methods(self) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
        return {n.name: n for n in self.node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}

    def lineage(self) -> list[ClassInfo]:
        """This class and its project-local bases, nearest first (a bounded depth-first MRO)."""
        seen: list[ClassInfo] = []
        stack: list[ClassInfo] = [self]
        while stack and len(seen) < 16:
            info = stack.pop(0)
            if all(info is not s for s in seen):
                seen.append(info)
                stack.extend(b for b in info.bases if isinstance(b, ClassInfo))
        return seen

    def external_bases(self) -> list[str]:
        return [b for c in self.lineage() for b in c.bases if isinstance(b, str)]


# Argument parsers that turn a tuple of dataclasses into command-line flags, one flag per field.
ARGUMENT_PARSERS = frozenset({"HfArgumentParser", "ArgumentParserPlus", "TrlParser", "H4ArgumentParser"})
_FIELDLESS_BASES = frozenset({"object", "ABC", "abc.ABC"})


@record
class ArgumentFields:
    """The flags a script's argument parser accepts: the fields of the dataclasses it is given
    (``HfArgumentParser((Args, ModelConfig))``) that the project defines, and the classes defined outside the
    project (installed packages), whose fields are not read here."""

    fields: frozenset[str]
    classes: tuple[str, ...]
    external: tuple[str, ...]
    path: str
    line: int
    defaults: dict[str, Any]  # a field's default where it is a literal (``x: bool = False``, ``field(default=4)``)
    # the classes' own __post_init__ methods (file in the project, method), nearest class first: they may set fields
    post_inits: tuple[tuple[str, ast.FunctionDef], ...] = ()

    @property
    def complete(self) -> bool:
        """Whether ``fields`` are all the flags: every class and base is the project's own."""
        return not self.external


_NO_DEFAULT: Any = object()

_ARITHMETIC: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.FloorDiv: lambda a, b: a // b if b else None,
    ast.Mod: lambda a, b: a % b if b else None,
}


def post_init_fields(
    fields: ArgumentFields, values: Mapping[str, Any], wanted: Collection[str], own: Callable[[str], bool]
) -> dict[str, tuple[int | None, str]]:
    """The ``wanted`` fields the argument classes' own ``__post_init__`` set from at least one ``own`` field
    (``self.num_generations = self.a * self.b``, a and b fields no framework class has), each with its whole-number
    value computed from ``values`` (the parsed fields, then the literal defaults) or None where it is not plain
    arithmetic of known ones, and 'file:line' of the assignment. A base's method runs first; an assignment under a
    condition gives None. Sets from the framework's own fields alone (a copy of its __post_init__) are left out."""
    known: dict[str, Any] = {**fields.defaults, **values}
    found: dict[str, tuple[int | None, str]] = {}
    uses: dict[str, set[str]] = {}  # a local name → the fields its value was computed from

    def used(node: ast.expr) -> set[str]:
        names: set[str] = set()
        for sub in ast.walk(node):
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id == "self":
                names.add(sub.attr)
            elif isinstance(sub, ast.Name):
                names |= uses.get(sub.id, set())
        return names

    def number(node: ast.expr, local: Mapping[str, Any]) -> int | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.Name):
            return local.get(node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            value = found[node.attr][0] if node.attr in found else known.get(node.attr)
            text = str(value)
            return int(text) if re.fullmatch(r"-?\d{1,18}", text) else None
        if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
            left, right = number(node.left, local), number(node.right, local)
            return None if left is None or right is None else _ARITHMETIC[type(node.op)](left, right)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "int" and node.args:
            return number(node.args[0], local)
        return None

    def run(statements: list[ast.stmt], path: str, local: dict[str, Any], decided: bool) -> None:
        for statement in statements:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                target, value = statement.targets[0], number(statement.value, local) if decided else None
                if isinstance(target, ast.Name):
                    local[target.id], uses[target.id] = value, used(statement.value)
                elif (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "self"
                    and target.attr in wanted
                    and any(own(name) for name in used(statement.value))
                ):
                    found[target.attr] = (value, f"{path}:{statement.lineno}")
            elif isinstance(statement, (ast.If, ast.For, ast.While, ast.With, ast.Try)):
                for block in ("body", "orelse", "finalbody"):
                    run(list(getattr(statement, block, [])), path, local, False)

    for path, method in reversed(fields.post_inits):  # a base's __post_init__ runs from super(): its sets go first
        run(method.body, path, {}, True)
    return found


def _literal_default(value: ast.expr | None) -> Any:
    """A dataclass field's default when it is a literal: ``= 4`` or ``= field(default=4, ...)``."""
    if isinstance(value, ast.Call) and dotted_path(value.func) in ("field", "dataclasses.field"):
        value = next((k.value for k in value.keywords if k.arg == "default"), None)
    if value is None:
        return _NO_DEFAULT
    try:
        return ast.literal_eval(value)
    except ValueError:
        return _NO_DEFAULT


@record
class Candidate:
    """A trainer class a script may instantiate, and the config flag that picks it (flag, value) if one does."""

    cls: ClassInfo | str
    condition: tuple[str, Any] | None = None  # (the script option, the value that picks this class)


@record
class Read:
    """Where a config key's leaf is read: the file, line, the statement, and the block it guards (if any)."""

    path: str
    line: int
    statement: ast.stmt
    guarded: list[ast.stmt]


# Several launches of one project (a directory check, a config re-read as other releases) parse the same files:
# parsed trees and a project's file list are kept per process, keyed by modification time and size.
_TREES: dict[tuple[str, int, int], ast.Module | None] = {}
_FILES: dict[str, tuple[str, ...]] = {}
_BY_NAME: dict[str, dict[str, tuple[str, ...]]] = {}  # root → file name → its files (files_named)
# Per tree (kept beside its id, so a reused id is never mistaken for it): the leaves its statements read; and the
# effects of a key on a list of trees (KeyEffects.effects).
_LEAVES: dict[int, tuple[ast.Module, frozenset[str]]] = {}
_EFFECTS: dict[tuple[Any, ...], tuple[list[ast.Module | None], list[Touch]]] = {}
# (root, run dir, file, limit, leaves) → the project files reachable from the file through imports
_REACHABLE: dict[tuple[Any, ...], tuple[str, ...]] = {}
_MISSING: dict[tuple[str, str, str | None], MissingImport | None] = {}  # Project.missing_import, per process
# per parsed tree or node (kept beside, so a reused id is told apart): dataset class spans, sizing functions,
# statements
_STATEMENTS: dict[int, tuple[ast.AST, list[ast.stmt]]] = {}
_SPANS: dict[int, tuple[ast.AST, list[tuple[int, int]]]] = {}
_FUNCTIONS: dict[int, tuple[ast.AST, list[ast.FunctionDef | ast.AsyncFunctionDef]]] = {}
_NORMALISING: dict[tuple[int, tuple[str, ...]], tuple[ast.AST, list[ast.FunctionDef | ast.AsyncFunctionDef]]] = {}


def _parsed(path: str, limit: int) -> tuple[ast.Module | None, int]:
    """The file's syntax tree (None: unreadable, over ``limit`` bytes, or not Python) and its size in bytes."""
    try:
        stat = os.stat(path)
    except OSError:
        return None, 0
    if stat.st_size > limit:
        return None, 0
    key = (path, stat.st_mtime_ns, stat.st_size)
    if key not in _TREES:
        if len(_TREES) > MAX_CACHED:  # a long process (a mutation run) reads many projects: keep memory bounded
            _TREES.clear()
        text = read_text(path, limit)
        try:
            _TREES[key] = ast.parse(text, filename=path) if text is not None else None
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            _TREES[key] = None
    return _TREES[key], stat.st_size


# SyntaxError messages of code no Python release compiles (CPython 3.10-3.14 give them alike); other syntax errors
# may be a later release's syntax (a match statement, a type alias) and are not judged
_NEVER_COMPILES = (
    "keyword argument repeated",
    "positional argument follows keyword argument",
    "unterminated string literal",
    "unterminated triple-quoted string literal",
    # IndentationError: the block rules are the same in every release
    "expected an indented block",
    "unexpected indent",
    "unindent does not match any outer indentation level",
)


def _repeated_keyword(tree: ast.Module, path: str) -> MissingImport | None:
    """A call in the file at ``path`` that gives one keyword argument twice (``f(a=1, a=2)``): ``ast.parse`` accepts
    it, but Python's compiler refuses the whole file ("keyword argument repeated"), so importing it stops with
    SyntaxError; None when no call does."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            given = [k for k in node.keywords if k.arg is not None]
            twice = next((k for i, k in enumerate(given) if k.arg in [g.arg for g in given[:i]]), None)
            if twice is not None:
                return MissingImport(path, twice.lineno, "", syntax=f"keyword argument repeated: {twice.arg}")
    return None


def syntax_error(path: str) -> MissingImport | None:
    """The error of a project file no Python release compiles (:data:`_NEVER_COMPILES`); None when it compiles, or
    fails for another reason (a later release's syntax)."""
    text = read_text(path, MAX_FILE_BYTES)
    if text is None:
        return None
    try:
        ast.parse(text, filename=path)
    except SyntaxError as error:
        message = error.msg or ""
        if message.startswith(_NEVER_COMPILES):
            return MissingImport(path, error.lineno or 1, "", syntax=message)
    except (ValueError, RecursionError, MemoryError):
        return None
    return None


def copy_in_project(folder: str, markers: tuple[str, ...]) -> str | None:
    """The folder (relative to the project's root) of a copy of a framework's code in the project ``folder``
    belongs to: the one holding a file that ends with one of ``markers``; the root itself when the project is too
    large to tell; None when there is none."""
    root = project_root(folder)
    files = project_files(root)
    if len(files) > MAX_WALK_ENTRIES:
        return "."
    for marker in markers:
        found = next(iter(files_ending(root, marker)), None)
        if found is not None:
            return os.path.relpath(found[: -len(os.sep + marker)] or os.sep, root)
    return None


_REGISTERS = lazy(r"register(?:_new)?_resolver\(\s*(?:name\s*=\s*)?[\"']([^\"']+)[\"']")


def registered_resolvers(folder: str) -> frozenset[str]:
    """The OmegaConf resolver names the Python files of the project ``folder`` belongs to register
    (``OmegaConf.register_new_resolver("mul", ...)``), read as text."""
    names: set[str] = set()
    for path in project_files(project_root(folder)):
        if path.endswith(".py"):
            text = read_text(path, MAX_FILE_BYTES) or ""
            if "_resolver" in text:
                names.update(m.group(1) for m in _REGISTERS.finditer(text))
    return frozenset(names)


def project_files(root: str) -> tuple[str, ...]:
    """Every file under ``root`` (hidden folders, node_modules and __pycache__ left out), at most MAX_WALK_ENTRIES."""
    if root not in _FILES:
        if len(_FILES) > MAX_CACHED:
            _FILES.clear()
        found: list[str] = []
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("node_modules", "__pycache__")]
            found += [os.path.join(folder, f) for f in files]
            if len(found) > MAX_WALK_ENTRIES:
                break
        _FILES[root] = tuple(found)
    return _FILES[root]


def files_named(root: str, name: str) -> tuple[str, ...]:
    """The files under ``root`` (:func:`project_files`) whose name is ``name`` ("" : every file), from an index
    built once per root (a directory check asks this for every launch of a project)."""
    if not name:
        return project_files(root)
    if root not in _BY_NAME:
        if len(_BY_NAME) > MAX_CACHED:
            _BY_NAME.clear()
        index: dict[str, list[str]] = {}
        for path in project_files(root):
            index.setdefault(os.path.basename(path), []).append(path)
        _BY_NAME[root] = {key: tuple(paths) for key, paths in index.items()}
    return _BY_NAME[root].get(name, ())


def files_ending(root: str, tail: str) -> list[str]:
    """The files under ``root`` whose path ends with ``tail`` ('pkg/trainer/main.py': whole path parts)."""
    parts = [p for p in tail.split("/") if p and p != "."]
    end = os.sep + os.path.join(*parts) if parts else ""
    return [p for p in files_named(root, parts[-1] if parts else "") if p.endswith(end)]


def top_imports(tree: ast.Module | None) -> tuple[list[str], list[str]]:
    """The modules a file imports absolutely at its top (``import a.b``, ``from a.b import c``), and the names it
    imports from them (``c``); none for a file not read."""
    modules: list[str] = []
    names: list[str] = []
    for node in tree.body if tree is not None else []:
        if isinstance(node, ast.Import):
            modules += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            modules.append(node.module or "")
            names += [a.name for a in node.names]
    return modules, names


def module_elsewhere(root: str, dotted: str, path: list[str]) -> str | None:
    """The project file of module ``dotted`` when no folder of ``path`` (the run's ``sys.path`` folders) holds its
    top-level module or package, so that importing it stops with ModuleNotFoundError; None when one does, or when
    the project does not hold the module (it may be installed) or holds it only inside an installable package (a
    folder with setup.py or pyproject.toml, or the src/ of one, which pip may have installed)."""
    top = dotted.split(".")[0]
    if any(os.path.isfile(os.path.join(f, top + ".py")) or os.path.isdir(os.path.join(f, top)) for f in path):
        return None
    relative = dotted.replace(".", "/")
    for tail in (relative + ".py", relative + "/__init__.py"):
        for found in files_ending(root, tail):
            if not _installable(module_home(found, dotted)):
                return found
    return None


def module_home(file: str, dotted: str) -> str:
    """The folder a module's file (``.../pkg/mod.py`` or ``.../pkg/mod/__init__.py``) is imported from as
    ``dotted`` (``pkg.mod``): the one that must be on sys.path."""
    tail = dotted.replace(".", "/") + ("/__init__.py" if file.endswith("/__init__.py") else ".py")
    return os.path.normpath(file[: -len(tail)])


def _installable(folder: str) -> bool:
    """Whether pip (or ``uv run``) may have installed the top-level packages in ``folder``: it holds setup.py or
    pyproject.toml, or it is the ``src/`` of a folder that does (a src layout)."""
    folder = os.path.realpath(folder)
    homes = [folder] + ([os.path.dirname(folder)] if os.path.basename(folder) == "src" else [])
    return any(os.path.isfile(os.path.join(home, f)) for home in homes for f in ("setup.py", "pyproject.toml"))


def _declared_dependency(root: str, name: str) -> bool:
    """Whether the project's own dependency files at its top (requirements*.txt, setup.py, pyproject.toml,
    environment.yml) name ``name``: an installed package of that name may be what the import finds."""
    pattern = re.compile(rf"(?m)(^|[\s\"'\[,])[\"']?{re.escape(name)}([\s\"'<>=~!;\[,]|$)", re.IGNORECASE)
    try:
        names = os.listdir(root)
    except OSError:
        return False
    for file in names:
        if file in ("setup.py", "pyproject.toml", "environment.yml") or (
            file.startswith("requirements") and file.endswith(".txt")
        ):
            text = read_text(os.path.join(root, file), MAX_FILE_BYTES) or ""
            if pattern.search(text):
                return True
    return False


def _told_to_set_pythonpath(root: str) -> bool:
    """Whether the project's README at its top tells the user to set PYTHONPATH (``export PYTHONPATH=.``): the
    user's environment then puts the project's folders on sys.path."""
    try:
        names = [n for n in os.listdir(root) if n.lower().startswith("readme")]
    except OSError:
        return False
    return any("PYTHONPATH" in (read_text(os.path.join(root, n), MAX_FILE_BYTES) or "") for n in names)


def refuse_import_off_the_path(project: Project, script: str, launch: str, path_set: bool) -> None:
    """Stop (ConfigError) where a script launched by its path (``python src/pkg/train.py``, ``accelerate launch
    ...``: Python puts only the script's folder on ``sys.path``) imports at its top a module the project holds
    only from another folder (``from src.pkg.configs import X`` run from the repository's root), outside any
    installable package: ModuleNotFoundError at start-up. Not judged where the launch sets PYTHONPATH
    (``path_set``) or the project's README tells the user to, or for an import under ``try``/``if``."""
    tree = project.tree(script)
    body = tree.body if tree is not None else []
    relative = next((n for n in body if isinstance(n, ast.ImportFrom) and n.level), None)
    sets_package = relative is not None and any(  # PEP 366: `__package__ = "pkg"` before it makes it work
        isinstance(n, ast.Name) and n.id == "__package__" and isinstance(n.ctx, ast.Store)
        for statement in body
        if statement.lineno < relative.lineno
        for n in ast.walk(statement)
    )
    if relative is not None and not sets_package:  # whatever PYTHONPATH holds: a script run by its path is no package's
        raise ConfigError(
            f"{project.rel(script)} (run by {launch}) imports {'.' * relative.level}{relative.module or ''} "
            "relatively at start-up, but a script run by its path belongs to no package: Python stops with "
            "ImportError (attempted relative import with no known parent package) before training",
            file=project.rel(script),
            line=relative.lineno,
            hint="run it as a module of its package (python -m pkg.script, accelerate launch -m pkg.script) or "
            "import absolutely",
        )
    if path_set or tree is None or _told_to_set_pythonpath(project.root):
        return
    folder = [os.path.dirname(os.path.realpath(script))]
    for node in tree.body:
        if isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            modules = [node.module]
        else:
            continue
        for dotted in modules:
            top = dotted.split(".")[0]
            if top in sys.stdlib_module_names or _declared_dependency(project.root, top):
                continue
            held = module_elsewhere(project.root, dotted, folder)
            # only a module at the project's top (run from there): one deeper may be another package's copy
            if held is not None and module_home(held, dotted) == project.root:
                raise ConfigError(
                    f"{project.rel(script)} (run by {launch}) imports {dotted} at start-up; the project holds it as "
                    f"{project.rel(held)}, but a script run by its path has only its own folder on sys.path: Python "
                    "stops with ModuleNotFoundError before training",
                    file=project.rel(script),
                    line=node.lineno,
                    hint="run it as a module from the folder that holds the package (python -m ...), set "
                    "PYTHONPATH, or import it as the script's folder sees it",
                )


class Project:
    """The Python files of one project, parsed on demand within the reading bounds."""

    def __init__(self, root: str, run_dir: str) -> None:
        self.root, self.run_dir = os.path.realpath(root), os.path.realpath(run_dir)
        self._trees: dict[str, ast.Module | None] = {}
        self._real: dict[str, str] = {}  # a path as asked → its real path
        self._bytes = 0

    def inside(self, path: str) -> bool:
        real = os.path.realpath(path)
        return os.path.commonpath([real, self.root]) == self.root

    def tree(self, path: str) -> ast.Module | None:
        real = self._real.get(path)
        if real is None:  # resolving links costs a system call per part: once per path asked
            real = self._real[path] = os.path.realpath(path)
        path = real
        if path in self._trees:
            return self._trees[path]
        tree, size = None, 0
        if len(self._trees) < MAX_FILES:
            tree, size = _parsed(path, min(MAX_FILE_BYTES, MAX_TOTAL_BYTES - self._bytes))
        self._bytes += size
        self._trees[path] = tree
        return tree

    def parsed(self) -> dict[str, ast.Module]:
        return {p: t for p, t in self._trees.items() if t is not None}

    def rel(self, path: str) -> str:
        return os.path.relpath(os.path.realpath(path), self.root)

    # ------------------------------------------------------------ entries and modules
    def script(self, word: str, cwd: str | None = None, near: str | None = None) -> str | None:
        """A launched script path inside the project; an absolute path that does not exist (a placeholder such as
        /src/pkg/x.py) is matched by its longest tail that exists under the run dir or the project root; else
        (``near``: the launching script's folder) the project file ending with the path nearest to it."""
        base = os.path.join(self.run_dir, cwd or "")
        candidates = [os.path.join(base, word)] if not os.path.isabs(word) else [word]
        parts = [p for p in word.split("/") if p and p != "."]
        for i in range(len(parts)):
            tail = os.path.join(*parts[i:])
            candidates += [os.path.join(base, tail), os.path.join(self.root, tail)]
        for candidate in candidates:
            if candidate.endswith(".py") and os.path.isfile(candidate) and self.inside(candidate):
                return os.path.realpath(candidate)
        return self._elsewhere(parts, near) if near is not None else None

    def _elsewhere(self, parts: list[str], near: str) -> str | None:
        """A script path that the run dir does not hold (the launch expects a cd the script does not make): the
        project file whose path ends with it, nearest the launching script's folder; None on a tie."""
        found = files_ending(self.root, "/".join(parts))
        near = os.path.realpath(near)
        ranked = sorted(((len(os.path.commonpath([p, near])), p) for p in found), reverse=True)
        if not ranked or (len(ranked) > 1 and ranked[0][0] == ranked[1][0]):
            return None
        return ranked[0][1]

    def module(self, dotted: str, near: str | None = None) -> str | None:
        """A dotted module's file: looked up from the importing file's folders up to the root (a script's own
        folder is on sys.path), the run dir, the project root and its src/."""
        folders: list[str] = []
        if near is not None:
            folder = os.path.dirname(os.path.realpath(near))
            while self.inside(folder):
                folders.append(folder)
                if folder == self.root:
                    break
                folder = os.path.dirname(folder)
        folders += [self.run_dir, self.root, os.path.join(self.root, "src")]
        relative = dotted.replace(".", os.sep)
        for folder in folders:
            for candidate in (os.path.join(folder, relative + ".py"), os.path.join(folder, relative, "__init__.py")):
                if os.path.isfile(candidate) and self.inside(candidate):
                    return os.path.realpath(candidate)
        return None

    def _imported(self, node: ast.ImportFrom, path: str) -> str | None:
        if node.level:  # from .x import Y: relative to the importing package
            folder = os.path.dirname(os.path.realpath(path))
            for _ in range(node.level - 1):
                folder = os.path.dirname(folder)
            relative = (node.module or "").replace(".", os.sep)
            for candidate in (os.path.join(folder, relative + ".py"), os.path.join(folder, relative, "__init__.py")):
                if os.path.isfile(candidate) and self.inside(candidate):
                    return os.path.realpath(candidate)
            return None
        return self.module(node.module or "", path)

    def path_of(self, tree: ast.Module) -> str | None:
        """The path of a module this project parsed (:meth:`tree`), by the tree itself."""
        return next((p for p, t in self._trees.items() if t is tree), None)

    def imported_function(
        self, tree: ast.Module, name: str, depth: int = 0
    ) -> tuple[ast.Module, ast.FunctionDef] | None:
        """The project's function ``name`` means in ``tree`` (a module this project parsed) that imports it
        (``from x import f [as name]``, anywhere in the module; through a package's ``__init__`` that imports it in
        turn): its module's tree and its definition; None when the project does not hold it, or two imports of the
        name disagree."""
        path = self.path_of(tree)
        imports = {
            (node.level, node.module, alias.name): node
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
            for alias in node.names
            if (alias.asname or alias.name) == name
        }
        if path is None or len(imports) != 1:
            return None
        ((_, _, original), node), *_ = imports.items()
        file = self._imported(node, path)
        module = self.tree(file) if file is not None else None
        if module is None:
            return None
        function = next((n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == original), None)
        if function is None and depth < 4:  # a package re-exporting it (`from .utils import get_strategy`)
            return self.imported_function(module, original, depth + 1)
        return (module, function) if function is not None else None

    # ------------------------------------------------------------ classes
    def find_class(self, name: str, path: str, depth: int = 0) -> ClassInfo | str | None:
        """The class ``name`` means in ``path``: defined there, imported from a project module (followed, bounded),
        or the dotted name it is imported from outside the project."""
        tree = self.tree(path)
        if tree is None or depth > 6:
            return None
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == name:
                info = ClassInfo(name, path, node)
                for base in node.bases:
                    base_name = dotted_path(base)
                    if base_name:
                        head = base_name.split(".")[-1]
                        found = self.find_class(head, path, depth + 1) if head != name else None
                        info.bases.append(found if found is not None else base_name)
                return info
        for sub in ast.walk(tree):
            if isinstance(sub, ast.ImportFrom):
                for alias in sub.names:
                    if (alias.asname or alias.name) == name:
                        target = self._imported(sub, path)
                        if target is None:
                            return f"{sub.module}.{alias.name}"
                        return self.find_class(alias.name, target, depth + 1) or f"{sub.module}.{alias.name}"
        return None

    def argument_fields(self, path: str) -> ArgumentFields | None:
        """The fields of the dataclasses ``path`` hands an argument parser (``ARGUMENT_PARSERS``), or None when
        it builds none from names it defines or imports."""
        tree = self.tree(path)
        if tree is None:
            return None
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            # HfArgumentParser(dataclass_types) by position, or by name (a subparser built with parser_class=...)
            named = next((k.value for k in node.keywords if k.arg == "dataclass_types"), None)
            if named is not None:
                given = named
            elif (
                node.args and dotted_path(node.func) and str(dotted_path(node.func)).split(".")[-1] in ARGUMENT_PARSERS
            ):
                given = node.args[0]
            else:
                continue
            items = given.elts if isinstance(given, (ast.Tuple, ast.List)) else [given]
            names = [dotted_path(item) for item in items]
            if not names or any(n is None for n in names):
                continue
            fields: set[str] = set()
            defaults: dict[str, Any] = {}
            external: list[str] = []
            post_inits: list[tuple[str, ast.FunctionDef]] = []
            for name in names:
                found = self._qualified_class(str(name), path, tree)
                if not isinstance(found, ClassInfo):
                    external.append(found or str(name))
                    continue
                for info in found.lineage():
                    post_inits += [
                        (self.rel(info.path), item)
                        for item in info.node.body
                        if isinstance(item, ast.FunctionDef) and item.name == "__post_init__"
                    ]
                    for item in info.node.body:
                        if not (
                            isinstance(item, ast.AnnAssign)
                            and isinstance(item.target, ast.Name)
                            and "ClassVar" not in ast.unparse(item.annotation)
                        ):
                            continue
                        fields.add(item.target.id)
                        default = _literal_default(item.value)
                        if default is not _NO_DEFAULT:
                            defaults.setdefault(item.target.id, default)  # a subclass's default comes first
                external += [b for b in found.external_bases() if b not in _FIELDLESS_BASES]
            return ArgumentFields(
                frozenset(fields),
                tuple(map(str, names)),
                tuple(external),
                path,
                node.lineno,
                defaults,
                tuple(post_inits),
            )
        return None

    def _qualified_class(self, name: str, path: str, tree: ast.Module) -> ClassInfo | str | None:
        """:meth:`find_class` for ``Name`` or ``module.Name`` (``from pkg import module``, ``import pkg.module as
        module``)."""
        head, _, leaf = name.rpartition(".")
        if not head:
            return self.find_class(name, path)
        for node in ast.walk(tree):
            for alias in getattr(node, "names", []) if isinstance(node, (ast.Import, ast.ImportFrom)) else []:
                if (alias.asname or alias.name) != head:
                    continue
                dotted = f"{node.module}.{alias.name}" if isinstance(node, ast.ImportFrom) else alias.name
                module = self.module(dotted, path) if not getattr(node, "level", 0) else None
                if module is not None:
                    return self.find_class(leaf, module)
        return name

    def trainer_classes(self, path: str) -> list[Candidate]:
        """The trainer classes a script instantiates: calls of a name containing 'Trainer', or of a variable
        assigned such names; ``trainer_cls = A if args.flag else B`` gives A when the flag is true, B when not."""
        tree = self.tree(path)
        if tree is None:
            return []
        guards = _branch_guards(tree)
        assigned: dict[str, list[tuple[str, tuple[str, Any] | None]]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                names = _conditional_names(node.value, guards.get(id(node)))
                for target in node.targets:
                    if isinstance(target, ast.Name) and names:
                        assigned.setdefault(target.id, []).extend(names)
        wanted: list[tuple[str, tuple[str, Any] | None]] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                called = node.func.id
                guard = guards.get(id(node))
                for item in [(called, guard)] if "Trainer" in called else assigned.get(called, []):
                    if item not in wanted:
                        wanted.append(item)
        found: list[Candidate] = []
        for name, condition in wanted:
            info = self.find_class(name, path)
            if info is not None:
                found.append(Candidate(info, condition))
        return found

    def reachable(self, path: str, limit: int = MAX_FILES, leaves: Mapping[str, object] | None = None) -> list[str]:
        """The project files reachable from ``path`` through imports (breadth first, bounded). With ``leaves`` (a
        config leaf → the launch's value), an import in a branch that value does not take is not followed
        (``if use_legacy_worker_impl == "disable": from .engine_workers import ...``)."""
        key = (self.root, self.run_dir, os.path.realpath(path), limit, repr(sorted((leaves or {}).items())))
        if key in _REACHABLE:  # the config read again as each candidate release follows the same imports
            return list(_REACHABLE[key])
        order: list[str] = []
        queue = [os.path.realpath(path)]
        while queue and len(order) < limit:
            current = queue.pop(0)
            if current in order:
                continue
            tree = self.tree(current)
            if tree is None:
                continue
            order.append(current)
            skipped = untaken_lines(tree, leaves) if leaves else set()
            for node in ast.walk(tree):
                if getattr(node, "lineno", None) in skipped:
                    continue
                targets: list[str | None] = []
                if isinstance(node, ast.ImportFrom):
                    targets.append(self._imported(node, current))
                    if node.level:  # from . import module, from .pkg import module
                        targets += [
                            self._imported(
                                ast.ImportFrom(".".join(filter(None, (node.module, a.name))), [], node.level), current
                            )
                            for a in node.names
                        ]
                    elif node.module:  # from pkg import module
                        targets += [self.module(f"{node.module}.{a.name}", current) for a in node.names]
                elif isinstance(node, ast.Import):
                    targets += [self.module(a.name, current) for a in node.names]
                queue += [t for t in targets if t is not None and t not in order]
        if len(_REACHABLE) > MAX_CACHED:
            _REACHABLE.clear()
        _REACHABLE[key] = tuple(order)
        return order

    def first_import(self, entry: str, packages: Iterable[str], limit: int = MAX_FILES) -> str | None:
        """Which of ``packages`` the program started at ``entry`` imports first, as Python runs the module-level
        imports: in order, each project module's own imports before the next statement's (depth first, a module
        once); None when it imports none of them (within ``limit`` files)."""
        wanted, seen = set(packages), set[str]()

        def walk(path: str) -> str | None:
            if path in seen or len(seen) >= limit:
                return None
            seen.add(path)
            tree = self.tree(path)
            for node in tree.body if tree is not None else []:
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                    if isinstance(node, ast.ImportFrom) and not node.level
                    else []
                )
                for name in names:
                    if name.split(".")[0] in wanted:
                        return name.split(".")[0]
                    inner = self.module(name, path)
                    found = walk(os.path.realpath(inner)) if inner is not None else None
                    if found is not None:
                        return found
            return None

        return walk(os.path.realpath(entry))

    def imports_name(self, entry: str, package: str, name: str) -> bool:
        """Whether ``entry`` itself imports ``name`` from a module of ``package`` (``from package.x import name``);
        False when the file cannot be read."""
        tree = self.tree(entry)
        return tree is not None and any(
            isinstance(node, ast.ImportFrom)
            and (node.module or "").split(".")[0] == package
            and any(a.name == name for a in node.names)
            for node in ast.walk(tree)
        )

    def imports(self, entry: str, package: str) -> bool:
        """Whether ``entry`` or a project file it reaches imports ``package`` (anywhere in the file); True when a
        file cannot be read (nothing to tell by)."""
        for path in self.reachable(entry):
            tree = self.tree(path)
            if tree is None:
                return True
            for node in ast.walk(tree):
                if isinstance(node, ast.Import) and any(a.name.split(".")[0] == package for a in node.names):
                    return True
                if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == package:
                    return True
        return False

    def missing_import(self, entry: str, module: str | None) -> MissingImport | None:
        """The first module the launched ``entry`` certainly fails to import at start-up: one that an import at the
        top of a file it runs (not under ``try``/``if``/``def``) names inside a package of the project's own, where
        neither the module file nor a name its package defines exists. Only packages Python finds first count: the
        folder the launched ``module`` (``python -m``) is found from, the script's folder for a script; a package
        that extends its ``__path__`` or star-imports is never judged. None when every such import resolves."""
        key = (self.root, os.path.realpath(entry), module)
        if key in _MISSING:
            return _MISSING[key]
        result = next((m for _, _, m in self._startup(entry, _search_folder(entry, module)) if m is not None), None)
        if len(_MISSING) > MAX_CACHED:
            _MISSING.clear()
        _MISSING[key] = result
        return result

    def package_imports(self, entry: str, module: str | None, package: str) -> list[PackageImport]:
        """Each import of the installed ``package`` at the top of a file the launched ``entry`` runs at start-up
        (as :meth:`missing_import` follows them); none when the project holds a package of that name where Python
        finds it first (its own copy is what runs)."""
        search = _search_folder(entry, module)
        if any(
            os.path.isdir(os.path.join(f, package)) or os.path.isfile(os.path.join(f, package + ".py")) for f in search
        ):
            return []
        found: list[PackageImport] = []
        for path, tree, _ in self._startup(entry, search):
            for node in tree.body:
                if isinstance(node, ast.ImportFrom) and not node.level and node.module:
                    if node.module.split(".")[0] == package:
                        names = tuple(a.name for a in node.names if a.name != "*")
                        found.append(PackageImport(self.rel(path), node.lineno, node.module, names))
                elif isinstance(node, ast.Import):
                    found += [
                        PackageImport(self.rel(path), node.lineno, a.name)
                        for a in node.names
                        if a.name.split(".")[0] == package
                    ]
        return found

    def _startup(self, entry: str, search: tuple[str, ...]) -> Iterator[tuple[str, ast.Module, MissingImport | None]]:
        """The project files the launched ``entry`` imports at start-up, following the imports at the top of each
        (not under ``try``/``if``/``def``) into the project's own packages, each with its first import that finds
        no module or name (None: all resolve)."""
        seen: list[str] = []
        queue = [os.path.realpath(entry)]
        while queue and len(seen) < MAX_FILES:
            current = queue.pop(0)
            tree = self.tree(current) if current not in seen else None
            if tree is None:
                # a module the launched file imports (not that file: it is read otherwise) that no Python compiles
                broken = syntax_error(current) if current not in seen and seen else None
                if broken is not None:
                    seen.append(current)
                    yield current, ast.Module(body=[], type_ignores=[]), broken
                continue
            seen.append(current)
            missing = _repeated_keyword(tree, current)
            absent: str | None = None  # a folder outside the project, not on this machine, put on sys.path above
            for node in tree.body:
                added = _path_entry_from_file(node, current)
                if added is not None and os.path.isdir(added) and added not in search:
                    search = (*search, added)  # sys.path.insert(0, <the file's folder>/..): imports below see it
                absent = absent or self._absent_path_entry(node)
                if absent is not None and missing is None:
                    missing = self._from_absent_folder(node, current, search, absent)
                for dotted, folder, names in _top_imports(node, current, search):
                    resolved = _resolve(folder, dotted, names)
                    if isinstance(resolved, tuple):
                        missing = missing or MissingImport(current, node.lineno, *resolved)
                    else:
                        queue += [p for p in resolved if self.inside(p) and p not in seen]
            yield current, tree, missing

    def _absent_path_entry(self, node: ast.stmt) -> str | None:
        """The folder of a top-level ``sys.path.append('/abs/dir')`` (or ``insert(i, ...)``) that is outside the
        project and does not exist on this machine (the author's checkout of another project); None otherwise."""
        call = node.value if isinstance(node, ast.Expr) else None
        if not (isinstance(call, ast.Call) and dotted_path(call.func) in ("sys.path.append", "sys.path.insert")):
            return None
        arg = call.args[-1] if call.args else None
        folder = arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None
        if folder is None or not os.path.isabs(folder) or os.path.exists(folder) or self.inside(folder):
            return None
        return None if self._documented(folder) else folder

    def _documented(self, folder: str) -> bool:
        """Whether the project's README links the repository the folder holds (a URL ending in its last folder name
        that is not a generic one: ``https://github.com/deepseek-ai/DeepSeek-Prover-V1.5`` for
        ``/home/me/projects/DeepSeek-Prover-V1.5``): a setup step it tells the user to take (clone that project), so
        the folder is the user's to provide, like any package the run imports."""
        names = [n for n in reversed(folder.rstrip("/").split("/")) if n and n.lower() not in _GENERIC_FOLDERS]
        if not names:
            return False
        link = re.compile(rf"https?://\S+/{re.escape(names[0])}(?:\.git)?(?=[\s)\]\"'#/>]|$)", re.IGNORECASE)
        for readme in ("README.md", "README.rst", "README.txt", "README"):
            text = read_text(os.path.join(self.root, readme), limit=1_000_000)
            if text is not None and link.search(text):
                return True
        return False

    def _from_absent_folder(
        self, node: ast.stmt, path: str, search: tuple[str, ...], absent: str
    ) -> MissingImport | None:
        """An import, after ``absent`` went on sys.path, of a top-level module that neither the standard library
        nor the folders the file imports from hold: it can only come from that absent folder."""
        if isinstance(node, ast.Import):
            tops = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            tops = [node.module]
        else:
            return None
        folders = (os.path.dirname(os.path.realpath(path)), *search, self.root, os.path.join(self.root, "src"))
        folders = tuple(f for f in folders if os.path.isdir(f))
        for dotted in tops:
            top = dotted.split(".")[0]
            if top in sys.stdlib_module_names or any(
                _module_file(f, top) is not None or os.path.isdir(os.path.join(f, top)) for f in folders
            ):
                continue
            return MissingImport(path, node.lineno, dotted, via=absent)
        return None

    # ------------------------------------------------------------ key reads
    def reads(self, leaf: str, paths: list[str]) -> list[Read]:
        """Where ``leaf`` is read in these files: ``x.leaf``, ``x['leaf']``, ``x.get('leaf'...)``; with the
        statement and, when it is an ``if``/``while`` test, the block it guards."""
        found: list[Read] = []
        for path in paths:
            tree = self.tree(path)
            if tree is None:
                continue
            for statement in _statements(tree):
                head = _head(statement)
                if any(_reads_leaf(n, leaf) for e in head for n in ast.walk(e)):
                    guarded = (
                        list(getattr(statement, "body", [])) + list(getattr(statement, "orelse", []))
                        if isinstance(statement, (ast.If, ast.While, ast.For, ast.With))
                        else []
                    )
                    found.append(Read(path, statement.lineno, statement, guarded))
        return found


@record
class MissingImport:
    """An import the launched code makes at start-up that finds no module: where (file, line) and what."""

    path: str
    line: int
    module: str
    name: str = ""  # a name imported from ``module`` that it neither defines nor holds ("": the module is missing)
    via: str = ""  # the folder, outside the project and absent here, the file adds to sys.path to import it from
    syntax: str = ""  # the file imported does not compile in any Python release: the error


@record
class PackageImport:
    """An import of an installed package at start-up: where (file relative to the project, line), the module, the
    names taken from it."""

    path: str
    line: int
    module: str
    names: tuple[str, ...] = ()


def _search_folder(entry: str, module: str | None) -> tuple[str, ...]:
    """The folders Python looks top-level packages up in for the launched ``entry``, first first: the script's
    own, or for ``python -m pkg.sub.mod`` the folder above ``pkg``. A script inside a package of an installable
    project (``pkg/cli/train.py`` under a folder with setup.py or pyproject.toml, or under the ``src/`` of one)
    imports that package from the project's own install (``pip install -e .``): the folder above the package comes
    next."""
    search = os.path.dirname(os.path.realpath(entry))
    if module:
        for _ in range(module.count(".") + entry.endswith("__init__.py")):
            search = os.path.dirname(search)
        return (search,)
    top = search
    while _regular_package(top) and _regular_package(os.path.dirname(top)):
        top = os.path.dirname(top)
    home = os.path.dirname(top)
    return (search, home) if _regular_package(top) and _installable(home) else (search,)


def _path_entry_from_file(node: ast.stmt, path: str) -> str | None:
    """The folder a top-level ``sys.path.insert(i, X)`` / ``sys.path.append(X)`` adds, where X is built from the
    file's own place: ``os.path.join(os.path.dirname(__file__), "..", "..")``, ``os.path.dirname(
    os.path.abspath(__file__))`` and the like, or ``str(Path(__file__).resolve().parents[1])``; None otherwise."""
    call = node.value if isinstance(node, ast.Expr) else None
    if not (isinstance(call, ast.Call) and dotted_path(call.func) in ("sys.path.append", "sys.path.insert")):
        return None
    return _file_relative(call.args[-1], path) if call.args else None


def _file_relative(node: ast.expr, path: str) -> str | None:
    """The path an expression built from ``__file__`` names (``path`` standing for it); None when it is not one."""
    if isinstance(node, ast.Name) and node.id == "__file__":
        return path
    if isinstance(node, ast.Call):
        name = dotted_path(node.func) or ""
        inner = _file_relative(node.args[0], path) if node.args else None
        if name in ("os.path.dirname", "dirname") and inner is not None:
            return os.path.dirname(inner)
        if name in ("os.path.abspath", "os.path.realpath", "abspath", "realpath", "str", "Path", "pathlib.Path"):
            return os.path.realpath(inner) if inner is not None else None
        if name in ("os.path.join", "join") and inner is not None:
            parts = [a.value for a in node.args[1:] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            return os.path.normpath(os.path.join(inner, *parts)) if len(parts) == len(node.args) - 1 else None
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("resolve", "absolute"):
            base = _file_relative(node.func.value, path)
            return os.path.realpath(base) if base is not None else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):  # Path(__file__).parent / "x" / "run.py"
        base = _file_relative(node.left, path)
        part = node.right.value if isinstance(node.right, ast.Constant) else None
        return os.path.normpath(os.path.join(base, part)) if base is not None and isinstance(part, str) else None
    if isinstance(node, ast.Attribute) and node.attr == "parent":
        base = _file_relative(node.value, path)
        return os.path.dirname(base) if base is not None else None
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "parents":
        base = _file_relative(node.value.value, path)
        index = node.slice.value if isinstance(node.slice, ast.Constant) else None
        if base is not None and isinstance(index, int) and 0 <= index < 8:
            for _ in range(index + 1):
                base = os.path.dirname(base)
            return base
    return None


def _top_imports(node: ast.stmt, path: str, search: tuple[str, ...]) -> list[tuple[str, str, tuple[str, ...]]]:
    """(dotted module, the folder it is looked up in, names imported from it) of a top-level import statement,
    for modules of a package found first in one of ``search`` (absolute) or relative to ``path``'s package."""

    def package_home(dotted: str) -> str | None:
        top = dotted.split(".")[0]
        for folder in search:
            if _module_file(folder, top) is not None or os.path.isdir(os.path.join(folder, top)):
                return folder if _regular_package(os.path.join(folder, top)) else None
        return None

    if isinstance(node, ast.Import):
        return [(a.name, home, ()) for a in node.names if (home := package_home(a.name)) is not None]
    if not isinstance(node, ast.ImportFrom):
        return []
    names = tuple(a.name for a in node.names if a.name != "*")
    if node.level:
        folder = os.path.dirname(os.path.realpath(path))
        for _ in range(node.level - 1):
            folder = os.path.dirname(folder)
        return [(node.module or "", folder, names)] if _regular_package(folder) else []
    module = node.module or ""
    home = package_home(module)
    return [(module, home, names)] if home is not None else []


_SUFFIXES = (".py", ".pyc", ".so", ".pyd", ".abi3.so")


def _regular_package(folder: str) -> bool:
    """A folder with an ``__init__.py`` that neither extends its ``__path__`` nor star-imports (either could
    supply modules or names rlconf cannot see)."""
    init = os.path.join(folder, "__init__.py")
    if not os.path.isfile(init):
        return False
    text = read_text(init, MAX_FILE_BYTES) or ""
    return "__path__" not in text and "import *" not in text


def _module_file(folder: str, name: str) -> str | None:
    """The file of module ``name`` in ``folder`` (a package's __init__.py, a source or compiled module), or the
    folder itself for a namespace portion; None when there is none."""
    base = os.path.join(folder, name)
    if os.path.isdir(base):
        init = os.path.join(base, "__init__.py")
        return init if os.path.isfile(init) else base
    if any(os.path.isfile(base + suffix) for suffix in _SUFFIXES):
        return base + ".py" if os.path.isfile(base + ".py") else base
    try:
        if any(entry.startswith(name + ".") and entry.endswith((".so", ".pyd")) for entry in os.listdir(folder)):
            return base
    except OSError:
        return base
    return None


def _resolve(folder: str, dotted: str, names: tuple[str, ...]) -> list[str] | tuple[str, str]:
    """The .py files ``from <dotted> import <names>`` (or ``import <dotted>``) runs, looked up from ``folder``;
    or what does not exist: (the first missing module, "") or (the module, a name imported from it). A name must
    be a submodule or appear in its module's text (as any word: defined, imported or assigned there); a module
    with a module-level ``__getattr__`` or a star import may supply any name and is not judged."""
    files: list[str] = []
    parts = [p for p in dotted.split(".") if p]
    current = folder
    for i, part in enumerate(parts):
        found = _module_file(current, part)
        if found is None:
            return ".".join(parts[: i + 1]), ""
        if found.endswith(".py"):
            files.append(found)
        package = os.path.join(current, part)
        if not os.path.isdir(package) or not _regular_package(package):
            if i == len(parts) - 1 and found.endswith(".py") and not os.path.isdir(package):
                return _names_of_module(found, dotted, names) or files  # the names are the module's attributes
            return files  # the rest are a module's attributes, or a package rlconf cannot see through
        current = package
    init_text = read_text(os.path.join(current, "__init__.py"), MAX_FILE_BYTES) or ""
    for name in names:
        found = _module_file(current, name)
        if found is None and not re.search(rf"\b{re.escape(name)}\b", init_text):
            return dotted, name
        if found is not None and found.endswith(".py"):
            files.append(found)
    return files


def _names_of_module(path: str, dotted: str, names: tuple[str, ...]) -> tuple[str, str] | None:
    """(dotted, the first of ``names`` the module file at ``path`` never mentions), None when it mentions them
    all or may supply any name (a module-level ``__getattr__``, a star import, writes to ``globals()``)."""
    text = read_text(path, MAX_FILE_BYTES) or ""
    if not text or "__getattr__" in text or "import *" in text or "globals()" in text:
        return None
    missing = next((name for name in names if not re.search(rf"\b{re.escape(name)}\b", text)), None)
    return (dotted, missing) if missing else None


def project_copy_of(folder: str, absolute: str) -> str | None:
    """The file of the project ``folder`` belongs to that an absolute path of another machine names (its author's
    checkout: ``/path/to/repo/configs/x.yaml`` or ``/home/me/repo/configs/x.yaml``): the one project file ending with
    the longest tail of it of at least two parts. None when the path exists here, or no tail names exactly one
    file."""
    if not os.path.isabs(absolute) or os.path.exists(absolute) or set("$`~") & set(absolute):
        return None
    root = project_root(folder)
    parts = [p for p in absolute.split("/") if p]
    for start in range(1, len(parts) - 1):
        held = files_ending(root, "/".join(parts[start:]))
        if len(held) == 1:
            return held[0]
        if held:
            return None  # the tail is ambiguous; a shorter one more so
    return None


# Folder names that say nothing of which project a folder holds (its own name is the one above them).
_GENERIC_FOLDERS = frozenset({"src", "lib", "python", "code", "repo", "repos", "projects", "home", "workspace", "work"})


def held_elsewhere(project: Project, given: str) -> str | None:
    """Where the project holds the relative path ``given`` (as the project names it) when the folder the run starts
    in does not: a path written from another folder. None when the run folder holds it, when it is absolute or has
    a variable, or when the project holds it nowhere (the user's setup may make it)."""
    if os.path.isabs(given) or set("$`~") & set(given) or os.path.isfile(os.path.join(project.run_dir, given)):
        return None
    held = files_ending(project.root, given)
    return project.rel(held[0]) if held else None


def names_assigned(tree: ast.AST, value: Callable[[ast.expr], bool]) -> set[str]:
    """The plain names an assignment anywhere in ``tree`` binds to an expression ``value`` accepts."""
    return {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and value(node.value)
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def runs_first_argument(text: str) -> bool:
    """Whether a Python script's own code runs the script or module its first argument names as ``__main__``
    (``runpy.run_path(sys.argv[1], ...)``, ``runpy.run_module(sys.argv[1], ...)``, or a name bound to
    ``sys.argv[1]`` handed to them): a wrapper around the program it is given. Read, never run."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False

    def first_argument(node: ast.expr) -> bool:
        return (
            isinstance(node, ast.Subscript)
            and dotted_path(node.value) == "sys.argv"
            and isinstance(node.slice, ast.Constant)
            and node.slice.value == 1
        )

    bound = names_assigned(tree, first_argument)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and dotted_path(node.func) in ("runpy.run_path", "runpy.run_module"):
            given = node.args[0] if node.args else None
            if given is not None and (first_argument(given) or (isinstance(given, ast.Name) and given.id in bound)):
                return True
    return False


def forwarded_script(text: str, path: str) -> str | None:
    """The project script a Python script at ``path`` hands its run to: it runs, as ``__main__``, a file whose path
    it builds from its own place (``runpy.run_path(str(Path(__file__).parent.parent / "x" / "run.py"),
    run_name="__main__")``, the path given directly or through a name bound once), and the file exists. None when it
    runs no such file, or more than one. Read, never run."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    bound: dict[str, list[ast.expr]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            bound.setdefault(node.targets[0].id, []).append(node.value)
    runs = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and dotted_path(node.func) == "runpy.run_path" and node.args):
            continue
        if not any(
            k.arg == "run_name" and isinstance(k.value, ast.Constant) and k.value.value == "__main__"
            for k in node.keywords
        ):
            continue
        given = node.args[0]
        if isinstance(given, ast.Call) and dotted_path(given.func) == "str" and len(given.args) == 1:
            given = given.args[0]
        if isinstance(given, ast.Name) and len(bound.get(given.id, ())) == 1:
            given = bound[given.id][0]
        runs.append(_file_relative(given, path))
    target = runs[0] if len(runs) == 1 else None
    return target if target is not None and target.endswith(".py") and os.path.isfile(target) else None


def refuse_script_the_project_lacks(
    source: Source, cwd: str | None, script: str, line: int | None, upstream: Iterable[str] = ()
) -> None:
    """Stop (ConfigError) where a launch runs a relative ``.py`` path that no folder the run may start in holds,
    nor any other folder of the project, while the project holds the path's own folder (``src/pkg/`` with other
    scripts): the file was renamed or never committed, and Python stops with "can't open file". A path with a
    variable, an absolute one, one whose folder the project lacks (a checkout of another repository the user makes
    beside it), and one ending as a script of the framework's own repository does (``upstream``: such a checkout
    holds it) are not judged."""
    if not script.endswith(".py") or os.path.isabs(script) or set("$`~*") & set(script):
        return
    if any(f"/{os.path.normpath(script)}".endswith(f"/{tail}") for tail in upstream):
        return
    folder = os.path.dirname(os.path.normpath(script))
    if not folder or next(launched_scripts(source, cwd, script), None) is not None:
        return
    near = str(source.base_dir) if source.base_dir is not None and not source.files else None
    dirs = [near] if near is not None else run_dirs(source, cwd)
    if not dirs:
        return
    root = project_root(dirs[0])  # the launching script's project
    tail = os.sep + folder
    if files_ending(root, script) or not any(
        p.endswith(".py") and os.path.dirname(p).endswith(tail) for p in project_files(root)
    ):
        return
    raise ConfigError(
        f"the launch runs {script}, which the project holds nowhere, though it holds {folder}/ with other scripts: "
        'Python stops with "can\'t open file" before training',
        file=source.name,
        line=line,
        hint=f"correct the path to a script the project holds in {folder}/, or commit the script",
    )


def refuse_unopened_file_options(source: Source, cwd: str | None, entry: str, words: list[str], line: int) -> None:
    """Stop (ConfigError) where the launched project script's own parser opens an option's file as it parses
    (``add_argument("--x", type=argparse.FileType("r"))``) and the launch gives it a relative path the folder the run
    starts in does not hold while the project holds it elsewhere (a path written from another folder): argparse
    exits at start-up ("can't open 'x'"). A path with a variable, and one the project holds nowhere (the user's
    setup may make it), are not judged."""
    for project, path in launched_scripts(source, cwd, entry):
        if entry.endswith(".py") and not os.path.isfile(os.path.join(project.run_dir, entry)):
            return  # the script found elsewhere: which folder the user runs it from is not known
        tree = project.tree(path)
        opened: set[str] = set()
        for node in ast.walk(tree) if tree is not None else ():
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
                kind = next((k.value for k in node.keywords if k.arg == "type"), None)
                mode = kind.args[0] if isinstance(kind, ast.Call) and kind.args else None
                if (
                    isinstance(kind, ast.Call)
                    and (dotted_path(kind.func) or "").endswith("FileType")
                    and (mode is None or (isinstance(mode, ast.Constant) and "r" in str(mode.value)))
                ):
                    opened.update(
                        a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
                    )
        for i, word in enumerate(words):
            flag, eq, inline = word.partition("=")
            given = inline if eq else words[i + 1] if i + 1 < len(words) else ""
            if flag not in opened or not given or given.startswith("-"):
                continue
            held = held_elsewhere(project, given)
            if held:
                raise ConfigError(
                    f"{flag} {given}: {project.rel(path)}'s parser opens it as it parses (argparse.FileType), and "
                    f"the folder the run starts in ({project.rel(project.run_dir) or '.'}) does not hold it (the "
                    f"project holds {held}): argparse exits at start-up (\"can't open '{given}'\")",
                    file=source.name,
                    line=line,
                    hint="name the file from the folder the run starts in",
                )
        return


def argparse_options(path: str) -> frozenset[str] | None:
    """The option words the module at ``path`` declares (:func:`translator.sources.pyconfig.option_words`); None
    when they cannot all be known or the file cannot be read."""
    from translator.sources.pyconfig import option_words

    text = read_text(path, MAX_FILE_BYTES)
    try:
        return option_words(ast.parse(text)) if text is not None else None
    except SyntaxError:
        return None


def closed_argparse_options(tree: ast.Module) -> frozenset[str] | None:
    """The option words of a script whose parser is built in that file alone (:func:`option_words`, and no
    ``ArgumentParser(parents=...)``, no sub-commands, no parser handed to another function whose ``add_argument``
    calls the file does not show): then ``parse_args()`` refuses any other flag. None otherwise."""
    from translator.sources.pyconfig import option_words

    words = option_words(tree)
    parsers = names_assigned(tree, lambda v: isinstance(v, ast.Call) and _called_name(v) == "ArgumentParser")
    if words is None or not parsers:
        return None
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if _called_name(node) == "ArgumentParser" and any(k.arg == "parents" for k in node.keywords):
            return None
        if _called_name(node) == "add_subparsers":
            return None
        if any(isinstance(a, ast.Name) and a.id in parsers for a in [*node.args, *(k.value for k in node.keywords)]):
            return None
    return words


def _called_name(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def path_default(path: str, option: str) -> str | None:
    """The path the script at ``path`` uses for its option ``option`` (``config``) when the launch gives none: a
    literal ``add_argument("--config", default="x.yaml")`` (relative to where the run starts), or one the script
    sets when it is unset, ``args.config = os.path.join(os.path.dirname(__file__), "x.yaml")`` (made absolute
    from the script's folder). None when neither is there (or there are several)."""
    text = read_text(path, MAX_FILE_BYTES)
    try:
        tree = ast.parse(text or "")
    except SyntaxError:
        return None
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
            named = any(isinstance(a, ast.Constant) and a.value == f"--{option}" for a in node.args)
            default = next((k.value for k in node.keywords if k.arg == "default"), None)
            if named and isinstance(default, ast.Constant) and isinstance(default.value, str):
                found.add(default.value)
        elif (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Attribute)
            and node.targets[0].attr == option
        ):
            value = node.value
            if not (isinstance(value, ast.Call) and dotted_path(value.func) == "os.path.join" and value.args):
                continue
            first, *rest = value.args
            beside = ast.unparse(first) in ("os.path.dirname(__file__)", "os.path.dirname(os.path.abspath(__file__))")
            if beside and rest and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in rest):
                found.add(os.path.join(os.path.dirname(path), *(str(getattr(a, "value", "")) for a in rest)))
    return found.pop() if len(found) == 1 else None


def option_test(test: ast.expr) -> tuple[str, Any] | None:
    """(option, value) of a branch test on a script option: ``args.flag`` (True), ``not args.flag`` (False),
    ``args.name == "x"`` or ``args.name.lower() == "x"`` ("x")."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(test.operand, ast.Attribute):
        return test.operand.attr, False
    if isinstance(test, ast.Attribute):
        return test.attr, True
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Eq)
        and isinstance(test.comparators[0], ast.Constant)
    ):
        left = test.left
        if isinstance(left, ast.Call) and isinstance(left.func, ast.Attribute) and left.func.attr == "lower":
            left = left.func.value
        if isinstance(left, ast.Attribute):
            return left.attr, test.comparators[0].value
    return None


def _branch_guards(tree: ast.AST) -> dict[int, tuple[str, Any]]:
    """id(node) → the script-option test of the innermost ``if``/``elif`` branch holding it (an ``else`` body is
    not a test of its own: its nodes keep the enclosing one)."""
    guards: dict[int, tuple[str, Any]] = {}

    def mark(statements: list[ast.stmt], guard: tuple[str, Any] | None) -> None:
        for statement in statements:
            if isinstance(statement, ast.If):
                mark(statement.body, option_test(statement.test) or guard)
                mark(statement.orelse, guard)
                continue
            for block in ("body", "orelse", "finalbody"):  # inner branches first: their own tests win
                inner = getattr(statement, block, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    mark(inner, guard)
            if guard is not None:
                for node in ast.walk(statement):
                    guards.setdefault(id(node), guard)

    mark(getattr(tree, "body", []), None)
    return guards


def _conditional_names(node: ast.expr, condition: tuple[str, Any] | None) -> list[tuple[str, tuple[str, Any] | None]]:
    """Names containing 'Trainer' in an expression, each with the flag test that selects it (``A if args.flag
    else B``, ``A if not args.flag else B``); other expressions give their names unconditioned."""
    if isinstance(node, ast.IfExp):
        test, negated = node.test, False
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test, negated = test.operand, True
        flag = test.attr if isinstance(test, ast.Attribute) else None

        def when(value: bool) -> tuple[str, Any] | None:
            return (flag, value != negated) if flag else None

        return _conditional_names(node.body, when(True)) + _conditional_names(node.orelse, when(False))
    return [(n.id, condition) for n in ast.walk(node) if isinstance(n, ast.Name) and "Trainer" in n.id]


def dotted_path(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted_path(node.value)
        return f"{inner}.{node.attr}" if inner else None
    return None


def _statements(tree: ast.AST) -> list[ast.stmt]:
    """Every statement under ``tree`` but definitions, breadth first; kept per node (asked once per key and way)."""
    return _kept(
        _STATEMENTS,
        id(tree),
        tree,
        lambda: [
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.stmt) and not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        ],
    )


T = TypeVar("T")


def _kept(cache: dict[Any, tuple[ast.AST, T]], key: Any, tree: ast.AST, compute: Callable[[], T]) -> T:
    """What ``compute`` gives for ``tree``, computed once per process (the tree kept beside, so that a reused id
    is told apart; the cache emptied past MAX_CACHED entries)."""
    cached = cache.get(key)
    if cached is not None and cached[0] is tree:
        return cached[1]
    if len(cache) > MAX_CACHED:
        cache.clear()
    value = compute()
    cache[key] = (tree, value)
    return value


def _head(statement: ast.stmt) -> list[ast.AST]:
    """The part of a statement that is its own (a compound statement's test / iterator, not its body)."""
    if isinstance(statement, (ast.If, ast.While)):
        return [statement.test]
    if isinstance(statement, ast.For):
        return [statement.target, statement.iter]
    if isinstance(statement, ast.With):
        return [item.context_expr for item in statement.items]
    if isinstance(statement, (ast.Try,)):
        return []
    return [statement]


def _leaves_read(tree: ast.Module) -> frozenset[str]:
    """Every leaf :func:`_reads_leaf` can match in the file (an attribute read, a subscript, ``.get`` or
    ``getattr`` by a string), found in one walk and kept with the tree: a key's effects are looked for only in files
    that read its leaf."""
    entry = _LEAVES.get(id(tree))
    if entry is not None and entry[0] is tree:
        return entry[1]
    leaves: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            leaves.add(node.attr)
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            leaves.add(str(node.slice.value))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            leaves.add(str(node.args[0].value))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
            and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant)
        ):
            leaves.add(str(node.args[1].value))
    if len(_LEAVES) > MAX_CACHED:
        _LEAVES.clear()
    _LEAVES[id(tree)] = (tree, frozenset(leaves))
    return _LEAVES[id(tree)][1]


def _reads_leaf(node: ast.AST, leaf: str) -> bool:
    if isinstance(node, ast.Attribute) and node.attr == leaf and isinstance(node.ctx, ast.Load):
        return True
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == leaf:
        return True
    if (  # getattr(args, "leaf", default)
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
    ):
        return node.args[1].value == leaf
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and bool(node.args)
        and isinstance(node.args[0], ast.Constant)
        and node.args[0].value == leaf
    )


def mentions(nodes: list[ast.AST], names: tuple[str, ...]) -> ast.AST | None:
    """The first node under ``nodes`` whose attribute / name / call / string is one of ``names``."""
    for top in nodes:
        for node in ast.walk(top):
            word = (
                node.attr
                if isinstance(node, ast.Attribute)
                else node.id
                if isinstance(node, ast.Name)
                else node.value
                if isinstance(node, ast.Constant) and isinstance(node.value, str)
                else None
            )
            if word in names:
                return node
    return None


# ---------------------------------------------------------------------------- batch-forming code
# What a statement does to the batch, by kind: 'group' (how many completions a prompt gets), 'size' (how many
# prompts or samples a batch or mini-batch holds), 'rows' (which rows of a formed batch are kept or trained),
# 'batches' (several batches joined into one: any of these).
_REPEAT_CALLS = ("repeat", "repeat_interleave", "expand", "tile")
_ROW_CALLS = ("split", "chunk", "select", "select_idxs", "filter", "index_select", "masked_select", "slice")
_CONCAT_CALLS = ("concat", "cat", "interleave_batches")
_GROUP_NAMES = ("n", "num_return_sequences", "num_generations", "rollout_n")
_TENSOR_MODULES = ("torch", "np", "numpy", "F")
# a config library's query (OmegaConf.select(cfg, "a.b")) reads a setting, never rows
_CONFIG_MODULES = ("OmegaConf", "omegaconf")
# str methods: a split of what they return (path.strip(sep).split(sep)) splits text, not rows
_TEXT_METHODS = ("strip", "rstrip", "lstrip", "lower", "upper", "replace", "decode", "format", "join")
_VALIDATION = lazy(r"(^|_)(val|valid|validate|validation|eval|evaluate|evaluation|test)(_|$)")


@record
class Touch:
    """One place where code forms batches: its file, line, kind (group / size / rows), what it does in words,
    and a short signature of the statement's shape (to compare with upstream's batch-forming code)."""

    path: str
    line: int
    kind: str
    what: str
    signature: str


def batch_touches(nodes: list[ast.AST], path: str, loop_names: frozenset[str] = frozenset()) -> list[Touch]:
    """The batch-forming operations under ``nodes``: repeating / concatenating batches, splitting, filtering or
    indexing their rows, counting them, and setting batch sizes or group sizes (assignments and keywords).
    ``loop_names``: names the loops around ``nodes`` bind to one element at a time (:func:`_enclosing_loop_names`)."""
    found: list[Touch] = []
    side_counts = _sizing_side_values(nodes)
    for top in nodes:
        elements = _element_names(top) | loop_names
        shown = {id(inner) for call in ast.walk(top) if _shows(call) for inner in ast.walk(call)}
        # what builds a validation, test or monitoring loader forms no training batch
        shown |= {
            id(inner)
            for assign in ast.walk(top)
            if isinstance(assign, ast.Assign) and any(_NOT_TRAINING.search(ast.unparse(t)) for t in assign.targets)
            for inner in ast.walk(assign.value)
        }
        # a count handed to another call (range(len(batch)), x.reshape(len(batch), n)), formatted, or sizing a
        # list of one value per row only reads the size: it neither compares nor computes one
        handed = {
            id(argument)
            for parent in ast.walk(top)
            if isinstance(parent, (ast.Call, ast.FormattedValue))
            for argument in (parent.args if isinstance(parent, ast.Call) else [parent.value])
        }
        # values written into a column of a batch (batch.batch["w"] = w.expand(n_prompts, n).reshape(-1)) are one
        # per row: repeating them there forms no rows
        shown |= {
            id(inner)
            for assign in ast.walk(top)
            if isinstance(assign, ast.Assign) and all(isinstance(t, ast.Subscript) for t in assign.targets)
            for inner in ast.walk(assign.value)
            if isinstance(inner, ast.Call) and (_touch(inner) or ("",))[0] == "group"
        }
        # a count that sizes a list of one value per row ([1.0] * len(batch)) keeps the rows as they are
        handed |= {
            id(side)
            for parent in ast.walk(top)
            if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Mult)
            for side, other in ((parent.left, parent.right), (parent.right, parent.left))
            if isinstance(other, ast.List)
        }
        # a count that divides a sum (hits.sum() / len(batch)): a mean or a fraction over the rows, not a size
        handed |= {
            id(parent.right)
            for parent in ast.walk(top)
            if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Div)
        }
        # a count compared for equality with another one (len(scores) == len(batch)): a check that there is one value
        # per row, which keeps the rows as they are
        handed |= {
            id(side)
            for parent in ast.walk(top)
            if isinstance(parent, ast.Compare)
            and len(parent.ops) == 1
            and isinstance(parent.ops[0], (ast.Eq, ast.NotEq))
            for side, other in ((parent.left, parent.comparators[0]), (parent.comparators[0], parent.left))
            if isinstance(other, ast.Call) and isinstance(other.func, ast.Name) and other.func.id == "len"
        }
        # a loop's index checked against the count (i < len(decoded)): a bound on one element's index
        handed |= {
            id(side)
            for parent in ast.walk(top)
            if isinstance(parent, ast.Compare) and len(parent.ops) == 1
            for side, other in ((parent.left, parent.comparators[0]), (parent.comparators[0], parent.left))
            if isinstance(other, ast.Name) and other.id in elements
        }
        for node in ast.walk(top):
            touch = _touch(node)
            if touch is None or id(node) in shown or _on_an_element(node, touch, elements):
                continue
            if touch[2] == "len(batch)" and (id(node) in handed or id(node) in side_counts):
                continue
            found.append(Touch(path, getattr(node, "lineno", 0), *touch))
    return found


def _sizing_side_values(nodes: list[ast.AST]) -> set[int]:
    """The counts of a batch's rows kept under a local name (``size = len(batch.batch)``) that is only read to size
    values beside the rows: handed to a call (``np.full(size, v)``), a slice bound (``values[:size]``), or
    compared with another list's length (``len(values) == size``). Such a count neither compares the batch with a
    configured size nor cuts it."""
    uses: dict[str, list[ast.AST]] = {}
    parents: dict[int, ast.AST] = {}
    for parent in (n for top in nodes for n in ast.walk(top)):
        for child in ast.iter_child_nodes(parent):
            parents[id(child)] = parent
            if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load):
                uses.setdefault(child.id, []).append(child)

    def side_read(use: ast.AST) -> bool:
        parent = parents.get(id(use))
        if (isinstance(parent, ast.Call) and use in parent.args) or isinstance(parent, ast.Slice):
            return True
        if isinstance(parent, ast.Compare):
            others = [parent.left, *parent.comparators]
            return all(o is use or (isinstance(o, ast.Call) and _counts_values(o)) for o in others)
        return False

    found: set[int] = set()
    for node in (n for top in nodes for n in ast.walk(top)):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)
            and uses.get(node.targets[0].id)
            and all(side_read(u) for u in uses[node.targets[0].id])
        ):
            found.add(id(node.value))
    return found


def _counts_values(call: ast.Call) -> bool:
    """``len(values)`` of a list that is not a batch."""
    return (
        isinstance(call.func, ast.Name)
        and call.func.id == "len"
        and len(call.args) == 1
        and "batch" not in (dotted_path(call.args[0]) or "batch")
    )


_SHOWING = (
    "print",
    "pprint",
    "info",
    "debug",
    "warning",
    "warn",
    "error",
    "log",
    "write",
    "set_postfix",
    "progress",
    "report",
)
# the name a loader or dataset of held-out data is kept under (self.val_dataloader, monitor_dataset, test_loader)
_NOT_TRAINING = lazy(r"(?:^|[._])(?:val|valid|validation|eval|test|monitor)[a-z]*_(?:data(?:set|loader)?|loader)\b")


def _shows(node: ast.AST) -> bool:
    """A call that prints or logs (``print(len(batch))``, ``logger.info(...)``): what it reads forms no batch."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    bare = name.lstrip("_")  # a class's own reporter (self._progress(...)) shows too
    return bare in _SHOWING or bare.endswith(("_log", "_debug")) or bare.startswith(("log_", "debug_"))


def _element_names(tree: ast.AST) -> frozenset[str]:
    """Names bound to one element at a time by a ``for`` or a comprehension (``for text in texts``), save names of a
    batch or its data (``for micro_batch in batches``)."""
    return _one_at_a_time(n.target for n in ast.walk(tree) if isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)))


def _one_at_a_time(targets: Iterable[ast.expr]) -> frozenset[str]:
    """The names loop targets bind, save names of a batch or its data."""
    names = {t.id for target in targets for t in ast.walk(target) if isinstance(t, ast.Name)}
    return frozenset(n for n in names if not any(w in n.lower() for w in ("batch", "data", "sample", "experience")))


def _enclosing_loop_names(function: ast.AST | None, statement: ast.stmt) -> frozenset[str]:
    """The names the ``for`` loops of ``function`` that hold ``statement`` bind to one element at a time (``i`` of
    ``for i in range(n):`` around ``record = {"text": decoded[i]}``), save names of a batch or its data, as
    :func:`_element_names` keeps them."""
    if function is None:
        return frozenset()
    return _one_at_a_time(
        n.target
        for n in ast.walk(function)
        if isinstance(n, (ast.For, ast.AsyncFor)) and n.lineno < statement.lineno <= (n.end_lineno or n.lineno)
    )


def _on_an_element(node: ast.AST, touch: tuple[str, str, str], elements: frozenset[str]) -> bool:
    """A row operation called on one element of an iteration (``text.split(sep)`` for each decoded text), or a
    batch indexed by the loop's own index (``batch_kwargs[i]`` for ``i`` in ``range(batch_size)``): it works on
    one sample at a time, not on which rows the batch holds."""
    if touch[0] != "rows":
        return False
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Name) and node.slice.id in elements
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in elements
    )


# calls that generate completions for a batch of prompts (a trainer's rollout, an experience maker)
_GENERATE_CALLS = frozenset(
    {"generate", "generate_sequences", "make_experience", "make_experience_list", "rollout", "generate_rollouts"}
)


def _repeats_generation(node: ast.For) -> bool:
    """``for _ in range(k): ... make_experience(prompts)``: the same prompts generated for again on each round (a
    group of k formed by the loop), unlike a loop whose variable picks what each round generates for (chunks)."""
    if not (isinstance(node.iter, ast.Call) and dotted_path(node.iter.func) == "range"):
        return False
    bound = {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
    # names the body computes from the loop's variable pick per round too (prompts = batch[i : i + size])
    assignments = [n for n in _outside_loops(node.body) if isinstance(n, ast.Assign)]
    for _ in range(3):
        bound |= {
            t.id
            for a in assignments
            if any(isinstance(n, ast.Name) and n.id in bound for n in ast.walk(a.value))
            for target in a.targets
            for t in ast.walk(target)
            if isinstance(t, ast.Name)
        }
    for inner in _outside_loops(node.body):
        if not isinstance(inner, ast.Call):
            continue
        func = inner.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        arguments = [*inner.args, *(k.value for k in inner.keywords)]
        used = {n.id for a in arguments for n in ast.walk(a) if isinstance(n, ast.Name)}
        if name in _GENERATE_CALLS and not used & bound:
            return True
    return False


def _outside_loops(statements: list[ast.stmt]) -> Iterator[ast.AST]:
    """The nodes of ``statements`` outside any loop they hold (an epoch loop's inner loop over a data loader draws
    new prompts on each round: what it generates is no repeat of the outer loop)."""
    stack: list[ast.AST] = list(statements)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            stack.extend(ast.iter_child_nodes(node))


def _touch(node: ast.AST) -> tuple[str, str, str] | None:
    if isinstance(node, ast.For) and _repeats_generation(node):
        return "group", "generates for the same prompts on each round of a loop", "for range() generate"
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        args = " ".join(ast.unparse(a) for a in node.args)
        words = ",".join(sorted(k.arg for k in node.keywords if k.arg))
        if isinstance(func, ast.Attribute) and name in _REPEAT_CALLS:
            # the count's last word is part of the shape: upstream repeats by rollout.n
            times = next((k.value for k in node.keywords if k.arg == "repeat_times"), None)
            count = (dotted_path(times) or "?").split(".")[-1] if times is not None else None
            words = ",".join(
                sorted(f"{k.arg}={count}" if k.arg == "repeat_times" else str(k.arg) for k in node.keywords if k.arg)
            )
            return "group", f"repeats rows ({name})", f"{name}({words})"
        if isinstance(func, ast.Attribute) and name in _CONCAT_CALLS and (name != "cat" or "batch" in args):
            return "batches", f"concatenates batches ({name})", f"{name}()"
        if (
            isinstance(func, ast.Attribute)
            and name in _ROW_CALLS
            and not _on_text(node)
            # torch.masked_select(diff, mask): a tensor library's function on a metric, unless it is handed a batch
            and not (isinstance(func.value, ast.Name) and func.value.id in _TENSOR_MODULES and "batch" not in args)
            and not (isinstance(func.value, ast.Name) and func.value.id in _CONFIG_MODULES)
        ):
            return "rows", f"selects or splits rows ({name})", f"{name}({words})"
        if name == "len" and "batch" in args:
            return "rows", "counts a batch's rows (len)", "len(batch)"
        for keyword in node.keywords:
            one = isinstance(keyword.value, ast.Constant) and keyword.value.value == 1
            # the configured group size passed on as it is (rollout_n=self.config.worker.rollout.n) forms no new one
            configured = _configured_group(keyword.value)
            if keyword.arg in (*_GROUP_NAMES, "n_samples", "repeat_times") and not one and not configured:
                # a literal 1 asks one output per input (a later turn of a multi-turn rollout): no group
                return "group", f"passes {keyword.arg}= to {name}()", f"{name}({keyword.arg}=)"
            if keyword.arg and "batch_size" in keyword.arg and not _size_of_a_batch(keyword.value):
                if any(k.arg == "forward_only" and _constant_true(k.value) for k in node.keywords):
                    continue  # a forward pass only (log-probabilities): no update's batch
                return "size", f"passes {keyword.arg}= to {name}()", f"{name}({keyword.arg}=)"
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and "batch" in node.value.id
        and isinstance(node.ctx, ast.Load)
        and isinstance(node.slice, (ast.Name, ast.Attribute, ast.Call, ast.Compare, ast.BinOp, ast.List))
    ):
        return "rows", f"indexes {node.value.id} by a mask or index list", "batch[index]"
    if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and not _measures(node):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            last = (
                target.attr
                if isinstance(target, ast.Attribute)
                else target.id
                if isinstance(target, ast.Name)
                else target.slice.value
                if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant)
                else None
            )
            if not isinstance(last, str):
                continue
            op = type(node.op).__name__ if isinstance(node, ast.AugAssign) else "="
            if "batch_size" in last:
                return "size", f"sets {last}", f"set {last} {op}"
            if last in _GROUP_NAMES or "n_samples" in last:
                return "group", f"sets {last}", f"set {last} {op}"
    return None


# ---------------------------------------------------------------------------- a worker's size normalisation
# A worker turns the configured batch sizes into per-device ones (verl: mini-batch × rollout.n ÷ data-parallel
# ranks; EasyR1: global batch × n ÷ world size); the actor's update splits by them and accumulates micro-batches.
# an accumulation count is named for it (gradient_accumulation, grad_accum_steps, OpenRLHF's accumulated_gradient);
# a value accumulated along the sequence (accumulated_log_rho) sizes nothing
_NORMALISED_TARGET = lazy(
    r"batch_size|per_gpu|per_device|(^|_)(grad(ient)?_)?accum(ulation|ulated)?(_grad(ient)?s?|_steps?)?$"
)


class _Shape(ast.NodeTransformer):
    """An expression's shape: every dotted name cut to its last part, every call to its function's last name."""

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        return ast.Name(node.attr, ast.Load())

    def visit_Call(self, node: ast.Call) -> ast.AST:
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else "call"
        return ast.Call(ast.Name(name, ast.Load()), [], [])


def _shape(node: ast.expr) -> str:
    import copy

    return ast.unparse(_Shape().visit(copy.deepcopy(node)))


def normalising_functions(tree: ast.Module, anchors: tuple[str, ...]) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The functions of a file that assign one of ``anchors`` (the last name of a per-device size the worker
    computes), innermost first: where a worker normalises its batch sizes or its actor splits and accumulates.
    Kept per parsed tree: a config read again as each release and each way through a script asks the same."""
    found: list[ast.FunctionDef | ast.AsyncFunctionDef] = _kept(
        _NORMALISING, (id(tree), anchors), tree, lambda: _normalising_functions(tree, anchors)
    )
    return list(found)


def _normalising_functions(tree: ast.Module, anchors: tuple[str, ...]) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            own = [n for n in ast.walk(node) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))]
            if any(_target_leaf(t) in anchors for n in own for t in assignment_targets(n)):
                found.append(node)
    # an outer function holding an inner one that normalises is not itself the normaliser
    return [f for f in found if not any(g is not f and any(g is n for n in ast.walk(f)) for g in found)]


def normalisation_touches(function: ast.FunctionDef | ast.AsyncFunctionDef, path: str) -> list[Touch]:
    """The statements of ``function`` that set a batch size, a per-device size or an accumulation count, each with
    the shape of its arithmetic as signature ('ppo_mini_batch_size *= n'): two workers whose signatures agree
    turn the same configured sizes into the same per-device sizes."""
    found: list[Touch] = []
    for node in ast.walk(function):
        if not isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) or node.value is None:
            continue
        if _measures(node):
            continue
        for target in assignment_targets(node):
            leaf = _target_leaf(target)
            if leaf is None or not _NORMALISED_TARGET.search(leaf):
                continue
            op = (
                {"Mult": "*=", "FloorDiv": "//=", "Div": "/=", "Add": "+=", "Sub": "-="}.get(
                    type(node.op).__name__, "?="
                )
                if isinstance(node, ast.AugAssign)
                else "="
            )
            found.append(Touch(path, node.lineno, "size", f"sets {leaf}", f"{leaf} {op} {_shape(node.value)}"))
    return found


def _measures(node: ast.Assign | ast.AugAssign | ast.AnnAssign) -> bool:
    """``n = x.shape[0]``, ``n = x.size(0)``, ``n = len(x)``: a local name that reads the size of a batch already
    formed (a loss's loop bound) decides no size; ``rollout_n = self.config.worker.rollout.n``, a local name for the
    configured group size, decides no group either, nor does a local name for a configured size of the same name."""
    if not isinstance(node, ast.Assign) or not all(isinstance(t, ast.Name) for t in node.targets):
        return False
    value = node.value
    if _configured_group(value):
        return all(isinstance(t, ast.Name) and t.id in _GROUP_NAMES for t in node.targets)
    if isinstance(value, ast.Attribute) and _on_a_config(value):
        # a local name for a configured size (rollout_batch_size = self.args.rollout_batch_size) decides no size
        return all(isinstance(t, ast.Name) and t.id == value.attr for t in node.targets)
    return _size_of_a_batch(value)


def _configured_group(value: ast.expr) -> bool:
    """A read of a release's own configured group size, as it is: ``actor_rollout_ref.rollout.n``,
    ``worker.rollout.n``, a worker's ``config.rollout.n`` (not a fork's ``agent_grpo.n`` or ``env.rollout.n``)."""
    words = (dotted_path(value) or "").split(".")
    return len(words) > 2 and words[-2:] == ["rollout", "n"] and words[-3] in ("actor_rollout_ref", "worker", "config")


def _size_of_a_batch(value: ast.expr) -> bool:
    """``x.shape[0]``, ``x.size(0)``, ``len(x)``, ``batch.batch.batch_size``: the size of a batch already formed,
    read (to build a container of the same rows), not decided."""
    if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Attribute):
        return value.value.attr == "shape"
    if isinstance(value, ast.Call):
        func = value.func
        return (isinstance(func, ast.Name) and func.id == "len") or (
            isinstance(func, ast.Attribute) and func.attr == "size" and bool(value.args)
        )
    if isinstance(value, ast.Attribute) and value.attr == "batch_size":
        base = (dotted_path(value.value) or "").split(".")
        # a batch object's own size, not a configured one (self.config.data.batch_size, args.batch_size)
        return any("batch" in part for part in base) and not any(
            part in ("config", "cfg", "args", "conf") for part in base
        )
    return False


def _constant_true(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _on_text(node: ast.Call) -> bool:
    """A row call that works on text, not rows: one given a literal string first (``split(",")``,
    ``select("col")``), a split by a path separator, or a split of what a str method returns
    (``path.strip(os.sep).split(os.sep)``). (``DataProto.select(batch_keys=[...])`` keeps fields of every row, but
    it stays counted: a trainer copy's field selections mark code of its own, such as a second update on a cached
    batch, that no other statement of the signature set shows.)"""
    if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        return True
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr == "split"):
        return False
    if node.args and (dotted_path(node.args[0]) or "") in ("os.sep", "os.path.sep", "os.linesep"):
        return True
    receiver = func.value
    return (
        isinstance(receiver, ast.Call)
        and isinstance(receiver.func, ast.Attribute)
        and receiver.func.attr in _TEXT_METHODS
    )


def untaken(function: ast.AST, line: int, leaves: Mapping[str, object]) -> bool:
    """Whether the statement at ``line`` sits in a branch of an ``if`` on exactly a config leaf (``cfg.x`` or
    ``not cfg.x``), or on a comparison of one with literals (``cfg.mode == "ema"``), that the launch's value of
    that leaf (``leaves``) does not take."""
    for node in ast.walk(function):
        if not isinstance(node, ast.If):
            continue
        if not any(s.lineno <= line <= (s.end_lineno or s.lineno) for s in node.body + node.orelse):
            continue  # the statement is in neither branch of this if
        aliases = _aliases(function, node.lineno)
        compared = _comparison_taken(node.test, aliases, leaves)
        if compared is None:
            compared = _alias_truth(node.test, aliases, leaves)
        if compared is not None:
            skipped = node.orelse if compared else node.body
            if any(s.lineno <= line <= (s.end_lineno or s.lineno) for s in skipped):
                return True
            continue
        words = {
            w
            for n in ast.walk(node.test)
            for w in (getattr(n, "attr", None), getattr(n, "value", None))
            if isinstance(w, str)
        }
        for leaf, value in leaves.items():
            if leaf not in words:
                continue  # the test reads no such leaf (as cfg.x, cfg["x"] or cfg.get("x"))

            def reads(n: ast.AST, leaf: str = leaf) -> bool:
                return _reads_leaf(n, leaf)

            taken = _decided(node.test, reads, _truth(value))
            if taken is None:
                continue
            skipped = node.orelse if taken else node.body
            if any(s.lineno <= line <= (s.end_lineno or s.lineno) for s in skipped):
                return True
    return False


def _aliases(tree: ast.AST, line: int) -> dict[str, ast.expr]:
    """The local names the innermost function of ``tree`` around ``line`` binds once, to what (``rows =
    cfg.get("rows", None)``): a test of such a name is a test of the read."""
    functions = _kept(
        _FUNCTIONS,
        id(tree),
        tree,
        lambda: [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))],
    )
    around = [f for f in functions if f.lineno <= line <= (f.end_lineno or f.lineno)]
    if not around:
        return {}
    function = min(around, key=lambda f: (f.end_lineno or f.lineno) - f.lineno)
    bound: dict[str, list[ast.expr]] = {}
    for node in ast.walk(function):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            for target in assignment_targets(node):
                if isinstance(target, ast.Name):
                    bound.setdefault(target.id, []).append(node.value if isinstance(node, ast.Assign) else target)
    return {name: values[0] for name, values in bound.items() if len(values) == 1}


def _alias_truth(test: ast.expr, aliases: Mapping[str, ast.expr], leaves: Mapping[str, object]) -> bool | None:
    """Whether ``if NAME:`` (or ``not NAME``, and their ``and``/``or``) runs its body, NAME bound to a config read
    whose value (or ``get`` default) the launch decides."""

    def alias(read: ast.expr) -> bool | None:
        found = _leaf_read(read, aliases) if isinstance(read, ast.Name) and read.id in aliases else None
        value = leaves.get(found[0], found[1]) if found is not None else _UNSET
        return None if value is _UNSET else _truth(value)

    return _test_truth(test, alias)


def behind_switch(function: ast.AST, line: int, switch: Callable[[str], bool]) -> bool:
    """Whether the statement at ``line`` sits in a branch of an ``if`` that is not taken while every config leaf
    ``switch`` accepts (``cfg.x``, ``cfg.get("x")``, ``cfg["x"]``, or a local name bound to such a read) has its
    unset value: the ``.get`` default, else off. ``if cfg.x:`` and ``if a and cfg.x:`` skip their body, ``if not
    cfg.x:`` its ``else``; a test that does not decide (``a or cfg.x``) skips neither."""
    bound = {
        target.id: node.value
        for node in ast.walk(function)
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }

    def unset(read: ast.expr) -> bool | None:
        found = _leaf_read(read, bound)
        if found is None or not switch(found[0]) or not _on_a_config(bound.get(getattr(read, "id", ""), read)):
            return None
        return False if found[1] is _UNSET else _truth(found[1])

    for node in ast.walk(function):
        if not isinstance(node, ast.If):
            continue
        taken = _test_truth(node.test, unset)
        skipped = node.body if taken is False else node.orelse if taken is True else []
        if any(s.lineno <= line <= (s.end_lineno or s.lineno) for s in skipped):
            return True
    return False


def _on_a_config(read: ast.expr) -> bool:
    """A read of a config's setting (``self.config.trainer.x``, ``cfg.get("x")``, ``args.x``), not of an object's
    own attribute (``self.async_rollout_mode``): only a setting can be a switch the launch leaves unset."""
    base = read.func.value if isinstance(read, ast.Call) and isinstance(read.func, ast.Attribute) else read
    words = (dotted_path(base) or "").lower().split(".")
    return any(w in ("config", "cfg", "conf", "args", "hparams") or w.endswith(("_config", "_cfg")) for w in words)


def _test_truth(test: ast.expr, leaf: Callable[[ast.expr], bool | None]) -> bool | None:
    """The truth of an ``if`` test built from reads whose truth ``leaf`` gives (None: not known) with ``not``,
    ``and`` and ``or``; None when that does not decide it."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _test_truth(test.operand, leaf)
        return None if inner is None else not inner
    if isinstance(test, ast.BoolOp):
        values = [_test_truth(v, leaf) for v in test.values]
        if isinstance(test.op, ast.And):
            return False if False in values else True if all(v is True for v in values) else None
        return True if True in values else False if all(v is False for v in values) else None
    return leaf(test)


def untaken_lines(tree: ast.AST, leaves: Mapping[str, object]) -> set[int]:
    """The lines of the import statements in a branch of an ``if`` that the launch's config values (``leaves``:
    leaf → value) do not take: a test of a leaf's truth or a comparison of it with literals (``== "disable"``,
    ``in ["auto", "enable"]``), the leaf read directly (``cfg.x``, ``cfg.get("x", default)``, ``cfg["x"]``) or
    through a name bound to such a read; an unset leaf has the ``get`` default."""
    skipped: set[int] = set()
    for function in [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module))]:
        bound: dict[str, ast.expr] = {}
        for node in ast.walk(function):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                bound[node.targets[0].id] = node.value
        for node in ast.walk(function):
            if not isinstance(node, ast.If):
                continue
            taken = _comparison_taken(node.test, bound, leaves)
            if taken is None:
                continue
            for statement in node.orelse if taken else node.body:
                skipped.update(n.lineno for n in ast.walk(statement) if isinstance(n, (ast.Import, ast.ImportFrom)))
    return skipped


def _leaf_read(node: ast.expr, bound: Mapping[str, ast.expr]) -> tuple[str, object] | None:
    """(leaf, default) of a config read: ``cfg.x`` / ``cfg["x"]`` (no default: _UNSET), ``cfg.get("x", d)``, or a
    name bound to one."""
    if isinstance(node, ast.Name) and node.id in bound:
        node = bound[node.id]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            default = node.args[1] if len(node.args) > 1 else None
            return node.args[0].value, default.value if isinstance(default, ast.Constant) else _UNSET
        return None
    if isinstance(node, ast.Attribute) and isinstance(node.value, (ast.Attribute, ast.Name)):
        return node.attr, _UNSET
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        return node.slice.value, _UNSET
    return None


_UNSET = object()


def _comparison_taken(test: ast.expr, bound: Mapping[str, ast.expr], leaves: Mapping[str, object]) -> bool | None:
    """Whether ``if test`` runs its body, for a comparison of a config leaf with literals; None: not decided."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and len(test.comparators) == 1):
        return None
    read = _leaf_read(test.left, bound)
    if read is None:
        return None
    leaf, default = read
    value = leaves.get(leaf, default)
    if value is _UNSET:
        return None
    return _compared(value, test.ops[0], test.comparators[0])


def _compared(value: object, op: ast.cmpop, right: ast.expr) -> bool | None:
    """``value OP literal`` for ``==``, ``!=`` with a scalar and ``in``, ``not in`` with a list, compared as text
    without case (a YAML ``True`` and a Python ``"true"`` are the same switch); None for anything else."""
    try:
        literal = ast.literal_eval(right)
    except ValueError:
        return None
    if isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(literal, (str, int, float, bool)):
        return (str(value).lower() == str(literal).lower()) == isinstance(op, ast.Eq)
    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(literal, (list, tuple, set)):
        return (str(value).lower() in {str(x).lower() for x in literal}) == isinstance(op, ast.In)
    return None


def assignment_targets(node: ast.AST) -> list[ast.expr]:
    """What an assignment statement (``=``, ``+=``, an annotated one) assigns to; [] for any other node."""
    if isinstance(node, ast.Assign):
        return list(node.targets)
    return [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []


def _target_leaf(target: ast.expr) -> str | None:
    if isinstance(target, ast.Attribute):
        return target.attr
    if isinstance(target, ast.Name):
        return target.id
    if (
        isinstance(target, ast.Subscript)
        and isinstance(target.slice, ast.Constant)
        and isinstance(target.slice.value, str)
    ):
        return target.slice.value
    return None


def validation_function(name: str | None) -> bool:
    """A function that only validates or evaluates (its batches are not trained on)."""
    return name is not None and bool(_VALIDATION.search(name.lower()))


@record
class _Index:
    """Per file: the innermost function of each statement, and the statements of each function."""

    function: dict[int, ast.AST]
    statements: dict[int, list[ast.stmt]]


class KeyEffects:
    """Where a config key that upstream lacks is read in project code, and what those reads do to batches.

    A read matches the key by its leaf and the segment above it (``cfg.actor.is_noisy`` for worker.actor.is_noisy,
    also through a name assigned that section); a leaf alone only when no upstream key ends with it. Reads in
    validation functions are skipped. A statement's effect is itself and the block its test guards (only the
    branch the launch's value takes, when the test is the value itself); a value assigned to a name or an
    attribute is followed to the statements that use it (two hops). ``x *= key`` with the value 1 does nothing.
    A read in a branch that the launch's values (``leaves``: leaf → value) do not take runs nothing."""

    def __init__(self, project: Project, paths: list[str], leaves: Mapping[str, object] | None = None) -> None:
        self.project, self.paths, self.leaves = project, paths, dict(leaves or {})
        self._indexes: dict[str, _Index] = {}

    def _index(self, path: str, tree: ast.Module) -> _Index:
        if path not in self._indexes:
            function: dict[int, ast.AST] = {}
            statements: dict[int, list[ast.stmt]] = {id(tree): []}
            for node in ast.walk(tree):  # breadth first: an inner function overwrites its outer one
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
                    for statement in _statements(node):
                        function[id(statement)] = node
            for statement in _statements(tree):
                statements.setdefault(id(function.get(id(statement), tree)), []).append(statement)
            self._indexes[path] = _Index(function, statements)
        return self._indexes[path]

    def effects(self, key: str, value: object, ambiguous_leaf: bool, ambiguous_parent: bool = False) -> list[Touch]:
        """The batch-forming statements that follow from reading ``key`` (its value ``value``). ``ambiguous_leaf``:
        upstream has a key of the same last word, so a read counts only under the key's section name (or an alias
        of it); ``ambiguous_parent``: upstream has one of the same section and last word too, so a read counts
        only under the section's own parent as well (``env.rollout.n`` read as ``cfg.env.rollout.n``)."""
        # A config read again as each candidate release asks the same of the same trees: answered once per process.
        trees = [(path, self.project.tree(path)) for path in self.paths]
        cache_key = (
            tuple((path, id(tree)) for path, tree in trees),
            key,
            repr(value),
            ambiguous_leaf,
            ambiguous_parent,
            repr(sorted(self.leaves.items(), key=str)),
        )
        cached = _EFFECTS.get(cache_key)
        if cached is not None and all(a is b for (_, a), b in zip(trees, cached[0], strict=True)):
            return list(cached[1])
        found = self._effects(trees, key, value, ambiguous_leaf, ambiguous_parent)
        if len(_EFFECTS) > MAX_CACHED:
            _EFFECTS.clear()
        _EFFECTS[cache_key] = ([tree for _, tree in trees], found)
        return list(found)

    def _effects(
        self,
        trees: list[tuple[str, ast.Module | None]],
        key: str,
        value: object,
        ambiguous_leaf: bool,
        ambiguous_parent: bool,
    ) -> list[Touch]:
        parts = key.lstrip("+").split(".")
        leaf, parent = parts[-1], parts[-2] if len(parts) > 1 else None
        grandparent = parts[-3] if ambiguous_parent and len(parts) > 2 else None
        truth = _truth(value)
        found: list[Touch] = []
        for path, tree in trees:
            if tree is None or leaf not in _leaves_read(tree):
                continue  # no statement of this file reads the key: nothing can follow from it
            section = [grandparent, parent] if grandparent is not None else [parent]
            aliases = {
                dotted_path(t)
                for n in ast.walk(tree)
                if isinstance(n, ast.Assign)
                and parent is not None
                and (dotted_path(n.value) or "").split(".")[-len(section) :] == section
                for t in n.targets
            } - {None}

            def matches(node: ast.AST, leaf: str = leaf, aliases: set[str | None] = aliases) -> bool:
                if not _reads_leaf(node, leaf):
                    return False
                base = (
                    node.value
                    if isinstance(node, (ast.Attribute, ast.Subscript))
                    else node.func.value
                    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    else None
                )
                text = dotted_path(base) if base is not None else None
                words = text.split(".") if text is not None else []
                near = bool(words) and (
                    (words[-1] == parent and (grandparent is None or words[-2:-1] == [grandparent])) or text in aliases
                )
                return near or not ambiguous_leaf

            found += self._follow(path, tree, matches, truth, value, depth=0)
        by_path = dict(trees)
        unique: dict[tuple[str, int, str], Touch] = {}
        for touch in found:
            tree_of = by_path.get(touch.path)
            spans = _dataset_spans(tree_of) if tree_of is not None else []
            if any(start <= touch.line <= end for start, end in spans):
                touch = replace(touch, kind="dataset", what=f"{touch.what} in a dataset class")
            unique.setdefault((touch.path, touch.line, touch.kind), touch)
        return list(unique.values())

    def _uses_all_here(self, path: str, target: ast.Name | ast.Attribute) -> bool:
        """Whether every use of what ``target`` names is in ``path``, where its uses are followed: a local name
        always; an attribute (self.x) when no other file read reads an attribute of that name (a subclass's)."""
        if isinstance(target, ast.Name):
            return True
        others = (self.project.tree(p) for p in self.paths if p != path)
        return not any(tree is not None and target.attr in _leaves_read(tree) for tree in others)

    def _follow(
        self,
        path: str,
        tree: ast.Module,
        matches: Callable[[ast.AST], bool],
        truth: bool | None,
        value: object,
        depth: int,
        within: ast.AST | None = None,
    ) -> list[Touch]:
        index = self._index(path, tree)
        statements = index.statements.get(id(within), []) if within is not None else _statements(tree)
        # the branches an `if` on the value itself leaves (`if rows == 0:` with rows None): nothing in them runs
        skipped = [
            (inner.lineno, inner.end_lineno or inner.lineno)
            for statement in statements
            if isinstance(statement, ast.If)
            and any(matches(n) for n in ast.walk(statement.test))
            and (taken := _taken(statement.test, matches, truth, value)) is not None
            for inner in (statement.orelse if taken else statement.body)
        ]
        found: list[Touch] = []
        for statement in statements:
            if any(start <= statement.lineno <= end for start, end in skipped):
                continue
            function = index.function.get(id(statement))
            if validation_function(getattr(function, "name", None)):
                continue
            if not any(matches(n) for e in _head(statement) for n in ast.walk(e)):
                continue
            if depth == 0 and self.leaves and untaken(tree, statement.lineno, self.leaves):
                continue  # behind another key's switch that the launch leaves off
            nodes, carried = _effect(statement, matches, truth, value)
            if _only_as_keyword(statement, matches):
                nodes, carried = [], None  # passed as another argument (shuffle=...): not a batch size
            if carried is not None and depth < 2 and carried[1] and self._uses_all_here(path, carried[0]):
                nodes = []  # the value stored as it is (self.x = cfg.x) decides nothing: its uses, followed, do
            text_splits = _text_splits(statement, matches, value)
            looped = _enclosing_loop_names(function, statement)
            touches = batch_touches(nodes, path, looped)
            found += [t for t in touches if not (t.kind == "rows" and t.line in text_splits)]
            if carried is None or depth >= 2:
                continue
            target, plain = carried
            if isinstance(target, ast.Name):

                def use(n: ast.AST, wanted: str = target.id) -> bool:
                    return isinstance(n, ast.Name) and n.id == wanted and isinstance(n.ctx, ast.Load)

                scope = function if function is not None and not isinstance(function, ast.Module) else None
            else:

                def use(n: ast.AST, wanted: str = target.attr) -> bool:
                    return (
                        isinstance(n, ast.Attribute)
                        and n.attr == wanted
                        and isinstance(n.value, ast.Name)
                        and n.value.id == "self"
                        and isinstance(n.ctx, ast.Load)
                    )

                scope = None
            found += self._follow(path, tree, use, truth if plain else None, value if plain else None, depth + 1, scope)
        return found


_DATASET_BASE = lazy(r"(?:^|\.)\w*Dataset$")


def _dataset_spans(tree: ast.Module) -> list[tuple[int, int]]:
    """The line spans of the classes deriving from a dataset class (``torch.utils.data.Dataset``,
    ``IterableDataset``, a project ``RLHFDataset``): what they filter or count is the dataset's rows, read once
    before training, not a step's batch. Kept per parsed tree."""
    return _kept(
        _SPANS,
        id(tree),
        tree,
        lambda: [
            (node.lineno, node.end_lineno or node.lineno)
            for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef) and any(_DATASET_BASE.search(dotted_path(b) or "") for b in node.bases)
        ],
    )


def _effect(
    statement: ast.stmt, matches: Callable[[ast.AST], bool], truth: bool | None, value: object
) -> tuple[list[ast.AST], tuple[ast.Name | ast.Attribute, bool] | None]:
    """The nodes a read in ``statement`` acts on, and the name/attribute it is stored in (with whether it is the
    value itself, so its truth carries over) to follow."""
    if isinstance(statement, (ast.If, ast.While)):
        taken = _taken(statement.test, matches, truth, value)
        if taken is None:
            return [statement.test, *statement.body, *statement.orelse], None
        return _branch(statement.body if taken else statement.orelse, matches, truth, value), None
    if isinstance(statement, (ast.For, ast.With)):
        return [*_head(statement), *statement.body], None
    if (
        isinstance(statement, ast.AugAssign)
        and _is_read(statement.value, matches)
        and (
            (isinstance(statement.op, (ast.Mult, ast.Div, ast.FloorDiv)) and _number(value) == 1)
            or (isinstance(statement.op, (ast.Add, ast.Sub)) and _number(value) == 0)
        )
    ):
        return [], None  # multiplying by one / adding zero changes nothing
    if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.IfExp):
        taken = _decided(statement.value.test, matches, truth)
        if taken is False and not any(matches(n) for n in ast.walk(statement.value.orelse)):
            return [], None  # the feature is off: the value is the other branch's, which does not use it
    target = (
        statement.targets[0]
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1
        else statement.target
        if isinstance(statement, (ast.AnnAssign, ast.AugAssign))
        else None
    )
    carried = None
    computed = (
        isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign))
        and statement.value is not None
        and _arithmetic(statement.value)
    )
    if computed and (
        isinstance(target, ast.Name)
        or (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self")
    ):
        plain = (
            isinstance(statement, (ast.Assign, ast.AnnAssign))
            and statement.value is not None
            and _is_read(statement.value, matches)
        )
        carried = (target, plain)
    return [statement], carried


def _arithmetic(node: ast.AST) -> bool:
    """A value computed from names, attributes and constants only (a copy, a product, a choice), so the name it
    is stored in carries the key; an object built from it (a data loader) does not."""
    return all(
        not isinstance(n, (ast.Call, ast.Lambda, ast.ListComp, ast.DictComp, ast.GeneratorExp))
        or (
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name)
            and n.func.id in ("int", "float", "bool", "min", "max", "round", "getattr")
        )
        or (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get")
        for n in ast.walk(node)
    )


def _only_as_keyword(statement: ast.stmt, matches: Callable[[ast.AST], bool]) -> bool:
    """Every read in a simple statement is the value of a call keyword that is not a batch or group size."""
    if isinstance(statement, (ast.If, ast.While, ast.For, ast.With)):
        return False
    reads = [n for n in ast.walk(statement) if matches(n)]
    inside = {
        id(n)
        for call in ast.walk(statement)
        if isinstance(call, ast.Call)
        for k in call.keywords
        if k.arg and "batch_size" not in k.arg and k.arg not in (*_GROUP_NAMES, "n_samples", "repeat_times")
        for n in ast.walk(k.value)
    }
    return bool(reads) and all(id(n) in inside for n in reads)


def _is_read(node: ast.AST, matches: Callable[[ast.AST], bool]) -> bool:
    """The value is the read itself (or int()/float()/bool() of it)."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("int", "float", "bool")
        and len(node.args) == 1
    ):
        node = node.args[0]
    return matches(node)


def _taken(test: ast.expr, matches: Callable[[ast.AST], bool], truth: bool | None, value: object) -> bool | None:
    """Whether an ``if`` on the value runs its body: a test of its truth (``_decided``), or of the value, known,
    against a literal (``rows == 0``, ``algorithm == "DCPO"``)."""
    if isinstance(test, ast.BoolOp):  # `key and other`: false when the key is; `key or other`: true when it is
        parts = [_taken(operand, matches, truth, value) for operand in test.values]
        deciding = isinstance(test.op, ast.Or)
        if deciding in parts:
            return deciding
        return (not deciding) if all(p is not None for p in parts) else None
    decided = _decided(test, matches, truth)
    # a value known as text (`algorithm=DCPO`: no truth of its own) still decides a comparison with a literal;
    # an unknown one (None with no truth, or a shell variable left as written) decides nothing
    known = truth is not None or (isinstance(value, str) and "$" not in value)
    if decided is not None or not known:
        return decided
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and matches(test.left):
        return _compared(value, test.ops[0], test.comparators[0])
    return None


def _branch(
    statements: list[ast.stmt], matches: Callable[[ast.AST], bool], truth: bool | None, value: object
) -> list[ast.AST]:
    """The statements of a branch taken, with an ``elif`` (or a nested ``if``) on the same value decided too."""
    out: list[ast.AST] = []
    for statement in statements:
        taken = _taken(statement.test, matches, truth, value) if isinstance(statement, ast.If) else None
        if isinstance(statement, ast.If) and taken is not None:
            out += _branch(statement.body if taken else statement.orelse, matches, truth, value)
        else:
            out.append(statement)
    return out


def _decided(test: ast.expr, matches: Callable[[ast.AST], bool], truth: bool | None) -> bool | None:
    """Whether an ``if`` on exactly the value (or its ``not``) runs its body, given the value's truth."""
    negated = False
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, negated = test.operand, not negated
    if truth is None or not matches(test):
        return None
    return truth != negated


def _truth(value: object) -> bool | None:
    if isinstance(value, bool):
        return value
    if value is None:
        return False
    if isinstance(value, (int, float)):
        return value != 0
    text = str(value).strip().lower()
    return (
        True
        if text in ("true", "yes", "on")
        else False
        if text in ("false", "no", "off", "null", "none", "", "0")
        else None
    )


def _text_splits(statement: ast.stmt, matches: Callable[[ast.AST], bool], value: object) -> set[int]:
    """The lines of ``statement`` that split or select by the key's value when that value is text, not a number
    (``resp.split(self.config.tool_call_end)[0]``): a separator or a column name, never a count of rows."""
    if not isinstance(value, str) or _number(value) is not None:
        return set()
    return {
        node.lineno
        for node in ast.walk(statement)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _ROW_CALLS
        and any(matches(n) for a in node.args for n in ast.walk(a))
    }


def _number(value: object) -> float | None:
    try:
        return float(value) if isinstance(value, (int, float, str)) and not isinstance(value, bool) else None
    except ValueError:
        return None


_UNDECIDED = object()  # a config read whose value the run's config does not give
_CONFIG_ROOTS = ("config", "cfg", "conf", "args")


@record
class RunConfig:
    """The run's config as dotted keys (``algorithm.filter.enable`` → value), and whether it is the whole config:
    a key it lacks is then absent from the run (``hasattr`` is false, ``.get`` gives its default)."""

    values: Mapping[str, object]
    complete: bool

    def value(self, read: ast.expr) -> object:
        """What a read of the config (``self.config.a.b``, ``cfg.a.get("b", d)``, ``getattr(args, "b", d)``)
        gives: the value; a dict for a mapping the config holds below it; _UNDECIDED when not known."""
        key, default = _config_key(read)
        if key is None:
            return _UNDECIDED
        if key in self.values:
            return self.values[key]
        if any(k.startswith(f"{key}.") for k in self.values):
            return {}
        if default is not _UNSET:
            return default if self.complete else _UNDECIDED
        return _UNDECIDED

    def truth(self, test: ast.expr) -> bool | None:
        """The truth of an ``if`` test on the config, three-valued (None: the config does not decide it):
        ``not``, ``and``, ``or``; a read's truth; ``is None`` / ``is not None``; ``==``, ``!=``, ``in`` with
        literals; ``hasattr(cfg.a, "b")``."""
        return _test_truth(test, self._leaf)

    def _leaf(self, test: ast.expr) -> bool | None:
        if isinstance(test, ast.Constant):
            return bool(test.value)
        if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "hasattr":
            name = test.args[1] if len(test.args) == 2 else None
            if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
                return None
            base, _ = _config_key(test.args[0])
            if base is None and not _is_config_root(test.args[0]):
                return None
            key = f"{base}.{name.value}" if base else name.value
            held = key in self.values or any(k.startswith(f"{key}.") for k in self.values)
            return True if held else (False if self.complete else None)
        if isinstance(test, ast.Compare) and len(test.ops) == 1:
            value = self.value(test.left)
            right = test.comparators[0]
            if value is _UNDECIDED:
                return None
            op = test.ops[0]
            if isinstance(op, (ast.Is, ast.IsNot)) and isinstance(right, ast.Constant) and right.value is None:
                return (value is None) == isinstance(op, ast.Is)
            return _compared(value, op, right)
        value = self.value(test)
        if value is _UNDECIDED:
            return None
        return bool(value) if isinstance(value, dict) else _truth(value)


def _config_key(read: ast.expr) -> tuple[str | None, object]:
    """(dotted key below the config's root, the ``.get`` / ``getattr`` default or _UNSET) of a read of the run's
    config (``self.config.a.b``, ``config.a.get("b", d)``, ``getattr(self.args, "b", d)``); (None, _UNSET) for
    anything else (a local alias of a sub-config is not the root)."""
    if isinstance(read, ast.Call) and read.args:
        func, given = read.func, read.args
        if isinstance(func, ast.Name) and func.id == "getattr" and len(given) in (2, 3):
            inner, name, rest = given[0], given[1], given[2:]
        elif isinstance(func, ast.Attribute) and func.attr == "get" and len(given) in (1, 2):
            inner, name, rest = func.value, given[0], given[1:] or [ast.Constant(None)]
        else:
            return None, _UNSET
        if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
            return None, _UNSET
        base, _ = _config_key(inner)
        if base is None and not _is_config_root(inner):
            return None, _UNSET
        default = _UNSET if not rest else rest[0].value if isinstance(rest[0], ast.Constant) else _UNDECIDED
        return (f"{base}.{name.value}" if base else name.value), default
    if isinstance(read, ast.Subscript) and isinstance(read.slice, ast.Constant) and isinstance(read.slice.value, str):
        base, _ = _config_key(read.value)
        if base is None and not _is_config_root(read.value):
            return None, _UNSET
        return (f"{base}.{read.slice.value}" if base else read.slice.value), _UNSET
    if isinstance(read, ast.Attribute):
        if _is_config_root(read.value):
            return read.attr, _UNSET
        base, _ = _config_key(read.value)
        return (f"{base}.{read.attr}" if base else None), _UNSET
    return None, _UNSET


def _is_config_root(node: ast.expr) -> bool:
    """``config``, ``cfg``, ``args`` or ``self.config``: the root of the run's config as a trainer holds it."""
    path = dotted_path(node) or ""
    return path.removeprefix("self.") in _CONFIG_ROOTS


def decided_away(function: ast.AST, line: int, config: RunConfig) -> bool:
    """Whether the statement at ``line`` does not run under the run's ``config``: it sits in a branch of an ``if``
    the config decides against, or after an ``if`` the config takes whose body ends in ``return`` or ``raise``
    (``if not self.config.x.enable: return``)."""
    for node in ast.walk(function):
        if isinstance(node, ast.If) and any(_holds(s, line) for s in node.body + node.orelse):
            taken = config.truth(node.test)
            if taken is not None and any(_holds(s, line) for s in (node.orelse if taken else node.body)):
                return True
        for block in (getattr(node, name, None) for name in ("body", "orelse", "finalbody")):
            if not isinstance(block, list):
                continue
            for index, statement in enumerate(block):
                if (
                    isinstance(statement, ast.If)
                    and statement.body
                    and isinstance(statement.body[-1], (ast.Return, ast.Raise))
                    and any(_holds(s, line) for s in block[index + 1 :])
                    and config.truth(statement.test) is True
                ):
                    return True
    return False


def _holds(statement: ast.AST, line: int) -> bool:
    return getattr(statement, "lineno", 0) <= line <= (getattr(statement, "end_lineno", None) or 0)


def instance_settings(
    init: ast.FunctionDef | ast.AsyncFunctionDef, methods: list[ast.FunctionDef | ast.AsyncFunctionDef]
) -> dict[str, ast.expr]:
    """What each of a class's settings (``self.x``, set in ``__init__`` and nowhere else among ``methods``) holds,
    as an expression: ``self.x = <expr>`` at the top of ``__init__``; or a flag first set false (``self.x =
    False``) and set ``True`` only in the body of one ``if <test>:`` there, which then holds ``<test>``. An earlier
    setting read in a later one stands for its expression."""
    stores: dict[str, int] = {}
    for method in methods:
        for node in ast.walk(method):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and _on_self(node):
                stores[node.attr] = stores.get(node.attr, 0) + 1
    found: dict[str, ast.expr] = {}
    off: set[str] = set()
    for statement in init.body:
        if isinstance(statement, ast.If) and not statement.orelse:
            for inner in statement.body:
                name = _self_assigned(inner)
                if name in off and stores.get(name) == 2 and _constant(inner, True):
                    found[name] = substitute(statement.test, found)
            continue
        name = _self_assigned(statement)
        if name is None or not isinstance(statement, ast.Assign):
            continue
        if _constant(statement, False) or _constant(statement, None):
            off.add(name)
        elif stores.get(name) == 1:
            found[name] = substitute(statement.value, found)
    return found


def _on_self(node: ast.Attribute) -> bool:
    return isinstance(node.value, ast.Name) and node.value.id == "self"


def _self_assigned(statement: ast.stmt) -> str | None:
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        if isinstance(target, ast.Attribute) and _on_self(target):
            return target.attr
    return None


def _constant(statement: ast.stmt, value: object) -> bool:
    return (
        isinstance(statement, ast.Assign)
        and isinstance(statement.value, ast.Constant)
        and statement.value.value is value
    )


def substitute(tree: ast.AST, settings: Mapping[str, ast.expr]) -> Any:
    """A copy of ``tree`` in which each read of a setting (``self.x``) stands for the expression it holds, on the
    read's line."""
    if not settings:
        return tree

    class Inline(ast.NodeTransformer):
        def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
            if isinstance(node.ctx, ast.Load) and _on_self(node) and node.attr in settings:
                return ast.copy_location(copy.deepcopy(settings[node.attr]), node)
            return self.generic_visit(node)

    return Inline().visit(copy.deepcopy(tree))
