"""PyTerrier and ir_measures interop: the one place where other tools' objects
become ipsoeval's names.

* :func:`measure_name`: an ir_measures measure object (``nDCG@10``,
  ``AP(rel=2)``, ``RR``) or a string → the name ``-m`` takes.  ir_measures
  spells its measures as ``str(measure)``, which ipsoeval's name parser reads
  with the same meaning (``man ipsoeval``, MEASURE NAMES), so no table of
  equivalences lives here.

``pyterrier.Experiment``'s counterpart, :func:`ipsoeval.experiment`, is in
:mod:`ipsoeval.api._experiment`; result frames are read by
:mod:`ipsoeval.reading.memory` like every in-memory input.
"""

from __future__ import annotations

from typing import Any

from ipsoeval.errors import UsageError


def measure_name(m: Any) -> str:
    """The ``-m`` name of an ir_measures measure object or a string."""
    if isinstance(m, str):
        return m
    mod = type(m).__module__ or ""
    if mod.startswith("ir_measures"):
        return str(m)
    raise UsageError(f"a measure must be a name or an ir_measures measure "
                     f"(found {type(m).__name__})")


def measure_names(measures) -> list[str] | None:
    if measures is None:
        return None
    if isinstance(measures, str) or not hasattr(measures, "__iter__"):
        measures = [measures]
    return [measure_name(m) for m in measures]
