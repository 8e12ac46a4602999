"""ipsoeval sigtest — paired significance tests that know the measure's scale, and a CI gate."""

from __future__ import annotations

import click

from ipsoeval.analyses import sigtest
from ipsoeval.cli import options as opt
from ipsoeval.cli import output as out_
from ipsoeval.cli.plot_opts import plot_option
from ipsoeval.cli.scores_opts import qrels_and_runs_or_scores, scores_options
from ipsoeval.errors import UsageError


@click.command("sigtest")
@qrels_and_runs_or_scores                         # RUN optional: --scores files stand in
@opt.measure_option(help_text="Measure to compare, e.g. AP, nDCG@10, P@10, "
                                             "RR@10 (repeatable; see `ipsoeval measures`).  Required, "
                                  "except with --scores whose files hold one measure.")
@opt.baseline_option
@opt.all_pairs_option
@opt.test_option(allowed=sigtest.TESTS, command="sigtest",
                 default_text=sigtest.DEFAULT_TEXT,
                 help_text="Test (the last four for three or more runs, with Tukey HSD)")
@opt.correct_option
@opt.alpha_option
@opt.alternative_option
@opt.samples_option(default=100_000,
                    help_text="Resamples of the randomization and bootstrap tests "
                              "(randomization is exact when 2^topics is not larger).")
@opt.seed_option
@click.option("--scale", type=click.Choice(["original", "interval", "both"]), default="original",
              show_default=True,
              help="Test the measure's values, their interval-mapped values, or both (and "
                   "count decisions that flip).")
@click.option("--fail-if", type=click.Choice(["worse", "different"]), default=None,
              help="CI gate: exit 1 when a challenger is significantly worse than the "
                   "baseline (worse) or any pair differs significantly (different).")
@click.option("--gate-test", metavar="NAME", default=None,
              help="Test deciding the gate.  [default: per measure, the first --test "
                   "permissible for its scale]")
@out_.junit_option
@opt.bounds_option(help_text="Also say whether each significant difference survives the "
                             "worst case for its winner: the winner's low and the loser's "
                             "high on every topic, over the labellings of the unjudged "
                             "retrieved documents (columns p_bounds, survives_bounds).")
@opt.alignment_options()
@opt.engine_option
@scores_options                                   # --scores FILE...: per-topic scores
@plot_option                                      # --plot FILE
@out_.format_option(pipe_default="tsv")
@click.pass_context
def command(ctx, qrels, runs, measures, baseline, all_pairs, tests, correct, alpha, alternative,
            samples, seed, scale, fail_if, gate_test, bounds, align_opts, engine_name, scores,
            scores_format, scores_scale, plot, fmt, output):
    """Significance tests between runs on per-topic scores: paired t,
    Wilcoxon signed-rank, sign, rank-sum, randomization, bootstrap and, for
    three or more runs, ANOVA, Kruskal-Wallis, two-way ANOVA and Friedman with
    Tukey HSD.  Each result says whether the test is permissible for the
    measure's scale (Ferrante et al. 2021).  With --fail-if, a CI gate.
    """
    from ipsoeval import engine
    from ipsoeval.analyses import validate

    if not measures and not scores:
        raise UsageError("Missing option '-m' / '--measure'.")
    if len(runs) < 2 and not scores:
        raise UsageError(f"sigtest needs QRELS and at least two runs (got {len(runs)} run)")
    if ctx.meta.get(out_.JUNIT_KEY) is not None and fail_if is None:
        raise UsageError("--junit writes the gate's report: give --fail-if too")
    options = sigtest.make_options(list(tests), gate_test, gate_option="--gate-test",
                                   baseline=baseline, all_pairs=all_pairs, correct=correct,
                                   alpha=alpha, alternative=alternative, samples=samples,
                                   seed=seed, scale=scale, fail_if=fail_if, bounds=bounds)
    if bounds and align_opts.labels != "integer":
        raise UsageError(f"--bounds does not combine with --labels {align_opts.labels} (the "
                         f"bounds range over integer labels)")
    if scale != "original" and align_opts.labels != "integer":     # before reading
        raise UsageError(f"--scale {scale} maps measures through their integer-label values "
                         f"(interval-map): it needs --labels integer")
    if scale != "original" and not scores:      # a measure the map cannot take: before reading
        from ipsoeval.analyses.interval_map import at_cutoff
        for m in measures:
            at_cutoff(m, None)
    if scores and bounds:
        raise UsageError("--bounds needs QRELS and runs (per-topic --scores files have no "
                         "unjudged documents to label)")
    if scores:      # --scores: the arguments are per-topic score files
        from ipsoeval.cli.scores_opts import run_sigtest
        return run_sigtest(ctx, [qrels, *runs], measures, options, align_opts, scores_format,
                           scores_scale, fmt, output, plot=plot)
    requested = engine.requested(measures)          # usage errors before reading files
    sc = None
    if opt.sweeping(engine_name, runs, align_opts, (bounds, "--bounds"),
                    (scale != "original", f"--scale {scale}")):   # a sweep: runs scored a batch at a time
        sc = opt.load_scores(qrels, runs, align_opts, requested, engine=engine_name, ctx=ctx)
        aligned = sc.aligned
    else:
        aligned = opt.load_aligned(qrels, runs, align_opts)
    options.baseline = validate.baseline(baseline, aligned.runs, runs)
    progress = opt.progress("sigtest: testing pairs of runs", ctx)
    if sc is not None:
        report = sigtest.run_scores(sc, options, progress=progress)
    else:
        report = sigtest.run_aligned(aligned, requested, options, progress=progress)
    for rs in report.tables:
        rs.params.update(align_opts.as_params())
    if plot:        # --plot: per-topic differences of the pairs tested
        from ipsoeval.cli import plot_opts
        sc = sc or engine.evaluate(aligned, requested)
        plot_opts.sigtest(plot, report.table("tests"), list(aligned.runs),
                          {m.name: sc.matrix(m.name) for m in sc.measures})
    out_.emit(ctx, report, fmt, output, pipe_default="tsv")
