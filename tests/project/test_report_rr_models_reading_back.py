"""The multilevel, linear and correlation sections of the report read back as a reader sees them: the PDF by
pdftotext, the Word file laid out by LibreOffice, the .tex compiled by pdfLaTeX on a basic TeX. No number cell
may wrap, no word of a text cell may break, no table may be wider than the page (no overfull box).

The study is the bundled example with its long questions as the items' labels, a five-variable correlation
matrix (a crosswise item, a two-group SLD item and two numeric columns beside the forced-response item).
"""

from __future__ import annotations

import pytest

from dpdesk.project import Project
from tests.helpers.reading_back import basic_tex_env, latex_as_pdf, layout_text, overfull, table_problems, word_as_pdf

pytestmark = pytest.mark.slow

NAMES = ["exam_cheating", "plagiarism", "drug_use", "exam_stress", "age"]


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    from dpdesk.cli import main
    from dpdesk.gui.shell.example_project import build_example
    from dpdesk.project.regression import CorrelationSpec, RegressionSpec, fit_report, save_correlation, save_report
    from dpdesk.project.regression.correlation_report import correlation_report
    from dpdesk.project.report.report import report_parts

    folder = tmp_path_factory.mktemp("rr_models_back")
    path = build_example(None, folder / "example.dpdesk")
    with Project.open(path) as project:
        save_report(project, fit_report(project, RegressionSpec("exam_cheating", ["age", "exam_stress", "faculty"],
                                                                model="multilevel", cluster="year")))
        save_report(project, fit_report(project, RegressionSpec("", ["age", "faculty"], model="linear",
                                                                outcome="exam_stress",
                                                                rr_items=["exam_cheating", "plagiarism"])))
        save_correlation(project, correlation_report(project, CorrelationSpec(NAMES, bootstrap=100, seed=1)))
    files = {}
    for fmt in ("pdf", "docx", "tex"):
        files[fmt] = folder / f"report.{fmt}"
        assert main(["report", str(path), str(files[fmt])]) == 0
    with Project.open(path, read_only=True) as p:
        doc = report_parts(p)[0]
    keys = [t.key.split(":")[0] for t in doc.tables()]
    assert {"regression-random", "regression-linear-parts", "correlations", "correlation-pairs"} <= set(keys)
    return doc, files


def test_pdf_tables_read_whole(study):
    doc, files = study
    text = layout_text(files["pdf"])
    assert table_problems(text, doc) == []
    assert "Random intercept of the regression of" in text and "Residual SD (σ)" in text


def test_word_tables_read_whole_in_libreoffice(study, tmp_path):
    doc, files = study
    assert table_problems(layout_text(word_as_pdf(files["docx"], tmp_path)), doc) == []


def test_latex_compiles_with_no_overfull_table(study, tmp_path):
    """On a basic TeX (no lmodern: OT1 fonts) nothing overruns the page, the references' DOIs included; the words
    are read back from the T1 build, because an OT1 underscore is drawn as a rule that pdftotext reads as a space
    ("exam_stress" looks right on the page but extracts as "exam stress")."""
    doc, files = study
    (tmp_path / "basic").mkdir()
    _pdf, log = latex_as_pdf(files["tex"], tmp_path / "basic", basic_tex_env())
    assert overfull(log) == []
    pdf, log = latex_as_pdf(files["tex"], tmp_path, None)
    assert overfull(log) == []
    assert table_problems(layout_text(pdf), doc) == []
