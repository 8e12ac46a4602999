"""``ipsoeval report``: one self-contained HTML page of a run comparison --
the leaderboard with CIs and letter groups, the significance matrix as a
heat map, per-topic differences of chosen pairs, the outcomes breakdown of
the best run against the baseline and the scale notes.

- :mod:`.options` -- the page's own options and their checks (no numpy)
- :mod:`.compose` -- the analyses the page needs, called as their commands
  call them (no statistic is computed here), and the charts as SVG
- :mod:`ipsoeval.formatters.html` -- the page, from the finished Reports and
  SVG strings
"""

# numpy and the analyses load inside compose's functions, on use: ``ipsoeval
# report --help`` reads the options without them
from ipsoeval.analyses.report.compose import *  # noqa: F401,F403
from ipsoeval.analyses.report.options import make_options  # noqa: F401
