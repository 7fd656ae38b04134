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
from dpdesk.project.analysis.estimates import analyze, results_bundle
from dpdesk.project.regression import regress
from dpdesk.project.study.survey_design import (
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
    assert bundle.repro == [] and [s["item"] for s in bundle.surveys] == ["warner"]  # refitted from the rows
    assert "refitted" in bundle.metadata["reproducibility script"]
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


def test_a_weighted_regression_report_has_t_tests_and_no_likelihood_statistics(project):
    from dpdesk.project.regression.report import RegressionSpec, fit_report, save_report
    from dpdesk.project.report.regression import regression_paragraphs, regression_sections

    set_survey_design(project, FULL)
    report = fit_report(project, RegressionSpec(item="forced", predictors=["x1", "x2"]))
    assert report.design == "Weighted; Taylor linearization with 4 strata and 36 PSUs; design df 32"
    assert report.header[3] == "t" and "z" not in report.coefficients[1] and "LR chi2" not in report.coefficients[1]
    assert {s["statistic"] for s in report.statistics}.isdisjoint({"log-likelihood", "deviance", "AIC", "BIC"})
    model = report.tests[0]
    assert model["test"] == "model against the intercept only" and (model["df"], model["df2"]) == (2, 32)
    assert model["F"] == pytest.approx(model["chi2"] / 2)
    assert "t and p: Wald t tests on 32 design df" in report.note and "z and p" not in report.note
    assert "log-likelihood =" not in report.text and "pseudo-log-likelihood" in report.text
    save_report(project, report)
    section = regression_sections(project)[0]
    assert section.tables[1].title.startswith("Design-based Wald tests")
    assert [c.label for c in section.tables[1].columns] == ["Term or model", "df", "F", "p"]
    assert section.tables[0].columns[3].label == "t" and section.tables[1].rows[0].cells[1].text == "2, 32"
    paragraph = regression_paragraphs(project, lambda *keys: ", ".join(keys))[0]
    assert "weighted pseudo-maximum likelihood" in paragraph and "32 design degrees of freedom" in paragraph
    assert "(weighted; Taylor linearization with 4 strata and 36 PSUs)" in paragraph


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
    # the text table in the number style: design effect to 2 decimals, effective n a whole number
    code, out, _ = run(capsys, "estimate", path)
    line = next(ln for ln in out.splitlines() if ln.startswith("warner "))
    assert f"{ref['deff']:.2f}" in line.split() and f"{round(EXPECTED['n'] / ref['deff'])}" in line.split()
    assert not any(len(cell) > 8 and cell.replace(".", "").isdigit() for cell in line.split())
    code, out, _ = run(capsys, "regress", path, "forced", "--predictors", "x1", "x2", "--no-save")
    assert code == 0 and "Wald F(2, 32)" in out and "LR chi2" not in out
    code, _, err = run(capsys, "estimate", path, "--weights", "nope")
    assert code == 1 and "no column 'nope'" in err
    code, out, _ = run(capsys, "design-sample", path, "--clear")
    assert code == 0 and "no survey design" in out


def test_run_time_options_add_to_the_stored_design(project, capsys):
    path = project.path
    set_survey_design(project, FULL)
    project.close()
    ref = EXPECTED["binary"]["warner"]["horvitz_thompson"]
    N = str(ref["population"])
    code, out, err = run(capsys, "estimate", path, "--json", "--population", N)
    assert code == 0, err
    warner = next(r for r in json.loads(out)["Estimates"] if r["item"] == "warner")
    # --population alone keeps the stored weights, strata and PSUs
    assert warner["note"].startswith("Weighted; Taylor linearization with 4 strata and 36 PSUs")
    assert "Horvitz-Thompson" in warner["note"]
    assert warner["SE"] == pytest.approx(ref["se"][0][0] if isinstance(ref["se"], list) else ref["se"], rel=1e-6)
    # without weights a population size is refused in words
    code, out, err = run(capsys, "estimate", path, "--no-design", "--population", N)
    assert code == 1 and "needs survey weights" in out + err and "Traceback" not in out + err
    # design-sample stores exactly what it is given
    code, out, _ = run(capsys, "design-sample", path, "--weights", "w")
    assert code == 0 and "weight 'w'" in out and "strata" not in out


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


def test_multi_select_items_are_design_based(project):
    from dpdesk.mechanisms import rr
    from dpdesk.project.mapping.unary import unary_codes

    d = rr.design("unary", categories=["p", "q"], epsilon=2)
    project.add_item("ticks", d, column="z_warner", codes=unary_codes({"p": "z_warner", "q": "z_forced"}))
    (res,) = analyze(project, items=["ticks"], by="by", survey=FULL)
    assert res.error is None and res.survey is not None
    frame = pd.read_csv(FIXTURES / "sample.csv")
    direct = rr.survey_estimate(d, frame[["z_warner", "z_forced"]].to_numpy(), weights=frame["w"],
                                strata=frame["stratum"], clusters=frame["psu"])
    assert res.survey.frequencies["q"].se == direct.frequencies["q"].se
    assert [list(c) for c in res.estimate.counts] == [
        [int((frame[c] == 0).sum()), int((frame[c] == 1).sum())] for c in ("z_warner", "z_forced")]
    assert list(res.subgroups.estimates) == ["a", "b", "c"]


def test_subgroups_are_in_the_unweighted_order(project):
    frame = pd.read_csv(FIXTURES / "sample.csv")
    frame["size"] = np.where(frame["by"] == "a", 9, np.where(frame["by"] == "b", 10, 100))
    project.add_dataset("sizes", frame)
    _item(project, "w2", "warner", {"p": 0.7}, "z_warner")  # mapped in "sizes"
    (plain,) = analyze(project, dataset="sizes", items=["w2"], by="size", survey=False)
    (res,) = analyze(project, dataset="sizes", items=["w2"], by="size", survey=FULL)
    assert res.error is None and plain.error is None, (res.error, plain.error)
    assert list(res.subgroups.estimates) == list(plain.subgroups.estimates) == ["9", "10", "100"]
    assert list(res.subgroups.differences) == list(plain.subgroups.differences)


def test_script_refits_the_weighted_estimates_and_finds_a_changed_figure(project, tmp_path):
    import os
    import subprocess
    import sys

    from dpdesk.project.export.results import export_results

    set_survey_design(project, FULL)
    results = analyze(project, by="by")
    written = export_results(results_bundle(project, results), tmp_path / "weighted.xlsx")
    project.close()
    script = written[-1]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 weighted item(s) refitted" in run.stdout and "agree with the exported estimates" in run.stdout
    # the REVIEW block names the design-based interval, not the simple-random-sample one
    assert "CI method: design-based: boundary-calibrated likelihood ratio on the effective sample size" in run.stdout
    assert "Feldman" not in run.stdout and "Korn" in run.stdout
    # a changed figure (the workbook's SE of warner in subgroup b, as the script carries it) is found
    se = results[0].subgroups.estimates["b"].se
    text = script.read_text()
    assert repr(se) in text
    script.write_text(text.replace(repr(se), repr(se * 1.01), 1))
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 1 and "MISMATCH: warner b : SE is" in run.stdout, run.stdout + run.stderr
    # without the project file it says it cannot refit, and fails nothing
    run = subprocess.run([sys.executable, str(script), str(tmp_path / "gone.dpdesk")], capture_output=True,
                         text=True, timeout=120, env=env)
    assert run.returncode == 0 and "cannot be refitted" in run.stdout


def test_rr_against_a_direct_question_uses_the_design(tmp_path):
    from dpdesk.project.analysis.estimates import direct_comparison, stored_table

    ref = json.loads((FIXTURES / "direct_expected.json").read_text())["split"]
    frame = pd.concat([pd.read_csv(FIXTURES / "sample.csv"), pd.read_csv(FIXTURES / "direct.csv")], axis=1)
    frame["z_rr"] = np.where(frame["arm"] == "rr", frame["z_warner"], np.nan)  # a split ballot
    frame["asked"] = np.where(frame["arm"] == "dq", np.where(frame["d"] == 1, "Yes", "No"), None)
    with Project.create(tmp_path / "split.dpdesk") as project:
        project.add_dataset("split", frame, source={"name": "split.csv"}, report={"first_data_row": 2})
        _item(project, "warner", "warner", {"p": 0.7}, "z_rr")
        set_survey_design(project, FULL)
        (res,) = analyze(project)
        row, point = direct_comparison(stored_table(project), res, "asked", confidence=0.95)
        assert row["design-based"] and row["n direct"] == int((frame["arm"] == "dq").sum())
        assert row["difference (RR - direct)"] == pytest.approx(ref["difference"], rel=1e-9)
        assert row["SE"] == pytest.approx(ref["difference_se"][0][0], rel=1e-6)
        assert point["estimate"] == pytest.approx(ref["estimate"][0], rel=1e-9)
        (plain,) = analyze(project, survey=False)  # unweighted: rr.compare_direct, as before
        row, _ = direct_comparison(stored_table(project), plain, "asked", confidence=0.95)
        assert "design-based" not in row and row["direct estimate"] == pytest.approx((frame["asked"] == "Yes").sum()
                                                                                   / row["n direct"])
        bad, point = direct_comparison(stored_table(project), res, "nope", confidence=0.95)
        assert point is None and "nope" in bad["problem"]
