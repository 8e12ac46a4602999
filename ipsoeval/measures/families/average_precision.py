"""Average precision and its relatives: AP (map, map_cut), gm_map, infAP, yaap."""

from __future__ import annotations

import math

from ipsoeval.measures import lazy
from ipsoeval.measures.family import Family, TrecName
from ipsoeval.measures.params import JUDGED_ONLY, REL

# numpy and the kernels' helpers, imported by the first kernel that runs: the
# declarations below read without them (ipsoeval.measures.lazy)
np = lazy.module("numpy", globals(), "np")
E = lazy.functions("ipsoeval.measures.expected")
K = lazy.module("ipsoeval.measures.kernels", globals(), "K")
TI = lazy.functions("ipsoeval.measures.ties")
model = lazy.module("ipsoeval.model", globals(), "model")

INFAP_EPSILON = 0.00001


def average_precision(ctx: K.Context, m) -> np.ndarray:
    level, k = m.level(ctx.al.rel_level), m.k

    def make():
        cell, i, j = ctx.rel_positions(level)
        if k is not None:
            keep = i < k
            cell, i, j = cell[keep], i[keep], j[keep]
        total = ctx.cell_sum(cell, j / (i + 1.0))
        return K.safe_div(total, ctx.num_rel(level)[None, :].astype(np.float64))
    return ctx._get(("ap", level, k), make)


def infap(ctx: K.Context, m) -> np.ndarray:
    """trec_eval's infAP (Yilmaz & Aslam): judged documents above a relevant one
    give the precision estimate, not-pooled ones count as nonrelevant, pooled
    but unjudged ones are left out of the estimate."""
    level = m.level(ctx.al.rel_level)
    cell, i, j = ctx.rel_positions(level)
    nonrel = K.count_before(ctx, ("nonrel", level),
                            lambda L: (L >= 0) & (L < level), cell, i)
    pooled = K.count_before(ctx, "pooled", lambda L: L == model.POOLED, cell, i)
    r1 = j - 1                                 # judged relevant above
    fj = i.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        term = (1.0 / (fj + 1.0)
                + (fj / (fj + 1.0)) * ((r1 + nonrel + pooled) / fj)
                * ((r1 + INFAP_EPSILON) / ((r1 + nonrel) + 2 * INFAP_EPSILON)))
    term = np.where(i == 0, 1.0, term)
    total = ctx.cell_sum(cell, term)
    R = ctx.num_rel(level)
    return K.safe_div(total, np.broadcast_to(R[None, :], total.shape).astype(np.float64))


def yaap(ctx: K.Context, m) -> np.ndarray:
    level = m.level(ctx.al.rel_level)
    cell, i, j = ctx.rel_positions(level)
    s = ctx.cell_sum(cell, j / (i + 1.0))
    R = np.broadcast_to(ctx.num_rel(level)[None, :].astype(np.float64), s.shape)
    flat = [math.log((1.0 + a) / (1.0 + r - a)) for a, r in zip(s.ravel().tolist(),
                                                                   R.ravel().tolist())]
    return np.array(flat, dtype=np.float64).reshape(s.shape)


FAMILIES = (
    Family("AP", "average precision: sum of P@i over relevant ranks i <= k, divided by R",
           "ordinal", average_precision, cutoff="optional", params=(REL, JUDGED_ONLY),
           trec_plain=TrecName("map", 5, ("official", "all_trec")),
           trec=TrecName("map_cut", 27, ("all_trec",), (5, 10, 15, 20, 30, 100, 200, 500, 1000)),
           other_names=("map", "ap", "mapcut", "averageprecision"), bounds="prefix", expected=E.e_ap, ties=TI.t_ap, core=3),
    Family("gm_map", "geometric mean over topics of AP (AP floored at 0.00001)", "ordinal",
           average_precision, params=(REL,), agg="gm", per_query=False,
           trec_plain=TrecName("gm_map", 6, ("official", "all_trec")),
           other_names=("gmmap",), bounds="prefix", expected=E.e_ap, ties=TI.t_ap),
    Family("infAP", "inferred AP (Yilmaz & Aslam 2006), as trec_eval: precision above each "
           "relevant document estimated from the judged documents; qrels label -1 marks "
           "pooled but unjudged documents", "ordinal", infap, params=(REL,),
           trec_plain=TrecName("infAP", 14, ("all_trec",)), other_names=("infap",),
           bounds="prefix", ties=TI.per_group),
    Family("yaap", "yet another AP (Robertson 2012): log((1 + s)/(1 + R - s)), s the sum "
           "of precisions at relevant ranks", "ordinal", yaap, params=(REL,),
           trec_plain=TrecName("yaap", 53), bounds="prefix"),
)
