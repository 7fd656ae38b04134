"""Design-based estimates against R survey 4.1.1 (tests/fixtures/survey/make_references.R).

The references are committed: the tests never run R. Estimates and SEs agree to 1e-6
relative (the R values are printed with 15 significant digits).
"""

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from dpdesk.mechanisms import rr

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "survey"
REL = 1e-6

BINARY = {
    "warner": dict(p=0.7), "forced": dict(p_truth=0.5, p_yes=0.25, p_no=0.25),
    "unrelated": dict(p_sensitive=0.6, q=0.3), "crosswise": dict(p=0.25), "triangular": dict(p=0.3),
    "mangat": dict(p=0.7), "kuk": dict(p1=0.7, p2=0.3, draws=1),
    "custom": dict(matrix=[[0.8, 0.3], [0.2, 0.7]]),
}
CATEGORICAL = {
    "krr": dict(categories=3, epsilon=1.0),
    "forced_multi": dict(p_truth=0.6, p_forced=[0.2, 0.1, 0.1]),
}


def _read(name):
    with open(HERE / name, newline="") as fh:
        rows = list(csv.DictReader(fh))
    cols = {k: [r[k] for r in rows] for k in rows[0]}
    out = {}
    for k, v in cols.items():
        try:
            out[k] = np.array(v, float)
        except ValueError:
            out[k] = np.array(v, object)
    return out


@pytest.fixture(scope="module")
def data():
    return _read("sample.csv")


@pytest.fixture(scope="module")
def expected():
    return json.loads((HERE / "expected.json").read_text())


def _num(x):
    return float(np.ravel(x)[0])


def _design_args(d, which):
    return {
        "full": dict(weights=d["w"], strata=d["stratum"], clusters=d["psu"]),
        "fpc": dict(weights=d["w"], strata=d["stratum"], clusters=d["psu"], fpc=d["fpc"]),
        "weights_only": dict(weights=d["w"]),
        "clusters_only": dict(strata=d["stratum"], clusters=d["psu"]),
    }[which]


def test_r_script_uses_dpdesks_matrices():
    """The (a, b) the R script hard-codes are dpdesk's ``P(yes | state) = a + b state``."""
    text = (HERE / "make_references.R").read_text()
    for name, params in BINARY.items():
        m = rr.design(name, **params).matrix
        a, b = m[1, 0], m[1, 1] - m[1, 0]
        assert f"{name} = c(a = {a:g}, b = {b:g})" in text


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("which", ["full", "fpc", "weights_only", "clusters_only"])
def test_one_group_designs_equal_svymean(data, expected, name, which):
    ref = expected["binary"][name][which]
    est = rr.survey_estimate(rr.design(name, **BINARY[name]), data[f"z_{name}"].astype(int),
                             **_design_args(data, which))
    assert est.unconstrained == pytest.approx(ref["estimate"], rel=REL)
    assert est.se == pytest.approx(_num(ref["se"]), rel=REL)
    assert est.deff == pytest.approx(ref["deff"], rel=REL)
    assert est.n_effective == pytest.approx(est.n / est.deff, rel=1e-12)
    assert est.prevalence == min(1.0, max(0.0, est.unconstrained))
    assert est.df == (36 if which != "weights_only" else est.n) - (4 if which != "weights_only" else 1)


@pytest.mark.parametrize("name", sorted(BINARY))
def test_horvitz_thompson_with_population_equals_svytotal_over_n(data, expected, name):
    ref = expected["binary"][name]["horvitz_thompson"]
    est = rr.survey_estimate(rr.design(name, **BINARY[name]), data[f"z_{name}"].astype(int),
                             population=ref["population"], **_design_args(data, "full"))
    assert est.unconstrained == pytest.approx(ref["estimate"], rel=REL)
    assert est.se == pytest.approx(_num(ref["se"]), rel=REL)


@pytest.mark.parametrize("name", sorted(BINARY))
def test_domains_equal_svyby_with_covariance(data, expected, name):
    ref = expected["domains"][name]
    by = rr.survey_estimate_by(rr.design(name, **BINARY[name]), data[f"z_{name}"].astype(int), data["by"],
                               **_design_args(data, "full"))
    assert list(by) == ref["levels"]
    assert [e.unconstrained for e in by.values()] == pytest.approx(ref["estimate"], rel=REL)
    assert [e.se for e in by.values()] == pytest.approx(ref["se"], rel=REL)
    assert [e.deff for e in by.values()] == pytest.approx(ref["deff"], rel=REL)
    np.testing.assert_allclose(by.covariance, np.array(ref["covariance"]), rtol=REL)
    cov = np.array(ref["covariance"])
    diff = by.differences[("a", "b")]
    assert diff.se == pytest.approx(np.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]), rel=REL)


