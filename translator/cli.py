"""The ``rlconf`` command: a thin click layer over the library.

Exit codes: 0 ok; 1 findings (check errors, diff differences, a translation written with error-level notes or one
the target would reject; warnings, and check's skipped rules, under --strict); 2 bad input or a refusal to write;
3 an internal error."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

import click

from translator.errors import ConfigError

if TYPE_CHECKING:
    from pathlib import Path

EXIT_OK, EXIT_FINDINGS, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2, 3


def _env_pairs(ctx: click.Context, param: click.Parameter, pairs: tuple[str, ...]) -> dict[str, str]:
    env = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name.strip():
            raise click.BadParameter(f"'{pair}' is not NAME=VALUE", ctx=ctx, param=param)
        env[name.strip()] = value
    return env


def input_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The options every command that reads a config shares."""
    command = click.option(
        "--num-processes", type=click.IntRange(min=1), help="Training world size where the config does not state it."
    )(command)
    command = click.option(
        "--env",
        "env",
        multiple=True,
        callback=_env_pairs,
        metavar="NAME=VALUE",
        help="A shell variable the script expects (repeatable).",
    )(command)
    command = click.option(
        "--from", "framework", metavar="FW[@VER]", help="Source framework (and version); detected when omitted."
    )(command)
    return command


# ---- many files (translator/many.py): PATH... with directories, globs and --exclude ----
def many_options(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--exclude",
        "excludes",
        multiple=True,
        metavar="GLOB",
        help="Leave out paths matching GLOB (repeatable; with directories and globs).",
    )(command)


def _many(srcs: tuple[str, ...]) -> bool:
    """Several paths, a directory or a glob go to translator/many.py; one file keeps the single-file output.
    (os.path and the characters of glob.has_magic: pathlib and glob are not imported for one file.)"""
    return len(srcs) != 1 or (
        srcs[0] != "-"
        and (os.path.isdir(srcs[0] or ".") or (any(c in srcs[0] for c in "*?[") and not os.path.lexists(srcs[0])))
    )


def code_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--select / --ignore / --show-suppressed (translator/rules.py, docs/rules.md)."""
    command = click.option(
        "--show-suppressed",
        is_flag=True,
        help="List the findings that '# rlconf: ignore' comments in the configs silence.",
    )(command)
    command = click.option(
        "--ignore",
        "ignored",
        multiple=True,
        metavar="CODE[,CODE...]",
        help="Never report these codes (prefixes such as keys. and globs such as batch.* too).",
    )(command)
    command = click.option(
        "--select",
        "selected",
        multiple=True,
        metavar="CODE[,CODE...]",
        help="Report only these codes (prefixes and globs too); `rlconf rules` lists them.",
    )(command)
    return command


def _choice(selected: tuple[str, ...], ignored: tuple[str, ...]) -> Any:
    from translator import rules

    return rules.choice(selected, ignored)


def _source_of(src: str) -> Any:
    """The file (or standard input) read once: the command reads its config and its suppression comments."""
    from translator import api

    return api.source(_path(src), _stdin(src))


class GuardedGroup(click.Group):
    """The one guard around every command (file selection, reading, rendering, writing, many-file runs): an
    exception that escapes becomes one line on stderr and exit 2 (bad input, a recursion too deep, memory, a file
    system error) or 3 (a bug), never a traceback and never 1, which means findings."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().main(*args, **kwargs)
        except Exception as error:
            from translator.errors import classify

            code, message = classify(error)
            kind = "" if message.startswith(("internal error", "rlconf")) else "error: "
            click.echo(f"rlconf: {kind}{message}", err=True)
            sys.exit(code)


