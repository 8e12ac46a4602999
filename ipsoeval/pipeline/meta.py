"""``ipsoeval meta``: its declaration and the calls from inputs to a Report,
made by the command line (:func:`from_values`) and the API (:func:`from_result`)."""

from __future__ import annotations

from ipsoeval.analyses.meta import DEFAULT_TESTS
from ipsoeval.analyses.meta.options import Options, parse_tests
from ipsoeval.errors import UsageError
from ipsoeval.pipeline import inputs as inp
from ipsoeval.pipeline.options import option_values, scores_command

COMMAND = scores_command(
    "meta", "Measure to compare, e.g. AP, nDCG@10, P@10 (repeatable; give two or more).",
    Options)


def options_of(values: dict) -> Options:
    """The analysis's Options from the command's values (or the API's keywords), checked."""
    kw = option_values(COMMAND, Options, values, leave=("tests",))
    options = Options(tests=parse_tests(values.get("tests")) or DEFAULT_TESTS, **kw)
    options.check()
    return options


def _on_scores(ts, measures, options: Options, **kw):
    """The analysis of per-topic scores: ``measures`` (None: all of them)."""
    from ipsoeval.analyses import meta
    from ipsoeval.reading.scores import select
    names = select(ts, measures)
    return meta.run(list(ts.runs), {m: ts.matrices[m] for m in names}, options,
                    higher_is_better={m: ts.higher_is_better[m] for m in names},
                    scales={m: ts.scales[m] for m in names}, **kw)


def from_values(v: dict, *, warn=inp._ignore, note=inp._ignore, progress=None):
    """The Report of a command line's parsed values ``v``."""
    from ipsoeval.analyses import meta

    align = inp.align_options(v, paired=True, note=note, command="meta")
    fmt = inp.scores_format(v)
    runs, measures = v["runs"], v["measures"]
    options = options_of(v)
    if not measures and fmt is None:
        raise UsageError("meta needs measures: give -m MEASURE twice or more (e.g. -m AP "
                         "-m nDCG@10)")
    testing = progress and progress("meta: tests on every pair of runs, swap rates")

    def estimate(seconds: float, what: str) -> None:
        mins = seconds / 60.0
        when = f"{seconds:.0f} s" if seconds < 120 else f"{mins:.1f} min"
        note(f"meta: the resampling tests will take about {when} ({what}); "
             f"--samples lowers it")

    if fmt is not None:         # the arguments are per-topic score files
        ts = inp.command_scores(v, align, fmt, warn=warn, note=note)
        report = _on_scores(ts, list(measures) or None, options, progress=testing,
                            estimate=estimate)
        inp.with_params(report, ts.params)
    else:
        if len(runs) < 3:
            raise UsageError(f"meta needs QRELS and at least three runs (got {len(runs)} "
                             f"run(s))")
        report = inp.aligned_report(
            v, align, measures, lambda aligned, requested: meta.run_aligned(
                aligned, requested, options, progress=testing, estimate=estimate), warn=warn)
    if v["plot"]:
        from ipsoeval import plots
        plots.meta(v["plot"], report.table("asl"), report.table("summary"))
    return report


def from_result(res, *, measures=None, **kw):
    """The Report of :func:`ipsoeval.meta` on an EvalResult or per-topic scores."""
    from ipsoeval.analyses import meta as me
    from ipsoeval.pipeline.common import _aligned_or_scores

    return _aligned_or_scores(res, measures, options_of(kw), me.run_aligned, _on_scores)
