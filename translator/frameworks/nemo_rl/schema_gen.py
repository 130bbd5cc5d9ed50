"""NeMo-RL's native schema (scripts/gen_schemas.py). NeMo-RL's config is TypedDicts with no defaults in code: the
keys a run has are those of the release's base recipe, ``examples/configs/grpo_math_1B.yaml``, which every recipe
inherits. ``--nemo-rl-src DIR`` names a git checkout holding the release tags; the base recipe at the tag becomes
dotted keys (its values the defaults). Without the option, the schema is left as it is."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import yaml

from translator.frameworks.nemo_rl.tables import BASE_PATH, TAGS, VERSIONS
from translator.schema_gen import add_default, document, git, json_type_of, write
from translator.sources.files import flatten

UNKNOWN = (
    "kept",
    "load_config merges YAML files and overrides with OmegaConf into a plain mapping; the TypedDict schema is not "
    "checked at run time, so a key NeMo-RL does not read is kept and never used.",
)
TYPE_CHECK = ("none", "values are not checked against the TypedDicts; the code reads them as written.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--nemo-rl-src", type=Path)
    parser.add_argument("--nemo-rl-version", default=VERSIONS[-1], choices=VERSIONS)


def generate(args: argparse.Namespace, outs: list[Path], wanted: set[str]) -> None:
    if args.nemo_rl_src:
        write(nemo_rl_schema(args.nemo_rl_src, args.nemo_rl_version), outs)
    else:
        print("nemo-rl: no --nemo-rl-src; its schema is left as it is", file=sys.stderr)


def nemo_rl_schema(root: Path, version: str) -> dict[str, Any]:
    tag = TAGS[version]
    commit = git(root, "rev-list", "-n", "1", tag).strip()
    text = git(root, "show", f"{tag}:{BASE_PATH}")
    properties: dict[str, dict[str, Any]] = {}
    for key, value in flatten(yaml.safe_load(text)).items():
        interpolated = isinstance(value, str) and "${" in value
        kind = None if interpolated else json_type_of(value)
        prop: dict[str, Any] = {"type": kind} if kind and kind != "null" else {}
        add_default(prop, value)
        properties[key] = prop
    source = {"kind": "repository", "repository": "NVIDIA-NeMo/RL", "commit": commit, "read": [BASE_PATH]}
    notes = [
        f"Dotted keys of {BASE_PATH} at {tag}: the base recipe every GRPO recipe inherits (defaults:).",
        "A recipe may add keys the base lacks (another backend's section, an environment); they are kept.",
    ]
    return document(
        "nemo-rl",
        version,
        f"NeMo-RL {version} GRPO config keys ({BASE_PATH})",
        properties,
        [source],
        UNKNOWN,
        TYPE_CHECK,
        notes,
    )