@click.group(cls=GuardedGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rlconf")
def main() -> None:
    """Translate RL post-training configs between frameworks (`rlconf frameworks` lists them) through one batch
    plan in explicit units."""


@main.command()
@click.argument("srcs", nargs=-1, required=True, metavar="PATH...")
@input_options
@many_options
@click.option(
    "--dataset-size",
    type=click.IntRange(min=1),
    metavar="PROMPTS",
    help="Prompts in the training set, to state the run length in steps and samples.",
)
@click.option(
    "--format", "output_format", type=click.Choice(["text", "json", "toml"]), default="text", show_default=True
)
def explain(
    srcs: tuple[str, ...],
    framework: str | None,
    env: dict[str, str],
    num_processes: int | None,
    excludes: tuple[str, ...],
    dataset_size: int | None,
    output_format: str,
) -> None:
    """Show the batch plan of each PATH (a file, - for standard input, a directory or a glob) with units and
    derivations."""
    if _many(srcs):
        from translator import many

        _many_done(
            lambda: many.explain_command(
                srcs, excludes, many.Options(framework, env, num_processes, False, dataset_size), output_format
            )
        )
    from translator import api, render

    src = srcs[0]

    explanation = api.explain(_path(src), framework, env, num_processes, _stdin(src), dataset_size)
    if output_format == "json":
        click.echo(_json(explanation.to_dict()))
    elif output_format == "toml":
        from translator.dialects.rlconf import to_toml

        click.echo(to_toml(explanation.spec, redacted=True), nl=False)
    else:
        click.echo(render.explanation_text(explanation), nl=False)


@main.command()
@click.argument("srcs", nargs=-1, required=True, metavar="PATH...")
@click.option("--to", "target", required=True, metavar="FW[@VER]", help="Target framework (and version).")
@input_options
@many_options
@click.option("-o", "--output", "output_dir", type=click.Path(file_okay=False), help="Write the files into DIR.")
@click.option("--force", is_flag=True, help="Overwrite existing files in DIR.")
@click.option("--strict", is_flag=True, help="Exit 1 when any warning was noted (errors always exit 1).")
@code_options
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def translate(
    srcs: tuple[str, ...],
    target: str,
    framework: str | None,
    env: dict[str, str],
    num_processes: int | None,
    excludes: tuple[str, ...],
    output_dir: str | None,
    force: bool,
    strict: bool,
    selected: tuple[str, ...],
    ignored: tuple[str, ...],
    show_suppressed: bool,
    output_format: str,
) -> None:
    """Write each PATH as a config for another framework (and version), and report what could not be kept.
    Several files, a directory or a glob need -o OUTDIR: one subfolder per source, same relative layout."""
    choice = _choice(selected, ignored)
    if _many(srcs):
        from translator import many

        _many_done(
            lambda: many.translate_command(
                srcs,
                excludes,
                many.Options(framework, env, num_processes, strict, None, choice, show_suppressed),
                target,
                output_dir,
                force,
                output_format,
                write_files,
            )
        )
    from translator import api, render, reports, rules

    source = _source_of(srcs[0])
    translation = rules.filter_translation(
        api.translate(source, target, framework, env, num_processes), source.text, choice
    )
    if output_dir:
        from pathlib import Path

        written = write_files(translation.files, Path(output_dir), force)
    else:
        written = None
    if output_format == "json":
        document = translation.to_dict()
        if written is not None:
            document["written"] = written
        click.echo(_json(document))
    else:
        click.echo(render.translation_text(translation, written), nl=False)
        for line in reports.suppressed_text(translation.suppressed, show_suppressed):
            click.echo(line)
    if translation.fails(strict):  # written, but the target would reject it (or --strict)
        sys.exit(EXIT_FINDINGS)


@main.command()
@click.argument("srcs", nargs=-1, required=True, metavar="PATH...")
@input_options
@many_options
@click.option("--strict", is_flag=True, help="Exit 1 on warnings and on rules skipped for want of an input too.")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "github", "sarif"]),
    default="text",
    show_default=True,
    help="github: workflow annotations; sarif: SARIF 2.1.0 (code scanning).",
)
@code_options
def check(
    srcs: tuple[str, ...],
    framework: str | None,
    env: dict[str, str],
    num_processes: int | None,
    excludes: tuple[str, ...],
    strict: bool,
    output_format: str,
    selected: tuple[str, ...],
    ignored: tuple[str, ...],
    show_suppressed: bool,
) -> None:
    """Check each PATH (a file, - for standard input, a directory or a glob) against its framework's own rules
    for its version; suggest the nearest valid values. Exit with the worst code over all files.
    '# rlconf: ignore[CODE]' comments in a config silence its findings (docs/rules.md)."""
    choice = _choice(selected, ignored)
    if _many(srcs) or output_format in ("github", "sarif"):
        from translator import many

        _many_done(
            lambda: many.check_command(
                srcs,
                excludes,
                many.Options(framework, env, num_processes, strict, None, choice, show_suppressed),
                output_format,
            )
        )
    from translator import api, reports, rules

    source = _source_of(srcs[0])
    report = rules.filter_report(api.check(source, framework, env, num_processes), source.text, choice)
    if output_format == "json":
        click.echo(_json(report.to_dict()))
    else:
        click.echo(reports.one_check_text(report, show_suppressed), nl=False)
    if report.fails(strict):
        sys.exit(EXIT_FINDINGS)


