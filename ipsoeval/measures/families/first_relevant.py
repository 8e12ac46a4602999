"""Measures of the first relevant document: RR (recip_rank), ESL, Success."""

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


def reciprocal_rank(ctx: K.Context, m) -> np.ndarray:
    f = ctx.first_rel(m.level(ctx.al.rel_level), m.k)
    out = np.zeros(f.shape)
    np.divide(1.0, f + 1.0, out=out, where=f >= 0)
    return out


def esl(ctx: K.Context, m) -> np.ndarray:
    f = ctx.first_rel(m.level(ctx.al.rel_level), m.k)
    return np.where(f >= 0, f + 1.0, np.nan)


def success(ctx: K.Context, m) -> np.ndarray:
    return (ctx.first_rel(m.level(ctx.al.rel_level), m.k) >= 0).astype(np.float64)


FAMILIES = (
    Family("RR", "reciprocal rank of the first relevant document in the top k; 0 if none",
           "ordinal", reciprocal_rank, cutoff="optional", params=(REL, JUDGED_ONLY),
           trec_plain=TrecName("recip_rank", 9, ("official", "all_trec")),
           other_names=("mrr", "rr", "reciprank", "reciprocalrank"), bounds="uniform", expected=E.e_rr, ties=TI.t_rr, core=5),
    Family("ESL", "rank of the first relevant document in the top k (expected search "
           "length, one relevant document); undefined if none", "ratio", esl,
           cutoff="optional", params=(REL,), agg="mean_defined", higher_is_better=False,
           other_names=("esl",), bounds="prefix"),
    Family("Success", "1 if a relevant document is in the top k, else 0", "interval", success,
           cutoff="required", params=(REL, JUDGED_ONLY),
           trec=TrecName("success", 29, ("all_trec",), (1, 5, 10)),
           other_names=("hits", "hit", "hr", "hitrate", "hitratio", "success"), bounds="uniform", expected=E.e_success, ties=TI.t_success, core=6),
)
