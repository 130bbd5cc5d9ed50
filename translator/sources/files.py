"""Reading input files: the source text, its siblings (recipes, accelerate configs, base YAMLs), safe YAML."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import field
from typing import TYPE_CHECKING, Any

from translator.errors import ConfigError
from translator.records import record
from translator.sources.launchers import launcher_kind, launcher_script

# re-exported: most callers read YAML through this module
from translator.sources.yamlfile import MAX_YAML_NODES as MAX_YAML_NODES
from translator.sources.yamlfile import load_yaml
from translator.sources.yamlfile import refuse_alias_bomb as refuse_alias_bomb

if TYPE_CHECKING:
    from os import PathLike

MAX_INPUT_BYTES = 5_000_000  # no real config comes near; refusing early keeps a stray binary from stalling us


@record
class Source:
    """One input: its text, the name to show in messages, and how to reach the files it references.

    ``files`` holds in-memory siblings by relative name (used when reading back what a writer produced);
    otherwise siblings are resolved relative to ``base_dir`` and then the working directory.
    """

    text: str
    name: str = "<stdin>"
    base_dir: str | PathLike[str] | None = None  # a str when read here: pathlib is imported only for siblings
    files: Mapping[str, str] = field(default_factory=dict)
    launcher: str | None = None  # 'skypilot' | 'ray-job': a launcher task YAML, ``text`` is the script it runs
    # Files read from outside the project (the folder tree of the first source, or of the working directory),
    # e.g. '--config ../../etc/recipe.yaml': read, and noted. One list shared by a source and its siblings.
    outside: list[str] = field(default_factory=list)
    # Absolute paths of the author's machine read as the project's own file at the same tail ('/home/me/repo/x.yaml'
    # → the project's x.yaml, translator.dialects.base.sibling_in_project): what each was read as. One list shared by
    # a source and its siblings, like ``outside``.
    relocated: list[str] = field(default_factory=list)
    project: str | None = None  # the first source's folder, which siblings of siblings are measured against

    @property
    def suffix(self) -> str:
        return ".sh" if self.launcher else path_suffix(self.name).lower()

    def sibling(self, relative: str, what: str) -> Source:
        """The file ``relative`` names, read as a Source; ConfigError naming ``what`` it is if missing."""
        if relative in self.files:
            return Source(self.files[relative], relative, None, self.files)
        from pathlib import Path

        candidates = []
        path = Path(os.path.expanduser(relative))
        if path.is_absolute():
            candidates.append(path)
        else:
            if self.base_dir is not None:
                candidates.append(Path(self.base_dir) / path)
            candidates.append(Path.cwd() / path)
        for candidate in candidates:
            if candidate.is_file():
                found = read_source(str(candidate))
                project = self.project or (os.fspath(self.base_dir) if self.base_dir is not None else None)
                real = os.path.realpath(candidate)
                if project is not None and not any(below(real, root) for root in (project, os.getcwd())):
                    self.outside.append(f"{what} '{relative}' is {real}")
                found.project, found.outside, found.relocated = project, self.outside, self.relocated
                return found
        raise ConfigError(
            f"{what} '{relative}' not found (looked in {', '.join(str(c.parent) for c in candidates)})",
            file=self.name,
            hint="run from the directory the script expects, or fix the path",
        )

    def has_sibling(self, relative: str) -> bool:
        try:
            self.sibling(relative, "file")
        except ConfigError:
            return False
        return True


def absent_from_project(source: Source, relative: str, scripts: str) -> bool:
    """Whether the file a config names relative to where the run starts is certainly not there: not found from the
    source's folder or the working directory, while its folder is (a folder the project lacks too may be made by
    the user's setup), and not named in the launch's own text ``scripts`` (a script may write a file it names)."""
    if source.files or source.base_dir is None or relative.startswith(("/", "~")) or "$" in relative:
        return False
    if source.has_sibling(relative) or os.path.basename(relative) in scripts:
        return False
    folder = os.path.dirname(relative)
    return any(os.path.isdir(os.path.join(base, folder)) for base in (os.fspath(source.base_dir), os.getcwd()))


def below(path: str, folder: str) -> bool:
    """Whether a resolved path lies in the folder tree of ``folder`` (links resolved; '..' cannot escape)."""
    root = os.path.realpath(folder)
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:  # another drive (Windows)
        return False


def path_suffix(name: str) -> str:
    """``pathlib.PurePath(name).suffix`` (the last dot and what follows it, in the last part of the path that is
    not empty or ``.``) without importing pathlib: reading one launch script needs nothing else of it."""
    parts = (name.replace(os.altsep, os.sep) if os.altsep else name).split(os.sep)
    last = next((part for part in reversed(parts) if part not in ("", ".")), "")
    dot = last.rfind(".")
    return last[dot:] if 0 < dot < len(last) - 1 else ""


def read_source(path: str, stdin_text: str | None = None) -> Source:
    """Read a file (or standard input for ``-``) as a Source. Missing or unreadable → ConfigError."""
    if path == "-":
        text = stdin_text if stdin_text is not None else ""
        if len(text) > MAX_INPUT_BYTES:
            raise ConfigError(f"standard input is larger than {MAX_INPUT_BYTES // 1_000_000} MB; not a config")
        return Source(text, "<stdin>", os.getcwd())
    # the file pathlib would name: an empty path is '.', trailing separators are dropped ('run.sh/' is run.sh)
    file = path.rstrip(os.sep + (os.altsep or "")) or (path[:1] if path else ".")
    if not os.path.exists(file):
        raise ConfigError("no such file", file=path, hint="check the path")
    if os.path.isdir(file):
        raise ConfigError("is a directory, not a config file", file=path)
    try:
        data = read_regular(file, MAX_INPUT_BYTES)
    except NotRegularFile:
        raise ConfigError(
            "not a regular file (a device, FIFO or socket), not a config",
            file=path,
            hint="pass the config file itself, or - to read standard input",
        ) from None
    except OSError as exc:
        raise ConfigError(f"cannot read: {exc.strerror}", file=path) from None
    if len(data) > MAX_INPUT_BYTES:
        raise ConfigError(f"file is larger than {MAX_INPUT_BYTES // 1_000_000} MB; not a config", file=path)
    if b"\0" in data:
        raise ConfigError("binary file, not a config", file=path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError("not UTF-8 text", file=path) from None
    return as_launcher(Source(text, path, os.path.dirname(os.path.realpath(file))))


class NotRegularFile(OSError):
    """A device, FIFO or socket where a file was expected."""


def read_regular(path: str, limit: int) -> bytes:
    """At most ``limit`` + 1 bytes of the regular file ``path`` (more than ``limit`` means too large).

    Only a regular file: a FIFO would block and /dev/zero never ends. It is opened without blocking, checked on the
    open descriptor (no swap in between), and read to one byte past the limit whatever its size claims. Raises
    NotRegularFile or another OSError."""
    import stat

    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with open(handle, "rb") as stream:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise NotRegularFile(path)
        return stream.read(limit + 1)


def read_text(path: str, limit: int = MAX_INPUT_BYTES) -> str | None:
    """The text of a file a config leads to indirectly (a project's pins and version files, a fork's code), or None
    when it is missing, not a regular file, larger than ``limit`` bytes or unreadable: there, a file that cannot be
    read only means less evidence. Undecodable bytes are replaced."""
    try:
        data = read_regular(path, limit)
    except OSError:
        return None
    return None if len(data) > limit else data.decode("utf-8", errors="replace")


def as_launcher(source: Source) -> Source:
    """A SkyPilot or Ray job YAML becomes the launch script it runs (see sources/launchers.py)."""
    if source.suffix not in (".yaml", ".yml"):
        return source
    kind = launcher_kind(source.text)
    script = launcher_script(source.text, source.name) if kind else None
    if script is None:
        return source
    return Source(script, source.name, source.base_dir, source.files, launcher=kind)


def load_yaml_mapping(source: Source) -> dict[str, Any]:
    data = load_yaml(source.text, source.name)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(
            f"expected a mapping of keys at the top level, found {type(data).__name__}",
            file=source.name,
            hint="a config file is a YAML mapping of key: value",
        )
    return data


def flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested mappings → dotted keys; lists and scalars are leaves."""
    flat: dict[str, Any] = {}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            flat.update(flatten(value, dotted + "."))
        else:
            flat[dotted] = value
    return flat


def guess_suffix(text: str) -> str:
    """A file suffix for text without a name (standard input): decides which readers try it."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return ".json"
    if stripped.startswith("[") or "\n[plan]" in "\n" + stripped:
        return ".toml"
    lines = [ln for ln in stripped.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if (
        lines
        and all(":" in ln or ln.startswith(" ") or ln.lstrip().startswith("- ") for ln in lines[:5])
        and not any(word in stripped for word in ("python", "accelerate launch", "torchrun"))
    ):
        return ".yaml"
    return ".sh"
