"""The text of eval's tie warning, written once for both programs: the full
one (:func:`ipsoeval.measures.ties.tie_notes`, which every command that scores
runs reports through :func:`ipsoeval.engine.score_warnings`) and the quick
paths (:mod:`ipsoeval.reading.quick` for eval and sigtest, which must not
import numpy, hence this module of plain Python at the package's top level).

Each run's note is a :class:`TieNote` (its text, remembering what it
counts), so that the notes of several runs merge into one line
(:func:`merge_tie_notes`; :mod:`ipsoeval.warntext` merges the other kinds):
``12 runs: 3 to 9 topic(s) have tied scores ...``.  :func:`tie_lines` is
what both programs print for the notes of one call.
"""

import os

# trec_eval's official measures whose value the tie order can move, in the
# order eval reports them (tests/unit/test_tiewarn_text.py checks these against the
# measure registry): those without a rank cutoff (any tie group holding two
# different labels moves them), then P@k per cutoff k (moved only when such a
# group straddles k: ranks k and k + 1 tied).  The cutoffs are _core.c's PCUT.
OFFICIAL_WHOLE = ("AP", "gm_map", "Rprec", "bpref", "RR") + tuple(
    f"IPrec@{x}" for x in ("0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8",
                           "0.9", "1"))
OFFICIAL_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)

# --warnings / IPSOEVAL_WARNINGS (man ipsoeval, WARNINGS): default, one line
# per kind of warning (the runs merged); all, one line per warning; error,
# the first warning is an error (exit 3, nothing written); ignore, none.
WARNING_MODES = ("default", "all", "error", "ignore")
WARNINGS_ENV = "IPSOEVAL_WARNINGS"


class TieNote(str):
    """One run's tie warning: its text (a str), plus ``run``, ``n`` (topics),
    ``names`` (the measures moved), ``order`` (every measure asked, in the
    order asked) and ``averaged`` (--tie-break expected)."""

    __slots__ = ("run", "n", "names", "order", "averaged")

    def __new__(cls, text, run, n, names, order, averaged):
        self = super().__new__(cls, text)
        self.run, self.n, self.names, self.order, self.averaged = run, n, names, order, averaged
        return self

    def __reduce__(self):
        return (TieNote, (str(self), self.run, self.n, self.names, self.order, self.averaged))


def _text(who: str, n: str, names, averaged: bool) -> str:
    if averaged:
        return (f"{who}: {n} topic(s) have tied scores across a cutoff (the value "
                f"depends on the tie order; --tie-break expected averages over it)")
    if len(names) == 1:
        which = f"the value of {names[0]} depends"
    else:
        rest = f"{len(names) - 4} more" if len(names) > 4 else names[-1]
        which = f"the values of {', '.join(names[:min(4, len(names) - 1)])} and {rest} depend"
    return (f"{who}: {n} topic(s) have tied scores across a cutoff or between documents "
            f"of different labels ({which} on the tie order; --tie-break expected "
            f"averages over it)")


def tie_note(run: str, n: int, names, averaged: bool = False, order=None) -> TieNote:
    """One run's warning (without the ``ipsoeval: warning:`` prefix): ``n``
    topics count; ``names``, the measures they move, in the order asked
    (duplicates dropped); ``averaged``, under --tie-break expected;
    ``order``, every measure asked (how the notes of several runs order the
    names they merge; default ``names``)."""
    names = tuple(dict.fromkeys(names))
    order = names if order is None else tuple(dict.fromkeys(order))
    return TieNote(_text(run, str(n), names, averaged), run, n, names, order, averaged)


def official_tie_note(run: str, n_mixed: int, cut_mask: int) -> TieNote | None:
    """The warning for trec_eval's official measures under the default tie
    break, from what the compiled core counts per run (``_core.eval_official``):
    the topics with a tie group holding two different labels, and the bit mask
    of the OFFICIAL_CUTOFFS such a group straddles; None when nothing moves."""
    if not n_mixed:
        return None
    names = list(OFFICIAL_WHOLE) + [f"P@{k}" for j, k in enumerate(OFFICIAL_CUTOFFS)
                                    if cut_mask >> j & 1]
    return tie_note(run, n_mixed, names,
                    order=OFFICIAL_WHOLE + tuple(f"P@{k}" for k in OFFICIAL_CUTOFFS))


def count_text(values) -> str:
    """The count of a merged line: the number when every run has it, else
    ``LOW to HIGH``."""
    lo, hi = min(values), max(values)
    return str(lo) if lo == hi else f"{lo} to {hi}"


def merge_tie_notes(notes) -> str:
    """The notes of several runs (all averaged or none) as one line:
    ``K runs: N topic(s) ...`` naming every measure moved in any run."""
    runs = list(dict.fromkeys(t.run for t in notes))
    if len(runs) == 1 and len(notes) == 1:
        return str(notes[0])
    order = {nm: i for i, nm in enumerate(notes[0].order)}
    names = list(dict.fromkeys(nm for t in notes for nm in t.names))
    names.sort(key=lambda nm: order.get(nm, len(order)))
    who = f"{len(runs)} runs" if len(runs) > 1 else runs[0]
    return _text(who, count_text([t.n for t in notes]), names, notes[0].averaged)


def warnings_mode(value=None) -> str | None:
    """The --warnings mode: ``value`` (the option's), else $IPSOEVAL_WARNINGS,
    else default; None when $IPSOEVAL_WARNINGS names no mode."""
    if value is None:
        value = os.environ.get(WARNINGS_ENV, "") or "default"
    return value if value in WARNING_MODES else None


def tie_lines(notes, mode: str | None = "default"):
    """The lines the quick path prints for its runs' notes (None entries
    skipped) under --warnings ``mode``, as the full program prints them;
    None when the quick path must leave the call to the full program (a
    warning made an error, or a mode not known)."""
    notes = [t for t in notes if t is not None]
    if mode not in WARNING_MODES or (mode == "error" and notes):
        return None
    if mode == "ignore" or not notes:
        return []
    if mode == "all":
        return [str(t) for t in notes]
    groups: dict = {}
    for t in notes:
        groups.setdefault(t.averaged, []).append(t)
    return [merge_tie_notes(g) for g in groups.values()]
