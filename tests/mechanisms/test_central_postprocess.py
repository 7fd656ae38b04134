"""Post-processing: clamping, rounding, least-squares consistency, mean from sum and count."""

import numpy as np
import pytest

from dpdesk.mechanisms.central import postprocess as P


def test_clamp_and_round_say_what_they_did():
    c = P.clamp_nonnegative([3, -2, 0, -1])
    assert c.values.tolist() == [3, 0, 0, 0] and c.changed == 2 and "2 negative" in c.did
    r = P.round_to([1.26, 2.0, -0.74], 0.5)
    assert r.values.tolist() == [1.5, 2.0, -0.5] and r.changed == 2


def _gls(y, rows, cols, tot, v):
    R, C = y.shape
    A, obs, w = [], [], []
    for i in range(R):
        for j in range(C):
            a = np.zeros(R * C)
            a[i * C + j] = 1
            A.append(a), obs.append(y[i, j]), w.append(1 / v[0])
    for i in range(R):
        a = np.zeros((R, C))
        a[i] = 1
        A.append(a.ravel()), obs.append(rows[i]), w.append(1 / v[1])
    for j in range(C):
        a = np.zeros((R, C))
        a[:, j] = 1
        A.append(a.ravel()), obs.append(cols[j]), w.append(1 / v[2])
    A.append(np.ones(R * C)), obs.append(tot), w.append(1 / v[3])
    A, obs, sw = np.array(A), np.array(obs), np.sqrt(w)
    x = np.linalg.lstsq(A * sw[:, None], obs * sw, rcond=None)[0]
    cov = np.linalg.inv((A * np.array(w)[:, None]).T @ A)
    return x.reshape(R, C), np.diag(cov)


def test_consistent_table_is_the_weighted_least_squares_solution():
    rng = np.random.default_rng(5)
    y = rng.normal(50, 5, (3, 4))
    rows, cols, tot = y.sum(1) + rng.normal(0, 3, 3), y.sum(0) + rng.normal(0, 3, 4), y.sum() + 7
    v = (2.0, 3.0, 4.0, 5.0)
    out = P.consistent_table(y, rows, cols, tot, cell_var=v[0], row_var=v[1], col_var=v[2],
                             total_var=v[3])
    x, var = _gls(y, rows, cols, tot, v)
    np.testing.assert_allclose(out.values, x, atol=1e-9)
    np.testing.assert_allclose(out.details["cell_variance"], var, rtol=1e-9)
    assert out.details["cell_variance"] < v[0]
    np.testing.assert_allclose(out.details["row_totals"], out.values.sum(1))


def test_consistent_input_is_left_alone_and_margins_are_optional():
    y = np.arange(12.0).reshape(3, 4)
    out = P.consistent_table(y, y.sum(1), y.sum(0), y.sum(), row_var=1, col_var=1, total_var=1)
    np.testing.assert_allclose(out.values, y, atol=1e-9)
    only = P.consistent_table(y)
    np.testing.assert_allclose(only.values, y)
    with pytest.raises(P.NoiseParameterError):
        P.consistent_table(y, row_totals=y.sum(1))


def test_mean_from_sum_and_count():
    m = P.mean_from([30.0, 5.0, -3.0], [10, 0, 2], 0, 4)
    assert m.values.tolist() == [3.0, 4.0, 0.0]
    assert m.changed == 3
    assert P.laplace_variance(10) == pytest.approx(2 * np.exp(-0.1) / (1 - np.exp(-0.1)) ** 2)
