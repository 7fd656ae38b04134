"""Noisy statistics: public keys, sensitivities, events, the budget check before noise."""

from fractions import Fraction

import numpy as np
import pytest

from dpdesk.errors import BudgetError, DataError
from dpdesk.mechanisms import accounting as acc
from dpdesk.mechanisms import central
from dpdesk.mechanisms.central import quantiles, release


def _no_noise(monkeypatch):
    """Make the samplers return the exact counts, to test the aggregation itself."""
    monkeypatch.setattr(release, "laplace_counts", lambda c, s: np.asarray(c, dtype=np.int64))
    monkeypatch.setattr(release, "gaussian_counts", lambda c, s: np.asarray(c, dtype=np.int64))


def test_count_and_histogram_aggregate_over_declared_keys(monkeypatch):
    _no_noise(monkeypatch)
    assert central.count(["a", "b", "c"], epsilon=1).noisy.tolist() == [3]
    h = central.histogram(["a", "b", "a", "zz", "c"], keys=["a", "b", "c", "d"], epsilon=0.5)
    assert h.noisy.tolist() == [2, 1, 1, 0]  # "zz" is not a declared key; "d" is kept
    assert h.keys == (("a", "b", "c", "d"),)
    assert h.events == (acc.Laplace(2, 1, discrete=True),)
    b = central.histogram([0, 0.5, 1, 2.9, 3, 3.1, -1], bins=[0, 1, 2, 3], epsilon=1)
    assert b.noisy.tolist() == [2, 1, 2]
    assert b.keys == (("[0, 1)", "[1, 2)", "[2, 3]"),)


def test_crosstab_and_subgroups(monkeypatch):
    _no_noise(monkeypatch)
    rows = np.array([1, 1, 2, 2, 2, 9])
    cols = np.array(["x", "y", "y", "y", "x", "x"])
    t = central.crosstab(rows, cols, [1, 2], ["x", "y"], scale=3, mechanism="gaussian")
    assert t.noisy.tolist() == [[1, 1], [1, 2]]
    assert t.events == (acc.Gaussian(3, 1, discrete=True),)
    by = central.count(None, by=rows, by_keys=[1, 2, 9], epsilon=1)
    assert by.noisy.tolist() == [2, 3, 1]
    hb = central.histogram(cols, keys=["x", "y"], by=rows, by_keys=[1, 2], epsilon=1)
    assert hb.noisy.tolist() == [[1, 1], [1, 2]]


def test_keys_must_be_declared_and_unique():
    with pytest.raises(acc.NoiseParameterError, match="never taken from the data"):
        central.histogram([1, 2], epsilon=1, keys=None)
    with pytest.raises(acc.NoiseParameterError, match="unique"):
        central.histogram([1, 2], keys=[1, 1], epsilon=1)
    with pytest.raises(acc.NoiseParameterError, match="exactly one"):
        central.histogram([1], keys=[1])
    with pytest.raises(DataError, match="same number"):
        central.crosstab([1, 2], [1], [1, 2], [1])


def test_sum_on_the_grid_with_sensitivity(monkeypatch):
    _no_noise(monkeypatch)
    s = central.sum([1.234, 5.0, 120.0, -3.0], 0, 100, "0.01", epsilon=1)
    # clipped to [0, 100] and put on a 0.01 grid: 123 + 500 + 10000 + 0
    assert s.noisy.tolist() == [10623]
    assert s.sensitivity == 10000 and s.events == (acc.Laplace(10000, 10000, discrete=True),)
    assert s.estimate.tolist() == [106.23]
    assert s.resolution == Fraction(1, 100)
    neg = central.sum([-7, 3], -10, 5, epsilon=1)
    assert neg.sensitivity == 10 and neg.noisy.tolist() == [-4]
    g = central.sum([1, 2, 3, 4], 0, 10, by=["a", "b", "a", "c"], by_keys=["a", "b"], epsilon=1)
    assert g.noisy.tolist() == [4, 2]
    with pytest.raises(DataError, match="row 2"):
        central.sum([1, float("nan")], 0, 1, epsilon=1)


