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

from translator.sources.code import main_block
from translator.sources.pyconfig import DeclaredOption, declared_option
from translator.sources.pydriver import COMPARISONS, OPERATORS

UNKNOWN: Any = type("Unknown", (), {"__repr__": lambda self: "UNKNOWN"})()
MAX_DEPTH = 4  # functions of the module followed from the parsing function, nested
MAX_STATEMENTS = 20_000  # statements looked at per read: a bound on time whatever the module holds


@dataclass(frozen=True)
class Stop:
    """Where the launch stops: the line of the ``raise`` or ``assert`` and its message (the exception's text as
    written, an f-string's placeholders filled in where their values are known)."""

    line: int
    message: str
    module: ast.Module | None = None  # the module holding the line (a helper's, imported), else the one walked


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


def declared_dests(tree: ast.Module | None) -> tuple[str, ...] | None:
    """The dests ``tree`` declares by name (``add_argument("--x", ...)``, ``set_defaults(x=...)``); None without
    a tree."""
    if tree is None:
        return None
    dests: list[str] = []
    for option, node in _declared(tree):
        dests.extend([option.dest] if option else [k.arg for k in node.keywords if k.arg])
    dests = [d for d in dests if d]
    return tuple(dict.fromkeys(dests))


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


def _required_left_out(tree: ast.Module, given: Mapping[str, Any]) -> bool:
    """Whether ``tree`` declares an option ``required=True`` that the launch does not give."""
    return any(
        option is not None
        and option.dest not in given
        and any(k.arg == "required" and _literal(k.value) is True for k in node.keywords)
        for option, node in _declared(tree)
    )


def _fields_complete(tree: ast.Module) -> bool:
    """Whether the fields of the arguments ``tree`` parses are exactly the options it declares: it builds one
    ``argparse.ArgumentParser`` (no ``parents``), declares every option with a literal name (``add_argument`` on it or
    on a group of it, or a helper given it with the option's name), and hands the parser to nothing else."""
    parsers: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = node.value.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name == "ArgumentParser" and any(k.arg == "parents" for k in node.value.keywords):
                return False
            if name in ("ArgumentParser", "add_argument_group", "add_mutually_exclusive_group"):
                parsers.update(t.id for t in node.targets if isinstance(t, ast.Name))
    if not parsers:
        return False
    for node in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "add_argument":
            if declared_option(node) is None:
                return False
        elif any(isinstance(a, ast.Name) and a.id in parsers for a in [*node.args, *(k.value for k in node.keywords)]):
            declares = any(isinstance(a, ast.Constant) and str(a.value).startswith("--") for a in node.args)
            if not declares or declared_option(node) is None:
                return False  # a helper adds options rlconf does not list
    return True


def _literal(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return UNKNOWN


def first_stop(
    tree: ast.Module,
    function: str | None,
    given: Mapping[str, Any],
    prefixed_parses: Mapping[str, tuple[str, ...]] | None = None,
    imported: Imported | None = None,
) -> Stop | None:
    """The first check of ``function`` (a function of ``tree``; None: the script's ``if __name__ == "__main__":``
    block) that stops the launch for certain, or the first comparison there that Python refuses (``None >= 1``,
    TypeError). ``given``: the options the launch sets (dest → its word, or True for a switch); the others take their
    defaults in ``tree``.
    ``prefixed_parses``: functions of other modules that parse the command line into a namespace whose every field
    starts with one of the prefixes given: merging one in leaves the other fields as they are. ``imported``: the
    function a name imported into a module means (its module's tree and its definition), where the project holds it;
    the arguments handed to one are followed into it as into a function of the module."""
    start = _functions(tree).get(function) if function is not None else main_block(tree)
    if start is None or _required_left_out(tree, given):
        return None  # argparse stops first, with a message of its own, on a required option left out
    run = _Run(tree, launch_values(tree, given), prefixed_parses or {}, imported)
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


class _Refused(Exception):
    """An operation Python refuses on values known for certain: an order comparison with None (TypeError), a field
    the parsed arguments certainly lack (AttributeError)."""

    def __init__(self, message: str, error: str = "TypeError") -> None:
        self.message, self.error = message, error


_ORDERS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)


