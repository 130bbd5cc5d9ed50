"""EasyR1's native schema (scripts/gen_schemas.py). EasyR1 ships no wheel: ``--easyr1-src DIR`` names a source
checkout, whose ``PPOConfig`` dataclass tree (``verl/trainer/config.py``) becomes dotted keys. Without the option,
the schema is left as it is.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from translator.schema_gen import (
    Resolver,
    Tree,
    checkout_source,
    class_in,
    document,
    git_commit,
    nested_properties,
    write,
)

UNKNOWN = (
    "rejected",
    (
        "OmegaConf.merge into the structured PPOConfig raises ConfigKeyError for a key the "
        "dataclasses do not declare; keys under a Dict[str, Any] field are free."
    ),
)
TYPE_CHECK = (
    "coercing",
    (
        "OmegaConf validates and converts values for the dataclass field types ('1e-6' → "
        "float, 1 → 1.0); null is rejected where the field is not Optional."
    ),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--easyr1-src", type=Path)
    parser.add_argument("--easyr1-commit")


def generate(args: argparse.Namespace, outs: list[Path], wanted: set[str]) -> None:
    if args.easyr1_src:
        write(easyr1_schema(args.easyr1_src, args.easyr1_commit or git_commit(args.easyr1_src)[0]), outs)
    else:
        print("easyr1: no --easyr1-src; its schema is left as it is", file=sys.stderr)


def easyr1_schema(root: Path, commit: str | None) -> dict[str, Any]:
    tree = Tree.from_dir(root, ["verl"])
    resolver = Resolver([tree])
    version_text = tree.files["verl/__init__.py"]
    version = re.search(r"__version__\s*=\s*[\"']([^\"']+)", version_text).group(1)  # type: ignore[union-attr]
    found = class_in(resolver, tree, "verl.trainer.config", "PPOConfig")
    properties: dict[str, dict[str, Any]] = {}
    nested_properties(resolver, *found, "", properties)
    notes = [
        (
            "Dotted keys of the PPOConfig dataclass tree (verl/trainer/config.py and the worker configs): "
            "EasyR1's main merges dataclass defaults ← config= YAML ← key=value overrides with OmegaConf."
        ),
        f"Version {version} is verl/__init__.py's __version__ at that commit.",
    ]
    return document(
        "easyr1",
        version,
        f"EasyR1 {version} config keys (verl.trainer.main PPOConfig)",
        properties,
        [checkout_source("hiyouga/EasyR1", commit, tree)],
        UNKNOWN,
        TYPE_CHECK,
        notes,
    )
