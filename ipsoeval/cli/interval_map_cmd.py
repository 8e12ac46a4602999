"""ipsoeval interval-map — measures mapped onto interval scales (Ferrante et al. 2021)."""

from __future__ import annotations

import click

from ipsoeval.analyses import interval_map
from ipsoeval.cli import options as opt
from ipsoeval.cli import output as out_
from ipsoeval.cli.plot_opts import plot_option
from ipsoeval.cli.scores_opts import qrels_and_runs_or_scores, scores_options
from ipsoeval.errors import UsageError

# a value-set pass estimated longer than this is announced first, on a pipe too
ANNOUNCE_SECONDS = 10.0


def _progress_factory(ctx):
    bars: dict = {}

    def cb(label: str, done: int, total: int) -> None:
        if label not in bars:
            bars[label] = opt.progress(f"interval-map: {label}", ctx)
        bars[label](done, total)

    def announce(what: str, secs: float) -> None:
        # progress bars are drawn only on a terminal: this line says, anywhere,
        # that the silence to come is work (it is cached afterwards)
        if secs >= ANNOUNCE_SECONDS:
            from ipsoeval.cli.leaderboard_cmd import _duration
            out_.note(f"interval-map: {what}: about {_duration(secs)} (computed once, then "
                      f"cached; a smaller -N or cutoff is faster)")

    cb.announce = announce
    return cb


@click.command("interval-map")
@qrels_and_runs_or_scores                         # RUN optional: --scores files stand in
@opt.measure_option(help_text="Measure to map: P, R, AP, RR, Success, ESL, "
                                             "DCG(b=2), nDCG(b=2), nDCG, RBP(p=0.8), ... with "
                                             "a cutoff (its run length N) or without one (then "
                                             "-N); repeatable.  Required, except with --scores whose "
                                             "files hold one measure.")
@click.option("-N", "--length", "length", type=int, default=None,
              help="Run length N for measures given without a cutoff (runs are cut at N and "
                   "padded with non-relevant documents).  [default: 30]")
@click.option("--normalise", "--normalize", "normalise", is_flag=True,
              help="Print (phi - 1) / (|M(U)| - 1) in [0, 1] instead of phi.")
@click.option("--ties", type=click.Choice(["unq", "mid", "min", "max"]), default="unq",
              show_default=True,
              help="unq: rank among the distinct values (the interval map); min/max/mid: "
                   "lowest/highest/mean rank among all runs of the universe (the paper's "
                   "Table 3 alternatives).")
@click.option("--universe", type=click.Choice(["attainable", "all"]), default="all",
              show_default=True,
              help="For measures that depend on R (R, AP, nDCG): all runs of length N, one "
                   "scale for every topic as in the paper (all), or per topic the runs it "
                   "could produce, at most R relevant documents (attainable).")
@opt.per_query_option(help_text="Also print one row per run and topic.")
@click.option("--values", "values", is_flag=True,
              help="List the distinct values of the measure over all runs of length N with "
                   "how many runs reach each, and a text plot.")
@click.option("--analyze", "--analyse", "analyze", is_flag=True,
              help="Kendall's tau of run rankings, original vs mapped, among measures, and "
                   "significance decisions that change (the paper's Tables 2, 4, 5-6).")
@opt.test_option(allowed=interval_map.TESTS, command="interval-map --analyze",
                 default_text="all eight", help_text="Tests of --analyze (Tables 5-6)")
@opt.alpha_option
@click.option("--max-memory", "max_memory", metavar="SIZE", default="2G", show_default=True,
              help="Refuse value-set computations estimated to need more memory than this "
                   "(e.g. 512M, 8G).")
@click.option("--no-cache", is_flag=True,
              help="Neither read nor write the on-disk cache of computed maps.")
@opt.alignment_options(integer_labels="interval-map", rankings="interval-map")
@scores_options                                   # --scores FILE...: per-topic scores
@plot_option                                      # --plot FILE
@out_.format_option(pipe_default="tsv")
@click.pass_context
def command(ctx, qrels, runs, measures, length, normalise, ties, universe, per_query, values,
            analyze, tests, alpha, max_memory, no_cache, align_opts, scores, scores_format,
            scores_scale, plot, fmt, output):
    """Map per-topic scores onto an interval scale: phi(m) is the rank of m
    among the distinct values the measure takes on all judged runs of length
    N (Ferrante, Ferro & Fuhr 2021).  Prints per-run means of the original
    and mapped scores (-q: per topic), the value set (--values) and the
    paper's comparisons (--analyze).
    """
    if not measures and not scores:
        raise UsageError("Missing option '-m' / '--measure'.")
    if tests and not analyze:
        raise UsageError("--test applies to --analyze: give --analyze too")
    options = interval_map.Options(N=length, ties=ties, normalise=normalise, universe=universe,
                                   per_query=per_query, values=values, analyze=analyze,
                                   alpha=alpha, tests=tuple(tests) or interval_map.TESTS,
                                   use_cache=not no_cache,
                                   max_memory=interval_map.iv.parse_size(max_memory))
    options.check()
    if scores:      # --scores: P@k, RR@k, Success@k from per-topic score files
        from ipsoeval.cli.scores_opts import run_interval_map
        return run_interval_map(ctx, [qrels, *runs], measures, options, align_opts,
                                scores_format, scores_scale, fmt, output, plot=plot)
    plain = []
    for m in measures:
        # usage errors before reading files; no cutoff and no -N: N = 30
        plain.append(interval_map.at_cutoff(m, length, default_N=30))
    interval_map.check_listings(plain, options)      # too long a listing: before reading
    interval_map.check_work(plain, options)          # minutes of mapping: likewise
    aligned = opt.load_aligned(qrels, runs, align_opts)
    report = interval_map.run(aligned, plain, options, progress=_progress_factory(ctx))
    for rs in report.tables:
        rs.params.update(align_opts.as_params())
    if plot:        # --plot: φ per topic against the raw value, means before/after
        import dataclasses

        from ipsoeval import plots
        per, means = (interval_map.run(aligned, plain, dataclasses.replace(
            options, per_query=pt, values=False, analyze=False, warnings=[])).table("scores")
            for pt in (True, False))
        plots.interval_map(plot, per, means)
    out_.emit(ctx, report, fmt, output, pipe_default="tsv")
