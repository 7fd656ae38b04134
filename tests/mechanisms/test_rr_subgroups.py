"""Subgroup estimates, differences (MOVER), the equality test and RR-versus-direct comparisons."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import chi2, norm

from dpdesk.errors import EstimationError
from dpdesk.mechanisms import rr
from dpdesk.mechanisms.rr import intervals
from dpdesk.mechanisms.rr.likelihood import OneParameter

T, Y = 2 / 3, 1 / 6
FORCED = rr.design("forced", p_truth=T, p_yes=Y, p_no=Y)
COUNTS = {"women": [700, 300], "men": [600, 400], "other": [130, 70]}


def _binom_loglik(yes, n, pi):
    lam = Y + T * pi
    return yes * math.log(lam) + (n - yes) * math.log(1 - lam)


def test_estimates_and_pairwise_differences_by_hand():
    res = rr.estimate_by(FORCED, COUNTS)
    assert list(res.estimates) == list(COUNTS)
    a, b = res.estimates["women"], res.estimates["men"]
    assert a.prevalence == pytest.approx((0.3 - Y) / T)
    assert b.prevalence == pytest.approx((0.4 - Y) / T)
    diff = res.differences[("women", "men")]
    se = math.hypot(math.sqrt(0.3 * 0.7 / 1000) / T, math.sqrt(0.4 * 0.6 / 1000) / T)
    assert diff.difference == pytest.approx(a.prevalence - b.prevalence)
    assert diff.se == pytest.approx(se, rel=1e-9)
    assert diff.z == pytest.approx(diff.difference / se, rel=1e-9)
    assert diff.p_value == pytest.approx(2 * norm.sf(abs(diff.z)), rel=1e-9)
    (la, ua), (lb, ub) = a.ci, b.ci
    d = a.prevalence - b.prevalence
    lo = d - math.sqrt((a.prevalence - la) ** 2 + (ub - b.prevalence) ** 2)
    hi = d + math.sqrt((ua - a.prevalence) ** 2 + (b.prevalence - lb) ** 2)
    assert diff.ci == pytest.approx((lo, hi), rel=1e-12)
    assert set(res.differences) == {("women", "men"), ("women", "other"), ("men", "other")}


def test_reference_differences():
    res = rr.estimate_by(FORCED, COUNTS, reference="men")
    assert set(res.differences) == {("women", "men"), ("other", "men")}
    assert res.reference == "men"
    with pytest.raises(EstimationError, match="reference"):
        rr.estimate_by(FORCED, COUNTS, reference="nobody")


def test_likelihood_ratio_test_by_hand():
    res = rr.estimate_by(FORCED, COUNTS)
    yes = {k: v[1] for k, v in COUNTS.items()}
    n = {k: sum(v) for k, v in COUNTS.items()}
    pooled = (sum(yes.values()) / sum(n.values()) - Y) / T
    g2 = 2 * sum(_binom_loglik(yes[k], n[k], (yes[k] / n[k] - Y) / T) - _binom_loglik(yes[k], n[k], pooled)
                 for k in COUNTS)
    assert res.test.df == 2
    assert res.test.pooled == pytest.approx(pooled)
    assert res.test.statistic == pytest.approx(g2, rel=1e-9)
    assert res.test.p_value == pytest.approx(chi2.sf(g2, 2), rel=1e-9)
    same = rr.estimate_by(FORCED, {"a": [700, 300], "b": [700, 300]})
    assert same.test.statistic == pytest.approx(0, abs=1e-9) and same.test.p_value == pytest.approx(1)


def test_wald_test_for_two_group_design():
    sld = rr.design("sld", p1=0.2, p2=0.8)
    counts = {"a": [[400, 500], [250, 650]], "b": [[450, 450], [300, 600]], "c": [[500, 400], [330, 570]]}
    res = rr.estimate_by(sld, counts, ci="wald")
    p = np.array([e.prevalence for e in res.estimates.values()])
    w = 1 / np.array([e.se for e in res.estimates.values()]) ** 2
    pbar = (w @ p) / w.sum()
    x2 = w @ (p - pbar) ** 2
    assert res.test.method.startswith("Wald")
    assert res.test.statistic == pytest.approx(x2, rel=1e-9)
    assert res.test.p_value == pytest.approx(chi2.sf(x2, 2), rel=1e-9)


def test_categories_compared_per_category():
    krr = rr.design("krr", categories=["a", "b", "c"], epsilon=1.0)
    res = rr.estimate_by(krr, {"x": [300, 300, 400], "y": [200, 300, 500]})
    diff = res.differences[("x", "y")]
    ex, ey = res.estimates["x"], res.estimates["y"]
    np.testing.assert_allclose(diff.difference, ex.prevalence - ey.prevalence)
    np.testing.assert_allclose(diff.se, np.hypot(ex.se, ey.se))
    assert np.asarray(diff.ci).shape == (3, 2)
    assert res.test is not None and res.test.df == 2 and len(res.test.by_category) == 3


def test_compare_two_estimates_and_checks():
    a = rr.estimate(FORCED, [700, 300])
    b = rr.estimate(FORCED, [650, 350])
    d = rr.compare(a, b)
    assert d.difference == pytest.approx(a.prevalence - b.prevalence)
    assert d.ci == pytest.approx(intervals.mover_difference(a.prevalence, a.ci, b.prevalence, b.ci))
    with pytest.raises(EstimationError, match="confidence"):
        rr.compare(a, rr.estimate(FORCED, [650, 350], confidence=0.9))
    with pytest.raises(EstimationError):
        rr.compare(a, 0.3)


def test_compare_direct_by_hand():
    est = rr.estimate(FORCED, [600, 400])  # RR prevalence 0.35
    res = rr.compare_direct(est, 120, 1000)
    p = 0.12
    se = math.hypot(est.se, math.sqrt(p * (1 - p) / 1000))
    assert res.direct == pytest.approx(p)
    assert res.direct_ci == pytest.approx(intervals.wilson(120, 1000, 0.95))
    assert res.difference == pytest.approx(est.prevalence - p)
    assert res.se == pytest.approx(se)
    assert res.z == pytest.approx((est.prevalence - p) / se)
    assert res.p_value == pytest.approx(norm.sf(res.z))  # one-sided: RR > DQ
    assert res.ci == pytest.approx(intervals.mover_difference(est.prevalence, est.ci, p, res.direct_ci))
    lower = rr.compare_direct(rr.estimate(FORCED, [750, 250]), 300, 1000)
    assert lower.difference < 0 and lower.p_value > 0.5
    at90 = rr.compare_direct(est, 120, 1000, confidence=0.9)
    assert at90.rr_ci == pytest.approx(rr.estimate(FORCED, [600, 400], confidence=0.9).ci)


@pytest.mark.parametrize("args", [(120, 0), (1200, 1000), (-1, 10), (1.5, 10), ("x", 10)])
def test_compare_direct_invalid_counts(args):
    with pytest.raises(EstimationError):
        rr.compare_direct(rr.estimate(FORCED, [600, 400]), *args)


def test_invalid_subgroup_input_names_the_group():
    with pytest.raises(EstimationError, match="map each subgroup"):
        rr.estimate_by(FORCED, {})
    with pytest.raises(EstimationError, match="'men'"):
        rr.estimate_by(FORCED, {"women": [700, 300], "men": [600, -1]})


def test_unary_subgroups_per_category_and_direct_needs_yes_no():
    u = rr.design("unary", categories=["a", "b"], epsilon=1.0)
    res = rr.estimate_by(u, {"x": [[60, 40], [70, 30]], "y": [[50, 50], [80, 20]]})
    assert np.asarray(res.differences[("x", "y")].difference).shape == (2,)
    with pytest.raises(EstimationError, match="yes/no"):
        rr.compare_direct(res.estimates["x"], 10, 100)


def test_categorical_likelihood_ratio_test_equals_the_homogeneity_g2_inside_the_simplex():
    """With an invertible matrix and interior estimates the model is a reparametrisation of
    the multinomial, so the test is the ordinary G^2 test of homogeneity of the counts table."""
    krr = rr.design("krr", categories=["a", "b", "c"], epsilon=1.0)
    table = np.array([[300, 300, 400], [250, 300, 450], [260, 280, 460]], float)
    res = rr.estimate_by(krr, {"x": table[0], "y": table[1], "z": table[2]}, ci="wald")
    expected = np.outer(table.sum(1), table.sum(0)) / table.sum()
    g2 = 2 * float(np.sum(table * np.log(table / expected)))
    assert res.test.statistic == pytest.approx(g2, rel=1e-9)
    assert res.test.df == (3 - 1) * (3 - 1)
    assert res.test.p_value == pytest.approx(chi2.sf(g2, 4), rel=1e-9)
    assert res.test.pooled == pytest.approx(rr.estimate(krr, table.sum(0)).frequencies)
    # per category: the yes/no test of "a or not" equals the 2 x 3 homogeneity G^2
    a = np.column_stack([table.sum(1) - table[:, 0], table[:, 0]])
    ea = np.outer(a.sum(1), a.sum(0)) / a.sum()
    assert res.test.by_category[0].statistic == pytest.approx(2 * float(np.sum(a * np.log(a / ea))), rel=1e-9)
    assert res.test.by_category[0].category == "a" and res.test.by_category[0].df == 2


def test_equal_distributions_are_rejected_at_the_nominal_rate():
    """Under equal distributions the LR test rejects about 5% of the time (krr and forced_multi)."""
    rng = np.random.default_rng(20261201)
    for d in (rr.design("krr", categories=3, epsilon=1.5),
              rr.design("forced_multi", p_truth=0.6, p_forced=[0.2, 0.1, 0.1])):
        lam = d.matrix @ np.array([0.5, 0.3, 0.2])
        sims = 400
        rejected = sum(rr.estimate_by(d, {"x": rng.multinomial(300, lam), "y": rng.multinomial(300, lam)},
                                      ci="wald").test.p_value < 0.05 for _ in range(sims))
        # binomial SE of a 5% rate over 400 runs is 1.1 points: allow 3.5 SE
        assert abs(rejected / sims - 0.05) < 3.5 * math.sqrt(0.05 * 0.95 / sims), (d.name, rejected)


def test_unary_test_is_per_option_with_bonferroni():
    u = rr.design("unary", categories=["tv", "radio", "web"], epsilon=2.0)
    counts = {"f": [[60, 40], [70, 30], [80, 20]], "m": [[50, 50], [70, 30], [90, 10]]}
    res = rr.estimate_by(u, counts, ci="wald")
    model = OneParameter.from_matrices([u.matrix])
    per = []
    for j in range(3):
        rows = [np.array(counts[g][j]) for g in counts]
        pooled = model.mle([sum(rows)])[0]
        g2 = 2 * sum(model.loglik([r], model.mle([r])[0]) - model.loglik([r], pooled) for r in rows)
        per.append(g2)
    assert [t.statistic for t in res.test.by_category] == pytest.approx(per, rel=1e-9)
    assert res.test.statistic == pytest.approx(max(per))
    assert res.test.p_value == pytest.approx(min(1.0, 3 * chi2.sf(max(per), 1)), rel=1e-9)
    assert "Bonferroni" in res.test.method and res.test.df == 1
