"""ipsoeval.Experiment against the real pyterrier.Experiment (1.1.2): the same
parameters, the same columns, dtypes and row order, every shared number to
1e-12, on result frames and on PyTerrier transformers."""

from __future__ import annotations

import math
import random
import warnings

import numpy as np
import pytest

pd = pytest.importorskip("pandas")
pt = pytest.importorskip("pyterrier")
ir_measures = pytest.importorskip("ir_measures")

from ir_measures import AP, RR, P, R, nDCG  # noqa: E402,I001

import ipsoeval  # noqa: E402
from ipsoeval.errors import UsageError  # noqa: E402

# ir_measures objects and trec_eval names (strings, as pt.Experiment reads them)
MEASURES = [AP @ 100, nDCG @ 10, P @ 5, RR, "map", "P_10"]


def _study(seed: int = 0, systems: int = 3, topics: int = 50):
    """Qrels, topics and result frames in PyTerrier's layout: graded labels
    (0..3), tied scores, topics a run lacks, a topic without relevant
    documents, a topic with no qrels, documents no qrels mention."""
    rnd = random.Random(seed)
    qids = [str(300 + t) for t in range(topics)]
    qrels = []
    for k, q in enumerate(qids):
        for d in rnd.sample(range(60), rnd.randint(1, 25)):
            qrels.append((q, f"d{d}", 0 if k == 7 else rnd.choice([0, 0, 0, 1, 1, 2, 3])))
    qrels_df = pd.DataFrame(qrels, columns=["qid", "docno", "label"])
    relevant = {q: [d for qq, d, lab in qrels if qq == q and lab > 0] for q in qids}
    runs = {}
    for s in range(systems):
        rows = []
        for q in qids + ["999"]:                  # 999: in no qrels
            if rnd.random() < 0.06:
                continue                          # a topic this run lacks
            docs = rnd.sample([f"d{d}" for d in range(60)], rnd.randint(5, 40))
            if rnd.random() < 0.3 * s:            # later systems better: some rejections
                docs = relevant.get(q, []) + [d for d in docs if d not in relevant.get(q, [])]
            for r, d in enumerate(docs):
                score = float(rnd.randint(0, 8)) if s != 1 else float(100 - r)
                rows.append((q, d, score, r))
        runs[f"sys{s}"] = pd.DataFrame(rows, columns=["qid", "docno", "score", "rank"])
    topics_df = pd.DataFrame({"qid": qids + ["998"], "query": "x"})   # 998: no qrels
    return qrels_df, topics_df, runs


def _quiet(fn, *a, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*a, **kw)


def _same(ours, theirs):
    """Every pt.Experiment column: present, the same dtype, the same values
    (numbers to 1e-12 absolute, NaN where pt has NaN), the same index."""
    assert list(ours.index) == list(theirs.index)
    for col in theirs.columns:
        assert col in ours.columns, col
        a, b = ours[col], theirs[col]
        assert a.dtype == b.dtype, (col, a.dtype, b.dtype)
        if b.dtype == bool or not pd.api.types.is_numeric_dtype(b.dtype):
            assert list(a) == list(b), col
            continue
        x, y = a.to_numpy(float), b.to_numpy(float)
        assert (np.isnan(x) == np.isnan(y)).all(), (col, x, y)
        ok = ~np.isnan(y)
        assert np.abs(x[ok] - y[ok]).max(initial=0.0) <= 1e-12, (col, x, y)


def _same_perquery(ours, theirs):
    """The long frames: the same columns and dtypes, rows ordered by name and
    qid, the same value for each (name, qid, measure).  Within a topic the
    measures are in the order given (pt's: ir_measures' order), and the index
    is 0..n-1 (pt's keeps each row's position before its sort)."""
    key = ["name", "qid"]
    assert list(ours.columns) == list(theirs.columns) == ["name", "qid", "measure", "value"]
    assert ours[key].values.tolist() == theirs[key].values.tolist()
    assert list(ours.index) == list(range(len(ours)))
    a = ours.sort_values([*key, "measure"], kind="stable").reset_index(drop=True)
    b = theirs.sort_values([*key, "measure"], kind="stable").reset_index(drop=True)
    _same(a, b)


