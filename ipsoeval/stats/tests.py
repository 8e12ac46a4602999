"""Two-sample significance tests, vectorised over leading axes.

Every function takes paired (or, for :func:`ranksum`, unpaired) samples of
shape ``(..., n)`` and returns a :class:`TestResult` whose fields are arrays of
shape ``(...)``.  Direction convention: differences are ``b − a``, so
``alternative="greater"`` means "B is larger than A".

p-values follow ``scipy.stats`` called on one row at a time (1-D), with
``x = b`` and ``y = a``:

- :func:`paired_t`   ↔ ``ttest_rel(b, a)``
- :func:`wilcoxon`   ↔ ``wilcoxon(b, a)`` (zero_method="wilcox", no continuity
  correction, method="auto": exact for n ≤ 50 without ties or zeros, exact
  enumeration of all sign patterns for n ≤ 13 with ties or zeros, normal
  approximation with tie correction otherwise)
- :func:`sign_test`  ↔ ``binomtest(#(b>a), #(b≠a), 0.5)``
- :func:`ranksum`    ↔ ``mannwhitneyu(b, a)`` (continuity correction, exact
  when a sample has ≤ 8 values and there are no ties)

Missing values (NaN) are omitted pairwise for paired tests (and per sample for
:func:`ranksum`); ``n`` reports how many observations each row used.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ipsoeval.special import dist
from ipsoeval.stats import paired
from ipsoeval.stats._blas import single_thread
from ipsoeval.stats._null import rank_sum_counts, signed_rank_counts
from ipsoeval.stats._rank import average_ranks, snapped_difference

ALTERNATIVES = ("two-sided", "less", "greater")

@dataclass
class TestResult:
    """Result of a vectorised test: arrays of the leading shape."""

    __test__ = False  # not a pytest test class

    statistic: np.ndarray
    pvalue: np.ndarray
    n: np.ndarray
    method: np.ndarray                      # per row: "exact", "asymptotic", ...
    extra: dict = field(default_factory=dict)

    def __iter__(self):
        yield self.statistic
        yield self.pvalue


def check_alternative(alternative: str) -> str:
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative must be one of {ALTERNATIVES} (got {alternative!r})")
    return alternative


def _as_pair(a, b) -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("samples must have at least one axis")
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"paired samples differ in length ({a.shape[-1]} vs {b.shape[-1]})")
    return np.broadcast_arrays(a, b)


Core = Callable[..., tuple]


def _run_paired(core: Core, a, b, **kw) -> TestResult:
    """Apply ``core(A, B, **kw)`` (2-D, NaN-free rows of equal length) to every
    row; rows with NaN are handled one by one with those pairs omitted."""
    a, b = _as_pair(a, b)
    lead = a.shape[:-1]
    n = a.shape[-1]
    A = a.reshape(-1, n)
    B = b.reshape(-1, n)
    rows = A.shape[0]
    bad = np.isnan(A) | np.isnan(B)
    dirty = bad.any(axis=1)
    stat = np.full(rows, np.nan)
    pval = np.full(rows, np.nan)
    used = np.zeros(rows, dtype=np.int64)
    meth = np.empty(rows, dtype=object)
    extra: dict[str, np.ndarray] = {}

    def put(idx, res):
        s, p, nn, m, ex = res
        stat[idx] = s
        pval[idx] = p
        used[idx] = nn
        meth[idx] = m
        for k, v in ex.items():
            if k not in extra:
                extra[k] = np.full(rows, np.nan)
            extra[k][idx] = v

    clean = np.flatnonzero(~dirty)
    if clean.size:
        put(clean, core(A[clean], B[clean], **kw))
    for i in np.flatnonzero(dirty):
        keep = ~bad[i]
        put(np.array([i]), core(A[i:i + 1, keep], B[i:i + 1, keep], **kw))
    return TestResult(
        statistic=stat.reshape(lead),
        pvalue=pval.reshape(lead),
        n=used.reshape(lead),
        method=meth.reshape(lead),
        extra={k: v.reshape(lead) for k, v in extra.items()},
    )


def _normal_p(z: np.ndarray, alternative: str) -> np.ndarray:
    if alternative == "less":
        return dist.np_ndtr(z)
    if alternative == "greater":
        return dist.np_ndtr(-z)
    return 2.0 * dist.np_ndtr(-np.abs(z))


# ---------------------------------------------------------------- paired t

def _t_core(A, B, alternative):
    rows, n = A.shape
    d = B - A
    with np.errstate(divide="ignore", invalid="ignore"):
        if n >= 2:
            mean = d.mean(axis=1)
            sd = d.std(axis=1, ddof=1)
        else:
            mean = d.mean(axis=1) if n else np.full(rows, np.nan)
            sd = np.full(rows, np.nan)
    df = float(n - 1)
    # t and p of each comparison: stats.paired's
    tp = [paired.t_test(m, s, n, alternative) for m, s in zip(mean.tolist(), sd.tolist())]
    t = np.array([x for x, _ in tp], dtype=np.float64).reshape(rows)
    p = np.array([x for _, x in tp], dtype=np.float64).reshape(rows)
    return t, p, n, "t", {"df": np.full(rows, df), "mean": mean, "sd": sd}


def paired_t(a, b, alternative: str = "two-sided") -> TestResult:
    """Student's paired t test on d = b − a (``scipy.stats.ttest_rel(b, a)``)."""
    return _run_paired(_t_core, a, b, alternative=check_alternative(alternative))


