"""The ``rlconf`` command: a thin click layer over the library.

Exit codes: 0 ok; 1 findings (check errors, diff differences, a translation written with error-level notes or one
the target would reject; warnings, and check's skipped rules, under --strict); 2 bad input or a refusal to write;
3 an internal error."""
from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

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
    command = click.option("--num-processes", type=click.IntRange(min=1),
                           help="Training world size where the config does not state it (TRL).")(command)
    command = click.option("--env", "env", multiple=True, callback=_env_pairs, metavar="NAME=VALUE",
                           help="A shell variable the script expects (repeatable).")(command)
    command = click.option("--from", "framework", metavar="FW[@VER]",
                           help="Source framework (and version); detected when omitted.")(command)
    return command


# ---- many files (translator/many.py): PATH... with directories, globs and --exclude ----
def many_options(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--exclude", "excludes", multiple=True, metavar="GLOB",
                        help="Leave out paths matching GLOB (repeatable; with directories and globs).")(command)


def _many(srcs: tuple[str, ...]) -> bool:
    """Several paths, a directory or a glob go to translator/many.py; one file keeps the single-file output.
    (os.path and the characters of glob.has_magic: pathlib and glob are not imported for one file.)"""
    return len(srcs) != 1 or (srcs[0] != "-" and (os.path.isdir(srcs[0] or ".")
                                                  or any(c in srcs[0] for c in "*?[")))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rlconf")
def main() -> None:
    """Translate RL post-training configs between verl, EasyR1, OpenRLHF, Open-Instruct and TRL/Open-R1
    through one batch plan in explicit units."""


@main.command()
@click.argument("srcs", nargs=-1, required=True, metavar="PATH...")
@input_options
@many_options
@click.option("--dataset-size", type=click.IntRange(min=1), metavar="PROMPTS",
              help="Prompts in the training set, to state the run length in steps and samples.")
@click.option("--format", "output_format", type=click.Choice(["text", "json", "toml"]), default="text",
              show_default=True)
def explain(srcs: tuple[str, ...], framework: str | None, env: dict[str, str], num_processes: int | None,
            excludes: tuple[str, ...], dataset_size: int | None, output_format: str) -> None:
    """Show the batch plan of each PATH (a file, - for standard input, a directory or a glob) with units and
    derivations."""
    if _many(srcs):
        from translator import many

        many.explain_command(srcs, excludes, many.Options(framework, env, num_processes, False, dataset_size),
                             output_format)
    from translator import api, render

    src = srcs[0]

    explanation = _run(lambda: api.explain(src, framework, env, num_processes, _stdin(src), dataset_size))
    if output_format == "json":
        click.echo(_json(explanation.to_dict(), indent=2, default=str))
    elif output_format == "toml":
        from translator.dialects.rlconf import to_toml

        click.echo(to_toml(explanation.spec), nl=False)
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
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def translate(srcs: tuple[str, ...], target: str, framework: str | None, env: dict[str, str],
              num_processes: int | None, excludes: tuple[str, ...], output_dir: str | None, force: bool,
              strict: bool, output_format: str) -> None:
    """Write each PATH as a config for another framework (and version), and report what could not be kept.
    Several files, a directory or a glob need -o OUTDIR: one subfolder per source, same relative layout."""
    if _many(srcs):
        from translator import many

        many.translate_command(srcs, excludes, many.Options(framework, env, num_processes, strict), target,
                               output_dir, force, output_format)
    from translator import api, render

    src = srcs[0]

    translation = _run(lambda: api.translate(src, target, framework, env, num_processes, _stdin(src)))
    if output_dir:
        from pathlib import Path

        written = _run(lambda: write_files(translation.files, Path(output_dir), force))
    else:
        written = None
    if output_format == "json":
        document = translation.to_dict()
        if written is not None:
            document["written"] = written
        click.echo(_json(document, indent=2, default=str))
    else:
        click.echo(render.translation_text(translation, written), nl=False)
    if translation.failed(strict):  # written, but the target would reject it (or --strict)
        sys.exit(EXIT_FINDINGS)


@main.command()
@click.argument("srcs", nargs=-1, required=True, metavar="PATH...")
@input_options
@many_options
@click.option("--strict", is_flag=True, help="Exit 1 on warnings and on rules skipped for want of an input too.")
@click.option("--format", "output_format", type=click.Choice(["text", "json", "github", "sarif"]), default="text",
              show_default=True, help="github: workflow annotations; sarif: SARIF 2.1.0 (code scanning).")
