"""Innate pairwise SERP orderings (IPSO), the pure numeric core.

Moffat & Mackenzie (2024), "How much freedom does an effectiveness metric
really have?", JASIST 75(6) — §2.6 Algorithm 1, §3.2 Table 2, §3.4 groups.

Everything here works on plain numpy arrays; no I/O, no engine.

The key observation that makes the whole trajectory cheap: Algorithm 1 keeps
two flags, ``been_pos`` and ``been_neg``, that only ever switch on.  So the
relation of a SERP pair at *every* depth 1..k is fixed by two numbers, the
first depth at which the cumulative difference of A over B is positive
(``fp``) and the first depth at which it is negative (``fn``); ``k + 1`` means
"never within k".  At depth i the relation is ``(fp <= i) + 2 * (fn <= i)``,
which is one of the codes below.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb, gcd

import numpy as np

from ipsoeval.analyses.ipso.options import GRADED_MODES

EQUAL, NI, NS, NONSEP = 0, 1, 2, 3
SYMBOLS = ("==", "ni", "ns", "**")
NAMES = ("equal", "non-inferior", "non-superior", "non-separable")

# The five groups of §3.4, in display order.
G_NONSEP_VIA_NS, G_NS, G_EQUAL, G_NI, G_NONSEP_VIA_NI = 1, 2, 3, 4, 5

# Integer cumulative sums must stay far inside int64.
_INT_LIMIT = 2**52


# ---------------------------------------------------------------- gains

def exact_gain_scale(values) -> int | None:
    """The smallest positive integer s such that s * g is an integer for every
    gain g in ``values`` (gains read as the decimals they print as, so 0.2 is
    1/5), or None when no such s keeps the sums exact.

    Algorithm 1 adds and subtracts gains; with floats 0.1 + 0.2 - 0.3 is not
    0, which would turn an equal pair into a separable one.  Scaling to
    integers first makes the comparison exact.
    """
    vals = np.unique(np.asarray(values, dtype=np.float64))
    if not np.all(np.isfinite(vals)):
        return None
    scale = 1
    for v in vals.tolist():
        f = Fraction(repr(float(v)))
        scale = scale * f.denominator // gcd(scale, f.denominator)
        if scale > _INT_LIMIT:
            return None
    return scale


def exact_pair(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Two gain arrays as integers on one common scale, or None when that is
    not possible exactly (then callers compare floats with a tolerance).

    Bool and integer arrays are returned as they are; float arrays are
    multiplied by :func:`exact_gain_scale` of their values when every partial
    sum (at most ``k * max|g| * scale``) stays below 2**52.
    """
    a = np.asarray(a)
    b = np.asarray(b)
    if all(x.dtype == bool or np.issubdtype(x.dtype, np.integer) for x in (a, b)):
        return a, b
    fa = a.astype(np.float64, copy=False)
    fb = b.astype(np.float64, copy=False)
    vals = np.concatenate([np.unique(fa), np.unique(fb)])
    if vals.size == 0:
        return fa.astype(np.int64), fb.astype(np.int64)
    scale = exact_gain_scale(vals)
    if scale is None:
        return None
    k = max(a.shape[-1] if a.ndim else 1, b.shape[-1] if b.ndim else 1, 1)
    if float(np.abs(vals).max()) * scale * k >= _INT_LIMIT:
        return None
    return (np.rint(fa * scale).astype(np.int64), np.rint(fb * scale).astype(np.int64))


def cumulative(gains: np.ndarray, k: int | None = None) -> np.ndarray:
    """Prefix sums along the last axis, cut or zero-padded to depth k, in the
    narrowest exact dtype (int16/int32/int64 for integers, float64 otherwise)."""
    g = np.asarray(gains)
    if k is not None:
        g = fit_depth(g, k)
    if g.dtype == bool or np.issubdtype(g.dtype, np.integer):
        gmax = int(np.abs(g).max()) if g.size else 0
        total = gmax * max(g.shape[-1], 1)
        dt = np.int16 if total < 2**15 else np.int32 if total < 2**31 else np.int64
        return np.cumsum(g, axis=-1, dtype=dt)
    return np.cumsum(g.astype(np.float64, copy=False), axis=-1)


def fit_depth(a: np.ndarray, k: int) -> np.ndarray:
    """Cut the last axis to k, or pad it with zeros (non-relevant) up to k."""
    d = a.shape[-1]
    if d == k:
        return a
    if d > k:
        return a[..., :k]
    pad = [(0, 0)] * (a.ndim - 1) + [(0, k - d)]
    return np.pad(a, pad)


