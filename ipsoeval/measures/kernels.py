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

from ipsoeval.model import PAD, POOLED, UNJUDGED, Aligned

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

    def rel_positions(self, level: int):
        """Sparse view of the relevant documents, in (run, topic, rank) order:
        (cell = run·T + topic, rank i (0-based), j = relevant docs up to and
        including rank i)."""
        def make():
            R_, T_, D = self.al.labels.shape
            flat = np.flatnonzero(self.rel(level).ravel())
            cell, i = np.divmod(flat, D)
            head = np.ones(len(cell), dtype=bool)
            head[1:] = cell[1:] != cell[:-1]
            starts = np.flatnonzero(head)
            j = np.arange(len(cell)) - np.repeat(starts, np.diff(np.append(starts, len(cell)))) + 1
            return cell, i, j
        return self._get(("relpos", level), make)

    def cell_sum(self, cell: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        """Per (run, topic) sums in input order (np.bincount adds sequentially,
        as trec_eval's loops do), shaped (R, T)."""
        R_, T_ = self.al.labels.shape[:2]
        out = np.bincount(cell, weights=weights, minlength=R_ * T_)
        if weights is not None:
            out = out.astype(np.float64, copy=False)
        return out.reshape(R_, T_)

    def count_at(self, level: int, k: int) -> np.ndarray:
        """Relevant documents in the top k, (R, T)."""
        cell, i, _ = self.rel_positions(level)
        return self.cell_sum(cell[i < k]).astype(np.int64)

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
        def make():
            cell, i, j = self.rel_positions(level)
            first = np.full(self.al.labels.shape[0] * self.al.labels.shape[1], -1,
                            dtype=np.int64)
            top = j == 1
            first[cell[top]] = i[top]
            if k is not None:
                first[first >= k] = -1
            return first.reshape(self.al.labels.shape[:2])
        return self._get(("first", level, k), make)


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
    def make():
        cell, i, j = ctx.rel_positions(level)
        if k is not None:
            keep = i < k
            cell, i, j = cell[keep], i[keep], j[keep]
        total = ctx.cell_sum(cell, j / (i + 1.0))
        return _safe_div(total, ctx.num_rel(level)[None, :].astype(np.float64))
    return ctx._get(("ap", level, k), make)


def r_precision(ctx: Context, level: int) -> np.ndarray:
    R = ctx.num_rel(level)
    n = np.minimum(ctx.al.n_ret, R[None, :])
    cell, i, _ = ctx.rel_positions(level)
    got = ctx.cell_sum(cell[i < n.ravel()[cell]])
    return _safe_div(got, np.broadcast_to(R[None, :], got.shape).astype(np.float64))


def bpref(ctx: Context, level: int) -> np.ndarray:
    R_, T_, D = ctx.al.labels.shape
    lab = ctx.al.labels
    cell, i, _ = ctx.rel_positions(level)
    nonrel = np.flatnonzero(((lab >= 0) & (lab < level)).ravel())
    flat = cell * D + i
    nr = np.searchsorted(nonrel, flat) - np.searchsorted(nonrel, cell * D)   # judged non-relevant above
    Rt = ctx.num_rel(level).astype(np.float64)
    Nt = ctx.num_nonrel(level).astype(np.float64)
    t = cell % T_
    denom = np.minimum(Nt, Rt)[t]
    frac = np.zeros(len(cell))
    np.divide(np.minimum(nr, Rt[t]), denom, out=frac, where=denom > 0)
    terms = np.where(nr > 0, 1.0 - frac, 1.0)
    return _safe_div(ctx.cell_sum(cell, terms), np.broadcast_to(Rt[None, :], (R_, T_)))


def _lround(x: np.ndarray) -> np.ndarray:
    """C lround for non-negative doubles: halves away from zero, exactly."""
    f = np.floor(x)
    return np.where(x - f >= 0.5, f + 1, f).astype(np.int64)


def _iprec_table(ctx: Context, level: int) -> tuple[np.ndarray, np.ndarray]:
    """Interpolated precision at the j-th relevant document, (R, T, J+1), and
    the relevant documents retrieved, (R, T)."""
    def make():
        cr = ctx.cumrel(level)
        D = ctx.depth
        R_, T_ = cr.shape[:2]
        total = cr[:, :, -1].astype(np.int64) if D else np.zeros((R_, T_), np.int64)
        J = int(total.max()) if total.size else 0
        table = np.zeros((R_, T_, J + 1))
        if J == 0:
            return table, total
        ranks = np.arange(1, D + 1, dtype=np.float64)
        prec = np.where(ctx.al.labels != PAD, cr / ranks, 0.0)
        smax = np.maximum.accumulate(prec[:, :, ::-1], axis=2)[:, :, ::-1]
        r, t, i = np.nonzero(ctx.rel(level))
        table[r, t, cr[r, t, i]] = smax[r, t, i]
        table[:, :, 0] = table[:, :, 1]
        return table, total
    return ctx._get(("iprec", level), make)


def iprec_at_recall(ctx: Context, level: int, x: float) -> np.ndarray:
    """trec_eval's interpolated precision at recall x (its v10 rounding):
    the best precision at or after the rank where lround(x·R) relevant
    documents have been seen; 0 when the run never gets there."""
    table, total = _iprec_table(ctx, level)
    c = np.broadcast_to(_lround(x * ctx.num_rel(level).astype(np.float64))[None, :], total.shape)
    ok = (c <= total) & (total > 0)
    idx = np.minimum(c, table.shape[2] - 1)
    val = np.take_along_axis(table, idx[:, :, None], axis=2)[:, :, 0]
    return np.where(ok, val, 0.0)


# --- graded measures --------------------------------------------------------------

def dcg_trec(ctx: Context, k: int | None) -> np.ndarray:
    """Sum of gain / log2(rank + 1) over the documents with a non-zero gain."""
    return _dcg_log2(ctx, ctx.gains(), k)


def _dcg_log2(ctx: Context, g: np.ndarray, k: int | None) -> np.ndarray:
    """Sum of g / log2(rank + 1) over the top k, per (run, topic)."""
    D = ctx.al.labels.shape[2]
    flat = np.flatnonzero(g.ravel())
    cell, i = np.divmod(flat, D)
    if k is not None:
        keep = i < k
        flat, cell, i = flat[keep], cell[keep], i[keep]
    disc = log2_discounts(max(D, 1))
    return ctx.cell_sum(cell, g.ravel()[flat] / disc[i])


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
    unj = (lab == UNJUDGED) | (lab == POOLED)
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


# --- ir_measures variants (measure-names) --------------------------------------------

def judged_only_context(ctx: Context) -> Context:
    """A Context over the rankings with unjudged documents removed (ir_measures'
    judged_only, trec_eval -J applied after the -M cut): judged documents keep
    their order and move up; n_ret becomes their count."""
    def make():
        import dataclasses
        al = ctx.al
        lab = al.labels
        judged = lab > UNJUDGED                         # real labels (PAD < UNJUDGED)
        n = judged.sum(axis=2)
        depth = max(1, int(n.max()) if n.size else 1)
        out = np.full(lab.shape[:2] + (depth,), PAD, dtype=lab.dtype)
        r, t, i = np.nonzero(judged)
        pos = np.cumsum(judged, axis=2, dtype=np.int64)[r, t, i] - 1
        out[r, t, pos] = lab[r, t, i]
        return Context(dataclasses.replace(al, labels=out, n_ret=n.astype(np.int64)))
    return ctx._get("judged_only_ctx", make)


def judged_at(ctx: Context, k: int) -> np.ndarray:
    """ir_measures' Judged@k: judged documents in the top k divided by
    min(k, documents retrieved); 0 for an empty ranking."""
    lab = ctx.al.labels[:, :, :k]
    cnt = np.count_nonzero(lab > UNJUDGED, axis=2).astype(np.float64)
    den = np.minimum(ctx.al.n_ret, k).astype(np.float64)
    return _safe_div(cnt, den)


def _exp_gains(g: np.ndarray) -> np.ndarray:
    from ipsoeval.errors import InputError
    if g.size and float(g.max()) > 1023:
        raise InputError(f"dcg='exp-log2' needs gains up to 1023 (2^gain - 1 overflows; "
                         f"found gain {float(g.max()):g})")
    return np.where(g > 0, np.exp2(np.maximum(g, 0.0)) - 1.0, 0.0)


def dcg_exp(ctx: Context, k: int | None) -> np.ndarray:
    """ir_measures' dcg='exp-log2': sum of (2^gain - 1)/log2(rank + 1)."""
    return _dcg_log2(ctx, ctx._get("exp_gains", lambda: _exp_gains(ctx.gains())), k)


def ndcg_exp(ctx: Context, k: int | None) -> np.ndarray:
    """dcg_exp over the same for the ideal ordering of all judged documents."""
    ideal = _exp_gains(ctx.ideal())
    i = _seq_sum(ideal / log2_discounts(ideal.shape[1]), k)[None, :]
    d = dcg_exp(ctx, k)
    out = d.copy()
    np.divide(d, i, out=out, where=i > 0)
    return out
