"""Risk-sensitive comparison (``ipsoeval risk``, ipsoeval.stats.risk): URisk and
TRisk (Dinçer, Macdonald and Ounis, SIGIR 2014), ZRisk and GeoRisk (Dinçer,
Macdonald and Ounis, SIGIR 2016), checked on hand-worked cases, against
brute-force loops over the papers' formulas and against scipy (TRisk with
α = 0 is the paired t statistic; α = 0 ZRisk's z are Pearson residuals)."""

import json
import math

import numpy as np
import pytest
from scipy import stats
from scipy.stats.contingency import expected_freq

from ipsoeval.analyses import risk as analysis
from ipsoeval.errors import UsageError
from ipsoeval.stats import risk
from tests.conftest import ROOT

QRELS = ROOT / "testdata/adhoc/qrels.txt"
RUNS = [ROOT / "testdata/adhoc/run-bm25.txt", ROOT / "testdata/adhoc/run-neural.txt"]


def phi(x):
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


# --- hand-worked ------------------------------------------------------------------

def test_urisk_hand_worked():
    # δ = (0.2, -0.2, 0); α = 1: (0.2 + 2 × -0.2 + 0) / 3
    assert risk.urisk([0.5, 0.2, 0.4], [0.3, 0.4, 0.4], 1.0) == pytest.approx(-0.2 / 3)
    # α = 0 is the difference of the means
    assert risk.urisk([0.5, 0.2, 0.4], [0.3, 0.4, 0.4], 0.0) == pytest.approx(0.0)
    # α = 5: a loss of 0.2 weighs 1.2
    assert risk.urisk([0.5, 0.2, 0.4], [0.3, 0.4, 0.4], 5.0) == pytest.approx(-1.0 / 3)


def test_trisk_hand_worked():
    # z = (0.2, -0.4, 0): mean -1/15, s = √(0.28/3) (n − 1 = 2), SE = s/√3
    r = risk.trisk([0.5, 0.2, 0.4], [0.3, 0.4, 0.4], 1.0)
    s = math.sqrt(((0.2 + 1 / 15) ** 2 + (-0.4 + 1 / 15) ** 2 + (1 / 15) ** 2) / 2)
    assert r.urisk == pytest.approx(-1 / 15)
    assert r.trisk == pytest.approx((-1 / 15) / (s / math.sqrt(3)))
    assert r.trisk == pytest.approx(-0.3779645, abs=1e-7)
    assert (r.wins, r.ties, r.losses, r.n) == (1, 1, 1, 3)
    assert r.p_value == pytest.approx(2 * stats.t.sf(0.3779645, 2), rel=1e-6)


def test_trisk_alpha_zero_is_the_paired_t_statistic():
    rng = np.random.default_rng(7)
    a, b = rng.random(30), rng.random(30)
    r = risk.trisk(b, a, 0.0)
    t = stats.ttest_rel(b, a)
    assert r.trisk == pytest.approx(t.statistic, rel=1e-12)
    assert r.p_value == pytest.approx(t.pvalue, rel=1e-9)


def test_trisk_undefined_when_nothing_varies():
    r = risk.trisk([0.3, 0.3], [0.3, 0.3], 1.0)
    assert r.urisk == 0 and math.isnan(r.trisk) and math.isnan(r.p_value)


def test_zrisk_georisk_hand_worked():
    # 2 runs × 2 topics, x = [[1, 0], [0, 1]]: every e = 1·1/2, z = ±0.5/√0.5
    x = np.array([[1.0, 0.0], [0.0, 1.0]])
    z = 0.5 / math.sqrt(0.5)
    assert risk.zrisk(x, 1.0) == pytest.approx([z - 2 * z, z - 2 * z])
    assert risk.zrisk(x, 0.0) == pytest.approx([0.0, 0.0])
    g = math.sqrt(0.5 * phi((z - 2 * z) / 2))
    assert risk.georisk(x, 1.0) == pytest.approx([g, g])
    assert g == pytest.approx(0.425345, abs=1e-6)   # Φ(−0.353553) = 0.361837


def brute_zrisk(x, alpha):
    runs, topics = x.shape
    n = x.sum()
    out = []
    for j in range(runs):
        s_j = x[j].sum()
        total = 0.0
        for i in range(topics):
            t_i = x[:, i].sum()
            e = s_j * t_i / n
            if e == 0:
                continue
            zz = (x[j, i] - e) / math.sqrt(e)
            total += zz if x[j, i] >= e else (1 + alpha) * zz
        out.append(total)
    return out


