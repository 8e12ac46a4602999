"""ipsoeval.analyses.breakdown.options: the options and their checks, without numpy."""

import subprocess
import sys

import pytest

from ipsoeval.analyses.breakdown.options import Options
from ipsoeval.errors import UsageError


def test_loads_without_numpy():
    code = ("import sys, ipsoeval.analyses.breakdown.options as o; "
            "assert 'numpy' not in sys.modules, 'numpy'; "
            "from ipsoeval.analyses import breakdown; assert breakdown.Options is o.Options")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_verdict_test_is_read_by_check():
    o = Options(verdict_test="ESL-signed-rank")
    o.check()
    assert o.verdict_test == "esl-wilcoxon"
    with pytest.raises(UsageError, match="--verdict-test must be one of"):
        Options(verdict_test="map-t").check()
