"""``ipsoeval risk``: risk-sensitive comparison of runs -- URisk and TRisk
against a baseline (Dinçer, Macdonald and Ounis 2014), ZRisk and GeoRisk
over all the runs (Dinçer, Macdonald and Ounis 2016).

- :mod:`.options` -- the command's options and their checks (no numpy)
- :mod:`.report` -- the analysis and its Report
"""

from ipsoeval.analyses import load_on_use

__getattr__ = load_on_use(__name__)   # report's names, loaded on first use
