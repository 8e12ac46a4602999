"""What the unjudged documents could change: each measure's lowest and highest
value over every labelling of the unjudged retrieved documents (``--bounds``).

A *completion* of the qrels gives each unjudged retrieved document of a
ranking (not in the qrels, or a negative label: trec_eval's pooled but
unjudged; within the ``-M`` depth) a label from the *levels*
``0, 1, ..., L``, L the highest label of the judged documents of the
evaluated topics.  The document then counts as judged at that label: it
enters R, the ideal ordering of nDCG, the judged non-relevant documents of
bpref and infAP.  ``low`` and ``high`` are the smallest and the largest
value of the measure, computed by its own kernel, over all completions of
the ranking; the value under any completion lies in ``[low, high]``.
Unjudged documents no run retrieved are unknowable and not counted (they
would only enter R and the ideal orderings).

Searching all ``(L+1)^u`` completions of u unjudged documents is not needed
where a family declares its shape (``Family.bounds``):

``uniform``
    The value moves one way with each document's label (or its gain) and R
    does not enter, or enters linearly (P@k, RR, Success, ESL, DCG, RBP,
    ERR, the counts, set precision, utility): the extremes are reached
    when every unjudged document has the same label, so the L+1 uniform
    completions are searched.
``prefix``
    Binary relevance, and making a relevant document change places with a
    non-relevant one ranked above it never lowers the value while R stays
    the same (AP, R@k, R-precision, bpref, infAP, interpolated precision,
    the set measures, ...).  For each number c of unjudged documents made
    relevant the best completion makes the first c of them (in rank order)
    relevant and the worst one the last c: the 2(u+1) completions "first c
    relevant" and "last c relevant" are searched.  (R grows with c, so the
    maximum need not be at "all relevant": R@k's is with only the unjudged
    documents in the top k relevant, and its minimum with only those below.)
``sorted``
    Graded gains with a normaliser that depends only on the multiset of
    labels (nDCG in all its forms, trec_eval's rbp): for a fixed multiset,
    the value is largest when the unjudged documents' labels fall in rank
    order (rearrangement: discounts do not increase with the rank) and
    smallest when they rise, so the non-increasing and the non-decreasing
    label sequences (by gain) are searched; with a cutoff k, unjudged
    documents below k only add to the ideal, and are fixed at the lowest
    gain (for the maximum) or the highest (for the minimum).  The best
    label need not be 0 or L (a document at an intermediate label can add
    less to the ideal than to the DCG).  Their number is C(u+L, L); past
    ``MAX_CANDIDATES`` per ranking, nDCG's extremes are found by
    :func:`ndcg_extremes` (a fractional programme solved exactly by
    Dinkelbach's method over a dynamic programme, below), the other
    families' bounds are left undefined (NaN) with a warning, never guessed.
``exhaustive``
    Every completion, up to ``MAX_CANDIDATES`` per ranking (else NaN and a
    warning): the default for a family that declares nothing.
``none``
    The measure describes the judgments or the ranking, not relevance
    (Judged, unj, the RBP residual, num_q, num_ret, relstring): ``low`` =
    ``high`` = its value.

tests/unit/measures/test_bounds.py checks every family against all completions of small
random rankings.  With ``-J`` (judged documents only) the unjudged
documents are removed before the measures see the rankings, so there is
nothing left to bound.  Each ranking's bounds are its own: two runs that
retrieve the same unjudged document may have it at different labels in
their worst and best cases.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Sequence

import numpy as np

from ipsoeval.measures.bounds_scan import tied_rows
from ipsoeval.model import PAD, Aligned
from ipsoeval.model import unjudged as unjudged_labels

KINDS = ("uniform", "prefix", "sorted", "exhaustive", "none")
MAX_CANDIDATES = 20000          # completions searched per ranking (sorted, exhaustive)
CHUNK = 2_000_000               # labels per kernel call


def levels(al: Aligned) -> np.ndarray:
    """The labels an unjudged document may take: 0 .. the highest judged label."""
    top = max((int(j.max()) for j in al.judged_labels if len(j)), default=0)
    return np.arange(0, max(top, 0) + 1, dtype=np.int64)


def unjudged_mask(al: Aligned) -> np.ndarray:
    """bool (R, T, D): retrieved documents whose label is unknown."""
    lab = al.labels
    return unjudged_labels(lab)


def _gain_order(al: Aligned, m, lv: np.ndarray) -> np.ndarray:
    """The levels from the lowest gain to the highest, as the measure weighs them
    (:func:`_level_gains`); ties by label."""
    return lv[np.lexsort((lv, _level_gains(al, m, lv)))]


def _candidates(kind: str, u: int, lv: np.ndarray, order: np.ndarray | None,
                n_top: int | None):
    """Label sequences (one per completion) for u unjudged documents; None when
    there are more than MAX_CANDIDATES.  ``n_top``: how many of the u are
    within the measure's cutoff (the rest only matter through the ideal)."""
    lo, hi = int(lv[0]), int(lv[-1])
    if kind == "uniform":
        return np.repeat(lv[:, None], u, axis=1)
    if kind == "prefix":
        c = np.arange(u + 1)[:, None]
        pos = np.arange(u)[None, :]
        first = np.where(pos < c, hi, lo).astype(np.int32)
        last = np.where(pos >= u - c, hi, lo).astype(np.int32)
        return np.concatenate([first, last])
    if kind == "sorted":
        n = u if n_top is None else min(n_top, u)
        L = len(order)
        if math.comb(n + L - 1, L - 1) * 2 > MAX_CANDIDATES:
            return None
        rows = []
        for seq in itertools.combinations_with_replacement(range(L), n):
            up = [int(order[i]) for i in seq]          # non-decreasing gains
            down = up[::-1]
            rows.append(down + [int(order[0])] * (u - n))     # best: falls, tail lowest
            rows.append(up + [int(order[-1])] * (u - n))      # worst: rises, tail highest
        return np.array(rows, dtype=np.int64).reshape(len(rows), u)
    if kind == "exhaustive":
        if len(lv) ** u > MAX_CANDIDATES:
            return None
        return np.array(list(itertools.product(lv.tolist(), repeat=u)),
                        dtype=np.int64).reshape(-1, u)
    raise ValueError(f"unknown bounds kind {kind!r}")


