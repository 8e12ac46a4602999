"""Nugget scores of generated answers: per-topic matrices, the ``nuggets``
Report, and the inputs of the statistics.

The scores are :mod:`ipsoeval.measures.nuggets` (declared once there); the
judgments are :class:`~ipsoeval.model.NuggetJudgments`, read by
:mod:`ipsoeval.reading.nuggets`.  :func:`topic_scores` turns them into the
:class:`~ipsoeval.reading.scores.TopicScores` every analysis on per-topic
scores takes, so nugget files stand where runs and qrels stand.
"""

from __future__ import annotations

import numpy as np

from ipsoeval import mean as one_mean
from ipsoeval.errors import InputError, UsageError
from ipsoeval.measures import nuggets as nm
from ipsoeval.model import SUPPORT_LEVELS, NuggetJudgments
from ipsoeval.results import Report, ResultSet

__all__ = ["COLUMNS", "LABEL_NAMES", "select", "matrices", "topic_scores", "scores_report",
           "ppi_inputs", "shared_labels", "agree_report"]

COLUMNS = ["run", "qid", "measure", "value"]
LABEL_NAMES = {0: "not_support", 1: "partial_support", 2: "support"}


def select(measures=None) -> list:
    """The nugget measures named (all four, in declaration order, by default);
    an unknown name is a usage error listing the known ones."""
    if not measures:
        return list(nm.MEASURES)
    out = []
    for name in measures:
        m = nm.lookup(name)
        if m is None:
            raise UsageError(f"unknown nugget measure {name!r}{nm.did_you_mean(name)} "
                             f"(nugget assignments give {', '.join(nm.NAMES)})")
        if m not in out:
            out.append(m)
    return out


def matrices(j: NuggetJudgments, measures=None) -> dict[str, np.ndarray]:
    """{measure name: (runs, topics) float64 scores}."""
    return {m.name: nm.per_topic(j.support, j.importance, m) for m in select(measures)}


def _params(j: NuggetJudgments) -> dict:
    return {"nuggets": list(j.paths), "nuggets_formats": dict(j.formats),
            "failed": "a failed assignment counts as not_support, a failed importance as "
                      "okay (nuggetizer's rule)",
            "no_vital": "an answer to a topic without vital nuggets scores 0 on the vital "
                        "scores (nuggetizer's rule)"}


def topic_scores(j: NuggetJudgments, measures=None, warnings=None):
    """The :class:`~ipsoeval.reading.scores.TopicScores` of the nugget scores:
    what ``--nuggets`` hands to every analysis on per-topic scores."""
    from ipsoeval.reading.nuggets import failed_warnings
    from ipsoeval.reading.scores import TopicScores
    sel = select(measures)
    mats = matrices(j, [m.name for m in sel])
    scales, why = {}, {}
    for m in sel:
        scales[m.name], w = nm.scale_on(j.support, j.importance, m)
        if w:
            why[m.name] = w
    ts = TopicScores(runs=list(j.runs), topics=list(j.topics), matrices=mats,
                     scales=scales, higher_is_better={m.name: True for m in sel},
                     warnings=list(warnings or []) + failed_warnings(j), scale_notes=why)
    ts.params = {"scores": list(j.paths), **_params(j)}
    return ts


def scores_report(j: NuggetJudgments, measures=None, *, per_query: bool = False) -> Report:
    """The Report of ``ipsoeval nuggets``: per run (with ``per_query``, topic
    by topic first) the scores, then the mean over topics (qid ``all``)."""
    from ipsoeval.reading.nuggets import failed_warnings
    sel = select(measures)
    mats = matrices(j, [m.name for m in sel])
    records = []
    for i, run in enumerate(j.runs):
        if per_query:
            for t, qid in enumerate(j.topics):
                for m in sel:
                    records.append({"run": run, "qid": qid, "measure": m.name,
                                    "value": float(mats[m.name][i, t])})
        for m in sel:
            records.append({"run": run, "qid": "all", "measure": m.name,
                            "value": one_mean.mean(mats[m.name][i])})
    params = {"measures": [m.name for m in sel], "per_query": per_query,
              "runs": len(j.runs), "topics": len(j.topics), **_params(j)}
    rs = ResultSet(command="nuggets", columns=list(COLUMNS), records=records, params=params,
                   title="ipsoeval nuggets", id="scores",
                   description="one row per run, topic (qid all: the mean over topics) and "
                               "nugget score",
                   table_hints={"pivot": {"index": ["qid", "measure"], "columns": "run",
                                          "values": "value"}})
    return Report("nuggets", [rs], warnings=failed_warnings(j), params=params)


# --- ppi: human and automatic assignments of the same answers ----------------------

def ppi_inputs(human: NuggetJudgments, auto: NuggetJudgments, measures=None) -> list:
    """Per nugget measure, the ppi MeasureInput: human scores (runs x human
    topics) and auto scores (runs x auto topics), the runs in the auto file's
    order.  The same runs must answer in both (else an input error)."""
    from ipsoeval.analyses.ppi import MeasureInput
    only_h = [r for r in human.runs if r not in auto.runs]
    only_a = [r for r in auto.runs if r not in human.runs]
    if only_h:
        path, line = human.lines[human.runs.index(only_h[0])][0]
        raise InputError(f"run {only_h[0]!r} has human assignments but no automatic ones (ppi "
                         f"needs both assignments of the same runs' answers)", path=path,
                         line=line)
    if only_a:
        path, line = auto.lines[auto.runs.index(only_a[0])][0]
        raise InputError(f"run {only_a[0]!r} has automatic assignments but no human ones (ppi "
                         f"needs both assignments of the same runs' answers)", path=path,
                         line=line)
    missing = [t for t in human.topics if t not in auto.topics]
    if missing:
        path, line = human.lines[0][human.topics.index(missing[0])]
        raise InputError(f"topic {missing[0]!r} has human assignments but no automatic ones "
                         f"(the automatic assignments must cover every human-judged topic)",
                         path=path, line=line)
    order = [human.runs.index(r) for r in auto.runs]
    hm, am = matrices(human, measures), matrices(auto, measures)
    return [MeasureInput(name, hm[name][order], am[name]) for name in hm]


