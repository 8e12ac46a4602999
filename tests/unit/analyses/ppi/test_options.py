"""ipsoeval/analyses/ppi/options.py: ppi's options and their checks, worded
once for the command line and the API."""

from __future__ import annotations

from pathlib import Path

import pytest

from ipsoeval.analyses.ppi.options import Options
from ipsoeval.errors import UsageError
from tests.conftest import invoke

ROOT = Path(__file__).resolve().parents[4]


def test_baseline_and_all_pairs_conflict_in_the_same_words():
    with pytest.raises(UsageError, match="^--baseline conflicts with --all-pairs$"):
        Options(baseline="a", all_pairs=True).check()
    code, _, err = invoke(["ppi", "--human", ROOT / "testdata/ppi/human.qrels", "--auto",
                           ROOT / "testdata/ppi/auto.qrels", "-m", "AP", "--baseline", "a",
                           "--all-pairs", ROOT / "testdata/adhoc/run-bm25.txt"])
    assert code == 2 and err == "ipsoeval: error: --baseline conflicts with --all-pairs\n"


def test_the_params_say_the_interval_level():
    assert Options(alpha=0.1).as_params()["ci_level"] == pytest.approx(0.9)
