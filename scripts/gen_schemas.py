#!/usr/bin/env python3
"""Generate the native JSON Schemas: for each supported framework version, the keys its own parser accepts,
with their JSON types and defaults, read from the framework's released source without installing it.

A core loop over the registered frameworks: each registration names its section (``schema_generator``, a module
in the framework's folder: translator/frameworks/<fw>/schema_gen.py) that adds its own options and reads its own
source (standard library + PyYAML only; nothing is imported from the frameworks), with the machinery of
translator/schema_gen.py (wheels from ``pip download --no-deps``, source checkouts, annotations → JSON types, the
schema document). A framework without wheels takes a source checkout (``--<name>-src DIR``); without it, that
framework's schema is left as it is.

Each schema is written to ``--out`` (``schemas/native``) and, identically, to ``--package-out``
(``translator/schema_data``, shipped as package data, which the validator reads at run time).

    python scripts/gen_schemas.py --out schemas/native --cache /tmp/wheels \\
        [--easyr1-src DIR [--easyr1-commit SHA]] [--open-instruct-src DIR [--open-instruct-commit SHA]] \\
        [--open-r1-src DIR [--open-r1-commit SHA]] [--nemo-rl-src DIR] [--slime-src DIR [--slime-version V]]

The output depends only on the wheels and checkouts read, so running it again gives the same files.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from translator.dialects import registry  # noqa: E402
from translator.framework import load  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=ROOT / "schemas" / "native")
    parser.add_argument(
        "--package-out",
        default=str(ROOT / "translator" / "schema_data"),
        help="the copy shipped as package data (read at run time); '' to skip",
    )
    parser.add_argument("--cache", type=Path, default=Path("/tmp/wheels"), help="where wheels are downloaded")
    sections = [(f, load(f.schema_generator)) for f in registry.registered() if f.schema_generator]
    for _, section in sections:
        section.add_arguments(parser)
    parser.add_argument("--only", action="append", help="schema names to generate (default: every framework's)")
    args = parser.parse_args(argv)
    outs = [args.out] + ([Path(args.package_out)] if args.package_out else [])
    only = set(args.only or [f.name for f, _ in sections])
    for framework, section in sections:
        wanted = only & {framework.name, *framework.schema_companions}
        if wanted:
            section.generate(args, outs, wanted)
    return 0


if __name__ == "__main__":
    sys.exit(main())
