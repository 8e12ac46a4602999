"""ipsoeval/analyses/agree/options.py: agree's options and their checks,
worded once for the command line and the API."""

from __future__ import annotations

from pathlib import Path

import pytest

from ipsoeval.analyses.agree.options import make_options
from ipsoeval.errors import UsageError
from tests.conftest import invoke

ROOT = Path(__file__).resolve().parents[4]


def test_one_test_at_most_worded_once_for_both_doors():
    with pytest.raises(UsageError, match=r"^agree takes one --test \(found t, sign\)$"):
        make_options(["t", "sign"])
    ad = ROOT / "testdata/adhoc"
    code, _, err = invoke(["agree", "--test", "t,sign", ad / "qrels.txt", ad / "qrels-b.txt"])
    assert code == 2 and err == "ipsoeval: error: agree takes one --test (found t, sign)\n"


def test_a_test_alias_becomes_its_name():
    assert make_options("paired-t").test == "t"
