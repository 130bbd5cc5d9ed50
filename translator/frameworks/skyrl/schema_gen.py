"""SkyRL's native schema (scripts/gen_schemas.py): the ``SkyRLTrainConfig`` dataclass tree of
``skyrl/train/config/config.py`` in the skyrl wheel (the environments' configs from the skyrl_gym package the wheel
carries), read with ``ast`` and flattened to dotted keys with their defaults. The Hydra-era package skyrl_train
(releases spelled ``skyrl_train-X``) has no schema: its keys are other names (translator/frameworks/skyrl/keys.py
leaves them unchecked)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from translator.schema_gen import (
    Resolver,
    Tree,
    class_in,
    document,
    fetch_wheel,
    nested_properties,
    wheel_source,
    write,
)

# skyrl releases on PyPI (the skyrl package; 0.4.0, the newest, requires Python >= 3.12) → the Python to fetch for
VERSIONS = {"0.3.0": "3.11", "0.4.0": "3.12"}
GYM_PREFIX = "skyrl-gym/"  # where the wheel keeps the skyrl_gym package

UNKNOWN = (
    "rejected",
    "main_base builds the config with SkyRLTrainConfig.from_cli_overrides: build_nested_dataclass raises "
    "ValueError ('Invalid fields ...') for a key a dataclass lacks, and a '+key' override is refused; keys under a "
    "dict-typed field are free.",
)
TYPE_CHECK = (
    "none",
    "OmegaConf.from_cli parses each value as a YAML scalar and build_nested_dataclass passes it to the dataclass "
    "as it is (only an Enum field is converted); the field types are not checked.",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """SkyRL is read from its wheel: no options of its own."""


def generate(args: argparse.Namespace, outs: list[Path], wanted: set[str]) -> None:
    for version, python in VERSIONS.items():
        write(skyrl_schema(version, args.cache, python), outs)


def skyrl_schema(version: str, cache: Path, python: str = "3.11") -> dict[str, Any]:
    wheel = fetch_wheel(cache, "skyrl", version, python)
    whole = Tree.from_wheel(wheel)
    # skyrl_gym sits under skyrl-gym/ in the wheel: a tree of its own, rooted there, so its imports resolve
    tree = Tree({p: s for p, s in whole.files.items() if not p.startswith(GYM_PREFIX)}, wheel.name)
    gym = Tree({p[len(GYM_PREFIX) :]: s for p, s in whole.files.items() if p.startswith(GYM_PREFIX)}, wheel.name)
    resolver = Resolver([tree, gym])
    found = class_in(resolver, tree, "skyrl.train.config.config", "SkyRLTrainConfig")
    properties: dict[str, dict[str, Any]] = {}
    nested_properties(resolver, *found, "", properties, optional=True)
    source = wheel_source(wheel)
    source["read"] = sorted({*tree.read, *(GYM_PREFIX + p for p in gym.read)})
    notes = [
        "Dotted keys of the SkyRLTrainConfig dataclass tree (skyrl/train/config/config.py; the environments' "
        "configs from skyrl-gym/skyrl_gym): main_base's from_cli_overrides applies key=value overrides to the "
        "dataclass defaults.",
        "An Optional dataclass field (trainer.policy.fsdp_config.mixed_precision ...) is built from the mapping "
        "given for it, so its fields are keys too.",
    ]
    doc = document(
        "skyrl",
        version,
        f"SkyRL {version} config keys (skyrl.train.config SkyRLTrainConfig)",
        properties,
        [source],
        UNKNOWN,
        TYPE_CHECK,
        notes,
    )
    return doc
