"""What a many-file run gives back, one result per file (translator/many.py makes them, translator/reports.py
words them): the exit codes, a file's result, a file skipped and why."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import field
from typing import TYPE_CHECKING

from translator.records import record

if TYPE_CHECKING:
    from translator.api import Explanation, Translation
    from translator.checks.findings import CheckReport

EXIT_OK, EXIT_FINDINGS, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2, 3


@record
class Skipped:
    path: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"path": self.path, "reason": self.reason}


@record
class FileResult:
    """One config's outcome. ``exit_code``: 0 clean, 1 findings, 2 unreadable, 3 an rlconf bug."""

    path: str
    exit_code: int
    framework: str | None = None
    version: str | None = None
    error: str | None = None  # why the file could not be read (exit 2) or what broke (exit 3)
    text: str = ""  # the file's text, to place findings at a line
    report: CheckReport | None = None
    explanation: Explanation | None = None
    translation: Translation | None = None
    written: list[str] = field(default_factory=list)
    output_dir: str | None = None


def worst(results: Iterable[FileResult]) -> int:
    return max((r.exit_code for r in results), default=EXIT_OK)
