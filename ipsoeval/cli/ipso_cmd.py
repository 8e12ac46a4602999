"""ipsoeval ipso — innate pairwise SERP orderings (Moffat & Mackenzie 2024)."""

from __future__ import annotations

import click
from click.core import ParameterSource

from ipsoeval.analyses import ipso
from ipsoeval.cli import options as opt
from ipsoeval.cli import output as out_
from ipsoeval.cli.plot_opts import plot_option
from ipsoeval.cli.scores_opts import scores_options
from ipsoeval.errors import UsageError

_EXPLICIT = (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)


def _explicit(ctx: click.Context, name: str) -> bool:
    return ctx.get_parameter_source(name) in _EXPLICIT


@click.command("ipso")
@click.argument("qrels", required=False, metavar="QRELS")
@click.argument("runs", nargs=-1, metavar="RUN_A RUN_B [RUN...]")
@click.option("-k", "--cutoff", "k", type=click.IntRange(min=1), default=None,
              help="Evaluation depth k.  [default: 10, or the largest of --depths]")
@click.option("--depths", metavar="LIST", default=None,
              help="Depths to report, e.g. 5,10,20 or 1..k (pair summaries: default k; "
                   "--all-pairs depth table: default 1..k).")
@opt.measure_option(help_text="Measure for the reporting protocol (§3.6), e.g. P@10, "
                              "RBP(p=0.8)@10, nDCG@10.  Repeatable.")
@opt.test_option(allowed=ipso.TESTS, command="ipso", default_text=opt.BY_SCALE_TEXT,
                 help_text="Test of the -m measures")
@opt.correct_option(help_text="Multiple-comparison correction across every p-value of "
                               "the invocation (IPSO sign tests and metric tests).")
@opt.alpha_option
@opt.alternative_option(help_text="Alternative hypothesis about B - A of the -m measures' "
                                  "tests (the IPSO sign test is two-sided, as in the paper).")
@opt.samples_option(default=100_000,
                    help_text="Resamples of the randomization and bootstrap tests.")
@opt.seed_option
@click.option("--graded", type=click.Choice(["prefix", "threshold"]), default="prefix",
              show_default=True,
              help="Graded gains: Algorithm 1 on the gains (prefix), or dominance at every "
                   "relevance threshold (threshold; valid for ordinal labels).")
@opt.baseline_option(help_text="Run A, compared with every other run.")
@opt.all_pairs_option(help_text="Compare every pair of runs: Table 3 and, with -m, Figure 7.")
@opt.per_query_option(help_text="Per topic: SERPs, relation, trajectory and score differences "
                                "(Figure 5).")
@click.option("--enumerate", "enumerate_", metavar="K[,K...]", default=None,
              help="Exact Table 2: equal / separable / non-separable among all 4^k binary "
                   "SERP pairs, for each k (needs no files).")
@opt.alignment_options(integer_labels="ipso", rankings="ipso")
@scores_options                                   # --scores FILE...: per-topic scores
@plot_option                                      # --plot FILE
@out_.format_option(pipe_default="tsv")
@click.pass_context
def command(ctx, qrels, runs, k, depths, measures, tests, correct, alpha, alternative, samples,
            seed,
            graded, baseline, all_pairs, per_query, enumerate_, align_opts, scores,
            scores_format, scores_scale, plot, fmt, output):
    """Innate pairwise SERP orderings: for each topic, is run A's SERP
    non-inferior (ni), non-superior (ns), equal (==) or non-separable (**)
    to run B's for every metric at depth k?  Then the sign test of |ns|
    against |ni| over the topics (Moffat & Mackenzie 2024).
    """
    from ipsoeval.analyses import validate

    if scores:      # --scores: the sign test over topics on per-topic score files
        from ipsoeval.cli.scores_opts import refuse, run_ipso
        for flag, name in ((k is not None or depths is not None, "-k/--depths"),
                           (bool(tests), "--test"), (per_query, "-q"),
                           (alternative != "two-sided", "--alternative"),
                           (enumerate_ is not None, "--enumerate")):
            refuse(flag, "ipso", f"{name} needs the rankings (QRELS and RUN files)")
        return run_ipso(ctx, [qrels, *runs], measures, alpha, all_pairs, align_opts,
                        scores_format, scores_scale, fmt, output, correct=correct,
                        baseline=baseline)
    ks = ipso.parse_enumerate(enumerate_) if enumerate_ is not None else None
    if qrels is None and not runs:
        if ks is None:
            raise UsageError("ipso needs QRELS and at least two runs (or --enumerate K,...)")
        out_.emit(ctx, ipso.enumerate_report(ks), fmt, output, pipe_default="tsv")
        return
    if len(runs) < 2:
        raise UsageError(f"ipso needs QRELS and at least two runs (got {len(runs)} run)")

    test_list = list(tests)
    if test_list and not measures:
        raise UsageError("--test applies to a measure: give -m MEASURE too")
    cutoff = k if k is not None else 10
    depth_list = ipso.parse_depths(depths, cutoff) if depths is not None else None
    if k is None and depth_list:
        cutoff = max(depth_list)
    names: list[str] = []
    if measures:
        from ipsoeval import engine
        for r in engine.requested(measures):      # usage errors before reading files
            if r.measure.name not in names:
                names.append(r.measure.name)
    options = ipso.Options(k=cutoff, depths=depth_list, graded=graded, measures=names,
                           tests=test_list, alpha=alpha, alternative=alternative,
                           correct=correct,
                           baseline=baseline, all_pairs=all_pairs, per_query=per_query,
                           samples=samples, seed=seed)
    options.check()

    aligned = opt.load_aligned(qrels, runs, align_opts)
    options.baseline = validate.baseline(baseline, aligned.runs, runs)
    progress = opt.progress("ipso: crossings of every pair of runs", ctx) if all_pairs else None
    report = ipso.run(aligned, options,
                      gains_given=align_opts.gains is not None,
                      rel_level_given=_explicit(ctx, "rel_level"),
                      graded_given=_explicit(ctx, "graded"),
                      progress=progress, enumerate_ks=ks)
    for rs in report.tables:
        rs.params.update(align_opts.as_params())
    if plot:        # --plot: Figure 5's per-topic view needs the topic table
        import dataclasses

        from ipsoeval import plots
        topics = report.table("topics") if per_query else ipso.run(
            aligned, dataclasses.replace(options, per_query=True),
            gains_given=align_opts.gains is not None,
            rel_level_given=_explicit(ctx, "rel_level"),
            graded_given=_explicit(ctx, "graded")).table("topics")
        plots.ipso(plot, topics)
    out_.emit(ctx, report, fmt, output, pipe_default="tsv")
