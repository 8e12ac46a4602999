"""``--plot FILE.{svg,png,pdf}``: the option and the glue from a
command's results to :mod:`ipsoeval.plots` (the ``plot`` extra)."""

from __future__ import annotations

import click


def _check(ctx, param, value):
    if value is None:               # no --plot: ipsoeval.plots is not imported
        return value
    from ipsoeval import plots
    plots.check(value)
    return value


def plot_option(f):
    return click.option("--plot", "plot", metavar="FILE", default=None, callback=_check,
                        help="Also draw the results to FILE (.svg, .png or .pdf; needs "
                             "matplotlib: pip install 'ipsoeval[plot]').")(f)


def sigtest(path, table, runs, matrices) -> None:
    """Per-topic differences B − A of every pair and measure in ``table``."""
    import numpy as np

    from ipsoeval import plots
    diffs = {}
    for r in table.records:
        m = r["measure"]
        if r["run_a"] == "*" or m not in matrices:
            continue
        M = np.asarray(matrices[m], dtype=np.float64)
        diffs[(r["run_a"], r["run_b"], m)] = M[runs.index(r["run_b"])] - M[runs.index(r["run_a"])]
    plots.sigtest(path, table, diffs)
