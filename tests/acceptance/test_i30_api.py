"""Issue 30 as an outside checker uses it: each API exactly as the issue names it, on datasets the module
tests never saw (tests/fixtures/i30_heldout: simulated in Python, fitted in R by make_i30_heldout.R)."""

import random
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpdesk.errors import EstimationError
from dpdesk.mechanisms import rr

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "i30_heldout"
OUT = (HERE / "i30_heldout_output.txt").read_text()


def _numbers(tag: str) -> list[float]:
    line = next(s for s in OUT.splitlines() if s.startswith(tag + " "))
    return [float(v) for v in re.findall(r"-?\d+\.\d+(?:e-?\d+)?", line)]


@pytest.fixture(scope="module")
def lin():
    d = pd.read_csv(HERE / "lin.csv")
    X = np.column_stack([np.ones(len(d)), d.x])
    preds = {"drug": (rr.design("warner", p=0.7), d.r1.to_numpy()),
             "cheat": (rr.design("forced", p_truth=0.7, p_yes=0.15, p_no=0.15), d.r2.to_numpy())}
    return d, X, preds


def test_linear_as_named_in_the_issue_agrees_with_rrlin(lin):
    d, X, preds = lin
    f = rr.linear(d.y.to_numpy(), X, preds, names=["(Intercept)", "x"], confidence=0.95)
    b0, b_drug, b_cheat, b_x = _numbers("RRLIN beta")
    sigma, loglik = _numbers("RRLIN sigma")
    assert [c.name for c in f.coefficients] == ["(Intercept)", "x", "drug", "cheat"]
    for c, ref in zip(f.coefficients, (b0, b_x, b_drug, b_cheat)):
        assert c.estimate == pytest.approx(ref, abs=1e-3)  # RRlin stops 1e-5 to 1e-4 short of the optimum
        assert c.ci[0] < c.estimate < c.ci[1] and 0 <= c.p_value <= 1 and c.p_value == c.p and c.se > 0
    assert f.sigma == pytest.approx(sigma, abs=1e-3)
    assert f.loglik >= loglik - 1e-9  # fully converged: at least RRlin's likelihood
    assert f.loglik == pytest.approx(loglik, abs=1e-3)
    # to the full optimum, maximised in R from RRlin's estimate: 1e-6 relative (the issue's target)
    np.testing.assert_allclose([c.estimate for c in f.coefficients], _numbers("ML beta"), rtol=1e-6)
    np.testing.assert_allclose([c.se for c in f.coefficients], _numbers("ML se"), rtol=1e-6)
    ml_sigma, ml_loglik = _numbers("ML sigma")
    assert f.sigma == pytest.approx(ml_sigma, rel=1e-6) and f.loglik == pytest.approx(ml_loglik, abs=1e-8)
    assert f.n == 500 and set(f.prevalence) == {"drug", "cheat"}
    est, se = f.prevalence["drug"]
    assert 0 < est < 1 and se > 0


def test_linear_refuses_bad_names_and_a_constant_outcome_in_words(lin):
    d, X, preds = lin
    with pytest.raises(EstimationError, match="one name per column of X"):
        rr.linear(d.y.to_numpy(), X, preds, names=["a"])  # used to drop X's second column silently
    with pytest.raises(EstimationError, match="same value"):
        rr.linear(np.ones(len(d)), X, preds)  # used to raise a math domain error


