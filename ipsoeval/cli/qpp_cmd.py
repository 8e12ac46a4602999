"""ipsoeval qpp -- query performance predictors: correlations with a
measure's per-topic scores, sMARE, comparisons of predictors and the ANOVA
of sARE (Faggioli et al. 2021; Williams 1959; Zou 2007)."""

from __future__ import annotations

from ipsoeval.cli.build import command_for
from ipsoeval.pipeline import qpp as pipeline

command = command_for(pipeline, lists_tables=True)
