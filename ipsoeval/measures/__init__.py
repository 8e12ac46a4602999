"""Measure names, definitions and scale types (docs/conventions.md, "Measures").

Canonical names use the ``Name(param=value)@cutoff`` syntax (ir_measures
style); trec_eval names (``P_10``, ``P.10``, ``map``, ``ndcg_cut.10`` …) are
aliases.  ``-m`` also takes trec_eval's own arguments (``P``, ``P.5,10``,
``official``, ``all_trec``), expanded by :func:`expand`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from ipsoeval.errors import UsageError
from ipsoeval.measures import kernels as K
from ipsoeval.measures import names as N

# trec_eval's measure table order (te_trec_measures), used for trec ordering.
TREC_ORDER = {
    "runid": 0, "num_q": 1, "num_ret": 2, "num_rel": 3, "num_rel_ret": 4, "map": 5,
    "gm_map": 6, "Rprec": 7, "bpref": 8, "recip_rank": 9, "iprec_at_recall": 10, "P": 11,
    "relstring": 12, "recall": 13, "infAP": 14, "gm_bpref": 15, "Rprec_mult": 16,
    "utility": 17, "11pt_avg": 18, "binG": 19, "G": 20, "dcg": 21, "ideal_dcg": 22,
    "ndcg": 23, "ndcg_rel": 24, "Rndcg": 25, "ndcg_cut": 26, "map_cut": 27,
    "relative_P": 28, "success": 29, "set_P": 30, "set_relative_P": 31, "set_recall": 32,
    "set_map": 33, "set_F": 34, "num_nonrel_judged_ret": 35, "yaap": 53, "rbp": 54,
    "rbp_resid": 55, "unj": 56,
}
TREC_DEFAULT_CUTOFFS = {
    "P": [5, 10, 15, 20, 30, 100, 200, 500, 1000],
    "recall": [5, 10, 15, 20, 30, 100, 200, 500, 1000],
    "ndcg_cut": [5, 10, 15, 20, 30, 100, 200, 500, 1000],
    "map_cut": [5, 10, 15, 20, 30, 100, 200, 500, 1000],
    "success": [1, 5, 10],
    "iprec_at_recall": [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0],
    "Rprec_mult": [0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0],
    "relative_P": [5, 10, 15, 20, 30, 100, 200, 500, 1000],
    "unj": [5, 10, 20],
}
OFFICIAL = ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
            "bpref", "recip_rank", "iprec_at_recall", "P"]
# trec_eval's nicknames (measures.c); printed in TREC_ORDER
ALL_TREC = OFFICIAL + ["relstring", "recall", "unj", "rbp", "rbp_resid", "infAP",
                       "gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P", "Rprec_mult",
                       "success", "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G",
                       "set_P", "set_recall", "set_relative_P", "set_map", "set_F",
                       "num_nonrel_judged_ret"]
NICKNAMES = {
    "official": OFFICIAL,
    "all_trec": ALL_TREC,
    "set": ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
            "set_recall", "set_relative_P", "set_map", "set_F"],
}
_FLOAT_TREC = {"iprec_at_recall", "Rprec_mult"}   # trec_eval families with double cutoffs
_FLOAT_CUT = {"IPrec", "RprecMult"}


@dataclass(frozen=True)
class Family:
    name: str                 # canonical family name
    description: str
    scale: str                # ordinal | interval | ratio
    cutoff: str               # "none" | "optional" | "required"
    params: tuple = ()        # allowed parameter names
    kind: str = "float"       # float | int (printed as an integer)
    agg: str = "mean"         # mean | sum | gm | count | mean_defined
    trec: str | None = None   # trec_eval family name (with cutoff) …
    trec_plain: str | None = None  # … or without cutoff
    per_query: bool = True    # trec_eval prints it per topic
    te_params: str | None = None  # trec_eval parameter string: "pairs" | "doubles"


FAMILIES: dict[str, Family] = {f.name: f for f in [
    Family("P", "precision: relevant documents in the top k, divided by k",
           "interval", "required", ("rel",), trec="P"),
    Family("R", "recall: relevant documents in the top k, divided by R (0 when R = 0)",
           "interval", "optional", ("rel",), trec="recall"),
    Family("AP", "average precision: sum of P@i over relevant ranks i <= k, divided by R",
           "ordinal", "optional", ("rel",), trec="map_cut", trec_plain="map"),
    Family("RR", "reciprocal rank of the first relevant document in the top k; 0 if none",
           "ordinal", "optional", ("rel",), trec_plain="recip_rank"),
    Family("ESL", "rank of the first relevant document in the top k (expected search "
           "length, one relevant document); undefined if none", "ratio", "optional", ("rel",),
           agg="mean_defined"),
    Family("nDCG", "trec_eval nDCG: sum of gain/log2(rank+1) over the top k, divided by the "
           "same for the ideal ordering of all judged documents; with b= the "
           "Jarvelin-Kekalainen form", "ordinal", "optional", ("b",),
           trec="ndcg_cut", trec_plain="ndcg", te_params="pairs"),
    Family("DCG", "discounted cumulative gain: sum of gain/log2(rank+1), or with b= the "
           "Jarvelin-Kekalainen form (no discount before rank b, log_b(rank) after)",
           "ordinal", "optional", ("b",), trec_plain="dcg", te_params="pairs"),
    Family("RBP", "rank-biased precision (1-p) sum g_i p^(i-1) over the top k; binary gains "
           "unless --gains (then scaled by the largest gain)", "ordinal", "optional",
           ("p", "rel")),
    Family("RBPresid", "RBP residual: p^k plus (1-p) sum p^(i-1) over unjudged documents "
           "in the top k", "ordinal", "optional", ("p",)),
    Family("Success", "1 if a relevant document is in the top k, else 0",
           "interval", "required", ("rel",), trec="success"),
    Family("Rprec", "precision after R documents", "ordinal", "none", ("rel",),
           trec_plain="Rprec"),
    Family("bpref", "binary preference (Buckley & Voorhees 2004), as trec_eval",
           "ordinal", "none", ("rel",), trec_plain="bpref"),
    Family("gm_map", "geometric mean over topics of AP (AP floored at 0.00001)",
           "ordinal", "none", ("rel",), agg="gm", trec_plain="gm_map", per_query=False),
    Family("IPrec", "interpolated precision at recall level x (trec_eval iprec_at_recall)",
           "ordinal", "required", ("rel",), trec="iprec_at_recall"),
    Family("runid", "the run's name (trec format only)", "nominal", "none", (), kind="text",
           agg="text", trec_plain="runid", per_query=False),
    Family("NumQ", "number of topics evaluated", "ratio", "none", (), kind="int",
           agg="count", trec_plain="num_q", per_query=False),
    Family("NumRet", "number of documents retrieved", "ratio", "none", (), kind="int",
           agg="sum", trec_plain="num_ret"),
    Family("NumRel", "number of relevant documents (R)", "ratio", "none", ("rel",),
           kind="int", agg="sum", trec_plain="num_rel"),
    Family("NumRelRet", "number of relevant documents retrieved", "ratio", "none", ("rel",),
           kind="int", agg="sum", trec_plain="num_rel_ret"),
    Family("NumNonRelJudgedRet", "number of judged non-relevant documents retrieved",
           "ratio", "none", ("rel",), kind="int", agg="sum",
           trec_plain="num_nonrel_judged_ret"),
]}
# --- ir_measures families (measure-names) ---
FAMILIES["Judged"] = Family(
    "Judged", "judged documents in the top k, divided by min(k, documents retrieved); 0 for "
    "an empty ranking (ir_measures' Judged; qrels labels < 0 count as unjudged)",
    "ratio", "required", ())
# --- end ir_measures families ---
_FAMILY_CI = {k.lower(): k for k in FAMILIES}   # for suggestions only: names are case-sensitive
_TREC_PLAIN = {f.trec_plain: f.name for f in FAMILIES.values() if f.trec_plain}
_TREC_CUT = {f.trec: f.name for f in FAMILIES.values() if f.trec}


# --- trec_eval 10.0 measures beyond the official set (m_*.c), and ERR ------------
# Canonical names follow ir_measures where it has the measure (infAP, SetP, SetR,
# SetF, SetAP, SetRelP, ERR); measures only trec_eval has keep trec_eval's name.
# Parameter strings of trec_eval (-m utility.2,-1,0,0, -m ndcg.1=3,2=9,
# -m rbp.p=0.8, -m relstring.20, -m 11pt_avg..25,.5) are kept verbatim in the
# parameter "te": the name printed is NAME_PARAMS, as trec_eval prints it.

_TE_FAMILIES = [
    Family("relstring", "the labels of the top N documents (default 10) as a string: 0-9, "
           "'>' above 9, '-' not in the qrels, '.' negative label (pooled, unjudged); "
           "per topic only", "nominal", "none", (), kind="text", agg="none",
           trec_plain="relstring", te_params="doubles"),
    Family("infAP", "inferred AP (Yilmaz & Aslam 2006), as trec_eval: precision above each "
           "relevant document estimated from the judged documents; qrels label -1 marks "
           "pooled but unjudged documents", "ordinal", "none", ("rel",), trec_plain="infAP"),
    Family("gm_bpref", "geometric mean over topics of bpref (floored at 0.00001)", "ordinal",
           "none", ("rel",), agg="gm", trec_plain="gm_bpref", per_query=False),
    Family("RprecMult", "precision after m*R documents (trec_eval Rprec_mult: cutoff "
           "(long)(m*R + 0.9), nonrelevant fill past the end)", "ordinal", "required",
           ("rel",), trec="Rprec_mult"),
    Family("utility", "set utility p1*a + p2*b + p3*c + p4*d (a rel. retrieved, b nonrel. "
           "retrieved, c rel. not retrieved, d the rest of -N); default 1,-1,0,0",
           "interval", "none", (), trec_plain="utility", te_params="doubles"),
    Family("11pt_avg", "interpolated precision averaged over recall levels (default 0, "
           "0.1, ..., 1; v10 rounding lround(x*R))", "ordinal", "none", (),
           trec_plain="11pt_avg", te_params="doubles"),
    Family("binG", "binary G: mean over relevant documents of 1/log2(2 + nonrelevant "
           "above it) (trec_eval, experimental)", "ordinal", "none", ("rel",),
           trec_plain="binG"),
    Family("G", "trec_eval's G: sum of gain/log2(2 + ideal cost so far - gain so far), "
           "divided by the ideal total gain (experimental)", "ordinal", "none", (),
           trec_plain="G", te_params="pairs"),
    Family("ideal_dcg", "DCG of the ideal ordering of the judged documents (trec_eval)",
           "ordinal", "none", (), trec_plain="ideal_dcg", te_params="pairs"),
    Family("ndcg_rel", "nDCG averaged over the positive-gain documents, unretrieved ones "
           "at the final nDCG (trec_eval, experimental)", "ordinal", "none", (),
           trec_plain="ndcg_rel", te_params="pairs"),
    Family("Rndcg", "nDCG averaged at the ranks where the ideal gain changes (trec_eval, "
           "experimental)", "ordinal", "none", ("rel",), trec_plain="Rndcg",
           te_params="pairs"),
    Family("RelP", "relative precision: relevant documents in the top k divided by "
           "min(k, R) (trec_eval relative_P)", "ordinal", "required", ("rel",),
           trec="relative_P"),
    Family("SetP", "set precision: relevant retrieved / retrieved (trec_eval set_P)",
           "ordinal", "none", ("rel",), trec_plain="set_P"),
    Family("SetRelP", "relative set precision: relevant retrieved / min(retrieved, R) "
           "(trec_eval set_relative_P)", "ordinal", "none", ("rel",),
           trec_plain="set_relative_P"),
    Family("SetR", "set recall: relevant retrieved / R (trec_eval set_recall)", "ordinal",
           "none", ("rel",), trec_plain="set_recall"),
    Family("SetAP", "unranked set AP: SetP * SetR (trec_eval set_map)", "ordinal", "none",
           ("rel",), trec_plain="set_map"),
    Family("SetF", "set F: (beta+1) P R / (beta P + R) over the retrieved set, beta = 1 "
           "by default (trec_eval set_F.beta)", "ordinal", "none", ("rel", "beta"),
           trec_plain="set_F"),
    Family("yaap", "yet another AP (Robertson 2012): log((1 + s)/(1 + R - s)), s the sum "
           "of precisions at relevant ranks", "ordinal", "none", ("rel",),
           trec_plain="yaap"),
    Family("rbp", "trec_eval's rank-biased precision: (1-p) sum gain_i p^(i-1), p = 0.9, "
           "graded gains (the label, or level=gain pairs), per topic scaled to [0, 1] "
           "when outside it", "ordinal", "none", (), trec_plain="rbp", te_params="pairs"),
    Family("rbp_resid", "trec_eval's RBP residual: p^n + (1-p) sum p^(i-1) over the "
           "unjudged retrieved documents, 0 when none is unjudged; p = 0.9",
           "ordinal", "none", (), trec_plain="rbp_resid", te_params="pairs"),
    Family("Unjudged", "fraction of the top k that is unjudged (not in the qrels or "
           "label < 0), divided by k (trec_eval unj)", "interval", "required", (),
           trec="unj"),
    Family("ERR", "expected reciprocal rank (Chapelle et al. 2009) as gdeval/ir_measures: "
           "sum R_i/i prod_{j<i}(1-R_j), R = (2^label - 1)/2^gmax, gmax = 4",
           "ordinal", "optional", ("gmax",)),
]
FAMILIES.update({f.name: f for f in _TE_FAMILIES})
_TREC_PLAIN.update({f.trec_plain: f.name for f in FAMILIES.values() if f.trec_plain})
_TREC_CUT.update({f.trec: f.name for f in FAMILIES.values() if f.trec})
_FAMILY_CI.update({k.lower(): k for k in ("infAP", "SetP", "SetR", "SetF", "SetAP",
                                          "SetRelP", "RelP", "RprecMult", "Unjudged", "ERR")})
_TE_PARAM_FAMS = {f.trec_plain: f for f in FAMILIES.values() if f.te_params}
_TE_EXAMPLES = {"relstring": "relstring.20", "utility": "utility.2,-1,0,0",
                "11pt_avg": "11pt_avg..25,.5,.75", "G": "G.1=1,2=3",
                "ideal_dcg": "ideal_dcg.1=1,2=3", "ndcg_rel": "ndcg_rel.1=1,2=3",
                "Rndcg": "Rndcg.1=1,2=3", "rbp": "rbp.p=0.8", "rbp_resid": "rbp_resid.p=0.8",
                "SetF": "SetF(beta=0.5)", "ERR": "ERR@20"}
_TE_PARAM_HELP = {"relstring": "trec_eval N", "utility": "trec_eval P1,P2,P3,P4",
                  "11pt_avg": "trec_eval LEVEL,...", "rbp": "trec_eval p=P,LEVEL=GAIN,...",
                  "rbp_resid": "trec_eval p=P"}
_TE_COMPUTE = {f.name for f in _TE_FAMILIES}


def _te_make(fam: Family, cutoff, params: dict, original: str) -> Measure:
    """_make for the families above with parameters _make does not know."""
    for k in params:
        if k not in fam.params:
            allowed = ", ".join(fam.params) or "none"
            raise UsageError(f"measure {fam.name} takes no parameter {k!r} (allowed: {allowed}) "
                             f"in {original!r}" + (f"; use trec_eval's syntax "
                                                   f"{fam.trec_plain}.PARAMS" if fam.te_params
                                                   else ""))
    clean = {}
    if "rel" in params:
        if params["rel"] != int(params["rel"]):
            raise UsageError(f"rel= must be an integer (found {original!r})")
        clean["rel"] = int(params["rel"])
    if "beta" in params:
        if params["beta"] < 0:
            raise UsageError(f"beta must be >= 0 (found {original!r})")
        clean["beta"] = float(params["beta"])
    if "gmax" in params:
        if params["gmax"] != int(params["gmax"]) or not 0 < params["gmax"] <= 60:
            raise UsageError(f"gmax must be an integer in 1..60 (found {original!r})")
        clean["gmax"] = int(params["gmax"])
    _check_cutoff_given(fam, cutoff, original)
    if cutoff is not None:
        if fam.name == "RprecMult":
            if not 0 <= cutoff <= 1e6:
                raise UsageError(f"Rprec_mult's multiple of R must be in [0, 1e6] "
                                 f"(found {original!r})")
            cutoff = float(cutoff)
        else:
            if cutoff != int(cutoff) or cutoff < 1:
                raise UsageError(f"cutoff must be a positive integer (found {original!r})")
            cutoff = int(cutoff)
    return Measure(fam.name, cutoff, tuple(sorted(clean.items())))


_TE_MAKE = {"SetF": _te_make, "ERR": _te_make, "RprecMult": _te_make}


def _te_values(text: str, original: str) -> list[float]:
    try:
        vals = [float(v) for v in text.split(",")]
    except ValueError:
        raise UsageError(f"bad parameter list in measure {original!r}") from None
    if not all(math.isfinite(v) for v in vals):
        raise UsageError(f"bad parameter list in measure {original!r}")
    return vals


def _te_check(fam: Family, raw: str, original: str) -> None:
    """Usage errors for a trec_eval parameter string, before any file is read."""
    from ipsoeval.measures import trec_kernels as TK
    if fam.te_params == "pairs":
        allow = ("p",) if fam.name in ("rbp", "rbp_resid") else ()
        gains, other = TK.parse_gain_pairs(raw, allow)
        if "p" in other and not 0 < other["p"] < 1:
            raise UsageError(f"p must be in (0, 1) (found {original!r})")
        if fam.name == "rbp_resid" and gains:
            raise UsageError(f"rbp_resid takes only p= (found {original!r})")
        return
    vals = _te_values(raw, original)
    if fam.name == "utility" and len(vals) != 4:
        raise UsageError(f"utility takes 4 coefficients (found {original!r})")
    if fam.name == "11pt_avg" and not all(0 <= v <= 1 for v in vals):
        raise UsageError(f"11pt_avg's recall levels must be in [0, 1] (found {original!r})")
    if fam.name == "relstring" and not 0 <= vals[0] < 2**31:
        raise UsageError(f"relstring's length must be a non-negative number (found {original!r})")


def _te_param_arg(text: str) -> Requested | None:
    """trec_eval's parameter strings: NAME.PARAMS (or NAME_PARAMS, as printed)."""
    for name in sorted([*_TE_PARAM_FAMS, "set_F"], key=len, reverse=True):
        if len(text) <= len(name) + 1 or text[len(name)] not in "._" \
                or not text.startswith(name):
            continue
        raw = text[len(name) + 1:]
        if name == "set_F":
            vals = _te_values(raw, text)
            meas = _make(FAMILIES["SetF"], None, {"beta": vals[0]}, text)
            return Requested(meas, f"set_F_{raw}", True, text, te_family=name,
                             te_explicit=True)
        fam = _TE_PARAM_FAMS[name]
        _te_check(fam, raw, text)
        meas = Measure(fam.name, None, (("te", raw),))
        return Requested(meas, meas.name, True, text, te_family=name, te_explicit=True)
    return None


