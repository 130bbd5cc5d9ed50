"""A training script's config call, read statically: the keyword arguments of a call such as
``GRPOConfig(per_device_train_batch_size=6, ...)`` in a Python script or notebook export.

The file is parsed with :mod:`ast` and never imported or executed (docs/safety.md): its text comes bounded from
translator/sources/files.py. A keyword's value is read when it is a literal, a name bound once at module level to
such a value, or simple arithmetic of those; anything else is reported as unknown with its line, so that the
caller can say what to pass instead.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from translator.errors import ConfigError
from translator.sources.files import Source
from translator.sources.pydriver import OPERATORS, Evaluator, Record, Unknown, module_scope, run_function

MAX_DEPTH = 20  # nested arithmetic deeper than this is not a config value; it is left unknown


class _NotLiteral(Exception):
    """A value that is not a literal, a module constant or arithmetic of those (why, in words)."""


@dataclass
class ConfigCall:
    """The keyword arguments of one config call: the values read, where each was set, and those not read."""

    line: int  # the call's line
    values: dict[str, Any] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)  # key → "file:line"
    unknown: dict[str, str] = field(default_factory=dict)  # key → "file:line: why it is not read"


@dataclass
class Override:
    """A field of a parsed config object that the script sets after parsing (``args.x = 4``, ``setattr(args, "x",
    4)``, ``args.x *= 2``): the value when it is read, else why not. ``conditional``: set under an if, a loop, a
    try or a with, so whether it runs is not read."""

    key: str
    origin: str  # "file:line"
    value: Any = None
    why: str | None = None  # None: ``value`` was read
    conditional: bool = False


@dataclass
class PythonConfig:
    """What rlconf reads from a script: its top-level imports, in order, and the config call it found (if any)."""

    imports: list[str]  # modules imported at module level (``import a.b`` → "a.b", ``from a import b`` → "a")
    call: ConfigCall | None
    own_arguments: bool = False  # the script parses its command line with its own options (argparse, Hydra)
    # those options' values as the launch sets them (dest → value; an option whose value is not known is absent)
    argument_values: dict[str, Any] = field(default_factory=dict)
    composed_by_hydra: bool = False  # the options are Hydra overrides of the script's own composed config


def parse(source: Source) -> ast.Module:
    """The script's syntax tree; ConfigError with the line when it is not Python."""
    try:
        return ast.parse(source.text, filename=source.name)
    except (SyntaxError, ValueError) as error:
        raise ConfigError(
            f"not a Python script: {getattr(error, 'msg', error)}",
            file=source.name,
            line=getattr(error, "lineno", None),
            hint="pass the training script itself (a notebook exported as .py), or its launch script",
        ) from None


def imports(tree: ast.Module) -> list[str]:
    """The modules the script imports at module level, in order."""
    found: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append(node.module)
    return found


def _callee(call: ast.Call) -> str | None:
    """The called name's last part: ``Config`` for ``Config(...)`` and ``package.Config(...)``."""
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def config_calls(tree: ast.AST, classes: Iterable[str]) -> list[ast.Call]:
    """The calls in ``tree`` of one of ``classes`` (by the called name's last part)."""
    names = set(classes)
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and _callee(n) in names]


def _module_level(tree: ast.Module) -> list[ast.AST]:
    """The module's statements and expressions outside function and class bodies (whose names are local, unless
    declared global: a ``global`` statement makes the name unreadable, below)."""
    found: list[ast.AST] = []
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        found.append(node)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            pending.extend(ast.iter_child_nodes(node))
    return found


