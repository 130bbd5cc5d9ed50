"""What a launch's project states about the releases it runs: pins in its dependency files, install lines in its
scripts, Dockerfiles and READMEs, and the version files of framework copies it keeps. Every file is read as
text (never imported or executed), and the search is bounded (folders, files, bytes)."""

from __future__ import annotations

import fnmatch
import os
import posixpath
import re
from collections.abc import Iterable
from dataclasses import replace

from translator.patterns import lazy
from translator.records import record
from translator.sources.files import read_text

MAX_FILES = 200  # files read
MAX_BYTES = 20_000_000  # bytes read in all
MAX_FILE_BYTES = 2_000_000  # a larger file is no dependency list
LEVELS_UP = 4  # folders above the script searched for a project root without .git
_MARKERS = (
    "setup.py",
    "setup.cfg",
    "pyproject.toml",
    "requirements*.txt",
    "environment*.y*ml",
    "Dockerfile*",
    "README*",
)

# Files whose text states dependencies, and how: 'deps' every pin counts; 'install' only on pip install lines;
# 'readme' only on pip install lines inside fenced code blocks.
_FILES = (
    ("*requirements*.txt", "deps"),
    ("requirements*.in", "deps"),
    ("setup.py", "deps"),
    ("setup.cfg", "deps"),
    ("pyproject.toml", "deps"),
    ("environment*.y*ml", "deps"),
    ("conda*.y*ml", "deps"),
    ("Dockerfile*", "install"),
    ("*.dockerfile", "install"),
    ("*.sh", "install"),
    ("README*.md", "readme"),
    ("uv.lock", "lock"),
    ("poetry.lock", "lock"),
    ("pdm.lock", "lock"),
    ("Pipfile.lock", "lock"),
)

# name==1.2.3, "name[extra]==1.2.3", name == 1.2.3, "name (==1.2.3)" (requirements, setup.py strings, PEP 621 and
# its parenthesised form that poetry writes, pip install lines)
_PIN = re.compile(r"(?<![\w.@/-])([A-Za-z0-9][\w.-]*)(?:\[[\w,\s-]*\])?\s*\(?\s*===?\s*v?([0-9][\w.+!-]*)")
# conda's single '=' in environment.yml: '- trl=0.15.2'
_CONDA = lazy(r"^\s*-\s*([A-Za-z0-9][\w.-]*)\s*=\s*v?([0-9][\w.+!-]*)\s*$")
# poetry: trl = "0.15.2" / trl = "==0.15.2" / trl = {version = "0.15.2", ...} (an exact version; ^ and ~ are ranges)
_POETRY = lazy(r"^\s*([A-Za-z0-9][\w.-]*)\s*=\s*(?:\{\s*version\s*=\s*)?[\"']=?=?\s*v?([0-9][\w.+!-]*)[\"']")
# git+https://github.com/huggingface/trl.git@019fc6d (pip install, requirements, 'trl @ git+…' in setup.py)
_GIT = re.compile(r"git\+[\w+.:/~-]*?/([\w.-]+?)(?:\.git)?@([\w./-]+?)(?=[#\s\"',;\])]|$)")
# uv sources / poetry: pkg = { git = "https://…/repo", branch = "x" } (rev, tag or branch; none: the default branch)
_TOML_GIT = lazy(
    r"^\s*([A-Za-z0-9][\w.-]*)\s*=\s*\{[^}]*\bgit\s*=\s*[\"'][^\"']+[\"'](?:[^}]*\b(?:rev|tag|branch)\s*=\s*[\"']([^\"']+)[\"'])?"
)
_TAG = lazy(r"v?(\d+(?:\.\d+)+(?:[.-]?(?:dev|a|b|rc|post)\.?\d*)?)")
_COMMIT = lazy(r"[0-9a-f]{7,40}")
# the literal is the whole value (`__version__ = ".".join(...)` states none)
_DUNDER_VERSION = lazy(r"^__version__\s*=\s*[\"']([^\"']+)[\"']\s*(?:#.*)?$", re.MULTILINE)
# NVIDIA's package_info.py: MAJOR = 0, MINOR = 5, PATCH = 0, PRE_RELEASE = "rc0", joined into __version__
_VERSION_PART = lazy(r"^(MAJOR|MINOR|PATCH)\s*=\s*(\d+)\s*$|^PRE_RELEASE\s*=\s*[\"']([\w.]*)[\"']", re.MULTILINE)


