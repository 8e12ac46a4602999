"""``ipsoeval risk``: risk-sensitive comparison of runs -- URisk and TRisk
against a baseline (Dinçer, Macdonald and Ounis 2014), ZRisk and GeoRisk
over all the runs (Dinçer, Macdonald and Ounis 2016).

- :mod:`.report` -- the analysis and its Report
"""

from ipsoeval.analyses.risk.report import *  # noqa: F401,F403
