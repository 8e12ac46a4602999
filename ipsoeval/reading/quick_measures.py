"""The ``-m`` names the quick path serves (:mod:`ipsoeval.reading.quick`),
mapped to the compiled core's measures (``_core.eval_measures``) without
importing numpy.

A numpy-free subset of :mod:`ipsoeval.measures.names`: the families P, R
(recall), AP (map, map_cut), nDCG (ndcg, ndcg_cut), RR (recip_rank),
Success, Judged, bpref, Rprec, ERR and the counts, in trec_eval's spellings
(``P.5,10``, ``P_10``, ``map``, ``ndcg_cut``) and the canonical ones
(``nDCG@10``, ``P(rel=2)@5``, ``Bpref``).  :func:`requested` expands,
de-duplicates and orders the ``-m`` arguments as
:func:`ipsoeval.measures.names.expand_all` does, or returns None for anything
else -- another name or parameter, a spelling the full parser refuses or
warns about -- and then the full program runs.  The tables below restate the
registry's declarations (tests/test_quick_measures.py checks every name
accepted here against the full parser, and these tables against the
registry); what a measure computes is declared once, in the families'
kernels, which ``_core.c``'s ``eval_specs`` follows operation by operation.
"""

MAX_CUTOFF = 2**31 - 1          # measures.params.MAX_CUTOFF (and MAX_REL)

# family -> (code of _core.c's G_* enum, cutoff rule, takes rel=, value kind,
#            tie order moves it)
FAMILIES = {
    "P": (1, "required", True, "float", True),
    "R": (2, "optional", True, "float", True),
    "AP": (3, "optional", True, "float", True),
    "nDCG": (4, "optional", False, "float", True),
    "RR": (5, "optional", True, "float", True),
    "Success": (6, "required", True, "float", True),
    "Judged": (7, "required", False, "float", True),
    "bpref": (8, "none", True, "float", True),
    "Rprec": (9, "none", True, "float", True),
    "ERR": (10, "optional", False, "float", True),
    "NumRet": (11, "none", False, "int", False),
    "NumRel": (12, "none", True, "int", False),
    "NumRelRet": (13, "none", True, "int", False),
    "NumQ": (14, "none", False, "count", False),
    "runid": (0, "none", False, "text", False),
}

# canonical (ir_measures) names -> family
CANONICAL = {name: name for name in FAMILIES}
CANONICAL["Bpref"] = "bpref"

# trec_eval's single names -> (family, trec_eval's order)
PLAIN = {"runid": ("runid", 0), "num_q": ("NumQ", 1), "num_ret": ("NumRet", 2),
         "num_rel": ("NumRel", 3), "num_rel_ret": ("NumRelRet", 4), "map": ("AP", 5),
         "Rprec": ("Rprec", 7), "bpref": ("bpref", 8), "recip_rank": ("RR", 9),
         "ndcg": ("nDCG", 23)}

_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
# trec_eval's measures with cutoffs -> (family, trec_eval's order, default cutoffs)
CUT = {"P": ("P", 11, _CUTS), "recall": ("R", 13, _CUTS), "ndcg_cut": ("nDCG", 26, _CUTS),
       "map_cut": ("AP", 27, _CUTS), "success": ("Success", 29, (1, 5, 10))}

_DIGITS = frozenset("0123456789")
_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
# (no `re`: its import costs more than the rest of the quick path's Python)


def _digits(text: str) -> bool:
    """ASCII digits only (the full parser's [0-9]+)."""
    return bool(text) and all(ch in _DIGITS for ch in text)


def _single(text: str):
    """names._trec_single's ([A-Za-z_]+?)[_.]([0-9.]+): (name, cutoff text) or None."""
    for i in range(1, len(text) - 1):
        if text[i] in "._" and all(ch in _LETTERS for ch in text[:i]) \
                and all(ch in _DIGITS or ch == "." for ch in text[i + 1:]):
            return text[:i], text[i + 1:]
    return None


