"""Hand-written special functions: a leaf below :mod:`ipsoeval.stats`.

Nothing here imports anything else of ipsoeval (tests/test_layout.py);
:mod:`ipsoeval.special.dist` imports math alone (numpy only inside its array
versions), :mod:`ipsoeval.special.ptukey` numpy.  The statistics build on
them; they are named and parametrised as scipy's, so that a reader can check
any value against scipy.

Why they are ours and not scipy's
---------------------------------

``import scipy.special`` costs about 0.45 s of CPU (its array-API layer
imports numpy.f2py and numpy.testing), ``import scipy.stats`` over 1 s.
``sigtest``'s quick path (no numpy, no click) takes about 0.14 s whole
against a target of 0.25 s; the statistics commands (``power``,
``leaderboard``, ``meta``, ``ppi``) have 0.5 s each, which scipy's import
would nearly take alone.
``power`` measured on the small-study case: 0.44 s of CPU with
:mod:`noncentral`, 0.73 s with scipy.special's noncentral F tail, 1.50 s
with scipy.stats.ncf.  :mod:`ptukey` exists for speed as well:
``scipy.stats.studentized_range.sf`` integrates adaptively per point (about
20 ms each) and Tukey HSD over all pairs of 129 runs needs 8,256 values.

The accuracy contract
---------------------

Each family states what it guarantees, where, against which reference, and
which tests hold it to that; the module docstrings give the methods and the
regions with a different bound.

* :mod:`dist` -- ``ndtr``, ``ndtri``, ``erfc``, ``gammaln``, ``comb``,
  ``betainc``/``betaincc`` (and the Student t, F and binomial tails built on
  them: ``stdtr``, ``stdtrit``, ``fdtrc``, ``fdtri``, ``bdtr``, ``bdtrc``),
  ``gammainc``/``gammaincc`` (and ``chdtrc``, ``chdtri``, ``gammaincinv``,
  ``gammainccinv``).
  Relative error at most 1e-13 over the whole domain of double arguments,
  against scipy.special, or against mpmath at 50 digits where scipy's value
  is off by more.  Values below 1e-100: |ln v|·4e-16 (the rounding of the
  exponent).  Where a tail is ill-conditioned in its arguments, 4e-16 times
  that conditioning |d ln v / d ln x|, if larger.  Stated exceptions (the
  incomplete gamma at a ≥ 1e7 by Temme's expansion; Q(a, x) for tiny a,
  absolute 1e-15; shape parameters below 1e-300; a and b both beyond ~1e9,
  NaN rather than a wrong number) are listed in dist's docstring.  The edge
  values (NaN for an invalid argument, the limits at ±inf) are scipy's
  except where scipy's is not the mathematical one, also listed there.
  The array versions (``np_*``) equal the scalar functions bit for bit.
  Tests: tests/unit/special/test_dist.py (against scipy.special and mpmath
  on grids and random draws), test_dist_domains.py (the whole domain: huge,
  tiny and subnormal arguments, no exception, no hang),
  test_dist_arrays.py (array against scalar, bit for bit).

* :mod:`ptukey` -- ``sf``, the studentized range's survival function.
  Absolute error below 1e-11 for 2 ≤ k ≤ 129, every ν ≥ 1 (integer or not)
  and ν = ∞, all q, against scipy.stats.studentized_range and, in the far
  tail where scipy is off, an independent nested adaptive quadrature.
  Tests: tests/unit/special/test_ptukey.py, test_dist_domains.py.

* :mod:`noncentral` -- ``nct_sf`` and ``ncf_sf``, the noncentral t and F
  tails (``power`` only).  Relative error at most 1e-11 (``nct_sf``) and
  1e-12 (``ncf_sf``) against Boost as scipy ships it, or mpmath at 30
  digits where Boost is off (its lower t tails, its F tails below 1e-230);
  below 1e-100 the |ln v|·4e-16 bound.  ``ncf_sf`` sums a Poisson series
  whose length grows as nc/2: ``power`` hands noncentralities beyond
  10,000 to scipy.stats.ncf instead (ipsoeval/stats/power.py).
  Tests: tests/unit/special/test_noncentral.py, test_dist_domains.py, and
  power's results against statsmodels in tests/test_power.py.
"""
