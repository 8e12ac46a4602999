"""``ipsoeval.repro``: the command ``ipsoeval repro`` (Breuer et al., SIGIR 2020)."""

from __future__ import annotations

from ipsoeval.api._declared import declared
from ipsoeval.pipeline import repro as pipeline


@declared(pipeline.COMMAND, first=pipeline.API_FIRST)
def repro(qrels, orig_baseline, orig_advanced, rep_baseline, rep_advanced, **kw):
    """``ipsoeval repro`` on the paths of the qrels and the four runs:
    KTU and RBO per topic (table ``order_topics``, means in ``order``), RMSE,
    nRMSE and the t tests (``tests``), ER and Delta RI with bootstrap
    intervals (``repro``, the primary table).  ``rep_qrels=PATH``:
    replicability, the reproduced runs judged with another collection's
    qrels."""
    return pipeline.from_result(qrels, orig_baseline, orig_advanced, rep_baseline,
                                rep_advanced, **kw)