def _constants(tree: ast.Module) -> dict[str, ast.expr | None]:
    """Module-level names bound exactly once, by a plain ``NAME = value`` statement at the top level (None: bound
    more than once, in a loop, a with, an import, by a def, or declared global in a function)."""
    bound: dict[str, ast.expr | None] = {}

    def bind(name: str, value: ast.expr | None) -> None:
        bound[name] = None if name in bound else value

    top = {id(statement) for statement in tree.body}
    for node in _module_level(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            bind(node.targets[0].id, node.value if id(node) in top else None)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            bind(node.target.id, node.value if id(node) in top else None)
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        bind(name.id, None)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                for name in ast.walk(item.optional_vars) if item.optional_vars is not None else ():
                    if isinstance(name, ast.Name):
                        bind(name.id, None)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bind((alias.asname or alias.name).split(".")[0], None)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bind(node.name, None)
    for statement in ast.walk(tree):
        if isinstance(statement, ast.Global):  # a function may rebind it when the script runs
            for global_name in statement.names:
                bound[global_name] = None
    return bound


def _with_imported(tree: ast.Module, source: Source) -> dict[str, ast.expr | None]:
    """:func:`_constants`, with each name the script imports from a module of its own folder (``from config import
    TRAINING_ARGS``, config.py beside it: sys.path[0] of a script run by its path) bound to that module's constant.
    The module's other constants come along for the expression to read (``"max_steps": MAX_STEPS``) unless the
    script binds a name of its own that the expression reads: that import stays unknown."""
    constants = _constants(tree)
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
            continue
        try:
            module = source.sibling(node.module.replace(".", "/") + ".py", "module")
            theirs = _constants(ast.parse(module.text))
        except (ConfigError, SyntaxError, ValueError):
            continue
        # names this import binds to the module's own (from config import A, B): they read the same there
        same = {alias.name for alias in node.names if alias.asname in (None, alias.name)}
        for alias in node.names:
            value = theirs.get(alias.name)
            name = alias.asname or alias.name
            if value is None or constants.get(name, ...) is not None:
                continue
            reads = _names_read(value, theirs)
            if any(theirs.get(n) is None or (n in constants and n not in same) for n in reads):
                continue  # the expression reads a name the script binds itself, or one its module does not fix
            constants[name] = value
            constants.update({n: theirs[n] for n in reads})
    return constants


def _names_read(node: ast.expr, constants: dict[str, ast.expr | None]) -> set[str]:
    """The module names ``node`` reads, through the constants they name (bounded by the module's size)."""
    found: set[str] = set()
    queue = [node]
    while queue:
        for name in (n.id for n in ast.walk(queue.pop()) if isinstance(n, ast.Name)):
            if name not in found:
                found.add(name)
                if (value := constants.get(name)) is not None:
                    queue.append(value)
    return found


def _evaluate(
    node: ast.expr, constants: dict[str, ast.expr | None], depth: int = 0, arguments: Arguments | None = None
) -> Any:
    """A literal, a module constant, an option of the script's own argparse (``args.x``, ``arguments``) or
    arithmetic of those; _NotLiteral saying why otherwise."""
    if depth > MAX_DEPTH:
        raise _NotLiteral("an expression nested too deeply")
    if arguments is not None and (found := arguments.lookup(node, constants, depth)) is not _ABSENT:
        return found
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
        name = _callee(node)
        if name in _CONVERSIONS and isinstance(node.func, ast.Name) and name not in constants:
            value = _evaluate(node.args[0], constants, depth + 1, arguments)
            try:
                return _CONVERSIONS[name](value)
            except (TypeError, ValueError):
                raise _NotLiteral(f"'{ast.unparse(node)}' is not a {name}") from None
        if name == "to_container":  # OmegaConf.to_container(cfg.x): the mapping itself
            return _evaluate(node.args[0], constants, depth + 1, arguments)
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [_evaluate(e, constants, depth + 1, arguments) for e in node.elts]
        return items if isinstance(node, ast.List) else tuple(items)
    if isinstance(node, ast.Dict):
        mapping = {}
        for k, v in zip(node.keys, node.values, strict=True):
            if k is None:
                raise _NotLiteral(f"'{ast.unparse(node)}' unpacks another mapping")
            mapping[_evaluate(k, constants, depth + 1, arguments)] = _evaluate(v, constants, depth + 1, arguments)
        return mapping
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _evaluate(node.operand, constants, depth + 1, arguments)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return -value if isinstance(node.op, ast.USub) else value
        raise _NotLiteral(f"'{ast.unparse(node)}' is not a number")
    if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
        left = _evaluate(node.left, constants, depth + 1, arguments)
        right = _evaluate(node.right, constants, depth + 1, arguments)
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (left, right))
        if not numbers or (isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) and right == 0):
            raise _NotLiteral(f"'{ast.unparse(node)}' is not arithmetic of numbers")
        return OPERATORS[type(node.op)](left, right)
    if isinstance(node, ast.Name):
        if node.id in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[node.id]
        bound = constants.get(node.id)
        if bound is None:
            why = (
                "bound more than once or not by a plain assignment"
                if node.id in constants
                else "not bound at module level"
            )
            raise _NotLiteral(f"'{node.id}' is {why}")
        return _evaluate(bound, constants, depth + 1, arguments)
    raise _NotLiteral(f"'{ast.unparse(node)}' is computed when the script runs")


