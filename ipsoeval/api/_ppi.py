"""``ipsoeval.ppi``: the command ``ipsoeval ppi``."""

from __future__ import annotations

from ipsoeval.api._common import _baseline, _common, _report, _requested, _warn
from ipsoeval.api._evaluate import _need_aligned
from ipsoeval.errors import UsageError
from ipsoeval.results import Report


def ppi(human, auto, *, measures=None, method: str = "ppi++", baseline: str | None = None,
        all_pairs: bool = False, correct: str = "none", alpha: float = 0.05) -> Report:
    """``ipsoeval ppi``: prediction-powered estimates of each run's mean over
    topics from ``human`` and ``auto``, two :class:`EvalResult` of the same
    runs, one under the human qrels and one under the machine-labelled qrels
    (every human topic among the auto ones).  ``method``: ``"ppi++"``
    (power-tuned, default) or ``"ppi"`` (classical)."""
    from ipsoeval import engine
    from ipsoeval.analyses import ppi as pp

    options = pp.Options(method=method, baseline=baseline, all_pairs=all_pairs,
                         correct=correct, alpha=alpha)
    options.check()
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
