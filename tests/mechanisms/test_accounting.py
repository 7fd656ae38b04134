"""The accountant: exact pure sums, the PLD for (epsilon, delta), the planner, refusals."""

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from dpdesk.errors import BudgetError
from dpdesk.mechanisms import accounting as acc
from dpdesk.mechanisms.accounting import Gaussian, Laplace, PureDP


def test_ten_releases_at_a_tenth_spend_exactly_one():
    assert acc.epsilon([Laplace(10)] * 10) == Fraction(1)
    assert acc.epsilon([Laplace("10", 1)] * 10) == 1
    assert acc.epsilon([PureDP(0.1)] * 10) == Fraction(1)
    assert Laplace(0.3).epsilon == Fraction(10, 3)
    assert acc.epsilon([Laplace(3, sensitivity=2), Laplace(Fraction(1, 3))]) == Fraction(2, 3) + 3
    assert acc.epsilon([]) == 0 and acc.epsilon([], 1e-6) == 0
    assert isinstance(acc.epsilon([Laplace(7)] * 3), Fraction)


def test_events_are_frozen_and_normalised():
    e = Laplace(0.1)
    assert e == Laplace("0.1") == Laplace(Fraction(1, 10))
    with pytest.raises(AttributeError):
        e.scale = 3
    with pytest.raises(acc.NoiseParameterError):
        Laplace(0)
    with pytest.raises(acc.NoiseParameterError):
        Gaussian(-1)
    assert Gaussian(2).rho == Fraction(1, 8)


def test_gaussian_without_delta_is_infinite():
    assert acc.epsilon([Laplace(1), Gaussian(5)]) == math.inf
    assert not acc.fits([Gaussian(100)], 10)


def test_laplace_composition_by_pld_continuous_and_discrete():
    from dp_accounting.pld import privacy_loss_distribution as pld

    # accounting.Laplace is the continuous Laplace, as dp_accounting's LaplaceDpEvent
    ours = acc.epsilon([Laplace(10)] * 100, 1e-6)
    continuous = pld.from_laplace_mechanism(10.0).self_compose(100).get_epsilon_for_delta(1e-6)
    assert continuous <= ours <= continuous + 1e-6
    assert float(ours) == pytest.approx(4.69, abs=0.01)
    assert ours.denominator <= 10**6
    assert ours < acc.epsilon([Laplace(10)] * 100)  # far below the pure sum of 10
    # dpdesk's own releases are discrete and charged as such: more than the continuous figure
    disc = acc.epsilon([Laplace(10, discrete=True)] * 100, 1e-6)
    exact = pld.from_discrete_laplace_mechanism(0.1).self_compose(100).get_epsilon_for_delta(1e-6)
    assert exact <= disc <= exact + 1e-6
    assert float(disc) == pytest.approx(4.7746, abs=1e-3)


def test_the_ledger_record_keeps_the_kind_of_noise():
    for event in (Laplace(3), Laplace(3, discrete=True), Gaussian(2), Gaussian(2, discrete=True)):
        assert acc.from_record(acc.to_record(event)) == event


def _rr_epsilon(eps0: float, k: int, delta: float) -> float:
    """Exact epsilon for k-fold discrete Laplace (sensitivity 1) = binary RR with eps0.

    Privacy loss per release is +eps0 w.p. p = e^eps0/(1+e^eps0), else -eps0, so the
    composed loss is eps0 (2J - k), J ~ Binomial(k, p); delta(eps) = E[(1 - e^(eps-L))_+].
    """
    p = math.exp(eps0) / (1 + math.exp(eps0))
    j = np.arange(k + 1)
    pmf = stats.binom.pmf(j, k, p)
    loss = eps0 * (2 * j - k)

    def delta_of(e):
        return float(np.sum(pmf * np.clip(1 - np.exp(e - loss), 0, None)))

    lo, hi = 0.0, eps0 * k
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if delta_of(mid) > delta else (lo, mid)
    return hi


def test_laplace_pld_is_close_to_the_exact_randomized_response_figure():
    exact = _rr_epsilon(0.1, 100, 1e-6)
    ours = float(acc.epsilon([Laplace(10, discrete=True)] * 100, 1e-6))
    assert exact <= ours <= exact * 1.002
    assert float(acc.epsilon([PureDP("0.1")] * 100, 1e-6)) == pytest.approx(ours, abs=2e-6)


def _balle_wang_delta(eps, sigma, sens=1.0):
    """Analytic Gaussian (Balle & Wang 2018, thm 8)."""
    a = sens / (2 * sigma)
    b = eps * sigma / sens
    return stats.norm.cdf(-b + a) - math.exp(eps) * stats.norm.cdf(-b - a)


def _eps_from_delta(delta_of, delta):
    lo, hi = 0.0, 100.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if delta_of(mid) > delta else (lo, mid)
    return hi


def test_gaussian_composition_matches_balle_wang_within_one_percent():
    sigma, k = 20.0, 10  # k Gaussians of sigma = one Gaussian of sigma / sqrt(k)
    bw = _eps_from_delta(lambda e: _balle_wang_delta(e, sigma / math.sqrt(k)), 1e-6)
    ours = float(acc.epsilon([Gaussian(sigma)] * k, 1e-6))
    assert ours == pytest.approx(bw, rel=0.01)


