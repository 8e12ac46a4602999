"""`ipsoeval power` (issue 20, part 2): topic set size design (Sakai 2016).

Every number is checked against an outside reference: statsmodels' power
classes (TTestPower, FTestAnovaPower) and its OLS two-way ANOVA table,
scipy's chi distribution for the expected CI width, and Cohen's textbook
sample size."""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np
import pytest
from conftest import TESTDATA, invoke
from hypothesis import given, settings
from hypothesis import strategies as st

from ipsoeval.stats import power as pw

statsmodels = pytest.importorskip("statsmodels")
from statsmodels.stats.power import FTestAnovaPower, TTestPower  # noqa: E402

MS = TESTDATA / "msmarco"
FILES = [str(MS / "qrels.txt"), *sorted(str(p) for p in MS.glob("*.run.xz"))]

alphas = st.sampled_from([0.001, 0.01, 0.05, 0.1, 0.2])
variances = st.floats(1e-4, 0.5)
deltas = st.floats(0.005, 0.5)


def sm_t_power(n, delta, var, alpha):
    # paired differences have variance 2 sigma^2 (sigma^2 = V_E): d = delta / sqrt(2 V_E)
    p = TTestPower().power(effect_size=delta / math.sqrt(2 * var), nobs=n, alpha=alpha,
                           alternative="two-sided")
    if math.isnan(p) or (p < 1e-6 and n > 30):
        # statsmodels 0.15 returns NaN where scipy's nct.cdf fails in a far lower
        # tail (df 3, nc 8) and ~1e-15 for some powers of 1 (n 588, nc 12.1):
        # then the integral decides
        p = _t_power_by_integration(n, delta / math.sqrt(2 * var), alpha)
    return p


def _t_power_by_integration(n, d, alpha):
    """P(|T'| >= c) with T' = (Z + nc) / (W / sqrt(df)), integrated over W ~ chi(df)."""
    from scipy import integrate, stats
    df, nc = n - 1, math.sqrt(n) * d
    c = stats.t.ppf(1 - alpha / 2, df)
    k = c / math.sqrt(df)

    def f(w):
        return (stats.norm.sf(k * w - nc) + stats.norm.cdf(-k * w - nc)) * stats.chi.pdf(w, df)
    w0 = nc / k                          # where the upper tail turns from 1 to 0
    top = stats.chi.isf(1e-300, df)
    pts = sorted({0.0, min(w0, top), top, *(min(max(0.0, (nc + z) / k), top)
                                             for z in (-9, -3, 3, 9))})
    total = 0.0
    for lo, hi in zip(pts, pts[1:]):
        if hi > lo:
            total += integrate.quad(f, lo, hi, epsabs=1e-14, epsrel=1e-11, limit=500)[0]
    return total


def sm_anova_power(n, m, delta, var, alpha):
    # lambda = n * delta^2 / (2 sigma^2) = f^2 * (m n): f = sqrt(delta^2 / (2 sigma^2 m))
    p = FTestAnovaPower().power(effect_size=math.sqrt(delta ** 2 / (2 * var) / m),
                                nobs=m * n, alpha=alpha, k_groups=m)
    if math.isnan(p):       # statsmodels 0.15 gives NaN for large noncentralities
        p = _anova_power_by_series(n, m, delta, var, alpha)
    return p


def _anova_power_by_series(n, m, delta, var, alpha):
    """Noncentral F tail as the Poisson(λ/2) mixture of central beta tails."""
    from scipy import stats
    d1, d2 = m - 1, m * (n - 1)
    lam = n * delta ** 2 / (2 * var)
    c = stats.f.ppf(1 - alpha, d1, d2)
    x = d1 * c / (d1 * c + d2)
    mu = lam / 2
    lo = max(0, int(mu - 40 * math.sqrt(mu + 1) - 40))
    hi = int(mu + 40 * math.sqrt(mu + 1) + 40)
    k = np.arange(lo, hi + 1)
    return float((stats.poisson.pmf(k, mu) * stats.beta.sf(x, d1 / 2 + k, d2 / 2)).sum())


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 3000), delta=deltas, var=variances, alpha=alphas)
def test_t_power_is_statsmodels(n, delta, var, alpha):
    ours = pw.t_power(n, delta, var, alpha)
    assert ours == pytest.approx(sm_t_power(n, delta, var, alpha), rel=1e-7, abs=1e-10)
    assert ours == pytest.approx(_t_power_by_integration(n, delta / math.sqrt(2 * var), alpha),
                                 rel=1e-6, abs=1e-9)


