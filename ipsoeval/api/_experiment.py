"""``ipsoeval.experiment``: ``pyterrier.Experiment`` on result frames, by
ipsoeval's engine and tests, plus the columns pt.Experiment lacks: whether its
test is *permissible* for the measure's scale (Ferrante et al. 2021), the sign
test (permissible on every scale), and the outcomes breakdown against the
baseline (Lin et al. 2021).  Measure objects of ir_measures are named by
:mod:`ipsoeval.interop`.

pt.Experiment semantics kept (checked against the real pyterrier by
tests/unit/test_interop.py): a topic of the qrels that a run lacks scores 0; the
mean is over the qrels topics (restricted to ``topics`` when given);
``+``/``-`` count the topics where a system beats / loses to the baseline;
``p-value`` is the paired t-test (``test="t"``) or Wilcoxon signed-rank
(``test="wilcoxon"``) against the baseline; ``correction`` adjusts the
p-values of one measure over the systems (``bonferroni``, ``holm``,
``fdr_bh``; statsmodels' names, as pt.Experiment takes them) and ``reject``
compares them with ``correction_alpha``.  Columns are in the order the
measures were given (pt.Experiment orders them as ir_measures returns them).

PyTerrier's test is kept (a drop-in result), and a note says it is
PyTerrier's choice, not the default by scale of every other command.  The
breakdown applies by ``report``'s rule (one relevant document per topic,
integer labels: :func:`ipsoeval.analyses.breakdown.not_applicable`); its
verdict stands beside the two p-values it combines.  Notes are in
``df.attrs["notes"]``.
"""

from __future__ import annotations

import math
from typing import Any

from ipsoeval.api._breakdown import breakdown
from ipsoeval.api._evaluate import evaluate
from ipsoeval.api._sigtest import sigtest
from ipsoeval.errors import UsageError
from ipsoeval.interop import measure_names

# pt.Experiment's correction names (statsmodels') -> ipsoeval's
CORRECTIONS = {"bonferroni": "bonferroni", "b": "bonferroni", "holm": "holm", "h": "holm",
               "fdr_bh": "bh", "bh": "bh"}
TESTS = {"t": "t", "wilcoxon": "wilcoxon"}
BREAKDOWN_COLUMNS = {"n_both": "answered both", "n_a_only": "answered baseline only",
                     "n_b_only": "answered system only", "n_neither": "answered neither",
                     # the two tests the verdict combines (Lin et al. 2021 §5), beside it:
                     # not the measures' p-values, which test other quantities
                     "answered_sign_p_value": "breakdown answered sign p-value",
                     "esl_t_p_value": "breakdown ESL t p-value"}
# what experiment()'s DataFrame says about its tests (``df.attrs["notes"]``)
PT_TEST_NOTE = ("Test: {title} ({choice}: pyterrier.Experiment's test, kept for a drop-in "
                "result; not the default by scale, see '<m> permissible' and "
                "'<m> sign p-value').")
VERDICT_NOTE = ("breakdown verdict: Lin et al. 2021 §5 at k={k}, from the sign test on the "
                "topics only one run answers and the paired t test on ESL over the topics "
                "both answer (the two 'breakdown ... p-value' columns beside it), not from "
                "'<m> p-value'.")


def _systems(runs, names):
    """{name: run} in order, from a {name: frame} dict or a list (with names=)."""
    if isinstance(runs, dict):
        items = [(str(k), v) for k, v in runs.items()]
        if names is not None:
            raise UsageError("names= goes with a list of runs, not a {name: run} dict")
    else:
        runs = list(runs)
        if names is None:
            names = [f"run{i + 1}" for i in range(len(runs))]
        names = [str(n) for n in names]
        if len(names) != len(runs):
            raise UsageError(f"names given for {len(names)} run(s), but there are "
                             f"{len(runs)}")
        items = list(zip(names, runs))
    if not items:
        raise UsageError("no runs given")
    if len({n for n, _ in items}) != len(items):
        raise UsageError("run names must differ")
    return items


