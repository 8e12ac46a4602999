"""``ipsoeval sigtest``: paired significance tests that know the measure's
scale (Ferrante et al. 2021), corrections and a CI gate.

- :mod:`.report` -- the analysis and its Report
"""

from ipsoeval.analyses import load_on_use
from ipsoeval.stats import registry

PAIRWISE = registry.TWO_SAMPLE
OMNIBUS = registry.OMNIBUS
TESTS = PAIRWISE + OMNIBUS
# without --test: per measure, registry.default_test (the test its scale permits)
DEFAULT_TEXT = registry.DEFAULT_TEXT

__getattr__ = load_on_use(__name__)   # the rest: report's, loaded on first use
