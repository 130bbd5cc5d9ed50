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


EXIT_INPUT, EXIT_INTERNAL = 2, 3


def classify(error: Exception, where: str | None = None) -> tuple[int, str]:
    """The exit code and the one-line message for an exception that escaped a command (or one file of a
    many-file run): bad input is 2, anything else is a bug in rlconf, 3. ``where`` names the input."""
    prefix = f"{where}: " if where else ""
    if isinstance(error, ConfigError):
        return EXIT_INPUT, str(error)
    if isinstance(error, RecursionError):  # the readers and renderers recurse once per level of nesting
        return EXIT_INPUT, f"{prefix}input nested too deeply"
    if isinstance(error, MemoryError):
        return EXIT_INPUT, f"{prefix}input too large (out of memory)"
    if isinstance(error, OSError):  # a file that vanished, a full disk, a permission: the path and the reason
        path = error.filename if error.filename is not None else where
        reason = error.strerror or type(error).__name__
        return EXIT_INPUT, f"{path}: {reason}" if path is not None else reason
    detail = " ".join(str(error).split())[:300]  # one line, whatever the message holds
    return EXIT_INTERNAL, f"{prefix}internal error: {type(error).__name__}: {detail} (please report this)"
