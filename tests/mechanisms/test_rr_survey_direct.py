"""rr.survey_compare_direct against R survey (tests/fixtures/survey/make_direct.R); its reduction to compare_direct."""

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from dpdesk.errors import EstimationError
from dpdesk.mechanisms import rr

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "survey"
REF = json.loads((FIXTURES / "direct_expected.json").read_text())
WARNER = rr.design("warner", p=0.7)


@pytest.fixture(scope="module")
def sample():
    return pd.concat([pd.read_csv(FIXTURES / "sample.csv"), pd.read_csv(FIXTURES / "direct.csv")], axis=1)


def _design(s):
    return {"weights": s["w"], "strata": s["stratum"], "clusters": s["psu"]}


def test_every_respondent_asked_both_equals_svycontrast(sample):
    est = rr.survey_estimate(WARNER, sample["z_warner"], **_design(sample))
    res = rr.survey_compare_direct(est, sample["d"])
    ref = REF["both"]
    assert res.rr == pytest.approx(ref["estimate"][0], rel=1e-9)
    assert res.direct == pytest.approx(ref["estimate"][1], rel=1e-9)
    assert res.difference == pytest.approx(ref["difference"], rel=1e-9)
    assert res.se == pytest.approx(ref["difference_se"][0][0], rel=1e-6)
    assert res.p_value == pytest.approx(1 - stats.t.cdf(res.difference / res.se, REF["df"]))
    assert res.ci[0] < res.difference < res.ci[1] and res.direct_ci[0] < res.direct < res.direct_ci[1]


def test_split_ballot_equals_svyby_contrast(sample):
    rr_arm = (sample["arm"] == "rr").to_numpy()
    est = rr.survey_estimate(WARNER, sample["z_warner"], used=rr_arm, **_design(sample))
    res = rr.survey_compare_direct(est, np.where(rr_arm, np.nan, sample["d"]))
    ref = REF["split"]
    assert ref["levels"] == ["dq", "rr"]
    assert res.rr == pytest.approx(ref["estimate"][1], rel=1e-9)
    assert res.direct == pytest.approx(ref["estimate"][0], rel=1e-9)
    assert res.difference == pytest.approx(ref["difference"], rel=1e-9)
    assert res.se == pytest.approx(ref["difference_se"][0][0], rel=1e-6)
    # respondents share PSUs: the two are correlated, so the SE is not the independent one
    independent = math.hypot(ref["se"][0], ref["se"][1])
    assert abs(res.se - independent) > 1e-4


def test_simple_random_sample_reduces_to_compare_direct():
    rng = np.random.default_rng(7)
    n = 400
    z = rng.integers(0, 2, n)
    d = np.where(np.arange(n) < 200, np.nan, rng.integers(0, 2, n))
    used = np.arange(n) < 200
    est = rr.survey_estimate(WARNER, z, used=used)
    res = rr.survey_compare_direct(est, d)
    yes = int(np.nansum(d))
    plain = rr.compare_direct(rr.estimate(WARNER, np.bincount(z[used], minlength=2)), yes, 200)
    # unit weights, one stratum of n = 400 respondent-PSUs: the variance is n / (n - 1) times the simple one
    # (the arms share no PSU, so they are uncorrelated, as compare_direct takes them)
    f = math.sqrt(400 / 399)
    assert res.direct == pytest.approx(plain.direct) and res.difference == pytest.approx(plain.difference)
    assert res.se == pytest.approx(plain.se * f, rel=1e-9)
    # Wilson's interval on the effective n: the simple Wilson interval up to the n / (n - 1) factor
    assert res.direct_ci == pytest.approx(plain.direct_ci, abs=2e-3)


def test_bad_direct_answers_are_named(sample):
    est = rr.survey_estimate(WARNER, sample["z_warner"], **_design(sample))
    with pytest.raises(EstimationError, match="one direct answer"):
        rr.survey_compare_direct(est, [1, 0])
    d = sample["d"].to_numpy(float).copy()
    d[4] = 2
    with pytest.raises(EstimationError, match="row 5"):
        rr.survey_compare_direct(est, d)
    cat = rr.survey_estimate(rr.design("krr", categories=["a", "b", "c"], epsilon=1), sample["z_krr"])
    with pytest.raises(EstimationError, match="yes/no"):
        rr.survey_compare_direct(cat, d)
