"""OpenRLHF's native schemas (scripts/gen_schemas.py): 0.4.0–0.7.4 (each release that changed the flag set or a
default), 0.10.1, 0.11.2: the ``add_argument`` calls of ``openrlhf/cli/train_ppo_ray.py`` in the wheel, evaluated with
``ast`` (``for prefix in (...)`` loops and f-string flag names unrolled).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from translator.schema_gen import (
    Tree,
    argparse_calls,
    argparse_property,
    document,
    fetch_wheel,
    wheel_source,
    write,
)

# Every release whose train_ppo_ray flag set changed before 0.8 (0.4.0 … 0.7.4; 0.4.1 changed --input_template's
# default), then a flat and a dotted release.
VERSIONS = (
    "0.4.0",
    "0.4.1",
    "0.4.4",
    "0.4.6",
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
# Releases PyPI has only as post releases: the wheel read for them (0.4.0.post2 and .post3 have the same flags).
WHEEL_OF = {"0.4.0": "0.4.0.post3"}
TYPE_CHECK = ("coercing", "argparse converts each value with the flag's type (int, float, str).")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """OpenRLHF is read from its wheels: no options of its own."""


def generate(args: argparse.Namespace, outs: list[Path], wanted: set[str]) -> None:
    for version in VERSIONS:
        write(openrlhf_schema(version, args.cache), outs)


def openrlhf_schema(version: str, cache: Path) -> dict[str, Any]:
    wheel = fetch_wheel(cache, "openrlhf", WHEEL_OF.get(version, version))
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
