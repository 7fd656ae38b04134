"""Estimation against RRreg's closed forms (RRuni_models.R), boundaries and intervals.

RRreg's moment standard errors divide by n - 1; ours are the Fisher-information SEs with
n (documented choice), so RRreg's SE = ours * sqrt(n / (n - 1)). The comparisons below
use RRreg's formulas written out, with that factor.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpdesk.errors import EstimationError
from dpdesk.mechanisms import rr

COIN = rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)


def rrreg_se(se_n_minus_1, n):
    """Convert an RRreg (n - 1) SE to ours (n)."""
    return se_n_minus_1 * math.sqrt((n - 1) / n)


def test_coin_example_from_the_seed_notes():
    # 75% "yes" under the coin design: 1/4 + s/2 = 3/4 gives s = 1
    est = rr.estimate(COIN, [25, 75])
    assert est.prevalence == pytest.approx(1.0, abs=1e-12)
    assert est.ci[1] == 1.0


@pytest.mark.parametrize("name,params,lam_formula", [
    ("warner", dict(p=0.7), lambda lam: ((lam + 0.7 - 1) / (2 * 0.7 - 1), 2 * 0.7 - 1)),
    ("crosswise", dict(p=0.25), lambda lam: ((lam + 0.25 - 1) / (2 * 0.25 - 1), 2 * 0.25 - 1)),
    ("triangular", dict(p=0.25), lambda lam: (1 - (1 - lam) / (1 - 0.25), 1 - 0.25)),
    ("unrelated", dict(p_sensitive=0.7, q=0.3), lambda lam: ((lam - 0.3 * 0.3) / 0.7, 0.7)),
    ("mangat", dict(p=0.8), lambda lam: ((lam - 1 + 0.8) / 0.8, 0.8)),
    ("kuk", dict(p1=0.7, p2=0.3), lambda lam: ((lam - 0.3) / (0.7 - 0.3), 0.4)),
    ("forced", dict(p_truth=0.6, p_yes=0.3, p_no=0.1), lambda lam: ((lam - 0.3) / 0.6, 0.6)),
])
def test_one_group_designs_match_rrreg(name, params, lam_formula):
    d = rr.design(name, **params)
    n, y = 800, 470
    lam = y / n
    pi, slope = lam_formula(lam)
    se_rrreg = math.sqrt(lam * (1 - lam) / ((n - 1) * slope**2))
    est = rr.estimate(d, [n - y, y])
    assert 0 < pi < 1
    assert est.prevalence == pytest.approx(pi, abs=1e-12)
    assert est.se == pytest.approx(rrreg_se(se_rrreg, n), rel=1e-10)
    assert est.n == n
    assert "moment" in est.method


def test_wald_interval_is_estimate_plus_minus_z_se():
    est = rr.estimate(rr.design("warner", p=0.7), [420, 380], ci="wald", confidence=0.9)
    z = 1.6448536269514722
    assert est.ci == pytest.approx((est.prevalence - z * est.se, est.prevalence + z * est.se))


def test_sld_matches_rrreg():
    p1, p2 = 0.3, 0.7
    n1, n2, y1, y2 = 1000, 1000, 730, 450  # pi = 0.3, t = 0.8 exactly
    l1, l2 = y1 / n1, y2 / n2
    pi = ((l2 - l1) + (p2 - p1)) / (p2 - p1)
    t = (l2 * (1 - p1) - l1 * (1 - p2)) / ((l2 - l1) + (p2 - p1))
    pi_se = math.sqrt(l1 * (1 - l1) / ((n1 - 1) * (p1 - p2) ** 2) + l2 * (1 - l2) / ((n2 - 1) * (p2 - p1) ** 2))
    t_se = math.sqrt(
        l1 * (1 - l1) / (n1 - 1) * (((p1 - p2) * (p2 + l2 - 1)) / (p1 - p2 + l1 - l2) ** 2) ** 2
        + l2 * (1 - l2) / (n2 - 1) * (((p1 - p2) * (p1 + l1 - 1)) / (p1 - p2 + l1 - l2) ** 2) ** 2
    )
    est = rr.estimate(rr.design("sld", p1=p1, p2=p2), [[n1 - y1, y1], [n2 - y2, y2]])
    assert est.prevalence == pytest.approx(pi, abs=1e-12) and pi == pytest.approx(0.3)
    assert est.extra["t"][0] == pytest.approx(t, abs=1e-12) and t == pytest.approx(0.8)
    assert est.se == pytest.approx(rrreg_se(pi_se, 1000), rel=1e-9)
    assert est.extra["t"][1] == pytest.approx(rrreg_se(t_se, 1000), rel=1e-9)
    assert est.n == 2000


def test_cdm_matches_rrreg():
    p1, p2 = 0.3, 0.7
    n1, n2, y1, y2 = 600, 600, 228, 372  # pi = 0.2, beta = 0.6, gamma = 0.2
    l1, l2 = y1 / n1, y2 / n2
    pi = (p2 * l1 - p1 * l2) / (p2 - p1)
    beta = (l2 - l1) / (p2 - p1)
    gamma = 1 + ((p2 - 1) * l1 + (1 - p1) * l2) / (p1 - p2)
    v1, v2 = l1 * (1 - l1) / n1, l2 * (1 - l2) / n2  # with n: our choice
    pi_se = math.sqrt((p1**2 * v2 + p2**2 * v1) / (p1 - p2) ** 2)
    beta_se = math.sqrt((v2 + v1) / (p1 - p2) ** 2)
    gamma_se = math.sqrt(((p2 - 1) ** 2 * v1 + (1 - p1) ** 2 * v2) / (p1 - p2) ** 2)
    est = rr.estimate(rr.design("cdm", p1=p1, p2=p2), [[n1 - y1, y1], [n2 - y2, y2]])
    assert (est.prevalence, est.extra["beta"][0], est.extra["gamma"][0]) == pytest.approx((pi, beta, gamma), abs=1e-12)
    assert (pi, beta, gamma) == pytest.approx((0.2, 0.6, 0.2))
    assert est.se == pytest.approx(pi_se, rel=1e-9)
    assert est.extra["beta"][1] == pytest.approx(beta_se, rel=1e-9)
    assert est.extra["gamma"][1] == pytest.approx(gamma_se, rel=1e-9)


def test_unrelated_unknown_matches_rrreg():
    p1, p2 = 0.3, 0.7
    n1, n2, y1, y2 = 500, 400, 190, 120
    l1, l2 = y1 / n1, y2 / n2
    pi = (l1 * (1 - p2) - l2 * (1 - p1)) / (p1 - p2)
    piuq = (p2 * l1 - p1 * l2) / (p2 - p1)
    v1, v2 = l1 * (1 - l1) / n1, l2 * (1 - l2) / n2
    pi_se = math.sqrt((v1 * (1 - p2) ** 2 + v2 * (1 - p1) ** 2) / (p1 - p2) ** 2)
    uq_se = math.sqrt((p2**2 * v1 + p1**2 * v2) / (p1 - p2) ** 2)
    est = rr.estimate(rr.design("unrelated_unknown", p1=p1, p2=p2), [[n1 - y1, y1], [n2 - y2, y2]])
    assert est.prevalence == pytest.approx(pi, abs=1e-12)
    assert est.extra["pi_uq"][0] == pytest.approx(piuq, abs=1e-12)
    assert est.se == pytest.approx(pi_se, rel=1e-9)
    assert est.extra["pi_uq"][1] == pytest.approx(uq_se, rel=1e-9)


def test_forced_multi_matches_rrreg_fr():
    p_forced = [0.1, 0.05, 0.15]
    t = 0.7
    counts = np.array([250, 300, 450])
    n = counts.sum()
    lam = counts / n
    pi = (lam - np.array(p_forced)) / t
    se = np.sqrt(lam * (1 - lam) / (t**2 * n))
    est = rr.estimate(rr.design("forced_multi", p_truth=t, p_forced=p_forced), counts)
    np.testing.assert_allclose(est.frequencies, pi, atol=1e-12)
    np.testing.assert_allclose(est.se, se, rtol=1e-9)
    assert est.frequencies.sum() == pytest.approx(1.0)
    assert est.ci.shape == (3, 2)


def test_custom_matches_van_den_hout_van_der_heijden():
    P = np.array([[0.8, 0.1, 0.1], [0.1, 0.7, 0.2], [0.1, 0.2, 0.7]])
    counts = np.array([300, 350, 350])
    n = counts.sum()
    lam = counts / n
    Pinv = np.linalg.inv(P)
    pi = Pinv @ lam
    cov = Pinv @ (np.diag(lam) - np.outer(lam, lam)) @ Pinv.T / n
    est = rr.estimate(rr.design("custom", matrix=P.tolist()), counts)
    np.testing.assert_allclose(est.frequencies, pi, atol=1e-10)
    np.testing.assert_allclose(est.se, np.sqrt(np.diag(cov)), rtol=1e-8)


def test_krr_unbiased_estimate():
    eps, k = 1.0, 4
    d = rr.design("krr", categories=k, epsilon=eps)
    counts = np.array([400, 300, 200, 100])
    keep, other = math.exp(eps) / (math.exp(eps) + k - 1), 1 / (math.exp(eps) + k - 1)
    expected = (counts / counts.sum() - other) / (keep - other)
    np.testing.assert_allclose(rr.estimate(d, counts).unconstrained, expected, atol=1e-12)


def test_unary_per_category_estimate():
    d = rr.design("unary", categories=["bus", "bike", "car"], epsilon=2.0, variant="oue")
    p, q = 0.5, 1 / (math.exp(2.0) + 1)
    ticked = np.array([300, 150, 80])
    n = 600
    est = rr.estimate(d, np.column_stack([n - ticked, ticked]))
    expected = np.clip((ticked / n - q) / (p - q), 0, 1)
    np.testing.assert_allclose(est.frequencies, expected, atol=1e-12)
    assert est.n == n


def test_moment_outside_gives_boundary_ml():
    est = rr.estimate(rr.design("warner", p=0.7), [100, 900])  # moment estimate (0.9 - 0.3) / 0.4 = 1.5
    assert est.prevalence == 1.0
    assert "boundary" in est.method
    assert est.unconstrained == pytest.approx(1.5)
    est = rr.estimate(COIN, [90, 10])
    assert est.prevalence == 0.0 and est.ci[0] == 0.0


def _grid_max(loglik, grid):
    values = [loglik(g) for g in grid]
    return grid[int(np.argmax(values))]


def test_two_group_boundary_ml_beats_a_grid():
    d = rr.design("sld", p1=0.3, p2=0.7)
    counts = [[500, 500], [300, 700]]  # moment estimate pi = 1.5
    est = rr.estimate(d, counts)
    from dpdesk.mechanisms.rr.estimate import _two_group_model

    model = _two_group_model(d)
    y, n = np.array([500.0, 700.0]), np.array([1000.0, 1000.0])
    best = max((model.loglik(y, n, p, t), p, t) for p in np.linspace(0, 1, 201) for t in np.linspace(0, 1, 201))
    assert est.loglik >= best[0] - 1e-9
    assert est.prevalence == pytest.approx(best[1], abs=0.01)
    assert 0 <= est.extra["t"][0] <= 1


def test_kuk_with_several_draws_is_ml_with_goodness_of_fit():
    d = rr.design("kuk", p1=0.7, p2=0.3, draws=3)
    expected = (d.matrix @ np.array([0.6, 0.4])) * 10000
    est = rr.estimate(d, np.round(expected))
    assert est.prevalence == pytest.approx(0.4, abs=1e-3)
    assert est.fit is not None and est.fit.df == 2 and est.fit.p_value > 0.5
    from dpdesk.mechanisms.rr.likelihood import OneParameter

    model = OneParameter.from_matrices(d.matrices)
    counts = (np.array([100, 200, 300, 100]),)
    ml = rr.estimate(d, counts[0]).prevalence
    grid = np.linspace(0, 1, 100001)
    assert ml == pytest.approx(_grid_max(lambda p: model.loglik(counts, p), grid), abs=2e-5)


def test_default_interval_properties_and_bootstrap_reproducible():
    d = rr.design("crosswise", p=0.25)
    a = rr.estimate(d, [300, 200], ci="bootstrap", rng=np.random.default_rng(5))
    b = rr.estimate(d, [300, 200], ci="bootstrap", rng=np.random.default_rng(5))
    assert a.ci == b.ci
    assert a.ci[0] <= a.prevalence <= a.ci[1]


def test_default_interval_is_the_chi_square_interval_far_from_the_boundary():
    d = rr.design("warner", p=0.8)
    est = rr.estimate(d, [5000, 5000])
    from dpdesk.mechanisms.rr.likelihood import OneParameter

    model = OneParameter.from_matrices(d.matrices)
    counts = (np.array([5000, 5000]),)
    for end in est.ci:
        lr = 2 * (model.loglik(counts, est.prevalence) - model.loglik(counts, end))
        assert lr == pytest.approx(3.841458820694124, abs=1e-4)


def test_feldman_cousins_critical_values():
    from dpdesk.mechanisms.rr.intervals import critical_value

    assert critical_value(math.inf, math.inf, 0.95) == pytest.approx(3.841458820694124)
    assert critical_value(0.0, math.inf, 0.95) == pytest.approx(2.705543454095404, rel=1e-9)
    assert critical_value(math.inf, 0.0, 0.95) == pytest.approx(2.705543454095404, rel=1e-9)
    mid = critical_value(0.5, math.inf, 0.95)
    assert 2.70 < mid < 3.85


@pytest.mark.parametrize("counts,message", [
    ([1, 2, 3], "2 counts"),
    ([-1, 5], "at least 0"),
    ([1.5, 2], "whole numbers"),
    ([0, 0], "no answers"),
    ("ab", "2 counts"),
])
def test_bad_counts_are_refused_in_words(counts, message):
    with pytest.raises(EstimationError, match=message):
        rr.estimate(COIN, counts)


def test_bad_options_and_groups():
    with pytest.raises(EstimationError, match="confidence"):
        rr.estimate(COIN, [5, 5], confidence=95)
    with pytest.raises(EstimationError, match="ci = 'profile'"):
        rr.estimate(COIN, [5, 5], ci="profile")
    with pytest.raises(EstimationError, match="2 groups"):
        rr.estimate(rr.design("sld", p1=0.3, p2=0.7), [5, 5])
    with pytest.raises(EstimationError, match="group 2"):
        rr.estimate(rr.design("sld", p1=0.3, p2=0.7), [[5, 5], [0, 0]])


def test_to_dict_is_json_able():
    import json

    for d, c in [(COIN, [30, 70]), (rr.design("sld", p1=0.3, p2=0.7), [[40, 60], [60, 40]]),
                 (rr.design("krr", categories=3, epsilon=1), [10, 20, 30])]:
        json.dumps(rr.estimate(d, c).to_dict())


binary_designs = st.sampled_from([
    COIN, rr.design("warner", p=0.7), rr.design("crosswise", p=0.2), rr.design("triangular", p=0.3),
    rr.design("mangat", p=0.7), rr.design("kuk", p1=0.8, p2=0.2, draws=2),
])


@settings(max_examples=30, deadline=None)
@given(d=binary_designs, data=st.data())
def test_any_counts_give_an_estimate_inside_its_interval_inside_0_1(d, data):
    counts = data.draw(st.lists(st.integers(0, 5000), min_size=len(d.responses), max_size=len(d.responses))
                       .filter(lambda c: sum(c) > 0))
    est = rr.estimate(d, counts)
    assert 0 <= est.ci[0] <= est.prevalence <= est.ci[1] <= 1


@settings(max_examples=20, deadline=None)
@given(name=st.sampled_from(["sld", "cdm", "unrelated_unknown"]),
       c=st.lists(st.integers(0, 2000), min_size=4, max_size=4).filter(lambda c: c[0] + c[1] > 0 and c[2] + c[3] > 0))
def test_two_group_estimates_stay_in_the_parameter_space(name, c):
    est = rr.estimate(rr.design(name, p1=0.2, p2=0.75), [c[:2], c[2:]])
    assert 0 <= est.ci[0] <= est.prevalence + 1e-9 and est.prevalence <= est.ci[1] + 1e-9 <= 1 + 1e-9
    for value, _se in est.extra.values():
        assert math.isnan(value) or -1e-9 <= value <= 1 + 1e-9


@settings(max_examples=30, deadline=None)
@given(c=st.lists(st.integers(0, 500), min_size=3, max_size=3).filter(lambda c: sum(c) > 0))
def test_categorical_estimates_stay_on_the_simplex(c):
    est = rr.estimate(rr.design("forced_multi", p_truth=0.6, p_forced=[0.2, 0.1, 0.1]), c)
    assert np.all(est.frequencies >= 0) and est.frequencies.sum() == pytest.approx(1.0)
    assert np.all(est.ci[:, 0] <= est.frequencies + 1e-9) and np.all(est.frequencies <= est.ci[:, 1] + 1e-9)


def test_two_group_interval_keeps_coverage_with_the_nuisance_on_its_boundary():
    """Exact coverage of the SLD interval at n = 2 x 16 with every carrier honest (t = 1).

    Summing the binomial pmf over all 21 x 21 outcomes gives the exact coverage. With the
    one-dimensional calibration it was about 86% at prevalence 0; the two-dimensional
    calibration (profile construction) keeps it near 95% (95.2% at 0, 94.7% at 0.1). The band
    is wide because at n = 16 per group the discreteness of the binomial moves coverage by a few points.
    """
    from scipy.stats import binom

    d = rr.design("sld", p1=0.3, p2=0.7)
    m = 16
    cis = {(a, b): rr.estimate(d, [[m - a, a], [m - b, b]]).ci for a in range(m + 1) for b in range(m + 1)}
    for pi in (0.0, 0.1):
        lam1, lam2 = pi + (1 - pi) * 0.7, pi + (1 - pi) * 0.3
        p1, p2 = binom.pmf(range(m + 1), m, lam1), binom.pmf(range(m + 1), m, lam2)
        cover = sum(p1[a] * p2[b] for (a, b), (lo, hi) in cis.items() if lo <= pi <= hi)
        assert 0.92 <= cover <= 0.985, (pi, cover)
