"""Notes: every lossy or surprising step of reading or writing a config (DESIGN §4)."""
from __future__ import annotations

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
    """A list of notes with shorthands for adding them."""

    def add(self, severity: Severity, code: str, message: str, source_keys: list[str] | None = None,
            target_keys: list[str] | None = None) -> Note:
        note = Note(severity, code, message, list(source_keys or []), list(target_keys or []))
        if not any(n.code == code and n.message == message for n in self):
            self.append(note)
        return note

    def info(self, code: str, message: str, **keys: Any) -> Note:
        return self.add("info", code, message, **keys)

    def warning(self, code: str, message: str, **keys: Any) -> Note:
        return self.add("warning", code, message, **keys)

    def error(self, code: str, message: str, **keys: Any) -> Note:
        return self.add("error", code, message, **keys)
