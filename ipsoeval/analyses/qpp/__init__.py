"""ipsoeval qpp -- the evaluation of query performance predictors: their
correlations with a measure's per-topic scores, sMARE (Faggioli et al.
2021), the comparison of predictors (Williams 1959, Zou 2007) and the
ANOVA on sARE.  Names load from :mod:`.report` on first use."""

from ipsoeval.analyses import load_on_use

__getattr__ = load_on_use(__name__)
