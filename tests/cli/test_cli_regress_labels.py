"""``dpdesk regress`` on an SPSS file with labels: output in the labels, value-labelled codes as categories.

The study of issue 20: gender coded 1 = Female, 2 = Male, 3 = Non-binary (99 = Refused, user-missing).
A slope across those codes would depend on how someone numbered the genders, so the column enters as
categories against its lowest code, and the output says so; ``--numeric`` takes the codes as numbers.
"""

from __future__ import annotations

import pytest

from tests.helpers.cli import run
from tests.helpers.labelled_study import make_labelled_study


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return make_labelled_study(tmp_path_factory.mktemp("regress_labels"))


def test_value_labelled_codes_enter_as_categories_and_the_output_says_so(project, capsys):
    code, out, err = run(capsys, "regress", project, "copy", "--predictors", "sex", "--no-save")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Logistic regression of Copying (")
    assert "Predictors: What is your gender? (categorical: its codes have value labels, reference Female)" in out
    terms = [line.split("  ")[0] for line in lines if line.startswith("What is your gender?: ")]
    assert terms == ["What is your gender?: Male (vs Female)", "What is your gender?: Non-binary (vs Female)"]
    assert "sex[" not in out and "unit of" not in out  # no slope across the codes, no bare code as a term
    assert "What is your gender? has a value label for every code, so it enters as categories, each compared " \
           "with Female (its lowest code)" in out and "--numeric sex" in out
    assert "The odds of a true 'yes' to Copying are " in out and "with What is your gender? Male as with Female" in out
    assert "no value of What is your gender?" in out  # the 99s (refused) are left out and counted
    assert lines[-1] == "Codes in the data: item copy; What is your gender? = sex."


def test_numeric_takes_the_codes_as_numbers(project, capsys):
    code, out, err = run(capsys, "regress", project, "copy", "--predictors", "sex", "--numeric", "sex", "--no-save")
    assert code == 0, err
    assert "Predictors: What is your gender?\n" in out
    assert "Each additional unit of What is your gender? multiplies the odds of a true 'yes' to Copying" in out
    assert "has a value label for every code" not in out


def test_the_saved_report_uses_the_labels(project, capsys):
    from dpdesk.project import Project
    from dpdesk.project.report.regression import regression_figures, regression_paragraphs, regression_sections

    assert run(capsys, "regress", project, "copy", "--predictors", "sex")[0] == 0
    with Project.open(project) as p:
        section = regression_sections(p)[-1]
        paragraph = regression_paragraphs(p, lambda *keys: "cited")[-1]
        report = __import__("dpdesk.project.regression.report", fromlist=["x"]).saved_reports(p)[-1]
    assert section.title == "Regression: Copying"
    table, tests = section.tables
    assert table.title.startswith("Logistic regression of Copying")
    assert tests.title == "Likelihood-ratio tests of the regression of Copying"
    assert [r.cells[0].text for r in table.rows][1:] == ["What is your gender?: Male (vs Female)",
                                                         "What is your gender?: Non-binary (vs Female)"]
    assert "What is your gender? (all its levels)" in [r.cells[0].text for r in tests.rows]
    captions = [f.caption for f in regression_figures(report, 1)]
    assert captions[0].startswith("Odds ratios of a true 'yes' to Copying")
    assert captions[1].startswith("Predicted prevalence of Copying across What is your gender?")
    assert "a true 'yes' to Copying" in paragraph and "the predictors What is your gender?" in paragraph
    assert "sex" not in " ".join([section.title, table.title, tests.title, *captions, paragraph])


def test_a_report_saved_before_labels_were_kept_takes_them_from_the_project(project, capsys):
    """Regressions saved by an earlier version have no item or column labels: the report looks them up."""
    from dataclasses import replace

    from dpdesk.project import Project
    from dpdesk.project.regression.report import save_report, saved_reports
    from dpdesk.project.report.regression import regression_sections

    assert run(capsys, "regress", project, "copy", "--predictors", "sex")[0] == 0
    with Project.open(project) as p:
        old = replace(saved_reports(p)[-1], item_label="", column_labels={})
        old.spec.confidence = 0.9  # another model, so it is a section of its own
        save_report(p, old)
        titles = [s.title for s in regression_sections(p)]
    assert titles and all(t == "Regression: Copying" for t in titles)


def test_item_parameters_take_fractions_as_people_write_a_die_s_chances(tmp_path, capsys):
    from dpdesk.project import Project

    path = tmp_path / "f.dpdesk"
    assert run(capsys, "new", path)[0] == 0
    code, out, err = run(capsys, "item", path, "x", "--design", "forced", "--param", "p_truth=3/4", "--param",
                         "p_yes=1/6", "--param", "p_no=1/12")
    assert code == 0, err
    with Project.open(path) as p:
        params = p.item("x").design_record["params"]
    assert params["p_yes"] == pytest.approx(1 / 6, abs=1e-15) and params["p_no"] == pytest.approx(1 / 12, abs=1e-15)


def test_the_reference_of_a_labelled_column_by_its_label_or_its_code(project, capsys):
    for ref in ("Male", "2"):
        code, out, err = run(capsys, "regress", project, "copy", "--predictors", "sex", "--ref", f"sex={ref}",
                             "--no-save")
        assert code == 0, err
        assert "What is your gender?: Female (vs Male)" in out and "What is your gender?: Non-binary (vs Male)" in out
