"""Excel ``.xlsx`` workbooks: check the zip, choose a sheet, read its header rows.

An .xlsx file is a zip archive holding ``xl/workbook.xml`` (ECMA-376 Open Packaging
Conventions). Before openpyxl parses anything, the archive is checked: it must open, it
must be a workbook (not a Word, PowerPoint or OpenDocument file or some other zip), and it
must not expand to an absurd size (a "zip bomb").
"""

from __future__ import annotations

import os
import zipfile

from dpdesk.errors import DataError

MAX_EXPANDED = 2 << 30  # 2 GiB of XML is far beyond any survey export
MAX_RATIO = 200


def check_archive(path: str) -> None:
    """Refuse a damaged zip, a zip that is not a workbook, or a zip bomb."""
    name = os.path.basename(path)
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError) as exc:
        raise DataError(f"{name}: the workbook is damaged or incomplete ({exc}); it cannot be "
                        f"opened as a zip archive. Open it in Excel and save it again, or export "
                        f"the data as CSV.") from None
    names = {m.filename for m in members}
    if "xl/workbook.xml" not in names:
        what = ("a Word document" if "word/document.xml" in names else
                "a PowerPoint file" if any(n.startswith("ppt/") for n in names) else
                "an OpenDocument (LibreOffice) file" if "content.xml" in names else
                "a zip archive of other files")
        raise DataError(f"{name}: this is {what}, not an Excel workbook. Save the data from its "
                        f"program as .xlsx or CSV, or unzip it and choose the data file inside.")
    expanded = sum(m.file_size for m in members)
    packed = max(1, sum(m.compress_size for m in members))
    if expanded > MAX_EXPANDED or (expanded > (50 << 20) and expanded / packed > MAX_RATIO):
        raise DataError(f"{name}: the workbook would expand from {packed:,} to {expanded:,} bytes "
                        f"(a 'zip bomb' or a corrupted file), so it is not opened. Export the data "
                        f"again as CSV or .xlsx from the original program.")


def sheet_names(path: str) -> list[str]:
    """Sheet names of the workbook, in order."""
    import openpyxl

    check_archive(path)
    workbook = openpyxl.load_workbook(path, read_only=True)
    try:
        return list(workbook.sheetnames)
    finally:
        workbook.close()


def choose_sheet(sheets: list[str], wanted, name: str) -> str:
    if wanted is None:
        return sheets[0]
    if isinstance(wanted, int) and not isinstance(wanted, bool):
        if 0 <= wanted < len(sheets):
            return sheets[wanted]
    elif str(wanted) in sheets:
        return str(wanted)
    else:
        folded = {s.strip().lower(): s for s in sheets}
        if str(wanted).strip().lower() in folded:
            return folded[str(wanted).strip().lower()]
        if str(wanted).strip().isdigit() and int(wanted) < len(sheets):  # "1" from a command line
            return sheets[int(wanted)]
    raise DataError(f"{name}: there is no sheet {wanted!r}. The sheets are: "
                    f"{', '.join(repr(s) for s in sheets)}; pass sheet= with one of these names "
                    f"(or its position, 0 for the first).")


def read_workbook(path: str, report, overrides: dict, progress):
    """Read one sheet; fill ``report``; return the frame (index 0, 1, ...)."""

    from dpdesk.project.reading import delimited, platforms

    name = os.path.basename(path)
    sheets = sheet_names(path)
    if not sheets:
        raise DataError(f"{name}: the workbook has no sheets. Save the data in a sheet and try again.")
    sheet = choose_sheet(sheets, overrides.get("sheet"), name)
    report.sheets, report.sheet = sheets, sheet
    if len(sheets) > 1 and overrides.get("sheet") is None:
        report.warnings.append(f"The workbook has {len(sheets)} sheets; read the first, "
                               f"'{sheet}'. Pass sheet='...' to read another.")
    progress(0.1)
    raw = _sheet_rows(path, sheet, progress)
    progress(0.8)
    if raw.shape[0] == 0 or raw.shape[1] == 0:
        raise DataError(f"{name}: sheet '{sheet}' is empty. Choose the sheet with the data "
                        f"(sheets: {', '.join(sheets)}) with sheet='...'.")
    rows = [[_text(v) for v in raw.iloc[i].tolist()] for i in range(min(4, len(raw)))]
    lay = platforms.layout(rows, overrides.get("platform"), overrides.get("header_rows"))
    frame = raw.iloc[lay.header_rows:].reset_index(drop=True).infer_objects()
    frame = _numbers_from_text(frame)
    report.first_data_row = lay.header_rows + 1
    return delimited.name_columns(frame, lay, report, name)


def _sheet_rows(path: str, sheet: str, progress):
    """The sheet's cells (cached values of formulas) as a frame, reporting progress by rows.

    The same reading as ``pandas.read_excel(header=None)`` with openpyxl in read-only mode,
    but row by row so that a large workbook reports progress and can be cancelled.
    """
    import openpyxl
    import pandas as pd

    workbook = openpyxl.load_workbook(path, read_only=True, data_only=True, keep_links=False)
    try:
        worksheet = workbook[sheet]
        total = max(1, int(worksheet.max_row or 0))
        rows, last = [], 0
        for number, row in enumerate(worksheet.iter_rows(values_only=True), start=1):
            rows.append(row)
            if any(v is not None and v != "" for v in row):
                last = number
            if number % 2000 == 0:
                progress(0.1 + 0.7 * min(1.0, number / total))
    finally:
        workbook.close()
    rows = rows[:last]  # trailing empty (formatted) rows are not data
    width = max((len(r) for r in rows), default=0)
    return pd.DataFrame([list(r) + [None] * (width - len(r)) for r in rows]).fillna(float("nan"))


def _text(value) -> str:
    if value is None or value != value:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _numbers_from_text(frame):
    """Columns whose every value is a number (after a header row made them text) become numeric."""
    import pandas as pd

    for column in frame.columns:
        series = frame[column]
        if pd.api.types.is_object_dtype(series.dtype):
            numbers = pd.to_numeric(series, errors="coerce")
            if numbers.notna().sum() == series.notna().sum():
                frame[column] = numbers
    return frame
