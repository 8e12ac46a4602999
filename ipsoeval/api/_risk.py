"""``ipsoeval.risk``: the command ``ipsoeval risk`` (URisk, TRisk, ZRisk and
GeoRisk; Dinçer, Macdonald & Ounis 2014, 2016)."""

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
from ipsoeval.results import Report


def risk(res, *, measures=None, baseline: str | None = None, risk_alphas=(1.0, 5.0),
         alpha: float = 0.05) -> Report:
    """``ipsoeval risk`` on an :class:`EvalResult` (or per-topic scores from
    :func:`read_scores`): URisk and TRisk of each run against ``baseline``
    (table ``urisk``), ZRisk and GeoRisk over all runs (table ``zrisk``), for
    each risk aversion of ``risk_alphas`` (``--risk-alpha``)."""
    from ipsoeval.analyses import risk as rk

    options = rk.Options(baseline=baseline, risk_alphas=[float(a) for a in risk_alphas],
                         alpha=alpha)
    options.check()
    ts = _score_set(res)
    if ts is not None:
        from ipsoeval.reading.scores import select
        names = select(ts, _names(measures))
        if baseline is not None:
            from ipsoeval.analyses import validate
            options.baseline = validate.baseline(baseline, list(ts.runs))
        out = rk.run(list(ts.runs), {m: ts.matrices[m] for m in names}, options,
                     lower_better={m for m in names if not ts.higher_is_better[m]})
        notes = list(ts.warnings)     # ts.notes: how the files were read, not warnings
        params = dict(ts.params)
    else:
        from ipsoeval import engine
        requested = _requested(res, measures)
        rk.refuse_lower_better({r.measure.name for r in requested
                                if not r.measure.higher_is_better})
        options.baseline = _baseline(res, baseline)
        aligned, notes = _common(res)
        out = rk.run_scores(engine.evaluate(aligned, requested), options)
        params = dict(res.params)
    _warn(out.warnings)
    return _report(out, warnings=notes, params=params)
