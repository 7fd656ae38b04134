"""rr.logistic against the fits printed by Heck & Moshagen (2018, JSS 85(2), section 4.3).

RRreg 0.7.5's ``RRlog`` on the ``minarets`` data (tests/data/minarets.csv, see its
README): stochastic lie detector with p = (2/12, 10/12); group 0 = direct question.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpdesk.mechanisms import rr
from dpdesk.mechanisms.rr.regression import model as lm

DATA = Path(__file__).resolve().parents[1] / "data" / "minarets.csv"
SLD = rr.design("sld", p1=2 / 12, p2=10 / 12)
from dpdesk.mechanisms.rr.regression.inputs import prepare


@pytest.fixture(scope="module")
def minarets() -> pd.DataFrame:
    return pd.read_csv(DATA)


def _model1(df):
    d = df[df.RRdesign == 1]
    X = np.column_stack([np.ones(len(d)), d["age.c"], d["leftRight.c"], d["age.c"] * d["leftRight.c"]])
    names = ["(Intercept)", "age.c", "leftRight.c", "age.c:leftRight.c"]
    return d, X, names


@pytest.fixture(scope="module")
def model1(minarets):
    d, X, names = _model1(minarets)
    return rr.logistic(SLD, d.rrt, X, group=d.condition, names=names)


@pytest.fixture(scope="module")
def model2(minarets):
    df = minarets
    X = np.column_stack([np.ones(len(df)), df.RRdesign, df["leftRight.c"], df.RRdesign * df["leftRight.c"]])
    names = ["(Intercept)", "RRdesign", "leftRight.c", "RRdesign:leftRight.c"]
    return rr.logistic(SLD, df.rrt, X, group=df.condition, names=names)


def test_fixture_is_the_published_data(minarets):
    assert len(minarets) == 1621
    assert minarets.condition.value_counts().to_dict() == {2: 692, 1: 564, 0: 365}
    assert (minarets.RRdesign == -1).sum() == 365
    np.testing.assert_allclose(minarets["age.c"], minarets.age - minarets.age.mean(), atol=1e-12)


def test_model1_age_by_left_right_on_the_rr_respondents(model1):
    """``RRlog(rrt ~ age.c * leftRight.c, minarets_RR, "SLD", p = c(2/12, 10/12))``, p. 13.

    logLik -821.084 and every SE, z and the deltaG2 of the intercept, age.c and the
    interaction match the printed digits. The estimates differ from the printed ones by
    up to 2.3e-4 (intercept 1.89636 vs 1.89659): RRlog stops optim's L-BFGS-B at its
    default relative tolerance (factr = 1e7, about 2e-8 in the log-likelihood), while
    rr.logistic runs Newton to a gradient norm below 1e-8. The printed estimates have a
    lower log-likelihood than ours (checked below), so ours is the maximum; both round
    to -821.084. The SEs differ in the fourth decimal for the same reason and because
    RRlog differentiates numerically.

    Two printed deltaG2 are larger than the true ones: leftRight.c 15.9638 (true
    12.6147) and t 1189.5374 (true 239.717). A larger G^2 means RRlog's refit of the
    reduced model stopped at a lower log-likelihood than the reduced model's maximum
    (-829.066 vs -827.391 without leftRight.c; -1415.85 vs -940.94 with t = 1): the
    refits start from the full fit's values and land in a local optimum or stop early,
    as the issue warned. The reduced log-likelihoods here are the best over a grid of
    45 starts (test below).
    """
    f = model1
    assert f.n == 1256 and f.n_direct == 0
    assert round(f.loglik, 3) == -821.084
    printed = {  # Estimate, StdErr, Wald chi2, deltaG2
        "(Intercept)": (1.89659, 0.38104, 24.77438, 74.8273),
        "age.c": (0.01364, 0.06071, 0.05045, 0.0634),
        "leftRight.c": (0.62442, 0.15681, 15.85642, None),
        "age.c:leftRight.c": (-0.02039, 0.01168, 3.04856, 1.9996),
    }
    for name, (b, se, wald, g2) in printed.items():
        c = f.coefficient(name)
        assert c.estimate == pytest.approx(b, abs=3e-4)
        assert c.se == pytest.approx(se, abs=1.5e-4)
        assert abs(c.z) == pytest.approx(np.sqrt(wald), abs=1e-2)
        if g2 is not None:
            assert c.lr_chi2 == pytest.approx(g2, abs=1e-4)
    assert f.coefficient("leftRight.c").lr_chi2 == pytest.approx(12.6147, abs=1e-4)
    t = f.nuisance
    assert t.name == "t" and t.null == 1.0
    assert t.estimate == pytest.approx(0.65170, abs=2e-5)
    assert t.se == pytest.approx(0.01800, abs=1e-5)
    assert ((1 - t.estimate) / t.se) ** 2 == pytest.approx(374.60380, rel=1e-3)  # RRlog's "Wald test" of t = 1
    assert t.lr_chi2 == pytest.approx(239.717, abs=1e-3)
    # the paper's odds ratios in the text: 1.87 for left-right, 1.01 for age, 0.98 for the interaction
    assert round(f.coefficient("leftRight.c").odds_ratio, 2) == 1.87
    assert round(f.coefficient("age.c").odds_ratio, 2) == 1.01
    assert round(f.coefficient("age.c:leftRight.c").odds_ratio, 2) == 0.98


def test_model1_printed_estimates_are_not_the_maximum(minarets, model1):
    d, X, names = _model1(minarets)
    data, *_ = prepare(SLD, d.rrt, X, d.condition, names, None)
    printed = lm.loglik(data, np.array([1.89659, 0.01364, 0.62442, -0.02039]), 0.65170)
    assert printed < model1.loglik
    assert model1.loglik - printed < 1e-5  # the same maximum to optim's tolerance


def test_model1_reduced_fits_are_global(minarets, model1):
    """The reduced models' maxima: no start on a grid does better than the reported G^2 implies."""
    d, X, names = _model1(minarets)
    data, *_ = prepare(SLD, d.rrt, X, d.condition, names, None)
    reduced = data.drop([2])
    implied = model1.loglik - model1.coefficient("leftRight.c").lr_chi2 / 2
    best = max(f.loglik for b0 in np.linspace(-3, 5, 9) for e in (0.1, 0.3, 0.5, 0.7, 0.9)
               if (f := lm.maximize(reduced, np.array([b0, 0.0, 0.0]), e)).converged)
    assert best == pytest.approx(implied, abs=1e-7)
    assert implied > -821.084 - 15.9638 / 2  # RRlog's refit stopped lower
    t1 = max(lm.maximize(data, np.array([b0, 0, 0, 0.0]), 1.0, fix_eta=True).loglik for b0 in (-2.0, 0.0, 2.0, 4.0))
    assert t1 == pytest.approx(model1.loglik - model1.nuisance.lr_chi2 / 2, abs=1e-7)


