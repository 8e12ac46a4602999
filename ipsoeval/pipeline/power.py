"""``ipsoeval power``: its declaration and the calls from inputs to a Report,
made by the command line (:func:`from_values`) and the API (:func:`from_result`)."""

from __future__ import annotations

from ipsoeval.analyses.power.options import Options, options_of
from ipsoeval.errors import UsageError
from ipsoeval.pipeline import inputs as inp
from ipsoeval.pipeline.options import option_values, scores_command

COMMAND = scores_command(
    "power", "Measure whose per-topic scores give the variance, e.g. AP, nDCG@10 (repeatable).",
    Options)


def _options(values: dict) -> Options:
    return options_of(**option_values(COMMAND, Options, values))


def _on_scores(ts, measures, options: Options):
    """The analysis of per-topic scores: ``measures`` (None: all of them)."""
    from ipsoeval.analyses import power
    from ipsoeval.reading.scores import select
    names = select(ts, measures)
    return power.run(list(ts.runs), {m: ts.matrices[m] for m in names}, options)


def from_values(v: dict, *, warn=inp._ignore, note=inp._ignore, progress=None):
    """The Report of a command line's parsed values ``v``."""
    from ipsoeval.analyses import power as pa

    align = inp.align_options(v, paired=True, note=note, command="power")
    fmt = inp.scores_format(v)
    measures, runs = v["measures"], v["runs"]
    options = _options(v)
    if not measures and fmt is None:
        raise UsageError("power needs a measure: give -m MEASURE (e.g. -m AP)")
    if fmt is not None:         # the arguments are per-topic score files
        ts = inp.command_scores(v, align, fmt, warn=warn, note=note)
        report = _on_scores(ts, list(measures) or None, options)
        inp.with_params(report, ts.params)
    else:
        if len(runs) < 2:
            raise UsageError(f"power needs QRELS and at least two runs (got {len(runs)} run)")
        report = inp.aligned_report(
            v, align, measures, lambda aligned, requested: pa.run_aligned(
                aligned, requested, options), warn=warn)
    if v["plot"]:
        from ipsoeval import plots
        plots.power(v["plot"], report.table("power"), report.table("curve"))
    return report


def from_result(res, *, measures=None, **kw):
    """The Report of :func:`ipsoeval.power` on an EvalResult or per-topic scores."""
    from ipsoeval.analyses import power as pa
    from ipsoeval.pipeline.common import _aligned_or_scores

    return _aligned_or_scores(res, measures, _options(kw), pa.run_aligned, _on_scores)
