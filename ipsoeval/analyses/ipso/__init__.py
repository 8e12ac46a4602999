"""``ipsoeval ipso`` (Moffat & Mackenzie 2024): innate pairwise SERP
orderings and the sign test over topics.

- :mod:`.core` -- Algorithm 1 at every depth, the five groups, enumeration
- :mod:`.report` -- the analysis and its Report
"""

from ipsoeval.analyses.ipso.report import *  # noqa: F401,F403