def test_model2_design_by_left_right_with_the_direct_question_group(model2):
    """``RRlog(rrt ~ RRdesign * leftRight.c, minarets, "SLD", group = condition)``, p. 15.

    Every printed digit matches (estimates to 1e-5, the last digit of two estimates
    differs by one for the reason given for model 1), including all five deltaG2.
    """
    f = model2
    assert f.n == 1621 and f.n_direct == 365
    assert round(f.loglik, 3) == -1051.466
    printed = {
        "(Intercept)": (0.76516, 0.17804, 18.47047, 34.1689),
        "RRdesign": (1.05568, 0.17804, 35.15931, 75.5982),
        "leftRight.c": (0.47765, 0.08001, 35.64373, 29.9496),
        "RRdesign:leftRight.c": (0.09676, 0.08001, 1.46281, 1.6434),
    }
    for name, (b, se, wald, g2) in printed.items():
        c = f.coefficient(name)
        assert c.estimate == pytest.approx(b, abs=1.5e-5)
        assert c.se == pytest.approx(se, abs=1e-5)
        assert abs(c.z) == pytest.approx(np.sqrt(wald), abs=5e-4)
        assert c.lr_chi2 == pytest.approx(g2, abs=1e-4)
    assert f.nuisance.estimate == pytest.approx(0.65300, abs=1e-5)
    assert f.nuisance.se == pytest.approx(0.01805, abs=1e-5)
    assert f.nuisance.lr_chi2 == pytest.approx(237.1835, abs=1e-4)
    # the text: the odds of endorsing the ban are 8.26 times higher under RR (effect coding: exp(2 b))
    assert round(np.exp(2 * f.coefficient("RRdesign").estimate), 2) == 8.26
    assert round(f.coefficient("leftRight.c").odds_ratio, 2) == 1.61


def test_profile_intervals_are_likelihood_ratio_inversions(minarets, model1):
    """At each profile bound the refitted log-likelihood is chi2_1(0.95)/2 below the maximum."""
    d, X, names = _model1(minarets)
    data, *_ = prepare(SLD, d.rrt, X, d.condition, names, None)
    fit = lm.best_fit(data, 0.65)
    from dpdesk.mechanisms.rr.regression.inference import fixed_coefficient

    for j, name in enumerate(names):
        c = model1.coefficient(name)
        assert c.ci[0] < c.estimate < c.ci[1]
        for bound in c.ci:
            ll = fixed_coefficient(data, fit, j, bound).loglik
            assert 2 * (model1.loglik - ll) == pytest.approx(1.959963984540054 ** 2, abs=1e-6)
    lo, hi = model1.nuisance.ci
    assert lo < model1.nuisance.estimate < hi < 1
