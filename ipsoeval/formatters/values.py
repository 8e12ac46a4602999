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


def plain(v) -> str:
    """TSV spelling: shortest round-trip repr for floats, '' for undefined."""
    v = scalar(v)
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if math.isnan(v):
            return ""
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(float(v))
    return str(v)


def json_safe(v):
    """A JSON value: numpy scalars as Python ones, None for NaN and infinities."""
    v = scalar(v)
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v
