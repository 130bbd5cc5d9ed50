"""Many configs at once: expand PATH... (files, directories, globs) into the configs to read, chosen by
content, and run check / explain / translate on each in one process. A file that cannot be read gives
that file exit code 2 and the others go on; the run exits with the worst code.

Selection (see docs/many-files.md):
- one file named alone is always read (the single-file commands; a wrong one is exit 2);
- otherwise every file (named, found in a directory or by a glob) is read when its content looks like a
  config (so pre-commit can pass every changed .sh/.yaml/.toml file): a script with a
  known launcher line, a YAML with a known key tree, a plan file (TOML with a ``[plan]`` table, JSON with
  ``"plan"``), using the registry's detection patterns (translator/dialects/sniff.py), which import no dialect;
- a file that a selected launch script names (a YAML in ``config=...``, a recipe or an accelerate
  config) is read as part of that script and not reported again on its own.
"""

from __future__ import annotations

import contextlib
import fnmatch
import glob
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import field
from pathlib import Path
from typing import Any, NoReturn

from translator import rules
from translator.records import record
from translator.results import EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, FileResult, Skipped, worst

SCRIPT_SUFFIXES = ("", ".sh", ".bash", ".slurm", ".sbatch")  # batch scripts are shell scripts too
CONFIG_SUFFIXES = (".sh", ".bash", ".slurm", ".sbatch", ".yaml", ".yml", ".toml", ".json")
MAX_SNIFF_BYTES = 1_000_000  # bigger files are not configs
PROGRESS_THRESHOLD = 5  # more files than this get a progress bar on a terminal
_SKIP_DIRS = {".git", ".hg", ".svn", "__pycache__", "node_modules", ".venv", "venv", ".tox", ".mypy_cache"}
# a config file a script names (starting where a run of path characters starts: the same matches, without trying
# every position inside a long word)
_REFERENCE = re.compile(r"(?<![\w./~-])[\w./~-]+\.(?:ya?ml|json|toml)\b")
_PLAN_TOML = re.compile(r"^\[plan\]", re.M)
_PLAN_JSON = re.compile(r'"plan"\s*:')


@record
class Selected:
    """One config to read: its path as shown, and the root its relative layout is taken from."""

    path: Path
    root: Path
    explicit: bool = False

    @property
    def relative(self) -> Path:
        try:
            return self.path.relative_to(self.root)
        except ValueError:
            return Path(self.path.name)


@record
class Selection:
    configs: list[Selected] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # arguments that named nothing
    refused: list[Skipped] = field(default_factory=list)  # named on their own but not readable as a file (exit 2)


STDIN = Path("-")


def select(paths: Iterable[str], excludes: Iterable[str] = (), avoid: Iterable[str] = ()) -> Selection:
    """The configs that PATH... name, in a stable order, with what was skipped and why. Nothing under a
    folder in ``avoid`` (the output folder of a translation) is selected: earlier output is not input."""
    excludes = list(excludes)
    avoided = [_real(Path(a)) for a in avoid]
    selection = Selection()
    seen: set[Path] = set()
    for argument in paths:
        for candidate, root, explicit in _expand(argument, selection, avoided):
            key = STDIN if candidate == STDIN else _real(candidate)
            if key in seen:
                continue
            seen.add(key)
            if any(key == a or a in key.parents for a in avoided):
                selection.skipped.append(Skipped(str(candidate), "in the output folder"))
            elif _excluded(candidate, root, excludes):
                selection.skipped.append(Skipped(str(candidate), "excluded"))
            else:
                reason = None if candidate == STDIN else _not_config(candidate)
                if reason and explicit and reason.startswith(("not a regular file", "cannot read")):
                    selection.refused.append(Skipped(str(candidate), reason))
                elif reason:
                    selection.skipped.append(Skipped(str(candidate), reason))
                else:
                    selection.configs.append(Selected(candidate, root, explicit))
    _drop_referenced(selection)
    return selection


def _real(path: Path) -> Path:
    """The path with symbolic links resolved; a link loop does not raise (Path.resolve raises RuntimeError
    before Python 3.13; os.path.realpath stops at the loop)."""
    return Path(os.path.realpath(path))


