"""Discounted cumulative gain: nDCG and DCG (trec_eval's, Jarvelin-Kekalainen's
with b=, ir_measures' dcg='exp-log2'), and trec_eval's gain-level relatives
ideal_dcg, ndcg_rel, Rndcg, G and binG."""

from __future__ import annotations

from ipsoeval.errors import InputError, UsageError
from ipsoeval.measures import lazy
from ipsoeval.measures.family import Family, TrecName, TrecParams
from ipsoeval.measures.params import DCG, JK_BASE, JUDGED_ONLY, REL

# numpy and the kernels' helpers, imported by the first kernel that runs: the
# declarations below read without them (ipsoeval.measures.lazy)
np = lazy.module("numpy", globals(), "np")
E = lazy.functions("ipsoeval.measures.expected")
K = lazy.module("ipsoeval.measures.kernels", globals(), "K")
TI = lazy.functions("ipsoeval.measures.ties")

PAIRS = TrecParams(lazy.function("ipsoeval.measures.kernels", "check_gain_pairs"))


# --- trec_eval's DCG: gain / log2(rank + 1) ------------------------------------------

def _dcg_log2(ctx: K.Context, g: np.ndarray, k: int | None) -> np.ndarray:
    """Sum of g / log2(rank + 1) over the top k, per (run, topic); g holds
    the gains of the top D >= min(k, depth) ranks."""
    D = g.shape[2]
    flat = np.flatnonzero(g.ravel())
    cell, i = np.divmod(flat, D)
    if k is not None:
        keep = i < k
        flat, cell, i = flat[keep], cell[keep], i[keep]
    disc = K.log2_discounts(max(D, 1))
    return ctx.cell_sum(cell, g.ravel()[flat] / disc[i])


def dcg_trec(ctx: K.Context, k: int | None) -> np.ndarray:
    """Sum of gain / log2(rank + 1) over the documents with a non-zero gain."""
    return _dcg_log2(ctx, ctx.gains_top(k), k)


def ndcg_trec(ctx: K.Context, k: int | None) -> np.ndarray:
    d = dcg_trec(ctx, k)
    i = K.idcg_trec(ctx, k)[None, :]
    out = d.copy()
    np.divide(d, i, out=out, where=i > 0)
    return out


# --- Jarvelin-Kekalainen: no discount before rank b, log_b(rank) after --------------

def dcg_jk(ctx: K.Context, b: float, k: int | None) -> np.ndarray:
    g = ctx.gains_top(k)
    return K.seq_sum(g / K.jk_discounts(g.shape[2], b), k)


def ndcg_jk(ctx: K.Context, b: float, k: int | None) -> np.ndarray:
    d = dcg_jk(ctx, b, k)
    ideal = ctx.ideal()
    i = K.seq_sum(ideal / K.jk_discounts(ideal.shape[1], b), k)[None, :]
    return K.safe_div(d, np.broadcast_to(i, d.shape))


# --- ir_measures' dcg='exp-log2': (2^gain - 1) / log2(rank + 1) ----------------------

def _exp_gains(g: np.ndarray) -> np.ndarray:
    if g.size and float(g.max()) > 1023:
        raise InputError(f"dcg='exp-log2' needs gains up to 1023 (2^gain - 1 overflows; "
                         f"found gain {float(g.max()):g})")
    return np.where(g > 0, np.exp2(np.maximum(g, 0.0)) - 1.0, 0.0)


# gdeval.pl, whose nDCG this is, refuses a judgment above 4 (its MAX_JUDGMENT)
GDEVAL_MAX_GAIN = 4


def check_exp_gains(ctx: K.Context, m) -> None:
    """nDCG(dcg='exp-log2') takes gdeval's gains, 0..4, as ERR does with its
    gmax: a larger one is refused before scoring, with the way out."""
    if m.param("dcg") != "exp-log2":
        return
    ideal = ctx.ideal()
    top = float(ideal.max()) if ideal.size else 0.0
    if top <= GDEVAL_MAX_GAIN:
        return
    al = ctx.al
    shown = int(top) if top.is_integer() else top
    what = "label" if al.label_mode == "integer" and not al.gain_map else "gain"
    hint = "scale the gains to 0..4"
    if what == "label":                  # --gains names every label it keeps
        levels = sorted({int(v) for j in al.judged_labels for v in j.tolist() if v > 0})
        pairs = ",".join(f"{v}:{min(v, GDEVAL_MAX_GAIN)}" for v in levels)
        hint = ("map the labels to gains 0..4 with --gains" +
                (f" (e.g. --gains {pairs})" if len(levels) <= 8 else ""))
    raise UsageError(f"{m.name} is gdeval's nDCG, whose gains are at most "
                     f"{GDEVAL_MAX_GAIN} (found {what} {shown}); {hint}, or use nDCG "
                     f"(trec_eval's linear gains)")


