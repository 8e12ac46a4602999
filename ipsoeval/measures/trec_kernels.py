"""Kernels of trec_eval 10.0's measures beyond the official set, and ERR.

Each kernel takes a :class:`~ipsoeval.measures.kernels.Context` and returns a
(runs, topics) array.  Sums that trec_eval accumulates document by document
are sequential here too (``np.add.accumulate``, ``np.bincount``), logarithms
come from the C library (``math.log2``/``math.log``), so the printed digits
agree with trec_eval.  Nothing here is computed unless the measure is asked
for.

trec_eval's document classes (``form_res_rels.c``): a retrieved document not
in the qrels is *not pooled* (``UNJUDGED`` here), one with a negative qrels
label is *pooled but unjudged* (``POOLED``), the others are judged.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from ipsoeval.errors import UsageError
from ipsoeval.measures.kernels import Context, _lround, _safe_div, _seq_sum, log2_discounts
from ipsoeval.model import POOLED, UNJUDGED

INFAP_EPSILON = 0.00001


@lru_cache(maxsize=8)
def _log2_int(n: int) -> np.ndarray:
    """math.log2(x) for x = 0..n-1 (entry 0 is -inf; never used)."""
    return np.array([-math.inf] + [math.log2(x) for x in range(1, n)], dtype=np.float64)


def _clog2(x: np.ndarray) -> np.ndarray:
    """The C library's log2, element by element (exact digits, any double)."""
    return np.array([math.log2(v) for v in x.tolist()], dtype=np.float64)


def _count_before(ctx: Context, key, mask_fn, cell, i):
    """Per sparse position (cell, rank i): documents above rank i in the same
    ranking whose labels satisfy ``mask_fn`` (cached flat positions)."""
    D = ctx.depth
    flat = ctx._get(("flatpos", key), lambda: np.flatnonzero(mask_fn(ctx.al.labels).ravel()))
    pos = cell * D + i
    return np.searchsorted(flat, pos) - np.searchsorted(flat, cell * D)


def _n_rel_ret(ctx: Context, level: int) -> np.ndarray:
    return ctx.count_at(level, ctx.depth).astype(np.float64)


# --- set measures -----------------------------------------------------------------

def set_p(ctx: Context, level: int) -> np.ndarray:
    return _safe_div(_n_rel_ret(ctx, level), ctx.al.n_ret.astype(np.float64))


def set_recall(ctx: Context, level: int) -> np.ndarray:
    nrr = _n_rel_ret(ctx, level)
    return _safe_div(nrr, np.broadcast_to(ctx.num_rel(level)[None, :], nrr.shape).astype(float))


def set_map(ctx: Context, level: int) -> np.ndarray:
    nrr = _n_rel_ret(ctx, level)
    R = np.broadcast_to(ctx.num_rel(level)[None, :], nrr.shape).astype(np.float64)
    return _safe_div(nrr * nrr, ctx.al.n_ret.astype(np.float64) * R)


def set_relative_p(ctx: Context, level: int) -> np.ndarray:
    nrr = _n_rel_ret(ctx, level)
    R = np.broadcast_to(ctx.num_rel(level)[None, :], nrr.shape)
    n = ctx.al.n_ret
    den = np.where((n > 0) & (R > 0), np.minimum(n, R), 0).astype(np.float64)
    return _safe_div(nrr, den)


def set_f(ctx: Context, level: int, beta: float) -> np.ndarray:
    nrr = _n_rel_ret(ctx, level)
    R = np.broadcast_to(ctx.num_rel(level)[None, :], nrr.shape).astype(np.float64)
    P = _safe_div(nrr, ctx.al.n_ret.astype(np.float64))
    Rc = _safe_div(nrr, R)
    den = beta * P + Rc
    out = _safe_div((beta + 1.0) * P * Rc, den)
    return np.where(nrr > 0, out, 0.0)


