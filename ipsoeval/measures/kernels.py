"""Vectorised measure kernels over an Aligned (runs × topics × depth).

Sums that trec_eval accumulates one document at a time are computed with
``np.add.accumulate`` (strictly sequential, so the floating point result is
the same as trec_eval's loop) and discounts use ``math.log2`` (the C
library's log2), so printed digits agree with trec_eval.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from ipsoeval.model import PAD, UNJUDGED, Aligned

MIN_GEO_MEAN = 0.00001


@lru_cache(maxsize=16)
def log2_discounts(n: int) -> np.ndarray:
    """log2(i + 2) for i = 0..n-1 (rank i+1), computed with the C library."""
    return np.array([math.log2(i + 2) for i in range(n)], dtype=np.float64)


@lru_cache(maxsize=16)
def jk_discounts(n: int, b: float) -> np.ndarray:
    """Järvelin–Kekäläinen discount: 1 for ranks < b, log_b(rank) after."""
    return np.array([1.0 if r < b else math.log(r) / math.log(b) for r in range(1, n + 1)])


class Context:
    """Caches arrays shared by several measures of one evaluation."""

    def __init__(self, al: Aligned):
        self.al = al
        self._cache: dict = {}

    def _get(self, key, make):
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    @property
    def depth(self) -> int:
        return self.al.labels.shape[2]

    def rel(self, level: int) -> np.ndarray:
        return self._get(("rel", level), lambda: self.al.labels >= level)

    def cumrel(self, level: int) -> np.ndarray:
        return self._get(("cumrel", level),
                         lambda: np.cumsum(self.rel(level), axis=2, dtype=np.int32))

    def count_at(self, level: int, k: int) -> np.ndarray:
        """Relevant documents in the top k, (R, T)."""
        k = min(k, self.depth)
        if k <= 0:
            return np.zeros(self.al.labels.shape[:2], dtype=np.int64)
        return self.cumrel(level)[:, :, k - 1].astype(np.int64)

    def num_rel(self, level: int) -> np.ndarray:
        """R per topic at this level, (T,)."""
        if level == self.al.rel_level:
            return self.al.num_rel
        return self._get(("numrel", level), lambda: np.array(
            [int(np.count_nonzero(j >= level)) for j in self.al.judged_labels], dtype=np.int64))

    def num_nonrel(self, level: int) -> np.ndarray:
        if level == self.al.rel_level:
            return self.al.num_nonrel
        return self._get(("numnonrel", level), lambda: np.array(
            [int(np.count_nonzero((j >= 0) & (j < level))) for j in self.al.judged_labels],
            dtype=np.int64))

    def gains(self) -> np.ndarray:
        return self._get("gains", lambda: self.al.gains())

    def ideal(self) -> np.ndarray:
        """(T, n) positive ideal gains, sorted descending, 0-padded."""
        def make():
            g = self.al.ideal_gains()
            return np.where(g > 0, g, 0.0)
        return self._get("ideal", make)

    def first_rel(self, level: int, k: int | None) -> np.ndarray:
        """0-based rank of the first relevant doc in the top k, −1 if none."""
        key = ("first", level, k)

        def make():
            rel = self.rel(level)
            if k is not None:
                rel = rel[:, :, : min(k, self.depth)]
            if rel.shape[2] == 0:
                return np.full(rel.shape[:2], -1, dtype=np.int64)
            idx = np.argmax(rel, axis=2)
            anyrel = np.take_along_axis(rel, idx[:, :, None], axis=2)[:, :, 0]
            return np.where(anyrel, idx, -1)
        return self._get(key, make)


def _safe_div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    den = np.broadcast_to(den, num.shape)
    out = np.zeros(num.shape, dtype=np.float64)
    np.divide(num, den, out=out, where=den != 0)
    return out


def _seq_sum(x: np.ndarray, k: int | None) -> np.ndarray:
    """Sequential sum over the first k entries of the last axis."""
    n = x.shape[-1]
    if n == 0:
        return np.zeros(x.shape[:-1])
    k = n if k is None else min(k, n)
    if k <= 0:
        return np.zeros(x.shape[:-1])
    return np.add.accumulate(x[..., :k], axis=-1)[..., k - 1]


# --- binary measures -------------------------------------------------------------

def precision(ctx: Context, level: int, k: int) -> np.ndarray:
    return ctx.count_at(level, k) / float(k)


def recall(ctx: Context, level: int, k: int | None) -> np.ndarray:
    cnt = ctx.count_at(level, ctx.depth if k is None else k)
    return _safe_div(cnt.astype(np.float64), ctx.num_rel(level)[None, :])


def success(ctx: Context, level: int, k: int | None) -> np.ndarray:
    return (ctx.first_rel(level, k) >= 0).astype(np.float64)


def reciprocal_rank(ctx: Context, level: int, k: int | None) -> np.ndarray:
    f = ctx.first_rel(level, k)
    out = np.zeros(f.shape)
    np.divide(1.0, f + 1.0, out=out, where=f >= 0)
    return out


def esl(ctx: Context, level: int, k: int | None) -> np.ndarray:
    f = ctx.first_rel(level, k)
    return np.where(f >= 0, f + 1.0, np.nan)


def average_precision(ctx: Context, level: int, k: int | None) -> np.ndarray:
    rel = ctx.rel(level)
    cr = ctx.cumrel(level)
    ranks = np.arange(1, ctx.depth + 1, dtype=np.float64)
    terms = np.where(rel, cr / ranks, 0.0)
    return _safe_div(_seq_sum(terms, k), ctx.num_rel(level)[None, :].astype(np.float64))


def r_precision(ctx: Context, level: int) -> np.ndarray:
    R = ctx.num_rel(level)
    n = np.minimum(ctx.al.n_ret, R[None, :])
    cr = ctx.cumrel(level)
    if cr.shape[2] == 0:
        return np.zeros(n.shape)
    got = np.take_along_axis(cr, np.maximum(n - 1, 0)[:, :, None], axis=2)[:, :, 0]
    got = np.where(n > 0, got, 0)
    return _safe_div(got.astype(np.float64), R[None, :].astype(np.float64))


def bpref(ctx: Context, level: int) -> np.ndarray:
    lab = ctx.al.labels
    rel = ctx.rel(level)
    nonrel = (lab >= 0) & (lab < level)
    nr_so_far = np.cumsum(nonrel, axis=2, dtype=np.int64)
    R = ctx.num_rel(level)[None, :, None].astype(np.float64)
    N = ctx.num_nonrel(level)[None, :, None].astype(np.float64)
    denom = np.minimum(N, R)
    frac = np.zeros(nr_so_far.shape)
    np.divide(np.minimum(nr_so_far, R), denom, out=frac, where=denom > 0)
    terms = np.where(rel, np.where(nr_so_far > 0, 1.0 - frac, 1.0), 0.0)
    return _safe_div(_seq_sum(terms, None), ctx.num_rel(level)[None, :].astype(np.float64))


def _lround(x: np.ndarray) -> np.ndarray:
    """C lround for non-negative doubles: halves away from zero, exactly."""
    f = np.floor(x)
    return np.where(x - f >= 0.5, f + 1, f).astype(np.int64)


def iprec_at_recall(ctx: Context, level: int, x: float) -> np.ndarray:
    """trec_eval's interpolated precision at recall x (its v10 rounding)."""
    R = ctx.num_rel(level)
    rel = ctx.rel(level)
    cr = ctx.cumrel(level)
    D = ctx.depth
    ranks = np.arange(1, D + 1, dtype=np.float64)
    valid = ctx.al.labels != PAD
    key = ("smax", level)
    if key not in ctx._cache:
        prec = np.where(valid, cr / ranks, 0.0)
        ctx._cache[key] = np.maximum.accumulate(prec[:, :, ::-1], axis=2)[:, :, ::-1]
    smax = ctx._cache[key]
    total = cr[:, :, -1].astype(np.int64) if D else np.zeros(ctx.al.n_ret.shape, np.int64)
    c = _lround(x * R.astype(np.float64))[None, :] * np.ones_like(total)
    j = np.maximum(c, 1)
    pos = np.argmax(cr >= j[:, :, None], axis=2) if D else np.zeros_like(total)
    val = np.take_along_axis(smax, pos[:, :, None], axis=2)[:, :, 0] if D else np.zeros(total.shape)
    ok = (c <= total) & (total > 0)
    del rel
    return np.where(ok, val, 0.0)


