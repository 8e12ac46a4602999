"""ipsoeval across: effects pooled across collections, the cross-collection
leaderboard and the mixed model, checked against statsmodels (combine_effects,
MixedLM), brute force and ipsoeval's own eval and two-way ANOVA."""

from __future__ import annotations

import json
import math
import os
import warnings

import numpy as np
import pytest
from click.testing import CliRunner
from scipy import optimize, stats

from ipsoeval.analyses import across as ac
from ipsoeval.stats import meta_analysis as ma
from ipsoeval.stats import mixed
from tests.conftest import ROOT

sm_meta = pytest.importorskip("statsmodels.stats.meta_analysis")

DATA = os.path.join(ROOT, "testdata", "across")
MANIFEST = os.path.join(DATA, "manifest.tsv")


def _studies(rng):
    k = int(rng.integers(2, 15))
    v = rng.uniform(0.0005, 0.05, k)
    y = rng.normal(0.02, rng.uniform(0.0, 0.2), k) + rng.normal(0.0, np.sqrt(v))
    return y, v


def _statsmodels(y, v, tau2):
    """combine_effects with tau^2 given (its Paule-Mandel iteration started at
    tau^2 and stopped before the first step)."""
    return sm_meta.combine_effects(y, v, method_re="pm", tau2_start=tau2, maxiter=0)


def _check_against_statsmodels(y, v, r):
    sm = _statsmodels(y, v, r["tau2"])
    fe, re_ = sm.conf_int(alpha=0.05, use_t=False)[:2]
    got = [r["estimate"], r["se"], r["ci_low"], r["ci_high"], r["fe_estimate"], r["fe_se"],
           r["fe_ci_low"], r["fe_ci_high"], r["q"], r["i2"], r["q_p_value"]]
    exp = [sm.mean_effect_re, sm.sd_eff_w_re, *re_, sm.mean_effect_fe, sm.sd_eff_w_fe, *fe,
           sm.q, max(0.0, sm.i2), sm.test_homogeneity().pvalue]
    np.testing.assert_allclose(got, exp, rtol=0, atol=1e-8)
    assert r["z"] == pytest.approx(sm.mean_effect_re / sm.sd_eff_w_re, abs=1e-8)
    assert r["p_value"] == pytest.approx(2 * stats.norm.sf(abs(r["z"])), abs=1e-10)
    k = len(y)
    if k >= 3:
        half = stats.t.ppf(0.975, k - 2) * math.sqrt(r["tau2"] + r["se"] ** 2)
        assert r["pi_low"] == pytest.approx(r["estimate"] - half, abs=1e-10)
        assert r["pi_high"] == pytest.approx(r["estimate"] + half, abs=1e-10)
    else:
        assert math.isnan(r["pi_low"])


def _reml_brute(y, v):
    def nll(t):
        w = 1 / (v + t)
        mu = (w * y).sum() / w.sum()
        return 0.5 * (np.log(v + t).sum() + np.log(w.sum()) + (w * (y - mu) ** 2).sum())
    o = optimize.minimize_scalar(nll, bounds=(0, 10), method="bounded",
                                 options={"xatol": 1e-14})
    return o.x if nll(o.x) < nll(0.0) else 0.0


def _reml_global(y, v):
    """The REML tau^2 by brute force, independent of ipsoeval's search: the
    negative restricted log-likelihood on 0 and a dense log grid up to 100
    times the spread of the data, then scipy's bounded minimisation between
    the best grid point's neighbours; the boundary wins when it is lower."""
    def nll(t):
        w = 1 / (v + t)
        mu = (w * y).sum() / w.sum()
        return 0.5 * (np.log(v + t).sum() + np.log(w.sum()) + (w * (y - mu) ** 2).sum())
    top = 100 * (np.ptp(y) ** 2 + v.max())
    grid = np.concatenate([[0.0], top * np.logspace(-14, 0, 3000)])
    W = 1 / (v + grid[:, None])
    M = (W * y).sum(axis=1) / W.sum(axis=1)
    vals = 0.5 * (np.log(v + grid[:, None]).sum(axis=1) + np.log(W.sum(axis=1))
                  + (W * (y - M[:, None]) ** 2).sum(axis=1))
    i = int(vals.argmin())
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]
    o = optimize.minimize_scalar(nll, bounds=(lo, hi), method="bounded",
                                 options={"xatol": 1e-15 * max(hi, 1e-300)})
    best = min([(nll(0.0), 0.0), (nll(o.x), o.x), (vals[i], grid[i])])
    return best[1], -best[0]


