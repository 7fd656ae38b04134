"""The report as an editable Word document (.docx), with python-docx.

The same parts as the HTML and PDF report (``report.report_parts``): the title and the
study's summary, each section's paragraphs, APA 7 tables, figures with captions, the
methods text and the references. APA 7 tables (Publication Manual, 7th ed., sec. 7.8-7.21):
"Table N" in bold, the title in italics on the next line, horizontal rules only (above and
below the header and below the last row, no vertical rules: :func:`set_borders` writes the
``w:tcBorders`` that python-docx has no API for), the notes under the table. The number,
title and rows are kept with what follows, so a caption never ends a page alone.

Numbers are right-aligned with the same decimals in each column (the number style gives
every cell of a column the same number of decimals), which lines the decimal points up
without decimal tab stops; tab stops would misplace intervals (``[12.1, 20.4]``) and
"< .001". Negative numbers get a true minus sign, as in the HTML.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from dpdesk.project.report.inline import runs
from dpdesk.project.report.layout import PAD_EM, TABLE_PT, TableFit, table_parts
from dpdesk.project.report.model import Document, Figure, Table
from dpdesk.project.report.render import caption_number, cell_texts

FONT = "Times New Roman"
SIZE = 12  # points: APA's body text
NOTE_SIZE = 10
TABLE_SIZE = TABLE_PT  # the one table size of every format (layout)
MAX_FIGURE_HEIGHT = 7.5  # inches: a plot with its caption on a Letter or A4 page with 1 in margins
TEXT_WIDTH = 6.5  # inches between the margins of a Letter or A4 page with 1 in margins
RULE = {"val": "single", "sz": "8", "space": "0", "color": "000000"}  # 1 pt (sz in eighths of a point)
NONE = {"val": "nil"}
EDGES = ("top", "left", "bottom", "right", "insideH", "insideV")


def _border_element(tag: str, edges: dict[str, dict]):
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    element = OxmlElement(tag)
    for edge in EDGES:
        if edge not in edges:
            continue
        e = OxmlElement(f"w:{edge}")
        for key, value in edges[edge].items():
            e.set(qn(f"w:{key}"), value)
        element.append(e)
    return element


def set_borders(table, header_rows: int = 1) -> None:
    """APA rules on a python-docx table: none anywhere, then a rule above and below the header and below the
    last row (``w:tblBorders`` cleared, ``w:tcBorders`` on the header's and the last row's cells)."""
    from docx.oxml.ns import qn

    tbl_pr = table._tbl.tblPr
    for old in tbl_pr.findall(qn("w:tblBorders")):
        tbl_pr.remove(old)
    tbl_pr.append(_border_element("w:tblBorders", {e: NONE for e in EDGES}))
    rows = table.rows
    for i, row in enumerate(rows):
        edges = {e: NONE for e in ("left", "right", "insideV")}
        if i == 0:
            edges["top"] = RULE
        if i == header_rows - 1 or i == len(rows) - 1:
            edges["bottom"] = RULE
        for cell in row.cells:
            tc_pr = cell._tc.get_or_add_tcPr()
            for old in tc_pr.findall(qn("w:tcBorders")):
                tc_pr.remove(old)
            tc_pr.append(_border_element("w:tcBorders", edges))


def _add_runs(paragraph, fragment: str, *, size: int | None = None, italic: bool = False) -> None:
    from docx.shared import Pt

    for r in runs(fragment):
        run = paragraph.add_run(r.text)
        run.italic = r.italic or italic or None
        run.bold = r.bold or None
        if r.superscript:
            run.font.superscript = True
        if r.code:
            run.font.name = "Courier New"
        if size:
            run.font.size = Pt(size)


def _caption(word, label: str, title: str) -> None:
    """"Table 1" / "Figure 1" in bold, the title in italics below, both kept with what follows."""
    number = word.add_paragraph()
    number.add_run(label).bold = True
    number.paragraph_format.keep_with_next = True
    number.paragraph_format.space_after = 0
    caption = word.add_paragraph()
    caption.add_run(title).italic = True
    caption.paragraph_format.keep_with_next = True


def _no_wrap(cell) -> None:
    """``w:noWrap`` on a number cell (Word keeps it on one line; its width by the rule does it in LibreOffice)."""
    from docx.oxml import OxmlElement

    tc_pr = cell._tc.get_or_add_tcPr()
    if tc_pr.find(_qn("w:noWrap")) is None:
        tc_pr.append(OxmlElement("w:noWrap"))


def _qn(tag: str) -> str:
    from docx.oxml.ns import qn

    return qn(tag)


def _cell(cell, pieces: list[tuple[str, bool]], *, right: bool, indent: int = 0, keep: bool = True) -> None:
    """Fill a cell with ``(text, italic)`` pieces, right-aligned for numbers, kept with the next row."""
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.shared import Pt

    p = cell.paragraphs[0]
    for text, italic in pieces:
        if text:
            run = p.add_run(text)
            run.italic = italic or None
            run.font.size = Pt(TABLE_SIZE)
    p.alignment = WD_ALIGN_PARAGRAPH.RIGHT if right else WD_ALIGN_PARAGRAPH.LEFT
    p.paragraph_format.space_after = 0
    p.paragraph_format.keep_with_next = keep
    if indent:
        p.paragraph_format.left_indent = Pt(12 * indent)


def _widths(fit: TableFit):
    """Each column's width by the rule of :mod:`.layout` (its text and the space beside it, in ems of the table's
    size), the page's leftover shared in proportion, so the table spans the 6.5 in of text width."""
    from docx.shared import Pt

    ems = [w + PAD_EM for w in fit.widths]
    scale = max(1.0, TEXT_WIDTH * 72 / TABLE_SIZE / sum(ems))
    return [Pt(TABLE_SIZE * em * scale) for em in ems]


