"""The registry of measure families: every module of
``ipsoeval/measures/families/`` is collected here, in module-name order and
declaration order, and the name parser and ``ipsoeval measures`` read their
tables from it.  :func:`register` adds a family from anywhere (a plug-in, a
test)."""

from __future__ import annotations

import importlib
import pkgutil

from ipsoeval.measures.family import FAMILIES, Family, TrecName

NICKNAME_NAMES = ("official", "all_trec", "set")
_index: dict | None = None
_taken: set[str] = set()    # the trec_eval names of the registered families


def register(fam: Family) -> Family:
    """Add a family (its names must be new); returns it."""
    if fam.name in FAMILIES:
        raise ValueError(f"measure family {fam.name!r} is declared twice")
    for n in _trec_names(fam):
        if n in _taken:
            raise ValueError(f"trec_eval name {n!r} of {fam.name} is declared twice")
    for t in (fam.trec_plain, fam.trec):
        for nick in (t.nicknames if t else ()):
            if nick not in NICKNAME_NAMES:
                raise ValueError(f"{fam.name}: unknown trec_eval nickname {nick!r}")
    FAMILIES[fam.name] = fam
    _taken.update(_trec_names(fam))
    _reset()
    return fam


def unregister(name: str) -> None:
    """Remove a family (for tests of :func:`register`)."""
    fam = FAMILIES.pop(name, None)
    if fam is not None:
        _taken.difference_update(_trec_names(fam))
    _reset()


def _trec_names(f: Family) -> list[str]:
    return [t.name for t in (f.trec_plain, f.trec) if t is not None]


def _reset() -> None:
    global _index
    _index = None


def discover(package: str = "ipsoeval.measures.families") -> None:
    """Register the ``FAMILIES`` of every module of ``package``, in name order."""
    pkg = importlib.import_module(package)
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        mod = importlib.import_module(f"{package}.{info.name}")
        for fam in getattr(mod, "FAMILIES", ()):
            register(fam)


def index() -> dict:
    """The lookup tables the name parser uses, built from the families."""
    global _index
    if _index is None:
        fams = list(FAMILIES.values())
        plain = {f.trec_plain.name: f for f in fams if f.trec_plain}
        cut = {f.trec.name: f for f in fams if f.trec}
        nick: dict[str, list[TrecName]] = {n: [] for n in NICKNAME_NAMES}
        for f in fams:
            for t in (f.trec_plain, f.trec):
                for n in (t.nicknames if t else ()):
                    nick[n].append(t)
        ir = {f.name: f.name for f in fams}
        for f in fams:
            ir.update({a: f.name for a in f.ir_measures})
        other = {}
        for f in fams:
            other.update({loose_key(a): f.name for a in f.other_names})
        _index = {
            "plain": plain,
            "cut": cut,
            "nicknames": {n: [t.name for t in sorted(ts, key=lambda t: t.order)]
                          for n, ts in nick.items()},
            "te_params": {f.trec_plain.name: f for f in fams
                          if f.trec_params is not None and f.trec_plain},
            "ir_measures": ir,
            "other": other,
        }
    return _index


def loose_key(name: str) -> str:
    """Names other tools use are compared without case, '_' and '-'."""
    return name.lower().replace("_", "").replace("-", "")


CATALOGUE_COLUMNS = ["measure", "example", "scale", "cutoff", "params", "trec_eval",
                     "probability", "ties", "definition"]


def catalogue() -> list[dict]:
    """One record per measure family for ``ipsoeval measures`` (CATALOGUE_COLUMNS)."""
    from ipsoeval.measures.expected import status
    from ipsoeval.measures.ties import status as tie_status
    rows = []
    for f in FAMILIES.values():
        trec = []
        if f.trec_plain:
            trec.append(f.trec_plain.name)
        if f.trec:
            trec.append(f"{f.trec.name}_X" if f.float_cutoff else f"{f.trec.name}_K")
        params = list(f.param_names)
        if f.trec_params is not None and f.trec_params.to_params is None:
            params.append(f.trec_params.help)
        rows.append({"measure": f.name, "example": f.example_name(), "scale": f.scale,
                     "cutoff": f.cutoff, "params": ",".join(params),
                     "trec_eval": ",".join(trec), "probability": status(f),
                     "ties": tie_status(f),
                     "definition": f.description})
    from ipsoeval.measures.trec_catalogue import rows as mode_rows  # -R prefs, qrels_jg
    rows.extend({**r, "probability": r.get("probability", "not defined"),
                 "ties": r.get("ties", "not defined")} for r in mode_rows())
    from ipsoeval.measures.nuggets import catalogue_rows as nugget_rows  # listed with the rest
    rows.extend(nugget_rows())
    return rows


discover()