def _transformers(runs, kind):
    if kind == "frames":
        return list(runs.values())
    if kind == "from_df":
        return [pt.Transformer.from_df(df) for df in runs.values()]
    # a lambda transformer: the run's rows of the topics it is given

    def lookup(df):
        return pt.apply.generic(lambda topics: topics[["qid"]].merge(df, on="qid"))
    return [lookup(df) for df in runs.values()]


SETTINGS = [{}, {"baseline": 0}, {"baseline": 2},
            {"baseline": 0, "correction": "bonferroni"},
            {"baseline": 1, "correction": "holm"},
            {"baseline": 2, "correction": "fdr_bh"}]


# every setting on frames and from_df; the lambda transformer on one of them
# (the rest in CI: pt.Experiment's Holm correction runs the garbage collector)
CASES = [pytest.param(kind, kw, id=f"{kind}-{'-'.join(map(str, kw.values())) or 'means'}",
                      marks=[pytest.mark.slow] if kind == "generic" and i != 4 else [])
         for kind in ("frames", "from_df", "generic") for i, kw in enumerate(SETTINGS)]


@pytest.mark.parametrize("kind,kw", CASES)
def test_equals_pyterrier(kind, kw):
    """3 runs x 50 topics, graded labels, ties: every column of pt.Experiment."""
    qrels, topics, runs = _study()
    systems = _transformers(runs, kind)
    theirs = _quiet(pt.Experiment, systems, topics, qrels, MEASURES, names=list(runs), **kw)
    ours = _quiet(ipsoeval.Experiment, systems, topics, qrels, MEASURES, names=list(runs), **kw)
    _same(ours, theirs)
    # the same columns (in the order the measures were given)
    assert set(ours.columns) == set(theirs.columns)
    assert list(ours.columns[1:1 + len(MEASURES)]) == [str(m) for m in MEASURES]
    if kw.get("correction"):
        # some decisions go each way, so reject is compared on both values
        rejects = theirs[[f"{m} reject" for m in MEASURES]].to_numpy()
        assert rejects[kw["baseline"]].sum() == 0 and 0 < rejects.sum() < rejects.size - 6


def test_equals_pyterrier_dict_baseline_by_name():
    qrels, topics, runs = _study(1)
    theirs = _quiet(pt.Experiment, runs, topics, qrels, MEASURES, baseline="sys2",
                    correction="holm")
    ours = _quiet(ipsoeval.Experiment, runs, topics, qrels, MEASURES, baseline="sys2",
                  correction="holm")
    _same(ours, theirs)
    assert list(ours["name"]) == ["sys0", "sys1", "sys2"]


@pytest.mark.parametrize("kind", ["frames", "from_df"])
@pytest.mark.parametrize("filter_by_qrels", [False, True])
def test_perquery_equals_pyterrier(kind, filter_by_qrels):
    """The long frame: the same rows, order and index (topic 998 has no qrels:
    NaN rows, and a warning, unless filter_by_qrels)."""
    qrels, topics, runs = _study(2)
    systems = _transformers(runs, kind)
    names = ["zeta", "alpha", "mid"]          # not in alphabetical order: sorted as pt's
    kw = dict(names=names, perquery=True, filter_by_qrels=filter_by_qrels)
    theirs = _quiet(pt.Experiment, systems, topics, qrels, MEASURES, **kw)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        ours = ipsoeval.Experiment(systems, topics, qrels, MEASURES, **kw)
    _same_perquery(ours, theirs)
    assert any("per-topic values are NaN" in str(w.message) for w in seen) == (not filter_by_qrels)
    assert (ours["qid"] == "998").any() == (not filter_by_qrels)


