"""Recall: relevant documents in the top k, divided by R."""

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


def recall(ctx: K.Context, m) -> np.ndarray:
    level, k = m.level(ctx.al.rel_level), m.k
    cnt = ctx.count_at(level, ctx.depth if k is None else k)
    return K.safe_div(cnt.astype(np.float64), ctx.num_rel(level)[None, :])


FAMILIES = (
    Family("R", "recall: relevant documents in the top k, divided by R (0 when R = 0)",
           "interval", recall, cutoff="optional", params=(REL, JUDGED_ONLY),
           trec=TrecName("recall", 13, ("all_trec",), (5, 10, 15, 20, 30, 100, 200, 500, 1000)),
           other_names=("recall", "r", "rec"), bounds="prefix", expected=E.e_recall, ties=TI.t_recall, core=2),
)
