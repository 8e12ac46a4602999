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

import itertools
import math

import numpy as np

from ipsoeval.measures.bounds_scan import MAX_TIED, TOL

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


def choose(al, m, unj: np.ndarray, lv: np.ndarray, order: np.ndarray, k: int | None,
           gains_lv: np.ndarray, discounts, max_candidates: int):
    """The completions worth scoring by the kernel, as a list of ((r, t),
    positions, labellings), and the cells it leaves to the caller (more than
    ``max_candidates`` completions); None when the gains are not modelled
    here (a negative gain, a judged label outside the levels with a gain)."""
    R_, T_, D = al.labels.shape
    L = len(order)
    lvl = lv.tolist()
    g_of = dict(zip(lvl, gains_lv.tolist()))
    if min(g_of.values()) < 0:
        return None
    g_ord = np.array([g_of[int(x)] for x in order.tolist()])      # increasing gain
    # the judged documents of each topic at each level (in ``order``)
    Jc = np.zeros((T_, L), dtype=np.int64)
    idx = {int(x): i for i, x in enumerate(order.tolist())}
    for t, jl in enumerate(al.judged_labels):
        if not len(jl):
            continue
        vals, cnt = np.unique(jl, return_counts=True)
        for x, c in zip(vals.tolist(), cnt.tolist()):
            if x in idx:
                Jc[t, idx[x]] += c
            elif float(al.gains(np.array([x]))[0]) != 0.0:
                return None
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
    n_id = int(max((len(j) for j in al.judged_labels), default=0) + u.max() + 1)
    idisc = discounts(n_id)
    w = 1.0 / idisc
    if k is not None:
        w[k:] = 0.0
    I = np.concatenate([[0.0], np.cumsum(w)])
    out, left = [], []
    for nn in np.unique(n).tolist():
        rows_n = np.flatnonzero(n == nn)
        if math.comb(nn + L - 1, L - 1) * 2 > max_candidates:
            left.extend(cells[rows_n].tolist())
            continue
        C = compositions(nn, L)                          # (M, L), lowest gain first
        M = len(C)
        step = max(1, ROWS // (2 * M))
        for a in range(0, len(rows_n), step):
            rr = rows_n[a:a + step]
            out.extend(_score(al, cells[rr], lab, unj2, usub[rr], u[rr], nn, fix[rr], C,
                              g_ord, order, Jc, I, rdisc, T_))
    return out, left


def _score(al, cells, lab, unj2, usub, u, nn, fix, C, g_ord, order, Jc, I, rdisc, T_):
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
        idcg = np.einsum("gml,l->gm", I[e] - I[s], g_ord[::-1])
        v = dcg.copy()
        np.divide(dcg, idcg, out=v, where=idcg > 0)
        vals.append(v)
    v = np.concatenate(vals, axis=1)                                 # (G, 2M)
    rows, cols = _pick(v)
    out = []
    heads = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
    for h, e in zip(heads.tolist(), np.r_[heads[1:], len(rows)].tolist()):
        g_ = int(rows[h])
        labs = []
        for col in cols[h:e].tolist():
            best = col < M
            c = C[col % M]
            seq = np.repeat(order[::-1], c[::-1]) if best else np.repeat(order, c)
            fill = order[0] if best else order[-1]
            labs.append(np.concatenate([seq, np.full(int(u[g_]) - nn, fill)]))
        cell = int(cells[g_])
        out.append(((cell // T_, cell % T_), np.flatnonzero(unj2[cell]),
                    np.array(labs, dtype=np.int64).reshape(len(labs), int(u[g_]))))
    return out