def _te_first_params_win(reqs: list[Requested]) -> list[Requested]:
    """trec_eval computes each of its measures once: given with parameters
    (-m P.5, -m relstring.20), the default form (-m P, all_trec) is not added."""
    explicit = {r.te_family for r in reqs if r.te_explicit and r.te_family}
    if not explicit:
        return reqs
    return [r for r in reqs if r.te_explicit or r.te_family not in explicit]


def _te_compute(m: Measure, aligned, ctx: K.Context, lv: int) -> np.ndarray:
    from ipsoeval.measures import trec_kernels as TK
    fam, raw = m.family, m.param("te")
    k = m.cutoff
    if fam == "infAP":
        return TK.infap(ctx, lv)
    if fam == "gm_bpref":
        return K.bpref(ctx, lv)
    if fam == "RprecMult":
        return TK.rprec_mult(ctx, lv, float(k))
    if fam == "RelP":
        return TK.relative_p(ctx, lv, int(k))
    if fam == "Unjudged":
        return TK.unjudged(ctx, int(k))
    if fam == "binG":
        return TK.bing(ctx, lv)
    if fam == "yaap":
        return TK.yaap(ctx, lv)
    if fam == "SetP":
        return TK.set_p(ctx, lv)
    if fam == "SetR":
        return TK.set_recall(ctx, lv)
    if fam == "SetAP":
        return TK.set_map(ctx, lv)
    if fam == "SetRelP":
        return TK.set_relative_p(ctx, lv)
    if fam == "SetF":
        return TK.set_f(ctx, lv, float(m.param("beta", 1.0)))
    if fam == "ERR":
        return TK.err(ctx, None if k is None else int(k), int(m.param("gmax", 4)))
    if fam == "utility":
        coef = tuple(_te_values(raw, m.name)) if raw else (1.0, -1.0, 0.0, 0.0)
        return TK.utility(ctx, lv, coef, int(aligned.params.get("num_docs_in_coll") or 0))
    if fam == "11pt_avg":
        levels = (tuple(_te_values(raw, m.name)) if raw
                  else (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0))
        return TK.eleven_pt_avg(ctx, lv, levels)
    if fam == "relstring":
        return TK.relstring(ctx, int(_te_values(raw, m.name)[0]) if raw else 10)
    gains, other = TK.parse_gain_pairs(raw, ("p",)) if raw else ({}, {})
    if fam == "nDCG":
        return TK.ndcg_pairs(ctx, gains)
    if fam == "DCG":
        return TK.dcg_pairs(ctx, gains)
    if fam == "ideal_dcg":
        return TK.idcg_pairs(ctx, gains)
    if fam == "G":
        return TK.g_measure(ctx, gains)
    if fam == "ndcg_rel":
        return TK.ndcg_rel(ctx, gains)
    if fam == "Rndcg":
        return TK.rndcg(ctx, lv, gains)
    if fam == "rbp":
        return TK.rbp_trec(ctx, other.get("p", 0.9), gains)
    if fam == "rbp_resid":
        return TK.rbp_resid_trec(ctx, other.get("p", 0.9))
    raise UsageError(f"measure {m.name!r} cannot be computed")  # pragma: no cover


