"""Names, definitions and scale types of the measures of trec_eval's prefs and
qrels_jg modes (``eval -R prefs|qrels_prefs|qrels_jg``).

Data only, declared here beside the other measures: ``ipsoeval measures``
(:func:`ipsoeval.measures.registry.catalogue`) and the name checks
(:func:`ipsoeval.measures.names`' hint for a mode measure named without its
``-R``) read it without loading the modes, and :mod:`ipsoeval.trecmodes`,
which computes these measures, imports it from here -- downward."""

from __future__ import annotations

# measure table order of trec_eval (te_trec_measures) and the nicknames
PREFS_MEASURES = [
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
    "prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel",
    "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret",
    "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp",
]
PREFS_COUNTS = {"prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret"}
PREFS_NICKNAMES = {
    "all_prefs": ["runid", "num_q"] + PREFS_MEASURES,
    "prefs": ["runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful",
              "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg"],
}

PREFS_DESCRIPTIONS = {
    "prefs_num_prefs_poss": "number of preferences possible (whether or not the documents "
                            "were retrieved); summed over topics",
    "prefs_num_prefs_ful": "number of preferences fulfilled, A > B counting as fulfilled when "
                           "A is ranked above B or only A is retrieved; summed over topics",
    "prefs_num_prefs_ful_ret": "number of preferences fulfilled with both documents "
                               "retrieved; summed over topics",
    "prefs_simp": "preferences fulfilled / preferences possible (implied ones included, "
                  "neither retrieved = failure)",
    "prefs_pair": "mean over document pairs of the share of preferences on the pair that "
                  "are fulfilled (neither retrieved = failure)",
    "prefs_avgjg": "mean over judgment groups of fulfilled / possible",
    "prefs_avgjg_Rnonrel": "prefs_avgjg with the number of non-relevant documents of each "
                           "judgment group set to R (its relevant documents)",
    "prefs_simp_ret": "prefs_simp counting only pairs with both documents retrieved",
    "prefs_pair_ret": "prefs_pair counting only pairs with both documents retrieved",
    "prefs_avgjg_ret": "prefs_avgjg counting only pairs with both documents retrieved",
    "prefs_avgjg_Rnonrel_ret": "prefs_avgjg_Rnonrel counting only retrieved documents",
    "prefs_simp_imp": "prefs_simp ignoring pairs with neither document retrieved",
    "prefs_pair_imp": "prefs_pair ignoring pairs with neither document retrieved",
    "prefs_avgjg_imp": "prefs_avgjg ignoring pairs with neither document retrieved",
}


P_CUTOFFS = [5, 10, 15, 20, 30, 100, 200, 500, 1000]
RPREC_MULT_CUTOFFS = [0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0]
JG_MEASURES = ["map_avgjg", "P_avgjg", "Rprec_mult_avgjg"]
JG_NICKNAMES = {"qrels_jg": ["runid", "num_q"] + JG_MEASURES}
JG_DESCRIPTIONS = {
    "map_avgjg": "average precision against each judgment group's judgments, averaged "
                 "over the groups of the topic",
    "P_avgjg": "precision at cutoff k (P_avgjg_K), averaged over judgment groups",
    "Rprec_mult_avgjg": "precision at x times R (Rprec_mult_avgjg_X, default "
                        "0.2,0.4,...,2.0), averaged over judgment groups",
}



PREFS_SET = set(PREFS_MEASURES)

# scale types: shares of a fixed set of preferences (or documents) are interval,
# like P; where the denominator depends on the ranking (_ret, _imp, the Rnonrel
# recount) or the value is AP-like, ordinal, like bpref and AP; counts are ratio
SCALES = {
    "prefs_num_prefs_poss": "ratio", "prefs_num_prefs_ful": "ratio",
    "prefs_num_prefs_ful_ret": "ratio", "prefs_simp": "interval", "prefs_pair": "interval",
    "prefs_avgjg": "interval", "prefs_avgjg_Rnonrel": "ordinal", "prefs_simp_ret": "ordinal",
    "prefs_pair_ret": "ordinal", "prefs_avgjg_ret": "ordinal",
    "prefs_avgjg_Rnonrel_ret": "ordinal", "prefs_simp_imp": "ordinal",
    "prefs_pair_imp": "ordinal", "prefs_avgjg_imp": "ordinal",
    "map_avgjg": "ordinal", "P_avgjg": "interval", "Rprec_mult_avgjg": "ordinal",
}


def mode_of(name: str) -> str | None:
    """The -R format a trec_eval measure name or nickname needs, or None."""
    base = name.strip().split(".", 1)[0]
    if base in PREFS_NICKNAMES or base in PREFS_SET:
        return "prefs"
    if base in JG_NICKNAMES or base in JG_MEASURES:
        return "qrels_jg"
    return None


def hint(name: str) -> str | None:
    """A usage message for a mode measure named where only qrels measures work."""
    mode = mode_of(name)
    if mode is None:
        return None
    need = "-R prefs or -R qrels_prefs" if mode == "prefs" else "-R qrels_jg"
    return f"measure {name!r} needs `ipsoeval eval {need}` (trec_eval's rel_info format)"


def rows() -> list[dict]:
    """Records for ``ipsoeval measures`` (same columns as the qrels measures)."""
    out = []
    for name in PREFS_MEASURES:
        out.append({"measure": name, "example": f"-R prefs -m {name}",
                    "scale": SCALES[name], "cutoff": "none", "params": "",
                    "trec_eval": name,
                    "definition": PREFS_DESCRIPTIONS[name] + " (eval -R prefs or "
                                  "-R qrels_prefs only)"})
    for name in JG_MEASURES:
        cut = "none" if name == "map_avgjg" else "optional"
        ex = {"map_avgjg": "map_avgjg", "P_avgjg": "P_avgjg.5,10",
              "Rprec_mult_avgjg": "Rprec_mult_avgjg.0.5,1"}[name]
        trec = {"map_avgjg": "map_avgjg", "P_avgjg": "P_avgjg_K",
                "Rprec_mult_avgjg": "Rprec_mult_avgjg_X"}[name]
        out.append({"measure": name, "example": f"-R qrels_jg -m {ex}",
                    "scale": SCALES[name], "cutoff": cut, "params": "", "trec_eval": trec,
                    "definition": JG_DESCRIPTIONS[name] + " (eval -R qrels_jg only)"})
    return out
