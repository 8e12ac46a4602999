"""The text of measure names: numbers, parameters, ir_measures spellings and
"did you mean" (docs/conventions.md, "Measures"; the rules are stated in
man/ipsoeval.1, MEASURE NAMES).

Three spellings are accepted, each meaning exactly what it means in its tool:

* canonical ``Name(param=value)@cutoff`` (ir_measures' syntax: numbers,
  quoted strings ``'...'``/``"..."``, ``True``/``False``);
* trec_eval's, case-sensitive: its ``-m`` arguments (``P.5,10``) read as
  trec_eval reads them, or refused, and the names it prints (``P_10``);
* ir_measures' names of the measures we have (``Bpref``, ``NumRet(rel=2)``,
  ``AP(cutoff=100)``, ``IPrec(recall=0.1)``, ``judged_only``, ``dcg``).

A name that differs from ours only by case, or that only another tool uses
(``MRR@10``, ``ndcg@10``, ``Recall@100``), is refused with a suggestion.
"""

from __future__ import annotations

import difflib
import math
import re

from ipsoeval.errors import UsageError

MAX_CUTOFF = 2**31 - 1        # largest cutoff (and rel level) accepted
MAX_REL = 2**31 - 1

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

class Value:
    """A parameter value as written: kind is 'number', 'str' or 'bool'."""

    __slots__ = ("kind", "value", "text")

    def __init__(self, kind, value, text):
        self.kind, self.value, self.text = kind, value, text


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


# --- parameters --------------------------------------------------------------------

# ir_measures' measure names → our family (names equal to ours are listed too, so
# that this is the whole ir_measures vocabulary we accept); a target not (yet) in
# FAMILIES makes the name unknown
IR_MEASURES = {
    "P": "P", "R": "R", "AP": "AP", "RR": "RR", "nDCG": "nDCG", "Success": "Success",
    "Rprec": "Rprec", "Bpref": "bpref", "IPrec": "IPrec", "Judged": "Judged",
    "NumQ": "NumQ", "NumRet": "NumRet", "NumRel": "NumRel", "NumRelRet": "NumRelRet",
    "RBP": "RBP", "SetP": "SetP", "SetR": "SetR", "SetF": "SetF", "SetAP": "SetAP",
    "infAP": "infAP", "ERR": "ERR",
}

# parameters ir_measures gives families we have, beyond Family.params
EXTRA_PARAMS = {
    "P": ("judged_only",), "R": ("judged_only",), "AP": ("judged_only",),
    "RR": ("judged_only",), "nDCG": ("dcg", "judged_only"), "DCG": ("dcg", "judged_only"),
    "Success": ("judged_only",), "Rprec": ("judged_only",), "IPrec": ("judged_only",),
    "SetP": ("judged_only", "relative"), "SetF": ("judged_only",),
    "SetAP": ("judged_only",), "NumRet": ("rel",),
}
DEFAULTS = {"dcg": "log2", "judged_only": False, "relative": False}
DCG_CHOICES = ("log2", "exp-log2")


def check_param(family: str, key: str, val: Value, original: str):
    """The typed value of one parameter, or a usage error naming the rule."""
    def bad(rule):
        return UsageError(f"{family}'s {key} must be {rule} (found {val.text!r} in "
                          f"{original!r})")
    if key == "rel":
        if val.kind != "number" or not isinstance(val.value, int):
            raise bad(f"a whole number from 0 to {MAX_REL}")
        if not 0 <= val.value <= MAX_REL:
            raise bad(f"a whole number from 0 to {MAX_REL}")
        return val.value
    if key == "p":
        if val.kind != "number":
            raise bad("a number strictly between 0 and 1")
        if not 0 < val.value < 1:
            raise bad("a number strictly between 0 and 1")
        return float(val.value)
    if key == "b":
        if val.kind != "number" or not val.value > 1:
            raise bad("a number greater than 1")
        return val.value
    if key == "beta":
        if val.kind != "number" or val.value < 0:
            raise bad("a number >= 0")
        return float(val.value)
    if key == "gmax":
        if val.kind != "number" or not isinstance(val.value, int):
            raise bad("a whole number")
        return val.value
    if key == "dcg":
        if val.kind == "word" and val.value in DCG_CHOICES:
            raise bad("a quoted string, 'log2' or 'exp-log2'")
        if val.kind != "str" or val.value not in DCG_CHOICES:
            raise bad("'log2' or 'exp-log2'")
        return val.value
    if key in ("judged_only", "relative"):
        if val.kind != "bool":
            raise bad("True or False")
        return val.value
    raise bad("known")  # pragma: no cover (unknown keys are refused before)


