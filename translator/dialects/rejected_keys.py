"""Keys the launched code refuses, and whether the launch runs the release's code at all.

A key the framework's parser refuses stops a launch at start-up, so `explain` and `translate` refuse the file
instead of stating the plan of a run that never starts (docs/launch-scripts.md "Keys the release refuses"). That
is certain only where the launch runs the release's own code: not a fork, not a copy of the framework kept in the
project (each registration's ``copy_markers``), not an install from a git branch.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from os import PathLike
from typing import Any

from translator.dialects.base import Reading
from translator.errors import ConfigError
from translator.notes import Note

# Notes that say the launch runs code of the project's own (a fork, a vendored copy), whose parser may take keys
# the release does not.
_OWN_CODE_NOTES = "framework.fork"


def refuse(dialect: Any, reading: Reading, notes: list[Note], name: str, base_dir: str | PathLike[str] | None) -> None:
    """A key the release's parser refuses stops the launch at start-up: the config is broken as published, and a
    plan read around it would be one no run has. Refused (ConfigError) only where that is certain: the framework's
    parser refuses unknown keys at this release and the launch runs the release's own code (no fork, no project
    copy); where the release is inferred from the keys or one of several candidates, only a key no release
    declares is refused, and only if every release refuses unknown keys. A dialect whose parser refuses every
    unknown command-line flag (``rejects_unknown_flags``, though it may drop unknown keys of a config file) has
    such a flag on the launch line refused whatever the release."""
    from translator.native_schemas import in_no_release

    rejects = getattr(dialect, "rejects_unknown_keys", False)
    uncertain = reading.candidates is not None or any(n.code == "version.assumed" for n in notes)
    releases = dialect.versions if uncertain else (reading.spec.version or dialect.default_version,)
    every_key = all(rejects(v) if callable(rejects) else rejects for v in releases)
    flags = bool(getattr(dialect, "rejects_unknown_flags", False))
    if not every_key and not flags:
        return
    if reading.arguments_known is False:
        return
    if not runs_release_code(dialect, reading, notes, base_dir):
        _refuse_by_the_copy(dialect, reading, notes, name, base_dir)
        return
    origins = getattr(reading.native, "origins", {})

    def on_the_launch_line(key: str) -> bool:
        return str(origins.get(key, "")).rpartition(":")[2].isdigit()

    refused = [
        n
        for n in notes
        if n.severity != "info"
        and n.code in ("keys.unknown", "keys.unknown-in-version")
        and n.source_keys
        and (not uncertain or in_no_release(dialect.name, n.source_keys[0]))
        and (every_key or on_the_launch_line(n.source_keys[0]))
    ]
    if not refused:
        return
    key = refused[0].source_keys[0]
    file, line = origin(reading.native, [key], name)
    more = f" ({len(refused) - 1} more such key(s): {', '.join(n.source_keys[0] for n in refused[1:4])})"
    raise ConfigError(
        refused[0].message + (more if len(refused) > 1 else ""),
        file=file,
        line=line,
        key=key,
        hint=f"{dialect.name} {reading.spec.version} stops at start-up on such a key; remove or rename it",
    )


def _refuse_by_the_copy(
    dialect: Any, reading: Reading, notes: list[Note], name: str, base_dir: str | PathLike[str] | None
) -> None:
    """Where the launch runs the project's one copy of the framework and the dialect can read that copy's schema
    (``missing_in_copy``: the first part of a key the copy's config classes certainly lack), a key the copy lacks
    stops the launch at start-up as the release's parser would."""
    checker = getattr(dialect, "missing_in_copy", None)
    if checker is None or reading.native is None:
        return
    folders = own_code_folders(dialect, reading, notes, base_dir)
    if len(folders) != 1:  # several copies: which one runs is not certain
        return
    # the keys read, and those the reader could not place (flags no release declares, as written)
    unplaced = [k for n in notes if n.code in ("keys.unknown", "keys.unknown-in-version") for k in n.source_keys]
    nulls = getattr(dialect, "null_in_copy", None)
    for key, where in reading.native.file_nulls.items():
        declared = nulls(folders[0], key) if nulls is not None else None
        if declared is not None:
            file, line = _place(where, name)
            raise ConfigError(
                f"'{key}' is null in the config file, and the project's copy of {dialect.name} declares it "
                f"'{declared}', which takes no None: merging the file into its structured config stops at start-up "
                f"(ValidationError: Incompatible value 'None' for field of type '{declared}')",
                file=file,
                line=line,
                key=key,
                hint=f"give {key} a value in the file (the command line's is merged only after it)",
            )
    for key in dict.fromkeys([*reading.native.values, *unplaced]):
        part = checker(folders[0], key, reading.native)
        if part is None:
            continue
        file, line = origin(reading.native, [key], name)
        where = os.path.relpath(folders[0], os.fspath(base_dir)) if base_dir is not None else folders[0]
        raise ConfigError(
            f"'{key}': the project's copy of {dialect.name} ({where}) declares no '{part}', so it stops at "
            f"start-up ({dialect.copy_refusal})",
            file=file,
            line=line,
            key=key,
            hint=f"remove or rename the key (the copy's {dialect.copy_declares} list the keys it takes)",
        )


def origin(native: Any, keys: list[str], name: str) -> tuple[str, int | None]:
    """The file and line that set the first of ``keys`` the reader recorded (``name`` and no line where it
    recorded none)."""
    origins = getattr(native, "origins", {})
    return _place(next((str(origins[key]) for key in keys if origins.get(key)), ""), name)


def _place(where: str, name: str) -> tuple[str, int | None]:
    """'file:line' (or 'file') as (file, line); ``name`` and no line for nothing."""
    file, _, line = where.rpartition(":")
    return (file, int(line)) if line.isdigit() else (where or name, None)


def runs_release_code(dialect: Any, reading: Reading, notes: list[Note], base_dir: str | PathLike[str] | None) -> bool:
    """Whether the launch certainly runs the release's own code: no fork note, no copy of the framework in the
    project (``reading.own_copy``; a framework with no ``copy_markers`` cannot tell), no install from a git
    branch or commit (a fork's repository or a commit between releases). Only then does what the release's code
    refuses stop this launch."""
    if reading.native is None or reading.own_copy is not None:
        return False
    if any(n.code.startswith(_OWN_CODE_NOTES) for n in notes):
        return False
    from translator.dialects import registry

    entry = registry.lookup(dialect.name)
    if entry is None or not entry.copy_markers:
        return False
    return base_dir is None or not installed_from_a_branch(dialect, str(base_dir))


def own_code_folders(
    dialect: Any, reading: Reading, notes: list[Note], base_dir: str | PathLike[str] | None
) -> tuple[str, ...]:
    """The packages of the framework's copies kept in the project (the folder holding each of its registration's
    ``copy_markers``, outside test folders, and the ``copy_entries`` files beside it), when the launch may run
    such a copy instead of the release, after the launched code's own files (``Reading.own_files``); only those
    when it runs the release's code, when the release's code is not here (an install from a git branch), or no
    copy is."""
    own = reading.own_files  # the launched code's own files (a trainer copy) count wherever the framework is from
    if base_dir is None or reading.native is None:
        return own
    if reading.own_copy is None and not any(n.code.startswith(_OWN_CODE_NOTES) for n in notes):
        return own
    if installed_from_a_branch(dialect, str(base_dir)):
        return own
    from translator.dialects import registry
    from translator.sources.code import files_ending, project_root

    entry = registry.lookup(dialect.name)
    root = project_root(str(base_dir))
    homes = [
        (path[: -len(os.sep + marker)], marker.split("/")[0])
        for marker in (entry.copy_markers if entry is not None else ())
        for path in files_ending(root, marker)
        if not in_tests(path)
    ]
    found = [os.path.join(home, package) for home, package in homes]
    beside = entry.copy_entries if entry is not None else ()
    found += [
        os.path.join(home, name) for home, _ in homes for name in beside if os.path.isfile(os.path.join(home, name))
    ]
    return tuple(dict.fromkeys([*own, *found]))


def in_tests(path: str) -> bool:
    """Whether a file is a test or test data (a project's tests may quote a framework's messages)."""
    return any(part in ("tests", "test", "testing") for part in path.split(os.sep)[:-1])


MIN_KEPT_TEXT = 24  # characters of a message's fixed text that pick out one check


def fixed_text(message: str) -> str:
    """The longest part of a framework's error ``message`` between its values ({…}), without the quotes and
    stops around it: the text a copy of the framework holding that check holds too."""
    return max((part.strip(" '\"`.") for part in message.split("{…}")), key=len, default="")


def kept_by_own_code(folders: tuple[str, ...], message: str) -> str | None:
    """Where the copy's code (the packages ``folders``) holds the fixed text of a framework's error ``message`` (its
    longest part between values, ``{…}``): 'file:line', the copy keeps that check. None when the text is too short
    to pick out one check or no file of the copy holds it (read bounded: the project's first files only)."""
    literal = fixed_text(message)
    if len(literal) < MIN_KEPT_TEXT:
        return None
    return _in_own_code(folders, lambda text: line_of(text, literal))


def names_value(folders: tuple[str, ...], value: str) -> str | None:
    """Where the copy's code (the packages ``folders``) writes ``value`` as a string literal ("mbpo"): 'file:line',
    a copy that may accept the value a framework's check refuses (a fork's own estimator); None when none does."""
    quoted = re.compile(rf"[\"']{re.escape(value)}[\"']")

    def line(text: str) -> int | None:
        found = quoted.search(text)
        return text.count("\n", 0, found.start()) + 1 if found else None

    return _in_own_code(folders, line)


def _in_own_code(folders: tuple[str, ...], line: Callable[[str], int | None]) -> str | None:
    """'file:line' of the first of the copy's .py files (outside tests; read bounded: the project's first files)
    where ``line`` finds what it looks for; None when none holds it."""
    from translator.sources.code import MAX_FILE_BYTES, project_files, project_root
    from translator.sources.files import read_text

    if not folders:
        return None
    root = project_root(folders[0])
    for path in project_files(root):
        if (
            not path.endswith(".py")
            or in_tests(path)
            or not any(path == f or path.startswith(f + os.sep) for f in folders)
        ):
            continue
        text = read_text(path, MAX_FILE_BYTES)
        found = line(text) if text else None
        if found is not None:
            return f"{os.path.relpath(path, root)}:{found}"
    return None


# String literals joined into one text, by implicit concatenation ("... should be divisible "\n    f"by ...", or
# on one line "a, " "b") or by '+' ("... than 1.0," + f" but get ..."): the message's text runs on across the join.
_JOIN = re.compile(r"[\"'](?:[ \t]*\+?\s*\n\s*(?:\+\s*)?|[ \t]+\+?[ \t]*|[ \t]*\+[ \t]*)[rbfuRBFU]*[\"']")


def line_of(text: str, literal: str) -> int | None:
    """The line of ``text`` where ``literal`` starts, reading string literals joined over lines as one."""
    joined, lines_dropped, last = [], [], 0
    for match in _JOIN.finditer(text):
        joined.append(text[last : match.start()])
        lines_dropped.append((sum(map(len, joined)), match.group(0).count("\n")))
        last = match.end()
    joined.append(text[last:])
    flat = "".join(joined)
    at = flat.find(literal)
    if at < 0:
        return None
    return flat.count("\n", 0, at) + sum(n for position, n in lines_dropped if position <= at) + 1


def note_copy_in_project(dialect: Any, reading: Reading, folder: str) -> None:
    """A project that holds a copy of the framework's code (its registration's ``copy_markers``) may run it, and
    the copy's config may take keys and value types the release's does not: ``reading.own_copy`` names it."""
    from translator.dialects import registry
    from translator.sources.code import copy_in_project

    entry = registry.lookup(dialect.name)
    if entry is not None and entry.copy_markers:
        found = copy_in_project(folder, entry.copy_markers)
        if found is not None:
            reading.own_copy = f"{found}/ (the project's)" if found != "." else "the project's own folders"


def installed_from_a_branch(dialect: Any, folder: str) -> bool:
    """Whether the project installs the framework from a git branch or commit (``pkg @ git+…@branch``, uv's
    ``pkg = { git = … }``) rather than a release."""
    from translator.sources.project import evidence, normal

    names = {normal(n) for n in (dialect.name, getattr(dialect, "pip_name", "") or dialect.name)}
    return any(e.package in names and e.kind in ("git-commit", "git-ref") for e in evidence(folder))
