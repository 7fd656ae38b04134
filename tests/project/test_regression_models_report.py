"""Multilevel and linear regressions and corrected correlations as reports: fitted, saved, read back, in the report,
the methods text, the workbook and the script that refits them.

Every number of a report is the fit's own (``regress(cluster=)``, ``linear_regression``, ``correlations``) on the
bundled example study; the checks are equalities, not tolerances, because the report copies the fit.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from dpdesk.errors import DataError
from dpdesk.project import Project
from dpdesk.project.regression import (CorrelationReport, CorrelationSpec, RegressionReport, RegressionSpec,
                                       fit_report, regress, save_correlation, save_report, saved_correlations,
                                       saved_reports, write_correlation)
from dpdesk.project.regression.correlation_report import correlation_report, r_cell, stars
from dpdesk.project.regression.rr_models import correlations, linear_regression

MULTI = RegressionSpec("exam_cheating", ["age", "exam_stress"], model="multilevel", cluster="faculty")
LINEAR = RegressionSpec("", ["age"], model="linear", outcome="exam_stress", rr_items=["exam_cheating"])
CORR = CorrelationSpec(["exam_cheating", "exam_stress", "age"], bootstrap=200, seed=5)
QUESTION = "In the last year, have you cheated in an exam?"  # the item as output names it (it has no short label)


def _strict(report):
    text = json.dumps(report.to_dict(), allow_nan=False)  # JSON-able: no inf or NaN
    return json.loads(text)


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    from dpdesk.gui.shell.example_project import build_example

    return build_example(None, tmp_path_factory.mktemp("rr_models_report") / "example.dpdesk")


@pytest.fixture(scope="module")
def reports(example):
    with Project.open(example) as project:
        multi, linear = fit_report(project, MULTI), fit_report(project, LINEAR)
        corr = correlation_report(project, CORR)
        save_report(project, multi)
        save_report(project, linear)
        save_correlation(project, corr)
    return multi, linear, corr


def test_the_multilevel_report_is_the_fit_and_reads_back(example, reports):
    multi = reports[0]
    with Project.open(example) as project:
        fit = regress(project, "exam_cheating", ["age", "exam_stress"], cluster="faculty").fit
    assert multi.model == "multilevel" and multi.spec.cluster == "faculty" and multi.header[3] == "z"
    for c in fit.coefficients:
        row = multi.coefficient(c.name)
        assert (row["b"], row["SE"], row["z"], row["p"], row["CI low (b)"]) == (c.estimate, c.se, c.z, c.p, c.ci[0])
        assert "LR chi2" not in row  # RRmixed has Wald tests only
    stats = {s["statistic"]: s["value"] for s in multi.statistics}
    sd, se, (lo, hi) = fit.random_sd
    assert stats["random intercept SD (faculty)"] == sd and stats["  random intercept SD, SE"] == se
    assert (stats["  random intercept SD, 95% CI low"], stats["  random intercept SD, 95% CI high"]) == (lo, hi)
    assert stats["clusters"] == fit.n_clusters == 4
    assert stats["marginal log-likelihood (the Laplace approximation)"] == fit.loglik
    assert multi.tests == [] and multi.curve == {} and "Random intercept: SD" in multi.note
    assert RegressionReport.from_dict(_strict(multi)) == multi


def test_the_linear_report_is_the_fit_and_reads_back(example, reports):
    linear = reports[1]
    with Project.open(example) as project:
        res = linear_regression(project, "exam_stress", ["exam_cheating"], ["age"])
    assert linear.model == "linear" and linear.spec.item == "" and linear.outcome == "exam_stress"
    assert linear.header == ["Predictor", "b", "SE", "z", "p", "95% CI"]
    for c in res.fit.coefficients:
        row = linear.coefficient(c.name)
        assert (row["b"], row["SE"], row["p"], row["CI high (b)"]) == (c.estimate, c.se, c.p, c.ci[1])
    stats = {s["statistic"]: s["value"] for s in linear.statistics}
    assert stats["residual SD (sigma, ML)"] == res.fit.sigma
    assert stats[f"prevalence of {QUESTION}"] == res.fit.prevalence["exam_cheating"][0]
    assert stats[f"  prevalence of {QUESTION}, SE"] == res.fit.prevalence["exam_cheating"][1]
    assert linear.coefficient("exam_cheating")["term"] == f"{QUESTION} (true \u2018yes\u2019)"
    assert any(s.startswith(f"Respondents whose true answer to \u201c{QUESTION}\u201d is 'yes' score") and
               "higher on exam_stress" in s for s in linear.sentences)
    assert RegressionReport.from_dict(_strict(linear)) == linear


def test_saved_models_read_back_and_old_specs_are_logistic(example, reports):
    with Project.open(example) as project:
        saved = saved_reports(project)
        assert [r.model for r in saved][-2:] == ["multilevel", "linear"]
        assert saved[-2] == reports[0] and saved[-1] == reports[1]
        linear_row = [a for a in project.analyses() if isinstance(a.options, dict)
                      and a.options.get("model") == "linear"][-1]
        assert linear_row.item is None  # RR items as predictors: an analysis of no single item
        # a spec saved before models existed is a logistic one; an unknown model is left out, never guessed
        old = {"analysis": "regression", "item": "exam_cheating", "predictors": ["age"]}
        assert RegressionSpec.from_dict(old).model == "logistic"
        bogus = dict(reports[0].to_dict())
        bogus["spec"] = {**bogus["spec"], "model": "quadratic"}
        project.save_analysis(None, bogus["spec"], bogus)
        assert len(saved_reports(project)) == len(saved)


def test_a_multilevel_spec_without_clusters_is_refused_in_words(example):
    with Project.open(example) as project:
        with pytest.raises(DataError, match="needs the column of clusters"):
            fit_report(project, RegressionSpec("exam_cheating", ["age"], model="multilevel"))
        with pytest.raises(DataError, match="Unknown model 'probit'"):
            fit_report(project, RegressionSpec("exam_cheating", ["age"], model="probit"))


def test_the_correlation_report_is_the_result_and_reads_back(example, reports):
    corr = reports[2]
    with Project.open(example) as project:
        res = correlations(project, CORR.names, bootstrap=CORR.bootstrap, seed=CORR.seed)
        assert saved_correlations(project)[-1] == corr
    k = len(CORR.names)
    for i in range(k):
        for j in range(k):
            if i != j:
                assert corr.r[i][j] == float(res.fit.r[i, j]) and corr.se[i][j] == float(res.fit.se[i, j])
    assert corr.labels == [QUESTION, "exam_stress", "age"] and corr.kinds == ["rr item", "column", "column"]
    assert corr.header == ["Variable", "1", "2"] and corr.cells[0] == [f"1. {QUESTION}", "—", ""]
    assert corr.cells[2][1] == r_cell(corr.r[2][0]) + stars(corr.p_value[2][0], 200)
    assert [p["name 1"] + "-" + p["name 2"] for p in corr.pairs] == [  # codes beside the labels
        "exam_cheating-exam_stress", "exam_cheating-age", "exam_stress-age"]
    assert "Fox & Tracy, 1984" in corr.note and "seed 5" in corr.note
    assert CorrelationReport.from_dict(_strict(corr)) == corr


def test_apa_correlations_and_bootstrap_stars():
    assert r_cell(0.4567) == ".46" and r_cell(-0.123) == "-.12" and r_cell(1.0) == "1.00" and r_cell(None) == "n/a"
    # a bootstrap p of 0 is only known to be below 2/B: with 1,000 resamples two stars, never three
    assert stars(0.0, 1000) == "**" and stars(0.0, 5000) == "***" and stars(0.0, 20) == ""
    assert stars(0.049, 1000) == "*" and stars(0.05, 1000) == "" and stars(0.004, 1000) == "**"
    assert stars(None, 1000) == "" and stars(0.0, 0) == ""


def test_correlations_write_to_csv_and_xlsx(reports, tmp_path):
    import openpyxl

    corr = reports[2]
    written = write_correlation(corr, tmp_path / "cor.csv")
    assert [p.name for p in written] == ["cor.csv", "cor_correlations_apa.csv", "cor_metadata.csv",
                                         "cor_readme.txt", "cor_reproduce.py"]
    import csv

    with open(tmp_path / "cor.csv", encoding="utf-8-sig", newline="") as fh:
        lines = list(csv.reader(fh))
    assert lines[0] == ["variable 1", "variable 2", "name 1", "name 2", "r", "SE (bootstrap)", "p (bootstrap)"]
    assert lines[1][:4] == [QUESTION, "exam_stress", "exam_cheating", "exam_stress"]
    assert float(lines[1][4]) == corr.r[0][1]  # full precision
    write_correlation(corr, tmp_path / "cor.xlsx")
    book = openpyxl.load_workbook(tmp_path / "cor.xlsx")
    assert book.sheetnames[:2] == ["Correlations", "Correlations (APA)"]
    rows = list(book["Correlations"].values)
    assert rows[1][4] == corr.r[0][1] and rows[1][5] == corr.se[0][1]
    from dpdesk.project.export.model import ExportError

    with pytest.raises(ExportError, match="ending in .xlsx or .csv"):
        write_correlation(corr, tmp_path / "cor.txt")


def test_the_report_has_a_section_and_a_methods_paragraph_for_each(example, reports):
    from dpdesk.project.report.report import report_parts

    with Project.open(example, read_only=True) as project:
        doc, methods, _ = report_parts(project)
    titles = [s.title for s in doc.sections]
    assert f"Multilevel regression: {QUESTION}" in titles and "Linear regression: exam_stress" in titles
    assert f"Correlations: {QUESTION}, exam_stress, age" in titles
    sd = next(s["value"] for s in reports[0].statistics if s["statistic"].startswith("random intercept SD"))
    random = next(t for t in doc.tables() if t.key.startswith("regression-random:"))
    assert random.rows[0].cells[2].value == sd and random.rows[0].cells[1].value == 4
    matrix = next(t for t in doc.tables() if t.key.startswith("correlations:"))
    assert [c.text for c in matrix.rows[1].cells] == reports[2].cells[1]
    text = methods.text()
    for cited in ("Bates et al., 2015", "van den Hout & Kooiman, 2006", "Fox & Tracy, 1984", "Heck & Moshagen, 2018"):
        assert cited in text
    assert "Fitting linear mixed-effects models using lme4" in text and "jss.v085.i02" in text
    # what each model assumes, honestly
    assert "normally distributed random intercepts" in text and "one-group designs only" in text
    assert "normally distributed errors with a constant variance" in text
    assert "does not depend on the covariates" in text
    assert "randomization is independent of the other variables" in text
    assert "2 regressions; 1 correlation table" in doc.cover["Contents"]


@pytest.mark.parametrize("which", [0, 1])
def test_the_export_and_its_script_refit_each_model(example, reports, tmp_path, which):
    from dpdesk.project.export.results import export_results
    from dpdesk.project.regression.export import SHEET, regression_bundle

    report = reports[which]
    with Project.open(example) as project:
        bundle = regression_bundle(project, report)
    assert [r["b"] for r in bundle.tables[SHEET]] == [r["b"] for r in report.coefficients]
    meta = bundle.metadata["regression"]
    assert ("RRmixed" in meta["model"]) if which == 0 else ("RRlin" in meta["model"])
    written = export_results(bundle, tmp_path / "fit.xlsx")
    script = next(p for p in written if p.suffix == ".py")
    run = subprocess.run([sys.executable, str(script), str(example)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 regression(s) refitted from the stored data agree" in run.stdout
    bundle.regressions[0]["coefficients"][1][1] += 0.01  # a coefficient that is not the data's
    written = export_results(bundle, tmp_path / "bad.xlsx")
    bad = next(p for p in written if p.suffix == ".py")
    run = subprocess.run([sys.executable, str(bad), str(example)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 1 and "MISMATCH" in run.stdout


def test_the_correlations_script_recomputes_them_from_the_project(example, reports, tmp_path):
    corr = reports[2]
    written = write_correlation(corr, tmp_path / "cor.xlsx", example)
    script = next(p for p in written if p.suffix == ".py")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 set(s) of correlations recomputed from the stored data agree" in run.stdout
    tampered = CorrelationReport.from_dict({**corr.to_dict(), "se": [[None, 0.5, 0.5], [0.5, None, 0.5],
                                                                       [0.5, 0.5, None]]})
    script = next(p for p in write_correlation(tampered, tmp_path / "bad.xlsx", example) if p.suffix == ".py")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 1 and "MISMATCH: SE of exam_cheating and exam_stress" in run.stdout
