"""The options every command that reads runs or per-topic scores shares
beside its analysis's own: the measures, where the runs are scored, per-topic
score files as input, a plot.  Declared once (:mod:`ipsoeval.declare`); a
command takes them as :class:`~ipsoeval.declare.Group` s, worded its own way
where it needs to."""

from __future__ import annotations

from ipsoeval.align_options import align_group
from ipsoeval.declare import Arg, Command, Group, field_names, option, options
from ipsoeval.output_options import output_group
from ipsoeval.reading.grammar import SCORE_FORMATS

MEASURE_HELP = ("Measure, e.g. P@10, nDCG@10, AP, RR@10, RBP(p=0.8)@10, or a trec_eval "
                "name/argument (P.5,10, map, official, all_trec). Repeatable. See "
                "`ipsoeval measures`.")
NUGGET_FORMATS = ("auto", "jsonl", "tsv")
# the arguments of a command on qrels and runs, whose runs --scores may replace
QRELS_RUNS = (Arg("qrels", "QRELS"), Arg("runs", "RUN...", many=True, required=False))


def option_values(command: Command, options, values: dict, *, leave=()) -> dict:
    """{name: value} of the options of ``command`` that the options
    class ``options`` declares, but ``leave``, as ``values`` (the command line's
    values or the API's keywords) gives them."""
    return {o.dest: values[o.dest] for o in command.opts()
            if o.dest in field_names(options) and o.dest in values
            and o.dest not in leave}


def checked_options(command: Command, options, values: dict):
    """The analysis's ``options`` (its Options dataclass) from ``values``, checked."""
    made = options(**option_values(command, options, values))
    made.check()
    return made


def _check_plot(value):
    if value is not None:           # no --plot: ipsoeval.plots is not imported
        from ipsoeval import plots
        plots.check(value)
    return value


@options
class Measures:
    """The measures asked for (-m)."""

    measures: tuple = option("-m", "--measure", multiple=True, metavar="MEASURE", default=(),
                             help=MEASURE_HELP)


def measures_group(help: str | None = None, *, required: bool = False) -> Group:
    words = {}
    if help is not None:
        words["help"] = help
    if required:
        words["required"] = True
    return Group(Measures, words={"measures": words} if words else None)


@options
class PerQuery:
    """Per-topic rows (-q)."""

    per_query: bool = option("-q", "--per-query", kind="flag",
                             help="Per-topic rows instead of the summary.")


@options
class Engine:
    """Where the runs are scored (--engine)."""

    engine_name: str = option(
        "--engine", default="local", show_default=True, metavar="local|ray|ray://HOST:PORT",
        api=False,
        help="Where the runs are read and scored: this machine, or a Ray cluster (ray: "
             "RAY_ADDRESS, else a local one; ray://HOST:PORT: that cluster), one task per run "
             "next to the data, only per-topic scores coming back; same numbers.  Needs the "
             "extra ipsoeval[ray].")


@options
class NuggetsFormat:
    """The layout of nugget files."""

    nuggets_format: str = option(
        "--nuggets-format", kind="choice", choices=NUGGET_FORMATS, default="auto",
        show_default=True, api=False,
        help="Layout of the nugget assignment files: nuggetizer's JSONL records or the long "
             "TSV 'run qid nugget_id importance assignment' (auto: by the first character).")


@options
class Scores:
    """Per-topic score files or nugget files as the input."""

    scores: bool = option("--scores", kind="flag", api=False,
                          help="The arguments are per-topic score files (trec_eval -q, "
                               "ir_measures, ipsoeval TSV/JSON, or CSV/TSV "
                               "run,qid,measure,value) instead of QRELS RUN...")
    scores_format: str = option("--scores-format", kind="choice", choices=SCORE_FORMATS,
                                default="auto", show_default=True, api=False,
                                help="With --scores: format of the score files (auto: "
                                     "detected and stated on stderr).")
    scores_scale: tuple = option("--scores-scale", multiple=True, metavar="[MEASURE=]SCALE",
                                 default=(), api=False,
                                 help="With --scores: the scale (ordinal, interval or ratio) "
                                      "of a measure ipsoeval does not know, or of every "
                                      "unknown one; repeatable.  Unknown scales mark the "
                                      "tests 'scale unknown'.")
    nuggets: bool = option("--nuggets", kind="flag", api=False,
                           help="The arguments are nugget assignment files of generated "
                                "answers (see `ipsoeval nuggets`): their nugget scores are "
                                "the per-topic scores, one measure per nugget score.")


@options
class Plot:
    """A plot of the results."""

    plot: str | None = option("--plot", metavar="FILE", api=False, check=_check_plot,
                              help="Also draw the results to FILE (.svg, .png or .pdf; needs "
                                   "matplotlib: pip install 'ipsoeval[plot]').")


@options
class Progress:
    progress: object = option(cli=False,
                              help="An optional callback cb(done, total) called as the work "
                                   "advances.")


def scores_command(name: str, measures, *own, engine: bool = False, plot: bool = True,
                   after=()) -> Command:
    """A command on qrels and runs whose runs per-topic score files may replace:
    QRELS RUN..., then -m (``measures``: its help text, or the command's own
    Group), the groups ``own`` (the analysis's options first), the paired
    alignment, where the runs are scored (``engine``), --scores and its
    formats, --plot (``plot``), the tab-separated output, and ``after``."""
    from ipsoeval.pipeline import HELP
    if isinstance(measures, str):
        measures = measures_group(measures)
    return Command(name, HELP[name], arguments=QRELS_RUNS, groups=(
        measures, *own, align_group(paired=True), *((Engine,) if engine else ()), Scores,
        NuggetsFormat, *((Plot,) if plot else ()), output_group("tsv"), *after))
