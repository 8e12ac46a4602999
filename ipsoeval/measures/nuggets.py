"""The nugget scores of generated answers: declared once here, computed
on :class:`~ipsoeval.model.NuggetJudgments`, listed by ``ipsoeval measures``.

A topic's nuggets are atomic facts a good answer holds, each ``vital`` or
``okay``; an answer is judged per nugget ``support``, ``partial_support`` or
``not_support`` (the AutoNuggetizer framework, Pradeep et al. 2024, arXiv
2411.09607; the TREC 2024 RAG track).  Per answer (run and topic):

``nugget_vital_strict``
    supported vital nuggets / vital nuggets (the track's primary score);
``nugget_all_strict``
    supported nuggets / nuggets;
``nugget_vital``
    (supported + 0.5 partially supported) vital nuggets / vital nuggets;
``nugget_all``
    (supported + 0.5 partially supported) nuggets / nuggets.

An answer with no nugget of the kind scores 0 (a topic with no vital nugget
scores 0 on the vital scores), and a run's score is the mean over topics:
both as nuggetizer's ``calculate_nugget_scores`` and
``calculate_global_metrics``.  A ``failed`` assignment counts as
not_support and a ``failed`` importance as okay (what nuggetizer's formulas
do with them).  The scores are proportions of a topic's nuggets, equally
spaced on one topic: an interval scale there, as recall; across topics with
different numbers of (vital) nuggets the scales differ, and, as recall with
different recall bases (Ferrante et al. 2021, §3.4.2), the mean is then
ordinal (:func:`scale_on`).
"""

from __future__ import annotations

import numpy as np

CITATION = "Pradeep et al. 2024, arXiv 2411.09607 (AutoNuggetizer; TREC 2024 RAG)"


class NuggetMeasure:
    """One nugget score: which nuggets count (vital only or all) and whether
    partial support earns half a nugget."""

    __slots__ = ("name", "vital_only", "strict", "definition")
    scale = "interval"
    higher_is_better = True
    agg = "mean"

    def __init__(self, name: str, vital_only: bool, strict: bool, definition: str):
        self.name, self.vital_only, self.strict = name, vital_only, strict
        self.definition = definition

    def __repr__(self):
        return f"NuggetMeasure({self.name!r})"


MEASURES = (
    NuggetMeasure("nugget_vital_strict", True, True,
                  "vital nuggets the answer supports / vital nuggets (0 without vital "
                  "nuggets)"),
    NuggetMeasure("nugget_all_strict", False, True,
                  "nuggets the answer supports / nuggets"),
    NuggetMeasure("nugget_vital", True, False,
                  "(supported + 0.5 partially supported) vital nuggets / vital nuggets "
                  "(0 without vital nuggets)"),
    NuggetMeasure("nugget_all", False, False,
                  "(supported + 0.5 partially supported) nuggets / nuggets"),
)
BY_NAME = {m.name: m for m in MEASURES}
NAMES = tuple(BY_NAME)


def lookup(name: str) -> NuggetMeasure | None:
    """The nugget measure called exactly ``name``, or None: names are
    case-sensitive, as every other measure name (nDCG@10, not ndcg@10)."""
    return BY_NAME.get(name)


def did_you_mean(name: str) -> str:
    """' (did you mean 'nugget_all'?)' for a name that differs from a nugget
    measure's only in case or '-' for '_' (or is close to one), else ''."""
    import difflib
    key = name.lower().replace("-", "_")
    if key in BY_NAME:
        return f" (did you mean {key!r}?)"
    close = difflib.get_close_matches(key, NAMES, n=1, cutoff=0.8)
    return f" (did you mean {close[0]!r}?)" if close else ""


def per_topic(support: np.ndarray, importance: np.ndarray, measure: NuggetMeasure) -> np.ndarray:
    """float64 (runs, topics) scores from the (runs, topics, K) support levels
    (0 not, 1 partial, 2 support, -1 no nugget) and importance (0 okay, 1
    vital, -1 no nugget)."""
    present = support >= 0
    counted = present & (importance == 1) if measure.vital_only else present
    full = ((support == 2) & counted).sum(axis=2).astype(np.float64)
    if not measure.strict:
        full = full + 0.5 * ((support == 1) & counted).sum(axis=2)
    n = counted.sum(axis=2)
    out = np.zeros(n.shape, dtype=np.float64)
    np.divide(full, n, out=out, where=n > 0)
    return out


def scale_on(support: np.ndarray, importance: np.ndarray,
             measure: NuggetMeasure) -> tuple[str, str | None]:
    """``(scale, reason)`` of ``measure`` on these answers: interval when every
    answer counts the same number of nuggets (vital ones for the vital
    scores), else ordinal, with the reason (as recall, Ferrante et al.
    §3.4.2)."""
    present = support >= 0
    counted = present & (importance == 1) if measure.vital_only else present
    n = counted.sum(axis=2)
    if n.size and n.min() == n.max():
        return "interval", None
    what = "vital nuggets" if measure.vital_only else "nuggets"
    lo, hi = (int(n.min()), int(n.max())) if n.size else (0, 0)
    return "ordinal", (f"{measure.name} is ordinal across topics: interval on one topic, but "
                       f"the answers' numbers of {what} differ ({lo}..{hi}), so their scales "
                       f"differ (as recall, Ferrante et al. §3.4.2)")


def catalogue_rows() -> list[dict]:
    """``ipsoeval measures`` rows (registry.CATALOGUE_COLUMNS) of the nugget scores."""
    return [{"measure": m.name, "example": m.name, "scale": m.scale, "cutoff": "none",
             "params": "", "trec_eval": "", "probability": "not defined",
             "ties": "not defined",
             "definition": f"nugget score of a generated answer ({CITATION}): "
                           f"{m.definition}; mean over topics"}
            for m in MEASURES]
