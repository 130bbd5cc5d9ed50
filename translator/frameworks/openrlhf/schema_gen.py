"""OpenRLHF's native schemas (scripts/gen_schemas.py): 0.5.0–0.7.4 (each release that changed the flag set),
0.10.1, 0.11.2: the ``add_argument`` calls of ``openrlhf/cli/train_ppo_ray.py`` in the wheel, evaluated with
``ast`` (``for prefix in (...)`` loops and f-string flag names unrolled).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from translator.schema_gen import (
    MISSING,
    Tree,
    add_default,
    document,
    dotted_name,
    fetch_wheel,
    literal,
    wheel_source,
    write,
)

# Every release whose train_ppo_ray flag set changed before 0.8 (0.5.0 … 0.7.4), then a flat and a dotted release.
VERSIONS = (
    "0.5.0",
    "0.5.1",
    "0.5.3",
    "0.5.5",
    "0.5.7",
    "0.5.8",
    "0.6.0",
    "0.6.1",
    "0.6.2",
    "0.6.3",
    "0.6.4",
    "0.7.0",
    "0.7.1",
    "0.7.2",
    "0.7.4",
    "0.10.1",
    "0.11.2",
)
UNKNOWN = (
    "rejected",
    ("argparse stops with 'unrecognized arguments' (allow_abbrev: a unique prefix of a flag means that flag)."),
)
TYPE_CHECK = ("coercing", "argparse converts each value with the flag's type (int, float, str).")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """OpenRLHF is read from its wheels: no options of its own."""


def generate(args: argparse.Namespace, outs: list[Path], wanted: set[str]) -> None:
    for version in VERSIONS:
        write(openrlhf_schema(version, args.cache), outs)


class _Unknown(Exception):
    pass


def evaluate(node: ast.AST, env: dict[str, Any]) -> Any:
    """A small evaluator for add_argument arguments: literals, f-strings, names bound by loops, a ? b : c."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        if node.id in ("int", "float", "str", "bool"):
            return node.id
        raise _Unknown(node.id)
    if isinstance(node, ast.JoinedStr):
        return "".join(str(evaluate(v.value if isinstance(v, ast.FormattedValue) else v, env)) for v in node.values)
    if isinstance(node, (ast.Tuple, ast.List)):
        return [evaluate(e, env) for e in node.elts]
    if isinstance(node, ast.IfExp):
        return evaluate(node.body if evaluate(node.test, env) else node.orelse, env)
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        left, right = evaluate(node.left, env), evaluate(node.comparators[0], env)
        if isinstance(node.ops[0], ast.Eq):
            return left == right
        if isinstance(node.ops[0], ast.NotEq):
            return left != right
        if isinstance(node.ops[0], ast.In):
            return left in right
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -evaluate(node.operand, env)
    if isinstance(node, ast.Call) and dotted_name(node.func) in ("float", "int") and len(node.args) == 1:
        value = evaluate(node.args[0], env)
        return float(value) if dotted_name(node.func) == "float" else int(value)
    value = literal(node)
    if value is not MISSING:
        return value
    raise _Unknown(ast.unparse(node))


_ARG_TYPES = {"int": "integer", "float": "number", "str": "string"}


def argparse_calls(body: list[ast.stmt], env: dict[str, Any]) -> Iterable[tuple[ast.Call, dict[str, Any]]]:
    for statement in body:
        if isinstance(statement, ast.For) and isinstance(statement.target, ast.Name):
            try:
                items = evaluate(statement.iter, env)
            except _Unknown:
                items = []
            for item in items:
                yield from argparse_calls(statement.body, {**env, statement.target.id: item})
            continue
        if isinstance(statement, (ast.If, ast.With, ast.Try)):
            yield from argparse_calls(statement.body, env)
            yield from argparse_calls(getattr(statement, "orelse", []), env)
            continue
        if isinstance(statement, (ast.FunctionDef,)):
            yield from argparse_calls(statement.body, env)
            continue
        for node in ast.walk(statement):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
                yield node, env


def argparse_property(call: ast.Call, env: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    names = [evaluate(a, env) for a in call.args]
    keywords = {k.arg: k.value for k in call.keywords if k.arg}

    def kw(name: str, default: Any = None) -> Any:
        if name not in keywords:
            return default
        try:
            return evaluate(keywords[name], env)
        except _Unknown:
            return MISSING

    action = kw("action")
    prop: dict[str, Any] = {}
    if action in ("store_true", "store_false"):
        prop["type"] = "boolean"
        default = kw("default", action == "store_false")
    else:
        kind = keywords.get("type")
        json_type = _ARG_TYPES.get(dotted_name(kind)) if kind is not None else "string"
        item: dict[str, Any] = {"type": json_type} if json_type else {}
        choices = kw("choices")
        if isinstance(choices, list):
            item["enum"] = choices
        nargs = kw("nargs")
        if nargs not in (None, "?"):
            prop["type"] = "array"
            if item:
                prop["items"] = item
            if isinstance(nargs, int):
                prop["minItems"] = prop["maxItems"] = nargs
        else:
            prop.update(item)
        default = kw("default", None)
    if default is None and "type" in prop and action not in ("store_true", "store_false"):
        prop["type"] = [prop["type"], "null"]
        if "enum" in prop:
            prop["enum"] = [*prop["enum"], None]
    if default is MISSING:
        with contextlib.suppress(KeyError):
            prop["x-default"] = ast.unparse(keywords["default"])
    else:
        add_default(prop, default)
    flags = [n[2:] for n in names if isinstance(n, str) and n.startswith("--")]
    return flags, prop


def openrlhf_schema(version: str, cache: Path) -> dict[str, Any]:
    wheel = fetch_wheel(cache, "openrlhf", version)
    tree = Tree.from_wheel(wheel)
    path = "openrlhf/cli/train_ppo_ray.py"
    module = tree.module(path)
    properties: dict[str, dict[str, Any]] = {}
    for call, env in argparse_calls(module.body, {}):
        flags, prop = argparse_property(call, env)
        for flag in flags:
            properties.setdefault(flag, prop)
    scheme = "dotted" if any("." in k for k in properties) else "flat"
    notes = [
        (
            f"Flags of train_ppo_ray's argparse parser ({scheme} names), without the leading '--'. A value-taking "
            "flag's value is converted with its type; store_true flags take no value."
        )
    ]
    return document(
        "openrlhf",
        version,
        f"OpenRLHF {version} train_ppo_ray flags ({scheme})",
        properties,
        [wheel_source(wheel, tree)],
        UNKNOWN,
        TYPE_CHECK,
        notes,
    )
