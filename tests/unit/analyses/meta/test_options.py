"""ipsoeval/analyses/meta/options.py: meta's options and their checks, worded
once for the command line and the API."""

from __future__ import annotations

from pathlib import Path

import pytest

from ipsoeval.analyses.meta.options import Options
from ipsoeval.errors import UsageError
from tests.conftest import invoke

ROOT = Path(__file__).resolve().parents[4]
WORDS = "--bin-width must be a positive number (found -1.0)"


def test_a_check_is_worded_once_for_both_doors():
    with pytest.raises(UsageError, match=WORDS.replace("(", r"\(").replace(")", r"\)")):
        Options(bin_width=-1.0).check()
    ad = ROOT / "testdata/adhoc"
    code, _, err = invoke(["meta", "-m", "AP", "--bin-width", "-1", ad / "qrels.txt",
                           ad / "run-bm25.txt"])
    assert code == 2 and err == f"ipsoeval: error: {WORDS}\n"


def test_the_default_tests_are_chosen_by_scale():
    assert Options().tests == ()
