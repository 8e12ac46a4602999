"""The ``prefix`` completions of ``--bounds`` scored in one pass
(ipsoeval.measures.bounds).

For a ranking with u unjudged documents at ranks p_1 < ... < p_u the
``prefix`` search looks at 2(u+1) completions: "first c" (p_1..p_c at the
top level H, the others at 0) and "last c" (p_{u-c+1}..p_u at H), c = 0..u.
Scoring each with the measure's kernel costs O(u·D) per ranking.  Here the
value of every one of them is computed at once, for all rankings, from
running sums over the unjudged documents (O(D) per ranking, and O(u·K)
for bpref, K its judged relevant documents).  These values are used only
to *choose*: the completions whose value is within ``TOL`` of a ranking's
smallest or largest are scored again by the measure's own kernel, and the
bounds are those kernel values, so they are exactly what the full search
gives (the kernel's rounding, not this module's).  The error of the values
here is far below ``TOL`` (sums of at most 2·D terms of size at most 1:
~1e-13), so the extreme completion is always among those chosen.

With binary relevance at level l (0 < l <= H), completion "first c" has
R_c = R + c relevant documents and N_c = N + u - c judged non-relevant ones
(R, N the topic's own).  Per measure (``q`` = p_m, the m-th unjudged rank,
0-based; k the cutoff, D without one; J(q), A(q), U(q): judged relevant,
judged non-relevant and unjudged documents ranked above q):

AP (map, map_cut, gm_map)
    S_c = the sum of precisions at the relevant ranks below k; making p_m
    relevant, when the relevant unjudged documents are all above it
    ("first"), adds [q < k]·(m + J(q))/(q + 1) (its own precision) plus
    T(q) = sum over judged relevant i > q, i < k of 1/(i + 1) (one more
    relevant document above each of them); when they are all below it
    ("last", m = u - c + 1) it adds [q < k]·(J(q) + 1)/(q + 1) + T(q) plus
    the same 1/(i + 1) for each relevant unjudged document below it, below
    k.  AP = S_c / R_c.
R@k
    (judged relevant above k + unjudged made relevant above k) / R_c.
bpref
    (trec_eval's) sum over the retrieved relevant documents of
    1 - min(n, R_c)/min(N_c, R_c), n the judged non-relevant documents above
    it, all over R_c.  The sum of the min(n, R_c) is an integer: for an
    unjudged document p_m made relevant n = A(q) ("first": the unjudged
    above it are relevant) or A(q) + u - c ("last"); A is non-decreasing in
    m, so the documents with n < R_c are a prefix of them (one binary
    search); for a judged relevant document i, n = A(i) + max(0, U(i) - c)
    ("first") or A(i) + min(U(i), u - c) ("last"), summed over c for each
    of them.

When the top level is not relevant (H < l) or every level is (l <= 0)
every completion labels the same documents relevant and one is scored.
"""

from __future__ import annotations

import numpy as np

TOL = 1e-9          # completions within TOL of a ranking's extreme are scored by the kernel,
MAX_TIED = 2        # at most this many of them per ranking and side (the nearest)
BLOCK = 1 << 22     # (judged relevant document, c) pairs per step (bpref)
BLOCK_ROWS = 1 << 19  # ranks (rankings x depth) scanned at a time


