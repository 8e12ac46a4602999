"""ipsoeval breakdown — how one run is "better" than another (Lin et al. 2021)."""

from __future__ import annotations

import click

from ipsoeval.cli import options as opt
from ipsoeval.cli import output as out_
from ipsoeval.cli.plot_opts import plot_option
from ipsoeval.errors import UsageError


@click.command("breakdown")
@opt.qrels_and_runs
@click.option("-k", "--cutoff", "k", type=click.IntRange(min=1), default=100, show_default=True,
              help="Rank cutoff: a run answers a topic when a relevant document is in its "
                   "top k.")
@opt.baseline_option(help_text="Run A, compared with every other run.")
@click.option("--naive", is_flag=True,
              help="Also test per-topic RR@k over all topics with the Wilcoxon rank-sum, "
                   "signed-rank and t tests (Lin et al. Table 1).")
@opt.correct_option
@opt.alpha_option
@opt.alternative_option(help_text="Alternative hypothesis about B - A of each tested "
                                  "quantity (answered, ESL, RR; a lower ESL is better).")
@click.option("--verdict-test", metavar="QUANTITY-TEST", default="esl-t", show_default=True,
              help="Outcome-3 test that decides the ranking facet of the verdict: esl-t, "
                   "esl-wilcoxon, rr-t or rr-wilcoxon (test names as --test takes them).")
@opt.per_query_option(help_text="Print each topic's outcome and first-relevant ranks instead "
                                "of the summary.")
@opt.alignment_options(gains=False, integer_labels="breakdown")
@plot_option                                      # --plot FILE
@out_.format_option(pipe_default="tsv")
@click.pass_context
def command(ctx, qrels, runs, k, baseline, naive, correct, alpha, alternative, verdict_test,
            per_query, align_opts, plot, fmt, output):
    """Outcomes breakdown of runs with one relevant document per topic (Lin,
    Campos, Craswell, Mitra and Yilmaz, 2021).  Each topic is (1) answered by
    neither run in its top k, (2A) only by A, (2B) only by B, or (3) by both.
    Outcome 2 is tested with an exact sign test, outcome 3 compares ESL (rank
    of the first relevant document) and RR with Wilcoxon signed-rank and
    paired t tests; a verdict combines the two facets.  See
    ipsoeval-breakdown(1).
    """
    from ipsoeval.analyses import breakdown, validate

    if len(runs) < 2:
        raise UsageError(f"breakdown needs QRELS and at least two runs (got {len(runs)} run)")
    options = breakdown.Options(k=k, baseline=baseline, naive=naive, correct=correct,
                                alpha=alpha, alternative=alternative, verdict_test=verdict_test,
                                per_query=per_query)
    options.check()                          # usage errors before reading files
    aligned = opt.load_aligned(qrels, runs, align_opts)
    options.baseline = validate.baseline(baseline, aligned.runs, runs)
    report = breakdown.run(aligned, options)
    for rs in report.tables:
        rs.params.update(align_opts.as_params())
    if plot:        # --plot: the outcome bars come from the summary
        from ipsoeval import plots
        plots.breakdown(plot, report.table("summary"))
    out_.emit(ctx, report, fmt, output, pipe_default="tsv")
