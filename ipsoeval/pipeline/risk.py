"""``ipsoeval risk``: its declaration and the calls from inputs to a Report,
made by the command line (:func:`from_values`) and the API (:func:`from_result`)."""

from __future__ import annotations

from ipsoeval.analyses.risk.options import DEFAULT_RISK_ALPHAS, Options
from ipsoeval.errors import UsageError
from ipsoeval.pipeline import inputs as inp
from ipsoeval.pipeline.options import scores_command

COMMAND = scores_command(
    "risk", "Measure to compare, e.g. nDCG@20, AP, ERR@20 (repeatable; see `ipsoeval "
            "measures`).  Required, except with --scores whose files hold one measure.",
    Options, plot=False)


def options_of(values: dict) -> Options:
    """The analysis's Options from the command's values (or the API's keywords), checked."""
    alphas = values.get("risk_alphas")
    options = Options(baseline=values.get("baseline"), alpha=values.get("alpha", 0.05),
                      risk_alphas=list(DEFAULT_RISK_ALPHAS) if alphas is None
                      else [float(a) for a in alphas])
    options.check()
    return options


def from_values(v: dict, *, warn=inp._ignore, note=inp._ignore, progress=None, listing=None):
    """The Report of a command line's parsed values ``v``; None when
    ``listing()``, called once the options are checked and before any input
    is read, says it answered (``--table list``)."""
    from ipsoeval import engine
    from ipsoeval.analyses import risk, validate

    align = inp.align_options(v, paired=True, note=note, command="risk")
    fmt = inp.scores_format(v)
    if listing is not None and listing():
        return None
    measures, runs = v["measures"], v["runs"]
    if not measures and fmt is None:
        raise UsageError("Missing option '-m' / '--measure'.")
    if len(runs) < 2 and fmt is None:
        raise UsageError(f"risk needs QRELS and at least two runs (got {len(runs)} run)")
    options = options_of(v)
    if fmt is not None:         # the arguments are per-topic score files
        from ipsoeval.reading.scores import select
        ts = inp.command_scores(v, align, fmt, baseline=options.baseline, measures=measures,
                                  command="risk", warn=warn, note=note)
        names = select(ts, inp.measures_or_only(ts, measures, "risk", note=note))
        options.baseline = inp.score_baseline(options.baseline, ts)
        report = risk.run(list(ts.runs), {m: ts.matrices[m] for m in names}, options,
                          lower_better={m for m in names if not ts.higher_is_better[m]})
        inp.with_params(report, ts.params)
        return report
    requested = engine.requested(measures)          # usage errors before reading files
    risk.refuse_lower_better({r.measure.name for r in requested
                              if not r.measure.higher_is_better})
    aligned = inp.load_aligned(v["qrels"], runs, align, measures=measures, warn=warn)
    options.baseline = validate.baseline(options.baseline, aligned.runs, runs)
    report = risk.run_scores(engine.evaluate(aligned, requested), options)
    inp.with_params(report, align.as_params())
    return report


def from_result(res, *, measures=None, **kw):
    """The Report of :func:`ipsoeval.risk` on an EvalResult or per-topic scores."""
    from ipsoeval.analyses import risk as rk
    from ipsoeval.pipeline.common import _baseline, _common, _names, _requested, _scores_or_result

    options = options_of(kw)

    def on_scores(ts):
        from ipsoeval.reading.scores import select
        names = select(ts, _names(measures))
        if options.baseline is not None:
            from ipsoeval.analyses import validate
            options.baseline = validate.baseline(options.baseline, list(ts.runs))
        return rk.run(list(ts.runs), {m: ts.matrices[m] for m in names}, options,
                      lower_better={m for m in names if not ts.higher_is_better[m]})

    def on_result(res):
        from ipsoeval import engine
        requested = _requested(res, measures)
        rk.refuse_lower_better({r.measure.name for r in requested
                                if not r.measure.higher_is_better})
        options.baseline = _baseline(res, options.baseline)
        aligned, notes = _common(res)
        return rk.run_scores(engine.evaluate(aligned, requested), options), notes

    return _scores_or_result(res, on_scores, on_result)
