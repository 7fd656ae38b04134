"""The output document as HTML (APA tables: horizontal rules only, numbers right-aligned) and TSV.

The same HTML shows in the Results view (Qt's rich text), goes on the clipboard (Word
pastes it as a table) and into the report. TSV is "what is shown" (the cells' text) or,
with ``full=True``, the full-precision values (an interval becomes two columns).
"""

from __future__ import annotations

import html

from dpdesk.project.export.safe_text import neutralise
from dpdesk.project.report.layout import PAD_EM, TABLE_PT, TableFit, table_parts
from dpdesk.project.report.model import Column, Document, Figure, Section, Table
from dpdesk.project.number_style import typographic

NBSP = "\u00a0"  # joins the parts of a number cell ("25.7 [19.9, 31.8]"): a number never wraps

RULE = "1px solid #000"
FONT = "font-family: 'DejaVu Sans', Arial, sans-serif;"
STYLE = f"""
body {{ {FONT} font-size: 10pt; color: #111; }}
h1 {{ font-size: 16pt; font-weight: normal; }}
h2 {{ font-size: 13pt; font-weight: bold; margin-top: 18px; }}
p.table-number {{ font-weight: bold; margin-bottom: 0; }}
p.table-title {{ font-style: italic; margin-top: 2px; }}
p.note {{ font-size: 9pt; margin-top: 2px; margin-bottom: 0; }}
table.apa {{ border-collapse: collapse; }}
table.apa td, table.apa th {{ font-size: {TABLE_PT}pt; }}
table.apa th {{ font-weight: normal; border-top: {RULE}; border-bottom: {RULE}; padding: 3px 10px; }}
table.apa td {{ padding: 2px 10px; }}
table.apa tr.last td {{ border-bottom: {RULE}; }}
td.num, th.num {{ text-align: right; white-space: nowrap; }}
td.text, th.text {{ text-align: left; }}
a.copy {{ font-size: 8pt; color: #2b5c8a; }}
"""


def _e(text) -> str:
    return html.escape(str(text), quote=False)


def _header(c: Column) -> str:
    label = f"<i>{_e(c.label)}</i>" if c.italic else _e(c.label)
    return label + _e(c.suffix)


def number_text(text: str) -> str:
    """A number cell as every writer shows it: a true minus, and no space it could wrap at."""
    return typographic(text).replace(" ", NBSP)


def cell_texts(t: Table) -> list[list[str]]:
    """The text of each cell as every writer shows it (header first): numbers by :func:`number_text`."""
    head = [c.label + c.suffix for c in t.columns]
    body = [[number_text(cell.text) if c.numeric else cell.text for c, cell in zip(t.columns, row.cells)]
            for row in t.rows]
    return [head] + body


def caption_number(t: Table, part: int) -> str:
    """"Table 2", or "Table 2 (continued)" over the later parts of a split table."""
    return f"Table {t.number}" + (" (continued)" if part else "")


def table_html(t: Table, *, links: bool = False) -> str:
    """One APA table: "Table N" in bold, its title in italics, rules above and below the header and at the end;
    split into parts, or its text columns narrowed, by the one rule of :mod:`.layout`."""
    out = []
    for i, (part, fit) in enumerate(table_parts(t)):
        out.append(_part_html(part, fit, i))
    if links:
        out.append(f"<p class='note'><a class='copy' href='copy:{_e(t.key)}'>Copy table</a> &nbsp; "
                   f"<a class='copy' href='copyfull:{_e(t.key)}'>Copy with full precision</a> &nbsp; "
                   f"<a class='copy' href='copytex:{_e(t.key)}'>Copy as LaTeX</a></p>")
    return "\n".join(out)


def _part_html(t: Table, fit: TableFit, part: int) -> str:
    out = []
    if t.number:
        out.append(f"<p class='table-number'>{caption_number(t, part)}</p>")
    elif part:
        out.append("<p class='table-number'>(continued)</p>")
    out.append(f"<p class='table-title'>{_e(t.title)}</p>")
    narrow = fit.decision == "narrow"
    total = sum(w + PAD_EM for w in fit.widths)
    out.append(f"<table class='apa' cellspacing='0' cellpadding='3'{' width=100%' if narrow else ''} "
               f"style='border-collapse: collapse; border-bottom: {RULE};'>")

    def width(j: int) -> str:  # narrowed: each column its share of the page, by the rule
        if not narrow:
            return ""
        return f" width='{100 * (fit.widths[j] + PAD_EM) / total:.1f}%'"

    head = "".join(f"<th class='{'num' if c.numeric else 'text'}' align='{'right' if c.numeric else 'left'}'"
                   f"{width(j)} style='border-top: {RULE}; border-bottom: {RULE};"
                   f"{' white-space: nowrap;' if c.numeric else ''}'>{_header(c)}</th>"
                   for j, c in enumerate(t.columns))
    out.append(f"<thead><tr>{head}</tr></thead><tbody>")
    for i, row in enumerate(t.rows):
        last = i == len(t.rows) - 1
        cells = []
        for j, (c, cell) in enumerate(zip(t.columns, row.cells)):
            style = f"border-bottom: {RULE};" if last else ""
            text = _e(cell.text)
            if c.numeric:
                text = _e(number_text(cell.text))
                style += " white-space: nowrap;"
            if j == 0 and row.indent:
                style += f" padding-left: {10 + 18 * row.indent}px;"
            align = "right" if c.numeric and not (row.heading and j == 0) else "left"
            cells.append(f"<td class='{'num' if c.numeric else 'text'}' align='{align}' style='{style}'>{text}</td>")
        out.append(f"<tr{' class=last' if last else ''}>{''.join(cells)}</tr>")
    out.append("</tbody></table>")
    for n in t.notes:
        out.append(f"<p class='note'>{n}</p>")
    return "\n".join(out)


