"""ipsoeval leaderboard — means, CIs, rank intervals and letter groups from the
randomised Tukey HSD (Carterette 2012; Sakai 2018; Piepho 2004)."""

from __future__ import annotations

import sys

import click

from ipsoeval.cli import options as opt
from ipsoeval.cli import output as out_
from ipsoeval.cli.plot_opts import plot_option
from ipsoeval.cli.scores_opts import qrels_and_runs_or_scores, scores_options
from ipsoeval.errors import UsageError

# an estimate of the permutation work is printed first when it is longer than this
ANNOUNCE_SECONDS = 10.0


def announce(ctx, runs: int, topics: int, options, measures: int) -> None:
    """A note on standard error with the estimated time of long permutation work."""
    from ipsoeval.analyses import leaderboard

    secs = leaderboard.estimate_seconds(runs, topics, options.samples, measures)
    if secs < ANNOUNCE_SECONDS:
        return
    what = (f"{options.samples:,} samples x {runs:,} runs x {topics:,} topics"
            + (f" x {measures} measures" if measures > 1 else ""))
    try:
        from ipsoeval.cli.progress import clear_bars
        clear_bars()
        sys.stderr.write(f"ipsoeval: note: leaderboard: {what}: about {_duration(secs)} "
                         f"(--samples trades precision for time)\n")
        sys.stderr.flush()
    except (BrokenPipeError, OSError):
        pass


def _duration(secs: float) -> str:
    if secs < 90:
        return f"{secs:.0f} s"
    if secs < 5400:
        return f"{secs / 60:.0f} min"
    return f"{secs / 3600:.1f} h"


def progress_bar(ctx):
    return opt.progress("leaderboard: randomised Tukey HSD samples", ctx)


@click.command("leaderboard")
@qrels_and_runs_or_scores
@opt.measure_option(help_text="Measure to rank runs by, e.g. nDCG@10, AP, P@10 (repeatable; "
                              "each measure is its own family).")
@opt.samples_option(default=10_000,
                    help_text="Samples of the randomised Tukey HSD (each permutes every "
                              "topic's scores across the runs).")
@opt.seed_option
@opt.alpha_option
@click.option("--ci", "ci", type=float, default=0.95, show_default=True,
              help="Level of the t confidence interval of each run's mean.")
@opt.alignment_options()
@opt.engine_option
@scores_options
@plot_option
@out_.format_option(pipe_default="tsv")
@click.pass_context
def command(ctx, qrels, runs, measures, samples, seed, alpha, ci, align_opts, engine_name, scores,
            scores_format, scores_scale, plot, fmt, output):
    """A leaderboard that says which differences are real: each run's mean and
    CI, every pair tested with the randomised Tukey HSD (family-wise over all
    pairs; Carterette 2012, Sakai 2018) beside Tukey HSD from the two-way
    ANOVA, a compact letter display (runs sharing a letter are not
    significantly different; Piepho 2004), rank intervals, the group of runs
    indistinguishable from the best and the rank resolution.
    """
    from ipsoeval import engine
    from ipsoeval.analyses import leaderboard

    if not measures and not scores:   # --scores: every measure of the files
        raise UsageError("leaderboard needs a measure: give -m MEASURE (e.g. -m nDCG@10)")
    options = leaderboard.Options(samples=samples, seed=seed, alpha=alpha, ci=ci)
    options.check()
    if scores:
        return _run_scores(ctx, [qrels, *runs], measures, options, align_opts,
                           scores_format, scores_scale, fmt, output, plot=plot)
    if len(runs) < 1:
        raise UsageError("leaderboard needs QRELS and at least two runs (got no run)")
    requested = engine.requested(measures)          # usage errors before reading files
    if opt.sweeping(engine_name, runs, align_opts):  # a sweep: runs scored a batch at a time
        sc = opt.load_scores(qrels, runs, align_opts, requested, engine=engine_name, ctx=ctx)
        aligned = sc.aligned
        options.check(list(aligned.runs))
    else:
        aligned = opt.load_aligned(qrels, runs, align_opts)
        options.check(list(aligned.runs))
        sc = engine.evaluate(aligned, requested)
    announce(ctx, len(aligned.runs), len(aligned.topics), options,
             len({m.name for m in sc.measures}))
    report = leaderboard.run(sc, options, progress=progress_bar(ctx))
    for rs in report.tables:
        rs.params.update(align_opts.as_params())
    if plot:
        from ipsoeval import plots
        plots.leaderboard(plot, report.table("leaderboard"))
    out_.emit(ctx, report, fmt, output, pipe_default="tsv")


def _run_scores(ctx, files, measures, options, align_opts, scores_format, scores_scale,
                fmt, output, plot=None):
    """leaderboard on per-topic score files (--scores)."""
    from ipsoeval.analyses.scores import leaderboard_scores
    from ipsoeval.cli.scores_opts import load

    ts = load(files, align_opts, scores_format, scores_scale)
    names = list(measures) or None
    announce(ctx, len(ts.runs), len(ts.topics), options,
             len(names) if names else len(ts.measures))
    report = leaderboard_scores(ts, options, measures=names, progress=progress_bar(ctx))
    if plot:
        from ipsoeval import plots
        plots.leaderboard(plot, report.table("leaderboard"))
    out_.emit(ctx, report, fmt, output, pipe_default="tsv")