@pytest.mark.parametrize("name", sorted(CATEGORICAL))
@pytest.mark.parametrize("which", ["full", "fpc"])
def test_category_designs_equal_svymean_of_the_vector_transform(data, expected, name, which):
    ref = expected["categorical"][name][which]
    d = rr.design(name, **CATEGORICAL[name])
    est = rr.survey_estimate(d, data[f"z_{name}"].astype(int), **_design_args(data, which))
    assert [est.frequencies[c].unconstrained for c in d.categories] == pytest.approx(ref["estimate"], rel=REL)
    assert [est.frequencies[c].se for c in d.categories] == pytest.approx(ref["se"], rel=REL)
    assert [est.frequencies[c].deff for c in d.categories] == pytest.approx(ref["deff"], rel=REL)


@pytest.mark.parametrize("name", sorted(CATEGORICAL))
def test_category_domains_equal_svyby(data, expected, name):
    ref = expected["categorical"][name]["domains"]
    d = rr.design(name, **CATEGORICAL[name])
    by = rr.survey_estimate_by(d, data[f"z_{name}"].astype(int), data["by"], **_design_args(data, "full"))
    L = len(ref["levels"])
    # svyby orders its coefficients variable by variable: (r1 a, r1 b, r1 c, r2 a, ...)
    est = np.array([by[lab].unconstrained for lab in ref["levels"]])
    np.testing.assert_allclose(est, np.ravel(ref["estimate"]).reshape(3, L).T, rtol=REL)
    full = np.array(ref["covariance"])
    for j in range(3):
        idx = [j * L + i for i in range(L)]
        np.testing.assert_allclose(by.covariance[j], full[np.ix_(idx, idx)], rtol=REL)


@pytest.mark.parametrize("which", ["certainty", "average", "adjust"])
def test_lonely_psu_options_equal_survey(expected, which):
    d = _read("lonely.csv")
    ref = expected["lonely"][which]
    est = rr.survey_estimate(rr.design("warner", p=0.7), d["z_warner"].astype(int), weights=d["w"],
                             strata=d["stratum"], clusters=d["psu"], lonely_psu=which)
    assert est.unconstrained == pytest.approx(ref["estimate"], rel=REL)
    assert est.se == pytest.approx(_num(ref["se"]), rel=REL)


@pytest.mark.parametrize("which", ["full", "fpc"])
def test_sld_pseudo_ml_sandwich(data, expected, which):
    ref = expected["sld"][which]
    est = rr.survey_estimate(rr.design("sld", p1=0.3, p2=0.7), data["z_sld"].astype(int), groups=data["g"],
                             **_design_args(data, which))
    assert est.prevalence == pytest.approx(ref["pi"], rel=REL)
    assert est.se == pytest.approx(ref["se_pi"], rel=REL)
    assert est.extra["t"][0] == pytest.approx(ref["t"], rel=REL)
    assert est.extra["t"][1] == pytest.approx(ref["se_t"], rel=REL)
    assert est.deff == pytest.approx(ref["deff"], rel=REL)


def _X(d):
    return np.column_stack([np.ones(len(d["x1"])), d["x1"], d["x2"]])


def test_direct_answers_logistic_equals_svyglm(data, expected):
    ref = expected["svyglm"]
    fit = rr.logistic(rr.design("forced", p_truth=0.7, p_yes=0.15, p_no=0.15), data["state"].astype(int),
                      _X(data), group=np.zeros(len(data["x1"])), **_design_args(data, "full"))
    np.testing.assert_allclose(fit.beta, ref["coef"], rtol=REL)
    np.testing.assert_allclose([c.se for c in fit.coefficients], ref["se"], rtol=REL)


def test_rr_logistic_sandwich_equals_the_r_sandwich_and_svymle(data, expected):
    ref, mle = expected["rr_logistic"], expected["rr_logistic_svymle"]
    fit = rr.logistic(rr.design("forced", p_truth=0.7, p_yes=0.15, p_no=0.15), data["z_logit"].astype(int),
                      _X(data), **_design_args(data, "full"))
    np.testing.assert_allclose(fit.beta, ref["coef"], rtol=REL)
    np.testing.assert_allclose([c.se for c in fit.coefficients], ref["se"], rtol=REL)
    assert fit.df == ref["df"]
    # svymle differentiates numerically: agreement to 1e-6 relative is all it offers
    np.testing.assert_allclose(fit.beta, mle["coef"], rtol=1e-6)
    np.testing.assert_allclose([c.se for c in fit.coefficients], mle["se"], rtol=1e-6)