def check(srcs: tuple[str, ...], framework: str | None, env: dict[str, str], num_processes: int | None,
          excludes: tuple[str, ...], strict: bool, output_format: str) -> None:
    """Check each PATH (a file, - for standard input, a directory or a glob) against its framework's own rules
    for its version; suggest the nearest valid values. Exit with the worst code over all files."""
    if _many(srcs) or output_format in ("github", "sarif"):
        from translator import many

        many.check_command(srcs, excludes, many.Options(framework, env, num_processes, strict), output_format)
    from translator import api, render

    src = srcs[0]

    report = _run(lambda: api.check(src, framework, env, num_processes, _stdin(src)))
    if output_format == "json":
        click.echo(_json(report.to_dict(), indent=2, default=str))
    else:
        click.echo(render.check_text(report), nl=False)
    if report.failed(strict):
        sys.exit(EXIT_FINDINGS)


@main.command()
@click.argument("a")
@click.argument("b")
@click.option("--from", "frameworks", multiple=True, metavar="FW[@VER]",
              help="Framework of A and B (once for both, or twice: A then B); detected when omitted.")
@click.option("--env", "env", multiple=True, callback=_env_pairs, metavar="NAME=VALUE",
              help="A shell variable the scripts expect (repeatable).")
@click.option("--num-processes", "num_processes", multiple=True, type=click.IntRange(min=1),
              help="Training world size where a config does not state it (once for both, or A then B).")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def diff(a: str, b: str, frameworks: tuple[str, ...], env: dict[str, str], num_processes: tuple[int, ...],
         output_format: str) -> None:
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
    left = _run(lambda: api.load(a, pick(frameworks, 0, "--from"), env, pick(num_processes, 0, "--num-processes"),
                                 _stdin(a)))
    right = _run(lambda: api.load(b, pick(frameworks, 1, "--from"), env, pick(num_processes, 1, "--num-processes"),
                                  _stdin(b)))
    report = _run(lambda: compare.diff(left, right))
    if output_format == "json":
        click.echo(_json(report.to_dict(), indent=2, default=str))
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
        click.echo(_json(listing, indent=2))
    else:
        click.echo(render.frameworks_text(listing), nl=False)


def write_files(files: dict[str, str], directory: Path, force: bool) -> list[str]:
    """Write each file atomically (temp file + rename); refuse to replace one without ``force``."""
    import tempfile

    existing = [name for name in files if (directory / name).exists()]
    if existing and not force:
        raise ConfigError(f"{', '.join(str(directory / n) for n in existing)} already exist(s)",
                          hint="pass --force to overwrite, or choose another -o DIR")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        written = []
        for name, text in files.items():
            path = directory / name
            handle, temporary = tempfile.mkstemp(dir=directory, prefix=f".{name}.")
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
            if name.endswith(".sh"):
                os.chmod(temporary, 0o755)
            else:
                os.chmod(temporary, 0o644)
            os.replace(temporary, path)
            written.append(str(path))
    except OSError as exc:
        raise ConfigError(f"cannot write to {directory}: {exc.strerror}") from None
    return written


def _json(document: Any, **options: Any) -> str:
    import json  # only the --format json paths need it

    return json.dumps(document, **options)


def _stdin(src: str) -> str | None:
    """Standard input for ``-``, read to one character past the limit (read_source refuses more): never all of an
    endless stream such as /dev/zero."""
    from translator.sources.files import MAX_INPUT_BYTES

    return sys.stdin.read(MAX_INPUT_BYTES + 1) if src == "-" else None


def _run(action: Callable[[], Any]) -> Any:
    """Run a library call; bad input becomes one message on stderr and exit 2, never a traceback."""
    try:
        return action()
    except ConfigError as error:
        click.echo(f"rlconf: error: {error}", err=True)
        sys.exit(EXIT_INPUT)
    except RecursionError:
        click.echo("rlconf: error: input nested too deeply", err=True)
        sys.exit(EXIT_INPUT)
    except Exception as error:  # a bug in rlconf, not in the input: say so without a traceback
        click.echo(f"rlconf: internal error: {type(error).__name__}: {error} (please report this)", err=True)
        sys.exit(EXIT_INTERNAL)
