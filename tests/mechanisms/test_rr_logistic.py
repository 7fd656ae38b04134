"""rr.logistic: every binary design, two-group designs, direct questions, honest failure."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from dpdesk.errors import EstimationError
from dpdesk.mechanisms import rr
from dpdesk.mechanisms.rr.regression import model as lm

from dpdesk.mechanisms.rr.regression.inputs import prepare
Z95 = 1.959963984540054

DESIGNS = {
    "warner": rr.design("warner", p=0.7),
    "forced": rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25),
    "unrelated": rr.design("unrelated", p_sensitive=0.6, q=0.3),
    "crosswise": rr.design("crosswise", p=0.25),
    "triangular": rr.design("triangular", p=0.3),
    "mangat": rr.design("mangat", p=0.7),
    "kuk": rr.design("kuk", p1=0.7, p2=0.3),
    "kuk3": rr.design("kuk", p1=0.7, p2=0.3, draws=3),
    "custom": rr.design("custom", matrix=[[0.8, 0.3], [0.2, 0.7]]),
    "sld": rr.design("sld", p1=2 / 12, p2=10 / 12),
    "cdm": rr.design("cdm", p1=0.3, p2=0.7),
    "unrelated_unknown": rr.design("unrelated_unknown", p1=0.3, p2=0.8),
}


def simulate(d, pi, rng, *, group=None, t=0.8, gamma=0.1, pi_uq=0.4):
    """Recorded responses for carrier probabilities ``pi`` (latent states drawn per design)."""
    n = len(pi)
    g = np.ones(n, int) if group is None else np.asarray(group)
    carrier = rng.random(n) < pi
    state = carrier.astype(int)
    if d.model == "sld":
        state = np.where(carrier, np.where(rng.random(n) < t, 1, 2), 0)
    elif d.model == "cdm":
        state = np.where(rng.random(n) < gamma, 2, state)
    elif d.model == "unrelated_unknown":
        state = 2 * carrier + (rng.random(n) < pi_uq)
    y = np.empty(n, int)
    for i in range(n):
        if g[i] == 0:
            y[i] = int(carrier[i])
        else:
            y[i] = rng.choice(len(d.responses), p=d.matrices[g[i] - 1][:, state[i]])
    return y


@pytest.mark.parametrize("name", list(DESIGNS))
def test_intercept_only_equals_the_prevalence_estimate(name):
    """Without covariates the fit is rr.estimate's ML estimate (CDM: pi = prevalence / (1 - gamma))."""
    d = DESIGNS[name]
    rng = np.random.default_rng(11)
    n = 1500
    g = rng.integers(1, d.groups + 1, n)
    y = simulate(d, np.full(n, 0.3), rng, group=g)
    f = rr.logistic(d, y, np.ones((n, 1)), group=g if d.groups > 1 else None)
    counts = [np.bincount(y[g == k], minlength=len(d.responses)) for k in range(1, d.groups + 1)]
    e = rr.estimate(d, counts if d.groups > 1 else counts[0])
    pi = 1 / (1 + math.exp(-f.beta[0]))
    if d.model == "cdm":
        assert f.nuisance.estimate == pytest.approx(e.extra["gamma"][0], abs=1e-7)
        assert pi * (1 - f.nuisance.estimate) == pytest.approx(e.prevalence, abs=1e-7)
    else:
        assert pi == pytest.approx(e.prevalence, abs=1e-7)
    if d.model == "sld":
        assert f.nuisance.estimate == pytest.approx(e.extra["t"][0], abs=1e-7)
    if d.model == "unrelated_unknown":
        assert f.nuisance.estimate == pytest.approx(e.extra["pi_uq"][0], abs=1e-7)
    assert f.loglik == pytest.approx(e.loglik, abs=1e-7)
    assert f.model_test is None and f.n == n and f.converged


def test_a_saturated_factor_gives_each_category_its_own_estimate():
    """Dummies for three faculties: logistic(b) per faculty = rr.estimate per faculty; factor G^2."""
    d = DESIGNS["forced"]
    rng = np.random.default_rng(2)
    fac = np.repeat([0, 1, 2], [400, 300, 300])
    y = simulate(d, np.array([0.2, 0.35, 0.5])[fac], rng)
    X = np.column_stack([np.ones(len(fac)), fac == 1, fac == 2]).astype(float)
    f = rr.logistic(d, y, X, names=["(Intercept)", "Law", "Medicine"], terms={"faculty": ["Law", "Medicine"]})
    lls = []
    for k in range(3):
        e = rr.estimate(d, np.bincount(y[fac == k], minlength=2))
        lp = f.beta[0] + (f.beta[k] if k else 0.0)
        assert 1 / (1 + math.exp(-lp)) == pytest.approx(e.prevalence, abs=1e-7)
        lls.append(e.loglik)
    pooled = rr.estimate(d, np.bincount(y, minlength=2)).loglik
    (term,) = f.terms
    assert term.df == 2 and term.columns == ("Law", "Medicine")
    assert term.chi2 == pytest.approx(2 * (sum(lls) - pooled), abs=1e-6)
    assert f.model_test.chi2 == pytest.approx(term.chi2, abs=1e-9)