def test_perquery_both_round_and_dicts_equal_pyterrier():
    qrels, topics, runs = _study(3)
    systems = list(runs.values())
    for kw in ({"round": 3}, {"round": {"AP@100": 2, "RR": 1}}, {"round": 2, "perquery": True}):
        theirs = _quiet(pt.Experiment, systems, topics, qrels, MEASURES, names=list(runs), **kw)
        ours = _quiet(ipsoeval.Experiment, systems, topics, qrels, MEASURES, names=list(runs),
                      **kw)
        (_same_perquery if kw.get("perquery") else _same)(ours, theirs)
    # perquery="both": pt's averages take in the NaN rows of topic 998 (no qrels)
    # and are NaN; ipsoeval's are the means of perquery=False, and equal pt's
    # where every topic has qrels (filter_by_qrels=True)
    ours = _quiet(ipsoeval.Experiment, systems, topics, qrels, MEASURES, names=list(runs),
                  perquery="both")
    assert ours._fields == ("averages", "perquery")
    assert ours.averages.equals(_quiet(ipsoeval.Experiment, systems, topics, qrels, MEASURES,
                                       names=list(runs)))
    assert (ours.perquery["qid"] == "998").any()
    theirs = _quiet(pt.Experiment, systems, topics, qrels, MEASURES, names=list(runs),
                    perquery="both", filter_by_qrels=True)
    ours = _quiet(ipsoeval.Experiment, systems, topics, qrels, MEASURES, names=list(runs),
                  perquery="both", filter_by_qrels=True)
    _same(ours.averages, theirs.averages)
    _same_perquery(ours.perquery, theirs.perquery)
    # dataframe=False: {name: {measure: mean}}, and per topic {index: {qid: {measure: v}}}
    theirs = _quiet(pt.Experiment, systems, topics, qrels, MEASURES, names=list(runs),
                    dataframe=False, perquery="both", filter_by_qrels=True)
    ours = _quiet(ipsoeval.Experiment, systems, topics, qrels, MEASURES, names=list(runs),
                  dataframe=False, perquery="both", filter_by_qrels=True)
    for mine, pts in zip(ours, theirs):
        assert mine.keys() == pts.keys()
        for k in pts:
            assert mine[k].keys() == pts[k].keys()
            for q in pts[k]:
                if isinstance(pts[k][q], dict):
                    for m, v in pts[k][q].items():
                        w = mine[k][q][m]
                        assert (math.isnan(v) and math.isnan(w)) or abs(w - v) <= 1e-12
                else:
                    assert abs(mine[k][q] - pts[k][q]) <= 1e-12


def test_a_test_function_as_pyterrier_takes_it():
    """test= a function in scipy.stats.ttest_rel's form: its second value."""
    from scipy import stats
    qrels, topics, runs = _study(4)
    kw = dict(baseline=0, correction="holm", test=stats.ttest_rel)
    theirs = _quiet(pt.Experiment, runs, topics, qrels, [AP @ 100, RR], **kw)
    ours = _quiet(ipsoeval.Experiment, runs, topics, qrels, [AP @ 100, RR], **kw)
    _same(ours, theirs)
    assert any("ttest_rel" in n for n in ours.attrs["notes"])


def test_counts_are_summed_as_pyterrier_sums_them():
    qrels, topics, runs = _study(5)
    ms = ["num_rel_ret", ir_measures.NumRet, AP]
    theirs = _quiet(pt.Experiment, runs, topics, qrels, ms)
    ours = _quiet(ipsoeval.Experiment, runs, topics, qrels, ms)
    _same(ours, theirs)
    assert ours["NumRet"].iloc[0] > 50           # a sum, not a mean
    # num_q and num_rel count every qrels topic, as trec_eval -c does; pt's count
    # only the topics a system retrieved for (ir_measures fills the others with 0)
    ours = _quiet(ipsoeval.Experiment, runs, topics, qrels, ["num_q", "num_rel"])
    theirs = _quiet(pt.Experiment, runs, topics, qrels, ["num_q", "num_rel"])
    assert list(ours["num_q"]) == [50.0] * 3 and list(ours["num_rel"]) == [
        float((qrels["label"] > 0).sum())] * 3
    answered = [runs[n]["qid"].isin(qrels["qid"]).groupby(runs[n]["qid"]).any().sum()
                for n in runs]
    assert list(theirs["num_q"]) == answered != list(ours["num_q"])


