"""A run's mean over topics: the one function every command and the API call.

``mean(xs) = fsum(xs) / n``: the sum correctly rounded (``math.fsum``), then
one division.  A naive left-to-right sum (trec_eval's), numpy's pairwise sum
and a sum in another topic order can differ in the last bits; the correctly
rounded sum depends on the values only, so the same per-topic scores give
the same float in ``eval``, ``sigtest`` (both paths), ``leaderboard``,
``report``, ``bootstrap`` and the API.  trec_eval's own layout (``eval
--format trec`` and its fast path) keeps trec_eval's sequential sum, since
its ``%6.4f`` must match trec_eval's digits byte for byte.

Imports only ``math`` (the quick paths use it without numpy).
"""

from __future__ import annotations

import math

__all__ = ["mean", "means", "trec_mean"]


def _floats(values) -> list:
    return values.tolist() if hasattr(values, "tolist") else list(values)


def _sum(xs: list) -> float:
    """The correctly rounded sum, with IEEE's answers where math.fsum raises:
    inf - inf is NaN, and a sum beyond the largest float is ±inf (fsum
    overflows in between: halving every term is exact at that magnitude)."""
    try:
        return math.fsum(xs)
    except ValueError:            # inf and -inf among the terms
        return math.nan
    except OverflowError:
        return math.fsum(x * 0.5 for x in xs) * 2.0


def mean(values) -> float:
    """fsum(values) / n; NaN for no values."""
    xs = _floats(values)
    return _sum(xs) / len(xs) if xs else math.nan


def means(rows, mask=None, *, skip_nan: bool = False) -> list:
    """:func:`mean` of each row of ``rows`` (a sequence of sequences or a 2-d
    array); with ``mask`` (same shape, truthy = counted) over the masked
    values; with ``skip_nan`` over the values that are not NaN.  NaN for a
    row with nothing counted."""
    out = []
    grid = _floats(rows)
    keep = _floats(mask) if mask is not None else None
    for i, row in enumerate(grid):
        xs = _floats(row)
        if keep is not None:
            xs = [x for x, k in zip(xs, _floats(keep[i])) if k]
        if skip_nan:
            xs = [x for x in xs if x == x]
        out.append(_sum(xs) / len(xs) if xs else math.nan)
    return out


def trec_mean(values) -> float:
    """trec_eval's mean: the sum left to right, then one division (for
    ``--format trec`` only; every other output uses :func:`mean`)."""
    s = 0.0
    xs = _floats(values)
    for x in xs:
        s += x
    return s / len(xs) if xs else math.nan