def _discounts(m, n: int) -> np.ndarray:
    """nDCG's discount of 0-based ranks 0..n-1 (log2(rank+1), or b='s J-K form)."""
    from ipsoeval.measures import kernels as K
    b = m.param("b")
    if b is not None and m.param("dcg") != "exp-log2" and m.param("te") is None:
        return K.jk_discounts(max(n, 1), float(b))[:n]
    return K.log2_discounts(max(n, 1))[:n]


def ndcg_extremes(al: Aligned, m, r: int, t: int, pos: np.ndarray, lv: np.ndarray):
    """Labellings of the unjudged documents at ``pos`` of ranking (r, t) with the
    largest and the smallest nDCG, or None (negative gains).

    nDCG = N(x)/I(x): N the DCG of the ranking, I the ideal DCG of the judged
    documents and the unjudged ones at their labels x.  The best labelling
    is a non-increasing sequence of gains in rank order (a falling one, for
    the worst: the ``sorted`` argument above), so it is fixed by the number
    of documents at each gain.  Dinkelbach's method: for a ratio t, maximise
    N(x) - t·I(x); if the maximum is 0, t is the largest ratio, else t
    becomes N(x)/I(x) of the maximiser, which strictly increases t, and x
    ranges over a finite set.  For a given t the maximum is a dynamic
    programme over the gains from the highest: with p unjudged documents
    (the first p in rank order) at the gains seen so far, the judged
    documents at those gains and these p fill the first ideal ranks, so p
    alone is the state, and each gain's step is a running maximum (O(gains
    × u)).  The smallest value is the same with the highest gains given to
    the last unjudged documents."""
    order = _gain_order(al, m, lv)                   # levels by increasing gain
    gain = dict(zip(lv.tolist(), _level_gains(al, m, lv).tolist()))
    if min(gain.values()) < 0:
        return None
    k = m.k
    u = len(pos)
    rank = al.labels[r, t]
    n_rank = int(al.n_ret[r, t])
    cut = n_rank if k is None else min(k, n_rank)
    jl = al.judged_labels[t]
    pos_levels = sorted({gain[x] for x in lv.tolist() if gain[x] > 0}, reverse=True)
    rep = {}
    for x in order.tolist():                          # a label of each gain
        rep[gain[x]] = x
    zero = min(gain.values())                         # documents left out: the lowest gain
    J = [int(sum(1 for x in jl.tolist() if gain.get(int(x), 0.0) == g)) for g in pos_levels]
    n_ideal = sum(J) + u
    idisc = _discounts(m, max(n_ideal, 1))
    ik = n_ideal if k is None else min(k, n_ideal)
    Dk = np.concatenate([[0.0], np.cumsum(np.where(np.arange(n_ideal) < ik,
                                                   1.0 / idisc[:n_ideal], 0.0))])
    rdisc = _discounts(m, max(n_rank, 1))
    judged_pos = [i for i in range(n_rank) if i < cut and rank[i] >= 0]
    n_fix = sum(gain.get(int(rank[i]), 0.0) / rdisc[i] for i in judged_pos)
    JJ = np.concatenate([[0], np.cumsum(J)]).astype(np.int64)

    def solve(w, sign, tval):
        """max over counts of sign·(dcg - t·idcg); returns (labels along w, dcg, idcg)."""
        Wc = np.concatenate([[0.0], np.cumsum(w)])
        F = np.full(u + 1, -np.inf)
        F[0] = 0.0
        back = []
        for li, g in enumerate(pos_levels):
            H = F - sign * g * Wc + sign * tval * g * Dk[JJ[li] + np.arange(u + 1)]
            best = np.maximum.accumulate(H)
            arg = np.zeros(u + 1, dtype=np.int64)
            cur = 0
            for p in range(u + 1):
                if H[p] > H[cur]:
                    cur = p
                arg[p] = cur
            back.append(arg)
            F = best + sign * g * Wc - sign * tval * g * Dk[JJ[li + 1] + np.arange(u + 1)]
        final = F + sign * zero * (Wc[u] - Wc)
        p = int(np.argmax(final))
        counts = []
        for arg in reversed(back):
            q = int(arg[p])
            counts.append(p - q)
            p = q
        counts.reverse()
        labs, dcg, idcg, start = [], n_fix, 0.0, 0
        for li, (g, c) in enumerate(zip(pos_levels, counts)):
            labs += [rep[g]] * c
            dcg += g * (Wc[start + c] - Wc[start])
            idcg += g * (Dk[JJ[li + 1] + start + c] - Dk[JJ[li] + start])
            start += c
        labs += [rep[zero]] * (u - start)
        dcg += zero * (Wc[u] - Wc[start])
        return labs, dcg, idcg

    w_rank = np.array([1.0 / rdisc[i] if i < cut else 0.0 for i in pos.tolist()])
    out = []
    for sign, w in ((1.0, w_rank), (-1.0, w_rank[::-1])):
        # t: the ratio of a labelling (max: 0 is below every value; min: all at the top)
        if sign > 0:
            tval = 0.0
        else:
            _, dcg, idcg = solve(w, 1.0, 0.0)          # every document at the top gain
            tval = dcg / idcg if idcg > 0 else 0.0
        for _ in range(200):
            labs, dcg, idcg = solve(w, sign, tval)
            out.append(labs if sign > 0 else labs[::-1])
            if sign * (dcg - tval * idcg) <= 1e-13 * max(1.0, abs(dcg)) or idcg <= 0:
                break
            tval = dcg / idcg
    return np.array(out, dtype=np.int64).reshape(len(out), u)