def test_statsmodels_fails_where_we_do_not():
    # statsmodels' TTestPower gives ~1e-15 here; the power is 1 to 15 digits
    p = pw.t_power(588, 0.5, 0.5, 0.001)
    assert p == pytest.approx(_t_power_by_integration(588, 0.5, 0.001), abs=1e-12)
    assert p > 1 - 1e-12


@settings(max_examples=150, deadline=None)
@given(n=st.integers(2, 2000), m=st.integers(2, 40), delta=deltas, var=variances, alpha=alphas)
def test_anova_power_is_statsmodels(n, m, delta, var, alpha):
    assert pw.anova_power(n, m, delta, var, alpha) == pytest.approx(
        sm_anova_power(n, m, delta, var, alpha), rel=1e-7, abs=1e-10)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 2000), m=st.integers(2, 40), delta=deltas, var=variances, alpha=alphas)
def test_anova_power_is_the_poisson_mixture(n, m, delta, var, alpha):
    assert pw.anova_power(n, m, delta, var, alpha) == pytest.approx(
        _anova_power_by_series(n, m, delta, var, alpha), rel=1e-7, abs=1e-10)


@settings(max_examples=60, deadline=None)
@given(delta=deltas, var=variances, alpha=alphas, target=st.sampled_from([0.5, 0.8, 0.9]))
def test_t_topics_is_the_smallest_n_statsmodels_accepts(delta, var, alpha, target):
    n = pw.t_topics(delta, var, alpha, target)
    if n is None:
        assert sm_t_power(pw.MAX_TOPICS, delta, var, alpha) < target
        return
    assert sm_t_power(n, delta, var, alpha) >= target - 1e-12
    if n > 2:
        assert sm_t_power(n - 1, delta, var, alpha) < target + 1e-12


@settings(max_examples=60, deadline=None)
@given(m=st.integers(2, 30), delta=deltas, var=variances, alpha=alphas,
       target=st.sampled_from([0.5, 0.8, 0.9]))
def test_anova_topics_is_the_smallest_n_statsmodels_accepts(m, delta, var, alpha, target):
    n = pw.anova_topics(m, delta, var, alpha, target)
    assert n is not None
    assert sm_anova_power(n, m, delta, var, alpha) >= target - 1e-12
    if n > 2:
        assert sm_anova_power(n - 1, m, delta, var, alpha) < target + 1e-12


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 3000), var=variances, alpha=alphas,
       target=st.sampled_from([0.5, 0.8, 0.9]))
def test_minimal_detectable_difference_is_statsmodels(n, var, alpha, target):
    d = pw.t_detectable(n, var, alpha, target)
    assert sm_t_power(n, d, var, alpha) == pytest.approx(target, abs=1e-8)
    # the smallest such difference: statsmodels' power is below the target just under it
    assert sm_t_power(n, d * (1 - 1e-6), var, alpha) < target


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 500), m=st.integers(2, 20), var=variances, alpha=alphas)
def test_anova_detectable_range_reaches_the_power_in_statsmodels(n, m, var, alpha):
    d = pw.anova_detectable(n, m, var, alpha, 0.8)
    assert sm_anova_power(n, m, d, var, alpha) == pytest.approx(0.8, abs=1e-8)


def _ci_half_width_chi(n, var, alpha):
    """E[MOE] through scipy's chi distribution: sqrt(V_t) = sigma_t chi_{n-1} / sqrt(n-1)."""
    from scipy import stats
    e_sd = math.sqrt(2 * var) * stats.chi(n - 1).mean() / math.sqrt(n - 1)
    return stats.t.ppf(1 - alpha / 2, n - 1) * e_sd / math.sqrt(n)


@settings(max_examples=100, deadline=None)
@given(n=st.integers(2, 300), var=variances, alpha=alphas)
def test_expected_ci_half_width_is_the_chi_mean(n, var, alpha):
    assert pw.ci_half_width(n, var, alpha) == pytest.approx(_ci_half_width_chi(n, var, alpha),
                                                            rel=1e-9)


@settings(max_examples=60, deadline=None)
@given(w=st.floats(0.01, 0.3), var=st.floats(1e-3, 0.3), alpha=alphas)
def test_ci_topics_is_the_smallest_n(w, var, alpha):
    n = pw.ci_topics(w, var, alpha)
    assert _ci_half_width_chi(n, var, alpha) <= w * (1 + 1e-9)
    if n > 2:
        assert _ci_half_width_chi(n - 1, var, alpha) > w * (1 - 1e-9)


