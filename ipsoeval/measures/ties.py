"""Measures under ``--tie-break expected``: each per-topic value is its
expectation over all orders of the tied documents (documents with equal
scores), every order equally likely (McSherry & Najork, "Computing
information retrieval performance measures efficiently in the presence of
tied scores", ECIR 2008).

The alignment ranks as ``--tie-break trec`` and records the tie groups
(``Aligned.tied``).  Only a ranking with a tie group holding documents of
different labels (an *affected* topic) can change with the order; every
other value is the plain one.  For the affected topics, per family
(``Family.ties``; ``ipsoeval measures`` shows it):

* a closed form, exact (McSherry & Najork's idea: the tied documents of a
  group at ranks s+1..s+n, r of them relevant, c relevant ranked above):

  - sums over ranks of f(rank) g(label) (P@k, R@k, RelP, Rprec, Rprec_mult,
    DCG@k and nDCG@k (the ideal does not depend on the run), RBP, Judged,
    Unjudged): every rank's g replaced by its group's mean;
  - Success@k and RR@k from Q_i, the probability that no relevant document
    is in the top i: Q_{i+1} = Q_i (n - r - j)/(n - j) at the j-th
    (0-based) rank of a group (hypergeometric); Success@k = 1 - Q_k,
    RR@k = sum_{i<k} (Q_i - Q_{i+1}) / (i + 1);
  - AP@k = (1/R) sum over ranks s+j of a group (j = 1..n, s+j <= k) of
    (r/n) (c + 1 + (j - 1)(r - 1)/(n - 1)) / (s + j): the document there is
    relevant with probability r/n, and then (j - 1)(r - 1)/(n - 1) of the
    others above it in the group are, on average (linearity);

* ``invariant``: measures of the retrieved set, or not of the labels at all
  (the order inside the ranking does not matter);

* ``per_group`` (bpref, infAP, ERR, G, binG, rbp, rbp_resid, RBPresid):
  sums over the documents of terms that see the labels above only as counts
  or products, so each group's order moves the value independently of the
  others': E[M] = sum_g E[M | only g reordered] - (groups - 1) M(as ranked),
  each group's distinct orders enumerated on its own;

* otherwise (IPrec, 11pt_avg, ndcg_rel, Rndcg, yaap, ESL ...) every
  combination of the groups' distinct orders is enumerated.

Enumeration scores every distinct order of the labels of a group holding
different labels (the permutations of a multiset: n!/(n_1! n_2! ...)
orders, each as likely) with the family's ordinary kernel and averages.
Where a topic (per group: a group) has more than MAX_ORDERS orders, its
value is a Monte Carlo mean over ``samples`` uniformly drawn orders
(``--samples``, ``--seed``; seeded per topic, so the same bytes whatever
the threads), with a standard error and a note naming the measure; over
_BUDGET labels to score in all, a usage error naming the measure.  ESL,
undefined without a relevant document in the top k, is the mean over the
orders where it is defined.

Text measures (relstring) show the ``trec`` order.  ``-M`` cuts the
``trec`` order first (as trec_eval does); the expectation is over the
orders of the documents kept.
"""

from __future__ import annotations

import dataclasses
import math
import threading
from functools import lru_cache

import numpy as np

from ipsoeval.errors import UsageError
from ipsoeval.measures import kernels as K
from ipsoeval.measures import lazy
from ipsoeval.model import judged
from ipsoeval.model import unjudged as unjudged_labels

MAX_ORDERS = 100_000        # orders enumerated per topic (per group: per group); beyond: sampled
DEFAULT_SAMPLES = 1000      # Monte Carlo draws beyond MAX_ORDERS (--samples where a command has it)
DEFAULT_SEED = 42
_BLOCK = 1 << 23            # labels per enumeration block (int32: 32 MB)
_CACHED = 1 << 25           # enumerated labels kept for the other measures (128 MB)
_BUDGET = 1 << 28           # labels scored per measure at most (else a usage error)


def invariant(ctx, m):
    """Marks a family whose value does not depend on the order of the ranking."""
    return None


