"""ipsoeval report — one self-contained HTML page: leaderboard, significance
matrix, per-topic differences, outcomes breakdown and scale notes."""

from __future__ import annotations

import shlex
import sys

import click

from ipsoeval.cli import options as opt
from ipsoeval.cli import output as out_
from ipsoeval.cli.options import nuggets_format_option
from ipsoeval.cli.scores_opts import qrels_and_runs_or_scores
from ipsoeval.errors import UsageError
from ipsoeval.stats import registry

# an estimate of the resampling work is printed first when it is longer than this
ANNOUNCE_SECONDS = 10.0


def _pairs(ctx, param, value):
    from ipsoeval.analyses.report import parse_pair
    return tuple(parse_pair(v) for v in value)


def announce(secs: float, what: str) -> None:
    from ipsoeval.cli.leaderboard_cmd import _duration
    from ipsoeval.cli.progress import clear_bars
    if secs < ANNOUNCE_SECONDS:
        return
    try:
        clear_bars()
        sys.stderr.write(f"ipsoeval: note: report: {what}: about {_duration(secs)} "
                         f"(--samples trades precision for time)\n")
        sys.stderr.flush()
    except (BrokenPipeError, OSError):
        pass


@click.command("report")
@qrels_and_runs_or_scores                          # RUN optional with --nuggets
@opt.measure_option(required=True,
                    help_text="Measure to rank and compare runs by, e.g. nDCG@10, AP "
                              "(repeatable: a leaderboard and a heat map per measure; the "
                              "first chooses the best run).")
@opt.baseline_option(help_text="The run the best run is compared with (breakdown, default "
                               "pair).")
@click.option("--pair", "pairs", metavar="A:B", multiple=True, callback=_pairs,
              help="Draw the per-topic differences B - A of this pair and test it as "
                   "sigtest does (repeatable, at most 6).  [default: the baseline and the "
                   "best other run]")
@opt.test_option(allowed=registry.TWO_SAMPLE, command="report",
                 default_text=opt.BY_SCALE_TEXT,
                 help_text="Tests of the chosen pairs")
@opt.samples_option(default=10_000,
                    help_text="Samples of the randomised Tukey HSD and of the pairs' "
                              "randomization and bootstrap tests.")
@opt.seed_option
@opt.alpha_option
@click.option("--ci", "ci", type=float, default=0.95, show_default=True,
              help="Level of the t confidence interval of each run's mean.")
@opt.correct_option(help_text="Multiple-comparison correction of the pairs' tests (per "
                              "pair) and of the breakdown's p-values.")
@click.option("-k", "--cutoff", "k", type=click.IntRange(min=1), default=100,
              show_default=True,
              help="Rank cutoff of the outcomes breakdown: a run answers a topic when a "
                   "relevant document is in its top k.")
@click.option("--title", default="ipsoeval report", show_default=True,
              help="Title of the page.")
@click.option("--nuggets", "nuggets", is_flag=True,
              help="The arguments are nugget assignment files of generated answers (see "
                   "`ipsoeval nuggets`): the page compares the runs by their nugget scores "
                   "(-m nugget_vital_strict, ...), without the outcomes breakdown.")
@nuggets_format_option
@click.option("--manifest", metavar="MANIFEST", default=None,
              help="Add a collections section: the runs of this ipsoeval across manifest "
                   "compared over its collections (forest plot of the pooled effects "
                   "against --baseline, or the manifest's first run, and the "
                   "cross-collection leaderboard; the same tables as ipsoeval across).")
@opt.alignment_options()
@click.option("-o", "--output", metavar="FILE", default=None,
              callback=out_.check_output_option,
              help="Write the page to FILE (only when everything succeeded) instead of "
                   "standard output ('-': standard output).")