def resolve(family, params: dict, cut_text, original: str, families: dict):
    """Typed (family name, cutoff, params) for a canonical spelling whose family
    exists; applies ir_measures' spellings (cutoff=, recall=, NumRet(rel=),
    SetP(relative=True)) and drops parameters at their default."""
    fam = families[family]
    params = dict(params)
    for alias in ("cutoff", "recall"):
        if alias in params:
            if alias == "recall" and family != "IPrec":
                break
            if cut_text is not None:
                raise UsageError(f"cutoff given twice in {original!r} (as @ and {alias}=)")
            cut_text = params.pop(alias).text
    if "gains" in params:
        raise UsageError(f"gains= is not supported in -m (found {original!r}); use --gains "
                         f"to map labels to gains")
    allowed = tuple(fam.params) + EXTRA_PARAMS.get(family, ())
    for k in params:
        if k not in allowed:
            raise UsageError(f"measure {family} takes no parameter {k!r} "
                             f"(allowed: {', '.join(allowed) or 'none'}) in {original!r}")
    typed = {k: check_param(family, k, v, original) for k, v in params.items()}
    for k, d in DEFAULTS.items():
        if k in typed and typed[k] == d:
            del typed[k]
    if family == "NumRet" and "rel" in typed:
        family = "NumRelRet"
    if family == "SetP" and typed.pop("relative", False):
        if "SetRelP" not in families:
            raise UsageError(f"measure SetP(relative=True) is not available (in {original!r})")
        family = "SetRelP"
    if "b" in typed and "dcg" in typed:
        raise UsageError(f"b= (the Jarvelin-Kekalainen discount) and dcg= cannot be combined "
                         f"(found {original!r})")
    cutoff = None
    if cut_text is not None:
        if families[family].cutoff == "none":
            raise UsageError(f"measure {family} takes no cutoff (found {original!r})")
        if family == "IPrec":
            cutoff = recall_level(cut_text, original)
        elif family in FLOAT_CUTOFF:
            cutoff = decimal(cut_text, original, "cutoff")
        else:
            cutoff = int_cutoff(cut_text, original)
    return family, cutoff, typed


FLOAT_CUTOFF = {"IPrec", "RprecMult"}   # families whose cutoff is not a rank


def fmt_value(x) -> str:
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, str):
        return repr(x) if "'" not in x else '"' + x + '"'
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    return repr(float(x))


# --- did you mean ------------------------------------------------------------------