def test_the_note_says_where_the_policy_tests_otherwise():
    """The t test on an ordinal measure (RR) is kept, and a note says so; an
    interval measure (P@5) is not named in it."""
    qrels, topics, runs = _study(6)
    df = _quiet(ipsoeval.Experiment, runs, topics, qrels, [RR, P @ 5], baseline=0)
    notes = df.attrs["notes"]
    assert notes[0].startswith("Test: paired Student's t") and "pyterrier" in notes[0]
    assert len(notes) == 2 and "ordinal scale of RR:" in notes[1] and "P@5" not in notes[1]
    assert "sign test" in notes[1]
    # no baseline, no test, no note
    assert "notes" not in _quiet(ipsoeval.Experiment, runs, topics, qrels, [RR]).attrs


def test_wilcoxon_ranks_float_noise_as_ties():
    """Wilcoxon: every column but the p-values is pt's; the p-values are
    scipy's on the differences rounded to 12 digits (P@5's 0.2 computed as
    0.4 - 0.2 and as 0.6 - 0.4 is one tie; pt.Experiment ranks the two apart),
    and a note says so."""
    from scipy import stats
    qrels, topics, runs = _study(7)
    kw = dict(baseline=1, test="wilcoxon", correction="bonferroni")
    theirs = _quiet(pt.Experiment, runs, topics, qrels, [P @ 5], **kw)
    ours = _quiet(ipsoeval.Experiment, runs, topics, qrels, [P @ 5], **kw)
    _same(ours, theirs.drop(columns=["P@5 p-value", "P@5 p-value corrected", "P@5 reject"]))
    m = _quiet(ipsoeval.evaluate, qrels, runs, ["P@5"]).matrix("P@5")
    for i in (0, 2):
        want = stats.wilcoxon(np.round(m[i] - m[1], 12)).pvalue
        assert abs(ours["P@5 p-value"][i] - want) <= 1e-12
        assert abs(ours["P@5 p-value corrected"][i] - min(1.0, 2 * want)) <= 1e-12
    assert any("float noise" in n for n in ours.attrs["notes"])


def test_an_undefined_p_value_is_outside_the_family_and_a_note_says_so():
    """A system equal to the baseline on every topic: its t test is undefined
    (NaN, as scipy's); the correction's family is the defined p-values (n = 1
    here, so the other p-value is its own corrected value)."""
    qrels, topics, runs = _study(14)
    runs = {"a": runs["sys0"], "same": runs["sys0"].copy(), "b": runs["sys2"]}
    for method in ("bonferroni", "holm", "fdr_bh"):
        df = _quiet(ipsoeval.Experiment, runs, topics, qrels, ["map"], baseline=0,
                    correction=method)
        assert math.isnan(df["map p-value"][1]) and math.isnan(df["map p-value corrected"][1])
        assert df["map p-value corrected"][2] == df["map p-value"][2]
        assert list(df["map reject"]) == [False, False, bool(df["map p-value"][2] <= 0.05)]
        assert any("left out of the correction's family" in n for n in df.attrs["notes"])


