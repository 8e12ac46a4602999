"""``ipsoeval across``: runs compared over several test collections -- effects
against a baseline pooled by meta-analysis, a leaderboard that does not
average blindly, and a linear mixed model for unbalanced designs.

- :mod:`.options` -- the command's options (no numpy: ``--help`` stays instant)
- :mod:`.report` -- the analysis and its Report
- :mod:`.inputs` -- a manifest's collections scored into per-topic matrices
"""

from ipsoeval.analyses import load_on_use

# what --effect and --method offer: ipsoeval.stats.meta_analysis's EFFECTS and
# METHODS, named here without its numpy
# (tests/unit/pipeline/test_across.py checks they agree)
EFFECTS = ("md", "smd")
METHODS = ("reml", "dl", "pm")

__getattr__ = load_on_use(__name__)   # the rest: report's, loaded on first use