def per_group(ctx, m):
    """Marks a family that adds, over the documents, terms that see their own
    rank and label and the labels above them only as a multiset (counts,
    sums, products): the orders of each tie group then move its value
    independently of the other groups', so E[M] = sum over groups g of
    E[M | only g reordered] - (groups - 1) M(as ranked), and each group's
    orders are enumerated on their own (a sum of the groups' counts of orders,
    not their product)."""
    return None


# the markers as the families' declarations name them (ipsoeval.measures.lazy,
# so that the registry reads without numpy), and as a plug-in may name them
_INVARIANT = (invariant, lazy.function(__name__, "invariant"))
_PER_GROUP = (per_group, lazy.function(__name__, "per_group"))


# --- the tie groups --------------------------------------------------------------------

def affected(ctx: K.Context):
    """(runs, topics) index arrays of the cells whose value may depend on the
    tie order: a tie group holding two different labels."""
    def make():
        lab, tied = ctx.al.labels, ctx.al.tied
        if lab.shape[2] < 2:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        hit = (tied[:, :, 1:] & (lab[:, :, 1:] != lab[:, :, :-1])).any(axis=2)
        return np.nonzero(hit)
    return ctx._get(("ties", "affected"), make)


def _sub_aligned(al, rr, tt, labels, tied):
    """An Aligned of one run whose 'topics' are the cells (rr, tt) of ``al``
    with the given label rows (A, D): each row is scored as its topic."""
    return dataclasses.replace(
        al, runs=["_"], topics=[al.topics[t] for t in tt], labels=labels[None],
        n_ret=al.n_ret[rr, tt][None], num_rel=al.num_rel[tt], num_nonrel=al.num_nonrel[tt],
        judged_labels=[al.judged_labels[t] for t in tt],
        in_run=None if al.in_run is None else al.in_run[rr, tt][None],
        params={k: v for k, v in al.params.items() if k != "present"},
        warnings=[], tied=None if tied is None else tied[None])


def _affected_context(ctx: K.Context) -> K.Context:
    """A Context over the affected cells only (their labels and tie groups)."""
    def make():
        rr, tt = affected(ctx)
        al = ctx.al
        return K.Context(_sub_aligned(al, rr, tt, al.labels[rr, tt], al.tied[rr, tt]))
    return ctx._get(("ties", "sub"), make)


def _groups(ctx: K.Context):
    """Per rank (flattened): its group's id, the groups' sizes, and the rank's
    0-based offset in its group."""
    def make():
        flat = ctx.al.tied.ravel()
        head = ~flat
        gid = np.cumsum(head, dtype=np.int64) - 1
        starts = np.flatnonzero(head)
        size = np.diff(np.append(starts, flat.size))
        j = np.arange(flat.size, dtype=np.int64) - starts[gid]
        return gid, size, j
    return ctx._get(("ties", "groups"), make)


def group_mean(ctx: K.Context, x: np.ndarray) -> np.ndarray:
    """x (R, T, D) with every rank's value replaced by its tie group's mean."""
    gid, size, _ = _groups(ctx)
    s = np.bincount(gid, weights=np.asarray(x, dtype=np.float64).ravel(), minlength=len(size))
    return (s / size)[gid].reshape(x.shape)


def _rel(ctx, level):
    return ctx.al.labels >= level


def _group_rel(ctx, level):
    """Per rank: its group's size n, relevant count r, offset j, and the
    relevant documents ranked above the group, c."""
    def make():
        gid, size, j = _groups(ctx)
        rel = _rel(ctx, level)
        r = np.bincount(gid, weights=rel.ravel(), minlength=len(size))[gid]
        before = (np.cumsum(rel, axis=2) - rel).ravel()          # relevant above, per cell
        c = before[np.arange(len(j)) - j]                          # at the group's first rank
        shape = rel.shape
        return (size[gid].reshape(shape).astype(np.float64), r.reshape(shape),
                j.reshape(shape).astype(np.float64), c.reshape(shape).astype(np.float64))
    return ctx._get(("ties", "grouprel", level), make)


