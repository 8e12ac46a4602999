"""``ipsoeval bootstrap`` (Craswell et al. 2021): leaderboard rank stability,
confidence intervals and split-half reliability.

- :mod:`.resample` -- topic bootstrap on per-topic score matrices
- :mod:`.splithalf` -- split-half agreement of tests and aggregates
- :mod:`.report` -- the analysis and its Report
"""

from ipsoeval.analyses.bootstrap.report import *  # noqa: F401,F403
from ipsoeval.analyses.bootstrap.report import _check_measure  # noqa: F401
