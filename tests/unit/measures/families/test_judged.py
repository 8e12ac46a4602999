"""One rule for "judged": ``-J`` and the measure parameter ``judged_only`` keep
a document only when it is in the qrels with a label >= 0
(ipsoeval.model.judged).  A negative qrels label (pooled, not judged) is
dropped by both, as trec_eval's -J and pytrec_eval/ir_measures drop it.

The outside reference is pytrec_eval (trec_eval's own code) through
ir_measures, on the issue's example and on random qrels with negative labels."""

import math
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ipsoeval.api as api
from tests.conftest import invoke

MEASURES = ["RR", "AP", "P@2", "Rprec", "nDCG", "R@3", "SetP", "SetAP", "SetF", "IPrec@0.1"]


def _with_param(name: str) -> str:
    """``P@2`` -> ``P(judged_only=True)@2``."""
    base, _, cut = name.partition("@")
    return f"{base}(judged_only=True)" + (f"@{cut}" if cut else "")


QRELS = {"0": {"D0": -1, "D1": 1, "D3": 2, "D4": 1}}
RUN = {"0": {"D0": .8, "D2": .7, "D1": .3, "D3": .4, "D4": .1}}


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _files(tmp_path, qrels, run):
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text("".join(f"{t} 0 {d} {lab}\n" for t, docs in qrels.items()
                         for d, lab in docs.items()))
    r.write_text("".join(f"{t} Q0 {d} {i + 1} {s!r} r\n" for t, docs in run.items()
                         for i, (d, s) in enumerate(docs.items())))
    return str(q), str(r)


def test_issue_example_param_equals_minus_J(tmp_path):
    q, r = _files(tmp_path, QRELS, RUN)
    param = api.evaluate(QRELS, RUN, [_with_param(m) for m in MEASURES]).mean()["run1"]
    flag = api.evaluate(QRELS, RUN, MEASURES, judged_only=True).mean()["run1"]
    for m in MEASURES:
        assert param[_with_param(m)] == flag[m] == 1.0, m
    code, out, _ = invoke(["eval", "-J", "-m", "RR", q, r])
    assert code == 0 and out.split()[-1] == "1.0000"
    code, out, _ = invoke(["eval", "-m", "RR(judged_only=True)", q, r])
    assert code == 0 and out.split()[-1] == "1.0000"      # 0.5000 when -1 counted as judged


def _pytrec(qrels, run, names):
    irm = pytest.importorskip("ir_measures")
    ms = [irm.parse_measure(_with_param(n)) for n in names]
    qr = [irm.Qrel(t, d, lab) for t, docs in qrels.items() for d, lab in docs.items()]
    rn = [irm.ScoredDoc(t, d, s) for t, docs in run.items() for d, s in docs.items()]
    out = {}
    for m in irm.pytrec_eval.iter_calc(ms, qr, rn):
        out[(m.query_id, str(m.measure))] = m.value
    return out


def test_issue_example_is_pytrec_eval():
    ref = _pytrec(QRELS, RUN, MEASURES)
    got = api.evaluate(QRELS, RUN, [_with_param(m) for m in MEASURES])
    for m in MEASURES:
        assert got.matrix(_with_param(m))[0, 0] == pytest.approx(ref[("0", _with_param(m))],
                                                                  abs=1e-12), m


DOCS = [f"d{i}" for i in range(8)]


@st.composite
def _case(draw):
    qrels, run = {}, {}
    for t in ("1", "2"):
        judged = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=8, unique=True))
        labels = draw(st.lists(st.sampled_from([-1, -1, 0, 1, 2]), min_size=len(judged),
                               max_size=len(judged)))
        if not any(v > 0 for v in labels):
            labels[0] = 1                    # a relevant document: every measure defined
        qrels[t] = dict(zip(judged, labels))
        ranked = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=8, unique=True))
        run[t] = {d: float(len(ranked) - i) for i, d in enumerate(ranked)}
    return qrels, run


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_case())
def test_negative_labels_param_equals_minus_J_equals_pytrec_eval(case):
    qrels, run = case
    param = api.evaluate(qrels, run, [_with_param(m) for m in MEASURES], queries="intersection")
    flag = api.evaluate(qrels, run, MEASURES, judged_only=True, queries="intersection")
    ref = _pytrec(qrels, run, MEASURES)
    topics = param.topics
    for m in MEASURES:
        a, b = param.matrix(_with_param(m))[0], flag.matrix(m)[0]
        assert a.tolist() == b.tolist(), m
        for i, t in enumerate(topics):
            want = ref.get((t, _with_param(m)))
            if want is None or math.isnan(a[i]):
                continue
            assert a[i] == pytest.approx(want, abs=1e-12), (m, t)


# --- every measure that tells judged from unjudged uses the same rule -------------------
# A document with a negative qrels label is then, for them, exactly a document missing
# from the qrels: the values are those on the qrels without its line.

