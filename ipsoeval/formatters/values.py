"""Value spelling shared by the text formatters."""

from __future__ import annotations

import math


def plain(v) -> str:
    """TSV spelling: shortest round-trip repr for floats, '' for undefined."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if math.isnan(v):
            return ""
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    return str(v)


def json_safe(v):
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v
