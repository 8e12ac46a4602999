"""Precision at a cutoff: P@k, relative precision, R-precision and Rprec_mult."""

from __future__ import annotations

from ipsoeval.measures import lazy
from ipsoeval.measures.family import Family, TrecName
from ipsoeval.measures.params import JUDGED_ONLY, REL

# numpy and the kernels' helpers, imported by the first kernel that runs: the
# declarations below read without them (ipsoeval.measures.lazy)
np = lazy.module("numpy", globals(), "np")
E = lazy.functions("ipsoeval.measures.expected")
K = lazy.module("ipsoeval.measures.kernels", globals(), "K")
TI = lazy.functions("ipsoeval.measures.ties")

DEFAULT_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


def precision(ctx: K.Context, m) -> np.ndarray:
    k = m.k
    return ctx.count_at(m.level(ctx.al.rel_level), k) / float(k)


def relative_p(ctx: K.Context, m) -> np.ndarray:
    level, k = m.level(ctx.al.rel_level), m.k
    cnt = ctx.count_at(level, k).astype(np.float64)
    R = np.broadcast_to(ctx.num_rel(level)[None, :], cnt.shape)
    den = np.where(R > 0, np.minimum(R, k), 0).astype(np.float64)
    return K.safe_div(cnt, den)


def r_precision(ctx: K.Context, m) -> np.ndarray:
    level = m.level(ctx.al.rel_level)
    R = ctx.num_rel(level)
    n = np.minimum(ctx.al.n_ret, R[None, :])
    cell, i, _ = ctx.rel_positions(level)
    got = ctx.cell_sum(cell[i < n.ravel()[cell]])
    return K.safe_div(got, np.broadcast_to(R[None, :], got.shape).astype(np.float64))


def rprec_mult(ctx: K.Context, m) -> np.ndarray:
    """Precision after (long)(m·R + 0.9) documents (nonrelevant fill past the end)."""
    level = m.level(ctx.al.rel_level)
    R = ctx.num_rel(level)
    cut = (float(m.cutoff) * R.astype(np.float64) + 0.9).astype(np.int64)  # C's (long)
    out = np.zeros(ctx.al.n_ret.shape)
    for c in np.unique(cut):
        if c <= 0:
            continue
        cols = cut == c
        out[:, cols] = ctx.count_at(level, int(c))[:, cols] / float(c)
    return out


FAMILIES = (
    Family("P", "precision: relevant documents in the top k, divided by k", "interval",
           precision, cutoff="required", params=(REL, JUDGED_ONLY),
           trec=TrecName("P", 11, ("official", "all_trec"), DEFAULT_CUTS),
           other_names=("precision", "prec", "p"), bounds="uniform", expected=E.e_precision, ties=TI.t_precision, core=1),
    Family("RelP", "relative precision: relevant documents in the top k divided by "
           "min(k, R) (trec_eval relative_P)", "ordinal", relative_p, cutoff="required",
           params=(REL,), trec=TrecName("relative_P", 28, ("all_trec",), DEFAULT_CUTS),
           bounds="prefix", ties=TI.t_relative_p),
    Family("Rprec", "precision after R documents", "ordinal", r_precision,
           params=(REL, JUDGED_ONLY), trec_plain=TrecName("Rprec", 7, ("official", "all_trec")),
           other_names=("rprec", "rprecision"), bounds="prefix", ties=TI.t_rprec, core=9),
    Family("RprecMult", "precision after m*R documents (trec_eval Rprec_mult: cutoff "
           "(long)(m*R + 0.9), nonrelevant fill past the end)", "ordinal", rprec_mult,
           cutoff="required", cutoff_kind="multiple", params=(REL,),
           trec=TrecName("Rprec_mult", 16, ("all_trec",),
                         (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)), bounds="prefix", ties=TI.t_rprec_mult),
)
