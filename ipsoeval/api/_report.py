"""``ipsoeval.report``: the command ``ipsoeval report`` (one HTML page)."""

from __future__ import annotations

from ipsoeval.api._declared import declared
from ipsoeval.api._evaluate import _need_aligned
from ipsoeval.pipeline import report as pipeline
from ipsoeval.pipeline.report import Page

__all__ = ["Page", "report"]


@declared(pipeline.COMMAND)
def report(res, **kw) -> Page:
    """``ipsoeval report``: one self-contained HTML page (leaderboard with CIs
    and letters, significance heat map, per-topic differences of ``pairs``
    -- [(A, B), ...] or ["A:B", ...]; default the baseline and the best other
    run -- with sigtest's ``tests``, the outcomes breakdown of the best run
    against the baseline at cutoff ``k``, and the scale notes).  ``charts``:
    draw the charts (SVG drawn by ipsoeval itself; False: the page has the
    tables and the heat maps only)."""
    _need_aligned(res, "report")
    return pipeline.from_result(res, **kw)
