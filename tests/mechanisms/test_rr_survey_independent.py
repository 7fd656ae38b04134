"""rr.survey_compare_independent: two waves, each under its own design, against R survey
(tests/fixtures/survey/make_waves.R): wave 1 stratified, clustered and weighted (sample.csv), wave 2 a
simple random sample (wave2.csv). The references are committed; the tests never run R."""

import json
import math

import numpy as np
import pytest
from scipy import stats

from dpdesk.mechanisms import rr
from dpdesk.mechanisms.rr.survey.independent import welch_df
from tests.mechanisms.test_rr_survey_reference import HERE, _read

REL = 1e-6


@pytest.fixture(scope="module")
def waves():
    return _read("sample.csv"), _read("wave2.csv"), json.loads((HERE / "waves_expected.json").read_text())


def _compare(design, w1, w2, column):
    e1 = rr.survey_estimate(design, w1[column].astype(int), weights=w1["w"], strata=w1["stratum"],
                            clusters=w1["psu"])
    e2 = rr.survey_estimate(design, w2[column].astype(int))  # no design: unit weights
    k = len(design.responses)
    counts = {"wave 1": np.bincount(w1[column].astype(int), minlength=k),
              "wave 2": np.bincount(w2[column].astype(int), minlength=k)}
    return e1, e2, rr.survey_compare_independent({"wave 1": e1, "wave 2": e2}, counts)


def test_a_weighted_wave_against_an_unweighted_one_equals_r(waves):
    w1, w2, ref = waves
    ref = ref["warner"]
    e1, e2, res = _compare(rr.design("warner", p=0.7), w1, w2, "z_warner")
    assert (e1.unconstrained, e1.se, e1.df) == (pytest.approx(ref["estimate1"], rel=REL),
                                                pytest.approx(ref["se1"], rel=REL), ref["df1"])
    assert (e2.unconstrained, e2.se, e2.df) == (pytest.approx(ref["estimate2"], rel=REL),
                                                pytest.approx(ref["se2"], rel=REL), ref["df2"])
    diff = res.differences[("wave 1", "wave 2")]
    assert diff.difference == pytest.approx(ref["difference"], rel=REL)
    assert diff.se == pytest.approx(ref["se"], rel=REL)
    assert diff.se == pytest.approx(ref["stacked_se"], rel=REL)  # = svycontrast on the waves stacked as strata
    assert res.df[("wave 1", "wave 2")] == pytest.approx(ref["df"], rel=REL)
    assert diff.z == pytest.approx(ref["t"], rel=REL) and diff.p_value == pytest.approx(ref["p"], rel=REL)
    # the two-wave F test is the t test squared, on the same Welch df
    assert res.test.statistic == pytest.approx(ref["t"] ** 2, rel=REL)
    assert res.test.p_value == pytest.approx(ref["p"], rel=REL) and res.test_df == pytest.approx(ref["df"], rel=REL)
    # each wave keeps its own design: the weighted estimate is not the unweighted one
    unweighted = rr.estimate(rr.design("warner", p=0.7), np.bincount(w1["z_warner"].astype(int), minlength=2))
    assert abs(res.estimates["wave 1"].prevalence - unweighted.prevalence) > 0.01
    assert res.estimates["wave 1"].prevalence == pytest.approx(ref["estimate1"], rel=REL)


def test_categories_are_compared_one_by_one_as_r(waves):
    w1, w2, ref = waves
    ref = ref["krr"]
    d = rr.design("krr", categories=3, epsilon=1.0)
    e1, e2, res = _compare(d, w1, w2, "z_krr")
    diff = res.differences[("wave 1", "wave 2")]
    np.testing.assert_allclose(diff.difference, ref["difference"], rtol=REL)
    np.testing.assert_allclose(diff.se, ref["se"], rtol=REL)
    np.testing.assert_allclose(diff.se, ref["stacked_se"], rtol=REL)
    np.testing.assert_allclose(res.df[("wave 1", "wave 2")], ref["df"], rtol=REL)
    np.testing.assert_allclose(diff.p_value, ref["p"], rtol=REL)
    assert len(res.test.by_category) == 3


def test_welch_df_lies_between_the_smaller_df_and_their_sum():
    assert welch_df(1.0, 1.0, 10, 10) == pytest.approx(20)
    assert welch_df(1.0, 0.0, 12, 500) == pytest.approx(12)  # one wave carries all the variance
    assert 12 < welch_df(1.0, 0.5, 12, 500) < 512


def test_three_waves_test_on_the_smallest_design_df():
    d = rr.design("warner", p=0.7)
    rng = np.random.default_rng(3)  # test data only
    ests, counts = {}, {}
    for name, n in (("a", 200), ("b", 300), ("c", 150)):
        z = rng.binomial(1, 0.45, n)
        ests[name] = rr.survey_estimate(d, z)
        counts[name] = np.bincount(z, minlength=2)
    res = rr.survey_compare_independent(ests, counts)
    assert len(res.differences) == 3 and res.test_df == 149
    p = np.array([ests[k].unconstrained for k in "abc"])
    v = np.array([ests[k].se ** 2 for k in "abc"])
    C = np.array([[-1, 1, 0], [-1, 0, 1]])
    f = float((C @ p) @ np.linalg.solve(C @ np.diag(v) @ C.T, C @ p)) / 2
    assert res.test.statistic == pytest.approx(f) and res.test.p_value == pytest.approx(stats.f.sf(f, 2, 149))
    assert math.isfinite(res.test.p_value)
