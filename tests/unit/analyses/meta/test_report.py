"""The meta analysis (ipsoeval/analyses/meta/report.py, swap.py):
discriminative power (Sakai 2006), swap
rate (Voorhees & Buckley 2002), Kendall's tau and tau_ap (Yilmaz et al. 2008).

Outside references: scipy's ttest_rel and exact permutation_test for the
p-values, plain loops for the swap counts and for Kendall's tau_b, the
definition of tau_ap computed pair by pair, worked examples by hand and the
zero mean of tau_ap over all permutations."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from ipsoeval.analyses import meta
from ipsoeval.analyses.meta import swap as sw
from ipsoeval.analyses.meta.report import tau_ap  # rankcorr.tau_ap, empty on ties

# --- tau_ap ----------------------------------------------------------------------------

def tau_ap_by_definition(x, y):
    """Yilmaz et al. (2008), eq. 2, with C(i) counted pair by pair."""
    n = len(x)
    ranked = sorted(range(n), key=lambda i: -x[i])
    s = 0.0
    for pos in range(1, n):
        item = ranked[pos]
        correct = sum(1 for other in ranked[:pos] if y[other] > y[item])
        s += correct / pos
    return 2.0 / (n - 1) * s - 1.0


def test_tau_ap_worked_examples():
    truth = [4, 3, 2, 1]                       # a > b > c > d
    assert tau_ap(truth, truth) == 1.0
    assert tau_ap([1, 2, 3, 4], truth) == -1.0
    # a swap at the top costs more than a swap at the bottom; Kendall's tau is
    # 2/3 for both.  By hand: top swap (b a c d): C = 0, 2, 3 -> 2/3 (0 + 1 + 1) - 1
    assert tau_ap([3, 4, 2, 1], truth) == pytest.approx(1 / 3)
    # bottom swap (a b d c): C = 1, 2, 2 -> 2/3 (1 + 1 + 2/3) - 1 = 7/9
    assert tau_ap([4, 3, 1, 2], truth) == pytest.approx(7 / 9)
    assert stats.kendalltau([3, 4, 2, 1], truth).statistic == pytest.approx(2 / 3)
    assert stats.kendalltau([4, 3, 1, 2], truth).statistic == pytest.approx(2 / 3)


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 12).flatmap(lambda n: st.tuples(st.permutations(range(n)),
                                                      st.permutations(range(n)))))
def test_tau_ap_is_the_definition(xy):
    x, y = xy
    assert tau_ap(x, y) == pytest.approx(tau_ap_by_definition(x, y), abs=1e-12)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_tau_ap_has_mean_zero_over_all_permutations(n):
    y = list(range(n))
    vals = [tau_ap(list(p), y) for p in itertools.permutations(range(n))]
    assert sum(vals) / len(vals) == pytest.approx(0.0, abs=1e-12)


def test_tau_ap_with_two_systems_is_kendall():
    assert tau_ap([1, 2], [1, 2]) == 1.0 and tau_ap([2, 1], [1, 2]) == -1.0


def test_tau_ap_ties_and_nan_are_undefined():
    assert math.isnan(tau_ap([1, 1, 2], [1, 2, 3]))
    assert math.isnan(tau_ap([1, 2, 3], [1, 1, 3]))
    assert math.isnan(tau_ap([1, float("nan")], [1, 2]))
    assert math.isnan(tau_ap([1], [1]))


def kendall_tau_b_by_counting(x, y):
    n = len(x)
    conc = disc = tx = ty = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = np.sign(x[j] - x[i]), np.sign(y[j] - y[i])
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                tx += 1
            elif dy == 0:
                ty += 1
            elif dx == dy:
                conc += 1
            else:
                disc += 1
    return (conc - disc) / math.sqrt((conc + disc + tx) * (conc + disc + ty))


# --- discriminative power and ASL --------------------------------------------------------

def _matrices(seed=0, runs=5, topics=10, measures=("AP", "P@10")):
    rng = np.random.default_rng(seed)
    base = rng.random(topics)
    out = {}
    for k, m in enumerate(measures):
        eff = np.linspace(0, 0.3, runs)[:, None]
        X = np.clip(base[None, :] * (0.5 + 0.1 * k) + eff * rng.random((runs, 1))
                    + 0.15 * rng.standard_normal((runs, topics)), 0, 1)
        out[m] = np.round(X, 4)
    return out


RUNS5 = [f"r{i}" for i in range(5)]


def test_discriminative_power_is_a_scipy_loop():
    mats = _matrices()
    opts = meta.Options(tests=("t", "randomization", "wilcoxon"), samples=1 << 12, splits=20)
    rep = meta.run(RUNS5, mats, opts)
    summary = {(r["measure"], r["test"]): r for r in rep.table("summary").records}
    asl = rep.table("asl").records
    for m, X in mats.items():
        pairs = list(itertools.combinations(range(5), 2))
        ref = {
            "t": [stats.ttest_rel(X[j], X[i]).pvalue for i, j in pairs],
            # 10 topics, 4096 >= 2^10 resamples: our randomization test is exact
            "randomization": [stats.permutation_test(
                (X[j], X[i]), lambda a, b: np.mean(a - b), permutation_type="samples",
                n_resamples=np.inf).pvalue for i, j in pairs],
            "wilcoxon": [stats.wilcoxon(X[j], X[i]).pvalue for i, j in pairs],
        }
        for test, ps in ref.items():
            ps = np.array(ps)
            row = summary[(m, test)]
            assert row["pairs"] == 10
            assert row["significant"] == int((ps < 0.05).sum())
            assert row["discriminative_power"] == (ps < 0.05).sum() / 10
            got = [r["p_value"] for r in asl if r["measure"] == m and r["test"] == test]
            assert [r["rank"] for r in asl if r["measure"] == m and r["test"] == test] == \
                list(range(1, 11))
            assert got == pytest.approx(np.sort(ps), rel=1e-9, abs=1e-12)


def test_correction_adjusts_within_measure_and_test():
    mats = _matrices(seed=2)
    rep = meta.run(RUNS5, mats, meta.Options(tests=("t",), correct="bonferroni", splits=5))
    for r in rep.table("asl").records:
        assert r["p_adjusted"] == pytest.approx(min(1.0, r["p_value"] * 10))
        assert r["significant"] == (r["p_adjusted"] < 0.05)


def test_ranks_by_discriminative_power():
    mats = _matrices(seed=5, measures=("A", "B", "C"))
    rep = meta.run(RUNS5, mats, meta.Options(tests=("t",), splits=5))
    rows = rep.table("summary").records
    for r in rows:
        assert r["rank"] == 1 + sum(o["discriminative_power"] > r["discriminative_power"]
                                    for o in rows)


# --- swap rate --------------------------------------------------------------------------

def swaps_by_loops(X, count, seed, width, h=None):
    """Voorhees & Buckley's swap counts with plain loops over the documented splits."""
    R, n = len(X), len(X[0])
    h = n // 2 if h is None else h
    rng = np.random.default_rng(seed)
    comp, swaps = {}, {}
    keys = rng.random((count, n))
    for s in range(count):
        perm = sorted(range(n), key=lambda t: (keys[s][t], t))
        A, B = perm[:h], perm[h:2 * h]
        for i in range(R):
            for j in range(i + 1, R):
                d1 = sum(X[j][t] for t in A) / h - sum(X[i][t] for t in A) / h
                d2 = sum(X[j][t] for t in B) / h - sum(X[i][t] for t in B) / h
                if d1 == 0:
                    continue
                k = math.floor(round(abs(d1) / width, 9))
                comp[k] = comp.get(k, 0) + 1
                swaps[k] = swaps.get(k, 0) + (d1 * d2 < 0)
    return comp, swaps


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), runs=st.integers(2, 5), topics=st.integers(2, 9),
       width=st.sampled_from([0.01, 0.05, 0.1]))
