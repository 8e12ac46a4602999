"""``ipsoeval interval-map`` (Ferrante, Ferro & Fuhr 2021): measures mapped
onto interval scales.

- :mod:`.valuesets` -- phi and the value sets: the entry points, which pick
  :mod:`.closed_forms`, :mod:`.ap`, :mod:`.groups` or :mod:`.enumerate`
  (:mod:`.common`: what they share; :mod:`.cache`: answers kept on disk)
- :mod:`.report` -- the map applied to runs, the analyses and their Report
"""

from ipsoeval.analyses.interval_map.report import *  # noqa: F401,F403