# names other tools use (keys lower case, without '_' and '-') → our family
FOREIGN = {
    "mrr": "RR", "rr": "RR", "reciprank": "RR", "reciprocalrank": "RR",
    "recall": "R", "r": "R", "rec": "R",
    "precision": "P", "prec": "P", "p": "P",
    "hits": "Success", "hit": "Success", "hr": "Success", "hitrate": "Success",
    "hitratio": "Success", "success": "Success",
    "map": "AP", "ap": "AP", "mapcut": "AP", "averageprecision": "AP",
    "ndcg": "nDCG", "ndcgcut": "nDCG", "dcg": "DCG",
    "err": "ERR", "rprec": "Rprec", "rprecision": "Rprec", "bpref": "bpref",
    "judged": "Judged", "infap": "infAP", "setp": "SetP", "setrecall": "SetR",
    "setr": "SetR", "setf": "SetF", "setmap": "SetAP", "setap": "SetAP",
    "numq": "NumQ", "numret": "NumRet", "numrel": "NumRel", "numrelret": "NumRelRet",
    "rbp": "RBP", "esl": "ESL", "iprec": "IPrec", "gmmap": "gm_map",
}
INTENT_AWARE = {"erria", "nerria", "alphandcg", "alphadcg", "pia", "apia", "nrbp", "nnrbp",
                "strecall", "αndcg", "αdcg"}


def _key(name: str) -> str:
    return name.lower().replace("_", "").replace("-", "")


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
    from ipsoeval import measures as M
    families = families if families is not None else M.FAMILIES
    accepts = accepts or _accepts
    lo = _loose(text)
    out: list[str] = []
    if lo is not None:
        base, params, cut = lo
        fam = FOREIGN.get(_key(base))
        if fam is None:
            ci = {_key(f): f for f in families}
            fam = ci.get(_key(base))
        if fam in families:
            f = families[fam]
            out.append(fam + params + (f"@{cut}" if cut else ""))
            if not params:
                if cut and f.trec:
                    out.append(f"{f.trec}.{cut}")
                elif not cut and f.trec_plain:
                    out.append(f.trec_plain)
    out = [s for s in dict.fromkeys(out) if s != text and accepts(s)]
    return out


def _accepts(s: str) -> bool:
    from ipsoeval import measures as M
    try:
        M.expand(s)
    except UsageError:
        return False
    return True


def did_you_mean(text: str, pool: list[str]) -> str:
    """' (did you mean ...?)', or a word on what we lack, or ''."""
    lo = _loose(text)
    if lo is not None and _key(lo[0]) in INTENT_AWARE:
        return " (ipsoeval has no intent-aware (diversity) measures)"
    if "," in text and "(" not in text:
        parts = [p.strip() for p in text.split(",")]
        if len(parts) > 1 and all(p and _accepts(p) for p in parts):
            return " (one measure per -m: " + " ".join(f"-m {p!r}" for p in parts) + ")"
    sug = suggestions(text)
    from ipsoeval import measures as M
    if not sug and lo is not None and _key(lo[0]) in FOREIGN \
            and FOREIGN[_key(lo[0])] not in M.FAMILIES:
        return ""              # a measure we lack: no look-alike of another one
    if not sug:
        hits = difflib.get_close_matches(text, pool, n=1, cutoff=0.6)
        if not hits:
            low = {p.lower(): p for p in pool}
            hits = [low[h] for h in difflib.get_close_matches(text.lower(), list(low), n=1,
                                                              cutoff=0.5)]
        sug = [h for h in hits if _accepts(h)]
    if not sug:
        return ""
    return " (did you mean " + " or ".join(repr(s) for s in sug[:2]) + "?)"


def notes(args) -> list[str]:
    """Warnings for -m arguments (trec_eval's reading of a cutoff); never raises:
    the usage errors come when the measures are expanded."""
    from ipsoeval import measures as M
    out: list[str] = []
    for a in args or ():
        try:
            reqs = M.expand(a)
        except UsageError:
            continue
        out.extend(r.note for r in reqs if r.note)
    first: dict[str, str] = {}
    for a in args or ():
        try:
            reqs = M.expand(a)
        except UsageError:
            continue
        for fam in dict.fromkeys(r.te_family for r in reqs if r.te_explicit and r.te_family):
            if fam in first and first[fam] != a:
                out.append(f"-m {a}: trec_eval uses only the first parameters given for "
                           f"{fam} (-m {first[fam]}); this one is ignored")
            first.setdefault(fam, a)
    return list(dict.fromkeys(out))
