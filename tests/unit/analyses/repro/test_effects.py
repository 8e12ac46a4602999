"""RMSE, nRMSE, ER, Delta RI and the t tests of ipsoeval.analyses.repro.effects
against their formulas (Breuer et al., SIGIR 2020) and scipy; the bootstrap
intervals' coverage on a model whose ER and Delta RI are known."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from ipsoeval.analyses.repro import effects


def _data(n=30, seed=0):
    rng = np.random.default_rng(seed)
    ob = rng.uniform(0, 1, n)
    oa = np.clip(ob + rng.normal(0.1, 0.1, n), 0, 1)
    rb = np.clip(ob + rng.normal(0, 0.05, n), 0, 1)
    ra = np.clip(oa + rng.normal(-0.02, 0.05, n), 0, 1)
    return ob, oa, rb, ra


def test_formulas():
    ob, oa, rb, ra = _data()
    assert effects.rmse(ob, rb) == pytest.approx(math.sqrt(np.mean((ob - rb) ** 2)), abs=1e-15)
    top = math.sqrt(np.mean(np.maximum(ob, 1 - ob) ** 2))
    assert effects.nrmse(ob, rb) == pytest.approx(effects.rmse(ob, rb) / top, abs=1e-15)
    assert effects.er(ob, oa, rb, ra) == pytest.approx(np.mean(ra - rb) / np.mean(oa - ob),
                                                       abs=1e-14)
    ri_o = (oa.mean() - ob.mean()) / ob.mean()
    ri_r = (ra.mean() - rb.mean()) / rb.mean()
    assert effects.dri(ob, oa, rb, ra) == pytest.approx(ri_o - ri_r, abs=1e-14)


def test_t_tests_are_scipys_and_identical_scores_give_one():
    ob, oa, rb, ra = _data()
    t, df, p = effects.ttest(ob, rb, paired=True)
    ref = stats.ttest_rel(ob, rb)
    assert (t, df, p) == (pytest.approx(ref.statistic, abs=1e-13), 29.0,
                          pytest.approx(ref.pvalue, abs=1e-13))
    t, df, p = effects.ttest(ob, rb[:20], paired=False)
    ref = stats.ttest_ind(ob, rb[:20])
    assert p == pytest.approx(ref.pvalue, abs=1e-13) and df == 48.0
    assert effects.ttest(ob, ob.copy(), paired=True)[2] == 1.0


def test_zero_original_effect_gives_repro_evals_inf():
    ob = np.array([0.2, 0.4])
    assert math.isinf(effects.er(ob, ob[::-1], ob, ob + 0.1))


def test_bootstrap_same_seed_same_numbers_and_point_values():
    ob, oa, rb, ra = _data()
    a = effects.bootstrap(ob, oa, rb, ra, paired=True, samples=500, seed=7, alpha=0.05)
    b = effects.bootstrap(ob, oa, rb, ra, paired=True, samples=500, seed=7, alpha=0.05)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    theta, low, high = a
    assert theta[0] == pytest.approx(effects.er(ob, oa, rb, ra), abs=1e-14)
    assert theta[1] == pytest.approx(effects.dri(ob, oa, rb, ra), abs=1e-14)
    assert (low <= theta).all() and (theta <= high).all()


# The model: per topic, the original runs' difference d ~ N(mu, sd^2) with
# mu = 0.5 sd (the original effect is half a standard deviation of the
# differences, the smallest the intervals are meant for), 50 topics; the
# reproduced difference has mean 0.8 mu, so the true ER is 0.8; the
# baselines' means are 0.4, so the true Delta RI is (mu - 0.8 mu) / 0.4; the
# differences of the means are 0 (baseline) and mu - 0.8 mu (advanced), the
# original effect mu.  Each interval must cover its truth at 95% within three
# Monte Carlo standard errors (sqrt(0.95 * 0.05 / 1000) = 0.0069).
# Reproducibility: the reproduced baseline shares the topic effect and its
# difference correlates 0.6 with the original one (paired topics);
# replicability: another 50 topics, independent.
TOPICS, SIMS, EFFECT_SD = 50, 1000, 0.5


def _coverage(paired: bool) -> np.ndarray:
    rng = np.random.default_rng(2020)
    sd = 0.1
    mu = EFFECT_SD * sd
    mu2 = 0.8 * mu
    truth = np.array([mu2 / mu, (mu - mu2) / 0.4, 0.0, mu - mu2, mu])
    hits = np.zeros(5)
    n = TOPICS
    for s in range(SIMS):
        u = rng.normal(0.4, 0.1, n)
        ob = u + rng.normal(0, 0.05, n)
        d = rng.normal(mu, sd, n)
        if paired:
            rb = u + rng.normal(0, 0.05, n)
            d2 = mu2 + 0.6 * (d - mu) + 0.8 * rng.normal(0, sd, n)
        else:
            rb = rng.normal(0.4, 0.1, n) + rng.normal(0, 0.05, n)
            d2 = rng.normal(mu2, sd, n)
        _, low, high = effects.bootstrap(ob, ob + d, rb, rb + d2, paired=paired,
                                         samples=1000, seed=s, alpha=0.05)
        hits += (low <= truth) & (truth <= high)
    return hits / SIMS


@pytest.mark.slow
@pytest.mark.parametrize("paired", [True, False])
def test_bootstrap_intervals_reach_nominal_coverage(paired):
    cover = _coverage(paired)
    se = math.sqrt(0.95 * 0.05 / SIMS)          # Monte Carlo error of a 95% coverage
    print(paired, cover)
    assert (np.abs(cover - 0.95) <= 3 * se).all(), cover


@pytest.mark.parametrize("paired", [True, False])
def test_measures_sharing_topics_share_the_draws(paired):
    rng = np.random.default_rng(4)
    sets = [tuple(rng.random(40) for _ in range(4)) for _ in range(3)]
    many = effects.bootstrap_many(sets, paired=paired, samples=800, seed=5, alpha=0.1)
    for one_set, got in zip(sets, many):
        alone = effects.bootstrap(*one_set, paired=paired, samples=800, seed=5, alpha=0.1)
        for a, b in zip(alone, got):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)
