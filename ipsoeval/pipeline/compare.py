"""``ipsoeval compare``: its declaration and the calls from inputs to a Report,
made by the command line (:func:`from_values`) and the API
(:func:`from_result`)."""

from __future__ import annotations

from ipsoeval.align_options import align_group
from ipsoeval.analyses.compare.options import Options
from ipsoeval.declare import Command, Group
from ipsoeval.errors import UsageError
from ipsoeval.output_options import FORMATS, Output
from ipsoeval.pipeline import HELP
from ipsoeval.pipeline import inputs as inp
from ipsoeval.pipeline.options import (
    QRELS_RUNS,
    Engine,
    Measures,
    NuggetsFormat,
    Progress,
    Scores,
)

# compare's formats: every other command's (trec_eval's layout is eval's
# alone) and html, the table as ipsoeval report's page shows it
COMPARE_FORMATS = tuple(f for f in FORMATS if f != "trec")
COMPARE_FORMATS = COMPARE_FORMATS[:COMPARE_FORMATS.index("markdown") + 1] + ("html",) + \
    COMPARE_FORMATS[COMPARE_FORMATS.index("markdown") + 1:]

COMMAND = Command("compare", HELP["compare"], arguments=QRELS_RUNS, groups=(
    # the API takes the measures as its third positional argument, as evaluate does
    Group(Measures, api=False, words={"measures": {"help": (
        "Measure of a column, e.g. nDCG@10, AP, P@10 (repeatable, in the order of the "
        "columns).  Required, except with --scores (every measure of the files).")}}),
    Options, align_group(paired=True), Engine, Scores, NuggetsFormat,
    Group(Output, words={"fmt": {
        "choices": COMPARE_FORMATS,
        "help": "Output format; auto = table on a terminal, else tsv; html: the table as a "
                "page; parquet needs -o FILE."}}),
    Progress))

PROGRESS_LABEL = "compare: tests"


def options_of(values: dict) -> Options:
    """The analysis's Options from the command's values (or the API's keywords), checked."""
    from ipsoeval.declare import field_names
    options = Options(**{k: values[k] for k in field_names(Options) if k in values})
    options.check()
    return options


def from_values(v: dict, *, warn=inp._ignore, note=inp._ignore, progress=None):
    """The Report of a command line's parsed values ``v``."""
    from ipsoeval import engine
    from ipsoeval.analyses import compare, validate

    align = inp.align_options(v, paired=True, note=note, command="compare")
    fmt = inp.scores_format(v)
    measures, runs = list(v["measures"]), v["runs"]
    if not measures and fmt is None:
        raise UsageError("compare needs a measure: give -m MEASURE (e.g. -m nDCG@10)")
    options = options_of(v)
    tracking = progress and progress(PROGRESS_LABEL)
    if fmt is not None:                # the arguments are per-topic score files
        ts = inp.command_scores(v, align, fmt, baseline=options.baseline, measures=measures,
                                warn=warn, note=note)
        if options.baseline is not None:
            options.baseline = inp.score_baseline(options.baseline, ts)
        return from_scores(ts, options, measures=measures or None, progress=tracking)
    if not runs:
        raise UsageError("compare needs QRELS and at least one run (got no run)")
    requested = engine.requested(measures)          # usage errors before reading files
    if inp.sweeping(v["engine_name"], runs, align, measures=measures):
        sc = inp.load_scores(v["qrels"], runs, align, requested, engine=v["engine_name"],
                             warn=warn,
                             progress=progress and progress(f"scoring {len(runs)} runs"))
        aligned = sc.aligned
    else:
        aligned = inp.load_aligned(v["qrels"], runs, align, measures=measures, warn=warn)
        sc = None
    if options.baseline is not None:
        options.baseline = validate.baseline(options.baseline, aligned.runs, runs)
    options.check(list(aligned.runs))
    sc = sc or engine.evaluate(aligned, requested)
    report = compare.run_scores(sc, options, progress=tracking)
    return inp.with_params(report, align.as_params())


def from_scores(ts, options: Options, measures=None, progress=None):
    """The Report of ``compare`` on per-topic scores (a TopicScores)."""
    from ipsoeval.analyses import compare
    from ipsoeval.analyses.scores import _with_params
    from ipsoeval.reading.scores import select
    names = select(ts, measures)
    report = compare.run(list(ts.runs), len(ts.topics),
                         {m: ts.matrices[m] for m in names}, {m: ts.scales[m] for m in names},
                         {m: bool(ts.higher_is_better[m]) for m in names}, options,
                         progress=progress)
    report.note(*ts.notes_for(names))
    return _with_params(report, ts)


def from_result(res, *, measures=None, progress=None, **kw):
    """The Report of :func:`ipsoeval.compare` on an EvalResult or per-topic scores."""
    from ipsoeval.pipeline.common import _baseline, _common, _names, _requested, _scores_or_result

    options = options_of(kw)

    def on_scores(ts):
        if options.baseline is not None:
            options.baseline = inp.score_baseline(options.baseline, ts)
        return from_scores(ts, options, measures=_names(measures), progress=progress)

    def on_result(res):
        from ipsoeval import engine
        from ipsoeval.analyses import compare
        if options.baseline is not None:
            options.baseline = _baseline(res, options.baseline)
        options.check(list(res.runs))
        requested = _requested(res, measures)
        aligned, notes = _common(res)
        return compare.run_scores(engine.evaluate(aligned, requested), options,
                                  progress=progress), notes

    return _scores_or_result(res, on_scores, on_result)
