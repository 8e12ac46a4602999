"""Diversity measures at huge cutoffs: the cost follows the ranking and the
judgements, not k, and no value moves.

ndeval's ideal ideal (the divisor of alpha-DCG@k and ERR-IA@k for k >= 2) is
a sum over ranks 1..k whose terms S (1-alpha)^(i-1) w_i reach 0.0 after
about 1075 / -log2(1 - alpha) ranks; it is now summed a block at a time and
stops there.  The reference below is the former rank-by-rank loop."""

import time

import numpy as np
import pytest

from ipsoeval.measures.families import diversity as D
from tests.conftest import invoke


def _naive(A, alpha, k, weight):
    g = A.astype(np.float64)
    terms = np.zeros((len(A), k))
    for i in range(k):
        terms[:, i] = g * weight[i]
        g = g * (1.0 - alpha)
    return np.cumsum(terms, axis=1)[:, -1]


@pytest.mark.parametrize("alpha", [0.5, 0.1, 0.9, 1.0, 0.0, 0.013])
@pytest.mark.parametrize("k", [2, 3, 100, 4095, 4096, 4097, 9000])
@pytest.mark.parametrize("weights", [D._dcg_discount, D._err_weight])
def test_ideal_ideal_is_the_rank_by_rank_sum(alpha, k, weights):
    A = np.array([0, 1, 2, 3, 7, 12])
    got = D._ideal_ideal(A, alpha, k, weights)
    assert got.tolist() == _naive(A, alpha, k, weights(k)).tolist()


@pytest.mark.parametrize("weights", [D._dcg_discount, D._err_weight])
def test_weight_ranges_are_slices_of_the_whole(weights):
    whole = weights(10000)
    for a, b in [(0, 1), (0, 4096), (1, 5), (4096, 8192), (9999, 10000)]:
        assert weights(a, b).tolist() == whole[a:b].tolist()


@pytest.mark.parametrize("alpha", [0.5, 0.1, 0.9])
def test_value_at_k_is_the_value_at_the_clamp(alpha):
    A = np.array([1, 3, 20])
    clamp = D.ideal_ideal_ranks(alpha, 2**31 - 1, int(A.max()))
    assert clamp < 2**31 - 1
    at_clamp = _naive(A, alpha, clamp, D._dcg_discount(clamp))
    for k in (clamp, clamp + 1, 10**6, 10**9, 2**31 - 1):
        assert D._ideal_ideal(A, alpha, k, D._dcg_discount).tolist() == at_clamp.tolist()


QRELS = "1 a d1 1\n"
RUN = "1 Q0 d1 1 1.0 r\n"
MULTI_Q = "1 a d1 1\n1 b d2 2\n1 a d3 1\n2 a e1 0\n2 b e2 1\n"
MULTI_R = "1 Q0 d2 1 3 r\n1 Q0 x 2 2 r\n1 Q0 d1 3 1 r\n2 Q0 e2 1 1 r\n"


def _values(q, r, names):
    code, out, err = invoke(["eval", "-q", "--format", "tsv", *sum((["-m", n] for n in names),
                                                                  []), str(q), str(r)])
    assert code == 0, err
    return out


@pytest.mark.parametrize("files", [(QRELS, RUN), (MULTI_Q, MULTI_R)])
def test_huge_cutoffs_run_at_once_with_the_same_values(tmp_path, files):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text(files[0])
    r.write_text(files[1])
    fams = ["alpha_nDCG", "alpha_DCG", "ERR_IA", "nERR_IA", "P_IA", "StRecall"]
    t0 = time.process_time()
    huge = _values(q, r, [f"{f}@1000000000" for f in fams])
    assert time.process_time() - t0 < 10           # was out of memory (exit 70)
    clamp = D.ideal_ideal_ranks(0.5, 10**9, 2)
    same = _values(q, r, [f"{f}@{clamp}" for f in fams])
    for line_h, line_c in zip(huge.splitlines()[1:], same.splitlines()[1:]):
        fh, fc = line_h.split("\t"), line_c.split("\t")
        if fh[2].startswith("P_IA"):
            continue                          # P_IA divides by k itself
        assert fh[-1] == fc[-1], (line_h, line_c)


def test_erria_at_1e8_is_instant(tmp_path):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text(QRELS)
    r.write_text(RUN)
    t0 = time.process_time()
    code, out, err = invoke(["eval", "-m", "ERR_IA@100000000", str(q), str(r)])
    assert code == 0 and time.process_time() - t0 < 5         # was 257 s and 2.3 GB
    code, ref, _ = invoke(["eval", "-m", "ERR_IA@5000", str(q), str(r)])
    assert out.split()[-1] == ref.split()[-1]


def test_alpha_zero_at_a_huge_cutoff_is_refused_before_scoring(tmp_path):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text(QRELS)
    r.write_text(RUN)
    code, out, err = invoke(["eval", "-m", "alpha_DCG(alpha=0)@1000000000", str(q), str(r)])
    assert code == 2 and out == "" and "smaller cutoff or a larger alpha" in err
    code, out, err = invoke(["eval", "-m", "alpha_DCG(alpha=0)@1000", str(q), str(r)])
    assert code == 0
