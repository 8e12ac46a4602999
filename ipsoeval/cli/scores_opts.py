"""``--scores``: per-topic scores from any tool instead of ``QRELS RUN...``.

A command that takes per-topic scores stacks :func:`scores_options` and, at
the top of its body, hands over to the matching ``run_*`` function when
``--scores`` is given; the positional arguments are then the score files.
The reading is :mod:`ipsoeval.reading.scores`; the statistics are the analyses'.
"""

from __future__ import annotations

import sys

import click

from ipsoeval.cli import output as out_
from ipsoeval.errors import UsageError


def qrels_and_runs_or_scores(f):
    """QRELS RUN... as :func:`options.qrels_and_runs`, but RUN may be absent (with
    --scores the arguments are score files, one may hold every run); the
    command checks the count."""
    f = click.argument("runs", nargs=-1, required=False, metavar="RUN...")(f)
    return click.argument("qrels", metavar="QRELS")(f)


def scores_options(f):
    """--scores, --scores-format, --scores-scale, and --nuggets (with --nuggets the
    arguments are nugget assignment files, whose nugget scores are the
    per-topic scores; the command sees --scores with the format 'nuggets')."""
    import functools

    from ipsoeval.reading.grammar import SCORE_FORMATS as FORMATS

    callback = f

    @functools.wraps(callback)
    def f(*args, nuggets=False, nuggets_format="auto", **kw):
        if nuggets:
            if kw.get("scores"):
                raise UsageError("--nuggets conflicts with --scores (the files are nugget "
                                 "assignments, not per-topic scores)")
            if kw.get("scores_format", "auto") != "auto" or kw.get("scores_scale"):
                raise UsageError("--scores-format and --scores-scale apply to --scores, not "
                                 "to --nuggets (use --nuggets-format)")
            kw["scores"] = True
            kw["scores_format"] = f"nuggets:{nuggets_format}"
        elif nuggets_format != "auto":
            raise UsageError("--nuggets-format needs --nuggets")
        return callback(*args, **kw)

    from ipsoeval.cli.options import nuggets_format_option as format_option
    f = format_option(f)
    f = click.option("--nuggets", "nuggets", is_flag=True,
                     help="The arguments are nugget assignment files of generated answers "
                          "(see `ipsoeval nuggets`): their nugget scores are the per-topic "
                          "scores, one measure per nugget score.")(f)
    f = click.option("--scores-scale", "scores_scale", multiple=True, metavar="[MEASURE=]SCALE",
                     help="With --scores: the scale (ordinal, interval or ratio) of a measure "
                          "ipsoeval does not know, or of every unknown one; repeatable.  "
                          "Unknown scales mark the tests 'scale unknown'.")(f)
    f = click.option("--scores-format", "scores_format", type=click.Choice(list(FORMATS)),
                     default="auto", show_default=True,
                     help="With --scores: format of the score files (auto: detected and "
                          "stated on stderr).")(f)
    f = click.option("--scores", "scores", is_flag=True,
                     help="The arguments are per-topic score files (trec_eval -q, ir_measures, "
                          "ipsoeval TSV/JSON, or CSV/TSV run,qid,measure,value) instead of "
                          "QRELS RUN...")(f)
    return f


def _check_align(align_opts) -> None:
    if (align_opts.judged_only or align_opts.depth is not None or align_opts.rel_level != 1
            or align_opts.gains is not None or align_opts.tie_break != "trec"
            or align_opts.run_format != "auto" or align_opts.labels != "integer"):
        raise UsageError("-J, -M, -l, --gains, --tie-break, --run-format and --labels apply "
                         "to runs and qrels, not to --scores (--queries and --name do)")


TWO_RUNS = ("risk", "sigtest", "ipso")      # commands that compare runs: two at least
ONE_MEASURE = ("risk", "sigtest", "interval-map")   # without -m: the scores' only measure


