"""The docs are the project's knowledge (issue 12): a page per framework that lists exactly the versions rlconf
supports, cites the framework's source at a tag or commit, and no code or test refers outside the repository."""
from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from tests.conftest import ROOT
from translator.cli import main

DOCS = ROOT / "docs"
LISTING = json.loads(CliRunner().invoke(main, ["frameworks", "--format", "json"]).stdout)
FRAMEWORKS = [entry for entry in (LISTING if isinstance(LISTING, list) else LISTING["frameworks"])
              if entry["name"] != "rlconf"]


@pytest.mark.parametrize("entry", FRAMEWORKS, ids=lambda e: e["name"])
def test_each_framework_page_lists_the_versions_rlconf_supports(entry: dict) -> None:
    page = DOCS / "frameworks" / f"{entry['name']}.md"
    assert page.is_file(), f"{page} is missing"
    text = page.read_text()
    line = next((ln for ln in text.splitlines() if ln.startswith("Supported versions:")), None)
    assert line is not None, f"{page}: no 'Supported versions:' line"
    listed = [v.strip() for v in line.partition(":")[2].split(",") if v.strip()]
    assert listed == [v["version"] for v in entry["versions"]]


@pytest.mark.parametrize("entry", FRAMEWORKS, ids=lambda e: e["name"])
def test_each_framework_page_cites_source_at_a_tag(entry: dict) -> None:
    text = (DOCS / "frameworks" / f"{entry['name']}.md").read_text()
    # e.g. `verl/trainer/config/ppo_trainer.yaml@v0.9.1` or `open_instruct/grpo_fast.py@e6c3044`
    assert len(re.findall(r"[\w./-]+\.(?:py|yaml|sh|toml|txt)@[\w.+-]+", text)) >= 10


def test_nothing_refers_outside_the_repository() -> None:
    offenders = [f"{path.relative_to(ROOT)}:{n}" for folder in ("translator", "tests", "fixtures", "scripts", "bench")
                 for path in (ROOT / folder).rglob("*") if path.is_file() and path.suffix in (".py", ".md", ".yaml", ".sh")
                 for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
                 if "shared" + "/" in line]
    assert offenders == []


def test_readme_links_every_page() -> None:
    readme = (ROOT / "README.md").read_text()
    for page in sorted(DOCS.rglob("*.md")):
        assert str(page.relative_to(ROOT)) in readme, f"README does not link {page.relative_to(ROOT)}"