# --- graded measures --------------------------------------------------------------

def dcg_trec(ctx: Context, k: int | None) -> np.ndarray:
    g = ctx.gains()
    disc = log2_discounts(ctx.depth)
    return _seq_sum(g / disc, k)


def idcg_trec(ctx: Context, k: int | None) -> np.ndarray:
    ideal = ctx.ideal()
    disc = log2_discounts(ideal.shape[1])
    return _seq_sum(ideal / disc, k)


def ndcg_trec(ctx: Context, k: int | None) -> np.ndarray:
    d = dcg_trec(ctx, k)
    i = idcg_trec(ctx, k)[None, :]
    out = d.copy()
    np.divide(d, i, out=out, where=i > 0)
    return out


def dcg_jk(ctx: Context, b: float, k: int | None) -> np.ndarray:
    g = ctx.gains()
    return _seq_sum(g / jk_discounts(ctx.depth, b), k)


def ndcg_jk(ctx: Context, b: float, k: int | None) -> np.ndarray:
    d = dcg_jk(ctx, b, k)
    ideal = ctx.ideal()
    i = _seq_sum(ideal / jk_discounts(ideal.shape[1], b), k)[None, :]
    return _safe_div(d, np.broadcast_to(i, d.shape))


def _rbp_gains(ctx: Context, level: int) -> np.ndarray:
    if ctx.al.gain_map is None:
        return ctx.rel(level).astype(np.float64)
    g = ctx.gains()
    top = max(ctx.al.gain_map.values())
    return g / top if top > 0 else g * 0.0


