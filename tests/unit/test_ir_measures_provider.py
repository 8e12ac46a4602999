"""ipsoeval as an ir_measures provider (ipsoeval.ir_measures_provider):
results keyed by the given objects, per-topic iteration, diversity qrels
from frames and dicts, Judged without a cutoff, nDCG(gains=...), empty runs,
and every supported family against the provider ir_measures would ask,
on generated qrels and runs with ties."""

from __future__ import annotations

import math
import random
import subprocess
import sys
import warnings

import pytest

ir_measures = pytest.importorskip("ir_measures")
pd = pytest.importorskip("pandas")

from ir_measures import (  # noqa: E402
    AP,
    AP_IA,
    BPM,
    ERR,
    ERR_IA,
    INSQ,
    INST,
    NERR8,
    NERR10,
    NRBP,
    P_IA,
    RBP,
    RR,
    SDCG,
    Bpref,
    Compat,
    IPrec,
    Judged,
    Metric,
    NumQ,
    NumRel,
    NumRet,
    P,
    R,
    Rprec,
    SetF,
    SetP,
    StRecall,
    Success,
    alpha_nDCG,
    infAP,
    nDCG,
    nERR_IA,
    nNRBP,
)

from ipsoeval import ir_measures_provider as ipm  # noqa: E402
from ipsoeval.errors import InputError, UsageError  # noqa: E402

PROVIDER = ipm.PROVIDER
# generated runs have topics without qrels and tied scores: their warnings are
# checked once (test_the_inputs_warnings), not at every call
pytestmark = pytest.mark.filterwarnings("ignore::ipsoeval.api.InputWarning")

QRELS = """\
0 0 D0 0
0 0 D1 1
0 0 D2 1
0 0 D3 2
0 0 D4 0
1 0 D0 1
1 0 D3 2
1 0 D5 2
"""
RUN = """\
0 0 D0 1 0.8 run
0 0 D2 2 0.7 run
0 0 D1 3 0.3 run
0 0 D3 4 0.4 run
0 0 D4 5 0.1 run
1 0 D1 1 0.8 run
1 0 D3 2 0.7 run
1 0 D4 3 0.3 run
1 0 D2 4 0.4 run
"""


def _qrels():
    return list(ir_measures.read_trec_qrels(QRELS))


def _run():
    return list(ir_measures.read_trec_run(RUN))


def _official(m):
    """The provider ir_measures' default pipeline asks for ``m`` (ipsoeval aside)."""
    for p in ir_measures.DefaultPipeline.providers:
        if p is not PROVIDER and p.is_available() and p.supports(m):
            return p
    raise AssertionError(f"no provider of {m}")


# --- the measure objects are the keys ---------------------------------------------------

def test_results_are_keyed_by_the_objects_given():
    given = [NumRet(rel=1), Bpref, RBP(rel=1), nDCG(gains={0: 1, 1: 4}), P @ 5, Judged]
    agg = PROVIDER.calc_aggregate(given, _qrels(), _run())
    assert list(agg) == given
    # not ipsoeval's spellings NumRelRet(rel=1), bpref, RBP(p=0.8,rel=1)
    assert [str(k) for k in agg] == [str(m) for m in given]
    assert agg[NumRet(rel=1)] == 4.0
    topics = {(x.query_id, str(x.measure)) for x in PROVIDER.iter_calc(given, _qrels(), _run())}
    assert topics == {(q, str(m)) for q in "01" for m in given}


def test_iter_calc_yields_each_topic():
    got = list(PROVIDER.iter_calc([P @ 5, AP], _qrels(), _run()))
    assert all(isinstance(x, Metric) for x in got)
    want = {(x.query_id, str(x.measure)): x.value
            for x in ir_measures.pytrec_eval.iter_calc([P @ 5, AP], _qrels(), _run())}
    assert {(x.query_id, str(x.measure)): x.value for x in got} == pytest.approx(want, abs=1e-15)
    assert {(x.query_id, str(x.measure)) for x in got} == {("0", "P@5"), ("1", "P@5"),
                                                          ("0", "AP"), ("1", "AP")}


