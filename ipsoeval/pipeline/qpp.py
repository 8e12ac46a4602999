"""``ipsoeval qpp``: its declaration and the calls from inputs to a Report,
made by the command line (:func:`from_values`) and the API (:func:`from_result`)."""

from __future__ import annotations

from ipsoeval.align_options import align_group
from ipsoeval.analyses.qpp.options import Options
from ipsoeval.declare import Arg, Command, Group
from ipsoeval.errors import UsageError
from ipsoeval.output_options import output_group
from ipsoeval.pipeline import HELP
from ipsoeval.pipeline import inputs as inp
from ipsoeval.pipeline.options import Scores, measures_group

COMMAND = Command(
    "qpp", HELP["qpp"],
    arguments=(Arg("qrels", "QRELS"), Arg("run", "RUN"),
               Arg("predictors", "PREDICTOR...", many=True, required=False)),
    groups=(measures_group("Measure the predictors predict, e.g. AP, nDCG@10 (repeatable; see "
                           "`ipsoeval measures`).  Required, except with --scores whose file "
                           "holds one measure."),
            Options, align_group(paired=True),
            Group(Scores, without=("nuggets",), words={"scores": {
                "help": "The arguments are SCORES PREDICTOR...: a file of the run's per-topic "
                        "scores (trec_eval -q, ir_measures, ipsoeval TSV/JSON, or CSV/TSV "
                        "run,qid,measure,value) instead of QRELS RUN."}}),
            output_group("tsv")))


def options_of(values: dict) -> Options:
    """The analysis's Options from the command's values (or the API's keywords), checked."""
    options = Options(alpha=values.get("alpha", 0.05), samples=values.get("samples", 1000),
                      seed=values.get("seed", 42), per_query=values.get("per_query", False))
    options.check()
    return options


def _one_run(ts, what: str) -> str:
    if len(ts.runs) != 1:
        raise UsageError(f"qpp evaluates predictors of one run: {what} holds {len(ts.runs)} "
                         f"runs ({', '.join(ts.runs)})")
    return ts.runs[0]


def _from_scores(ts, measures, predictors, options, *, note, progress):
    from ipsoeval.analyses import qpp
    from ipsoeval.reading.scores import select
    run = _one_run(ts, "the scores file")
    names = select(ts, inp.measures_or_only(ts, measures, "qpp", note=note))
    report = qpp.run(run, list(ts.topics), {m: ts.matrices[m][0] for m in names}, predictors,
                     options, source="scores", progress=progress)
    report.note(*ts.notes_for(names))
    return report


def _from_scores_obj(scores, predictors, options, progress):
    from ipsoeval import engine
    from ipsoeval.analyses import qpp
    run = scores.runs[0]
    mats = {}
    for m in scores.distinct_measures:
        mats[m.name] = scores.matrix(m.name)[0]
    report = qpp.run(run, list(scores.topics), mats, predictors, options, progress=progress)
    return engine.with_score_warnings(report, scores)


def _input_notes(report, note):
    """The notes about these inputs (a constant predictor or measure) said on
    the command line as it reads them, so that tsv, which carries no notes,
    does not leave its empty cells without a word; the method's own notes
    stay with the output."""
    said = [n for n in report.notes if " is constant over " in n]
    for n in said:
        note(n)
    report.notes[:] = [n for n in report.notes if n not in said]
    return report


def from_values(v: dict, *, warn=inp._ignore, note=inp._ignore, progress=None, listing=None):
    """The Report of a command line's parsed values ``v``; None when
    ``listing()``, called once the options are checked and before any input
    is read, says it answered (``--table list``)."""
    from ipsoeval import engine
    from ipsoeval.reading.predictors import read_predictors

    fmt = inp.scores_format(v)
    files = [v["qrels"], v["run"], *(v.get("predictors") or ())]
    v = dict(v)
    if fmt is None:
        v["runs"] = (v["run"],)
        predictor_paths = list(v.get("predictors") or ())
    else:
        v["runs"] = ()
        predictor_paths = files[1:]
    align = inp.align_options(v, paired=True, note=note, command="qpp")
    options = options_of(v)
    if listing is not None and listing():
        return None
    if not predictor_paths:
        raise UsageError("qpp needs at least one PREDICTOR file (after QRELS RUN, or after "
                         "the scores file with --scores)")
    inp.output_not_an_input(v.get("output"), None, predictor_paths)
    measures = v["measures"]
    if fmt is not None:
        ts = inp.load_score_files([v["qrels"]], align, fmt, v["scores_scale"],
                                  measures=measures, command="qpp", warn=warn, note=note)
        _one_run(ts, "the scores file")
        predictors = read_predictors(predictor_paths)
        report = _from_scores(ts, measures, predictors, options, note=note,
                              progress=progress and progress("bootstrap"))
        inp.with_params(report, ts.params)
        return _input_notes(report, note)
    if not measures:
        raise UsageError("Missing option '-m' / '--measure'.")
    requested = engine.requested(measures)          # usage errors before reading files
    predictors = read_predictors(predictor_paths)
    aligned = inp.load_aligned(v["qrels"], [v["run"]], align, measures=measures, warn=warn)
    report = _from_scores_obj(engine.evaluate(aligned, requested), predictors, options,
                              progress and progress("bootstrap"))
    inp.with_params(report, align.as_params())
    return _input_notes(report, note)


def from_result(res, predictors, *, measures=None, **kw):
    """The Report of :func:`ipsoeval.qpp` on an EvalResult of one run (or its
    per-topic scores) and ``predictors`` (paths, or ``{name: {qid: value}}``)."""
    from ipsoeval.pipeline.common import _common, _names, _requested, _scores_or_result
    from ipsoeval.reading.predictors import predictors_from

    options = options_of(kw)
    preds = predictors_from(predictors)

    def on_scores(ts):
        return _from_scores(ts, _names(measures), preds, options, note=inp._ignore,
                            progress=None)

    def on_result(res):
        from ipsoeval import engine
        if len(res.runs) != 1:
            raise UsageError(f"qpp evaluates predictors of one run: the result holds "
                             f"{len(res.runs)} runs ({', '.join(res.runs)})")
        requested = _requested(res, measures)
        aligned, notes = _common(res)
        return _from_scores_obj(engine.evaluate(aligned, requested), preds, options,
                                kw.get("progress")), notes

    return _scores_or_result(res, on_scores, on_result)