def test_power_where_scipys_lower_tail_fails():
    # nct.cdf(-12.9, 3, 8) is NaN in scipy 1.17; the power is still defined
    p = pw.t_power(4, 0.25, 0.001953125, 0.001)
    assert p == pytest.approx(_t_power_by_integration(4, 0.25 / math.sqrt(2 * 0.001953125),
                                                      0.001), rel=1e-7)


def test_cohens_textbook_sample_size():
    # Cohen (1988): a one-sample / paired t-test at alpha .05 two-sided needs 34
    # observations for power .80 at d = 0.5; d = delta / sqrt(2 V_E)
    var = 0.02
    assert pw.t_topics(0.5 * math.sqrt(2 * var), var, 0.05, 0.8) == 34


def test_residual_variance_is_the_ols_two_way_anova():
    import pandas as pd
    from statsmodels.formula.api import ols
    from statsmodels.stats.anova import anova_lm
    rng = np.random.default_rng(3)
    X = rng.random((5, 17))
    df = pd.DataFrame([{"y": X[i, j], "run": f"r{i}", "topic": f"t{j}"}
                       for i in range(5) for j in range(17)])
    table = anova_lm(ols("y ~ C(topic) + C(run)", data=df).fit())
    var, k, n = pw.residual_variance(X)
    assert (k, n) == (5, 17)
    assert var == pytest.approx(table.loc["Residual", "mean_sq"], rel=1e-10)


def test_two_runs_variance_is_half_the_variance_of_the_differences():
    rng = np.random.default_rng(4)
    X = rng.random((2, 30))
    assert pw.residual_variance(X)[0] == pytest.approx(np.var(X[1] - X[0], ddof=1) / 2,
                                                       rel=1e-12)


# --- command line ----------------------------------------------------------------------

def tsv(text):
    return list(csv.DictReader(io.StringIO(text), delimiter="\t"))


def _scores_file(tmp_path, X, measure="AP"):
    lines = ["run\tqid\tmeasure\tvalue"]
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            lines.append(f"r{i}\tq{j}\t{measure}\t{float(X[i, j])!r}")
    p = tmp_path / "scores.tsv"
    p.write_text("\n".join(lines) + "\n")
    return str(p)


X3 = np.array([[0.10, 0.30, 0.50, 0.20, 0.40, 0.60],
               [0.20, 0.35, 0.45, 0.30, 0.50, 0.55],
               [0.15, 0.50, 0.60, 0.25, 0.45, 0.70]])


def test_cli_tsv_exact_header_and_numbers(tmp_path):
    f = _scores_file(tmp_path, X3)
    code, out, err = invoke(["power", "--scores", f, "--delta", "0.1", "--format", "tsv"])
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == ("measure\tdesign\truns\ttopics\tresidual_variance\talpha\tpower_target\t"
                        "delta\tsystems\thalf_width\ttopics_needed\tpower\tmin_detectable\t"
                        "expected_half_width")
    rows = tsv(out)
    assert [r["design"] for r in rows] == ["t", "anova", "ci"]
    var = pw.residual_variance(X3)[0]
    t, a, c = rows
    assert float(t["residual_variance"]) == var
    assert int(t["topics"]) == 6 and int(t["runs"]) == 3
    assert float(t["power"]) == pytest.approx(sm_t_power(6, 0.1, var, 0.05), rel=1e-9)
    assert float(a["power"]) == pytest.approx(sm_anova_power(6, 3, 0.1, var, 0.05), rel=1e-9)
    n = int(t["topics_needed"])
    assert sm_t_power(n, 0.1, var, 0.05) >= 0.8 > sm_t_power(n - 1, 0.1, var, 0.05)
    n = int(a["topics_needed"])
    assert sm_anova_power(n, 3, 0.1, var, 0.05) >= 0.8 > sm_anova_power(n - 1, 3, 0.1, var, 0.05)
    assert a["systems"] == "3" and t["systems"] == "" and c["half_width"] == "0.05"
    assert float(c["expected_half_width"]) == pytest.approx(_ci_half_width_chi(6, var, 0.05),
                                                            rel=1e-9)
    assert c["power"] == "" and c["min_detectable"] == ""


def test_cli_options_and_json(tmp_path):
    f = _scores_file(tmp_path, X3)
    code, out, err = invoke(["power", "--scores", f, "--delta", "0.05,0.1", "--delta", "0.2",
                             "--design", "anova", "--systems", "10", "--power", "0.9",
                             "--alpha", "0.01", "--format", "json"])
    assert code == 0, err
    doc = json.loads(out)
    recs = doc["tables"]["power"]["records"] if "tables" in doc else None
    assert recs is not None, doc.keys()
    assert [r["delta"] for r in recs] == [0.05, 0.1, 0.2]
    var = pw.residual_variance(X3)[0]
    for r in recs:
        assert r["systems"] == 10
        n = r["topics_needed"]
        assert sm_anova_power(n, 10, r["delta"], var, 0.01) >= 0.9 > \
            sm_anova_power(n - 1, 10, r["delta"], var, 0.01)


