"""The compiled core as a provider of measures: it serves a request or
declines it with a reason, and then the full program (the numpy engine)
serves it.

The quick paths (:mod:`ipsoeval.reading.quick`, sigtest's) read the measure
registry (:mod:`ipsoeval.measures.registry`, numpy-free data) and ask
:func:`supports` for each requested measure.  What the core computes is
said here once, in terms of the families' declarations:

* the families with a core code (``Family(..., core=N)``: ``_core.c``'s
  ``G_*`` values, which ``_core.family_codes()`` reports) and the run's name
  (aggregated as ``text``: the quick layout writes it);
* a rank cutoff, where the family's cutoff rule allows one, and no other
  parameter than the relevance level ``rel=`` (each family at its other
  parameters' defaults, as the core's kernels follow them);
* integer labels and trec_eval's tie order (``--labels integer``,
  ``--tie-break trec``: the quick paths take no other);
* the aggregations the quick layout makes: means, sums and the topic count.

Whichever serves, the output is the same bytes (tests/test_core_quick.py
drives both over every family the core serves, and asks every other family
for its reason).
"""

from __future__ import annotations

from ipsoeval.measures.params import MAX_CUTOFF, MAX_REL
from ipsoeval.measures.registry import FAMILIES

# Family.agg -> the value kind the quick layout writes: a mean of the topics'
# values, a sum printed as an integer, the topic count, the run's name
KINDS = {"mean": "float", "sum": "int", "count": "count", "text": "text"}
LABELS = "integer"
# families whose cutoff is optional in the full program but which the core's
# kernels compute at a cutoff only (plain Judged: the whole ranking)
CUTOFF_ONLY = ("Judged",)
TIE_BREAK = "trec"


def supports(measure, labels: str = LABELS, tie_break: str = TIE_BREAK) -> str | None:
    """None when the compiled core serves ``measure`` (anything with
    ``family``, ``cutoff`` and ``params`` as :class:`Measure` has them) under
    these options, else the reason it declines."""
    fam = FAMILIES.get(measure.family)
    if fam is None:
        return f"{measure.family}: no such measure family"
    if labels != LABELS:
        return f"--labels {labels}: the compiled core reads integer labels only"
    if tie_break != TIE_BREAK:
        return f"--tie-break {tie_break}: the compiled core orders ties as trec_eval does"
    if not fam.core and fam.agg != "text":      # (the run's name: the quick layout's)
        return f"{fam.name}: the compiled core does not compute it"
    if fam.agg not in KINDS:
        return f"{fam.name}: aggregated by {fam.agg!r}, which the quick layout does not make"
    k = measure.cutoff
    if k is not None:
        if fam.cutoff == "none" or fam.cutoff_kind != "rank":
            return f"{fam.name}: the compiled core takes no cutoff of it"
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_CUTOFF:
            return f"{fam.name}@{k}: the compiled core takes whole cutoffs from 1 to {MAX_CUTOFF}"
    elif fam.cutoff == "required":
        return f"{fam.name}: needs a cutoff"
    elif fam.name in CUTOFF_ONLY:
        return f"{fam.name} without a cutoff: the compiled core computes it at a cutoff only"
    for key, value in measure.params:
        if key != "rel" or "rel" not in fam.param_names or fam.respell is not None:
            return (f"{fam.name}({key}=...): the compiled core computes {fam.name} at its "
                    f"parameters' defaults" + (", rel= aside" if key != "rel" else ""))
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_REL:
            return f"{fam.name}(rel={value}): the compiled core takes whole levels"
    return None


def spec(measure) -> tuple | None:
    """The core's (code, cutoff or 0, relevance level) of a served measure;
    None for the run's name, which the core does not compute.  The level not
    given is 1, the full program's default (``-l``, which the quick paths do
    not take)."""
    fam = FAMILIES[measure.family]
    if not fam.core:
        return None
    rel = measure_rel(measure)
    return (fam.core, measure.cutoff or 0, 1 if rel is None else rel)


def family_spec(family: str, cutoff: int | None = None, rel: int = 1) -> tuple:
    """The core's spec of ``family`` at a cutoff and level (e.g. NumRel, each
    topic's R, for a recall scale)."""
    return (FAMILIES[family].core, cutoff or 0, rel)


def measure_rel(measure):
    for key, value in measure.params:
        if key == "rel":
            return value
    return None


def kind(family: str) -> str:
    """The value kind the quick layout writes (:data:`KINDS`)."""
    return KINDS[FAMILIES[family].agg]


def moved_by_ties(family: str) -> bool:
    """Whether a tie order can move the family's values (its declaration's
    ``ties`` is not ``ties.invariant``): the quick paths' tie warning."""
    return not FAMILIES[family].tie_invariant