def figure_html(f: Figure, src) -> str:
    """"Figure N" in bold, the caption in italics, then the image (``src``, or ``(src, width)``), kept together."""
    out = []
    if f.number:
        out.append(f"<p class='table-number'>Figure {f.number}</p>")
    out.append(f"<p class='table-title'>{_e(f.caption)}</p>")
    if isinstance(src, tuple):
        out.append(f"<p><img src='{src[0]}' width='{int(src[1])}'></p>")
    else:
        out.append(f"<p><img src='{src}'></p>")
    return f"<div class='figure' style='page-break-inside: avoid;'>{''.join(out)}</div>"


def section_html(s: Section, *, links: bool = False, images: dict | None = None) -> str:
    """A section: heading, paragraphs, tables, and the figures ``images`` has a source for (by figure key).

    A section that opens with a table (no paragraph under its heading) starts a new page when printed:
    Qt's rich text has no keep-with-next, and the PDF moves a caption that would end a page to the next
    one (``dpdesk.printing.keep_captions``), which would leave the heading alone at the bottom.
    """
    brk = " style='page-break-before: always;'" if not s.paragraphs and (s.tables or s.figures) else ""
    out = [f"<a name='{_e(s.key)}'></a><h2{brk}>{_e(s.title)}</h2>"]
    out += [f"<p>{p}</p>" for p in s.paragraphs]
    for t in s.tables:
        out.append(table_html(t, links=links))
    for f in s.figures:
        src = (images or {}).get(f.key)
        if src:
            out.append(figure_html(f, src))
    return "\n".join(out)


def cover_html(doc: Document) -> str:
    """The title and the study's summary at the top of the first page (no page of its own)."""
    rows = "".join(f"<tr><td style='padding: 2px 12px 2px 0;'><b>{_e(k)}</b></td><td>{_e(v)}</td></tr>"
                   for k, v in doc.cover.items())
    return f"<h1>{_e(doc.title)}</h1><table class='cover' cellspacing='0'>{rows}</table>"


def document_html(doc: Document, *, links: bool = False, images: dict | None = None,
                  cover: bool = False, extra: str = "") -> str:
    """The whole document as one HTML page (``cover`` adds the title and summary, ``extra`` HTML at the end)."""
    body = [cover_html(doc)] if cover else []
    body += [section_html(s, links=links, images=images) for s in doc.sections]
    body.append(extra)
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{_e(doc.title)}</title>"
            f"<style>{STYLE}</style></head><body>{''.join(body)}</body></html>")


def _is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def table_tsv(t: Table, *, full: bool = False) -> str:
    """Tab-separated, text neutralised against formulas; indented rows keep their indent as spaces."""
    header = []
    for c in t.columns:
        label = c.label + (" (proportion)" if full and c.suffix == " (%)" else c.suffix)
        if full and c.label.endswith(" CI"):
            header += [f"{label} low", f"{label} high"]
        else:
            header.append(label)
    lines = ["\t".join(header)]
    for row in t.rows:
        cells = []
        for j, (c, cell) in enumerate(zip(t.columns, row.cells)):
            if full and c.label.endswith(" CI"):
                lo, hi = cell.value if isinstance(cell.value, tuple) else (None, None)
                cells += ["" if lo is None else repr(lo), "" if hi is None else repr(hi)]
                continue
            if full and c.numeric and isinstance(cell.value, (int, float)):
                cells.append(repr(cell.value))
                continue
            text = ("  " * row.indent + cell.text) if j == 0 else cell.text
            cells.append(text if _is_number(text) else str(neutralise(text)).replace("\t", " ").replace("\n", " "))
        lines.append("\t".join(cells))
    return "\n".join(lines) + "\n"


def table_clipboard_html(t: Table, *, full: bool = False) -> str:
    """The HTML put on the clipboard: the shown table, or a plain one with full-precision values."""
    if not full:
        return f"<html><head><style>{STYLE}</style></head><body>{table_html(t)}</body></html>"
    rows = [line.split("\t") for line in table_tsv(t, full=True).splitlines()]
    head = "".join(f"<th>{_e(h)}</th>" for h in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in r) + "</tr>" for r in rows[1:])
    return f"<html><body><table border='1'><tr>{head}</tr>{body}</table></body></html>"
