"""``ipsoeval power``: topic set size design (Sakai 2016) from per-topic scores.

- :mod:`.report` -- the analysis and its Report; the formulas are
  :mod:`ipsoeval.stats.power`'s
"""

from ipsoeval.analyses.power.report import *  # noqa: F401,F403
