"""ipsoeval: trec_eval-compatible IR evaluation with honest comparisons.

The Python API (docs/api.md) is loaded lazily, so ``import ipsoeval`` stays
cheap (the ``eval`` quick path imports no numpy through it)::

    import ipsoeval
    res = ipsoeval.evaluate(qrels, runs, ["AP", "nDCG@10"])
    ipsoeval.sigtest(res, baseline="bm25", correct="holm")
"""

from ipsoeval._lazy import lazy_attributes
from ipsoeval._version import __version__

# --- public API (ipsoeval/api/), imported on first use -----------------------------
_API = ("evaluate", "EvalResult", "sigtest", "bootstrap", "breakdown", "ipso",
        "interval_map", "read_scores", "InputWarning", "Experiment", "ExperimentResult",
        "experiment", "ppi", "agree",
        "leaderboard", "power", "meta", "report", "Page", "nuggets", "read_nuggets", "across",
        "risk", "qpp", "compare", "Comparison", "repro")
_RESULTS = ("Report", "Table", "ResultSet", "Gate")
_ERRORS = ("IpsoevalError", "UsageError", "InputError")

__all__ = ["__version__", *_API, *_RESULTS, *_ERRORS]


__getattr__, __dir__ = lazy_attributes(globals(), ((_API, "ipsoeval.api"),
                                                    (_RESULTS, "ipsoeval.results"),
                                                    (_ERRORS, "ipsoeval.errors")))
del lazy_attributes