class Scan:
    """The unjudged documents of the rankings to bound as padded rows: row s
    is cell ``cells[s]`` (run·T + topic; each with an unjudged document) with
    ``u[s]`` unjudged documents at ranks ``P[s, :u[s]]`` (then D)."""

    def __init__(self, al, unj: np.ndarray, level: int, k: int | None, cells: np.ndarray):
        R_, T_, D = al.labels.shape
        self.D, self.k = D, D if k is None else min(k, D)
        lab = al.labels.reshape(R_ * T_, D)
        unj2 = unj.reshape(R_ * T_, D)
        self.cells = cells
        u = np.count_nonzero(unj2[cells], axis=1)
        self.u = u
        n, W = len(u), int(u.max())
        self.W = W
        self.topic = self.cells % T_
        sub = lab[self.cells]
        usub = unj2[self.cells]
        pos = np.nonzero(usub)[1]
        self.valid = np.arange(W)[None, :] < u[:, None]
        self.P = np.full((n, W), D, dtype=np.int64)
        self.P[self.valid] = pos          # row-major: each row's unjudged in rank order
        # judged relevant / non-relevant documents above each unjudged one
        rel = sub >= level
        non = (sub >= 0) & (sub < level)
        cnon = np.cumsum(non, axis=1, dtype=np.int32)
        self.J = np.zeros((n, W), dtype=np.int32)
        self.A = np.zeros((n, W), dtype=np.int32)
        self.J[self.valid] = np.cumsum(rel, axis=1, dtype=np.int32)[usub]
        self.A[self.valid] = cnon[usub]
        # the judged relevant documents of these rankings: their row, rank,
        # their number among them (1-based), and the judged non-relevant and
        # the unjudged documents above them
        self.rrow, self.rpos = np.nonzero(rel)
        self.K = np.count_nonzero(rel, axis=1)
        self.rj = np.arange(len(self.rrow)) - np.repeat(np.cumsum(self.K) - self.K, self.K) + 1
        self.rU = np.cumsum(usub, axis=1, dtype=np.int32)[rel]
        self.rA = cnon[rel]

    def per_row(self, weights: np.ndarray) -> np.ndarray:
        """Sum over each row's judged relevant documents."""
        return np.bincount(self.rrow, weights=weights, minlength=len(self.u))

    def completions(self, first: np.ndarray, last: np.ndarray):
        """Rows (s, is_first, c) within TOL of their row's extremes, from the
        values (n, W+1) of "first c" and "last c" (NaN: undefined or c > u)."""
        both = np.concatenate([first, last], axis=1)
        fin = ~np.isnan(both)
        top = np.where(fin, both, -np.inf).max(axis=1)
        bot = np.where(fin, both, np.inf).min(axis=1)
        picks = []
        for dist in (top[:, None] - both, both - bot[:, None]):
            near = fin & (dist <= TOL)
            near[~fin.any(axis=1), 0] = True    # undefined throughout: the kernel says so
            many = np.flatnonzero(np.count_nonzero(near, axis=1) > MAX_TIED)
            if len(many):       # ties: the MAX_TIED nearest
                d = np.where(near[many], dist[many], np.inf)
                keep = np.argpartition(d, MAX_TIED - 1, axis=1)[:, :MAX_TIED]
                near[many] = False
                near[many[:, None], keep] = True
            picks.append(np.nonzero(near))
        s = np.concatenate([picks[0][0], picks[1][0]])
        col = np.concatenate([picks[0][1], picks[1][1]])
        col[col == self.W + 1] = 0             # "last 0" is "first 0"
        order = np.lexsort((col, s))
        s, col = s[order], col[order]
        dup = np.r_[False, (s[1:] == s[:-1]) & (col[1:] == col[:-1])]
        s, col = s[~dup], col[~dup]
        is_first = col <= self.W
        c = np.where(is_first, col, col - (self.W + 1))
        return s, is_first, c

    def in_c(self, values: np.ndarray) -> np.ndarray:
        """(n, W+1) with c = 0..W, NaN past each row's u."""
        out = np.where(np.arange(self.W + 1)[None, :] <= self.u[:, None], values, np.nan)
        return out


def tied_rows(al, cells: np.ndarray, depth: int) -> "np.ndarray | None":
    """The tie groups of the rankings ``cells`` (flat run x topic indices) to
    ``depth``, as one run's: a completion changes labels, not the ranking, so
    --tie-break expected averages over the same tie orders."""
    if al.tied is None:
        return None
    R_, T_, D = al.tied.shape
    return al.tied.reshape(R_ * T_, D)[cells, :depth][None]


def _counts(sc: Scan, num_rel: np.ndarray):
    R0 = num_rel[sc.topic].astype(np.int64)
    c = np.arange(sc.W + 1)[None, :]
    return R0, c, (R0[:, None] + c).astype(np.float64)


def _div(a, b):
    out = np.zeros(np.broadcast_shapes(a.shape, b.shape))
    np.divide(a, b, out=out, where=b != 0)
    return out


def ap(sc: Scan, al, m, level: int, num_rel, num_nonrel):
    k, P, valid = sc.k, sc.P, sc.valid
    inside = (P < k) & valid
    w = np.where(sc.rpos < k, 1.0 / (sc.rpos + 1.0), 0.0)
    S0 = sc.per_row(np.where(sc.rpos < k, sc.rj / (sc.rpos + 1.0), 0.0))
    # T(q): judged relevant documents below q and above k (the row's first
    # Kk judged relevant documents are above k, its first J(q) above q)
    cw = np.concatenate([[0.0], np.cumsum(w)])
    off = np.concatenate([[0], np.cumsum(sc.K)])[:-1]
    Kk = sc.per_row((sc.rpos < k).astype(np.float64)).astype(np.int64)
    T = cw[(off + Kk)[:, None]] - cw[off[:, None] + np.minimum(sc.J, Kk[:, None])]
    T = np.where(valid, T, 0.0)
    mm = np.arange(sc.W)[None, :] + 1.0
    own_w = np.where(inside, 1.0 / (P + 1.0), 0.0)
    dF = own_w * (mm + sc.J) + T
    dF = np.where(valid, dF, 0.0)
    dL_own = own_w * (sc.J + 1.0) + T
    below = np.cumsum(own_w[:, ::-1], axis=1)[:, ::-1] - own_w      # unjudged below, above k
    dL = np.where(valid, dL_own + below, 0.0)
    G = np.cumsum(dL[:, ::-1], axis=1)[:, ::-1]                      # sum over m' >= m
    R0, c, Rc = _counts(sc, num_rel)
    SF = S0[:, None] + np.concatenate([np.zeros((len(sc.u), 1)), np.cumsum(dF, axis=1)], axis=1)
    # "last c" = G at index u - c (c >= 1)
    idx = sc.u[:, None] - c
    SL = S0[:, None] + np.where(c > 0, np.take_along_axis(
        np.concatenate([G, np.zeros((len(sc.u), 1))], axis=1), np.clip(idx, 0, sc.W), axis=1),
        0.0)
    return sc.in_c(_div(SF, Rc)), sc.in_c(_div(SL, Rc))


