"""``ipsoeval.breakdown``: the command ``ipsoeval breakdown`` (Lin et al. 2021)."""

from __future__ import annotations

from ipsoeval.api._common import (
    _baseline,
    _common,
    _report,
    _warn,
)
from ipsoeval.api._evaluate import _need_aligned
from ipsoeval.errors import UsageError
from ipsoeval.results import Report


def breakdown(res, *, k: int = 100, baseline: str | None = None, naive: bool = False,
              correct: str = "none", alpha: float = 0.05, alternative: str = "two-sided",
              verdict_test: str = "esl-t", per_query: bool = False) -> Report:
    """``ipsoeval breakdown``: answered / not answered outcomes of each run
    against the baseline (Lin et al. 2021)."""
    from ipsoeval.analyses import breakdown as bd

    _need_aligned(res, "breakdown")
    if len(res.runs) < 2:
        raise UsageError(f"breakdown needs at least two runs (got {len(res.runs)})")
    options = bd.Options(k=k, baseline=baseline, naive=naive, correct=correct, alpha=alpha,
                         alternative=alternative, verdict_test=verdict_test,
                         per_query=per_query)
    options.check()
    options.baseline = _baseline(res, baseline)
    aligned, notes = _common(res, "breakdown")
    out = bd.run(aligned, options)
    _warn(out.warnings)
    return _report(out, warnings=notes, params=dict(res.params))
