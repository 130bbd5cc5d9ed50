"""Rule and note codes as a product: the catalogue (translator/rule_table.py and each framework's rules.py),
choosing codes on the command line (``--select`` / ``--ignore``: codes, prefixes such as ``keys.`` and globs such
as ``batch.*``), and inline suppression comments in the configs themselves (``# rlconf: ignore[code]``,
``# rlconf: ignore-file[code]``). See docs/rules.md."""

from __future__ import annotations

import fnmatch
import heapq
import re
from collections.abc import Iterable
from dataclasses import field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from translator.errors import ConfigError
from translator.lines import locate
from translator.records import record
from translator.rule_info import RuleInfo

if TYPE_CHECKING:
    from translator.api import Translation
    from translator.checks.findings import CheckReport
    from translator.notes import Note


def catalogue() -> tuple[RuleInfo, ...]:
    """The shared notes (translator/rule_table.py) and every registered framework's check rules, in code order."""
    from translator.dialects import registry
    from translator.framework import load
    from translator.rule_table import RULES

    return tuple(
        heapq.merge(RULES, *(load(f.rules) for f in registry.registered() if f.rules), key=lambda rule: rule.code)
    )


def codes() -> list[str]:
    return [rule.code for rule in catalogue()]


# ---- choosing codes: --select / --ignore ----------------------------------------------------------------


def matches(pattern: str, code: str) -> bool:
    """A pattern names ``code`` exactly, as a prefix ending in '.' or '-' (``keys.``), as a glob (``batch.*``), or
    as a first part alone (``batch`` = ``batch.*``)."""
    if any(c in pattern for c in "*?["):
        return fnmatch.fnmatchcase(code, pattern)
    if pattern.endswith((".", "-")):
        return code.startswith(pattern)
    return code == pattern or code.startswith(pattern + ".")


def parse_patterns(values: Iterable[str], option: str) -> list[str]:
    """CODE[,CODE…] arguments (repeatable) as patterns; one that names no known code is bad input (exit 2),
    with the nearest codes."""
    patterns = [p.strip() for value in values for p in value.split(",") if p.strip()]
    if not patterns:  # the catalogue imports every framework's rules: only a pattern to check needs it
        return patterns
    import difflib

    known = codes()
    for pattern in patterns:
        if not any(matches(pattern, code) for code in known):
            near = difflib.get_close_matches(pattern.rstrip(".-*"), known, n=3, cutoff=0.5)
            raise ConfigError(
                f"{option} {pattern}: no rule or note code matches",
                key=option,
                hint=(f"did you mean {', '.join(near)}? " if near else "") + "`rlconf rules` lists every code",
            )
    return patterns


@record
class Choice:
    """What --select and --ignore keep: with ``select`` only the codes it names; never those ``ignore`` names."""

    select: list[str] | None = None
    ignore: list[str] = field(default_factory=list)

    def wanted(self, code: str) -> bool:
        if self.select is not None and not any(matches(p, code) for p in self.select):
            return False
        return not any(matches(p, code) for p in self.ignore)


def choice(select: Iterable[str] = (), ignore: Iterable[str] = ()) -> Choice:
    chosen = parse_patterns(select, "--select")
    return Choice(chosen or None, parse_patterns(ignore, "--ignore"))


# ---- inline suppression ----------------------------------------------------------------------------------

_DIRECTIVE = re.compile(r"#\s*rlconf:\s*ignore(-file)?\b(?:\[([^\]]*)\])?")
EVERY = "*"  # `# rlconf: ignore` with no codes: every code


@record
class Suppressions:
    """The suppression comments of one file: line → the patterns silenced on that line, and the file-wide ones."""

    lines: dict[int, list[str]] = field(default_factory=dict)
    file: list[str] = field(default_factory=list)

    @property
    def some(self) -> bool:
        """Whether the file has any suppression comment (none: no finding's line needs looking up)."""
        return bool(self.lines or self.file)

    def silences(self, code: str, line: int | None) -> bool:
        if any(_names(p, code) for p in self.file):
            return True
        return line is not None and any(_names(p, code) for p in self.lines.get(line, []))


def _names(pattern: str, code: str) -> bool:
    return pattern == EVERY or matches(pattern, code)


def suppressions(text: str) -> Suppressions:
    """``# rlconf: ignore[a,b]`` at the end of a line silences a, b on that line; on a line of its own, on the
    next line too; ``# rlconf: ignore-file[a]`` anywhere silences a in the whole file. No codes: every code."""
    found = Suppressions()
    if "rlconf:" not in text:
        return found
    for number, line in enumerate(text.splitlines(), start=1):
        match = _DIRECTIVE.search(line)
        if match is None:
            continue
        patterns = [p.strip() for p in (match.group(2) or "").split(",") if p.strip()] or [EVERY]
        if match.group(1):
            found.file.extend(patterns)
            continue
        found.lines.setdefault(number, []).extend(patterns)
        if line.lstrip().startswith("#"):  # a comment line of its own covers the line below it
            found.lines.setdefault(number + 1, []).extend(patterns)
    return found


