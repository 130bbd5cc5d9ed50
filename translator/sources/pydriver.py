"""A Python driver that builds a command line as a string, evaluated statically (never imported or run).

A driver keeps its options in a dataclass with defaults, derives a few more in ``__post_init__`` and builds the
command from string pieces in a function (literals, implicit concatenation, f-strings over ``args.<field>`` and
local names, ``+=`` under an ``if``, a ``match`` on a field). :class:`Evaluator` runs those statements over ast
with the defaults: a branch whose test it can compute is taken as the defaults take it; a piece it cannot compute
(a call it does not know, a name with no value) becomes an :class:`Unknown`, written into the text as ``${NAME}``
so that the shell-word readers treat the words it lands in as unknown, never as a guessed value. The caller
supplies what the framework's helpers return (``helpers``) and the names its modules provide (``names``).
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, cast

OPERATORS: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
COMPARISONS: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}


MAX_DEPTH = 40  # nested expressions deeper than this are left unknown
_FLAG = re.compile(r"(?<![\w-])--[A-Za-z][\w-]*")
MAX_TEXT = 1_000_000  # a string built longer than this (characters) is not a command line
MAX_INT_BITS = 256  # an operand larger than this is no config value (and products of such grow without bound)

_ARITHMETIC: dict[type[ast.operator], Callable[[Any, Any], Any]] = {**OPERATORS, ast.Pow: operator.pow}

# str methods that only compute a new str from str arguments (no I/O): name → the arguments they take at most
_STR_METHODS = {
    **dict.fromkeys(("lower", "upper", "casefold", "title", "capitalize"), 0),
    **dict.fromkeys(("strip", "lstrip", "rstrip", "removeprefix", "removesuffix"), 1),
    "replace": 2,
}

_BUILTINS: dict[str, Callable[..., Any]] = {"max": max, "min": min, "int": int, "str": str, "bool": bool, "len": len}


@dataclass(frozen=True)
class Unknown:
    """A value the evaluator cannot compute: where (``file:line``) and why."""

    origin: str
    why: str
    tag: str = ""  # tells apart two unknowns of one line (:func:`distinct`)
    several: bool = False  # stands for text that may hold several words (what the branches of an `if` add)
    alternatives: tuple[str, ...] | None = None  # that text on each way through the `if`, where each is known

    @property
    def name(self) -> str:
        """The placeholder's name in the text (``${unknown_L12}``: the line it comes from)."""
        return "unknown_L" + self.origin.rpartition(":")[2] + self.tag


@dataclass(frozen=True)
class Text:
    """A string some of whose pieces are unknown."""

    pieces: tuple[str | Unknown, ...]

    def render(self) -> str:
        return "".join(p if isinstance(p, str) else "${" + p.name + "}" for p in self.pieces)

    @property
    def unknowns(self) -> list[Unknown]:
        return [p for p in self.pieces if isinstance(p, Unknown)]


@dataclass(frozen=True)
class Record:
    """An instance of one of the module's own dataclasses (a table of recipes): its fields' values."""

    cls: str
    values: tuple[tuple[str, Any], ...]

    def get(self, name: str) -> Any:
        return dict(self.values).get(name, _MISSING)


_MISSING = object()


class _Stop(Exception):
    """The path stops here (a ``raise`` the defaults reach, or a ``return``)."""

    def __init__(self, raised: bool, line: int, value: Any = None) -> None:
        super().__init__()
        self.raised, self.line, self.value = raised, line, value


def distinct(text: Text) -> Text:
    """The text with a name of its own for each different unknown (a second one of line 12 is ``unknown_L12_2``);
    the same unknown used twice keeps one name."""
    names: dict[Unknown, Unknown] = {}
    taken: dict[str, int] = {}
    for piece in text.unknowns:
        if piece not in names:
            taken[piece.name] = taken.get(piece.name, 0) + 1
            count = taken[piece.name]
            names[piece] = piece if count == 1 else replace(piece, tag=f"_{count}")
    return Text(tuple(names[p] if isinstance(p, Unknown) else p for p in text.pieces))