@out_.warnings_option
@click.pass_context
def command(ctx, qrels, runs, measures, baseline, pairs, tests, samples, seed, alpha, ci,
            correct, k, title, nuggets, nuggets_format, manifest, align_opts, output):
    """One self-contained HTML page comparing runs, to attach to a paper's
    repository or a CI job: the leaderboard with CIs and letter groups
    (randomised Tukey HSD), the significance matrix as a heat map, the
    per-topic differences of chosen pairs with their tests, the outcomes
    breakdown of the best run against the baseline (Lin et al. 2021) and
    the permissible tests of each measure's scale.  The page loads nothing
    from the network; its tables hold the same numbers as ipsoeval
    leaderboard, sigtest and breakdown.  The charts are SVG drawn by ipsoeval
    itself (no plotting library needed).
    """
    from ipsoeval import engine
    from ipsoeval.analyses import report as rp
    from ipsoeval.analyses import validate
    from ipsoeval.formatters import html

    options = rp.Options(samples=samples, seed=seed, alpha=alpha, ci=ci, correct=correct,
                         pairs=list(pairs), tests=list(tests) or None, k=k, title=title)
    options.check()                                  # usage errors before reading files
    if nuggets:             # --nuggets: the runs' nugget scores
        if manifest is not None:
            raise UsageError("--manifest does not combine with --nuggets (a manifest lists "
                             "runs and qrels of collections)")
        return _nuggets(ctx, [qrels, *runs], measures, baseline, options, nuggets_format,
                        align_opts, output)
    if nuggets_format != "auto":
        raise UsageError("--nuggets-format needs --nuggets")
    if len(runs) < 2:
        raise UsageError(f"report compares runs: it needs QRELS and at least two runs "
                         f"(got {len(runs)})")
    requested = engine.requested(measures)
    aligned = opt.load_aligned(qrels, runs, align_opts)
    options.baseline = validate.baseline(baseline, aligned.runs, runs)
    options.check(list(aligned.runs))
    sc = engine.evaluate(aligned, requested)
    nmeas = len({m.name for m in sc.measures})
    secs = rp.estimate_seconds(len(aligned.runs), len(aligned.topics), samples, nmeas,
                               max(1, len(pairs)), options.tests)
    announce(secs, f"{samples:,} samples x {len(aligned.runs):,} runs x "
                   f"{len(aligned.topics):,} topics" + (f" x {nmeas} measures" if nmeas > 1
                                                         else ""))
    collections = None
    if manifest is not None:                 # the manifest is read and checked first
        from ipsoeval.reading.manifest import read_manifest
        collections = read_manifest(manifest)
    comp = rp.compose(aligned, sc, options,
                      progress=opt.progress("report: leaderboard and pair tests", ctx))
    if collections is not None:
        rp.add_collections(comp, collections, list(measures), align_opts.queries,
                           progress=opt.progress("report: collections", ctx))
    for rep in comp.reports.values():
        for t in rep.tables:
            t.params.update(align_opts.as_params())
    figures = rp.figures(comp)
    warnings = list(comp.warnings)
    cmds = _commands(qrels, runs, list(aligned.runs), comp, options, align_opts)
    if "across" in comp.reports:
        cmds.append(_across_line(manifest, measures, comp, align_opts))
    meta = dict(comp.meta(), commands=cmds)
    page = html.render(comp.reports, figures, title=title, meta=meta, notes=comp.notes,
                       warnings=warnings)
    out_.flush_warnings(ctx, warnings)
    if output is not None:
        out_.write_output(output, page)
    else:
        from ipsoeval.cli.environment import get_env
        out_.write_stdout(ctx, get_env(ctx).stdout, page)


