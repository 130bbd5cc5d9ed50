#!/usr/bin/env python3
"""Write the generated pages of docs/: rules.md from the catalogue of rule and note codes (translator/rule_table.py
and each framework's rules.py) and concordance.md from the concordance (translator/frameworks/<fw>/concordance.yaml).
tests/test_rules.py and tests/test_concordance.py check that the committed pages are what this writes.
``--check`` only compares (exit 1 naming each page that differs)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from translator import concordance, rules  # noqa: E402  (the repository's translator, not an installed one)

PAGES: dict[Path, Callable[[], str]] = {
    ROOT / "docs" / "rules.md": rules.markdown,
    ROOT / "docs" / "concordance.md": concordance.markdown,
}


def main(argv: list[str]) -> int:
    stale = []
    for target, render in PAGES.items():
        text = render()
        if "--check" not in argv:
            target.write_text(text, encoding="utf-8")
        elif (target.read_text(encoding="utf-8") if target.exists() else "") != text:
            stale.append(target)
    for target in stale:
        print(f"{target} is out of date: run python scripts/gen_docs.py", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