def dcg_exp(ctx: K.Context, k: int | None) -> np.ndarray:
    """ir_measures' dcg='exp-log2': sum of (2^gain - 1)/log2(rank + 1)."""
    return _dcg_log2(ctx, ctx._get("exp_gains", lambda: _exp_gains(ctx.gains())), k)


def ndcg_exp(ctx: K.Context, k: int | None) -> np.ndarray:
    """dcg_exp over the same for the ideal ordering of all judged documents."""
    ideal = _exp_gains(ctx.ideal())
    i = K.seq_sum(ideal / K.log2_discounts(ideal.shape[1]), k)[None, :]
    d = dcg_exp(ctx, k)
    out = d.copy()
    np.divide(d, i, out=out, where=i > 0)
    return out


# --- trec_eval's gain levels (-m ndcg.1=3,2=9) ----------------------------------------

def dcg_pairs(ctx: K.Context, pairs) -> np.ndarray:
    g, _ = K.gain_arrays(ctx, pairs)
    return K.seq_sum(g / K.disc(ctx.depth)[:g.shape[2]], None)


def idcg_pairs(ctx: K.Context, pairs) -> np.ndarray:
    _, ideal = K.gain_arrays(ctx, pairs)
    v = K.seq_sum(ideal / K.disc(ideal.shape[1]), None)
    return np.broadcast_to(v[None, :], ctx.al.n_ret.shape).copy()


def ndcg_pairs(ctx: K.Context, pairs) -> np.ndarray:
    d = dcg_pairs(ctx, pairs)
    i = idcg_pairs(ctx, pairs)
    out = np.zeros(d.shape)
    np.divide(d, i, out=out, where=i > 0)
    return out


def _by_form(ctx: K.Context, m, exp, pairs, trec, jk) -> np.ndarray:
    """The DCG form a measure names: dcg='exp-log2', trec_eval's gain pairs,
    b= (Jarvelin-Kekalainen) or trec_eval's log2 discount."""
    if m.param("dcg") == "exp-log2":
        return exp(ctx, m.k)
    if m.param("te") is not None:
        return pairs(ctx, K.gain_pairs(m)[0])
    b = m.param("b")
    return trec(ctx, m.k) if b is None else jk(ctx, float(b), m.k)


def ndcg(ctx: K.Context, m) -> np.ndarray:
    return _by_form(ctx, m, ndcg_exp, ndcg_pairs, ndcg_trec, ndcg_jk)


def dcg(ctx: K.Context, m) -> np.ndarray:
    return _by_form(ctx, m, dcg_exp, dcg_pairs, dcg_trec, dcg_jk)


def ideal_dcg(ctx: K.Context, m) -> np.ndarray:
    return idcg_pairs(ctx, K.gain_pairs(m)[0])


def ndcg_rel(ctx: K.Context, m) -> np.ndarray:
    """trec_eval's ndcg_rel: nDCG averaged over the positive-gain documents
    (unretrieved ones at the final DCG)."""
    g, ideal = K.gain_arrays(ctx, K.gain_pairs(m)[0])
    R_, T_, D = g.shape
    P = np.count_nonzero(ideal > 0, axis=1)                       # (T,)
    rd = np.add.accumulate(g / K.disc(D)[:D], axis=2) if D else np.zeros(g.shape)
    ipre = K.ideal_prefix(ideal)                                   # (T, n)
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


def rndcg(ctx: K.Context, m) -> np.ndarray:
    """trec_eval's Rndcg: nDCG averaged where the ideal gain changes (and at
    the end of the ranking)."""
    level = m.level(ctx.al.rel_level)
    g, ideal = K.gain_arrays(ctx, K.gain_pairs(m)[0])
    R_, T_, D = g.shape
    rd = np.add.accumulate(g / K.disc(D)[:D], axis=2) if D else np.zeros(g.shape)
    total_r = rd[:, :, -1] if D else np.zeros((R_, T_))
    ipre = K.ideal_prefix(ideal)
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


