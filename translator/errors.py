"""The one exception type that bad input raises."""
from __future__ import annotations


class ConfigError(ValueError):
    """Bad input: a missing file, unparseable text, an invalid value, an unknown framework.

    Carries where the problem is (file, line, key) and, when known, what would fix it (hint).
    The CLI prints ``str(error)`` and exits with code 2.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        key: str | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.key = key
        self.hint = hint

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = self.file + (f":{self.line}" if self.line else "") + ": "
        elif self.line:
            where = f"line {self.line}: "
        key = f"{self.key}: " if self.key and self.key not in self.message else ""
        hint = f" ({self.hint})" if self.hint else ""
        return f"{where}{key}{self.message}{hint}"
