"""Simulated RR counts: expectations, recovery by rr.estimate, non-compliance bias (fixed seeds)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpdesk.errors import EstimationError
from dpdesk.mechanisms import rr
from dpdesk.mechanisms.rr.planning import sample_size as planning

K = 5  # tolerance in standard errors

CASES = [
    ("forced", dict(p_truth=2 / 3, p_yes=1 / 6, p_no=1 / 6), 0.2),
    ("warner", dict(p=0.7), 0.3),
    ("crosswise", dict(p=0.25), 0.1),
    ("kuk", dict(p1=0.7, p2=0.3, draws=3), 0.4),
    ("sld", dict(p1=0.2, p2=0.8), 0.3),
    ("cdm", dict(p1=0.2, p2=0.8), 0.3),
    ("unrelated_unknown", dict(p1=0.8, p2=0.2), 0.3),
    ("krr", dict(categories=3, epsilon=1.0), [0.2, 0.3, 0.5]),
    ("forced_multi", dict(p_truth=0.7, p_forced=[0.1, 0.1, 0.1]), [0.5, 0.3, 0.2]),
    ("unary", dict(categories=["a", "b", "c"], epsilon=1.0), [0.1, 0.4, 0.7]),
]


def _rows(x):
    return [np.asarray(r, float) for r in (x if np.ndim(x) == 2 or isinstance(x, list) else [x])]


@pytest.mark.parametrize("name, params, prev", CASES, ids=[c[0] for c in CASES])
def test_counts_have_the_expected_mean(name, params, prev):
    d = rr.design(name, **params)
    n = 200_000
    counts = rr.simulate(d, n, prev, rng=np.random.default_rng(11))
    expected = rr.expected_counts(d, n, prev)
    for got, exp in zip(_rows(counts), _rows(expected)):
        size = exp.sum()
        assert got.sum() == pytest.approx(size)
        p = exp / size
        sd = np.sqrt(size * p * (1 - p))
        assert np.all(np.abs(got - exp) <= K * sd + 1e-9), (got, exp)


def test_expected_counts_by_hand():
    d = rr.design("forced", p_truth=2 / 3, p_yes=1 / 6, p_no=1 / 6)
    np.testing.assert_allclose(rr.expected_counts(d, 1000, 0.2), [700, 300])
    s = rr.design("sld", p1=0.2, p2=0.8)
    # group g: yes = (1 - pi)(1 - p_g) + pi t
    g1, g2 = rr.expected_counts(s, 1000, 0.3, t=0.5, share=(0.4, 0.6))
    np.testing.assert_allclose(g1, [400 * (1 - (0.7 * 0.8 + 0.15)), 400 * (0.7 * 0.8 + 0.15)])
    np.testing.assert_allclose(g2, [600 * (1 - (0.7 * 0.2 + 0.15)), 600 * (0.7 * 0.2 + 0.15)])


@pytest.mark.parametrize("name, params, prev", CASES, ids=[c[0] for c in CASES])
def test_estimate_recovers_prevalence(name, params, prev):
    d = rr.design(name, **params)
    n = 100_000
    est = rr.estimate(d, rr.simulate(d, n, prev, rng=np.random.default_rng(5)), ci="wald")
    se = np.asarray(planning.unit_se(d, prev)) / math.sqrt(n)
    assert np.all(np.abs(np.asarray(est.prevalence) - np.asarray(prev)) <= K * se)


def test_noncompliance_biases_downwards_as_predicted():
    t, y = 2 / 3, 1 / 6
    d = rr.design("forced", p_truth=t, p_yes=y, p_no=y)
    pi, c1, c0 = 0.3, 0.7, 0.95
    # yes = pi c1 (t + y) + (1 - pi) c0 y; non-compliers say no; estimate = (yes - y) / t
    lam = pi * c1 * (t + y) + (1 - pi) * c0 * y
    predicted = (lam - y) / t
    assert predicted < pi
    n = 1_000_000
    counts = rr.simulate(d, n, pi, rng=np.random.default_rng(3), comply=(c1, c0))
    est = rr.estimate(d, counts, ci="wald").prevalence
    se = math.sqrt(lam * (1 - lam) / n) / t
    assert abs(est - predicted) <= K * se
    assert rr.expected_counts(d, n, pi, comply=(c1, c0))[1] == pytest.approx(n * lam)
    # one rate for both
    assert rr.expected_counts(d, 100, pi, comply=0.5)[1] == pytest.approx(100 * 0.5 * (pi * (t + y) + (1 - pi) * y))


def test_noncompliance_sld_carriers_lie():
    """Carriers who do not comply say no, like SLD liars: estimated t drops to the compliance rate."""
    s = rr.design("sld", p1=0.2, p2=0.8)
    counts = rr.expected_counts(s, 1_000_000, 0.3, comply=(0.6, 1.0))
    est = rr.estimate(s, [np.round(c).astype(int) for c in counts], ci="wald")
    assert est.prevalence == pytest.approx(0.3, abs=1e-4)
    assert est.extra["t"][0] == pytest.approx(0.6, abs=1e-3)


def test_ten_million_respondents_and_reproducible():
    d = rr.design("warner", p=0.7)
    a = rr.simulate(d, 10_000_000, 0.1, rng=np.random.default_rng(1))
    b = rr.simulate(d, 10_000_000, 0.1, rng=np.random.default_rng(1))
    assert a.sum() == 10_000_000 and np.array_equal(a, b)


@pytest.mark.parametrize("name, params, prev", CASES, ids=[c[0] for c in CASES])
def test_simulate_responses_per_respondent(name, params, prev):
    d = rr.design(name, **params)
    n = 20_000
    out = rr.simulate_responses(d, n, prev, rng=np.random.default_rng(9), comply=0.9)
    expected = rr.expected_counts(d, n, prev, comply=0.9)
    if d.model == "unary":
        assert out.shape == (n, len(d.categories)) and set(np.unique(out)) <= {0, 1}
        got = [np.array([n - col.sum(), col.sum()]) for col in out.T]
    elif d.groups == 2:
        assert [len(g) for g in out] == [n // 2, n - n // 2]
        got = [np.bincount(g, minlength=len(d.responses)) for g in out]
    else:
        assert out.shape == (n,)
        got = [np.bincount(out, minlength=len(d.responses))]
    for g, e in zip(got, _rows(expected)):
        p = e / e.sum()
        assert np.all(np.abs(g - e) <= K * np.sqrt(e.sum() * p * (1 - p)) + 1e-9)


@pytest.mark.parametrize("kwargs, match", [
    (dict(n=0, prevalence=0.2, rng=np.random.default_rng(0)), "whole number"),
    (dict(n=10.5, prevalence=0.2, rng=np.random.default_rng(0)), "whole number"),
    (dict(n=10, prevalence=1.2, rng=np.random.default_rng(0)), "prevalence"),
    (dict(n=10, prevalence=0.2, rng=1), "Generator"),
    (dict(n=10, prevalence=0.2, rng=np.random.default_rng(0), comply=1.5), "comply"),
    (dict(n=10, prevalence=0.2, rng=np.random.default_rng(0), comply=(0.5, 0.5, 0.5)), "comply"),
])
def test_invalid_inputs(kwargs, match):
    d = rr.design("warner", p=0.7)
    with pytest.raises(EstimationError, match=match):
        rr.simulate(d, **kwargs)


def test_simulated_rejection_rate_matches_power():
    """The Wald test's rejection rate over simulated surveys agrees with rr.power (normal approximation)."""
    from scipy.stats import norm

    d = rr.design("forced", p_truth=2 / 3, p_yes=1 / 6, p_no=1 / 6)
    n, pi, null, reps = 2000, 0.025, 0.0, 4000
    rng = np.random.default_rng(7)
    yes = np.array([rr.simulate(d, n, pi, rng=rng)[1] for _ in range(reps)])
    pi_hat = (yes / n - 1 / 6) / (2 / 3)
    threshold = null + norm.ppf(0.95) * planning.unit_se(d, null) / math.sqrt(n)
    rate = np.mean(pi_hat > threshold)
    expected = rr.power(d, n, pi, null=null)
    assert 0.3 < expected < 0.9
    assert abs(rate - expected) <= K * math.sqrt(expected * (1 - expected) / reps)
