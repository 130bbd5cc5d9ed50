#!/usr/bin/env python3
"""Write docs/concordance.md from the concordance (translator/frameworks/<fw>/concordance.yaml);
tests/test_concordance.py checks that the committed file is what this writes. ``--check`` only compares (exit 1
when it differs)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from translator.concordance import markdown  # noqa: E402

TARGET = ROOT / "docs" / "concordance.md"


def main(argv: list[str]) -> int:
    text = markdown()
    if "--check" in argv:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET} is out of date: run python scripts/gen_concordance_doc.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
