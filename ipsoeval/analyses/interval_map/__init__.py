"""``ipsoeval interval-map`` (Ferrante, Ferro & Fuhr 2021): measures mapped
onto interval scales.

- :mod:`.valuesets` -- the exact value sets of each measure
- :mod:`.report` -- the map applied to runs, the analyses and their Report
"""

from ipsoeval.analyses.interval_map.report import *  # noqa: F401,F403