def text_of(value: Any) -> Text:
    """A value as a string with pieces (an unknown stays an unknown piece)."""
    if isinstance(value, Text):
        return value
    if isinstance(value, Unknown):
        return Text((value,))
    return Text((value if isinstance(value, str) else str(value),))


def _concat(left: Any, right: Any) -> Text:
    return Text(text_of(left).pieces + text_of(right).pieces)


@dataclass
class Evaluator:
    """Runs a function's statements over ast with known values. ``fields``: the config object's fields (read as
    ``<config>.<field>`` and assigned by ``__post_init__``); ``names``: dotted names the modules provide
    (``U.NUM_GPUS_OF_HARDWARE``); ``helpers``: a called name's last part → what it returns, from the call node
    (None: not known); ``env``: environment variables (``os.environ.get``)."""

    file: str
    fields: dict[str, Any]
    names: Mapping[str, Any] = field(default_factory=dict)
    helpers: Mapping[str, Callable[[ast.Call, Evaluator], Any]] = field(default_factory=dict)
    env: Mapping[str, str] = field(default_factory=dict)
    config_names: frozenset[str] = frozenset({"args", "self", "config"})
    calls: dict[str, list[tuple[ast.Call, dict[str, Any]]]] = field(default_factory=dict)  # recorded calls
    watched: frozenset[str] = frozenset()  # callee names whose keyword values are recorded in ``calls``
    functions: dict[str, ast.FunctionDef] = field(default_factory=dict)  # the module's own functions, by name
    module: dict[str, Any] = field(default_factory=dict)  # the module's constants (a called function's globals)
    calling: int = 0  # how deep in the module's own functions
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)  # the module's own dataclasses, by name
    lines: list[str] = field(default_factory=list)  # the source's lines, to tell where each --flag is written
    flag_lines: dict[str, int] = field(default_factory=dict)  # --flag → the line of the last literal read holding it

    def note_flags(self, node: ast.expr, text: str) -> None:
        """Where the ``--flag`` words of a string literal are written: the line, within the literal's lines, that
        holds each (an implicit concatenation spans several)."""
        first, last = node.lineno, getattr(node, "end_lineno", None) or node.lineno
        for flag in _FLAG.findall(text):
            pattern = re.compile(re.escape(flag) + r"(?![\w-])")
            found = next((n for n in range(first, last + 1) if pattern.search(self.lines[n - 1])), first)
            self.flag_lines[flag[2:]] = found

    properties: dict[str, ast.FunctionDef] = field(default_factory=dict)  # the config class's @property methods

    def construct(self, cls: ast.ClassDef, node: ast.Call, scope: dict[str, Any], depth: int) -> Any:
        """``Cls(...)`` of one of the module's dataclasses: the call's arguments over its fields' defaults."""
        names = [i.target.id for i in cls.body if isinstance(i, ast.AnnAssign) and isinstance(i.target, ast.Name)]
        values = {
            i.target.id: self.value(i.value, self.module, depth + 1)
            for i in cls.body
            if isinstance(i, ast.AnnAssign) and isinstance(i.target, ast.Name) and i.value is not None
        }
        if len(node.args) > len(names) or any(isinstance(a, ast.Starred) for a in node.args):
            return self.unknown(node, f"'{ast.unparse(node.func)}(...)' takes other arguments")
        values.update({n: self.value(a, scope, depth + 1) for n, a in zip(names, node.args, strict=False)})
        for keyword in node.keywords:
            if keyword.arg is None:
                return self.unknown(node, f"'{ast.unparse(node.func)}(...)' unpacks a mapping")
            values[keyword.arg] = self.value(keyword.value, scope, depth + 1)
        return Record(cls.name, tuple(values.items()))

    def property_value(self, function: ast.FunctionDef, node: ast.AST) -> Any:
        """A ``@property`` of the config class: its body run with ``self`` the config."""
        if self.calling >= 8:
            return self.unknown(node, f"'{ast.unparse(node)}' is not followed")
        names = frozenset({function.args.args[0].arg}) if function.args.args else self.config_names
        return self.returned(function, dict(self.module), names, node, f"'{ast.unparse(node)}' raises")

    def call_function(self, function: ast.FunctionDef, node: ast.Call, scope: dict[str, Any], depth: int) -> Any:
        """What one of the module's own functions returns for this call: its body run with the call's arguments
        (the config object passed through), unknown when it does not return one value."""
        if self.calling >= 8 or function.args.vararg or function.args.kwarg:
            return self.unknown(node, f"'{ast.unparse(node)}' is not followed")
        local = dict(self.module)
        params = [a.arg for a in function.args.posonlyargs + function.args.args]
        defaults = dict(zip(params[::-1], function.args.defaults[::-1], strict=False))
        bound: dict[str, ast.expr] = dict(zip(params, node.args, strict=False))
        bound.update({k.arg: k.value for k in node.keywords if k.arg})
        saved = self.config_names
        names = set(saved)
        for param in params + [a.arg for a in function.args.kwonlyargs]:
            given = bound.get(param)
            if isinstance(given, ast.Name) and given.id in saved and given.id not in scope:
                names.add(param)  # the config object, under the function's own name for it
            elif given is not None:
                local[param] = self.value(given, scope, depth + 1)
            elif param in defaults:
                local[param] = self.value(defaults[param], self.module, depth + 1)
            else:
                local[param] = self.unknown(node, f"'{param}' of {function.name}() is not given")
        return self.returned(function, local, frozenset(names), node, f"with these values {function.name}() raises")

    def returned(
        self, function: ast.FunctionDef, local: dict[str, Any], names: frozenset[str], node: ast.AST, raises: str
    ) -> Any:
        """What ``function``'s body returns run in ``local``, with ``names`` naming the config object; unknown when
        it raises (``raises``, and the line), None when it returns nothing."""
        saved = self.config_names
        self.calling += 1
        self.config_names = names
        try:
            self.run(function.body, local)
        except _Stop as stop:
            if stop.raised:
                return self.unknown(node, f"{raises} (line {stop.line})")
            return stop.value
        finally:
            self.calling -= 1
            self.config_names = saved
        return None

    def unknown(self, node: ast.AST, why: str) -> Unknown:
        return Unknown(f"{self.file}:{getattr(node, 'lineno', 0)}", why)

    # ---------------------------------------------------------------- expressions
    def value(self, node: ast.expr, scope: dict[str, Any], depth: int = 0) -> Any:
        if depth > MAX_DEPTH:
            return self.unknown(node, "an expression nested too deeply")
        v = self.value
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str) and self.lines and "--" in node.value:
                self.note_flags(node, node.value)
            return node.value
        if isinstance(node, ast.NamedExpr):  # (name := value): the value, bound in the scope as well
            scope[node.target.id] = found = v(node.value, scope, depth + 1)
            return found
        if isinstance(node, ast.JoinedStr):
            out = Text(())
            for part in node.values:
                out = _concat(out, v(part, scope, depth + 1))
            return out if out.unknowns else out.render()
        if isinstance(node, ast.FormattedValue):
            inner = v(node.value, scope, depth + 1)
            spec = v(node.format_spec, scope, depth + 1) if node.format_spec is not None else ""
            if isinstance(inner, (Unknown, Text)) or not isinstance(spec, str):
                return inner if not isinstance(spec, (Text, Unknown)) else self.unknown(node, "a computed format")
            if isinstance(inner, Record):  # the dataclass's own repr is not rebuilt here
                return self.unknown(node, f"'{ast.unparse(node)}' formats a whole {inner.cls}")
            if node.conversion in (ord("r"), ord("a")):
                inner = repr(inner) if node.conversion == ord("r") else ascii(inner)
            try:
                return format(inner, spec)
            except (TypeError, ValueError):
                return self.unknown(node, f"'{ast.unparse(node)}' is not formatted")
        if isinstance(node, ast.Name):
            if node.id in scope:
                return scope[node.id]
            if node.id in ("True", "False", "None"):
                return {"True": True, "False": False, "None": None}[node.id]
            return self.unknown(node, f"'{node.id}' has no value rlconf can read")
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id in self.config_names and node.value.id not in scope:
                if node.attr in self.fields:
                    return self.fields[node.attr]
                if node.attr in self.properties:
                    return self.property_value(self.properties[node.attr], node)
                return self.unknown(node, f"'{ast.unparse(node)}' is not a field with a default")
            dotted = ast.unparse(node)
            if dotted in self.names:
                return self.names[dotted]
            base = v(node.value, scope, depth + 1)
            if isinstance(base, Record):
                found = base.get(node.attr)
                return self.unknown(node, f"'{dotted}' is no field of {base.cls}") if found is _MISSING else found
            if isinstance(base, Unknown):
                return base
            return self.unknown(node, f"'{dotted}' is computed when the driver runs")
        if isinstance(node, ast.Subscript):
            base, key = v(node.value, scope, depth + 1), v(node.slice, scope, depth + 1)
            if isinstance(base, (dict, list, tuple, str)) and not isinstance(key, (Unknown, Text)):
                try:
                    return base[key]
                except (KeyError, IndexError, TypeError):
                    return self.unknown(node, f"'{ast.unparse(node)}' has no such item")
            return self.unknown(node, f"'{ast.unparse(node)}' is not known")
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            items = [v(e, scope, depth + 1) for e in node.elts]
            return {ast.List: list, ast.Tuple: tuple, ast.Set: set}[type(node)](items)
        if isinstance(node, ast.Dict):
            if None in node.keys:
                return self.unknown(node, "a mapping unpacked from another")
            keys = [v(k, scope, depth + 1) for k in node.keys if k is not None]
            if any(isinstance(k, (Unknown, Text)) for k in keys):
                return self.unknown(node, "a mapping with a computed key")
            return dict(zip(keys, (v(x, scope, depth + 1) for x in node.values), strict=True))
        if isinstance(node, ast.BinOp):
            left, right = v(node.left, scope, depth + 1), v(node.right, scope, depth + 1)
            strings = all(isinstance(x, (str, Text, Unknown)) for x in (left, right))
            if isinstance(node.op, ast.Add) and strings and any(isinstance(x, (str, Text)) for x in (left, right)):
                joined = _concat(left, right)
                return joined if joined.unknowns else joined.render()
            for x in (left, right):
                if isinstance(x, Unknown):
                    return x
            if type(node.op) in _ARITHMETIC and not any(isinstance(x, Text) for x in (left, right)):
                return self.arithmetic(node, node.op, left, right)
            return self.unknown(node, f"'{ast.unparse(node)}' is not computed")
        if isinstance(node, ast.UnaryOp):
            operand = v(node.operand, scope, depth + 1)
            if isinstance(operand, Unknown):
                return operand
            if isinstance(node.op, ast.Not):
                truth = self.truth(operand, node)
                return truth if isinstance(truth, Unknown) else not truth
            if isinstance(node.op, ast.USub) and isinstance(operand, (int, float)):
                return -operand
            return self.unknown(node, f"'{ast.unparse(node)}' is not computed")
        if isinstance(node, ast.BoolOp):
            result: Any = None
            for operand_node in node.values:
                result = v(operand_node, scope, depth + 1)
                truth = self.truth(result, operand_node)
                if isinstance(truth, Unknown):
                    return truth
                if truth != isinstance(node.op, ast.And):  # `or` stops at a true value, `and` at a false one
                    return result
            return result
        if isinstance(node, ast.Compare):
            left = v(node.left, scope, depth + 1)
            for op, right_node in zip(node.ops, node.comparators, strict=True):
                right = v(right_node, scope, depth + 1)
                if any(isinstance(x, (Unknown, Text)) for x in (left, right)):
                    return self.unknown(node, f"'{ast.unparse(node)}' compares a value rlconf cannot read")
                try:
                    if not COMPARISONS[type(op)](left, right):
                        return False
                except TypeError:
                    return self.unknown(node, f"'{ast.unparse(node)}' is not computed")
                left = right
            return True
        if isinstance(node, ast.IfExp):
            truth = self.truth(v(node.test, scope, depth + 1), node.test)
            if isinstance(truth, Unknown):
                return truth
            return v(node.body if truth else node.orelse, scope, depth + 1)
        if isinstance(node, ast.Call):
            return self.call(node, scope, depth)
        return self.unknown(node, f"'{ast.unparse(node)}' is computed when the driver runs")

    def truth(self, value: Any, node: ast.AST) -> bool | Unknown:
        if isinstance(value, Unknown):
            return value
        if isinstance(value, Text):
            if any(isinstance(p, str) and p for p in value.pieces):
                return True  # some known text: not empty
            return self.unknown(node, f"whether '{ast.unparse(node)}' is empty is not known")
        return bool(value)

    def call(self, node: ast.Call, scope: dict[str, Any], depth: int) -> Any:
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        dotted = ast.unparse(node.func)
        if name in self.watched:
            kw = {k.arg: self.value(k.value, scope, depth + 1) for k in node.keywords if k.arg}
            self.calls.setdefault(name, []).append((node, kw))
            return None
        if dotted in ("os.environ.get", "os.getenv") and node.args:
            key = self.value(node.args[0], scope, depth + 1)
            default = self.value(node.args[1], scope, depth + 1) if len(node.args) > 1 else None
            if isinstance(key, str):
                return self.env.get(key, default)
        if name in self.helpers:
            found = self.helpers[name](node, self)
            if found is not None:
                return found
        if isinstance(node.func, ast.Name) and name in self.classes:
            return self.construct(self.classes[name], node, scope, depth)
        if isinstance(node.func, ast.Name) and name in self.functions:
            return self.call_function(self.functions[name], node, scope, depth)
        if (
            isinstance(node.func, ast.Attribute)
            and node.func.attr == "join"
            and isinstance(node.func.value, ast.Constant)
            and isinstance(node.func.value.value, str)
            and len(node.args) == 1
        ):
            items = self.value(node.args[0], scope, depth + 1)
            if isinstance(items, (list, tuple)) and all(isinstance(i, str) for i in items):
                return node.func.value.value.join(items)
        if isinstance(node.func, ast.Attribute) and node.func.attr in _STR_METHODS and not node.keywords:
            text = self.value(node.func.value, scope, depth + 1)
            arguments = [self.value(a, scope, depth + 1) for a in node.args]
            if (
                isinstance(text, str)
                and len(arguments) <= _STR_METHODS[node.func.attr]
                and all(isinstance(a, str) for a in arguments)
                # replace's result is at most (len + 1) × its new text long: bounded before it is built
                and (len(text) + 1) * max(1, len(arguments[1]) if len(arguments) == 2 else 1) <= MAX_TEXT
            ):  # `os.environ.get("X", "megatron").lower()`, `path.rstrip("/")`: a pure method of a known str
                result = getattr(text, node.func.attr)(*arguments)
                if len(result) <= MAX_TEXT:
                    return result
        if isinstance(node.func, ast.Name) and name in _BUILTINS and not node.keywords:
            arguments = [self.value(a, scope, depth + 1) for a in node.args]
            if not any(isinstance(a, (Unknown, Text)) for a in arguments):
                try:
                    return _BUILTINS[name](*arguments)
                except (TypeError, ValueError):
                    pass
        return self.unknown(
            node, f"'{ast.unparse(node)}' is computed when the driver runs (a call rlconf does not read)"
        )

    # ---------------------------------------------------------------- statements
    def run(self, body: list[ast.stmt], scope: dict[str, Any]) -> None:
        """Run statements in ``scope`` (local names → values), assigning config fields through ``self.fields``;
        :class:`_Stop` when the path raises or returns."""
        for statement in body:
            self.statement(statement, scope)

    def assign(self, target: ast.expr, value: Any, scope: dict[str, Any]) -> None:
        if isinstance(target, ast.Name):
            scope[target.id] = value
        elif (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id in self.config_names
        ):
            self.fields[target.attr] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value, (tuple, list)) and len(value) == len(target.elts):
                for item, part in zip(target.elts, value, strict=True):
                    self.assign(item, part, scope)
                return
            for item in target.elts:
                self.assign(item, self.unknown(target, f"'{ast.unparse(target)}' unpacks a value"), scope)

    def statement(self, node: ast.stmt, scope: dict[str, Any]) -> None:
        if isinstance(node, ast.Assign):
            value = self.value(node.value, scope)
            for target in node.targets:
                self.assign(target, value, scope)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            self.assign(node.target, self.value(node.value, scope), scope)
        elif isinstance(node, ast.AugAssign):
            old = self.value(node.target, scope) if isinstance(node.target, (ast.Name, ast.Attribute)) else None
            self.assign(node.target, self._combine(old, node, scope), scope)
        elif isinstance(node, ast.If):
            truth = self.truth(self.value(node.test, scope), node.test)
            if isinstance(truth, Unknown):
                self.undecided(node, [node.body, node.orelse], scope, truth)
            else:
                self.run(node.body if truth else node.orelse, scope)
        elif isinstance(node, ast.Match):
            self.match(node, scope)
        elif isinstance(node, (ast.With, ast.AsyncWith, ast.Try)):
            self.run(node.body, scope)  # a with's body runs; a try's body is the path that does not fail
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            why = self.unknown(node, f"set in the loop on line {node.lineno}")
            for name in _assigned(node):
                scope[name] = why
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            self.call(node.value, scope, 0)
        elif isinstance(node, ast.Raise):
            raise _Stop(True, node.lineno)
        elif isinstance(node, ast.Return):
            raise _Stop(False, node.lineno, self.value(node.value, scope) if node.value is not None else None)

    def _combine(self, old: Any, node: ast.AugAssign, scope: dict[str, Any]) -> Any:
        right = self.value(node.value, scope)
        if isinstance(node.op, ast.Add) and any(isinstance(x, (str, Text)) for x in (old, right)):
            joined = _concat(old, right)
            return joined if joined.unknowns else joined.render()
        if isinstance(old, Unknown) or isinstance(right, Unknown):
            return old if isinstance(old, Unknown) else right
        if type(node.op) in _ARITHMETIC and not any(isinstance(x, Text) for x in (old, right)):
            return self.arithmetic(node, node.op, old, right)
        return self.unknown(node, f"'{ast.unparse(node)}' is not computed")

    def arithmetic(self, node: ast.AST, op: ast.operator, left: Any, right: Any) -> Any:
        """``left op right`` on known values, bounded: a huge power or repeated string is not a config value (and
        computing it could hang); unknown then, as when the operands do not fit the operator."""
        sizes = [len(x) if isinstance(x, (str, list, tuple)) else 0 for x in (left, right)]
        counts = [x for x in (left, right) if isinstance(x, int)]
        if isinstance(op, ast.Pow) and not (isinstance(right, (int, float)) and abs(right) <= 64):
            return self.unknown(node, f"'{ast.unparse(node)}' is too large a power")
        if any(abs(c).bit_length() > MAX_INT_BITS for c in counts):  # powers of powers, statement after statement
            return self.unknown(node, f"'{ast.unparse(node)}' is too large a number")
        if isinstance(op, ast.Mult) and any(sizes) and any(abs(c) * max(sizes) > MAX_TEXT for c in counts):
            return self.unknown(node, f"'{ast.unparse(node)}' is too long")
        try:
            result = _ARITHMETIC[type(op)](left, right)
        except (TypeError, ZeroDivisionError, ValueError, OverflowError):
            return self.unknown(node, f"'{ast.unparse(node)}' is not computed")
        if isinstance(result, int) and abs(result).bit_length() > MAX_INT_BITS:
            return self.unknown(node, f"'{ast.unparse(node)}' is too large a number")
        return result

    def match(self, node: ast.Match, scope: dict[str, Any]) -> None:
        subject = self.value(node.subject, scope)
        if isinstance(subject, (Unknown, Text)):
            why = subject if isinstance(subject, Unknown) else self.unknown(node, "a match on a computed value")
            self.undecided(node, [case.body for case in node.cases], scope, why)
            return
        for case in node.cases:
            if case.guard is None and _matches(case.pattern, subject):
                self.run(case.body, scope)
                return

    def undecided(self, node: ast.stmt, bodies: list[list[ast.stmt]], scope: dict[str, Any], why: Unknown) -> None:
        """Branches whose test is not known: each runs on a copy; a name they leave different becomes its common
        leading text followed by an unknown piece (``x += "--flag "`` under the if: only that flag is unknown)."""
        results: list[tuple[dict[str, Any], dict[str, Any]]] = []
        for body in bodies:
            branch_scope, saved = dict(scope), dict(self.fields)
            try:
                self.run(body, branch_scope)
                results.append((branch_scope, dict(self.fields)))
            except _Stop as stop:
                if not stop.raised and self.calling:
                    raise _Stop(
                        False, node.lineno, Unknown(why.origin, f"a return under line {node.lineno}, and {why.why}")
                    ) from None
                if not stop.raised:
                    results.append((branch_scope, dict(self.fields)))
            self.fields.clear()
            self.fields.update(saved)
        if not results:
            raise _Stop(True, node.lineno)
        marker = Unknown(why.origin, f"the branches of line {node.lineno} differ, and {why.why}", several=True)
        for target, index in ((scope, 0), (self.fields, 1)):
            names = {n for result in results for n in result[index]}
            for name in names:
                values = [result[index].get(name, target.get(name, marker)) for result in results]
                if all(_same(values[0], x) for x in values[1:]):
                    target[name] = values[0]
                else:
                    target[name] = _common_prefix(values, marker)


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _common_prefix(values: list[Any], marker: Unknown) -> Any:
    """The pieces every value starts with (whole words of a text piece they share the start of), then the marker
    (or the marker alone); the marker keeps what each value has after them where all of that is known."""
    if not all(isinstance(x, (str, Text)) for x in values):
        return marker
    sequences = [list(text_of(x).pieces) for x in values]
    common: list[str | Unknown] = []
    while all(len(s) > len(common) for s in sequences) and all(
        _same(s[len(common)], sequences[0][len(common)]) for s in sequences
    ):
        common.append(sequences[0][len(common)])
    rests = [s[len(common) :] for s in sequences]
    heads = [r[0] if r else "" for r in rests]
    if all(isinstance(h, str) for h in heads):
        texts = cast(list[str], heads)
        low, high = min(texts), max(texts)  # the shared start of all is that of the least and the greatest
        size = next((k for k, (a, b) in enumerate(zip(low, high, strict=False)) if a != b), len(low))
        shared = low[:size]
        shared = shared[: shared.rfind(" ") + 1]  # whole words only: a word cut in two is unknown
        if shared:
            common.append(shared)
            rests = [[cast(str, r[0])[len(shared) :], *r[1:]] for r in rests]
    if all(isinstance(p, str) for r in rests for p in r):
        marker = replace(marker, alternatives=tuple("".join(cast(list[str], r)) for r in rests))
    return Text((*common, marker)) if common else marker


