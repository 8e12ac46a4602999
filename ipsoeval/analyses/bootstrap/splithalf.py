"""Split-half reliability of significance tests (Craswell et al. 2021, §4.3).

The topics are split S times at random into two halves.  For every pair of
runs, every test and every split, each half gives a direction (which run has
the better aggregate — mean or median — on that half) and a decision
(p < alpha).  The two halves then

* **agree** — same direction, and significant in both or in neither;
* **partially agree** — same direction, significant in exactly one; or
  opposite directions, significant in neither;
* **disagree** — opposite directions, significant in at least one.

Directions are -1, 0 (the aggregates are equal), +1; a tie on one side and a
direction on the other count as different directions.

The p-values are those of :mod:`ipsoeval.stats.tests` (``paired_t``,
``sign_test``, ``wilcoxon``, ``ranksum`` with a = the first run of the pair,
b = the second).  Calling them on every (split, half, pair) would sort
S x 2 x P rows of n/2 values; instead the per-half sufficient statistics of
all splits come from matrix products of per-topic indicator matrices with the
(topics x splits) half-membership matrix, and the p-values from the same
formulas (paired t and the exact sign test always, by the registry's
vectorised functions :func:`ipsoeval.stats.registry.p_t_sums` and
:func:`~ipsoeval.stats.registry.p_sign_counts`; the normal approximations
of the Wilcoxon tests with tie correction where ``ipsoeval.stats.tests`` uses
them: more than 50 pairs, more than 8 values per sample).  Smaller halves go
through ``ipsoeval.stats.tests`` itself.  Tests check both routes agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from ipsoeval.analyses.bootstrap import AGGREGATES, TESTS  # noqa: F401
from ipsoeval.analyses.bootstrap.resample import tie_tolerance
from ipsoeval.special import dist
from ipsoeval.stats import registry

AGREE, PARTIAL, DISAGREE = 0, 1, 2

# Largest half size for which ipsoeval.stats.tests may use exact methods.
_WILCOXON_EXACT_MAX = 50
_RANKSUM_EXACT_MAX = 8

# Memory budget (bytes) of the per-split-batch count matrices.
_BUDGET = 1 << 27

# Rank-sum: up to this many distinct scores, U comes from a matrix product.
_DENSE_VALUES = 4096

Progress = Callable[[int, int], None]


def classify(dir_a, sig_a, dir_b, sig_b) -> np.ndarray:
    """Agreement class of two halves' outcomes (arrays broadcast).

    dir_*: -1, 0, +1 (which run is better on that half); sig_*: bool.
    Returns AGREE (0), PARTIAL (1) or DISAGREE (2).
    """
    dir_a = np.asarray(dir_a)
    dir_b = np.asarray(dir_b)
    nsig = np.asarray(sig_a, dtype=np.int8) + np.asarray(sig_b, dtype=np.int8)
    same = dir_a == dir_b
    return np.where(same,
                    np.where(nsig == 1, PARTIAL, AGREE),
                    np.where(nsig == 0, PARTIAL, DISAGREE)).astype(np.int8)


def pairs_of(n_runs: int) -> tuple[np.ndarray, np.ndarray]:
    """All pairs (i, j), i < j, in row-major order."""
    i, j = np.triu_indices(n_runs, k=1)
    return i.astype(np.int64), j.astype(np.int64)


def split_matrix(rng: np.random.Generator, n: int, splits: int) -> np.ndarray:
    """(n, splits) float64 0/1: topic t is in the first half of split s.

    Split s is ``rng.permutation(n)``; its first floor(n/2) topics form
    the first half, the rest (one more when n is odd) the second.
    """
    h = np.zeros((n, splits))
    half = n // 2
    for s in range(splits):
        perm = rng.permutation(n)
        h[perm[:half], s] = 1.0
    return h


# ------------------------------------------------------------ p-values

def _p_wilcoxon_normal(count, r_plus, tie):
    """Two-sided normal-approximation signed-rank p-value, tie corrected,
    no continuity correction (as stats.tests.wilcoxon for n > 50)."""
    c = np.asarray(count, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        mn = c * (c + 1.0) * 0.25
        se = np.sqrt((c * (c + 1.0) * (2.0 * c + 1.0) - tie / 2.0) / 24.0)
        z = (r_plus - mn) / se
    return 2.0 * dist.np_ndtr(-np.abs(z))


def _p_ranksum_normal(u1, n1, n2, tie):
    """Two-sided normal-approximation Mann–Whitney p-value with tie and
    continuity correction (as stats.tests.ranksum for samples > 8)."""
    n1 = np.asarray(n1, dtype=np.float64)
    n2 = np.asarray(n2, dtype=np.float64)
    u = np.maximum(u1, n1 * n2 - u1)
    nn = n1 + n2
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.sqrt(n1 * n2 / 12.0 * ((nn + 1) - tie / (nn * (nn - 1))))
        z = (u - n1 * n2 / 2.0 - 0.5) / s
    return np.clip(2.0 * dist.np_ndtr(-z), 0.0, 1.0)


# ------------------------------------------------- per-test computations
# Each returns p-values of shape (2, splits, pairs): half 0 = the topics
# with h == 1, half 1 = the rest.

def _halves(h: np.ndarray) -> np.ndarray:
    return np.concatenate([h, 1.0 - h], axis=1)        # (n, 2S)


def _t_and_sign(d: np.ndarray, h: np.ndarray, tests: Sequence[str]) -> dict:
    """Paired t and sign test for all pairs and splits (d: (P, n), NaN where
    either run is undefined)."""
    P = d.shape[0]
    S = h.shape[1]
    hh = _halves(h)
    ok = ~np.isnan(d)
    dz = np.where(ok, d, 0.0)
    out = {}
    if ok.all():
        n = np.broadcast_to(hh.sum(axis=0), (P, 2 * S))
    else:
        n = np.rint(ok.astype(np.float32) @ hh.astype(np.float32)).astype(np.float64)
    if "t" in tests:
        s12 = np.concatenate([dz, dz * dz]) @ hh
        out["t"] = registry.get("t").from_sums(n, s12[:P], s12[P:])
    if "sign" in tests:
        km = np.concatenate([dz > 0, dz != 0]).astype(np.float32) @ hh.astype(np.float32)
        k = np.rint(km[:P]).astype(np.int64)
        m = np.rint(km[P:]).astype(np.int64)
        key = k * (int(m.max(initial=0)) + 1) + m
        uniq, inv = np.unique(key, return_inverse=True)
        mu = uniq % (int(m.max(initial=0)) + 1)
        ku = uniq // (int(m.max(initial=0)) + 1)
        out["sign"] = registry.get("sign").from_sums(ku, mu)[inv].reshape(P, 2 * S)
    return {key: v.reshape(P, 2, S).transpose(1, 2, 0) for key, v in out.items()}


def _sort_abs(d: np.ndarray):
    """|d| (NaN as 0) sorted within each pair, and the sorting order."""
    a = np.abs(np.where(np.isnan(d), 0.0, d))
    order = np.argsort(a, axis=1, kind="stable")
    return order, np.take_along_axis(a, order, axis=1)


def _signed_rank_groups(d: np.ndarray, order, srt):
    """Tie groups of |d| per pair, over non-zero defined differences.

    Returns (row, topic, first, n_groups): ``row`` is the group row of
    each (pair, topic) entry — groups of one pair are consecutive and in
    increasing |d|; two rows per group, 2g for negative and 2g+1 for
    positive differences — ``first`` the first group of each pair.
    """
    P, n = d.shape
    a = np.abs(np.where(np.isnan(d), 0.0, d))
    new = np.ones((P, n), dtype=bool)
    new[:, 1:] = srt[:, 1:] != srt[:, :-1]
    gid_sorted = np.cumsum(new.ravel()).reshape(P, n) - 1   # global group id
    gid = np.empty_like(gid_sorted)
    np.put_along_axis(gid, order, gid_sorted, axis=1)
    first = gid_sorted[:, 0]
    n_groups = int(gid_sorted[-1, -1]) + 1
    nz = a != 0
    pos = np.where(np.isnan(d), False, d > 0)
    pr, tp = np.nonzero(nz)
    row = 2 * gid[pr, tp] + pos[pr, tp]
    return row, tp, first, n_groups


def _wilcoxon_fast(d: np.ndarray, h: np.ndarray, progress_step=None) -> np.ndarray:
    """Signed-rank p-values (2, S, P) of every pair on both halves."""
    order, srt = _sort_abs(d)
    n_groups = int((srt[:, 1:] != srt[:, :-1]).sum()) + srt.shape[0]
    nonzero = int((srt != 0).sum())
    if 4 * n_groups <= nonzero:
        return _wilcoxon_groups(d, h, order, srt, progress_step)
    return _wilcoxon_elements(d, h, order, srt, progress_step)


def _wilcoxon_groups(d: np.ndarray, h: np.ndarray, order, srt, progress_step=None) -> np.ndarray:
    """Signed-rank p-values for data with few distinct |d| per pair: the
    counts of each (pair, |d| value, sign) group in the first half of every
    split are one sparse product with the split matrix."""
    # here: scipy.sparse loads scipy's array-API layer (about 0.25 s of CPU
    # without scipy.special), which leaderboard and report, importing this
    # module through bootstrap.report, never use
    from scipy import sparse

    P, n = d.shape
    S = h.shape[1]
    row, tp, first, G = _signed_rank_groups(d, order, srt)
    mat = sparse.csr_matrix((np.ones(row.size), (row, tp)), shape=(2 * G, n))
    total = np.asarray(mat.sum(axis=1)).ravel()                 # (2G,)
    # pair of each group; group counts are cumulated within a pair
    pair_of_group = np.repeat(np.arange(P), np.diff(np.append(first, G)))
    out = np.empty((2, S, P))
    batch = max(1, min(S, _BUDGET // max(16 * 2 * G, 1)))
    for s0 in range(0, S, batch):
        hb = h[:, s0:s0 + batch]
        ca = mat @ hb                                       # (2G, b)
        for half, c2 in enumerate((ca, total[:, None] - ca)):
            neg = c2[0::2]
            pos = c2[1::2]
            c = neg + pos                                   # (G, b)
            cum = np.cumsum(c, axis=0)
            below = cum - c
            # subtract what earlier pairs contributed
            base = below[first]                             # (P, b)
            below -= base[pair_of_group]
            avg = below + (c + 1.0) / 2.0
            r_plus = np.add.reduceat(pos * avg, first, axis=0)
            count = np.add.reduceat(c, first, axis=0)
            tie = np.add.reduceat(c ** 3 - c, first, axis=0)
            out[half, s0:s0 + hb.shape[1]] = _p_wilcoxon_normal(count, r_plus, tie).T
        if progress_step is not None:
            progress_step(hb.shape[1])
    return out


def _wilcoxon_elements(d: np.ndarray, h: np.ndarray, order, srt, progress_step=None) -> np.ndarray:
    """Signed-rank p-values for data with many distinct |d| (few ties).

    The non-zero differences of every pair are sorted by |d| once, pairs
    one after the other.  In split s, with m_e = 1 for an element in the
    first half and c_e the running count of first-half elements (one
    cumulative sum over all pairs), an untied element's rank within the
    first half of its pair is c_e − base (base: first-half elements of
    earlier pairs), and within the second half its position in the pair
    minus that.  Elements of tie groups get the mid-rank
    (c(before group) + c(end of group)) / 2 + 1/2 instead, and only groups
    of two or more enter the tie term.
    """
    P, n = d.shape
    S = h.shape[1]
    keep = srt != 0
    e_topic = order[keep].astype(np.intp)                  # row-major: pairs consecutive
    e_val = srt[keep]
    e_pair = np.nonzero(keep)[0]
    e_pos = np.take_along_axis(d, order, axis=1)[keep] > 0
    N = e_topic.size
    p_count = np.bincount(e_pair, minlength=P)
    p_start = np.concatenate([[0], np.cumsum(p_count)[:-1]]).astype(np.int64)
    p_end = p_start + p_count - 1
    nonempty = p_count > 0
    k1 = np.arange(1, N + 1) - p_start[e_pair]             # 1-based position in its pair
    new = np.ones(N, dtype=bool)
    if N > 1:
        new[1:] = (e_val[1:] != e_val[:-1]) | (e_pair[1:] != e_pair[:-1])
    g_start = np.flatnonzero(new)
    g_size = np.diff(np.append(g_start, N))
    gid = np.cumsum(new) - 1
    multi = g_size >= 2
    mg_start = g_start[multi]
    mg_end = mg_start + g_size[multi] - 1
    mg_size = g_size[multi].astype(np.float64)
    mg_pair = e_pair[mg_start]
    # positive elements, pair by pair
    pos_idx = np.flatnonzero(e_pos)
    pos_pair = e_pair[pos_idx]
    npos = np.bincount(pos_pair, minlength=P).astype(np.float64)
    has_pos = npos > 0
    pos_starts = np.concatenate([[0], np.cumsum(npos)[:-1]]).astype(np.int64)[has_pos]
    k1_pos = k1[pos_idx].astype(np.float64)
    sum_k1_pos = np.zeros(P)
    if pos_idx.size:
        sum_k1_pos[has_pos] = np.add.reduceat(k1_pos, pos_starts)
    # positive elements in tie groups: their group bounds
    tied = multi[gid[pos_idx]]
    t_idx = pos_idx[tied]
    t_pair = e_pair[t_idx]
    t_gs = g_start[gid[t_idx]]
    t_ge = t_gs + g_size[gid[t_idx]] - 1

    def seg(v):
        outv = np.zeros(P)
        if v.size:
            outv[has_pos] = np.add.reduceat(v, pos_starts)
        return outv

    out = np.empty((2, S, P))
    for s in range(S):
        hs = h[:, s].astype(np.int8)
        m = hs[e_topic]
        ci = np.cumsum(m, dtype=np.int64)                  # first-half count, inclusive
        base_a = np.where(nonempty, ci[p_start] - m[p_start], 0).astype(np.float64) if N else np.zeros(P)
        cnt_a = np.where(nonempty, ci[p_end] if N else 0, 0) - base_a
        m_p = m[pos_idx].astype(np.float64)
        ci_p = ci[pos_idx].astype(np.float64)
        s1 = seg(m_p * ci_p)
        s2 = seg(ci_p)
        s3 = seg(m_p * k1_pos)
        npa = seg(m_p)
        rp_a = s1 - base_a * npa
        rp_b = (sum_k1_pos - s3) - (s2 - s1) + base_a * (npos - npa)
        if t_idx.size:
            mt = m[t_idx].astype(np.float64)
            ci_t = ci[t_idx].astype(np.float64)
            ce_gs = (ci[t_gs] - m[t_gs]).astype(np.float64)
            ci_ge = ci[t_ge].astype(np.float64)
            corr_a = mt * ((ce_gs + ci_ge) / 2.0 + 0.5 - ci_t)
            # second-half counts: position minus first-half count
            ceb_gs = t_gs - ce_gs
            cib_ge = (t_ge + 1) - ci_ge
            cib_t = (t_idx + 1) - ci_t
            corr_b = (1.0 - mt) * ((ceb_gs + cib_ge) / 2.0 + 0.5 - cib_t)
            rp_a += np.bincount(t_pair, weights=corr_a, minlength=P)
            rp_b += np.bincount(t_pair, weights=corr_b, minlength=P)
        if mg_start.size:
            ca_g = (ci[mg_end] - ci[mg_start] + m[mg_start]).astype(np.float64)
            cb_g = mg_size - ca_g
            tie_a = np.bincount(mg_pair, weights=ca_g ** 3 - ca_g, minlength=P)
            tie_b = np.bincount(mg_pair, weights=cb_g ** 3 - cb_g, minlength=P)
        else:
            tie_a = tie_b = np.zeros(P)
        out[0, s] = _p_wilcoxon_normal(cnt_a, rp_a, tie_a)
        out[1, s] = _p_wilcoxon_normal(p_count - cnt_a, rp_b, tie_b)
        if progress_step is not None:
            progress_step(1)
    return out


def _ranksum_fast(x: np.ndarray, h: np.ndarray, pi, pj, progress_step=None) -> np.ndarray:
    """Rank-sum p-values of run pj (b) against run pi (a) on each half.

    Per half, C[r, g] counts run r's scores equal to the g-th smallest
    distinct score and F[r, g] = #{scores of r below value g} + C[r, g]/2;
    the U statistic of sample i against sample j is Σ_g C[i, g] F[j, g].
    With few distinct values that is a matrix product; with many, a gather
    of F at each score of the half.  The tie term Σ (t³ − t) of a pair is
    s3_i + s3_j + 3 Q_ij + 3 Q_ji − n_i − n_j with Q = (C∘C) Cᵀ, over the
    values that occur at least twice.
    """
    R, n = x.shape
    S = h.shape[1]
    ok = ~np.isnan(x)
    vals, inv = np.unique(np.where(ok, x, np.inf), return_inverse=True)
    inv = inv.reshape(R, n)
    V = vals.size
    er, et = np.nonzero(ok)                  # elements, grouped by run
    ecode = inv[er, et]
    out = np.empty((2, S, len(pi)))

    def half(sel):
        codes = ecode[sel]
        runs = er[sel]
        present = np.zeros(V, dtype=bool)
        present[codes] = True
        remap = np.cumsum(present) - 1
        vh = int(remap[-1]) + 1
        cc = remap[codes]
        ct = np.bincount(cc * R + runs, minlength=vh * R).reshape(vh, R)   # (values, runs)
        nr = ct.sum(axis=0).astype(np.float64)
        if vh <= _DENSE_VALUES:
            C = ct.T.astype(np.float64)
            F = np.cumsum(C, axis=1) - 0.5 * C   # F[j, g]: j's values below g, ties half
            U = C @ F.T                      # U[i, j]: sample i against sample j
        else:
            # F as (values, runs) float32 (half-integers, exact): gather rows
            ft = np.cumsum(ct, axis=0, dtype=np.float32)
            ft -= 0.5 * ct.astype(np.float32)
            U = _gather_u(ft, cc, nr)
        # tie terms: only values occurring twice or more contribute
        cm = ct[np.flatnonzero(ct.sum(axis=1) >= 2)].T.astype(np.float64)
        Q = (cm * cm) @ cm.T                 # Σ c_i² c_j
        s3 = (cm ** 3).sum(axis=1)
        nm = cm.sum(axis=1)
        tie = s3[pi] + s3[pj] + 3.0 * Q[pi, pj] + 3.0 * Q[pj, pi] - nm[pi] - nm[pj]
        return _p_ranksum_normal(U[pj, pi], nr[pj], nr[pi], tie)

    for s in range(S):
        sel = h[et, s] > 0
        out[0, s] = half(sel)
        out[1, s] = half(~sel)
        if progress_step is not None:
            progress_step(1)
    return out


def _gather_u(ft: np.ndarray, codes: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """U[i, j] = Σ over run i's elements e of F[code(e), j]; ``ft`` is
    (values, runs), ``codes`` are grouped by run, ``counts`` elements per
    run (all > 0)."""
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    return np.add.reduceat(ft[codes], starts, axis=0, dtype=np.float64)


def _via_stats(test: str, x: np.ndarray, h: np.ndarray, pi, pj, progress_step=None) -> np.ndarray:
    """p-values from ipsoeval.stats.tests, one call per (split, half)."""
    S = h.shape[1]
    out = np.empty((2, S, len(pi)))
    for s in range(S):
        m = h[:, s] > 0
        for half, mask in enumerate((m, ~m)):
            xs = x[:, mask]
            out[half, s] = registry.run(test, xs[pi], xs[pj]).pvalue
        if progress_step is not None:
            progress_step(1)
    return out


def half_pvalues(x: np.ndarray, h: np.ndarray, tests: Sequence[str],
                 pi=None, pj=None, fast: bool = True,
                 progress_step=None) -> dict[str, np.ndarray]:
    """p-values (2, S, P) of each test for each half of each split."""
    x = np.asarray(x, dtype=np.float64)
    R, n = x.shape
    if pi is None:
        pi, pj = pairs_of(R)
    out: dict[str, np.ndarray] = {}
    if not fast:
        for t in tests:
            out[t] = _via_stats(t, x, h, pi, pj, progress_step)
        return out
    # the stats layer's tie rule (float-noise ties and zeros), applied once
    from ipsoeval.stats._rank import snap_ties, snapped_difference, tie_tolerance
    a_, b_ = np.nan_to_num(x[pi]), np.nan_to_num(x[pj])
    d = np.where(np.isnan(x[pj] - x[pi]), np.nan, snapped_difference(a_, b_))
    fin = np.isfinite(x)
    if fin.any():
        xs = x.copy()
        xs[fin] = snap_ties(x[fin].reshape(1, -1), tie_tolerance(x[fin].reshape(1, -1)))[0]
        x = xs
    hh = _halves(h)
    paired_n = (~np.isnan(d)).astype(np.float64) @ hh if len(pi) else np.zeros((0, 0))
    ts = [t for t in tests if t in ("t", "sign")]
    if ts:
        out.update(_t_and_sign(d, h, ts))
    if "wilcoxon" in tests:
        if paired_n.size == 0 or paired_n.min() > _WILCOXON_EXACT_MAX:
            out["wilcoxon"] = _wilcoxon_fast(d, h, progress_step)
        else:
            out["wilcoxon"] = _via_stats("wilcoxon", x, h, pi, pj, progress_step)
    if "ranksum" in tests:
        per_run = (~np.isnan(x)).astype(np.float64) @ hh
        if per_run.size == 0 or per_run.min() > _RANKSUM_EXACT_MAX:
            out["ranksum"] = _ranksum_fast(x, h, pi, pj, progress_step)
        else:
            out["ranksum"] = _via_stats("ranksum", x, h, pi, pj, progress_step)
    return out


def half_directions(x: np.ndarray, h: np.ndarray, aggregate: str, pi, pj,
                    tol: float | None = None) -> np.ndarray:
    """Direction (2, S, P) in {-1, 0, +1}: sign of agg(run j) − agg(run i)
    on each half (aggregates within ``tol`` are equal)."""
    x = np.asarray(x, dtype=np.float64)
    R, n = x.shape
    S = h.shape[1]
    if tol is None:
        tol = tie_tolerance(x)
    agg = np.empty((2, S, R))
    if aggregate == "mean":
        ok = ~np.isnan(x)
        xz = np.where(ok, x, 0.0)
        hh = _halves(h)
        with np.errstate(invalid="ignore", divide="ignore"):
            a = (xz @ hh) / (ok.astype(np.float64) @ hh)      # (R, 2S)
        agg = a.reshape(R, 2, S).transpose(1, 2, 0)
    elif aggregate == "median":
        med = np.nanmedian if np.isnan(x).any() else np.median
        for s in range(S):
            m = h[:, s] > 0
            with np.errstate(invalid="ignore"):
                agg[0, s] = med(x[:, m], axis=1) if m.any() else np.nan
                agg[1, s] = med(x[:, ~m], axis=1) if (~m).any() else np.nan
    else:
        raise ValueError(f"unknown aggregate {aggregate!r}")
    diff = agg[..., pj] - agg[..., pi]
    return np.where(diff > tol, 1, np.where(diff < -tol, -1, 0)).astype(np.int8)


@dataclass
class SplitHalfRates:
    test: str
    aggregate: str
    agree: float          # percentages of (split, pair) cases
    partial: float
    disagree: float
    pct_significant: float
    cases: int


def split_half(x: np.ndarray, splits: int, seed: int | np.random.SeedSequence,
               tests: Sequence[str] = TESTS, aggregates: Sequence[str] = ("mean",),
               alpha: float = 0.05, higher_is_better: bool = True,
               progress: Progress | None = None, fast: bool = True,
               h: np.ndarray | None = None) -> list[SplitHalfRates]:
    """Split-half agreement rates for every (aggregate, test).

    ``x``: (R, n) per-topic scores.  ``h`` (n, splits) overrides the random
    splits (for tests).
    """
    x = np.asarray(x, dtype=np.float64)
    R, n = x.shape
    if h is None:
        h = split_matrix(np.random.default_rng(seed), n, splits)
    S = h.shape[1]
    pi, pj = pairs_of(R)
    P = len(pi)
    work = S * (sum(t in ("wilcoxon", "ranksum") for t in tests) or 1)
    done = [0]

    def step(k):
        done[0] += k
        if progress is not None:
            progress(min(done[0], work), work)

    pv = half_pvalues(x, h, tests, pi, pj, fast=fast, progress_step=step)
    sign = 1 if higher_is_better else -1
    out = []
    for agg in aggregates:
        dirs = sign * half_directions(x, h, agg, pi, pj)
        for t in tests:
            sig = pv[t] < alpha                        # NaN -> False
            cls = classify(dirs[0], sig[0], dirs[1], sig[1])
            cases = S * P
            if cases:
                cnt = np.bincount(cls.ravel(), minlength=3)
                anysig = float((sig[0] | sig[1]).sum())
                rates = 100.0 * cnt / cases
                pct = 100.0 * anysig / cases
            else:
                rates = np.full(3, np.nan)
                pct = float("nan")
            out.append(SplitHalfRates(t, agg, float(rates[0]), float(rates[1]),
                                      float(rates[2]), float(pct), cases))
    if progress is not None:
        progress(work, work)
    return out
