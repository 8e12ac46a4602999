"""trec_eval 10.0 measures beyond the official set: names, parameters, values.

Values are checked against trec_eval 10.0's own outputs (the golden files
in tests/data/trec_eval, NIST notice there) and against brute-force Python
references.
"""

import math

import numpy as np
import pytest
from conftest import TE, invoke


def run(*args):
    code, out, err = invoke(["eval", "--format", "trec", *args])
    assert code == 0, err
    return out


def test_rbp_is_trec_evals_rbp():
    # defect 3 (issue 10): `-m rbp` is trec_eval's rbp (p = 0.9, graded gains, name rbp)
    out = run("-m", "rbp", "-m", "rbp_resid", TE / "qrels.test", TE / "results.test")
    assert out == ("rbp                   \tall\t0.3234\n"
                   "rbp_resid             \tall\t0.0204\n")


def test_rbp_parameter_p():
    out = run("-m", "rbp.p=0.8", TE / "qrels.test", TE / "results.test")
    assert out.startswith("rbp_p=0.8             \tall\t")
