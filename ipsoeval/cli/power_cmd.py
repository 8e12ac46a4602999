"""ipsoeval power — topic set size design (Sakai 2016) from per-topic scores."""

from __future__ import annotations

import click

from ipsoeval.cli import options as opt
from ipsoeval.cli import output as out_
from ipsoeval.cli.plot_opts import plot_option
from ipsoeval.cli.scores_opts import qrels_and_runs_or_scores, scores_options
from ipsoeval.errors import UsageError


@click.command("power")
@qrels_and_runs_or_scores
@opt.measure_option(help_text="Measure whose per-topic scores give the variance, e.g. AP, "
                              "nDCG@10 (repeatable).")
@click.option("--delta", "deltas", multiple=True, metavar="D",
              help="Minimum difference of interest on the measure's scale: the paired "
                   "difference (t), the range best - worst (anova); repeatable or "
                   "comma-separated.  [default: 0.05]")
@click.option("--power", "power", type=float, default=0.8, show_default=True,
              help="Required power 1 - beta.")
@opt.alpha_option
@click.option("--half-width", "half_width", type=float, default=None, metavar="W",
              help="Largest expected half-width of the CI of a paired difference (design "
                   "ci).  [default: delta / 2, a CI no wider than delta]")
@click.option("--systems", type=int, default=None, metavar="M",
              help="Number of systems of the one-way ANOVA design.  [default: the number "
                   "of runs]")
@click.option("--design", "designs", multiple=True, metavar="NAME",
              help="Designs: t, anova, ci (repeatable or comma-separated).  [default: all "
                   "three]")
@opt.alignment_options()
@scores_options
@plot_option
@out_.format_option(pipe_default="tsv")
@click.pass_context
def command(ctx, qrels, runs, measures, deltas, power, alpha, half_width, systems, designs,
            align_opts, scores, scores_format, scores_scale, plot, fmt, output):
    """Topic set size design (Sakai 2016): the number of topics the paired
    t-test, one-way ANOVA over m systems and a confidence interval need to
    detect a difference delta with power 1 - beta at alpha (or to bound the
    CI), from the residual variance of the two-way ANOVA (topics x runs) of
    the given runs; and the power and the minimal detectable difference of
    the collection as it is.
    """
    from ipsoeval.analyses import power as pa

    options = pa.Options(deltas=pa.parse_deltas(deltas) or (pa.DEFAULT_DELTA,), alpha=alpha,
                         power=power, half_width=half_width, systems=systems,
                         designs=pa.parse_designs(designs) or pa.DESIGNS)
    options.check()
    if not measures and not scores:
        raise UsageError("power needs a measure: give -m MEASURE (e.g. -m AP)")
    if scores:
        from ipsoeval.cli.scores_opts import load
        from ipsoeval.reading.scores import select
        ts = load([qrels, *runs], align_opts, scores_format, scores_scale)
        names = select(ts, list(measures) or None)
        report = pa.run(list(ts.runs), {m: ts.matrices[m] for m in names}, options)
        for rs in report.tables:
            rs.params.update(ts.params)
    else:
        from ipsoeval import engine
        if len(runs) < 2:
            raise UsageError(f"power needs QRELS and at least two runs (got {len(runs)} run)")
        requested = engine.requested(measures)
        aligned = opt.load_aligned(qrels, runs, align_opts)
        report = pa.run_aligned(aligned, requested, options)
        for rs in report.tables:
            rs.params.update(align_opts.as_params())
    if plot:
        from ipsoeval import plots
        plots.power(plot, report.table("power"), report.table("curve"))
    out_.emit(ctx, report, fmt, output, pipe_default="tsv")