def _expand(argument: str, selection: Selection, avoided: list[Path]) -> Iterator[tuple[Path, Path, bool]]:
    path = Path(argument)
    if argument == "-":
        yield STDIN, Path("."), True
    elif path.is_dir():
        yield from ((f, path, False) for f in _walk(path, avoided))
    elif os.path.lexists(argument):  # an existing file first: 'run[1].sh' is that file, not a glob
        yield path, path.parent, True
    elif glob.has_magic(argument):
        matched = sorted(glob.glob(argument, recursive=True))
        if not matched:
            selection.missing.append(argument)
        root = Path(_glob_prefix(argument))
        for name in matched:
            found = Path(name)
            if found.is_dir():
                yield from ((f, found, False) for f in _walk(found, avoided))
            elif found.is_file():
                yield found, root, False
    else:
        selection.missing.append(argument)


def _glob_prefix(pattern: str) -> str:
    """The directory part of a glob before its first wildcard (the root of the relative layout)."""
    parts = []
    for part in Path(pattern).parts:
        if glob.has_magic(part):
            break
        parts.append(part)
    return str(Path(*parts)) if parts else "."


def _walk(directory: Path, avoided: list[Path]) -> Iterator[Path]:
    # os.walk follows no directory link (no loop), and a folder in ``avoided`` is not entered at all
    for current, subdirs, files in os.walk(directory):
        subdirs[:] = sorted(d for d in subdirs if d not in _SKIP_DIRS and _real(Path(current) / d) not in avoided)
        for name in sorted(files):
            yield Path(current) / name


def _excluded(path: Path, root: Path, patterns: list[str]) -> bool:
    """--exclude GLOB matches the path as given, the path below its root, or the file name."""
    forms = {path.as_posix(), path.name}
    with contextlib.suppress(ValueError):
        forms.add(path.relative_to(root).as_posix())
    return any(
        fnmatch.fnmatch(form, pattern) or fnmatch.fnmatch(form, pattern.rstrip("/") + "/*")
        for form in forms
        for pattern in patterns
    )


def _not_config(path: Path) -> str | None:
    """Why a file found while walking is not a config (None when it is one)."""
    import stat

    from translator.dialects.sniff import known_script, known_yaml

    suffix = path.suffix.lower()
    if suffix not in CONFIG_SUFFIXES and suffix not in SCRIPT_SUFFIXES:
        return "not a config file type"
    from translator import dialects

    for name in dialects.names():  # a copy of a framework kept in a project ships its defaults, not a run
        template = dialects.get(name).copy_config
        if template and path.as_posix().endswith("/" + template):
            return f"the default config of a {name} copy"
    try:
        # stat, not open: a FIFO would block the open forever and a device (/dev/zero behind a link) never ends
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):
            return "not a regular file (a FIFO, device, socket or directory)"
        if status.st_size > MAX_SNIFF_BYTES:
            return "too large for a config"
        with path.open("rb") as stream:  # bounded: the file may have grown since the stat
            data = stream.read(MAX_SNIFF_BYTES + 1)
        if len(data) > MAX_SNIFF_BYTES:
            return "too large for a config"
    except OSError as exc:
        return f"cannot read: {exc.strerror or type(exc).__name__}"
    if b"\0" in data:
        return "binary"
    text = data.decode("utf-8", errors="replace")
    if suffix in (".yaml", ".yml"):
        from translator.sources.launchers import launcher_kind

        known = known_yaml(text) or (launcher_kind(text) is not None and known_script(text))
        return None if known else "YAML without a known key tree or launcher"
    if suffix == ".toml":
        return None if _PLAN_TOML.search(text) else "TOML without a [plan] table"
    if suffix == ".json":
        return None if _PLAN_JSON.search(text) and '"framework"' in text else "JSON without a plan"
    if suffix == "" and not text.startswith("#!"):
        return "not a script"
    return None if known_script(text) else "script without a known launcher"


def _drop_referenced(selection: Selection) -> None:
    """A YAML that a selected launch script names is read with that script: skip it on its own."""
    by_path = {_real(s.path): s for s in selection.configs if s.path != STDIN}
    referenced: dict[Path, Path] = {}
    cwd = Path.cwd()
    for item in selection.configs:
        if item.path == STDIN or item.path.suffix.lower() not in SCRIPT_SUFFIXES:
            continue
        try:  # a selected config is a regular file below MAX_SNIFF_BYTES (checked by _not_config)
            with item.path.open("rb") as stream:
                text = stream.read(MAX_SNIFF_BYTES + 1).decode("utf-8", errors="replace")
        except OSError:
            continue
        for name in _REFERENCE.findall(text):
            relative = os.path.expanduser(name)
            # Without '..' in the name, a path that does not exist resolves to none that does (resolving costs
            # a system call per part; the check, one).
            plain = ".." not in Path(relative).parts
            for base in (item.path.parent, cwd):
                candidate = base / relative
                if plain and not candidate.exists():
                    continue
                target = _real(candidate)
                if target in by_path and target != _real(item.path):
                    referenced.setdefault(target, item.path)
                    break
    if not referenced:
        return
    kept = []
    for item in selection.configs:
        owner = None if item.path == STDIN else referenced.get(_real(item.path))
        if owner is None:
            kept.append(item)
        else:
            selection.skipped.append(Skipped(str(item.path), f"read with {owner}"))
    selection.configs = kept


