"""The one rule for how wide a table is on a page, applied the same way by every writer.

Each column is a number column (its cells never wrap) or a text column (it wraps between
words, never inside one). A column's widths are measured in ems of the table's font with
DejaVu Sans's advance widths (:func:`text_em`), the widest of the fonts the writers use
(DejaVu Sans in the PDF, Times New Roman or Liberation Serif in Word, Computer Modern in
LaTeX), so what fits here fits in every format:

* a number column's width is its widest cell or header, on one line;
* a text column's *minimum* is its longest word (with its row's indent), its *natural*
  width its longest cell on one line.

:func:`fit_table` decides once for every writer: the table **fits** (every column at its
natural width), is **narrowed** by rule (the numbers keep their width, the text columns
share what is left, each at least its longest word), or is **split** into several tables
that each repeat the first (label) column and take as many of the other columns, in order,
as fit beside it (:func:`table_parts`; the later parts are "Table N (continued)" and the
notes go under the last). Tables are set at :data:`TABLE_PT` in every format, on a page at most
:data:`PAGE_EM` wide: A4 with 20 mm margins (PDF, LaTeX: 482 pt) and Letter with 1 in
margins (Word: 468 pt) are both wider than 50 ems of 9 pt.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace

from dpdesk.project.report.model import Table

TABLE_PT = 9  # the font size of every table, in points
PAGE_EM = 50.0  # the width a table may take, in ems of TABLE_PT (450 pt: Word's 468 pt less a margin)
PAD_EM = 1.4  # the space between two columns (padding or \tabcolsep on both sides of each cell), in ems
INDENT_EM = 1.5  # an indented row's indent, per level

_ADVANCE = [  # DejaVu Sans's advance widths in ems (rounded up), character by character
    (0.28, "'ijlìíîï"),
    (0.3, 'IJÌÍÎÏ'),
    (0.32, ' ,.\xa0·’‘'),
    (0.34, '/:;\\|¦'),
    (0.36, 'f'),
    (0.37, '-\xad'),
    (0.39, '()[]'),
    (0.4, 't'),
    (0.41, '!¡²³¹'),
    (0.42, 'r'),
    (0.46, '"'),
    (0.48, 'ªº'),
    (0.5, '*_`§¨¯°´¸–'),
    (0.52, '“”'),
    (0.53, 'sz⁻'),
    (0.54, '?¿'),
    (0.55, 'ε'),
    (0.56, 'Lcç'),
    (0.58, 'Fkχ'),
    (0.6, 'vxyýÿγ'),
    (0.61, 'PÞπ'),
    (0.62, 'TYaeo«»Ýàáâãäåèéêëðòóôõöøδ'),
    (0.63, 'ß'),
    (0.64, '$0123456789ESbdghnpqu{}¢£¤¥µ¶ÈÉÊËñùúûüþβρ'),
    (0.66, 'K'),
    (0.69, 'ABVXZÀÁÂÃÄÅ'),
    (0.7, 'CRÇ'),
    (0.74, 'UÙÚÛÜ'),
    (0.75, 'NÑ'),
    (0.76, 'H'),
    (0.77, 'D'),
    (0.78, '&GÐ'),
    (0.79, 'OQÒÓÔÕÖØ'),
    (0.82, 'w'),
    (0.84, '#+<=>^~¬±×÷−∞≤≥'),
    (0.87, 'M'),
    (0.95, '%'),
    (0.97, '¼½¾'),
    (0.98, 'mÆ'),
    (0.99, 'Wæ'),
    (1.0, '@©®…—'),
]
_WIDTH = {ch: em for em, chars in _ADVANCE for ch in chars}


def text_em(text: str) -> float:
    """The width of text on one line, in ems of DejaVu Sans (a wide character not listed: 1 em, others 0.8)."""
    return sum(_WIDTH.get(ch) or (1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.8) for ch in str(text))


def _words_em(text: str) -> float:
    return max((text_em(w) for w in str(text).split()), default=0.0)


@dataclass(frozen=True)
class ColumnFit:
    numeric: bool  # a number column: never wraps
    minimum: float  # ems: the longest word (text) or the widest cell (numbers)
    natural: float  # ems: the longest cell on one line


@dataclass(frozen=True)
class TableFit:
    decision: str  # "fits", "narrow" or "split"
    columns: list[ColumnFit]
    widths: list[float]  # the width of each column's text in ems (without the space between columns)
    parts: list[list[int]]  # the columns of each part (one part unless split), the label column first


def header_text(c) -> str:
    return c.label + c.suffix


def measure(t: Table) -> list[ColumnFit]:
    """Each column's kind, minimum and natural width (ems), from its header and cells."""
    out = []
    for j, c in enumerate(t.columns):
        head = header_text(c)
        cells = [(row.cells[j].text if j < len(row.cells) else "", row.indent if j == 0 else 0) for row in t.rows]
        natural = max([text_em(head)] + [text_em(x) + INDENT_EM * k for x, k in cells])
        if c.numeric:
            out.append(ColumnFit(True, natural, natural))
        else:
            minimum = max([_words_em(head)] + [_words_em(x) + INDENT_EM * k for x, k in cells])
            out.append(ColumnFit(False, minimum, natural))
    return out


