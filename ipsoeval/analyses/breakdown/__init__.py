"""``ipsoeval breakdown`` (Lin et al. 2021): outcomes of two runs on topics
with one relevant document.

- :mod:`.report` -- the analysis and its Report
"""

from ipsoeval.analyses.breakdown.report import *  # noqa: F401,F403