@record
class Evidence:
    """One statement of a package's version in the project."""

    package: str  # as the project spells it, lower case with '-' for '_'
    version: str  # as spelled; for a git pin, the tag or commit
    file: str  # the file, as messages show it
    line: int
    # 'copy' (a version file of a copy kept in the project) | 'pin' | 'git-tag' | 'git-commit' | 'git-ref' |
    # 'written' (the header of a file rlconf wrote)
    kind: str
    distance: int  # folders between the evidence and the nearest of the script's folder and the run folder
    copy_dir: str | None = None  # a copy's folder (holding the package), whose own config files tell its keys
    weight: int = 0  # at the same distance: a dependency list (0) before install lines (1) and READMEs (2)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    @property
    def states_release(self) -> bool:
        """Whether this names a release (a commit or a branch names none)."""
        return self.kind in ("copy", "pin", "git-tag", "written")


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def project_root(folder: str) -> tuple[str, tuple[str, ...]]:
    """The folder of the repository the script belongs to, and the folders above it that are read too (not their
    subfolders). The root is the nearest folder with a .git entry; where there is none, the highest of the
    script's folder and the three above it that holds a project file (setup.py, pyproject.toml,
    requirements*.txt, a README…), else the script's folder; the rest of those four folders are read alone."""
    folder = os.path.abspath(folder)
    chain, current = [], folder
    while True:
        chain.append(current)
        if os.path.exists(os.path.join(current, ".git")):
            return current, ()
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    near = chain[:LEVELS_UP]
    marked = [f for f in near if _has_marker(f)]
    root = marked[-1] if marked else folder
    return root, tuple(near[near.index(root) + 1 :])


def _has_marker(folder: str) -> bool:
    # kept per process like the listings below (keyed by the folder's modification time): a directory check asks
    # of the same folders (its own, /tmp, the home folder) for every config
    try:
        key = (folder, os.stat(folder).st_mtime_ns)
        if key not in _MARKED:
            if len(_MARKED) > MAX_FILES * 10:  # bounded in a long process
                _MARKED.clear()
            names = os.listdir(folder)
            _MARKED[key] = any(fnmatch.filter(names, glob) for glob in _MARKERS)
    except OSError:
        return False
    return _MARKED[key]


_MARKED: dict[tuple[str, int], bool] = {}


def _distance(path_folder: str, anchors: Iterable[str]) -> int:
    """Folders up and down from the nearest anchor to ``path_folder``."""
    best = 1 << 30
    for anchor in anchors:
        common = os.path.commonpath([path_folder, anchor])
        up = 0 if anchor == common else len(os.path.relpath(anchor, common).split(os.sep))
        down = 0 if path_folder == common else len(os.path.relpath(path_folder, common).split(os.sep))
        best = min(best, up + down)
    return best


