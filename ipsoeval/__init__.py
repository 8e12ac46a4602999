"""ipsoeval: trec_eval-compatible IR evaluation with honest comparisons."""

__version__ = "0.1.0"
