"""``ipsoeval.ppi``: the command ``ipsoeval ppi``."""

from __future__ import annotations

import os

from ipsoeval.api._common import (
    _baseline,
    _common,
    _names,
    _report,
    _requested,
    _warn,
)
from ipsoeval.api._evaluate import _need_aligned
from ipsoeval.errors import UsageError
from ipsoeval.results import Report


def ppi(human, auto, *, measures=None, method: str = "ppi++", baseline: str | None = None,
        all_pairs: bool = False, correct: str = "none", alpha: float = 0.05,
        nuggets: bool = False, nuggets_format: str = "auto") -> Report:
    """``ipsoeval ppi``: prediction-powered estimates of each run's mean over
    topics from ``human`` and ``auto``, two :class:`EvalResult` of the same
    runs, one under the human qrels and one under the machine-labelled qrels
    (every human topic among the auto ones).  ``method``: ``"ppi++"``
    (power-tuned, default) or ``"ppi"`` (classical).  ``nuggets=True``
    (``ppi --nuggets``): ``human`` and ``auto`` are the paths of the human and
    the automatic nugget assignments of the same answers; the estimates are
    of each run's mean nugget score."""
    from ipsoeval import engine
    from ipsoeval.analyses import ppi as pp

    options = pp.Options(method=method, baseline=baseline, all_pairs=all_pairs,
                         correct=correct, alpha=alpha)
    options.check()
    if nuggets:
        from ipsoeval.analyses import nuggets as ng
        from ipsoeval.analyses import validate
        from ipsoeval.reading.nuggets import failed_warnings
        from ipsoeval.reading.nuggets import read_nuggets as rd
        hj = rd([os.fspath(human)], nuggets_format)
        aj = rd([os.fspath(auto)], nuggets_format)
        inputs = ng.ppi_inputs(hj, aj, [m.name for m in ng.select(_names(measures))])
        options.baseline = validate.baseline(baseline, aj.runs) if baseline else None
        out = pp.analyse(list(aj.runs), list(hj.topics), list(aj.topics), inputs, options,
                         human_name=os.fspath(human), auto_name=os.fspath(auto))
        _warn(out.warnings)
        return _report(out, warnings=failed_warnings(hj) + failed_warnings(aj))
    _need_aligned(human, "ppi")
    _need_aligned(auto, "ppi")
    if list(human.runs) != list(auto.runs):
        raise UsageError(f"ppi needs the same runs under both qrels (human: "
                         f"{', '.join(human.runs)}; auto: {', '.join(auto.runs)})")
    requested = pp.select_measures(_requested(human, measures))
    options.baseline = _baseline(human, baseline)
    h_al, h_notes = _common(human)
    a_al, a_notes = _common(auto)
    out = pp.run(engine.evaluate(h_al, requested), engine.evaluate(a_al, requested), options)
    _warn(out.warnings)
    return _report(out, warnings=h_notes + a_notes, params=dict(auto.params))
