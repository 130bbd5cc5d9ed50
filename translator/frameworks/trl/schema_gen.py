"""TRL's native schemas (scripts/gen_schemas.py): TRL 0.14.0 / 0.18.0 / 1.16.0, and transformers' TrainingArguments.

``pip download --no-deps`` fetches the trl wheel and the wheel of the transformers release it is read with (the
newest transformers that trl release resolves to today, ``NEWEST_TRANSFORMERS`` of tables.py, as trl requires no
upper bound; for 0.18.0 Open-R1's pin, 4.52.3, as Open-R1 recipes are what that schema serves). The transformers
releases of ``TRANSFORMERS_VERSIONS`` also get a schema of their own: TrainingArguments alone (``transformers-X``),
which the TRL writer checks a recipe against for the transformers it targets. The wheels are read with ``zipfile``
+ ``ast``: the dataclasses the ``trl grpo`` / Open-R1 parser is built from (``GRPOConfig`` with every base class up
to transformers' ``TrainingArguments``, ``ModelConfig``, ``ScriptArguments``, ``GRPOScriptArguments``,
``DatasetMixtureConfig`` where it exists), each field's annotation and default. Open-R1's own arguments are added
from tables.py ``OPEN_R1_KEYS`` (read with ``ast``, untyped), typed from Open-R1's ``src/open_r1/configs.py``
when ``--open-r1-src`` is given.
"""

from __future__ import annotations

import argparse
import ast
import re
import zipfile
from pathlib import Path
from typing import Any

from translator.schema_gen import (
    Resolver,
    Tree,
    checkout_source,
    class_in,
    dataclass_fields,
    document,
    fetch_wheel,
    git_commit,
    properties_of,
    wheel_source,
    write,
)

VERSIONS = ("0.14.0", "0.18.0", "1.16.0")
# transformers releases whose TrainingArguments fields are written as schemas of their own: the ones the trl
# schemas are read with (4.46.0, 4.52.3, 4.56.2), the first 5.x, the one CI pins (5.10.4) and the newest every trl
# release resolves to today (5.24.0; tables.py TRANSFORMERS).
TRANSFORMERS_VERSIONS = ("4.46.0", "4.52.3", "4.56.2", "5.0.0", "5.10.4", "5.24.0")
# The transformers release each trl schema is read with, and why (see the module docstring).
TRANSFORMERS_FOR = {
    "0.18.0": (
        "4.52.3",
        (
            "Open-R1's setup.py pins transformers==4.52.3 with trl==0.18.0 "
            "(trl 0.18.0 itself requires transformers>=4.50.0)"
        ),
    )
}
TABLES = Path(__file__).with_name("tables.py")  # read with ast: nothing is imported
REJECTS = (
    "rejected",
    (
        "TrlParser (>= 0.19) raises 'Unknown arguments from config file' for a recipe key "
        "no dataclass of the parser declares (Open-R1's grpo.py; TRL's own 'trl grpo' "
        "command passes fail_with_unknown_args=False and drops it)."
    ),
)
DROPS = (
    "dropped",
    (
        "TrlParser (<= 0.18) silently drops recipe keys no dataclass of the parser declares "
        "(set_defaults_with_config returns them unused); command-line flags are argparse errors."
    ),
)
TRANSFORMERS_UNKNOWN = (
    "rejected",
    (
        "TrainingArguments is a dataclass: an unknown keyword is a TypeError, and "
        "TrlParser (>= 0.19) stops on a recipe key no dataclass of the parser declares."
    ),
)
TYPE_CHECK = (
    "coercing",
    (
        "TrlParser sets recipe values as argparse defaults: strings are converted by the field's "
        "type ('1e-6' → float), ints pass for floats, null passes; a list or mapping where a "
        "number is declared fails in the trainer."
    ),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--open-r1-src", type=Path)
    parser.add_argument("--open-r1-commit")


def generate(args: argparse.Namespace, outs: list[Path], wanted: set[str]) -> None:
    if "trl" in wanted:
        open_r1 = None
        if args.open_r1_src:
            open_r1 = (args.open_r1_src, args.open_r1_commit or git_commit(args.open_r1_src)[0])
        for version in VERSIONS:
            write(trl_schema(version, args.cache, open_r1), outs)
    for version in TRANSFORMERS_VERSIONS:  # asked for alone, or with the trl schemas that are read with them
        write(transformers_schema(version, args.cache), outs)


def open_r1_table_keys() -> list[str]:
    """OPEN_R1_KEYS of tables.py, read with ast (nothing is imported)."""
    path = TABLES
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "OPEN_R1_KEYS" for t in node.targets
        ):
            call = node.value
            assert isinstance(call, ast.Call)
            return sorted(ast.literal_eval(call.args[0]))
    raise SystemExit(f"OPEN_R1_KEYS not found in {TABLES}")


def trl_table_value(name: str) -> Any:
    """A constant of tables.py, read with ast (nothing is imported)."""
    path = TABLES
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets) and node.value is not None:
                return ast.literal_eval(node.value)
    raise SystemExit(f"{name} not found in {TABLES}")