def _manifest_like(rng):
    """Studies like a manifest's: most agree, sometimes one or two disagree
    with a large variance; a third like the case above, one study far off
    with a large variance (where 0 can be a local maximum of the likelihood)."""
    if rng.random() < 0.35:
        k = int(rng.integers(3, 9))
        v = rng.uniform(0.01, 0.15, k)
        y = rng.normal(0.7, 0.08, k)
        y[0], v[0] = rng.uniform(-1.0, 0.2), rng.uniform(0.1, 0.3)
        return y, v
    k = int(rng.integers(2, 12))
    v = rng.uniform(0.005, 0.15, k) * rng.choice([0.1, 1.0, 10.0])
    y = rng.normal(rng.uniform(-1, 1), rng.choice([0.0, 0.05, 0.3]), k) + \
        rng.normal(0.0, np.sqrt(v))
    if rng.random() < 0.5:
        m = int(rng.integers(1, min(2, k - 1) + 1))
        y[:m] = y[:m] - rng.uniform(0.5, 2.0) * np.sign(y[:m].mean() or 1.0)
        v[:m] = v[:m] * rng.uniform(2.0, 10.0)
    return y, v


ISSUE_Y = [0.7008, 0.7600, -0.5428, 0.8781, 0.6969]
ISSUE_V = [0.01281, 0.02377, 0.14274, 0.09081, 0.05822]


def test_reml_leaves_a_boundary_local_maximum():
    """tau^2 = 0 is a local maximum here (the score at 0 is negative), but the
    restricted likelihood is higher inside: -0.4835 at 0, -0.2038 at 0.12978."""
    y, v = np.array(ISSUE_Y), np.array(ISSUE_V)
    ll = lambda t: float(ma.restricted_loglik(y, v, np.array(t)))      # noqa: E731
    r = ma.pool(y, v, "reml")
    assert r["tau2"] == pytest.approx(0.12978244985247283, rel=1e-13)   # mpmath, 50 digits
    assert r["estimate"] == pytest.approx(0.5752875405145135, rel=1e-12)
    assert r["se"] == pytest.approx(0.19228218115632633, rel=1e-12)
    assert ll(0.0) == pytest.approx(-0.4835, abs=1e-4)
    assert ll(r["tau2"]) == pytest.approx(-0.2038, abs=1e-4)
    # the same through the batch path (the bootstrap's), and in a batch of others
    Y = np.array([ISSUE_Y, [0.1, 0.2, 0.15, 0.3, np.nan]])
    V = np.array([ISSUE_V, [0.01, 0.02, 0.01, 0.03, 0.01]])
    assert ma.tau2(Y, V, "reml")[0] == r["tau2"]


def test_reml_is_the_global_maximum_on_random_manifests():
    rng = np.random.default_rng(2033)
    moved_off_zero = 0
    for _ in range(400):
        y, v = _manifest_like(rng)
        t = float(ma.tau2(y, v, "reml"))
        bt, bll = _reml_global(y, v)
        ll = float(ma.restricted_loglik(y, v, np.array(t)))
        # never below the brute force's maximum (to rounding), and the same place
        assert ll >= bll - 1e-12 * max(1.0, abs(bll)), (y, v, t, bt)
        assert t == pytest.approx(bt, rel=1e-5, abs=1e-9), (y, v)
        s0 = -0.5 * ((1 / v).sum() - (1 / v ** 2).sum() / (1 / v).sum()) + \
            0.5 * ((y - (y / v).sum() / (1 / v).sum()) ** 2 / v ** 2).sum()
        moved_off_zero += (s0 < 0) and t > 0
    # some cases of the kind above (a negative score at 0, the maximum inside)
    assert moved_off_zero >= 1