# ---------------------------------------------------- Algorithm 1, vectorised

def _first_true(mask: np.ndarray) -> np.ndarray:
    """1-based index of the first True along the last axis; k + 1 if none."""
    k = mask.shape[-1]
    if k == 0:
        return np.ones(mask.shape[:-1], dtype=np.int32)
    idx = mask.argmax(axis=-1)
    hit = np.take_along_axis(mask, idx[..., None], axis=-1)[..., 0]
    return np.where(hit, idx + 1, k + 1).astype(np.int32)


def crossings_from_cumulative(cum_a: np.ndarray, cum_b: np.ndarray,
                              tol: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """``(fp, fn)`` for SERP pairs given their prefix sums (broadcastable
    arrays (..., k)).  ``fp`` is the first depth (1-based) where A's prefix sum
    exceeds B's, ``fn`` where it falls below; ``k + 1`` when it never does.
    ``tol`` > 0 only for inexact float sums."""
    if tol:
        d = cum_a - cum_b
        return _first_true(d > tol), _first_true(d < -tol)
    return _first_true(cum_a > cum_b), _first_true(cum_a < cum_b)


def _float_tol(*arrays) -> float:
    m = max((float(np.abs(x).max()) if np.size(x) else 0.0) for x in arrays)
    return 1e-9 * max(1.0, m)


def threshold_levels(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The distinct positive values in a and b: the relevance thresholds."""
    vals = np.unique(np.concatenate([np.unique(a), np.unique(b)]))
    return vals[vals > 0]


def crossings(a: np.ndarray, b: np.ndarray, k: int | None = None,
              graded: str = "prefix") -> tuple[np.ndarray, np.ndarray]:
    """Algorithm 1 for SERP pairs at every depth at once.

    ``a``, ``b``: gain vectors (..., depth), broadcastable; binary (0/1,
    bool) or graded.  ``k``: evaluation depth (default: the last axis; SERPs
    shorter than k are padded with zeros).  ``graded``:

    - ``"prefix"`` — Algorithm 1 on the gains themselves (§3.8: gains on a
      ratio scale); cumulative difference of gains.
    - ``"threshold"`` — for every relevance threshold t (each distinct
      positive value), Algorithm 1 on the binary vectors ``g >= t``; A is
      non-inferior only if it is so at every threshold.  Needs only the order
      of the values, so it is valid for ordinal grades.

    Both are identical on binary input.  Returns ``(fp, fn)``, int32 arrays of
    the broadcast leading shape.
    """
    if graded not in GRADED_MODES:
        raise ValueError(f"graded must be one of {GRADED_MODES} (got {graded!r})")
    a = np.asarray(a)
    b = np.asarray(b)
    if k is None:
        k = max(a.shape[-1], b.shape[-1])
    a = fit_depth(a, k)
    b = fit_depth(b, k)
    if graded == "threshold":
        levels = threshold_levels(a, b)
        if len(levels) > 1:
            shape = np.broadcast_shapes(a.shape[:-1], b.shape[:-1])
            fp = np.full(shape, k + 1, dtype=np.int32)
            fn = np.full(shape, k + 1, dtype=np.int32)
            for t in levels.tolist():
                p, n = crossings_from_cumulative(cumulative(a >= t), cumulative(b >= t))
                np.minimum(fp, p, out=fp)
                np.minimum(fn, n, out=fn)
            return fp, fn
        # one level (or none): identical to prefix on the binarised vectors
        t = levels[0] if len(levels) else 1
        a, b = a >= t, b >= t
    exact = exact_pair(a, b)
    if exact is not None:
        return crossings_from_cumulative(cumulative(exact[0]), cumulative(exact[1]))
    ca = cumulative(np.asarray(a, dtype=np.float64))
    cb = cumulative(np.asarray(b, dtype=np.float64))
    return crossings_from_cumulative(ca, cb, tol=_float_tol(ca, cb))


def compare(a, b, k: int | None = None, graded: str = "prefix") -> int:
    """The relation code of one SERP pair at depth k (Algorithm 1)."""
    fp, fn = crossings(np.asarray(a), np.asarray(b), k, graded)
    kk = k if k is not None else max(np.shape(a)[-1], np.shape(b)[-1])
    return int(relation_at(fp, fn, kk))


# ------------------------------------------------------ derived quantities

def relation_at(fp, fn, depth) -> np.ndarray:
    """Relation codes at depth(s) ``depth`` (broadcast against fp/fn)."""
    fp = np.asarray(fp)
    fn = np.asarray(fn)
    depth = np.asarray(depth)
    return ((fp <= depth).astype(np.int8) + 2 * (fn <= depth).astype(np.int8))


def trajectory(fp, fn, k: int) -> np.ndarray:
    """Relation codes at depths 1..k: int8 array (..., k)."""
    depths = np.arange(1, k + 1)
    return relation_at(np.asarray(fp)[..., None], np.asarray(fn)[..., None], depths)


def trajectory_string(fp: int, fn: int, k: int, sep: str = ",") -> str:
    """e.g. ``==,==,==,ni,ni,ni,ni,ni,**,**`` for Figure 4's pair."""
    return sep.join(SYMBOLS[c] for c in trajectory(fp, fn, k).tolist())


def nonsep_depth(fp, fn, k: int) -> np.ndarray:
    """Depth at which the pair became non-separable; 0 where it did not
    within k."""
    m = np.maximum(fp, fn)
    return np.where(m <= k, m, 0)


def equal_prefix(fp, fn, k: int) -> np.ndarray:
    """Length of the leading == zone (0..k)."""
    return np.minimum(np.minimum(fp, fn) - 1, k)


def group(fp, fn, k: int) -> np.ndarray:
    """§3.4's five groups at depth k: 1 = ** reached through ns, 2 = ns,
    3 = ==, 4 = ni, 5 = ** reached through ni."""
    fp = np.asarray(fp)
    fn = np.asarray(fn)
    rel = relation_at(fp, fn, k)
    out = np.full(rel.shape, G_EQUAL, dtype=np.int8)
    out[rel == NS] = G_NS
    out[rel == NI] = G_NI
    nonsep = rel == NONSEP
    out[nonsep & (fn < fp)] = G_NONSEP_VIA_NS
    out[nonsep & (fp < fn)] = G_NONSEP_VIA_NI
    return out


def group_counts(groups: np.ndarray, axis: int = -1) -> np.ndarray:
    """Counts of groups 1..5 along ``axis``: int64 array (..., 5)."""
    g = np.asarray(groups)
    return np.stack([(g == i).sum(axis=axis) for i in range(1, 6)], axis=-1)


def display_order(fp, fn, k: int, tiebreak=None) -> np.ndarray:
    """Row order of Figures 5 and 6: groups 1..5; within a group by the number
    of ** cells and then by the length of the leading == zone, arranged so
    that the list reads as a cylinder (group 1 starts with the most **, group
    2 and 3 grow their == zone towards the middle, group 4 and 5 mirror them).
    Remaining ties keep ``tiebreak`` order (default: input order)."""
    fp = np.asarray(fp)
    fn = np.asarray(fn)
    n = fp.shape[0]
    g = group(fp, fn, k).astype(np.int64)
    nd = nonsep_depth(fp, fn, k)
    red = np.where(nd > 0, k - nd + 1, 0)
    eq = equal_prefix(fp, fn, k)
    tb = np.arange(n) if tiebreak is None else np.asarray(tiebreak)
    lower = g <= 2
    key_red = np.where(lower, -red, red)
    key_eq = np.where(lower, eq, -eq)
    return np.lexsort((tb, key_eq, key_red, g))


# ---------------------------------------------------------- Table 2 counts

def enumerate_counts(k: int) -> tuple[int, int, int]:
    """Exact numbers of the 4**k ordered pairs of binary k-SERPs that are
    equal, separable (ni or ns) and non-separable.

    Lattice-path argument: position i adds a step a_i - b_i to the
    cumulative difference, -1 (one way), 0 (two ways: 00, 11) or +1 (one
    way).  Split each step into two half-steps of ±1 (-1 = "--", +1 = "++",
    0 = "+-" or "-+"): pairs of k-SERPs are then exactly the simple ±1 walks
    of length 2k, and "the difference is never negative at a depth" becomes
    "the walk never goes below -1".  Prepending one up-step maps those walks
    one-to-one onto the walks of length 2k + 1 that never go below 0, of
    which there are C(2k+1, k).  So

    - equal (all steps 0):            2**k
    - non-inferior (never < 0, not all 0): C(2k+1, k) - 2**k, same for ns
    - non-separable:                  4**k - 2 C(2k+1, k) + 2**k.
    """
    if k < 0:
        raise ValueError("k must be non-negative")
    eq = 1 << k
    ni = comb(2 * k + 1, k) - eq
    sep = 2 * ni
    return eq, sep, (1 << (2 * k)) - eq - sep


def percentage(count: int, k: int) -> float:
    """100 * count / 4**k, correctly rounded from the exact rational."""
    return float(Fraction(100 * count, 1 << (2 * k)))


# ------------------------------------------------------------- sign test

def sign_outcomes(groups: np.ndarray, nonsep: int = 0) -> np.ndarray:
    """Per topic +1 for ni (A ahead), -1 for ns, 0 for == and, unless
    ``nonsep`` is ±1, for **; ``nonsep`` = +1 / -1 counts every ** topic as
    broken towards A / B."""
    g = np.asarray(groups)
    out = np.zeros(g.shape, dtype=np.int8)
    out[g == G_NI] = 1
    out[g == G_NS] = -1
    if nonsep:
        out[(g == G_NONSEP_VIA_NS) | (g == G_NONSEP_VIA_NI)] = nonsep
    return out


# ------------------------------------------------------- many runs at once

def run_pairs(n_runs: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices (i, j), i < j, of every pair of runs, in row-major order."""
    i, j = np.triu_indices(n_runs, k=1)
    return i.astype(np.int64), j.astype(np.int64)


def _cumulative_sets(gains: np.ndarray, k: int, graded: str) -> tuple[list[np.ndarray], float]:
    """Per run the prefix sums to compare: one array (R, T, k) for prefix
    mode, one per threshold for threshold mode; and the float tolerance
    (0 when exact)."""
    g = fit_depth(np.asarray(gains), k)
    if graded == "threshold":
        levels = threshold_levels(g, g[:0])
        if len(levels) == 0:
            levels = np.array([1])
        return [cumulative(g >= t) for t in levels.tolist()], 0.0
    exact = exact_pair(g, g[:0])
    if exact is not None:
        return [cumulative(exact[0])], 0.0
    c = cumulative(g.astype(np.float64))
    return [c], _float_tol(c)


def all_pairs_crossings(gains: np.ndarray, k: int, graded: str = "prefix",
                        progress=None) -> tuple[np.ndarray, np.ndarray]:
    """``(fp, fn)`` for every pair of runs (i < j, order of :func:`run_pairs`)
    and every topic: int16 arrays (P, T).  ``gains``: (R, T, depth).

    Runs are compared one against all later runs at a time, broadcasting the
    prefix sums, so memory stays at one (R, T, k) block.
    """
    if graded not in GRADED_MODES:
        raise ValueError(f"graded must be one of {GRADED_MODES} (got {graded!r})")
    n_runs, n_topics = gains.shape[0], gains.shape[1]
    sets, tol = _cumulative_sets(gains, k, graded)
    P = n_runs * (n_runs - 1) // 2
    dt = np.int16 if k < 2**15 - 1 else np.int32
    fp = np.full((P, n_topics), k + 1, dtype=dt)
    fn = np.full((P, n_topics), k + 1, dtype=dt)
    row = 0
    for a in range(n_runs - 1):
        m = n_runs - a - 1
        for cum in sets:
            p, n = crossings_from_cumulative(cum[a][None], cum[a + 1:], tol)
            np.minimum(fp[row:row + m], p, out=fp[row:row + m], casting="unsafe")
            np.minimum(fn[row:row + m], n, out=fn[row:row + m], casting="unsafe")
        row += m
        if progress is not None:
            progress(row, P)
    return fp, fn


def depth_counts(fp: np.ndarray, fn: np.ndarray, k: int) -> dict[str, np.ndarray]:
    """Numbers of SERP pairs that are ==, ni, ns, ** at each depth 1..k
    (int64 arrays of length k), from first-crossing depths."""
    fp = np.asarray(fp).ravel().astype(np.int64)
    fn = np.asarray(fn).ravel().astype(np.int64)
    lo = np.minimum(fp, fn)
    hi = np.maximum(fp, fn)
    # cumulative histograms: how many have lo <= i, hi <= i, fp <= i, fn <= i
    def upto(x):
        return np.cumsum(np.bincount(x, minlength=k + 2)[: k + 1])[1:]
    n = fp.size
    lo_c, hi_c, fp_c, fn_c = upto(lo), upto(hi), upto(fp), upto(fn)
    return {
        "equal": n - lo_c,
        "ni": fp_c - hi_c,
        "ns": fn_c - hi_c,
        "nonsep": hi_c,
    }