def test_direct_questions_only_is_ordinary_logistic_regression():
    rng = np.random.default_rng(4)
    n = 800
    x = rng.normal(size=n)
    X = np.column_stack([np.ones(n), x])
    y = (rng.random(n) < 1 / (1 + np.exp(-(-0.5 + 0.8 * x)))).astype(int)
    f = rr.logistic(DESIGNS["warner"], y, X, group=np.zeros(n), names=["(Intercept)", "x"])
    pi = 1 / (1 + np.exp(-X @ f.beta))
    np.testing.assert_allclose(X.T @ (y - pi), 0, atol=1e-8)  # the score equations of glm(binomial)
    W = pi * (1 - pi)
    np.testing.assert_allclose(f.vcov, np.linalg.inv((X * W[:, None]).T @ X), rtol=1e-8)
    assert f.n_direct == n and f.nuisance is None


@pytest.mark.parametrize("name", ["sld", "cdm", "unrelated_unknown", "forced"])
def test_analytic_derivatives_match_finite_differences(name):
    d = DESIGNS[name]
    rng = np.random.default_rng(7)
    n = 300
    g = rng.integers(0, d.groups + 1, n)
    X = np.column_stack([np.ones(n), rng.normal(size=n)])
    y = simulate(d, np.full(n, 0.4), rng, group=g)
    data, *_ = prepare(d, y, X, g, None, None)
    theta = np.array([-0.3, 0.4] + ([0.6] if data.has_eta else []))

    def ll(th):
        return lm.loglik(data, th[:2], th[2] if data.has_eta else 0.0)

    der = lm.derivatives(data, theta[:2], theta[2] if data.has_eta else 0.0)
    h = 1e-5
    num_g = np.array([(ll(theta + h * e) - ll(theta - h * e)) / (2 * h) for e in np.eye(len(theta))])
    np.testing.assert_allclose(der.grad, num_g, rtol=1e-6, atol=1e-6)
    num_h = np.array([[(ll(theta + h * a + h * b) - ll(theta + h * a - h * b) - ll(theta - h * a + h * b)
                        + ll(theta - h * a - h * b)) / (4 * h * h) for b in np.eye(len(theta))]
                      for a in np.eye(len(theta))])
    np.testing.assert_allclose(der.hess, num_h, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("name", ["sld", "cdm", "unrelated_unknown"])
def test_two_group_designs_with_a_direct_group_recover_the_truth(name):
    """n = 6000 with a slope of 0.8: estimates within 4 SE of the truth, nuisance too."""
    d = DESIGNS[name]
    rng = np.random.default_rng(20)
    n = 6000
    g = rng.integers(0, 3, n)
    x = rng.normal(size=n)
    pi = 1 / (1 + np.exp(-(-0.4 + 0.8 * x)))
    y = simulate(d, pi, rng, group=g)
    f = rr.logistic(d, y, np.column_stack([np.ones(n), x]), group=g, names=["(Intercept)", "x"])
    for c, truth in zip(f.coefficients, (-0.4, 0.8)):
        assert abs(c.estimate - truth) < 4 * c.se
        assert c.ci[0] < c.estimate < c.ci[1]
        assert c.lr_chi2 == pytest.approx(c.z ** 2, rel=0.35)
    truth = {"sld": 0.8, "cdm": 0.1, "unrelated_unknown": 0.4}[name]
    nu = f.nuisance
    assert nu.name == lm.NUISANCE[d.model]
    assert abs(nu.estimate - truth) < 4 * nu.se
    assert nu.ci[0] < nu.estimate < nu.ci[1]
    assert f.n_direct == int(np.sum(g == 0)) and f.n_params == 3
    assert f.aic == pytest.approx(-2 * f.loglik + 6)
    assert f.bic == pytest.approx(-2 * f.loglik + 3 * math.log(n))


def test_the_fit_is_deterministic():
    d = DESIGNS["sld"]
    rng = np.random.default_rng(9)
    n = 500
    g = rng.integers(1, 3, n)
    X = np.column_stack([np.ones(n), rng.normal(size=n)])
    y = simulate(d, np.full(n, 0.3), rng, group=g)
    a, b = (rr.logistic(d, y, X, group=g).to_dict() for _ in range(2))
    assert a == b


def test_prediction_and_posterior():
    d = DESIGNS["forced"]
    rng = np.random.default_rng(5)
    n = 1200
    x = rng.normal(size=n)
    g = np.where(np.arange(n) < 200, 0, 1)
    X = np.column_stack([np.ones(n), x])
    y = simulate(d, 1 / (1 + np.exp(-(-0.5 + x))), rng, group=g)
    f = rr.logistic(d, y, X, group=g, names=["(Intercept)", "x"])
    est, lo, hi = f.predict([[1.0, 0.5]])[0]
    assert est == pytest.approx(1 / (1 + math.exp(-(f.beta[0] + 0.5 * f.beta[1]))))
    se = math.sqrt(np.array([1, 0.5]) @ f.vcov @ np.array([1, 0.5]))
    assert hi == pytest.approx(1 / (1 + math.exp(-(f.beta[0] + 0.5 * f.beta[1] + Z95 * se))))
    assert lo < est < hi
    m, mlo, mhi = f.average_prevalence
    pi = 1 / (1 + np.exp(-X @ f.beta))
    assert m == pytest.approx(pi.mean()) and mlo < m < mhi
    post = f.posterior()
    np.testing.assert_array_equal(post[g == 0], y[g == 0])  # direct answers are taken at face value
    rr_rows = g == 1
    lam1, lam0 = d.matrix[y[rr_rows], 1], d.matrix[y[rr_rows], 0]
    np.testing.assert_allclose(post[rr_rows], pi[rr_rows] * lam1 / (pi[rr_rows] * lam1 + (1 - pi[rr_rows]) * lam0))
    # at the ML estimate the EM step is stationary: X'(posterior - pi) = 0
    np.testing.assert_allclose(X.T @ (post - pi), 0, atol=1e-6)
    np.testing.assert_allclose(f.posterior(y[:5], X[:5], g[:5]), post[:5])


def test_result_is_json_and_a_table():
    d = DESIGNS["sld"]
    rng = np.random.default_rng(1)
    n = 600
    g = rng.integers(1, 3, n)
    X = np.column_stack([np.ones(n), rng.normal(size=n)])
    f = rr.logistic(d, simulate(d, np.full(n, 0.3), rng, group=g), X, group=g, names=["(Intercept)", "x"])
    record = json.loads(json.dumps(f.to_dict(), allow_nan=False))
    assert [r["term"] for r in record["coefficients"]] == ["(Intercept)", "x"]
    assert record["nuisance"]["name"] == "t" and record["ci_method"] == "profile likelihood"
    row = f.table()[1]
    assert row["or"] == pytest.approx(math.exp(row["b"]))
    assert row["or_low"] == pytest.approx(math.exp(row["ci_low"]))
    assert row["wald_low"] == pytest.approx(row["b"] - Z95 * row["se"])
    w = rr.logistic(d, simulate(d, np.full(n, 0.3), rng, group=g), X, group=g, ci="wald", lr_tests=False)
    assert w.coefficients[1].ci == w.coefficients[1].wald_ci and math.isnan(w.coefficients[1].lr_chi2)


def test_offset_shifts_the_linear_predictor():
    d = DESIGNS["warner"]
    rng = np.random.default_rng(3)
    n = 900
    X = np.column_stack([np.ones(n), rng.normal(size=n)])
    y = simulate(d, np.full(n, 0.35), rng)
    a = rr.logistic(d, y, X, ci="wald", lr_tests=False)
    b = rr.logistic(d, y, X, offset=np.full(n, 0.25), ci="wald", lr_tests=False)
    assert b.beta[0] == pytest.approx(a.beta[0] - 0.25, abs=1e-8)
    assert b.loglik == pytest.approx(a.loglik, abs=1e-9)


# ----------------------------------------------------------------------------- honest failure


def test_a_category_with_prevalence_zero_fails_cleanly():
    """Quasi-separation: 10 "yes" in 60 is below the coin's forced-yes share, so pi = 0 there."""
    d = DESIGNS["forced"]
    rng = np.random.default_rng(5)
    n = 400
    cat = (np.arange(n) < 60).astype(float)
    y = np.where(cat == 1, (np.arange(n) < 10).astype(int), (rng.random(n) < 0.45).astype(int))
    with pytest.raises(EstimationError, match=r"'group B' runs off towards -infinity.*Merge that category"):
        rr.logistic(d, y, np.column_stack([np.ones(n), cat]), names=["(Intercept)", "group B"])


def test_a_near_separated_category_fits_with_an_open_interval():
    """17 "yes" in 60: the estimate (pi about 0.03) exists; the profile interval is unbounded below."""
    d = DESIGNS["forced"]
    rng = np.random.default_rng(5)
    n = 400
    cat = (np.arange(n) < 60).astype(float)
    y = np.where(cat == 1, (np.arange(n) < 17).astype(int), (rng.random(n) < 0.45).astype(int))
    f = rr.logistic(d, y, np.column_stack([np.ones(n), cat]), names=["(Intercept)", "group B"])
    c = f.coefficient("group B")
    assert math.isfinite(c.estimate) and c.ci[0] == -math.inf and math.isfinite(c.ci[1])
    assert f.to_dict()["coefficients"][1]["ci_low"] is None
    assert c.odds_ratio_ci[0] == 0.0


def test_complete_separation_under_direct_questioning_fails_cleanly():
    n = 200
    x = np.linspace(-2, 2, n)
    with pytest.raises(EstimationError, match="'x' runs off towards"):
        rr.logistic(DESIGNS["forced"], (x > 0).astype(int), np.column_stack([np.ones(n), x]), group=np.zeros(n),
                    names=["(Intercept)", "x"])


def test_collinear_predictors_fail_cleanly():
    n = 100
    a = (np.arange(n) % 2).astype(float)
    with pytest.raises(EstimationError, match="'A' is a combination of the others"):
        rr.logistic(DESIGNS["warner"], np.arange(n) % 3 == 0, np.column_stack([np.ones(n), 1 - a, a]),
                    names=["(Intercept)", "B", "A"])


@pytest.mark.parametrize("kwargs, match", [
    (dict(design=DESIGNS["sld"]), "two randomization groups: give group"),
    (dict(design=rr.design("krr", categories=3, epsilon=1)), "yes/no sensitive attribute"),
    (dict(responses=[0, 1, 2, 1]), "Response 2 in row 3 is not a code.*0 for 'no', 1 for 'yes'"),
    (dict(responses=[0, 1, math.nan, 1]), "row 3 .*missing answers"),
    (dict(group=[1, 1, 3, 1]), "Group 3 in row 3"),
    (dict(X=[[1, 0], [1, math.nan], [1, 1], [1, 0]]), "'x2' has a missing or infinite value \\(row 2\\)"),
    (dict(X=[[1], [1], [1]]), "responses has 4 values but X has 3 rows"),
    (dict(names=["a", "a"]), "2 different names"),
    (dict(confidence=95), "between 0 and 1"),
    (dict(design=DESIGNS["sld"], group=[1, 1, 1, 1]), "group 2 is empty"),
    (dict(design=DESIGNS["sld"], group=[1, 1, 1, 0]), "groups are coded 0 and 1"),  # 0 means asked directly
])
def test_bad_input_says_what_to_fix(kwargs, match):
    args = dict(design=DESIGNS["warner"], responses=[0, 1, 1, 0], X=[[1, 0], [1, 1], [1, 1], [1, 0]])
    args.update(kwargs)
    design, responses, X = args.pop("design"), args.pop("responses"), args.pop("X")
    with pytest.raises(EstimationError, match=match):
        rr.logistic(design, responses, X, **args)


def test_profile_of_an_intercept_beside_an_uncentred_covariate():
    """Moving the intercept of an uncentred age far from its estimate must not fall onto the
    plateau where every pi is 0 (its gradient vanishes too): each bound is a true LR bound."""
    d = DESIGNS["forced"]
    rng = np.random.default_rng(8)
    n = 900
    age = 18 + rng.integers(0, 10, n).astype(float)
    X = np.column_stack([np.ones(n), age])
    y = simulate(d, 1 / (1 + np.exp(-(2.0 - 0.12 * age))), rng)
    f = rr.logistic(d, y, X, names=["(Intercept)", "age"])
    data, *_ = prepare(d, y, X, None, None, None)
    fit = lm.best_fit(data, 0.0)
    from dpdesk.mechanisms.rr.regression.inference import fixed_coefficient

    for j, c in enumerate(f.coefficients):
        for bound in c.ci:
            assert math.isfinite(bound)
            assert 2 * (f.loglik - fixed_coefficient(data, fit, j, bound).loglik) == pytest.approx(Z95 ** 2, abs=1e-6)


def test_a_steep_but_precise_effect_is_not_called_separation():
    """Log-odds rising by 40 across x's range, estimated precisely from 20,000 direct answers."""
    rng = np.random.default_rng(12)
    n = 20000
    x = rng.uniform(-1, 1, n)
    y = (rng.random(n) < 1 / (1 + np.exp(-20 * x))).astype(int)
    f = rr.logistic(DESIGNS["forced"], y, np.column_stack([np.ones(n), x]), group=np.zeros(n),
                    names=["(Intercept)", "x"], ci="wald", lr_tests=False)
    assert abs(f.coefficient("x").estimate - 20) < 4 * f.coefficient("x").se
