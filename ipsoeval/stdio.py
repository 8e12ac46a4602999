"""Writing to the standard streams the way every exit of ipsoeval does, with
nothing but ``os`` and ``sys`` (the console entry's quick paths use it before
click or numpy is loaded): warnings as ``ipsoeval: warning: ...`` lines, and
a closed pipe (``ipsoeval ... | head``) made quiet by pointing standard output
at /dev/null, so that the interpreter's last flush raises nothing."""

from __future__ import annotations

import os
import sys


def quiet_stdout() -> None:
    """Point standard output at /dev/null (after a closed pipe or a write
    error), so that the exit is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def warn_lines(lines) -> None:
    """Each line as ``ipsoeval: warning: LINE`` on standard error; a closed
    standard error is no failure."""
    try:
        for line in lines:
            sys.stderr.write(f"ipsoeval: warning: {line}\n")
        sys.stderr.flush()
    except (BrokenPipeError, OSError):
        pass


def write_stdout(data: str | bytes) -> None:
    """``data`` on standard output (bytes as they are), flushed; a closed pipe
    makes the rest of the output quiet (:func:`quiet_stdout`)."""
    try:
        if isinstance(data, bytes):
            sys.stdout.buffer.write(data)
        else:
            sys.stdout.write(data)
        sys.stdout.flush()
    except BrokenPipeError:
        quiet_stdout()
