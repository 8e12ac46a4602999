"""The options of ``ipsoeval risk`` and their checks, without numpy: the
command's declaration (:mod:`ipsoeval.pipeline.risk`) and ``--help`` read them
before the analysis (:mod:`.report`) is loaded."""

from __future__ import annotations

import math

from ipsoeval.analyses import common_options as co
from ipsoeval.analyses import validate
from ipsoeval.declare import option, options
from ipsoeval.errors import UsageError

DEFAULT_RISK_ALPHAS = (1.0, 5.0)


def parse_risk_alphas(values) -> list[float]:
    """--risk-alpha's values (repeatable, comma-separated) as distinct numbers
    >= 0, in the order given."""
    out: list[float] = []
    for v in values:
        for part in str(v).split(","):
            part = part.strip()
            try:
                a = float(part)
            except ValueError:
                raise UsageError(f"Invalid value for '--risk-alpha': {part!r} is not a "
                                 f"number") from None
            if not a >= 0 or a == float("inf"):
                raise UsageError(f"Invalid value for '--risk-alpha': must be 0 or more "
                                 f"(found {part})")
            if a not in out:
                out.append(a)
    return out


@options
class Options:
    baseline: str | None = co.baseline("The baseline of URisk and TRisk.")
    risk_alphas: list[float] = option(
        "--risk-alpha", multiple=True, metavar="A[,A...]", default=list(DEFAULT_RISK_ALPHAS),
        default_text="1,5", check=parse_risk_alphas,
        help="Risk aversion: a loss against the baseline (or the expected score) weighs 1 + "
             "A times a win.  Repeatable or comma-separated.")
    alpha: float = co.alpha()

    def check(self, runs: list[str] | None = None) -> None:
        validate.alpha(self.alpha)
        if not self.risk_alphas:
            raise UsageError("--risk-alpha needs at least one value")
        for a in self.risk_alphas:
            if not math.isfinite(a) or a < 0:
                raise UsageError(f"--risk-alpha must be 0 or more (found {a})")
        if runs is not None:
            if len(runs) < 2:
                raise UsageError(f"risk needs at least two runs (got {len(runs)})")
            if self.baseline is not None:
                validate.baseline(self.baseline, runs)


def refuse_lower_better(names) -> None:
    """A usage error naming the measures where lower is better, if any."""
    if names:
        raise UsageError(f"risk: {', '.join(sorted(names))} is better when lower; the risk "
                         f"measures need a measure where higher is better")
