"""``ipsoeval.power``: the command ``ipsoeval power`` (Sakai 2016)."""

from __future__ import annotations

from ipsoeval.api._common import (
    _common,
    _report,
    _requested,
    _score_set,
    _warn,
)
from ipsoeval.results import Report


def power(res, *, measures=None, delta=None, power: float = 0.8, alpha: float = 0.05,
          half_width: float | None = None, systems: int | None = None,
          designs=None) -> Report:
    """``ipsoeval power``: topic set size design (Sakai 2016) from the per-topic
    scores of ``res`` (an :class:`EvalResult` or :func:`read_scores`' scores).
    ``delta``: a number or a list (default 0.05); ``designs``: among t, anova,
    ci (default all three)."""
    from ipsoeval.analyses import power as pa

    options = pa.Options(deltas=pa.parse_deltas(delta) or (pa.DEFAULT_DELTA,), alpha=alpha,
                         power=power, half_width=half_width, systems=systems,
                         designs=pa.parse_designs(designs) or pa.DESIGNS)
    options.check()
    ts = _score_set(res)
    if ts is not None:
        from ipsoeval.reading.scores import select
        names = select(ts, measures)
        out = pa.run(list(ts.runs), {m: ts.matrices[m] for m in names}, options)
        notes, params = list(ts.warnings), dict(ts.params)      # not ts.notes: how read
    else:
        requested = _requested(res, measures)
        aligned, notes = _common(res)
        out = pa.run_aligned(aligned, requested, options)
        params = dict(res.params)
    _warn(out.warnings)
    return _report(out, warnings=notes, params=params)