def rbp(ctx: Context, level: int, p: float, k: int | None) -> np.ndarray:
    g = _rbp_gains(ctx, level)
    w = (1.0 - p) * p ** np.arange(ctx.depth, dtype=np.float64)
    return _seq_sum(g * w, k)


def rbp_resid(ctx: Context, p: float, k: int | None) -> np.ndarray:
    lab = ctx.al.labels
    unj = lab == UNJUDGED
    w = (1.0 - p) * p ** np.arange(ctx.depth, dtype=np.float64)
    part = _seq_sum(np.where(unj, w, 0.0), k)
    if k is None:
        tail = p ** ctx.al.n_ret.astype(np.float64)
    else:
        tail = np.full(part.shape, p ** k)
    return part + tail


# --- counts ---------------------------------------------------------------------

def num_ret(ctx: Context) -> np.ndarray:
    return ctx.al.n_ret.astype(np.float64)


def num_rel(ctx: Context, level: int) -> np.ndarray:
    return np.broadcast_to(ctx.num_rel(level)[None, :], ctx.al.n_ret.shape).astype(np.float64)


def num_rel_ret(ctx: Context, level: int) -> np.ndarray:
    return ctx.count_at(level, ctx.depth).astype(np.float64)


def num_nonrel_judged_ret(ctx: Context, level: int) -> np.ndarray:
    lab = ctx.al.labels
    return np.count_nonzero((lab >= 0) & (lab < level), axis=2).astype(np.float64)


def num_q(ctx: Context) -> np.ndarray:
    return np.ones(ctx.al.n_ret.shape)
