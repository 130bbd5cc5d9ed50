"""NeMo-RL's native schema (scripts/gen_schemas.py). NeMo-RL's config is TypedDicts with no defaults in code.
``--nemo-rl-src DIR`` names a git checkout holding the release tags; at the tag, two things are read: the config
TypedDicts, from the master config the GRPO entry (examples/run_grpo.py) imports down through every nested TypedDict
(a key under NotRequired too: a recipe may set it), which give the declared keys and their JSON types; and the base
recipe every recipe inherits, ``examples/configs/grpo_math_1B.yaml``, which gives the defaults (and the keys it sets
that no TypedDict declares). Without the option, the schema is left as it is."""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

import yaml

from translator.dialects.writing import is_number
from translator.frameworks.nemo_rl.tables import BASE_PATH, TAGS, VERSIONS
from translator.schema_gen import (
    Resolver,
    Tree,
    add_default,
    document,
    git,
    json_type_of,
    merge_schemas,
    record_properties,
    write,
)
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


ENTRIES = ("examples/run_grpo.py", "examples/run_grpo_math.py")  # the GRPO entry; run_grpo_math.py before 0.7.0
MASTER = "MasterConfig"
# Sections merged over another before it is read: the Megatron generation backend updates megatron_cfg with
# mcore_generation_config (nemo_rl/models/generation/megatron/megatron_generation.py@v0.7.0), so any
# megatron_cfg key may be set there too (MCoreGenerationSpecificArgs' docstring says so).
OVERLAYS = (("policy.generation.mcore_generation_config.", "policy.megatron_cfg."),)


def release_tree(root: Path, tag: str) -> Tree:
    """The package and the GRPO entry of the checkout at ``tag`` (git archive: the work tree may be elsewhere)."""
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", "--format=tar", tag, "nemo_rl", *ENTRIES],
        capture_output=True,
        check=False,
    )
    if archive.returncode:  # an entry the release lacks: take the package and whichever entry there is
        entries = [e for e in ENTRIES if git(root, "ls-tree", "--name-only", tag, e).strip()]
        archive = subprocess.run(
            ["git", "-C", str(root), "archive", "--format=tar", tag, "nemo_rl", *entries],
            capture_output=True,
            check=True,
        )
    files = {}
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        for member in tar.getmembers():
            handle = tar.extractfile(member) if member.isfile() and member.name.endswith(".py") else None
            if handle is not None:
                files[member.name] = handle.read().decode("utf-8")
    return Tree(files, f"{root}@{tag}")


def declared_keys(tree: Tree) -> dict[str, dict[str, Any]]:
    """Dotted key → JSON schema of every key the release's config TypedDicts declare, from the master config
    the GRPO entry imports. A generation section takes the keys of each backend's config too (VllmConfig,
    SGLangConfig… derive from GenerationConfig and carry the backend's own section)."""
    resolver = Resolver([tree])
    entry = next((e for e in ENTRIES if e in tree.files), None)
    found = resolver.find(tree, entry, MASTER) if entry else None
    if found is None:
        raise SystemExit(f"{tree.label}: no {MASTER} imported by {' or '.join(ENTRIES)}")
    out: dict[str, dict[str, Any]] = {}
    record_properties(resolver, *found, "", out, widen=True)
    for overlay, section in OVERLAYS:
        for key, prop in list(out.items()):
            if key.startswith(section):
                out.setdefault(overlay + key[len(section) :], prop)
    return out


def _fits(value: Any, prop: dict[str, Any]) -> bool:
    kind = json_type_of(value)
    declared = prop.get("type")
    if declared is None:
        return True
    kinds = [declared] if isinstance(declared, str) else declared
    typed = kind in kinds or (kind == "integer" and "number" in kinds)
    if kind == "string" and "number" in kinds:  # PyYAML reads 1e-8 as text; OmegaConf, which NeMo-RL uses, a float
        typed = is_number(value)
    return typed and ("enum" not in prop or value in prop["enum"])


def nemo_rl_schema(root: Path, version: str) -> dict[str, Any]:
    tag = TAGS[version]
    commit = git(root, "rev-list", "-n", "1", tag).strip()
    tree = release_tree(root, tag)
    declared = declared_keys(tree)
    text = git(root, "show", f"{tag}:{BASE_PATH}")
    properties: dict[str, dict[str, Any]] = {}
    for key, value in flatten(yaml.safe_load(text)).items():
        interpolated = isinstance(value, str) and "${" in value
        kind = None if interpolated else json_type_of(value)
        if key in declared:
            prop = dict(declared[key])
            if kind and not _fits(value, prop):  # the base sets what the TypedDict does not declare: admit both
                prop = merge_schemas(prop, {"type": kind})
        else:
            prop = {"type": kind} if kind and kind != "null" else {}
        add_default(prop, value)
        properties[key] = prop
    for key, prop in declared.items():
        properties.setdefault(key, prop)
    source = {
        "kind": "repository",
        "repository": "NVIDIA-NeMo/RL",
        "commit": commit,
        "read": [BASE_PATH, *sorted(set(tree.read))],
        "files_sha256": tree.content_sha256(),  # of the Python files read (the base recipe is at the commit)
    }
    notes = [
        f"Keys declared by the config TypedDicts at {tag}, from {MASTER} as the GRPO entry imports it down through "
        "every nested TypedDict (NotRequired keys too), with their JSON types; a generation section also has the "
        "keys of the backend configs that derive from GenerationConfig, and mcore_generation_config the keys of "
        "megatron_cfg (the Megatron generation backend merges it over megatron_cfg).",
        f"Defaults, and the keys no TypedDict declares, from the dotted keys of {BASE_PATH} at {tag}: the base recipe "
        "every GRPO recipe inherits (defaults:).",
        "A recipe may add keys neither has (an environment's section); they are kept.",
    ]
    return document(
        "nemo-rl",
        version,
        f"NeMo-RL {version} GRPO config keys (config TypedDicts and {BASE_PATH})",
        properties,
        [source],
        UNKNOWN,
        TYPE_CHECK,
        notes,
    )
