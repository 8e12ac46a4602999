"""``ipsoeval agree``: how far apart two sets of relevance labels are.

- :mod:`.judgments` -- the judgments two qrels share, and their common topics
- :mod:`.report` -- the analysis and its Report
"""

from ipsoeval.analyses import load_on_use
from ipsoeval.stats import registry

TESTS = registry.PAIRED
DEFAULT_TEST = None      # each measure's test by scale (registry.default_for)

__getattr__ = load_on_use(__name__)   # the rest: report's, loaded on first use
