"""Issue 30's loose ends: rr.linear on a boundary optimum, rr.correlation's guard, multilevel two-group designs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpdesk.errors import EstimationError
from dpdesk.mechanisms import rr
from dpdesk.mechanisms.rr.regression import linear as linear_module
from dpdesk.mechanisms.rr.regression.rr_predictors import pattern_probabilities, patterns, predictor

EXAMPLE = Path(__file__).resolve().parents[2] / "dpdesk" / "resources" / "examples" / "students.csv"


def _example():
    df = pd.read_csv(EXAMPLE)
    df = df[df["mode"] == "randomized"]
    fac = pd.get_dummies(df.faculty).astype(float)
    X = np.column_stack([np.ones(len(df)), df.age, fac.Arts, fac.Law, fac.Medicine])
    preds = {"cheat": (rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25), df.cheat_rr.eq("Yes").astype(int)),
             "drug": (rr.design("sld", p1=0.3, p2=0.7), df.drug_sld.eq("Yes").astype(int), df.sld_group)}
    return df.exam_stress.to_numpy(float), X, preds


def test_linear_converges_when_a_combination_of_true_states_has_probability_zero():
    """The bundled example's forced-response + SLD items: nobody is estimated to have both (the ML is on
    the simplex's boundary), which used to end in "did not converge"."""
    y, X, preds = _example()
    fit = rr.linear(y, X, preds, names=["(Intercept)", "age", "Arts", "Law", "Medicine"])
    assert fit.pattern_probabilities["11"] == 0.0
    assert all(v > 0.05 for k, v in fit.pattern_probabilities.items() if k != "11")
    assert any("held there" in n for n in fit.notes)
    assert all(np.isfinite(c.se) and c.se > 0 for c in fit.coefficients)
    # KKT at the boundary: giving the held combination some probability lowers the likelihood
    ps = [predictor(k, v, len(y)) for k, v in preds.items()]
    model = linear_module._Model(y, X, patterns(2), pattern_probabilities(ps))
    beta = np.array([c.estimate for c in fit.coefficients])
    pi = np.array([fit.pattern_probabilities[k] for k in ("00", "01", "10", "11")])
    gain = linear_module._held_pattern_gains(model, beta, fit.sigma, pi, np.array([3]))
    assert gain[0] < 0
    for eps in (1e-3, 1e-5):
        moved = pi.copy()
        moved[3], moved[0] = eps, moved[0] - eps
        assert model.parts(beta, fit.sigma, moved)[2] < fit.loglik
    assert model.parts(beta, fit.sigma, pi)[2] == pytest.approx(fit.loglik, rel=1e-12)


def _noise_item(rng, n, prevalence=0.0):
    d = rr.design("warner", p=0.3)
    t = rng.random(n) < prevalence
    return d, np.where(rng.random(n) < 0.3, t, ~t).astype(int)


def test_correlation_refuses_an_item_whose_true_variance_is_not_clearly_positive():
    """A pure-noise item (prevalence 0) used to get large corrected correlations from noise alone."""
    rng = np.random.default_rng(0)
    n = 1500
    fr = rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)
    t2 = rng.random(n) < 0.3
    u = rng.random(n)
    res = rr.correlation({"noise": _noise_item(rng, n), "cheat": (fr, np.where(u < .5, t2, u < .75).astype(int)),
                          "z": rng.normal(size=n) + t2}, bootstrap=30, rng=1)
    assert np.isnan(res.r[0, 1]) and np.isnan(res.r[0, 2]) and np.isnan(res.se[0, 1]) and np.isnan(res.p_value[0, 2])
    assert res.r[0, 0] == 1 and np.isfinite(res.r[1, 2]) and np.isfinite(res.se[1, 2])
    assert len(res.notes) == 1 and "noise" in res.notes[0] and "not clearly away from 0" in res.notes[0]
    assert "leave this item out" in res.notes[0]


def test_correlation_keeps_an_item_with_a_clear_prevalence():
    rng = np.random.default_rng(0)
    n = 1500
    res = rr.correlation({"w": _noise_item(rng, n, 0.4), "z": rng.normal(size=n)}, bootstrap=0)
    assert np.isfinite(res.r[0, 1]) and res.notes == ()


def test_correlation_of_an_uninformative_two_group_item_is_refused_in_words():
    """Pure-noise SLD answers can make its estimated t cancel the design (a 'yes' equally likely either way):
    this used to raise ZeroDivisionError."""
    rng = np.random.default_rng(5)
    n = 1500
    g = rng.integers(1, 3, n)
    resp = (rng.random(n) < np.where(g == 1, 0.7, 0.3)).astype(int)  # prevalence 0, everyone honest
    res = rr.correlation({"sld": (rr.design("sld", p1=0.3, p2=0.7), resp, g), "w": _noise_item(rng, n, 0.4),
                          "z": rng.normal(size=n)}, bootstrap=20)
    assert np.isnan(res.r[0, 1]) and np.isnan(res.r[0, 2]) and np.isfinite(res.r[1, 2])
    assert res.notes and "sld" in res.notes[0]


@pytest.mark.parametrize("design, words", [
    (rr.design("sld", p1=0.3, p2=0.7), "share of carriers who answer honestly"),
    (rr.design("cdm", p1=0.3, p2=0.7), "share of cheaters"),
    (rr.design("unrelated_unknown", p1=0.3, p2=0.7), "innocuous question's prevalence"),
    (rr.design("ecwm", p=0.25), "two versions' links"),
])
def test_multilevel_says_what_it_does_with_two_group_designs(design, words):
    X = np.ones((6, 1))
    with pytest.raises(EstimationError) as err:
        rr.logistic(design, [0, 1, 0, 1, 1, 0], X, group=[1, 2] * 3, random_intercept=["a", "b"] * 3)
    msg = str(err.value)
    assert "two randomization groups" in msg and words in msg and "without random intercepts" in msg