def g_measure(ctx: K.Context, m) -> np.ndarray:
    """trec_eval's G: gain / log2(2 + ideal cost so far - gain so far)."""
    g, ideal = K.gain_arrays(ctx, K.gain_pairs(m)[0])
    R_, T_, D = g.shape
    cost = np.ones((T_, max(D, 1)))
    n = min(D, ideal.shape[1])
    cost[:, :n] = np.maximum(ideal[:, :n], 1.0)
    cum_cost = np.add.accumulate(cost, axis=1)[:, :D]
    cum_res = np.add.accumulate(g, axis=2) if D else g
    r, t, i = np.nonzero(g)
    arg = (2 + cum_cost[t, i]) - cum_res[r, t, i]
    terms = g[r, t, i] / K.clog2(arg)
    s = ctx.cell_sum(r * T_ + t, terms) if len(r) else np.zeros((R_, T_))
    sum_ideal = K.seq_sum(ideal, None)
    out = np.zeros((R_, T_))
    np.divide(s, np.broadcast_to(sum_ideal[None, :], s.shape), out=out,
              where=np.broadcast_to(sum_ideal[None, :] > 0, s.shape))
    return out


def bing(ctx: K.Context, m) -> np.ndarray:
    level = m.level(ctx.al.rel_level)
    cell, i, j = ctx.rel_positions(level)
    L = K.log2_int(ctx.depth + 4)
    total = ctx.cell_sum(cell, 1.0 / L[3 + i - j])
    R = ctx.num_rel(level)
    return K.safe_div(total, np.broadcast_to(R[None, :], total.shape).astype(np.float64))


FAMILIES = (
    Family("nDCG", "trec_eval nDCG: sum of gain/log2(rank+1) over the top k, divided by the "
           "same for the ideal ordering of all judged documents; with b= the "
           "Jarvelin-Kekalainen form", "ordinal", ndcg, cutoff="optional",
           params=(JK_BASE, DCG, JUDGED_ONLY),
           trec_plain=TrecName("ndcg", 23, ("all_trec",)),
           trec=TrecName("ndcg_cut", 26, ("all_trec",), (5, 10, 15, 20, 30, 100, 200, 500, 1000)),
           trec_params=PAIRS, other_names=("ndcg", "ndcgcut"), bounds="sorted", expected=E.e_ndcg, expected_note="b=, dcg= and LEVEL=GAIN forms: Monte Carlo", ties=TI.t_ndcg, ties_note="dcg=, LEVEL=GAIN: enumeration",
           check=check_exp_gains, core=4),
    Family("DCG", "discounted cumulative gain: sum of gain/log2(rank+1), or with b= the "
           "Jarvelin-Kekalainen form (no discount before rank b, log_b(rank) after)",
           "ordinal", dcg, cutoff="optional", params=(JK_BASE, DCG, JUDGED_ONLY),
           trec_plain=TrecName("dcg", 21), trec_params=PAIRS, other_names=("dcg",), bounds="uniform", expected=E.e_dcg, expected_note="b=, dcg= and LEVEL=GAIN forms: Monte Carlo", ties=TI.t_dcg, ties_note="dcg=, LEVEL=GAIN: enumeration"),
    Family("G", "trec_eval's G: sum of gain/log2(2 + ideal cost so far - gain so far), "
           "divided by the ideal total gain (experimental)", "ordinal", g_measure,
           trec_plain=TrecName("G", 20, ("all_trec",)), trec_params=PAIRS,
           example="G.1=1,2=3", bounds="sorted", ties=TI.per_group),
    Family("ideal_dcg", "DCG of the ideal ordering of the judged documents (trec_eval)",
           "ordinal", ideal_dcg, trec_plain=TrecName("ideal_dcg", 22), trec_params=PAIRS,
           example="ideal_dcg.1=1,2=3", bounds="uniform", ties=TI.invariant),
    Family("ndcg_rel", "nDCG averaged over the positive-gain documents, unretrieved ones "
           "at the final nDCG (trec_eval, experimental)", "ordinal", ndcg_rel,
           trec_plain=TrecName("ndcg_rel", 24, ("all_trec",)), trec_params=PAIRS,
           example="ndcg_rel.1=1,2=3", bounds="exhaustive"),
    Family("Rndcg", "nDCG averaged at the ranks where the ideal gain changes (trec_eval, "
           "experimental)", "ordinal", rndcg, params=(REL,),
           trec_plain=TrecName("Rndcg", 25, ("all_trec",)), trec_params=PAIRS,
           example="Rndcg.1=1,2=3", bounds="sorted"),
    Family("binG", "binary G: mean over relevant documents of 1/log2(2 + nonrelevant "
           "above it) (trec_eval, experimental)", "ordinal", bing, params=(REL,),
           trec_plain=TrecName("binG", 19, ("all_trec",)), bounds="prefix", ties=TI.per_group),
)