_CONVERSIONS: dict[str, Callable[[Any], Any]] = {"int": int, "float": float, "str": str, "bool": bool}
_ABSENT: Any = object()  # a lookup that found nothing


def _rooted(node: ast.expr) -> tuple[str, list[str]] | None:
    """``cfg.a.b`` / ``cfg["a"].b`` → ("cfg", ["a", "b"]); None when the chain does not start at a variable."""
    parts = _chain(node)
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return (node.id, parts) if parts is not None and isinstance(node, ast.Name) else None


def _consumed(tree: ast.Module, consumer: tuple[str, str], calls: list[ast.Call]) -> ast.Call | None:
    """The config call that a ``Trainer(args=...)`` call receives, directly or through a module-level name."""
    trainer, keyword = consumer
    constants = _constants(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _callee(node) == trainer:
            for kw in node.keywords:
                if kw.arg != keyword:
                    continue
                value = kw.value
                if isinstance(value, ast.Name):
                    value = constants.get(value.id) or value
                if isinstance(value, ast.Call) and value in calls:
                    return value
    return None


def read_config(
    source: Source,
    classes: Iterable[str],
    consumer: tuple[str, str] | None = None,
    argv: list[str] | None = None,
    compose: Callable[[list[str]], dict[str, Any]] | None = None,
) -> PythonConfig:
    """The script's imports and the keyword arguments of its call to one of ``classes`` (by the called name's last
    part). With several such calls, the one ``consumer`` = (trainer class, keyword) receives is read; ConfigError
    when that does not single one out. ``argv``: the words the launch passes the script, which its own argparse
    options (``args.x`` in the call) take (:func:`script_arguments`), or, in a script whose ``@hydra.main``
    function builds the config from its parameter (``cfg.a.b``), the Hydra overrides ``compose`` composes the
    script's own config with (:func:`hydra_arguments`)."""
    tree = parse(source)
    hydra = hydra_arguments(tree, argv, compose) if argv is not None and compose is not None else None
    arguments = hydra or (script_arguments(tree, argv) if argv is not None else None)
    calls = config_calls(tree, classes)
    given = dict(arguments.values) if arguments is not None else {}
    if not calls:
        return PythonConfig(imports(tree), None, arguments is not None, given, hydra is not None)
    calls.sort(key=lambda c: (c.lineno, c.col_offset))
    chosen = calls[0]
    if len(calls) > 1:
        picked = _consumed(tree, consumer, calls) if consumer else None
        if picked is None:
            lines = ", ".join(str(c.lineno) for c in calls)
            raise ConfigError(
                f"{len(calls)} config calls (lines {lines}) and none is passed to "
                + (f"{consumer[0]}({consumer[1]}=...)" if consumer else "the trainer"),
                file=source.name,
                line=calls[0].lineno,
                hint="keep one config call in the script, or pass the one that trains as "
                + (f"{consumer[0]}({consumer[1]}=config)" if consumer else "the trainer's argument"),
            )
        chosen = picked
    constants = _with_imported(tree, source)
    read = ConfigCall(chosen.lineno)
    for kw in chosen.keywords:
        line = getattr(kw, "lineno", chosen.lineno)
        if kw.arg is None:
            with suppress(_NotLiteral):
                unpacked = _evaluate(kw.value, constants, arguments=arguments)
                if isinstance(unpacked, dict) and all(isinstance(k, str) for k in unpacked):
                    read.values.update(unpacked)
                    read.origins.update(dict.fromkeys(unpacked, f"{source.name}:{line}"))
                    continue
            read.unknown[f"**{ast.unparse(kw.value)}"] = (
                f"{source.name}:{line}: the arguments unpacked from '{ast.unparse(kw.value)}' are not read"
            )
            continue
        try:
            read.values[kw.arg] = _evaluate(kw.value, constants, arguments=arguments)
            read.origins[kw.arg] = f"{source.name}:{line}"
        except _NotLiteral as why:
            read.unknown[kw.arg] = f"{source.name}:{line}: {why}"
    if read.unknown and hydra is None:
        _read_in_function(tree, chosen, source.name, arguments, read)
    for argument in chosen.args:
        read.unknown[f"positional {ast.unparse(argument)}"] = (
            f"{source.name}:{chosen.lineno}: a positional argument is not read"
        )
    return PythonConfig(imports(tree), read, arguments is not None, given, hydra is not None)


def _read_in_function(
    tree: ast.Module, call: ast.Call, file: str, arguments: Arguments | None, read: ConfigCall
) -> None:
    """The keywords a module-level reading left unknown that the function holding ``call`` computes before it:
    its statements run statically up to the call (translator/sources/pydriver.py), local names bound by plain
    assignments and by ``if`` chains the options decide (``if args.test: max_steps = 3 elif args.steps: ...``)."""
    functions = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and any(inner is call for inner in ast.walk(node))
    ]
    if not functions:
        return
    function = min(functions, key=lambda f: (f.end_lineno or 0) - f.lineno)  # the innermost
    callee = _callee(call) or ""
    values = arguments.values if arguments is not None else {}
    options = Record("Namespace", tuple(values.items()))
    evaluator = Evaluator(
        file,
        # a parameter named as the parsed options are bound (`args = parser.parse_args(); main(args)`) holds them
        fields=dict(values),
        config_names=arguments.namespaces if arguments is not None else frozenset(),
        watched=frozenset({callee}),
        # `args = parser.parse_args()`: the options as the launch sets them (an option not known is unknown)
        helpers={"parse_args": lambda node, evaluator: options} if arguments is not None else {},
        functions={f.name: f for f in tree.body if isinstance(f, ast.FunctionDef) and f is not function},
    )
    evaluator.module = module_scope(tree, evaluator)
    run_function(evaluator, function, evaluator.module, None)
    computed = next((kw for node, kw in evaluator.calls.get(callee, []) if node is call), {})
    for key in list(read.unknown):
        value = computed.get(key)
        if isinstance(value, (bool, int, float, str)) and not isinstance(value, Unknown):
            read.values[key] = value
            read.origins[key] = read.unknown.pop(key).split(": ", 1)[0]


