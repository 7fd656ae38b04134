"""A dataset's survey design in the project: stored, checked, used by estimates, subgroups, regression, CLI.

The data are the R reference sample (tests/fixtures/survey/sample.csv): with its design the
project's numbers equal R survey's (expected.json) through the whole path, mapping included.
"""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpdesk.errors import DataError
from dpdesk.project import Project
from dpdesk.project.analysis import analyze, results_bundle
from dpdesk.project.regression import regress
from dpdesk.project.survey_design import (
    SurveyDesign,
    clear_survey_design,
    guess_design,
    set_survey_design,
    survey_design,
)
from tests.helpers.cli import run

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "survey"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text())
FULL = SurveyDesign(weights="w", strata="stratum", clusters="psu")


def _item(project, name, design, params, column):
    from dpdesk.mechanisms import rr

    d = rr.design(design, **params)
    project.add_item(name, d, column=column, codes={"no": [0], "yes": [1]})


@pytest.fixture
def project(tmp_path):
    frame = pd.read_csv(FIXTURES / "sample.csv")
    p = Project.create(tmp_path / "survey.dpdesk")
    p.add_dataset("sample", frame, source={"name": "sample.csv"}, report={"first_data_row": 2})
    _item(p, "warner", "warner", {"p": 0.7}, "z_warner")
    _item(p, "forced", "forced", {"p_truth": 0.7, "p_yes": 0.15, "p_no": 0.15}, "z_logit")
    yield p
    p.close()


def test_store_read_clear_and_cascade(project):
    assert survey_design(project) is None
    set_survey_design(project, SurveyDesign(weights="w", strata="stratum", clusters="psu", lonely_psu="average"))
    assert survey_design(project) == SurveyDesign("w", "stratum", "psu", None, None, "average")
    clear_survey_design(project)
    assert survey_design(project) is None
    set_survey_design(project, FULL)
    project.remove_dataset("sample")
    assert project.connection.execute("SELECT count(*) FROM survey_designs").fetchone()[0] == 0


def test_bad_columns_are_refused_naming_the_file_rows(project, tmp_path):
    with pytest.raises(DataError, match="no column 'weight'"):
        set_survey_design(project, SurveyDesign(weights="weight"))
    frame = pd.read_csv(FIXTURES / "sample.csv")
    frame.loc[[3, 9], "w"] = np.nan
    frame.loc[5, "w"] = -2
    project.add_dataset("broken", frame)
    with pytest.raises(DataError, match=r"'w' \(the weight\) is blank in rows 5, 11"):
        set_survey_design(project, FULL, "broken")
    frame.loc[[3, 9], "w"] = 1.0
    project.add_dataset("negative", frame)
    with pytest.raises(DataError, match=r"must be a positive number; it is not in row 7"):
        set_survey_design(project, FULL, "negative")
    assert project.connection.execute("SELECT count(*) FROM survey_designs").fetchone()[0] == 0


def test_estimates_with_the_stored_design_equal_r_survey(project):
    set_survey_design(project, FULL)
    (res,) = analyze(project, items=["warner"])
    ref = EXPECTED["binary"]["warner"]["full"]
    assert res.survey.unconstrained == pytest.approx(ref["estimate"], rel=1e-9)
    assert res.estimate.se == pytest.approx(ref["se"][0][0], rel=1e-6)
    assert res.survey.deff == pytest.approx(ref["deff"], rel=1e-6)
    assert res.estimate.notes[0].startswith("Weighted; Taylor linearization with 4 strata and 36 PSUs; design effect")
    # survey=False: the simple-random-sample estimate, as before
    (plain,) = analyze(project, items=["warner"], survey=False)
    assert plain.survey is None and plain.estimate.se < res.estimate.se
    bundle = results_bundle(project, [res])
    assert bundle.metadata["survey design"] == "weight 'w', strata 'stratum', PSUs 'psu'"
    assert bundle.repro == []  # the script does not refit weighted estimates (it says so in the metadata)
    assert "not recomputed" in bundle.metadata["reproducibility script"]
    assert bundle.tables["Estimates"][0]["note"].startswith("Weighted;")


def test_subgroups_are_domains_equal_to_svyby(project):
    (res,) = analyze(project, items=["warner"], by="by", survey=FULL)
    ref = EXPECTED["domains"]["warner"]
    assert list(res.subgroups.estimates) == ref["levels"]
    assert [e.se for e in res.subgroups.estimates.values()] == pytest.approx(ref["se"], rel=1e-6)
    assert sum(int(np.sum(c)) for c in res.subgroup_counts.values()) == EXPECTED["n"]
    assert "design-based Wald F" in res.subgroups.test.method


def test_missing_answers_keep_their_psu(project):
    frame = pd.read_csv(FIXTURES / "sample.csv")
    frame["z_gap"] = frame["z_warner"].astype(float)
    frame.loc[frame["psu"] == 3, "z_gap"] = np.nan  # every answer of some PSUs missing
    project.add_dataset("gaps", frame)
    _item(project, "gap", "warner", {"p": 0.7}, "z_gap")
    (res,) = analyze(project, dataset="gaps", items=["gap"], survey=FULL)
    assert res.survey.df == 32  # all 36 PSUs stay in the design
    assert res.estimate.n == int(frame["z_gap"].notna().sum())
    assert res.mapping.n_missing == int(frame["z_gap"].isna().sum())


