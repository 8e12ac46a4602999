"""Set measures over the retrieved documents, ranks ignored: SetP, SetRelP,
SetR, SetAP, SetF (trec_eval's set_*) and trec_eval's utility."""

from __future__ import annotations

from ipsoeval.errors import UsageError
from ipsoeval.measures import lazy
from ipsoeval.measures.family import Family, TrecName, TrecParams
from ipsoeval.measures.params import BETA, JUDGED_ONLY, REL, RELATIVE

# numpy and the kernels' helpers, imported by the first kernel that runs: the
# declarations below read without them (ipsoeval.measures.lazy)
np = lazy.module("numpy", globals(), "np")
E = lazy.functions("ipsoeval.measures.expected")
K = lazy.module("ipsoeval.measures.kernels", globals(), "K")
TI = lazy.functions("ipsoeval.measures.ties")

SET = ("all_trec", "set")


def _n_rel_ret(ctx: K.Context, level: int) -> np.ndarray:
    return ctx.count_at(level, ctx.depth).astype(np.float64)


def set_p(ctx: K.Context, m) -> np.ndarray:
    return K.safe_div(_n_rel_ret(ctx, m.level(ctx.al.rel_level)),
                      ctx.al.n_ret.astype(np.float64))


def set_recall(ctx: K.Context, m) -> np.ndarray:
    level = m.level(ctx.al.rel_level)
    nrr = _n_rel_ret(ctx, level)
    return K.safe_div(nrr, np.broadcast_to(ctx.num_rel(level)[None, :], nrr.shape)
                      .astype(np.float64))


def set_map(ctx: K.Context, m) -> np.ndarray:
    level = m.level(ctx.al.rel_level)
    nrr = _n_rel_ret(ctx, level)
    R = np.broadcast_to(ctx.num_rel(level)[None, :], nrr.shape).astype(np.float64)
    return K.safe_div(nrr * nrr, ctx.al.n_ret.astype(np.float64) * R)


def set_relative_p(ctx: K.Context, m) -> np.ndarray:
    level = m.level(ctx.al.rel_level)
    nrr = _n_rel_ret(ctx, level)
    R = np.broadcast_to(ctx.num_rel(level)[None, :], nrr.shape)
    n = ctx.al.n_ret
    den = np.where((n > 0) & (R > 0), np.minimum(n, R), 0).astype(np.float64)
    return K.safe_div(nrr, den)


def set_f(ctx: K.Context, m) -> np.ndarray:
    level, beta = m.level(ctx.al.rel_level), float(m.get("beta"))
    nrr = _n_rel_ret(ctx, level)
    R = np.broadcast_to(ctx.num_rel(level)[None, :], nrr.shape).astype(np.float64)
    P = K.safe_div(nrr, ctx.al.n_ret.astype(np.float64))
    Rc = K.safe_div(nrr, R)
    den = beta * P + Rc
    out = K.safe_div((beta + 1.0) * P * Rc, den)
    return np.where(nrr > 0, out, 0.0)


UTILITY_DEFAULT = (1.0, -1.0, 0.0, 0.0)


def utility(ctx: K.Context, m) -> np.ndarray:
    raw = m.param("te")
    a, b, c, d = tuple(K.trec_numbers(raw, m.name)) if raw else UTILITY_DEFAULT
    level = m.level(ctx.al.rel_level)
    num_docs = int(ctx.al.params.get("num_docs_in_coll") or 0)
    nrr = ctx.count_at(level, ctx.depth).astype(np.int64)
    n = ctx.al.n_ret.astype(np.int64)
    R = np.broadcast_to(ctx.num_rel(level)[None, :], nrr.shape).astype(np.int64)
    return (a * nrr.astype(np.float64) + b * (n - nrr).astype(np.float64)
            + c * (R - nrr).astype(np.float64) + d * (num_docs + nrr - n - R).astype(np.float64))


def _check_utility(raw: str, original: str) -> None:
    if len(K.trec_numbers(raw, original)) != 4:
        raise UsageError(f"utility takes 4 coefficients (found {original!r})")


def _set_p_respell(params: dict):
    """ir_measures' SetP(relative=True) is SetRelP."""
    params = dict(params)
    return ("SetRelP", params) if params.pop("relative", False) else ("SetP", params)


FAMILIES = (
    Family("SetP", "set precision: relevant retrieved / retrieved (trec_eval set_P)",
           "ordinal", set_p, params=(REL, JUDGED_ONLY, RELATIVE), respell=_set_p_respell,
           trec_plain=TrecName("set_P", 30, SET), other_names=("setp",), bounds="uniform", expected=E.e_set_p, ties=TI.invariant),
    Family("SetRelP", "relative set precision: relevant retrieved / min(retrieved, R) "
           "(trec_eval set_relative_P)", "ordinal", set_relative_p, params=(REL,),
           trec_plain=TrecName("set_relative_P", 31, SET), bounds="prefix", ties=TI.invariant),
    Family("SetR", "set recall: relevant retrieved / R (trec_eval set_recall)", "ordinal",
           set_recall, params=(REL,), trec_plain=TrecName("set_recall", 32, SET),
           other_names=("setrecall", "setr"), bounds="prefix", ties=TI.invariant),
    Family("SetAP", "unranked set AP: SetP * SetR (trec_eval set_map)", "ordinal", set_map,
           params=(REL, JUDGED_ONLY), trec_plain=TrecName("set_map", 33, SET),
           other_names=("setmap", "setap"), bounds="prefix", ties=TI.invariant),
    Family("SetF", "set F: (beta+1) P R / (beta P + R) over the retrieved set, beta = 1 "
           "by default (trec_eval set_F.beta)", "ordinal", set_f,
           params=(REL, BETA, JUDGED_ONLY), trec_plain=TrecName("set_F", 34, SET),
           trec_params=TrecParams(lambda raw, o: None, "",
                                  to_params=lambda raw, o: {"beta": K.trec_numbers(raw, o)[0]}),
           example="SetF(beta=0.5)", other_names=("setf",), bounds="prefix", ties=TI.invariant),
    Family("utility", "set utility p1*a + p2*b + p3*c + p4*d (a rel. retrieved, b nonrel. "
           "retrieved, c rel. not retrieved, d the rest of -N); default 1,-1,0,0",
           "interval", utility, trec_plain=TrecName("utility", 17, SET),
           trec_params=TrecParams(_check_utility, "trec_eval P1,P2,P3,P4"),
           example="utility.2,-1,0,0", bounds="uniform", ties=TI.invariant),
)
