"""``ipsoeval compare``: the results table of a paper -- runs × measures, each
cell the mean over topics, marks saying which differences are significant
(against a baseline, between all pairs as superscript letters, or as the
letter groups of the randomised Tukey HSD), the best value of each column in
bold.

- :mod:`.options` -- the options and their checks (no numpy)
- :mod:`.report` -- the analysis and its Report
"""

from ipsoeval.analyses import load_on_use
from ipsoeval.analyses.compare.options import MARKS, Options  # noqa: F401

__getattr__ = load_on_use(__name__)   # the rest: report's, loaded on first use
