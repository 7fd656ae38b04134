"""rr.survey_estimate, survey_estimate_by and weighted rr.logistic: reductions, errors, intervals."""

import math

import numpy as np
import pytest
from scipy.special import stdtrit

from dpdesk.errors import EstimationError
from dpdesk.mechanisms import rr

DESIGNS = {
    "warner": dict(p=0.7), "forced": dict(p_truth=0.5, p_yes=0.25, p_no=0.25),
    "unrelated": dict(p_sensitive=0.6, q=0.3), "crosswise": dict(p=0.25), "triangular": dict(p=0.3),
    "mangat": dict(p=0.7), "kuk": dict(p1=0.7, p2=0.3), "custom": dict(matrix=[[0.8, 0.3], [0.2, 0.7]]),
    "forced_multi": dict(p_truth=0.6, p_forced=[0.2, 0.1, 0.1]), "krr": dict(categories=3, epsilon=1.5),
    "sld": dict(p1=0.3, p2=0.7), "cdm": dict(p1=0.3, p2=0.7), "unrelated_unknown": dict(p1=0.3, p2=0.7),
}


#: latent-state distributions inside the parameter space, per number of states
STATES = {2: [0.7, 0.3], 3: [0.5, 0.3, 0.2], 4: [0.42, 0.28, 0.18, 0.12]}
TWO_GROUP_STATES = {"sld": [0.7, 0.24, 0.06], "cdm": [0.6, 0.3, 0.1], "unrelated_unknown": STATES[4]}


def _sample(d, n, seed):
    rng = np.random.default_rng(seed)
    groups = rng.integers(1, 3, n) if d.groups == 2 else np.ones(n, int)
    c = np.array(TWO_GROUP_STATES.get(d.model, STATES[len(d.states)]))
    probs = [M @ c for M in d.matrices]
    z = np.array([rng.choice(len(d.responses), p=probs[g - 1]) for g in groups])
    return z, (groups if d.groups == 2 else None)


def _counts(d, z, g):
    if d.groups == 2:
        return [np.bincount(z[g == k], minlength=2) for k in (1, 2)]
    return np.bincount(z, minlength=len(d.responses))


@pytest.mark.parametrize("name", sorted(DESIGNS))
def test_unit_weights_give_todays_estimate_and_se_times_sqrt_n_over_n_minus_1(name):
    d = rr.design(name, **DESIGNS[name])
    n = 400
    z, g = _sample(d, n, seed=len(name))
    today = rr.estimate(d, _counts(d, z, g))
    est = rr.survey_estimate(d, z, weights=np.ones(n), groups=g)
    np.testing.assert_allclose(est.prevalence, today.prevalence, rtol=1e-10, atol=1e-12)
    inside = np.all((np.asarray(today.prevalence) > 0) & (np.asarray(today.prevalence) < 1))
    assert inside
    np.testing.assert_allclose(est.se, np.asarray(today.se) * math.sqrt(n / (n - 1)), rtol=1e-9)
    np.testing.assert_allclose(est.deff, 1.0, rtol=1e-9)
    np.testing.assert_allclose(est.n_effective, n, rtol=1e-9)
    # deff 1 and df = n - 1: the default interval is today's
    np.testing.assert_allclose(est.ci, today.ci, atol=1e-7)
    assert est.df == n - 1


def test_kuk_with_several_cards_is_pseudo_ml():
    d = rr.design("kuk", p1=0.7, p2=0.3, draws=3)
    rng = np.random.default_rng(3)
    states = rng.random(600) < 0.4
    z = rng.binomial(3, np.where(states, 0.7, 0.3))
    today = rr.estimate(d, np.bincount(z, minlength=4))
    est = rr.survey_estimate(d, z)
    assert est.prevalence == pytest.approx(today.prevalence, rel=1e-9)
    # a sandwich: model-based and robust SEs agree only where the model fits (here it does, roughly)
    assert est.se == pytest.approx(today.se, rel=0.15)


def test_weights_change_the_estimate_as_a_hajek_mean():
    d = rr.design("warner", p=0.7)
    z = np.array([1, 1, 0, 0, 1, 0])
    w = np.array([1, 2, 3, 1, 1, 2.0])
    est = rr.survey_estimate(d, z, weights=w)
    r = (z - 0.3) / 0.4
    assert est.unconstrained == pytest.approx(float(w @ r / w.sum()))
    # scaling the weights changes nothing but the total
    est2 = rr.survey_estimate(d, z, weights=10 * w)
    assert est2.unconstrained == pytest.approx(est.unconstrained)
    assert est2.se == pytest.approx(est.se)


@pytest.mark.parametrize("bad, words", [(0.0, "zero"), (-1.0, "negative"), (math.nan, "missing")])
def test_bad_weights_name_the_rows(bad, words):
    w = np.ones(10)
    w[[3, 7]] = bad
    with pytest.raises(EstimationError, match=rf"{words}.*rows 4, 8"):
        rr.survey_estimate(rr.design("warner", p=0.7), np.zeros(10, int), weights=w)