def test_experiment_is_experiment_and_old_calls_say_what_changed():
    assert ipsoeval.experiment is ipsoeval.Experiment
    qrels, topics, runs = _study(8)
    with pytest.raises(UsageError, match=r"experiment\(runs, None, qrels, measures\)"):
        ipsoeval.experiment(runs, qrels, ["AP"])
    # topics=None with result frames: no topic filter, every qrels topic
    a = _quiet(ipsoeval.Experiment, runs, None, qrels, ["AP"])
    b = _quiet(ipsoeval.Experiment, runs, topics, qrels, ["AP"], filter_by_topics=False)
    assert a.equals(b)


def test_topics_restrict_the_qrels():
    qrels, topics, runs = _study(9)
    keep = topics.iloc[:10]
    a = _quiet(ipsoeval.Experiment, runs, keep, qrels, ["map"])
    b = _quiet(ipsoeval.Experiment, runs, None, qrels[qrels["qid"].isin(keep["qid"])], ["map"])
    assert a.equals(b)
    theirs = _quiet(pt.Experiment, runs, keep, qrels, ["map"])
    _same(a, theirs)


def test_names_default_to_str_of_the_systems():
    qrels, topics, runs = _study(10)
    systems = [pt.Transformer.from_df(df) for df in runs.values()]
    theirs = _quiet(pt.Experiment, systems, topics, qrels, [AP])
    ours = _quiet(ipsoeval.Experiment, systems, topics, qrels, [AP])
    _same(ours, theirs)


def test_batch_size_mrt_and_verbose(capsys):
    qrels, topics, runs = _study(11)
    systems = [pt.Transformer.from_df(df) for df in runs.values()]
    a = _quiet(ipsoeval.Experiment, systems, topics, qrels, [AP, "mrt"], batch_size=7,
               verbose=True)
    assert capsys.readouterr().err.count("Experiment: system ") == 3
    b = _quiet(ipsoeval.Experiment, systems, topics, qrels, [AP])
    assert capsys.readouterr().err == ""
    assert list(a.columns) == ["name", "AP", "mrt"] and (a["mrt"] > 0).all()
    assert a["AP"].equals(b["AP"])


def test_highlight_is_a_styler_with_the_best_in_bold():
    pytest.importorskip("jinja2")
    qrels, topics, runs = _study(12)
    st = _quiet(ipsoeval.Experiment, runs, topics, qrels, [AP], baseline=0, highlight="bold")
    html = st.to_html()
    best = st.data["AP"].idxmax()
    assert html.count("font-weight: bold") >= 1
    styles = st._compute().ctx
    assert ("font-weight", "bold") in styles[(best, 1)]