def _fmt_num(x) -> str:
    return N.fmt_value(x)


@dataclass(frozen=True)
class Measure:
    family: str
    cutoff: float | int | None = None
    params: tuple = ()        # sorted ((name, value), …)

    @property
    def fam(self) -> Family:
        return FAMILIES[self.family]

    def param(self, key, default=None):
        return dict(self.params).get(key, default)

    @property
    def name(self) -> str:
        if self.param("te") is not None:        # trec_eval parameter string (see below)
            return f"{self.fam.trec_plain}_{self.param('te')}"
        s = self.family
        if self.params:
            s += "(" + ",".join(f"{k}={_fmt_num(v)}" for k, v in self.params) + ")"
        if self.cutoff is not None:
            s += "@" + _fmt_num(self.cutoff)
        return s

    @property
    def trec_name(self) -> str | None:
        """The name trec_eval prints, when this is a trec_eval measure."""
        f = self.fam
        if self.param("te") is not None:
            return self.name
        if self.params:
            return None
        if self.cutoff is None:
            return f.trec_plain
        if f.trec is None:
            return None
        if f.name in _FLOAT_CUT:
            return f"{f.trec}_{self.cutoff:.2f}"
        return f"{f.trec}_{int(self.cutoff)}"

    @property
    def trec_order(self) -> tuple:
        f = self.fam
        fam = f.trec if self.cutoff is not None else f.trec_plain
        return (TREC_ORDER.get(fam, 1000), self.cutoff if self.cutoff is not None else -1)

    @property
    def scale(self) -> str:
        if self.family == "RBP" and self.param("p", 0.8) == 0.5:
            return "interval"
        return self.fam.scale

    @property
    def higher_is_better(self) -> bool:
        """False where a smaller value is better (ESL: a rank)."""
        return self.family not in ("ESL", "Unjudged", "rbp_resid")

    @property
    def kind(self) -> str:
        return self.fam.kind

    @property
    def agg(self) -> str:
        return self.fam.agg

    @property
    def description(self) -> str:
        return self.fam.description

    def level(self, default: int) -> int:
        return int(self.param("rel", default))

    def compute(self, aligned, ctx: K.Context | None = None) -> np.ndarray:
        """Per-topic values, float64 (runs, topics); NaN where undefined."""
        ctx = ctx or K.Context(aligned)
        if self.param("judged_only"):          # ir_measures: unjudged documents removed
            plain = Measure(self.family, self.cutoff,
                            tuple(kv for kv in self.params if kv[0] != "judged_only"))
            return plain.compute(K.judged_only_context(ctx).al, K.judged_only_context(ctx))
        if self.family == "Judged":
            return K.judged_at(ctx, int(self.cutoff))
        if self.family in ("nDCG", "DCG") and self.param("dcg") == "exp-log2":
            kk = None if self.cutoff is None else int(self.cutoff)
            return (K.ndcg_exp(ctx, kk) if self.family == "nDCG" else K.dcg_exp(ctx, kk))
        lv = self.level(aligned.rel_level)
        k = None if self.cutoff is None else self.cutoff
        fam = self.family
        if fam in _TE_COMPUTE or self.param("te") is not None:
            return _te_compute(self, aligned, ctx, lv)
        if fam == "P":
            return K.precision(ctx, lv, int(k))
        if fam == "R":
            return K.recall(ctx, lv, None if k is None else int(k))
        if fam == "AP" or fam == "gm_map":
            return K.average_precision(ctx, lv, None if k is None else int(k))
        if fam == "RR":
            return K.reciprocal_rank(ctx, lv, None if k is None else int(k))
        if fam == "ESL":
            return K.esl(ctx, lv, None if k is None else int(k))
        if fam == "Success":
            return K.success(ctx, lv, int(k))
        if fam == "nDCG":
            b = self.param("b")
            kk = None if k is None else int(k)
            return K.ndcg_trec(ctx, kk) if b is None else K.ndcg_jk(ctx, float(b), kk)
        if fam == "DCG":
            b = self.param("b")
            kk = None if k is None else int(k)
            return K.dcg_trec(ctx, kk) if b is None else K.dcg_jk(ctx, float(b), kk)
        if fam == "RBP":
            return K.rbp(ctx, lv, float(self.param("p", 0.8)), None if k is None else int(k))
        if fam == "RBPresid":
            return K.rbp_resid(ctx, float(self.param("p", 0.8)), None if k is None else int(k))
        if fam == "Rprec":
            return K.r_precision(ctx, lv)
        if fam == "bpref":
            return K.bpref(ctx, lv)
        if fam == "IPrec":
            return K.iprec_at_recall(ctx, lv, float(k))
        if fam == "NumQ" or fam == "runid":
            return K.num_q(ctx)
        if fam == "NumRet":
            return K.num_ret(ctx)
        if fam == "NumRel":
            return K.num_rel(ctx, lv)
        if fam == "NumRelRet":
            return K.num_rel_ret(ctx, lv)
        if fam == "NumNonRelJudgedRet":
            return K.num_nonrel_judged_ret(ctx, lv)
        raise UsageError(f"measure {self.name!r} cannot be computed")  # pragma: no cover

    def aggregate(self, values: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
        """Per-run aggregate over topics (trec_eval's rules), (runs,)."""
        if self.kind == "text":
            raise UsageError(f"{self.name} is text per topic (ipsoeval eval -q only)")
        v = np.asarray(values, dtype=np.float64)
        if mask is None:
            mask = np.ones(v.shape, dtype=bool)
        n = mask.sum(axis=1)
        agg = self.agg
        if agg == "count":
            return n.astype(np.float64)
        if agg == "sum":
            return np.where(mask, v, 0.0).sum(axis=1)
        if agg == "gm":
            logs = np.log(np.maximum(np.where(mask, v, 1.0), K.MIN_GEO_MEAN))
            logs = np.where(mask, logs, 0.0)
            s = np.add.accumulate(logs, axis=1)[:, -1] if v.shape[1] else np.zeros(len(v))
            out = np.zeros(len(v))
            np.divide(s, n, out=out, where=n > 0)
            return np.where(n > 0, np.exp(out), 0.0)
        if agg == "mean_defined":
            ok = mask & ~np.isnan(v)
            cnt = ok.sum(axis=1)
            s = np.where(ok, v, 0.0)
            s = np.add.accumulate(s, axis=1)[:, -1] if v.shape[1] else np.zeros(len(v))
            return np.where(cnt > 0, s / np.maximum(cnt, 1), np.nan)
        s = np.where(mask, v, 0.0)
        s = np.add.accumulate(s, axis=1)[:, -1] if v.shape[1] else np.zeros(len(v))
        out = np.zeros(len(v))
        np.divide(s, n, out=out, where=n > 0)
        return out


@dataclass
class Requested:
    """A measure as the user asked for it."""

    measure: Measure
    label: str                 # name printed in trec format
    trec_style: bool = False   # asked for with a trec_eval spelling
    source: str = ""           # the -m argument it came from
    te_family: str | None = None   # trec_eval measure name it was asked for with …
    te_explicit: bool = False      # … with explicit parameters (trec_eval: these win)
    note: str = ""             # a warning for stderr (trec_eval's reading of a cutoff)


# --- parsing ---------------------------------------------------------------------

_CANON = re.compile(r"^(?P<fam>[A-Za-z_]+)(?:\((?P<params>[^()]*)\))?(?:@(?P<cut>[^@()]+))?$")


def _num(text: str, what: str, original: str) -> float:
    return N.decimal(text, original, what)


def _check_cutoff_given(fam: Family, cutoff, original: str) -> None:
    """A cutoff where the family needs one, none where it takes none."""
    if fam.cutoff == "none" and cutoff is not None:
        raise UsageError(f"measure {fam.name} takes no cutoff (found {original!r})")
    if fam.cutoff == "required" and cutoff is None:
        hint = {"IPrec": "@0.1", "RprecMult": "@0.2"}.get(fam.name, "@10")
        raise UsageError(f"measure {fam.name} needs a cutoff, e.g. {fam.name}{hint} "
                         f"(found {original!r})")


def _make(fam: Family, cutoff, params: dict, original: str) -> Measure:
    """A Measure from typed parts; every value is checked against its rule."""
    if fam.name in _TE_MAKE:
        return _TE_MAKE[fam.name](fam, cutoff, params, original)
    for k in params:
        if k not in fam.params + N.EXTRA_PARAMS.get(fam.name, ()):
            allowed = ", ".join(fam.params + N.EXTRA_PARAMS.get(fam.name, ())) or "none"
            raise UsageError(f"measure {fam.name} takes no parameter {k!r} (allowed: {allowed}) "
                             f"in {original!r}")
    _check_cutoff_given(fam, cutoff, original)
    if cutoff is not None:
        if fam.name == "IPrec":
            if not (isinstance(cutoff, (int, float)) and 0 <= cutoff <= 1):
                raise UsageError(f"recall level must be in [0, 1] (found {original!r})")
            cutoff = float(cutoff)
        else:
            if isinstance(cutoff, bool) or not isinstance(cutoff, int) \
                    or not 1 <= cutoff <= N.MAX_CUTOFF:
                raise UsageError(f"cutoff must be a whole number from 1 to {N.MAX_CUTOFF} "
                                 f"(found {original!r})")
    clean = {}
    for k, v in params.items():
        kind = "bool" if isinstance(v, bool) else "str" if isinstance(v, str) else "number"
        clean[k] = N.check_param(fam.name, k, N.Value(kind, v, N.fmt_value(v)), original)
    if fam.name in ("RBP", "RBPresid") and "p" not in clean:
        clean["p"] = 0.8
    return Measure(fam.name, cutoff, tuple(sorted(clean.items())))


def _canonical(text: str) -> Requested | None:
    """Name(param=value)@cutoff, ir_measures' spellings included; None if unknown."""
    parsed = N.parse_canonical(text)
    if parsed is None:
        return None
    family = N.IR_MEASURES.get(parsed[0], parsed[0])
    if family not in FAMILIES:
        return None
    family, cutoff, typed = N.resolve(family, parsed[1], parsed[2], text, FAMILIES)
    meas = _make(FAMILIES[family], cutoff, typed, text)   # plain typed values
    return Requested(meas, meas.name, False, text)


def parse_measure(text: str) -> Measure:
    """One measure name (canonical syntax or a single trec_eval name)."""
    reqs = expand(text)
    if len(reqs) != 1:
        raise UsageError(f"{text!r} names {len(reqs)} measures; give exactly one")
    return reqs[0].measure


def _trec_single(text: str) -> Requested | None:
    """trec_eval names of single measures: P_10, P.10, map, ndcg_cut_10, …"""
    if text in _TREC_PLAIN:
        m = _make(FAMILIES[_TREC_PLAIN[text]], None, {}, text)
        return Requested(m, text, True, text, te_family=text)
    m = re.match(r"^([A-Za-z_]+?)[_.]([0-9.]+)$", text)
    if m and m.group(1) in _TREC_CUT:
        fam = FAMILIES[_TREC_CUT[m.group(1)]]
        cut = N.trec_printed_cutoff(m.group(2), text, fam.name in N.FLOAT_CUTOFF or fam.name in _FLOAT_CUT)
        meas = _make(fam, cut, {}, text)
        return Requested(meas, meas.trec_name, True, text, te_family=m.group(1),
                         te_explicit=True)
    return None


def _trec_family_arg(text: str) -> list[Requested] | None:
    """trec_eval -m arguments: P, P.5,10, iprec_at_recall..1,.2, official, all_trec."""
    if text in NICKNAMES:
        out = []
        for fam in NICKNAMES[text]:
            out.extend(expand(fam))
        for r in out:
            r.source = text
        return out
    name, dot, params = text.partition(".")
    if name in TREC_DEFAULT_CUTOFFS:
        notes: list[str] = []
        if dot:              # trec_eval's reading of the list (meas_init.c), or refused
            cuts, notes = N.trec_cutoff_list(params, text, name in _FLOAT_TREC)
        else:
            cuts = TREC_DEFAULT_CUTOFFS[name]
        fam = FAMILIES[_TREC_CUT[name]]
        out = []
        for c in cuts:
            meas = _make(fam, c, {}, text)
            out.append(Requested(meas, meas.trec_name, True, text, te_family=name,
                                 te_explicit=bool(dot)))
        if notes:
            out[0].note = "; ".join(notes)
        return out
    return None


def expand(text: str) -> list[Requested]:
    """Expand one ``-m`` argument into measures."""
    text = text.strip()
    if not text:
        raise UsageError("empty measure name (-m takes a name, e.g. -m P@10 or -m map)")
    fam_arg = _trec_family_arg(text)
    if fam_arg is not None:
        return fam_arg
    single = _trec_single(text)
    if single is not None:
        return [single]
    te = _te_param_arg(text)
    if te is not None:
        return [te]
    canon = _canonical(text)
    if canon is not None:
        return [canon]
    from ipsoeval.trecmodes.catalogue import hint  # trec-modes hook: prefs_*, *_avgjg
    if hint(text):
        raise UsageError(hint(text))
    raise UsageError(f"unknown measure {text!r}{_suggest(text)}")


def _all_spellings() -> list[str]:
    names = list(FAMILIES) + list(_TREC_PLAIN) + list(TREC_DEFAULT_CUTOFFS)
    names += ["official", "all_trec", "P@10", "nDCG@10", "RR@10", "AP@100", "R@100",
              "Success@10", "RBP(p=0.8)@10", "ESL@10", "P_10", "ndcg_cut_10", "recall_100",
              "map_cut_100", "success_10", "iprec_at_recall_0.10", "IPrec@0.1"]
    return names


def _suggest(text: str) -> str:
    return N.did_you_mean(text, _all_spellings())


def expand_all(args: list[str] | tuple[str, ...] | None) -> list[Requested]:
    """All -m arguments (default: trec_eval's official set), de-duplicated, ordered.

    When every measure was asked for with a trec_eval spelling, they come in
    trec_eval's own order (as trec_eval prints them); otherwise in the order
    asked.
    """
    if not args:
        args = ["official"]
    reqs: list[Requested] = []
    first_arg: dict[str, int] = {}     # trec_eval: the first -m with parameters of a measure wins
    for i, a in enumerate(args):
        for part in ([a] if ("(" in a or "@" in a) else _split_trec_commas(a)):
            for r in expand(part):
                if r.te_explicit and r.te_family:
                    if first_arg.setdefault(r.te_family, i) != i:
                        continue
                reqs.append(r)
    reqs = _te_first_params_win(reqs)
    seen = set()
    unique = []
    for r in reqs:
        key = (r.label, r.measure)
        if key in seen:
            continue
        seen.add(key)
        unique.append(r)
    if all(r.trec_style for r in unique):
        unique.sort(key=lambda r: (0, 0) if r.label == "runid" else r.measure.trec_order)
    return unique


def _split_trec_commas(a: str) -> list[str]:
    # "P.5,10" is one trec_eval argument; "P@5,nDCG@10" style lists are not split
    return [a]


def catalogue() -> list[dict]:
    """One record per measure family for ``ipsoeval measures``."""
    rows = []
    for f in FAMILIES.values():
        example = f.name
        if f.params and f.name in ("RBP", "RBPresid"):
            example += "(p=0.8)"
        if f.name in _TE_EXAMPLES:
            example = _TE_EXAMPLES[f.name]
        elif f.cutoff == "required":
            example += {"IPrec": "@0.1", "RprecMult": "@0.2"}.get(f.name, "@10")
        elif f.cutoff == "optional":
            example += "@10"
        trec = []
        if f.trec_plain:
            trec.append(f.trec_plain)
        if f.trec:
            trec.append(f"{f.trec}_X" if f.name in _FLOAT_CUT else f"{f.trec}_K")
        params = ",".join(f.params + N.EXTRA_PARAMS.get(f.name, ()))
        if f.te_params:
            params = ",".join([*f.params, *N.EXTRA_PARAMS.get(f.name, ()), _TE_PARAM_HELP.get(f.name, "trec_eval LEVEL=GAIN,...")])
        rows.append({"measure": f.name, "example": example, "scale": f.scale,
                     "cutoff": f.cutoff, "params": params,
                     "trec_eval": ",".join(trec), "definition": f.description})
    from ipsoeval.trecmodes.catalogue import rows as mode_rows  # trec-modes hook
    rows.extend(mode_rows())
    return rows