def _level_gains(al: Aligned, m, lv: np.ndarray) -> np.ndarray:
    """The gain the measure gives each level: trec_eval's level=gain pairs over
    --gains over the label; 2^gain - 1 for dcg='exp-log2'."""
    g = al.gains(lv).astype(np.float64)
    if m.param("te") is not None:
        from ipsoeval.measures import kernels as K
        pairs = K.gain_pairs(m)[0]
        g = np.array([pairs.get(int(x), float(y)) for x, y in zip(lv, g)])
    if m.param("dcg") == "exp-log2":
        g = np.where(g > 0, np.exp2(np.maximum(g, 0.0)) - 1.0, 0.0)
    return g


def completed(al: Aligned, cells: list[tuple[int, int]], positions: list[np.ndarray],
              labellings: list[np.ndarray], depth: int | None = None) -> Aligned:
    """One run whose topics are the completions: ranking ``cells[n]`` with the
    documents at ``positions[n]`` labelled ``labellings[n]`` (rows), the
    topic's qrels grown by those judgments.  ``depth``: only the top ranks
    are kept (a measure cut at that rank sees no more; the documents below
    still enter the qrels)."""
    D = al.labels.shape[2] if depth is None else min(depth, al.labels.shape[2])
    N = sum(len(labs) for labs in labellings)
    lab = np.empty((1, N, D), dtype=al.labels.dtype)
    n_ret = np.empty(N, dtype=np.int64)
    num_rel = np.empty(N, dtype=np.int64)
    num_nonrel = np.empty(N, dtype=np.int64)
    judged: list[np.ndarray] = []
    tied = None if al.tied is None else np.empty((1, N, D), dtype=bool)
    start = 0
    for (r, t), pos, labs in zip(cells, positions, labellings):
        end = start + len(labs)
        block = lab[0, start:end]
        block[:] = al.labels[r, t, :D]
        if tied is not None:
            tied[0, start:end] = al.tied[r, t, :D]
        keep = pos < D
        block[:, pos[keep]] = labs[:, keep]
        n_ret[start:end] = al.n_ret[r, t]
        rel = np.count_nonzero(labs >= al.rel_level, axis=1)
        num_rel[start:end] = al.num_rel[t] + rel
        num_nonrel[start:end] = al.num_nonrel[t] + labs.shape[1] - rel \
            - np.count_nonzero(labs < 0, axis=1)
        jl = al.judged_labels[t]
        both = np.concatenate([np.broadcast_to(jl[None, :], (len(labs), len(jl))),
                               labs.astype(jl.dtype)], axis=1)
        both.sort(axis=1)
        judged.extend(both[:, ::-1])          # each row descending, as align builds them
        start = end
    return dataclasses.replace(
        al, runs=[al.runs[0] if al.runs else ""], topics=[str(i) for i in range(N)],
        labels=lab, n_ret=n_ret[None, :], num_rel=num_rel, num_nonrel=num_nonrel,
        judged_labels=judged, in_run=None, warnings=[], tied=tied)


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The indices start .. start + length - 1 of each block, concatenated."""
    total = int(lengths.sum())
    before = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    return np.repeat(starts - before, lengths) + np.arange(total)


def _completed_prefix(al: Aligned, sc, s: np.ndarray, first: np.ndarray, c: np.ndarray,
                      lo: int, hi: int, depth: int | None, level: int, num_rel: np.ndarray,
                      num_nonrel: np.ndarray) -> Aligned:
    """:func:`completed` for the ``prefix`` completions (row ``s`` of the scan,
    its first or last ``c`` unjudged documents at ``hi``, the others at
    ``lo``), built for all of them at once, with relevance at ``level`` (R
    and N at that level: ``num_rel``, ``num_nonrel``)."""
    R_, T_, D = al.labels.shape
    Dd = D if depth is None else min(depth, D)
    cells, u = sc.cells[s], sc.u[s]
    t = cells % T_
    N = len(s)
    lab = al.labels.reshape(R_ * T_, D)[cells, :Dd]
    # unjudged documents at lo (PAD stays), then the first or last c at hi
    lab[(lab < 0) & (lab != PAD)] = lo
    where = _ranges(s * sc.W + np.where(first, 0, u - c), c)
    pos = sc.P.reshape(-1)[where]
    row = np.repeat(np.arange(N), c)
    inside = pos < Dd
    lab[row[inside], pos[inside]] = hi
    rel = c * (hi >= level) + (u - c) * (lo >= level)
    return dataclasses.replace(
        al, runs=[al.runs[0] if al.runs else ""], topics=[str(i) for i in range(N)],
        labels=lab[None], n_ret=al.n_ret.reshape(-1)[cells][None, :], rel_level=level,
        num_rel=num_rel[t] + rel, num_nonrel=num_nonrel[t] + u - rel,
        judged_labels=_Judged(al.judged_labels, t, c, u - c, hi, lo), in_run=None,
        warnings=[], tied=tied_rows(al, cells, Dd))


class _Completions(Sequence):
    """The qrels labels of each completion (descending), built when a kernel
    asks for them from the judged labels of its topic (``_labels``)."""

    def __len__(self):
        return len(self.topic)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return self._labels(self.judged[int(self.topic[i])], i)


class _Judged(_Completions):
    """The topic's judged labels with ``n_hi`` more at ``hi`` (the largest
    label) and ``n_lo`` more at ``lo`` (0)."""

    def __init__(self, judged, topic, n_hi, n_lo, hi, lo):
        self.judged, self.topic, self.n_hi, self.n_lo = judged, topic, n_hi, n_lo
        self.hi, self.lo = hi, lo

    def _labels(self, jl, i):
        cut = int(np.count_nonzero(jl >= self.lo))
        return np.concatenate([np.full(int(self.n_hi[i]), self.hi, dtype=jl.dtype), jl[:cut],
                               np.full(int(self.n_lo[i]), self.lo, dtype=jl.dtype), jl[cut:]])


class _Sorted(_Completions):
    """The topic's judged labels with ``n[i]`` more at ``label``."""

    def __init__(self, judged, topic, n, label):
        self.judged, self.topic, self.n, self.label = judged, topic, n, label

    def _labels(self, jl, i):
        both = np.concatenate([jl, np.full(int(self.n[i]), self.label, dtype=jl.dtype)])
        both.sort()
        return both[::-1]


