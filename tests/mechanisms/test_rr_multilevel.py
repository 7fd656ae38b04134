"""rr.logistic(..., random_intercept=...) (RRreg::RRmixed) against lme4's glmer at tight tolerances.

tests/fixtures/rrmixed/make_rrmixed.R fits RRmixed (glmer with the RR link; tolPwrss 1e-12 where glmer
converges, bobyqa to rhoend 1e-12) by the Laplace approximation and by adaptive Gauss-Hermite quadrature
with 7 nodes. dpdesk must agree to the precision of glmer's optimum (1e-4), or find a higher likelihood
where glmer stops on the boundary (case 3: glmer reports a singular fit with SD 5e-7).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpdesk.errors import EstimationError
from dpdesk.mechanisms import rr

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "rrmixed"
REF = json.loads((HERE / "rrmixed_reference.json").read_text())["cases"]
DESIGNS = {"Warner": lambda p: rr.design("warner", p=p),
           "FR": lambda p: rr.design("forced", p_truth=1 - sum(p), p_yes=p[1], p_no=p[0]),
           "Crosswise": lambda p: rr.design("crosswise", p=p)}


def _fit(case, nagq):
    df = pd.read_csv(HERE / f"rrmixed_data_{case['id']}.csv")
    X = np.column_stack([np.ones(len(df)), df.x, df.z])
    return rr.logistic(DESIGNS[case["model"]](case["p"]), df.response, X, names=["(Intercept)", "x", "z"],
                       random_intercept=df.cluster, nagq=nagq)


@pytest.mark.parametrize("nagq", [1, 7])
@pytest.mark.parametrize("case", REF, ids=lambda c: f"case{c['id']}-{c['model']}")
def test_multilevel_against_glmer(case, nagq):
    ref = case[f"agq{nagq}"]
    fit = _fit(case, nagq)
    assert fit.n_clusters == case["clusters"] and fit.n == case["n"] and fit.nagq == nagq
    if ref["sd"] < 1e-4 and fit.random_sd[0] > 1e-3:
        # glmer stopped on the boundary; dpdesk's optimum must be at least as high
        assert fit.loglik >= ref["loglik"] - 1e-8
        return
    np.testing.assert_allclose(fit.beta, ref["beta"], atol=1e-4)
    np.testing.assert_allclose([c.se for c in fit.coefficients], ref["se"], rtol=1e-3)
    assert fit.random_sd[0] == pytest.approx(ref["sd"], abs=1e-4)
    assert fit.loglik == pytest.approx(ref["loglik"], abs=1e-4)
    assert fit.loglik >= ref["loglik"] - 1e-6
    est, se, (low, high) = fit.random_sd
    assert se > 0 and low < est < high


def test_laplace_is_agq_with_one_node_and_close_to_many():
    case = REF[0]
    laplace, agq = _fit(case, 1), _fit(case, 7)
    assert abs(laplace.loglik - agq.loglik) < 0.1
    assert agq.to_dict()["random_sd"]["estimate"] == pytest.approx(agq.random_sd[0])


def test_multilevel_refuses_what_it_cannot_fit_in_words():
    d = rr.design("warner", p=0.8)
    X = np.ones((6, 1))
    with pytest.raises(EstimationError, match="at least 2 clusters"):
        rr.logistic(d, [0, 1, 0, 1, 1, 0], X, random_intercept=["a"] * 6)
    with pytest.raises(EstimationError, match="one-group yes/no design"):
        rr.logistic(rr.design("sld", p1=0.3, p2=0.7), [0, 1, 0, 1, 1, 0], X, group=[1, 2] * 3,
                    random_intercept=["a", "b"] * 3)
    with pytest.raises(EstimationError, match="cluster labels"):
        rr.logistic(d, [0, 1, 0, 1, 1, 0], X, random_intercept=["a", "b"])
    with pytest.raises(EstimationError, match="survey weights"):
        rr.logistic(d, [0, 1, 0, 1, 1, 0], X, random_intercept=["a", "b"] * 3, weights=[1.0] * 6)
    with pytest.raises(EstimationError, match="nagq"):
        rr.logistic(d, [0, 1, 0, 1, 1, 0], X, random_intercept=["a", "b"] * 3, nagq=0)


def test_progress_follows_the_fit_without_changing_it_and_can_stop_it():
    """A worker's progress hook sees the quasi-Newton steps and the polish and leaves the fit as it was; an
    exception it raises (the app's Cancel) stops the fit instead of letting it run on in the background."""
    case = REF[0]
    df = pd.read_csv(HERE / f"rrmixed_data_{case['id']}.csv")
    X = np.column_stack([np.ones(len(df)), df.x, df.z])
    args = (DESIGNS[case["model"]](case["p"]), df.response, X)
    seen = []
    fit = rr.logistic(*args, random_intercept=df.cluster, progress=lambda f, t: seen.append((f, t)))
    assert fit.beta == pytest.approx(_fit(case, 1).beta, abs=0) and fit.loglik == _fit(case, 1).loglik
    assert any(t.startswith("Maximising the marginal likelihood") for _, t in seen)
    assert any(t == "Polishing the optimum" for _, t in seen)
    assert all(0 < f < 1 for f, _ in seen) and [f for f, _ in seen] == sorted(f for f, _ in seen)

    class Stop(Exception):
        pass

    def stop(_fraction, text):
        if text.startswith("Maximising"):
            raise Stop

    with pytest.raises(Stop):
        rr.logistic(*args, random_intercept=df.cluster, progress=stop)
