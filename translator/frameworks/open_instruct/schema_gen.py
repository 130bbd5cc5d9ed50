"""Open-Instruct's native schema (scripts/gen_schemas.py). Open-Instruct ships no wheel: ``--open-instruct-src
DIR`` names a source checkout; the schema holds the dataclasses ``grpo_fast.py`` hands to ``ArgumentParserPlus``
(with its ``parser.set_defaults``). Without the option, the schema is left as it is.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path
from typing import Any

from translator.schema_gen import (
    MISSING,
    Resolver,
    Tree,
    checkout_source,
    dataclass_fields,
    document,
    dotted_name,
    git_commit,
    literal,
    write,
)

UNKNOWN = ("rejected", "HfArgumentParser (ArgumentParserPlus) raises for flags no dataclass declares.")
TYPE_CHECK = (
    "coercing",
    ("HfArgumentParser converts each value with the field's type; booleans accept true/false/yes/no/1/0."),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--open-instruct-src", type=Path)
    parser.add_argument("--open-instruct-commit")
    parser.add_argument("--open-instruct-version", help="YYYY.MM.DD of the commit (read from git when a work tree)")


def generate(args: argparse.Namespace, outs: list[Path], wanted: set[str]) -> None:
    if not args.open_instruct_src:
        print("open-instruct: no --open-instruct-src; its schema is left as it is", file=sys.stderr)
        return
    commit, date = git_commit(args.open_instruct_src)
    version = args.open_instruct_version or date
    if not version:
        raise SystemExit("--open-instruct-version YYYY.MM.DD is needed when the source is not a git work tree")
    write(open_instruct_schema(args.open_instruct_src, args.open_instruct_commit or commit, version), outs)


def open_instruct_schema(root: Path, commit: str | None, version: str) -> dict[str, Any]:
    tree = Tree.from_dir(root, ["open_instruct"])
    resolver = Resolver([tree])
    path = "open_instruct/grpo_fast.py"
    module = tree.module(path)
    classes: list[str] = []
    defaults: dict[str, Any] = {}
    for node in ast.walk(module):
        if isinstance(node, ast.Call) and dotted_name(node.func).endswith("ArgumentParserPlus") and node.args:
            arg = node.args[0]
            if isinstance(arg, (ast.Tuple, ast.List)):
                classes = [dotted_name(e) for e in arg.elts]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "set_defaults":
            for keyword in node.keywords:
                value = literal(keyword.value)
                if keyword.arg and value is not MISSING:
                    defaults[keyword.arg] = value
    if not classes:
        raise SystemExit("grpo_fast.py: no ArgumentParserPlus((...)) call found")
    properties: dict[str, dict[str, Any]] = {}
    for name in classes:
        found = resolver.find(tree, path, name)
        if found is None:
            raise SystemExit(f"grpo_fast.py: dataclass {name} not found")
        for key, item in dataclass_fields(resolver, *found).items():
            if key in defaults:
                item.default = defaults[key]
            properties.setdefault(key, item.schema())
    notes = [
        (
            f"Flags of grpo_fast.py's ArgumentParserPlus (HfArgumentParser) over {', '.join(classes)}, with "
            f"the script's parser.set_defaults ({', '.join(sorted(defaults))}). open_instruct/grpo.py (OLMo-core) "
            "parses the same dataclasses. A boolean flag defaulting to true also has a --no_<flag> form."
        ),
        f"Version {version} is the date of the commit, as rlconf names Open-Instruct snapshots.",
    ]
    return document(
        "open-instruct",
        version,
        f"Open-Instruct {version} grpo_fast.py flags",
        properties,
        [checkout_source("allenai/open-instruct", commit, tree)],
        UNKNOWN,
        TYPE_CHECK,
        notes,
    )
