"""``ipsoeval leaderboard``: its declaration and the calls from inputs to a
Report, made by the command line (:func:`from_values`) and the API
(:func:`from_result`)."""

from __future__ import annotations

from ipsoeval.analyses.leaderboard.options import Options
from ipsoeval.errors import UsageError
from ipsoeval.pipeline import inputs as inp
from ipsoeval.pipeline.options import Progress, scores_command

COMMAND = scores_command(
    "leaderboard", "Measure to rank runs by, e.g. nDCG@10, AP, P@10 (repeatable; each measure "
                   "is its own family).", Options, engine=True, after=(Progress,))

# an estimate of the permutation work is given first when it is longer than this
ANNOUNCE_SECONDS = 10.0
PROGRESS_LABEL = "leaderboard: randomised Tukey HSD samples"


def options_of(values: dict) -> Options:
    """The analysis's Options from the command's values (or the API's keywords), checked."""
    options = Options(samples=values["samples"], seed=values["seed"], alpha=values["alpha"],
                      ci=values["ci"])
    options.check()
    return options


def announce(note, runs: int, topics: int, options: Options, measures: int) -> None:
    """A note with the estimated time of long permutation work."""
    from ipsoeval.analyses import leaderboard

    secs = leaderboard.estimate_seconds(runs, topics, options.samples, measures)
    if secs < ANNOUNCE_SECONDS:
        return
    what = (f"{options.samples:,} samples x {runs:,} runs x {topics:,} topics"
            + (f" x {measures} measures" if measures > 1 else ""))
    note(f"leaderboard: {what}: about {inp.duration(secs)} (--samples trades precision for time)")


def from_values(v: dict, *, warn=inp._ignore, note=inp._ignore, progress=None):
    """The Report of a command line's parsed values ``v``."""
    from ipsoeval import engine
    from ipsoeval.analyses import leaderboard

    align = inp.align_options(v, paired=True, note=note, command="leaderboard")
    fmt = inp.scores_format(v)
    measures, runs = v["measures"], v["runs"]
    if not measures and fmt is None:   # --scores: every measure of the files
        raise UsageError("leaderboard needs a measure: give -m MEASURE (e.g. -m nDCG@10)")
    options = options_of(v)
    if fmt is not None:                # the arguments are per-topic score files
        from ipsoeval.analyses.scores import leaderboard_scores
        ts = inp.command_scores(v, align, fmt, warn=warn, note=note)
        names = list(measures) or None
        announce(note, len(ts.runs), len(ts.topics), options,
                 len(names) if names else len(ts.measures))
        report = leaderboard_scores(ts, options, measures=names,
                                    progress=progress and progress(PROGRESS_LABEL))
        _plot(v["plot"], report)
        return report
    if len(runs) < 1:
        raise UsageError("leaderboard needs QRELS and at least two runs (got no run)")
    requested = engine.requested(measures)          # usage errors before reading files
    aligned, sc = inp.sweep_or_align(v, runs, align, requested, measures=measures, warn=warn,
                                     progress=progress)
    options.check(list(aligned.runs))
    if sc is None:
        sc = engine.evaluate(aligned, requested)
    announce(note, len(aligned.runs), len(aligned.topics), options,
             len({m.name for m in sc.measures}))
    report = leaderboard.run(sc, options, progress=progress and progress(PROGRESS_LABEL))
    inp.with_params(report, align.as_params())
    _plot(v["plot"], report)
    return report


def _plot(path, report) -> None:
    if path:
        from ipsoeval import plots
        plots.leaderboard(path, report.table("leaderboard"))


def from_result(res, *, measures=None, progress=None, **kw):
    """The Report of :func:`ipsoeval.leaderboard` on an EvalResult or per-topic scores."""
    from ipsoeval.analyses import leaderboard as lb
    from ipsoeval.pipeline.common import _common, _requested, _scores_or_result

    options = options_of(kw)

    def on_scores(ts):
        from ipsoeval.analyses.scores import leaderboard_scores
        return leaderboard_scores(ts, options, measures=measures, progress=progress)

    def on_result(res):
        from ipsoeval import engine
        options.check(list(res.runs))
        requested = _requested(res, measures)
        aligned, notes = _common(res)
        return lb.run(engine.evaluate(aligned, requested), options, progress=progress), notes

    return _scores_or_result(res, on_scores, on_result)
