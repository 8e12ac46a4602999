"""ipsoeval.analyses.ipso.options: the options and their checks, without numpy."""

import subprocess
import sys

import pytest

from ipsoeval.analyses.ipso.options import Options, measures_for_tests, parse_depths
from ipsoeval.errors import UsageError


def test_loads_without_numpy():
    code = ("import sys, ipsoeval.analyses.ipso.options as o; "
            "assert 'numpy' not in sys.modules, 'numpy'; "
            "from ipsoeval.analyses import ipso; assert ipso.Options is o.Options")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_defaults_resolved_as_the_analysis_reads_them():
    o = Options()
    assert (o.k, o.graded, o.depths) == (10, "prefix", None)
    assert Options(depths=parse_depths("2,5", 10)).k == 5
    with pytest.raises(UsageError, match="at most"):
        Options(k=10 ** 6).check()
    with pytest.raises(UsageError, match="--test applies to a measure"):
        measures_for_tests(["t"], [])