@pytest.mark.parametrize("method", ["dl", "pm", "reml"])
def test_pooling_equals_statsmodels_on_generated_studies(method):
    rng = np.random.default_rng(29)
    for _ in range(150):
        y, v = _studies(rng)
        r = ma.pool(y, v, method)
        if method == "dl":
            with warnings.catch_warnings():     # its untruncated tau^2 may be negative
                warnings.simplefilter("ignore")
                sm = sm_meta.combine_effects(y, v, method_re="dl")
            assert r["tau2"] == pytest.approx(max(0.0, sm.tau2), abs=1e-10)
        elif method == "pm":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                # statsmodels' Paule-Mandel iteration from 0 (its stopping rule: the
                # estimating equation within 1e-7) ...
                sm0 = sm_meta.combine_effects(y, v, method_re="pm", atol=1e-7, maxiter=1000)
                at = _statsmodels(y, v, r["tau2"])
            assert (r["tau2"] > 0) == (sm0.q > len(y) - 1)
            if sm0.tau2 > 0:
                assert r["tau2"] == pytest.approx(sm0.tau2, abs=1e-8)
            elif r["tau2"] > 0:
                # ... except where it overshoots by rounding and resets to 0: ours then
                # solves its estimating equation sum w (y - mu)^2 = k - 1
                ee = (at.weights_re * (y - at.mean_effect_re) ** 2).sum() - (len(y) - 1)
                assert abs(ee) < 1e-9
        else:
            assert r["tau2"] == pytest.approx(_reml_global(y, v)[0], abs=1e-7)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _check_against_statsmodels(y, v, r)


def test_smd_formula():
    rng = np.random.default_rng(3)
    d = rng.normal(0.1, 0.2, 17)
    y, v, n = ma.effect(d, "smd")
    dz = d.mean() / d.std(ddof=1)
    j = 1 - 3 / (4 * 16 - 1)
    assert y == pytest.approx(j * dz, abs=1e-12)
    assert v == pytest.approx(j * j * (1 / 17 + dz * dz / 34), abs=1e-12)
    ym, vm, _ = ma.effect(d, "md")
    assert ym == pytest.approx(d.mean()) and vm == pytest.approx(d.var(ddof=1) / 17)


