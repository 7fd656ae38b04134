"""Every report format read back as a reader sees it: the PDF by pdftotext, the Word file laid out by
LibreOffice, the .tex compiled by pdfLaTeX on a TeX without lmodern. No number cell may wrap, no word
of a text column may break, no table may be wider than the page (no overfull box), and a table too
wide is split the same way in every format (:mod:`dpdesk.project.report.layout`).

The study (:mod:`tests.helpers.wide_study`) is the one the walk found breaking: long questions, five
regions in one subgroup grid, a complex-sample design and a regression with many terms.
"""

from __future__ import annotations

import re

import pytest

from dpdesk.project import Project
from tests.helpers.reading_back import (basic_tex_env, latex_as_pdf, layout_text, overfull, table_problems,
                                        word_as_pdf)
from tests.helpers.report_tables import docx_tables, html_tables, tex_tables
from tests.helpers.wide_study import BY, make_wide_study

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wide(tmp_path_factory):
    from dpdesk.cli import main
    from dpdesk.project.report.report import report_parts

    folder = tmp_path_factory.mktemp("wide")
    path = make_wide_study(folder / "wide.dpdesk")
    files = {}
    for fmt in ("html", "pdf", "docx", "tex"):
        files[fmt] = folder / f"wide-report.{fmt}"
        assert main(["report", str(path), str(files[fmt]), "--by", BY]) == 0
    with Project.open(path, read_only=True) as p:
        doc = report_parts(p, by=BY)[0]
    return doc, files


def test_the_grid_is_split_the_same_way_in_every_format(wide):
    from dpdesk.project.report.layout import fit_table, table_parts

    doc, files = wide
    grid = doc.table("subgroup-grid")
    fit = fit_table(grid)
    assert fit.decision == "split" and all(part[0] == 0 for part in fit.parts)  # the label column repeated
    assert sorted(k for part in fit.parts for k in part[1:]) == list(range(1, len(grid.columns)))
    n_parts = sum(len(table_parts(t)) for t in doc.tables())
    html = html_tables(files["html"].read_text(encoding="utf-8"))
    assert len(html) == n_parts == len(docx_tables(files["docx"])) == len(tex_tables(files["tex"].read_text()))
    assert docx_tables(files["docx"]) == html
    assert files["tex"].read_text().count(r"\ContinuedFloat") == n_parts - len(doc.tables())


def test_pdf_tables_read_whole(wide):
    doc, files = wide
    assert table_problems(layout_text(files["pdf"]), doc) == []


def test_word_tables_read_whole_in_libreoffice(wide, tmp_path):
    doc, files = wide
    assert table_problems(layout_text(word_as_pdf(files["docx"], tmp_path)), doc) == []


def test_latex_compiles_on_a_basic_tex_with_no_overfull_table(wide, tmp_path):
    doc, files = wide
    env = basic_tex_env()  # lmodern hidden where it can be
    pdf, log = latex_as_pdf(files["tex"], tmp_path, env)
    assert overfull(log) == []
    assert table_problems(layout_text(pdf), doc) == []
    if env is not None and "TEXMF" in env:
        assert "lmodern.sty" not in log  # it really compiled without it


def test_latex_uses_only_basic_tex_packages():
    """Debian's texlive-latex-base and -recommended hold every package the preamble loads; lmodern (a package
    of its own) only when the file exists."""
    from dpdesk.project.report.latex import PACKAGES, PREAMBLE

    unconditional = re.sub(r"\\IfFileExists\{lmodern\.sty\}\{.*?\}\{\}", "", PREAMBLE)
    loaded = {name for group in re.findall(r"\\usepackage(?:\[[^\]]*\])?\{([^}]*)\}", unconditional)
              for name in group.split(",")}
    assert loaded <= set(PACKAGES) and "lmodern" not in loaded


def test_the_rule_keeps_numbers_whole_and_words_whole():
    """Narrowed: every number column keeps its widest cell, every text column its longest word; split: each
    part fits the page beside the label column."""
    from dpdesk.project.report.layout import PAD_EM, PAGE_EM, fit_table, table_parts, text_em
    from dpdesk.project.report.model import Cell, Column, Row, Table

    long_label = "In the past twelve months, have you driven a car after drinking more than the limit?"
    columns = [Column("Item", numeric=False)] + [Column(f"Region {k}", suffix=" (%)") for k in range(7)]
    rows = [Row([Cell(long_label)] + [Cell("25.7 [19.9, 31.8]") for _ in range(7)]) for _ in range(3)]
    table = Table("wide", "A wide table", columns, rows, ["a note"])
    fit = fit_table(table)
    assert fit.decision == "split" and len(fit.parts) >= 2
    parts = table_parts(table, fit)
    assert [p.notes for p, _ in parts] == [[]] * (len(parts) - 1) + [["a note"]]
    assert all(p.title == table.title for p, _ in parts)  # "Table N (continued)" is the writers' caption
    for part, part_fit in parts:
        assert part_fit.decision in ("fits", "narrow")
        assert sum(w + PAD_EM for w in part_fit.widths) <= PAGE_EM + 1e-9
        assert part_fit.widths[0] >= text_em("twelve")
        for w in part_fit.widths[1:]:
            assert w >= text_em("25.7 [19.9, 31.8]")
    narrow = Table("n", "narrow", columns[:4], [Row(r.cells[:4]) for r in rows])
    got = fit_table(narrow)
    assert got.decision == "narrow" and got.widths[0] < text_em(long_label)
    assert got.widths[0] >= max(text_em(w) for w in long_label.split())
