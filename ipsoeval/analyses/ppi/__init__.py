"""``ipsoeval ppi``: human labels + machine labels by prediction-powered
inference (Angelopoulos et al. 2023; PPI++, Angelopoulos, Duchi & Zrnic
2023; for IR, Oosterhuis et al. 2024).

- :mod:`.report` -- the analysis and its Report (the statistics are
  :mod:`ipsoeval.stats.ppi`)
"""

from ipsoeval.analyses.ppi.report import *  # noqa: F401,F403