def _top(x, k):
    return x if k is None else x[:, :, :k]


def _level(ctx, m):
    return m.level(ctx.al.rel_level)


# --- closed forms (ctx: the affected cells, with their tie groups) -------------------

def t_precision(ctx, m):
    e = group_mean(ctx, _rel(ctx, _level(ctx, m)))
    return _top(e, m.k).sum(axis=2) / float(m.k)


def t_relative_p(ctx, m):
    level, k = _level(ctx, m), m.k
    cnt = _top(group_mean(ctx, _rel(ctx, level)), k).sum(axis=2)
    R = np.broadcast_to(ctx.num_rel(level)[None, :], cnt.shape)
    return K.safe_div(cnt, np.where(R > 0, np.minimum(R, k), 0).astype(np.float64))


def t_recall(ctx, m):
    level = _level(ctx, m)
    cnt = _top(group_mean(ctx, _rel(ctx, level)), m.k).sum(axis=2)
    return K.safe_div(cnt, ctx.num_rel(level)[None, :].astype(np.float64))


def _count_below(ctx, level, cut):
    """Expected relevant documents above the per-cell rank ``cut`` (R, T)."""
    e = group_mean(ctx, _rel(ctx, level))
    return np.where(np.arange(e.shape[2])[None, None, :] < cut[:, :, None], e, 0.0).sum(axis=2)


def t_rprec(ctx, m):
    level = _level(ctx, m)
    R = ctx.num_rel(level)
    got = _count_below(ctx, level, np.minimum(ctx.al.n_ret, R[None, :]))
    return K.safe_div(got, np.broadcast_to(R[None, :], got.shape).astype(np.float64))


def t_rprec_mult(ctx, m):
    level = _level(ctx, m)
    R = ctx.num_rel(level)
    cut = (float(m.cutoff) * R.astype(np.float64) + 0.9).astype(np.int64)   # as rprec_mult
    cut2 = np.broadcast_to(cut[None, :], ctx.al.n_ret.shape)
    got = _count_below(ctx, level, cut2)
    return np.where(cut2 > 0, got / np.maximum(cut2, 1), 0.0)


def _no_rel_prefix(ctx, level):
    """Q (R, T, D + 1): Q[..., i] the probability that none of the top i is relevant."""
    def make():
        n, r, j, _ = _group_rel(ctx, level)
        f = np.maximum(n - r - j, 0.0) / (n - j)
        q = np.ones(n.shape[:2] + (n.shape[2] + 1,))
        np.cumprod(f, axis=2, out=q[:, :, 1:])
        return q
    return ctx._get(("ties", "Q", level), make)


def t_success(ctx, m):
    q = _no_rel_prefix(ctx, _level(ctx, m))
    k = min(m.k, q.shape[2] - 1)
    return 1.0 - q[:, :, k]


def t_rr(ctx, m):
    q = _no_rel_prefix(ctx, _level(ctx, m))
    first = q[:, :, :-1] - q[:, :, 1:]               # P(first relevant at rank i + 1)
    ranks = np.arange(1, first.shape[2] + 1, dtype=np.float64)
    return _top(first / ranks, m.k).sum(axis=2)


