"""Write the names each module of a package defines, per release, from the released wheels (a data file a dialect
reads to tell whether ``from pkg.mod import name`` can work at a release: translator/dialects/release_names.py).

    pip download --no-deps -d WHEELS/0.14.0 trl==0.14.0   # one folder per release, for each release
    python scripts/gen_release_names.py trl WHEELS translator/frameworks/trl/release_names.txt

A module's names are every name bound at its top level, walking into top-level ``if``/``try`` blocks (a name bound
only under an optional dependency counts as defined: the check must never refuse a run that works), the strings of
a lazy package's ``_import_structure`` lists, and its submodules. A module with a top-level ``__getattr__`` may supply
any name (written ``*``). The wheels are read, never imported.
"""

from __future__ import annotations

import ast
import os
import re
import sys
import zipfile
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from translator.dialects.versions import version_key


def _bound(body: list[ast.stmt]) -> set[str]:
    names: set[str] = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names if a.name != "*")
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
            if any(isinstance(t, ast.Name) and t.id == "_import_structure" for t in targets) and node.value:
                names.update(_strings(node.value))
        elif isinstance(node, ast.If):
            names |= _bound(node.body) | _bound(node.orelse)
        elif isinstance(node, ast.Try):
            names |= _bound(node.body) | _bound(node.orelse) | _bound(node.finalbody)
            for handler in node.handlers:
                names |= _bound(handler.body)
        elif isinstance(node, (ast.With, ast.For)):
            names |= _bound(node.body)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):  # _import_structure["x"].extend([...])
            func = node.value.func
            if isinstance(func, ast.Attribute) and "_import_structure" in ast.unparse(func.value):
                names.update(s for arg in node.value.args for s in _strings(arg))
        subscript = isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript)
        if subscript and "_import_structure" in ast.unparse(node.targets[0]):  # type: ignore[union-attr]
            names.update(_strings(node.value))  # type: ignore[union-attr]
    return names


def _strings(node: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def module_names(wheel: str, package: str) -> dict[str, set[str] | None]:
    """Module (dotted) → names it defines; None: it may supply any name."""
    out: dict[str, set[str] | None] = {}
    with zipfile.ZipFile(wheel) as archive:
        # a wheel may hold the package under <dist>.data/purelib/ (or platlib/)
        files = {re.sub(r"^[^/]+\.data/(?:pure|plat)lib/", "", n): n for n in archive.namelist() if n.endswith(".py")}
        for inside, name in files.items():
            if not inside.startswith(package + "/"):
                continue
            parts = inside[:-3].split("/")
            dotted = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            try:
                tree = ast.parse(archive.read(name))
            except SyntaxError:
                out[dotted] = None
                continue
            names = _bound(tree.body)
            out[dotted] = None if "__getattr__" in names else names
        for dotted in list(out):  # a package's submodules are importable names of it
            parent, _, leaf = dotted.rpartition(".")
            if parent in out and out[parent] is not None:
                out[parent].add(leaf)  # type: ignore[union-attr]
    return out


def _spans(indexes: list[int]) -> str:
    spans: list[str] = []
    start = previous = indexes[0]
    for i in [*indexes[1:], -2]:
        if i != previous + 1:
            spans.append(f"{start}-{previous}" if previous != start else str(start))
            start = i
        previous = i
    return ",".join(spans)


def main(package: str, folder: str, output: str) -> None:
    releases = sorted(os.listdir(folder), key=lambda v: version_key(v) or ())
    present: dict[str, list[int]] = defaultdict(list)
    named: dict[tuple[str, str], list[int]] = defaultdict(list)
    anything: dict[str, list[int]] = defaultdict(list)
    for index, release in enumerate(releases):
        wheel = next(os.path.join(folder, release, f) for f in os.listdir(os.path.join(folder, release)))
        for module, names in module_names(wheel, package).items():
            present[module].append(index)
            if names is None:
                anything[module].append(index)
            for name in sorted(names or ()):
                named[(module, name)].append(index)
    lines = [
        f"# {package}: the names each module defines, per release (indexes into the releases line); '*': the "
        "module may supply any name there. scripts/gen_release_names.py from the PyPI wheels.",
        "releases " + " ".join(releases),
    ]
    for module in sorted(present):
        entries = [f"{name}:{_spans(spans)}" for (m, name), spans in sorted(named.items()) if m == module]
        if anything[module]:
            entries.append(f"*:{_spans(anything[module])}")
        lines.append(f"{module} {_spans(present[module])} " + " ".join(entries))
    with open(output, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:4])
