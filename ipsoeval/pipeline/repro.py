"""``ipsoeval repro``: its declaration and the calls from inputs to a Report,
made by the command line (:func:`from_values`) and the API (:func:`from_result`)."""

from __future__ import annotations

import os

from ipsoeval.align_options import align_group
from ipsoeval.analyses.repro.options import DEFAULT_MEASURES, ROLES, Options
from ipsoeval.declare import Command, Group
from ipsoeval.errors import InputError, UsageError
from ipsoeval.output_options import output_group
from ipsoeval.pipeline import inputs as inp
from ipsoeval.pipeline.options import QRELS_RUNS, Scores, checked_options, measures_group

COMMAND = Command("repro", __import__("ipsoeval.pipeline", fromlist=["HELP"]).HELP["repro"],
                  arguments=QRELS_RUNS, groups=(
    measures_group("Measure, e.g. P@10, nDCG@10, AP (repeatable; see `ipsoeval measures`).  "
                   "Default: " + ", ".join(DEFAULT_MEASURES) + "; with --scores, every "
                   "measure of the files."),
    Options, align_group(paired=True), Group(Scores, without=("nuggets",)),
    output_group("tsv")))

API_FIRST = ("qrels", "orig_baseline", "orig_advanced", "rep_baseline", "rep_advanced")


def options_of(values: dict) -> Options:
    return checked_options(COMMAND, Options, values)


def _four(paths, what: str) -> None:
    if len(paths) != 4:
        raise UsageError(f"repro needs {what} four runs: ORIG_BASELINE ORIG_ADVANCED "
                         f"REP_BASELINE REP_ADVANCED (got {len(paths)})")


def from_values(v: dict, *, warn=inp._ignore, note=inp._ignore, progress=None):
    """The Report of a command line's parsed values ``v``."""
    align = inp.align_options(v, paired=True, note=note, command="repro",
                              rankings="repro")
    fmt = inp.scores_format(v)
    options = options_of(v)
    measures = list(v["measures"])
    if fmt is not None:
        return _from_scores(v, align, fmt, options, measures, warn=warn, note=note,
                            progress=progress)
    if options.replicated:
        raise UsageError("--replicated is for --scores; give the other collection's qrels "
                         "with --rep-qrels")
    runs = list(v["runs"])
    _four(runs, "QRELS and")
    if "-" in runs and options.paired:
        raise UsageError("repro: a run cannot be standard input ('-'): its rankings (KTU, "
                         "RBO) and its scores are read separately")
    if options.rep_qrels is not None:
        inp.output_not_an_input(v.get("output"), options.rep_qrels, ())
    return _from_runs(v["qrels"], runs, align, options, measures or list(DEFAULT_MEASURES),
                      warn=warn, note=note, progress=progress)


def _topic_check(paths, ranked) -> None:
    """The original and reproduced runs must answer the same topics
    (reproducibility): one line naming the reproduced file otherwise."""
    for o, r in ((0, 2), (1, 3)):
        a, b = set(ranked[o].names), set(ranked[r].names)
        if a != b:
            missing = sorted(a - b, key=str.encode)
            extra = sorted(b - a, key=str.encode)
            parts = []
            if missing:
                parts.append(f"{len(missing)} of its topics missing (first {missing[0]!r})")
            if extra:
                parts.append(f"{len(extra)} topic(s) {os.path.basename(paths[o])} lacks "
                             f"(first {extra[0]!r})")
            raise InputError(f"the reproduced run answers {len(b)} topics, the original "
                             f"{paths[o]} {len(a)}: {' and '.join(parts)}; reproducibility "
                             f"compares them topic by topic (--rep-qrels for another "
                             f"collection)", path=paths[r])


def _from_runs(qrels, runs, align, options: Options, measures, *, warn, note, progress):
    from ipsoeval import engine
    from ipsoeval.analyses import repro
    from ipsoeval.analyses.repro.order import ktu_rbo, ranked
    from ipsoeval.analyses.repro.report import OrderResult
    from ipsoeval.reading import read_run

    requested = engine.requested(measures)          # usage errors before reading files
    order = None
    if options.paired:
        names = inp.run_names(runs, align)
        rk = [ranked(read_run(p, align.run_format, names[i] if names else None), align.tie_break)
              for i, p in enumerate(runs)]
        _topic_check(runs, rk)
        aligned = inp.load_aligned(qrels, runs, align, measures=measures, warn=warn)
        scores = engine.evaluate(aligned, requested)
        data = _measure_scores(scores, scores, aligned.topics, aligned.topics, (0, 1, 2, 3))
        order = []
        for role, (o, r) in (("baseline", (0, 2)), ("advanced", (1, 3))):
            topics = sorted(rk[o].names, key=str.encode)
            k, b, uneven = ktu_rbo(rk[o], rk[r], topics, ktu_depth=options.ktu_depth,
                                   rbo_p=options.rbo_p, rbo_depth=options.rbo_depth)
            order.append(OrderResult(role, topics, k, b, uneven))
        run_names = list(aligned.runs)
    else:
        a1 = inp.load_aligned(qrels, runs[:2], align, measures=measures, warn=warn)
        a2 = inp.load_aligned(options.rep_qrels, runs[2:], align, measures=measures, warn=warn)
        s1 = engine.evaluate(a1, requested)
        s2 = engine.evaluate(a2, requested)
        data = _measure_scores(s1, s2, a1.topics, a2.topics)
        run_names = list(a1.runs) + list(a2.runs)
    report = repro.run(data, options, order=order, names=dict(zip(ROLES, run_names)))
    inp.with_params(report, align.as_params())
    return report