def test_save_dir_as_pyterrier_saves_and_reuses(tmp_path):
    """The same files as pt.Experiment's (each transformer's results, read back
    equal; the two summaries, equal by column); reuse runs no transformer;
    overwrite, warn and error as PyTerrier's save_mode."""
    qrels, topics, runs = _study(15)
    names = list(runs)
    ours_dir, pt_dir = tmp_path / "ours", tmp_path / "pt"
    ours_dir.mkdir()
    pt_dir.mkdir()
    kw = dict(names=names, baseline=0, correction="holm")
    a = _quiet(ipsoeval.Experiment, _transformers(runs, "from_df"), topics, qrels, MEASURES,
               save_dir=str(ours_dir), **kw)
    b = _quiet(pt.Experiment, _transformers(runs, "from_df"), topics, qrels, MEASURES,
               save_dir=str(pt_dir), **kw)
    _same(a, b)
    assert sorted(p.name for p in ours_dir.iterdir()) == sorted(p.name for p in pt_dir.iterdir())
    for n in names:
        x = pt.io.read_results(str(ours_dir / f"{n}.res.gz"))
        y = pt.io.read_results(str(pt_dir / f"{n}.res.gz"))
        assert x.equals(y)
    agg_a, agg_b = pd.read_csv(ours_dir / "aggregated.csv"), pd.read_csv(pt_dir / "aggregated.csv")
    _same(agg_a, agg_b)
    pq_a, pq_b = (pd.read_csv(d / "perquery.csv", dtype={"qid": str}) for d in (ours_dir, pt_dir))
    _same_perquery(pq_a, pq_b.reset_index(drop=True))

    class Refuses(pt.Transformer):
        def transform(self, topics):
            raise AssertionError("reuse runs no transformer")
    again = _quiet(ipsoeval.Experiment, [Refuses() for _ in names], topics, qrels, MEASURES,
                   save_dir=str(ours_dir), save_mode="reuse", **kw)
    _same(again, b)
    with pytest.raises(UsageError, match="exists"):
        ipsoeval.Experiment(_transformers(runs, "from_df"), topics, qrels, MEASURES,
                            save_dir=str(ours_dir), save_mode="error", **kw)
    with pytest.warns(UserWarning, match="exists and is replaced"):
        ipsoeval.Experiment(_transformers(runs, "from_df"), topics, qrels, MEASURES,
                            save_dir=str(ours_dir), **kw)
    # another call on other systems keeps these systems' summary rows
    _quiet(ipsoeval.Experiment, [runs["sys0"]], topics, qrels, MEASURES, names=["other"],
           save_dir=str(ours_dir))
    assert sorted(pd.read_csv(ours_dir / "aggregated.csv")["name"]) == sorted([*names, "other"])
    with pytest.raises(UsageError, match="not unique"):
        ipsoeval.Experiment(list(runs.values()), topics, qrels, ["map"], names=["a", "a", "b"],
                            save_dir=str(ours_dir))
    with pytest.raises(UsageError, match="not an existing directory"):
        ipsoeval.Experiment(runs, topics, qrels, ["map"], save_dir=str(tmp_path / "nope"))


@pytest.mark.parametrize("kw,what", [
    ({"save_mode": "keep"}, "save_mode"),
    ({"correction": "sidak", "baseline": 0}, "does not compute"),
    ({"correction": "holm"}, "give baseline="),
    ({"baseline": 0, "perquery": True}, "not with perquery"),
    ({"baseline": 5}, "out of range"),
    ({"baseline": "nope"}, "neither"),
    ({"test": "sign", "baseline": 0}, "test must be"),
    ({"round": -1}, "round"),
    ({"round": {"AP": 2}, "perquery": True}, "means only"),
    ({"highlight": "italic"}, "highlight"),
    ({"plan": "graph"}, "plan"),
    ({"batch_size": 0}, "batch_size"),
])
def test_what_cannot_be_honoured_is_a_usage_error(kw, what):
    qrels, topics, runs = _study(13)
    with pytest.raises(UsageError, match=what):
        ipsoeval.Experiment(runs, topics, qrels, ["AP"], **kw)


def test_bad_systems_and_measures_are_usage_errors():
    qrels, topics, runs = _study(13)
    with pytest.raises(UsageError, match="ir_measures"):
        ipsoeval.Experiment(runs, topics, qrels, [object()])
    with pytest.raises(UsageError, match="neither a result frame nor a transformer"):
        ipsoeval.Experiment([object()], topics, qrels, ["AP"])
    with pytest.raises(UsageError, match="names given for 1"):
        ipsoeval.Experiment(list(runs.values()), topics, qrels, ["AP"], names=["a"])
    with pytest.raises(UsageError, match="topics are needed"):
        ipsoeval.Experiment([pt.Transformer.from_df(runs["sys0"])], None, qrels, ["AP"])
    with pytest.raises(UsageError, match="no qrels topic is among the topics"):
        ipsoeval.Experiment(runs, pd.DataFrame({"qid": ["nope"]}), qrels, ["AP"])


# -- ipsoeval's own columns, behind extras=True -------------------------------------


