"""The PDF report's page breaks (``dpdesk.printing.keep_captions`` and the report HTML): a caption never
ends a page without its table, and a section heading never ends a page alone. Each case is swept over every
position of the caption near a page's foot (filler lines before it), and the pages are read back as text."""

from __future__ import annotations

import unicodedata

from tests.helpers.pdftext import page_texts

HEADING, TITLE, FIRST_ROW = "Noisy releases", "Cross-tabulation of gender by faculty", "female"
INTRO = "These were published with noise."


def _doc(filler: int, *, intro: bool):
    from dpdesk.project.report.model import Cell, Column, Document, Row, Section, Table

    table = Table("release:1", TITLE, [Column("gender", numeric=False), Column("Arts")],
                  [Row([Cell(g), Cell(str(n))]) for g, n in ((FIRST_ROW, 134), ("male", 165))],
                  notes=["<i>Note.</i> Released with noise."])
    lines = [f"Filler line {i}." for i in range(filler)]
    doc = Document("Results", sections=[Section("estimates", "Estimates", lines),
                                        Section("releases", HEADING, [INTRO] if intro
                                                else [], [table])])
    doc.number_tables()
    return doc


def _pages(doc, path) -> list[str]:
    from dpdesk.printing import html_to_pdf
    from dpdesk.project.report.render import document_html

    html_to_pdf(document_html(doc), path)
    return [unicodedata.normalize("NFKC", t) for t in page_texts(path.read_bytes())]


def _sweep(tmp_path, intro: bool, check) -> None:
    breaks = 0
    for filler in range(25, 75):  # the section walks down the first page (about 34 lines), past its foot
        pages = _pages(_doc(filler, intro=intro), tmp_path / f"r{filler}.pdf")
        on = {w: [i for i, t in enumerate(pages) if w in t] for w in ("Table 1", TITLE, FIRST_ROW, HEADING, INTRO)}
        assert len(on["Table 1"]) == 1, (filler, on)
        page = on["Table 1"][0]
        assert on[TITLE] == [page] and page in on[FIRST_ROW], (filler, on)  # caption, title and table together
        check(filler, on, page, pages)
        breaks += page > 0
    assert breaks  # the sweep did cross a page break


def test_a_caption_stays_with_its_table(qapp, tmp_path):
    """keep_captions: "Table 1", its title and its first rows are on one page wherever the page ends."""
    _sweep(tmp_path, True, lambda *_: None)


def test_a_section_that_opens_with_a_table_starts_a_page(qapp, tmp_path):
    """No paragraph under the heading: the heading would be left alone when its caption moves to the next
    page, so the section starts a new page (the report HTML's page-break-before)."""
    def check(filler, on, page, pages):
        assert on[HEADING] == [page] and pages[page].startswith(HEADING), (filler, on)

    _sweep(tmp_path, False, check)


def test_a_heading_stays_with_its_first_paragraph(qapp, tmp_path):
    """keep_captions: a heading never ends a page with its first paragraph on the next."""
    def check(filler, on, page, pages):
        assert on[HEADING] == on[INTRO], (filler, on)

    _sweep(tmp_path, True, check)