# ---- the per-file loop -------------------------------------------------------------------------------


def _guarded(path: str, action: Callable[[], FileResult]) -> FileResult:
    """Run one file; bad input and bugs become that file's result, never a traceback or an early stop."""
    from translator.errors import classify

    try:
        return action()
    except Exception as error:
        code, message = classify(error, path)
        return FileResult(path, code, error=message)


@record
class Options:
    framework: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    num_processes: int | None = None
    strict: bool = False
    dataset_size: int | None = None
    choice: Any = None  # rules.Choice: the codes --select / --ignore leave to report
    show_suppressed: bool = False


def run_check(item: Selected, options: Options) -> FileResult:
    from translator import api

    def action() -> FileResult:
        source = _read(item)
        report = api.check(source, options.framework, options.env, options.num_processes)
        report = rules.filter_report(report, source.text, options.choice)
        return FileResult(
            str(item.path),
            EXIT_FINDINGS if report.fails(options.strict) else EXIT_OK,
            report.framework,
            report.version,
            text=source.text,
            report=report,
        )

    return _guarded(str(item.path), action)


def run_explain(item: Selected, options: Options) -> FileResult:
    from translator import api

    def action() -> FileResult:
        explanation = api.explain(
            _read(item), options.framework, options.env, options.num_processes, dataset_size=options.dataset_size
        )
        return FileResult(str(item.path), EXIT_OK, explanation.framework, explanation.version, explanation=explanation)

    return _guarded(str(item.path), action)


Write = Callable[[dict[str, str], Path, bool], list[str]]  # files, folder, force → the names written


def run_translate(
    item: Selected,
    options: Options,
    target: str,
    output_dir: Path,
    force: bool,
    folders: dict[Path, str],
    write_files: Write,
) -> FileResult:
    from translator import api

    def action() -> FileResult:
        source = _read(item)
        translation = api.translate(source, target, options.framework, options.env, options.num_processes)
        translation = rules.filter_translation(translation, source.text, options.choice)
        folder = output_dir / folders[item.path]
        written = write_files(translation.files, folder, force)
        return FileResult(
            str(item.path),
            EXIT_FINDINGS if translation.fails(options.strict) else EXIT_OK,
            translation.source.framework,
            translation.source.version,
            text=source.text,
            translation=translation,
            written=written,
            output_dir=str(folder),
        )

    return _guarded(str(item.path), action)


def output_folders(configs: list[Selected]) -> dict[Path, str]:
    """One subfolder per source, never shared: its path below its root without the suffix; on a clash the
    suffix kept (run.sh, run.yaml → run_sh, run_yaml); still a clash (a/run.sh, b/run.sh named one by one) the
    path as given mirrored (a/run_sh, b/run_sh); and as a last resort a number."""

    def count(names: Iterable[str]) -> dict[str, int]:
        counts: dict[str, int] = {}
        for name in names:
            counts[name] = counts.get(name, 0) + 1
        return counts

    def suffixed(path: Path, name: str) -> str:
        return name + "_" + path.suffix.lstrip(".") if path.suffix else name

    folders = {
        item.path: "stdin" if item.path == STDIN else item.relative.with_suffix("").as_posix() for item in configs
    }
    counts = count(folders.values())
    folders = {p: suffixed(p, n) if counts[n] > 1 else n for p, n in folders.items()}
    counts = count(folders.values())
    folders = {p: _mirrored(p) if counts[n] > 1 else n for p, n in folders.items()}
    used: set[str] = set()
    for path, name in folders.items():
        unique, number = name, 1
        while unique in used:
            number += 1
            unique = f"{name}_{number}"
        used.add(unique)
        folders[path] = unique
    return folders


