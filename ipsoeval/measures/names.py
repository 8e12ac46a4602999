"""The text of measure names, parsed once, driven by the registry of families
(the rules are stated in man/ipsoeval.1, MEASURE NAMES).

Three spellings are accepted, each meaning exactly what it means in its tool:

* canonical ``Name(param=value)@cutoff`` (ir_measures' syntax: numbers,
  quoted strings ``'...'``/``"..."``, ``True``/``False``);
* trec_eval's, case-sensitive: its ``-m`` arguments (``P.5,10``,
  ``official``, ``all_trec``, ``set``, ``utility.2,-1,0,0``) read as trec_eval
  reads them, or refused, and the names it prints (``P_10``);
* ir_measures' names of the measures we have (``Bpref``, ``NumRet(rel=2)``,
  ``AP(cutoff=100)``, ``IPrec(recall=0.1)``, ``judged_only``, ``dcg``).

A name that differs from ours only by case, or that only another tool uses
(``MRR@10``, ``ndcg@10``, ``Recall@100``), is refused with a suggestion.
Every table here comes from the families' declarations
(:mod:`ipsoeval.measures.registry`).
"""

from __future__ import annotations

import dataclasses
import math
import re

from ipsoeval.errors import UsageError
from ipsoeval.measures import registry
from ipsoeval.measures.family import FAMILIES, Family
from ipsoeval.measures.measure import Measure, Requested
from ipsoeval.measures.params import MAX_CUTOFF, Bad, Value

_INT = re.compile(r"[0-9]+\Z")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")
_TRUNC = re.compile(r"([0-9]+)\.[0-9]*\Z")   # what C's atol reads as its leading digits
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


# --- numbers ---------------------------------------------------------------------

def int_cutoff(text: str, original: str, what: str = "cutoff") -> int:
    """A cutoff written ``@k``: a whole number from 1 to MAX_CUTOFF, ASCII digits."""
    t = text.strip()
    if not _INT.match(t):
        raise UsageError(f"{what} must be a whole number from 1 to {MAX_CUTOFF} "
                         f"(found {t!r} in {original!r})")
    v = int(t)
    if not 1 <= v <= MAX_CUTOFF:
        raise UsageError(f"{what} must be a whole number from 1 to {MAX_CUTOFF} "
                         f"(found {t!r} in {original!r})")
    return v


def decimal(text: str, original: str, what: str) -> float:
    """A finite decimal number (ASCII; no inf, nan, hex or digit separators)."""
    t = text.strip()
    if not _DECIMAL.match(t):
        raise UsageError(f"{what} must be a decimal number (found {t!r} in {original!r})")
    v = float(t)
    if not math.isfinite(v):
        raise UsageError(f"{what} must be a finite number (found {t!r} in {original!r})")
    return v


def recall_level(text: str, original: str) -> float:
    v = decimal(text, original, "recall level")
    if not 0 <= v <= 1:
        raise UsageError(f"recall level must be in [0, 1] (found {text.strip()!r} "
                         f"in {original!r})")
    return v