def test_cli_curve_table(tmp_path):
    f = _scores_file(tmp_path, X3)
    code, out, err = invoke(["power", "--scores", f, "--table", "curve", "--design", "t"])
    assert code == 0, err
    rows = tsv(out)
    var = pw.residual_variance(X3)[0]
    assert rows and {r["design"] for r in rows} == {"t"}
    for r in rows[::7]:
        assert float(r["power"]) == pytest.approx(
            sm_t_power(int(r["topics"]), 0.05, var, 0.05), rel=1e-9)


def test_cli_runs_on_qrels_and_runs():
    code, out, err = invoke(["power", "-m", "RR@10", "-m", "nDCG@10", *FILES])
    assert code == 0, err
    rows = tsv(out)
    assert [r["measure"] for r in rows] == ["RR@10"] * 3 + ["nDCG@10"] * 3
    assert all(int(r["topics"]) == 2000 for r in rows)


@pytest.mark.parametrize("args, words", [
    (["--delta", "0"], "--delta must be a positive number"),
    (["--delta", "x"], "--delta must be a positive number"),
    (["--power", "1"], "--power must be between 0 and 1"),
    (["--systems", "1"], "--systems must be at least 2"),
    (["--design", "z"], "--design must be among t, anova, ci"),
    (["--half-width", "-1"], "--half-width must be a positive number"),
])
def test_cli_usage_errors(args, words):
    code, out, err = invoke(["power", "-m", "AP", *args, *FILES])
    assert code == 2 and words in err and out == ""
    assert "Traceback" not in err


def test_cli_one_run_is_a_usage_error():
    code, _, err = invoke(["power", "-m", "AP", *FILES[:2]])
    assert code == 2 and "at least two runs" in err


def test_cli_no_measure_is_a_usage_error():
    code, _, err = invoke(["power", *FILES])
    assert code == 2 and "-m MEASURE" in err


def test_zero_variance_warns(tmp_path):
    X = np.array([[0.1, 0.2, 0.3], [0.2, 0.3, 0.4]])
    f = _scores_file(tmp_path, X)
    code, out, err = invoke(["power", "--scores", f])
    assert code == 0
    assert "zero residual variance" in err
    assert all(r["topics_needed"] == "" for r in tsv(out) if r["design"] != "ci")


def test_api_matches_cli(tmp_path):
    import ipsoeval
    f = _scores_file(tmp_path, X3)
    rep = ipsoeval.power(ipsoeval.read_scores(f), delta=0.1)
    code, out, _ = invoke(["power", "--scores", f, "--delta", "0.1"])
    rows = tsv(out)
    for rec, row in zip(rep.table("power").records, rows):
        assert str(rec["topics_needed"]) == row["topics_needed"]
        assert rec["residual_variance"] == float(row["residual_variance"])


def test_plot(tmp_path):
    pytest.importorskip("matplotlib")
    f = _scores_file(tmp_path, X3)
    png = tmp_path / "p.svg"
    code, _, err = invoke(["power", "--scores", f, "--plot", str(png)])
    assert code == 0, err
    assert png.stat().st_size > 1000


# --- the designs' parameterisation, by simulation of the two-way model -------------------

def _simulate(m, n, effects, var, reps, seed):
    """reps experiments: score = topic effect + system effect + N(0, var) error."""
    rng = np.random.default_rng(seed)
    topic = rng.normal(0, 0.2, (reps, 1, n))
    err = rng.normal(0, math.sqrt(var), (reps, m, n))
    return topic + np.asarray(effects)[None, :, None] + err


def test_paired_t_design_matches_simulated_rejections():
    var, n, delta, reps = 0.02, 25, 0.06, 20_000
    X = _simulate(2, n, [0.0, delta], var, reps, 1)
    p = stats_ttest_rel(X[:, 1], X[:, 0])
    rate = float((p < 0.05).mean())
    expect = pw.t_power(n, delta, var, 0.05)
    assert abs(rate - expect) < 4 * math.sqrt(expect * (1 - expect) / reps)
    # and V_E estimates the error variance the design assumes
    est = np.mean([pw.residual_variance(X[i])[0] for i in range(200)])
    assert est == pytest.approx(var, rel=0.05)


