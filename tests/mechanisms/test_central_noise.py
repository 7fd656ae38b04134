"""OpenDP's exact samplers against the exact pmfs, and the fixed-point (float-attack) check.

OpenDP cannot be seeded, so each goodness-of-fit test is a chi-square test with a fixed
number of draws and a rejection threshold at the 1 - 1e-7 quantile of the chi-square
distribution: a correct sampler fails it with probability about 1e-7 (< 1e-6 for the two
tests together). Bins are merged so every expected count is >= 20, where the chi-square
approximation is accurate.
"""

from fractions import Fraction

import math

import numpy as np
import pytest
from scipy import stats

from dpdesk.errors import DataError
from dpdesk.mechanisms.central import gaussian_counts, laplace_counts
from dpdesk.mechanisms.central.noise import NoiseParameterError, opendp_scale
from dpdesk.mechanisms.central.numeric import to_grid

N_DRAWS = 40_000
ALPHA = 1e-7


def _chi_square_ok(draws, pmf, support):
    """Chi-square statistic over `support` plus both tails; True if below the threshold."""
    n = draws.size
    probs = np.array([pmf(k) for k in support])
    lower = 1.0 - probs.sum()  # both tails together, split by symmetry
    expected = np.concatenate([[lower / 2], probs, [lower / 2]]) * n
    observed = np.concatenate([[np.sum(draws < support[0])],
                               [np.sum(draws == k) for k in support],
                               [np.sum(draws > support[-1])]])
    assert expected.min() >= 20, "merge bins: expected counts too small"
    chi2 = float(((observed - expected) ** 2 / expected).sum())
    return chi2 < stats.chi2.ppf(1 - ALPHA, expected.size - 1), chi2


def test_discrete_laplace_matches_exact_pmf():
    b = 2.5
    q = math.exp(-1 / b)
    pmf = lambda k: (1 - q) / (1 + q) * q ** abs(k)  # noqa: E731
    draws = laplace_counts(np.zeros(N_DRAWS, dtype=np.int64), b)
    assert draws.dtype == np.int64 and draws.shape == (N_DRAWS,)
    ok, chi2 = _chi_square_ok(draws, pmf, list(range(-12, 13)))
    assert ok, chi2


def test_discrete_gaussian_matches_exact_pmf():
    sigma = 3.0
    ks = np.arange(-200, 201)
    norm = np.exp(-ks**2 / (2 * sigma**2)).sum()
    pmf = lambda k: math.exp(-k * k / (2 * sigma**2)) / norm  # noqa: E731
    draws = gaussian_counts(np.zeros(N_DRAWS, dtype=np.int64), sigma)
    ok, chi2 = _chi_square_ok(draws, pmf, list(range(-8, 9)))
    assert ok, chi2


def test_noise_is_added_to_the_counts_and_keeps_shape():
    counts = np.arange(12).reshape(3, 4) * 1000
    noisy = laplace_counts(counts, 1)
    assert noisy.shape == (3, 4) and noisy.dtype == np.int64
    # scale 1: |noise| > 60 has probability 2e^-61/(1+e^-1) per cell
    assert np.all(np.abs(noisy - counts) <= 60)
    assert laplace_counts([], 3).size == 0


def test_scale_is_never_rounded_down_for_opendp():
    for s in (Fraction(1, 3), "0.1", 0.1, 10, Fraction(2, 7)):
        exact = Fraction(str(s)) if not isinstance(s, Fraction) else s
        assert Fraction(opendp_scale(s)) >= exact
        assert Fraction(opendp_scale(s)) - exact < exact * Fraction(1, 2**50)


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf"), "x", True])
def test_bad_scales_are_refused(bad):
    with pytest.raises(NoiseParameterError):
        laplace_counts([1, 2], bad)


def test_non_integer_counts_are_refused_with_the_cell():
    with pytest.raises(DataError, match=r"cell \(1,\) is 2.5"):
        laplace_counts([1.0, 2.5], 1)
    with pytest.raises(DataError):
        gaussian_counts(np.array(["a"]), 1)


def test_neighbouring_sums_stay_on_the_same_integer_grid():
    """The float attack: a float sum's rounding depends on the data; ours is exact integers."""
    base = np.array([1e17, 1.0, -1e17])
    g, d = to_grid(base, -1e17, 1e17, 1)
    assert float(base.sum()) == 0.0 and int(g.sum()) == 1  # floats lose the 1; integers don't
    r = Fraction("0.01")
    x = np.random.default_rng(1).uniform(-5, 5, 1000)
    neighbour = np.append(x, 4.999999999)
    g1, d1 = to_grid(x, -5, 5, r)
    g2, _ = to_grid(neighbour, -5, 5, r)
    assert d1 == 500 and abs(int(g2.sum()) - int(g1.sum())) <= d1
    for grid in (g1, g2):
        noisy = laplace_counts([int(grid.sum())], 50)
        assert noisy.dtype == np.int64  # release = integer * resolution: same lattice