@pytest.mark.parametrize("seed", range(5))
def test_zrisk_georisk_against_the_formulas_by_loops(seed):
    rng = np.random.default_rng(seed)
    x = rng.random((4, 25)) * (rng.random((4, 25)) > 0.3)
    x[:, 3] = 0.0                          # a topic no run scores on: no information
    for alpha in (0.0, 1.0, 5.0):
        want = brute_zrisk(x, alpha)
        assert risk.zrisk(x, alpha) == pytest.approx(want, rel=1e-12)
        c = x.shape[1]
        assert risk.georisk(x, alpha) == pytest.approx(
            [math.sqrt(x[j].mean() * phi(want[j] / c)) for j in range(4)], rel=1e-12)


def test_zrisk_residuals_are_pearsons():
    rng = np.random.default_rng(3)
    x = rng.random((3, 12)) + 0.01
    e = expected_freq(x)
    chi2 = stats.chi2_contingency(x, correction=False).statistic
    z = (x - e) / np.sqrt(e)
    assert (z ** 2).sum() == pytest.approx(chi2)
    assert risk.zrisk(x, 0.0) == pytest.approx(z.sum(axis=1))
    assert risk.zrisk(x, 2.0) == pytest.approx(np.where(z < 0, 3 * z, z).sum(axis=1))


# --- the analysis -----------------------------------------------------------------

def test_analysis_tables_and_baseline():
    x = np.array([[0.3, 0.4, 0.4], [0.5, 0.2, 0.4], [0.1, 0.6, 0.2]])
    rep = analysis.run(["a", "b", "c"], {"AP": x},
                       analysis.Options(baseline="b", risk_alphas=[1.0]))
    u = rep.table("urisk").records
    assert [(r["run"], r["baseline"]) for r in u] == [("a", "b"), ("c", "b")]
    assert u[0]["urisk"] == pytest.approx(risk.urisk(x[0], x[1], 1.0))
    z = rep.table("zrisk").records
    assert [r["run"] for r in z] == ["a", "b", "c"]
    assert [r["zrisk"] for r in z] == pytest.approx(list(risk.zrisk(x, 1.0)))


def test_analysis_drops_undefined_topics_and_refuses_bad_input():
    x = np.array([[0.3, np.nan, 0.4], [0.5, 0.2, 0.4]])
    rep = analysis.run(["a", "b"], {"AP": x}, analysis.Options(risk_alphas=[1.0]))
    assert rep.table("urisk").records[0]["n"] == 2 and rep.warnings
    with pytest.raises(UsageError):
        analysis.run(["a", "b"], {"ESL": x}, analysis.Options(), lower_better={"ESL"})
    with pytest.raises(UsageError):
        analysis.run(["a", "b"], {"X": -np.ones((2, 3))}, analysis.Options())
    with pytest.raises(UsageError):
        analysis.Options(risk_alphas=[-1.0]).check()
    with pytest.raises(UsageError):
        analysis.run(["a"], {"AP": x[:1]}, analysis.Options())


# --- the command ------------------------------------------------------------------

def test_cli_matches_eval_per_topic(cli_invoke):
    code, out, _ = cli_invoke(["eval", "-q", "-m", "nDCG@10", "--format", "tsv", QRELS, *RUNS])
    assert code == 0
    lines = [ln.split("\t") for ln in out.splitlines()[1:]]
    head = out.splitlines()[0].split("\t")
    per = {}
    for row in lines:
        rec = dict(zip(head, row))
        if rec["qid"] != "all":
            per.setdefault(rec["run"], {})[rec["qid"]] = float(rec["value"])
    topics = sorted(per["bm25"])
    a = [per["bm25"][t] for t in topics]
    # eval -q prints no line for a topic missing from a run; paired commands
    # score it as an empty ranking (0)
    b = [per["neural"].get(t, 0.0) for t in topics]
    code, out, _ = cli_invoke(["risk", "-m", "nDCG@10", "--risk-alpha", "1,5", "--format",
                               "json", QRELS, *RUNS])
    assert code == 0
    doc = json.loads(out)
    assert doc["primary"] == "urisk"
    u = doc["results"]
    assert [r["risk_alpha"] for r in u] == [1.0, 5.0]
    for r in u:
        want = risk.trisk(b, a, r["risk_alpha"])
        assert r["urisk"] == pytest.approx(want.urisk, rel=1e-12)
        assert r["trisk"] == pytest.approx(want.trisk, rel=1e-12)


