"""ipsoeval agree — how far apart two sets of relevance labels are."""

from __future__ import annotations

import click

from ipsoeval.analyses import agree
from ipsoeval.cli import options as opt
from ipsoeval.cli import output as out_
from ipsoeval.cli.options import nuggets_format_option
from ipsoeval.cli.plot_opts import plot_option
from ipsoeval.errors import UsageError


@click.command("agree")
@click.argument("qrels_a", metavar="QRELS_A")
@click.argument("qrels_b", metavar="QRELS_B")
@click.argument("runs", nargs=-1, metavar="[RUN...]")
@opt.measure_option(help_text="Measure whose run rankings are compared, e.g. nDCG@10, AP, "
                              "P@10 (repeatable; needed with runs; see `ipsoeval measures`).")
@opt.test_option(allowed=agree.TESTS, command="agree", default_text=opt.BY_SCALE_TEXT,
                 help_text="The paired test deciding which pairs of runs differ significantly "
                           "(one)")
@opt.correct_option(help_text="Multiple-comparison correction over all pairs of runs and "
                              "measures, under each qrels separately.")
@opt.alpha_option
@opt.samples_option(default=100_000,
                    help_text="Resamples of the randomization and bootstrap tests.")
@opt.seed_option
@click.option("--rbo-p", "rbo_p", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=0.9, show_default=True, metavar="P",
              help="Persistence p of rank-biased overlap (RBO_ext).")
@click.option("--nuggets", "nuggets", is_flag=True,
              help="QRELS_A and QRELS_B are two assigners' nugget assignments of the same "
                   "answers (see `ipsoeval nuggets`; no RUN arguments): agreement on the "
                   "support labels (0 not_support < 1 partial_support < 2 support) and, with "
                   "two or more runs, on the rankings by the nugget scores (-m: default "
                   "every nugget score).")
@nuggets_format_option
@opt.alignment_options()
@plot_option
@out_.format_option(pipe_default="tsv")
@click.pass_context
def command(ctx, qrels_a, qrels_b, runs, measures, tests, correct, alpha, samples, seed, rbo_p,
            nuggets, nuggets_format, align_opts, plot, fmt, output):
    """Agreement of two qrels on the judgments they share: Cohen's kappa
    (unweighted, linear, quadratic), Krippendorff's alpha (interval,
    ordinal) and the confusion matrix.  With two or more runs, for each -m
    measure: the correlation of the rankings of the runs under QRELS_A and
    QRELS_B (Kendall's tau-b, tau_AP, RBO) and the pairs of runs whose
    significant difference appears, disappears or flips.
    """
    from ipsoeval import reading
    from ipsoeval.cli.options import _output_not_an_input

    _output_not_an_input(output, qrels_a, [qrels_b])
    if align_opts.labels != "integer":
        raise UsageError(f"agree compares integer labels (kappa, alpha, the confusion matrix): "
                         f"--labels {align_opts.labels} is not supported")
    options = agree.make_options(list(tests), correct=correct, alpha=alpha, samples=samples,
                                 seed=seed, rbo_p=rbo_p)
    if nuggets:             # --nuggets: two assigners of the same answers
        return _nuggets(ctx, qrels_a, qrels_b, runs, measures, nuggets_format, options,
                        align_opts, plot, fmt, output)
    if nuggets_format != "auto":
        raise UsageError("--nuggets-format needs --nuggets")
    options.check(list(runs))
    if runs and not measures:
        raise UsageError("agree with runs needs at least one -m MEASURE (e.g. -m nDCG@10)")
    if measures and not runs:
        raise UsageError("-m needs runs to rank: ipsoeval agree QRELS_A QRELS_B RUN RUN... "
                         "-m MEASURE")
    if plot and not runs:
        raise UsageError("--plot draws the run means under QRELS_A and QRELS_B: give two or "
                         "more runs")
    requested = None
    if runs:
        from ipsoeval import engine
        requested = engine.requested(measures)          # usage errors before reading files
    reading.check_stdin_once([qrels_a, qrels_b, *runs])
    qa = reading.read_qrels(qrels_a)
    qb = reading.read_qrels(qrels_b)
    models = _read_runs(list(runs), align_opts) if runs else []
    align = {"queries": align_opts.queries, "rel_level": align_opts.rel_level,
             "judged_only": align_opts.judged_only, "gains": align_opts.gains,
             "depth": align_opts.depth, "tie_break": align_opts.tie_break}
    progress = opt.progress("agree: comparing rankings", ctx) if runs else None
    report = agree.run(qa, qb, models, requested, options, align=align, progress=progress)
    if plot:
        from ipsoeval import plots
        plots.agree(plot, report.table("means"), report.table("rankings"))
    out_.emit(ctx, report, fmt, output, pipe_default="tsv")


def _read_runs(paths: list[str], align_opts) -> list:
    """Run models read once (aligned to each qrels in turn), named as --name /
    --name-from-file say."""
    from ipsoeval import reading
    from ipsoeval.parallel import parallel_map

    names = None
    if align_opts.names:
        if len(align_opts.names) != len(paths):
            raise UsageError(f"--name given {len(align_opts.names)} time(s) for {len(paths)} "
                             f"run(s)")
        names = list(align_opts.names)
    elif align_opts.name_from_file:
        names = [reading.file_stem(p) for p in paths]

    def read(i):
        return reading.read_run(paths[i], run_format=align_opts.run_format,
                                name=names[i] if names else None)

    return parallel_map(read, range(len(paths))) if len(paths) > 1 else [read(0)]


def _nuggets(ctx, path_a, path_b, runs, measures, nuggets_format, options, align_opts, plot,
             fmt, output):
    """``agree --nuggets A B``: the support labels and the rankings by nugget scores."""
    from ipsoeval.analyses import nuggets as ng
    from ipsoeval.cli.options import _output_not_an_input
    from ipsoeval.cli.scores_opts import _check_align
    from ipsoeval.reading import check_stdin_once
    from ipsoeval.reading.nuggets import read_nuggets

    if runs:
        raise UsageError("agree --nuggets: the answers are those of the assignment files; give "
                         "no RUN arguments")
    _check_align(align_opts)
    sel = ng.select(list(measures))
    _output_not_an_input(output, path_a, [path_b])
    check_stdin_once([path_a, path_b])
    ja = read_nuggets([path_a], nuggets_format)
    jb = read_nuggets([path_b], nuggets_format)
    if plot and len([r for r in ja.runs if r in jb.runs]) < 2:
        raise UsageError("--plot draws the run means under A and B: the files need two or "
                         "more runs in common")
    progress = opt.progress("agree: comparing rankings", ctx)
    report = ng.agree_report(ja, jb, [m.name for m in sel], options, progress=progress)
    if plot:
        from ipsoeval import plots
        plots.agree(plot, report.table("means"), report.table("rankings"))
    out_.emit(ctx, report, fmt, output, pipe_default="tsv")
