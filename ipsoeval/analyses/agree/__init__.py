"""``ipsoeval agree``: how far apart two sets of relevance labels are.

- :mod:`.judgments` -- the judgments two qrels share, and their common topics
- :mod:`.report` -- the analysis and its Report
"""

from ipsoeval.analyses.agree.report import *  # noqa: F401,F403
