"""ipsoeval.special.dist's array versions against its scalar functions, bit for bit.

``np_stdtr``, ``np_bdtr``, ``np_bdtrc`` and ``np_ndtr`` run numpy kernels
(the same algorithms, element by element arithmetic in the same order, math's
log/exp/lgamma per element) on large arrays, and every ``np_*`` evaluates each
distinct argument tuple once.  Their values must be the scalar functions' to
the last bit (the goldens were made with those), on grids that reach every
branch — the continued fraction on both sides of the symmetry point, its
log-space front (lf < −700), the large-a expansion with the incomplete gamma's
series and its continued fraction, a and b below and above 8, |u| above and
below ½ in the front, the edges handed back to the scalar function — and on
hypothesis-drawn points.  The scalar functions' own accuracy is
tests/unit/special/test_dist.py's.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as hs

from ipsoeval.special import dist


def _bits(a) -> np.ndarray:
    return np.asarray(a, dtype=np.float64).view(np.uint64)


def _same(fn, got, *args):
    cols = [np.asarray(c, dtype=np.float64) for c in np.broadcast_arrays(*args)]
    want = np.array([fn(*row) for row in zip(*(c.ravel().tolist() for c in cols))],
                    dtype=np.float64).reshape(cols[0].shape)
    bad = _bits(got) != _bits(want)
    if bad.any():
        j = np.flatnonzero(bad.ravel())[:5]
        raise AssertionError(f"{fn.__name__}: {int(bad.sum())} of {bad.size} differ, e.g. "
                             + "; ".join(f"{tuple(c.ravel()[i] for c in cols)}: "
                                         f"{got.ravel()[i]!r} != {want.ravel()[i]!r}"
                                         for i in j))


def _kernel(kernel, fn, *args):
    """The kernel itself on the flat columns (no deduplication), and np_fn."""
    cols = [np.ascontiguousarray(c, dtype=np.float64).reshape(-1)
            for c in np.broadcast_arrays(*(np.asarray(a, dtype=np.float64) for a in args))]
    _same(fn, kernel(cols), *cols)
    _same(fn, getattr(dist, "np_" + fn.__name__)(*args), *args)


_DF = np.array([0.5, 1.0, 1.5, 2.0, 3.0, 7.0, 15.9, 16.0, 17.0, 29.0, 59.0, 60.0, 61.0,
                99.0, 100.0, 779.0, 2895.0, 2896.0, 1e4, 1e5, 1e6, 1e8, 1e12])
_T = np.concatenate([
    -np.logspace(-12, 4, 400), np.logspace(-12, 4, 400),
    -np.logspace(4, 150, 40), np.logspace(4, 150, 40),
    [1e-300, -1e-300, 5e-324, 0.5, -1.7, 1.7, -2.0, 2.0, -4.0, 40.0, -1e7]])


def test_stdtr_kernel_is_the_scalar_function_on_every_branch():
    _kernel(dist._np_stdtr, dist.stdtr, _DF[:, None], _T[None, :])


def test_stdtr_edges_go_through_the_scalar_function():
    df = np.array([np.nan, -1.0, 0.0, 0.5, 3.0, 1e6, np.inf])
    t = np.array([np.nan, -np.inf, np.inf, 0.0, -0.0, -1e151, 1e151, 1e200, -1e300, -2.5])
    _kernel(dist._np_stdtr, dist.stdtr, df[:, None], t[None, :])


def test_split_half_t_pvalues():
    # the split-half call: two df values (the halves of 5,793 topics), t all distinct
    rng = np.random.default_rng(7)
    t = -np.abs(rng.standard_t(5, size=(50, 40)))
    t[:, ::7] *= 10.0
    df = np.array([2895.0] * 20 + [2896.0] * 20)
    _kernel(dist._np_stdtr, dist.stdtr, df[None, :], t)


_K = np.concatenate([np.arange(-2.0, 40.0), np.arange(40.0, 3100.0, 13.0), [0.5, 2.5, 299.5]])
_N = np.array([0.0, 1.0, 5.0, 30.0, 31.5, 299.0, 300.0, 301.0, 1000.0, 2896.0, 3000.0,
               np.nan, -3.0])          # (n = inf: the scalar bdtr does not return)


def test_binomial_tails_are_the_scalar_functions():
    for p in (0.5, 0.3, 0.01, 1e-5, 0.97, 0.999999, 0.0, 1.0, np.nan, 1.5):
        _kernel(dist._np_bdtr, dist.bdtr, _K[:, None], _N[None, :], p)
        _kernel(dist._np_bdtrc, dist.bdtrc, _K[:, None], _N[None, :], p)


def test_sign_test_pvalues_of_large_halves():
    # split-half's exact sign test: k of m non-tied pairs, m above the exact-sum limit
    m = np.arange(301.0, 3000.0, 37.0)
    k = np.floor(m[:, None] * np.linspace(0.0, 1.0, 41)[None, :])
    _kernel(dist._np_bdtr, dist.bdtr, k, m[:, None], 0.5)
    _kernel(dist._np_bdtrc, dist.bdtrc, k - 1.0, m[:, None], 0.5)


def test_ndtr_kernel():
    one = np.nextafter(1.0, [0.0, 2.0])
    x = np.concatenate([[np.nan, -np.inf, np.inf, 0.0, -0.0, 5e-324, -5e-324, 1.0, -1.0,
                         -40.0, 40.0, -38.5, 1e300], one, -one,
                        np.random.default_rng(3).normal(0.0, 4.0, 3000)])
    _kernel(dist._np_ndtr, dist.ndtr, x)


def test_distinct_arguments_are_told_apart_by_their_bits():
    x = np.array([0.0, -0.0, np.nan, -np.nan, 1.0, 1.0, -0.0] * 20)
    rows, inverse = dist._distinct([x])
    assert rows[0].size == 5
    np.testing.assert_array_equal(_bits(rows[0][inverse]), _bits(x))
    f = dist.vectorize(lambda v: math.copysign(1.0, v))     # tells −0.0 from 0.0
    np.testing.assert_array_equal(f(x[:7]), [1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0])
    np.testing.assert_array_equal(f(x)[:7], [1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0])
    a = np.array([[1.0, 2.0], [1.0, 3.0]] * 50)
    g = dist.vectorize(lambda u, v: u * 10.0 + v)
    np.testing.assert_array_equal(g(a[:, :1], a[:, 1:]), a[:, :1] * 10.0 + a[:, 1:])
    assert g(np.zeros((0, 3)), 1.0).shape == (0, 3)


@settings(max_examples=200, deadline=None)
@given(hs.lists(hs.tuples(hs.one_of(hs.floats(0.1, 80.0), hs.floats(80.0, 1e7)),
                          hs.floats(-1e6, 1e6)), min_size=1, max_size=80))
def test_stdtr_hypothesis(rows):
    df, t = np.array(rows).T
    _kernel(dist._np_stdtr, dist.stdtr, df, t)


@settings(max_examples=200, deadline=None)
@given(hs.lists(hs.tuples(hs.integers(0, 5000), hs.integers(0, 5000),
                          hs.one_of(hs.just(0.5), hs.floats(1e-6, 1.0 - 1e-6))),
                min_size=1, max_size=60))
def test_binomial_hypothesis(rows):
    k, n, p = np.array(rows, dtype=np.float64).T
    _kernel(dist._np_bdtr, dist.bdtr, k, n, p)
    _kernel(dist._np_bdtrc, dist.bdtrc, k, n, p)


def test_incomplete_beta_kernel_on_every_branch():
    # the general kernel behind all three (the large-a expansion also with the
    # incomplete gamma's power series, y·a small against b, which Student t
    # and the binomial tails hardly reach)
    a = np.array([0.5, 2.0, 7.9, 8.0, 30.0, 100.0, 1000.0, 3e4, 1e6])
    b = np.array([0.5, 1.0, 5.0, 7.9, 8.0, 40.0, 60.0, 1000.0])
    x = np.concatenate([[0.0, 1.0, 5e-324, 1e-300, 0.5, 1.0 - 2.0 ** -53],
                        np.linspace(0.0, 1.0, 41)[1:-1], 1.0 - np.logspace(-9, -1, 40),
                        np.logspace(-12, -1, 20)])
    A, B, X = (c.reshape(-1) for c in np.meshgrid(a, b, x, indexing="ij"))
    i, ic = dist._np_ibeta(A, B, X, 1.0 - X)
    _same(dist.betainc, i, A, B, X)
    _same(dist.betaincc, ic, A, B, X)


def test_incomplete_gamma_parts_kernel():
    # both its branches (the power series is out of the expansion's reach
    # through I_x, whose y·a stays above b; checked here directly)
    a = np.array([0.5, 1.0, 5.0, 9.9, 10.0, 40.0, 1000.0])
    x = np.concatenate([np.logspace(-300, 4, 120), [0.999, 1.0, 4.9, 5.0, 5.1, 9.0, 39.0, 41.0]])
    A, X = (c.reshape(-1) for c in np.meshgrid(a, x, indexing="ij"))
    lf, upper, v = dist._np_igam_parts(A, X)
    want = [dist._igam_parts(p, q) for p, q in zip(A.tolist(), X.tolist())]
    assert upper.any() and not upper.all()
    np.testing.assert_array_equal(upper, [w[1] for w in want])
    np.testing.assert_array_equal(_bits(lf), _bits([w[0] for w in want]))
    np.testing.assert_array_equal(_bits(v), _bits([w[2] for w in want]))
