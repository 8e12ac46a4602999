"""ipsoeval.analyses.interval_map.options: the options and their checks, without numpy."""

import subprocess
import sys

import pytest

from ipsoeval.analyses.interval_map import TESTS
from ipsoeval.analyses.interval_map.options import Options
from ipsoeval.errors import UsageError


def test_loads_without_numpy():
    code = ("import sys, ipsoeval.analyses.interval_map.options as o; "
            "assert 'numpy' not in sys.modules, 'numpy'; "
            "from ipsoeval.analyses import interval_map; "
            "assert interval_map.Options is o.Options")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_values_as_either_door_gives_them():
    o = Options()
    assert (o.max_memory, o.tests, o.use_cache) == (2 << 30, TESTS, True)
    o = Options(max_memory="512M", tests=("sign",), no_cache=True)
    assert (o.max_memory, o.tests, o.use_cache) == (512 << 20, ("sign",), False)
    assert Options(max_memory=1000).max_memory == 1000
    with pytest.raises(UsageError, match="--max-memory takes a size"):
        Options(max_memory="lots")
    with pytest.raises(UsageError, match="-N must be at most"):
        Options(N=10 ** 7).check()