def t_ap(ctx, m):
    level = _level(ctx, m)
    n, r, j, c = _group_rel(ctx, level)
    ranks = np.arange(1, n.shape[2] + 1, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        within = np.where(n > 1, j * (r - 1.0) / (n - 1.0), 0.0)
    term = (r / n) * (c + 1.0 + within) / ranks
    total = _top(term, m.k).sum(axis=2)
    return K.safe_div(total, ctx.num_rel(level)[None, :].astype(np.float64))


def _dcg_form(m):
    """'trec' (log2), 'jk' (b=) or None (another form: enumerated)."""
    if m.param("dcg") is not None or m.param("te") is not None:
        return None
    return "trec" if m.param("b") is None else "jk"


def _dcg(ctx, m, form):
    g = group_mean(ctx, ctx.gains())
    D = g.shape[2]
    if form == "trec":
        return _top(g / K.log2_discounts(max(D, 1))[:D], m.k).sum(axis=2)
    return _top(g / K.jk_discounts(D, float(m.param("b"))), m.k).sum(axis=2)


def t_dcg(ctx, m):
    form = _dcg_form(m)
    return None if form is None else _dcg(ctx, m, form)


def t_ndcg(ctx, m):
    form = _dcg_form(m)
    if form is None:
        return None
    d = _dcg(ctx, m, form)
    if form == "trec":
        i = K.idcg_trec(ctx, m.k)[None, :]
    else:
        ideal = ctx.ideal()
        i = K.seq_sum(ideal / K.jk_discounts(ideal.shape[1], float(m.param("b"))), m.k)[None, :]
    i = np.broadcast_to(i, d.shape)
    out = np.zeros(d.shape)
    np.divide(d, i, out=out, where=i > 0)
    return out


def t_rbp(ctx, m):
    p = float(m.get("p"))
    g = group_mean(ctx, K.rbp_gains(ctx, _level(ctx, m), None))
    w = (1.0 - p) * p ** np.arange(g.shape[2], dtype=np.float64)
    return _top(g * w, m.k).sum(axis=2)


def t_judged(ctx, m):
    e = group_mean(ctx, judged(ctx.al.labels))
    n_ret = ctx.al.n_ret
    den = (n_ret if m.k is None else np.minimum(n_ret, m.k)).astype(np.float64)
    return K.safe_div(_top(e, m.k).sum(axis=2), den)


def t_unjudged(ctx, m):
    lab = ctx.al.labels
    e = group_mean(ctx, unjudged_labels(lab))
    return _top(e, m.k).sum(axis=2) / float(m.k)


# --- enumeration -----------------------------------------------------------------------

def _multiset_orders(seq: np.ndarray) -> np.ndarray:
    """Every distinct order of the values in seq, (count, len(seq)), in
    lexicographic order (the next-permutation algorithm from the sorted one)."""
    return _orders_of(tuple(sorted(seq.tolist())))


@lru_cache(maxsize=4096)
def _orders_of(a: tuple) -> np.ndarray:
    a = list(a)
    out = [list(a)]
    n = len(a)
    while True:
        i = n - 2
        while i >= 0 and a[i] >= a[i + 1]:
            i -= 1
        if i < 0:
            break
        j = n - 1
        while a[j] <= a[i]:
            j -= 1
        a[i], a[j] = a[j], a[i]
        a[i + 1:] = reversed(a[i + 1:])
        out.append(list(a))
    got = np.array(out, dtype=np.int32)
    got.flags.writeable = False
    return got


def _n_orders(seq) -> int:
    return _count_orders(tuple(sorted(np.asarray(seq).tolist())))


@lru_cache(maxsize=65536)
def _count_orders(a: tuple) -> int:
    out = math.factorial(len(a))
    run = 1
    for i in range(1, len(a) + 1):
        if i < len(a) and a[i] == a[i - 1]:
            run += 1
        else:
            out //= math.factorial(run)
            run = 1
    return out


def _mixed_groups(lab: np.ndarray, tied: np.ndarray) -> list[tuple[int, int]]:
    """The tie groups (start, end) of one ranking holding two different labels."""
    starts = np.flatnonzero(~tied)
    ends = np.append(starts[1:], len(tied))
    change = np.flatnonzero(tied[1:] & (lab[1:] != lab[:-1])) + 1   # inside a group
    g = np.unique(np.searchsorted(starts, change, side="right") - 1)
    return list(zip(starts[g].tolist(), ends[g].tolist()))


def _shuffled(rows: np.ndarray, s: int, e: int, rng) -> None:
    """Each row's labels s:e in an order drawn uniformly (in place)."""
    perm = np.argsort(rng.random((len(rows), e - s)), axis=1)
    rows[:, s:e] = np.take_along_axis(rows[:, s:e], perm, axis=1)


def _cell_plan(lab, tied, by_group: bool, samples: int):
    """The parts of one ranking's labellings: [(groups, orders or 0, rows)].
    by_group: one part per mixed group (its orders, the others as ranked);
    else one part, every combination of the groups' orders.  A part over
    MAX_ORDERS orders (or _BLOCK labels) is ``samples`` uniform draws
    (orders 0: Monte Carlo)."""
    groups = _mixed_groups(lab, tied)
    limit = min(MAX_ORDERS, _BLOCK // max(len(lab), 1))
    out = []
    for gs in ([[g] for g in groups] if by_group else [groups]):
        total = 1
        for s, e in gs:
            total *= _n_orders(lab[s:e])
            if total > limit:
                break
        out.append((gs, 0, samples) if total > limit else (gs, total, total))
    return out


def _part_rows(lab, gs, total, samples, rng) -> np.ndarray:
    """The labellings of one part (_cell_plan)."""
    if not total:
        rows = np.repeat(lab[None, :], samples, axis=0)
        for s, e in gs:
            _shuffled(rows, s, e, rng)
        return rows
    rows = np.repeat(lab[None, :], total, axis=0)
    after = total
    for s, e in gs:
        orders = _multiset_orders(lab[s:e])
        after //= len(orders)
        block = np.repeat(orders, after, axis=0)
        rows[:, s:e] = np.tile(block, (total // len(block), 1))
    return rows


_BUILD = threading.Lock()


def _plan(ctx: K.Context, by_group: bool):
    """Every affected cell's parts: (cells' parts [(x, groups, orders, rows)],
    part -> cell, part -> Monte Carlo?, labels to score)."""
    def make():
        al = ctx.al
        rr, tt = affected(ctx)
        samples = int(al.params.get("samples") or DEFAULT_SAMPLES)
        parts = []
        for x, (r, t) in enumerate(zip(rr.tolist(), tt.tolist())):
            for gs, total, rows in _cell_plan(al.labels[r, t], al.tied[r, t], by_group,
                                              samples):
                parts.append((x, gs, total, rows))
        cell = np.array([p[0] for p in parts], dtype=np.int64)
        mc = np.array([p[2] == 0 for p in parts], dtype=bool)
        size = sum(p[3] for p in parts) * al.labels.shape[2]
        return parts, cell, mc, size
    return ctx._get(("ties", "plan", by_group), make)


def _make_blocks(ctx: K.Context, by_group: bool):
    """Yield (Context over a one-run Aligned whose rows are labellings, each
    row's part), blocks of at most _BLOCK labels."""
    al = ctx.al
    rr, tt = affected(ctx)
    parts, part_cell, _, _ = _plan(ctx, by_group)
    samples = int(al.params.get("samples") or DEFAULT_SAMPLES)
    seed = int(al.params.get("seed") if al.params.get("seed") is not None else DEFAULT_SEED)
    pend, rows_part, size = [], [], 0

    def block():
        labels = np.concatenate(pend)
        part = np.concatenate(rows_part)
        cell = part_cell[part]
        sub = _sub_aligned(al, rr[cell], tt[cell], labels, None)
        return K.Context(sub), part

    for p, (x, gs, total, _) in enumerate(parts):
        rows = _part_rows(al.labels[rr[x], tt[x]], gs, total, samples,
                          np.random.default_rng([seed, x, p]))
        if size and size + rows.size > _BLOCK:
            yield block()
            pend, rows_part, size = [], [], 0
        pend.append(rows)
        rows_part.append(np.full(len(rows), p))
        size += rows.size
    if pend:
        yield block()


def _shown(m) -> str:
    t = m.trec_name
    return m.name if t is None or t == m.name else f"{m.name} ({t})"


def _blocks(ctx: K.Context, m, by_group: bool):
    """The blocks of labellings to score m on: kept for the other measures
    (each block's Context caches what kernels share) when they fit in
    _CACHED labels, else made again for each measure; over _BUDGET labels a
    usage error naming m."""
    parts, part_cell, part_mc, size = _plan(ctx, by_group)
    if size > _BUDGET:
        n_mc = len(np.unique(part_cell[part_mc]))
        raise UsageError(
            f"{_shown(m)} under --tie-break expected: scoring every order of the tied documents "
            f"(or --samples random orders where a topic has more than {MAX_ORDERS}: "
            f"{n_mc} topic(s)) means {size} labels, more than {_BUDGET}; leave {_shown(m)} out "
            f"(ipsoeval measures, column ties), lower --samples, or use another --tie-break")
    key = ("ties", "blocks", by_group)
    if size > _CACHED:
        return _make_blocks(ctx, by_group)
    if key not in ctx._cache:
        with _BUILD:
            if key not in ctx._cache:
                ctx._cache[key] = list(_make_blocks(ctx, by_group))
    return ctx._cache[key]


def _enumerate(ctx: K.Context, m, rr, tt, base: np.ndarray, by_group: bool):
    """(mean of m over the labellings of each affected cell, its standard
    error: 0 unless Monte Carlo).  Per group: the sum over the cell's parts of
    their means less (parts - 1) times the value as ranked (base)."""
    defined_only = m.fam.agg == "mean_defined"
    _, part_cell, part_mc, _ = _plan(ctx, by_group)
    blocks = _blocks(ctx, m, by_group)
    P = len(part_cell)
    s, s2, n = np.zeros(P), np.zeros(P), np.zeros(P)
    for bctx, part in blocks:
        v = np.asarray(m.compute(bctx.al, bctx), dtype=np.float64).ravel()
        ok = ~np.isnan(v) if defined_only else np.ones(len(v), dtype=bool)
        w = np.where(ok, v, 0.0)
        s += np.bincount(part, weights=w, minlength=P)
        s2 += np.bincount(part, weights=w * w, minlength=P)
        n += np.bincount(part, weights=ok, minlength=P)
    mean = np.full(P, np.nan)
    np.divide(s, n, out=mean, where=n > 0)
    var = np.zeros(P)
    mc = part_mc & (n > 1)
    var[mc] = np.maximum(s2[mc] / n[mc] - mean[mc] ** 2, 0.0) * n[mc] / (n[mc] - 1) / n[mc]
    A = len(rr)
    k = np.bincount(part_cell, minlength=A)
    out = np.bincount(part_cell, weights=np.nan_to_num(mean), minlength=A)
    more = k > 1                              # (0 times an undefined base is no term)
    out[more] -= (k[more] - 1) * base[rr[more], tt[more]]
    out[np.bincount(part_cell, weights=np.isnan(mean), minlength=A) > 0] = np.nan
    se = np.sqrt(np.bincount(part_cell, weights=var, minlength=A))
    mc_cell = np.bincount(part_cell, weights=part_mc, minlength=A) > 0
    return out, se, mc_cell


# --- the entry point ---------------------------------------------------------------------

def plain_context(ctx: K.Context) -> K.Context:
    """A Context over the ``trec`` order (the tie groups dropped)."""
    return ctx._get(("ties", "plain"),
                    lambda: K.Context(dataclasses.replace(ctx.al, tied=None)))


def expectation(ctx: K.Context, m) -> np.ndarray:
    """The per-topic values of m, each its expectation over the orders of the
    tied documents (module docstring)."""
    plain = plain_context(ctx)
    base = m.compute(plain.al, plain)
    fam = m.fam
    if fam.kind == "text" or fam.ties in _INVARIANT:
        return base
    rr, tt = affected(ctx)
    if len(rr) == 0:
        return base
    out = np.array(base, dtype=np.float64)
    vals = None
    closed = (fam.ties is not None and fam.ties not in _PER_GROUP and not m.param("judged_only")
              and (ctx.al.label_mode == "integer" or m.param("rel") is None))
    if closed:
        vals = fam.ties(_affected_context(ctx), m)
    if vals is None:
        sep = fam.ties in _PER_GROUP and not m.param("judged_only")
        vals, se, mc = _enumerate(ctx, m, rr, tt, out, sep)
        if mc.any():
            err = np.zeros(out.shape)
            err[rr, tt] = se
            hit = np.zeros(out.shape, dtype=bool)
            hit[rr, tt] = mc
            ctx._cache[("ties", "mc", m.name)] = (err, hit)
    out[rr, tt] = np.asarray(vals, dtype=np.float64).ravel()
    return out


def standard_errors(ctx: K.Context, measures) -> dict:
    """{measure name: (runs, topics) standard errors} of the measures with a
    Monte Carlo mean somewhere (0 where exact)."""
    return {m.name: ctx._cache[("ties", "mc", m.name)][0] for m in measures
            if ("ties", "mc", m.name) in ctx._cache}


def monte_carlo_notes(scores) -> list[str]:
    """One line per measure with Monte Carlo topics: how many, the draws, the
    seed, the largest standard error of a topic's value."""
    al = scores.aligned
    mask = scores.mask()
    shown = {}
    for r in scores.requested:
        shown.setdefault(r.measure.name, r.label.strip() or r.measure.name)
    out = []
    for name, se in scores.stderr.items():
        n = int(np.count_nonzero((se > 0) & mask))
        top = float(np.max(np.where(mask, se, 0.0))) if se.size else 0.0
        out.append(f"{shown.get(name, name)} under --tie-break expected: {n} topic(s) have "
                   f"more than {MAX_ORDERS} orders of their tied documents: a Monte Carlo "
                   f"mean over {al.params.get('samples', DEFAULT_SAMPLES)} random orders "
                   f"(--seed {al.params.get('seed', DEFAULT_SEED)}), standard error of a "
                   f"topic's value up to {top:.6f}")
    return out


def status(fam) -> str:
    """How ``ipsoeval measures`` says a family is computed under --tie-break expected:
    a closed form, order-free (the plain value), enumeration of each group's
    orders on its own or of every combination (Monte Carlo beyond MAX_ORDERS),
    or the trec order (text)."""
    if fam.kind == "text" and fam.name != "runid":
        return "trec order"
    if fam.subtopics:            # refused: the tie orders would move subtopic judgments too
        return "not defined"
    if fam.ties in _INVARIANT:
        return "order-free"
    if fam.ties in _PER_GROUP:
        return "enumeration per group (Monte Carlo beyond 100000)"
    if fam.ties is not None:
        return "closed form" + (f" ({fam.ties_note})" if fam.ties_note else "")
    return "enumeration (Monte Carlo beyond 100000)"


# --- eval's warning ---------------------------------------------------------------------

def tie_notes(scores) -> list[str]:
    """eval's tie warning, one line per run whose tie order moves a reported
    number: the count of its topics where

    * a tie group (documents of equal score, within the ranks kept) holding
      two different labels straddles the rank cutoff k of a reported measure
      (ranks k and k + 1 tied: P@10, ndcg_cut_10, success_10 ...), or
    * under the default tie breaks (trec, docno-asc, input), a tie group
      anywhere holds two different labels and a measure without a rank
      cutoff is reported (map, recip_rank, bpref, Rprec, ndcg, iprec_at_recall
      ...: the order inside the group moves them).

    Order-free measures (num_ret, set_P ...) and text ones never count.
    Under --tie-break expected the values average over the orders, so only
    the first case is reported (as before).  "Two different labels": the
    aligned labels (qrels label, unjudged, pooled) differ -- the same rule
    as the quick path's (_core.c eval_one_run), which counts them and writes
    the same text (:mod:`ipsoeval.tiewarn_text`)."""
    from ipsoeval.tiewarn_text import tie_note
    cells = tie_cells(scores)
    if not cells:
        return []
    averaged = scores.aligned.params.get("tie_break") == "expected"
    mask = scores.mask()
    order = [r_.measure.name for r_ in scores.requested]
    out = []
    for r, run in enumerate(scores.aligned.runs):
        hit = np.zeros(mask.shape[1], dtype=bool)
        names = []
        for r_ in scores.requested:
            c = cells.get(r_.measure.name)
            if c is not None and (c[r] & mask[r]).any():
                hit |= c[r] & mask[r]
                names.append(r_.measure.name)
        n = int(hit.sum())
        if not n:
            continue
        out.append(tie_note(run, n, names, averaged, order=order))
    return out


def tie_cells(scores) -> dict:
    """measure name -> bool (R, T): the cells whose reported value the tie
    order moves, by tie_notes' rule (``scores.tie_cells`` when the rankings
    are gone); {} when the tie groups are unknown."""
    if scores.tie_cells is not None:
        return scores.tie_cells
    al = scores.aligned
    if al.tied is None:
        return {}
    averaged = al.params.get("tie_break") == "expected"
    by_k: dict[int, list[str]] = {}
    whole: list[str] = []
    for r in scores.requested:
        m = r.measure
        f = m.fam
        if f.kind == "text" or f.ties in _INVARIANT:
            continue
        if m.cutoff is not None and f.cutoff_kind == "rank":
            by_k.setdefault(int(m.k), []).append(m.name)
        elif not averaged:
            whole.append(m.name)
    if not by_k and not whole:
        return {}
    hits = tie_hits(al, list(by_k), bool(whole))
    cells = {nm: hits[k] for k, nms in by_k.items() for nm in nms}
    cells.update((nm, hits["mixed"]) for nm in whole)
    return cells


def tie_hits(al, cutoffs, whole: bool, mask=None) -> dict:
    """bool (R, T) cells per rule of tie_notes: ``hits[k]``, a tie group holding
    two different labels straddles rank cutoff k (ranks k and k + 1 tied);
    ``hits["mixed"]``, one holds two different labels anywhere (when
    ``whole``, else all False); ``hits["topics"]``, either, within ``mask``."""
    R_, T_, D = al.labels.shape
    lab, tied = al.labels, al.tied
    diff = tied[:, :, 1:] & (lab[:, :, 1:] != lab[:, :, :-1])   # a label change in a group
    if al.subtopics is not None and D > 1:     # diversity qrels: or a subtopic judgment
        diff |= tied[:, :, 1:] & _subtopic_change(al.subtopics)
    mixed = diff.any(axis=2) if D > 1 else np.zeros((R_, T_), dtype=bool)
    if mask is not None:
        mixed &= mask
    hits: dict = {"mixed": mixed if whole else np.zeros_like(mixed)}
    topics = hits["mixed"].copy()
    for k in sorted({int(k) for k in cutoffs}):
        hit = np.zeros((R_, T_), dtype=bool)
        if 0 < k < D:
            rr, tt = np.nonzero(tied[:, :, k] & mixed)    # ranks k and k + 1 share a score
            if len(rr):
                t_, d_ = tied[rr, tt], diff[rr, tt]
                gid = np.cumsum(~t_, axis=1)                # group number within the cell
                same = gid == gid[:, k][:, None]
                hit[rr, tt] = (same[:, 1:] & d_).any(axis=1)
        hits[k] = hit
        topics |= hit
    hits["topics"] = topics
    return hits


def _subtopic_change(sub) -> np.ndarray:
    """bool (R, T, D-1): the documents at ranks i and i + 1 differ in their
    subtopic judgments (one id per distinct row of judgments)."""
    rows = np.vstack([sub.grades, np.zeros((1, sub.grades.shape[1]), sub.grades.dtype)])
    _, sig = np.unique(rows, axis=0, return_inverse=True)
    s = sig.reshape(-1).astype(np.int32)[sub.docs]           # -1 (not judged): the zero row
    return s[:, :, 1:] != s[:, :, :-1]


def topics_across_cutoffs(al, cutoffs, mask=None) -> np.ndarray:
    """Per run, the topics where a tie group holding two different labels
    straddles one of the rank ``cutoffs`` (the group has ranks on both sides
    of k: k and k + 1 tied), so a value cut there depends on the tie order."""
    if al.tied is None:
        return np.zeros(al.labels.shape[0], dtype=np.int64)
    return tie_hits(al, cutoffs, False, mask)["topics"].sum(axis=1)
