"""Multiplying every survey weight by a constant changes nothing: estimates, SEs, intervals, design effects.

The design-based estimate is a ratio of weighted sums, its linearization variance and the
with-replacement simple-random-sample variance behind the design effect are both
unchanged by the weights' scale, so every number must agree to rounding (a tolerance of
1e-9 relative; the intervals' root finding to 1e-7 absolute). Regression for the bug where
weights x 1.01 gave a design effect of 116 and an interval of 0 to 100%.
"""

import math

import numpy as np
import pytest

from dpdesk.mechanisms import rr

SCALES = [0.01, 1.01, 100.0, "mean1"]


def _sample(seed=7, H=4, psus=8, per=25):
    rng = np.random.default_rng(seed)
    strata = np.repeat(np.arange(H), psus * per)
    clusters = np.tile(np.repeat(np.arange(psus), per), H)
    effect = rng.normal(0, 0.6, H * psus)[strata * psus + clusters]
    n = len(strata)
    state = rng.random(n) < 1 / (1 + np.exp(-(-0.8 + effect)))
    weights = rng.uniform(0.5, 2.0, n) * (strata + 1) * 30     # sum far above n: the fpc trap
    by = rng.choice(["a", "b", "c"], n, p=[0.5, 0.3, 0.2])
    return rng, state, weights, strata, clusters, by


def _scaled(w, scale):
    return w / w.mean() if scale == "mean1" else w * scale


def _same(a, b, rtol=1e-9):
    np.testing.assert_allclose(a.prevalence, b.prevalence, rtol=rtol, atol=1e-12)
    np.testing.assert_allclose(a.unconstrained, b.unconstrained, rtol=rtol, atol=1e-12)
    np.testing.assert_allclose(a.se, b.se, rtol=rtol)
    np.testing.assert_allclose(a.deff, b.deff, rtol=rtol)
    np.testing.assert_allclose(a.n_effective, b.n_effective, rtol=rtol)
    np.testing.assert_allclose(np.asarray(a.ci, float), np.asarray(b.ci, float), atol=1e-7)
    for k in a.extra:
        np.testing.assert_allclose(a.extra[k], b.extra[k], rtol=rtol, atol=1e-12)


#: Two-group designs are fitted by an iterative optimizer, so rescaled weights agree to its convergence
#: tolerance rather than to rounding (SciPy 1.11, the floor, stops about 1.5e-8 apart; newer ones 1e-12).
ITERATIVE = 1e-6


def _responses(d, state, rng):
    probs = d.matrix[:, state.astype(int)]
    u = rng.random(len(state))
    return (u[:, None] > np.cumsum(probs, axis=0).T).sum(axis=1)


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("ci", ["default", "t"])
def test_one_group_yes_no_is_unchanged_by_the_weights_scale(scale, ci):
    rng, state, w, s, c, _ = _sample()
    d = rr.design("forced", p_truth=0.7, p_yes=0.15, p_no=0.15)
    z = _responses(d, state, rng)
    base = rr.survey_estimate(d, z, weights=w, strata=s, clusters=c, ci=ci)
    other = rr.survey_estimate(d, z, weights=_scaled(w, scale), strata=s, clusters=c, ci=ci)
    _same(base, other)
    assert 1 < base.deff < 5                       # a real design effect, not the 1 - n / sum(w) artefact
    assert base.ci[1] - base.ci[0] < 0.3


@pytest.mark.parametrize("scale", SCALES)
def test_weights_only_the_interval_does_not_depend_on_their_sum(scale):
    rng, state, w, *_ = _sample(seed=11)
    d = rr.design("warner", p=0.7)
    z = _responses(d, state, rng)
    _same(rr.survey_estimate(d, z, weights=w), rr.survey_estimate(d, z, weights=_scaled(w, scale)))


