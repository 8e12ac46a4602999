"""Defects found while verifying issues 10, 11 and 13 after they landed
(branch verify).  Each test was written before its fix and failed then."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests.conftest import invoke


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


# --- Tukey HSD on no complete topic (fuzz seed 5164, exit 70) --------------------

@pytest.mark.parametrize("design", ["anova", "kruskal", "anova2", "friedman"])
def test_tukey_hsd_with_no_complete_topic_is_undefined_not_a_crash(design):
    """Every topic undefined for some run leaves n = 0 topics: the p-values
    are undefined (NaN), not a ZeroDivisionError."""
    from ipsoeval.stats import omnibus
    X = np.full((3, 4), np.nan)
    res = omnibus.tukey_hsd(X, design)
    iu = np.triu_indices(3, 1)
    assert np.isnan(res.pvalue[iu]).all()


def test_interval_map_analyze_three_runs_every_topic_undefined(tmp_path):
    """`interval-map --analyze -m ESL@10` with three runs and no relevant
    document anywhere: ESL is undefined on every topic; the omnibus rows
    report no significant pair (was: internal error, exit 70)."""
    q = _write(tmp_path, "q", "1 0 a 0\n")
    runs = [_write(tmp_path, f"r{i}", f"1 Q0 a 1 1 R{i}\n") for i in range(3)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)     # numpy's "Mean of empty slice"
        code, out, err = invoke(["interval-map", "--analyze", "-m", "ESL@10", "--format", "tsv",
                                 q, *runs])
    assert code == 0, err
    assert "internal error" not in err and "Warning" not in err, err
    rows = [ln.split("\t") for ln in out.splitlines() if ln.startswith("ESL@10\tanova\t")]
    assert rows and rows[0][4] == "0"           # sig: no pair significant
