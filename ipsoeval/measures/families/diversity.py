"""Diversity (intent-aware) measures computed as ndeval computes them (TREC Web
track 2009-14, version 4.5; pyndeval): alpha-nDCG and alpha-DCG (Clarke et
al. 2008), ERR-IA and nERR-IA (Chapelle et al. 2011), NRBP and nNRBP (Clarke,
Kolla & Vechtomova 2009), P-IA and AP-IA (Agrawal et al. 2009) and subtopic
recall (Zhai, Cohen & Lafferty 2003), with ir_measures' names and parameters.

They read diversity qrels (``qid subtopic docno judgment``: ``Aligned.subtopics``).
ndeval's rules, each kept here (and stated in man/ipsoeval-measures.1):

* a document is relevant to a subtopic when its judgment is at least rel
  (default -l, 1); S is the number of the topic's subtopics with a relevant
  document; every measure of a topic with S = 0 is 0;
* the novelty gain of rank i is sum over the subtopics s it is relevant to
  of (1 - alpha)^c, c the documents relevant to s ranked above it;
* the ideal ranking is ndeval's greedy one over the topic's judged
  documents: at each rank the document of the largest gain, ties to the
  largest docno (strcmp);
* alpha-DCG@k and ERR-IA@k are divided by the "ideal ideal" value (every
  subtopic at every rank: S (1 - alpha)^(i-1) at rank i) for k >= 2, not at
  k = 1; alpha-nDCG@k and nERR-IA@k divide by the greedy ideal's value, and
  are 0 when no relevant document is in the top k;
* ERR-IA's rank i weighs the novelty gain by 1/i (ndeval's ERR-IA);
* NRBP and AP-IA run over the whole ranking (no cutoff).
"""

from __future__ import annotations

from ipsoeval.errors import UsageError
from ipsoeval.measures import lazy
from ipsoeval.measures.family import Family
from ipsoeval.measures.params import JUDGED_ONLY, REL, Bad, Param, Value

# numpy and the kernels' helpers, imported by the first kernel that runs: the
# declarations below read without them (ipsoeval.measures.lazy)
np = lazy.module("numpy", globals(), "np")
K = lazy.module("ipsoeval.measures.kernels", globals(), "K")


def _unit(v: Value):
    if v.kind != "number" or not 0 <= v.value <= 1:
        raise Bad("a number from 0 to 1")
    return float(v.value)


ALPHA = Param("alpha", _unit, default=0.5, help="redundancy penalty (ndeval's alpha)")
PATIENCE = Param("beta", _unit, default=0.5, help="patience (ndeval's beta)")


def _table(ctx: K.Context):
    st = ctx.al.subtopics
    if st is None:
        raise UsageError("diversity measures need diversity qrels (qid subtopic docno judgment), "
                         "read when such a measure is asked for")
    return st


def _rel(ctx: K.Context, level: int, k: int | None) -> np.ndarray:
    """bool (R, T, k, S): the document at each rank is relevant to subtopic s."""
    st = _table(ctx)

    def make():
        docs = st.docs if k is None else st.docs[:, :, :k]
        g = np.zeros((len(st.grades) + 1, st.grades.shape[1]), dtype=bool)
        g[:-1] = st.grades >= level
        return g[docs]                       # -1 (not judged, no document): the last row
    return ctx._get(("div_rel", level, k), make)


def _per_topic(ctx: K.Context, level: int) -> tuple[np.ndarray, np.ndarray]:
    """(S (T,), relevant documents per subtopic (T, S)) of each topic."""
    st = _table(ctx)

    def make():
        g = (st.grades >= level).astype(np.int64)
        c = np.zeros((len(g) + 1, g.shape[1]), dtype=np.int64)
        np.cumsum(g, axis=0, out=c[1:])
        per = c[st.first[1:]] - c[st.first[:-1]]
        return np.count_nonzero(per, axis=1), per
    return ctx._get(("div_topic", level), make)


