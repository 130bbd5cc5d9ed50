"""Every rule and note code the code of translator/ can emit, found by reading it with ``ast`` (never from the
catalogue): the string given as the rule of a ``Finding`` (or of a helper that passes its argument on to one), the
code of a ``Note``, ``NoteList.add/info/warning/error`` or ``ShellNote``, and the (severity, code, message)
tuples of pending version notes. A code held in a variable is followed to where the variable is set, or, for a
parameter, to every call of that function; an f-string expands over what its placeholders can hold."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "translator"
CODE = re.compile(r"^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$")
SEVERITIES = ("info", "warning", "error", "skipped")
# sink name → (index of the code among the call's positional arguments, kind, keyword name)
SINKS = {
    "Finding": (0, "check", "rule"),
    "Skipped": (0, "check", "rule"),
    "Note": (1, "note", "code"),
    "ShellNote": (1, "note", "code"),
    "info": (0, "note", "code"),
    "warning": (0, "note", "code"),
    "error": (0, "note", "code"),
    "add": (1, "note", "code"),
}
# f-string placeholders that hold a framework's name
FRAMEWORK_NAMES = ("spec.framework", "dialect.name", "self.name", "explanation.framework")
# placeholders that hold one of a few frameworks' names: the launch helper of slime's Python drivers, which slime and
# its fork Miles share (translator/frameworks/slime/driver.py Helper.code)
SOME_FRAMEWORKS = {"helper.code": ("slime", "miles")}


@dataclass
class Emitted:
    kind: str  # "check" or "note"
    places: list[str] = field(default_factory=list)  # file:line of each call
    severities: set[str] = field(default_factory=set)


class _Module:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.tree = ast.parse(path.read_text(encoding="utf-8"))
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node

    def function_of(self, node: ast.AST) -> ast.FunctionDef | None:
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return node  # type: ignore[return-value]
        return None


class Scanner:
    def __init__(self, frameworks: list[str], root: Path = ROOT) -> None:
        self.frameworks = frameworks
        self.modules = [_Module(p) for p in sorted(root.rglob("*.py"))]
        self.calls: dict[str, list[tuple[_Module, ast.Call]]] = {}
        for module in self.modules:
            for node in ast.walk(module.tree):
                if isinstance(node, ast.Call):
                    self.calls.setdefault(_called(node) or "", []).append((module, node))
        self._passed: dict[tuple[int, int], set[str]] = {}  # (function, parameter) → what its calls pass
        # severities given beside a code to a helper with a ``severity`` parameter (the sink sees only the name)
        self._passed_severity: dict[str, set[str]] = {}

    def scan(self) -> dict[str, Emitted]:
        found: dict[str, Emitted] = {}
        for name, calls in self.calls.items():
            for module, call in calls if name in SINKS else []:
                index, kind, keyword = SINKS[name]
                if name == "add" and not isinstance(call.func, ast.Attribute):
                    continue
                argument = _argument(call, index, keyword)
                severity = self._severity(call, name, module)
                if argument is not None:
                    for code in self.values(argument, module, 0):
                        self._record(found, code, kind, module, call, severity)
        for module in self.modules:  # pending version notes: ("info", "version.band", message)
            for node in ast.walk(module.tree):
                if (
                    isinstance(node, ast.Tuple)
                    and len(node.elts) == 3
                    and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts[:2])
                ):
                    severity, code = node.elts[0].value, node.elts[1].value  # type: ignore[attr-defined]
                    if severity in SEVERITIES and CODE.match(code):
                        self._record(found, code, "note", module, node, {severity})
        for code, severities in self._passed_severity.items():
            if code in found and severities:
                found[code].severities = severities | (found[code].severities & {"skipped"})
        return found

    def _record(
        self, found: dict[str, Emitted], code: str, kind: str, module: _Module, node: ast.AST, severity: set[str]
    ) -> None:
        if not CODE.match(code):
            return
        entry = found.setdefault(code, Emitted(kind))
        entry.places.append(f"{module.path.relative_to(ROOT.parent)}:{node.lineno}")  # type: ignore[attr-defined]
        entry.severities |= severity

    def _severity(self, call: ast.Call, name: str, module: _Module) -> set[str]:
        if name in ("info", "warning", "error"):
            return {name}
        index = {"Finding": 1, "Skipped": 1, "Note": 0, "add": 0}.get(name)
        if index is None:
            return set()
        argument = _argument(call, index, "severity")
        return {v for v in self.values(argument, module, 0, any_text=True) if v in SEVERITIES} if argument else set()

    def values(self, node: ast.AST, module: _Module, depth: int, any_text: bool = False) -> set[str]:
        """The strings an expression can hold (as far as the code shows)."""
        if depth > 6:
            return set()
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return {node.value}
        if isinstance(node, ast.IfExp):
            return self.values(node.body, module, depth, any_text) | self.values(node.orelse, module, depth, any_text)
        if isinstance(node, ast.JoinedStr):
            return self._expand(node, module, depth)
        if isinstance(node, ast.Name):
            return self._name(node, module, depth, any_text)
        return set()

    def _expand(self, node: ast.JoinedStr, module: _Module, depth: int) -> set[str]:
        texts = {""}
        for part in node.values:
            if isinstance(part, ast.Constant):
                options = {str(part.value)}
            else:
                shown = ast.unparse(part.value)  # type: ignore[attr-defined]
                options = (
                    set(self.frameworks)
                    if shown in FRAMEWORK_NAMES
                    else set(SOME_FRAMEWORKS[shown])
                    if shown in SOME_FRAMEWORKS
                    else self.values(part.value, module, depth + 1)
                )  # type: ignore[attr-defined]
            texts = {t + o for t in texts for o in options}
        return texts

    def _name(self, node: ast.Name, module: _Module, depth: int, any_text: bool) -> set[str]:
        function = module.function_of(node)
        if function is None:
            return set()
        found: set[str] = set()
        for inner in ast.walk(function):
            if isinstance(inner, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == node.id for t in inner.targets
            ):
                found |= self.values(inner.value, module, depth + 1, any_text)
            elif isinstance(inner, ast.For) and isinstance(inner.target, ast.Name) and inner.target.id == node.id:
                # for x in (a, b) / [a, b], or either of two tuples (for x in (a, b) if c else (a,))
                choices = [inner.iter.body, inner.iter.orelse] if isinstance(inner.iter, ast.IfExp) else [inner.iter]
                for choice in choices:
                    if isinstance(choice, (ast.Tuple, ast.List)):
                        for element in choice.elts:
                            found |= self.values(element, module, depth + 1, any_text)
        parameters = [a.arg for a in function.args.args]
        if node.id in parameters:
            found |= self._callers(function, parameters.index(node.id), node.id, depth)
        return found

    def _callers(self, function: ast.FunctionDef, index: int, name: str, depth: int) -> set[str]:
        """What each call of ``function`` (matched by name) passes for its parameter number ``index``."""
        if function.name in SINKS:  # a sink's own parameter: its calls are scanned as sinks
            return set()
        key = (id(function), index)
        if key in self._passed:
            return self._passed[key]
        self._passed[key] = set()  # a recursive call adds nothing new
        method = bool(function.args.args) and function.args.args[0].arg in ("self", "cls")
        found: set[str] = set()
        for module, call in self.calls.get(function.name, []):
            position = index - 1 if method and isinstance(call.func, ast.Attribute) else index
            argument = _argument(call, position, name)
            if argument is None:
                continue
            codes = self.values(argument, module, depth + 1)
            found |= codes
            parameters = [a.arg for a in function.args.args]
            if "severity" in parameters:
                at = parameters.index("severity") - (position != index)
                given = _argument(call, at, "severity")
                severities = (
                    {v for v in self.values(given, module, depth + 1, True) if v in SEVERITIES}
                    if given is not None
                    else set()
                )
                for code in codes:
                    self._passed_severity.setdefault(code, set()).update(severities)
        self._passed[key] = found
        return found


def _called(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _argument(call: ast.Call, index: int, keyword: str) -> ast.AST | None:
    for item in call.keywords:
        if item.arg == keyword:
            return item.value
    if 0 <= index < len(call.args) and not isinstance(call.args[index], ast.Starred):
        return call.args[index]
    return None


def emitted(frameworks: list[str]) -> dict[str, Emitted]:
    return Scanner(frameworks).scan()