def recall(sc: Scan, al, m, level: int, num_rel, num_nonrel):
    k = sc.k
    inside = ((sc.P < k) & sc.valid).astype(np.float64)
    K0 = sc.per_row((sc.rpos < k).astype(np.float64))
    zero = np.zeros((len(sc.u), 1))
    cf = np.concatenate([zero, np.cumsum(inside, axis=1)], axis=1)
    tot = cf[:, -1:]
    R0, c, Rc = _counts(sc, num_rel)
    below = np.take_along_axis(cf, np.clip(sc.u[:, None] - c, 0, sc.W), axis=1)
    cl = tot - below
    return sc.in_c(_div(K0[:, None] + cf, Rc)), sc.in_c(_div(K0[:, None] + cl, Rc))


def bpref(sc: Scan, al, m, level: int, num_rel, num_nonrel):
    n, W, u = len(sc.u), sc.W, sc.u
    R0, c, Rc = _counts(sc, num_rel)
    N0 = num_nonrel[sc.topic].astype(np.int64)
    ci = np.arange(W + 1)[None, :]
    uu = u[:, None]
    Ri = R0[:, None] + ci                       # R_c
    Nc = N0[:, None] + uu - ci                  # N_c (negative past u: masked later)
    # (a) the unjudged documents made relevant; A non-decreasing along each row
    A = np.where(sc.valid, sc.A, 0)
    cumA = np.concatenate([np.zeros((n, 1), dtype=np.int64), np.cumsum(A, axis=1)], axis=1)
    top = int(A.max(initial=0))
    hist = np.bincount((np.arange(n)[:, None] * (top + 1) + A)[sc.valid],
                       minlength=n * (top + 1)).reshape(n, top + 1)
    cum = np.concatenate([np.zeros((n, 1), dtype=np.int64), np.cumsum(hist, axis=1)], axis=1)

    def count_le(theta):            # per row: unjudged m with A_m <= theta
        return np.take_along_axis(cum, np.clip(theta, -1, top) + 1, axis=1)
    g = np.minimum(ci, count_le(Ri))
    YF = np.take_along_axis(cumA, g, axis=1) + Ri * (ci - g)
    th = R0[:, None] + 2 * ci - uu             # min(A + u - c, R_c) = u - c + min(A, th)
    start = np.clip(uu - ci, 0, W)
    g = np.clip(count_le(th) - (uu - ci), 0, None)
    g = np.minimum(g, ci)
    YL = (np.take_along_axis(cumA, np.clip(start + g, 0, W), axis=1)
          - np.take_along_axis(cumA, start, axis=1) + th * (ci - g) + (uu - ci) * ci)
    # (b) the judged relevant documents, a block of them at a time
    XF = np.zeros((n, W + 1), dtype=np.int64)
    XL = np.zeros((n, W + 1), dtype=np.int64)
    step = max(1, BLOCK // (W + 1))
    ci32 = np.arange(W + 1, dtype=np.int32)[None, :]
    for a in range(0, len(sc.rrow), step):
        rows = sc.rrow[a:a + step]
        rA = sc.rA[a:a + step, None]
        rU = sc.rU[a:a + step, None]
        Rr = R0[rows].astype(np.int32)[:, None] + ci32
        f = np.maximum(rU - ci32, 0)
        f += rA
        np.minimum(f, Rr, out=f)
        la = np.maximum(u[rows].astype(np.int32)[:, None] - ci32, 0)
        np.minimum(la, rU, out=la)
        la += rA
        np.minimum(la, Rr, out=la)
        _add_rows(XF, rows, f)
        _add_rows(XL, rows, la)
    relret = (sc.K[:, None] + ci).astype(np.float64)
    den = np.minimum(Nc, Ri).astype(np.float64)
    vF = _div(relret - _div((YF + XF).astype(np.float64), den), Rc)
    vL = _div(relret - _div((YL + XL).astype(np.float64), den), Rc)
    return sc.in_c(vF), sc.in_c(vL)


def _add_rows(out: np.ndarray, rows: np.ndarray, block: np.ndarray) -> None:
    """out[rows[i]] += block[i], rows sorted."""
    if not len(rows):
        return
    head = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
    if len(head) == len(rows):          # one block row per output row
        out[rows] += block
    else:
        out[rows[head]] += np.add.reduceat(block, head, axis=0)


SCORERS = {"AP": ap, "gm_map": ap, "R": recall, "bpref": bpref, "gm_bpref": bpref}
