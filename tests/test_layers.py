"""One-way layers: every module of translator/ sits in one layer, and imports only its own layer or lower ones,
with no import cycle. Imports inside functions count (a lazy import is still a dependency); imports under
``if TYPE_CHECKING:`` do not (annotations only, never run). A framework's code is loaded by the registry from the
"module:attribute" names its registration holds (translator/framework.py ``load``): by design not an import."""

from __future__ import annotations

import ast
from pathlib import Path

import translator

PACKAGE = Path(translator.__file__).parent
# Top to bottom; a module belongs to the layer of its longest matching prefix.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("cli", ("translator.cli", "translator.__main__")),
    ("commands and reports", ("translator.many", "translator.reports", "translator.render", "translator.results")),
    (
        "library API",
        (
            "translator",
            "translator.api",
            "translator.compare",
            "translator.summary",
            "translator.wording",
            "translator.rules",
            "translator.rule_table",
            "translator.lines",
            "translator.checks",
            "translator.certainty",
        ),
    ),
    (
        "frameworks",
        (
            "translator.frameworks",
            "translator.framework",
            "translator.dialects",
            "translator.native_schemas",
            "translator.schema_gen",
            "translator.checks.findings",
            "translator.rule_info",
            "translator.concordance",
        ),
    ),
    ("sources", ("translator.sources",)),
    (
        "model",
        (
            "translator.plan",
            "translator.notes",
            "translator.records",
            "translator.errors",
            "translator.jsontext",
            "translator.redact",
            "translator.patterns",
        ),
    ),
)


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _layer(module: str) -> int:
    matches = [
        (len(prefix), rank)
        for rank, (_, prefixes) in enumerate(LAYERS)
        for prefix in prefixes
        if module == prefix or module.startswith(prefix + ".")
    ]
    assert matches, f"{module} is in no layer: add it to LAYERS"
    return max(matches)[1]


def _imports(path: Path, modules: dict[str, Path]) -> dict[str, int]:
    """translator modules imported anywhere in the file (functions too) → the line; TYPE_CHECKING blocks skipped."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
        for statement in block.body
        for node in ast.walk(statement)
    }

    def owner(name: str) -> str:
        while name not in modules:
            name = name.rpartition(".")[0]
        return name

    found: dict[str, int] = {}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [
                f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules else node.module for a in node.names
            ]
        else:
            continue
        for name in names:
            if name == "translator" or name.startswith("translator."):
                found.setdefault(owner(name), node.lineno)
    return found


def _graph() -> dict[str, dict[str, int]]:
    modules = _modules()
    return {
        name: {m: line for m, line in _imports(path, modules).items() if m != name} for name, path in modules.items()
    }


def test_no_module_imports_a_layer_above_its_own() -> None:
    graph = _graph()
    upward = [
        f"{m} ({LAYERS[_layer(m)][0]}) imports {d} ({LAYERS[_layer(d)][0]}) at line {line}"
        for m, imports in sorted(graph.items())
        for d, line in imports.items()
        if _layer(d) < _layer(m)
    ]
    assert not upward, "imports against the layer order:\n" + "\n".join(upward)


def _cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, {})))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycle() -> None:
    cycles = _cycles(_graph())
    assert not cycles, f"import cycles: {cycles}"


def test_the_checks_see_an_upward_import_and_a_cycle() -> None:
    # The walkers themselves, on a made-up graph: a → b → c → a is one cycle, d alone is none; and a real
    # function-level import (api.py's of translator.compare) is found.
    graph = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert "translator.compare" in _graph()["translator.api"]
    assert (
        _layer("translator.cli")
        < _layer("translator.api")
        < _layer("translator.frameworks.verl.dialect")
        < _layer("translator.sources.shell")
        < _layer("translator.plan")
    )
