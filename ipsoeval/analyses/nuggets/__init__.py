"""``ipsoeval nuggets``: the nugget scores of generated answers, and
nugget assignments standing where runs and qrels stand in the statistics.

- :mod:`.report` -- the scores as a TopicScores (what ``--nuggets`` feeds to
  sigtest, bootstrap, leaderboard, power, meta, ipso), the ``nuggets``
  Report, and the inputs of ``ppi --nuggets`` and ``agree --nuggets``
"""

from ipsoeval.analyses.nuggets.report import *  # noqa: F401,F403
