"""PyTerrier and ir_measures interop: the one place where other tools' objects
become ipsoeval's names.

* :func:`measure_name`: an ir_measures measure object (``nDCG@10``,
  ``AP(rel=2)``, ``RR``) or a string → the name ``-m`` takes.  ir_measures
  spells its measures as ``str(measure)``, which ipsoeval's name parser reads
  with the same meaning (``man ipsoeval``, MEASURE NAMES), so no table of
  equivalences lives here.
* :func:`measure_spec`: the same name and the label-to-gain map an
  ir_measures ``nDCG(gains={...})`` carries.  ipsoeval maps labels to gains
  for a whole alignment (``gains=``, ``--gains``), not per measure, so the
  map travels beside the name; :mod:`ipsoeval.ir_measures_provider` aligns
  such a measure on its own.

``pyterrier.Experiment``'s counterpart, :func:`ipsoeval.experiment`, is in
:mod:`ipsoeval.api._experiment`; result frames are read by
:mod:`ipsoeval.reading.memory` like every in-memory input.
"""

from __future__ import annotations

from typing import Any

from ipsoeval.errors import UsageError


def _is_ir_measures(m: Any) -> bool:
    return (type(m).__module__ or "").startswith("ir_measures")


def measure_name(m: Any) -> str:
    """The ``-m`` name of an ir_measures measure object or a string."""
    if isinstance(m, str):
        return m
    if _is_ir_measures(m):
        name, gains = measure_spec(m)
        if gains is not None:
            raise UsageError(f"{m}: a gain map per measure is served by the ir_measures "
                             f"provider (ipsoeval.ir_measures_provider); here give the "
                             f"map for all measures as gains= (--gains)")
        return name
    raise UsageError(f"a measure must be a name or an ir_measures measure "
                     f"(found {type(m).__name__})")


def measure_spec(m: Any) -> tuple[str, dict | None]:
    """(name, gains) of an ir_measures measure object: its ``str()`` without
    ``gains=``, and that map ({label: gain}, labels it does not name keeping
    their value as gain, as ir_measures maps them) or None."""
    params = getattr(m, "params", None)
    if not isinstance(params, dict) or "gains" not in params:
        return str(m), None
    gains = params["gains"]
    rest = {k: v for k, v in params.items() if k != "gains"}
    return str(type(m)(**rest)), (None if not isinstance(gains, dict) else dict(gains))


def measure_names(measures) -> list[str] | None:
    if measures is None:
        return None
    if isinstance(measures, str) or not hasattr(measures, "__iter__"):
        measures = [measures]
    return [measure_name(m) for m in measures]