def _gains(ctx: K.Context, level: int, k: int | None, alpha: float) -> np.ndarray:
    """float (R, T, k): the novelty gain of each rank (ndeval's 'score')."""
    def make():
        rel = _rel(ctx, level, k)
        n = rel.shape[2]
        pw = K.powers(1.0 - alpha, n)
        seen = np.cumsum(rel, axis=2, dtype=np.int32)
        seen -= rel
        out = np.zeros(rel.shape[:3])
        for s in range(rel.shape[3]):            # in subtopic order, as ndeval adds
            out += np.where(rel[..., s], pw[seen[..., s]], 0.0)
        return out
    return ctx._get(("div_gain", level, k, alpha), make)


def _ideal_gains(ctx: K.Context, level: int, alpha: float, k: int | None) -> np.ndarray:
    """float (T, n): the novelty gains of ndeval's greedy ideal ranking, its
    first k ranks (all with k None; ranks past the relevant documents gain 0)."""
    st = _table(ctx)

    def make():
        rows = np.flatnonzero((st.grades >= level).any(axis=1))
        topic = np.searchsorted(st.first, rows, side="right") - 1
        T, S = len(st.first) - 1, st.grades.shape[1]
        cnt = np.bincount(topic, minlength=T)
        N = int(cnt.max()) if len(cnt) and len(rows) else 0
        steps = N if k is None else min(k, N)
        P = np.zeros((T, max(N, 1), S), dtype=bool)
        slot = np.arange(len(rows)) - np.repeat(np.cumsum(cnt) - cnt, cnt)
        P[topic, slot] = st.grades[rows] >= level
        valid = np.arange(max(N, 1))[None, :] < cnt[:, None]
        gain = np.ones((T, S))
        q = 1.0 - alpha
        out = np.zeros((T, max(steps, 1)))
        tt = np.arange(T)
        for step in range(steps):
            sc = np.zeros(P.shape[:2])
            for s in range(S):
                sc += np.where(P[:, :, s], gain[:, None, s], 0.0)
            sc[~valid] = -1.0
            # the largest gain, ties to the largest docno: the last of the maxima
            pick = P.shape[1] - 1 - np.argmax(sc[:, ::-1], axis=1)
            best = sc[tt, pick]
            ok = best >= 0
            out[:, step] = np.where(ok, best, 0.0)
            valid[tt[ok], pick[ok]] = False
            hit = P[tt, pick] & ok[:, None]
            gain = np.where(hit, gain * q, gain)
        return out
    return ctx._get(("div_ideal", level, alpha, k), make)


def _at(cum: np.ndarray, k: int) -> np.ndarray:
    """The running sum at rank k (the last one when the ranking is shorter)."""
    n = cum.shape[-1]
    if n == 0:
        return np.zeros(cum.shape[:-1])
    return cum[..., min(k, n) - 1]


# The ideal ideal is summed a block of ranks at a time.  Its terms S (1-alpha)^(i-1) w_i
# only decrease; once the next one is below half a unit in the last place of the sum,
# adding it and every later one leaves the sum as it is (rounding to nearest), so the
# work stops there, whatever k: the sum is at least S (its first term), so that happens
# within 54 / -log2(1 - alpha) ranks (alpha-nDCG@1e9 costs what alpha-nDCG@5000 does).
_II_BLOCK = 4096
# ranks summed at most (alpha near 0 never underflows: the sum needs every rank to k)
II_MAX_RANKS = 10_000_000


def ideal_ideal_ranks(alpha: float, k: int, top: int = 1) -> int:
    """The ranks :func:`_ideal_ideal` sums at most (``top``: the largest S)."""
    q = 1.0 - alpha
    if q <= 0.0:
        return min(k, 1)
    if q >= 1.0:
        return k
    # S q^(i-1) w_i < S 2^-54 <= half an ulp of the sum once i - 1 > 54 / -log2 q
    need = int(np.ceil(55.0 / -np.log2(q))) + 1 + _II_BLOCK
    return min(k, need)


