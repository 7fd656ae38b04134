"""An ECWM item in the report read back as a reader sees it: the PDF by pdftotext and the Word file laid out
by LibreOffice carry the non-adherence section (the warning, both versions, the test) with every number
whole, and the Word tables are the HTML ones."""

from __future__ import annotations

import pytest

from dpdesk.project import Project
from tests.helpers.ecwm import ecwm_frame, ecwm_project
from tests.helpers.reading_back import layout_text, table_problems, word_as_pdf
from tests.helpers.report_tables import docx_tables, html_tables

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    from dpdesk.cli import main
    from dpdesk.project.report.report import report_parts

    folder = tmp_path_factory.mktemp("ecwm-report")
    path = ecwm_project(folder / "na.dpdesk", ecwm_frame(n=800, seed=3, non_adherent=0.15), weighted=True,
                        label="Exam cheating")
    files = {}
    for fmt in ("html", "pdf", "docx"):
        files[fmt] = folder / f"report.{fmt}"
        assert main(["report", str(path), str(files[fmt])]) == 0
    with Project.open(path, read_only=True) as p:
        doc = report_parts(p)[0]
    return doc, files, folder


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_pdf_reads_the_warning_the_versions_and_the_test(report):
    doc, files, _ = report
    text = layout_text(files["pdf"])
    assert table_problems(text, doc) == []
    flat = _flat(text)
    assert "Non-adherence (extended crosswise model)" in flat
    assert "Warning. Exam cheating: The two versions disagree (F(1, 797) = " in flat
    assert "Exam cheating: version 1 25%, version 2 75%" in flat
    assert "design-based Wald test of equal prevalence in the two versions" in flat
    assert "Heck, D. W., Hoffmann, A., & Moshagen, M. (2018)." in flat.replace("ﬀ", "ff")
    assert "independent of the sensitive attribute" in flat


def test_word_tables_are_the_html_tables_and_read_whole(report):
    doc, files, folder = report
    assert docx_tables(files["docx"]) == html_tables(files["html"].read_text(encoding="utf-8"))
    text = layout_text(word_as_pdf(files["docx"], folder))
    assert table_problems(text, doc) == []
    assert "Warning. Exam cheating: The two versions disagree" in _flat(text)
