"""The text of eval's tie warning, written once for both programs: the full
one (:func:`ipsoeval.measures.ties.tie_notes`) and the quick path
(:mod:`ipsoeval.reading.quick`, which must not import numpy, hence this
module of plain Python at the package's top level).
"""

# trec_eval's official measures whose value the tie order can move, in the
# order eval reports them (tests/test_tie_warning.py checks these against the
# measure registry): those without a rank cutoff (any tie group holding two
# different labels moves them), then P@k per cutoff k (moved only when such a
# group straddles k: ranks k and k + 1 tied).  The cutoffs are _core.c's PCUT.
OFFICIAL_WHOLE = ("AP", "gm_map", "Rprec", "bpref", "RR") + tuple(
    f"IPrec@{x}" for x in ("0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8",
                           "0.9", "1"))
OFFICIAL_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


def tie_note(run: str, n: int, names, averaged: bool = False) -> str:
    """One run's warning (without the ``ipsoeval: warning:`` prefix): ``n``
    topics count; ``names``, the measures they move, in the order asked
    (duplicates dropped); ``averaged``, under --tie-break expected."""
    if averaged:
        return (f"{run}: {n} topic(s) have tied scores across a cutoff (the value "
                f"depends on the tie order; --tie-break expected averages over it)")
    names = list(dict.fromkeys(names))
    if len(names) == 1:
        which = f"the value of {names[0]} depends"
    else:
        rest = f"{len(names) - 4} more" if len(names) > 4 else names[-1]
        which = f"the values of {', '.join(names[:min(4, len(names) - 1)])} and {rest} depend"
    return (f"{run}: {n} topic(s) have tied scores across a cutoff or between documents "
            f"of different labels ({which} on the tie order; --tie-break expected "
            f"averages over it)")


def official_tie_note(run: str, n_mixed: int, cut_mask: int) -> str | None:
    """The warning for trec_eval's official measures under the default tie
    break, from what the compiled core counts per run (``_core.eval_official``):
    the topics with a tie group holding two different labels, and the bit mask
    of the OFFICIAL_CUTOFFS such a group straddles; None when nothing moves."""
    if not n_mixed:
        return None
    names = list(OFFICIAL_WHOLE) + [f"P@{k}" for j, k in enumerate(OFFICIAL_CUTOFFS)
                                    if cut_mask >> j & 1]
    return tie_note(run, n_mixed, names)