def shown(path: str) -> str:
    """A path as messages show it: relative to the working directory when that is shorter."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return relative if len(relative) < len(path) else path


def evidence(folder: str, copies: Iterable[tuple[str, str, str | None]] = (), text: str = "") -> list[Evidence]:
    """Every version statement of the project the script in ``folder`` belongs to, strongest first. ``copies`` are
    (package, version file relative to a folder, a folder that must stand beside it) of framework copies;
    ``text`` is the script's text, whose paths (``cd src/r1-v``, ``src/pkg/train.py``) name more folders
    the launch runs in."""
    folder = os.path.abspath(folder)
    root, above = project_root(folder)
    anchors = [folder]
    cwd = os.getcwd()
    if _inside(cwd, root):
        anchors.append(cwd)  # the launch runs from here: `python -m pkg` imports the copy in it
    if os.path.isdir(os.path.join(root, "src")):
        anchors.append(os.path.join(root, "src"))  # a src layout: its packages are what `pip install -e .` imports
    # A relative path is looked up from the script's folder and each folder above it in the project (a script
    # meant to run from its project's root finds it there, wherever the user stands), then the working directory.
    bases = [*_folders(root, (), (folder,)), cwd]
    for word in _PATH_WORD.findall(text)[:MAX_PATH_WORDS]:
        named = _named_folder(word, bases)
        if named and _inside(named, root) and named not in anchors:
            anchors.append(named)
    return list(_evidence(root, above, tuple(anchors), tuple(copies)))


MAX_PATH_WORDS = 200
# a path in a script: src/r1-v, src/open_r1/grpo.py, "<path_to_repo>"/verl_copy, /src/pkg/train.py (placeholders).
# A match starts where a word does (the look-behind): the matches are the same (one starting inside a word would
# have started at its first character), found in linear time instead of rescanning every word from each of its
# characters (12 ms for a 2 kB verl script).
_PATH_WORD = re.compile(r"(?<![\w.-])[\w.-]*(?:/[\w.-]+)+")


def _named_folder(word: str, bases: list[str]) -> str | None:
    """The folder a path in the script names, looked up from each of ``bases`` in turn; a path with a placeholder
    or variable in front ('<your_path>/framework_copy') by its trailing parts."""
    parts = [p for p in word.split("/") if p and p != "."]
    for start in range(len(parts)):
        for base in bases:
            path = os.path.normpath(os.path.join(base, *parts[start:]))
            if os.path.isdir(path):
                return path
            if os.path.isfile(path):
                return os.path.dirname(path)
    return None


def _inside(path: str, root: str) -> bool:
    try:
        return os.path.commonpath([os.path.abspath(path), root]) == root
    except ValueError:
        return False


def _folders(root: str, above: tuple[str, ...], anchors: tuple[str, ...]) -> list[str]:
    """The folders whose statements apply to the launch: each anchor and the folders from it up to the root (the
    nearest first), then the folders above a root found without .git."""
    folders: list[str] = []
    for anchor in anchors:
        current = anchor
        while _inside(current, root) and current not in folders:
            folders.append(current)
            if current == root:
                break
            current = os.path.dirname(current)
    return [*folders, *above]


def _evidence(
    root: str, above: tuple[str, ...], anchors: tuple[str, ...], copies: tuple[tuple[str, str, str | None], ...]
) -> tuple[Evidence, ...]:
    candidates: list[tuple[int, str, str]] = []  # (distance, path, how)
    found: list[Evidence] = []
    folders = _folders(root, above, anchors)
    # A copy the launch imports sits in one of those folders (the run folder, a PYTHONPATH entry the script names).
    for home in folders:
        for package, relative, beside in copies:
            path = os.path.join(home, relative)
            if (beside is None or os.path.isdir(os.path.join(home, beside))) and os.path.isfile(path):
                version = _copy_version(path)
                if version:
                    # the folder holding the package: home, or home/verl for verl/verl/version/version
                    holder = os.path.join(home, *relative.split("/")[:-3])
                    found.append(Evidence(package, version, shown(path), 1, "copy", _distance(home, anchors), holder))
    for folder in folders:
        distance = _distance(folder, anchors)
        candidates.extend((distance, path, how) for path, how in _stating_files(folder))
    # the image a project builds for all its launches (docker/Dockerfile.train, .devcontainer/Dockerfile): one folder
    # past the root
    for folder in _image_folders(root):
        distance = _distance(root, anchors) + 1
        candidates.extend((distance, path, how) for path, how in _stating_files(folder) if how == "install")
    budget = MAX_BYTES
    for distance, path, how in sorted(candidates)[:MAX_FILES]:
        size, statements = _file_statements(path, how, budget)
        if statements is None:
            continue
        budget -= size
        found.extend(replace(e, distance=distance) for e in statements)
    order = {"copy": 0, "pin": 1, "git-tag": 1, "git-commit": 2, "git-ref": 2}
    return tuple(sorted(found, key=lambda e: (order[e.kind], e.distance, e.weight, e.file, e.line)))


# Many configs of one project (a directory check, the plan re-read as other releases) ask about the same files: each
# folder's listing and each file's statements are kept per process, keyed by modification time and size.
_LISTINGS: dict[tuple[str, int], tuple[tuple[str, str], ...]] = {}
_STATEMENTS: dict[tuple[str, str, int, int], tuple[Evidence, ...]] = {}


_IMAGE_FOLDER = re.compile(r"\.?(docker\w*|devcontainer|containers?)", re.IGNORECASE)


def _image_folders(root: str) -> list[str]:
    """The project's top-level folders that hold the images it builds (docker/, dockerfiles/, .devcontainer/)."""
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return []
    return [os.path.join(root, n) for n in names if _IMAGE_FOLDER.fullmatch(n) and os.path.isdir(os.path.join(root, n))]