def _frames(seed: int, systems: int = 3, topics: int = 12):
    rnd = random.Random(seed)
    qids = [str(100 + t) for t in range(topics)]
    qrels = [(q, f"d{d}", rnd.choice([0, 0, 1, 1, 2])) for q in qids
             for d in range(rnd.randint(1, 8))]
    runs = {}
    for s in range(systems):
        rows = [(q, d, float(20 - r), r) for q in qids
                for r, d in enumerate(rnd.sample([f"d{d}" for d in range(12)],
                                                 rnd.randint(1, 12)))]
        runs[f"sys{s}"] = pd.DataFrame(rows, columns=["qid", "docno", "score", "rank"])
    return pd.DataFrame(qrels, columns=["qid", "docno", "label"]), runs


def test_extras_are_off_by_default_and_are_ipsoevals_own_analyses():
    """permissible, the sign test and the breakdown equal sigtest's and
    breakdown's on the same runs; without extras=True, pt's columns only."""
    qrels, runs = _frames(3)
    plain = _quiet(ipsoeval.Experiment, runs, None, qrels, ["RR@10", "P@5"], baseline="sys0")
    assert not any(c.endswith(("permissible", "sign p-value")) for c in plain.columns)
    df = _quiet(ipsoeval.Experiment, list(runs.values()), None, qrels, ["RR@10", "P@5"],
                names=list(runs), baseline="sys0", extras=True)
    res = _quiet(ipsoeval.evaluate, qrels, runs, ["RR@10", "P@5"])
    sig = _quiet(ipsoeval.sigtest, res, baseline="sys0", tests=["t", "sign"]).table("tests")
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
    assert "breakdown verdict" not in df.columns
    assert any("no outcomes breakdown" in n and "more than one relevant" in n
               for n in df.attrs["notes"])


def test_extras_breakdown_with_one_relevant_document():
    from ipsoeval.analyses.breakdown import verdict
    qrels, runs = _frames(3)
    q = qrels.copy()
    first = q[q["label"] > 0].groupby("qid").head(1).index
    q.loc[~q.index.isin(first), "label"] = 0
    df = _quiet(ipsoeval.Experiment, runs, None, q, ["RR@10", "P@5"], baseline="sys0",
                extras=True, breakdown_k=10)
    res = _quiet(ipsoeval.evaluate, q, runs, ["RR@10", "P@5"])
    bd = _quiet(ipsoeval.breakdown, res, k=10, baseline="sys0").table("summary")
    rows = {r["name"]: r for r in df.to_dict("records")}
    assert list(df.columns)[-3:] == ["breakdown answered sign p-value",
                                     "breakdown ESL t p-value", "breakdown verdict"]
    for r in bd.records:
        row = rows[r["run_b"]]
        assert (row["answered both"], row["answered baseline only"],
                row["answered system only"], row["answered neither"]) == (
            r["n_both"], r["n_a_only"], r["n_b_only"], r["n_neither"])
        d = 0.0 if r["esl_a"] is None else r["esl_a"] - r["esl_b"]   # ESL: lower is better
        assert verdict(r["answered_sign_p_value"], r["n_a_only"], r["n_b_only"],
                       r["esl_t_p_value"], d, 0.05) == row["breakdown verdict"]
    assert any(n.startswith("breakdown verdict:") for n in df.attrs["notes"])


def test_more_measures_and_unequal_topics_equal_pyterrier():
    """The earlier generator (12 topics, topics some runs lack, ties in odd
    runs): AP(rel=2), R@10 and nDCG too, every correction."""
    qrels, runs = _frames(0, systems=4)
    topics = pd.DataFrame({"qid": sorted(qrels["qid"].unique()), "query": "x"})
    ms = [nDCG @ 10, AP, AP(rel=2), RR, P @ 5, R @ 10, nDCG]
    for kw in ({}, {"baseline": 1, "correction": "holm"}, {"baseline": 2, "correction": "fdr_bh"}):
        theirs = _quiet(pt.Experiment, runs, topics, qrels, ms, **kw)
        ours = _quiet(ipsoeval.Experiment, runs, topics, qrels, ms, **kw)
        _same(ours, theirs)
