"""``ipsoeval leaderboard``: every run's mean, CI and rank interval, all pairs
compared with the randomised Tukey HSD (Carterette 2012; Sakai 2018) beside
Tukey HSD from the two-way ANOVA, a compact letter display (Piepho 2004) and
the rank resolution.

- :mod:`.options` -- the options and their checks (no numpy)
- :mod:`.report` -- the analysis and its Report
"""

from ipsoeval.analyses import load_on_use
from ipsoeval.analyses.leaderboard.options import MAX_SAMPLES, Options  # noqa: F401

__getattr__ = load_on_use(__name__)   # the rest: report's, loaded on first use