def _mirrored(path: Path) -> str:
    """The path as given as a folder below -o: no root, no '..', the suffix kept as _SUFFIX."""
    parts = [part for part in path.parts if part not in ("..", ".") and part != path.anchor]
    name = Path(*parts) if parts else Path("source")
    return (name.with_suffix("").as_posix() + "_" + path.suffix.lstrip(".")) if path.suffix else name.as_posix()


def _read(item: Selected) -> Any:
    from translator.sources.files import read_source

    if item.path == STDIN:
        from translator.api import stdin_source

        return stdin_source(sys.stdin.read())
    return read_source(str(item.path))


def run_all(configs: list[Selected], one: Callable[[Selected], FileResult], label: str) -> list[FileResult]:
    """Each config in turn, with a progress bar on standard error when it is a terminal and there are many."""
    if len(configs) <= PROGRESS_THRESHOLD or not _stderr_is_terminal():
        return [one(item) for item in configs]
    import click

    results = []
    with click.progressbar(configs, label=label, file=sys.stderr) as bar:
        for item in bar:
            results.append(one(item))
    return results


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def missing_results(selection: Selection) -> list[FileResult]:
    """An argument that names nothing, or a file named on its own that cannot be read (a FIFO, a device), is
    an unreadable input (exit 2), reported like a file."""
    return [
        FileResult(name, EXIT_INPUT, error=f"{name}: no such file, directory or glob match")
        for name in selection.missing
    ] + [FileResult(r.path, EXIT_INPUT, error=f"{r.path}: {r.reason}") for r in selection.refused]


# ---- the commands (called from translator/cli.py when PATH... names more than one file) ----------------


class UsageError(Exception):
    """A many-file command asked for what it cannot do (exit 2; the CLI says so)."""


def _fail(message: str) -> NoReturn:
    raise UsageError(message)


def _json(document: Any) -> str:
    from translator.jsontext import dumps

    return dumps(document) + "\n"


def _select_some(paths: Iterable[str], excludes: Iterable[str], avoid: Iterable[str] = ()) -> Selection:
    """The selection; finding no config at all is an input error (a wrong path in CI must not pass)."""
    paths = list(paths)
    selection = select(paths, excludes, avoid)
    if not selection.configs and not selection.missing and not selection.refused:
        _fail(
            f"no config found in {' '.join(paths)} ({len(selection.skipped)} skipped: not a launch "
            "script, recipe or plan by content)"
        )
    return selection


def check_command(
    paths: Iterable[str], excludes: Iterable[str], options: Options, output_format: str
) -> tuple[str, int]:
    from translator import reports

    selection = _select_some(paths, excludes)
    results = missing_results(selection) + run_all(selection.configs, lambda i: run_check(i, options), "checking")
    if output_format == "json":
        text = _json(reports.check_json(results, selection.skipped))
    elif output_format == "github":
        text = reports.check_github(results, selection.skipped)
    elif output_format == "sarif":
        text = _json(reports.check_sarif(results, selection.skipped, _version()))
    else:
        text = reports.check_text(results, selection.skipped, options.show_suppressed)
    return text, worst(results)


def explain_command(
    paths: Iterable[str], excludes: Iterable[str], options: Options, output_format: str
) -> tuple[str, int]:
    from translator import reports

    if output_format == "toml":
        _fail("--format toml takes one config; use json for many")
    selection = _select_some(paths, excludes)
    results = missing_results(selection) + run_all(selection.configs, lambda i: run_explain(i, options), "explaining")
    text = (
        _json(reports.explain_json(results, selection.skipped))
        if output_format == "json"
        else reports.explain_text(results, selection.skipped)
    )
    return text, worst(results)


def translate_command(
    paths: Iterable[str],
    excludes: Iterable[str],
    options: Options,
    target: str,
    output_dir: str | None,
    force: bool,
    output_format: str,
    write_files: Write,
) -> tuple[str, int]:
    from translator import reports

    if output_dir is None:
        _fail("translating several configs needs -o OUTDIR (one subfolder per source)")
    selection = _select_some(paths, excludes, [output_dir])
    folders = output_folders(selection.configs)
    results = missing_results(selection) + run_all(
        selection.configs,
        lambda i: run_translate(i, options, target, Path(output_dir), force, folders, write_files),
        "translating",
    )
    text = (
        _json(reports.translate_json(results, selection.skipped, target))
        if output_format == "json"
        else reports.translate_text(results, selection.skipped, target, options.show_suppressed)
    )
    return text, worst(results)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rlconf")
    except PackageNotFoundError:
        return "0.0.0"