def _topic_ids(topics) -> list[str] | None:
    if topics is None:
        return None
    from ipsoeval.reading import QID_COLUMNS, is_dataframe
    if is_dataframe(topics):
        col = next((c for c in QID_COLUMNS if c in topics.columns), None)
        if col is None:
            raise UsageError(f"topics: no topic id column ({', '.join(QID_COLUMNS)})")
        return [str(q) for q in topics[col]]
    return [str(q) for q in topics]


def experiment(runs, qrels, measures, *, names=None, baseline=None, test: str = "t",
               correction: str | None = None, correction_alpha: float = 0.05,
               perquery: bool = False, topics=None, breakdown_k: int | None = 10,
               **align):
    """``pyterrier.Experiment`` on result frames, by ipsoeval, plus permissibility,
    the sign test and the outcomes breakdown.

    ``runs``: ``{name: frame}`` or a list of frames (``names=``); frames in
    PyTerrier's layout (``qid, docno, score``, ``rank`` ignored) or anything
    :func:`ipsoeval.evaluate` reads.  ``qrels``: a frame (``qid, docno,
    label``), a dict or a path.  ``measures``: ir_measures objects or names.
    ``baseline``: a run's index or name.  ``perquery=True``: the long frame
    ``name, qid, measure, value``.  ``breakdown_k``: the cutoff of the
    breakdown columns (None leaves them out).  Other keywords are
    :func:`ipsoeval.evaluate`'s alignment options.  Returns a pandas DataFrame.
    """
    import numpy as np

    from ipsoeval.results import _frame
    from ipsoeval.stats import registry
    from ipsoeval.stats.corrections import adjust
    # the registry's vocabulary (names and aliases); PyTerrier's two tests only
    test = registry.get(test, allowed=tuple(TESTS), option="test",
                        command="experiment()").name
    if correction is not None and correction not in CORRECTIONS:
        raise UsageError(f"correction must be one of {', '.join(CORRECTIONS)} "
                         f"(found {correction!r})")
    if "queries" in align:
        raise UsageError("experiment scores every qrels topic (as pt.Experiment); "
                         "restrict them with topics=")
    given = measure_names(measures)
    if not given:
        raise UsageError("give at least one measure")
    items = _systems(runs, names)
    sys_names = [n for n, _ in items]
    if topics is not None:
        qrels = _qrels_on(qrels, set(_topic_ids(topics)))
    res = evaluate(qrels, {n: r for n, r in items}, given, queries="qrels", **align)
    topic_ids = list(res.topics)
    mats = {g: res.matrix(g) for g in given}

    if perquery:
        recs = [{"name": n, "qid": q, "measure": g, "value": float(mats[g][i, j])}
                for i, n in enumerate(sys_names) for j, q in enumerate(topic_ids)
                for g in given]
        return _frame(["name", "qid", "measure", "value"], recs)

    from ipsoeval import mean as one_mean  # the one mean of every command
    means = {g: one_mean.means(mats[g]) for g in given}
    columns = ["name", *given]
    recs: list[dict[str, Any]] = [{"name": n, **{g: float(means[g][i]) for g in given}}
                                  for i, n in enumerate(sys_names)]
    if baseline is None:
        return _frame(columns, recs)
    from ipsoeval.analyses.breakdown import not_applicable
    notes = [PT_TEST_NOTE.format(title=registry.get(TESTS[test]).title,
                                 choice=f"test={test!r}")]

    if isinstance(baseline, (int, np.integer)) and not isinstance(baseline, bool):
        if not 0 <= baseline < len(sys_names):
            raise UsageError(f"baseline index {baseline} is out of range "
                             f"(0..{len(sys_names) - 1})")
        base = int(baseline)
    elif str(baseline) in sys_names:
        base = sys_names.index(str(baseline))
    else:
        raise UsageError(f"baseline {baseline!r} is neither a run index nor a run name "
                         f"(runs: {', '.join(sys_names)})")
    # the tests: ipsoeval's sigtest on exactly these per-topic scores, under the
    # names the caller gave (the scale of each from the measure and the topics)
    from ipsoeval.reading.scores import TopicScores
    from ipsoeval.stats.scales import measure_scale
    ts = TopicScores(runs=list(sys_names), topics=topic_ids, matrices=mats,
                     scales={g: measure_scale(res._measure(g), res.aligned)[0] for g in given},
                     higher_is_better={g: True for g in given})
    rep = sigtest(ts, baseline=sys_names[base], tests=[TESTS[test], "sign"],
                      correct="none")
    tests = {(r["run_b"], r["measure"], r["test"]): r for r in rep.table("tests").records}
    bd = {}
    why_not = not_applicable(res.aligned) if breakdown_k is not None else None
    if why_not:             # the one rule (report's): one relevant document per topic
        notes.append(why_not)
    elif breakdown_k is not None:
        brep = breakdown(res, k=breakdown_k, baseline=sys_names[base], verdict_test="esl-t")
        bd = {r["run_b"]: r for r in brep.table("summary").records}
        notes.append(VERDICT_NOTE.format(k=breakdown_k))
    for g in given:
        plus, minus, pv, perm, sign = (f"{g} +", f"{g} -", f"{g} p-value",
                                       f"{g} permissible", f"{g} sign p-value")
        extra = [f"{g} reject", f"{g} p-value corrected"] if correction else []
        columns += [plus, minus, pv, *extra, perm, sign]
        raw = np.full(len(sys_names), np.nan)
        for i, n in enumerate(sys_names):
            rec = recs[i]
            if i == base:
                rec.update({plus: math.nan, minus: math.nan, pv: math.nan, perm: None,
                            sign: math.nan})
                continue
            d = mats[g][i] - mats[g][base]
            t = tests[(n, g, TESTS[test])]
            s = tests[(n, g, "sign")]
            raw[i] = _num(t["p_value"])
            rec.update({plus: float(np.sum(d > 0)), minus: float(np.sum(d < 0)), pv: raw[i],
                        perm: bool(t["permissible"]), sign: _num(s["p_value"])})
        if correction:
            adj = adjust(raw, CORRECTIONS[correction])
            for i in range(len(sys_names)):
                recs[i][f"{g} p-value corrected"] = float(adj[i])
                recs[i][f"{g} reject"] = bool(adj[i] <= correction_alpha) \
                    if not math.isnan(adj[i]) else False
    if bd:
        columns += [*BREAKDOWN_COLUMNS.values(), "breakdown verdict"]
        for i, n in enumerate(sys_names):
            r = bd.get(n)
            for k, col in BREAKDOWN_COLUMNS.items():
                recs[i][col] = None if r is None else r[k]
            recs[i]["breakdown verdict"] = None if r is None else r["verdict"]
    df = _frame(columns, recs)
    df.attrs["notes"] = notes
    return df


def _num(v) -> float:
    return math.nan if v is None else float(v)


def _qrels_on(qrels, keep: set[str]):
    """The qrels of the ``topics=`` topics only (a frame or a dict)."""
    from ipsoeval.reading import QID_COLUMNS, is_dataframe
    if is_dataframe(qrels):
        col = next((c for c in QID_COLUMNS if c in qrels.columns), None)
        if col is None:
            raise UsageError(f"qrels: no topic id column ({', '.join(QID_COLUMNS)})")
        out = qrels[qrels[col].astype(str).isin(keep)]
    elif isinstance(qrels, dict):
        out = {q: d for q, d in qrels.items() if str(q) in keep}
    else:
        raise UsageError("topics= restricts qrels given as a frame or a dict")
    if len(out) == 0:
        raise UsageError("topics: none of them is a qrels topic")
    return out
