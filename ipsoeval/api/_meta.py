"""``ipsoeval.meta``: the command ``ipsoeval meta``."""

from __future__ import annotations

from ipsoeval.api._common import (
    _common,
    _report,
    _requested,
    _score_set,
    _warn,
)
from ipsoeval.results import Report


def meta(res, *, measures=None, tests=None, alpha: float = 0.05, correct: str = "none",
         samples: int = 10_000, seed: int = 42, splits: int = 1000, bin_width: float = 0.01,
         swap_limit: float = 0.05, set_size: int | None = None) -> Report:
    """``ipsoeval meta``: discriminative power, swap rate and rank correlation of
    the measures of ``res`` over its runs.  ``tests`` as ``--test`` takes them
    (default t, randomization)."""
    from ipsoeval.analyses import meta as me

    options = me.Options(tests=me.parse_tests(tests) or me.DEFAULT_TESTS, alpha=alpha,
                         correct=correct, samples=samples, seed=seed, splits=splits,
                         bin_width=bin_width, swap_limit=swap_limit, set_size=set_size)
    options.check()
    ts = _score_set(res)
    if ts is not None:
        from ipsoeval.reading.scores import select
        names = select(ts, measures)
        out = me.run(list(ts.runs), {m: ts.matrices[m] for m in names}, options,
                     higher_is_better={m: ts.higher_is_better[m] for m in names},
                     scales={m: ts.scales[m] for m in names})
        notes, params = list(ts.warnings), dict(ts.params)      # not ts.notes: how read
    else:
        requested = _requested(res, measures)
        aligned, notes = _common(res)
        out = me.run_aligned(aligned, requested, options)
        params = dict(res.params)
    _warn(out.warnings)
    return _report(out, warnings=notes, params=params)