def test_missing_stratum_and_response_name_the_rows():
    d = rr.design("warner", p=0.7)
    with pytest.raises(EstimationError, match="stratum is missing in row 2"):
        rr.survey_estimate(d, [0, 1, 0, 1], strata=["a", None, "a", "b"])
    with pytest.raises(EstimationError, match="row 3"):
        rr.survey_estimate(d, [0, 1, 2, 1])


def test_a_stratum_with_one_psu_is_an_error_naming_it_unless_an_option_is_chosen():
    d = rr.design("warner", p=0.7)
    z = np.array([0, 1, 1, 0, 1, 0, 1])
    strata = ["north"] * 4 + ["south"] * 3
    clusters = [1, 1, 2, 2, 5, 5, 5]
    with pytest.raises(EstimationError, match=r"Stratum 'south' has only one PSU.*certainty"):
        rr.survey_estimate(d, z, strata=strata, clusters=clusters)
    cert = rr.survey_estimate(d, z, strata=strata, clusters=clusters, lonely_psu="certainty")
    avg = rr.survey_estimate(d, z, strata=strata, clusters=clusters, lonely_psu="average")
    assert avg.se == pytest.approx(cert.se * math.sqrt(2))
    with pytest.raises(EstimationError, match="lonely_psu"):
        rr.survey_estimate(d, z, strata=strata, clusters=clusters, lonely_psu="drop")


def test_a_fully_sampled_stratum_adds_no_variance():
    d = rr.design("warner", p=0.7)
    z = np.array([0, 1, 1, 0, 1, 0])
    strata = ["a", "a", "a", "b", "b", "b"]
    fpc = [3, 3, 3, 100, 100, 100]
    est = rr.survey_estimate(d, z, strata=strata, fpc=fpc)
    only_b = rr.survey_estimate_by(d, z, strata, strata=strata, fpc=fpc)
    assert only_b["a"].se == pytest.approx(0.0, abs=1e-15)
    assert est.se > 0


def test_population_is_horvitz_thompson_and_refused_for_two_group_designs():
    d = rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)
    z = np.array([1, 0, 1, 1])
    w = np.array([10, 20, 30, 40.0])
    est = rr.survey_estimate(d, z, weights=w, population=104)
    assert est.unconstrained == pytest.approx(float(w @ ((z - 0.25) / 0.5)) / 104)
    assert "Horvitz-Thompson" in est.describe()
    with pytest.raises(EstimationError, match="population"):
        rr.survey_estimate(rr.design("sld", p1=0.3, p2=0.7), z, groups=[1, 2, 1, 2], population=200)


def test_clustering_inflates_the_interval_and_notes_say_so():
    rng = np.random.default_rng(5)
    d = rr.design("forced", p_truth=0.7, p_yes=0.15, p_no=0.15)
    psu = np.repeat(np.arange(40), 20)
    prev = np.clip(0.3 + rng.normal(0, 0.2, 40), 0, 1)[psu]
    z = (rng.random(800) < 0.15 + 0.7 * (rng.random(800) < prev)).astype(int)
    strata = psu % 4
    est = rr.survey_estimate(d, z, strata=strata, clusters=psu)
    srs = rr.survey_estimate(d, z)
    assert est.deff > 1.5
    assert est.ci[1] - est.ci[0] > (srs.ci[1] - srs.ci[0]) * math.sqrt(est.deff) * 0.95
    text = est.describe()
    assert text.startswith("Unweighted; Taylor linearization with 4 strata and 40 PSUs; design effect")
    assert f"(effective n {est.n_effective:.0f})" in text
    t = rr.survey_estimate(d, z, strata=strata, clusters=psu, ci="t")
    assert 1 <= est.df_effective <= est.df == 36
    q = stdtrit(est.df_effective, 0.975)
    assert t.ci == pytest.approx((max(0, est.prevalence - q * est.se), est.prevalence + q * est.se), rel=1e-9)
    assert est.to_dict()["sample_design"]["psus"] == 40


def test_domains_never_subset_the_design():
    """A domain absent from some PSUs still counts those PSUs (zero totals), as svyby."""
    d = rr.design("warner", p=0.7)
    rng = np.random.default_rng(9)
    psu = np.repeat(np.arange(10), 10)
    by = np.where(psu < 3, "x", rng.choice(["x", "y"], 100))
    z = rng.integers(0, 2, 100)
    dom = rr.survey_estimate_by(d, z, by, clusters=psu)
    sub = rr.survey_estimate(d, z[by == "y"], clusters=psu[by == "y"])
    assert dom["y"].unconstrained == pytest.approx(sub.unconstrained)
    assert dom["y"].se != pytest.approx(sub.se, rel=1e-3)
    assert dom["y"].df == 9 and sub.df == 6
    diff = dom.differences[("x", "y")]
    assert diff.difference == pytest.approx(dom["x"].prevalence - dom["y"].prevalence)
    assert dom.tests[0].df_num == 1
    assert dom.tests[0].f == pytest.approx(((dom["x"].unconstrained - dom["y"].unconstrained) / diff.se) ** 2)