def test_swap_counts_are_the_loops(seed, runs, topics, width):
    rng = np.random.default_rng(seed)
    X = np.round(rng.random((runs, topics)), 2)
    got = sw.counts({"m": X}, 30, seed, width)["m"]
    comp, swaps = swaps_by_loops(X.tolist(), 30, seed, width)
    for k in range(max(len(got[0]), max(comp, default=-1) + 1)):
        c = int(got[0][k]) if k < len(got[0]) else 0
        s_ = int(got[1][k]) if k < len(got[1]) else 0
        # the loops do the same floating-point operations (sum, divide, subtract)
        # as the vectorised code, so even differences on a bin edge agree
        assert c == comp.get(k, 0), (k, got, comp)
        assert s_ == swaps.get(k, 0)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), topics=st.integers(2, 12), data=st.data())
def test_swap_counts_with_a_set_size_are_the_loops(seed, topics, data):
    h = data.draw(st.integers(1, topics // 2))
    rng = np.random.default_rng(seed)
    X = np.round(rng.random((4, topics)), 2)
    comp_, swaps_, _ = sw.counts({"m": X}, 20, seed, 0.05, set_size=h)["m"]
    comp, swaps = swaps_by_loops(X.tolist(), 20, seed, 0.05, h)
    assert {k: int(v) for k, v in enumerate(comp_) if v} == comp
    assert {k: int(v) for k, v in enumerate(swaps_) if comp_[k]} == \
        {k: swaps.get(k, 0) for k in comp}


def test_swap_counts_do_not_depend_on_the_chunk(monkeypatch):
    mats = _matrices(seed=9, runs=6, topics=20)
    a = sw.counts(mats, 57, 3, 0.01)
    monkeypatch.setattr(sw, "CHUNK_CELLS", 50)
    b = sw.counts(mats, 57, 3, 0.01)
    for m in mats:
        assert np.array_equal(a[m][0], b[m][0]) and np.array_equal(a[m][1], b[m][1])


def test_min_difference():
    comp = np.array([10, 10, 10, 10, 0, 10])
    assert sw.min_difference(comp, np.array([5, 2, 0, 0, 0, 0]), 0.01, 0.05) == \
        pytest.approx(0.02)
    assert sw.min_difference(comp, np.array([0, 0, 0, 0, 0, 0]), 0.01, 0.05) == 0.0
    assert sw.min_difference(comp, np.array([0, 0, 0, 0, 0, 1]), 0.01, 0.05) is None


def test_summary_swap_rate_is_the_bins():
    mats = _matrices(seed=4, runs=5, topics=16)
    rep = meta.run(RUNS5, mats, meta.Options(tests=("t",), splits=40, seed=7))
    for m in mats:
        bins = [r for r in rep.table("swap").records if r["measure"] == m]
        rate = sum(r["swaps"] for r in bins) / sum(r["comparisons"] for r in bins)
        row = next(r for r in rep.table("summary").records if r["measure"] == m)
        assert row["swap_rate"] == pytest.approx(rate)
        comp, swaps = swaps_by_loops(mats[m].tolist(), 40, 7, 0.01)
        assert sum(r["comparisons"] for r in bins) == sum(comp.values())
        assert sum(r["swaps"] for r in bins) == sum(swaps.values())


# --- correlation ---------------------------------------------------------------------------

def test_correlation_table():
    mats = _matrices(seed=11, measures=("A", "B", "C"))
    mats["C"] = -mats["C"]          # a lower-is-better measure ranks the other way
    rep = meta.run(RUNS5, mats, meta.Options(tests=("t",), splits=5),
                   higher_is_better={"A": True, "B": True, "C": False})
    means = {m: mats[m].mean(axis=1) * (1 if m != "C" else -1) for m in mats}
    for r in rep.table("correlation").records:
        x, y = means[r["measure_a"]], means[r["measure_b"]]
        assert r["kendall_tau"] == pytest.approx(kendall_tau_b_by_counting(x, y))
        assert r["tau_ap_ab"] == pytest.approx(tau_ap_by_definition(list(x), list(y)))
        assert r["tau_ap_ba"] == pytest.approx(tau_ap_by_definition(list(y), list(x)))
        assert r["tau_ap"] == pytest.approx((r["tau_ap_ab"] + r["tau_ap_ba"]) / 2)


# --- estimates and ties ----------------------------------------------------------------------


def test_estimate_is_announced(monkeypatch):
    monkeypatch.setattr(meta.report, "ESTIMATE_AFTER_SECONDS", 0.0)
    seen = []
    mats = _matrices(seed=3, topics=30)
    meta.run(RUNS5, mats, meta.Options(tests=("randomization",), samples=5000, splits=5),
             estimate=lambda s, what: seen.append((s, what)))
    assert len(seen) == 1 and seen[0][0] > 0 and "5,000 resamples" in seen[0][1]


def test_ties_are_found_as_np_unique_finds_them():
    """meta's tie check (tau_ap empty, the tie warning) without np.unique
    (which imports numpy.ma): the same answer as np.unique on every array."""
    from ipsoeval.analyses.meta.report import _tied
    rng = np.random.default_rng(4)
    cases = [np.array([0.0, -0.0]), np.array([1.0]), np.array([]), np.array([np.inf, np.inf]),
             np.array([0.3, 0.1, 0.2]), np.array([0.1 + 0.2, 0.3])]
    cases += [rng.integers(0, 6, size=rng.integers(1, 9)).astype(float) / 4 for _ in range(200)]
    for v in cases:
        assert _tied(v) == (np.unique(v).size < v.size), v
    assert math.isnan(tau_ap([0.1, 0.2, 0.2], [0.3, 0.1, 0.2]))     # a tie: empty
    assert not math.isnan(tau_ap([0.1, 0.2, 0.3], [0.3, 0.1, 0.2]))


def test_no_calibration_run_when_the_tests_are_surely_quick(monkeypatch):
    """The estimate's timed run (CALIBRATION_SAMPLES resamples) is left out
    when even MIN_CELL_RATE -- 29x below the slowest rate measured -- would
    finish under ESTIMATE_AFTER_SECONDS; the report is the same bytes."""
    from ipsoeval.analyses.meta import report as mr
    mats = _matrices(seed=3, topics=30)
    opts = meta.Options(tests=("randomization",), samples=5000, splits=5)
    calls = []
    real = mr.registry.run

    def spy(name, *a, **k):
        calls.append(k.get("samples"))
        return real(name, *a, **k)
    monkeypatch.setattr(mr.registry, "run", spy)
    seen = []
    quiet = meta.run(RUNS5, mats, opts, estimate=lambda s, what: seen.append(s))
    assert mr.CALIBRATION_SAMPLES not in calls and not seen
    calls.clear()
    monkeypatch.setattr(mr, "MIN_CELL_RATE", 1.0)          # a machine this slow: timed
    timed = meta.run(RUNS5, mats, opts, estimate=lambda s, what: seen.append(s))
    assert calls[0] == mr.CALIBRATION_SAMPLES             # (announced only past 10 s)
    assert [t.records for t in quiet.tables] == [t.records for t in timed.tables]