def _matches(pattern: ast.pattern, subject: Any) -> bool:
    if isinstance(pattern, ast.MatchValue) and isinstance(pattern.value, ast.Constant):
        return bool(pattern.value.value == subject)
    if isinstance(pattern, ast.MatchSingleton):
        return pattern.value is subject
    if isinstance(pattern, ast.MatchAs) and pattern.pattern is None:
        return True  # `case _` / `case name`
    if isinstance(pattern, ast.MatchOr):
        return any(_matches(p, subject) for p in pattern.patterns)
    if isinstance(pattern, ast.MatchSequence) and isinstance(subject, (tuple, list)):
        items = pattern.patterns
        if any(isinstance(p, ast.MatchStar) for p in items) or len(items) != len(subject):
            return False
        return all(_matches(p, x) for p, x in zip(items, subject, strict=True))
    return False


def _assigned(node: ast.AST) -> set[str]:
    names: set[str] = set()
    for child in ast.walk(node):
        if isinstance(child, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
            targets = child.targets if isinstance(child, ast.Assign) else [child.target]
            for target in targets:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


def dataclass_fields(
    tree: ast.Module, evaluator: Evaluator, base: str, scope: dict[str, Any] | None = None
) -> tuple[ast.ClassDef | None, dict[str, str]]:
    """The first module-level dataclass deriving from ``base`` (by the base's last name): its fields' defaults,
    over the module's constants ``scope``, are evaluated into ``evaluator.fields`` (a ``field(default_factory=...)``
    is unknown), and its annotations returned (field → annotation text)."""
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any(ast.unparse(b).rpartition(".")[2] == base for b in node.bases):
            annotations: dict[str, str] = {}
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    annotations[item.target.id] = ast.unparse(item.annotation)
                    if item.value is None:
                        evaluator.fields[item.target.id] = evaluator.unknown(item, "a field with no default")
                        continue
                    value = item.value
                    if isinstance(value, ast.Call) and ast.unparse(value.func).rpartition(".")[2] == "field":
                        given = {k.arg: k.value for k in value.keywords}
                        if "default" in given:
                            value = given["default"]
                    evaluator.fields[item.target.id] = evaluator.value(value, dict(scope or {}))
            return node, annotations
    return None, {}


def module_scope(tree: ast.Module, evaluator: Evaluator) -> dict[str, Any]:
    """The module's top-level ``NAME = value`` (and ``NAME += value``) statements evaluated in order."""
    scope: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            evaluator.statement(node, scope)
    return scope


def run_function(
    evaluator: Evaluator, function: ast.FunctionDef, scope: dict[str, Any], config_class: str | None
) -> str | None:
    """Run ``function``'s body in a copy of ``scope``: its parameter annotated with ``config_class`` (or named as
    a config) is the config object, another parameter is unknown unless it has a default. Returns the line of a
    ``raise`` the defaults reach, else None."""
    local = dict(scope)
    params = function.args.args + function.args.kwonlyargs
    defaults = dict(zip([a.arg for a in function.args.args][::-1], function.args.defaults[::-1], strict=False))
    defaults.update({a.arg: d for a, d in zip(function.args.kwonlyargs, function.args.kw_defaults, strict=True) if d})
    config_names = set()
    for param in params:
        annotation = ast.unparse(param.annotation) if param.annotation is not None else ""
        if (config_class and annotation.rpartition(".")[2] == config_class) or (
            not annotation and param.arg in evaluator.config_names
        ):
            config_names.add(param.arg)
        elif param.arg in defaults:
            local[param.arg] = evaluator.value(defaults[param.arg], scope)
        else:
            local[param.arg] = evaluator.unknown(function, f"'{param.arg}' is an argument of {function.name}()")
    evaluator.config_names = frozenset(config_names or evaluator.config_names)
    try:
        evaluator.run(function.body, local)
    except _Stop as stop:
        if stop.raised:
            return f"{evaluator.file}:{stop.line}"
    return None
