"""Binary preference (Buckley & Voorhees 2004) and its geometric mean, as trec_eval."""

from __future__ import annotations

from ipsoeval.measures import lazy
from ipsoeval.measures.family import Family, TrecName
from ipsoeval.measures.params import REL

# numpy and the kernels' helpers, imported by the first kernel that runs: the
# declarations below read without them (ipsoeval.measures.lazy)
np = lazy.module("numpy", globals(), "np")
K = lazy.module("ipsoeval.measures.kernels", globals(), "K")
TI = lazy.functions("ipsoeval.measures.ties")


def bpref(ctx: K.Context, m) -> np.ndarray:
    level = m.level(ctx.al.rel_level)
    R_, T_, D = ctx.al.labels.shape
    lab = ctx.al.labels
    cell, i, _ = ctx.rel_positions(level)
    judged_nonrel = (lab >= 0) & (lab < level)
    nonrel = np.flatnonzero(judged_nonrel.ravel())
    if 16 * len(nonrel) > lab.size:          # dense (--bounds completions): running counts
        nr = np.cumsum(judged_nonrel.reshape(-1, D), axis=1, dtype=np.int32)[cell, i]
    else:                                    # judged nonrel above, by binary search
        flat = cell * D + i
        nr = np.searchsorted(nonrel, flat) - np.searchsorted(nonrel, cell * D)
    Rt = ctx.num_rel(level).astype(np.float64)
    Nt = ctx.num_nonrel(level).astype(np.float64)
    t = cell % T_
    denom = np.minimum(Nt, Rt)[t]
    frac = np.zeros(len(cell))
    np.divide(np.minimum(nr, Rt[t]), denom, out=frac, where=denom > 0)
    terms = np.where(nr > 0, 1.0 - frac, 1.0)
    return K.safe_div(ctx.cell_sum(cell, terms), np.broadcast_to(Rt[None, :], (R_, T_)))


FAMILIES = (
    Family("bpref", "binary preference (Buckley & Voorhees 2004), as trec_eval", "ordinal",
           bpref, params=(REL,), trec_plain=TrecName("bpref", 8, ("official", "all_trec")),
           ir_measures=("Bpref",), other_names=("bpref",), bounds="prefix", ties=TI.per_group, core=8),
    Family("gm_bpref", "geometric mean over topics of bpref (floored at 0.00001)", "ordinal",
           bpref, params=(REL,), agg="gm", per_query=False,
           trec_plain=TrecName("gm_bpref", 15, ("all_trec",)), bounds="prefix", ties=TI.per_group),
)
