"""ipsoeval.analyses.risk.options: the options and their checks, without numpy."""

import subprocess
import sys

import pytest

from ipsoeval.analyses.risk.options import Options, parse_risk_alphas
from ipsoeval.errors import UsageError


def test_loads_without_numpy():
    code = ("import sys, ipsoeval.analyses.risk.options as o; "
            "assert 'numpy' not in sys.modules, 'numpy'; "
            "from ipsoeval.analyses import risk; assert risk.Options is o.Options")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_risk_alphas_as_the_command_line_gives_them():
    assert parse_risk_alphas(["1,5", "5", " 0.5"]) == [1.0, 5.0, 0.5]
    for bad, why in (("x", "'x' is not a number"), ("-1", "must be 0 or more"),
                     ("inf", "must be 0 or more"), ("nan", "must be 0 or more")):
        with pytest.raises(UsageError, match=why):
            parse_risk_alphas([bad])
    with pytest.raises(UsageError, match="must be 0 or more"):
        Options(risk_alphas=[float("nan")]).check()