def utility(ctx: Context, level: int, coef: tuple, num_docs: int) -> np.ndarray:
    a, b, c, d = coef
    nrr = ctx.count_at(level, ctx.depth).astype(np.int64)
    n = ctx.al.n_ret.astype(np.int64)
    R = np.broadcast_to(ctx.num_rel(level)[None, :], nrr.shape).astype(np.int64)
    return (a * nrr.astype(np.float64) + b * (n - nrr).astype(np.float64)
            + c * (R - nrr).astype(np.float64) + d * (num_docs + nrr - n - R).astype(np.float64))


# --- rank measures -----------------------------------------------------------------

def relative_p(ctx: Context, level: int, k: int) -> np.ndarray:
    cnt = ctx.count_at(level, k).astype(np.float64)
    R = np.broadcast_to(ctx.num_rel(level)[None, :], cnt.shape)
    den = np.where(R > 0, np.minimum(R, k), 0).astype(np.float64)
    return _safe_div(cnt, den)


def rprec_mult(ctx: Context, level: int, m: float) -> np.ndarray:
    """Precision after (long)(m·R + 0.9) documents (nonrelevant fill past the end)."""
    R = ctx.num_rel(level)
    cut = (m * R.astype(np.float64) + 0.9).astype(np.int64)        # C's (long) truncation
    out = np.zeros(ctx.al.n_ret.shape)
    for c in np.unique(cut):
        if c <= 0:
            continue
        cols = cut == c
        out[:, cols] = ctx.count_at(level, int(c))[:, cols] / float(c)
    return out


def unjudged(ctx: Context, k: int) -> np.ndarray:
    lab = ctx.al.labels[:, :, :k]
    cnt = np.count_nonzero((lab == UNJUDGED) | (lab == POOLED), axis=2)
    return cnt / float(k)


def infap(ctx: Context, level: int) -> np.ndarray:
    """trec_eval's infAP (Yilmaz & Aslam): judged documents above a relevant one
    give the precision estimate, not-pooled ones count as nonrelevant, pooled
    but unjudged ones are left out of the estimate."""
    cell, i, j = ctx.rel_positions(level)
    nonrel = _count_before(ctx, ("nonrel", level),
                           lambda L: (L >= 0) & (L < level), cell, i)
    pooled = _count_before(ctx, "pooled", lambda L: L == POOLED, cell, i)
    r1 = j - 1                                 # judged relevant above
    fj = i.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        term = (1.0 / (fj + 1.0)
                + (fj / (fj + 1.0)) * ((r1 + nonrel + pooled) / fj)
                * ((r1 + INFAP_EPSILON) / ((r1 + nonrel) + 2 * INFAP_EPSILON)))
    term = np.where(i == 0, 1.0, term)
    total = ctx.cell_sum(cell, term)
    R = ctx.num_rel(level)
    return _safe_div(total, np.broadcast_to(R[None, :], total.shape).astype(np.float64))


def bing(ctx: Context, level: int) -> np.ndarray:
    cell, i, j = ctx.rel_positions(level)
    L = _log2_int(ctx.depth + 4)
    total = ctx.cell_sum(cell, 1.0 / L[3 + i - j])
    R = ctx.num_rel(level)
    return _safe_div(total, np.broadcast_to(R[None, :], total.shape).astype(np.float64))


def yaap(ctx: Context, level: int) -> np.ndarray:
    cell, i, j = ctx.rel_positions(level)
    s = ctx.cell_sum(cell, j / (i + 1.0))
    R = np.broadcast_to(ctx.num_rel(level)[None, :].astype(np.float64), s.shape)
    flat = [math.log((1.0 + a) / (1.0 + r - a)) for a, r in zip(s.ravel().tolist(),
                                                                   R.ravel().tolist())]
    return np.array(flat, dtype=np.float64).reshape(s.shape)


def eleven_pt_avg(ctx: Context, level: int, levels: tuple) -> np.ndarray:
    """Mean interpolated precision at recall levels (trec_eval's 11pt_avg,
    v10 rounding: lround(x·R) relevant documents)."""
    from ipsoeval.measures.kernels import _iprec_table
    table, total = _iprec_table(ctx, level)
    R = ctx.num_rel(level).astype(np.float64)
    s = np.zeros(total.shape)
    for x in sorted(levels, reverse=True):       # trec_eval adds from the last level
        c = np.broadcast_to(_lround(x * R)[None, :], total.shape)
        ok = c <= total
        idx = np.minimum(c, table.shape[2] - 1)
        val = np.take_along_axis(table, idx[:, :, None], axis=2)[:, :, 0]
        s = s + np.where(ok, val, 0.0)
    return s / float(len(levels))


