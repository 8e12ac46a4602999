"""The ``sorted`` completions of nDCG's ``--bounds`` scored for all rankings at
once (ipsoeval.measures.bounds).

The candidate family is the one :func:`ipsoeval.measures.bounds._candidates`
enumerates, unchanged: with n of a ranking's u unjudged documents within the
cutoff (all u without one) and the levels ordered by gain, each multiset of
n levels (counts c_0..c_{L-1}, lowest gain first) gives a "best" completion
(the n labels falling in rank order, the u - n below the cutoff at the lowest
gain) and a "worst" one (rising, the u - n at the highest gain).

Each completion's nDCG is a sum over the levels, so it is computed from
counts alone: its DCG is the judged documents' DCG within the cutoff plus,
for each level, gain × (W[end] - W[start]), W the running sum of 1/discount
over the ranking's unjudged documents within the cutoff and [start, end)
the level's run in the label sequence; its ideal DCG is, over the levels
from the highest gain, gain × (I[start + count] - I[start]), count the
topic's judged documents at that level plus the completion's, and I the
running sum of the ideal's 1/discount up to the cutoff.  Rankings that share
n share the (M, L) count matrix, so they are scored as one (rows, M) array.

As in :mod:`ipsoeval.measures.bounds_scan` these values only *choose*: the
completions within ``TOL`` of a ranking's smallest or largest value are
scored again by the measure's own kernel, and the bounds are the kernel's
values.  The values here differ from the kernel's by rounding only (sums of
at most 2·L terms each), far below ``TOL``.
"""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np

from ipsoeval.measures.bounds_scan import MAX_TIED, TOL, tied_rows

ROWS = 1 << 21      # (ranking, completion) values per step


def applies(al, m) -> bool:
    """The forms this scorer models: nDCG by log2 or b= discount, label or
    exp-log2 gains, every ranked document seen (no trec_eval gain pairs, no
    judged_only)."""
    return (m.family == "nDCG" and m.param("te") is None
            and not m.param("judged_only"))


def compositions(n: int, L: int) -> np.ndarray:
    """(M, L): the counts of each level in every multiset of n of L levels."""
    rows = [np.bincount(np.array(seq, dtype=np.int64), minlength=L)
            for seq in itertools.combinations_with_replacement(range(L), n)]
    if not rows:
        return np.zeros((1, L), dtype=np.int64)
    return np.array(rows, dtype=np.int64).reshape(-1, L)


