"""The one error type of ipsoeval, and the exit status each kind maps to
(docs/conventions.md, "Errors and exit status").

Engine, readers and analyses raise these; only the CLI turns them into a
message line and an exit status.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_GATE_FAILED = 1
EXIT_USAGE = 2
EXIT_INPUT = 3
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130


class IpsoevalError(Exception):
    """Base class: a message for the user and an exit status."""

    exit_status = EXIT_INTERNAL

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None):
        self.message = message
        self.path = path
        self.line = line
        super().__init__(self.format())

    def format(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:" if self.line is None else f"{self.path}:{self.line}:"
            where += " "
        return where + self.message


class UsageError(IpsoevalError):
    """Unknown option or measure, conflicting options (exit 2)."""

    exit_status = EXIT_USAGE


class InputError(IpsoevalError):
    """Unreadable, malformed or inconsistent input files (exit 3)."""

    exit_status = EXIT_INPUT


class GateFailed(IpsoevalError):
    """A gate that was asked for failed (exit 1) — not an error."""

    exit_status = EXIT_GATE_FAILED