def _widths(cols: list[ColumnFit], page: float) -> tuple[str, list[float]] | None:
    """("fits" or "narrow", widths) for these columns on page ems, or None when even the minimum is wider."""
    room = page - PAD_EM * len(cols)
    if sum(c.natural for c in cols) <= room:
        return "fits", [c.natural for c in cols]
    if sum(c.minimum for c in cols) > room:
        return None
    slack = room - sum(c.minimum for c in cols)
    want = sum(c.natural - c.minimum for c in cols)  # only text columns want more than their minimum
    return "narrow", [c.minimum + (slack * (c.natural - c.minimum) / want if want else 0.0) for c in cols]


def _chunks(cols: list[ColumnFit], page: float) -> list[list[int]]:
    """The other columns (1..) in order, in as few parts beside column 0 as fit, the parts as even as can be."""
    rest = list(range(1, len(cols)))
    greedy, part = [], []
    for j in rest:
        if part and _widths([cols[0]] + [cols[k] for k in part + [j]], page) is None:
            greedy.append(part)
            part = []
        part.append(j)
    greedy.append(part)
    n = len(greedy)
    size, extra = divmod(len(rest), n)
    even, start = [], 0
    for i in range(n):
        stop = start + size + (i < extra)
        even.append(rest[start:stop])
        start = stop
    if all(_widths([cols[0]] + [cols[k] for k in p], page) is not None for p in even):
        return even
    return greedy


def fit_table(t: Table, page: float = PAGE_EM) -> TableFit:
    """The one decision for t on a page page ems wide (see the module docstring)."""
    cols = measure(t)
    whole = _widths(cols, page)
    if whole is not None or len(cols) < 3:
        decision, widths = whole or ("narrow", [c.minimum for c in cols])  # two columns that cannot fit: at least whole words
        return TableFit(decision, cols, widths, [list(range(len(cols)))])
    parts = [[0] + p for p in _chunks(cols, page)]
    widths = [0.0] * len(cols)
    for p in parts:
        got = _widths([cols[k] for k in p], page)
        for k, w in zip(p, got[1] if got else [cols[k].minimum for k in p]):
            widths[k] = max(widths[k], w) if k == 0 else w
    return TableFit("split", cols, widths, parts)


def table_parts(t: Table, fit: TableFit | None = None) -> list[tuple[Table, TableFit]]:
    """t as the tables a page shows, each with its own fit: t itself, or its parts when split
    (the label column repeated, the same title, the notes under the last; the writers number the later parts
    "Table N (continued)")."""
    fit = fit or fit_table(t)
    if fit.decision != "split":
        return [(t, fit)]
    out = []
    for i, cols in enumerate(fit.parts):
        last = i == len(fit.parts) - 1
        part = replace(t, columns=[t.columns[k] for k in cols],
                       rows=[replace(r, cells=[r.cells[k] for k in cols]) for r in t.rows],
                       notes=list(t.notes) if last else [])
        sub = [fit.columns[k] for k in cols]
        got = _widths(sub, PAGE_EM)
        out.append((part, TableFit(got[0] if got else "narrow", sub, got[1] if got else [c.minimum for c in sub],
                                   [list(range(len(cols)))])))
    return out
