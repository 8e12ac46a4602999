"""``ipsoeval across``: runs compared over several test collections -- effects
against a baseline pooled by meta-analysis, a leaderboard that does not
average blindly, and a linear mixed model for unbalanced designs.

- :mod:`.report` -- the analysis and its Report
- :mod:`.inputs` -- a manifest's collections scored into per-topic matrices
"""

from ipsoeval.analyses.across.report import *  # noqa: F401,F403
