"""The one writer of every CSV, TSV and xlsx table that leaves dpdesk.

Results (:mod:`~dpdesk.project.export.results`, :mod:`~dpdesk.project.export.xlsx`), shared
extracts and their disclosure reports (:mod:`dpdesk.project.sharing.writing`) and released
tables (:mod:`dpdesk.project.ledger.release_table`) all write through here, so one rule
holds for all of them:

* **Text** -- values *and* column names -- goes through
  :func:`~dpdesk.project.export.safe_text.neutralise`: a text whose first character is tab,
  CR or LF, or whose first visible character (after white space and invisible control or
  format characters) is ``=``, ``+``, ``-`` or ``@``, gets one leading apostrophe ``'``.
* **Numbers** are never altered: a real ``int``/``float`` cell is written as a number
  (``-1`` stays the number -1; full precision, ``repr``), while the *text* ``"-1+2"`` is
  prefixed. Text that looks like a number (``"007"``, ``"1e5"``) stays that exact text,
  and an xlsx cell for it is a string cell.
* **CSV/TSV** uses :mod:`csv` with ``QUOTE_MINIMAL`` and CRLF line ends, so any field
  holding CR, LF, the delimiter or a quote is quoted (``DataFrame.to_csv`` leaves a bare
  CR unquoted, which splits a record in two).
* **xlsx** uses XlsxWriter with ``strings_to_formulas``, ``strings_to_urls`` and
  ``strings_to_numbers`` off and one explicit ``write_string`` / ``write_number`` per cell.

XlsxWriter writes numbers with 16 significant digits (``%.16G``), which changes some
doubles (the largest double even becomes infinity); :class:`ExactNumber` makes it write
the shortest text that reads back as the same double (``repr``), so every number in an xlsx
is the number given. Integers beyond 2**53 cannot be held exactly by a spreadsheet's
double, so the xlsx gets their exact digits as text. Every file is written atomically
(:func:`~dpdesk.project.export.model.atomic_write`).
"""

from __future__ import annotations

import csv
import io
import math
import os
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from dpdesk.project.export.model import (
    XLSX_TEXT_LIMIT,
    ExportError,
    atomic_write,
    cell_text,
    normalise_table,
)

__all__ = ["csv_text", "write_csv", "write_xlsx", "write_table", "SheetWriter", "ExactNumber", "open_workbook",
           "XLSX_OPTIONS", "XLSX_MAX_ROWS"]

#: Options of every workbook dpdesk writes: no text ever becomes a formula, link or number.
XLSX_OPTIONS = {
    "strings_to_formulas": False,
    "strings_to_urls": False,
    "strings_to_numbers": False,
    "nan_inf_to_errors": False,
}
#: Data rows an Excel sheet holds below its header row.
XLSX_MAX_ROWS = 1_048_575
MIN_WIDTH, MAX_WIDTH, NUMBER_WIDTH = 6, 60, 10
PORTRAIT_WIDTH = 100  # characters of column width that print readably across a portrait page
_EXACT_INT = 2 ** 53


# ----------------------------------------------------------------------------- CSV


