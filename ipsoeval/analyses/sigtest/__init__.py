"""``ipsoeval sigtest``: paired significance tests that know the measure's
scale (Ferrante et al. 2021), corrections and a CI gate.

- :mod:`.report` -- the analysis and its Report
"""

from ipsoeval.analyses.sigtest.report import *  # noqa: F401,F403
