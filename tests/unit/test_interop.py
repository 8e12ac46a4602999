"""PyTerrier and ir_measures interop: ipsoeval.experiment
against the real pyterrier.Experiment, ir_measures objects as measures."""

from __future__ import annotations

import math
import random
import warnings

import numpy as np
import pytest

pd = pytest.importorskip("pandas")

import ipsoeval  # noqa: E402
from ipsoeval.errors import UsageError  # noqa: E402


def _frames(seed: int, systems: int = 4, topics: int = 12, ties: bool = True):
    """Qrels and result frames in PyTerrier's layout: graded labels, ties in the
    scores, a topic some runs lack, documents no qrels mention."""
    rnd = random.Random(seed)
    qids = [str(100 + t) for t in range(topics)]
    qrels = []
    for q in qids:
        for d in range(rnd.randint(1, 8)):
            qrels.append((q, f"d{d}", rnd.choice([0, 0, 1, 1, 2])))
    qrels_df = pd.DataFrame(qrels, columns=["qid", "docno", "label"])
    runs = {}
    for s in range(systems):
        rows = []
        for q in qids:
            if rnd.random() < 0.1:
                continue                        # a topic this run lacks
            docs = rnd.sample([f"d{d}" for d in range(12)], rnd.randint(1, 12))
            for r, d in enumerate(docs):
                tied = ties and s % 2
                rows.append((q, d, float(rnd.choice([1, 2, 3, 4, 5]) if tied else 20 - r), r))
        runs[f"sys{s}"] = pd.DataFrame(rows, columns=["qid", "docno", "score", "rank"])
    return qrels_df, runs