def _stating_files(folder: str) -> tuple[tuple[str, str], ...]:
    """(path, how) of the files in ``folder`` that may state a version."""
    try:
        key = (folder, os.stat(folder).st_mtime_ns)
        if key not in _LISTINGS:
            if len(_LISTINGS) > MAX_FILES * 10:  # bounded in a long process
                _LISTINGS.clear()
            names = sorted(os.listdir(folder))
            matched = (
                (os.path.join(folder, n), next((h for glob, h in _FILES if fnmatch.fnmatch(n, glob)), None))
                for n in names
            )
            _LISTINGS[key] = tuple((path, how) for path, how in matched if how is not None and os.path.isfile(path))
    except OSError:
        return ()
    return _LISTINGS[key]


def _file_statements(path: str, how: str, budget: int) -> tuple[int, tuple[Evidence, ...] | None]:
    """The file's size and what it states (distance 0), or None when it cannot be read within the budget."""
    try:
        stat = os.stat(path)
    except OSError:
        return 0, None
    key = (path, how, stat.st_mtime_ns, stat.st_size)
    if key not in _STATEMENTS:
        if len(_STATEMENTS) > MAX_FILES * 10:
            _STATEMENTS.clear()
        text = read_text(path, min(MAX_FILE_BYTES, budget))
        if text is None:
            return 0, None
        _STATEMENTS[key] = tuple(_statements(text, path, how, 0))
    return (stat.st_size, _STATEMENTS[key]) if stat.st_size <= budget else (0, None)


def _copy_version(path: str) -> str | None:
    text = read_text(path, MAX_FILE_BYTES)
    if text is None:
        return None
    if path.endswith(".py"):
        match = _DUNDER_VERSION.search(text)
        if match:
            return match.group(1)
        parts = {m.group(1) or "PRE_RELEASE": m.group(2) or m.group(3) or "" for m in _VERSION_PART.finditer(text)}
        if not {"MAJOR", "MINOR", "PATCH"} <= set(parts):
            return None
        return ".".join(parts[k] for k in ("MAJOR", "MINOR", "PATCH")) + parts.get("PRE_RELEASE", "")
    text = text.strip()
    return text if text and len(text) < 100 and "\n" not in text else None


# The header every rlconf writer puts on the files it writes: '# <framework> <release> launch script written by
# rlconf from ...', and where the framework's parser depends on another package, '..., for <package> <release>.'
_WRITTEN = re.compile(r"# (?P<label>[\w.-]+) (?P<version>[\w.+-]+) [^\n]*?\bwritten by rlconf\b(?P<rest>[^\n]*)")
_FOR_COMPANION = re.compile(r"for (?P<package>[A-Za-z][\w.-]*) (?P<version>\d[\w.+-]*?)\.?$")
HEADER_LINES = 3  # the header is the first line, or the second after a shebang


def written_for(text: str, name: str) -> list[Evidence]:
    """The release a file rlconf wrote was written for, from its header line (a 'written' statement, the
    strongest: the file says it), and the companion package's release it names (a pin beside it)."""
    for number, line in enumerate(text.split("\n", HEADER_LINES)[:HEADER_LINES], 1):
        match = _WRITTEN.fullmatch(line.strip())
        if match:
            found = [Evidence(normal(match["label"]), match["version"], name, number, "written", 0)]
            if companion := _FOR_COMPANION.search(match["rest"]):
                found.append(Evidence(normal(companion["package"]), companion["version"], name, number, "pin", 0))
            return found
    return []