@main.command()
@click.argument("a")
@click.argument("b")
@click.option(
    "--from",
    "frameworks",
    multiple=True,
    metavar="FW[@VER]",
    help="Framework of A and B (once for both, or twice: A then B); detected when omitted.",
)
@click.option(
    "--env",
    "env",
    multiple=True,
    callback=_env_pairs,
    metavar="NAME=VALUE",
    help="A shell variable the scripts expect (repeatable).",
)
@click.option(
    "--num-processes",
    "num_processes",
    multiple=True,
    type=click.IntRange(min=1),
    help="Training world size where a config does not state it (once for both, or A then B).",
)
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def diff(
    a: str, b: str, frameworks: tuple[str, ...], env: dict[str, str], num_processes: tuple[int, ...], output_format: str
) -> None:
    """Compare two configs (of any frameworks) on the canonical model; exit 1 when anything differs."""
    from translator import api, compare, render

    def pick(values: tuple[Any, ...], index: int, option: str) -> Any:
        if len(values) > 2:
            click.echo(f"rlconf: error: {option} is given at most twice (A, then B)", err=True)
            sys.exit(EXIT_INPUT)
        return values[min(index, len(values) - 1)] if values else None

    if "-" in (a, b) and a == b:
        click.echo("rlconf: error: only one of A and B can be standard input", err=True)
        sys.exit(EXIT_INPUT)
    left = api.load(_path(a), pick(frameworks, 0, "--from"), env, pick(num_processes, 0, "--num-processes"), _stdin(a))
    right = api.load(_path(b), pick(frameworks, 1, "--from"), env, pick(num_processes, 1, "--num-processes"), _stdin(b))
    report = compare.diff(left, right)
    if output_format == "json":
        click.echo(_json(report.to_dict()))
    else:
        click.echo(render.diff_text(report), nl=False)
    if report.differences:
        sys.exit(EXIT_FINDINGS)


@main.command()
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def frameworks(output_format: str) -> None:
    """List the frameworks rlconf reads and writes, their aliases, known versions and what changed in each."""
    from translator import dialects, render

    listing = dialects.listing()
    if output_format == "json":
        click.echo(_json(listing))
    else:
        click.echo(render.frameworks_text(listing), nl=False)


@main.command(name="rules")
@click.option(
    "--format", "output_format", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True
)
def rules_command(output_format: str) -> None:
    """List every rule and note code: kind, framework, severities, what it means, the framework's own message
    and the source it cites (docs/rules.md is this list)."""
    from translator import rules

    if output_format == "json":
        click.echo(_json(rules.listing()))
    elif output_format == "markdown":
        click.echo(rules.markdown(), nl=False)
    else:
        click.echo(rules.text(), nl=False)


def _many_done(command: Callable[[], tuple[str, int]]) -> NoReturn:
    """Print a many-file command's report and exit with the worst file's code (2 for a request it cannot do)."""
    from translator.many import UsageError

    try:
        text, code = command()
    except UsageError as error:
        click.echo(f"rlconf: error: {error}", err=True)
        sys.exit(EXIT_INPUT)
    click.echo(text, nl=False)
    sys.exit(code)


def write_files(files: dict[str, str], directory: Path, force: bool) -> list[str]:
    """Write a translation's files as one set: under an exclusive lock on the folder (so two runs into one folder
    follow each other and the folder ends with one run's set, never a mix), each file atomically (temp file +
    rename); refuse to replace one without ``force`` (checked under the lock, so two runs cannot both pass)."""
    import tempfile

    try:
        directory.mkdir(parents=True, exist_ok=True)
        with _folder_lock(directory):
            existing = [name for name in files if os.path.lexists(directory / name)]
            if existing and not force:
                raise ConfigError(
                    f"{', '.join(str(directory / n) for n in existing)} already exist(s)",
                    hint="pass --force to overwrite, or choose another -o DIR",
                )
            written = []
            for name, text in files.items():
                path = directory / name
                handle, temporary = tempfile.mkstemp(dir=directory, prefix=f".{name}.")
                try:
                    with os.fdopen(handle, "w", encoding="utf-8") as stream:
                        stream.write(text)
                    os.chmod(temporary, 0o755 if name.endswith(".sh") else 0o644)
                    os.replace(temporary, path)
                except BaseException:
                    os.unlink(temporary)  # no stray temporary file left behind
                    raise
                written.append(str(path))
    except OSError as exc:
        raise ConfigError(f"cannot write to {directory}: {exc.strerror or exc}") from None
    return written


class _folder_lock:
    """An exclusive flock on the folder itself (no lock file left behind); none where fcntl is missing."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.handle: int | None = None

    def __enter__(self) -> None:
        try:
            import fcntl
        except ImportError:  # Windows: no advisory locks; each file is still replaced atomically
            return
        self.handle = os.open(self.directory, os.O_RDONLY)
        fcntl.flock(self.handle, fcntl.LOCK_EX)

    def __exit__(self, *exc: object) -> None:
        if self.handle is not None:
            os.close(self.handle)  # closing releases the lock


def _json(document: Any) -> str:
    from translator.jsontext import dumps  # only the --format json paths need it

    return dumps(document)


def _stdin(src: str) -> str | None:
    """Standard input for ``-``, read to one character past the limit (read_source refuses more): never all of an
    endless stream such as /dev/zero."""
    from translator.sources.files import MAX_INPUT_BYTES

    return sys.stdin.read(MAX_INPUT_BYTES + 1) if src == "-" else None


def _path(src: str) -> str:
    """A command-line argument is a path (or -), never config text, even with a newline in its name."""
    from translator.api import as_path

    return as_path(src)