# (module tree, name imported into it) → (the tree of the module defining it, its definition)
Imported = Callable[[ast.Module, str], "tuple[ast.Module, ast.FunctionDef] | None"]


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


@dataclass(frozen=True)
class _Namespace:
    """What another parse of the launch's command line returns: its fields (dest → value as the launch gives it),
    and, where rlconf cannot list them, the prefixes every other field it may hold starts with."""

    fields: Mapping[str, Any]
    prefixes: tuple[str, ...] = ()

    def may_set(self, dest: str) -> bool:
        return dest in self.fields or dest.startswith(self.prefixes)


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

    def __init__(
        self,
        tree: ast.Module,
        args: dict[str, Any],
        prefixed_parses: Mapping[str, tuple[str, ...]],
        imported: Imported | None,
    ) -> None:
        self.tree, self.functions = tree, _functions(tree)  # the module whose code runs now
        self.imported = imported
        self.prefixed_parses = prefixed_parses
        self.parsed = dict(args)  # the options as parsed, before the code changes any
        self.args = args
        self.all_unknown = False  # a function rlconf does not read was handed the arguments
        # every field the parsed arguments can hold is known: the module's parser declares each option it has by a
        # literal name (:func:`_fields_complete`), and no namespace that may hold others was merged in
        self.fields_known = _fields_complete(tree)
        self.statements = 0

    # ------------------------------------------------------------ statements
    def body(self, statements: list[ast.stmt], local: dict[str, Any], depth: int) -> None:
        for statement in statements:
            self.statements += 1
            if self.statements > MAX_STATEMENTS:
                raise _Exhausted
            self.statement(statement, local, depth)

    def statement(self, node: ast.stmt, local: dict[str, Any], depth: int) -> None:
        try:
            self._statement(node, local, depth)
        except _Refused as refused:
            raise _Stopped(Stop(node.lineno, f"{refused.error}: {refused.message}", self.tree)) from None

    def _statement(self, node: ast.stmt, local: dict[str, Any], depth: int) -> None:
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
                raise _Stopped(Stop(node.lineno, self.message(node.msg, local), self.tree))
        elif isinstance(node, ast.Raise):
            raise _Stopped(Stop(node.lineno, self.message(_exception_text(node.exc), local), self.tree))
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
        elif isinstance(node, ast.For) and (merged := self.merged(node, local)) is not None:
            self.fields_known = self.fields_known and not merged.prefixes
            self.args.update(merged.fields)
            self.args.update((d, UNKNOWN) for d in self.args if merged.may_set(d) and d not in merged.fields)
        elif isinstance(node, (ast.For, ast.While, ast.Try, ast.Match, ast.AsyncFor, ast.AsyncWith)):
            self.forget([node], local)  # run a number of times, or maybe not at all: what it sets is not known
        elif not isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom, ast.Pass, ast.Global)):
            self.forget([node], local)

    def assign(self, target: ast.expr, value: ast.expr, local: dict[str, Any]) -> None:
        if isinstance(target, ast.Name):
            if self.is_args(target, local) and isinstance(value, ast.Call) and not self.hands_args(value, local):
                # the arguments parsed again (``args = parse(...)``): the options as the launch gives them; from a
                # call other than a parser's own parse, their fields are that function's to decide
                parses = isinstance(value.func, ast.Attribute) and value.func.attr in ("parse_args", "parse_known_args")
                self.args, self.all_unknown = dict(self.parsed), False
                self.fields_known = self.fields_known and parses
                return
            local[target.id] = self.value(value, local)
        elif isinstance(target, ast.Attribute) and self.is_args(target.value, local):
            self.args[target.attr] = self.value(value, local)
        else:
            self.forget([ast.Assign([target], value)], local)

    def forget(self, nodes: list[Any], local: dict[str, Any]) -> None:
        """Whatever ``nodes`` may set is unknown after them (names, the arguments' fields, all of them when the
        arguments are handed to a function; of a namespace merged in, the fields it may set)."""
        for node in (n for top in nodes for n in self._walk(top, local)):
            if isinstance(node, ast.For) and (merged := self.merged(node, local)) is not None:
                self.args.update((d, UNKNOWN) for d in self.args if merged.may_set(d))
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                local[node.id] = UNKNOWN
            elif (
                isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and self.is_args(node.value, local)
            ):
                self.args[node.attr] = UNKNOWN
            elif isinstance(node, ast.Call) and self.hands_args(node, local):
                stored = self.stored_by(node, local)
                if stored is None:
                    self.all_unknown = True
                else:
                    self.args.update((d, UNKNOWN) for d in stored)

    def _walk(self, node: Any, local: dict[str, Any]) -> Iterator[Any]:
        """``ast.walk`` that yields a namespace merge loop but not what it holds (:meth:`merged` says what it sets)."""
        yield node
        if isinstance(node, ast.For) and self.merged(node, local) is not None:
            return
        for child in ast.iter_child_nodes(node):
            yield from self._walk(child, local)

    def merged(self, node: ast.For, local: dict[str, Any]) -> _Namespace | None:
        """The namespace ``for key, value in vars(ns).items(): setattr(args, key, value)`` merges into the
        arguments, where ``ns`` is one rlconf knows (:class:`_Namespace`); None for another loop."""
        target, call = node.target, node.iter
        if not (
            isinstance(target, ast.Tuple)
            and len(target.elts) == 2
            and all(isinstance(e, ast.Name) for e in target.elts)
            and isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "items"
            and isinstance(inner := call.func.value, ast.Call)
            and isinstance(inner.func, ast.Name)
            and inner.func.id == "vars"
            and len(inner.args) == 1
            and isinstance(inner.args[0], ast.Name)
            and len(node.body) == 1
            and not node.orelse
            and isinstance(statement := node.body[0], ast.Expr)
            and isinstance(setter := statement.value, ast.Call)
            and isinstance(setter.func, ast.Name)
            and setter.func.id == "setattr"
            and len(setter.args) == 3
            and self.is_args(setter.args[0], local)
            and [_attribute_chain(a) for a in setter.args[1:]] == [_attribute_chain(e) for e in target.elts]
        ):
            return None
        namespace = local.get(inner.args[0].id)
        return namespace if isinstance(namespace, _Namespace) else None

    def calls(self, node: ast.expr, local: dict[str, Any], depth: int) -> None:
        """Follow the calls of ``node`` that hand over the arguments: into a function of the module, or one the
        project's module it is imported from defines (its checks run too), else what it may set is unknown."""
        for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
            if not self.hands_args(call, local):
                continue
            found = self.resolved(self.tree, call)
            if found is None or depth >= MAX_DEPTH:
                self.forget([call], local)
                continue
            module, function, bound = found
            if bound is None:
                self.all_unknown = True
                continue
            caller = self.tree, self.functions
            self.tree, self.functions = module, _functions(module) if module is not self.tree else self.functions
            try:
                with contextlib.suppress(_Returned):  # its return ends it, not the caller
                    self.body(function.body, {"<args>": bound}, depth + 1)
            finally:
                self.tree, self.functions = caller

    def resolved(self, module: ast.Module, call: ast.Call, param: str | None = None) -> _Callee | None:
        """The function ``call`` (in ``module``) runs, where it is the module's own or one the project's module
        it is imported from defines: (its module, its definition, the name it calls the arguments by, or None when
        they are not handed to one of its parameters). ``param``: the caller's name of the arguments (else the
        current one)."""
        name = call.func.id if isinstance(call.func, ast.Name) else None
        if name is None:
            return None
        function = _functions(module).get(name) if module is not self.tree else self.functions.get(name)
        if function is None and self.imported is not None and (found := self.imported(module, name)):
            module, function = found
        if function is None:
            return None
        params = [a.arg for a in function.args.args]

        def is_args(node: ast.expr) -> bool:
            return isinstance(node, ast.Name) and node.id == param if param else self.is_args(node, {})

        given = [i for i, a in enumerate(call.args) if is_args(a)]
        keyword = [k.arg for k in call.keywords if k.arg and is_args(k.value)]
        return (
            module,
            function,
            params[given[0]] if given and given[0] < len(params) else keyword[0] if keyword else None,
        )

    def stored_by(self, call: ast.Call, local: dict[str, Any]) -> set[str] | None:
        """The fields of the arguments ``call`` may set (the function it runs and those that one hands them to,
        read without running); None when that is not known (a function rlconf cannot read, a name set by value)."""
        found = self.resolved(self.tree, call, local.get("<args>", "args"))
        return None if found is None or found[2] is None else _stores(self, *found, depth=0)

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
        except _Refused:
            raise
        except Exception:
            return UNKNOWN

    def _value(self, node: ast.expr, local: dict[str, Any]) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return local.get(node.id, UNKNOWN)
        if isinstance(node, ast.Attribute) and self.is_args(node.value, local):
            if self.fields_known and not self.all_unknown and node.attr not in self.args:
                raise _Refused(f"'Namespace' object has no attribute '{node.attr}'", "AttributeError")
            return UNKNOWN if self.all_unknown else self.args.get(node.attr, UNKNOWN)
        if isinstance(node, ast.Attribute) and isinstance(namespace := self.value(node.value, local), _Namespace):
            return namespace.fields.get(node.attr, UNKNOWN)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            truth = self.truth(node.operand, local)
            return UNKNOWN if truth is UNKNOWN else not truth
        if isinstance(node, ast.BoolOp):
            return self._bool(node, local)
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
            left, right = self.value(node.left, local), self.value(node.comparators[0], local)
            if left is UNKNOWN or right is UNKNOWN:
                return UNKNOWN
            operator = node.ops[0]
            if (
                isinstance(operator, _ORDERS)
                and None in (left, right)
                and all(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)) for v in (left, right))
            ):
                symbol = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}[type(operator)]
                raise _Refused(
                    f"'{symbol}' not supported between instances of '{type(left).__name__}' and "
                    f"'{type(right).__name__}' ({ast.unparse(node)})"
                )
            return _COMPARE[type(operator)](left, right)
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
            try:
                truth = self.truth(operand, local)
            except _Refused:
                if result is UNKNOWN:  # an operand before it may decide: Python need not evaluate this one
                    return UNKNOWN
                raise
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
        if name is not None and name in self.prefixed_parses and not node.args and not node.keywords:
            return _Namespace({}, self.prefixed_parses[name])
        return UNKNOWN

    def message(self, node: ast.expr | None, local: dict[str, Any]) -> str:
        """The exception's text as the launch would print it: an f-string's plain placeholders filled in where their
        values are known (others kept as written)."""
        if node is None:
            return "(no message)"
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if not isinstance(node, ast.JoinedStr):
            return ast.unparse(node)
        parts: list[str] = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                parts.append(str(part.value))
                continue
            assert isinstance(part, ast.FormattedValue)
            value = self.value(part.value, local) if part.conversion == -1 and part.format_spec is None else UNKNOWN
            parts.append("{" + ast.unparse(part.value) + "}" if value is UNKNOWN else str(value))
        return "".join(parts)

    def peeked(self, function: ast.FunctionDef) -> Any:
        """A function that parses the command line for one option and returns it (``partial, _ =
        parser.parse_known_args()`` ... ``return partial.name``): that option's value as the launch gives it. One
        that returns the namespace itself (``return partial``), with every option it parses declared in its own body:
        a :class:`_Namespace` of those options as the launch gives them."""
        parsed: set[str] = set()
        for node in ast.walk(function):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                func = node.value.func
                if isinstance(func, ast.Attribute) and func.attr in ("parse_known_args", "parse_args"):
                    for target in node.targets:
                        names = target.elts[:1] if isinstance(target, ast.Tuple) else [target]
                        parsed.update(n.id for n in names if isinstance(n, ast.Name))
        returns = [n for n in ast.walk(function) if isinstance(n, ast.Return)]
        if len(returns) == 1 and isinstance(returns[0].value, ast.Name) and returns[0].value.id in parsed:
            return self.namespace(function)
        if len(returns) != 1 or not isinstance(returns[0].value, ast.Attribute):
            return UNKNOWN
        value = returns[0].value
        if isinstance(value.value, ast.Name) and value.value.id in parsed:
            return self.parsed.get(value.attr, UNKNOWN)
        return UNKNOWN

    def namespace(self, function: ast.FunctionDef) -> Any:
        """The namespace ``function`` parses, where its body declares each option itself (``add_argument`` on a
        parser it makes, no helper handed the parser): those options as the launch gives them; else UNKNOWN."""
        parsers: set[str] = set()
        for node in ast.walk(function):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                func = node.value.func
                if isinstance(func, ast.Attribute) and func.attr == "ArgumentParser":
                    parsers.update(t.id for t in node.targets if isinstance(t, ast.Name))
        dests: list[str] = []
        for node in (n for n in ast.walk(function) if isinstance(n, ast.Call)):
            if any(isinstance(a, ast.Name) and a.id in parsers for a in node.args):
                return UNKNOWN  # a helper adds options rlconf does not list here
            if isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
                option = declared_option(node)
                if option is None:
                    return UNKNOWN
                dests.append(option.dest)
        if not parsers or not dests:
            return UNKNOWN
        return _Namespace({d: self.parsed.get(d, UNKNOWN) for d in dests})


