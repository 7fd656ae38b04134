"""A page of each report format as a picture (docs/screenshots/report_*_page.png), by the tools a reader
would use: the Word file opened by LibreOffice (headless) and the .tex compiled by pdfLaTeX, when installed.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.helpers.paths import SHOTS
from tests.helpers.study import BY, make_study

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    from dpdesk.cli import main

    folder = tmp_path_factory.mktemp("pages")
    path = make_study(folder / "study.dpdesk")
    out = {}
    for fmt in ("html", "pdf", "docx", "tex"):
        out[fmt] = folder / f"study-report.{fmt}"
        assert main(["report", str(path), str(out[fmt]), "--by", BY]) == 0
    return out


def _page_png(pdf, name: str, page: int = 1) -> None:
    if not shutil.which("pdftoppm"):
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    SHOTS.mkdir(parents=True, exist_ok=True)
    subprocess.run(["pdftoppm", "-png", "-r", "70", "-f", str(page), "-l", str(page), "-singlefile", str(pdf),
                    str(SHOTS / name)], check=True, timeout=120)
    assert (SHOTS / f"{name}.png").stat().st_size > 10_000


def _text(pdf) -> str:
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True,
                          timeout=120).stdout


def test_pdf_page(reports):
    _page_png(reports["pdf"], "report_pdf_page")


def test_word_file_opens_in_libreoffice(reports, tmp_path):
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if not soffice:
        pytest.skip("LibreOffice is not installed")
    subprocess.run([soffice, "--headless", f"-env:UserInstallation=file://{tmp_path}/lo", "--convert-to", "pdf",
                    "--outdir", str(tmp_path), str(reports["docx"])], check=True, capture_output=True, timeout=300)
    pdf = tmp_path / "study-report.pdf"
    text = _text(pdf)
    for words in ("Table 1", "Estimated prevalence of each item", "Cross-tabulation of gender by faculty",
                  "Figure 6", "References"):
        assert words in text, words
    _page_png(pdf, "report_docx_page")


def test_latex_compiles(reports, tmp_path):
    if not shutil.which("pdflatex"):
        pytest.skip("pdfLaTeX is not installed")
    folder = reports["tex"].parent
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-output-directory",
                          str(tmp_path), reports["tex"].name], cwd=folder, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:]
    pdf = tmp_path / "study-report.pdf"
    text = _text(pdf)
    assert "Table 1" in text and "Figure 6" in text and "Cross-tabulation of gender by faculty" in text
    _page_png(pdf, "report_tex_page")


def test_html_page(reports, qapp):
    from PySide6.QtGui import QImage, QPainter, QTextDocument

    doc = QTextDocument()
    page = reports["html"].read_text(encoding="utf-8")
    doc.setHtml(page)
    doc.setTextWidth(800)
    height = min(1100, int(doc.size().height()))
    image = QImage(800, height, QImage.Format.Format_RGB32)
    image.fill(0xFFFFFF)
    painter = QPainter(image)
    doc.drawContents(painter)
    painter.end()
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert image.save(str(SHOTS / "report_html_page.png"))


@pytest.mark.parametrize(("name", "words"), [
    ("report_pdf_subgroups", "yes/no item by"),  # the subgroup grid: every yes/no item by gender at a glance
    ("report_pdf_regression", "Logistic regression of"),
    ("report_pdf_release", "(noisy release)"),
])
def test_pdf_page_of(reports, name, words):
    """The PDF page that holds the subgroup grid, the regression, a noisy release (found by its text)."""
    import unicodedata

    from tests.helpers.pdftext import page_texts

    pages = [unicodedata.normalize("NFKC", t) for t in page_texts(reports["pdf"].read_bytes())]
    page = next(i for i, t in enumerate(pages) if words in t)
    _page_png(reports["pdf"], name, page + 1)
