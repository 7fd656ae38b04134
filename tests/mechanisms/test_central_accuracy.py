"""Half-widths from the exact discrete pmfs, simultaneous coverage, and the inverse."""

import math

import numpy as np
import pytest

from dpdesk.mechanisms.central import accuracy as A


def _brute_laplace_tail(k, b):
    q = math.exp(-1 / b)
    j = np.arange(k + 1, k + 20000)
    return 2 * float(((1 - q) / (1 + q) * q**j).sum())


@pytest.mark.parametrize("b", [0.5, 1, 2.5, 10, 100])
def test_laplace_tail_is_the_exact_geometric_sum(b):
    for k in (0, 1, 5, 30):
        assert A.laplace_tail(k, b) == pytest.approx(_brute_laplace_tail(k, b), rel=1e-9)


@pytest.mark.parametrize("b,c,m", [(10, 0.95, 1), (10, 0.95, 2500), (1, 0.9, 1), (0.3, 0.99, 5)])
def test_laplace_half_width_is_the_smallest_sufficient_integer(b, c, m):
    a = A.laplace_half_width(b, c, m)
    t = 1 - c ** (1 / m)
    assert A.laplace_tail(a, b) <= t
    assert a == 0 or A.laplace_tail(a - 1, b) > t


def test_simultaneous_table_is_wider_than_one_cell():
    assert A.laplace_half_width(10, 0.95) == 30  # b ln(20) = 29.96 for the continuous one
    assert A.laplace_half_width(10, 0.95, 2500) > A.laplace_half_width(10, 0.95)
    assert A.cell_level(0.95, 1) == pytest.approx(0.05)
    assert A.cell_level(0.95, 2500) == pytest.approx(1 - 0.95 ** (1 / 2500), rel=1e-12)


def _brute_gauss_tail(k, s):
    y = np.arange(-int(60 * s) - 10, int(60 * s) + 11)
    w = np.exp(-(y.astype(float) ** 2) / (2 * s * s))
    return float(w[np.abs(y) > k].sum() / w.sum())


@pytest.mark.parametrize("s,c,m", [(1, 0.95, 1), (3, 0.95, 1), (10, 0.99, 100), (0.4, 0.9, 1)])
def test_gaussian_half_width_from_the_summed_pmf(s, c, m):
    a = A.gaussian_half_width(s, c, m)
    t = 1 - c ** (1 / m)
    assert _brute_gauss_tail(a, s) <= t + 1e-15
    assert a == 0 or _brute_gauss_tail(a - 1, s) > t


def test_large_sigma_uses_a_safe_bound_close_to_the_normal():
    a = A.gaussian_half_width(3000, 0.95)
    assert 1.95996 * 3000 - 1 <= a <= 1.95996 * 3000 + 3
    assert A.gaussian_tail(a, 3000) <= 0.05


def test_inverse_laplace():
    b = A.laplace_scale_for_accuracy(30, 0.95)
    assert A.laplace_half_width(b, 0.95) <= 30
    assert A.laplace_half_width(float(b) * 1.001, 0.95) > 30
    eps = A.epsilon_for_accuracy(30, 0.95, cells=10, sensitivity=2)
    assert A.laplace_half_width(2 / eps, 0.95, 10) <= 30


def test_inverse_gaussian():
    s = A.gaussian_sigma_for_accuracy(20, 0.95, cells=4)
    assert A.gaussian_half_width(s, 0.95, 4) <= 20
    assert A.gaussian_half_width(float(s) * 1.01, 0.95, 4) > 20
