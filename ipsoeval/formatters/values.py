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


def plain(v, col: str = "", digits: int | None = None) -> str:
    """TSV spelling: shortest round-trip repr for floats (with ``digits``:
    :func:`rounded`), '' for undefined."""
    if digits is None:
        return spell(v)
    return spell(v, lambda x: rounded(x, col, digits))


def is_p(col: str) -> bool:
    """A p-value column: p_value, p_adjusted, <what>_p_value[_min|_max],
    <what>_p_adjusted, and the ``<test>:p`` columns of sigtest's view (not a
    probability such as p_top)."""
    return (col in ("p", "pvalue", "p_value", "p_adjusted") or col.endswith(":p")
            or "_p_value" in col or col.endswith("_p_adjusted"))


def decimals(x: float, digits: int) -> str:
    """A finite float with ``digits`` digits after the decimal point
    (``--digits``), except that a value those digits would print as zero
    although it is not (1e-9 at 4 digits: 0.0000) prints in scientific
    notation with ``digits`` significant digits (1.000e-09): no nonzero
    number ever reads as 0."""
    text = f"{x:.{digits}f}"
    if x != 0 and not text.strip("-0."):
        return f"{x:.{max(digits, 1) - 1}e}"
    return text


def p_text(p: float, digits: int) -> str:
    """A finite p-value under ``--digits N``: N significant digits (at least
    one), in fixed notation with at least N decimals (0.5 -> 0.50, 0.0312 ->
    0.031 at N = 2, so a small p keeps its first digits) and in scientific
    notation below 1e-4 (1e-9 -> 1.0e-09): never a misleading 0.00."""
    sig = max(digits, 1)
    if p == 0:
        return f"{p:.{digits}f}"
    if abs(p) < 1e-4:
        return f"{p:.{sig - 1}e}"
    lead = math.floor(math.log10(abs(p)))          # p = 0.0312: -2
    text = f"{p:.{max(digits, sig - 1 - lead)}f}"
    if len(text.lstrip("-0.")) > sig and lead < 0 and round(abs(p), sig - 1 - lead) >= \
            10.0 ** (lead + 1):
        # rounding carried into the next decade (0.09996 -> 0.100): one decimal fewer
        text = f"{p:.{max(digits, sig - 2 - lead)}f}"
    return text


def rounded(v, col: str, digits: int) -> str | None:
    """The ``--digits`` text of a finite float ``v`` in column ``col`` (p-values
    by :func:`p_text`, other floats by :func:`decimals`); None for anything
    that is not a finite float (integers stay integers, NaN and infinities
    are spelled by each format as always)."""
    v = scalar(v)
    if not isinstance(v, float) or not math.isfinite(v):
        return None
    return p_text(v, digits) if is_p(col) else decimals(v, digits)


def json_safe(v):
    """A JSON value: numpy scalars as Python ones, None for NaN and infinities."""
    v = scalar(v)
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v