def trec_cutoff_list(params: str, original: str, floating: bool) -> tuple[list, list[str]]:
    """The cutoffs of trec_eval's ``-m NAME.K1,K2`` argument, read as trec_eval
    reads them (meas_init.c: atol for whole-number cutoffs, atof for the others;
    sorted; duplicates and cutoffs <= 0 refused), or refused where trec_eval's
    reading would surprise.  Returns (cutoffs, warnings)."""
    name = original.partition(".")[0]
    if params == "":
        raise UsageError(f"empty cutoff list in {original!r} (write {name} for trec_eval's "
                         f"default cutoffs, or {name}.5,10)")
    cuts, notes = [], []
    for part in params.split(","):
        if part == "":
            raise UsageError(f"empty cutoff in {original!r} (cutoffs are separated by "
                             f"single commas)")
        if floating:
            cuts.append(decimal(part, original, f"cutoff {part!r}"))
            continue
        if _INT.match(part):
            v = int(part)
        else:
            m = _TRUNC.match(part)
            if m is None:
                lead = re.match(r"[0-9]*", part).group(0)
                how = (f"; trec_eval itself would read it as {int(lead)}" if lead else "")
                raise UsageError(f"cutoff {part!r} in {original!r} must be a whole number "
                                 f"from 1 to {MAX_CUTOFF}{how}")
            v = int(m.group(1))
            notes.append(f"-m {original}: trec_eval reads the cutoff {part!r} as {v} "
                         f"({name}_{v}); write {name}.{v} to say so")
        if not 1 <= v <= MAX_CUTOFF:
            raise UsageError(f"cutoff {part!r} in {original!r} must be a whole number "
                             f"from 1 to {MAX_CUTOFF}")
        cuts.append(v)
    seen = set()
    for c in cuts:
        if c in seen:
            raise UsageError(f"duplicate cutoff {c:g} in {original!r} (trec_eval refuses "
                             f"duplicate cutoffs too)")
        seen.add(c)
    return sorted(cuts), notes


def trec_printed_cutoff(text: str, original: str, floating: bool):
    """The cutoff of a name as trec_eval prints it (P_10, iprec_at_recall_0.10)."""
    if floating:
        return decimal(text, original, "cutoff")
    if not _INT.match(text):
        raise UsageError(f"cutoff {text!r} in {original!r} must be a whole number from 1 "
                         f"to {MAX_CUTOFF} (trec_eval prints NAME_K; its own -m argument "
                         f"is NAME.K)")
    return int_cutoff(text, original)


# --- canonical syntax --------------------------------------------------------------

def _value(raw: str, key: str, original: str) -> Value:
    t = raw.strip()
    if t in ("True", "False"):
        return Value("bool", t == "True", t)
    if len(t) >= 2 and t[0] in "'\"" and t[-1] == t[0]:
        return Value("str", t[1:-1], t)
    if t[:1] in ("'", '"'):
        raise UsageError(f"unterminated quote in parameter {key!r} of {original!r}")
    if _DECIMAL.match(t):
        v = float(t)
        if not math.isfinite(v):
            raise UsageError(f"parameter {key!r} must be a finite number (found {t!r} "
                             f"in {original!r})")
        return Value("number", int(t) if re.fullmatch(r"[+-]?[0-9]+", t) else v, t)
    return Value("word", t, t)


def _split_params(body: str, original: str) -> list[str]:
    """Split on commas outside quotes."""
    parts, cur, quote = [], [], None
    for ch in body:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
            cur.append(ch)
        elif ch == ",":
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if quote:
        raise UsageError(f"unterminated quote in {original!r}")
    parts.append("".join(cur))
    return parts


def parse_canonical(text: str):
    """``Name(k=v, ...)@cutoff`` → (name, {key: Value}, cutoff text or None),
    or None when the text does not have that shape."""
    m = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*", text)
    if not m:
        return None
    name, rest = m.group(1), text[m.end():]
    params: dict[str, Value] = {}
    if rest.startswith("("):
        # the parameter list ends at the first ')' outside quotes
        quote, end = None, -1
        for i, ch in enumerate(rest):
            if quote:
                if ch == quote:
                    quote = None
            elif ch in "'\"":
                quote = ch
            elif ch == ")":
                end = i
                break
        if end < 0:
            if quote:
                raise UsageError(f"unterminated quote in {text!r}")
            return None
        body, rest = rest[1:end], rest[end + 1:]
        if re.search(r"\bgains\s*=\s*\{", body):
            # ir_measures' nDCG(gains={0:1,1:4}): a map per measure, which the
            # alignment here takes once for all measures
            raise UsageError(f"{text!r}: a gain map per measure is ir_measures' "
                             f"(ipsoeval.ir_measures_provider serves it); here the map is "
                             f"--gains LABEL:GAIN,... (API: gains=) for all measures, a "
                             f"label it does not name gaining 0")
        if body.strip():
            for part in _split_params(body, text):
                if not part.strip():
                    raise UsageError(f"empty parameter in {text!r} (parameters are "
                                     f"name=value, separated by single commas)")
                if "=" not in part:
                    raise UsageError(f"parameters are name=value (found {part.strip()!r} "
                                     f"in {text!r})")
                k, v = part.split("=", 1)
                k = k.strip()
                if not _IDENT.match(k):
                    raise UsageError(f"bad parameter name {k!r} in {text!r}")
                if k in params:
                    raise UsageError(f"parameter {k!r} given twice in {text!r}")
                params[k] = _value(v, k, text)
    rest = rest.strip()
    cut = None
    if rest.startswith("@"):
        cut = rest[1:].strip()
        if not cut:
            raise UsageError(f"empty cutoff after '@' in {text!r}")
        if "@" in cut or "(" in cut or ")" in cut:
            return None
    elif rest:
        return None
    return name, params, cut