def transformers_requirement(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as archive:
        meta = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        text = archive.read(meta).decode()
    match = re.search(r"^Requires-Dist: transformers\s*\(?>=\s*([\d.]+)", text, re.MULTILINE)
    if not match:
        raise SystemExit(f"{wheel.name}: no transformers>= requirement")
    return match.group(1)


def trl_schema(version: str, cache: Path, open_r1: tuple[Path, str | None] | None) -> dict[str, Any]:
    trl_wheel = fetch_wheel(cache, "trl", version)
    wanted = transformers_requirement(trl_wheel)
    newest = trl_table_value("NEWEST_TRANSFORMERS")
    tf_version, why = TRANSFORMERS_FOR.get(
        version,
        (
            newest,
            (
                f"the newest transformers `pip install trl=={version}` resolves to today (trl {version} requires "
                f"transformers>={wanted}, no upper bound; translator/frameworks/trl/tables.py NEWEST_TRANSFORMERS)"
            ),
        ),
    )
    tf_wheel = fetch_wheel(cache, "transformers", tf_version)
    trl, tf = Tree.from_wheel(trl_wheel), Tree.from_wheel(tf_wheel)
    resolver = Resolver([trl, tf])
    classes = [
        ("trl.scripts.grpo", "GRPOScriptArguments"),
        ("trl.trainer.grpo_config", "GRPOConfig"),
        ("trl.trainer.model_config", "ModelConfig"),
    ]
    if (utils := trl.module_path("trl.scripts.utils")) and "class DatasetMixtureConfig" in trl.files[utils]:
        classes.append(("trl.scripts.utils", "DatasetMixtureConfig"))
    properties: dict[str, dict[str, Any]] = {}
    read = []
    for module, name in classes:
        found = class_in(resolver, trl, module, name)
        read.append(f"{module}.{name}")
        for key, prop in properties_of(dataclass_fields(resolver, *found)).items():
            properties.setdefault(key, prop)
    notes = [
        (
            f"Dataclasses of the parser: {', '.join(read)} (with their bases, down to transformers "
            f"{tf_version} TrainingArguments: {why})."
        )
    ]
    sources = [wheel_source(trl_wheel, trl), {**wheel_source(tf_wheel, tf), "why": why}]
    properties.setdefault(
        "env",
        {
            "type": "object",
            "x-from": "TrlParser",
            "description": "environment variables TrlParser sets, popped before parsing",
        },
    )
    extras, open_r1_source = open_r1_extras(open_r1, properties)
    if open_r1_source:
        sources.append(open_r1_source)
    added = [k for k in extras if k not in properties]
    for key in added:
        properties[key] = extras[key]
    table = open_r1_table_keys()
    sources.append(
        {"kind": "table", "file": "translator/frameworks/trl/tables.py", "name": "OPEN_R1_KEYS", "keys": table}
    )
    if open_r1:
        notes.append(
            "Open-R1's own arguments (src/open_r1/configs.py GRPOScriptArguments, ScriptArguments, "
            f"GRPOConfig fields that TRL does not declare) are included with their types: {len(added)} "
            "keys; names in OPEN_R1_KEYS that configs.py lacks are included untyped."
        )
    else:
        notes.append(
            "Open-R1's own arguments come from the rlconf table OPEN_R1_KEYS "
            "(translator/frameworks/trl/tables.py), untyped; Open-R1 recipes run src/open_r1/grpo.py, "
            "whose TrlParser adds them to TRL's."
        )
    rejects = tuple(int(p) for p in version.split(".")[:2]) >= (0, 19)
    return document(
        "trl",
        version,
        f"TRL {version} GRPO recipe keys (Open-R1 grpo.py / trl grpo)",
        properties,
        sources,
        REJECTS if rejects else DROPS,
        TYPE_CHECK,
        notes,
    )


def open_r1_extras(
    open_r1: tuple[Path, str | None] | None, known: dict[str, Any]
) -> tuple[dict[str, dict[str, Any]], dict[str, Any] | None]:
    """Open-R1's own arguments that TRL does not declare, and the checkout they were read from."""
    extras: dict[str, dict[str, Any]] = {}
    source = None
    if open_r1:
        root, commit = open_r1
        tree = Tree.from_dir(root, ["src/open_r1"])
        resolver = Resolver([tree])
        path = "src/open_r1/configs.py"
        # GRPOScriptArguments → Open-R1's ScriptArguments → trl.ScriptArguments; GRPOConfig → trl.GRPOConfig.
        for name in ("GRPOScriptArguments", "ScriptArguments", "GRPOConfig"):
            found = resolver.find_defined(tree, path, name)
            if found:
                for key, prop in properties_of(dataclass_fields(resolver, *found, own_only=True)).items():
                    extras.setdefault(key, prop)
        extras = {k: {**v, "x-from": "open-r1"} for k, v in extras.items() if k not in known}
        source = checkout_source("huggingface/open-r1", commit, tree)
    for key in open_r1_table_keys():
        extras.setdefault(key, {"x-from": "open-r1"})
    return extras, source


def transformers_schema(version: str, cache: Path) -> dict[str, Any]:
    """transformers ``version``'s TrainingArguments fields: the part of a TRL recipe that depends on the
    transformers release TRL runs with (TRL's own fields are in the trl schemas)."""
    wheel = fetch_wheel(cache, "transformers", version)
    tree = Tree.from_wheel(wheel)
    resolver = Resolver([tree])
    found = class_in(resolver, tree, "transformers.training_args", "TrainingArguments")
    properties = properties_of(dataclass_fields(resolver, *found))
    notes = [
        "The fields of transformers.training_args.TrainingArguments, which TRL's GRPOConfig extends: a TRL "
        "recipe key that is not a TRL, Open-R1 or model argument must be one of these for the transformers "
        "release the run uses."
    ]
    return document(
        "transformers",
        version,
        f"transformers {version} TrainingArguments",
        properties,
        [wheel_source(wheel, tree)],
        TRANSFORMERS_UNKNOWN,
        TYPE_CHECK,
        notes,
    )
