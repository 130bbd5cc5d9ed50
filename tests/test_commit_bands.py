"""A pip pin to a git commit of the framework: placed between the releases it lies between (scripts/
gen_commit_bands.py writes the table from the framework's history; translator/dialects/pins.py reads it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from translator.dialects import registry
from translator.dialects.pins import _commit_release
from translator.sources.project import Evidence

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _pin(commit: str) -> Evidence:
    return Evidence("trl", commit, "requirements.txt", 1, "git-commit", 0)


def test_a_release_commit_is_that_release() -> None:
    # cd6b3de3… is the commit the v0.17.0 tag of huggingface/trl points at (git rev-parse v0.17.0^{commit}).
    placed = _commit_release(registry.get("trl"), _pin("cd6b3de356dd03025640681aaad7b45a1574d92f"))
    assert placed is not None
    assert placed[0] == "0.17.0" and placed[2] == ()


def test_a_commit_between_releases_is_read_as_the_one_before_and_checked_against_both() -> None:
    # 9f7755d8…: `git describe` v0.15.0-70-g9f7755d8e, first contained in v0.16.0; 0.15.2 is the release before.
    placed = _commit_release(registry.get("trl"), _pin("9f7755d"))  # a 7-character pin
    assert placed is not None
    read_as, why, candidates = placed
    assert read_as == "0.15.2" and candidates == ("0.15.2", "0.16.0")
    assert "precedes 0.16.0" in why


def test_a_verl_main_commit_is_placed_by_the_release_branch_forked_after_it() -> None:
    # verl tags releases on release branches: cfead14a is a commit of main (2025-06-06), an ancestor of v0.4.0's fork
    # point on main and of neither v0.3.0.post0 nor .post1 (git merge-base --is-ancestor in volcengine/verl), so it
    # may hold some of 0.4.0's changes; 0.3.0 is the release before.
    placed = _commit_release(registry.get("verl"), Evidence("verl", "cfead14a", "Dockerfile", 1, "git-commit", 0))
    assert placed is not None
    read_as, why, candidates = placed
    assert read_as == "0.3.0" and candidates[0] == "0.3.0" and "precedes 0.4.0" in why


def test_a_commit_the_table_does_not_hold_places_nothing() -> None:
    assert _commit_release(registry.get("trl"), _pin("deadbeefdeadbeef")) is None
    assert _commit_release(registry.get("trl"), _pin("9f7")) is None  # too short to name one commit


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_generator_places_each_commit_of_a_small_history(tmp_path: os.PathLike[str]) -> None:
    repo = os.path.join(tmp_path, "repo")
    os.makedirs(repo)

    def git(*args: str) -> str:
        env = {
            **os.environ,
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@t",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@t",
        }
        return subprocess.run(
            ["git", "-C", repo, *args], check=True, capture_output=True, text=True, env=env
        ).stdout.strip()

    git("init", "-q")
    made = []
    # c0 (tag v0.1.0), c1, c2 (tag v0.2.0), c3 (tag v0.2.0.post1: a later post tag of 0.2.0, no release of its own),
    # c4 (tag v0.2.1rc1: not a release), c5
    for n in range(6):
        git("commit", "-q", "--allow-empty", "-m", f"c{n}")
        made.append(git("rev-parse", "HEAD"))
        tag = {0: "v0.1.0", 2: "v0.2.0", 3: "v0.2.0.post1", 4: "v0.2.1rc1"}.get(n)
        if tag:
            git("tag", tag)
    out = os.path.join(tmp_path, "bands.txt")
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen_commit_bands.py"), repo, out], check=True)
    with open(out, encoding="utf-8") as written:
        lines = written.read().split("\n")
    # By hand: c0 is v0.1.0; c1 lies before v0.2.0 (c2); c3, c4, c5 come after the newest release, v0.2.0 (an rc
    # tag is no release).
    assert lines[0].startswith(f"# from {repo} at {made[5]} ")
    assert lines[1:-1] == [
        f"release 0.1.0 {made[0][:8]}",
        f"release 0.2.0 {made[2][:8]}",
        f"before 0.2.0 {made[1][:8]}",
        f"after 0.2.0 {made[5][:8]} {made[4][:8]} {made[3][:8]}",
    ]