@pytest.mark.parametrize("scale", SCALES)
def test_categories_are_unchanged_by_the_weights_scale(scale):
    rng, state, w, s, c, _ = _sample(seed=3)
    d = rr.design("forced_multi", p_truth=0.6, p_forced=[0.2, 0.1, 0.1])
    latent = np.where(state, 2, rng.integers(0, 2, len(state)))
    probs = d.matrix[:, latent]
    z = (rng.random(len(state))[:, None] > np.cumsum(probs, axis=0).T).sum(axis=1)
    base = rr.survey_estimate(d, z, weights=w, strata=s, clusters=c)
    other = rr.survey_estimate(d, z, weights=_scaled(w, scale), strata=s, clusters=c)
    _same(base, other)
    for cat in d.categories:
        a, b = base.frequencies[cat], other.frequencies[cat]
        assert (a.se, a.deff) == pytest.approx((b.se, b.deff), rel=1e-9)
        assert a.ci == pytest.approx(b.ci, abs=1e-7)


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("name", ["sld", "cdm"])
def test_two_group_designs_are_unchanged_by_the_weights_scale(scale, name):
    rng, state, w, s, c, _ = _sample(seed=5)
    d = rr.design(name, p1=0.3, p2=0.7)
    g = rng.integers(1, 3, len(state))
    honest = rng.random(len(state)) < 0.8
    yes_if_not = rng.random(len(state)) < np.where(g == 1, 0.7, 0.3)
    z = np.where(state, honest, yes_if_not).astype(int) if name == "sld" else \
        np.where(state, rng.random(len(state)) < 0.9, yes_if_not).astype(int)
    base = rr.survey_estimate(d, z, weights=w, strata=s, clusters=c, groups=g)
    _same(base, rr.survey_estimate(d, z, weights=_scaled(w, scale), strata=s, clusters=c, groups=g), ITERATIVE)


@pytest.mark.parametrize("scale", SCALES)
def test_domains_and_their_differences_are_unchanged_by_the_weights_scale(scale):
    rng, state, w, s, c, by = _sample(seed=13)
    d = rr.design("forced", p_truth=0.7, p_yes=0.15, p_no=0.15)
    z = _responses(d, state, rng)
    base = rr.survey_estimate_by(d, z, by, weights=w, strata=s, clusters=c)
    other = rr.survey_estimate_by(d, z, by, weights=_scaled(w, scale), strata=s, clusters=c)
    assert list(base) == list(other)
    for level in base:
        _same(base[level], other[level])
        lo, hi = base[level].ci
        assert hi - lo < 0.5                       # the old bug: a subgroup interval of 0 to 100%
    for key, diff in base.differences.items():
        o = other.differences[key]
        assert (diff.difference, diff.se, diff.t, diff.p_value) == pytest.approx(
            (o.difference, o.se, o.t, o.p_value), rel=1e-9)
        assert tuple(diff.ci) == pytest.approx(tuple(o.ci), abs=1e-7)


def test_unit_weights_still_reduce_to_the_unweighted_estimate_after_rescaling():
    rng, state, *_ = _sample(seed=17)
    d = rr.design("warner", p=0.7)
    z = _responses(d, state, rng)[:400]
    n = len(z)
    today = rr.estimate(d, np.bincount(z, minlength=2))
    for w in (np.ones(n), np.full(n, 37.5)):
        est = rr.survey_estimate(d, z, weights=w)
        assert est.prevalence == pytest.approx(today.prevalence, rel=1e-10)
        assert est.se == pytest.approx(today.se * math.sqrt(n / (n - 1)), rel=1e-9)
        assert est.deff == pytest.approx(1.0, rel=1e-9)
        assert est.ci == pytest.approx(today.ci, abs=1e-7)


@pytest.mark.parametrize("scale", SCALES)
def test_kuk_with_several_cards_is_unchanged_by_the_weights_scale(scale):
    rng, state, w, s, c, _ = _sample(seed=19)
    d = rr.design("kuk", p1=0.7, p2=0.3, draws=3)
    z = rng.binomial(3, np.where(state, 0.7, 0.3))
    base = rr.survey_estimate(d, z, weights=w, strata=s, clusters=c)
    _same(base, rr.survey_estimate(d, z, weights=_scaled(w, scale), strata=s, clusters=c))
