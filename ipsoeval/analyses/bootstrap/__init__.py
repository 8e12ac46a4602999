"""``ipsoeval bootstrap`` (Craswell et al. 2021): leaderboard rank stability,
confidence intervals and split-half reliability.

- :mod:`.resample` -- topic bootstrap on per-topic score matrices
- :mod:`.splithalf` -- split-half agreement of tests and aggregates
- :mod:`.options` -- the options and their checks (no numpy)
- :mod:`.report` -- the analysis and its Report
"""

from ipsoeval.analyses import load_on_use

# The registry's tests whose per-half statistics have the fast path in splithalf.
TESTS = ("sign", "ranksum", "wilcoxon", "t")
# How split-half decides which run is better on a half.
AGGREGATES = ("mean", "median")

__getattr__ = load_on_use(__name__)   # the rest: report's, loaded on first use
