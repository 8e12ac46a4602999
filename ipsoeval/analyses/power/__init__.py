"""``ipsoeval power``: topic set size design (Sakai 2016) from per-topic scores.

- :mod:`.options` -- the options and their checks (no numpy)
- :mod:`.report` -- the analysis and its Report; the formulas are
  :mod:`ipsoeval.stats.power`'s
"""

from ipsoeval.analyses import load_on_use
from ipsoeval.analyses.power.options import (  # noqa: F401
    DEFAULT_DELTA,
    DESIGNS,
    Options,
    options_of,
    parse_deltas,
    parse_designs,
)

__getattr__ = load_on_use(__name__)   # the rest: report's, loaded on first use
