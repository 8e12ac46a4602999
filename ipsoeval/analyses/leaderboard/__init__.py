"""``ipsoeval leaderboard``: every run's mean, CI and rank interval, all pairs
compared with the randomised Tukey HSD (Carterette 2012; Sakai 2018) beside
Tukey HSD from the two-way ANOVA, a compact letter display (Piepho 2004) and
the rank resolution.

- :mod:`.report` -- the analysis and its Report
"""

from ipsoeval.analyses.leaderboard.report import *  # noqa: F401,F403
