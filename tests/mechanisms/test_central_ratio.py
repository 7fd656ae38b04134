"""Intervals of released means (noisy sum / noisy count): union bound + interval division."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from dpdesk.mechanisms import accounting
from dpdesk.mechanisms.central import accuracy as acc
from dpdesk.mechanisms.central.ratio import mean_intervals, noise_half_width, ratio_interval


def test_corners_span_the_ratio_and_bounds_clip():
    r = ratio_interval(100.0, 10.0, 20.0, 2.0)
    assert r.low == pytest.approx(90 / 22) and r.high == pytest.approx(110 / 18)
    assert r.estimate == pytest.approx(5.0) and not r.unbounded
    clipped = ratio_interval(100.0, 10.0, 20.0, 2.0, lower=0, upper=5.5)
    assert clipped.low == pytest.approx(90 / 22) and clipped.high == 5.5


def test_a_count_near_zero_gives_the_divisor_one_and_an_empty_group_the_bounds():
    r = ratio_interval(30.0, 50.0, 1.0, 3.0, lower=0, upper=10)
    assert r.unbounded and r.low == 0 and r.high == 10  # (30 + 50) / 1, clipped
    gone = ratio_interval(-5.0, 1.0, -8.0, 3.0, lower=18, upper=60)
    assert gone.unbounded and (gone.low, gone.high) == (18, 60)


def test_each_release_gets_half_the_miss_probability():
    s_event = accounting.Laplace(Fraction(12000), Fraction(6000))
    n_event = accounting.Laplace(Fraction(2), Fraction(1))
    out = mean_intervals([9984.63, 4944.68], s_event, [266, 136], n_event, Fraction(19, 20), 18, 60,
                         resolution=Fraction(1, 100))
    a = acc.laplace_half_width(12000, Fraction(39, 40), 2) / 100
    b = acc.laplace_half_width(2, Fraction(39, 40), 2)
    assert noise_half_width(n_event, Fraction(39, 40), 2) == b
    assert out[0].low == pytest.approx((9984.63 - a) / (266 + b))
    assert out[0].high == pytest.approx(min(60, (9984.63 + a) / (266 - b)))


def _discrete_laplace(rng, scale, size):
    q = np.exp(-1.0 / scale)  # difference of two geometrics is discrete Laplace (test only)
    return rng.geometric(1 - q, size) - rng.geometric(1 - q, size)


def test_coverage_at_least_the_confidence_for_every_group_at_once():
    """Simulated coverage: 3000 releases of two group means; the union bound promises >= 95%.

    With 3000 trials a true coverage of 0.95 is seen above 0.95 - 3 * sqrt(.95 * .05 / 3000)
    = 0.938 with probability > 0.998; the fixed seed makes the run reproducible."""
    rng = np.random.default_rng(20261201)
    true_sum = np.array([2000, 300])  # grid units, resolution 1
    true_n = np.array([40, 6])
    lo, hi = 0, 100
    s_event = accounting.Laplace(Fraction(200), Fraction(100))
    n_event = accounting.Laplace(Fraction(2), Fraction(1))
    covered = 0
    trials = 3000
    for _ in range(trials):
        s = true_sum + _discrete_laplace(rng, 200, 2)
        n = true_n + _discrete_laplace(rng, 2, 2)
        ivs = mean_intervals(s, s_event, n, n_event, 0.95, lo, hi)
        covered += all(iv.low <= t <= iv.high for iv, t in zip(ivs, true_sum / true_n))
    assert covered / trials >= 0.938
