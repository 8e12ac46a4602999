"""A progress bar on standard error, drawn only when standard error is a terminal.

``make_progress(label, env)`` returns a callback ``cb(done, total)`` for the
analyses.  The bar names what is being done (``label``), fits the
Environment's width, is redrawn at most ten times a second and is erased as
soon as the work is done: nothing of it stays on the screen or reaches a
file or a pipe.  A callback that reaches the end once ignores further calls
at the end (an analysis may report its last step twice); new work after
that draws a fresh bar.
"""

from __future__ import annotations

import time
from typing import Callable

from ipsoeval.cli.environment import Environment

__all__ = ["make_progress", "Progress", "clear_bars"]

REDRAW_SECONDS = 0.1
_SHOWN: list["Progress"] = []      # bars now on the screen


def clear_bars() -> None:
    """Erase every bar now drawn, before a warning or an error is written to
    standard error (the bar is drawn again at its next step)."""
    for bar in list(_SHOWN):
        bar.clear()


class Progress:
    def __init__(self, label: str, env: Environment, clock: Callable[[], float] = time.monotonic):
        self.label = label
        self.env = env
        self.clock = clock
        self.drawn = 0            # characters of the bar now on the line (0: none)
        self.last = None          # time of the last drawing
        self.finished = False

    def line(self, done: int, total: int) -> str:
        frac = 0.0 if total <= 0 else min(max(done / total, 0.0), 1.0)
        pct = f" {frac * 100:3.0f}%"
        room = self.env.width - 1                     # never the last column: no wrap
        label = self.label
        bar_w = min(40, room - len(label) - len(pct) - 3)
        if bar_w < 10:                                # narrow: shorten the label first
            label = label[:max(0, room - len(pct) - 13)]
            bar_w = max(0, min(40, room - len(label) - len(pct) - 3))
        filled = int(frac * bar_w)
        bar = "#" * filled + "-" * (bar_w - filled)
        return f"{label} [{bar}]{pct}"[:room]

    def _write(self, text: str) -> None:
        try:
            self.env.stderr.write(text)
            self.env.stderr.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass

    def clear(self) -> None:
        if self.drawn:
            self._write("\r" + " " * self.drawn + "\r")
            self.drawn = 0
            self.last = None
        if self in _SHOWN:
            _SHOWN.remove(self)

    def __call__(self, done: int, total: int) -> None:
        if done >= total:
            if not self.finished:
                self.finished = True
                self.clear()
            return
        self.finished = False
        now = self.clock()
        if self.last is not None and now - self.last < REDRAW_SECONDS:
            return
        self.last = now
        text = self.line(done, total)
        pad = " " * max(0, self.drawn - len(text))
        self._write("\r" + text + pad)
        self.drawn = len(text)
        if self not in _SHOWN:
            _SHOWN.append(self)


def make_progress(label: str, env: Environment | None = None,
                  clock: Callable[[], float] = time.monotonic) -> Callable[[int, int], None]:
    """A callback ``cb(done, total)`` drawing a labelled bar on the Environment's
    standard error if that is a terminal; otherwise one that does nothing."""
    env = env if env is not None else Environment()
    if not env.stderr_isatty:
        return _nothing
    return Progress(label, env, clock)


def _nothing(done: int, total: int) -> None:
    return None
