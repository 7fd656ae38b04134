"""The extended crosswise model in a complex sample against R survey (tests/fixtures/survey/make_ecwm_svymle.R).

The common prevalence and its SE against ``svymle`` (weighted pseudo-ML, sandwich variance); each
version's prevalence, their covariance and the design-based Wald test of equal prevalence against
``svyby`` + ``svycontrast`` and ``pf(X^2, 1, degf)``. The references are committed: the tests never run R.
"""

import csv
import json
import math
from pathlib import Path

import numpy as np
import pytest

from dpdesk.errors import EstimationError
from dpdesk.mechanisms import rr

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "survey"
REL = 1e-6


@pytest.fixture(scope="module")
def data():
    with open(HERE / "ecwm.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    out = {k: np.array([r[k] for r in rows], object) for k in rows[0]}
    for k in ("psu", "w", "fpc", "g", "z_ecwm", "z_ecwm_na"):
        out[k] = out[k].astype(float)
    return out


@pytest.fixture(scope="module")
def expected():
    return json.loads((HERE / "ecwm_expected.json").read_text())


def _args(d, which):
    return {"full": dict(weights=d["w"], strata=d["stratum"], clusters=d["psu"]),
            "fpc": dict(weights=d["w"], strata=d["stratum"], clusters=d["psu"], fpc=d["fpc"]),
            "weights_only": dict(weights=d["w"])}[which]


@pytest.mark.parametrize("z", ["z_ecwm", "z_ecwm_na"])
@pytest.mark.parametrize("which", ["full", "fpc", "weights_only"])
def test_ecwm_equals_svymle_and_svycontrast(data, expected, which, z):
    ref = expected[z][which]
    est = rr.survey_estimate(rr.design("ecwm", p=expected["p"]), data[z].astype(int), groups=data["g"].astype(int),
                             **_args(data, which))
    assert est.prevalence == pytest.approx(ref["pi"], rel=REL)
    assert est.se == pytest.approx(ref["se"], rel=REL)
    for k in (1, 2):
        value, se = est.extra[f"pi_group{k}"]
        assert value == pytest.approx(min(1.0, max(0.0, ref["versions"][k - 1])), rel=REL)
        assert se == pytest.approx(ref["versions_se"][k - 1], rel=REL)
    t = est.adherence
    assert (t.df_num, t.df_den) == (1, ref["df"])
    assert t.f == pytest.approx(ref["wald"], rel=REL)
    assert t.p_value == pytest.approx(ref["p_value"], rel=REL)
    assert t.difference == pytest.approx(ref["versions"][0] - ref["versions"][1], rel=REL)
    low, high = est.ci
    assert low < est.prevalence < high


def test_the_test_rejects_only_when_respondents_do_not_adhere(data, expected):
    """Everyone adheres: p = .36; 25% answer "different" whatever the truth: p < .001 in every design."""
    assert all(expected["z_ecwm"][w]["p_value"] > 0.05 for w in ("full", "fpc", "weights_only"))
    assert all(expected["z_ecwm_na"][w]["p_value"] < 0.001 for w in ("full", "fpc", "weights_only"))


def test_unit_weights_give_the_unweighted_estimate(data):
    """With unit weights and no design the pseudo-ML is rr.estimate's ML of the common prevalence."""
    d = rr.design("ecwm", p=0.25)
    z, g = data["z_ecwm"].astype(int), data["g"].astype(int)
    est = rr.survey_estimate(d, z, groups=g)
    counts = [np.bincount(z[g == k], minlength=2) for k in (1, 2)]
    plain = rr.estimate(d, counts)
    assert est.prevalence == pytest.approx(plain.prevalence, rel=1e-9)
    for k in (1, 2):  # each version's estimate is its moment estimate, the ML inside [0, 1]
        assert est.extra[f"pi_group{k}"][0] == pytest.approx(plain.extra[f"pi_group{k}"][0], rel=1e-9)
    # a version is a domain of the whole sample: its linearized SE is the binomial one times sqrt(n / (n - 1))
    n = len(z)
    for k in (1, 2):
        assert est.extra[f"pi_group{k}"][1] == pytest.approx(plain.extra[f"pi_group{k}"][1] * math.sqrt(n / (n - 1)),
                                                             rel=1e-9)
    assert est.to_dict()["non_adherence_test"]["df_den"] == len(z) - 1


def test_a_population_size_and_an_empty_version_are_refused(data):
    d = rr.design("ecwm", p=0.25)
    z, g = data["z_ecwm"].astype(int), data["g"].astype(int)
    with pytest.raises(EstimationError, match="leave population out"):
        rr.survey_estimate(d, z, groups=g, weights=data["w"], population=50_000)
    with pytest.raises(EstimationError, match="Version 2 .* has no respondents"):
        rr.survey_estimate(d, z, groups=np.ones_like(g), weights=data["w"])


def test_each_version_is_a_crosswise_domain_with_its_own_interval(data):
    """A version's estimate, SE and interval are those of a crosswise design with p_g on the version's domain."""
    d = rr.design("ecwm", p=0.25)
    z, g = data["z_ecwm"].astype(int), data["g"].astype(int)
    est = rr.survey_estimate(d, z, groups=g, **_args(data, "full"))
    for k, p in ((1, 0.25), (2, 0.75)):
        alone = rr.survey_estimate(rr.design("crosswise", p=p), z, used=g == k, **_args(data, "full"))
        value, se, ci, n = est.adherence.versions[k - 1]
        assert (value, se) == pytest.approx((alone.prevalence, alone.se), rel=1e-12)
        assert ci == pytest.approx(alone.ci, rel=1e-12)
        assert n == int(np.sum(g == k))


def test_the_t_interval_and_answers_left_out(data):
    """ci="t": estimate +- t_df SE, cut to [0, 1]; rows left out with ``used`` keep their PSU (a domain)."""
    from scipy.special import stdtrit

    d = rr.design("ecwm", p=0.25)
    z, g = data["z_ecwm"].astype(int), data["g"].astype(int)
    est = rr.survey_estimate(d, z, groups=g, ci="t", **_args(data, "full"))
    t = stdtrit(est.df_effective, 0.975)
    assert est.ci == pytest.approx((est.prevalence - t * est.se, est.prevalence + t * est.se), rel=1e-9)
    used = np.arange(len(z)) % 7 != 0
    part = rr.survey_estimate(d, z, groups=g, used=used, **_args(data, "full"))
    alone = rr.survey_estimate(d, z[used], groups=g[used], weights=data["w"][used])
    assert part.n == int(used.sum()) and part.prevalence == pytest.approx(alone.prevalence, rel=1e-9)
    assert part.adherence.df_den == est.adherence.df_den  # the design keeps every PSU
