"""``ipsoeval ppi``: human labels + machine labels by prediction-powered
inference (Angelopoulos et al. 2023; PPI++, Angelopoulos, Duchi & Zrnic
2023; for IR, Oosterhuis et al. 2024).

- :mod:`.report` -- the analysis and its Report (the statistics are
  :mod:`ipsoeval.stats.ppi`)
"""

from ipsoeval.analyses import load_on_use

METHODS = ("ppi++", "ppi")

__getattr__ = load_on_use(__name__)   # the rest: report's, loaded on first use
