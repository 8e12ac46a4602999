"""What the command line knows about where it runs: one :class:`Environment`.

The CLI entry creates one Environment (``ctx.obj["env"]``) and everything
that depends on the terminal asks it, never ``os``/``sys`` directly: the
standard streams, whether standard output and standard error are terminals,
the width tables are laid out for, and whether (and how) to colour.  A test
injects its own -- ``CliRunner().invoke(cli, args, obj={"env":
Environment(stdout_isatty=True, width=80)})`` -- to see what a user at an
80-column terminal sees, without touching ``os``.

Rules, read once when the Environment is made (each can be given instead):

- ``stdout_isatty``/``stderr_isatty``: the streams' ``isatty()``.
- ``width``: ``COLUMNS`` if it is a positive integer, else the width of the
  terminal on standard output, else on standard error (``ipsoeval ... |
  less`` is laid out for the terminal less shows it on), else 80.
- ``color``: never when ``NO_COLOR`` is set and not empty (no-color.org) or
  ``TERM=dumb``; always when ``FORCE_COLOR`` is set and not empty; otherwise
  when standard output is a terminal.  ``NO_COLOR`` wins over ``FORCE_COLOR``.
- ``color_system``: ``truecolor`` when ``COLORTERM`` is ``truecolor`` or
  ``24bit``, ``256`` when ``TERM`` names a 256-colour terminal, else
  ``standard`` (the 16 ANSI colours).
"""

from __future__ import annotations

import os
import sys
from typing import IO, Mapping

__all__ = ["Environment", "DEFAULT_WIDTH", "get_env"]

DEFAULT_WIDTH = 80
COLOR_SYSTEMS = ("standard", "256", "truecolor")


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _terminal_columns(stream) -> int | None:
    try:
        cols = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return None
    return cols if cols > 0 else None


class Environment:
    """Standard streams, terminal facts and colour, decided once.

    Streams left as None are looked up in :mod:`sys` when used, so an
    Environment made before a test harness swaps ``sys.stdout`` (click's
    CliRunner) writes where the harness reads.
    """

    def __init__(self, *, stdin: IO | None = None, stdout: IO | None = None,
                 stderr: IO | None = None, stdout_isatty: bool | None = None,
                 stderr_isatty: bool | None = None, width: int | None = None,
                 color: bool | None = None, color_system: str | None = None,
                 environ: Mapping[str, str] | None = None):
        env = os.environ if environ is None else environ
        self._stdin, self._stdout, self._stderr = stdin, stdout, stderr
        self.stdout_isatty = _isatty(self.stdout) if stdout_isatty is None else bool(stdout_isatty)
        self.stderr_isatty = _isatty(self.stderr) if stderr_isatty is None else bool(stderr_isatty)
        if width is None:
            width = self._width(env)
        if width < 1:
            raise ValueError(f"width must be positive (found {width})")
        self.width = int(width)
        if color is None:
            if env.get("NO_COLOR", "") or env.get("TERM") == "dumb":
                color = False
            elif env.get("FORCE_COLOR", ""):
                color = True
            else:
                color = self.stdout_isatty
        self.color = bool(color)
        if color_system is None:
            term = env.get("TERM", "")
            if env.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
                color_system = "truecolor"
            elif "256color" in term or "256" in env.get("COLORTERM", ""):
                color_system = "256"
            else:
                color_system = "standard"
        if color_system not in COLOR_SYSTEMS:
            raise ValueError(f"color_system must be one of {', '.join(COLOR_SYSTEMS)}")
        self.color_system = color_system

    def _width(self, env: Mapping[str, str]) -> int:
        cols = env.get("COLUMNS", "")
        if cols.isdigit() and int(cols) > 0:
            return int(cols)
        for stream, tty in ((self.stdout, self.stdout_isatty), (self.stderr, self.stderr_isatty)):
            if tty:
                n = _terminal_columns(stream)
                if n:
                    return n
        return DEFAULT_WIDTH

    @property
    def stdin(self) -> IO:
        return self._stdin if self._stdin is not None else sys.stdin

    @property
    def stdout(self) -> IO:
        return self._stdout if self._stdout is not None else sys.stdout

    @property
    def stderr(self) -> IO:
        return self._stderr if self._stderr is not None else sys.stderr

    def __repr__(self) -> str:
        return (f"Environment(stdout_isatty={self.stdout_isatty}, "
                f"stderr_isatty={self.stderr_isatty}, width={self.width}, "
                f"color={self.color}, color_system={self.color_system!r})")


def get_env(ctx=None) -> Environment:
    """The Environment of the running command (the CLI entry made it), or a new
    one when there is no command line around (``ctx`` None and no current
    click context)."""
    if ctx is None:
        import click
        ctx = click.get_current_context(silent=True)
    if ctx is not None:
        obj = ctx.find_root().obj
        if isinstance(obj, dict):
            env = obj.get("env")
            if env is None:
                env = obj["env"] = Environment()
            return env
    return Environment()


