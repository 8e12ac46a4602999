"""Expected measures under ``--labels probability`` (ipsoeval.labels).

A label is the probability p that its document is relevant, the documents
independently; a relevant document gains 1 and an unjudged one is
non-relevant.  A measure's per-topic value is its expectation over the 2^n
labelings of the topic's n judged documents.

Exact where a closed form or a dynamic programme exists (each family's
``expected`` kernel; ``ipsoeval measures`` says which):

* linear in the labels: P@k, DCG, RBP, Success (1 - prod(1 - p)), SetP, the
  counts;
* RR@k = sum_i p_i / i * prod_{j<i} (1 - p_j);
* R@k = E[X / (X + Y)], X the relevant documents in the top k, Y the other
  relevant judged ones (0 when X = 0): with x^(X+Y-1) integrated over
  [0, 1] it is  int_0^1 G(x) sum_{i in top k} p_i / (1 - p_i + p_i x) dx,
  G(x) = prod over the topic's judged documents of (1 - p + p x), the
  probability generating function of R;
* AP@k = sum_i p_i / i * E[(1 + A_i) / (1 + A_i + B_i)], A_i the relevant
  documents above rank i, B_i the other relevant judged documents below or
  unretrieved (independent): (1 + a)/(1 + a + b) = int_0^1 (1 + a) x^(a+b) dx,
  so the term is  int_0^1 G(x) / (1 - p_i + p_i x) * (1 + x S_i(x)) dx  with
  S_i(x) = sum_{j above i} p_j / (1 - p_j + p_j x);
* nDCG@k = sum_i p_i / log2(i + 1) * E[1 / IDCG_k(1 + R_-i)], R_-i the
  relevant judged documents other than i (its Poisson-binomial law: G(x)
  divided by document i's factor, the division run in the stable direction).

The integrands are polynomials of degree < n, so Gauss-Legendre quadrature
with ceil(n/2) + 1 nodes is exact (to rounding).  Only judged retrieved
documents enter the sums; the rest costs nothing.

Every other measure (and the other forms of the exact ones: b=, dcg=,
trec_eval's LEVEL=GAIN strings) is a Monte Carlo mean over ``samples``
labelings drawn with ``seed`` (each labeling scored by the integer-label
kernel), with its standard error (:func:`standard_errors`).
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

import numpy as np

from ipsoeval.errors import UsageError
from ipsoeval.measures import kernels as K

DEFAULT_SAMPLES = 1000
DEFAULT_SEED = 42
_CHUNK = 1 << 21          # floats per temporary block (cells x entries x nodes)


# --- what is known of the labels -------------------------------------------------

def probs(ctx: K.Context, k: int | None = None) -> np.ndarray:
    """Probability of relevance of every retrieved document of the top k,
    (R, T, min(k, D)); 0 unjudged."""
    if k is not None and k >= ctx.depth:
        k = None
    if k is not None and ("prob", None) in ctx._cache:
        return ctx._cache[("prob", None)][:, :, :k]

    def make():
        lab = ctx.al.labels if k is None else ctx.al.labels[:, :, :k]
        return np.where(lab >= 0, ctx.al.label_values[np.maximum(lab, 0)], 0.0)
    return ctx._get(("prob", k), make)


def topic_probs(ctx: K.Context) -> list[np.ndarray]:
    """The probabilities of every judged document of each topic."""
    return ctx._get(("tprob",), lambda: [ctx.al.label_values[j] for j in ctx.al.judged_labels])


def _entries(ctx: K.Context, k: int | None):
    """Judged retrieved documents of the top k, per topic group: a list of
    (topics, n, p (C, w), rank (C, w)) where the C = R x len(topics) cells
    (run-major) hold their judged documents left-aligned (p = 0 padding) and
    every topic of a group has the same number n of judged documents."""
    def make():
        lab = ctx.al.labels if k is None else ctx.al.labels[:, :, :k]
        R_, T_, D = lab.shape
        flat = np.flatnonzero((lab >= 0).ravel())    # (run, topic, rank) order
        codes = lab.ravel()[flat] if lab.flags.c_contiguous else lab[(lab >= 0)]
        cell_all, i = np.divmod(flat, D)
        r, t = np.divmod(cell_all, T_)
        vals = ctx.al.label_values[codes]
        n_t = np.array([len(j) for j in ctx.al.judged_labels], dtype=np.int64)
        groups = []
        for n in sorted(set(n_t.tolist())):   # (np.unique would import numpy.ma: 70 ms)
            if n == 0:
                continue
            tg = np.flatnonzero(n_t == n)
            slot = np.full(T_, -1, dtype=np.int64)
            slot[tg] = np.arange(len(tg))
            keep = slot[t] >= 0
            cell = r[keep] * len(tg) + slot[t[keep]]
            C = R_ * len(tg)
            head = np.ones(len(cell), dtype=bool)
            head[1:] = cell[1:] != cell[:-1]
            starts = np.flatnonzero(head)
            pos = np.arange(len(cell)) - np.repeat(starts, np.diff(np.append(starts, len(cell))))
            width = max(1, int(pos.max()) + 1 if len(pos) else 1)
            p = np.zeros((C, width))
            rank = np.ones((C, width))
            p[cell, pos] = vals[keep]
            rank[cell, pos] = i[keep] + 1.0
            groups.append((tg, int(n), p, rank))
        return groups
    return ctx._get(("entries", k), make)


def _rows(arrays, topics, n: int) -> np.ndarray:
    """The arrays of these topics (each of length n) as a (len(topics), n) matrix."""
    return np.concatenate([arrays[t] for t in topics]).reshape(len(topics), n)


@lru_cache(maxsize=64)
def _nodes(m: int):
    """Gauss-Legendre nodes and weights on [0, 1] (exact for degree < 2m):
    Newton's method on the Legendre recurrence (numpy.polynomial's leggauss
    gives the same to rounding, but its import costs ~50 ms)."""
    k = np.arange(1, m + 1, dtype=np.float64)
    x = np.cos(np.pi * (k - 0.25) / (m + 0.5))
    for _ in range(100):
        p0, p1 = np.ones(m), x.copy()
        for j in range(2, m + 1):
            p0, p1 = p1, ((2 * j - 1) * x * p1 - (j - 1) * p0) / j
        dp = m * (x * p1 - p0) / (x * x - 1.0) if m > 1 else np.ones(m)
        step = p1 / dp
        x = x - step
        if np.max(np.abs(step)) < 1e-16:
            break
    p0, p1 = np.ones(m), x.copy()
    for j in range(2, m + 1):
        p0, p1 = p1, ((2 * j - 1) * x * p1 - (j - 1) * p0) / j
    dp = m * (x * p1 - p0) / (x * x - 1.0) if m > 1 else np.ones(m)
    w = 2.0 / ((1.0 - x * x) * dp * dp)
    return (x[::-1] + 1.0) / 2.0, w[::-1] / 2.0


def _pgf(tp: np.ndarray, x: np.ndarray) -> np.ndarray:
    """G(x) per topic: tp (Tg, n) probabilities, x (m,) -> (Tg, m)."""
    out = np.ones((tp.shape[0], len(x)))
    for j in range(tp.shape[1]):
        out *= 1.0 - tp[:, j:j + 1] + tp[:, j:j + 1] * x[None, :]
    return out


def _integrate(ctx, k, per_entry):
    """sum over groups/cells of int_0^1 G(x) * per_entry(p, rank, x) dx, where
    per_entry returns (C, m) for a block of cells.  Result (R, T)."""
    R_, T_ = ctx.al.n_ret.shape
    out = np.zeros((R_, T_))
    tps = topic_probs(ctx)
    for tg, n, p, rank in _entries(ctx, k):
        x, w = _nodes(n // 2 + 1)
        G = _pgf(_rows(tps, tg, n), x) * w[None, :]                 # (Tg, m)
        Gc = np.tile(G, (R_, 1))                                    # cell order (r, t)
        res = np.zeros(len(p))
        step = max(1, _CHUNK // max(1, p.shape[1] * len(x)))
        for lo in range(0, len(p), step):
            hi = lo + step
            res[lo:hi] = (Gc[lo:hi] * per_entry(p[lo:hi], rank[lo:hi], x)).sum(axis=1)
        out[:, tg] = res.reshape(R_, len(tg))
    return out


# --- exact kernels ------------------------------------------------------------------

def _no_rel_param(m) -> None:
    if m.param("rel") is not None:
        raise UsageError(f"{m.name}: rel= does not apply to --labels probability (a label "
                         f"is the probability that the document is relevant)")


def _cut(ctx, k):
    return probs(ctx, k)


def e_precision(ctx, m):
    return _cut(ctx, m.k).sum(axis=2) / float(m.k)


def e_count(ctx, m):
    return _cut(ctx, m.k).sum(axis=2)


def e_num_rel(ctx, m):
    tot = np.array([float(p.sum()) for p in topic_probs(ctx)])
    return np.broadcast_to(tot[None, :], ctx.al.n_ret.shape).astype(np.float64)


def e_nonrel_judged(ctx, m):
    return np.count_nonzero(ctx.al.labels >= 0, axis=2) - probs(ctx).sum(axis=2)


def e_set_p(ctx, m):
    return K.safe_div(probs(ctx).sum(axis=2), ctx.al.n_ret.astype(np.float64))


def e_success(ctx, m):
    return 1.0 - np.prod(1.0 - _cut(ctx, m.k), axis=2)


def e_rr(ctx, m):
    p = _cut(ctx, m.k)
    if p.shape[2] == 0:
        return np.zeros(p.shape[:2])
    stay = np.ones(p.shape)
    stay[:, :, 1:] = np.cumprod(1.0 - p[:, :, :-1], axis=2)
    return (p * stay / np.arange(1, p.shape[2] + 1, dtype=np.float64)).sum(axis=2)


def e_dcg(ctx, m):
    if m.param("b") is not None or m.param("dcg") is not None or m.param("te") is not None:
        return None
    p = _cut(ctx, m.k)
    return (p / K.log2_discounts(max(p.shape[2], 1))[:p.shape[2]]).sum(axis=2)


def e_rbp(ctx, m):
    p_ = float(m.get("p"))
    g = _cut(ctx, m.k)
    return (g * ((1.0 - p_) * p_ ** np.arange(g.shape[2], dtype=np.float64))).sum(axis=2)


def e_recall(ctx, m):
    def per_entry(p, rank, x):
        return (p[:, :, None] / (1.0 - p[:, :, None] + p[:, :, None] * x)).sum(axis=1)
    return _integrate(ctx, m.k, per_entry)


def e_ap(ctx, m):
    def per_entry(p, rank, x):
        P = p[:, :, None]
        f = 1.0 / (1.0 - P + P * x)                    # (C, n, m)
        s = np.cumsum(P * f, axis=1) - P * f            # sum over entries above
        return ((P / rank[:, :, None]) * f * (1.0 + x * s)).sum(axis=1)
    return _integrate(ctx, m.k, per_entry)


def _leave_one_out(tp: np.ndarray, f: np.ndarray) -> np.ndarray:
    """Per topic (Tg, n) and document j: E[f(R_-j)], R_-j the relevant judged
    documents other than j and f (n,) a function of r = 0..n-1.  The law of
    R_-j is G's coefficients divided by j's factor (1 - p) + p x, in the
    stable direction (errors shrink by p/(1-p) or (1-p)/p each step), one
    coefficient at a time (memory O(Tg n))."""
    Tg, n = tp.shape
    a = np.zeros((Tg, n + 1))
    a[:, 0] = 1.0
    for j in range(n):                                 # coefficients of G
        pj = tp[:, j:j + 1]
        a[:, 1:] = a[:, 1:] * (1.0 - pj) + a[:, :-1] * pj
        a[:, 0] *= 1.0 - pj[:, 0]
    fwd = tp <= 0.5
    out = np.zeros((Tg, n))
    # forward (p <= 1/2): q_0 = a_0/(1-p), q_r = (a_r - p q_{r-1})/(1-p)
    one_m = np.where(fwd, 1.0 - tp, 1.0)
    q = a[:, 0:1] / one_m
    acc = np.clip(q, 0.0, 1.0) * f[0]
    for r in range(1, n):
        q = (a[:, r:r + 1] - tp * q) / one_m
        acc += np.clip(q, 0.0, 1.0) * f[r]
    out = np.where(fwd, acc, 0.0)
    # backward (p > 1/2): q_{n-1} = a_n/p, q_{r-1} = (a_r - (1-p) q_r)/p
    pp = np.where(fwd, 1.0, tp)
    q = a[:, n:n + 1] / pp
    acc = np.clip(q, 0.0, 1.0) * f[n - 1]
    for r in range(n - 1, 0, -1):
        q = (a[:, r:r + 1] - (1.0 - tp) * q) / pp
        acc += np.clip(q, 0.0, 1.0) * f[r - 1]
    return np.where(fwd, out, acc)


def e_ndcg(ctx, m):
    if m.param("b") is not None or m.param("dcg") is not None or m.param("te") is not None:
        return None
    k = m.k
    lab = ctx.al.labels if k is None else ctx.al.labels[:, :, :k]
    tps = topic_probs(ctx)
    # c[code] = E[1 / IDCG_k(1 + R_-doc)] for every judged document
    c = np.zeros(len(ctx.al.label_values))
    n_t = np.array([len(j) for j in ctx.al.judged_labels], dtype=np.int64)
    for n in sorted(set(n_t.tolist())):
        if n == 0:
            continue
        tg = np.flatnonzero(n_t == n)
        step = max(1, _CHUNK // int(8 * n + 8))
        kk = int(n) if k is None else min(int(n), k)
        idcg = np.cumsum(1.0 / K.log2_discounts(kk))           # IDCG of 1..kk relevant
        inv = 1.0 / idcg[np.minimum(np.arange(1, int(n) + 1), kk) - 1]   # f(1 + r)
        for lo in range(0, len(tg), step):
            part = tg[lo:lo + step]
            tp = _rows(tps, part, int(n))
            codes = _rows(ctx.al.judged_labels, part, int(n))
            c[codes] = _leave_one_out(tp, inv)
    pc = probs(ctx, k) * np.where(lab >= 0, c[np.maximum(lab, 0)], 0.0)
    return (pc / K.log2_discounts(max(pc.shape[2], 1))[:pc.shape[2]]).sum(axis=2)


# --- Monte Carlo -------------------------------------------------------------------

def _monte_carlo(ctx: K.Context, measures) -> dict:
    """Means of the integer-label measures over ``samples`` labelings drawn with
    ``seed``, every measure scored on the same labelings (one integer Aligned
    per labeling); the standard errors are kept for :func:`standard_errors`."""
    from ipsoeval.measures.kernels import Context
    al = ctx.al
    samples = int(al.params.get("samples", DEFAULT_SAMPLES))
    rng = np.random.default_rng(int(al.params.get("seed", DEFAULT_SEED)))
    p = al.label_values
    lab = al.labels
    judged = lab >= 0
    safe = np.maximum(lab, 0)
    n_t = np.array([len(j) for j in al.judged_labels], dtype=np.int64)
    ends = np.cumsum(n_t)
    starts = ends - n_t
    codes = (np.concatenate(al.judged_labels) if len(n_t) else np.zeros(0)).astype(np.int64)
    within = np.arange(len(codes)) - np.repeat(starts, n_t)
    total = {m.name: np.zeros(al.n_ret.shape) for m in measures}
    total2 = {m.name: np.zeros(al.n_ret.shape) for m in measures}
    for _ in range(samples):
        rel = (rng.random(len(p)) < p).astype(np.int32)
        labels = np.where(judged, rel[safe], lab).astype(np.int32)
        cs = np.concatenate([[0], np.cumsum(rel[codes], dtype=np.int64)])
        num_rel = cs[ends] - cs[starts]
        ones_first = (within < np.repeat(num_rel, n_t)).astype(np.int64)   # sorted descending
        jl = np.split(ones_first, starts[1:]) if len(n_t) else []
        sample = dataclasses.replace(
            al, labels=labels, rel_level=1, num_rel=num_rel, num_nonrel=n_t - num_rel,
            judged_labels=jl, gain_map=None, label_mode="integer", label_values=None)
        sctx = Context(sample)
        for m in measures:
            v = np.asarray(m.compute(sample, sctx), dtype=np.float64)
            total[m.name] += v
            total2[m.name] += v * v
    out = {}
    for m in measures:
        mean = total[m.name] / samples
        var = np.maximum(total2[m.name] / samples - mean * mean, 0.0)
        ctx._cache[("mc_se", m.name)] = (np.sqrt(var / (samples - 1)) if samples > 1
                                         else np.full(mean.shape, np.nan))
        out[m.name] = mean
    return out


def _exact(ctx: K.Context, m):
    """The exact expectation of ``m``, or None when it is Monte Carlo."""
    fam = m.fam
    why = _undefined(fam)
    if why:
        raise UsageError(f"{m.name} is not defined under --labels probability ({why})")
    _no_rel_param(m)
    if m.param("judged_only"):            # ir_measures: unjudged documents removed first
        plain = dataclasses.replace(m, params=tuple(kv for kv in m.params
                                                    if kv[0] != "judged_only"))
        return _exact(K.judged_only_context(ctx), plain)
    if fam.expected is not None:
        got = fam.expected(ctx, m)
        if got is not None:
            return np.asarray(got, dtype=np.float64)
    return None


def expectations(ctx: K.Context, measures) -> list[np.ndarray]:
    """The expected per-topic values of ``measures`` under probability labels:
    exact where :func:`_exact` knows how, else one Monte Carlo run for all."""
    out, mc = {}, []
    for m in measures:
        v = _exact(ctx, m)
        if v is None:
            mc.append(m)
        else:
            out[m.name] = v
    if mc:
        out.update(_monte_carlo(ctx, mc))
    return [out[m.name] for m in measures]


def expectation(ctx: K.Context, m) -> np.ndarray:
    """The expected per-topic value of ``m`` under probability labels."""
    return expectations(ctx, [m])[0]


def standard_errors(ctx: K.Context, measures) -> dict:
    """{measure name: (runs, topics) standard errors} of the Monte Carlo measures."""
    return {m.name: ctx._cache[("mc_se", m.name)] for m in measures
            if ("mc_se", m.name) in ctx._cache}


def monte_carlo_notes(scores) -> list[str]:
    """One line per Monte Carlo measure: the draws, the seed and the standard
    errors (of a topic's value, and of a run's mean over its topics); under
    --tie-break expected, ipsoeval.measures.ties' notes."""
    al = scores.aligned
    if al.ties_averaged:
        from ipsoeval.measures.ties import monte_carlo_notes as tie_notes
        return tie_notes(scores)
    out = []
    mask = scores.mask()
    shown = {}
    for r in scores.requested:                 # the name as asked for (iprec_at_recall_0.10)
        shown.setdefault(r.measure.name, r.label.strip() or r.measure.name)
    for name, se in scores.stderr.items():
        n = mask.sum(axis=1)
        s2 = np.where(mask, se * se, 0.0).sum(axis=1)
        mean_se = np.sqrt(s2) / np.maximum(n, 1)
        top = float(np.max(np.where(mask, se, 0.0))) if se.size else 0.0
        out.append(f"{shown.get(name, name)} is a Monte Carlo estimate under --labels probability "
                   f"({al.params.get('samples')} labelings, --seed "
                   f"{al.params.get('seed')}): standard error of a run's mean up to "
                   f"{float(mean_se.max()) if len(mean_se) else 0.0:.6f}, of a topic's "
                   f"value up to {top:.6f}")
    return out


def _undefined(fam) -> str | None:
    """Why a family has no expected value under probability labels (None: it has)."""
    if fam.kind == "text" and fam.name != "runid":
        return "it prints the labels"
    if fam.subtopics:
        return "it reads diversity qrels, whose judgments are whole numbers"
    if fam.agg == "mean_defined":
        return ("it is undefined on the labelings without a relevant document, so it "
                "has no expectation")
    return None


def status(fam) -> str:
    """How ``ipsoeval measures`` says a family is computed under probability labels."""
    if _undefined(fam):
        return "not defined"
    if fam.expected is None:
        return "Monte Carlo"
    return "exact" + (f" ({fam.expected_note})" if fam.expected_note else "")


def label_independent(ctx, m):
    """Measures that do not look at the labels (num_q, num_ret, Judged ...)."""
    return m.fam.kernel(ctx, m)