def _ideal_ideal(A: np.ndarray, alpha: float, k: int, weight_of) -> np.ndarray:
    """(T,): ndeval's 'ideal ideal' through rank k: sum of S (1-alpha)^(i-1) w_i,
    the factors and the sum taken one rank after the other, as written."""
    if ideal_ideal_ranks(alpha, k, int(A.max()) if len(A) else 1) > II_MAX_RANKS:
        raise UsageError(f"the ideal ideal through rank {k} with alpha {alpha:g} sums more "
                         f"than {II_MAX_RANKS} ranks; use a smaller cutoff or a larger alpha")
    g = A.astype(np.float64)
    total = np.zeros(len(A))
    q = np.float64(1.0 - alpha)
    done = 0
    while done < k:
        n = min(_II_BLOCK, k - done)
        seq = np.empty((len(A), n + 1))
        seq[:, 0] = g
        seq[:, 1:] = q
        seq = np.multiply.accumulate(seq, axis=1)     # g, g q, (g q) q, ...
        terms = np.empty((len(A), n + 1))
        terms[:, 0] = total
        terms[:, 1:] = seq[:, :n] * weight_of(done, done + n)[None, :]
        total = np.cumsum(terms, axis=1)[:, -1]
        g = seq[:, n]
        done += n
        if done < k:             # the next term, the largest of the rest, moves no sum: final
            nxt = g * weight_of(done, done + 1)[0]
            if ((g == 0.0) | (nxt < np.spacing(total) / 2)).all():
                break
    return total


def check_ideal_ideal(ctx: K.Context, m) -> None:
    """Before scoring: a cutoff whose ideal ideal would sum more than II_MAX_RANKS
    ranks (alpha near 0) is refused."""
    if m.k is None or m.k < 2:
        return
    alpha = _alpha(m)
    A, _ = _per_topic(ctx, m.level(ctx.al.rel_level))
    top = int(A.max()) if len(A) else 1
    if ideal_ideal_ranks(alpha, m.k, top) > II_MAX_RANKS:
        raise UsageError(f"{m.name}: the ideal ideal (ndeval's divisor) through rank {m.k} "
                         f"with alpha {alpha:g} sums more than {II_MAX_RANKS} ranks; use a "
                         f"smaller cutoff or a larger alpha")


def _dcg_discount(n: int, stop: int | None = None) -> np.ndarray:
    """Ranks 1..n (or n+1..stop): 1 at rank 1, log(2)/log(rank + 1) after."""
    a, b = (0, n) if stop is None else (n, stop)
    d = np.log(2.0) / np.log(np.arange(a, b, dtype=np.float64) + 2.0)
    if a == 0 and b > 0:
        d[0] = 1.0
    return d


def _err_weight(n: int, stop: int | None = None) -> np.ndarray:
    a, b = (0, n) if stop is None else (n, stop)
    return 1.0 / np.arange(a + 1, b + 1, dtype=np.float64)


def _alpha(m) -> float:
    """alpha of alpha-nDCG, alpha-DCG, NRBP; ERR-IA's is ndeval's fixed 0.5
    (ir_measures gives ERR_IA no alpha)."""
    a = m.get("alpha")
    return 0.5 if a is None else float(a)


