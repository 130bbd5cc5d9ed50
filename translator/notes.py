"""Notes: every lossy or surprising step of reading or writing a config (README.md#what-a-translation-carries)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import field
from typing import Any, Literal

from translator.records import record

Severity = Literal["info", "warning", "error"]


@record
class Note:
    """One finding. ``code`` is stable (e.g. ``units.prompts-vs-samples``); ``message`` is for people."""

    severity: Severity
    code: str
    message: str
    source_keys: list[str] = field(default_factory=list)
    target_keys: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "source_keys": list(self.source_keys),
            "target_keys": list(self.target_keys),
        }


class NoteList(list[Note]):
    """A list of notes with shorthands for adding them; a note with the code and message of one already listed is
    not added again. The (code, message) pairs are kept in a set beside the list, so adding is constant time (a
    scan of the list made reading 50,000 decided `if` lines quadratic)."""

    def __init__(self, notes: Iterable[Note] = ()) -> None:
        super().__init__(notes)
        self._seen: set[tuple[str, str]] = {(n.code, n.message) for n in self}
        self._synced = len(self)

    def add(
        self,
        severity: Severity,
        code: str,
        message: str,
        source_keys: list[str] | None = None,
        target_keys: list[str] | None = None,
    ) -> Note:
        note = Note(severity, code, message, list(source_keys or []), list(target_keys or []))
        if getattr(self, "_synced", -1) != len(self):  # changed as a plain list (append, extend, del): seen anew
            self._seen = {(n.code, n.message) for n in self}
        if (code, message) not in self._seen:
            self._seen.add((code, message))
            self.append(note)
        self._synced = len(self)
        return note

    def info(self, code: str, message: str, **keys: Any) -> Note:
        return self.add("info", code, message, **keys)

    def warning(self, code: str, message: str, **keys: Any) -> Note:
        return self.add("warning", code, message, **keys)

    def error(self, code: str, message: str, **keys: Any) -> Note:
        return self.add("error", code, message, **keys)