def test_evaluator_serves_several_runs_and_inputs_of_every_kind():
    """Qrels and runs as namedtuples, dicts and DataFrames: the same values."""
    ev = PROVIDER.evaluator([P @ 5, nDCG @ 10], _qrels())
    a = ev.calc_aggregate(_run())
    run_dict = ir_measures.util.RunConverter(_run()).as_dict_of_dict()
    run_df = ir_measures.util.RunConverter(_run()).as_pd_dataframe()
    assert ev.calc_aggregate(run_dict) == a
    assert ev.calc_aggregate(run_df) == a
    qrels_dict = ir_measures.util.QrelsConverter(_qrels()).as_dict_of_dict()
    qrels_df = ir_measures.util.QrelsConverter(_qrels()).as_pd_dataframe()
    assert PROVIDER.calc_aggregate([P @ 5, nDCG @ 10], qrels_dict, run_df) == a
    assert PROVIDER.calc_aggregate([P @ 5, nDCG @ 10], qrels_df, run_dict) == a


# --- Judged, nDCG(gains=...) ------------------------------------------------------------

def test_judged_without_a_cutoff_is_the_whole_ranking():
    got = {x.query_id: x.value for x in PROVIDER.iter_calc([Judged], _qrels(), _run())}
    assert got == {"0": 1.0, "1": 0.25}
    want = {x.query_id: x.value
            for x in ir_measures.judged.iter_calc([Judged], _qrels(), _run())}
    assert got == want


def test_judged_counts_a_negative_label_as_judged_as_ir_measures_does():
    qrels = list(ir_measures.read_trec_qrels("0 0 D0 -1\n0 0 D1 1\n"))
    run = list(ir_measures.read_trec_run("0 0 D0 1 2 r\n0 0 D1 2 1 r\n0 0 D2 3 0 r\n"))
    got = PROVIDER.calc_aggregate([Judged, Judged @ 1], qrels, run)
    assert got == ir_measures.judged.calc_aggregate([Judged, Judged @ 1], qrels, run)
    assert got[Judged] == pytest.approx(2 / 3)


def test_judged_without_a_cutoff_in_ipsoeval_itself(tmp_path):
    import ipsoeval
    q = tmp_path / "qrels"
    r = tmp_path / "run"
    q.write_text(QRELS)
    r.write_text(RUN)
    res = ipsoeval.evaluate(str(q), str(r), ["Judged"], queries="intersection")
    assert res.per_query()["run"] == {"0": {"Judged": 1.0}, "1": {"Judged": 0.25}}


@pytest.mark.parametrize("gains", [{0: 1, 1: 4}, {2: 10}, {0: 0, 1: 1, 2: 10, 3: 3}, {3: 0}])
def test_ndcg_gains_equal_pytrec_eval(gains):
    for seed in range(4):
        qrels, run = _generated(seed, negative=False)
        for m in (nDCG(gains=gains), nDCG(gains=gains) @ 5):
            got = {x.query_id: x.value for x in PROVIDER.iter_calc([m], qrels, run)}
            want = {x.query_id: x.value for x in ir_measures.pytrec_eval.iter_calc([m], qrels, run)}
            assert got == pytest.approx(want, abs=1e-12), (seed, m)


def test_ndcg_gains_beside_plain_ndcg():
    """Each in its own alignment: the map does not leak into nDCG."""
    got = PROVIDER.calc_aggregate([nDCG, nDCG(gains={0: 1, 1: 4})], _qrels(), _run())
    alone = PROVIDER.calc_aggregate([nDCG(gains={0: 1, 1: 4})], _qrels(), _run())
    assert got[nDCG] == ir_measures.pytrec_eval.calc_aggregate([nDCG], _qrels(), _run())[nDCG]
    assert got[nDCG(gains={0: 1, 1: 4})] == alone[nDCG(gains={0: 1, 1: 4})] != got[nDCG]


def test_gains_in_the_api_say_where_they_go():
    from ipsoeval.interop import measure_name, measure_spec
    assert measure_spec(nDCG(gains={0: 1, 1: 4}) @ 10) == ("nDCG@10", {0: 1, 1: 4})
    assert measure_spec(NumRet(rel=1)) == ("NumRet(rel=1)", None)
    with pytest.raises(UsageError, match="gains="):
        measure_name(nDCG(gains={0: 1}))
    # the name, as -m reads it: the way to --gains, and what it does differently
    from ipsoeval.measures import parse_measure
    with pytest.raises(UsageError, match=r"--gains LABEL:GAIN.*does not name gaining 0"):
        parse_measure(str(nDCG(gains={0: 1, 1: 4}) @ 10))


# --- diversity qrels in memory ----------------------------------------------------------