def stated_in(text: str, name: str) -> list[Evidence]:
    """The pins a dependency list ``name`` holding ``text`` states (a written folder read back from memory)."""
    return _statements(text, name, "deps", 0)


# A lock file's package entry: uv.lock, poetry.lock and pdm.lock are TOML ([[package]] with name and version, and
# for a git source, uv's `source = { git = "…#<commit>" }`); Pipfile.lock is JSON ("trl": {… "version": "==X"}).
_LOCKED_NAME = lazy(r'^name\s*=\s*"([^"]+)"')
_LOCKED_VERSION = lazy(r'^version\s*=\s*"v?([0-9][^"]*)"')
_LOCKED_GIT = lazy(r'^source\s*=\s*\{[^}]*\bgit\s*=\s*"[^"#]*#([0-9a-f]{7,40})"')
_PIPFILE_LOCKED = re.compile(r'"([A-Za-z0-9][\w.-]*)"\s*:\s*\{[^{}]*?"version"\s*:\s*"==v?([0-9][^"]*)"')


def _locked(text: str, path: str, distance: int) -> list[Evidence]:
    """The exact versions a lock file installs (``uv sync``, ``poetry install``, ``pipenv sync``): pins; a package
    locked to a git commit gives that commit."""
    name = shown(path)
    if path.endswith("Pipfile.lock"):
        return [
            Evidence(normal(m[1]), m[2], name, text.count("\n", 0, m.start()) + 1, "pin", distance)
            for m in _PIPFILE_LOCKED.finditer(text)
        ]
    found: list[Evidence] = []
    package: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("[[package]]") or (line.startswith("[") and not line.startswith("[package")):
            package = None
        elif package is None and (named := _LOCKED_NAME.match(line)):
            package = normal(named[1])
        elif package is not None and (version := _LOCKED_VERSION.match(line)):
            found.append(Evidence(package, version[1], name, number, "pin", distance))
        elif package is not None and (commit := _LOCKED_GIT.match(line)):
            found.append(Evidence(package, commit[1], name, number, "git-commit", distance))
    return found


def _statements(text: str, path: str, how: str, distance: int) -> list[Evidence]:
    if how == "lock":
        return _locked(text, path, distance)
    found: list[Evidence] = []
    weight = ("deps", "install", "readme").index(how)
    name = shown(path)
    fenced = installing = continued = False
    poetry = False
    commands: list[tuple[int, str]] = []  # the lines of an install file (Dockerfile, script) that run as commands
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if how == "readme" and stripped.startswith("```"):
            fenced = not fenced
            continue
        if how == "readme" and not fenced:
            continue
        if how == "install" and not stripped.startswith("#"):
            commands.append((number, line.split(" #", 1)[0]))
        if stripped.startswith("["):
            poetry = stripped.startswith("[tool.poetry") and "dependencies" in stripped
        code = line.split(" #", 1)[0] if not stripped.startswith("#") else ""
        if how in ("install", "readme"):
            # a pin counts on a pip install line, or a line continuing one with a trailing backslash
            installing = ("pip" in code and "install" in code) or (continued and installing)
            continued = code.rstrip().endswith("\\")
            if not installing:
                continue
        for match in _PIN.finditer(code):
            found.append(Evidence(normal(match[1]), match[2].rstrip(".-"), name, number, "pin", distance, None, weight))
        if path.endswith((".yml", ".yaml")) and (conda := _CONDA.match(code)) and "==" not in code:
            found.append(Evidence(normal(conda[1]), conda[2], name, number, "pin", distance, None, weight))
        if poetry and (poetry_pin := _POETRY.match(code)) and normal(poetry_pin[1]) != "python":
            found.append(Evidence(normal(poetry_pin[1]), poetry_pin[2], name, number, "pin", distance, None, weight))
        if path.endswith(".toml") and (source := _TOML_GIT.match(code)):
            ref = source[2] or "HEAD"
            kind = "git-tag" if _TAG.fullmatch(ref) else "git-commit" if _COMMIT.fullmatch(ref) else "git-ref"
            version = _TAG.fullmatch(ref)[1] if kind == "git-tag" else ref  # type: ignore[index]
            found.append(Evidence(normal(source[1]), version, name, number, kind, distance, None, weight))
        for match in _GIT.finditer(code):
            found.append(_git_evidence(match[1], match[2], name, number, distance, weight))
    return found + [
        _git_evidence(package, ref, name, number, distance, weight) for number, package, ref in _clones(commands)
    ]