def relstring(ctx: Context, n: int) -> np.ndarray:
    """Object array of strings: one character per document of the top n."""
    lab = ctx.al.labels[:, :, :max(n, 0)]
    ch = np.full(lab.shape, "<", dtype="<U1")
    ch[lab > 9] = ">"
    for d in range(10):
        ch[lab == d] = str(d)
    ch[lab == UNJUDGED] = "-"
    ch[lab == POOLED] = "."
    R_, T_ = ctx.al.n_ret.shape
    out = np.empty((R_, T_), dtype=object)
    n_ret = ctx.al.n_ret
    for r in range(R_):
        for t in range(T_):
            out[r, t] = "".join(ch[r, t, :min(n, int(n_ret[r, t]))].tolist())
    return out


# --- graded measures with trec_eval's gain levels -----------------------------------

def parse_gain_pairs(text: str, allow=("p",)) -> tuple[dict[int, float], dict[str, float]]:
    """trec_eval's ``level=gain,...`` parameters -> ({level: gain}, {name: value})."""
    gains: dict[int, float] = {}
    other: dict[str, float] = {}
    for part in text.split(","):
        if "=" not in part:
            raise UsageError(f"parameters are level=gain pairs (found {text!r})")
        k, v = part.split("=", 1)
        try:
            val = float(v)
        except ValueError:
            raise UsageError(f"bad value {v!r} in parameters {text!r}") from None
        if not math.isfinite(val):
            raise UsageError(f"bad value {v!r} in parameters {text!r}")
        k = k.strip()
        if k.lstrip("+").isdigit():
            level = int(k)
            if level in gains:
                raise UsageError(f"level {level} given twice in {text!r}")
            gains[level] = val
        elif k in allow:
            if k in other:
                raise UsageError(f"parameter {k} given twice in {text!r}")
            other[k] = val
        elif k.startswith("-") and k[1:].isdigit():
            raise UsageError(f"negative relevance levels take no gain ({k!r} in {text!r}): "
                             f"trec_eval would give it to unjudged documents")
        else:
            raise UsageError(f"unknown parameter {k!r} in {text!r} (level=gain pairs"
                             + (", " + ", ".join(f"{a}=" for a in allow) if allow else "") + ")")
    return gains, other


def _level_gains(ctx: Context, pairs: dict[int, float]):
    """Per topic: the gain of each judged level 0..max (trec_eval's gain list:
    the label, or --gains, overridden by the pairs), plus levels only named
    in the pairs.  Returns (levels array, gains array) per topic."""
    out = []
    for lab in ctx.al.judged_labels:
        top = int(lab.max()) + 1 if len(lab) else 0
        levels = list(range(top)) + sorted(k for k in pairs if k >= top)
        base = ctx.al.gains(np.array(levels, dtype=np.int64)) if levels else np.zeros(0)
        g = np.array([pairs.get(lv, float(base[n])) for n, lv in enumerate(levels)], float)
        out.append((np.array(levels, dtype=np.int64), g))
    return out


def _gain_arrays(ctx: Context, pairs: dict[int, float], normalise=False):
    """(gains of the ranked documents (R, T, D), ideal positive gains (T, n))."""
    key = ("te_gains", tuple(sorted(pairs.items())), normalise)

    def make():
        lab = ctx.al.labels
        R_, T_, D = lab.shape
        per_topic = _level_gains(ctx, pairs)
        g = np.zeros(lab.shape, dtype=np.float64)
        ideal_rows = []
        for t, (levels, gains) in enumerate(per_topic):
            if normalise and len(gains):
                mn, mx = float(gains.min()), float(gains.max())
                if mn < 0 or mx > 1:
                    gains = ((gains - mn) / (mx - mn) if mx > mn
                             else np.clip(gains, 0.0, 1.0))
            if len(levels):
                lt = lab[:, t, :]
                look = dict(zip(levels.tolist(), gains.tolist()))
                vals = np.zeros(lt.shape)
                for lv, gv in look.items():       # sentinels are negative: gain 0
                    if gv != 0:
                        vals[lt == lv] = gv
                g[:, t, :] = vals
                jl = ctx.al.judged_labels[t]
                jg = np.array([look.get(int(x), 0.0) for x in jl.tolist()], float)
                ideal_rows.append(np.sort(jg[jg > 0])[::-1])
            else:
                ideal_rows.append(np.zeros(0))
        n = max([1] + [len(x) for x in ideal_rows])
        ideal = np.zeros((T_, n))
        for t, row in enumerate(ideal_rows):
            ideal[t, :len(row)] = row
        return g, ideal
    return ctx._get(key, make)