# ------------------------------------------------------- Wilcoxon signed-rank

@np.errstate(divide="ignore", invalid="ignore")
def _wilcoxon_core(A, B, alternative):
    rows, n = A.shape
    d = snapped_difference(A, B)         # float-noise ties and zeros (see _rank)
    if n == 0:
        return (np.full(rows, np.nan), np.full(rows, np.nan), 0, "none", {})
    absd = np.abs(d)
    ranks, tie_all = average_ranks(absd)
    nz = d != 0
    n_zero = n - nz.sum(axis=1)
    count = (n - n_zero).astype(np.float64)
    # zeros form the lowest tie group; ranks of the others shift down by n_zero
    ranks = np.where(nz, ranks - n_zero[:, None], 0.0)
    zf = n_zero.astype(np.float64)
    tie = tie_all - (zf ** 3 - zf)
    has_ties = tie > 0
    r_plus = np.where(d > 0, ranks, 0.0).sum(axis=1)
    r_minus = np.where(d < 0, ranks, 0.0).sum(axis=1)

    p = np.full(rows, np.nan)
    method = np.empty(rows, dtype=object)
    if n > 50:
        asym = np.ones(rows, dtype=bool)
    else:
        exact = ~has_ties & (n_zero == 0)
        perm = ~exact & (n <= 13)
        asym = ~exact & ~perm
        if exact.any():
            idx = np.flatnonzero(exact)
            cum = np.cumsum(signed_rank_counts(n))
            total = 2.0 ** n
            hi = cum.size - 1

            def cdf(k):
                k = k.astype(np.int64)
                return np.where(k < 0, 0.0, cum[np.clip(k, 0, hi)] / total)

            def sf(k):
                return 1.0 - cdf(k - 1)

            rp = r_plus[idx]
            if alternative == "less":
                pe = cdf(np.ceil(rp))
            elif alternative == "greater":
                pe = sf(np.floor(rp))
            else:
                pe = np.clip(2.0 * np.minimum(sf(np.floor(rp)), cdf(np.ceil(rp))), 0.0, 1.0)
            p[idx] = pe
            method[idx] = "exact"
        if perm.any():
            idx = np.flatnonzero(perm)
            signs = _all_binary(n)                        # (2^n, n) of 0/1
            null = ranks[idx] @ signs.T                   # (k, 2^n) W+ under each pattern
            obs = r_plus[idx][:, None]
            gamma = np.abs(np.finfo(np.float64).eps * 100 * obs)
            total = float(signs.shape[0])
            pl = (null <= obs + gamma).sum(axis=1) / total
            pg = (null >= obs - gamma).sum(axis=1) / total
            if alternative == "less":
                pe = pl
            elif alternative == "greater":
                pe = pg
            else:
                pe = np.clip(2.0 * np.minimum(pl, pg), 0.0, 1.0)
            p[idx] = pe
            method[idx] = "exact-permutation"
    if asym.any():
        idx = np.flatnonzero(asym)
        c = count[idx]
        mn = c * (c + 1.0) * 0.25
        se = np.sqrt((c * (c + 1.0) * (2.0 * c + 1.0) - tie[idx] / 2.0) / 24.0)
        z = (r_plus[idx] - mn) / se
        p[idx] = _normal_p(z, alternative)
        method[idx] = "asymptotic"
    stat = np.minimum(r_plus, r_minus) if alternative == "two-sided" else r_plus
    return stat, p, count.astype(np.int64), method, {"r_plus": r_plus, "r_minus": r_minus}


def _all_binary(n: int) -> np.ndarray:
    codes = np.arange(2 ** n, dtype=np.int64)
    return ((codes[:, None] >> np.arange(n)) & 1).astype(np.float64)