@dataclass
class Arguments:
    """A script's own argparse options as a launch sets them: the names bound to the parsed namespace, and each
    option's value (dest → the launch's word, converted by the option's type, else its default)."""

    namespaces: frozenset[str]
    values: dict[str, Any]  # nested for a composed config: cfg.a.b is values["a"]["b"]

    def lookup(self, node: ast.expr, constants: dict[str, ast.expr | None], depth: int) -> Any:
        """The value ``node`` reads from the options (``args.x``, ``cfg.a.b``, ``cfg.a.get("b", 1)``), with
        ``${a.b}`` interpolations resolved; _ABSENT when it reads none of them."""
        default: ast.expr | None = None
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and 1 <= len(node.args) <= 2
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            rooted = _rooted(node.func.value)
            if rooted is not None:
                rooted = (rooted[0], [*rooted[1], node.args[0].value])
                default = node.args[1] if len(node.args) == 2 else ast.Constant(None)
        else:
            rooted = _rooted(node) if isinstance(node, (ast.Attribute, ast.Subscript)) else None
        if rooted is None or rooted[0] not in self.namespaces:
            return _ABSENT
        found = self._at(rooted[1])
        if found is _ABSENT:
            return _ABSENT if default is None else _evaluate(default, constants, depth + 1, self)
        from translator.sources.hydra import UNRESOLVED, resolve_interpolations

        def at(key: str) -> Any:
            value = self._at(key.split("."))
            return UNRESOLVED if value is _ABSENT else value

        found = resolve_interpolations(found, at, {})
        if isinstance(found, str) and "${" in found:
            raise _NotLiteral(f"'{ast.unparse(node)}' holds an interpolation resolved when the script runs")
        return found

    def _at(self, parts: list[str]) -> Any:
        value: Any = self.values
        for part in parts:
            if not isinstance(value, dict) or part not in value:
                return _ABSENT
            value = value[part]
        return value