def csv_text(rows: Iterable[Iterable[Any]], delimiter: str = ",") -> str:
    """The rows (header first) as CSV text: neutralised text, full-precision numbers, CRLF."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    for row in rows:
        writer.writerow([cell_text(v) for v in row])
    return buffer.getvalue()


def _write_csv_file(columns: Sequence[Any], rows: Iterable[Sequence[Any]], encoding: str,
                    delimiter: str) -> Callable[[Path], None]:
    def write(tmp: Path) -> None:
        with open(tmp, "w", encoding=encoding, newline="") as handle:
            writer = csv.writer(handle, delimiter=delimiter, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
            writer.writerow([cell_text(c) for c in columns])
            for row in rows:
                writer.writerow([cell_text(v) for v in row])

    return write


def write_csv(path: str | os.PathLike, columns: Sequence[Any], rows: Iterable[Sequence[Any]], *,
              encoding: str = "utf-8-sig", delimiter: str = ",") -> Path:
    """One table as a CSV file (UTF-8 with a BOM so Excel detects the encoding), atomically."""
    return atomic_write(Path(path), _write_csv_file(columns, rows, encoding, delimiter))


# ----------------------------------------------------------------------------- xlsx


def open_workbook(target: str | os.PathLike):
    """An XlsxWriter workbook with :data:`XLSX_OPTIONS` (close it when done)."""
    import xlsxwriter

    return xlsxwriter.Workbook(str(target), dict(XLSX_OPTIONS))


class ExactNumber(float):
    """A float that XlsxWriter's ``{number:.16G}`` writes with all its digits (ints as digits)."""

    def __new__(cls, value):
        number = super().__new__(cls, value)
        number.text = str(int(value)) if isinstance(value, int) else repr(float(value))
        return number

    def __format__(self, spec: str) -> str:
        return self.text


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class SheetWriter:
    """Writes cells and tables into a workbook with explicit types and neutralised text.

    ``column_format(name, values)`` may give a number format (``"0.0000"``) per column.
    """

    def __init__(self, workbook, column_format: Callable[[str, list[Any]], str | None] | None = None):
        self.wb = workbook
        self.column_format = column_format
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

    def text(self, ws, row: int, col: int, value: Any, fmt=None) -> int:
        """Write ``value`` as a neutralised string cell; return the width its text needs."""
        text = cell_text(value)
        if len(text) > XLSX_TEXT_LIMIT:
            text = text[: XLSX_TEXT_LIMIT - 1] + "…"
        ws.write_string(row, col, text, fmt)
        return max((len(line) for line in text.splitlines()), default=0)

    def cell(self, ws, row: int, col: int, value: Any, fmt=None) -> int:
        """Write one cell (a number as a number, anything else as safe text); return its width."""
        if value is None:
            return 0
        if _is_number(value) and math.isfinite(value) and not (isinstance(value, int) and abs(value) > _EXACT_INT):
            ws.write_number(row, col, ExactNumber(value), fmt)
            return NUMBER_WIDTH
        return self.text(ws, row, col, value)

    def table(self, ws, columns: Sequence[Any], rows: Sequence[Sequence[Any]], *,
              widths: Sequence[int] | None = None) -> None:
        """A header row (frozen, with an autofilter) and the rows below it."""
        if not columns:
            ws.write_string(0, 0, "This table is empty.")
            return
        formats = []
        for col, name in enumerate(columns):
            fmt = self.column_format(str(name), [r[col] for r in rows]) if self.column_format else None
            formats.append(self.number_format(fmt))
        need = [self.text(ws, 0, col, name, self.header) + 2 for col, name in enumerate(columns)]  # + filter arrow
        for row, values in enumerate(rows, start=1):
            for col, value in enumerate(values):
                width = self.cell(ws, row, col, value, formats[col])
                if width > need[col]:
                    need[col] = width
        total = 0
        for col, width in enumerate(need):
            chosen = widths[col] if widths is not None and col < len(widths) else min(MAX_WIDTH, max(MIN_WIDTH, width + 2))
            ws.set_column(col, col, chosen)
            total += chosen
        ws.freeze_panes(1, 0)
        ws.autofilter(0, 0, len(rows), len(columns) - 1)
        print_setup(ws, total)


def print_setup(ws, width: float) -> None:
    """Printed, a sheet is one page wide (as many pages long as it needs), landscape when its columns are wider
    than :data:`PORTRAIT_WIDTH` characters, with the header row on every page."""
    ws.fit_to_pages(1, 0)
    if width > PORTRAIT_WIDTH:
        ws.set_landscape()
    ws.repeat_rows(0)


def write_xlsx(path: str | os.PathLike, sheets: Sequence[tuple[str, Any]], *,
               widths: dict[str, Sequence[int]] | None = None) -> Path:
    """A workbook of plain tables: ``sheets`` is ``[(sheet name, table), ...]`` (a DataFrame or
    a list of dicts, see :func:`~dpdesk.project.export.model.normalise_table`)."""
    from dpdesk.project.export.safe_text import excel_sheet_name

    tables = []
    for name, table in sheets:
        columns, rows = normalise_table(table)
        if len(rows) > XLSX_MAX_ROWS:
            raise ExportError(f"The table {name!r} has {len(rows)} rows, more than an Excel sheet holds "
                              f"({XLSX_MAX_ROWS}). Write .csv instead.")
        tables.append((name, columns, rows))

    def build(tmp: Path) -> None:
        workbook = open_workbook(tmp)
        try:
            writer, taken = SheetWriter(workbook), set()
            for name, columns, rows in tables:
                writer.table(workbook.add_worksheet(excel_sheet_name(name, taken)), columns, rows,
                             widths=(widths or {}).get(name))
        finally:
            workbook.close()

    return atomic_write(Path(path), build)


def write_table(path: str | os.PathLike, table: Any, *, sheet: str = "Table") -> Path:
    """One table (a DataFrame or a list of dicts) to ``.csv`` or ``.xlsx``, by the suffix."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        columns, rows = normalise_table(table)
        return write_csv(path, columns, rows)
    if suffix == ".xlsx":
        return write_xlsx(path, [(sheet, table)])
    raise ExportError(f"Cannot write {path.name!r}: choose a name ending in .csv or .xlsx.")