def _cumulated(ctx, m, weight_of) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(run value, greedy ideal's value, S) at k: ndeval's normalised cumulative
    gains (divided by the ideal ideal for k >= 2)."""
    level, k, alpha = m.level(ctx.al.rel_level), m.k, _alpha(m)
    A, _ = _per_topic(ctx, level)
    g = _gains(ctx, level, k, alpha)
    run = _at(np.cumsum(g * weight_of(g.shape[2]), axis=2), k)
    ig = _ideal_gains(ctx, level, alpha, k)
    ideal = _at(np.cumsum(ig * weight_of(ig.shape[1]), axis=1), k)
    if k >= 2:
        ii = _ideal_ideal(A, alpha, k, weight_of)
        with np.errstate(divide="ignore", invalid="ignore"):
            run = run / ii[None, :]
            ideal = ideal / ii
    none = A == 0
    run = np.where(none[None, :], 0.0, run)
    ideal = np.where(none, 0.0, ideal)
    return run, ideal, A


def _normalised(run: np.ndarray, ideal: np.ndarray) -> np.ndarray:
    out = np.zeros(run.shape)
    np.divide(run, np.broadcast_to(ideal[None, :], run.shape), out=out, where=run != 0)
    return out


def alpha_dcg(ctx: K.Context, m) -> np.ndarray:
    return _cumulated(ctx, m, _dcg_discount)[0]


def alpha_ndcg(ctx: K.Context, m) -> np.ndarray:
    run, ideal, _ = _cumulated(ctx, m, _dcg_discount)
    return _normalised(run, ideal)


def err_ia(ctx: K.Context, m) -> np.ndarray:
    return _cumulated(ctx, m, _err_weight)[0]


def nerr_ia(ctx: K.Context, m) -> np.ndarray:
    run, ideal, _ = _cumulated(ctx, m, _err_weight)
    # ndeval normalises where the run's alpha-DCG is not 0: a relevant document in the top k
    dcg = _cumulated(ctx, m, _dcg_discount)[0]
    out = np.zeros(run.shape)
    np.divide(run, np.broadcast_to(ideal[None, :], run.shape), out=out, where=dcg != 0)
    return out


def _nrbp_sum(g: np.ndarray, beta: float, A: np.ndarray, alpha: float) -> np.ndarray:
    n = g.shape[-1]
    decay = K.powers(beta, max(n - 1, 0))[:n]
    s = np.cumsum(g * decay, axis=-1)[..., -1] if n else np.zeros(g.shape[:-1])
    with np.errstate(divide="ignore", invalid="ignore"):
        out = s * ((1.0 - (1.0 - alpha) * beta) / A)
    return np.where(A == 0, 0.0, out)


def nrbp(ctx: K.Context, m) -> np.ndarray:
    level, alpha, beta = m.level(ctx.al.rel_level), float(m.get("alpha")), float(m.get("beta"))
    A, _ = _per_topic(ctx, level)
    return _nrbp_sum(_gains(ctx, level, None, alpha), beta, A[None, :], alpha)


def nnrbp(ctx: K.Context, m) -> np.ndarray:
    level, alpha, beta = m.level(ctx.al.rel_level), float(m.get("alpha")), float(m.get("beta"))
    A, _ = _per_topic(ctx, level)
    run = _nrbp_sum(_gains(ctx, level, None, alpha), beta, A[None, :], alpha)
    ideal = _nrbp_sum(_ideal_gains(ctx, level, alpha, None), beta, A, alpha)
    out = np.zeros(run.shape)
    np.divide(run, np.broadcast_to(ideal[None, :], run.shape), out=out,
              where=np.broadcast_to(ideal[None, :] > 0, run.shape))
    return out


def p_ia(ctx: K.Context, m) -> np.ndarray:
    level, k = m.level(ctx.al.rel_level), m.k
    A, _ = _per_topic(ctx, level)
    count = np.count_nonzero(_rel(ctx, level, k), axis=(2, 3))
    den = (k * A)[None, :]
    out = np.zeros(count.shape)
    np.divide(count, np.broadcast_to(den, count.shape), out=out,
              where=np.broadcast_to(den > 0, count.shape))
    return out


def st_recall(ctx: K.Context, m) -> np.ndarray:
    level, k = m.level(ctx.al.rel_level), m.k
    A, _ = _per_topic(ctx, level)
    seen = np.count_nonzero(_rel(ctx, level, k).any(axis=2), axis=2)
    return K.safe_div(seen.astype(np.float64), np.broadcast_to(A[None, :], seen.shape)
                      .astype(np.float64))


def ap_ia(ctx: K.Context, m) -> np.ndarray:
    level = m.level(ctx.al.rel_level)
    A, per = _per_topic(ctx, level)
    rel = _rel(ctx, level, None)
    R_, T_, D, S = rel.shape
    out = np.zeros((R_, T_))
    if D == 0:
        return out
    rank = np.arange(1, D + 1, dtype=np.float64)
    for s in range(S):                           # in subtopic order, as ndeval adds
        r = rel[..., s]
        cnt = np.cumsum(r, axis=2)
        total = np.cumsum(np.where(r, cnt / rank, 0.0), axis=2)[..., -1]
        n = per[:, s][None, :]
        out += np.where(n > 0, total / np.maximum(n, 1), 0.0)
    return K.safe_div(out, np.broadcast_to(A[None, :], out.shape).astype(np.float64))


_NOTE = "; ndeval's rules (ipsoeval-measures(1), DIVERSITY); reads qid subtopic docno judgment"
_DIV = dict(subtopics=True, bounds="none")

FAMILIES = (
    Family("alpha_nDCG", "alpha-nDCG (Clarke et al. 2008): novelty-discounted DCG over that of "
           "ndeval's greedy ideal ranking" + _NOTE, "ordinal", alpha_ndcg, cutoff="required",
           params=(REL, ALPHA, JUDGED_ONLY), example="alpha_nDCG@20", other_names=("alpha-nDCG",), check=check_ideal_ideal, **_DIV),
    Family("alpha_DCG", "alpha-DCG (Clarke et al. 2008) as ndeval reports it: divided by the "
           "ideal ideal DCG for k >= 2" + _NOTE, "ordinal", alpha_dcg, cutoff="required",
           params=(REL, ALPHA, JUDGED_ONLY), example="alpha_DCG@20", other_names=("alpha-DCG",), check=check_ideal_ideal, **_DIV),
    Family("ERR_IA", "intent-aware ERR (Chapelle et al. 2011) as ndeval: novelty gain / rank, "
           "divided by the ideal ideal for k >= 2" + _NOTE, "ordinal", err_ia,
           cutoff="required", params=(REL, JUDGED_ONLY), example="ERR_IA@20", other_names=("ERR-IA",),
           check=check_ideal_ideal, **_DIV),
    Family("nERR_IA", "ERR-IA over that of ndeval's greedy ideal ranking" + _NOTE, "ordinal",
           nerr_ia, cutoff="required", params=(REL, JUDGED_ONLY), example="nERR_IA@20",
           other_names=("nERR-IA",), check=check_ideal_ideal, **_DIV),
    Family("NRBP", "novelty- and rank-biased precision (Clarke, Kolla & Vechtomova 2009): "
           "(1-(1-alpha)beta)/S sum of novelty gain x beta^(i-1), whole ranking" + _NOTE,
           "ordinal", nrbp, params=(REL, ALPHA, PATIENCE), **_DIV),
    Family("nNRBP", "NRBP over that of ndeval's greedy ideal ranking" + _NOTE, "ordinal", nnrbp,
           params=(REL, ALPHA, PATIENCE), **_DIV),
    Family("P_IA", "intent-aware precision (Agrawal et al. 2009): (document, subtopic) "
           "relevant pairs in the top k over k S" + _NOTE, "interval", p_ia,
           cutoff="required", params=(REL, JUDGED_ONLY), example="P_IA@20", other_names=("P-IA",), **_DIV),
    Family("AP_IA", "intent-aware average precision (Agrawal et al. 2009): AP per subtopic "
           "averaged over the S subtopics, whole ranking" + _NOTE, "ordinal", ap_ia,
           params=(REL, JUDGED_ONLY), ir_measures=("MAP_IA",), other_names=("MAP-IA",), **_DIV),
    Family("StRecall", "subtopic recall (Zhai, Cohen & Lafferty 2003): subtopics with a "
           "relevant document in the top k over S" + _NOTE, "interval", st_recall,
           cutoff="required", params=(REL,), example="StRecall@20", other_names=("strec",),
           **_DIV),
)
