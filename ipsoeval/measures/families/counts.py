"""Counts trec_eval prints: runid, num_q, num_ret, num_rel, num_rel_ret,
num_nonrel_judged_ret (summed over topics, num_q counted)."""

from __future__ import annotations

from ipsoeval.measures import lazy
from ipsoeval.measures.family import Family, TrecName
from ipsoeval.measures.params import REL

# numpy and the kernels' helpers, imported by the first kernel that runs: the
# declarations below read without them (ipsoeval.measures.lazy)
np = lazy.module("numpy", globals(), "np")
E = lazy.functions("ipsoeval.measures.expected")
K = lazy.module("ipsoeval.measures.kernels", globals(), "K")
TI = lazy.functions("ipsoeval.measures.ties")

OFFICIAL = ("official", "all_trec", "set")


def num_q(ctx: K.Context, m) -> np.ndarray:
    return np.ones(ctx.al.n_ret.shape)


def num_ret(ctx: K.Context, m) -> np.ndarray:
    return ctx.al.n_ret.astype(np.float64)


def num_rel(ctx: K.Context, m) -> np.ndarray:
    level = m.level(ctx.al.rel_level)
    return np.broadcast_to(ctx.num_rel(level)[None, :], ctx.al.n_ret.shape).astype(np.float64)


def num_rel_ret(ctx: K.Context, m) -> np.ndarray:
    return ctx.count_at(m.level(ctx.al.rel_level), ctx.depth).astype(np.float64)


def num_nonrel_judged_ret(ctx: K.Context, m) -> np.ndarray:
    level = m.level(ctx.al.rel_level)
    lab = ctx.al.labels
    return np.count_nonzero((lab >= 0) & (lab < level), axis=2).astype(np.float64)


def _num_ret_respell(params: dict):
    """ir_measures' NumRet(rel=L) is the relevant documents retrieved."""
    return ("NumRelRet", params) if "rel" in params else ("NumRet", params)


FAMILIES = (
    Family("runid", "the run's name (trec format only)", "nominal", num_q, kind="text",
           agg="text", per_query=False, trec_plain=TrecName("runid", 0, OFFICIAL), bounds="none", expected=E.label_independent, ties=TI.invariant),
    Family("NumQ", "number of topics evaluated", "ratio", num_q, kind="int", agg="count",
           per_query=False, trec_plain=TrecName("num_q", 1, OFFICIAL), other_names=("numq",), bounds="none", expected=E.label_independent, ties=TI.invariant, core=14),
    Family("NumRet", "number of documents retrieved", "ratio", num_ret, params=(REL,),
           kind="int", agg="sum", trec_plain=TrecName("num_ret", 2, OFFICIAL),
           respell=_num_ret_respell, other_names=("numret",), bounds="none", expected=E.label_independent, ties=TI.invariant, core=11),
    Family("NumRel", "number of relevant documents (R)", "ratio", num_rel, params=(REL,),
           kind="int", agg="sum", trec_plain=TrecName("num_rel", 3, OFFICIAL),
           other_names=("numrel",), bounds="uniform", expected=E.e_num_rel, ties=TI.invariant, core=12),
    Family("NumRelRet", "number of relevant documents retrieved", "ratio", num_rel_ret,
           params=(REL,), kind="int", agg="sum",
           trec_plain=TrecName("num_rel_ret", 4, OFFICIAL), other_names=("numrelret",), bounds="uniform", expected=E.e_count, ties=TI.invariant, core=13),
    Family("NumNonRelJudgedRet", "number of judged non-relevant documents retrieved",
           "ratio", num_nonrel_judged_ret, params=(REL,), kind="int", agg="sum",
           trec_plain=TrecName("num_nonrel_judged_ret", 35, ("all_trec",)), bounds="uniform", expected=E.e_nonrel_judged, ties=TI.invariant),
)
