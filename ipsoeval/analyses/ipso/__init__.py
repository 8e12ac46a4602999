"""``ipsoeval ipso`` (Moffat & Mackenzie 2024): innate pairwise SERP
orderings and the sign test over topics.

- :mod:`.core` -- Algorithm 1 at every depth, the five groups, enumeration
- :mod:`.report` -- the analysis and its Report
"""

from ipsoeval.analyses import load_on_use
from ipsoeval.stats import registry

TESTS = registry.TWO_SAMPLE          # tests of the -m measures (the test registry's)

__getattr__ = load_on_use(__name__)   # the rest: report's, loaded on first use
