"""The qpp analysis against outside references: scipy.stats for r, rho, tau-b
and their p-values; a direct implementation of Faggioli et al.'s sARE and
sMARE; statsmodels' ANOVA (anova_lm) and the studentized range for Tukey's
HSD with the ANOVA's residual mean square; the bootstrap against a plain
loop over the same resamples."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from ipsoeval.analyses.qpp import report as qpp
from ipsoeval.model import Predictors


def make(n=40, P=3, seed=5, ties=False):
    rng = np.random.default_rng(seed)
    topics = [f"q{i}" for i in range(n)]
    y = rng.random(n)
    if ties:
        y = np.round(y, 1)
    vals = {}
    for k in range(P):
        v = y + rng.normal(0, 0.2 * (k + 1), n)
        if ties:
            v = np.round(v, 1)
        vals[f"p{k}"] = dict(zip(topics, v.tolist()))
    return topics, y, Predictors(names=list(vals), values=vals)


def table(rep, tid):
    return rep.table(tid).records


def smare_direct(pred, score):
    """Faggioli et al. (ICTIR 2021): for each query q, sARE_q = |r_q^p - r_q^e| / |Q|,
    r^p the rank of q by the predictor, r^e its rank by the measure (average
    ranks for ties), sMARE the mean of sARE over the queries."""
    n = len(pred)

    def avg_rank(v):
        out = []
        for x in v:
            less = sum(1 for z in v if z < x)
            equal = sum(1 for z in v if z == x)
            out.append(less + (equal + 1) / 2)
        return out
    rp, re = avg_rank(list(pred)), avg_rank(list(score))
    sare = [abs(a - b) / n for a, b in zip(rp, re)]
    return sare, sum(sare) / n


@pytest.mark.parametrize("ties", [False, True])
def test_correlations_equal_scipy(ties):
    topics, y, P = make(ties=ties)
    rep = qpp.run("r", topics, {"AP": y}, P, qpp.Options(samples=50))
    for row in table(rep, "correlations"):
        x = np.array([P.values[row["predictor"]][t] for t in topics])
        for name, f in (("pearson", stats.pearsonr), ("spearman", stats.spearmanr),
                        ("kendall", stats.kendalltau)):
            ref = f(x, y)
            assert row[name] == pytest.approx(ref.statistic, abs=1e-12)
            assert row[f"{name}_p"] == pytest.approx(ref.pvalue, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("ties", [False, True])
def test_smare_equals_the_definition(ties):
    topics, y, P = make(n=25, ties=ties)
    rep = qpp.run("r", topics, {"AP": y}, P, qpp.Options(samples=20, per_query=True))
    rows = table(rep, "topics")
    for row in table(rep, "correlations"):
        x = [P.values[row["predictor"]][t] for t in topics]
        sare, smare = smare_direct(x, y.tolist())
        assert row["smare"] == pytest.approx(smare, abs=1e-15)
        mine = [r["sare"] for r in rows if r["predictor"] == row["predictor"]]
        assert mine == pytest.approx(sare, abs=1e-15)


def test_smare_worked_example():
    # A predictor that orders four topics exactly backwards: ranks 1,2,3,4
    # against 4,3,2,1, sARE = 3/4, 1/4, 1/4, 3/4, sMARE = 0.5; the perfect
    # predictor has sMARE 0; ties: a constant predictor ranks every topic
    # 2.5, sARE = 1.5/4, .5/4, .5/4, 1.5/4, sMARE = 0.25.
    topics = ["a", "b", "c", "d"]
    y = np.array([0.4, 0.3, 0.2, 0.1])
    P = Predictors(names=["back", "good", "flat"],
                   values={"back": dict(zip(topics, [0.1, 0.2, 0.3, 0.4])),
                           "good": dict(zip(topics, [4.0, 3.0, 2.0, 1.0])),
                           "flat": dict(zip(topics, [1.0] * 4))})
    rep = qpp.run("r", topics, {"AP": y}, P, qpp.Options(samples=10, per_query=True))
    got = {r["predictor"]: r["smare"] for r in table(rep, "correlations")}
    assert got == {"back": 0.5, "good": 0.0, "flat": 0.25}
    sare = [r["sare"] for r in table(rep, "topics") if r["predictor"] == "back"]
    assert sare == [0.75, 0.25, 0.25, 0.75]
    flat = next(r for r in table(rep, "correlations") if r["predictor"] == "flat")
    assert flat["pearson"] is None and flat["kendall"] is None
    assert any("flat is constant" in n and "undefined" in n for n in rep.notes)


def test_anova_and_tukey_equal_statsmodels():
    pd = pytest.importorskip("pandas")
    from statsmodels.formula.api import ols
    from statsmodels.stats.anova import anova_lm
    topics, y, P = make(n=30, P=4, seed=11)
    rep = qpp.run("r", topics, {"AP": y}, P, qpp.Options(samples=20, per_query=True))
    sare = table(rep, "topics")
    df = pd.DataFrame({"topic": [r["qid"] for r in sare],
                       "predictor": [r["predictor"] for r in sare],
                       "sare": [r["sare"] for r in sare]})
    ref = anova_lm(ols("sare ~ C(topic) + C(predictor)", data=df).fit())
    rows = {r["source"]: r for r in table(rep, "anova")}
    for src, key in (("topic", "C(topic)"), ("predictor", "C(predictor)"),
                     ("residual", "Residual")):
        assert rows[src]["df"] == ref.loc[key, "df"]
        assert rows[src]["sum_sq"] == pytest.approx(ref.loc[key, "sum_sq"], rel=1e-10)
        assert rows[src]["mean_sq"] == pytest.approx(ref.loc[key, "mean_sq"], rel=1e-10)
        if src != "residual":
            assert rows[src]["f"] == pytest.approx(ref.loc[key, "F"], rel=1e-10)
            assert rows[src]["p_value"] == pytest.approx(ref.loc[key, "PR(>F)"], rel=1e-8)
    mse, dfe = ref.loc["Residual", "mean_sq"], ref.loc["Residual", "df"]
    n = len(topics)
    means = df.groupby("predictor")["sare"].mean()
    qcrit = stats.studentized_range.ppf(0.95, 4, dfe)
    for row in table(rep, "tukey"):
        d = means[row["predictor_b"]] - means[row["predictor_a"]]
        q = abs(d) / np.sqrt(mse / n)
        assert row["difference"] == pytest.approx(d, abs=1e-14)
        assert row["q"] == pytest.approx(q, rel=1e-10)
        assert row["p_value"] == pytest.approx(stats.studentized_range.sf(q, 4, dfe), abs=1e-6)
        assert row["ci_low"] == pytest.approx(d - qcrit * np.sqrt(mse / n), rel=1e-8)
        assert row["ci_high"] == pytest.approx(d + qcrit * np.sqrt(mse / n), rel=1e-8)


def test_tukey_equals_statsmodels_pairwise_tukeyhsd_on_the_differences():
    # pairwise_tukeyhsd is Tukey's HSD of the one-way design; on sARE with
    # the topic effect removed (each topic's mean subtracted) its mean
    # differences are ours, and its intervals are ours once its MSE (df
    # k(n-1)) is scaled to the two-way residual one (df (k-1)(n-1)).
    from statsmodels.stats.multicomp import pairwise_tukeyhsd
    topics, y, P = make(n=30, P=3, seed=2)
    rep = qpp.run("r", topics, {"AP": y}, P, qpp.Options(samples=20, per_query=True))
    rows = table(rep, "topics")
    names = P.names
    S = np.array([[r["sare"] for r in rows if r["predictor"] == p] for p in names])
    res = pairwise_tukeyhsd(S.reshape(-1), np.repeat(names, S.shape[1]))
    ref = {(a, b): d for a, b, d in zip(res.groupsunique[res._multicomp.pairindices[0]],
                                         res.groupsunique[res._multicomp.pairindices[1]],
                                         res.meandiffs)}
    for row in table(rep, "tukey"):
        assert row["difference"] == pytest.approx(ref[row["predictor_a"], row["predictor_b"]],
                                                  abs=1e-14)


def test_pairs_are_williams_and_zou():
    from ipsoeval.stats.correlation import williams_t, zou_interval
    topics, y, P = make(n=50, P=2, seed=9)
    rep = qpp.run("r", topics, {"AP": y}, P, qpp.Options(samples=200))
    xa = np.array([P.values["p0"][t] for t in topics])
    xb = np.array([P.values["p1"][t] for t in topics])
    ra, rb, rab = (stats.pearsonr(xa, y)[0], stats.pearsonr(xb, y)[0],
                   stats.pearsonr(xa, xb)[0])
    row = next(r for r in table(rep, "pairs") if r["coefficient"] == "pearson")
    t, df, p = williams_t(ra, rb, rab, 50)
    lo, hi = zou_interval(ra, rb, rab, 50)
    assert row["statistic"] == pytest.approx(float(t), rel=1e-10)
    assert row["df"] == 47
    assert row["p_value"] == pytest.approx(float(p), rel=1e-10)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((float(lo), float(hi)), rel=1e-10)
    k = next(r for r in table(rep, "pairs") if r["coefficient"] == "kendall")
    assert k["difference"] == pytest.approx(stats.kendalltau(xa, y)[0]
                                            - stats.kendalltau(xb, y)[0], abs=1e-12)
    assert k["ci_low"] < k["difference"] < k["ci_high"]


@pytest.mark.parametrize("n,ties", [(20, True), (300, False), (300, True)])
def test_bootstrap_is_scipy_on_every_resample(n, ties):
    # the resamples are computed from their topic counts (weighted sums,
    # ranks and tau-b's pairs from the counts): each must equal scipy on the
    # resampled values themselves
    topics, y, P = make(n=n, P=2, seed=4, ties=ties)
    X = np.array([[P.values[p][t] for t in topics] for p in P.names])
    B, seed = 300, 17
    got = qpp.bootstrap_correlations(X, y, B, seed)
    idx = np.random.default_rng(seed).integers(0, n, (B, n))
    for b in range(B):
        i = idx[b]
        for p in range(2):
            for name, f in (("pearson", stats.pearsonr), ("spearman", stats.spearmanr),
                            ("kendall", stats.kendalltau)):
                ref = f(X[p, i], y[i]).statistic
                assert got[name][b, p] == pytest.approx(ref, abs=1e-12, nan_ok=True)


def test_bootstrap_is_a_loop_over_the_resamples():
    topics, y, P = make(n=20, P=2, seed=4, ties=True)
    X = np.array([[P.values[p][t] for t in topics] for p in P.names])
    B, seed = 300, 17
    got = qpp.bootstrap_correlations(X, y, B, seed)
    idx = np.random.default_rng(seed).integers(0, 20, (B, 20))
    for b in (0, 1, 150, 299):
        i = idx[b]
        for p in range(2):
            for name, f in (("pearson", stats.pearsonr), ("spearman", stats.spearmanr),
                            ("kendall", stats.kendalltau)):
                ref = f(X[p, i], y[i]).statistic
                assert got[name][b, p] == pytest.approx(ref, abs=1e-12, nan_ok=True)
    rep = qpp.run("r", topics, {"AP": y}, P, qpp.Options(samples=B, seed=seed))
    row = table(rep, "correlations")[0]
    assert row["pearson_boot_low"] == pytest.approx(
        float(np.nanquantile(got["pearson"][:, 0], 0.025)), abs=1e-14)
    assert row["kendall_boot_high"] == pytest.approx(
        float(np.nanquantile(got["kendall"][:, 0], 0.975)), abs=1e-14)


def test_same_seed_same_numbers_other_seed_other():
    topics, y, P = make(n=30)
    a = qpp.run("r", topics, {"AP": y}, P, qpp.Options(samples=100, seed=1))
    b = qpp.run("r", topics, {"AP": y}, P, qpp.Options(samples=100, seed=1))
    c = qpp.run("r", topics, {"AP": y}, P, qpp.Options(samples=100, seed=2))
    assert table(a, "correlations") == table(b, "correlations")
    assert table(a, "correlations") != table(c, "correlations")


def test_missing_topics_warn_and_pair_on_common_topics():
    topics, y, P = make(n=30)
    del P.values["p1"]["q3"], P.values["p1"]["q4"]
    P.values["p2"]["extra"] = 1.0
    rep = qpp.run("r", topics, {"AP": y}, P, qpp.Options(samples=20))
    assert any(w.startswith("qpp: 2 topic(s) of the qrels missing from a predictor left out "
                            "(p1 lacks 2); every predictor is evaluated on the 28 topic(s)")
               for w in rep.warnings)
    assert "qpp: predictor topic(s) not in the qrels ignored (p2 has 1)" in rep.warnings
    assert {r["n"] for r in table(rep, "correlations")} == {28}


def test_undefined_scores_left_out_with_a_warning():
    topics, y, P = make(n=30)
    y = y.copy()
    y[:3] = np.nan
    rep = qpp.run("r", topics, {"ESL": y}, P, qpp.Options(samples=20))
    assert any("ESL: 3 topic(s) with an undefined score" in w for w in rep.warnings)
    assert table(rep, "correlations")[0]["n"] == 27


def test_one_predictor_has_empty_pairs_and_anova():
    topics, y, P = make(n=30, P=1)
    rep = qpp.run("r", topics, {"AP": y}, P, qpp.Options(samples=20))
    assert rep.ids == ["correlations", "pairs", "anova", "tukey"]
    assert all(not rep.table(t).records for t in ("pairs", "anova", "tukey"))


def test_kendall_of_counts_without_scipys_private_routine():
    # scipy's discordant-pair counter is private: without it, the public
    # kendalltau on the resampled values gives the same tau-b
    rng = np.random.default_rng(8)
    x, y = np.round(rng.random(60), 1), np.round(rng.random(60), 1)
    k = qpp._Kendall(x, y)
    c = np.bincount(rng.integers(0, 60, 60), minlength=60).astype(float)
    fast = k(c)
    k.dis = None
    assert k(c) == pytest.approx(fast, abs=1e-12)