def _uniform_bounds(al: Aligned, m, unj: np.ndarray, lv: np.ndarray, k: int | None,
                    low: np.ndarray, high: np.ndarray) -> bool:
    """The ``uniform`` search for all rankings at once: for each level one
    completion of every ranking (its unjudged documents all at that level),
    scored by the measure's kernel, into ``low`` and ``high`` (the smallest
    and the largest defined value; NaN when none is); True when done."""
    R_, T_, D = al.labels.shape
    Dd = D if k is None else min(k, D)
    lab2 = al.labels.reshape(R_ * T_, D)
    unj2 = unj.reshape(R_ * T_, D)
    cells = np.flatnonzero(unj2.any(axis=1))
    u_all = np.count_nonzero(unj2[cells], axis=1)
    width = Dd + int(u_all.max()) + max((len(j) for j in al.judged_labels), default=0)
    step = max(1, CHUNK // width)
    for a in range(0, len(cells), step):
        cl, u = cells[a:a + step], u_all[a:a + step]
        t = cl % T_
        lo = np.full(len(cl), np.nan)
        hi = np.full(len(cl), np.nan)
        for x in lv.tolist():
            lab = lab2[cl, :Dd].copy()
            lab[unj2[cl, :Dd]] = x
            rel = u * int(x >= al.rel_level)
            sub = dataclasses.replace(
                al, runs=[al.runs[0] if al.runs else ""], topics=[str(i) for i in range(len(cl))],
                labels=lab[None], n_ret=al.n_ret.reshape(-1)[cl][None, :],
                num_rel=al.num_rel[t] + rel, num_nonrel=al.num_nonrel[t] + u - rel,
                judged_labels=_Sorted(al.judged_labels, t, u, x), in_run=None, warnings=[],
                tied=tied_rows(al, cl, Dd))
            vals = np.asarray(m.compute(sub), dtype=np.float64)[0]
            lo, hi = np.fmin(lo, vals), np.fmax(hi, vals)
        low.reshape(-1)[cl] = lo
        high.reshape(-1)[cl] = hi
    return True


def _prefix_bounds(al: Aligned, m, unj: np.ndarray, lv: np.ndarray, k: int | None,
                   low: np.ndarray, high: np.ndarray) -> bool:
    """The ``prefix`` search with the completions worth scoring chosen by
    :mod:`ipsoeval.measures.bounds_scan` and scored by the measure's kernel,
    into ``low`` and ``high``; False (nothing done) when the measure has no
    scorer there."""
    from ipsoeval.measures import bounds_scan as S
    scorer = S.SCORERS.get(m.family)
    if scorer is None:
        return False
    level = m.level(al.rel_level)
    lo, hi = int(lv[0]), int(lv[-1])
    from ipsoeval.measures import kernels as K
    ctx = K.Context(al)
    num_rel, num_nonrel = ctx.num_rel(level), ctx.num_nonrel(level)
    R_, T_, D = al.labels.shape
    cells = np.flatnonzero(unj.reshape(R_ * T_, D).any(axis=1))
    step = max(1, S.BLOCK_ROWS // D)                 # rankings per block
    for a in range(0, len(cells), step):
        sc = S.Scan(al, unj, level, k, cells[a:a + step])
        if lo < level <= hi:
            s, first, c = sc.completions(*scorer(sc, al, m, level, num_rel, num_nonrel))
        else:       # the same documents relevant in every completion: score one
            s = np.arange(len(sc.u))
            first, c = np.ones(len(s), dtype=bool), np.zeros(len(s), dtype=np.int64)
        sub = _completed_prefix(al, sc, s, first, c, lo, hi, k, level, num_rel, num_nonrel)
        vals = np.asarray(m.compute(sub), dtype=np.float64)[0]
        heads = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
        low.reshape(-1)[sc.cells[s[heads]]] = np.fmin.reduceat(vals, heads)
        high.reshape(-1)[sc.cells[s[heads]]] = np.fmax.reduceat(vals, heads)
    return True


def bounds(al: Aligned, m, values: np.ndarray | None = None,
           warnings: list[str] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(low, high), float64 (runs, topics): the measure's smallest and largest
    value over the completions of each ranking (module docstring).  Rankings
    with no unjudged document keep ``values`` (computed when not given)."""
    if getattr(m.fam, "subtopics", False):
        from ipsoeval.errors import UsageError
        raise UsageError(f"--bounds is not defined for {m.name} (a diversity measure: an "
                         f"unjudged document would need a judgment per subtopic)")
    if values is None:
        values = m.compute(al)
    values = np.asarray(values)
    kind = getattr(m.fam, "bounds", "exhaustive")
    averaged = al.ties_averaged and kind != "none"
    if averaged:
        # --tie-break expected: the value is an average over the tie orders,
        # which the shortcuts' extremes (a prefix, a uniform or a sorted
        # completion) do not hold for; every labelling is scored instead
        kind = "exhaustive"
    if m.kind == "text":
        return values, values
    if kind == "none":
        return values.astype(np.float64), values.astype(np.float64)
    low = values.astype(np.float64).copy()
    high = low.copy()
    unj = unjudged_mask(al)
    todo = np.argwhere(unj.any(axis=2))
    if not len(todo):
        return low, high
    lv = levels(al)
    order = _gain_order(al, m, lv) if kind == "sorted" else None
    # the completions keep the top k ranks only, but not when a tie group may
    # straddle the cutoff (its documents below k move above it in some orders)
    k = m.k if (m.fam.cutoff != "none" and m.fam.cutoff_kind == "rank"
                and m.param("te") is None and not averaged) else None
    skipped = 0
    batch: list = []
    size = 0

    def flush():
        nonlocal batch, size
        if not batch:
            return
        cells = [b[0] for b in batch]
        sub = completed(al, cells, [b[1] for b in batch], [b[2] for b in batch], depth=k)
        vals = np.asarray(m.compute(sub), dtype=np.float64)[0]
        start = 0
        for (r, t), _, labs in batch:
            v = vals[start:start + len(labs)]
            start += len(labs)
            ok = v[~np.isnan(v)]
            low[r, t] = ok.min() if len(ok) else np.nan
            high[r, t] = ok.max() if len(ok) else np.nan
        batch, size = [], 0

    if kind == "prefix" and _prefix_bounds(al, m, unj, lv, k, low, high):
        return low, high
    if kind == "uniform" and _uniform_bounds(al, m, unj, lv, k, low, high):
        return low, high
    D = al.labels.shape[2] if k is None else min(k, al.labels.shape[2])
    if kind == "sorted" and MAX_CANDIDATES > 0:
        from ipsoeval.measures import bounds_sorted as BS
        left = None
        if BS.applies(al, m):
            left = BS.scan(al, m, unj, lv, order, k, _level_gains(al, m, lv),
                           lambda n: _discounts(m, n), MAX_CANDIDATES, low, high)
        if left is not None:
            T_ = al.labels.shape[1]
            todo = [divmod(c, T_) for c in left]
    for r, t in todo:
        pos = np.flatnonzero(unj[r, t])
        n_top = None if k is None else int(np.count_nonzero(pos < k))
        labs = _candidates(kind, len(pos), lv, order, n_top)
        if labs is None and m.family == "nDCG" and not averaged:
            labs = ndcg_extremes(al, m, int(r), int(t), pos, lv)
            if labs is not None:      # the uniform labellings too (all-0 among them)
                labs = np.concatenate([labs, _candidates("uniform", len(pos), lv, None, None)])
        if labs is None:
            low[r, t] = high[r, t] = np.nan
            skipped += 1
            continue
        batch.append(((int(r), int(t)), pos, labs))
        size += len(labs) * (D + len(pos) + len(al.judged_labels[t]))   # ranks, qrels
        if size >= CHUNK:
            flush()
    flush()
    if skipped and warnings is not None:
        warnings.append(f"--bounds: {m.name} left undefined for {skipped} ranking(s): more "
                        f"than {MAX_CANDIDATES} labellings of their unjudged documents to "
                        f"search (give the measure a cutoff, or -M)")
    return low, high
