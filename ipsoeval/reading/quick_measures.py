"""The ``-m`` names the quick paths serve (:mod:`ipsoeval.reading.quick`,
sigtest's), read from the measure registry without importing numpy or ``re``.

:func:`requested` reads the spellings of one measure each family declares
-- trec_eval's (``P.5,10``, ``P_10``, ``map``, ``ndcg_cut``: the registry's
``trec_plain`` and ``trec`` names, orders and default cutoffs) and the
canonical ones (``nDCG@10``, ``P(rel=2)@5``, ``Bpref``: the family's name
and its ir_measures names) -- then expands, de-duplicates and orders the
``-m`` arguments as :func:`ipsoeval.measures.names.expand_all` does, and
asks the compiled core (:func:`ipsoeval.reading.provider.supports`) for each
measure.  It returns None for anything else -- a nickname, another parameter,
a spelling the full parser refuses or warns about, a measure the core
declines -- and then the full program runs.  tests/test_quick_measures.py
checks every name accepted here against the full parser.
"""

from ipsoeval.measures.params import MAX_CUTOFF, MAX_REL
from ipsoeval.measures.registry import FAMILIES, index
from ipsoeval.reading.provider import supports

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
    (family, cutoff or None, rel level or None) its identity; ``family``,
    ``cutoff`` and ``params`` as :class:`~ipsoeval.measures.measure.Measure`
    has them (the provider's request)."""

    __slots__ = ("label", "name", "key", "trec_style", "te_family", "te_explicit")

    def __init__(self, label, key, trec_style, te_family=None, te_explicit=False):
        fam, k, rel = key
        self.label, self.key = label, key
        self.name = (fam + (f"(rel={rel})" if rel is not None else "")
                     + (f"@{k}" if k is not None else ""))
        self.trec_style, self.te_family, self.te_explicit = trec_style, te_family, te_explicit

    @property
    def family(self) -> str:
        return self.key[0]

    @property
    def cutoff(self):
        return self.key[1]

    @property
    def params(self) -> tuple:
        return () if self.key[2] is None else (("rel", self.key[2]),)

    @property
    def order(self):
        """measures.measure.Measure.trec_order (runid first, as expand_all sorts)."""
        if self.label == "runid":
            return (0, 0)
        fam, k, _ = self.key
        f = FAMILIES[fam]
        t = f.trec if k is not None else f.trec_plain
        return (t.order if t is not None else 1000, k if k is not None else -1)


def _cutoff(text: str):
    if not _digits(text):
        return None
    v = int(text)
    return v if 1 <= v <= MAX_CUTOFF else None


def _rank_cut(name: str):
    """The family of trec_eval's name with whole cutoffs (P, ndcg_cut), or None."""
    fam = index()["cut"].get(name)
    return fam if fam is not None and not fam.float_cutoff else None


def expand(text: str):
    """One ``-m`` argument's measures (names.expand), or None."""
    if not text or text != text.strip():
        return None
    ix = index()
    name, dot, params = text.partition(".")
    if name in ix["cut"]:                              # P, P.5,10 (names._trec_family_arg)
        fam = _rank_cut(name)
        if fam is None:
            return None
        if dot:
            cuts = [_cutoff(p) for p in params.split(",")]
            if None in cuts or len(set(cuts)) != len(cuts):
                return None
            cuts.sort()
        else:
            cuts = fam.trec.cutoffs
        return [Req(f"{name}_{c}", (fam.name, c, None), True, name, bool(dot)) for c in cuts]
    if text in ix["plain"]:                            # map, ndcg (names._trec_single)
        return [Req(text, (ix["plain"][text].name, None, None), True, text)]
    single = _single(text)
    if single:                                         # P_10, ndcg_cut_10
        fam = _rank_cut(single[0])
        c = _cutoff(single[1])
        if fam is None or c is None:
            return None
        return [Req(f"{single[0]}_{c}", (fam.name, c, None), True, single[0], True)]
    canon = _canon(text)                               # nDCG@10, P(rel=2)@5
    if not canon or canon[0] not in ix["ir_measures"]:
        return None
    fam = FAMILIES[ix["ir_measures"][canon[0]]]
    rel = None if canon[1] is None else int(canon[1])
    k = None if canon[2] is None else _cutoff(canon[2])
    if (rel is not None and ("rel" not in fam.param_names or rel > MAX_REL)) \
            or (canon[2] is not None and (k is None or fam.cutoff == "none"
                                           or fam.float_cutoff)) \
            or (k is None and fam.cutoff == "required"):
        return None
    family = fam.name
    if fam.respell is not None:         # ir_measures' NumRet(rel=L) is NumRelRet(rel=L)
        try:
            family, typed = fam.respell({} if rel is None else {"rel": rel})
        except Exception:               # noqa: BLE001  the full program says why
            return None
        if set(typed) - {"rel"} or family not in FAMILIES:
            return None
        rel = typed.get("rel")
    return [Req(family + (f"(rel={rel})" if rel is not None else "")
                + (f"@{k}" if k is not None else ""), (family, k, rel), False)]


def requested(args):
    """All ``-m`` arguments, de-duplicated and ordered as names.expand_all does,
    or None (the full program serves: an unknown name, one the full parser
    warns about, or a measure the compiled core declines)."""
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
    if any(supports(r) is not None for r in unique):
        return None
    if all(r.trec_style for r in unique):
        unique.sort(key=lambda r: r.order)
    return unique
