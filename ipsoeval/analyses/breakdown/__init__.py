"""``ipsoeval breakdown`` (Lin et al. 2021): outcomes of two runs on topics
with one relevant document.

- :mod:`.options` -- the command's options and their checks (no numpy)
- :mod:`.report` -- the analysis and its Report
"""

from ipsoeval.analyses import load_on_use

__getattr__ = load_on_use(__name__)   # report's names, loaded on first use
