"""The analyses that apply to per-topic scores alone (``--scores FILE...``):
sigtest, bootstrap, the sign test of ``ipso`` and ``interval-map`` of P@k,
RR@k and Success@k, on a :class:`~ipsoeval.reading.scores.TopicScores`
(read by :func:`ipsoeval.reading.scores.read_scores`).
"""

from __future__ import annotations

import numpy as np

from ipsoeval.errors import InputError, UsageError
from ipsoeval.reading.scores import TopicScores, known_measure, select

# --- analyses on scores ----------------------------------------------------------------

def sigtest_scores(ts: TopicScores, options, measures=None):
    """The Report of ``sigtest`` on per-topic scores (the files' notes and
    warnings are ``ts.notes`` and ``ts.warnings``)."""
    from ipsoeval.analyses import sigtest as st
    if options.scale != "original":
        raise UsageError("--scale interval/both maps rankings to an interval scale: it needs "
                         "QRELS and RUN files, not --scores")
    if len(ts.runs) < 2:
        raise UsageError(f"sigtest needs at least two runs (the scores hold {len(ts.runs)})")
    names = select(ts, measures)
    mats = {m: ts.matrices[m] for m in names}
    scales = {m: ts.scales[m] for m in names}
    lower = {m for m in names if not ts.higher_is_better[m]}
    report = st.run(list(ts.runs), mats, scales, options, lower_better=lower,
                    topics=len(ts.topics))
    return _with_params(report.note(*ts.notes_for(names)), ts)


def bootstrap_scores(ts: TopicScores, options, measures=None, warn=None):
    """The Report of ``bootstrap`` on per-topic scores."""
    from ipsoeval.analyses import bootstrap as bs
    report = bs.analyse(list(ts.runs), list(ts.topics), _measure_inputs(ts, measures),
                        options, warn=warn)
    return _with_params(report.note(*ts.notes_for(select(ts, measures))), ts)


def leaderboard_scores(ts: TopicScores, options, measures=None, progress=None):
    """The Report of ``leaderboard`` on per-topic scores."""
    from ipsoeval.analyses import leaderboard as lb
    report = lb.analyse(list(ts.runs), len(ts.topics), _measure_inputs(ts, measures),
                        options, progress=progress)
    report.note(*ts.notes_for(select(ts, measures)))
    return _with_params(report, ts)


def _with_params(report, ts: TopicScores):
    """The report with the score files' params (formats, topic policy) in every table."""
    for rs in report.tables:
        rs.params.update(ts.params)
    return report


def _measure_inputs(ts: TopicScores, measures) -> list:
    """Each selected measure's (runs, topics) scores with its direction and scale:
    the input of bootstrap and leaderboard."""
    from ipsoeval.analyses.bootstrap.resample import MeasureInput
    return [MeasureInput(m, np.array(ts.matrices[m], dtype=np.float64),
                         ts.higher_is_better[m], ts.scales[m]) for m in select(ts, measures)]


SIGN_COLUMNS = ["run_a", "run_b", "measure", "n", "n_a_better", "n_equal",
                "n_b_better", "p_value", "significant"]


def ipso_scores(ts: TopicScores, *, alpha: float = 0.05, measures=None, all_pairs: bool = False,
                correct: str = "none", baseline: str | None = None):
    """The sign test over topics on per-topic scores (what applies of IPSO without
    the rankings): per pair and measure, the topics where B beats A, ties, A
    beats B (direction by the measure: lower is better for ESL), and the exact
    two-sided sign test of the wins against the losses.  Returns ``(report, the
    score files' notes and warnings)``; what the sign test stands for here is
    the report's note."""
    from ipsoeval.analyses import validate
    from ipsoeval.analyses.ipso import sign_p_counts
    from ipsoeval.results import Report, ResultSet
    from ipsoeval.stats.corrections import adjust
    validate.alpha(alpha)
    validate.correct(correct)
    if len(ts.runs) < 2:
        raise UsageError(f"ipso needs at least two runs (the scores hold {len(ts.runs)})")
    if baseline is not None and all_pairs:
        raise UsageError("--baseline conflicts with --all-pairs")
    names = select(ts, measures)
    R = len(ts.runs)
    base = ts.runs.index(validate.baseline(baseline, ts.runs)) if baseline is not None else 0
    pairs = ([(i, j) for i in range(R) for j in range(i + 1, R)] if all_pairs
             else [(base, j) for j in range(R) if j != base])
    records = []
    for m in names:
        M = ts.matrices[m]
        sign = 1.0 if ts.higher_is_better[m] else -1.0
        for i, j in pairs:
            a, b = M[i], M[j]
            ok = ~(np.isnan(a) | np.isnan(b))
            d = sign * (b[ok] - a[ok])
            nb, na = int((d > 0).sum()), int((d < 0).sum())
            p = float(sign_p_counts(np.array([nb]), np.array([na]))[0])
            records.append({"run_a": ts.runs[i], "run_b": ts.runs[j], "measure": m,
                            "n": int(ok.sum()), "n_a_better": na,
                            "n_equal": int(ok.sum()) - na - nb, "n_b_better": nb,
                            "p_value": p, "significant": bool(p < alpha)})
    columns = list(SIGN_COLUMNS)
    if correct != "none":           # one family: every p-value of the table
        adj = adjust(np.array([r["p_value"] for r in records], dtype=np.float64), correct)
        for r, pa in zip(records, adj.tolist()):
            r["p_adjusted"] = pa
            r["significant"] = bool(pa < alpha)
        columns.insert(columns.index("p_value") + 1, "p_adjusted")
        records = [{c: r[c] for c in columns} for r in records]
    params = dict(ts.params)
    params.update({"alpha": alpha, "correction": correct,
                   "pairs": "all" if all_pairs else "baseline",
                   "test": "exact two-sided sign test of n_b_better against n_a_better "
                           "(ties left out)"})
    # what the method implies on scores alone: a note of the report
    method = ("ipso --scores: the IPSO relations need the rankings; on per-topic scores the "
              "sign test counts, per topic, which run scores better on each measure")
    notes = list(ts.notes) + list(ts.warnings)
    rs = ResultSet("ipso", columns, records, params=params,
                   title="Sign test over topics on per-topic scores", id="sign_test",
                   description="per pair of runs and measure, topics where each run scores "
                               "better and the exact sign test",
                   table_hints={"digits": 4})
    return Report("ipso", [rs], notes=[method]), notes


