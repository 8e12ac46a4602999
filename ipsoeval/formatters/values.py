"""Value spelling shared by the text formatters."""

from __future__ import annotations

import math


def scalar(v):
    """A Python scalar for a numpy one (np.float64(0.5) -> 0.5, np.int64(3) -> 3,
    np.bool_ -> bool); anything else unchanged.  No numpy import: numpy scalars
    are told by their ``item`` method and module."""
    if type(v).__module__ == "numpy" and hasattr(v, "item"):
        return v.item()
    return v


def spell(v, finite=lambda x: repr(float(x)), *, undefined: str = "",
          yes: str = "true", no: str = "false", other=str) -> str:
    """A value as text, the one spelling every text format shares: ``undefined``
    for None and NaN, ``yes``/``no`` for booleans, infinities as ``inf`` and
    ``-inf``, ``finite(v)`` for any other float and ``other(v)`` for the rest;
    the formats differ only in these words and in how a finite float reads."""
    v = scalar(v)
    if v is None:
        return undefined
    if isinstance(v, bool):
        return yes if v else no
    if isinstance(v, float):
        if math.isnan(v):
            return undefined
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return finite(v)
    return other(v)


def plain(v) -> str:
    """TSV spelling: shortest round-trip repr for floats, '' for undefined."""
    return spell(v)


def json_safe(v):
    """A JSON value: numpy scalars as Python ones, None for NaN and infinities."""
    v = scalar(v)
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v
