"""One paired comparison on Python floats: the paired t test, the sign test,
the t interval and the effect size, declared once for every path.

The vectorised code (:func:`ipsoeval.stats.tests.paired_t`,
:func:`~ipsoeval.stats.tests.sign_test`,
:func:`ipsoeval.stats.descriptive.paired_summary`) reduces its arrays with
numpy and hands each comparison's sums to :func:`t_test`, :func:`sign_p` and
:func:`t_interval`; sigtest's quick path (:mod:`ipsoeval.analyses.sigtest.quick`,
no numpy) computes the same sums with :func:`pairwise_sum` and
:func:`moments`, which reproduce numpy's float64 reductions operation by
operation, and :func:`sign_counts`, which applies the tie rule of
:mod:`ipsoeval.stats._rank` to one comparison.  The distribution functions
are :mod:`ipsoeval.special.dist`'s.

Imports only ``math`` (and :mod:`ipsoeval.special.dist` and :mod:`ipsoeval.mean`,
which import only ``math``).
"""

from __future__ import annotations

import math

from ipsoeval.mean import mean as one_mean
from ipsoeval.special import dist

NAN = math.nan
EPS = 2.0 ** -52                # np.finfo(np.float64).eps
TIE_ULPS = 64                   # ipsoeval.stats._rank.TIE_ULPS (a test checks)
_BLOCK = 128                    # numpy's PW_BLOCKSIZE


def _pairwise(x, lo: int, n: int) -> float:
    """numpy's ``pairwise_sum`` of x[lo:lo+n] (numpy/_core/src/umath/loops_utils.h):
    sequential below 8 values, eight accumulators up to 128, halves above."""
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += x[i]
        return res
    if n <= _BLOCK:
        r0, r1, r2, r3, r4, r5, r6, r7 = x[lo:lo + 8]
        i, end = lo + 8, lo + n - n % 8
        while i < end:
            r0 += x[i]
            r1 += x[i + 1]
            r2 += x[i + 2]
            r3 += x[i + 3]
            r4 += x[i + 4]
            r5 += x[i + 5]
            r6 += x[i + 6]
            r7 += x[i + 7]
            i += 8
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        for j in range(i, lo + n):
            res += x[j]
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return _pairwise(x, lo, n2) + _pairwise(x, lo + n2, n - n2)


def pairwise_sum(x) -> float:
    """``np.add.reduce`` of a float64 vector (the sum along a contiguous axis),
    bit for bit."""
    return 0.0 + _pairwise(x, 0, len(x))


def _div(a: float, b: float) -> float:
    """a / b as IEEE 754 (numpy) divides: ±inf or nan for b = 0."""
    if b == 0.0:
        if a == 0.0 or a != a:
            return NAN
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def moments(a, b) -> tuple:
    """``(n, mean_a, mean_b, diff, sd, wins, ties, losses)`` of the paired
    samples a, b (no NaN) as :func:`ipsoeval.stats.descriptive.paired_summary`
    computes them: d = b - a, sums as numpy's, sd with n - 1 (NaN below 2)."""
    n = len(a)
    nf = float(n)
    d = [y - x for x, y in zip(a, b)]
    diff = _div(pairwise_sum(d), nf)
    # a run's mean is the one mean of every command (ipsoeval.mean); the
    # difference keeps numpy's sums, the t test's statistic on both paths
    mean_a, mean_b = (one_mean(a), one_mean(b)) if n else (NAN, NAN)
    if n >= 2:
        dev = [v - diff for v in d]
        sd = math.sqrt(pairwise_sum([v * v for v in dev]) / (nf - 1.0))
    else:
        sd = NAN
    wins = sum(1 for v in d if v > 0)
    losses = sum(1 for v in d if v < 0)
    return n, mean_a, mean_b, diff, sd, wins, n - wins - losses, losses


_TCRIT: dict = {}                # (df, probability) -> stdtrit: comparisons share n


def _tcrit(df: float, q: float) -> float:
    got = _TCRIT.get((df, q))
    if got is None:
        got = _TCRIT[(df, q)] = dist.stdtrit(df, q)
    return got


def t_interval(diff: float, sd: float, n: int, level: float = 0.95) -> tuple:
    """``(low, high, effect_size)``: diff ± t_{1-(1-level)/2, n-1} · sd/√n (NaN
    below 2 topics) and diff / sd (NaN unless sd > 0)."""
    nf = float(n)
    tcrit = _tcrit(max(nf - 1.0, 1.0), 0.5 + level / 2.0) if n >= 2 else NAN
    half = _div(tcrit * sd, math.sqrt(nf))
    effect = diff / sd if sd > 0 else NAN
    return diff - half, diff + half, effect


def t_test(mean: float, sd: float, n: int, alternative: str = "two-sided") -> tuple:
    """Student's paired t test from the mean and sd (n - 1) of n differences
    b - a: ``(t, p)``, both NaN below 2 topics or for 0/0
    (``scipy.stats.ttest_rel(b, a)``)."""
    if n < 2:
        return NAN, NAN
    t = _div(mean, sd / math.sqrt(n))
    if t != t:
        return NAN, NAN
    df = float(n - 1)
    if alternative == "less":
        p = dist.stdtr(df, t)
    elif alternative == "greater":
        p = dist.stdtr(df, -t)
    else:
        p = 2.0 * dist.stdtr(df, -abs(t))
    return t, p


def sign_p(k: int, m: int, alternative: str = "two-sided") -> float:
    """The exact binomial sign test's p-value: k of m non-zero differences
    positive, H0 p = 1/2 (``scipy.stats.binomtest(k, m)``); 1 when m = 0."""
    less = dist.bdtr(k, m, 0.5) if m > 0 else 1.0
    greater = dist.bdtrc(max(k - 1, 0), m, 0.5) if k > 0 else 1.0
    if alternative == "less":
        return less
    if alternative == "greater":
        return greater
    return 1.0 if 2 * k == m else min(1.0, 2.0 * min(less, greater))


def sign_counts(a, b) -> tuple:
    """``(k, m)``: the positive and the non-zero differences b - a of one
    comparison (no NaN) under :mod:`ipsoeval.stats._rank`'s tie rule
    (``snapped_difference``): |d| within TIE_ULPS·eps·max|a, b| of 0, or in
    a chain of such steps from 0, is zero."""
    tol = (TIE_ULPS * EPS) * max(max(map(abs, a), default=0.0), max(map(abs, b), default=0.0))
    d = [y - x for x, y in zip(a, b)]
    mag = [0.0 if abs(v) <= tol else abs(v) for v in d]
    s = sorted(mag)
    cut = -1.0                           # the largest magnitude snapped to 0
    if s and s[0] == 0.0:
        cut = 0.0
        for prev, cur in zip(s, s[1:]):
            if cur - prev > tol:
                break
            cut = cur
    k = sum(1 for v, g in zip(d, mag) if g > cut and v > 0)
    m = sum(1 for g in mag if g > cut)
    return k, m