def _nuggets(ctx, files, measures, baseline, options, nuggets_format, align_opts, output):
    """``report --nuggets FILE...``: the page on the nugget scores."""
    from ipsoeval.analyses import report as rp
    from ipsoeval.analyses import validate
    from ipsoeval.analyses.nuggets import select
    from ipsoeval.cli.scores_opts import load
    from ipsoeval.formatters import html

    names = [m.name for m in select(list(measures))]
    ts = load(files, align_opts, f"nuggets:{nuggets_format}", ())
    if len(ts.runs) < 2:
        raise UsageError(f"report compares runs: the nugget files hold {len(ts.runs)} run(s)")
    options.baseline = validate.baseline(baseline, ts.runs)
    options.check(list(ts.runs))
    comp = rp.compose_scores(ts, options, names,
                             progress=opt.progress("report: leaderboard and pair tests", ctx))
    figures = rp.figures(comp)
    warnings = list(comp.warnings)
    ms = [a for m in names for a in ("-m", m)]
    fmt = ["--nuggets-format", nuggets_format] if nuggets_format != "auto" else []
    common = ["--samples", str(options.samples), "--seed", str(options.seed),
              "--alpha", _num(options.alpha)]
    cmds = [_line(["ipsoeval", "leaderboard", "--nuggets", *files, *fmt, *ms, *common,
                   "--ci", _num(options.ci), *align_opts.as_argv()])]
    for a, b in comp.pairs:
        cmds.append(_line(["ipsoeval", "sigtest", "--nuggets", *files, *fmt, *ms,
                           "--baseline", a, *_test_args(options), *common,
                           "--correct", options.correct, *align_opts.as_argv()],
                          f"the rows of run_b = {b}"))
    page = html.render(comp.reports, figures, title=options.title,
                       meta=dict(comp.meta(), commands=cmds), notes=comp.notes,
                       warnings=warnings)
    for w in warnings:
        out_.warn(w)
    if output is not None:
        out_.write_output(output, page)
    else:
        from ipsoeval.cli.environment import get_env
        out_.write_stdout(ctx, get_env(ctx).stdout, page)


def _num(x) -> str:
    """A float option's value as the shortest text that reads back as the same
    float (``%g`` would round 0.0123456789 to 0.0123457)."""
    return repr(float(x))


def _test_args(options) -> list[str]:
    """``--test`` as report ran the pairs' tests: the tests given, else nothing,
    so that sigtest picks the same default test per measure that report did."""
    tests = options.sigtest_options().tests
    return ["--test", ",".join(tests)] if tests else []


def _line(argv: list[str], comment: str | None = None) -> str:
    text = shlex.join(argv)
    return f"{text}   # {comment}" if comment else text


def _across_line(manifest, measures, comp, align_opts) -> str:
    """The across command line of the collections section (its baseline, seed,
    alpha and samples as add_collections chose them)."""
    p = comp.reports["across"].tables[0].params
    return _line(["ipsoeval", "across", manifest,
                  *[a for m in measures for a in ("-m", str(m))],
                  "--baseline", str(p["baseline"]), "--samples", str(p["samples"]),
                  "--seed", str(p["seed"]), "--alpha", _num(p["alpha"]),
                  "--queries", align_opts.queries])


def _commands(qrels, runs, aligned_runs, comp, options, align_opts=None) -> list[str]:
    """The command lines whose tables the page holds, quoted for a POSIX shell,
    with the alignment options given to report."""
    from ipsoeval.align_options import AlignOptions
    align_opts = align_opts or AlignOptions()
    mapped = len(aligned_runs) == len(runs)
    ms = [a for m in dict.fromkeys(r["measure"] for r in comp.reports["leaderboard"]
                                   .table("resolution").records) for a in ("-m", m)]
    common = ["--seed", str(options.seed), "--alpha", _num(options.alpha)]
    out = [_line(["ipsoeval", "leaderboard", qrels, *runs, *ms,
                  "--samples", str(options.samples), *common, "--ci", _num(options.ci),
                  *align_opts.as_argv()])]
    for a, b in comp.pairs:
        if mapped:
            keep = [aligned_runs.index(a), aligned_runs.index(b)]
            files, comment = [runs[i] for i in keep], None
        else:              # run names that are not one per file: every file, A the baseline
            keep, files, comment = None, list(runs), f"the rows of run_b = {b}"
        out.append(_line(["ipsoeval", "sigtest", qrels, *files, *ms, "--baseline", a,
                          *_test_args(options), "--samples", str(options.samples), *common,
                          "--correct", options.correct, *align_opts.as_argv(keep)], comment))
    if "breakdown" in comp.reports:
        out.append(_line(["ipsoeval", "breakdown", qrels, *runs, "--baseline", comp.baseline,
                          "-k", str(options.k), "--alpha", _num(options.alpha),
                          "--correct", options.correct,
                          *align_opts.as_argv(gains=False)],
                         f"the row of run_b = {comp.best}"))
    return out
