"""verl's native schemas (scripts/gen_schemas.py): every minor release from 0.2.0.post2 to 0.9.1 (0.3.0 from the
0.3.0.post1 wheel), from the wheel's Hydra YAML defaults. ``_generated_ppo*_trainer.yaml`` (the fully composed
configs verl ships since 0.5) where present, else ``ppo_trainer.yaml`` and ``ppo_megatron_trainer.yaml`` composed
through their ``defaults`` lists (0.4.1 has none). Nested mappings are flattened into dotted keys; the type of a
key is that of its default (verl's YAML is untyped).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

import yaml

from translator.schema_gen import (
    Tree,
    add_default,
    document,
    fetch_wheel,
    json_type_of,
    wheel_source,
    write,
)

VERSIONS = ("0.2.0.post2", "0.3.0", "0.4.1", "0.5.0", "0.6.0", "0.6.1", "0.7.0", "0.7.1", "0.8.0", "0.9.0", "0.9.1")
WHEELS = {"0.3.0": "0.3.0.post1"}  # rlconf's 0.3.0 is read from PyPI's only 0.3.0 wheel
UNKNOWN = (
    "rejected",
    (
        "Hydra rejects an override of a key the config does not have ('Could not override ...'); "
        "'+key=value' appends one, '++key=value' adds or overrides. Keys under a mapping-valued "
        "key (an object property) are the user's own."
    ),
)
TYPE_CHECK = (
    "numbers-and-booleans",
    (
        "verl's YAML is untyped: a type here is that of the key's default. Only a "
        "value that cannot be a number (or a boolean) where the default is one is an "
        "error; lists for strings and the like are accepted as Hydra accepts them."
    ),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """verl is read from its wheels: no options of its own."""


def generate(args: argparse.Namespace, outs: list[Path], wanted: set[str]) -> None:
    for version in VERSIONS:
        write(verl_schema(version, args.cache), outs)


def flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            out.update(flatten(value, dotted + "."))
        else:
            out[dotted] = value
    return out


def compose(tree: Tree, config_dir: str, name: str, depth: int = 0) -> dict[str, Any]:
    """A Hydra primary config with its defaults list merged (group@package: option, _self_)."""
    if depth > 8:
        raise SystemExit(f"defaults nest too deep at {name}")
    path = f"{config_dir}/{name}.yaml"
    data = yaml.safe_load(tree.files[path]) or {}
    tree.read.append(path)
    defaults = data.pop("defaults", None) or []
    merged: dict[str, Any] = {}
    self_done = False
    for item in defaults:
        if item == "_self_":
            deep_merge(merged, data)
            self_done = True
            continue
        if isinstance(item, str):  # another primary config
            deep_merge(merged, compose(tree, config_dir, item.removesuffix(".yaml"), depth + 1))
            continue
        if not isinstance(item, dict) or len(item) != 1:
            continue
        ((group, option),) = item.items()
        group = str(group).removeprefix("override ")
        if option is None:
            continue
        folder, _, package = group.partition("@")
        option = re.sub(r"\$\{(\w+)\}", lambda m: _option_of(defaults, m.group(1)), str(option))
        sub = compose(tree, f"{config_dir}/{folder}", option, depth + 1)
        target = merged
        for part in (package or folder).split("."):
            if part == "_global_":
                break
            target = target.setdefault(part, {})
        deep_merge(target, sub)
    if not self_done:
        deep_merge(merged, data)
    merged.pop("hydra", None)
    return merged


def _option_of(defaults: list[Any], group: str) -> str:
    for item in defaults:
        if isinstance(item, dict) and group in item:
            return str(item[group])
    return group


def deep_merge(into: dict[str, Any], data: dict[str, Any]) -> None:
    for key, value in data.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            deep_merge(into[key], value)
        else:
            into[key] = value


def yaml_property(value: Any) -> dict[str, Any]:
    if isinstance(value, str) and "${" in value:
        return {"x-interpolation": value}
    if isinstance(value, str) and value == "???":
        return {"x-mandatory": True}
    kind = json_type_of(value)
    out: dict[str, Any] = {}
    if kind in ("integer", "number"):
        out["type"] = "number"  # YAML gives no type: 0 may be a float knob
    elif kind == "null":
        pass
    elif kind:
        out["type"] = kind
    add_default(out, list(value) if isinstance(value, tuple) else value)
    return out


def verl_schema(version: str, cache: Path) -> dict[str, Any]:
    wheel = fetch_wheel(cache, "verl", WHEELS.get(version, version))
    tree = Tree.from_wheel(wheel)
    config_dir = "verl/trainer/config"
    generated = sorted(p for p in tree.files if re.fullmatch(rf"{config_dir}/_generated_ppo\w*_trainer\.yaml", p))
    generated.sort(key=lambda p: (p != f"{config_dir}/_generated_ppo_trainer.yaml", p))
    merged: dict[str, Any] = {}
    if generated:
        for path in generated:
            tree.read.append(path)
            for key, value in flatten(yaml.safe_load(tree.files[path]) or {}).items():
                merged.setdefault(key, value)
        how = (
            f"the fully composed configs verl ships ({', '.join(p.rsplit('/', 1)[1] for p in generated)}), "
            "the first file's default where they differ"
        )
    else:
        for name in ("ppo_trainer", "ppo_megatron_trainer"):
            if f"{config_dir}/{name}.yaml" in tree.files:
                for key, value in flatten(compose(tree, config_dir, name)).items():
                    merged.setdefault(key, value)
        how = "ppo_trainer.yaml and ppo_megatron_trainer.yaml composed through their Hydra defaults lists"
    properties = {}
    for key, value in merged.items():
        last = key.rsplit(".", 1)[-1]
        if last == "_target_" or key.startswith(("defaults", "hydra.")):
            continue
        properties[key] = yaml_property(value)
    notes = [
        (
            f"Keys from {how}; nested mappings flattened into dotted keys. The entry point "
            "'python3 -m verl.trainer.main_ppo' (and model_engine=..., --config-name) accepts them; recipe "
            "entries (recipe.dapo.main_dapo) add their own keys, absent here."
        ),
        "'_target_' keys (the dataclass a section becomes) are left out; x-closed-sections lists those "
        "sections: verl builds each into its dataclass, which stops at a field it does not have, so a key "
        "appended there with '+' composes but the run does not start.",
    ]
    doc = document(
        "verl",
        version,
        f"verl {version} Hydra config keys (verl.trainer.main_ppo)",
        properties,
        [wheel_source(wheel, tree)],
        UNKNOWN,
        TYPE_CHECK,
        notes,
    )
    doc["x-closed-sections"] = sorted({k.removesuffix("._target_") for k in merged if k.endswith("._target_")})
    return doc