def wilcoxon(a, b, alternative: str = "two-sided") -> TestResult:
    """Wilcoxon signed-rank test on d = b − a, zero differences dropped.

    ``statistic`` is min(W+, W−) for two-sided tests and W+ otherwise (as
    scipy); ``n`` is the number of non-zero differences.
    """
    return _run_paired(_wilcoxon_core, a, b, alternative=check_alternative(alternative))


# ------------------------------------------------------------------- sign

def _sign_core(A, B, alternative):
    d = snapped_difference(A, B)
    k = (d > 0).sum(axis=1)
    m = (d != 0).sum(axis=1)
    kf = k.astype(np.float64)
    p = np.array([paired.sign_p(kk, mm, alternative) for kk, mm in zip(k.tolist(), m.tolist())],
                 dtype=np.float64).reshape(k.shape)
    return kf, p, m, "exact", {"losses": (d < 0).sum(axis=1)}


def sign_test(a, b, alternative: str = "two-sided") -> TestResult:
    """Exact binomial sign test: k = #(b > a) of m = #(b ≠ a) non-zero
    differences, H0 p = 1/2.  ``statistic`` is k.  With no non-zero difference
    the null distribution is degenerate and p = 1."""
    return _run_paired(_sign_core, a, b, alternative=check_alternative(alternative))


# ------------------------------------------------------- rank-sum (unpaired)

def _ranksum_core(A, B, alternative):
    rows = A.shape[0]
    n_a, n_b = A.shape[1], B.shape[1]
    n1, n2 = n_b, n_a                      # x = b, y = a
    if n1 == 0 or n2 == 0:
        return np.full(rows, np.nan), np.full(rows, np.nan), n1 + n2, "none", {}
    xy = np.concatenate([B, A], axis=1)
    ranks, tie = average_ranks(xy)
    R1 = ranks[:, :n1].sum(axis=1)
    U1 = R1 - n1 * (n1 + 1) / 2.0
    U2 = n1 * n2 - U1
    if alternative == "greater":
        U, f = U1, 1.0
    elif alternative == "less":
        U, f = U2, 1.0
    else:
        U, f = np.maximum(U1, U2), 2.0
    p = np.empty(rows)
    method = np.empty(rows, dtype=object)
    ties = tie > 0
    if n1 > 8 and n2 > 8:
        exact = np.zeros(rows, dtype=bool)
    else:
        exact = ~ties
    if exact.any():
        idx = np.flatnonzero(exact)
        counts = rank_sum_counts(n1, n2)
        tail = np.cumsum(counts[::-1])[::-1] / dist.comb(n1 + n2, n1)
        u = U[idx].astype(np.int64)
        p[idx] = tail[np.clip(u, 0, tail.size - 1)]
        method[idx] = "exact"
    asym = ~exact
    if asym.any():
        idx = np.flatnonzero(asym)
        nn = n1 + n2
        mu = n1 * n2 / 2.0
        with np.errstate(divide="ignore", invalid="ignore"):
            s = np.sqrt(n1 * n2 / 12.0 * ((nn + 1) - tie[idx] / (nn * (nn - 1))))
            z = (U[idx] - mu - 0.5) / s
        p[idx] = dist.np_ndtr(-z)
        method[idx] = "asymptotic"
    p = np.clip(p * f, 0.0, 1.0)
    return U1, p, n1 + n2, method, {}


def ranksum(a, b, alternative: str = "two-sided") -> TestResult:
    """Wilcoxon rank-sum / Mann–Whitney U test of sample b against sample a
    (unpaired; ``scipy.stats.mannwhitneyu(b, a)``).  ``statistic`` is U of b.

    a: (..., n1), b: (..., n2) with equal leading shapes (broadcast).
    """
    alternative = check_alternative(alternative)
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    lead = np.broadcast_shapes(a.shape[:-1], b.shape[:-1])
    a = np.broadcast_to(a, lead + a.shape[-1:])
    b = np.broadcast_to(b, lead + b.shape[-1:])
    A = a.reshape(-1, a.shape[-1])
    B = b.reshape(-1, b.shape[-1])
    rows = A.shape[0]
    dirty = np.isnan(A).any(axis=1) | np.isnan(B).any(axis=1)
    stat = np.full(rows, np.nan)
    pval = np.full(rows, np.nan)
    used = np.zeros(rows, dtype=np.int64)
    meth = np.empty(rows, dtype=object)
    clean = np.flatnonzero(~dirty)
    if clean.size:
        s, p, nn, m, _ = _ranksum_core(A[clean], B[clean], alternative)
        stat[clean], pval[clean], used[clean], meth[clean] = s, p, nn, m
    for i in np.flatnonzero(dirty):
        ai = A[i][~np.isnan(A[i])][None, :]
        bi = B[i][~np.isnan(B[i])][None, :]
        s, p, nn, m, _ = _ranksum_core(ai, bi, alternative)
        stat[i], pval[i], used[i], meth[i] = s[0], p[0], nn, m if isinstance(m, str) else m[0]
    return TestResult(stat.reshape(lead), pval.reshape(lead), used.reshape(lead), meth.reshape(lead))