@dataclass
class DeclaredOption:
    """One ``add_argument(...)`` call: its option words, where its value goes, its action, default and type."""

    words: list[str]
    dest: str
    action: str | None
    default: ast.expr | None
    convert: Callable[[str], Any] | None
    readable: bool  # one word (or none, for a switch) gives its value

    @property
    def switch(self) -> bool:
        return self.action in ("store_true", "store_false")


def option_names(tree: ast.Module) -> frozenset[str]:
    """Every name an ``add_argument(...)`` of ``tree`` is given on a command line or stored under: its long option
    words without the dashes (``--dynamic-history`` → ``dynamic_history``, aliases too) and its ``dest``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        option = declared_option(node) if isinstance(node, ast.Call) and _callee(node) == "add_argument" else None
        if option is not None:
            names.add(option.dest)
            names.update(w[2:].replace("-", "_") for w in option.words if w.startswith("--"))
    return frozenset(names)


def option_words(tree: ast.Module) -> frozenset[str] | None:
    """Every option word (``--flag``, ``-f``) the ``add_argument(...)`` calls of ``tree`` declare; None when they
    cannot all be known: a word that is not a literal, ``parse_known_args`` (unknown flags pass), or no option."""
    words: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _callee(node) == "parse_known_args":
            return None
        if isinstance(node, ast.Call) and _callee(node) == "add_argument":
            if not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args):
                return None
            words.update(a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str))
    return frozenset(words) or None


def declared_option(call: ast.Call) -> DeclaredOption | None:
    words = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    dest = keywords.get("dest")
    longs = [w for w in words if w.startswith("--")]
    name = dest.value if isinstance(dest, ast.Constant) else longs[0][2:].replace("-", "_") if longs else None
    if not isinstance(name, str):
        return None
    action = keywords.get("action")
    kind = action.value if isinstance(action, ast.Constant) and isinstance(action.value, str) else None
    given = keywords.get("type")
    convert = {"int": int, "float": float, "str": str}.get(given.id if isinstance(given, ast.Name) else "")
    readable = "nargs" not in keywords and (action is None or kind in ("store", "store_true", "store_false"))
    return DeclaredOption(words, name, kind, keywords.get("default"), convert, readable)


def script_arguments(tree: ast.Module, argv: list[str]) -> Arguments | None:
    """The script's ``parser.add_argument(...)`` options with the launch's words (``--x 1``, ``--x=1``, a
    ``store_true`` flag), when it parses them into a name bound at module level or at the top of a function (``args
    = parser.parse_args()``, or ``args = get_args()`` whose function returns ``parser.parse_args()``); None when it
    has no such parser."""

    def bound(body: list[ast.stmt], callees: set[str]) -> set[str]:  # names a body binds to a call of callees
        return {
            node.targets[0].id
            for node in body
            if isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)
            and _callee(node.value) in callees
        }

    # a function returning parser.parse_args(), directly or through a name it binds to it (`args = ...; return args`)
    returns_parse = {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        and any(
            isinstance(r, ast.Return)
            and (
                (isinstance(r.value, ast.Call) and _callee(r.value) == "parse_args")
                or (isinstance(r.value, ast.Name) and r.value.id in bound(node.body, {"parse_args"}))
            )
            for r in ast.walk(node)
        )
    }
    # bound at module level, in its `if __name__ == "__main__":` block, or at the top of a function (`def main():
    # args = parse_args()`)
    top = tree.body + [s for node in tree.body if isinstance(node, (ast.If, ast.FunctionDef)) for s in node.body]
    namespaces = frozenset(bound(top, {"parse_args", *returns_parse}))
    options: dict[str, DeclaredOption] = {}  # option word → the option
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _callee(node) == "add_argument":
            option = declared_option(node)
            if option is not None:
                options.update(dict.fromkeys(option.words, option))
    if not namespaces or not options:
        return dataclass_arguments(tree, argv)
    constants = _constants(tree)
    values: dict[str, Any] = {}
    for option in {id(o): o for o in options.values()}.values():
        with suppress(_NotLiteral):  # a default computed when the script runs: args.dest stays unread
            values[option.dest] = (
                _evaluate(option.default, constants)
                if option.default is not None
                else (option.action == "store_false" if option.switch else None)
            )
    position = 0
    while position < len(argv):
        word, _, inline = argv[position].partition("=")
        position += 1
        option = options.get(word)
        if option is None:
            continue
        if not option.readable:  # nargs, append, count…: not one word's value
            values.pop(option.dest, None)
        elif option.switch:
            values[option.dest] = option.action == "store_true"
        else:
            if not inline and position < len(argv):
                inline, position = argv[position], position + 1
            try:
                values[option.dest] = option.convert(inline) if option.convert is not None else inline
            except ValueError:
                values[option.dest] = inline  # a shell variable's text: kept as written (symbolic)
    return Arguments(namespaces, values)


def hydra_arguments(
    tree: ast.Module, argv: list[str], compose: Callable[[list[str]], dict[str, Any]]
) -> Arguments | None:
    """The config a ``@hydra.main`` function receives as its first parameter (``def main(cfg): ...``), composed by
    ``compose`` from the launch's words (Hydra overrides), when that function builds one of the script's config
    calls from it; None otherwise."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef) or not node.args.args:
            continue
        if not any(isinstance(d, ast.Call) and ast.unparse(d.func) == "hydra.main" for d in node.decorator_list):
            continue
        parameter = node.args.args[0].arg
        if any(isinstance(n, ast.Name) and n.id == parameter for n in ast.walk(node)):
            return Arguments(frozenset({parameter}), compose(argv))
    return None


