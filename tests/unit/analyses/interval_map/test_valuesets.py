"""interval-map core: every fast path against plain enumeration of all runs,
plus the paper's facts (Ferrante, Ferro & Fuhr 2021)."""

from __future__ import annotations

import functools
import itertools
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np
import pytest

from ipsoeval.analyses.interval_map import cache as cache_mod
from ipsoeval.analyses.interval_map.ap import APSystem, ap_keys
from ipsoeval.analyses.interval_map.cache import cache_root
from ipsoeval.analyses.interval_map.enumerate import EnumSystem
from ipsoeval.analyses.interval_map.groups import GroupSystem
from ipsoeval.analyses.interval_map.valuesets import MapSpec, phi_values
from ipsoeval.errors import UsageError


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("IPSOEVAL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cache_mod, "_MEMORY", {})        # answers of other tests not reused


# ---------------------------------------------------------------- reference
def ref_value(spec: MapSpec, run, R):
    """Exact (Fraction) or 45-digit (Decimal) value of one run, from the definitions."""
    N = spec.N
    g = [spec.gains[x] for x in run]
    rel = [x > 0 for x in run]
    f = spec.family
    if f == "P":
        return Fraction(sum(rel), N)
    if f == "R":
        return Fraction(sum(rel), R)
    if f == "Success":
        return int(any(rel))
    if f == "RR":
        return next((Fraction(1, i) for i, x in enumerate(rel, 1) if x), Fraction(0))
    if f == "AP":
        s, c = Fraction(0), 0
        for i, x in enumerate(rel, 1):
            if x:
                c += 1
                s += Fraction(c, i)
        return s / R
    if f == "RBP":
        u, v = spec.p.numerator, spec.p.denominator     # v^(N-1)/(1-p) * RBP, an integer
        return sum(gi * u ** i * v ** (N - 1 - i) for i, gi in enumerate(g))
    disc = _discounts(f, spec.b, N)
    with localcontext() as ctx:
        ctx.prec = 45
        s = Decimal(0)
        for i, gi in enumerate(g):
            if gi:
                s += Decimal(gi.numerator) / Decimal(gi.denominator) * disc[i]
        return round(s, 38)


@functools.lru_cache(maxsize=None)
def _discounts(f, b, N):
    with localcontext() as ctx:
        ctx.prec = 45
        if f == "nDCGtrec":
            return [Decimal(2).ln() / Decimal(i + 1).ln() for i in range(1, N + 1)]
        return [Decimal(1) if i <= b else Decimal(b).ln() / Decimal(i).ln() for i in range(1, N + 1)]


def brute(spec: MapSpec, R: int | None = None, cap: int | None = None, level_caps=None):
    G = len(spec.gains)
    runs, vals = [], []
    for run in itertools.product(range(G), repeat=spec.N):
        if cap is not None and sum(x > 0 for x in run) > cap:
            continue
        if level_caps is not None and any(run.count(li) > c for li, c in enumerate(level_caps, 1)):
            continue
        runs.append(run)
        vals.append(ref_value(spec, run, R))
    distinct = sorted(set(vals))
    pos = {v: i + 1 for i, v in enumerate(distinct)}
    srt = sorted(vals)

    def rank(v, ties):
        if ties == "unq":
            return pos[v]
        import bisect
        less = bisect.bisect_left(srt, v)
        eq = bisect.bisect_right(srt, v) - less
        return {"min": less + 1, "max": less + eq, "mid": Fraction(2 * less + eq + 1, 2)}[ties]

    return runs, vals, distinct, rank


def check(spec, R=None, cap=None, ties=("unq",), sample=None, level_caps=None, seed=0):
    runs, vals, distinct, rank = brute(spec, R, cap, level_caps)
    idx = list(range(len(runs)))
    if sample and len(idx) > sample:
        rng = np.random.default_rng(seed)
        idx = sorted(rng.choice(len(runs), sample, replace=False).tolist())
        # always include the extremes
        lo = min(range(len(runs)), key=lambda i: vals[i])
        hi = max(range(len(runs)), key=lambda i: vals[i])
        idx = sorted(set(idx) | {lo, hi})
    levels = np.array([runs[i] for i in idx], dtype=np.int64)
    caps = None if cap is None else np.full(len(idx), cap)
    lc = None if level_caps is None else np.tile(level_caps, (len(idx), 1))
    for t in ties:
        res = phi_values(spec, levels, caps, ties=t, level_caps=lc)
        want = [rank(vals[i], t) for i in idx]
        assert res.phi == want, (spec, t)
        assert set(res.n_values) == {len(distinct)}
        assert set(res.n_universe) == {len(runs)}


# ---------------------------------------------------------------- paper facts
def test_dcg_b2_counts_from_the_paper():
    # §5.1: 24 distinct values at N=5, 768 at N=10, 24,576 at N=15
    for N, n in ((5, 24), (10, 768), (15, 24576)):
        spec = MapSpec("DCG", N, b=2)
        assert GroupSystem(spec, False).n_values(N) == n
    # and by enumeration at N = 10
    _, _, distinct, _ = brute(MapSpec("DCG", 10, b=2))
    assert len(distinct) == 768


def test_example_12_dcg_n4():
    spec = MapSpec("DCG", 4, b=2)
    runs = [(1, 1, 1, 1), (1, 1, 1, 0), (1, 1, 0, 1), (1, 0, 1, 1), (0, 1, 1, 1),
            (0, 0, 0, 1), (0, 0, 0, 0)]
    res = phi_values(spec, np.array(runs))
    assert res.phi == [12, 11, 10, 9, 9, 2, 1]
    assert res.n_values[0] == 12


def test_example_13_recall_surrogate():
    # N=2, R=2 and R=3: both topics map runs 00, 01, 10, 11 to 1, 2, 2, 3
    runs = np.array([(0, 0), (0, 1), (1, 0), (1, 1)])
    for R in (2, 3):
        res = phi_values(MapSpec("R", 2), runs, caps=np.full(4, R))
        assert res.phi == [1, 2, 2, 3]


def test_paper_closed_forms_rr_rbp05():
    # paper (0-based): RBP(1/2): phi = 2^N m ; RR: phi = N + 1 - 1/m.  Ours is 1-based.
    N = 12
    rng = np.random.default_rng(1)
    runs = rng.integers(0, 2, size=(200, N))
    rbp = phi_values(MapSpec("RBP", N, p=Fraction(1, 2)), runs)
    rr = phi_values(MapSpec("RR", N), runs)
    for run, a, b in zip(runs, rbp.phi, rr.phi):
        m = Fraction(ref_value(MapSpec("RBP", N, p=Fraction(1, 2)), run, None), 2 ** (N - 1)) / 2
        assert a == 2 ** N * m + 1
        m = ref_value(MapSpec("RR", N), run, None)
        assert b == (1 if m == 0 else N + 2 - 1 / m)


def test_rbp03_and_rbp05_same_map_and_dcg10_like_p():
    N = 9
    runs = np.array(list(itertools.product([0, 1], repeat=N)))
    a = phi_values(MapSpec("RBP", N, p=Fraction(3, 10)), runs).phi
    b = phi_values(MapSpec("RBP", N, p=Fraction(1, 2)), runs).phi
    assert a == b
    for n in (5, 10):
        runs = np.array(list(itertools.product([0, 1], repeat=n)))
        d = phi_values(MapSpec("DCG", n, b=10), runs)
        p = phi_values(MapSpec("P", n), runs)
        assert d.phi == p.phi and d.n_values == p.n_values


def test_closed_forms_large_n_instant():
    N = 1000
    runs = np.zeros((3, N), np.int64)
    runs[1, 0] = 1
    runs[2, :] = 1
    for fam in ("P", "R", "RR", "Success"):
        res = phi_values(MapSpec(fam, N), runs, caps=np.full(3, N))
        assert res.phi[0] == 1
    res = phi_values(MapSpec("RBP", N, p=Fraction(1, 2)), runs)
    assert res.phi == [1, 2 ** (N - 1) + 1, 2 ** N]
    assert phi_values(MapSpec("RR", N), runs).phi == [1, N + 1, N + 1]


# ---------------------------------------------------------------- fast paths vs enumeration
@pytest.mark.parametrize("N", [1, 2, 3, 6, 9])
def test_small_n_every_measure_every_tie_rule(N):
    ties = ("unq", "min", "max", "mid")
    for spec, R in [
        (MapSpec("P", N), None), (MapSpec("RR", N), None), (MapSpec("Success", N), None),
        (MapSpec("RBP", N, p=Fraction(1, 2)), None), (MapSpec("RBP", N, p=Fraction(3, 10)), None),
        (MapSpec("RBP", N, p=Fraction(4, 5)), None), (MapSpec("RBP", N, p=Fraction(19, 20)), None),
        (MapSpec("DCG", N, b=2), None), (MapSpec("DCG", N, b=3), None), (MapSpec("DCG", N, b=10), None),
        (MapSpec("nDCGtrec", N), 2), (MapSpec("nDCG", N, b=2), 2),
    ]:
        check(spec, R=R, ties=ties)
    for R in sorted({1, max(1, N // 2), N, N + 3}):
        check(MapSpec("R", N), R=R, cap=min(R, N), ties=ties)
        check(MapSpec("AP", N), R=R, cap=min(R, N), ties=ties)
        check(MapSpec("nDCG", N, b=2), R=R, cap=min(R, N), ties=ties)
        check(MapSpec("nDCGtrec", N), R=R, cap=min(R, N), ties=ties)


@pytest.mark.slow
@pytest.mark.parametrize("fam,kw", [("DCG", {"b": 2}), ("AP", {}), ("RBP", {"p": Fraction(4, 5)}),
                                    ("nDCGtrec", {}), ("RR", {}), ("P", {})])
def test_n16_against_enumeration(fam, kw):
    N = 16
    cap = 16 if fam != "AP" else 9
    check(MapSpec(fam, N, **kw), R=cap, cap=cap if fam in ("AP",) else None,
          ties=("unq", "mid"), sample=300, seed=N)


def test_n13_capped_ndcg_and_dcg_b10():
    check(MapSpec("nDCG", 13, b=2), R=5, cap=5, ties=("unq", "max"), sample=300)
    check(MapSpec("DCG", 13, b=10), ties=("unq", "min"), sample=200)


def test_graded_universe():
    g3 = (Fraction(0), Fraction(1), Fraction(2))
    check(MapSpec("DCG", 6, b=2, gains=g3), ties=("unq", "mid"))
    check(MapSpec("nDCGtrec", 5, gains=(Fraction(0), Fraction(1), Fraction(3))), ties=("unq", "max"))
    check(MapSpec("RBP", 5, p=Fraction(1, 2), gains=g3), ties=("unq", "min"))     # ties exist here
    check(MapSpec("RBP", 5, p=Fraction(4, 5), gains=g3), ties=("unq",))
    check(MapSpec("nDCG", 5, b=2, gains=g3), R=None, level_caps=(2, 1), ties=("unq", "mid"))


def test_graded_n10_group_path():
    g = (Fraction(0), Fraction(1), Fraction(2), Fraction(3))
    spec = MapSpec("DCG", 10, b=2, gains=g)
    gs = GroupSystem(spec, False)
    rng = np.random.default_rng(3)
    q = rng.integers(0, 4, size=(40, 10))
    res = phi_values(spec, q)
    # against the in-module enumeration (which sorts all 4^10 runs)
    es = EnumSystem(spec, None)
    assert res.phi == es.rank(q, "unq")
    assert res.n_values[0] == es.n_values == gs.n_values(10)


def test_ap_slices_and_cache_reuse(monkeypatch):
    monkeypatch.setattr(APSystem, "SLICE", 5000)   # force many slices
    N = 14
    rng = np.random.default_rng(5)
    q = rng.integers(0, 2, size=(60, N))
    caps = rng.integers(0, N + 1, size=60)
    q = np.array([r if r.sum() <= c else np.zeros(N, int) for r, c in zip(q, caps)])
    a = phi_values(MapSpec("AP", N), q, caps)
    b = phi_values(MapSpec("AP", N), q, caps)              # from the cache
    assert a.phi == b.phi and a.n_values == b.n_values
    assert (cache_root() / "interval-map").exists()
    for K in sorted(set(caps.tolist()))[:4]:
        _, vals, distinct, rank = brute(MapSpec("AP", N), R=max(K, 1), cap=K)
        sel = [i for i in range(60) if caps[i] == K]
        for i in sel:
            v = ref_value(MapSpec("AP", N), tuple(q[i]), max(K, 1))
            assert a.phi[i] == rank(v, "unq")
            assert a.n_values[i] == len(distinct)


def test_dcg_n30_counts_and_exactness():
    # the product formula and the meet-in-the-middle agree at N=30; phi of the
    # ideal run is |M(U)| and of the empty run 1
    spec = MapSpec("DCG", 30, b=2)
    gs = GroupSystem(spec, False)
    n = gs.n_values(30)
    assert n == 24 * 8 * 4 * 2 ** 20
    runs = np.zeros((2, 30), np.int64)
    runs[1] = 1
    assert phi_values(spec, runs).phi == [1, n]


def test_generic_enumeration_path():
    N = 6

    def esl(runs):  # rank of the first relevant document
        rel = runs > 0
        return np.where(rel.any(axis=1), rel.argmax(axis=1) + 1.0, np.nan)

    spec = MapSpec("generic", N, name="ESL", values_fn=esl)
    runs = np.array(list(itertools.product([0, 1], repeat=N)))
    res = phi_values(spec, runs, raw_values=esl(runs))
    want = [None if not r.any() else int(np.argmax(r)) + 1 for r in runs]
    assert res.phi == want
    assert res.n_values[0] == N


# ---------------------------------------------------------------- AP slices, threads, cache
@pytest.mark.parametrize("threads", [1, 2])
def test_ap_many_tiny_slices_every_cap_against_enumeration(monkeypatch, threads):
    monkeypatch.setattr(APSystem, "SLICE", 64)            # hundreds of slices, most without queries
    N = 12
    runs = np.array(list(itertools.product([0, 1], repeat=N)))
    rng = np.random.default_rng(7)
    q = runs[rng.choice(len(runs), 150, replace=False)]
    caps = np.maximum(q.sum(axis=1), rng.integers(0, N + 1, size=150))
    keys = ap_keys(N, q > 0)
    phi, nv = APSystem(N).rank_distinct(keys, caps, threads=threads, every_cap=True)
    for K in range(N + 1):
        _, vals, distinct, rank = brute(MapSpec("AP", N), R=max(K, 1), cap=K)
        assert nv[K] == len(distinct)
        for i in np.flatnonzero(caps == K):
            assert phi[i] == rank(ref_value(MapSpec("AP", N), tuple(q[i]), max(K, 1)), "unq")


def test_ap_key_outside_the_value_set_is_an_internal_error():
    with pytest.raises(AssertionError):
        APSystem(6).rank_distinct(np.array([1]), np.array([6]))    # AP * R * 60 = 1: no run


def test_ap_answers_come_from_the_cache(monkeypatch):
    N = 12
    rng = np.random.default_rng(9)
    q = rng.integers(0, 2, size=(40, N))
    first = phi_values(MapSpec("AP", N), q)
    files = list((cache_root() / "interval-map").rglob("*.npz"))
    assert len(files) == 1 and files[0].stat().st_size < 10_000
    cache_mod._MEMORY.clear()                            # a new process: the disk only

    def no_pass(*a, **k):
        raise AssertionError("a pass over the value set although every answer is cached")

    monkeypatch.setattr(APSystem, "rank_distinct", no_pass)
    again = phi_values(MapSpec("AP", N), q)
    assert again.phi == first.phi and again.n_values == first.n_values
    with pytest.raises(AssertionError, match="a pass"):     # a cap not asked before: a pass
        phi_values(MapSpec("AP", N), q[:1] * 0, caps=np.array([3]))


def test_ap_cache_off_reads_and_writes_nothing_and_caps_added_later():
    N = 10
    rng = np.random.default_rng(11)
    q = rng.integers(0, 2, size=(30, N))
    a = phi_values(MapSpec("AP", N), q, use_cache=False)
    assert not (cache_root() / "interval-map").exists()
    caps = np.maximum(q.sum(axis=1), 4)
    b = phi_values(MapSpec("AP", N), q, caps, use_cache=False)   # same process, new caps
    _, vals, distinct, rank = brute(MapSpec("AP", N), R=N, cap=N)
    assert a.phi == [rank(ref_value(MapSpec("AP", N), tuple(r), N), "unq") for r in q]
    for i, (r, K) in enumerate(zip(q, caps)):
        _, _, d, rk = brute(MapSpec("AP", N), R=int(K), cap=int(K))
        assert b.phi[i] == rk(ref_value(MapSpec("AP", N), tuple(r), int(K)), "unq")
        assert b.n_values[i] == len(d)


def test_cache_of_an_older_version_is_removed():
    old = cache_root() / "interval-map" / "v1" / "abc"
    old.mkdir(parents=True)
    (old / "v0000.npy").write_bytes(b"x" * 100)
    phi_values(MapSpec("AP", 8), np.zeros((1, 8), np.int64))
    assert not old.parent.exists()
    assert (cache_root() / "interval-map" / f"v{cache_mod.CACHE_VERSION}").exists()


def test_ap_beyond_63_bit_keys_is_a_usage_error():
    with pytest.raises(UsageError, match="N <= 36"):
        phi_values(MapSpec("AP", 37), np.zeros((1, 37), np.int64))


def test_enumerated_universes_report_progress():
    seen = []
    g3 = (Fraction(0), Fraction(1), Fraction(2))
    lc = np.array([[2, 1], [1, 1], [2, 1]])
    phi_values(MapSpec("nDCG", 5, b=2, gains=g3, name="nDCG@5"), np.zeros((3, 5), np.int64),
               level_caps=lc, progress=lambda *a: seen.append(a))
    assert seen[0] == ("nDCG@5 universes", 0, 2) and seen[-1] == ("nDCG@5 universes", 2, 2)


def test_ap_cache_beyond_its_limit_keeps_the_last_answers(monkeypatch):
    monkeypatch.setattr(cache_mod, "MAX_ENTRIES", 5)
    N = 8
    runs = np.array(list(itertools.product([0, 1], repeat=N)))
    phi_values(MapSpec("AP", N), runs[1:5])
    last = phi_values(MapSpec("AP", N), runs[10:14])
    (path,) = (cache_root() / "interval-map").rglob("*.npz")
    with np.load(path) as z:
        assert sorted(z["phi"].tolist()) == sorted(last.phi)


@pytest.mark.parametrize("mode", ["unq", "count"])
@pytest.mark.parametrize("gains", [(0, 1), (0, 1, 2)])
def test_group_memory_estimate_covers_the_measured_peak(mode, gains):
    """--max-memory refuses before the work: the estimate of the
    meet-in-the-middle halves is at least their measured peak (tracemalloc),
    counting ties too (--ties min|mid|max enumerates every (value,
    population) entry: an nDCG@30 with gains 0/1/2 once peaked at 2.5 GB
    against an estimate of 0.9 GB, over the 2 GiB default)."""
    import tracemalloc
    spec = MapSpec("nDCGtrec", 20, gains=tuple(Fraction(g) for g in gains), name="nDCG@20")
    gs = GroupSystem(spec, rational=False)
    tracemalloc.start()
    try:
        gs._get_sides(mode, 2, None)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    est = gs.estimate_bytes(2, mode)
    assert peak <= est <= 1.5 * peak + (2 << 20), (peak, est)
