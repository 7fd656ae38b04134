"""Power, sample size, expected half-width and efficiency of RR designs (closed forms by hand)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import norm

from dpdesk.errors import DesignError, EstimationError
from dpdesk.mechanisms import rr
from dpdesk.mechanisms.rr.planning import sample_size as planning

FORCED = dict(p_truth=2 / 3, p_yes=1 / 6, p_no=1 / 6)


def _rr_forced_se(pi, n, c=2 / 3, d=1 / 6):
    """rr's se.f.rr for "forced-known": information c^2((c pi + d)^-1 + (1 - c pi - d)^-1)."""
    info = c ** 2 * (1 / (c * pi + d) + 1 / (1 - c * pi - d))
    return math.sqrt(1 / info / n)


def test_power_matches_rr_documented_example_by_hand():
    # power.rr.test(p=2/3, p1=1/6, p0=1/6, n=200, presp=.2, presp.null=0, design="forced-known",
    #               sig.level=.01, type="one.sample", alternative="one.sided")
    d = rr.design("forced", **FORCED)
    se, se0 = _rr_forced_se(0.2, 200), _rr_forced_se(0.0, 200)
    threshold = 0.0 + norm.ppf(0.99) * se0
    expected = norm.sf(threshold, loc=0.2, scale=se)
    got = rr.power(d, 200, 0.2, null=0.0, alpha=0.01)
    assert got == pytest.approx(expected, rel=1e-12)
    assert got == pytest.approx(0.98689, abs=1e-5)


def test_power_two_sided_and_less():
    d = rr.design("forced", **FORCED)
    se, se0 = _rr_forced_se(0.3, 150), _rr_forced_se(0.2, 150)
    z = norm.ppf(1 - 0.05 / 2)
    two = norm.cdf(0.2 - z * se0, 0.3, se) + norm.sf(0.2 + z * se0, 0.3, se)
    assert rr.power(d, 150, 0.3, null=0.2, alternative="two-sided") == pytest.approx(two, rel=1e-12)
    se_alt = _rr_forced_se(0.1, 150)
    less = norm.cdf(0.2 - norm.ppf(0.95) * se0, 0.1, se_alt)
    assert rr.power(d, 150, 0.1, null=0.2, alternative="less") == pytest.approx(less, rel=1e-12)
    # at the null the one-sided power is alpha
    assert rr.power(d, 500, 0.2, null=0.2, alpha=0.05) == pytest.approx(0.05, rel=1e-12)


def test_warner_unit_se_and_efficiency_closed_form():
    p, pi = 0.7, 0.3
    d = rr.design("warner", p=p)
    lam = (1 - p) + (2 * p - 1) * pi
    se1 = math.sqrt(lam * (1 - lam)) / abs(2 * p - 1)
    assert planning.unit_se(d, pi) == pytest.approx(se1, rel=1e-12)
    assert rr.efficiency(d, pi) == pytest.approx(pi * (1 - pi) / se1 ** 2, rel=1e-12)
    assert 0 < rr.efficiency(d, pi) < 1
    assert rr.expected_halfwidth(d, 400, pi) == pytest.approx(norm.ppf(0.975) * se1 / 20, rel=1e-12)


def test_required_n_is_smallest_n_reaching_halfwidth():
    d = rr.design("forced", **FORCED)
    for h, pi, conf in [(0.05, 0.2, 0.95), (0.03, 0.1, 0.9), (0.02, 0.5, 0.99)]:
        n = rr.required_n(d, h, pi, confidence=conf)
        se1 = _rr_forced_se(pi, 1)
        assert n == math.ceil((norm.ppf(0.5 + conf / 2) * se1 / h) ** 2)
        assert rr.expected_halfwidth(d, n, pi, confidence=conf) <= h
        assert rr.expected_halfwidth(d, n - 1, pi, confidence=conf) > h


def test_required_n_for_power_is_smallest():
    d = rr.design("forced", **FORCED)
    for alt, pi, null in [("greater", 0.15, 0.05), ("two-sided", 0.3, 0.2), ("less", 0.1, 0.2)]:
        n = rr.required_n_for_power(d, pi, power=0.8, null=null, alternative=alt)
        assert rr.power(d, n, pi, null=null, alternative=alt) >= 0.8
        assert rr.power(d, n - 1, pi, null=null, alternative=alt) < 0.8


def test_two_group_se_equals_moment_estimator_variance():
    """Saturated two-group designs: the Schur SE equals the delta-method SE of the closed-form estimator."""
    pi, p1, p2 = 0.3, 0.2, 0.8
    for share in [(0.5, 0.5), (0.3, 0.7)]:
        n1, n2 = share
        # unrelated-unknown: lambda_g = p_g pi + (1 - p_g) q, pi = ((1-p2) l1 - (1-p1) l2) / (p1 - p2)
        q = 0.4
        l1, l2 = p1 * pi + (1 - p1) * q, p2 * pi + (1 - p2) * q
        var = ((1 - p2) ** 2 * l1 * (1 - l1) / n1 + (1 - p1) ** 2 * l2 * (1 - l2) / n2) / (p1 - p2) ** 2
        d = rr.design("unrelated_unknown", p1=p1, p2=p2)
        assert planning.unit_se(d, pi, share=share, pi_uq=q) == pytest.approx(math.sqrt(var), rel=1e-10)
        # CDM with gamma = 0: lambda_g = pi + beta p_g, pi = (p1 l2 - p2 l1) / (p1 - p2)
        beta = 1 - pi
        l1, l2 = pi + beta * p1, pi + beta * p2
        var = (p1 ** 2 * l2 * (1 - l2) / n2 + p2 ** 2 * l1 * (1 - l1) / n1) / (p1 - p2) ** 2
        d = rr.design("cdm", p1=p1, p2=p2)
        assert planning.unit_se(d, pi, share=share) == pytest.approx(math.sqrt(var), rel=1e-10)
        # SLD with t = 1: lambda_g = (1 - pi)(1 - p_g) + pi t, pi = 1 - (l1 - l2) / (p2 - p1)
        l1, l2 = (1 - pi) * (1 - p1) + pi, (1 - pi) * (1 - p2) + pi
        var = (l1 * (1 - l1) / n1 + l2 * (1 - l2) / n2) / (p2 - p1) ** 2
        d = rr.design("sld", p1=p1, p2=p2)
        assert planning.unit_se(d, pi, share=share) == pytest.approx(math.sqrt(var), rel=1e-10)


