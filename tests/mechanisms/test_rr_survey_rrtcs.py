"""rr.survey_estimate with ``population`` against RRTCS 0.0.4 on its packaged surveys (make_rrtcs.R).

Point estimates are RRTCS's Horvitz-Thompson means. Variances differ by design: RRTCS
uses Deville's approximation for unequal-probability sampling without replacement, with
every respondent its own unit, and dpdesk the with-replacement PSU linearization (equal to
R survey's ``svytotal / N``); docs/guide/intervals.md explains the difference.
"""

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from dpdesk.mechanisms import rr

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "survey"
EXPECTED = json.loads((HERE / "rrtcs_expected.json").read_text())


def _read(name):
    with open(HERE / name, newline="") as fh:
        rows = list(csv.DictReader(fh))
    return {k: np.array([float(r[k]) for r in rows]) for k in rows[0]}


@pytest.mark.parametrize("item", sorted(EXPECTED["real"]["items"]))
def test_real_survey_items_equal_rrtcs(item):
    ref = EXPECTED["real"]
    data = _read("rrtcs_real.csv")
    d = rr.design("unrelated", p_sensitive=ref["p"], q=ref["alpha"][item])
    est = rr.survey_estimate(d, data[item].astype(int), weights=data["w"], population=ref["N"])
    exp = ref["items"][item]
    assert est.unconstrained == pytest.approx(exp["rrtcs_estimate"], rel=1e-9)
    assert est.se == pytest.approx(exp["survey"]["se"], rel=1e-6)
    # a simple random sample: Deville's variance and the linearization differ only by the
    # finite-population factor and the split of the RR variance (within 5% here)
    assert est.se ** 2 == pytest.approx(exp["rrtcs_variance"], rel=0.05)


def test_stratified_clustered_survey_equals_rrtcs_point_estimate():
    ref = EXPECTED["stcl"]
    data = _read("rrtcs_stcl.csv")
    d = rr.design("unrelated", p_sensitive=ref["p"], q=ref["alpha"])
    est = rr.survey_estimate(d, data["z"].astype(int), weights=data["w"], strata=data["ST"], clusters=data["CL"],
                             population=ref["N"])
    assert est.unconstrained == pytest.approx(ref["rrtcs_estimate"], rel=1e-9)
    assert est.se == pytest.approx(ref["survey"]["se"], rel=1e-6)
    # RRTCS ignores the clusters: its variance is smaller than the clustered one
    assert est.se ** 2 > 1.3 * ref["rrtcs_variance"]


def test_stratified_forced_response_equals_rrtcs():
    ref = EXPECTED["forced_st"]
    data = _read("rrtcs_forced_st.csv")
    d = rr.design("forced", p_truth=0.6, p_yes=0.2, p_no=0.2)
    est = rr.survey_estimate(d, data["z"].astype(int), weights=data["w"], strata=data["ST"], population=ref["N"],
                             lonely_psu="certainty")
    assert est.unconstrained == pytest.approx(ref["rrtcs_estimate"], rel=1e-9)
    assert est.se == pytest.approx(ref["survey"]["se"], rel=1e-6)
    assert est.se ** 2 == pytest.approx(ref["rrtcs_variance"], rel=0.05)