# --- typed measures from parts -----------------------------------------------------

def check_param(fam: Family, key: str, val: Value, original: str):
    """The typed value of one parameter, or a usage error naming the rule."""
    try:
        return fam.param(key).check(val)
    except Bad as e:
        raise UsageError(f"{fam.name}'s {key} must be {e} (found {val.text!r} in "
                         f"{original!r})") from None


def _allowed(fam: Family, original: str, keys) -> None:
    for k in keys:
        if fam.param(k) is None:
            raise UsageError(f"measure {fam.name} takes no parameter {k!r} "
                             f"(allowed: {', '.join(fam.param_names) or 'none'}) in {original!r}")


def _check_cutoff_given(fam: Family, cutoff, original: str) -> None:
    """A cutoff where the family needs one, none where it takes none."""
    if fam.cutoff == "none" and cutoff is not None:
        raise UsageError(f"measure {fam.name} takes no cutoff (found {original!r})")
    if fam.cutoff == "required" and cutoff is None:
        raise UsageError(f"measure {fam.name} needs a cutoff, e.g. {fam.name}"
                         f"{fam.cutoff_example} (found {original!r})")


def make(fam: Family, cutoff, params: dict, original: str) -> Measure:
    """A Measure from typed parts; every value is checked against its rule."""
    _allowed(fam, original, params)
    _check_cutoff_given(fam, cutoff, original)
    if cutoff is not None:
        if fam.cutoff_kind == "recall":
            if isinstance(cutoff, bool) or not isinstance(cutoff, (int, float)) \
                    or not 0 <= cutoff <= 1:
                raise UsageError(f"recall level must be in [0, 1] (found {original!r})")
            cutoff = float(cutoff)
        elif fam.cutoff_kind == "multiple":
            if not 0 <= cutoff <= 1e6:
                raise UsageError(f"the multiple of R must be in [0, 1e6] (found {original!r})")
            cutoff = float(cutoff)
        elif isinstance(cutoff, bool) or not isinstance(cutoff, int) \
                or not 1 <= cutoff <= MAX_CUTOFF:
            raise UsageError(f"cutoff must be a whole number from 1 to {MAX_CUTOFF} "
                             f"(found {original!r})")
    clean = {k: check_param(fam, k, Value.of(v), original) for k, v in params.items()}
    for p in fam.params:
        if p.in_name and p.name not in clean:
            clean[p.name] = p.default
    return Measure(fam.name, cutoff, tuple(sorted(clean.items())))