def _run(*args):
    from ipsoeval.cli import cli
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def _json(*args):
    r = _run(*args, "--format", "json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_pooled_equals_statsmodels_on_scores_from_eval():
    """The effects are eval's per-topic scores' mean paired differences, and
    their pooling is combine_effects'."""
    import ipsoeval
    from ipsoeval.reading.manifest import read_manifest
    doc = _json("across", MANIFEST, "-m", "nDCG@10", "--samples", "50")
    eff = doc["tables"]["effects"]["records"] if "tables" in doc else doc["effects"]
    pooled = doc["tables"]["pooled"]["records"] if "tables" in doc else doc["pooled"]
    for c in read_manifest(MANIFEST):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = ipsoeval.evaluate(c.qrels, c.runs, ["nDCG@10"])
        M = res.matrix("nDCG@10")
        base = M[res.runs.index("bm25")]
        for rec in (e for e in eff if e["collection"] == c.name):
            d = M[res.runs.index(rec["run"])] - base
            assert rec["n"] == d.size
            assert rec["estimate"] == pytest.approx(d.mean(), abs=1e-12)
            assert rec["variance"] == pytest.approx(d.var(ddof=1) / d.size, abs=1e-12)
    for p in pooled:
        rows = [e for e in eff if e["run"] == p["run"]]
        y = np.array([e["estimate"] for e in rows])
        v = np.array([e["variance"] for e in rows])
        assert p["k"] == len(rows)
        assert p["tau2"] == pytest.approx(_reml_global(y, v)[0], abs=1e-7)
        r = {k: (math.nan if val is None else val) for k, val in p.items()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _check_against_statsmodels(y, v, r)


def _tables(doc):
    return doc["tables"] if "tables" in doc else doc


def test_run_missing_from_one_collection_and_worked_example():
    t = _tables(_json("across", MANIFEST, "-m", "nDCG@10", "--samples", "200"))
    pooled = {r["run"]: r for r in t["pooled"]["records"]}
    assert pooled["hybrid"]["k"] == 3 and pooled["dense"]["k"] == 4   # no hybrid on forum
    board = {r["run"]: r for r in t["leaderboard"]["records"]}
    means = t["collection_means"]["records"]
    for run, rec in board.items():
        mine = [m["mean"] for m in means if m["run"] == run]
        assert rec["mean_of_means"] == pytest.approx(np.mean(mine), abs=1e-12)
        assert rec["n_collections"] == len(mine)
        assert rec["rank_ci_low"] <= rec["rank"] <= rec["rank_ci_high"]
    # the worked example of the man page: the plain mean says dense beats bm25,
    # the fixed effect says they are even, the collections disagree (I^2 high)
    assert board["dense"]["mean_of_means"] > board["bm25"]["mean_of_means"]
    assert abs(pooled["dense"]["fe_estimate"]) < 0.02
    assert pooled["dense"]["i2"] > 0.8
    assert pooled["dense"]["ci_low"] < 0 < pooled["dense"]["ci_high"]


def _scores_manifest(tmp_path, collections):
    """A manifest of per-topic score files: collections = {name: {run: [scores]}}."""
    lines = []
    for name, runs in collections.items():
        path = tmp_path / f"{name}.tsv"
        rows = ["run\tqid\tmeasure\tvalue"]
        for run, vals in runs.items():
            rows += [f"{run}\t{name}-{i}\tAP\t{float(v)!r}" for i, v in enumerate(vals)]
        path.write_text("\n".join(rows) + "\n")
        lines.append(f"{name}\t-\t{path.name}")
    m = tmp_path / "manifest.tsv"
    m.write_text("\n".join(lines) + "\n")
    return str(m)


def test_identical_runs_pool_with_tau2_zero(tmp_path):
    rng = np.random.default_rng(1)
    cols = {}
    for c, n in (("a", 20), ("b", 8), ("c", 30)):
        x = rng.uniform(0, 1, n)
        cols[c] = {"base": list(x), "same": list(x), "other": list(np.clip(x + rng.normal(0, .1, n), 0, 1))}
    r = _run("across", _scores_manifest(tmp_path, cols), "-m", "AP", "--baseline", "base",
             "--samples", "50", "--format", "json")
    assert r.exit_code == 0, r.output
    pooled = {p["run"]: p for p in _tables(json.loads(r.stdout))["pooled"]["records"]}
    same = pooled["same"]
    assert same["estimate"] == 0 and same["tau2"] == 0 and same["se"] == 0
    assert same["ci_low"] == same["ci_high"] == 0
    assert "tau^2 = 0" in r.stderr


def test_collection_with_one_topic_is_left_out_of_pooling(tmp_path):
    rng = np.random.default_rng(2)
    cols = {"big": {"base": list(rng.uniform(0, 1, 25)), "x": list(rng.uniform(0, 1, 25))},
            "mid": {"base": list(rng.uniform(0, 1, 12)), "x": list(rng.uniform(0, 1, 12))},
            "one": {"base": [0.2], "x": [0.9]}}
    r = _run("across", _scores_manifest(tmp_path, cols), "-m", "AP", "--samples", "30",
             "--format", "json")
    assert r.exit_code == 0, r.output
    t = _tables(json.loads(r.stdout))
    (p,) = t["pooled"]["records"]
    assert p["k"] == 2
    one = [e for e in t["effects"]["records"] if e["collection"] == "one"][0]
    assert one["n"] == 1 and one["variance"] is None and one["weight_random"] is None
    assert "1 topic(s) with both scores" in r.stderr


def test_baseline_absent_from_a_collection(tmp_path):
    rng = np.random.default_rng(4)
    cols = {"a": {"base": list(rng.uniform(0, 1, 10)), "x": list(rng.uniform(0, 1, 10))},
            "b": {"base": list(rng.uniform(0, 1, 10)), "x": list(rng.uniform(0, 1, 10))},
            "c": {"x": list(rng.uniform(0, 1, 10)), "y": list(rng.uniform(0, 1, 10))}}
    m = _scores_manifest(tmp_path, cols)
    r = _run("across", m, "-m", "AP", "--baseline", "base", "--samples", "30")
    assert r.exit_code == 0, r.output
    assert "the baseline base is not in collection c" in r.stderr
    r = _run("across", m, "-m", "AP", "--baseline", "nosuch")
    assert r.exit_code == 2
    assert r.stderr.strip().count("\n") == 0 and "nosuch" in r.stderr


def test_manifest_errors_are_one_line(tmp_path):
    out = tmp_path / "out.tsv"
    bad = tmp_path / "m.tsv"
    bad.write_text("news\tnews.qrels\n")
    r = _run("across", str(bad), "-m", "AP", "-o", str(out))
    assert r.exit_code == 3 and not out.exists()
    assert r.stderr.strip() == f"ipsoeval: error: {bad}:1: expected 3 tab-separated fields " \
                               f"(collection, qrels, run), found 2"
    bad.write_text("collection\tqrels\trun\nnews\tnope.qrels\tx.run\n")
    r = _run("across", str(bad), "-m", "AP")
    assert r.exit_code == 3 and f"{bad}:2: no such qrels file" in r.stderr
    q = os.path.abspath(os.path.join(DATA, "news.qrels"))
    bad.write_text(f"news\t{q}\t{os.path.join(DATA, 'news-bm25.run')}\n"
                   f"news\t{os.path.join(DATA, 'web.qrels')}\t{os.path.join(DATA, 'news-dense.run')}\n")
    r = _run("across", str(bad), "-m", "AP")
    assert r.exit_code == 3 and f"{bad}:2: collection 'news' has qrels" in r.stderr


def test_bootstrap_is_deterministic():
    a = _run("across", MANIFEST, "-m", "nDCG@10", "--samples", "300", "--seed", "7",
             "--table", "leaderboard")
    b = _run("across", MANIFEST, "-m", "nDCG@10", "--samples", "300", "--seed", "7",
             "--table", "leaderboard")
    assert a.exit_code == 0 and a.stdout == b.stdout


def test_resampling_is_stratified():
    """Each sample draws every collection's own topics, n of them."""
    X = np.arange(12.0).reshape(2, 6)
    m, v = ac.resample_collection(X, 40, 5, 0)
    assert m.shape == (40, 2) and np.all(m[:, 1] - m[:, 0] == 6.0)
    rng = np.random.default_rng([5, 0])
    idx = rng.integers(0, 6, size=(40, 6))
    np.testing.assert_allclose(m[:, 0], X[0][idx].mean(axis=1), atol=1e-12)
    np.testing.assert_allclose(v[:, 0], X[0][idx].var(axis=1, ddof=1) / 6, atol=1e-12)


# --- the mixed model ---------------------------------------------------------------------

def _design(rng, ncoll, p, drop):
    import pandas as pd
    rows, tc, t = [], [], 0
    for c in range(ncoll):
        uc = rng.normal(0, 0.1)
        for _ in range(int(rng.integers(5, 12))):
            vt = rng.normal(0, 0.15)
            for s in range(p):
                if rng.random() >= drop:
                    rows.append((s, t, c, 0.3 + 0.05 * s + uc + vt + rng.normal(0, 0.1)))
            tc.append(c)
            t += 1
    return pd.DataFrame(rows, columns=["system", "topic", "coll", "y"]), np.array(tc)


@pytest.mark.parametrize("ncoll,drop", [(1, 0.0), (1, 0.25), (4, 0.0), (5, 0.3)])
def test_mixed_model_equals_statsmodels(ncoll, drop):
    smf = pytest.importorskip("statsmodels.formula.api")
    rng = np.random.default_rng(ncoll * 10 + int(drop * 100))
    df, tc = _design(rng, ncoll, 4, drop)
    f = mixed.fit(df.y.values, df.system.values, df.topic.values, tc, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if ncoll == 1:
            m = smf.mixedlm("y ~ 0 + C(system)", df, groups=df["topic"]).fit(
                reml=True, method=["bfgs"], gtol=1e-13, maxiter=10000)
            vc = (m.scale, float(m.cov_re.iloc[0, 0]), 0.0)
        else:
            m = smf.mixedlm("y ~ 0 + C(system)", df, groups=df["coll"], re_formula="1",
                            vc_formula={"topic": "0 + C(topic)"}).fit(
                reml=True, method=["bfgs"], gtol=1e-13, maxiter=10000)
            vc = (m.scale, float(m.vcomp[0]), float(m.cov_re.iloc[0, 0]))
    np.testing.assert_allclose(f.beta, m.fe_params.values, atol=1e-6)
    np.testing.assert_allclose([f.sigma2, f.topic_var, f.collection_var], vc, atol=1e-6)
    assert f.loglik == pytest.approx(m.llf, abs=1e-6)
    # the covariance of the fixed effects: (X' V^-1 X)^-1 with V built densely
    N = len(df)
    V = f.sigma2 * np.eye(N)
    Zt = (df.topic.values[:, None] == df.topic.values[None, :])
    Zc = (df.coll.values[:, None] == df.coll.values[None, :])
    V += f.topic_var * Zt + f.collection_var * Zc
    X = np.eye(4)[df.system.values]
    cov = np.linalg.inv(X.T @ np.linalg.solve(V, X))
    np.testing.assert_allclose(f.cov, cov, atol=1e-10)


@pytest.mark.parametrize("sizes", [[30], [10, 25, 7]])
def test_mixed_system_test_equals_two_way_anova_on_complete_data(sizes):
    """Every run on every topic: the mixed model's F for the runs is the two-way
    ANOVA's on the runs x topics matrix, with one collection or several."""
    from ipsoeval.stats import omnibus
    rng = np.random.default_rng(11)
    k, n = 5, sum(sizes)
    coll = np.repeat(np.arange(len(sizes)), sizes)
    topic = rng.normal(0, 0.2, n) + rng.normal(0, 0.1, len(sizes))[coll]
    Y = 0.4 + 0.03 * np.arange(k)[:, None] + topic[None, :] + rng.normal(0, 0.1, (k, n))
    s, t = np.nonzero(np.ones((k, n)))
    f = mixed.fit(Y.reshape(-1), s, t, coll, k)
    a = omnibus.anova_twoway(Y)
    assert f.f_statistic == pytest.approx(a.statistic, rel=1e-6)
    assert f.f_df == (float(k - 1), float((k - 1) * (n - 1)))
    assert f.f_p_value == pytest.approx(a.pvalue, rel=1e-5, abs=1e-12)


def test_contrasts_are_holm_corrected():
    from ipsoeval.stats import corrections
    t = _tables(_json("across", MANIFEST, "-m", "nDCG@10", "--samples", "20"))
    con = t["contrasts"]["records"]
    raw = np.array([c["p_value"] for c in con])
    np.testing.assert_allclose([c["p_adjusted"] for c in con],
                               corrections.adjust(raw, "holm"), atol=1e-15)
    (model,) = t["mixed_model"]["records"]
    assert model["n_collections"] == 4 and model["n_runs"] == 3


def test_api_takes_python_objects():
    import ipsoeval
    from ipsoeval.reading.manifest import read_manifest
    cols = {c.name: (c.qrels, c.runs) for c in read_manifest(MANIFEST)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = ipsoeval.across(cols, ["nDCG@10"], samples=100)
        rep2 = ipsoeval.across(MANIFEST, ["nDCG@10"], samples=100)
    assert rep.table("pooled").records == rep2.table("pooled").records
    assert rep.table("leaderboard").records == rep2.table("leaderboard").records


def test_forest_plot(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "forest.svg"
    r = _run("across", MANIFEST, "-m", "nDCG@10", "--samples", "20", "--plot", str(out))
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert "dense - bm25" in text and "legal (n=6)" in text and "random effects" in text


def test_manifest_paths_relative_to_it_and_irds(tmp_path):
    from ipsoeval.reading.manifest import read_manifest
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "q").write_text("1 0 d 1\n")
    (tmp_path / "sub" / "r").write_text("1 Q0 d 1 1 x\n")
    m = tmp_path / "sub" / "m.tsv"
    m.write_text("# comment\n\ncollection\tqrels\trun\na\tq\tr\n"
                 "b\tirds:msmarco-passage/trec-dl-2019/judged\tr\n")
    a, b = read_manifest(str(m))
    assert a.qrels == str(tmp_path / "sub" / "q") and a.runs == [str(tmp_path / "sub" / "r")]
    assert b.qrels == "irds:msmarco-passage/trec-dl-2019/judged" and not b.scores


def test_pipe_closed_and_table_list():
    import subprocess
    import sys
    r = subprocess.run(f"{sys.executable} -m ipsoeval across {MANIFEST} -m AP --samples 20 "
                       f"--table effects | head -1", shell=True, capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.startswith("collection\trun")
    out = _run("across", MANIFEST, "-m", "AP", "--samples", "20", "--table", "list").stdout
    for t in ("pooled", "effects", "leaderboard", "notes", "collection_means", "mixed",
              "mixed_model", "contrasts"):
        assert t in out


def test_a_shifted_copy_is_one_exact_effect_despite_rounding(tmp_path):
    """0.2 - 0.1 and 0.6 - 0.5 differ in the last bit: still no variance."""
    cols = {c: {"base": [0.1, 0.5, 0.3, 0.25], "shift": [0.2, 0.6, 0.4, 0.35]}
            for c in ("a", "b")}
    m = _scores_manifest(tmp_path, cols)
    r = _run("across", m, "-m", "AP", "--baseline", "base", "--samples", "20",
             "--format", "json")
    assert r.exit_code == 0, r.output
    (p,) = _tables(json.loads(r.stdout))["pooled"]["records"]
    assert p["tau2"] == 0 and p["se"] == 0 and p["estimate"] == pytest.approx(0.1)
    r = _run("across", m, "-m", "AP", "--baseline", "base", "--samples", "20",
             "--effect", "smd", "--format", "json")
    assert r.exit_code == 0 and "no standardized effect" in r.stderr
    (p,) = _tables(json.loads(r.stdout))["pooled"]["records"]
    assert p["k"] == 0 and p["estimate"] is None