# Calls that parse the command line into a dataclass of the script's own, each option a field with the field's
# default: tyro.cli(C), HfArgumentParser(C).parse_args_into_dataclasses(), simple_parsing.parse(C).
_DATACLASS_PARSERS = ("cli", "parse_args_into_dataclasses", "parse")


def dataclass_arguments(tree: ast.Module, argv: list[str]) -> Arguments | None:
    """A script's own options kept in a dataclass of its own (``@dataclass class Config`` with defaults): a name
    bound, at module level or in a function, to an instance of it built from the command line, where every field
    is an option ``--field`` with the field's default: ``Config()``, a parser that adds one option per field in a
    loop over ``fields(Config)`` with ``default=f.default`` and builds ``Config(**vars(parser.parse_args()))``,
    ``tyro.cli(Config)``, ``HfArgumentParser(Config)``; directly or through a function returning it. The values
    are the defaults with the launch's ``--field value`` words over them; None when there is no such name."""
    classes = {
        node.name: node
        for node in tree.body
        if isinstance(node, ast.ClassDef) and any("dataclass" in ast.unparse(d) for d in node.decorator_list)
    }
    if not classes:
        return None

    def built(value: ast.expr) -> str | None:
        """The dataclass a call builds from the command line, or None."""
        if not isinstance(value, ast.Call):
            return None
        name = _callee(value)
        if name in classes and ((not value.args and not value.keywords) or _parsed_per_field(tree, name, value)):
            return name
        if name in _DATACLASS_PARSERS:
            given = [a for a in ast.walk(value) if isinstance(a, ast.Name) and a.id in classes]
            return given[0].id if len(given) == 1 else None
        return returned.get(name or "")

    returned: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            results = [built(r.value) for r in ast.walk(node) if isinstance(r, ast.Return) and r.value is not None]
            if results and all(results) and len(set(results)) == 1:
                returned[node.name] = str(results[0])
    bound = {
        target.id: kind
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and (kind := built(node.value))
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    if len(set(bound.values())) != 1:
        return None
    cls = classes[next(iter(bound.values()))]
    constants = _constants(tree)
    values: dict[str, Any] = {}
    kinds: dict[str, str] = {}
    for item in cls.body:
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and item.value is not None:
            kinds[item.target.id] = ast.unparse(item.annotation)
            with suppress(_NotLiteral):  # a default computed when the script runs: the field stays unread
                values[item.target.id] = _evaluate(item.value, constants)
    position = 0
    while position < len(argv):
        word, _, inline = argv[position].partition("=")
        position += 1
        field_name = word[2:].replace("-", "_") if word.startswith("--") else None
        if field_name not in kinds:
            continue
        if not inline and position < len(argv):
            inline, position = argv[position], position + 1
        values[field_name] = _converted(inline, kinds[field_name])
    return Arguments(frozenset(bound), values)


def _converted(word: str, annotation: str) -> Any:
    """A command-line word as a field of that annotation takes it (a shell variable's text is kept as written)."""
    if annotation == "bool":
        return word.lower() in ("1", "true", "yes")
    convert = {"int": int, "float": float}.get(annotation)
    try:
        return convert(word) if convert is not None else word
    except ValueError:
        return word


def _parsed_per_field(tree: ast.Module, cls: str, call: ast.Call) -> bool:
    """``cls(**vars(parser.parse_args()))`` where the parser has one option per field, each defaulting to the
    field's default: ``for f in fields(cls): parser.add_argument(f"--{f.name}", default=f.default, ...)``."""
    unpacked = [k.value for k in call.keywords if k.arg is None]
    if call.args or len(unpacked) != 1 or "parse_args" not in ast.unparse(unpacked[0]):
        return False
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.For)
            and isinstance(node.target, ast.Name)
            and ast.unparse(node.iter) == f"fields({cls})"
        ):
            loop = node.target.id
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call) and _callee(inner) == "add_argument":
                    default = next((k.value for k in inner.keywords if k.arg == "default"), None)
                    word = ast.unparse(inner.args[0]) if inner.args else ""
                    if default is not None and ast.unparse(default) == f"{loop}.default" and f"{loop}.name" in word:
                        return True
    return False