def test_cli_errors(cli_invoke, tmp_path):
    out = tmp_path / "o.tsv"
    for args in (["risk", "-m", "ESL", QRELS, *RUNS, "-o", out],
                 ["risk", "-m", "AP", "--risk-alpha", "-1", QRELS, *RUNS],
                 ["risk", "-m", "AP", "--risk-alpha", "x", QRELS, *RUNS],
                 ["risk", "-m", "AP", QRELS, RUNS[0]],
                 ["risk", "-m", "AP", "--baseline", "nope", QRELS, *RUNS]):
        code, _, err = cli_invoke(args)
        assert code == 2, (args, err)
        assert "Traceback" not in err
    assert not out.exists()


def test_api_on_runs_and_on_scores(tmp_path, cli_invoke):
    from ipsoeval import api
    res = api.evaluate(str(QRELS), [str(r) for r in RUNS], ["nDCG@10", "AP"])
    rep = api.risk(res, risk_alphas=[2.0], baseline="neural")
    u = rep.table("urisk").records
    assert {(r["run"], r["baseline"], r["risk_alpha"]) for r in u} == {("bm25", "neural", 2.0)}
    m = res.matrix("AP")
    want = risk.trisk(m[0], m[1], 2.0)
    got = [r for r in u if r["measure"] == "AP"][0]
    assert got["urisk"] == pytest.approx(want.urisk) and got["trisk"] == pytest.approx(want.trisk)
    out = tmp_path / "s.tsv"
    code, _, _ = cli_invoke(["eval", "-q", "-m", "AP", "--format", "tsv", "-o", out, QRELS,
                             *RUNS])
    assert code == 0
    ts = api.read_scores([str(out)])
    rep2 = api.risk(ts, risk_alphas=[2.0], baseline="neural")
    assert rep2.table("urisk").records[0]["urisk"] == pytest.approx(want.urisk)
    with pytest.raises(UsageError):
        api.risk(res, measures=["ESL"])


# --- the TREC Web track's risk-sensitive gdeval.pl (tests/data/risk/README.md) ----------

RISK = ROOT / "tests/data/risk"


def _gdeval(run, alpha):
    rows = [ln.rsplit(",", 3) for ln in (RISK / f"risk-{run}-a{alpha}.csv").read_text()
            .splitlines()[1:]]                # the run id holds commas
    return {r[1]: float(r[2]) for r in rows}


def test_urisk_equals_the_trec_web_track_script(cli_invoke):
    code, out, err = cli_invoke(["risk", "-m", "nDCG(dcg='exp-log2')@20", "--risk-alpha",
                                 "0,1,5", "--baseline", "base", "--format", "json",
                                 RISK / "qrels.txt", RISK / "base.txt", RISK / "runA.txt",
                                 RISK / "runB.txt"])
    assert code == 0, err
    rows = json.loads(out)["results"]
    assert len(rows) == 6
    for r in rows:
        want = _gdeval(r["run"], int(r["risk_alpha"]))["amean"]
        assert round(r["urisk"], 5) == pytest.approx(want, abs=1e-12), r
    # topic by topic: the script's risk-weighted differences are stats.risk.reward's
    from ipsoeval import api
    res = api.evaluate(str(RISK / "qrels.txt"),
                       [str(RISK / f) for f in ("base.txt", "runA.txt", "runB.txt")],
                       ["nDCG(dcg='exp-log2')@20"])
    m = res.matrix(res.measures[0])
    for j, run in ((1, "runA"), (2, "runB")):
        for alpha in (0, 1, 5):
            z = dict(zip(res.topics, risk.reward(m[j], m[0], alpha)))
            g = _gdeval(run, alpha)
            for t, v in z.items():
                assert v == pytest.approx(g[t], abs=6e-6), (run, alpha, t)


def test_cli_scores_files_give_the_same_numbers(cli_invoke, tmp_path):
    out = tmp_path / "s.tsv"
    code, _, _ = cli_invoke(["eval", "-q", "-m", "AP", "--format", "tsv", "-o", out, QRELS,
                             *RUNS])
    assert code == 0
    args = ["--risk-alpha", "1,5", "--format", "tsv", "--table", "zrisk"]
    code, a, err = cli_invoke(["risk", "-m", "AP", *args, QRELS, *RUNS])
    assert code == 0, err
    code, b, err = cli_invoke(["risk", "--scores", *args, out])
    assert code == 0, err
    assert a.splitlines()[1:] == b.splitlines()[1:]
    code, _, err = cli_invoke(["risk", "--scores", "-m", "AP", "--tie-break", "input", out])
    assert code == 2