def test_single_discrete_gaussian_against_its_exact_delta():
    """delta(eps) = sum_y (P(Z=y) - e^eps P(Z=y-1))_+ summed over the discrete pmf."""
    sigma = 4.0
    y = np.arange(-400, 401)
    w = np.exp(-y**2 / (2 * sigma**2))
    pmf = w / w.sum()
    shifted = np.exp(-(y - 1) ** 2 / (2 * sigma**2)) / w.sum()
    exact = _eps_from_delta(lambda e: float(np.clip(pmf - math.exp(e) * shifted, 0, None).sum()),
                            1e-6)
    ours = float(acc.epsilon([Gaussian(sigma, discrete=True)], 1e-6))
    assert exact <= ours <= exact * 1.002


def test_pld_result_never_exceeds_the_pure_sum():
    events = [Laplace(1)] * 2
    assert acc.epsilon(events, 1e-6) <= 2


def test_fits():
    assert acc.fits([Laplace(10)] * 10, 1)
    assert not acc.fits([Laplace(10)] * 11, 1)
    assert acc.fits([Laplace(10)] * 100, 5, delta=1e-6)
    assert acc.fits([Laplace(10)] * 10, "1.0")


def test_pure_plan_splits_exactly_by_weights():
    scales = acc.plan(1, [1, 2, 7])
    assert scales == [10, 5, Fraction(10, 7)]
    assert acc.epsilon([Laplace(s) for s in scales]) == 1
    s2 = acc.plan("0.3", [1, 1, 1], sensitivity=2)
    assert acc.epsilon([Laplace(s, 2) for s in s2]) == Fraction(3, 10)
    with pytest.raises(acc.NoiseParameterError):
        acc.plan(1, [1], mechanism="gaussian")


def test_plan_with_delta_finds_the_common_multiplier():
    scales = acc.plan(1, [1] * 100, delta=1e-6)
    assert len(set(scales)) == 1
    assert float(scales[0]) == pytest.approx(41.5, abs=0.1)  # an even split would need 100
    discrete = acc.plan(1, [1] * 100, delta=1e-6, discrete=True)
    assert float(discrete[0]) == pytest.approx(41.85, abs=0.1)
    assert acc.fits([Laplace(discrete[0], discrete=True)] * 100, 1, 1e-6)
    assert acc.fits([Laplace(scales[0])] * 100, 1, 1e-6)
    assert not acc.fits([Laplace(float(scales[0]) * 0.99)] * 100, 1, 1e-6)


def test_gaussian_plan_fits():
    sig = acc.plan(1, [1, 3], delta=1e-5, mechanism="gaussian")
    events = [Gaussian(s) for s in sig]
    assert sig[0] > sig[1]
    assert acc.fits(events, 1, 1e-5)
    assert not acc.fits([Gaussian(s * Fraction(98, 100)) for s in sig], 1, 1e-5)


def test_check_budget_refuses_with_a_clear_message():
    spent = [Laplace(10)] * 9
    assert acc.check_budget(spent, Laplace(10), 1) == 1
    with pytest.raises(BudgetError) as err:
        acc.check_budget(spent, Laplace(5), 1)
    msg = str(err.value)
    assert isinstance(err.value, acc.BudgetExceeded)
    for part in ("scale 5", "epsilon 0.2", "spent: epsilon 0.9", "total 1",
                 "remaining: epsilon 0.1", "at least 10"):
        assert part in msg, (part, msg)


def test_check_budget_with_delta():
    spent = [Gaussian(10)] * 5
    after = acc.check_budget(spent, Gaussian(10), 2, 1e-6)
    assert 0 < after < 2
    with pytest.raises(acc.BudgetExceeded, match="at delta 1e-06"):
        acc.check_budget(spent, Gaussian(1), 2, 1e-6)


def test_records_round_trip_exactly():
    for e in (Laplace(Fraction(1, 3), 2), Gaussian("2.5"), PureDP("0.1")):
        rec = acc.to_record(e)
        assert acc.from_record(rec) == e
        assert all(isinstance(v, (str, bool)) for v in rec.values())
    with pytest.raises(acc.NoiseParameterError):
        acc.from_record({"type": "laplace"})


def test_gaussian_refusal_without_delta_explains_why():
    with pytest.raises(acc.BudgetExceeded, match="needs a delta > 0"):
        acc.check_budget([], Gaussian(100), 1)


def test_large_sensitivity_gaussians_are_priced_quickly_by_zcdp_and_never_below_the_pld():
    import time

    t = time.perf_counter()
    big = acc.epsilon([Gaussian(9e7, 90000, discrete=True)] * 3, 1e-6)
    assert time.perf_counter() - t < 2
    # the same ratio sigma / sensitivity with sensitivity 1: the PLD is tighter than zCDP
    small = acc.epsilon([Gaussian(1000, 1, discrete=True)] * 3, 1e-6)
    assert small <= big <= small * 1.3
    # zCDP conversion of one Gaussian: CKS 2020 cor. 13, checked against its closed-form upper bound
    rho = 1 / (2 * 1000.0**2)
    assert acc.zcdp_epsilon([Gaussian(1000)], 1e-6) <= rho + 2 * math.sqrt(rho * math.log(1e6))
