"""ipsoeval/_lazy.py: a package's names loaded on first use, one helper for
the package and ipsoeval.reading."""

import subprocess
import sys
import types

import pytest

from ipsoeval._lazy import lazy_attributes


def test_first_source_that_holds_the_name_wins_and_loads_on_first_use():
    ns = {"__name__": "pkg", "__all__": ["dumps", "loads", "x"], "x": 1}
    getattr_, dir_ = lazy_attributes(ns, ((("dumps",), "json"), (("dumps", "loads"), "pickle")))
    import json
    import pickle
    assert getattr_("dumps") is json.dumps and getattr_("loads") is pickle.loads
    with pytest.raises(AttributeError, match="^module 'pkg' has no attribute 'nope'$"):
        getattr_("nope")
    assert dir_() == ["__all__", "__name__", "dumps", "loads", "x"]


def test_the_package_and_reading_use_it_and_stay_cheap():
    import ipsoeval
    import ipsoeval.reading
    for mod in (ipsoeval, ipsoeval.reading):
        assert isinstance(mod.__getattr__, types.FunctionType)
        assert mod.__getattr__.__module__ == "ipsoeval._lazy"
        assert "lazy_attributes" not in vars(mod)
    code = ("import sys, ipsoeval, ipsoeval.reading; "
            "print(sorted(m for m in ('numpy', 'ipsoeval.api', 'ipsoeval.reading.entry') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "[]", out.stderr