def resolve(family: str, params: dict, cut_text, original: str):
    """Typed (family name, cutoff, params) for a canonical spelling whose family
    exists; applies ir_measures' spellings (cutoff=, recall=, NumRet(rel=),
    SetP(relative=True)) and drops parameters given at a default that
    ir_measures leaves out."""
    fam = FAMILIES[family]
    params = dict(params)
    for alias in ("cutoff", "recall"):
        if alias in params and (alias == "cutoff" or fam.cutoff_kind == "recall"):
            if cut_text is not None:
                raise UsageError(f"cutoff given twice in {original!r} (as @ and {alias}=)")
            cut_text = params.pop(alias).text
    if "gains" in params:
        raise UsageError(f"gains= is not supported in -m (found {original!r}); use --gains "
                         f"to map labels to gains")
    _allowed(fam, original, params)
    typed = {k: check_param(fam, k, v, original) for k, v in params.items()}
    for k in list(typed):
        p = fam.param(k)
        if p.drop_default and typed[k] == p.default:
            del typed[k]
    if fam.respell is not None:
        family, typed = fam.respell(typed)
    if "b" in typed and "dcg" in typed:
        raise UsageError(f"b= (the Jarvelin-Kekalainen discount) and dcg= cannot be combined "
                         f"(found {original!r})")
    cutoff = None
    if cut_text is not None:
        target = FAMILIES[family]
        if target.cutoff == "none":
            raise UsageError(f"measure {family} takes no cutoff (found {original!r})")
        if target.cutoff_kind == "recall":
            cutoff = recall_level(cut_text, original)
        elif target.float_cutoff:
            cutoff = decimal(cut_text, original, "cutoff")
        else:
            cutoff = int_cutoff(cut_text, original)
    return family, cutoff, typed


# --- the four spellings ---------------------------------------------------------------

def _canonical(text: str) -> Requested | None:
    """Name(param=value)@cutoff, ir_measures' spellings included; None if unknown."""
    parsed = parse_canonical(text)
    if parsed is None:
        return None
    family = registry.index()["ir_measures"].get(parsed[0])
    if family is None:
        return None
    family, cutoff, typed = resolve(family, parsed[1], parsed[2], text)
    meas = make(FAMILIES[family], cutoff, typed, text)
    return Requested(meas, meas.name, False, text)


def _trec_single(text: str) -> Requested | None:
    """trec_eval names of single measures: P_10, P.10, map, ndcg_cut_10, …"""
    ix = registry.index()
    if text in ix["plain"]:
        m = make(ix["plain"][text], None, {}, text)
        return Requested(m, text, True, text, te_family=text)
    m = re.match(r"^([A-Za-z_]+?)[_.]([0-9.]+)$", text)
    if m and m.group(1) in ix["cut"]:
        fam = ix["cut"][m.group(1)]
        cut = trec_printed_cutoff(m.group(2), text, fam.float_cutoff)
        meas = make(fam, cut, {}, text)
        return Requested(meas, meas.trec_name, True, text, te_family=m.group(1),
                         te_explicit=True)
    return None


def _trec_family_arg(text: str) -> list[Requested] | None:
    """trec_eval -m arguments: P, P.5,10, iprec_at_recall..1,.2, official, all_trec."""
    ix = registry.index()
    if text in ix["nicknames"]:
        out = []
        for name in ix["nicknames"][text]:
            out.extend(expand(name))
        return [dataclasses.replace(r, source=text) for r in out]
    name, dot, params = text.partition(".")
    if name in ix["cut"]:
        fam = ix["cut"][name]
        notes: list[str] = []
        if dot:              # trec_eval's reading of the list (meas_init.c), or refused
            cuts, notes = trec_cutoff_list(params, text, fam.float_cutoff)
        else:
            cuts = fam.trec.cutoffs
        out = []
        for c in cuts:
            meas = make(fam, c, {}, text)
            out.append(Requested(meas, meas.trec_name, True, text, te_family=name,
                                 te_explicit=bool(dot)))
        if notes:
            out[0] = dataclasses.replace(out[0], note="; ".join(notes))
        return out
    return None


def _te_param_arg(text: str) -> Requested | None:
    """trec_eval's parameter strings: NAME.PARAMS (or NAME_PARAMS, as printed)."""
    te = registry.index()["te_params"]
    for name in sorted(te, key=len, reverse=True):
        if len(text) <= len(name) + 1 or text[len(name)] not in "._" \
                or not text.startswith(name):
            continue
        raw = text[len(name) + 1:]
        fam = te[name]
        tp = fam.trec_params
        try:
            if tp.to_params is not None:
                meas = make(fam, None, tp.to_params(raw, text), text)
                return Requested(meas, f"{name}_{raw}", True, text, te_family=name,
                                 te_explicit=True)
            tp.check(raw, text)
        except UsageError:
            if text[len(name)] == "_":   # NAME_X that is no parameter list: another name
                return None              # (ndcg_p: trec_eval says "illegal measure")
            raise
        meas = Measure(fam.name, None, (("te", raw),))
        return Requested(meas, meas.name, True, text, te_family=name, te_explicit=True)
    return None