# Statements whose bodies may not run (a with's body always does: ``with open_dict(config):`` is how a Hydra entry
# adds keys).
_BRANCHING = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.Match)


def _chain(node: ast.expr) -> list[str] | None:
    """``cfg.a.b`` / ``cfg["a"].b`` → ["a", "b"] (the attributes and constant keys after the root variable); None
    when the chain does not start at a variable."""
    parts: list[str] = []
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Attribute):
            parts.append(node.attr)
        elif isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            parts.append(node.slice.value)
        else:
            return None
        node = node.value
    return parts[::-1] if parts and isinstance(node, ast.Name) else None


def _field(parts: list[str], fields: frozenset[str]) -> str | None:
    """The longest tail of a dotted chain that is a field (``self.config.data.x`` → ``data.x``)."""
    for start in range(len(parts)):
        if ".".join(parts[start:]) in fields:
            return ".".join(parts[start:])
    return None


def overrides(source: Source, fields: frozenset[str]) -> list[Override]:
    """The fields of ``fields`` (dotted for nested configs) the script assigns on an object it holds in a variable
    (the parsed arguments or the Hydra config a trainer receives: ``args.x = 4``, ``config.data.x = 4``,
    ``setattr(args, "x", 4)``, ``OmegaConf.update(config, "data.x", 4)``), in the order of the source; they run
    after the command line and the recipe are parsed, so they decide the value the trainer sees."""
    tree = parse(source)
    constants = _constants(tree)
    found: list[Override] = []

    def record(key: str, line: int, value: ast.expr, conditional: bool, why: str | None = None) -> None:
        origin = f"{source.name}:{line}"
        if why is None:
            try:
                found.append(Override(key, origin, _evaluate(value, constants), None, conditional))
                return
            except _NotLiteral as error:
                why = str(error)
        found.append(Override(key, origin, None, why, conditional))

    def visit(node: ast.AST, conditional: bool) -> None:
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for item in target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]:
                    parts = _chain(item)
                    key = _field(parts, fields) if parts else None
                    if key is None:
                        continue
                    why = None if item is target else f"'{ast.unparse(target)}' unpacks a value"
                    if isinstance(node, ast.AugAssign):
                        why = f"'{ast.unparse(node)}' changes it from its value when the script runs"
                    record(key, node.lineno, node.value, conditional, why)
        elif isinstance(node, ast.Call) and len(node.args) >= 3 and isinstance(node.args[1], ast.Constant):
            name = node.func.id if isinstance(node.func, ast.Name) else ast.unparse(node.func)
            key = str(node.args[1].value)
            if name in ("setattr", "OmegaConf.update") and key in fields:
                record(key, node.lineno, node.args[2], conditional)
        branching = isinstance(node, _BRANCHING)
        for child in ast.iter_child_nodes(node):
            # an if's test and a loop's iterable run unconditionally; their bodies may not
            runs_always = branching and child in (getattr(node, "test", None), getattr(node, "iter", None))
            visit(child, conditional or (branching and not runs_always))

    visit(tree, False)
    found.sort(key=lambda o: int(o.origin.rsplit(":", 1)[1]))
    return found
