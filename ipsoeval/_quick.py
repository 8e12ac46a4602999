"""The console script's entry (``ipsoeval = "ipsoeval._quick:main"``).

``ipsoeval eval [OPTIONS] QRELS RUN...`` is first offered to the quick
path (:mod:`ipsoeval.reading.quick`: the compiled core, no numpy, no click);
whatever it declines runs the full program (:mod:`ipsoeval.cli`).  The
module keeps its name because every installed ``ipsoeval`` script imports
it; it holds nothing else, so that start-up stays cheap.
"""

import os
import sys


def main() -> None:
    args = sys.argv[1:]
    from ipsoeval.reading.quick import quick_eval
    if quick_eval(args):
        return
    if args[:1] == ["sigtest"]:
        from ipsoeval.analyses.sigtest.quick import quick_sigtest
        if quick_sigtest(args):
            return
    if args[:1] == ["eval"]:
        # eval does no matrix products: OpenBLAS's thread pool, started by
        # `import numpy`, costs ~40 ms of CPU for nothing (0.14 -> 0.10 s)
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from ipsoeval.cli import main as cli_main
    cli_main()