def _canon(text: str):
    """NAME, NAME@K, NAME(rel=L), NAME(rel=L)@K: (name, rel text, cutoff text) or None."""
    head, at, cut = text.partition("@")
    if at and not _digits(cut):
        return None
    rel = None
    if head.endswith(")"):
        head, paren, body = head[:-1].partition("(")
        if not paren or not body.startswith("rel="):
            return None
        rel = body[4:]
        if not _digits(rel) or (rel[0] == "0" and rel != "0"):
            return None
    return head, rel, (cut if at else None)


class Req:
    """One requested measure: ``label`` as printed in the trec layout, ``name``
    the canonical name (tsv's measure column, the tie warning's), ``key``
    (family, cutoff or None, rel level or None) its identity."""

    __slots__ = ("label", "name", "key", "trec_style", "te_family", "te_explicit")

    def __init__(self, label, key, trec_style, te_family=None, te_explicit=False):
        fam, k, rel = key
        self.label, self.key = label, key
        self.name = (fam + (f"(rel={rel})" if rel is not None else "")
                     + (f"@{k}" if k is not None else ""))
        self.trec_style, self.te_family, self.te_explicit = trec_style, te_family, te_explicit

    @property
    def order(self):
        """measures.family.Measure.trec_order (runid first)."""
        fam, k, _ = self.key
        if fam == "runid":
            return (0, 0)
        if k is None:
            return (next(o for f, o in PLAIN.values() if f == fam), -1)
        return (next(o for f, o, _ in CUT.values() if f == fam), k)


def _cutoff(text: str):
    if not _digits(text):
        return None
    v = int(text)
    return v if 1 <= v <= MAX_CUTOFF else None


def expand(text: str):
    """One ``-m`` argument's measures (names.expand), or None."""
    if not text or text != text.strip():
        return None
    name, dot, params = text.partition(".")
    if name in CUT:                                    # P, P.5,10 (names._trec_family_arg)
        fam, _, default = CUT[name]
        if dot:
            cuts = [_cutoff(p) for p in params.split(",")]
            if None in cuts or len(set(cuts)) != len(cuts):
                return None
            cuts.sort()
        else:
            cuts = default
        return [Req(f"{name}_{c}", (fam, c, None), True, name, bool(dot)) for c in cuts]
    if text in PLAIN:                                  # map, ndcg (names._trec_single)
        return [Req(text, (PLAIN[text][0], None, None), True, text)]
    single = _single(text)
    if single:                                         # P_10, ndcg_cut_10
        if single[0] not in CUT:
            return None
        c = _cutoff(single[1])
        if c is None:
            return None
        return [Req(f"{single[0]}_{c}", (CUT[single[0]][0], c, None), True, single[0], True)]
    canon = _canon(text)                               # nDCG@10, P(rel=2)@5
    if not canon or canon[0] not in CANONICAL:
        return None
    fam = CANONICAL[canon[0]]
    _, rule, takes_rel, _, _ = FAMILIES[fam]
    rel = None if canon[1] is None else int(canon[1])
    k = None if canon[2] is None else _cutoff(canon[2])
    if (rel is not None and not takes_rel) or (rel is not None and rel > MAX_CUTOFF) \
            or (canon[2] is not None and (k is None or rule == "none")) \
            or (k is None and rule == "required"):
        return None
    return [Req(fam + (f"(rel={rel})" if rel is not None else "")
                + (f"@{k}" if k is not None else ""), (fam, k, rel), False)]


def requested(args):
    """All ``-m`` arguments, de-duplicated and ordered as names.expand_all does,
    or None (the full program serves: an unknown name, or one the full
    parser warns about)."""
    reqs = []
    first_arg = {}
    for i, a in enumerate(args):
        got = expand(a)
        if got is None:
            return None
        for r in got:
            if r.te_explicit and r.te_family:
                j = first_arg.setdefault(r.te_family, i)
                if j != i:
                    if args[j] != a:       # trec_eval's "first parameters win": a warning
                        return None
                    continue
            reqs.append(r)
    explicit = {r.te_family for r in reqs if r.te_explicit and r.te_family}
    if explicit:
        reqs = [r for r in reqs if r.te_explicit or r.te_family not in explicit]
    seen, unique = set(), []
    for r in reqs:
        if (r.label, r.key) not in seen:
            seen.add((r.label, r.key))
            unique.append(r)
    if all(r.trec_style for r in unique):
        unique.sort(key=lambda r: r.order)
    return unique