def expand(text: str) -> list[Requested]:
    """Expand one ``-m`` argument into measures."""
    text = text.strip()
    if not text:
        raise UsageError("empty measure name (-m takes a name, e.g. -m P@10 or -m map)")
    fam_arg = _trec_family_arg(text)
    if fam_arg is not None:
        return fam_arg
    for parse in (_trec_single, _te_param_arg, _canonical):
        one = parse(text)
        if one is not None:
            return [one]
    from ipsoeval.measures.trec_catalogue import hint  # -R modes' measures: prefs_*, *_avgjg
    if hint(text):
        raise UsageError(hint(text))
    raise UsageError(f"unknown measure {text!r}{did_you_mean(text, _all_spellings())}")


def parse_measure(text: str) -> Measure:
    """One measure name (canonical syntax or a single trec_eval name)."""
    reqs = _expanded(text)
    if len(reqs) != 1:
        raise UsageError(f"{text!r} names {len(reqs)} measures; give exactly one")
    return reqs[0].measure


class MeasureArg(str):
    """One ``-m`` argument as given, parsed once: ``requested`` holds its
    measures, or ``error`` the usage error parsing gave -- raised only where
    qrels measures are needed, since the same text may name a measure of
    ``-R prefs`` or of ``--scores`` files."""

    requested: tuple = ()
    error: UsageError | None = None

    def __new__(cls, text: str):
        self = super().__new__(cls, text)
        try:
            self.requested = tuple(expand(text))
        except UsageError as e:
            self.error = e
        return self


def _expanded(a) -> tuple:
    if isinstance(a, MeasureArg):
        if a.error is not None:
            raise UsageError(str(a.error))
        return a.requested
    return tuple(expand(a))


def needs_subtopics(args) -> bool:
    """Does one of these -m arguments name a diversity measure (a family that
    reads subtopic qrels)?  A name this parser refuses (a -R mode's measure,
    a typo) is not one: its error comes where the command reads it."""
    try:
        return any(r.measure.fam.subtopics for r in expand_all(list(args)))
    except UsageError:
        return False


# measures whose value no label moves: nothing to say when the labels are collapsed
_LABEL_FREE = ("runid", "NumQ", "NumRet")


def diversity_collapse_warning(args) -> str | None:
    """The warning for ordinary measures asked for beside a diversity one: the
    qrels are then diversity qrels, and an ordinary measure sees each
    document's largest judgment over its topic's subtopics (the same file
    without a diversity measure is trec_eval's qrels, where a docno given for
    two subtopics is a duplicate)."""
    try:
        reqs = expand_all(list(args))
    except UsageError:
        return None
    div = [r.measure.name for r in reqs if r.measure.fam.subtopics]
    plain = list(dict.fromkeys(r.measure.name for r in reqs if not r.measure.fam.subtopics
                               and r.measure.family not in _LABEL_FREE))
    if not div or not plain:
        return None
    one = len(plain) == 1
    return (f"{', '.join(plain)} {'is not a diversity measure' if one else 'are not diversity measures'}: "
            f"with {div[0]} the qrels are read as diversity qrels (qid subtopic docno "
            f"judgment), and {'it takes' if one else 'they take'} each document's largest "
            f"judgment over its topic's subtopics")


def expand_all(args) -> list[Requested]:
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
        for r in _expanded(a):
            if r.te_explicit and r.te_family:
                if first_arg.setdefault(r.te_family, i) != i:
                    continue
            reqs.append(r)
    explicit = {r.te_family for r in reqs if r.te_explicit and r.te_family}
    if explicit:        # given with parameters (-m P.5), the default form (-m P) is not added
        reqs = [r for r in reqs if r.te_explicit or r.te_family not in explicit]
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