def test_mean_is_a_sum_and_a_count(monkeypatch):
    _no_noise(monkeypatch)
    m = central.mean([1, 2, 3, 10], 0, 5, epsilon=1)
    assert m.estimate.tolist() == [2.75]  # (1 + 2 + 3 + 5) / 4
    assert m.events == (acc.Laplace(10, 5, discrete=True), acc.Laplace(2, 1, discrete=True))
    assert acc.epsilon(m.events) == 1
    mb = central.mean([1, 2, 3, 4], 0, 10, by=[0, 0, 1, 1], by_keys=[0, 1], rho=1,
                      mechanism="gaussian")
    assert mb.estimate.tolist() == [1.5, 3.5]


def test_budget_is_checked_before_any_noise(monkeypatch):
    def boom(*a):
        raise AssertionError("noise drawn before the budget check")

    monkeypatch.setattr(release, "laplace_counts", boom)

    def refuse(events):
        acc.check_budget([acc.Laplace(1, discrete=True)], events, 1)

    with pytest.raises(BudgetError):
        central.histogram(["a"], keys=["a"], epsilon=1, check=refuse)
    with pytest.raises(BudgetError):
        central.mean([1.0], 0, 1, epsilon=1, check=refuse)
    with pytest.raises(BudgetError):
        central.median([1.0], [0, 1], epsilon=1, check=refuse)


def test_real_noise_release_and_half_width():
    h = central.histogram(np.repeat(["a", "b"], [500, 300]), keys=["a", "b"], epsilon=1)
    assert h.noisy.dtype == np.int64
    hw = h.half_width(0.999999, simultaneous=True)  # 1 - 1e-6 simultaneous coverage
    assert np.all(np.abs(h.noisy - [500, 300]) <= hw)


def test_quantile_scores_match_opendp():
    import opendp.prelude as dp

    dp.enable_features("contrib")
    x = np.random.default_rng(3).integers(0, 100, 60)
    cands = list(range(0, 101, 5))
    for alpha in (0.5, 0.25, 0.1):
        space = dp.vector_domain(dp.atom_domain(T=dp.i64)), dp.symmetric_distance()
        t = space >> dp.t.then_quantile_score_candidates(cands, alpha=alpha)
        theirs = np.array(t(x.tolist()), dtype=float)
        ours = quantiles.quantile_scores(x, cands, alpha).astype(float)
        a = Fraction(str(alpha))
        d = max(a.numerator, a.denominator - a.numerator)
        # same scores up to OpenDP's denominator, and the same score / sensitivity ratio
        np.testing.assert_allclose(theirs / t.map(1), ours / d)


def test_median_lands_near_the_middle():
    x = np.random.default_rng(4).normal(50, 5, 2000)
    r = central.median(x, range(0, 101), epsilon=2)
    assert r.events == (acc.PureDP(2),)
    # >= 1000 rows lie between 45 and 55: a candidate outside has score >= 0.6 n larger
    assert 40 <= r.estimate[0] <= 60
    by = central.quantile(x, range(0, 101), 0.9, epsilon=1, by=np.arange(2000) % 2,
                          by_keys=[0, 1])
    assert by.estimate.shape == (2,) and np.all((by.estimate > 50) & (by.estimate < 70))


def test_release_record_is_json_ready():
    import json

    s = central.sum([1.5, 2.25], 0, 10, "0.25", epsilon=1)
    rec = json.loads(json.dumps(s.record()))
    assert rec["statistic"] == "sum" and rec["resolution"] == "1/4"
    assert rec["events"] == [{"type": "laplace", "scale": "40", "sensitivity": "40", "discrete": True}]
    assert isinstance(rec["noisy"][0], int)


def test_mean_record_and_bad_count_input():
    m = central.mean([1.0, 2.0], 0, 2, epsilon=1)
    rec = m.record()
    assert rec["statistic"] == "mean" and len(rec["sum"]["events"]) == 1
    with pytest.raises(DataError, match="count"):
        central.count(None, epsilon=1)