def test_two_group_required_n_is_total_and_power_runs():
    d = rr.design("sld", p1=0.2, p2=0.8)
    n = rr.required_n(d, 0.05, 0.3)
    assert rr.expected_halfwidth(d, n, 0.3) <= 0.05 < rr.expected_halfwidth(d, n - 1, 0.3)
    assert 0.05 < rr.power(d, 1000, 0.1, t=0.9) < 1


def test_categorical_and_unary_per_category():
    d = rr.design("krr", categories=3, epsilon=1.0)
    c = np.array([0.2, 0.3, 0.5])
    e = math.e
    keep, other = e / (e + 2), 1 / (e + 2)
    lam = other + (keep - other) * c
    se1 = np.sqrt(lam * (1 - lam)) / (keep - other)
    np.testing.assert_allclose(planning.unit_se(d, c), se1, rtol=1e-9)
    np.testing.assert_allclose(rr.expected_halfwidth(d, 900, c), norm.ppf(0.975) * se1 / 30, rtol=1e-9)
    n = rr.required_n(d, 0.05, c)
    assert np.all(rr.expected_halfwidth(d, n, c) <= 0.05)
    assert np.any(rr.expected_halfwidth(d, n - 1, c) > 0.05)
    pw = rr.power(d, 2000, c, null=0.1)
    assert pw.shape == (3,) and np.all(np.diff(pw) >= 0)
    u = rr.design("unary", categories=["a", "b"], epsilon=1.0)
    bit = rr.design("custom", matrix=u.matrix.tolist())
    np.testing.assert_allclose(planning.unit_se(u, [0.1, 0.4]),
                               [planning.unit_se(bit, 0.1), planning.unit_se(bit, 0.4)], rtol=1e-12)


def test_efficiency_is_at_most_one_and_limits():
    d = rr.design("forced", **FORCED)
    grid = np.linspace(0, 1, 21)
    effs = [rr.efficiency(d, p) for p in grid]
    assert all(0 <= e <= 1 for e in effs)
    assert effs[0] == pytest.approx(0, abs=1e-6)
    tri = rr.design("triangular", p=0.25)
    assert rr.efficiency(tri, 1.0) == pytest.approx(0.75, abs=1e-6)  # limit (1 - p) pi / (p + (1 - p) pi)


@pytest.mark.parametrize("call, error", [
    (lambda d: rr.power(d, 0, 0.2), EstimationError),
    (lambda d: rr.power(d, 100, 1.5), EstimationError),
    (lambda d: rr.power(d, 100, 0.2, alpha=1.0), EstimationError),
    (lambda d: rr.power(d, 100, 0.2, alpha=0), EstimationError),
    (lambda d: rr.power(d, 100, 0.2, null=-0.1), EstimationError),
    (lambda d: rr.power(d, 100, 0.2, alternative="bigger"), EstimationError),
    (lambda d: rr.required_n(d, 0, 0.2), EstimationError),
    (lambda d: rr.required_n(d, -0.1, 0.2), EstimationError),
    (lambda d: rr.required_n(d, 0.05, 0.2, confidence=1.2), EstimationError),
    (lambda d: rr.expected_halfwidth(d, 0.5, 0.2), EstimationError),
    (lambda d: rr.efficiency(d, "x"), EstimationError),
    (lambda d: rr.power(d, 100, 0.2, t=0.9), DesignError),
    (lambda d: rr.required_n_for_power(d, 0.1, null=0.2), EstimationError),
    (lambda d: rr.power("forced", 100, 0.2), DesignError),
])
def test_invalid_inputs_raise_typed_errors(call, error):
    with pytest.raises(error):
        call(rr.design("forced", **FORCED))


def test_invalid_nuisance_and_categories():
    with pytest.raises(DesignError, match="gamma"):
        rr.power(rr.design("cdm", p1=0.2, p2=0.8), 100, 0.6, gamma=0.5)
    with pytest.raises(DesignError, match="share"):
        rr.required_n(rr.design("sld", p1=0.2, p2=0.8), 0.05, 0.2, share=(0.5, 0.6))
    with pytest.raises(EstimationError, match="3 categories"):
        rr.required_n(rr.design("krr", categories=3, epsilon=1), 0.05, 0.2)
    with pytest.raises(EstimationError, match="sum to 1"):
        rr.expected_halfwidth(rr.design("krr", categories=3, epsilon=1), 100, [0.2, 0.2, 0.2])
