"""The Excel workbook of :func:`dpdesk.project.export.results.write_xlsx` (XlsxWriter).

Every cell is written with an explicit ``write_number`` or ``write_string`` (never the
type-guessing ``write``), and the workbook is opened with ``strings_to_formulas``,
``strings_to_urls`` and ``strings_to_numbers`` off, so no text ever becomes a formula,
a hyperlink or a number. Formula-like text is also prefixed with ``'``
(:func:`dpdesk.project.export.safe_text.neutralise`).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from dpdesk.project.export.model import (
    METADATA_SHEET,
    README_SHEET,
    XLSX_TEXT_LIMIT,
    ResultsBundle,
    cell_text,
    metadata_rows,
    normalise_table,
    sheet_names,
)
from dpdesk.project.export.readme import readme_paragraphs

#: Number format of a column, by its lower-cased name.
COLUMN_FORMATS = {
    "n": "0",
    "excluded": "0",
    "count": "0",
    "counts": "0",
    "estimate": "0.0000",
    "prevalence": "0.0000",
    "difference": "0.0000",
    "ci low": "0.0000",
    "ci high": "0.0000",
    "se": "0.0000",
    "standard error": "0.0000",
    "confidence": "0.0%",
    "local epsilon": "0.000",
    "epsilon": "0.000",
}
MIN_WIDTH, MAX_WIDTH, NUMBER_WIDTH = 6, 60, 10


PERCENT_COLUMNS = ("estimate", "prevalence", "difference", "ci low", "ci high")


def column_format(name: str, values: list[Any], percent: bool = False) -> str | None:
    """The number format for a column: by name, else ``0`` when every number is whole."""
    numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    key = name.strip().lower()
    fmt = "0.0%" if percent and key in PERCENT_COLUMNS else COLUMN_FORMATS.get(key)
    if key == "confidence" and any(not (0 <= v <= 1) for v in numbers if math.isfinite(v)):
        return None  # given in percent already (95, not 0.95): keep General
    if fmt:
        return fmt
    if numbers and all(isinstance(v, int) for v in numbers):
        return "0"
    return None


class _Writer:
    def __init__(self, workbook, percent: bool = False):
        self.wb = workbook
        self.percent = percent
        self.header = workbook.add_format({"bold": True, "bottom": 1, "bg_color": "#F2F2F2"})
        self.wrap = workbook.add_format({"text_wrap": True, "valign": "top"})
        self.title = workbook.add_format({"bold": True, "font_size": 13})
        self._formats: dict[str, Any] = {}

    def number_format(self, fmt: str | None):
        if fmt is None:
            return None
        if fmt not in self._formats:
            self._formats[fmt] = self.wb.add_format({"num_format": fmt})
        return self._formats[fmt]

    def cell(self, ws, row: int, col: int, value: Any, fmt=None) -> int:
        """Write one cell; return the width its text needs."""
        if value is None:
            return 0
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            ws.write_number(row, col, value, fmt)
            return NUMBER_WIDTH
        text = cell_text(value)
        if len(text) > XLSX_TEXT_LIMIT:
            text = text[: XLSX_TEXT_LIMIT - 1] + "…"
        ws.write_string(row, col, text)
        return max((len(line) for line in text.splitlines()), default=0)

    def table(self, ws, columns: list[str], rows: list[list[Any]]) -> None:
        if not columns:
            ws.write_string(0, 0, "This table is empty.")
            return
        widths = []
        for col, name in enumerate(columns):
            values = [r[col] for r in rows]
            fmt = self.number_format(column_format(name, values, self.percent))
            header = cell_text(name)
            ws.write_string(0, col, header, self.header)
            width = len(header) + 2  # room for the autofilter arrow
            for row, value in enumerate(values, start=1):
                width = max(width, self.cell(ws, row, col, value, fmt))
            widths.append(width)
        for col, width in enumerate(widths):
            ws.set_column(col, col, min(MAX_WIDTH, max(MIN_WIDTH, width + 2)))
        ws.freeze_panes(1, 0)
        ws.autofilter(0, 0, len(rows), len(columns) - 1)


def build_workbook(bundle: ResultsBundle, target: Path, *, percent: bool = False) -> None:
    """Write the workbook of ``bundle`` to ``target``; ``percent`` formats proportions as 0.0%."""
    import xlsxwriter

    options = {
        "strings_to_formulas": False,
        "strings_to_urls": False,
        "strings_to_numbers": False,
        "nan_inf_to_errors": False,
    }
    workbook = xlsxwriter.Workbook(str(target), options)
    try:
        writer = _Writer(workbook, percent)
        renamed = []
        for sheet, (name, table) in zip(sheet_names(bundle), bundle.tables.items()):
            columns, rows = normalise_table(table)
            writer.table(workbook.add_worksheet(sheet), columns, rows)
            if sheet != str(name):  # Excel's rules changed the name: keep the original
                renamed.append([f"sheet {sheet} / table name", str(name)])
        meta = workbook.add_worksheet(METADATA_SHEET)
        writer.table(meta, ["Key", "Value"], [list(pair) for pair in metadata_rows(bundle)] + renamed)
        readme = workbook.add_worksheet(README_SHEET)
        readme.set_column(0, 0, 100)
        readme.write_string(0, 0, "About these results", writer.title)
        for row, paragraph in enumerate(readme_paragraphs(bundle), start=2):
            readme.write_string(row, 0, cell_text(paragraph)[:XLSX_TEXT_LIMIT], writer.wrap)
    finally:
        workbook.close()
