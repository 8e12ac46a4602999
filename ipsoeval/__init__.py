"""ipsoeval: trec_eval-compatible IR evaluation with honest comparisons.

The Python API (docs/api.md) is loaded lazily, so ``import ipsoeval`` stays
cheap (the ``eval`` quick path imports no numpy through it)::

    import ipsoeval
    res = ipsoeval.evaluate(qrels, runs, ["AP", "nDCG@10"])
    ipsoeval.sigtest(res, baseline="bm25", correct="holm")
"""

from ipsoeval._version import __version__

# --- public API (ipsoeval/api/), imported on first use -----------------------------
_API = ("evaluate", "EvalResult", "sigtest", "bootstrap", "breakdown", "ipso",
        "interval_map", "read_scores", "InputWarning", "experiment", "ppi", "agree",
        "leaderboard", "power", "meta", "report", "Page", "nuggets", "read_nuggets", "across",
        "risk")
_RESULTS = ("Report", "Table", "ResultSet", "Gate")
_ERRORS = ("IpsoevalError", "UsageError", "InputError")

__all__ = ["__version__", *_API, *_RESULTS, *_ERRORS]


def __getattr__(name):
    if name in _API:
        from ipsoeval import api
        return getattr(api, name)
    if name in _RESULTS:
        from ipsoeval import results
        return getattr(results, name)
    if name in _ERRORS:
        from ipsoeval import errors
        return getattr(errors, name)
    raise AttributeError(f"module 'ipsoeval' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
