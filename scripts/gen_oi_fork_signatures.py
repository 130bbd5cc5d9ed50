"""Write Open-Instruct's batch-forming signatures per snapshot band from a clone of allenai/open-instruct.

usage: python scripts/gen_oi_fork_signatures.py REPO_DIR [OUT.txt]

The snapshot of a version (translator/frameworks/open_instruct/tables.py VERSIONS, a date) is the last commit of the
main line committed on or before that day (the committer's own date). A version's band runs from its snapshot to the
commit before the next version's snapshot; commits before the first version fall in the first band. For each
launched program (PROGRAMS) and each module it forms batches in (forks.MODULES), every distinct copy of the file
over a band (the copy at the band's snapshot and each commit of the band that changed it) is reduced to the
signatures of its plan-forming statements (translator/frameworks/open_instruct/forks.py ``statements``); the band's
line lists their digests. Output (default translator/frameworks/open_instruct/fork_signatures.txt):

    # header naming the clone's newest commit
    band 2025.03.13 grpo_fast.py 7dba4c9e..1a2b3c4d 12     version, file, first..last commit, copies read
    0123456789 abcdef0123 ...                             the digests
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from translator.frameworks.open_instruct.forks import MODULES, TABLE, digest, statements
from translator.frameworks.open_instruct.tables import PROGRAMS, VERSIONS
from translator.schema_gen import git


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo")
    parser.add_argument("out", nargs="?", default=TABLE)
    args = parser.parse_args()
    files = [f"open_instruct/{name}" for name in (*PROGRAMS, *MODULES)]
    # the main line, oldest first: (commit, committer's date YYYY.MM.DD)
    line = [
        (commit, date[:10].replace("-", "."))
        for commit, date in (
            row.split() for row in git(args.repo, "log", "--first-parent", "--format=%H %cI").split("\n") if row
        )
    ][::-1]
    blobs: dict[str, dict[str, str]] = {}  # commit → file → blob
    for commit, _ in line:
        listing = git(args.repo, "ls-tree", commit, *files)
        blobs[commit] = {row.split("\t")[1]: row.split()[2] for row in listing.splitlines()}
    digests: dict[str, list[str]] = {}  # blob → digests of its signatures

    def read(blob: str) -> list[str]:
        if blob not in digests:
            try:
                tree = ast.parse(git(args.repo, "cat-file", "-p", blob))
            except SyntaxError:
                tree = ast.Module([], [])
            digests[blob] = sorted({digest(s.signature) for s in statements(tree)})
        return digests[blob]

    out = [f"# from allenai/open-instruct at {line[-1][0]} ({line[-1][1]}): scripts/gen_oi_fork_signatures.py"]
    for i, version in enumerate(VERSIONS):
        newer = VERSIONS[i + 1] if i + 1 < len(VERSIONS) else None
        start = 0 if i == 0 else max((n for n, (_, date) in enumerate(line) if date <= version), default=0)
        # the next version's snapshot itself opens the next band
        stop = max((n for n, (_, date) in enumerate(line) if date <= newer), default=0) if newer else len(line)
        members = line[start : max(stop, start + 1)]
        for file in files:
            copies = list(dict.fromkeys(blobs[c][file] for c, _ in members if file in blobs[c]))
            if not copies:
                continue
            found = sorted({d for blob in copies for d in read(blob)})
            first = next(c for c, _ in members if file in blobs[c])
            last = [c for c, _ in members if file in blobs[c]][-1]
            out.append(f"band {version} {file.split('/')[-1]} {first[:8]}..{last[:8]} {len(copies)}")
            out.append(" ".join(found))
    Path(args.out).write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
