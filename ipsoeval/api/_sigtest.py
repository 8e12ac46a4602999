"""``ipsoeval.sigtest``: the command ``ipsoeval sigtest``."""

from __future__ import annotations

from ipsoeval.api._declared import declared
from ipsoeval.pipeline import sigtest as pipeline


@declared(pipeline.COMMAND)
def sigtest(res, **kw):
    """``ipsoeval sigtest`` on an :class:`EvalResult` (or per-topic scores from
    :func:`read_scores`).  ``tests`` as ``--test`` takes them (default: each
    measure tested once, with the test its scale permits -- t for interval and
    ratio scales, sign for ordinal ones; the column ``why`` says which);
    ``report.gate`` is the ``--fail-if`` gate; ``bounds=True`` is ``--bounds``
    (p_bounds, survives_bounds)."""
    return pipeline.from_result(res, **kw)
