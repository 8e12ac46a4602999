"""``ipsoeval interval-map`` (Ferrante, Ferro & Fuhr 2021): measures mapped
onto interval scales.

- :mod:`.valuesets` -- phi and the value sets: the entry points, which pick
  :mod:`.closed_forms`, :mod:`.ap`, :mod:`.groups` or :mod:`.enumerate`
  (:mod:`.common`: what they share; :mod:`.cache`: answers kept on disk)
- :mod:`.report` -- the map applied to runs, the analyses and their Report
"""

from ipsoeval.analyses import load_on_use

# --analyze's tests (the paper's, Tables 5-6): registry names, two-sample then omnibus
TESTS = ("sign", "ranksum", "wilcoxon", "t", "anova", "kruskal", "anova2", "friedman")

__getattr__ = load_on_use(__name__)   # the rest: report's, loaded on first use