def test_correlation_agrees_with_rrcor_and_accepts_the_seeds_a_user_passes(lin):
    d, X, preds = lin
    variables = {"y": d.y.to_numpy(), "x": d.x.to_numpy(), **preds}
    c = rr.correlation(variables, bootstrap=0)
    rows = [s.split()[1:] for s in OUT.split("RRCOR\n")[1].splitlines()[1:5]]
    assert c.names == ("y", "x", "drug", "cheat")
    np.testing.assert_allclose(c.r, np.array(rows, dtype=float), atol=1e-9)
    two = {"y": d.y.to_numpy(), "drug": preds["drug"]}
    a = rr.correlation(two, bootstrap=40, rng=3)
    for rng in (np.int64(3), np.random.default_rng(3), np.random.SeedSequence(3)):
        np.testing.assert_array_equal(rr.correlation(two, bootstrap=40, rng=rng).se, a.se)
    for rng in (random.Random(3), np.random.RandomState(3)):
        s1 = rr.correlation(two, bootstrap=40, rng=rng.__class__(3)).se
        np.testing.assert_array_equal(rr.correlation(two, bootstrap=40, rng=rng.__class__(3)).se, s1)
    for bad in ("abc", 1.5, -1):
        with pytest.raises(EstimationError, match="rng"):
            rr.correlation(two, bootstrap=10, rng=bad)
    for bad in (10.5, "100", True):
        with pytest.raises(EstimationError, match="bootstrap"):
            rr.correlation(two, bootstrap=bad)


def test_correlation_of_a_constant_variable_has_no_p_value(lin):
    d, X, preds = lin
    c = rr.correlation({"y": np.ones(len(d)), "drug": preds["drug"]}, bootstrap=20, rng=1)
    assert np.isnan(c.r[0, 1]) and np.isnan(c.p_value[0, 1])  # was p = 0: "significant" for an undefined r
    assert any("'y'" in note and "not defined" in note for note in c.notes)


def test_multilevel_as_named_agrees_with_glmer_on_string_labels():
    d = pd.read_csv(HERE / "ml.csv")
    X = np.column_stack([np.ones(len(d)), d.x])
    fr = rr.design("forced", p_truth=0.75, p_yes=0.125, p_no=0.125)
    vals = _numbers("RRMIXED beta")
    b, se, sd, ll = vals[0:2], vals[2:4], vals[4], vals[5]
    f = rr.logistic(fr, d.resp.to_numpy(), X, random_intercept=d.school.to_numpy())
    np.testing.assert_allclose([c.estimate for c in f.coefficients], b, atol=1e-4)
    np.testing.assert_allclose([c.se for c in f.coefficients], se, rtol=1e-3)
    assert f.random_sd[0] == pytest.approx(sd, abs=1e-4) and f.random_sd[2][0] < sd < f.random_sd[2][1]
    assert f.loglik == pytest.approx(ll, abs=1e-6)
    vals5 = _numbers("RRMIXED5 beta")
    f5 = rr.logistic(fr, d.resp.to_numpy(), X, random_intercept=list(d.school), nagq=5)
    np.testing.assert_allclose([c.estimate for c in f5.coefficients], vals5[0:2], atol=1e-4)
    assert f5.random_sd[0] == pytest.approx(vals5[2], abs=1e-4) and f5.loglik == pytest.approx(vals5[3], abs=1e-6)


def test_ecwm_estimate_as_named_agrees_with_an_r_maximum_likelihood():
    pi, se, g2, p = _numbers("ECWM pi")
    e = rr.estimate(rr.design("ecwm", p=0.2), [[60, 40], [45, 55]])
    assert e.prevalence == pytest.approx(pi, abs=1e-7) and e.se == pytest.approx(se, rel=1e-6)
    assert e.fit.df == 1 and e.fit.g2 == pytest.approx(g2, rel=1e-6) and e.fit.p_value == pytest.approx(p, rel=1e-6)
    assert e.ci[0] < e.prevalence < e.ci[1]
    for shape in (np.array([[60, 40], [45, 55]]), ((60, 40), (45, 55)), pd.DataFrame([[60, 40], [45, 55]])):
        assert rr.estimate(rr.design("ecwm", p=0.2), shape).prevalence == e.prevalence  # a DataFrame was refused
    for bad in ([60, 40, 45, 55], {1: [60, 40], 2: [45, 55]}, [60, 40]):
        with pytest.raises(EstimationError, match="one count vector per group"):
            rr.estimate(rr.design("ecwm", p=0.2), bad)
    assert e.extra["pi_group1"][0] == pytest.approx(2 / 3) and e.extra["pi_group2"][0] == pytest.approx(7 / 12)