def notes(args) -> list[str]:
    """Warnings for -m arguments (trec_eval's reading of a cutoff); never raises:
    the usage errors come when the measures are expanded."""
    parsed = []
    for a in args or ():
        try:
            parsed.append((a, _expanded(a)))
        except UsageError:
            continue
    out = [r.note for _, reqs in parsed for r in reqs if r.note]
    first: dict[str, str] = {}
    for a, reqs in parsed:
        for fam in dict.fromkeys(r.te_family for r in reqs if r.te_explicit and r.te_family):
            if fam in first and first[fam] != a:
                out.append(f"-m {a}: trec_eval uses only the first parameters given for "
                           f"{fam} (-m {first[fam]}); this one is ignored")
            first.setdefault(fam, a)
    return list(dict.fromkeys(out))


# --- did you mean ------------------------------------------------------------------



_key = registry.loose_key


def _loose(text: str):
    """(base name, params text, cutoff text) of a name in any tool's syntax."""
    m = re.match(r"\s*([^@()]+?)\s*(\(.*\))?\s*(?:@\s*(.+?))?\s*\Z", text)
    if not m:
        return None
    base, params, cut = m.group(1), m.group(2) or "", m.group(3)
    if cut is None and not params:
        m2 = re.match(r"(.+?)[._]([0-9][0-9.]*)\Z", base)
        if m2:
            base, cut = m2.group(1), m2.group(2)
    return base, params, cut


def suggestions(text: str, families=None, accepts=None) -> list[str]:
    """Spellings we accept for an unknown name: ours, then trec_eval's."""
    families = families if families is not None else FAMILIES
    accepts = accepts or _accepts
    lo = _loose(text)
    out: list[str] = []
    if lo is not None:
        base, params, cut = lo
        fam = registry.index()["other"].get(_key(base))
        if fam is None:
            fam = {_key(f): f for f in families}.get(_key(base))
        if fam in families:
            f = families[fam]
            out.append(fam + params + (f"@{cut}" if cut else ""))
            if not params:
                if cut and f.trec:
                    out.append(f"{f.trec.name}.{cut}")
                elif not cut and f.trec_plain:
                    out.append(f.trec_plain.name)
    return [s for s in dict.fromkeys(out) if s != text and accepts(s)]


def _accepts(s: str) -> bool:
    try:
        expand(s)
    except UsageError:
        return False
    return True


def _all_spellings() -> list[str]:
    ix = registry.index()
    names = list(FAMILIES) + list(ix["plain"]) + list(ix["cut"])
    names += ["official", "all_trec", "P@10", "nDCG@10", "RR@10", "AP@100", "R@100",
              "Success@10", "RBP(p=0.8)@10", "ESL@10", "P_10", "ndcg_cut_10", "recall_100",
              "map_cut_100", "success_10", "iprec_at_recall_0.10", "IPrec@0.1"]
    return names


def did_you_mean(text: str, pool: list[str]) -> str:
    """' (did you mean ...?)', or a word on what we lack, or ''."""
    if "," in text and "(" not in text:
        parts = [p.strip() for p in text.split(",")]
        if len(parts) > 1 and all(p and _accepts(p) for p in parts):
            return " (one measure per -m: " + " ".join(f"-m {p!r}" for p in parts) + ")"
    sug = suggestions(text)
    if not sug:
        import difflib  # here: only a misspelt name needs it
        hits = difflib.get_close_matches(text, pool, n=1, cutoff=0.6)
        if not hits:
            low = {p.lower(): p for p in pool}
            hits = [low[h] for h in difflib.get_close_matches(text.lower(), list(low), n=1,
                                                              cutoff=0.5)]
        sug = [h for h in hits if _accepts(h)]
    if not sug:
        return ""
    return " (did you mean " + " or ".join(repr(s) for s in sug[:2]) + "?)"