def _baseline_first(baseline, files, names) -> None:
    """--baseline checked before any file is read where the run names are known
    without reading: given by --name (a FILE argument as the baseline waits
    for the reading, since one file may hold several runs)."""
    if baseline is None or not names:
        return
    import os
    if baseline in files or (os.path.exists(baseline) and any(
            f != "-" and os.path.exists(f) and os.path.samefile(f, baseline) for f in files)):
        return
    from ipsoeval.analyses import validate
    validate.baseline(baseline, list(names))


def load(files, align_opts, scores_format: str, scores_scale, *, baseline=None,
         measures=None, command: str | None = None):
    """The per-topic scores of ``files``.  ``baseline`` (--baseline) and, with
    ``command``, the -m requirement (:func:`measures_or_only`) are checked
    before the reading where they can be and before any note is printed, so
    that a refusal is the only line on standard error."""
    from ipsoeval.reading.scores import read_scores
    _check_align(align_opts)
    files = [f for f in files if f is not None]
    _baseline_first(baseline, files, align_opts.names)
    if scores_format.startswith("nuggets:"):      # --nuggets: the nugget scores
        from ipsoeval.analyses.nuggets import select, topic_scores
        if measures:                              # the names are known before reading
            select([str(m) for m in measures])
        from ipsoeval.reading.nuggets import read_nuggets
        ts = topic_scores(read_nuggets(files, scores_format.partition(":")[2]))
    else:
        ts = read_scores(files, fmt=scores_format, queries=align_opts.queries,
                         scale=scores_scale)
    if align_opts.names:        # --name: once per run, in the order the files give them
        if len(align_opts.names) != len(ts.runs):
            raise UsageError(f"--name given {len(align_opts.names)} time(s) for "
                             f"{len(ts.runs)} run(s) in the scores")
        if len(set(align_opts.names)) != len(align_opts.names):
            raise UsageError("--name: run names must differ")
        ts.runs = list(align_opts.names)
    if baseline is not None:
        _baseline(baseline, ts)
    if command in ONE_MEASURE and not measures and len(ts.measures) != 1:
        measures_or_only(ts, measures, command)
    if command in TWO_RUNS and len(ts.runs) < 2:  # as the analysis would say, before the notes
        raise UsageError(f"{command} needs at least two runs (the scores hold {len(ts.runs)})")
    if measures and not scores_format.startswith("nuggets:"):
        from ipsoeval.reading.scores import select
        select(ts, list(measures))                # a -m the scores lack
    for n in ts.notes:
        _note(n)
    for w in ts.warnings:
        out_.warn(w)
    return ts


def measures_or_only(ts, measures, command: str) -> list[str]:
    """-m as given; without -m, the one measure the score files share (said on
    stderr), else a usage error that lists the measures found."""
    if measures:
        return list(measures)
    if len(ts.measures) == 1:
        _note(f"{command} --scores: using the scores' only measure, {ts.measures[0]}")
        return list(ts.measures)
    raise UsageError(f"Missing option '-m' / '--measure': the scores hold "
                     f"{len(ts.measures)} measures ({', '.join(ts.measures)})")


def _note(message: str) -> None:
    try:
        sys.stderr.write(f"ipsoeval: note: {message}\n")
    except (BrokenPipeError, OSError):
        pass


def _baseline(value, ts):
    """--baseline NAME|FILE with --scores: a run name, or a score file holding one run."""
    from ipsoeval.analyses import validate
    return validate.baseline(value, ts.runs, ts.params.get("scores"))


def refuse(flag: bool, command: str, why: str) -> None:
    if flag:
        raise UsageError(f"{command} --scores: {why}")


def run_sigtest(ctx, files, measures, options, align_opts, scores_format, scores_scale,
                fmt, output, plot=None):
    from ipsoeval.analyses.scores import sigtest_scores

    ts = load(files, align_opts, scores_format, scores_scale, baseline=options.baseline,
              measures=measures, command="sigtest")
    measures = measures_or_only(ts, measures, "sigtest")
    options.baseline = _baseline(options.baseline, ts)
    report = sigtest_scores(ts, options, measures=measures)
    if plot:
        from ipsoeval.cli import plot_opts
        plot_opts.sigtest(plot, report.table("tests"), list(ts.runs), ts.matrices)
    out_.emit(ctx, report, fmt, output, pipe_default="tsv")