@record
class Suppressed:
    """A finding or note silenced by a comment in the config: what it was, and the line it points at."""

    code: str
    severity: str
    message: str
    line: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "severity": self.severity, "message": self.message, "line": self.line}


def filter_report(report: CheckReport, text: str, chosen: Choice | None) -> CheckReport:
    """The report with the findings --select/--ignore leave out dropped, and those a comment silences moved to
    ``suppressed`` (they never fail a run). No choice: every code."""
    chosen = chosen or Choice()
    marks = suppressions(text)
    kept: dict[str, list[Any]] = {"errors": [], "warnings": [], "skipped": []}
    silenced = []
    for name in kept:
        for finding in getattr(report, name):
            if not chosen.wanted(finding.rule):
                continue
            line = locate(text, finding.keys) if marks.some else None
            if marks.silences(finding.rule, line):
                silenced.append(Suppressed(finding.rule, finding.severity, finding.message, line))
            else:
                kept[name].append(finding)
    return replace(
        report,
        errors=kept["errors"],
        warnings=kept["warnings"],
        skipped=kept["skipped"],
        suppressed=[*report.suppressed, *silenced],
    )


_AT_LINE = re.compile(r"^[^\s:]+:(\d+):")


def note_line(note: Note, text: str) -> int | None:
    """The source line a note points at: ``file:line:`` at the start of its message, else the first line that
    sets one of its source keys; None when neither is known."""
    match = _AT_LINE.match(note.message)
    return int(match.group(1)) if match else locate(text, note.source_keys)


def filter_translation(translation: Translation, text: str, chosen: Choice | None) -> Translation:
    """The translation with its notes (the source's and the writer's) chosen and suppressed as for check."""
    chosen = chosen or Choice()
    marks = suppressions(text)
    silenced: list[Suppressed] = []

    def keep(notes: list[Note]) -> list[Note]:
        kept = []
        for note in notes:
            if not chosen.wanted(note.code):
                continue
            line = note_line(note, text) if marks.some else None
            if marks.silences(note.code, line):
                silenced.append(Suppressed(note.code, note.severity, note.message, line))
            else:
                kept.append(note)
        return kept

    source = translation.source
    shown_source = replace(source, notes=keep(source.notes))
    shown_source.__dict__["_certainty"] = source.certainty  # the plan's certainty rests on every note read
    return replace(
        translation, source=shown_source, notes=keep(translation.notes), suppressed=[*translation.suppressed, *silenced]
    )


# ---- rlconf rules -----------------------------------------------------------------------------------------


def listing() -> list[dict[str, Any]]:
    return [rule.to_dict() for rule in catalogue()]


def text() -> str:
    lines = []
    for rule in catalogue():
        where = rule.framework + (f" {rule.versions}" if rule.versions else "")
        stops = ", stops at start" if rule.at_start else ""
        lines.append(f"{rule.code}  [{rule.kind}, {where}, {'/'.join(rule.severities)}{stops}]")
        lines.append(f"    {rule.description}")
        if rule.message:
            lines.append(f"    message{f' ({rule.message_from})' if rule.message_from else ''}: {rule.message}")
        if rule.first_step_message:
            lines.append(f"    at the first step, where a copy lacks the check: {rule.first_step_message}")
        if rule.source:
            lines.append(f"    source: {rule.source}")
    return "\n".join(lines) + "\n"


# The page's prose, read when the page is made (its examples are one framework's config: documentation, kept as a
# text file beside the code).
MARKDOWN_HEADER = Path(__file__).with_name("rules_header.md")


def markdown() -> str:
    def cell(value: str) -> str:
        return value.replace("|", "\\|").replace("\n", " ")

    parts = [MARKDOWN_HEADER.read_text(encoding="utf-8")]
    groups: dict[str, list[RuleInfo]] = {}
    for rule in catalogue():
        groups.setdefault(rule.framework if rule.kind == "check" else "notes", []).append(rule)
    for group in sorted(groups, key=lambda g: (g == "notes", g)):
        title = "Notes (every framework)" if group == "notes" else f"`{group}` check rules"
        parts += [
            "",
            f"### {title}",
            "",
            "| code | releases | severity | description | framework's message | source |",
            "|---|---|---|---|---|---|",
        ]
        for rule in groups[group]:
            message = f"`{cell(rule.message)}`" if rule.message and "`" not in rule.message else cell(rule.message)
            if rule.message_from:  # not the framework's own text: a copy of it cannot be told by it
                message += f" ({rule.message_from}'s text)"
            if rule.first_step_message:
                message += f"; at the first step, where a copy lacks the check: `{cell(rule.first_step_message)}`"
            parts.append(
                f"| `{rule.code}` | {rule.versions or 'all'} | {'/'.join(rule.severities)}"
                f"{' (stops at start)' if rule.at_start else ''} | "
                f"{cell(rule.description)} | {message} | {cell(rule.source)} |"
            )
    return "\n".join(parts) + "\n"
