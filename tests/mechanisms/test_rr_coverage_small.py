"""Exact coverage of the default interval for the coin (forced-response) design.

The yes-count of n respondents is Binomial(n, lambda) with lambda = 0.25 + 0.5 * pi, and
the interval depends only on (n, yes-count), so the exact coverage is
``sum_y Binom(y; n, lambda) * 1[pi in CI(y)]``: no simulation, no Monte-Carlo noise.
The full benchmark over designs is ``benchmarks/coverage.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binom

from dpdesk.mechanisms import rr

PREVALENCES = (0.0, 0.01, 0.05, 0.2, 0.5, 0.9)

# Band for the exact coverage of a nominal 95% interval: the yes-count is discrete, so the
# exact coverage jumps as pi crosses an interval endpoint and oscillates around the nominal
# level by about +-1.5 points at n = 100 (Brown, Cai & DasGupta 2001, Stat. Sci. 16, 101,
# for the binomial proportion). The band is 95% -1.5/+1.6 points. Measured on a grid of 2,001
# prevalences: 93.61-96.15% at n = 100, 94.41-95.60% at n = 500.
LOW, HIGH = 0.935, 0.966


@pytest.fixture(scope="module")
def coin():
    return rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)


def _relevant_counts(n):
    """Yes-counts with probability above 1e-10 under some prevalence (the rest is negligible)."""
    ys = np.arange(n + 1)
    keep = np.zeros(n + 1, bool)
    for pi in PREVALENCES:
        keep |= binom.pmf(ys, n, 0.25 + 0.5 * pi) > 1e-10
    return ys[keep]


@pytest.mark.parametrize("n", [100, 500])
def test_coin_exact_coverage(coin, n):
    ys = np.arange(n + 1) if n <= 100 else _relevant_counts(n)
    est = [rr.estimate(coin, [n - y, y]) for y in ys]
    pi_hat = np.array([e.prevalence for e in est])
    ci = np.array([e.ci for e in est])
    # The interval lies in [0, 1], is ordered and always contains the estimate.
    assert np.all(ci[:, 0] >= 0) and np.all(ci[:, 1] <= 1)
    assert np.all(ci[:, 0] <= ci[:, 1])
    assert np.all((ci[:, 0] <= pi_hat + 1e-12) & (pi_hat - 1e-12 <= ci[:, 1]))
    for pi in PREVALENCES:
        lam = 0.25 + 0.5 * pi  # coin design: P(yes) = p_yes + p_truth * pi
        pmf = binom.pmf(ys, n, lam)
        left_out = 1.0 - pmf.sum()  # mass of the skipped counts (below 1e-7): bounds the error
        assert left_out < 1e-6
        covered = (ci[:, 0] <= pi) & (pi <= ci[:, 1])
        coverage = float(pmf @ covered)
        assert LOW <= coverage and coverage + left_out <= HIGH, f"n={n}, prevalence={pi}: exact coverage {coverage:.4f}"


def test_coin_boundary_counts_reach_the_boundary(coin):
    # At most 25% "yes" the estimate is 0 and the interval starts at 0 (it covers pi = 0).
    est = rr.estimate(coin, [80, 20])
    assert est.prevalence == 0.0 and est.ci[0] == 0.0 and 0 < est.ci[1] < 1
    est = rr.estimate(coin, [10, 90])
    assert est.prevalence == 1.0 and est.ci[1] == 1.0 and 0 < est.ci[0] < 1
