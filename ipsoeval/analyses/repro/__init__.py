"""``ipsoeval repro``: how far a reproduced or replicated experiment comes to
the original one, with the measures of Breuer et al., SIGIR 2020, as their
package repro_eval (0.5.0) computes them, and bootstrap intervals beside.

- :mod:`.options` -- the command's options and their checks (no numpy)
- :mod:`.order` -- Kendall's tau Union and RBO between two runs' rankings
- :mod:`.effects` -- RMSE, nRMSE, ER, Delta RI, the t tests and the bootstrap
- :mod:`.report` -- the analysis and its Report
"""

from ipsoeval.analyses import load_on_use

__getattr__ = load_on_use(__name__)   # report's names, loaded on first use