DIV_QRELS = """\
0 0 D0 0
0 0 D1 1
0 0 D2 1
0 1 D2 1
0 1 D3 2
0 0 D4 0
1 0 D0 1
1 0 D3 2
1 1 D5 2
"""
DIVERSITY = [ERR_IA @ 20, nERR_IA @ 5, alpha_nDCG @ 5, NRBP, AP_IA, P_IA @ 5, StRecall @ 5]


def test_diversity_qrels_from_a_frame_and_a_dict(tmp_path):
    import ipsoeval
    qrels = list(ir_measures.read_trec_qrels(DIV_QRELS))
    frame = ir_measures.util.QrelsConverter(qrels).as_pd_dataframe()
    assert "iteration" in frame.columns
    nested: dict = {}
    for x in qrels:
        nested.setdefault(x.query_id, {}).setdefault(x.iteration, {})[x.doc_id] = x.relevance
    path = tmp_path / "div.qrels"
    path.write_text("".join(f"{x.query_id} {x.iteration} {x.doc_id} {x.relevance}\n"
                            for x in qrels))
    run = tmp_path / "run"
    run.write_text(RUN)
    names = [str(m) for m in DIVERSITY]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = ipsoeval.evaluate(str(path), str(run), names, queries="intersection").per_query()
        for q in (frame, nested):
            got = ipsoeval.evaluate(q, str(run), names, queries="intersection").per_query()
            assert got == want
    # the provider reads the iteration field, as pyndeval does
    ours = {(x.query_id, str(x.measure)): x.value
            for x in PROVIDER.iter_calc(DIVERSITY, qrels, _run())}
    theirs = {(x.query_id, str(x.measure)): x.value
              for x in ir_measures.pyndeval.iter_calc(DIVERSITY, qrels, _run())}
    assert ours == pytest.approx(theirs, abs=1e-12)
    assert PROVIDER.calc_aggregate([ERR_IA @ 20], frame, _run())[ERR_IA @ 20] == \
        pytest.approx(0.3231, abs=1e-4)


def test_diversity_qrels_in_memory_are_checked():
    from ipsoeval.reading import subtopic_qrels_from
    with pytest.raises(InputError, match="whole number from 0"):
        subtopic_qrels_from({"q": {"s": {"d": -1}}})
    with pytest.raises(UsageError, match="subtopic"):
        subtopic_qrels_from({"q": {"d": 1}})
    with pytest.raises(InputError, match="empty"):
        subtopic_qrels_from({})
    frame = pd.DataFrame({"qid": ["q"], "docno": ["d"], "label": [1]})
    with pytest.raises(UsageError, match="subtopic"):
        subtopic_qrels_from(frame)


# --- empty runs, empty qrels ------------------------------------------------------------

@pytest.mark.parametrize("measure", [P @ 5, AP, nDCG @ 10, NumRet, NumRel, NumQ, Judged @ 5])
def test_empty_runs_and_qrels_as_ir_measures_scores_them(measure):
    qrels, run = _qrels(), _run()
    partial = [r for r in run if r.query_id == "0"]
    ref = _official(measure)
    for q, r in [(qrels, []), (qrels, partial), ([], run), ([], []),
                 ([x for x in qrels if x.query_id == "0"], run)]:
        got = PROVIDER.calc_aggregate([measure], q, r)[measure]
        want = ref.calc_aggregate([measure], q, r)[measure]
        assert (math.isnan(got) and math.isnan(want)) or got == want, (measure, q, r)
        assert set(PROVIDER.iter_calc([measure], q, r)) == set(ref.iter_calc([measure], q, r))


def test_a_run_topic_without_qrels_is_left_out():
    run = _run() + [ir_measures.ScoredDoc("9", "D1", 1.0)]
    assert {x.query_id for x in PROVIDER.iter_calc([P @ 5], _qrels(), run)} == {"0", "1"}


def test_the_inputs_warnings():
    """The inputs' warnings are InputWarnings, as ipsoeval.evaluate gives them."""
    from ipsoeval.api import InputWarning
    run = _run() + [ir_measures.ScoredDoc("9", "D1", 1.0)]
    with pytest.warns(InputWarning, match="1 topic.s. not in the qrels"):
        PROVIDER.calc_aggregate([P @ 5], _qrels(), run)


def test_a_measure_it_does_not_support_is_refused():
    with pytest.raises(ValueError, match="unsupported measure"):
        PROVIDER.calc_aggregate([NumRel(rel=2)], _qrels(), _run())


# --- what it supports -------------------------------------------------------------------

