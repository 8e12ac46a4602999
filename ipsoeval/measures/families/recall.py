"""Recall: relevant documents in the top k, divided by R."""

from __future__ import annotations

import numpy as np

from ipsoeval.measures import expected as E
from ipsoeval.measures import kernels as K
from ipsoeval.measures import ties as TI
from ipsoeval.measures.family import Family, TrecName
from ipsoeval.measures.params import JUDGED_ONLY, REL


def recall(ctx: K.Context, m) -> np.ndarray:
    level, k = m.level(ctx.al.rel_level), m.k
    cnt = ctx.count_at(level, ctx.depth if k is None else k)
    return K.safe_div(cnt.astype(np.float64), ctx.num_rel(level)[None, :])


FAMILIES = (
    Family("R", "recall: relevant documents in the top k, divided by R (0 when R = 0)",
           "interval", recall, cutoff="optional", params=(REL, JUDGED_ONLY),
           trec=TrecName("recall", 13, ("all_trec",), (5, 10, 15, 20, 30, 100, 200, 500, 1000)),
           other_names=("recall", "r", "rec"), bounds="prefix", expected=E.e_recall, ties=TI.t_recall),
)
