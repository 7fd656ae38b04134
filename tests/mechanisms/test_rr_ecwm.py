"""The extended crosswise model (Heck, Hoffmann & Moshagen 2018) against R maximum likelihood.

tests/fixtures/ecwm/make_ecwm.R computes the references from first principles (no CRAN package fits the
ECWM): the bounded ML of one common prevalence, its expected-information SE, the separate per-group MLs
kept in [0, 1], the non-adherence likelihood-ratio test, and a logistic regression on the latent state.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpdesk.errors import DesignError
from dpdesk.mechanisms import rr
from dpdesk.mechanisms.rr.design import ecwm_version

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "ecwm"
REF = json.loads((HERE / "ecwm_reference.json").read_text())


def test_design_is_crosswise_in_two_groups_with_complementary_question_b():
    d = rr.design("ecwm", p=0.25)
    assert d.groups == 2 and d.responses == ("no", "yes")
    pi = 0.3
    for m, pg in zip(d.matrices, (0.25, 0.75)):
        same = m[1] @ np.array([1 - pi, pi])
        assert same == pytest.approx(pi * pg + (1 - pi) * (1 - pg), abs=1e-15)
    # each version is the plain crosswise design of its question B; the same local epsilon
    assert np.allclose(ecwm_version(d, 1).matrix, d.matrices[0])
    assert np.allclose(ecwm_version(d, 2).matrix, d.matrices[1])
    assert d.epsilon == pytest.approx(rr.design("crosswise", p=0.25).epsilon)
    assert d.response_labels == ("The answers are different", "Both answers are the same")


def test_design_refuses_a_question_b_of_one_half():
    with pytest.raises(DesignError, match="far from 1/2"):
        rr.design("ecwm", p=0.5)


@pytest.mark.parametrize("case", REF["estimate"], ids=lambda c: f"p{c['p']}-{c['counts']}")
def test_estimate_against_r(case):
    d = rr.design("ecwm", p=case["p"])
    e = rr.estimate(d, case["counts"])
    # R's optimize() stops about 1e-8 from the optimum; the SE and the loglik are flat there
    assert e.prevalence == pytest.approx(case["prevalence"], abs=1e-7)
    assert e.se == pytest.approx(case["se"], rel=1e-6)
    assert e.loglik == pytest.approx(case["loglik"], rel=1e-9)
    assert e.fit.df == 1
    assert e.fit.g2 == pytest.approx(case["g2"], abs=1e-7)
    assert e.fit.p_value == pytest.approx(case["p_value"], rel=1e-5, abs=1e-9)
    for g in (1, 2):
        est, se = e.extra[f"pi_group{g}"]
        assert 0 <= est <= 1
        assert est == pytest.approx(case[f"pi_group{g}"][0], abs=1e-7)
        if est in (0.0, 1.0):  # R's script gives the information SE at the bound; dpdesk calls it undefined
            assert math.isnan(se)
        else:
            assert se == pytest.approx(case[f"pi_group{g}"][1], rel=1e-5)
    assert e.ci[0] <= e.prevalence <= e.ci[1]


def test_non_adherence_is_detected_when_one_version_is_answered_at_random():
    """10% of respondents always tick 'different' in both groups: the two groups' prevalences part."""
    rng = np.random.default_rng(7)
    d = rr.design("ecwm", p=0.2)
    n, pi = 20000, 0.3
    counts = []
    for pg in (0.2, 0.8):
        s = rng.random(n) < pi
        same = np.where(s, rng.random(n) < pg, rng.random(n) < 1 - pg)
        same[rng.random(n) < 0.1] = False
        counts.append([int(n - same.sum()), int(same.sum())])
    e = rr.estimate(d, counts)
    assert e.fit.p_value < 1e-6
    adherent = rr.estimate(d, [[int(n * (1 - (pi * pg + (1 - pi) * (1 - pg)))),
                                int(n * (pi * pg + (1 - pi) * (1 - pg)))] for pg in (0.2, 0.8)])
    assert adherent.fit.g2 == pytest.approx(0, abs=1e-3)


@pytest.mark.parametrize("ref", REF["logistic"], ids=lambda r: f"dataset{r['dataset']}")
def test_logistic_against_r(ref):
    df = pd.read_csv(HERE / "ecwm_logistic_data.csv")
    df = df[df.dataset == ref["dataset"]]
    X = np.column_stack([np.ones(len(df)), df.x, df.z])
    fit = rr.logistic(rr.design("ecwm", p=ref["p"]), df.same, X, group=df.group, names=["(Intercept)", "x", "z"])
    assert fit.nuisance is None
    for c, b, se in zip(fit.coefficients, ref["coef"], ref["se"]):
        assert c.estimate == pytest.approx(b, rel=1e-6, abs=1e-8)
        assert c.se == pytest.approx(se, rel=1e-5)
    assert fit.loglik == pytest.approx(ref["loglik"], rel=1e-10)


def test_logistic_needs_the_version_of_each_respondent():
    d = rr.design("ecwm", p=0.25)
    with pytest.raises(Exception, match="group"):
        rr.logistic(d, [0, 1, 1], np.ones((3, 1)))


def test_instructions_in_every_language_name_both_versions():
    from dpdesk.mechanisms.rr.wording import LANGUAGES, instructions

    d = rr.design("ecwm", p=0.25)
    assert "version 2" in d.describe() and "75%" in d.describe()
    for lang in LANGUAGES:
        text = instructions(d, lang)
        assert text and not math.isnan(len(text))


def test_question_b_cost_grows_as_one_over_2p_minus_1_squared():
    """The sample a crosswise-type design needs for the same precision, against a share of 1/4."""
    import math

    from dpdesk.mechanisms.rr.planning.sample_size import question_b_cost

    assert question_b_cost(0.25) == 1.0 and question_b_cost(0.75) == 1.0
    assert math.isclose(question_b_cost(5 / 12), 0.25 / (1 / 6) ** 2)  # = 9
    assert math.isclose(question_b_cost(0.4, reference=0.1), 0.64 / 0.04)
    assert question_b_cost(0.5) == math.inf
