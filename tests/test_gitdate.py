"""The date of a checkout's own commit, read from its .git files (translator/sources/gitdate.py), and a branch pin
dated by it (translator/dialects/pins.py, _dated_branch)."""

from __future__ import annotations

import datetime
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from translator.sources.gitdate import commit_date

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _commit(root: Path, day: str) -> None:
    """A repository at ``root`` with one commit made at noon UTC on ``day``."""
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "a",
        "GIT_AUTHOR_EMAIL": "a@b",
        "GIT_COMMITTER_NAME": "a",
        "GIT_COMMITTER_EMAIL": "a@b",
        "GIT_AUTHOR_DATE": f"{day}T12:00:00+0000",
        "GIT_COMMITTER_DATE": f"{day}T12:00:00+0000",
    }
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=env)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True, env=env)
    subprocess.run(["git", "-C", str(root), "commit", "-q", "-m", "x"], check=True, env=env)


def test_the_commit_date_is_read_loose_packed_and_through_a_worktree(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.txt").write_text("a\n")
    _commit(root, "2025-02-18")
    assert commit_date(str(root)) == datetime.date(2025, 2, 18)  # a loose object, HEAD a ref to a loose ref
    subprocess.run(["git", "-C", str(root), "gc", "-q"], check=True)  # objects and refs packed
    assert not list((root / ".git" / "objects").glob("??/*"))
    assert commit_date(str(root)) == datetime.date(2025, 2, 18)
    worktree = tmp_path / "wt"
    subprocess.run(["git", "-C", str(root), "worktree", "add", "-q", "--detach", str(worktree)], check=True)
    assert (worktree / ".git").is_file() and commit_date(str(worktree)) == datetime.date(2025, 2, 18)
    assert commit_date(str(tmp_path)) is None  # no .git


@pytest.mark.parametrize(
    ("day", "version"),
    [
        # TRL's releases (translator/frameworks/trl/release_dates.txt, from PyPI): 0.15.1 on 2025-02-18, 0.15.2 on
        # 2025-02-25; 0.17.0 on 2025-04-24, 0.18.0 on 2025-05-28. main on 2025-02-20 held 0.15.1 (read as the
        # listed 0.15.2, the same minor release); on 2025-05-01 it held 0.17.0
        ("2025-02-20", "0.15.2"),
        ("2025-05-01", "0.17.0"),
    ],
)
def test_a_branch_pin_is_read_as_the_release_the_branch_held_at_the_projects_commit(
    tmp_path: Path, day: str, version: str
) -> None:
    from translator import api

    (tmp_path / "setup.py").write_text('install_requires = ["trl @ git+https://github.com/huggingface/trl.git@main"]\n')
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text("num_generations: 8\nper_device_train_batch_size: 8\ngradient_accumulation_steps: 2\n")
    _commit(tmp_path, day)
    explanation = api.explain(str(recipe), num_processes=4)
    assert explanation.version == version
    (note,) = [n for n in explanation.notes if n.code == "version.project"]
    assert f"dated by the project's own commit ({day})" in note.message
