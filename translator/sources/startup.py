"""A project's own start-up checks, read statically: the ``assert`` and ``raise`` statements of an argument-parsing
function (and of the functions of its module it hands the parsed arguments to) that a launch's options reach for
certain. Nothing is imported or run. Each option's value is the launch's word, converted by the option's type, else
its default in the module's ``add_argument`` calls; whatever the launch, the module and the code before a check do
not decide (an environment variable, a value set by a function of another module, a loop) is unknown, and a check
that depends on it, or sits in a branch an unknown test decides, is not reported: only a stop the launch cannot
avoid is (docs/launch-scripts.md "A copy's own start-up checks")."""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from translator.sources.pyconfig import DeclaredOption, declared_option
from translator.sources.pydriver import COMPARISONS, OPERATORS

UNKNOWN: Any = type("Unknown", (), {"__repr__": lambda self: "UNKNOWN"})()
MAX_DEPTH = 4  # functions of the module followed from the parsing function, nested
MAX_STATEMENTS = 20_000  # statements looked at per read: a bound on time whatever the module holds


@dataclass(frozen=True)
class Stop:
    """Where the launch stops: the line of the ``raise`` or ``assert`` and its message (the exception's text as
    written, an f-string's placeholders kept)."""

    line: int
    message: str


def _declared(tree: ast.Module) -> Iterator[tuple[DeclaredOption | None, ast.Call]]:
    """Every call that declares an option (``add_argument``, or a helper called as ``helper(parser, "--name",
    default=...)``), and every ``set_defaults`` call (with None)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Attribute) and node.func.attr == "set_defaults":
            yield None, node
        elif any(
            isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.startswith("--") for a in node.args
        ):
            option = declared_option(node)
            if option is not None:
                yield option, node


def launch_values(tree: ast.Module, given: Mapping[str, Any]) -> dict[str, Any]:
    """The parsed options by dest: what the launch gives (``given``: dest → its word, or True for a switch),
    converted by the option's type, else the option's default in ``tree`` (a switch's is False, an option's without
    one None; ``set_defaults`` replaces it). UNKNOWN where that is not a literal, two declarations disagree, the
    word holds a variable the shell left unset, or the option takes several words; options ``tree`` does not
    declare are not known (another module's parser gives them their type)."""
    values: dict[str, Any] = {}
    declared: dict[str, DeclaredOption] = {}
    for option, node in _declared(tree):
        if option is None:
            values.update((k.arg, _literal(k.value)) for k in node.keywords if k.arg)
            continue
        if option.switch:
            default = option.action == "store_false" if option.default is None else _literal(option.default)
        else:
            default = None if option.default is None else _literal(option.default)
        if option.dest in declared and values.get(option.dest) != default:
            default = UNKNOWN
        declared[option.dest], values[option.dest] = option, default
    for dest, word in given.items():
        option = declared.get(dest)
        if option is None:
            continue
        if option.switch:
            values[dest] = option.action == "store_true"
        elif not option.readable or not isinstance(word, str) or any(c in word for c in "$`<"):
            values[dest] = UNKNOWN
        else:
            try:
                values[dest] = option.convert(word) if option.convert is not None else word
            except ValueError:
                values[dest] = UNKNOWN
    return values


def _literal(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return UNKNOWN


def first_stop(tree: ast.Module, function: str, given: Mapping[str, Any]) -> Stop | None:
    """The first check of ``function`` (a function of ``tree``) that stops the launch for certain. ``given``: the
    options the launch sets (dest → its word, or True for a switch); the others take their defaults in ``tree``."""
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    start = functions.get(function)
    if start is None:
        return None
    run = _Run(functions, launch_values(tree, given))
    try:
        run.body(start.body, {}, depth=0)
    except _Stopped as stopped:
        return stopped.stop
    except (_Returned, _Exhausted):
        pass
    return None


class _Stopped(Exception):
    def __init__(self, stop: Stop) -> None:
        self.stop = stop


class _Returned(Exception):
    pass


class _Exhausted(Exception):
    """More statements than MAX_STATEMENTS: nothing is reported."""


# identity is read only against None: two equal words of a launch need not be one object
_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    **COMPARISONS,
    ast.Is: lambda a, b: a is b if b is None or a is None else UNKNOWN,
    ast.IsNot: lambda a, b: a is not b if b is None or a is None else UNKNOWN,
}
_BUILTINS: dict[str, Callable[[Any], Any]] = {"len": len, "bool": bool, "int": int, "float": float, "str": str}


class _Run:
    """One walk of the checks: the parsed arguments as the code has set them so far (``args``), and the name the
    current function calls them by."""

    def __init__(self, functions: dict[str, ast.FunctionDef], args: dict[str, Any]) -> None:
        self.functions = functions
        self.parsed = dict(args)  # the options as parsed, before the code changes any
        self.args = args
        self.all_unknown = False  # a function rlconf does not read was handed the arguments
        self.statements = 0

    # ------------------------------------------------------------ statements
    def body(self, statements: list[ast.stmt], local: dict[str, Any], depth: int) -> None:
        for statement in statements:
            self.statements += 1
            if self.statements > MAX_STATEMENTS:
                raise _Exhausted
            self.statement(statement, local, depth)

    def statement(self, node: ast.stmt, local: dict[str, Any], depth: int) -> None:
        if isinstance(node, ast.If):
            truth = self.truth(node.test, local)
            if truth is UNKNOWN:
                self.forget(node.body + node.orelse, local)
                if any(isinstance(n, ast.Return) for n in ast.walk(node)):
                    # it may return here: what follows may not run, and what it would set is not known
                    self.all_unknown = True
                    raise _Returned
            else:
                self.body(node.body if truth else node.orelse, local, depth)
        elif isinstance(node, ast.Assert):
            if self.truth(node.test, local) is False:
                raise _Stopped(Stop(node.lineno, _message(node.msg)))
        elif isinstance(node, ast.Raise):
            raise _Stopped(Stop(node.lineno, _message(_exception_text(node.exc))))
        elif isinstance(node, ast.Return):
            raise _Returned
        elif isinstance(node, ast.Assign):
            self.calls(node.value, local, depth)
            for target in node.targets:
                self.assign(target, node.value, local)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            if node.value is not None:
                self.calls(node.value, local, depth)
            self.forget([node], local)
            if isinstance(node, ast.AnnAssign) and node.value is not None:
                self.assign(node.target, node.value, local)
        elif isinstance(node, ast.Expr):
            self.calls(node.value, local, depth)
        elif isinstance(node, ast.With):
            self.body(node.body, local, depth)
        elif isinstance(node, (ast.For, ast.While, ast.Try, ast.Match, ast.AsyncFor, ast.AsyncWith)):
            self.forget([node], local)  # run a number of times, or maybe not at all: what it sets is not known
        elif not isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom, ast.Pass, ast.Global)):
            self.forget([node], local)

    def assign(self, target: ast.expr, value: ast.expr, local: dict[str, Any]) -> None:
        if isinstance(target, ast.Name):
            if self.is_args(target, local) and isinstance(value, ast.Call) and not self.hands_args(value, local):
                # the arguments parsed again (``args = parse(...)``): the options as the launch gives them
                self.args, self.all_unknown = dict(self.parsed), False
                return
            local[target.id] = self.value(value, local)
        elif isinstance(target, ast.Attribute) and self.is_args(target.value, local):
            self.args[target.attr] = self.value(value, local)
        else:
            self.forget([ast.Assign([target], value)], local)

    def forget(self, nodes: list[Any], local: dict[str, Any]) -> None:
        """Whatever ``nodes`` may set is unknown after them (names, the arguments' fields, all of them when the
        arguments are handed to a function)."""
        for node in (n for top in nodes for n in ast.walk(top)):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                local[node.id] = UNKNOWN
            elif (
                isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and self.is_args(node.value, local)
            ):
                self.args[node.attr] = UNKNOWN
            elif isinstance(node, ast.Call) and self.hands_args(node, local):
                self.all_unknown = True

    def calls(self, node: ast.expr, local: dict[str, Any], depth: int) -> None:
        """Follow the calls of ``node`` that hand over the arguments: into a function of the module (its checks
        run too), else what it may set is unknown."""
        for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
            if not self.hands_args(call, local):
                continue
            name = call.func.id if isinstance(call.func, ast.Name) else None
            function = self.functions.get(name) if name else None
            if function is None or depth >= MAX_DEPTH:
                self.all_unknown = True
                continue
            params = [a.arg for a in function.args.args]
            given = [i for i, a in enumerate(call.args) if self.is_args(a, local)]
            keyword = [k.arg for k in call.keywords if k.arg and self.is_args(k.value, local)]
            bound = params[given[0]] if given and given[0] < len(params) else keyword[0] if keyword else None
            if bound is None:
                self.all_unknown = True
                continue
            with contextlib.suppress(_Returned):  # its return ends it, not the caller
                self.body(function.body, {"<args>": bound}, depth + 1)

    def is_args(self, node: ast.expr, local: dict[str, Any]) -> bool:
        return isinstance(node, ast.Name) and node.id == local.get("<args>", "args")

    def hands_args(self, call: ast.Call, local: dict[str, Any]) -> bool:
        if isinstance(call.func, ast.Attribute) and self.is_args(call.func.value, local):
            return True  # a method of the namespace (args.__dict__.update(...))
        if isinstance(call.func, ast.Name) and call.func.id in ("getattr", "hasattr", "vars", "print", "len", "str"):
            return call.func.id == "vars"
        return any(self.is_args(a, local) for a in [*call.args, *(k.value for k in call.keywords)])

    # ------------------------------------------------------------ values
    def truth(self, node: ast.expr, local: dict[str, Any]) -> Any:
        value = self.value(node, local)
        if value is UNKNOWN:
            return UNKNOWN
        try:
            return bool(value)
        except Exception:
            return UNKNOWN

    def value(self, node: ast.expr, local: dict[str, Any]) -> Any:
        try:
            return self._value(node, local)
        except Exception:
            return UNKNOWN

    def _value(self, node: ast.expr, local: dict[str, Any]) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return local.get(node.id, UNKNOWN)
        if isinstance(node, ast.Attribute) and self.is_args(node.value, local):
            return UNKNOWN if self.all_unknown else self.args.get(node.attr, UNKNOWN)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            truth = self.truth(node.operand, local)
            return UNKNOWN if truth is UNKNOWN else not truth
        if isinstance(node, ast.BoolOp):
            return self._bool(node, local)
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
            left, right = self.value(node.left, local), self.value(node.comparators[0], local)
            if left is UNKNOWN or right is UNKNOWN:
                return UNKNOWN
            return _COMPARE[type(node.ops[0])](left, right)
        if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
            left, right = self.value(node.left, local), self.value(node.right, local)
            if left is UNKNOWN or right is UNKNOWN:
                return UNKNOWN
            return OPERATORS[type(node.op)](left, right)
        if isinstance(node, (ast.Tuple, ast.List)):
            items = [self.value(e, local) for e in node.elts]
            return UNKNOWN if any(i is UNKNOWN for i in items) else tuple(items)
        if isinstance(node, ast.IfExp):
            truth = self.truth(node.test, local)
            return UNKNOWN if truth is UNKNOWN else self.value(node.body if truth else node.orelse, local)
        if isinstance(node, ast.Call):
            return self._call(node, local)
        return UNKNOWN

    def _bool(self, node: ast.BoolOp, local: dict[str, Any]) -> Any:
        deciding = isinstance(node.op, ast.Or)  # the value that decides: True for `or`, False for `and`
        result: Any = not deciding
        for operand in node.values:
            truth = self.truth(operand, local)
            if truth is deciding:
                return deciding
            if truth is UNKNOWN:
                result = UNKNOWN
        return result

    def _call(self, node: ast.Call, local: dict[str, Any]) -> Any:
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name == "getattr" and len(node.args) >= 2 and self.is_args(node.args[0], local):
            attr = node.args[1]
            if isinstance(attr, ast.Constant) and isinstance(attr.value, str):
                found = self.value(ast.Attribute(node.args[0], attr.value, ast.Load()), local)
                absent = attr.value not in self.args and not self.all_unknown
                return self.value(node.args[2], local) if absent and len(node.args) > 2 else found
        if name == "hasattr" and len(node.args) == 2 and self.is_args(node.args[0], local):
            attr = node.args[1]
            # an option the parser declares is always an attribute (argparse sets its default); another may be
            # set elsewhere (a second parser's namespace merged in), so it is not known to be absent
            declared = isinstance(attr, ast.Constant) and isinstance(attr.value, str) and attr.value in self.args
            return True if declared else UNKNOWN
        if name in _BUILTINS and len(node.args) == 1:
            inner = self.value(node.args[0], local)
            return UNKNOWN if inner is UNKNOWN else _BUILTINS[name](inner)
        if name in self.functions and not node.args and not node.keywords:
            return self.peeked(self.functions[name])
        return UNKNOWN

    def peeked(self, function: ast.FunctionDef) -> Any:
        """A function that parses the command line for one option and returns it (``partial, _ =
        parser.parse_known_args()`` ... ``return partial.name``): that option's value as the launch gives it."""
        parsed: set[str] = set()
        for node in ast.walk(function):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                func = node.value.func
                if isinstance(func, ast.Attribute) and func.attr in ("parse_known_args", "parse_args"):
                    for target in node.targets:
                        names = target.elts[:1] if isinstance(target, ast.Tuple) else [target]
                        parsed.update(n.id for n in names if isinstance(n, ast.Name))
        returns = [n for n in ast.walk(function) if isinstance(n, ast.Return)]
        if len(returns) != 1 or not isinstance(returns[0].value, ast.Attribute):
            return UNKNOWN
        value = returns[0].value
        if isinstance(value.value, ast.Name) and value.value.id in parsed:
            return self.parsed.get(value.attr, UNKNOWN)
        return UNKNOWN


def _exception_text(node: ast.expr | None) -> ast.expr | None:
    if isinstance(node, ast.Call):
        return node.args[0] if node.args else None
    return node


def _message(node: ast.expr | None) -> str:
    if node is None:
        return "(no message)"
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return ast.unparse(node)