def _pick(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(row, column) of the values within TOL of each row's largest and
    smallest (at most MAX_TIED each, the nearest); every row has one."""
    fin = ~np.isnan(v)
    top = np.where(fin, v, -np.inf).max(axis=1)
    bot = np.where(fin, v, np.inf).min(axis=1)
    rows, cols = [], []
    for dist in (top[:, None] - v, v - bot[:, None]):
        near = fin & (dist <= TOL)
        near[~fin.any(axis=1), 0] = True
        d = np.where(near, dist, np.inf)
        keep = np.argsort(d, axis=1, kind="stable")[:, :MAX_TIED]
        ok = np.take_along_axis(near, keep, axis=1)
        r = np.broadcast_to(np.arange(len(v))[:, None], keep.shape)
        rows.append(r[ok])
        cols.append(keep[ok])
    r = np.concatenate(rows)
    c = np.concatenate(cols)
    key = np.unique(r.astype(np.int64) * v.shape[1] + c)
    return key // v.shape[1], key % v.shape[1]


def scan(al, m, unj: np.ndarray, lv: np.ndarray, order: np.ndarray, k: int | None,
         gains_lv: np.ndarray, discounts, max_candidates: int, low: np.ndarray,
         high: np.ndarray):
    """Bounds of the rankings (cells) with at most ``max_candidates``
    completions into ``low`` and ``high``; returns the cells left to the
    caller, or None (nothing done) when the gains are not modelled here (a
    negative gain, a judged label outside the levels with a gain)."""
    R_, T_, D = al.labels.shape
    L = len(order)
    g_of = dict(zip(lv.tolist(), gains_lv.tolist()))
    if min(g_of.values()) < 0:
        return None
    g_ord = np.array([g_of[int(x)] for x in order.tolist()])      # increasing gain
    # the judged documents of each topic at each level (in ``order``)
    sizes = np.array([len(j) for j in al.judged_labels], dtype=np.int64)
    flat = np.concatenate([np.asarray(j, dtype=np.int64) for j in al.judged_labels]) \
        if sizes.sum() else np.zeros(0, dtype=np.int64)
    tt = np.repeat(np.arange(T_), sizes)
    where = np.full(int(max(lv[-1], 0)) + 2, -1, dtype=np.int64)
    where[order] = np.arange(L)
    li = np.where(flat >= 0, where[np.clip(flat, 0, len(where) - 1)], -1)
    if np.any((li < 0) & (al.gains(flat) != 0)):
        return None
    Jc = np.zeros((T_, L), dtype=np.int64)
    np.add.at(Jc, (tt[li >= 0], li[li >= 0]), 1)
    lab = al.labels.reshape(R_ * T_, D)
    unj2 = unj.reshape(R_ * T_, D)
    cells = np.flatnonzero(unj2.any(axis=1))
    n_ret = al.n_ret.reshape(-1)[cells]
    cut = n_ret if k is None else np.minimum(k, n_ret)
    rdisc = discounts(max(D, 1))[:D]
    # the judged documents' DCG within the cutoff (unjudged and padding: gain 0)
    table = np.zeros(int(lv[-1]) + 1)
    table[lv] = gains_lv
    sub = lab[cells]
    inside = np.arange(D)[None, :] < cut[:, None]
    g = np.where((sub >= 0) & inside, table[np.clip(sub, 0, len(table) - 1)], 0.0)
    fix = np.add.reduce(g / rdisc[None, :], axis=1)
    u = np.count_nonzero(unj2[cells], axis=1)
    usub = unj2[cells] & inside
    n = np.count_nonzero(usub, axis=1)
    # the ideal's running 1/discount, up to the cutoff
    n_id = int(sizes.max(initial=0) + u.max() + 1)
    w = 1.0 / discounts(n_id)
    if k is not None:
        w[k:] = 0.0
    Iw = np.concatenate([[0.0], np.cumsum(w)])
    left = []
    for nn in np.unique(n).tolist():
        rows_n = np.flatnonzero(n == nn)
        if math.comb(nn + L - 1, L - 1) * 2 > max_candidates:
            left.extend(cells[rows_n].tolist())
            continue
        C = compositions(nn, L)                          # (M, L), lowest gain first
        step = max(1, ROWS // (2 * len(C)))
        for a in range(0, len(rows_n), step):
            rr = rows_n[a:a + step]
            pick, best, comp = _score(cells[rr], usub[rr], u[rr], nn, fix[rr], C, g_ord,
                                      Jc, Iw, rdisc, T_)
            _rescore(al, m, cells[rr][pick], usub[rr][pick], u[rr][pick], best, C[comp],
                     order, Jc, k, low, high)
    return left


def _score(cells, usub, u, nn, fix, C, g_ord, Jc, Iw, rdisc, T_):
    """Every completion's nDCG from counts; the near-extreme ones as (row,
    is_best, composition index)."""
    G, (M, L) = len(cells), C.shape
    # W: running 1/discount over each ranking's unjudged documents within the cutoff
    pos_in = np.nonzero(usub)[1].reshape(G, nn)
    Wr = np.concatenate([np.zeros((G, 1)), np.cumsum(1.0 / rdisc[pos_in], axis=1)], axis=1)
    t = cells % T_
    tail = (u - nn)[:, None]                                        # (G, 1)
    vals = []
    for best in (True, False):
        seq = C[:, ::-1] if best else C                  # counts in rank order
        gseq = g_ord[::-1] if best else g_ord
        ends = np.cumsum(seq, axis=1)
        starts = ends - seq
        dcg = fix[:, None] + np.einsum("gml,l->gm", Wr[:, ends] - Wr[:, starts], gseq)
        # the ideal: levels from the highest gain; the tail at the lowest (best)
        # or the highest (worst) level
        cnt = Jc[t][:, None, :] + C[None, :, :]                      # (G, M, L)
        cnt[:, :, 0 if best else L - 1] += tail
        cd = cnt[:, :, ::-1]
        e = np.cumsum(cd, axis=2)
        s = e - cd
        idcg = np.einsum("gml,l->gm", Iw[e] - Iw[s], g_ord[::-1])
        v = dcg.copy()
        np.divide(dcg, idcg, out=v, where=idcg > 0)
        vals.append(v)
    rows, cols = _pick(np.concatenate(vals, axis=1))                 # (G, 2M)
    return rows, cols < M, cols % M


def _rescore(al, m, cells, usub, u, best, comp, order, Jc, k, low, high):
    """The chosen completions (rows of cells, sorted) scored by the kernel; each
    cell's smallest and largest into ``low`` and ``high``.  With a cutoff the
    kernel sees the top k ranks and, of the qrels, at most k documents of
    each level (the ideal's top k are among them)."""
    R_, T_, D = al.labels.shape
    N, L = comp.shape
    if not N:
        return
    Dd = D if k is None else min(k, D)
    t = cells % T_
    lab = al.labels.reshape(R_ * T_, D)[cells, :Dd].copy()
    # the label sequence of the documents within the cutoff, in rank order
    seq_c = np.where(best[:, None], comp[:, ::-1], comp)
    seq_l = np.where(best[:, None], order[::-1][None, :], order[None, :])
    labs = np.repeat(seq_l.reshape(-1), seq_c.reshape(-1))
    r, c = np.nonzero(usub[:, :Dd])
    lab[r, c] = labs
    tail = u - comp.sum(axis=1)
    cnt = Jc[t] + comp
    cnt[np.arange(N), np.where(best, 0, L - 1)] += tail
    by_label = np.argsort(-order, kind="stable")       # levels by label, descending
    kept = cnt[:, by_label] if k is None else np.minimum(cnt[:, by_label], k)
    lv_desc = order[by_label]
    judged = [np.repeat(lv_desc, row) for row in kept]
    level = al.rel_level
    rel = (comp * (order >= level)[None, :]).sum(axis=1) \
        + tail * np.where(best, order[0] >= level, order[-1] >= level)
    sub = dataclasses.replace(
        al, runs=[al.runs[0] if al.runs else ""], topics=[str(i) for i in range(N)],
        labels=lab[None], n_ret=al.n_ret.reshape(-1)[cells][None, :],
        num_rel=al.num_rel[t] + rel, num_nonrel=al.num_nonrel[t] + u - rel,
        judged_labels=judged, in_run=None, warnings=[], tied=tied_rows(al, cells, Dd))
    vals = np.asarray(m.compute(sub), dtype=np.float64)[0]
    heads = np.flatnonzero(np.r_[True, cells[1:] != cells[:-1]])
    low.reshape(-1)[cells[heads]] = np.fmin.reduceat(vals, heads)
    high.reshape(-1)[cells[heads]] = np.fmax.reduceat(vals, heads)