def test_weighted_logistic_with_unit_weights_keeps_the_coefficients():
    rng = np.random.default_rng(11)
    n = 3000
    d = rr.design("forced", p_truth=0.7, p_yes=0.15, p_no=0.15)
    X = np.column_stack([np.ones(n), rng.normal(size=n)])
    s = rng.random(n) < 1 / (1 + np.exp(-(X @ [-0.5, 0.8])))
    z = (rng.random(n) < np.where(s, 0.85, 0.15)).astype(int)
    plain = rr.logistic(d, z, X, ci="wald", lr_tests=False)
    weighted = rr.logistic(d, z, X, weights=np.ones(n))
    np.testing.assert_allclose(weighted.beta, plain.beta, rtol=1e-8)
    # the sandwich and the model-based SE estimate the same thing when the model is right
    np.testing.assert_allclose([c.se for c in weighted.coefficients], [c.se for c in plain.coefficients], rtol=0.1)
    assert "not valid" in weighted.ci_method
    assert math.isnan(weighted.coefficients[1].lr_chi2)
    assert weighted.df == n - 1
    assert weighted.to_dict()["design_df"] == n - 1


def test_effective_df_is_satterthwaites():
    """Equal strata keep the design df; one stratum with two PSUs and most of the variance cuts it."""
    d = rr.design("warner", p=0.7)
    rng = np.random.default_rng(4)
    z = rng.integers(0, 2, 400)
    strata = np.repeat([0, 1], 200)
    even = rr.survey_estimate(d, z, strata=strata, clusters=np.arange(400) // 10)
    assert even.df == 38 and even.df_effective > 30
    w = np.where(strata == 1, 50.0, 1.0)
    psu = np.where(strata == 1, np.arange(400) % 2, np.arange(400) // 10)
    lopsided = rr.survey_estimate(d, z, weights=w, strata=strata, clusters=psu)
    assert lopsided.df == 20 and lopsided.df_effective < 3


def test_planning_with_a_design_effect_is_planning_with_n_over_deff():
    coin = rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)
    assert rr.expected_halfwidth(coin, 1000, 0.2, deff=2) == pytest.approx(rr.expected_halfwidth(coin, 500, 0.2))
    assert rr.power(coin, 1000, 0.2, null=0.1, deff=2) == pytest.approx(rr.power(coin, 500, 0.2, null=0.1))
    base = rr.required_n(coin, 0.05, 0.2)
    assert abs(rr.required_n(coin, 0.05, 0.2, deff=2) - 2 * base) <= 2
    with pytest.raises(EstimationError, match="design effect"):
        rr.required_n(coin, 0.05, 0.2, deff=0)


def test_a_missing_domain_names_the_row_of_the_whole_sample():
    d = rr.design("warner", p=0.7)
    by = np.array(["a", "b", None, "a", None], dtype=object)
    with pytest.raises(EstimationError, match="missing in row 5"):
        rr.survey_estimate_by(d, [0, 1, 1, 0, 1], by, used=[True, True, False, True, True])


def test_effective_df_comes_from_the_design_not_the_answers():
    """The strata's shares in Satterthwaite's df are their squared weights: other answers, same df."""
    d = rr.design("warner", p=0.7)
    rng = np.random.default_rng(5)
    strata = np.repeat([0, 1], 200)
    w = np.where(strata == 1, 8.0, 1.0)
    psu = np.where(strata == 1, np.arange(400) % 2, np.arange(400) // 10)
    dfs = {rr.survey_estimate(d, rng.integers(0, 2, 400), weights=w, strata=strata, clusters=psu).df_effective
           for _ in range(3)}
    v = np.array([200 * 1.0, 200 * 64.0])  # sum of squared weights per stratum
    assert len(dfs) == 1 and dfs.pop() == pytest.approx(v.sum() ** 2 / (v[0] ** 2 / 19 + v[1] ** 2 / 1))


def test_population_without_weights_is_refused_in_words():
    d = rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)
    with pytest.raises(EstimationError, match="needs survey weights.*leave the population size out"):
        rr.survey_estimate(d, [1, 0, 1, 1], population=200)


def test_weights_far_from_the_population_size_are_warned_about():
    d = rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)
    z = np.array([1, 0, 1, 1])
    w = np.array([10, 20, 30, 40.0])                       # sum 100
    with pytest.warns(UserWarning, match="weights sum to 100, far from the population size 200"):
        est = rr.survey_estimate(d, z, weights=w, population=200)
    assert est.warnings and "far from the population size" in est.describe()
    assert est.to_dict()["warnings"] == list(est.warnings)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        near = rr.survey_estimate(d, z, weights=w, population=105)   # 5% off: no warning
    assert near.warnings == ()