# --- agree: two assigners of the same answers --------------------------------------

def shared_labels(a: NuggetJudgments, b: NuggetJudgments):
    """The support labels (0 not, 1 partial, 2 support) both assigners give the
    same nugget of the same answer (run, qid, nugget id or text), as an
    agree ``Shared``; a failed assignment in either is left out (counted)."""
    from ipsoeval.analyses.agree.judgments import Shared
    rb = {r: i for i, r in enumerate(b.runs)}
    tb = {t: i for i, t in enumerate(b.topics)}
    la, lb = [], []
    failed = 0
    for ri, r in enumerate(a.runs):
        if r not in rb:
            continue
        rj = rb[r]
        for ti, t in enumerate(a.topics):
            tj = tb.get(t)
            if tj is None:
                continue
            pos = {k: x for x, k in enumerate(b.keys[rj][tj])}
            for x, k in enumerate(a.keys[ri][ti]):
                y = pos.get(k)
                if y is None:
                    continue
                if a.failed[ri, ti, x] or b.failed[rj, tj, y]:
                    failed += 1
                    continue
                la.append(int(a.support[ri, ti, x]))
                lb.append(int(b.support[rj, tj, y]))
    na = int((a.support >= 0).sum())
    nb = int((b.support >= 0).sum())
    n = len(la)
    counts = {"judgments_a": na, "judgments_b": nb, "shared": n, "failed": failed,
              "only_a": na - n - failed, "only_b": nb - n - failed}
    return Shared(np.array(la, dtype=np.int64), np.array(lb, dtype=np.int64), counts)


class _Measure:
    __slots__ = ("name", "higher_is_better")

    def __init__(self, name):
        self.name, self.higher_is_better = name, True


class _Scores:
    """The scores interface agree's ranking tables read (measures, matrix,
    aggregate) over nugget score matrices."""

    def __init__(self, mats: dict):
        self.mats = mats
        self.measures = [_Measure(n) for n in mats]

    def matrix(self, name):
        return self.mats[name]

    def aggregate(self, m):      # the one mean of every command
        return np.asarray(one_mean.means(self.mats[m.name]), dtype=np.float64)


def agree_report(a: NuggetJudgments, b: NuggetJudgments, measures, options, *,
                 progress=None) -> Report:
    """``agree --nuggets A B``: agreement of the two assigners on the support
    labels (kappa, weighted kappa, ordinal alpha on not < partial < support;
    the confusion matrix) and, with two or more runs, whether they rank the
    runs alike (agree's rankings, means and changes tables) on the topics
    both assign."""
    from ipsoeval.analyses.agree.report import _rank_tables, label_tables
    from ipsoeval.reading.nuggets import failed_warnings
    options.check()
    sh = shared_labels(a, b)
    warnings = [f"A: {w}" for w in failed_warnings(a)] + [f"B: {w}" for w in failed_warnings(b)]
    params = {"qrels_a": ", ".join(a.paths), "qrels_b": ", ".join(b.paths),
              "judgments": dict(sh.counts),
              "labels": "0 not_support < 1 partial_support < 2 support",
              "matching": "the same nugget (id, else text) of the same run's answer to the "
                          "same topic",
              "failed": "assignments 'failed' under either assigner are left out"}
    if sh.counts["failed"]:
        warnings.append(f"{sh.counts['failed']} shared nugget(s) with a 'failed' assignment "
                        f"under A or B left out of the label statistics")
    if sh.counts["shared"] == 0:
        raise InputError(f"{params['qrels_a']} and {params['qrels_b']} share no assigned "
                         f"nugget of the same run, topic and nugget")
    tables = label_tables(sh, params, warnings, names=SUPPORT_LEVELS)
    runs = [r for r in a.runs if r in b.runs]
    if len(runs) >= 2:
        topics = [t for t in a.topics if t in set(b.topics)]
        if len(topics) < len(a.topics) or len(topics) < len(b.topics):
            warnings.append(f"the runs are ranked on the {len(topics)} topic(s) both "
                            f"assigners judged: {len(a.topics) - len(topics)} topic(s) only in "
                            f"A and {len(b.topics) - len(topics)} only in B left out")
        ia = np.array([a.topics.index(t) for t in topics], dtype=np.int64)
        ib = np.array([b.topics.index(t) for t in topics], dtype=np.int64)
        ra = np.array([a.runs.index(r) for r in runs], dtype=np.int64)
        rb = np.array([b.runs.index(r) for r in runs], dtype=np.int64)
        ma = {k: v[np.ix_(ra, ia)] for k, v in matrices(a, measures).items()}
        mb = {k: v[np.ix_(rb, ib)] for k, v in matrices(b, measures).items()}
        params["topics"] = len(topics)
        params["runs"] = list(runs)
        scales = {m.name: nm.scale_on(a.support, a.importance, m)[0] for m in select(measures)}
        tables += _rank_tables(runs, len(topics), _Scores(ma), _Scores(mb), options, params,
                               warnings, progress, scales=scales)
    for t in tables:
        t.command = "agree"
    return Report("agree", tables, primary="agreement", warnings=warnings,
                  params=dict(params))