# --- interval-map on scores ---------------------------------------------------------------

MAPPABLE = ("P", "RR", "Success")


def _witness(family: str, v: float, k: int, tol: float):
    """A relevance vector of length k whose measure value is v (P: the first c
    documents relevant; RR: the first relevant at rank r; Success: rank 1), or None."""
    vec = np.zeros(k, dtype=np.int32)
    if family == "P":
        c = int(round(v * k))
        if not 0 <= c <= k or abs(c / k - v) > tol:
            return None
        vec[:c] = 1
    elif family == "RR":
        if abs(v) <= tol:
            return vec
        r = int(round(1 / v)) if v > 0 else 0
        if not 1 <= r <= k or abs(1 / r - v) > tol:
            return None
        vec[r - 1] = 1
    else:                                  # Success
        if abs(v - round(v)) > tol or round(v) not in (0, 1):
            return None
        vec[0] = int(round(v))
    return vec


def interval_map_scores(ts: TopicScores, measures, options):
    """``interval-map`` on per-topic scores, where the map is a function of the
    value alone: P@k, RR@k and Success@k over the universe of all runs of
    length k (the paper's).  Each score is replaced by a ranking that has it
    (a score the measure cannot take is an error; trec_eval's 4 decimals are
    matched within 5e-5) and mapped as the rankings would be."""
    from types import SimpleNamespace

    from ipsoeval.analyses import interval_map as im
    from ipsoeval.model import Aligned
    if options.universe != "all":
        raise UsageError("interval-map --scores: --universe attainable needs each topic's "
                         "relevant documents (QRELS and RUN files)")
    tol = 5e-5
    maps = []
    names = select(ts, measures)
    for name in names:
        known = known_measure(name)
        if known is None or known.family not in MAPPABLE:
            raise UsageError(f"interval-map --scores: {name}: the interval map applies to "
                             f"per-topic scores of P@k, RR@k and Success@k only (the map of "
                             f"other measures depends on each topic's relevant documents); "
                             f"give QRELS and RUN files")
        m = im.at_cutoff(known, options.N, default_N=30)
        k = int(m.cutoff)
        M = ts.matrices[name]
        R, T = M.shape
        labels = np.zeros((R, T, k), dtype=np.int32)
        for r in range(R):
            for t in range(T):
                v = M[r, t]
                if np.isnan(v):
                    raise InputError(f"{name} of topic {ts.topics[t]!r} for run "
                                     f"{ts.runs[r]!r} is undefined; the map needs a value",
                                     path=ts.params["scores"][r])
                vec = _witness(known.family, float(v), k, tol)
                if vec is None:
                    raise InputError(f"{name} of topic {ts.topics[t]!r} for run "
                                     f"{ts.runs[r]!r} is {v!r}, not a value {m.name} can take",
                                     path=ts.params["scores"][r])
                labels[r, t] = vec
        judged = [np.array([1] * k + [0] * k, dtype=np.int64) for _ in range(T)]
        al = Aligned(runs=list(ts.runs), topics=list(ts.topics), labels=labels,
                     n_ret=np.full((R, T), k, np.int64), rel_level=1,
                     num_rel=np.full(T, k, np.int64), num_nonrel=np.full(T, k, np.int64),
                     judged_labels=judged, in_run=np.ones((R, T), dtype=bool))
        maps.append(im.map_measure(al, m, options))
    where = SimpleNamespace(runs=list(ts.runs), topics=list(ts.topics), rel_level=1)
    params = {"N": options.N, "ties": options.ties, "normalise": options.normalise,
              "universe": options.universe, "measures": [x.measure for x in maps]}
    params.update(ts.params)
    from ipsoeval.analyses.interval_map.report import report as mapped_report
    return mapped_report(where, maps, options, params)   # (im.report: the submodule)