# ------------------------------------------------ resampling tests (paired)

# Relative tolerance when comparing a resampled statistic with the observed
# one: sums of the same differences in another order may differ in the last
# bits (BLAS blocking), so values within 1e-9 of Σ|d| count as equal.
RESAMPLING_RTOL = 1e-9

# Memory bounds: elements of one block of resampled statistics, and of one
# block of sign/count matrices (kept small enough to stay in cache).
_OUT_BLOCK = 1 << 21
_SAMPLE_BLOCK = 1 << 17

# Byte -> its 8 signs (bit k set -> -1, else +1), least significant bit first.
_BYTE_SIGNS = 1.0 - 2.0 * np.unpackbits(
    np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little").astype(np.float64)


def _signs_from_words(words: np.ndarray, count: int, n: int) -> np.ndarray:
    """``count`` × ``n`` matrix of ±1 from ``count`` × w little-endian 64-bit
    words (bit i of sample j -> topic i)."""
    by = np.ascontiguousarray(words, dtype="<u8").view(np.uint8).reshape(count, -1)
    signs = np.take(_BYTE_SIGNS, by, axis=0).reshape(count, -1)
    return signs[:, :n]


def _sample_block(n: int, rows: int, total: int) -> int:
    per_cache = _SAMPLE_BLOCK // max(n, 1)
    per_out = _OUT_BLOCK // max(min(rows, 4096), 1)
    return int(max(1, min(total, per_cache, per_out)))


def _resampled_counts(D, obs, tol, alternative, blocks):
    """Per row of D (rows × n), how many resampled statistics M @ d (for the
    sample blocks M, b × n, yielded by ``blocks``) are at least as extreme as
    ``obs`` (two-sided: |T*| ≥ |T| − tol)."""
    rows = D.shape[0]
    counts = np.zeros(rows, dtype=np.int64)
    DT = np.ascontiguousarray(D.T)
    chunk = 4096
    if alternative == "two-sided":
        thr = np.abs(obs) - tol
    elif alternative == "greater":
        thr = obs - tol
    else:
        thr = obs + tol
    with single_thread():
        _accumulate(DT, thr, alternative, blocks, counts, chunk)
    return counts


def _accumulate(DT, thr, alternative, blocks, counts, chunk):
    rows = DT.shape[1]
    for M in blocks:
        for lo in range(0, rows, chunk):
            hi = min(rows, lo + chunk)
            T = M @ DT[:, lo:hi]
            if alternative == "two-sided":
                np.abs(T, out=T)
                counts[lo:hi] += (T >= thr[lo:hi]).sum(axis=0)
            elif alternative == "greater":
                counts[lo:hi] += (T >= thr[lo:hi]).sum(axis=0)
            else:
                counts[lo:hi] += (T <= thr[lo:hi]).sum(axis=0)


def randomization(a, b, n_resamples: int = 100_000, seed: int = 42,
                  alternative: str = "two-sided", exact: bool | None = None) -> TestResult:
    """Paired randomization (sign-flip permutation) test of the mean of
    d = b − a.

    Under H0 each difference is equally likely to have either sign.  When
    2^n ≤ ``n_resamples`` (or ``exact=True``) all 2^n sign patterns are
    enumerated and p = #(at least as extreme) / 2^n; otherwise ``n_resamples``
    random patterns from ``numpy.random.default_rng(seed)`` are drawn and
    p = (count + 1) / (B + 1).  Two-sided "as extreme" is |T*| ≥ |T|.
    The same sign patterns are used for every row (common random numbers), so a
    pair gets the same p whatever other pairs are tested with it.
    NaN pairs contribute a zero difference (they are omitted; ``n`` counts the
    rest).  ``statistic`` is the mean difference over the used pairs.
    """
    alternative = check_alternative(alternative)
    a, b = _as_pair(a, b)
    lead = a.shape[:-1]
    n = a.shape[-1]
    d = (b - a).reshape(-1, n)
    used = (~np.isnan(d)).sum(axis=1)
    D = np.where(np.isnan(d), 0.0, d)
    rows = D.shape[0]
    obs = D.sum(axis=1)
    tol = RESAMPLING_RTOL * np.abs(D).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(used > 0, obs / np.maximum(used, 1), np.nan)
    if exact is None:
        exact = n <= 62 and (1 << n) <= n_resamples
    if exact:
        total = 1 << n
        step = _sample_block(n, rows, total)

        def blocks():
            for lo in range(0, total, step):
                codes = np.arange(lo, min(total, lo + step), dtype=np.uint64)
                yield _signs_from_words(codes[:, None], codes.size, n)

        counts = _resampled_counts(D, obs, tol, alternative, blocks())
        p = counts / float(total)
        method = "exact"
    else:
        rng = np.random.default_rng(seed)
        step = _sample_block(n, rows, n_resamples)
        words = (n + 63) // 64

        def blocks():
            # whole 64-bit words per sample from the raw stream: the signs of
            # sample j do not depend on the block size
            for lo in range(0, n_resamples, step):
                k = min(step, n_resamples - lo)
                raw = rng.bit_generator.random_raw(k * words).reshape(k, words)
                yield _signs_from_words(raw, k, n)

        counts = _resampled_counts(D, obs, tol, alternative, blocks())
        p = (counts + 1.0) / (n_resamples + 1.0)
        method = "monte-carlo"
    p = np.where(used > 0, p, 1.0)
    meth = np.full(rows, method, dtype=object)
    return TestResult(mean.reshape(lead), p.reshape(lead), used.reshape(lead),
                      meth.reshape(lead), {"count": counts.reshape(lead)})


def _bootstrap_counts(rng: np.random.Generator, count: int, n: int) -> np.ndarray:
    """``count`` × ``n`` matrix: how often each topic is drawn in a resample."""
    idx = rng.integers(0, n, size=(count, n), dtype=np.int64)
    idx += (np.arange(count, dtype=np.int64) * n)[:, None]
    return np.bincount(idx.ravel(), minlength=count * n).reshape(count, n).astype(np.float64)


def bootstrap_shift(a, b, n_resamples: int = 100_000, seed: int = 42,
                    alternative: str = "two-sided") -> TestResult:
    """Paired bootstrap test of the mean difference, shift method.

    The differences d = b − a are shifted to mean zero (d − d̄) so that H0
    holds; B resamples of n topics with replacement give T* = mean of the
    shifted differences; p = (#(T* at least as extreme as d̄) + 1) / (B + 1),
    two-sided |T*| ≥ |d̄|.  Topic resamples come from
    ``numpy.random.default_rng(seed)`` and are shared by all rows.  Rows with
    NaN are resampled over their own complete pairs.
    """
    alternative = check_alternative(alternative)
    a, b = _as_pair(a, b)
    lead = a.shape[:-1]
    n = a.shape[-1]
    d = (b - a).reshape(-1, n)
    rows = d.shape[0]
    dirty = np.isnan(d).any(axis=1)
    p = np.full(rows, np.nan)
    stat = np.full(rows, np.nan)
    used = (~np.isnan(d)).sum(axis=1)
    counts_out = np.zeros(rows, dtype=np.int64)

    def run(Dsub, nn):
        mean = Dsub.mean(axis=1)
        shifted = Dsub - mean[:, None]
        # compare sums: T*·n against d̄·n
        obs = mean * nn
        tol = RESAMPLING_RTOL * np.abs(Dsub).sum(axis=1)
        rng = np.random.default_rng(seed)
        step = _sample_block(nn, Dsub.shape[0], n_resamples)

        def blocks():
            for lo in range(0, n_resamples, step):
                yield _bootstrap_counts(rng, min(step, n_resamples - lo), nn)

        c = _resampled_counts(shifted, obs, tol, alternative, blocks())
        return mean, (c + 1.0) / (n_resamples + 1.0), c

    clean = np.flatnonzero(~dirty)
    if clean.size and n > 0:
        stat[clean], p[clean], counts_out[clean] = run(d[clean], n)
    for i in np.flatnonzero(dirty):
        keep = ~np.isnan(d[i])
        if keep.sum() == 0:
            continue
        m_, p_, c_ = run(d[i:i + 1, keep], int(keep.sum()))
        stat[i], p[i], counts_out[i] = m_[0], p_[0], c_[0]
    meth = np.full(rows, "monte-carlo", dtype=object)
    return TestResult(stat.reshape(lead), p.reshape(lead), used.reshape(lead),
                      meth.reshape(lead), {"count": counts_out.reshape(lead)})