def _git_evidence(package: str, ref: str, file: str, line: int, distance: int, weight: int) -> Evidence:
    """A git pin of ``package`` to ``ref``: a release tag (v0.4.0), a commit (7 to 40 hex digits) or a branch."""
    kind = "git-tag" if _TAG.fullmatch(ref) else "git-commit" if _COMMIT.fullmatch(ref) else "git-ref"
    version = _TAG.fullmatch(ref)[1] if kind == "git-tag" else ref  # type: ignore[index]
    return Evidence(normal(package), version, file, line, kind, distance, None, weight)


_CLONE_VALUE_OPTIONS = frozenset(("-b", "--branch", "--depth", "-o", "--origin", "-c", "--config", "-j", "--jobs"))


def _clones(commands: list[tuple[int, str]]) -> list[tuple[int, str, str]]:
    """(line, package, ref) of each ``git clone [-b REF] URL [DIR]`` that a later ``git checkout REF`` (or ``git
    reset --hard REF``) in the same command or one of the next few fixes to a ref (a Dockerfile's ``RUN git clone
    https://github.com/org/fw.git && cd fw && git checkout 4f80e465``; ``-b v0.4.0``): the package is the
    repository's name. A clone of the default branch with no checkout names no ref and no version."""
    logical: list[tuple[int, list[str]]] = []  # commands with their continued lines joined, split into words
    start, held = 0, ""
    for number, line in commands:
        start, held = (start, held) if held else (number, "")
        held += line.rstrip()
        if held.endswith("\\"):
            held = held[:-1] + " "
            continue
        logical.append((start, re.sub(r"[\"'()]", " ", held).replace(";", " ; ").split()))
        held = ""
    found: list[tuple[int, str, str]] = []
    for k, (number, words) in enumerate(logical):
        for i in [i for i in range(len(words) - 1) if words[i] == "git" and words[i + 1] == "clone"]:
            ref, url, j = None, None, i + 2
            while j < len(words) and url is None:
                word = words[j]
                if word in _CLONE_VALUE_OPTIONS:
                    ref = words[j + 1] if word in ("-b", "--branch") and j + 1 < len(words) else ref
                    j += 2
                    continue
                if word.startswith("--branch="):
                    ref = word.partition("=")[2]
                elif not word.startswith("-"):
                    url = word
                j += 1
            package = posixpath.basename((url or "").rstrip("/")).removesuffix(".git")
            if not url or "/" not in url or not re.fullmatch(r"[\w.-]+", package):
                continue
            later = [w for _, ws in logical[k : k + 6] for w in ws]
            rest = later[later.index(url) + 1 :] if url in later else []
            until = next((n for n in range(len(rest) - 1) if rest[n : n + 2] == ["git", "clone"]), len(rest))
            checkout = _checked_out(rest[:until])
            if checkout or ref:
                found.append((number, package, checkout or ref or ""))
    return found


def _checked_out(words: list[str]) -> str | None:
    """The ref a ``git checkout REF`` / ``git -C DIR checkout REF`` / ``git reset --hard REF`` among ``words`` names
    (not ``checkout -b NEW``, which makes a branch)."""
    for n in range(len(words) - 2):
        if words[n] != "git":
            continue
        rest = words[n + 1 : n + 5]
        if rest[:1] == ["-C"]:
            rest = rest[2:]
        if rest[:1] == ["checkout"] and len(rest) > 1 and not rest[1].startswith("-"):
            return rest[1]
        if rest[:2] == ["reset", "--hard"] and len(rest) > 2:
            return rest[2]
    return None
