"""Two-group designs (SLD, CDM) against R survey's own ``svymle`` (tests/fixtures/survey/make_svymle.R).

``svymle`` fits the weighted pseudo-likelihood by BFGS and takes the sandwich H^-1 V H^-1 with
a numerically differentiated Hessian (central differences of the analytic gradient, step
1e-6) and V from the design; dpdesk uses the analytic Hessian. Estimates, SEs and the
covariance agree to 1e-6 relative. The references are committed: the tests never run R.
"""

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from dpdesk.mechanisms import rr

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "survey"
REL = 1e-6


@pytest.fixture(scope="module")
def data():
    with open(HERE / "twogroup.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    out = {k: np.array([r[k] for r in rows], object) for k in rows[0]}
    for k in ("psu", "w", "fpc", "g", "z_sld", "z_cdm"):
        out[k] = out[k].astype(float)
    return out


@pytest.fixture(scope="module")
def expected():
    return json.loads((HERE / "svymle_expected.json").read_text())


def _args(d, which):
    return {"full": dict(weights=d["w"], strata=d["stratum"], clusters=d["psu"]),
            "fpc": dict(weights=d["w"], strata=d["stratum"], clusters=d["psu"], fpc=d["fpc"]),
            "weights_only": dict(weights=d["w"])}[which]


@pytest.mark.parametrize("which", ["full", "fpc", "weights_only"])
def test_sld_equals_svymle(data, expected, which):
    ref = expected["sld"][which]
    p1, p2 = expected["p"]
    est = rr.survey_estimate(rr.design("sld", p1=p1, p2=p2), data["z_sld"].astype(int), groups=data["g"].astype(int),
                             **_args(data, which))
    pi, t = ref["coef"]
    assert est.prevalence == pytest.approx(pi, rel=REL)
    assert est.se == pytest.approx(ref["se"][0], rel=REL)
    assert est.extra["t"][0] == pytest.approx(t, rel=REL)
    assert est.extra["t"][1] == pytest.approx(ref["se"][1], rel=REL)
    assert tuple(est.unconstrained) == pytest.approx(ref["moment"], rel=REL)  # (pi, t), the moment estimate


@pytest.mark.parametrize("which", ["full", "fpc", "weights_only"])
def test_cdm_equals_svymle(data, expected, which):
    ref = expected["cdm"][which]
    p1, p2 = expected["p"]
    est = rr.survey_estimate(rr.design("cdm", p1=p1, p2=p2), data["z_cdm"].astype(int), groups=data["g"].astype(int),
                             **_args(data, which))
    pi, beta = ref["coef"]
    assert est.prevalence == pytest.approx(pi, rel=REL)
    assert est.se == pytest.approx(ref["se"][0], rel=REL)
    assert est.extra["beta"][0] == pytest.approx(beta, rel=REL)
    assert est.extra["beta"][1] == pytest.approx(ref["se"][1], rel=REL)
    assert est.extra["gamma"][0] == pytest.approx(1 - pi - beta, rel=REL)
    assert est.extra["gamma"][1] == pytest.approx(ref["se_gamma"], rel=REL)


def test_svymle_agrees_with_the_hand_made_sld_sandwich(expected):
    """make_references.R's analytic sandwich for the SLD and svymle give the same numbers."""
    hand = json.loads((HERE / "expected.json").read_text())["sld"]
    for which in ("full", "fpc"):
        assert expected["sld"][which]["coef"] == pytest.approx([hand[which]["pi"], hand[which]["t"]], rel=REL)
        assert expected["sld"][which]["se"] == pytest.approx([hand[which]["se_pi"], hand[which]["se_t"]], rel=REL)