def _measure_scores(orig, rep, topics, rep_topics, rows=(0, 1, 0, 1)):
    """Each measure's four score vectors: the original runs' rows of ``orig``
    and the reproduced runs' rows of ``rep`` (one Scores of the four runs on
    one collection, or one per collection)."""
    from ipsoeval.analyses.repro import MeasureScores
    out, seen = [], set()
    for m in orig.measures:
        if m.name in seen:
            continue
        seen.add(m.name)
        x, y = orig.matrix(m.name), rep.matrix(m.name)
        out.append(MeasureScores(m.name, list(topics), x[rows[0]], x[rows[1]],
                                 list(rep_topics), y[rows[2]], y[rows[3]]))
    return out


def _from_scores(v, align, fmt, options: Options, measures, *, warn, note, progress):
    import numpy as np

    from ipsoeval.analyses import repro
    from ipsoeval.analyses.repro import MeasureScores
    from ipsoeval.declare import replace
    from ipsoeval.reading.scores import select

    if options.rep_qrels is not None:
        raise UsageError("repro --scores: --rep-qrels applies to runs; say --replicated for "
                         "scores on another collection")
    if v.get("queries") is None:     # no topic filled in: the runs' own topics are compared
        align = replace(align, queries="strict")
    files = [f for f in (v["qrels"], *v["runs"]) if f is not None]
    # each file read on its own: the reproduced runs' topics (another
    # collection's, for replicability) are not aligned to the original ones'
    runs = []
    said: list = []            # the notes wait for the checks: a refusal is the only line
    for f in files:
        ts = inp.load_score_files([f], align, fmt, v["scores_scale"], measures=measures,
                                  warn=lambda w: said.append((warn, w)),
                                  note=lambda n: said.append((note, n)))
        runs += [(ts, i, f) for i in range(len(ts.runs))]
    if len(runs) != 4:
        raise UsageError(f"repro --scores needs the scores of four runs, in this order: "
                         f"original baseline, original advanced, reproduced baseline, "
                         f"reproduced advanced (the files hold {len(runs)})")
    shared = [m for m in runs[0][0].measures if all(m in ts.matrices for ts, _, _ in runs)]
    names = select(runs[0][0], measures or shared)
    for ts, _, _ in runs[1:]:
        select(ts, names)
    said.append((note, "repro --scores: KTU and RBO compare rankings; per-topic scores have "
                       "none, so the document order is not compared"))

    def vector(k, m):
        ts, i, f = runs[k]
        x = np.asarray(ts.matrices[m][i], float)
        ok = ~np.isnan(x)
        return {t: x[j] for j, t in enumerate(ts.topics) if ok[j]}, f

    def differ(a, b, fa, fb, what):
        only_a = sorted(set(a) - set(b), key=str.encode)
        only_b = sorted(set(b) - set(a), key=str.encode)
        if only_a or only_b:
            first = (only_a or only_b)[0]
            raise InputError(f"{m}: {what}: {len(a)} topics in {fa}, {len(b)} here ("
                             f"{len(only_a)} missing, {len(only_b)} extra; first {first!r})",
                             path=fb)

    data = []
    for m in names:
        (ob, f0), (oa, f1), (rb, f2), (ra, f3) = (vector(k, m) for k in range(4))
        differ(ob, oa, f0, f1, "the two original runs must score the same topics")
        differ(rb, ra, f2, f3, "the two reproduced runs must score the same topics")
        if options.paired:
            differ(ob, rb, f0, f2, "reproducibility compares the original and reproduced "
                                   "runs topic by topic (--replicated for another collection)")
        to = sorted(ob, key=str.encode)
        tr = sorted(rb, key=str.encode)
        if not to or not tr:
            raise InputError(f"{m}: no topic with scores", path=f0 if not to else f2)
        data.append(MeasureScores(m, to, np.array([ob[t] for t in to]),
                                  np.array([oa[t] for t in to]), tr,
                                  np.array([rb[t] for t in tr]), np.array([ra[t] for t in tr])))
    for say, text in said:
        say(text)
    report = repro.run(data, options, names=dict(zip(ROLES, [ts.runs[i] for ts, i, _ in runs])))
    inp.with_params(report, {"scores": files})
    return report


def from_result(qrels, orig_baseline, orig_advanced, rep_baseline, rep_advanced, **kw):
    """The Report of :func:`ipsoeval.repro` on the paths of the qrels and the
    four runs (the API's keywords as the command line's options)."""
    from ipsoeval.pipeline.common import _warn

    v = {o.dest: o.default for o in COMMAND.opts()}
    v.update({k: val for k, val in kw.items() if k != "measures"})
    ms = kw.get("measures")
    v["measures"] = tuple([ms] if isinstance(ms, str) else (ms or ()))
    v["qrels"] = os.fspath(qrels)
    v["runs"] = tuple(os.fspath(p) for p in (orig_baseline, orig_advanced, rep_baseline,
                                              rep_advanced))
    v["scores"] = False
    got: list[str] = []
    report = from_values(v, warn=got.append)
    _warn(got)
    return report