@pytest.mark.parametrize("measure", [
    P @ 5, P(judged_only=True) @ 5, RR, Rprec, AP @ 10, nDCG, nDCG(gains={0: 1}),
    nDCG(dcg="exp-log2") @ 10, ERR @ 20, R @ 10, Bpref, NumRet, NumRet(rel=2), NumQ, NumRel,
    SetF(beta=0.5), SetP(relative=True), Success @ 1, IPrec @ 0.5, infAP, Judged, Judged @ 5,
    RR @ 10, ERR_IA @ 20, alpha_nDCG(alpha=0.3) @ 5,
    StRecall @ 5, RBP(rel=1), BPM(T=2.0, max_rel=3) @ 10, SDCG(max_rel=3) @ 10,
    NERR8(max_rel=3) @ 10, NERR10(p=0.8, max_rel=3), INST(max_rel=3), INSQ(T=2.0, max_rel=3)])
def test_supports(measure):
    assert PROVIDER.supports(measure)


@pytest.mark.parametrize("measure", [
    nDCG(gains={0: -1}), nDCG(gains={-1: 1}), nDCG(gains={1: 0.5}), NumRel(rel=2),
    IPrec(judged_only=True) @ 0.5, ERR_IA(judged_only=True) @ 5, nDCG(dcg="exp-log2"),
    RR(judged_only=True) @ 10, nDCG(gains={0: 1}, dcg="exp-log2") @ 10, RBP, Compat,
    Compat(p=0.8, normalize=False)])
def test_does_not_support(measure):
    assert not PROVIDER.supports(measure)


def test_a_measure_defined_at_runtime_is_not_ours():
    mine = ir_measures.define_byquery(lambda qrels, run: 1.0)
    assert not PROVIDER.supports(mine)


# --- every supported family against the provider ir_measures asks -------------------------

def _generated(seed, diversity=False, negative=True, ties=True):
    """Qrels and a run: graded labels (-1 too), scores tied, a qrels topic the
    run lacks, a run topic without qrels."""
    rnd = random.Random(seed)
    qrels, run = [], []
    for t in range(5):
        qid = str(t)
        docs = [f"D{d}" for d in range(12)]
        for d in rnd.sample(docs, rnd.randint(1, 9)):
            if diversity:
                for s in rnd.sample(range(3), rnd.randint(1, 3)):
                    qrels.append(ir_measures.Qrel(qid, d, rnd.choice([0, 1, 1, 2]), str(s)))
            else:
                labels = [-1, 0, 0, 1, 1, 2, 3] if negative else [0, 0, 1, 1, 2, 3]
                qrels.append(ir_measures.Qrel(qid, d, rnd.choice(labels)))
        if all(x.relevance < 0 for x in qrels if x.query_id == qid):
            # pytrec_eval's nDCG never returns on a topic judged only negative
            qrels.append(ir_measures.Qrel(qid, "D99", 0, "0"))
        if t == 4:
            continue
        for i, d in enumerate(rnd.sample(docs, rnd.randint(1, 12))):
            run.append(ir_measures.ScoredDoc(qid, d, float(rnd.choice([1, 2, 3])) if ties
                                             else float(100 - i)))
    run.append(ir_measures.ScoredDoc("99", "D1", 1.0))
    return qrels, run


ADHOC = [P @ 5, P(rel=2, judged_only=True) @ 5, RR(rel=2), Rprec, AP(judged_only=True), AP @ 5,
         nDCG @ 5, nDCG(judged_only=True), R @ 5, Bpref(rel=2), NumRet(rel=2), NumRel, SetF,
         SetP(relative=True), Success @ 3, IPrec @ 0.3, infAP, Judged, Judged @ 3, ERR @ 10,
         nDCG(dcg="exp-log2") @ 10, RR(rel=2) @ 3, RBP(rel=1), BPM(T=2.0, max_rel=3) @ 10,
         SDCG(max_rel=3) @ 10, NERR10(p=0.8, max_rel=3), INSQ(T=2.0, max_rel=3)]
DIV = [ERR_IA(rel=2) @ 10, nERR_IA @ 5, alpha_nDCG(alpha=0.3) @ 10, NRBP(rel=2), AP_IA,
       P_IA @ 5, StRecall @ 10, nNRBP(rel=2), nNRBP(alpha=0.7, beta=0.2, rel=3)]