JUDGEDNESS = ["RBPresid", "RBPresid@3", "rbp_resid", "Judged@3", "Judged@10", "Unjudged@5",
              "INSTresid(max_rel=2)", "INSQresid(max_rel=2)", "BPMresid(max_rel=2)@5",
              "SDCGresid(max_rel=2)@5", "NERR10resid(max_rel=2)", "INST(max_rel=2)"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_case())
def test_negative_label_is_unjudged_for_every_residual(case):
    qrels, run = case
    dropped = {t: {d: v for d, v in docs.items() if v >= 0} for t, docs in qrels.items()}
    a = api.evaluate(qrels, run, JUDGEDNESS)
    b = api.evaluate(dropped, run, JUDGEDNESS)
    for m in JUDGEDNESS:
        assert a.matrix(m)[0].tolist() == pytest.approx(b.matrix(m)[0].tolist(), abs=1e-12), m


def test_issue_example_residuals_agree(tmp_path):
    """D0 (label -1) at rank 1 is unjudged for RBPresid and INSTresid alike."""
    qrels = {"0": {"D0": -1, "D1": 1, "D3": 2, "D4": 1}}
    dropped = {"0": {"D1": 1, "D3": 2, "D4": 1}}
    ms = ["RBPresid", "INSTresid(max_rel=2)", "Judged@2"]
    a, b = api.evaluate(qrels, RUN, ms), api.evaluate(dropped, RUN, ms)
    for m in ms:
        assert a.matrix(m)[0, 0] == pytest.approx(b.matrix(m)[0, 0], abs=1e-15), m
    assert a.matrix("Judged@2")[0, 0] == 0.0


def test_quick_path_judged_follows_the_rule(tmp_path):
    q, r = _files(tmp_path, QRELS, RUN)
    code, out, _ = invoke(["eval", "-m", "Judged@2", "-m", "Judged@5", q, r])
    assert code == 0
    assert [line.split()[-1] for line in out.splitlines()] == ["0.0000", "0.6000"]


def test_judged_without_a_cutoff_is_the_whole_ranking(tmp_path):
    """ir_measures' plain Judged: judged documents over all retrieved; the
    console script's quick path leaves it to the full program (its kernel
    takes a cutoff) and prints the same."""
    import subprocess
    import sys
    q, r = _files(tmp_path, QRELS, RUN)
    code, out, _ = invoke(["eval", "-m", "Judged", "-m", "Judged@1000", q, r])
    assert code == 0
    values = [line.split()[-1] for line in out.splitlines()]
    assert len(values) == 2 and values[0] == values[1]
    done = subprocess.run([sys.executable, "-m", "ipsoeval", "eval", "-m", "Judged",
                           "-m", "Judged@1000", q, r], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == out


# --- gdeval's nDCG refuses a gain above 4, as gdeval (and ERR) do -----------------------

def test_exp_log2_ndcg_refuses_label_5_with_a_hint(tmp_path):
    q, r = _files(tmp_path, {"0": {"D0": 5, "D1": 1}}, RUN)
    code, out, err = invoke(["eval", "-m", "P@5", "-m", "nDCG(dcg='exp-log2')@10", q, r])
    assert code == 2 and out == ""
    assert "found label 5" in err and "--gains 1:1,5:4" in err and "gdeval" in err
    code, out, _ = invoke(["eval", "--gains", "1:1,5:4", "-m", "nDCG(dcg='exp-log2')@10", q, r])
    assert code == 0
    ok, _ = _files(tmp_path, {"0": {"D0": 4, "D1": 1}}, RUN)
    code, out, _ = invoke(["eval", "-m", "nDCG(dcg='exp-log2')@10", ok, r])
    assert code == 0
    with pytest.raises(Exception, match="at most 4"):
        api.evaluate({"0": {"D0": 5.0}}, RUN, ["nDCG(dcg='exp-log2')"], labels="gain")


def test_refusals_come_before_any_scoring(monkeypatch):
    """The engine runs every measure's check before the first one is scored."""
    from ipsoeval.measures.measure import Measure
    called = []
    real = Measure.compute

    def spy(self, aligned, ctx=None):
        called.append(self.name)
        return real(self, aligned, ctx)
    monkeypatch.setattr(Measure, "compute", spy)
    for bad in (["P@5", "ERR@10"], ["P@5", "nDCG(dcg='exp-log2')@10"]):
        with pytest.raises(Exception, match="ERR needs gmax|at most 4"):
            api.evaluate({"0": {"D0": 5, "D1": 1}}, RUN, bad)
    assert called == []


@pytest.mark.parametrize("m", MEASURES)
def test_cli_minus_J_equals_the_parameter(tmp_path, m):
    q, r = _files(tmp_path, QRELS, RUN)
    code, a, _ = invoke(["eval", "-J", "-m", m, q, r])
    code2, b, _ = invoke(["eval", "-m", _with_param(m), q, r])
    assert code == code2 == 0
    assert a.split()[-1] == b.split()[-1] == "1.0000", m