def _disc(n: int) -> np.ndarray:
    return log2_discounts(max(n, 1))


def dcg_pairs(ctx: Context, pairs) -> np.ndarray:
    g, _ = _gain_arrays(ctx, pairs)
    return _seq_sum(g / _disc(ctx.depth)[:g.shape[2]], None)


def idcg_pairs(ctx: Context, pairs) -> np.ndarray:
    _, ideal = _gain_arrays(ctx, pairs)
    v = _seq_sum(ideal / _disc(ideal.shape[1]), None)
    return np.broadcast_to(v[None, :], ctx.al.n_ret.shape).copy()


def ndcg_pairs(ctx: Context, pairs) -> np.ndarray:
    d = dcg_pairs(ctx, pairs)
    i = idcg_pairs(ctx, pairs)
    out = np.zeros(d.shape)
    np.divide(d, i, out=out, where=i > 0)
    return out


def _ideal_prefix(ideal: np.ndarray) -> np.ndarray:
    """Sequential ideal DCG through each position, (T, n)."""
    return np.add.accumulate(ideal / _disc(ideal.shape[1]), axis=1)


def ndcg_rel(ctx: Context, pairs) -> np.ndarray:
    """trec_eval's ndcg_rel: nDCG averaged over the positive-gain documents
    (unretrieved ones at the final DCG)."""
    g, ideal = _gain_arrays(ctx, pairs)
    R_, T_, D = g.shape
    P = np.count_nonzero(ideal > 0, axis=1)                       # (T,)
    rd = np.add.accumulate(g / _disc(D)[:D], axis=2) if D else np.zeros(g.shape)
    ipre = _ideal_prefix(ideal)                                    # (T, n)
    total_r = rd[:, :, -1] if D else np.zeros((R_, T_))
    itotal = ipre[np.arange(T_), np.maximum(P - 1, 0)]
    itotal = np.where(P > 0, itotal, 0.0)
    r, t, i = np.nonzero(g > 0)
    den = ipre[t, np.minimum(i, np.maximum(P[t] - 1, 0))]
    cell = r * T_ + t
    s = ctx.cell_sum(cell, rd[r, t, i] / den) if len(cell) else np.zeros((R_, T_))
    nrr = ctx.cell_sum(cell) if len(cell) else np.zeros((R_, T_))
    with np.errstate(divide="ignore", invalid="ignore"):
        s = s + ((P[None, :] - nrr).astype(np.float64) * total_r) / itotal[None, :]
        out = s / P[None, :]
    return np.where(s > 0, out, 0.0)


def rndcg(ctx: Context, level: int, pairs) -> np.ndarray:
    """trec_eval's Rndcg: nDCG averaged where the ideal gain changes (and at
    the end of the ranking)."""
    g, ideal = _gain_arrays(ctx, pairs)
    R_, T_, D = g.shape
    rd = np.add.accumulate(g / _disc(D)[:D], axis=2) if D else np.zeros(g.shape)
    total_r = rd[:, :, -1] if D else np.zeros((R_, T_))
    ipre = _ideal_prefix(ideal)
    P = np.count_nonzero(ideal > 0, axis=1)
    Rl = ctx.num_rel(level)
    n_ret = ctx.al.n_ret
    out = np.zeros((R_, T_))
    for t in range(T_):
        if Rl[t] == 0:
            continue
        p = int(P[t])
        if p == 0:
            continue
        ext = np.append(ideal[t, :p], 0.0)
        bounds = [b for b in range(1, p + 1) if ext[b] != ext[b - 1]]
        for r in range(R_):
            nr = int(n_ret[r, t])
            terms = []
            for b in bounds:
                rv = rd[r, t, b - 1] if b - 1 < D else total_r[r, t]
                terms.append(rv / ipre[t, b - 1])
            if p + 1 < nr:
                terms.append(total_r[r, t] / ipre[t, p - 1])
            s = 0.0
            for x in terms:
                s += x
            out[r, t] = s / len(terms)
    return out


