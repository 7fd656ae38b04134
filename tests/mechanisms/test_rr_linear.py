"""rr.linear (RRreg::RRlin) against R: RRlin 0.7.5's fit and the same likelihood maximised to convergence.

tests/fixtures/rrlin/make_rrlin.R simulates the data, fits RRlin, then maximises the likelihood in R from
RRlin's estimate (RRlin stops 1e-5 to 1e-4 short of the optimum); dpdesk must agree with the converged
ML to 1e-6 relative (estimates and SEs), and be at least as high as RRlin's log-likelihood.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpdesk.errors import EstimationError
from dpdesk.mechanisms import rr

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "rrlin"


def _listed(case):
    """R's JSON writes a one-element vector as a scalar: make the name lists lists again."""
    for key in ("rr", "x"):
        case[key] = [case[key]] if isinstance(case[key], str) else case[key]
    return case


REF = {c["id"]: _listed(c) for c in json.loads((HERE / "rrlin_reference.json").read_text())["cases"]}
DESIGNS = {
    1: {"warner": rr.design("warner", p=0.3), "fr": rr.design("forced", p_truth=0.75, p_yes=0.15, p_no=0.1)},
    2: {"cw": rr.design("crosswise", p=0.2)},
    3: {"kuk": rr.design("kuk", p1=0.7, p2=0.3), "warner": rr.design("warner", p=0.25)},
}
GROUPS = {3: {"kuk": "gk", "warner": "gw"}}


def _fit(case_id):
    ref = REF[case_id]
    df = pd.read_csv(HERE / f"rrlin_data_{case_id}.csv")
    X = np.column_stack([np.ones(len(df))] + [df[c] for c in ref["x"]])
    preds = {}
    for name in ref["rr"]:
        d = DESIGNS[case_id][name]
        g = GROUPS.get(case_id, {}).get(name)
        preds[name] = (d, df[name]) if g is None else (d, df[name], df[g])
    return ref, rr.linear(df.y, X, preds, names=["(Intercept)"] + ref["x"])


@pytest.mark.parametrize("case_id", sorted(REF))
def test_linear_against_converged_ml_in_r(case_id):
    ref, fit = _fit(case_id)
    ml = ref["ml"]
    names = ["(Intercept)"] + ref["x"] + ref["rr"]
    assert [c.name for c in fit.coefficients] == names
    for c, b, se in zip(fit.coefficients, ml["beta"], ml["se"]):
        assert c.estimate == pytest.approx(b, rel=1e-6, abs=1e-7)
        assert c.se == pytest.approx(se, rel=1e-5)
        assert c.ci[0] < c.estimate < c.ci[1]
    assert fit.sigma == pytest.approx(ml["sigma"], rel=1e-6)
    assert fit.loglik == pytest.approx(ml["loglik"], rel=1e-10)
    assert fit.loglik >= ref["rrlin"]["loglik"] - 1e-9  # at least as good as RRlin's own optimum
    for name in ref["rr"]:
        est, se = fit.prevalence[name]
        assert est == pytest.approx(ml["prevalence"][name][0], rel=1e-6)
        assert se == pytest.approx(ml["prevalence"][name][1], rel=1e-4)
    assert fit.n == len(pd.read_csv(HERE / f"rrlin_data_{case_id}.csv"))
    # close to RRlin's own (unconverged) estimates
    for c, b in zip(fit.coefficients, ref["rrlin"]["beta"]):
        assert c.estimate == pytest.approx(b, abs=0.01)


def test_linear_recovers_known_effects_in_a_large_sample():
    rng = np.random.default_rng(3)
    n = 20000
    d = rr.design("forced", p_truth=0.75, p_yes=0.125, p_no=0.125)
    truth = rng.random(n) < 0.3
    u = rng.random(n)
    resp = np.where(u < 0.75, truth, u < 0.875).astype(int)
    x = rng.normal(size=n)
    y = 1 + 2 * truth + 0.5 * x + rng.normal(0, 1, n)
    fit = rr.linear(y, np.column_stack([np.ones(n), x]), {"drug": (d, resp)}, names=["(Intercept)", "x"])
    b = {c.name: c for c in fit.coefficients}
    assert abs(b["drug"].estimate - 2) < 4 * b["drug"].se
    assert abs(b["x"].estimate - 0.5) < 4 * b["x"].se
    assert abs(fit.prevalence["drug"][0] - 0.3) < 4 * fit.prevalence["drug"][1]
    assert fit.sigma == pytest.approx(1, abs=0.05)


def test_linear_refuses_bad_input_in_words():
    d = rr.design("warner", p=0.3)
    with pytest.raises(EstimationError, match="responses but there are"):
        rr.linear([1.0, 2.0, 3.0], np.ones((3, 1)), {"w": (d, [0, 1])})
    with pytest.raises(EstimationError, match="give its group"):
        rr.linear([1.0, 2.0], np.ones((2, 1)), {"s": (rr.design("sld", p1=0.3, p2=0.7), [0, 1])})
    with pytest.raises(EstimationError, match="missing or infinite"):
        rr.linear([1.0, np.nan], np.ones((2, 1)), {"w": (d, [0, 1])})
    with pytest.raises(EstimationError, match="cannot be used as a predictor"):
        rr.linear([1.0, 2.0], np.ones((2, 1)), {"k": (rr.design("krr", categories=["a", "b", "c"], epsilon=1.0), [0, 1])})


def test_linear_with_too_few_respondents_or_an_exact_fit_says_so_in_words():
    """Three respondents for five parameters, and an outcome fitted exactly, used to end in "math domain error"
    (the finite-difference Hessian stepped to a negative residual SD)."""
    d = rr.design("forced", p_truth=0.8, p_yes=0.1, p_no=0.1)
    X = np.column_stack([np.ones(3), [1.0, 2.0, 3.0]])
    with pytest.raises(EstimationError, match=r"Only 3 respondents for 5 parameters .* 1 pattern probability\)"):
        rr.linear([1.0, 2.5, 3.0], X, {"q": (d, [1, 0, 1])})
    rng = np.random.default_rng(1)
    x = rng.normal(size=60)
    with pytest.raises(EstimationError, match="fitted exactly"):
        rr.linear(1 + 2 * x, np.column_stack([np.ones(60), x]), {"q": (d, rng.integers(0, 2, 60))})