def add_table(word, t: Table) -> None:
    """The table, or its parts when the rule of :mod:`.layout` splits it, each with its caption."""
    for i, (part, fit) in enumerate(table_parts(t)):
        _add_part(word, part, fit, i)


def _add_part(word, t: Table, fit: TableFit, part: int) -> None:
    from docx.shared import Pt

    _caption(word, caption_number(t, part) if t.number else "Table", t.title)
    texts = cell_texts(t)
    table = word.add_table(rows=len(texts), cols=len(t.columns))
    table.autofit = False
    for j, c in enumerate(t.columns):
        _cell(table.cell(0, j), [(c.label, c.italic), (c.suffix, False)], right=c.numeric)
    last = len(t.rows)
    for i, row in enumerate(t.rows, 1):
        for j, c in enumerate(t.columns):
            right = c.numeric and not (row.heading and j == 0)
            _cell(table.cell(i, j), [(texts[i][j], False)], right=right, indent=row.indent if j == 0 else 0,
                  keep=i < last)
    for j, width in enumerate(_widths(fit)):
        table.columns[j].width = width  # the grid (LibreOffice reads it) and each cell (Word reads those)
        for row in table.rows:
            row.cells[j].width = width
    set_borders(table)
    for row in table.rows:  # after the borders: the schema orders tcBorders before noWrap
        for c, cell in zip(t.columns, row.cells):
            if c.numeric:
                _no_wrap(cell)
    for note in t.notes:
        p = word.add_paragraph()
        _add_runs(p, note, size=NOTE_SIZE)
        p.paragraph_format.space_after = Pt(0)
    word.add_paragraph()


def add_figure(word, f: Figure, png: bytes) -> None:
    from docx.shared import Inches

    _caption(word, f"Figure {f.number}" if f.number else "Figure", f.caption)
    width, height = png_size(png)
    if height * 6 > width * MAX_FIGURE_HEIGHT:  # a tall plot (many rows) fits the page with its caption
        word.add_picture(io.BytesIO(png), height=Inches(MAX_FIGURE_HEIGHT))
    else:
        word.add_picture(io.BytesIO(png), width=Inches(6))


def png_size(png: bytes) -> tuple[int, int]:
    """A PNG's width and height in pixels, from its IHDR chunk."""
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def _setup(word) -> None:
    from docx.shared import Pt

    normal = word.styles["Normal"]
    normal.font.name = FONT
    normal.font.size = Pt(SIZE)
    for name in ("Title", "Heading 1", "Heading 2"):
        style = word.styles[name]
        style.font.name = FONT
        style.font.color.rgb = None
    word.core_properties.author = ""
    word.core_properties.comments = "Written by dpdesk"


def build_word(doc: Document, methods, images: dict[str, bytes]):
    """A python-docx ``Document`` of the report; ``images`` maps a figure key to its PNG bytes."""
    import docx
    from docx.shared import Inches

    word = docx.Document()
    _setup(word)
    word.core_properties.title = doc.title
    word.add_heading(doc.title, level=0)
    for key, value in doc.cover.items():
        p = word.add_paragraph()
        p.add_run(f"{key}: ").bold = True
        p.add_run(str(value))
        p.paragraph_format.space_after = 0
    for s in doc.sections:
        word.add_heading(s.title, level=1)
        for text in s.paragraphs:
            _add_runs(word.add_paragraph(), text)
        for t in s.tables:
            add_table(word, t)
        for f in s.figures:
            if f.key in images:
                add_figure(word, f, images[f.key])
    word.add_heading("Methods", level=1)
    for text in methods.paragraphs:
        word.add_paragraph(text)
    if methods.references:
        word.add_heading("References", level=2)
        for ref in methods.references:
            p = word.add_paragraph()
            _add_runs(p, ref)
            p.paragraph_format.left_indent = Inches(0.5)
            p.paragraph_format.first_line_indent = Inches(-0.5)  # APA's hanging indent
    return word


def write_word(doc: Document, methods, images: dict[str, bytes], path: str | os.PathLike) -> Path:
    """Write the report to ``path`` (.docx), atomically."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    build_word(doc, methods, images).save(str(tmp))
    os.replace(tmp, path)
    return path
