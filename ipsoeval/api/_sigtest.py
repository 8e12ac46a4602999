"""``ipsoeval.sigtest``: the command ``ipsoeval sigtest``."""

from __future__ import annotations

from ipsoeval.api._common import (
    _baseline,
    _common,
    _names,
    _report,
    _requested,
    _score_set,
    _warn,
)
from ipsoeval.errors import UsageError
from ipsoeval.results import Report


def sigtest(res, *, measures=None, baseline: str | None = None, all_pairs: bool = False,
            tests=None, correct: str = "none", alpha: float = 0.05,
            alternative: str = "two-sided", samples: int = 100_000, seed: int = 42,
            scale: str = "original", fail_if: str | None = None,
            gate_test: str | None = None, bounds: bool = False) -> Report:
    """``ipsoeval sigtest`` on an :class:`EvalResult` (or per-topic scores from
    :func:`read_scores`).  ``tests`` as ``--test`` takes them (default: each
    measure tested once, with the test its scale permits -- t for interval and
    ratio scales, sign for ordinal ones; the column ``why`` says which);
    ``report.gate`` is the ``--fail-if`` gate;
    ``bounds=True`` is ``--bounds`` (p_bounds, survives_bounds)."""
    from ipsoeval.analyses import sigtest as st

    options = st.make_options(tests, gate_test, baseline=baseline, all_pairs=all_pairs,
                              correct=correct, alpha=alpha, alternative=alternative,
                              samples=samples, seed=seed, scale=scale, fail_if=fail_if,
                              bounds=bounds)
    ts = _score_set(res)
    if ts is not None and bounds:
        raise UsageError("bounds=True needs runs and qrels (per-topic scores have no "
                         "unjudged documents to label)")
    if ts is not None:
        from ipsoeval.analyses.scores import sigtest_scores
        out = sigtest_scores(ts, options, measures=_names(measures))
        notes = list(ts.warnings)     # ts.notes: how the files were read, not warnings
        params = dict(ts.params)
    else:
        if len(res.runs) < 2:
            raise UsageError(f"sigtest needs at least two runs (got {len(res.runs)})")
        requested = _requested(res, measures)
        options.baseline = _baseline(res, baseline)
        aligned, notes = _common(res)
        out = st.run_aligned(aligned, requested, options)
        params = dict(res.params)
    _warn(out.warnings)
    return _report(out, warnings=notes, params=params)