def test_anova_design_least_favourable_configuration_matches_simulation():
    # m systems: two delta apart, the others midway (Sakai 2016's minimum
    # range); one-way ANOVA's model: score = system effect + N(0, var) error
    from scipy import stats
    var, n, m, delta, reps = 0.02, 15, 4, 0.1, 20_000
    rng = np.random.default_rng(2)
    effects = np.array([0.0, delta, delta / 2, delta / 2])
    X = effects[None, :, None] + rng.normal(0, math.sqrt(var), (reps, m, n))
    p = stats.f_oneway(*[X[:, i] for i in range(m)], axis=1).pvalue
    rate = float((p < 0.05).mean())
    expect = pw.anova_power(n, m, delta, var, 0.05)
    assert abs(rate - expect) < 4 * math.sqrt(expect * (1 - expect) / reps)
    # any other configuration with the same range has at least this power
    X2 = np.array([0.0, delta, 0.0, delta])[None, :, None] + \
        rng.normal(0, math.sqrt(var), (reps, m, n))
    p2 = stats.f_oneway(*[X2[:, i] for i in range(m)], axis=1).pvalue
    assert float((p2 < 0.05).mean()) > rate


def test_ci_half_width_matches_simulated_intervals():
    from scipy import stats
    var, n, reps = 0.03, 12, 50_000
    rng = np.random.default_rng(5)
    d = rng.normal(0.0, math.sqrt(2 * var), (reps, n))
    moe = stats.t.ppf(0.975, n - 1) * d.std(axis=1, ddof=1) / math.sqrt(n)
    assert moe.mean() == pytest.approx(pw.ci_half_width(n, var, 0.05), rel=0.01)


def stats_ttest_rel(b, a):
    from scipy import stats
    return stats.ttest_rel(b, a, axis=1).pvalue


def _ncf_sf_by_series(x, d1, d2, lam):
    """P(F' > x) as the Poisson(λ/2) mixture of central beta tails (scipy)."""
    from scipy import stats
    z = d1 * x / (d1 * x + d2)
    mu = lam / 2
    k = np.arange(max(0, int(mu - 40 * math.sqrt(mu + 1) - 40)),
                  int(mu + 40 * math.sqrt(mu + 1) + 40) + 1)
    return float((stats.poisson.pmf(k, mu) * stats.beta.sf(z, d1 / 2 + k, d2 / 2)).sum())


@pytest.mark.parametrize("x, d1, d2, lam", [
    (2000.0, 5.0, 200.0, 10_001.0), (2600.0, 5.0, 200.0, 10_001.0),
    (30.0, 1.0, 50.0, 1e5 / 30), (3.0e4, 4.0, 1000.0, 1.2e5), (3.5e4, 4.0, 1000.0, 1.2e5)])
def test_a_large_noncentral_f_is_scipys_and_agrees_with_the_series(x, d1, d2, lam, monkeypatch):
    """Beyond _NCF_SERIES_MAX the tail is scipy's (the series' cost grows as
    nc/2: 27 s a call at 1.3e6), checked against the Poisson mixture."""
    from ipsoeval.special import noncentral
    calls = []
    real = noncentral.ncf_sf
    monkeypatch.setattr(noncentral, "ncf_sf", lambda *a: calls.append(a) or real(*a))
    ours = pw._ncf_sf(x, d1, d2, lam)
    if lam > pw._NCF_SERIES_MAX:
        assert calls == []
    assert ours == pytest.approx(_ncf_sf_by_series(x, d1, d2, lam), rel=1e-9, abs=1e-12)


def test_anova_power_at_a_huge_noncentrality_is_quick(monkeypatch):
    """λ = 1.25e7: the series would run for minutes; scipy's tail answers."""
    from ipsoeval.special import noncentral
    monkeypatch.setattr(noncentral, "ncf_sf", lambda x, d1, d2, nc: pytest.fail(
        "the series at nc = %g" % nc) if nc > pw._NCF_SERIES_MAX else 0.5)
    assert pw.anova_power(10_000, 5, 0.5, 1e-4, 0.05) == 1.0


def test_a_failed_noncentral_f_tail_is_an_error_not_a_power(monkeypatch):
    from scipy import stats

    from ipsoeval.errors import IpsoevalError
    monkeypatch.setattr(stats.ncf, "sf", lambda *a: math.nan)
    with pytest.raises(IpsoevalError, match="noncentral F tail"):
        pw._ncf_sf(3.0, 2.0, 100.0, 2e4)
