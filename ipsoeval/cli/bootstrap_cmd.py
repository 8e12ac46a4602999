"""ipsoeval bootstrap — leaderboard stability and reliability (Craswell et al. 2021)."""

from __future__ import annotations

import click

from ipsoeval.analyses import bootstrap
from ipsoeval.cli import options as opt
from ipsoeval.cli import output as out_
from ipsoeval.cli.plot_opts import plot_option
from ipsoeval.cli.scores_opts import qrels_and_runs_or_scores, scores_options
from ipsoeval.errors import UsageError


@click.command("bootstrap")
@qrels_and_runs_or_scores                         # RUN optional: --scores files stand in
@opt.measure_option(help_text="Measure to rank runs by, e.g. RR@10, nDCG@10, AP. Repeatable "
                              "(every measure uses the same resamples).")
@opt.samples_option(default=1000,
                    help_text="Bootstrap samples: resamples of the topics, with replacement, "
                              "same size.")
@opt.seed_option
@click.option("--top", type=int, default=5, show_default=True,
              help="Ranks shown in the rank-probability table (0 = all).")
@click.option("--ci", "ci", type=float, default=0.95, show_default=True,
              help="Level of the confidence intervals and of the rank interval.")
@click.option("--ci-method", type=click.Choice(["percentile", "bca"]), default="percentile",
              show_default=True, help="Bootstrap confidence interval of the mean.")
@click.option("--baseline", metavar="NAME|FILE", default=None,
              help="Also give each run's paired difference to this run, with its CI.  NAME "
                   "is a run name, FILE the path of one of the RUN arguments.")
@click.option("--ranks", is_flag=True,
              help="Print the rank probabilities (run, measure, rank, probability) instead "
                   "of the summary.")
@click.option("--split-half", "split_half", type=int, default=None, metavar="S",
              help="Split-half reliability of significance tests over S random splits "
                   "of the topics (the paper uses 100); prints the agreement rates.")
@opt.test_option(allowed=bootstrap.TESTS, command="bootstrap --split-half",
                 default_text=opt.BY_SCALE_TEXT + "; the paper's Table 4 compares "
                              "all four: --test sign,ranksum,wilcoxon,t",
                 help_text="Tests for --split-half")
@click.option("--aggregate", "aggregates", multiple=True, metavar="LIST",
              help="Which run is better on a half, for --split-half: mean, median or "
                   "mean,median.  [default: mean]")
@opt.alpha_option
@click.option("--queries-file", "queries_files", multiple=True, metavar="[NAME=]FILE",
              help="A named subset of topics (first field of each line); each run's "
                   "expected rank on it is added side by side.  Repeatable.")
@opt.alignment_options()
@opt.engine_option
@scores_options                                   # --scores FILE...: per-topic scores
@plot_option                                      # --plot FILE
@out_.format_option(pipe_default="tsv")
@click.pass_context
def command(ctx, qrels, runs, measures, samples, seed, top, ci, ci_method, baseline, ranks,
            split_half, tests, aggregates, alpha, queries_files, align_opts, engine_name, scores,
            scores_format, scores_scale, plot, fmt, output):
    """Leaderboard stability under bootstrapping: resample the topics with
    replacement (same size) in each trial, rank the runs by mean score, and
    report each run's expected rank, rank interval, share of samples at rank
    1 and the bootstrap CI of its mean; optionally the expected rank on
    named topic subsets and the split-half reliability of significance
    tests (Craswell et al. 2021, §3.1-3.2, §4.3).
    """
    from ipsoeval import engine
    from ipsoeval.analyses import bootstrap, validate

    if not measures and not scores:   # --scores: every measure of the files
        raise UsageError("bootstrap needs a measure: give -m MEASURE (e.g. -m RR@10)")
    options = bootstrap.Options(
        samples=samples, seed=seed, top=top, ci=ci, ci_method=ci_method, baseline=baseline,
        ranks=ranks, split_half=split_half or 0,
        tests=tuple(tests),
        aggregates=bootstrap.parse_list(aggregates or None, ("mean",)), alpha=alpha)
    if split_half is not None and split_half < 1:
        raise UsageError(f"--split-half must be at least 1 (found {split_half})")
    if (tests or aggregates) and not split_half:
        raise UsageError("--test and --aggregate apply to --split-half: give --split-half too")
    options.check()
    if scores:      # --scores: the arguments are per-topic score files
        from ipsoeval.cli.scores_opts import run_bootstrap
        return run_bootstrap(ctx, [qrels, *runs], measures, options, queries_files, align_opts,
                             scores_format, scores_scale, fmt, output, plot=plot)
    requested = engine.requested(measures)         # usage errors before reading files
    for r in requested:
        bootstrap._check_measure(r.measure)
    from ipsoeval.reading import check_stdin_once
    check_stdin_once([qrels, *runs, *(bootstrap.subset_path(q) for q in queries_files)])
    options.subsets = [bootstrap.read_query_subset(q) for q in queries_files]
    options.check()

    if opt.sweeping(engine_name, runs, align_opts):  # a sweep: runs scored a batch at a time
        scores = opt.load_scores(qrels, runs, align_opts, requested, engine=engine_name,
                                 ctx=ctx)
        aligned = scores.aligned
        options.baseline = validate.baseline(baseline, aligned.runs, runs)
    else:
        aligned = opt.load_aligned(qrels, runs, align_opts)
        options.baseline = validate.baseline(baseline, aligned.runs, runs)
        scores = engine.evaluate(aligned, requested)
    progress = opt.progress("bootstrap: resampling topics"
                            + (", split-half tests" if split_half else ""), ctx)
    report = bootstrap.run(scores, options, progress=progress)
    for rs in report.tables:
        rs.params.update(align_opts.as_params())
    if plot:        # --plot: rank-probability heatmap and rank intervals
        from ipsoeval import plots
        plots.bootstrap(plot, report.table("leaderboard"), report.table("rank_probabilities"))
    out_.emit(ctx, report, fmt, output, pipe_default="tsv")