_Callee = tuple[ast.Module, ast.FunctionDef, "str | None"]
# calls given the arguments that set none of their fields
_READS_ONLY = frozenset(("getattr", "hasattr", "print", "len", "str", "repr", "isinstance", "type", "id", "bool"))


def _stores(run: _Run, module: ast.Module, function: ast.FunctionDef, param: str | None, depth: int) -> set[str] | None:
    """The fields of ``param`` that ``function`` (of ``module``) may set, following the functions it hands it to;
    None where that is not known."""
    if param is None or depth > MAX_DEPTH:
        return None
    stored: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == param:
            if isinstance(node.ctx, (ast.Store, ast.Del)):
                stored.add(node.attr)
        elif isinstance(node, ast.Call):
            handed = [a for a in [*node.args, *(k.value for k in node.keywords)] if getattr(a, "id", None) == param]
            chain = _attribute_chain(node.func)
            if chain[:1] == [param]:  # a method of the arguments or of one of their fields
                if len(chain) < 3 or chain[1] == "__dict__":
                    return None  # param.set(...), param.__dict__.update(...)
                stored.add(chain[1])  # param.tags.append(x): that field changes
            if not handed or (isinstance(node.func, ast.Name) and node.func.id in _READS_ONLY):
                continue
            callee = run.resolved(module, node, param)
            inner = _stores(run, *callee, depth=depth + 1) if callee is not None else None
            if inner is None:
                return None
            stored |= inner
    return stored


def _attribute_chain(node: ast.expr) -> list[str]:
    """``a.b.c`` as ["a", "b", "c"] (a name and the attributes read from it); [] for anything else."""
    names: list[str] = []
    while isinstance(node, ast.Attribute):
        names.insert(0, node.attr)
        node = node.value
    return [node.id, *names] if isinstance(node, ast.Name) else []


def _exception_text(node: ast.expr | None) -> ast.expr | None:
    if isinstance(node, ast.Call):
        return node.args[0] if node.args else None
    return node