def test_nagq_without_a_random_intercept_is_refused_not_ignored():
    fr = rr.design("forced", p_truth=0.75, p_yes=0.125, p_no=0.125)
    rng = np.random.default_rng(4)
    resp = rng.integers(0, 2, 60)
    X = np.column_stack([np.ones(60), rng.normal(size=60)])
    with pytest.raises(EstimationError, match="give random_intercept"):
        rr.logistic(fr, resp, X, nagq=5)
    assert rr.logistic(fr, resp, X, nagq=1).n == 60


def test_a_cluster_per_respondent_is_refused_in_words():
    """A numeric column given as the cluster by mistake: glmer stops (number of levels >= number of observations)."""
    fr = rr.design("forced", p_truth=0.75, p_yes=0.125, p_no=0.125)
    rng = np.random.default_rng(5)
    X = np.column_stack([np.ones(80), rng.normal(size=80)])
    with pytest.raises(EstimationError, match="cluster of their own"):
        rr.logistic(fr, rng.integers(0, 2, 80), X, random_intercept=X[:, 1])


def test_a_design_that_is_not_a_design_is_refused_in_words_by_the_multilevel_fit():
    X = np.ones((50, 1))
    with pytest.raises(EstimationError, match=r"rr.design\(...\)"):
        rr.logistic("warner", np.r_[np.ones(20, int), np.zeros(30, int)], X, random_intercept=np.arange(50) % 5)


def test_ecwm_logistic_as_named_agrees_with_an_r_maximum_likelihood():
    d = pd.read_csv(HERE / "ecwm_logistic.csv")
    X = np.column_stack([np.ones(len(d)), d.x, d.z])
    f = rr.logistic(rr.design("ecwm", p=0.25), d.same.to_numpy(), X, group=d.version.to_numpy())
    se_and_ll = _numbers("ECWMLOG se")
    np.testing.assert_allclose([c.estimate for c in f.coefficients], _numbers("ECWMLOG beta"), rtol=1e-6)
    np.testing.assert_allclose([c.se for c in f.coefficients], se_and_ll[:3], rtol=1e-6)
    assert f.loglik == pytest.approx(se_and_ll[3], abs=1e-8)


def test_multilevel_crosswise_with_unequal_clusters_agrees_with_glmer():
    d = pd.read_csv(HERE / "ml_cw.csv")
    X = np.column_stack([np.ones(len(d)), d.x, d.z])
    vals = _numbers("RRMIXEDCW beta")
    f = rr.logistic(rr.design("crosswise", p=0.25), d.resp.to_numpy(), X, random_intercept=d.country.to_numpy())
    np.testing.assert_allclose([c.estimate for c in f.coefficients], vals[0:3], atol=1e-4)  # glmer's optimum
    np.testing.assert_allclose([c.se for c in f.coefficients], vals[3:6], rtol=1e-3)
    assert f.random_sd[0] == pytest.approx(vals[6], abs=1e-4) and f.loglik == pytest.approx(vals[7], abs=1e-4)
    assert f.loglik >= vals[7] - 1e-8  # at least glmer's optimum (here 3e-6 above it)
    assert f.n_clusters == 40


def test_the_python_guide_example_of_the_models_runs():
    text = (Path(__file__).resolve().parents[2] / "docs" / "guide" / "python.md").read_text(encoding="utf-8")
    code = text.split("### Regression and correlation", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    env: dict = {}
    exec(compile(code, "python.md", "exec"), env)  # noqa: S102 - the guide's own example
    assert env["mixed"].random_sd[0] > 0 and env["mixed"].n_clusters == 30
    assert 0 < env["lin"].coefficient("cheating").p_value < 0.05 and env["cor"].r.shape == (2, 2)
