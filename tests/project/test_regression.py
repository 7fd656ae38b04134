"""dpdesk.project.regression: design matrices from a project's columns, and the fit."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dpdesk.errors import DataError
from dpdesk.mechanisms import rr
from dpdesk.project import Project
from dpdesk.project.example import ITEMS, example_folder
from dpdesk.project.reading import read_table
from dpdesk.project.regression import regress

FORCED = rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    path = tmp_path_factory.mktemp("regression") / "example.dpdesk"
    table = read_table(example_folder() / "students.csv")
    with Project.create(path) as project:
        project.add_dataset("students", table.frame, source=table.source.to_dict(), options={},
                            report=table.report.to_dict())
        for it in ITEMS:
            project.add_item(it["name"], rr.design(it["design"], **it["params"]), column=it["column"],
                             codes=it["codes"], group_column=it.get("group_column"),
                             group_codes=it.get("group_codes"), question=it["question"])
    project = Project.open(path)
    yield project
    project.close()


@pytest.fixture(scope="module")
def students():
    return pd.read_csv(example_folder() / "students.csv", keep_default_na=False)


def test_the_example_has_real_covariate_effects(example, students):
    """Cheating falls with age and rises with exam stress (odds ratios 0.90 and 1.35 in the generator)."""
    res = regress(example, "exam_cheating", ["age", "exam_stress", "faculty"], reference={"faculty": "arts"})
    rr_rows = students["mode"] == "randomized"
    assert res.n_rows == 1200 and res.n_used == int(rr_rows.sum())
    assert res.excluded_answers == int((~rr_rows).sum()) and res.excluded_covariates == {}
    age, stress = res.fit.coefficient("age"), res.fit.coefficient("exam_stress")
    assert age.odds_ratio_ci[1] < 1 and stress.odds_ratio_ci[0] > 1
    assert age.ci[0] < math.log(0.90) < age.ci[1] and stress.ci[0] < math.log(1.35) < stress.ci[1]
    (faculty,) = res.fit.terms
    assert faculty.name == "faculty" and faculty.df == 3
    assert faculty.columns == ("faculty[Law]", "faculty[Medicine]", "faculty[Science]")
    (p,) = [p for p in res.predictors if p.column == "faculty"]
    assert p.reference == "Arts" and p.levels == ("Arts", "Law", "Medicine", "Science")
    # the same numbers as rr.logistic on a matrix built by hand
    d = students[rr_rows]
    X = np.column_stack([np.ones(len(d)), d.age, d.exam_stress] + [d.faculty == f for f in ("Law", "Medicine", "Science")])
    ref = rr.logistic(FORCED, (d.cheat_rr == "Yes").astype(int), X.astype(float), ci="wald", lr_tests=False)
    np.testing.assert_allclose(res.fit.beta, ref.beta, rtol=1e-9, atol=1e-10)
    assert res.to_dict()["fit"]["n"] == res.n_used


def test_centring_moves_only_the_intercept(example):
    plain = regress(example, "exam_cheating", ["age"])
    centred = regress(example, "exam_cheating", ["age"], center=["age"])
    assert centred.fit.coefficient("age").estimate == pytest.approx(plain.fit.coefficient("age").estimate, abs=1e-8)
    (p,) = centred.predictors
    assert p.centre == pytest.approx(22.5, abs=0.5)
    b0 = plain.fit.beta[0] + plain.fit.beta[1] * p.centre
    assert centred.fit.beta[0] == pytest.approx(b0, abs=1e-7)
    assert centred.fit.loglik == pytest.approx(plain.fit.loglik, abs=1e-8)


def test_interactions_and_the_default_reference(example):
    res = regress(example, "exam_cheating", ["age", "gender"], center=["age"], interactions=["age:gender"])
    (g,) = [p for p in res.predictors if p.column == "gender"]
    assert g.reference == "female"  # the largest group
    assert res.fit.names[-2:] == ("age:gender[diverse]", "age:gender[male]")
    assert [t.name for t in res.fit.terms] == ["gender", "age:gender"]
    assert res.interactions == ("age:gender",)


def test_a_two_group_item_estimates_its_nuisance(example, students):
    res = regress(example, "drug_use", ["faculty"], reference={"faculty": "Arts"})
    assert res.fit.nuisance.name == "t"
    assert 0 <= res.fit.nuisance.estimate <= 1
    assert res.excluded_answers == int((students["mode"] == "direct").sum())  # blank answers, group 0


def test_missing_covariates_are_left_out_and_counted(tmp_path):
    rng = np.random.default_rng(0)
    n = 600
    age = rng.integers(18, 30, n).astype(object)
    age[:25] = ""  # blanks
    answers = np.where(rng.random(n) < 0.4, "Yes", "No").astype(object)
    answers[25:35] = ""
    frame = pd.DataFrame({"age": age, "faculty": rng.choice(["Arts", "Law"], n), "q": answers})
    path = tmp_path / "p.dpdesk"
    with Project.create(path) as project:
        project.add_dataset("d", frame, source={"name": "d.csv"}, options={}, report={})
        project.add_item("cheat", FORCED, column="q", codes={"no": ["No"], "yes": ["Yes"]})
        res = regress(project, "cheat", ["age", "faculty"])
        project.add_item("colour", rr.design("krr", categories=["red", "blue", "green"], epsilon=1), column="q",
                         codes={"red": ["Yes"], "blue": ["No"], "green": ["x"]})
        with pytest.raises(DataError, match="'colour' \\(krr\\) has several categories; regression needs a yes/no"):
            regress(project, "colour", ["age"])
    assert res.n_used == n - 35 and res.excluded_answers == 10 and res.excluded_covariates == {"age": 25}
    assert res.n_excluded == 35
    assert [p.kind for p in res.predictors] == ["numeric", "categorical"]


@pytest.mark.parametrize("kwargs, match", [
    (dict(item_name="nope"), "no item 'nope'"),
    (dict(predictors=["agee"]), "no column 'agee'.*case-sensitive"),
    (dict(reference={"faculty": "Music"}), "'Music' of 'faculty' is not one of its levels"),
    (dict(reference={"gender": "male"}), "'gender' is given a reference level"),
    (dict(interactions=["age:gender"]), "'gender' is not among the predictors"),
    (dict(interactions=["age"]), "two predictors joined by a colon"),
    (dict(center=["faculty"]), "categorical and cannot be centred"),
    (dict(predictors=[]), "at least one predictor"),
])
def test_bad_requests_say_what_to_fix(example, kwargs, match):
    args = dict(item_name="exam_cheating", predictors=["age", "faculty"])
    args.update(kwargs)
    with pytest.raises(DataError, match=match):
        regress(example, args.pop("item_name"), args.pop("predictors"), **args)


def test_a_direct_question_group_enters_at_face_value(example, students):
    """The comparison group under-reports (55% of cheaters admit it): randomized response finds more."""
    res = regress(example, "exam_cheating", ["mode", "exam_stress"], reference={"mode": "direct"},
                  direct_column="cheat_direct")
    direct = int((students["mode"] == "direct").sum())
    assert res.n_used == 1200 and res.fit.n_direct == direct and res.excluded_answers == 0
    rr_vs_dq = res.fit.coefficient("mode[randomized]")
    assert rr_vs_dq.odds_ratio_ci[0] > 1
    # the direct rows alone are an ordinary logistic regression: their posterior is their answer
    post = res.fit.posterior()
    g = res.fit._data.A0 + res.fit._data.B0  # P(answer | carrier) = 1 or 0 for direct answers
    assert set(post[(res.fit._data.A0 == 1) & (g == 0)].round(12)) == {0.0}
    with pytest.raises(DataError, match="no column 'nope' for the direct question"):
        regress(example, "exam_cheating", ["mode"], direct_column="nope")


from types import SimpleNamespace  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from dpdesk.project.regression import design_matrix  # noqa: E402


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(["Arts", "Law", " law ", "Medicine", "", None]), min_size=2, max_size=40),
       st.lists(st.one_of(st.integers(-50, 50), st.none()), min_size=40, max_size=40))
def test_dummies_and_missing_rows_reconstruct_the_data(levels, numbers):
    n = len(levels)
    frame = pd.DataFrame({"fac": pd.Series(levels, dtype=object), "x": pd.Series(numbers[:n], dtype="float64")})
    table = SimpleNamespace(frame=frame, report=None)
    present = {str(v).strip().casefold() for v, x in zip(levels, numbers) if v not in ("", None) and x is not None}
    if len(present) < 2:
        with pytest.raises(DataError, match="cannot predict anything"):
            design_matrix(table, ["x", "fac"])
        return
    X, names, info, missing, terms, missing_by, _ = design_matrix(table, ["x", "fac"], center=["x"])
    blank = np.array([v in ("", None) for v in levels]) | np.isnan(frame["x"].to_numpy())
    np.testing.assert_array_equal(missing, blank)
    fac = info[1]
    assert {lv.casefold() for lv in fac.levels} == present  # " law " and "Law" are one level
    dummies = X[~missing][:, 2:]
    assert set(dummies.sum(axis=1).tolist()) <= {0.0, 1.0}  # at most one level per row; 0 = the reference
    for row, v in zip(dummies, [v for v, m in zip(levels, missing) if not m]):
        shown = fac.reference if row.sum() == 0 else fac.levels[1 + int(np.argmax(row))]
        assert shown.casefold() == str(v).strip().casefold()
    assert abs(X[~missing, 1].mean()) < 1e-9  # centred over the rows used


def test_prediction_curves_for_the_plot(example):
    from dpdesk.project.regression import prediction_curve

    res = regress(example, "exam_cheating", ["age", "exam_stress", "faculty"], reference={"faculty": "Arts"},
                  center=["age"], interactions=["age:faculty"])
    curve = prediction_curve(res, "exam_stress", points=7)
    assert [r["value"] for r in curve] == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
    assert all(r["low"] < r["estimate"] < r["high"] for r in curve)
    assert curve[-1]["estimate"] > curve[0]["estimate"]  # cheating rises with stress
    ages = prediction_curve(res, "age", points=3)
    assert ages[0]["value"] == 18.0 and ages[-1]["value"] == pytest.approx(max(r["value"] for r in ages))
    faculty = prediction_curve(res, "faculty")
    assert [r["value"] for r in faculty] == ["Arts", "Law", "Medicine", "Science"]
    # a level's prediction = the model at that level, with age and stress at their means
    X = res.fit._data.X
    row = X.mean(axis=0)
    names = list(res.fit.names)
    for c in ("faculty[Law]", "faculty[Medicine]", "faculty[Science]"):
        row[names.index(c)] = float(c == "faculty[Law]")
        row[names.index(f"age:{c}")] = row[names.index("age")] * float(c == "faculty[Law]")
    assert faculty[1]["estimate"] == pytest.approx(res.fit.predict(row)[0][0])
    with pytest.raises(DataError, match="'gender' is not a predictor"):
        prediction_curve(res, "gender")
