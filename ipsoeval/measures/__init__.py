"""Measure names, definitions and scale types (SPEC §3).

Canonical names use the ``Name(param=value)@cutoff`` syntax (ir_measures
style); trec_eval names (``P_10``, ``P.10``, ``map``, ``ndcg_cut.10`` …) are
aliases.  ``-m`` also takes trec_eval's own arguments (``P``, ``P.5,10``,
``official``, ``all_trec``), expanded by :func:`expand`.
"""

from __future__ import annotations

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
    "recall": 13, "ndcg": 23, "ndcg_cut": 26, "map_cut": 27, "success": 29,
    "num_nonrel_judged_ret": 35,
}
TREC_DEFAULT_CUTOFFS = {
    "P": [5, 10, 15, 20, 30, 100, 200, 500, 1000],
    "recall": [5, 10, 15, 20, 30, 100, 200, 500, 1000],
    "ndcg_cut": [5, 10, 15, 20, 30, 100, 200, 500, 1000],
    "map_cut": [5, 10, 15, 20, 30, 100, 200, 500, 1000],
    "success": [1, 5, 10],
    "iprec_at_recall": [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0],
}
OFFICIAL = ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
            "bpref", "recip_rank", "iprec_at_recall", "P"]
# trec_eval's all_trec measures that ipsoeval supports (its order is TREC_ORDER)
ALL_TREC = OFFICIAL + ["recall", "ndcg", "success", "map_cut", "ndcg_cut",
                       "num_nonrel_judged_ret"]


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
           trec="ndcg_cut", trec_plain="ndcg"),
    Family("DCG", "discounted cumulative gain: sum of gain/log2(rank+1), or with b= the "
           "Jarvelin-Kekalainen form (no discount before rank b, log_b(rank) after)",
           "ordinal", "optional", ("b",)),
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
        if self.params:
            return None
        if self.cutoff is None:
            return f.trec_plain
        if f.trec is None:
            return None
        if f.trec == "iprec_at_recall":
            return f"iprec_at_recall_{self.cutoff:.2f}"
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
        return self.family != "ESL"

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
    note: str = ""             # a warning for stderr (trec_eval's reading of a cutoff)


# --- parsing ---------------------------------------------------------------------

_CANON = re.compile(r"^(?P<fam>[A-Za-z_]+)(?:\((?P<params>[^()]*)\))?(?:@(?P<cut>[^@()]+))?$")


def _num(text: str, what: str, original: str) -> float:
    return N.decimal(text, original, what)


def _make(fam: Family, cutoff, params: dict, original: str) -> Measure:
    """A Measure from typed parts; every value is checked against its rule."""
    for k in params:
        if k not in fam.params + N.EXTRA_PARAMS.get(fam.name, ()):
            allowed = ", ".join(fam.params + N.EXTRA_PARAMS.get(fam.name, ())) or "none"
            raise UsageError(f"measure {fam.name} takes no parameter {k!r} (allowed: {allowed}) "
                             f"in {original!r}")
    if fam.cutoff == "none" and cutoff is not None:
        raise UsageError(f"measure {fam.name} takes no cutoff (found {original!r})")
    if fam.cutoff == "required" and cutoff is None:
        hint = "@0.1" if fam.name == "IPrec" else "@10"
        raise UsageError(f"measure {fam.name} needs a cutoff, e.g. {fam.name}{hint} "
                         f"(found {original!r})")
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
        return Requested(m, text, True, text)
    m = re.match(r"^([A-Za-z_]+?)[_.]([0-9.]+)$", text)
    if m and m.group(1) in _TREC_CUT:
        fam = FAMILIES[_TREC_CUT[m.group(1)]]
        cut = N.trec_printed_cutoff(m.group(2), text, fam.name in N.FLOAT_CUTOFF)
        meas = _make(fam, cut, {}, text)
        return Requested(meas, meas.trec_name, True, text)
    return None


def _trec_family_arg(text: str) -> list[Requested] | None:
    """trec_eval -m arguments: P, P.5,10, iprec_at_recall..1,.2, official, all_trec."""
    if text in ("official", "all_trec"):
        out = []
        for fam in (OFFICIAL if text == "official" else ALL_TREC):
            out.extend(expand(fam))
        return out
    name, dot, params = text.partition(".")
    if name in TREC_DEFAULT_CUTOFFS:
        notes: list[str] = []
        if dot:              # trec_eval's reading of the list (meas_init.c), or refused
            cuts, notes = N.trec_cutoff_list(params, text, name == "iprec_at_recall")
        else:
            cuts = TREC_DEFAULT_CUTOFFS[name]
        fam = FAMILIES[_TREC_CUT[name]]
        out = []
        for c in cuts:
            meas = _make(fam, c, {}, text)
            out.append(Requested(meas, meas.trec_name, True, text))
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
    canon = _canonical(text)
    if canon is not None:
        return [canon]
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
    for a in args:
        for part in ([a] if ("(" in a or "@" in a) else _split_trec_commas(a)):
            reqs.extend(expand(part))
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
        if f.cutoff == "required":
            example += "@0.1" if f.name == "IPrec" else "@10"
        elif f.cutoff == "optional":
            example += "@10"
        trec = []
        if f.trec_plain:
            trec.append(f.trec_plain)
        if f.trec:
            trec.append(f"{f.trec}_K" if f.trec != "iprec_at_recall" else "iprec_at_recall_X")
        rows.append({"measure": f.name, "example": example, "scale": f.scale,
                     "cutoff": f.cutoff, "params": ",".join(f.params + N.EXTRA_PARAMS.get(f.name, ())),
                     "trec_eval": ",".join(trec), "definition": f.description})
    return rows
