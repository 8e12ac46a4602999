"""ipsoeval across — runs compared over several test collections: effects
pooled by meta-analysis, a leaderboard with rank intervals, a mixed model."""

from __future__ import annotations

import click

from ipsoeval.cli import options as opt
from ipsoeval.cli import output as out_
from ipsoeval.cli.plot_opts import plot_option


@click.command("across")
@click.argument("manifest", metavar="MANIFEST")
@opt.measure_option(help_text="Measure to compare, e.g. nDCG@10, AP (repeatable).")
@opt.baseline_option(help_text="Effects are against this run (its name).  [default: the "
                               "first run of the manifest]")
@click.option("--effect", type=click.Choice(["md", "smd"]), default="md", show_default=True,
              help="Effect on each collection: the mean paired difference (md, in the "
                   "measure's units) or the standardized one, Hedges' g of the differences "
                   "(smd).")
@click.option("--method", type=click.Choice(["reml", "dl", "pm"]), default="reml",
              show_default=True,
              help="Estimator of the between-collection variance tau^2: restricted maximum "
                   "likelihood, DerSimonian-Laird or Paule-Mandel.")
@opt.alpha_option
@opt.samples_option(default=1000, help_text="Bootstrap samples of the leaderboard's rank "
                                            "intervals (topics resampled within each "
                                            "collection).")
@opt.seed_option
@click.option("--correct", type=click.Choice(["none", "bonferroni", "holm", "bh"]),
              default="holm", show_default=True,
              help="Correction of the mixed model's pairwise contrasts.")
@click.option("--queries", type=click.Choice(["intersection", "qrels", "strict"]),
              default="qrels",
              help="Topic set of each collection: every qrels topic, a missing one scored "
                   "as an empty ranking (qrels), the qrels topics every run of the "
                   "collection has (intersection), or the same topics everywhere (strict).  "
                   "[default: qrels]")
@click.option("-l", "--rel-level", type=int, default=1, show_default=True,
              help="A document is relevant when its label is at least this.")
@click.option("-J", "--judged-only", is_flag=True,
              help="Remove unjudged documents before ranking (trec_eval -J).")
@click.option("-M", "--depth", type=click.IntRange(min=1), default=None,
              help="Keep at most this many documents per topic (trec_eval -M).")
@click.option("--gains", metavar="MAP", default=None,
              help="Gains for graded measures as LABEL:GAIN pairs, e.g. 0:0,1:1,2:3.")
@click.option("--scores-format", "scores_format",
              type=click.Choice(["auto", "trec_eval", "ir_measures", "long", "json"]),
              default="auto", show_default=True,
              help="Format of the per-topic score files of collections whose qrels is '-'.")
@opt.engine_option
@plot_option
@out_.format_option(pipe_default="tsv")
@click.pass_context
def command(ctx, manifest, measures, baseline, effect, method, alpha, samples, seed, correct,
            queries, rel_level, judged_only, depth, gains, scores_format, engine_name, plot,
            fmt, output):
    """Compare runs over several test collections.  MANIFEST is a TSV file of
    `collection qrels run` lines (paths relative to it; qrels may be
    irds:DATASET_ID, or '-' for a file of per-topic scores).  Each run's
    effect against --baseline on each collection is pooled by random-effects
    meta-analysis (fixed effect beside; Q, I^2, prediction interval); the
    leaderboard ranks runs by their pooled means with bootstrap rank
    intervals, beside the plain mean of means and the mean rank; a linear
    mixed model (system fixed, topic and collection random) handles runs
    missing from collections or topics.
    """
    from ipsoeval.analyses import across
    from ipsoeval.analyses.across import inputs
    from ipsoeval.distributed import parse_engine
    from ipsoeval.errors import UsageError
    from ipsoeval.reading.manifest import read_manifest

    options = across.Options(baseline=baseline, effect=effect, method=method, alpha=alpha,
                             samples=samples, seed=seed,
                             correct=correct)
    options.check()
    if not measures:
        raise UsageError("across needs a measure: give -m MEASURE (e.g. -m nDCG@10)")
    parse_engine(engine_name)
    from ipsoeval import engine as _engine
    _engine.requested(measures)                     # usage errors before reading files
    collections = read_manifest(manifest)
    align = inputs.alignment(queries=queries, rel_level=rel_level, judged_only=judged_only,
                             gains=gains, depth=depth)

    def score():
        scored, names, warnings = inputs.score(
            collections, measures, align=align, engine=engine_name,
            scores_format=scores_format,
            progress=opt.progress(f"across: scoring {len(collections)} collections", ctx))
        for w in warnings:
            out_.warn(w)
        return scored, names

    progress = opt.progress("across: bootstrap of the leaderboard", ctx)
    if parse_engine(engine_name)[0] != "local":
        from ipsoeval.analyses.across.distributed import resampler, session
        with session(engine_name):             # one Ray session for every step
            scored, names = score()
            across.check_inputs(scored, names, options)
            with resampler(scored, names, options, engine_name) as resample:
                report = across.analyse(scored, names, options, progress=progress,
                                        resample=resample)
    else:
        scored, names = score()
        report = across.analyse(scored, names, options, progress=progress)
    if plot:
        from ipsoeval import plots
        plots.forest(plot, report.table("effects"), report.table("pooled"))
    out_.emit(ctx, report, fmt, output, pipe_default="tsv")
