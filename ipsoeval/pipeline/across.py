"""``ipsoeval across``: its declaration and the calls from inputs to a Report,
made by the command line (:func:`from_values`) and the API (:func:`from_result`)."""

from __future__ import annotations

import os

from ipsoeval.align_options import AlignOptions
from ipsoeval.analyses.across.options import Options
from ipsoeval.declare import Arg, Command, Group
from ipsoeval.errors import UsageError
from ipsoeval.output_options import output_group
from ipsoeval.pipeline import HELP
from ipsoeval.pipeline import inputs as inp
from ipsoeval.pipeline.options import Engine, Measures, Plot, Progress, Scores, checked_options

# across aligns each collection's runs itself (ipsoeval.analyses.across.inputs):
# the topic set and four of the alignment options, worded for collections; the
# API takes the topic set only
ALIGN = Group(
    AlignOptions, api=True,
    without=("complete", "tie_break", "run_format", "names", "name_from_file", "labels"),
    words={"queries": {"usage": None, "help": (
               "Topic set of each collection: every qrels topic, a missing one scored as an "
               "empty ranking (qrels), the qrels topics every run of the collection has "
               "(intersection), or the same topics everywhere (strict).")},
           "rel_level": {"api": False},
           "judged_only": {"api": False},
           "depth": {"api": False},
           "gains": {"api": False, "help": "Gains for graded measures as LABEL:GAIN pairs, "
                                           "e.g. 0:0,1:1,2:3."}})

COMMAND = Command(
    "across", HELP["across"],
    arguments=(Arg("manifest", "MANIFEST"),),
    groups=(Group(Measures, words={"measures": {   # the API's second positional parameter
                "api": False, "help": "Measure to compare, e.g. nDCG@10, AP (repeatable)."}}),
            Options, ALIGN,
            Group(Scores, without=("scores", "scores_scale", "nuggets"), words={
                "scores_format": {"help": "Format of the per-topic score files of collections "
                                          "whose qrels is '-'."}}),
            # the API's keyword is engine=, the command line's value too
            Group(Engine, words={"engine_name": {"dest": "engine", "api": True}}),
            Plot, output_group("tsv"), Progress))


def options_of(values: dict) -> Options:
    """The analysis's Options from the command's values (or the API's keywords), checked."""
    return checked_options(COMMAND, Options, values)


def from_values(v: dict, *, warn=inp._ignore, note=inp._ignore, progress=None):
    """The Report of a command line's parsed values ``v``."""
    from ipsoeval import engine as _engine
    from ipsoeval.analyses import across
    from ipsoeval.analyses.across import inputs
    from ipsoeval.distributed import parse_engine
    from ipsoeval.reading.manifest import read_manifest

    options = options_of(v)
    measures, engine = v["measures"], v["engine"]
    if not measures:
        raise UsageError("across needs a measure: give -m MEASURE (e.g. -m nDCG@10)")
    parse_engine(engine)
    _engine.requested(measures)                     # usage errors before reading files
    collections = read_manifest(v["manifest"])
    align = inputs.alignment(queries=v["queries"], rel_level=v["rel_level"],
                             judged_only=v["judged_only"], gains=v["gains"], depth=v["depth"])

    def score():
        scored, names, warnings = inputs.score(
            collections, measures, align=align, engine=engine,
            scores_format=v["scores_format"],
            progress=progress and progress(f"across: scoring {len(collections)} collections"))
        for w in warnings:
            warn(w)
        return scored, names

    resampling = progress and progress("across: bootstrap of the leaderboard")
    if parse_engine(engine)[0] != "local":
        from ipsoeval.analyses.across.distributed import resampler, session
        with session(engine):             # one Ray session for every step
            scored, names = score()
            across.check_inputs(scored, names, options)
            with resampler(scored, names, options, engine) as resample:
                report = across.analyse(scored, names, options, progress=resampling,
                                        resample=resample)
    else:
        scored, names = score()
        report = across.analyse(scored, names, options, progress=resampling)
    if v["plot"]:
        from ipsoeval import plots
        plots.forest(v["plot"], report.table("effects"), report.table("pooled"))
    return report


def from_result(collections, measures=None, *, queries="qrels", engine="local", progress=None,
                evaluate=None, **kw):
    """The Report of :func:`ipsoeval.across`: ``collections`` a manifest path,
    ``{name: (qrels, runs)}`` or ``{name: EvalResult}``; ``evaluate(qrels,
    runs, measures, queries=)``: the API's, for the (qrels, runs) pairs."""
    from ipsoeval.analyses import across as ac
    from ipsoeval.analyses.across import inputs
    from ipsoeval.pipeline.common import _common, _is_path, _names, _report, _warn

    options = options_of(kw)
    names = _names(measures)
    if _is_path(collections):
        from ipsoeval.reading.manifest import read_manifest
        scored, names, notes = inputs.score(read_manifest(os.fspath(collections)), names,
                                            align=inputs.alignment(queries=queries),
                                            engine=engine)
    elif isinstance(collections, dict):
        scored, notes = [], []
        for cname, value in collections.items():
            res = value if hasattr(value, "aligned") else \
                evaluate(value[0], value[1], names, queries=queries)
            if names is None:
                names = res.measures
            aligned, extra = _common(res)
            notes += [f"{cname}: {w}" for w in extra]
            sc = res.scores if aligned is res.aligned else None
            mats = {}
            for m in names:
                M = res.matrix(m)
                if sc is None:
                    pos = {t: i for i, t in enumerate(res.topics)}
                    M = M[:, [pos[t] for t in aligned.topics]]
                mats[res._measure(m).name] = M
            names = list(mats)
            hib = {m: bool(getattr(res._measure(m), "higher_is_better", True)) for m in mats}
            scored.append(ac.CollectionScores(str(cname), list(res.runs),
                                              list(aligned.topics), mats, hib))
    else:
        raise UsageError("across(collections=...): give a manifest path, {name: (qrels, "
                         "runs)} or {name: EvalResult}")
    _warn(notes)
    out = ac.analyse(scored, list(names or []), options, progress=progress)
    _warn(out.warnings)
    return _report(out, warnings=notes)
