"""``ipsoeval bootstrap``: its declaration and the calls from inputs to a
Report, made by the command line (:func:`from_values`) and the API
(:func:`from_result`)."""

from __future__ import annotations

from ipsoeval.analyses.bootstrap.options import Options, make_options
from ipsoeval.errors import UsageError
from ipsoeval.pipeline import inputs as inp
from ipsoeval.pipeline.options import scores_command

COMMAND = scores_command(
    "bootstrap", "Measure to rank runs by, e.g. RR@10, nDCG@10, AP. Repeatable (every measure "
                 "uses the same resamples).", Options, engine=True)


def _subsets(options: Options, queries_files, inputs) -> None:
    """--queries-file: each [NAME=]FILE read into ``options.subsets`` (standard
    input at most once among them and ``inputs``), checked."""
    from ipsoeval.analyses import bootstrap
    from ipsoeval.reading import check_stdin_once

    check_stdin_once([*inputs, *(bootstrap.subset_path(q) for q in queries_files)])
    options.subsets = [bootstrap.read_query_subset(q) for q in queries_files]
    options.check()


def from_values(v: dict, *, warn=inp._ignore, note=inp._ignore, progress=None):
    """The Report of a command line's parsed values ``v``."""
    from ipsoeval import engine
    from ipsoeval.analyses import bootstrap, validate

    align = inp.align_options(v, paired=True, note=note, command="bootstrap")
    fmt = inp.scores_format(v)
    measures, runs, qrels = v["measures"], v["runs"], v["qrels"]
    if not measures and fmt is None:   # --scores: every measure of the files
        raise UsageError("bootstrap needs a measure: give -m MEASURE (e.g. -m RR@10)")
    options = make_options(v)
    if fmt is not None:         # the arguments are per-topic score files
        from ipsoeval.analyses.scores import bootstrap_scores
        files = [qrels, *runs]
        _subsets(options, v["queries_files"], files)
        ts = inp.load_score_files(files, align, fmt, v["scores_scale"],
                                  baseline=options.baseline, measures=measures,
                                  warn=warn, note=note)
        options.baseline = inp.score_baseline(options.baseline, ts)
        report = bootstrap_scores(ts, options, measures=list(measures) or None)
        _plot(v["plot"], report)
        return report
    requested = engine.requested(measures)         # usage errors before reading files
    for r in requested:
        bootstrap._check_measure(r.measure)
    _subsets(options, v["queries_files"], [qrels, *runs])
    aligned, scores = inp.sweep_or_align(v, runs, align, requested, measures=measures,
                                         warn=warn, progress=progress)
    options.baseline = validate.baseline(options.baseline, aligned.runs, runs)
    if scores is None:
        scores = engine.evaluate(aligned, requested)
    report = bootstrap.run(scores, options, progress=progress and progress(
        "bootstrap: resampling topics" + (", split-half tests" if options.split_half else "")))
    inp.with_params(report, align.as_params())
    _plot(v["plot"], report)
    return report


def _plot(path, report) -> None:
    """The rank-probability heat map and the rank intervals."""
    if path:
        from ipsoeval import plots
        plots.bootstrap(path, report.table("leaderboard"), report.table("rank_probabilities"))


def from_result(res, *, measures=None, **kw):
    """The Report of :func:`ipsoeval.bootstrap` on an EvalResult or per-topic scores."""
    from ipsoeval.pipeline.common import _baseline, _common, _names, _requested, _scores_or_result

    options = make_options(kw)

    def on_scores(ts):
        from ipsoeval.analyses.scores import bootstrap_scores
        return bootstrap_scores(ts, options, measures=_names(measures))

    def on_result(res):
        from ipsoeval import engine
        from ipsoeval.analyses import bootstrap as bs
        requested = _requested(res, measures)
        for r in requested:
            bs._check_measure(r.measure)
        options.baseline = _baseline(res, kw.get("baseline"))
        aligned, notes = _common(res)
        return bs.run(engine.evaluate(aligned, requested), options), notes

    return _scores_or_result(res, on_scores, on_result)
