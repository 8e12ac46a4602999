"""A small progress bar on standard error, drawn only when it is a terminal."""

from __future__ import annotations

import sys
import time


def make_progress(label: str, stream=None, isatty=None):
    stream = stream or sys.stderr
    tty = isatty() if isatty is not None else getattr(stream, "isatty", lambda: False)()
    if not tty:
        return lambda done, total: None
    state = {"last": 0.0}

    def update(done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - state["last"] < 0.1:
            return
        state["last"] = now
        frac = 0.0 if total <= 0 else min(done / total, 1.0)
        width = 30
        bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
        end = "\n" if done >= total else ""
        try:
            stream.write(f"\r{label} [{bar}] {frac * 100:5.1f}%{end}")
            stream.flush()
        except (BrokenPipeError, OSError):
            pass

    return update
