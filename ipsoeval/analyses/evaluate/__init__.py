"""``ipsoeval eval``: per-topic and aggregate scores as report tables
(trec_eval semantics).

- :mod:`.options` -- the command's own options (no numpy)
- :mod:`.report` -- scores to records
"""

from ipsoeval.analyses import load_on_use

__getattr__ = load_on_use(__name__)   # report's names, loaded on first use
