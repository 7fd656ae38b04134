"""A regression in the workbook, in the project's analyses, and in the script that refits it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from dpdesk.cli import main
from dpdesk.project import Project
from dpdesk.project.export.model import ResultsBundle
from dpdesk.project.export.results import export_results
from dpdesk.project.regression import regress
from dpdesk.project.regression.export import (
    SHEET,
    TESTS_SHEET,
    add_regression,
    regression_bundle,
)
from dpdesk.project.regression.report import (
    RegressionReport,
    RegressionSpec,
    fit_report,
    prevalence_curve,
    save_report,
    saved_reports,
)

SPEC = RegressionSpec("exam_cheating", ["age", "exam_stress", "faculty"], {"faculty": "Arts"}, [], ["age"])


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    from dpdesk.gui.shell.example_project import build_example

    return build_example(None, tmp_path_factory.mktemp("regression_export") / "example.dpdesk")


@pytest.fixture(scope="module")
def report(example):
    with Project.open(example) as project:
        return fit_report(project, SPEC)


def test_the_report_matches_the_fit_and_reads_back_exactly(example, report):
    with Project.open(example) as project:
        result = regress(project, SPEC.item, SPEC.predictors, reference=SPEC.reference, center=SPEC.center)
        for c in result.fit.coefficients:
            row = report.coefficient(c.name)
            assert (row["b"], row["SE"], row["p"], row["CI low (b)"]) == (c.estimate, c.se, c.p, c.ci[0])
        assert report.fit["n_used"] == 914 and report.spec.dataset == "students"
        # the example's built-in effects: odds x0.90 per year of age, x1.35 per point of stress, inside the CIs
        age, stress = report.coefficient("age"), report.coefficient("exam_stress")
        assert age["CI low (OR)"] < 0.90 < age["CI high (OR)"] and stress["CI low (OR)"] < 1.35 < stress["CI high (OR)"]
        assert age["CI high (OR)"] < 1 < stress["CI low (OR)"]  # both effects found
        text = json.dumps(report.to_dict(), allow_nan=False)  # JSON-able: no inf or NaN
        assert RegressionReport.from_dict(json.loads(text)) == report
        save_report(project, report)
        save_report(project, report)
        saved = saved_reports(project)
    assert len(saved) == 2 and saved[-1] == report
    assert saved[-1].spec.to_dict()["analysis"] == "regression"


def test_prevalence_curve_has_the_rows_of_prediction_curve(example):
    from dpdesk.project.regression import prediction_curve

    with Project.open(example) as project:
        result = regress(project, SPEC.item, SPEC.predictors, reference=SPEC.reference, center=SPEC.center)
    curve = prevalence_curve(result, "exam_stress")
    model = prediction_curve(result, "exam_stress", points=len(curve["rows"]))
    assert curve["kind"] == "numeric" and len(curve["rows"]) == 25
    assert [(r["exam_stress"], r["estimate"], r["CI low"], r["CI high"]) for r in curve["rows"]] == [
        (r["value"], r["estimate"], r["low"], r["high"]) for r in model]
    assert curve["rows"][0]["exam_stress"] == 1 and curve["rows"][-1]["exam_stress"] == 7
    by_faculty = prevalence_curve(result, "faculty")
    assert by_faculty["kind"] == "categorical"
    assert [r["faculty"] for r in by_faculty["rows"]] == ["Arts", "Law", "Medicine", "Science"]


def test_workbook_has_the_regression_sheets_and_metadata(example, report, tmp_path):
    import openpyxl

    with Project.open(example) as project:
        bundle = regression_bundle(project, report)
    assert list(bundle.tables) == [SHEET, TESTS_SHEET]
    assert bundle.metadata["regression"]["rows used"] == "914 of 1,200"
    assert "faculty (categorical, reference Arts)" in bundle.metadata["regression"]["predictors"]
    assert ResultsBundle.from_dict(json.loads(json.dumps(bundle.to_dict()))).regressions == bundle.regressions
    written = export_results(bundle, tmp_path / "reg.xlsx")
    assert [p.name for p in written] == ["reg.xlsx", "reg_reproduce.py"]
    wb = openpyxl.load_workbook(written[0])
    assert wb.sheetnames[:2] == [SHEET, TESTS_SHEET] and "Metadata" in wb.sheetnames
    rows = list(wb[SHEET].iter_rows(values_only=True))
    head = list(rows[0])
    got = {r[0]: dict(zip(head, r)) for r in rows[1:]}
    assert got["exam_stress"]["b"] == report.coefficient("exam_stress")["b"]  # full precision
    tests = [r[0] for r in wb[TESTS_SHEET].iter_rows(values_only=True)]
    assert "model against the intercept only" in tests and "log-likelihood" in tests
    # beside other results: the Export view's workbook of everything
    other = add_regression(ResultsBundle(tables={"Estimates": [{"item": "x"}]}), report)
    assert list(other.tables) == ["Estimates", SHEET, TESTS_SHEET] and len(other.regressions) == 1


def _script(example, report, tmp_path):
    with Project.open(example) as project:
        bundle = regression_bundle(project, report)
    return export_results(bundle, tmp_path / "reg.xlsx")[1]


def test_script_refits_and_checks_the_coefficients(example, report, tmp_path):
    script = _script(example, report, tmp_path)
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "refitted on 914 rows" in run.stdout and "agree with the exported coefficients" in run.stdout
    # a changed coefficient is found
    text = script.read_text()
    b = repr(report.coefficient("age")["b"])
    assert b in text
    script.write_text(text.replace(b, repr(report.coefficient("age")["b"] + 1e-3), 1))
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and "MISMATCH" in run.stdout and "b of age" in run.stdout
    # without the project file the script says it cannot refit (and fails nothing)
    run = subprocess.run([sys.executable, str(script), str(tmp_path / "gone.dpdesk")], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0 and "cannot be refitted" in run.stdout


def test_cli_regress_exports_and_saves(example, tmp_path, capsys):
    out = tmp_path / "cli.xlsx"
    code = main(["regress", str(example), "exam_cheating", "--predictors", "age", "exam_stress", "faculty", "--ref",
                 "faculty=Arts", "--center", "age", "--export", str(out)])
    _, err = capsys.readouterr()
    assert code == 0 and out.exists() and (tmp_path / "cli_reproduce.py").exists() and "wrote" in err
    with Project.open(example) as project:
        saved = saved_reports(project)[-1]
    assert saved.spec.predictors == SPEC.predictors and saved.spec.center == ["age"]
    run = subprocess.run([sys.executable, str(tmp_path / "cli_reproduce.py")], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr


def test_hostile_names_in_a_regression_stay_string_constants(tmp_path):
    import ast

    from dpdesk.project.export.repro import write_repro_script
    from tests.project.test_export_repro import HOSTILE_NAMES

    evil = HOSTILE_NAMES[0]
    bundle = ResultsBundle(tables={SHEET: [{"term": evil}]}, metadata={"project": evil}, regressions=[
        {"item": evil, "predictors": HOSTILE_NAMES, "reference": {evil: evil}, "interactions": [f"{evil}:x"],
         "center": [], "categorical": [], "confidence": 0.95, "dataset": evil, "loglik": -1.0,
         "coefficients": [[name, 0.1, 0.2, None, 1.0] for name in HOSTILE_NAMES]}])
    source = write_repro_script(bundle, tmp_path / "s.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    constants = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)}
    assert all(name in constants for name in HOSTILE_NAMES)
    imports = {ast.unparse(n) for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))}
    assert imports <= {"from dpdesk.mechanisms import rr", "import os", "import sys", "import math",
                       "from dpdesk.project import Project", "from dpdesk.project.regression import regress",
                       "from dpdesk.project.regression.rr_models import linear_regression",
                       "from dpdesk.project.analysis.estimates import rebuild_counts, stored_table",
                       "from dpdesk.project.people.fingerprint import data_fingerprint"}
    assert "\x1b" not in source and "\u202e" not in source
    run = subprocess.run([sys.executable, str(tmp_path / "s.py")], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and "cannot be refitted" in run.stdout 
    assert "pwned" not in run.stdout.replace("echo pwned", "").splitlines()  # printed as text, never run


def test_saved_regressions_are_in_the_report_and_the_methods_paragraph(example, report, tmp_path):
    """Issue 16: the regression reaches the report and the methods text, with its sources."""
    import shutil

    from dpdesk.project.regression.report import save_report
    from dpdesk.project.report.report import report_parts

    path = tmp_path / "with_regression.dpdesk"
    shutil.copyfile(example, path)
    with Project.open(path) as project:
        save_report(project, report)
        save_report(project, report)  # refitted: the report shows the latest fit once
        doc, methods, _ = report_parts(project)
    sections = [s for s in doc.sections if s.key.startswith("regression:")]
    assert len(sections) == 1 and sections[0].title == "Regression: In the last year, have you cheated in an exam?"
    coefficients = sections[0].tables[0]
    assert [c.label for c in coefficients.columns][:6] == ["Predictor", "b", "SE", "z", "p", "OR"]
    assert any(r.cells[0].text.startswith("age") for r in coefficients.rows) and coefficients.number > 1
    assert any("multiplies the odds" in p for p in sections[0].paragraphs)
    text = methods.text()
    assert "logistic regression with a randomized-response outcome (van den Hout, van der Heijden & Gilchrist, 2007)" in text
    assert "Magder, L. S., & Hughes, J. P. (1997)" in text and "914 respondents" in text