def g_measure(ctx: Context, pairs) -> np.ndarray:
    """trec_eval's G: gain / log2(2 + ideal cost so far - gain so far)."""
    g, ideal = _gain_arrays(ctx, pairs)
    R_, T_, D = g.shape
    cost = np.ones((T_, max(D, 1)))
    m = min(D, ideal.shape[1])
    cost[:, :m] = np.maximum(ideal[:, :m], 1.0)
    cum_cost = np.add.accumulate(cost, axis=1)[:, :D]
    cum_res = np.add.accumulate(g, axis=2) if D else g
    r, t, i = np.nonzero(g)
    arg = (2 + cum_cost[t, i]) - cum_res[r, t, i]
    terms = g[r, t, i] / _clog2(arg)
    s = ctx.cell_sum(r * T_ + t, terms) if len(r) else np.zeros((R_, T_))
    sum_ideal = _seq_sum(ideal, None)
    out = np.zeros((R_, T_))
    np.divide(s, np.broadcast_to(sum_ideal[None, :], s.shape), out=out,
              where=np.broadcast_to(sum_ideal[None, :] > 0, s.shape))
    return out


def _powers(p: float, n: int) -> np.ndarray:
    """1, p, p·p, … by repeated multiplication (trec_eval's cur_p)."""
    a = np.full(n + 1, p)
    a[0] = 1.0
    return np.multiply.accumulate(a)


def rbp_trec(ctx: Context, p: float, pairs) -> np.ndarray:
    """trec_eval's rbp: (1-p) Σ gain·p^(i-1), gains min-max normalised per topic
    when they leave [0, 1]."""
    g, _ = _gain_arrays(ctx, pairs, normalise=True)
    D = g.shape[2]
    w = _powers(p, D)[:D]
    return (1.0 - p) * _seq_sum(g * w, None)


def rbp_resid_trec(ctx: Context, p: float) -> np.ndarray:
    lab = ctx.al.labels
    D = lab.shape[2]
    unj = (lab == UNJUDGED) | (lab == POOLED)
    pw = _powers(p, D)
    s = _seq_sum(np.where(unj, pw[:D], 0.0), None)
    tail = pw[ctx.al.n_ret]
    return np.where(unj.any(axis=2), tail + (1 - p) * s, 0.0)


# --- ERR --------------------------------------------------------------------------

def err(ctx: Context, k: int | None, gmax: int) -> np.ndarray:
    """Expected reciprocal rank (Chapelle et al. 2009), gdeval's form:
    R_i = (2^g_i - 1) / 2^gmax with g the label (0 if negative or unjudged),
    ERR = Σ R_i / i · Π_{j<i} (1 - R_j)."""
    lab = ctx.al.labels
    if k is not None:
        lab = lab[:, :, :k]
    top = max((int(j.max()) for j in ctx.al.judged_labels if len(j)), default=0)
    if top > gmax:
        raise UsageError(f"ERR needs gmax >= the largest label (found label {top}); "
                         f"use ERR(gmax={top})")
    grade = np.where(lab > 0, lab, 0).astype(np.float64)
    rr = (np.exp2(grade) - 1.0) / 2.0 ** gmax
    D = lab.shape[2]
    if D == 0:
        return np.zeros(lab.shape[:2])
    stay = np.ones(lab.shape)
    stay[:, :, 1:] = np.multiply.accumulate(1.0 - rr[:, :, :-1], axis=2)
    return _seq_sum(rr * stay / np.arange(1, D + 1, dtype=np.float64), None)

