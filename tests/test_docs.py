"""The docs are the project's knowledge: a page per framework that lists exactly the versions rlconf
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
FRAMEWORKS = [
    entry for entry in (LISTING if isinstance(LISTING, list) else LISTING["frameworks"]) if entry["name"] != "rlconf"
]


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
    offenders = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in ("translator", "tests", "fixtures", "scripts", "bench")
        for path in (ROOT / folder).rglob("*")
        if path.is_file() and path.suffix in (".py", ".md", ".yaml", ".sh")
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if "shared" + "/" in line
    ]
    assert offenders == []


def test_readme_links_every_page() -> None:
    readme = (ROOT / "README.md").read_text()
    for page in sorted(DOCS.rglob("*.md")):
        assert str(page.relative_to(ROOT)) in readme, f"README does not link {page.relative_to(ROOT)}"


# ---------------------------------------------------------------- references resolve
# Where the project's text points at its own docs, the target exists. The convention, for code (comments and
# docstrings), tests, scripts and every page:
# - a markdown link `[text](path#anchor)` in README.md, CHANGELOG.md
# or docs/ names a file relative to the page, and the anchor is
#   the GitHub slug of one of that file's headings;
# - a `docs/<page>.md` or `README.md` path names a file that exists, and `#anchor` after it one of its headings;
# - a section sign with a number (N or N.M) names a numbered heading (`## <sign>N Title`, `## N. Title`,
#   `### N.M Title`) of one page, and `<sign>N item K` the K-th item of that section's numbered list. The page is
#   the one whose `docs/<page>.md` path comes last before it on the same line; else, on a page under docs/, that
#   page itself; else, in any other file, the page whose `docs/<page>.md` path comes last before it in the file.
SCANNED = sorted(
    {
        *(
            p
            for folder in ("translator", "tests", "scripts", "bench")
            for p in (ROOT / folder).rglob("*")
            if p.suffix in (".py", ".md", ".sh") and p.is_file()
        ),
        *DOCS.rglob("*.md"),
        ROOT / "README.md",
        ROOT / "CHANGELOG.md",
        ROOT / "fixtures" / "README.md",
        ROOT / ".ci" / "run",
    }
)
PAGE = re.compile(r"(?<![\w/.-])docs/[\w./-]+?\.md")
FILE_ANCHOR = re.compile(r"(?<![\w/.-])((?:docs/[\w./-]+?|README)\.md)(?:#([\w-]+))?")
SECTION = re.compile("\u00a7" + r"(\d+(?:\.\d+)?)(?: item (\d+))?")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose_lines(path) -> list[tuple[int, str]]:
    """The numbered lines of a file, without a markdown page's fenced code blocks."""
    lines, fenced = [], False
    for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        if path.suffix == ".md" and FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append((n, line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: markup dropped, lower case, punctuation removed, spaces become hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def headings(page) -> list[str]:
    return [line.lstrip("#").strip() for _, line in prose_lines(page) if re.match(r"#{1,6} ", line)]


def anchors(page) -> set[str]:
    seen: dict[str, int] = {}
    result = set()
    for heading in headings(page):
        base = slug(heading)
        result.add(f"{base}-{seen[base]}" if base in seen else base)  # GitHub numbers repeated headings
        seen[base] = seen.get(base, 0) + 1
    return result


def numbered(page) -> dict[str, set[str]]:
    """The numbered sections of a page (a heading that starts with a number, after an optional section sign), each
    with the numbers of its numbered list items."""
    sections: dict[str, set[str]] = {}
    items: set[str] = set()
    for _, line in prose_lines(page):
        if re.match(r"#{1,6} ", line):
            match = re.match("\u00a7?" + r"(\d+(?:\.\d+)?)\.?\s", line.lstrip("#").strip())
            items = sections.setdefault(match.group(1), set()) if match else set()
        elif item := re.match(r"(\d+)\. ", line):
            items.add(item.group(1))
    return sections


def test_slug_follows_github() -> None:
    # GitHub: "## <sign>5.1 Advantage estimators (`trainer/x.py`)" → "51-advantage-estimators-trainerxpy"
    # (the section sign, the dot, parentheses, backticks and slashes dropped; spaces become hyphens; underscores stay).
    assert slug("\u00a75.1 Advantage estimators (`trainer/x.py`)") == "51-advantage-estimators-trainerxpy"
    assert slug("verl 0.9.1 — `fixtures/verl/v09_sp2.sh`") == "verl-091--fixturesverlv09_sp2sh"


def broken_links() -> list[str]:
    broken = []
    for page in [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted(DOCS.rglob("*.md"))]:
        for n, line in prose_lines(page):
            for target in LINK.findall(line):
                if re.match(r"[a-z]+:", target):
                    continue  # a web address, not a file of the repository
                path, _, anchor = target.partition("#")
                file = (page.parent / path).resolve() if path else page
                where = f"{page.relative_to(ROOT)}:{n}: {target}"
                if not file.exists():
                    broken.append(f"{where} (no such file)")
                elif anchor and file.suffix == ".md" and anchor not in anchors(file):
                    broken.append(f"{where} (no such heading)")
    return broken


def test_markdown_links_resolve() -> None:
    assert broken_links() == []


def broken_references() -> list[str]:
    broken = []
    for path in SCANNED:
        own = path if path.is_relative_to(DOCS) else None
        last = None  # the page named last in a file that is no page
        for n, line in prose_lines(path):
            where = f"{path.relative_to(ROOT)}:{n}"
            for name, anchor in FILE_ANCHOR.findall(line):
                if not (ROOT / name).is_file():
                    broken.append(f"{where}: {name} does not exist")
                elif anchor and anchor not in anchors(ROOT / name):
                    broken.append(f"{where}: {name} has no heading #{anchor}")
            for match in SECTION.finditer(line):
                before = PAGE.findall(line[: match.start()])
                page = ROOT / before[-1] if before else own or last
                number, item = match.groups()
                sections = numbered(page) if page is not None and page.is_file() else {}
                if page is None:
                    broken.append(f"{where}: \u00a7{number} names no page (write docs/<page>.md before it)")
                elif page.is_file() and number not in sections:
                    broken.append(f"{where}: {page.relative_to(ROOT)} has no section \u00a7{number}")
                elif item and item not in sections[number]:
                    broken.append(f"{where}: {page.relative_to(ROOT)} \u00a7{number} has no item {item}")
            last = next((ROOT / m for m in reversed(PAGE.findall(line))), last)
    return broken


def test_page_and_section_references_resolve() -> None:
    assert broken_references() == []


def test_no_reference_to_text_outside_the_repository() -> None:
    # The design notes, the reference folder and the issue tracker the first sessions used are not in the
    # repository: a reference to them cannot be followed. (The words are built so that this file does not match.)
    stale = re.compile("DES" + r"IGN\b|\brefer" + r"ence/[\w.-]+\.md|\bissues? " + r"\d")
    offenders = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in SCANNED
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if stale.search(line)
    ]
    assert offenders == []