def _pt_experiment(runs, qrels, measures, **kw):
    pt = pytest.importorskip("pyterrier")
    topics = pd.DataFrame({"qid": sorted(qrels["qid"].unique()), "query": "x"})
    systems = [pt.Transformer.from_df(df) for df in runs.values()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pt.Experiment(systems, topics, qrels, measures, names=list(runs), **kw)


def _same(ours, theirs, skip=()):
    """Every pt.Experiment column, equal (our extra columns aside)."""
    assert list(ours["name"]) == list(theirs["name"])
    for col in theirs.columns:
        if col in skip:
            continue
        assert col in ours.columns, col
        a, b = list(ours[col]), list(theirs[col])
        for x, y in zip(a, b):
            if isinstance(y, (float, np.floating)) and math.isnan(y):
                assert x is None or (isinstance(x, float) and math.isnan(x)), (col, a, b)
            elif isinstance(y, (bool, np.bool_)):
                assert bool(x) == bool(y), (col, a, b)
            elif isinstance(y, (float, int, np.floating, np.integer)):
                assert x == pytest.approx(float(y), rel=1e-12, abs=1e-12), (col, a, b)
            else:
                assert x == y, (col, a, b)


KWS = [{}, {"baseline": 0}, {"baseline": 1, "correction": "holm"},
       {"baseline": 0, "correction": "bonferroni", "test": "wilcoxon"},
       {"baseline": 2, "correction": "fdr_bh"}]
CASES = [pytest.param(seed, ties, kw, id=f"{seed}-{i}",
                      marks=[] if (seed, i) in {(0, 2), (2, 4)} else [pytest.mark.slow])
         for seed, ties in [(0, True), (1, True), (2, False), (3, False)]
         for i, kw in enumerate(KWS)]


def _scipy_wilcoxon_p(d):
    """scipy.stats.wilcoxon(d).pvalue, the same number sooner: where scipy
    takes its exact permutation test (ties or zeros among at most 13
    differences) the same scipy test with its statistic (r+, the public
    wilcoxon's one-sided statistic) vectorized: 1 s instead of 38 s CPU for a
    case's 21 calls, equal bit for bit on every difference vector here."""
    from scipy import stats
    nz = d[d != 0]
    if d.size > 13 or (nz.size == d.size and np.unique(np.abs(nz)).size == nz.size):
        return stats.wilcoxon(d).pvalue

    def r_plus(x, axis):
        return stats.wilcoxon(x, alternative="greater", method="asymptotic", axis=axis).statistic
    return stats.permutation_test((d,), r_plus, vectorized=True, permutation_type="samples",
                                  alternative="two-sided").pvalue


def _p_values_not_compared(a, b):
    """A test function in scipy.stats.ttest_rel's form for pt.Experiment whose
    p-values are left out of the comparison."""
    return (0.0, 1.0)


@pytest.mark.parametrize("seed,ties,kw", CASES)
def test_experiment_equals_pyterrier(seed, ties, kw):
    """Tied scores are ordered as trec_eval orders them (docno descending), which
    is what ir_measures does through pytrec_eval (AP, nDCG, RR, P, R) but not for
    RR@k, which ir_measures computes with another provider: RR@k only without ties
    (test_rr_at_k_ties_follow_trec_eval)."""
    from ir_measures import AP, RR, P, R, nDCG
    qrels, runs = _frames(seed, ties=ties)
    measures = [nDCG @ 10, AP, AP(rel=2), RR, P @ 5, R @ 10, nDCG] + ([] if ties else [RR @ 5])
    wilcoxon = kw.get("test") == "wilcoxon"
    # with the Wilcoxon test pt.Experiment's p-value columns are not compared (see
    # below), so it is not asked for them: scipy's exact permutation test for
    # tied differences took ~38 s CPU a case there; every other column still is
    theirs = _pt_experiment(runs, qrels, measures,
                            **(dict(kw, test=_p_values_not_compared) if wilcoxon else kw))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = ipsoeval.experiment(runs, qrels, measures, **kw)
    if not wilcoxon:
        _same(ours, theirs)
        return
    # Wilcoxon ranks |d|: pt.Experiment's differences carry float noise (1/3 as
    # 0.33333333333333326 beside 0.3333333333333333, ranked apart); ipsoeval
    # snaps such noise to one tie (docs/conventions.md).  So its p-values are
    # scipy's on the differences rounded to 12 digits, the rest pt.Experiment's.
    pcols = {c for c in theirs.columns if c.endswith(("p-value", "p-value corrected", "reject"))}
    _same(ours, theirs, skip=pcols)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = ipsoeval.evaluate(qrels, runs, [str(m) for m in measures])
    base = kw["baseline"]
    for m in measures:
        mat = res.matrix(str(m))
        for i, name in enumerate(runs):
            if i == base:
                continue
            d = np.round(mat[i] - mat[base], 12)
            want = _scipy_wilcoxon_p(d) if np.any(d != 0) else np.nan
            got = ours.loc[ours["name"] == name, f"{m} p-value"].item()
            assert (math.isnan(want) and math.isnan(got)) or got == pytest.approx(want,
                                                                                  abs=1e-12)


def test_rr_at_k_ties_follow_trec_eval():
    """ir_measures' RR (pytrec_eval) and RR@k disagree on tied scores; ipsoeval's
    RR and RR@k both follow trec_eval (ties by docno descending)."""
    ir_measures = pytest.importorskip("ir_measures")
    from ir_measures import RR
    q = pd.DataFrame({"qid": ["1"] * 3, "docno": ["a", "b", "c"], "label": [1, 0, 0]})
    r = pd.DataFrame({"qid": ["1"] * 3, "docno": ["a", "b", "c"], "score": [1.0] * 3})
    theirs = ir_measures.calc_aggregate(
        [RR, RR @ 5], q.rename(columns={"qid": "query_id", "docno": "doc_id",
                                        "label": "relevance"}),
        r.rename(columns={"qid": "query_id", "docno": "doc_id"}))
    ours = ipsoeval.evaluate(q, {"r": r}, [RR, RR @ 5]).mean()["r"]
    assert ours == {"RR": pytest.approx(1 / 3), "RR@5": pytest.approx(1 / 3)}
    assert theirs[RR] == pytest.approx(1 / 3)         # as trec_eval


def test_experiment_perquery_equals_pyterrier():
    from ir_measures import AP, nDCG
    qrels, runs = _frames(7)
    theirs = _pt_experiment(runs, qrels, [AP, nDCG @ 10], perquery=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = ipsoeval.experiment(runs, qrels, [AP, nDCG @ 10], perquery=True)
    key = ["name", "qid", "measure"]
    a = ours.sort_values(key).reset_index(drop=True)
    b = theirs.sort_values(key).reset_index(drop=True)
    assert a[key].values.tolist() == b[key].values.tolist()
    assert np.allclose(a["value"].astype(float), b["value"].astype(float), rtol=0, atol=1e-12)


def test_extra_columns_are_ipsoevals_own_analyses():
    """permissible, the sign test and the breakdown equal sigtest's and
    breakdown's on the same runs (names given as strings, a list of frames)."""
    qrels, runs = _frames(3, systems=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = ipsoeval.experiment(list(runs.values()), qrels, ["RR@10", "P@5"],
                                 names=list(runs), baseline="sys0", breakdown_k=10)
        res = ipsoeval.evaluate(qrels, runs, ["RR@10", "P@5"])
        sig = ipsoeval.sigtest(res, baseline="sys0", tests=["t", "sign"]).table("tests")
        bd = ipsoeval.breakdown(res, k=10, baseline="sys0").table("summary")
    rows = {r["name"]: r for r in df.to_dict("records")}
    for r in sig.records:
        row = rows[r["run_b"]]
        if r["test"] == "t":
            assert row[f"{r['measure']} permissible"] == r["permissible"]
            assert row[f"{r['measure']} p-value"] == pytest.approx(r["p_value"], abs=1e-15)
        else:
            assert row[f"{r['measure']} sign p-value"] == pytest.approx(r["p_value"], abs=1e-15)
    assert rows["sys1"]["RR@10 permissible"] is False      # RR is ordinal: no t-test
    assert rows["sys1"]["P@5 permissible"] is True
    # several relevant documents per topic: report's rule, no breakdown, a note says why
    assert bd.records and "breakdown verdict" not in df.columns
    assert any("no outcomes breakdown" in n and "more than one relevant" in n
               for n in df.attrs["notes"])


def _one_relevant(qrels):
    """The qrels with one relevant document per topic (its first), the rest 0."""
    q = qrels.copy()
    first = q[q["label"] > 0].groupby("qid").head(1).index
    q.loc[~q.index.isin(first), "label"] = 0
    return q


def test_breakdown_columns_and_verdict_are_breakdowns_with_one_relevant_document():
    """With one relevant document per topic the breakdown applies (report's rule),
    and the verdict stands beside the two p-values it comes from -- not the
    measure's t test p-value, which tests another quantity."""
    from ipsoeval.analyses.breakdown import verdict
    qrels, runs = _frames(3, systems=3)
    qrels = _one_relevant(qrels)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = ipsoeval.experiment(list(runs.values()), qrels, ["RR@10", "P@5"],
                                 names=list(runs), baseline="sys0", breakdown_k=10)
        res = ipsoeval.evaluate(qrels, runs, ["RR@10", "P@5"])
        bd = ipsoeval.breakdown(res, k=10, baseline="sys0").table("summary")
    rows = {r["name"]: r for r in df.to_dict("records")}
    cols = list(df.columns)
    assert cols[-3:] == ["breakdown answered sign p-value", "breakdown ESL t p-value",
                         "breakdown verdict"]
    for r in bd.records:
        row = rows[r["run_b"]]
        assert (row["answered both"], row["answered baseline only"],
                row["answered system only"], row["answered neither"]) == (
            r["n_both"], r["n_a_only"], r["n_b_only"], r["n_neither"])
        assert row["breakdown verdict"] == r["verdict"]
        for col, key in (("breakdown answered sign p-value", "answered_sign_p_value"),
                         ("breakdown ESL t p-value", "esl_t_p_value")):
            want = math.nan if r[key] is None else r[key]
            assert row[col] == want or (math.isnan(row[col]) and math.isnan(want))
        # the verdict follows from the p-values shown beside it
        d = 0.0 if r["esl_a"] is None else r["esl_a"] - r["esl_b"]   # ESL: lower is better
        assert verdict(r["answered_sign_p_value"], r["n_a_only"], r["n_b_only"],
                       r["esl_t_p_value"], d, 0.05) == row["breakdown verdict"]
    notes = df.attrs["notes"]
    assert any(n.startswith("Test: paired Student's t") and "pyterrier.Experiment" in n
               for n in notes)
    assert any(n.startswith("breakdown verdict:") for n in notes)


def test_topics_restrict_the_qrels():
    qrels, runs = _frames(5, systems=2)
    keep = sorted(qrels["qid"].unique())[:5]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = ipsoeval.experiment(runs, qrels, ["AP"], topics=pd.DataFrame({"qid": keep}))
        b = ipsoeval.experiment(runs, qrels[qrels["qid"].isin(keep)], ["AP"])
    assert a.equals(b)


def test_ir_measures_objects_everywhere_in_the_api():
    ir_measures = pytest.importorskip("ir_measures")
    from ir_measures import AP, RR, nDCG
    qrels, runs = _frames(1, systems=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        by_obj = ipsoeval.evaluate(qrels, runs, [nDCG @ 10, AP(rel=2), RR])
        by_name = ipsoeval.evaluate(qrels, runs, ["nDCG@10", "AP(rel=2)", "RR"])
        assert by_obj.mean() == by_name.mean()
        # ir_measures' own numbers on the same frames
        irq = qrels.rename(columns={"qid": "query_id", "docno": "doc_id", "label": "relevance"})
        for name, df in runs.items():
            irr = df.rename(columns={"qid": "query_id", "docno": "doc_id"})
            theirs = ir_measures.calc_aggregate([nDCG @ 10, AP(rel=2), RR], irq, irr)
            for m, v in theirs.items():      # a qrels topic the run lacks counts 0
                assert by_obj.mean()[name][str(m)] == pytest.approx(v, abs=1e-12), (name, m)
        s1 = ipsoeval.sigtest(by_obj, measures=[RR], tests=["sign"]).table("tests")
        s2 = ipsoeval.sigtest(by_obj, measures=["RR"], tests=["sign"]).table("tests")
    assert s1.records == s2.records


def test_bad_arguments_are_usage_errors():
    qrels, runs = _frames(2, systems=2)
    for kw, what in (({"baseline": 5}, "out of range"), ({"baseline": "nope"}, "neither"),
                     ({"correction": "sidak"}, "correction"), ({"test": "sign"}, "test"),
                     ({"queries": "strict"}, "topics=")):
        with pytest.raises(UsageError, match=what):
            ipsoeval.experiment(runs, qrels, ["AP"], **kw)
    with pytest.raises(UsageError, match="ir_measures"):
        ipsoeval.experiment(runs, qrels, [object()])