def test_regression_with_the_design_equals_the_r_sandwich(project):
    set_survey_design(project, FULL)
    result = regress(project, "forced", ["x1", "x2"])
    ref = EXPECTED["rr_logistic"]
    np.testing.assert_allclose(result.fit.beta, ref["coef"], rtol=1e-6)
    np.testing.assert_allclose([c.se for c in result.fit.coefficients], ref["se"], rtol=1e-6)
    assert result.sample_design == FULL and result.to_dict()["survey_design"]["weights"] == "w"


def test_guesses_are_suggestions_by_name():
    assert guess_design(["idno", "anweight", "pspwght", "psu", "stratum", "cntry"]) == SurveyDesign(
        weights="anweight", strata="stratum", clusters="psu")
    assert guess_design(["age", "q1"]) == SurveyDesign()


def test_cli_stores_a_design_and_every_command_uses_it(project, tmp_path, capsys):
    path = project.path
    project.close()
    code, out, _ = run(capsys, "design-sample", path)
    assert code == 0 and "no survey design" in out and "--strata stratum --clusters psu" in out
    code, out, _ = run(capsys, "design-sample", path, "--weights", "w", "--strata", "stratum", "--clusters", "psu")
    assert code == 0 and "weight 'w', strata 'stratum', PSUs 'psu'" in out
    code, out, _ = run(capsys, "estimate", path, "--json")
    rows = json.loads(out)["Estimates"]
    warner = next(r for r in rows if r["item"] == "warner")
    assert warner["SE"] == pytest.approx(EXPECTED["binary"]["warner"]["full"]["se"][0][0], rel=1e-6)
    assert warner["note"].startswith("Weighted; Taylor linearization with 4 strata and 36 PSUs")
    ref = EXPECTED["binary"]["warner"]["full"]
    assert warner["design effect"] == pytest.approx(ref["deff"], rel=1e-6)
    assert warner["effective n"] == pytest.approx(EXPECTED["n"] / ref["deff"], rel=1e-6)
    code, out, _ = run(capsys, "estimate", path, "--json", "--no-design")
    assert not {"note", "design effect"} & set(json.loads(out)["Estimates"][0])
    code, out, _ = run(capsys, "estimate", path, "--weights", "w")  # a design for this run only
    assert code == 0 and "Weighted; as" not in out and "note: Weighted" in out
    code, out, _ = run(capsys, "regress", path, "forced", "--predictors", "x1", "x2", "--no-save")
    assert code == 0 and "Wald F(2, 32)" in out and "LR chi2" not in out
    code, _, err = run(capsys, "estimate", path, "--weights", "nope")
    assert code == 1 and "no column 'nope'" in err
    code, out, _ = run(capsys, "design-sample", path, "--clear")
    assert code == 0 and "no survey design" in out


def test_a_replacing_import_keeps_the_design_when_its_columns_fit(tmp_path):
    from dpdesk.project.reading.importing import import_file

    frame = pd.read_csv(FIXTURES / "sample.csv")
    first, second, third = tmp_path / "a.csv", tmp_path / "b.csv", tmp_path / "c.csv"
    frame.to_csv(first, index=False)
    frame.assign(z_warner=1 - frame["z_warner"]).to_csv(second, index=False)
    frame.drop(columns=["psu"]).to_csv(third, index=False)
    with Project.create(tmp_path / "p.dpdesk") as p:
        import_file(p, first)
        set_survey_design(p, FULL)
        import_file(p, second, replace=True)  # a corrected export of the same respondents
        assert survey_design(p) == FULL
        import_file(p, third, replace=True)  # its PSU column is gone: the design cannot be kept
        assert survey_design(p) is None


def test_report_and_methods_name_the_design_based_methods(project):
    from dpdesk.project.report.report import report_html

    set_survey_design(project, FULL)
    page = report_html(project, by="by")
    assert "<i>F</i>(2, 32)" in page and "design-based Wald F test" in page
    assert "Weighted; Taylor linearization with 4 strata and 36 PSUs" in page
    assert "Binder, 1983; Lumley, 2004" in page and "Korn &amp; Graubard, 1998" in page
    assert "On the variances of asymptotically normal estimators from complex surveys" in page


def test_design_based_subgroups_are_named_by_value_labels_and_missing_codes_are_no_group(tmp_path):
    frame = pd.read_csv(FIXTURES / "sample.csv")
    frame.loc[frame.index[:20], "g"] = 9  # refused: a user-missing code
    with Project.create(tmp_path / "labelled.dpdesk") as p:
        p.add_dataset("sample", frame, source={"name": "sample.csv"},
                      report={"first_data_row": 2, "missing_values": {"g": [9]}})
        _item(p, "warner", "warner", {"p": 0.7}, "z_warner")
        p.set_column_label("sample", "g", "Gender", value_labels={1: "Female", 2: "Male"})
        p.set_column_label("sample", "stratum", "Region")
        (res,) = analyze(p, items=["warner"], by="g", survey=FULL)
        from dpdesk.project.report.methods import methods

        assert "strata 'stratum' (Region)" in methods(p, [res]).text()
    assert res.error is None and set(res.subgroups.estimates) == {"Female", "Male"}
    assert res.by_label == "Gender" and res.missing_n == 20
    assert sum(e.n for e in res.subgroups.estimates.values()) + res.missing_n == res.estimate.n
