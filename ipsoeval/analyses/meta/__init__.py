"""``ipsoeval meta``: measures compared over a set of runs -- discriminative
power (Sakai 2006), swap rate (Voorhees and Buckley 2002) and the rank
correlation of the rankings they give (Kendall's τ_b, τ_AP of Yilmaz et al.
2008).

- :mod:`.swap` -- swap rates over random disjoint topic halves
- :mod:`.report` -- the analysis and its Report
"""

from ipsoeval.analyses import load_on_use
from ipsoeval.stats import registry

TESTS = registry.TWO_SAMPLE
DEFAULT_TESTS: tuple = ()     # each measure's test by scale (registry.default_for)

__getattr__ = load_on_use(__name__)   # the rest: report's, loaded on first use
