"""The options of ``ipsoeval power`` and their checks: the part of the
analysis that needs no numpy, so that ``ipsoeval power --help`` stays instant."""

from __future__ import annotations

import math

from ipsoeval.analyses import common_options as co
from ipsoeval.analyses import validate
from ipsoeval.declare import option, options
from ipsoeval.errors import UsageError

DESIGNS = ("t", "anova", "ci")
DEFAULT_DELTA = 0.05


@options
class Options:
    delta: tuple[float, ...] = option(
        "--delta", multiple=True, metavar="D", default=(DEFAULT_DELTA,),
        default_text=f"{DEFAULT_DELTA:g}",
        help="Minimum difference of interest on the measure's scale: the paired difference "
             "(t), the range best - worst (anova); repeatable or comma-separated.")
    power: float = option("--power", kind="float", default=0.8, show_default=True,
                          help="Required power 1 - beta.")
    alpha: float = co.alpha()
    half_width: float | None = option(
        "--half-width", kind="float", metavar="W",
        default_text="delta / 2, a CI no wider than delta",
        help="Largest expected half-width of the CI of a paired difference (design ci).")
    systems: int | None = option(
        "--systems", kind="int", metavar="M", default_text="the number of runs",
        help="Number of systems of the one-way ANOVA design.")
    designs: tuple[str, ...] = option(
        "--design", multiple=True, metavar="NAME", default=DESIGNS, default_text="all three",
        help=f"Designs: {', '.join(DESIGNS)} (repeatable or comma-separated).")

    def check(self) -> None:
        validate.alpha(self.alpha)
        if not 0.0 < self.power < 1.0:
            raise UsageError(f"--power must be between 0 and 1 (found {self.power})")
        if not self.delta:
            raise UsageError("--delta: no difference given")
        for d in self.delta:
            if not (isinstance(d, (int, float)) and math.isfinite(d) and d > 0):
                raise UsageError(f"--delta must be a positive number (found {d})")
        if self.half_width is not None and not (math.isfinite(self.half_width)
                                                and self.half_width > 0):
            raise UsageError(f"--half-width must be a positive number (found {self.half_width})")
        if self.systems is not None and self.systems < 2:
            raise UsageError(f"--systems must be at least 2 (found {self.systems})")
        if not self.designs:
            raise UsageError("--design: no design given")
        for d in self.designs:
            if d not in DESIGNS:
                raise UsageError(f"--design must be among {', '.join(DESIGNS)} (found {d!r})")


def options_of(delta=None, designs=None, **kw) -> Options:
    """Checked Options from what a user gives: ``delta`` and ``designs`` as
    ``--delta`` and ``--design`` take them (none: the defaults)."""
    options = Options(delta=parse_deltas(delta) or (DEFAULT_DELTA,),
                      designs=parse_designs(designs) or DESIGNS, **kw)
    options.check()
    return options


def parse_deltas(values) -> tuple[float, ...]:
    """Floats from repeatable and/or comma-separated ``--delta`` values."""
    if values is None:
        return ()
    if isinstance(values, (int, float)):
        return (float(values),)
    if isinstance(values, str):
        values = [values]
    out: list[float] = []
    for v in values:
        parts = [v] if isinstance(v, (int, float)) else str(v).split(",")
        for p in parts:
            if isinstance(p, str) and not p.strip():
                continue
            try:
                x = float(p)
            except (TypeError, ValueError):
                raise UsageError(f"--delta must be a positive number (found {p!r})") from None
            if x not in out:
                out.append(x)
    if values and not out:
        raise UsageError(f"--delta: no number given (found {', '.join(map(repr, values))})")
    return tuple(out)


def parse_designs(values) -> tuple[str, ...]:
    if values is None:
        return ()
    if isinstance(values, str):
        values = [values]
    out: list[str] = []
    for v in values:
        for p in str(v).split(","):
            p = p.strip().lower()
            if not p:
                continue
            if p not in DESIGNS:
                raise UsageError(f"--design must be among {', '.join(DESIGNS)} (found {p!r})")
            if p not in out:
                out.append(p)
    if values and not out:
        raise UsageError(f"--design: no design given (found {', '.join(map(repr, values))})")
    return tuple(out)