@pytest.mark.parametrize("measure", ADHOC + DIV, ids=str)
def test_equal_to_the_provider_ir_measures_asks(measure):
    ref = _official(measure)
    # gdeval prints 5 decimals: equal to them
    tol = 5.1e-6 if ref.NAME == "gdeval" else 1e-12
    for seed in range(3):
        qrels, run = _generated(seed, diversity=measure in DIV)
        got = {x.query_id: x.value for x in PROVIDER.iter_calc([measure], qrels, run)}
        want = {x.query_id: x.value for x in ref.iter_calc([measure], qrels, run)}
        assert got.keys() == want.keys(), (seed, ref.NAME)
        assert got == pytest.approx(want, abs=tol, nan_ok=True), (seed, ref.NAME)


def test_compat_is_left_to_the_compat_provider():
    """Compat's ideal ranking orders equally relevant documents by the run's
    score in the compat provider (an unretrieved one at 0) and by rank in
    ipsoeval: with negative scores they differ, so ir_measures keeps asking
    the compat provider."""
    import ipsoeval
    qrels = list(ir_measures.read_trec_qrels("0 0 D1 1\n0 0 D2 1\n"))
    run = list(ir_measures.read_trec_run("0 0 D1 1 -1 r\n0 0 D3 2 -2 r\n"))
    ours = float(ipsoeval.evaluate({"0": {"D1": 1, "D2": 1}}, {"0": {"D1": -1.0, "D3": -2.0}},
                                   ["Compat"]).matrix("Compat")[0, 0])
    theirs = ir_measures.compat.calc_aggregate([Compat], qrels, run)[Compat]
    assert ours == pytest.approx(0.7564102564102565) and theirs == pytest.approx(0.2435897435897436)
    try:
        ipm.register()
        assert ir_measures.calc_aggregate([Compat], qrels, run)[Compat] == theirs
    finally:
        ipm.unregister()


# --- registration -----------------------------------------------------------------------

def test_register_puts_it_first_and_unregister_takes_it_out():
    assert ir_measures.providers.registry["ipsoeval"] is PROVIDER
    assert ir_measures.ipsoeval is PROVIDER
    try:
        ipm.register()
        ipm.register()
        assert ir_measures.DefaultPipeline.providers[0] is PROVIDER
        assert ir_measures.DefaultPipeline.providers.count(PROVIDER) == 1
        # a measure only ipsoeval computes to ir_measures' rule: served by it
        got = ir_measures.calc_aggregate([Judged, P @ 5], _qrels(), _run())
        assert got == {Judged: 0.625, P @ 5: 0.4}
        ev = ir_measures.evaluator([P @ 5], _qrels())
        assert type(ev).__name__ == "IpsoevalEvaluator"
    finally:
        ipm.unregister()
    assert PROVIDER not in ir_measures.DefaultPipeline.providers


def test_importing_ipsoeval_imports_no_ir_measures():
    code = ("import sys, ipsoeval; ipsoeval.evaluate; "
            "assert 'ir_measures' not in sys.modules, 'ir_measures imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_pyterrier_experiment_scores_through_it():
    """pt.Experiment scores through ir_measures: with the provider registered
    ipsoeval computes every system's measures, to the same numbers."""
    pt = pytest.importorskip("pyterrier")
    rnd = random.Random(1)
    qrels = pd.DataFrame([(str(q), f"d{d}", rnd.choice([0, 1, 2])) for q in range(10)
                          for d in range(8)], columns=["qid", "docno", "label"])
    runs = [pd.DataFrame([(str(q), f"d{d}", float(rnd.random()), 0) for q in range(10)
                          for d in rnd.sample(range(12), 6)],
                         columns=["qid", "docno", "score", "rank"]) for _ in range(2)]
    topics = pd.DataFrame({"qid": [str(q) for q in range(10)], "query": "x"})
    systems = [pt.Transformer.from_df(df) for df in runs]
    ms = [nDCG @ 10, AP, P @ 5]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = pt.Experiment(systems, topics, qrels, ms, names=["a", "b"])
        served = []
        real = ipm.IpsoevalEvaluator._iter_calc

        def spy(self, run):
            served.append(len(run))
            yield from real(self, run)

        try:
            ipm.IpsoevalEvaluator._iter_calc = spy
            ipm.register()
            ours = pt.Experiment(systems, topics, qrels, ms + [Judged], names=["a", "b"])
        finally:
            ipm.IpsoevalEvaluator._iter_calc = real
            ipm.unregister()
    assert served == [60, 60]
    for col in ("nDCG@10", "AP", "P@5"):
        assert list(ours[col]) == pytest.approx(list(theirs[col]), abs=1e-15)
    assert "Judged" in ours.columns
