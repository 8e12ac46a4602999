"""Defect 11: differences equal up to float noise are ties (and zeros).

P@10 values are k/10; 0.3 - 0.2 and 0.2 - 0.1 differ in the last bits but
are the same difference.  The reference here is exact: Fraction
differences, exact average ranks, the exact null distribution by
enumeration for small n and the tie-corrected normal approximation (from
exact rank sums) for larger n.
"""

import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest
from scipy import special

from ipsoeval.stats import tests as st


def _exact_ranks(absd):
    order = sorted(range(len(absd)), key=lambda i: absd[i])
    ranks = [Fraction(0)] * len(absd)
    i = 0
    ties = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and absd[order[j + 1]] == absd[order[i]]:
            j += 1
        r = Fraction(i + 1 + j + 1, 2)
        for k in range(i, j + 1):
            ranks[order[k]] = r
        t = j - i + 1
        ties += t ** 3 - t
        i = j + 1
    return ranks, ties


def exact_wilcoxon(a_num, b_num, den):
    """Two-sided p of the signed-rank test on exact differences (b - a)/den."""
    d = [Fraction(b - a, den) for a, b in zip(a_num, b_num) if a != b]
    n = len(d)
    ranks, ties = _exact_ranks([abs(x) for x in d])
    w_plus = sum(r for r, x in zip(ranks, d) if x > 0)
    if n <= 13:
        null = [sum(r for r, s in zip(ranks, signs) if s)
                for signs in itertools.product((0, 1), repeat=n)]
        lo = sum(1 for w in null if w <= w_plus) / len(null)
        hi = sum(1 for w in null if w >= w_plus) / len(null)
        return min(1.0, 2 * min(lo, hi))
    mean = Fraction(n * (n + 1), 4)
    var = (Fraction(n * (n + 1) * (2 * n + 1)) - Fraction(ties, 2)) / 24
    z = float(w_plus - mean) / math.sqrt(var)
    return float(special.erfc(abs(z) / math.sqrt(2)))


def _p10_pairs(rnd, n):
    """P@10 numerators with many equal differences of different float noise."""
    a, b = [], []
    for _ in range(n):
        x = rnd.randint(0, 8)
        step = rnd.choice([1, 1, 1, 2, -1, 0])
        y = min(10, max(0, x + step))
        a.append(x)
        b.append(y)
    return a, b


def test_float_noise_differences_are_ties_30_topics():
    a = [3, 2] * 15
    b = [2, 1] * 15                      # every difference is -1/10 exactly
    a[0], b[0] = 5, 5                    # one zero
    a[1], b[1] = 1, 3
    ref = exact_wilcoxon(a, b, 10)
    got = st.wilcoxon(np.array(a) / 10, np.array(b) / 10).pvalue
    assert float(got) == pytest.approx(ref, rel=1e-9)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("n", [8, 12, 30, 60])
def test_wilcoxon_matches_exact_rational(seed, n):
    rnd = random.Random(seed * 100 + n)
    a, b = _p10_pairs(rnd, n)
    if all(x == y for x, y in zip(a, b)):
        return
    ref = exact_wilcoxon(a, b, 10)
    got = float(st.wilcoxon(np.array(a) / 10, np.array(b) / 10).pvalue)
    assert got == pytest.approx(ref, rel=1e-9, abs=1e-12)


def test_sign_test_zero_by_float_noise():
    a = np.array([0.1 + 0.2] * 5 + [0.1] * 5)
    b = np.array([0.3] * 5 + [0.4] * 5)  # 0.1 + 0.2 != 0.3 in floats: a tie
    r = st.sign_test(a, b)
    assert int(r.n) == 5
    assert float(r.pvalue) == pytest.approx(2 * 0.5 ** 5)


def test_ranksum_and_kruskal_float_noise_ties():
    a = np.array([0.3 - 0.2] * 4 + [0.5, 0.7])
    b = np.array([0.2 - 0.1] * 4 + [0.6, 0.8])
    exact_a = np.array([0.1] * 4 + [0.5, 0.7])
    exact_b = np.array([0.1] * 4 + [0.6, 0.8])
    r1, r2 = st.ranksum(a, b), st.ranksum(exact_a, exact_b)
    assert float(r1.pvalue) == pytest.approx(float(r2.pvalue), rel=1e-12)
    from ipsoeval.stats._rank import average_ranks
    ranks, tie = average_ranks(np.concatenate([a, b]))
    ranks2, tie2 = average_ranks(np.concatenate([exact_a, exact_b]))
    assert np.array_equal(ranks, ranks2) and tie == tie2
