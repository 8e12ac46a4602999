"""ipsoeval meta — measures compared over a set of runs: discriminative power,
swap rate and rank correlation."""

from __future__ import annotations

import click

from ipsoeval.analyses.meta import DEFAULT_TESTS, TESTS
from ipsoeval.cli import options as opt
from ipsoeval.cli import output as out_
from ipsoeval.cli.plot_opts import plot_option
from ipsoeval.cli.scores_opts import qrels_and_runs_or_scores, scores_options
from ipsoeval.errors import UsageError


@click.command("meta")
@qrels_and_runs_or_scores
@opt.measure_option(help_text="Measure to compare, e.g. AP, nDCG@10, P@10 (repeatable; "
                              "give two or more).")
@opt.test_option(allowed=TESTS, command="meta", default_text=opt.BY_SCALE_TEXT,
                 help_text="Test of the discriminative power")
@opt.alpha_option
@opt.correct_option(help_text="Correction over the run pairs of each measure and test.")
@opt.samples_option(default=10_000,
                    help_text="Resamples of the randomization and bootstrap tests "
                              "(randomization is exact when 2^topics is not larger).")
@opt.seed_option
@click.option("--splits", type=click.IntRange(min=1), default=1000, show_default=True,
              metavar="S", help="Random splits of the topics into two disjoint halves for "
                                "the swap rate.")
@click.option("--bin-width", "bin_width", type=float, default=0.01, show_default=True,
              metavar="W", help="Width of the bins of the difference on the first half.")
@click.option("--set-size", "set_size", type=int, default=None, metavar="X",
              help="Topics in each of the two disjoint sets of the swap rate.  [default: "
                   "half of the topics]")
@click.option("--swap-limit", "swap_limit", type=float, default=0.05, show_default=True,
              metavar="RATE", help="Swap rate the min_difference column keeps to.")
@opt.alignment_options()
@scores_options
@plot_option
@out_.format_option(pipe_default="tsv")
@click.pass_context
def command(ctx, qrels, runs, measures, tests, alpha, correct, samples, seed, splits,
            bin_width, set_size, swap_limit, align_opts, scores, scores_format, scores_scale, plot, fmt,
            output):
    """Compare measures over a set of runs, to choose the one to report:
    discriminative power (share of run pairs a test finds significant, and
    the sorted p-values, Sakai 2006), swap rate over random topic halves
    (Voorhees & Buckley 2002) and Kendall's tau / tau_ap (Yilmaz et al.
    2008) between the rankings of the runs each pair of measures gives.
    """
    from ipsoeval.analyses import meta

    options = meta.Options(tests=tuple(tests) or DEFAULT_TESTS, alpha=alpha, correct=correct,
                           samples=samples, seed=seed, splits=splits, bin_width=bin_width,
                           swap_limit=swap_limit, set_size=set_size)
    options.check()
    if not measures and not scores:
        raise UsageError("meta needs measures: give -m MEASURE twice or more (e.g. -m AP "
                         "-m nDCG@10)")
    progress = opt.progress("meta: tests on every pair of runs, swap rates", ctx)

    def estimate(seconds: float, what: str) -> None:
        mins = seconds / 60.0
        when = f"{seconds:.0f} s" if seconds < 120 else f"{mins:.1f} min"
        out_.note(f"meta: the resampling tests will take about {when} ({what}); "
                  f"--samples lowers it")

    if scores:
        from ipsoeval.cli.scores_opts import load
        from ipsoeval.reading.scores import select
        ts = load([qrels, *runs], align_opts, scores_format, scores_scale)
        names = select(ts, list(measures) or None)
        report = meta.run(list(ts.runs), {m: ts.matrices[m] for m in names}, options,
                          higher_is_better={m: ts.higher_is_better[m] for m in names},
                          scales={m: ts.scales[m] for m in names}, progress=progress,
                          estimate=estimate)
        for rs in report.tables:
            rs.params.update(ts.params)
    else:
        from ipsoeval import engine
        if len(runs) < 3:
            raise UsageError(f"meta needs QRELS and at least three runs (got {len(runs)} "
                             f"run(s))")
        requested = engine.requested(measures)
        aligned = opt.load_aligned(qrels, runs, align_opts)
        report = meta.run_aligned(aligned, requested, options, progress=progress,
                                  estimate=estimate)
        for rs in report.tables:
            rs.params.update(align_opts.as_params())
    if plot:
        from ipsoeval import plots
        plots.meta(plot, report.table("asl"), report.table("summary"))
    out_.emit(ctx, report, fmt, output, pipe_default="tsv")
