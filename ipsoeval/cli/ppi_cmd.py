"""ipsoeval ppi — human labels + machine labels: prediction-powered inference."""

from __future__ import annotations

import click

from ipsoeval.analyses import ppi
from ipsoeval.cli import options as opt
from ipsoeval.cli import output as out_
from ipsoeval.cli.options import nuggets_format_option
from ipsoeval.cli.plot_opts import plot_option
from ipsoeval.errors import UsageError


@click.command("ppi")
@click.argument("runs", nargs=-1, required=False, metavar="RUN...")
@click.option("--human", "human", metavar="HUMAN_QRELS", required=True,
              help="Qrels judged by people: the topics they cover are the labelled sample "
                   "(assumed a random subset of the topics).  With --nuggets: the human "
                   "nugget assignments.")
@click.option("--auto", "auto", metavar="AUTO_QRELS", required=True,
              help="Qrels from machine labels (e.g. an LLM), covering every human topic; "
                   "their topics are the topics the mean is over.  With --nuggets: the "
                   "automatic nugget assignments of the same runs' answers.")
@opt.measure_option(help_text="Measure averaged over topics, e.g. nDCG@10, AP, P@10, RR@10 "
                              "(repeatable; see `ipsoeval measures`); required, except with "
                              "--nuggets (default: every nugget score).")
@click.option("--nuggets", "nuggets", is_flag=True,
              help="HUMAN and AUTO are nugget assignment files of generated answers (see "
                   "`ipsoeval nuggets`; no RUN arguments): the estimates are of each run's "
                   "mean nugget score.")
@nuggets_format_option
@click.option("--method", type=click.Choice(list(ppi.METHODS)), default="ppi++",
              show_default=True,
              help="ppi++: the power-tuned estimate (lambda estimated; asymptotically never "
                   "worse than the human topics alone); ppi: the classical "
                   "prediction-powered one "
                   "(lambda = 1).")
@opt.baseline_option(help_text="Compare every other run against this run (paired "
                               "differences).")
@opt.all_pairs_option
@opt.correct_option(help_text="Multiple-comparison correction of the differences' "
                              "p-values (family: the pairs x measures of each method).")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True),
              default=0.05, show_default=True,
              help="The intervals have level 1 - alpha; a difference is significant when "
                   "its (corrected) p-value is below alpha.")
@opt.alignment_options()
@plot_option
@out_.format_option(pipe_default="tsv")
@click.pass_context
def command(ctx, runs, human, auto, measures, nuggets, nuggets_format, method, baseline,
            all_pairs, correct, alpha, align_opts, plot, fmt, output):
    """The mean of a measure over topics from a few human-judged topics and
    machine labels on all of them: the prediction-powered estimate and its
    confidence interval (PPI++ by default, or classical PPI), beside the
    human-only and the auto-only estimates; for pairs of runs, the same for
    the paired difference.  The human topics must be a random subset of the
    topics (Angelopoulos et al. 2023; Oosterhuis et al. 2024).
    """
    from ipsoeval import engine
    from ipsoeval.analyses import validate
    from ipsoeval.reading import check_stdin_once, display_name

    options = ppi.Options(method=method, baseline=baseline, all_pairs=all_pairs,
                          correct=correct, alpha=alpha)
    options.check()
    if nuggets:             # --nuggets: human and automatic nugget assignments
        return _nuggets(ctx, runs, human, auto, measures, nuggets_format, options,
                        align_opts, plot, fmt, output)
    if nuggets_format != "auto":
        raise UsageError("--nuggets-format needs --nuggets")
    if not runs:
        raise UsageError("Missing argument 'RUN...'.")
    if not measures:
        raise UsageError("Missing option '-m' / '--measure'.")
    requested = ppi.select_measures(engine.requested(measures))   # before reading files
    if "-" in runs:
        raise UsageError("ppi reads every run twice (once per qrels): give the runs as "
                         "files, not '-' (standard input may be --human or --auto)")
    for q in (human, auto):
        opt._output_not_an_input(output, q, runs)
    check_stdin_once([human, auto, *runs])
    h_al, h_warn = opt.aligned_and_warnings(human, runs, align_opts)
    a_al, a_warn = opt.aligned_and_warnings(auto, runs, align_opts)
    # the topics first: an input error is the one line printed
    ppi.split_topics(h_al.topics, a_al.topics, human_name=display_name(human),
                     auto_name=display_name(auto))
    seen = set()
    # the human qrels cover a sample of the topics by design: runs' topics
    # beyond them are expected (the auto side still reports topics beyond all)
    h_warn = [w for w in h_warn if not w.endswith(" topic(s) not in the qrels ignored")]
    for label, ws in (("human qrels", h_warn), ("auto qrels", a_warn)):
        for w in ws:
            if w not in seen:
                seen.add(w)
                out_.warn(f"{w} ({label})")
    options.baseline = validate.baseline(baseline, h_al.runs, runs)
    h_sc = engine.evaluate(h_al, requested)
    a_sc = engine.evaluate(a_al, requested)
    report = ppi.run(h_sc, a_sc, options, human_name=display_name(human),
                     auto_name=display_name(auto))
    for rs in report.tables:
        rs.params.update(align_opts.as_params())
    if plot:
        from ipsoeval import plots
        plots.ppi(plot, report.table("estimates"))
    out_.emit(ctx, report, fmt, output, pipe_default="tsv")


def _nuggets(ctx, runs, human, auto, measures, nuggets_format, options, align_opts, plot, fmt,
             output):
    """``ppi --nuggets --human H --auto A``: PPI on each run's nugget scores."""
    from ipsoeval.analyses import nuggets as ng
    from ipsoeval.analyses import validate
    from ipsoeval.cli.scores_opts import _check_align
    from ipsoeval.reading import check_stdin_once, display_name
    from ipsoeval.reading.nuggets import failed_warnings, read_nuggets

    if runs:
        raise UsageError("ppi --nuggets: the runs are those of the assignment files; give no "
                         "RUN arguments")
    _check_align(align_opts)
    sel = ng.select(list(measures))
    for q in (human, auto):
        opt._output_not_an_input(output, q, [])
    check_stdin_once([human, auto])
    hj = read_nuggets([human], nuggets_format)
    aj = read_nuggets([auto], nuggets_format)
    inputs = ng.ppi_inputs(hj, aj, [m.name for m in sel])
    options.baseline = validate.baseline(options.baseline, aj.runs)
    for label, j in (("human", hj), ("auto", aj)):
        for w in failed_warnings(j):
            out_.warn(f"{label} nuggets: {w}")
    report = ppi.analyse(list(aj.runs), list(hj.topics), list(aj.topics), inputs, options,
                         human_name=display_name(human), auto_name=display_name(auto))
    for rs in report.tables:
        rs.params.update({"nuggets": True, "nuggets_format": nuggets_format})
    if plot:
        from ipsoeval import plots
        plots.ppi(plot, report.table("estimates"))
    out_.emit(ctx, report, fmt, output, pipe_default="tsv")
