"""``ipsoeval eval``: per-topic and aggregate scores as report tables
(trec_eval semantics).

- :mod:`.report` -- scores to records
"""

from ipsoeval.analyses.evaluate.report import *  # noqa: F401,F403
