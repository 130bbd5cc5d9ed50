"""Write a framework's commit bands (which releases a git commit lies between) from a clone of its repository.

usage: python scripts/gen_commit_bands.py REPO_DIR OUT.txt [--oldest 0.14.0]

A pip pin to a commit (``trl @ git+https://…@019fc6d``) names no release. Each commit reachable from a release tag
and from no earlier release tag lies before that release and after the previous one: it holds the previous
release's changes and some of this one's. Output lines after a header naming the
clone's newest commit (8 hex characters per commit, enough to tell the few
thousand commits of one repository apart):

    release 0.16.0 1a2b3c4d          the tagged commit itself
    before 0.16.0 5e6f7a8b …         commits between the previous release and 0.16.0
    after 1.9.0 9c0d1e2f …           commits after the newest release in the clone
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository's translator, not an installed one

from translator.schema_gen import git

# final releases (no rc or dev tags); a release tagged only as post-releases (verl's v0.3.0.post0, .post1) is its
# first post tag, and its later post tags are commits after it
RELEASE_TAG = re.compile(r"v?(\d+)\.(\d+)\.(\d+)(?:\.post(\d+))?")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo")
    parser.add_argument("out")
    parser.add_argument("--oldest", default="0.0.0", help="the oldest release rlconf reads")
    parser.add_argument("--source", help="the repository's name, for the header (owner/name)")
    args = parser.parse_args()
    oldest = tuple(int(p) for p in args.oldest.split("."))
    tags = []
    for tag in git(args.repo, "tag").split():
        found = RELEASE_TAG.fullmatch(tag)
        if found:
            post = -1 if found[4] is None else int(found[4])
            tags.append((tuple(int(p) for p in found.groups()[:3]), post, tag))
    tags.sort()
    firsts: dict[tuple[int, ...], str] = {}
    for number, _, tag in tags:
        firsts.setdefault(number, tag)
    releases = list(firsts.items())
    lines, seen = [], set()
    for number, tag in releases:
        commits = git(args.repo, "rev-list", f"{tag}^{{commit}}").split()
        new = [c for c in commits if c not in seen]
        seen.update(commits)
        if number < oldest:
            continue
        version = ".".join(map(str, number))
        lines.append(f"release {version} {commits[0][:8]}")
        between = [c[:8] for c in new if c != commits[0]]
        if between and lines[:-1]:  # commits older than the oldest release read are not listed
            lines.append(f"before {version} {' '.join(between)}")
    head = [c[:8] for c in git(args.repo, "rev-list", "HEAD").split() if c not in seen]
    if head and releases:
        lines.append(f"after {'.'.join(map(str, releases[-1][0]))} {' '.join(head)}")
    head_commit, head_date = git(args.repo, "log", "-1", "--format=%H %cs").split()
    header = f"# from {args.source or args.repo} at {head_commit} ({head_date}): scripts/gen_commit_bands.py"
    with open(args.out, "w", encoding="utf-8") as out:
        out.write("\n".join([header, *lines]) + "\n")


if __name__ == "__main__":
    main()
