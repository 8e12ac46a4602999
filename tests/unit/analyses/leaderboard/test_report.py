"""The statistics of ``ipsoeval leaderboard`` against outside references.

References: exact enumeration of every within-topic permutation (the
randomised Tukey HSD's null distribution), a slow scalar implementation of
the documented random stream written here from the docstring (the compiled
core and the numpy twin must give the same bytes), statsmodels' two-way
ANOVA with scipy's studentized range (Tukey HSD), scipy's t interval, and
brute force over letter assignments (Piepho 2004's compact letter display).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipsoeval.analyses import leaderboard as lb
from ipsoeval.stats import letters as cld
from ipsoeval.stats import randhsd

M64 = (1 << 64) - 1
G = 0x9E3779B97F4A7C15


# --- the random stream, written from randhsd's docstring ------------------------------

def _mix(z):
    z &= M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def slow_ranges(X, samples, seed, first=0):
    """One sample at a time, pure Python ints and floats."""
    k, n = X.shape
    root = _mix(seed + G)
    out = []
    for b in range(first, first + samples):
        key = _mix(root + (b + 1) * G)
        c = 0
        sums = [0.0] * k
        for t in range(n):
            perm = list(range(k))
            for i in range(k - 1, 0, -1):
                c += 1
                r = _mix(key + c * G)
                j = (r * (i + 1)) >> 64
                perm[i], perm[j] = perm[j], perm[i]
            for j in range(k):
                sums[j] += float(X[perm[j], t])
        means = [s / n for s in sums]
        out.append(max(means) - min(means))
    return np.array(out)


@pytest.mark.parametrize("k, n", [(2, 1), (2, 5), (3, 4), (5, 7), (9, 3)])
def test_stream_matches_slow_reference_both_cores(k, n, monkeypatch):
    rng = np.random.default_rng(k * 10 + n)
    X = rng.random((k, n))
    want = slow_ranges(X, 40, 7, first=3)
    got_np = randhsd.ranges_numpy(np.ascontiguousarray(X.T), 7, 3, 40)
    assert got_np.tobytes() == want.tobytes()
    if randhsd.compiled():
        out = np.empty(40)
        from ipsoeval.reading.core import CORE
        CORE.hsd_ranges(np.ascontiguousarray(X.T), n, k, 7, 3, out)
        assert out.tobytes() == want.tobytes()
    monkeypatch.setenv("IPSOEVAL_CORE", "python")
    assert randhsd.ranges(X, 43, 7)[3:].tobytes() == want.tobytes()


def test_huge_seed_is_taken_mod_2_64():
    X = np.random.default_rng(1).random((3, 4))
    s = (1 << 70) + 5
    assert randhsd.ranges(X, 10, s).tobytes() == slow_ranges(X, 10, s & M64).tobytes()


@pytest.mark.parametrize("threads", ["1", "2", "3"])
def test_same_bytes_whatever_the_threads_and_sample_count(threads, monkeypatch):
    X = np.random.default_rng(5).random((6, 30))
    monkeypatch.setenv("IPSOEVAL_THREADS", "1")
    ref = randhsd.ranges(X, 500, 11)
    monkeypatch.setenv("IPSOEVAL_THREADS", threads)
    assert randhsd.ranges(X, 500, 11).tobytes() == ref.tobytes()
    assert randhsd.ranges(X, 77, 11).tobytes() == ref[:77].tobytes()   # a prefix


@pytest.mark.parametrize("threads", ["1", "2"])
def test_units_of_work_do_not_change_the_samples(threads, monkeypatch):
    """Small samples go to the threads in units of many samples (a unit of 32
    samples of 12 runs x 50 topics is shorter than a thread hand-off); the
    bytes are those of the scalar reference, whatever the unit."""
    assert randhsd.block_size(50, 12) > randhsd.BLOCK            # the leaderboard's case
    assert randhsd.block_size(5000, 100) == randhsd.BLOCK        # large: unchanged
    X = np.random.default_rng(8).random((4, 6))
    monkeypatch.setenv("IPSOEVAL_THREADS", threads)
    monkeypatch.setattr(randhsd, "_UNIT_WORK", 24 * 50)          # 50 samples a unit
    assert randhsd.block_size(6, 4) == 50
    got = randhsd.ranges(X, 130, 9)                              # 50 + 50 + 30
    assert got.tobytes() == slow_ranges(X, 130, 9).tobytes()
    seen = []
    randhsd.ranges(X, 130, 9, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(0, 130), (50, 130), (100, 130), (130, 130)]


def test_compiled_and_numpy_paths_agree_in_the_analysis(monkeypatch):
    X = np.random.default_rng(2).random((5, 25))
    opts = lb.Options(samples=300, seed=3)
    inp = [lb.MeasureInput("m", X, True, "interval")]
    a = lb.analyse(list("abcde"), 25, inp, opts)
    monkeypatch.setenv("IPSOEVAL_CORE", "python")
    b = lb.analyse(list("abcde"), 25, inp, opts)
    for t in ("leaderboard", "pairs", "resolution"):
        assert a.table(t).records == b.table(t).records


# --- exact null distribution by enumeration -----------------------------------------

def exact_sf(X):
    """P(range ≥ d) for every d: all (k!)^n within-topic permutations."""
    k, n = X.shape
    perms = list(itertools.permutations(range(k)))
    rngs = []
    for combo in itertools.product(perms, repeat=n):
        sums = np.zeros(k)
        for t, p in enumerate(combo):
            sums += X[list(p), t]
        m = sums / n
        rngs.append(m.max() - m.min())
    return np.sort(np.array(rngs))


def test_monte_carlo_p_values_converge_to_the_exact_ones():
    X = np.array([[0.9, 0.7, 0.8, 0.6],
                  [0.5, 0.6, 0.4, 0.7],
                  [0.1, 0.3, 0.2, 0.4]])
    exact = exact_sf(X)                         # 6^4 = 1,296 permutation sets
    means = X.mean(axis=1)
    B = 200_000
    null = randhsd.ranges(X, B, 42)
    p = randhsd.pvalues(means, null, tol=1e-12)
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        d = abs(means[i] - means[j])
        pe = (exact >= d - 1e-12).mean()
        sd = math.sqrt(pe * (1 - pe) / B)
        assert abs(p[i, j] - pe) < 5 * sd + 2 / B, (i, j, p[i, j], pe)
    # and the counting rule: (count + 1) / (B + 1)
    d = abs(means[0] - means[2])
    assert p[0, 2] == ((null >= d - 1e-12).sum() + 1) / (B + 1)


def test_null_range_is_the_observed_range_for_identical_topics():
    # every topic the same row: a permutation sets run sums from one permutation
    # per topic, so the range takes few values; with one topic it is constant
    X = np.array([[1.0], [0.25], [0.5]])
    null = randhsd.ranges(X, 50, 1)
    assert np.all(null == 0.75)


# --- Tukey HSD from the two-way ANOVA: statsmodels + scipy -----------------------------

def test_tukey_two_way_against_statsmodels():
    pd = pytest.importorskip("pandas")
    smf = pytest.importorskip("statsmodels.formula.api")
    sm = pytest.importorskip("statsmodels.api")
    from scipy import stats as ss
    rng = np.random.default_rng(9)
    k, n = 5, 30
    X = rng.beta(2, 3, n)[None, :] + np.linspace(0, 0.2, k)[:, None] + rng.normal(0, .1, (k, n))
    runs = [f"r{i}" for i in range(k)]
    rep = lb.analyse(runs, n, [lb.MeasureInput("m", X, True, "interval")],
                     lb.Options(samples=200))
    df = pd.DataFrame({"y": X.ravel(), "run": np.repeat(runs, n),
                       "topic": np.tile([f"t{t}" for t in range(n)], k)})
    fit = smf.ols("y ~ C(run) + C(topic)", data=df).fit()
    table = sm.stats.anova_lm(fit)
    mse = table.loc["Residual", "mean_sq"]
    dfr = table.loc["Residual", "df"]
    assert dfr == (k - 1) * (n - 1)
    means = X.mean(axis=1)
    for r in rep.table("pairs").records:
        a, b = runs.index(r["run_a"]), runs.index(r["run_b"])
        q = abs(means[a] - means[b]) / math.sqrt(mse / n)
        assert r["tukey_statistic"] == pytest.approx(q, rel=1e-9)
        assert r["tukey_p_value"] == pytest.approx(ss.studentized_range.sf(q, k, dfr),
                                                   rel=1e-7, abs=1e-12)


def test_mean_ci_against_scipy():
    from scipy import stats as ss
    X = np.random.default_rng(4).random((4, 17))
    rep = lb.analyse(list("abcd"), 17, [lb.MeasureInput("m", X, True, None)],
                     lb.Options(samples=50, ci=0.9))
    for r in rep.table("leaderboard").records:
        x = X["abcd".index(r["run"])]
        ci = ss.ttest_1samp(x, 0).confidence_interval(0.9)
        assert r["mean"] == pytest.approx(x.mean(), rel=1e-12)
        assert (r["ci_low"], r["ci_high"]) == pytest.approx((ci.low, ci.high), rel=1e-10)


# --- compact letter display ------------------------------------------------------------

def check_display(sig, shown):
    k = sig.shape[0]
    toks = [set(cld.parse(s)) for s in shown]
    assert all(toks)
    for i in range(k):
        for j in range(i + 1, k):
            assert bool(toks[i] & toks[j]) == (not sig[i, j]), (i, j)


def min_letters(sig):
    """Fewest letters any valid display has (brute force over maximal cliques)."""
    k = sig.shape[0]
    ok = ~sig
    cliques = []
    for r in range(1, k + 1):
        for c in itertools.combinations(range(k), r):
            if all(ok[a, b] for a, b in itertools.combinations(c, 2)):
                cliques.append(set(c))
    maximal = [c for c in cliques if not any(c < d for d in cliques)]
    need = {(a, b) for a in range(k) for b in range(a + 1, k) if ok[a, b]}
    for r in range(1, len(maximal) + 1):
        for combo in itertools.combinations(maximal, r):
            covered = {(a, b) for c in combo for a, b in itertools.combinations(sorted(c), 2)}
            if need <= covered and set().union(*combo) == set(range(k)):
                return r
    return 0


def test_piepho_example_3():
    # Piepho (2004), Example 3: 8 treatments; T1-T7, T1-T8, T2-T4, T2-T5, T3-T5 differ
    sig = np.zeros((8, 8), bool)
    for a, b in [(1, 7), (1, 8), (2, 4), (2, 5), (3, 5)]:
        sig[a - 1, b - 1] = sig[b - 1, a - 1] = True
    shown = cld.letters(sig)
    check_display(sig, shown)
    assert len({t for s in shown for t in s}) == min_letters(sig) == 5


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 7).flatmap(lambda k: st.tuples(
    st.just(k), st.lists(st.booleans(), min_size=k * k, max_size=k * k))))
def test_letters_represent_every_decision(case):
    k, bits = case
    sig = np.triu(np.array(bits, bool).reshape(k, k), 1)
    sig = sig | sig.T
    shown = cld.letters(sig)
    check_display(sig, shown)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=2, max_size=7), st.floats(0.01, 0.5))
def test_letters_are_minimal_for_threshold_decisions(means, thr):
    # HSD decisions are |mean_i - mean_j| > threshold: an interval graph, whose
    # maximal cliques (consecutive runs) are the fewest letters possible
    m = np.array(means)
    sig = np.abs(m[:, None] - m[None, :]) > thr
    shown = cld.letters(sig, order=np.argsort(-m, kind="stable"))
    check_display(sig, shown)
    assert len({t for s in shown for t in cld.parse(s)}) == min_letters(sig)


def test_letter_names_read_back():
    names = [cld.letter_name(i) for i in range(120)]
    assert names[:3] == ["a", "b", "c"] and names[26] == "A" and names[52] == "a2"
    assert len(set(names)) == 120
    assert cld.parse("".join(names)) == names


def test_best_run_gets_a():
    m = np.array([0.1, 0.9, 0.5])
    sig = np.abs(m[:, None] - m[None, :]) > 0.3
    shown = cld.letters(sig, order=[1, 2, 0])
    assert shown[1] == "a"


# --- the analysis: rank intervals, top group, resolution --------------------------------

def _analysis(X, higher=True, **kw):
    runs = [f"r{i}" for i in range(X.shape[0])]
    return runs, lb.analyse(runs, X.shape[1], [lb.MeasureInput("m", X, higher, "interval")],
                            lb.Options(**kw))


@pytest.mark.parametrize("higher", [True, False])
def test_rank_interval_top_group_resolution_by_definition(higher):
    rng = np.random.default_rng(12)
    X = rng.random((7, 40)) + np.linspace(0, 0.4, 7)[:, None]
    runs, rep = _analysis(X, higher, samples=999, seed=5)
    means = dict(zip(runs, X.mean(axis=1)))
    sig = {}
    for r in rep.table("pairs").records:
        sig[(r["run_a"], r["run_b"])] = sig[(r["run_b"], r["run_a"])] = r["significant"]
        assert r["diff"] == pytest.approx(r["mean_b"] - r["mean_a"])
    board = rep.table("leaderboard").records
    s = 1 if higher else -1
    assert [r["run"] for r in board] == sorted(runs, key=lambda x: -s * means[x])
    best = board[0]["run"]
    for r in board:
        me = r["run"]
        better = sum(1 for o in runs if o != me and sig[(me, o)] and s * means[o] > s * means[me])
        worse = sum(1 for o in runs if o != me and sig[(me, o)] and s * means[o] < s * means[me])
        assert (r["rank_best"], r["rank_worst"]) == (1 + better, len(runs) - worse)
        assert r["top_group"] == (me == best or not sig[(me, best)])
        assert r["rank_best"] <= r["rank"] <= r["rank_worst"]
    check_display(np.array([[a != b and sig[(a, b)] for b in runs] for a in runs]),
                  [next(r["letters"] for r in board if r["run"] == a) for a in runs])
    res = rep.table("resolution").records[0]
    sep = sum(1 for r in rep.table("pairs").records if r["significant"])
    assert res["n_separated"] == sep and res["n_pairs"] == 21 and res["n_runs"] == 7
    assert res["resolution"] == sep / 21
    assert res["n_top_group"] == sum(r["top_group"] for r in board)


def test_incomplete_topics_are_dropped_with_a_warning():
    X = np.random.default_rng(1).random((3, 10))
    X[1, 4] = np.nan
    runs, rep = _analysis(X, samples=99)
    assert any("1 of 10 topics" in w for w in rep.warnings)
    assert {r["n"] for r in rep.table("leaderboard").records} == {9}
    means = {r["run"]: r["mean"] for r in rep.table("leaderboard").records}
    assert means["r0"] == pytest.approx(np.delete(X[0], 4).mean())


def test_options_are_checked():
    from ipsoeval.errors import UsageError
    X = np.zeros((1, 3))
    with pytest.raises(UsageError, match="at least two"):
        _analysis(X)
    with pytest.raises(UsageError, match="--samples"):
        lb.Options(samples=0).check()
    with pytest.raises(UsageError, match="--ci"):
        lb.Options(ci=1.0).check()
    with pytest.raises(UsageError, match="--alpha"):
        lb.Options(alpha=0).check()


def test_constant_scores_nothing_separated():
    X = np.full((3, 5), 0.5)
    runs, rep = _analysis(X, samples=50)
    assert all(r["p_value"] == 1.0 and not r["significant"] for r in rep.table("pairs").records)
    assert {r["letters"] for r in rep.table("leaderboard").records} == {"a"}
    assert any("Tukey HSD" in w for w in rep.warnings)


def test_two_runs_is_the_paired_randomization_test_of_scipy():
    # with k = 2, permuting a topic's two scores flips the sign of its difference:
    # the randomised HSD is the two-sided paired permutation test of the mean
    from scipy import stats as ss
    rng = np.random.default_rng(8)
    a = rng.random(10)
    b = a + rng.normal(0.15, 0.2, 10)
    exact = ss.permutation_test((b, a), lambda x, y: np.mean(x - y), permutation_type="samples",
                                n_resamples=np.inf, alternative="two-sided").pvalue
    B = 100_000
    null = randhsd.ranges(np.array([a, b]), B, 1)
    p = randhsd.pvalues(np.array([a.mean(), b.mean()]), null, 1e-12)[0, 1]
    assert abs(p - exact) < 5 * math.sqrt(exact * (1 - exact) / B) + 2 / B


@pytest.mark.parametrize("k, df", [(3, 1001.0), (10, 5000.0), (50, 20000.0)])
def test_ptukey_large_df_against_scipy(k, df):
    # df > 1000 takes the Wilson-Hilferty bounds of the integration range
    from scipy import stats as ss

    from ipsoeval.special import ptukey
    q = np.array([1.0, 2.5, 3.5, 4.5, 5.5, 6.5])
    assert np.abs(ptukey.sf(q, k, df) - ss.studentized_range.sf(q, k, df)).max() < 1e-9
