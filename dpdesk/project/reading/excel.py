"""Excel ``.xlsx`` workbooks: check the zip, choose a sheet, read its header rows.

An .xlsx file is a zip archive holding a workbook part, usually ``xl/workbook.xml``
(ECMA-376 Open Packaging Conventions; some writers put the parts at the root of the zip,
which ``[Content_Types].xml`` then names). Before openpyxl parses anything, the archive is
checked: it must open, it must be a workbook (not a Word, PowerPoint or OpenDocument file or
some other zip), and it must not expand to an absurd size (a "zip bomb").

A sheet is read by the cells that exist in its XML, never by its declared ``<dimension>``
(often stale, which made openpyxl's read-only mode drop rows) and never cell by cell over
empty space. A stray entry far from the table (a lone value with nothing else in its row or
column, beyond a blank row or column, such as an "x" typed at XFD3000) is left out with a
warning naming the cell and its value; a sheet whose remaining values still span more than
:data:`MAX_CELLS` cells (rows x columns) is refused with the place of the farthest value.
Malformed XML in any part, whichever parser finds it (the standard library's, expat or lxml's),
is a :class:`DataError` naming the part.
"""

from __future__ import annotations

import os
import zipfile

from dpdesk.errors import DataError, in_app
from dpdesk.project.reading.option_words import choose

MAX_EXPANDED = 2 << 30  # 2 GiB of XML is far beyond any survey export
MAX_RATIO = 200
MAX_CELLS = 50_000_000  # rows x columns spanned by a sheet's values (1M rows x 50 columns)
MAX_ROWS = 1_048_576  # Excel's limit
MAX_STRAYS = 10  # lone far cells left out (with a warning each); more are read as data
_WORKBOOK_TYPES = ("spreadsheetml.sheet.main+xml", "spreadsheetml.template.main+xml",
                   "ms-excel.sheet.macroEnabled.main+xml", "ms-excel.template.macroEnabled.main+xml")


def check_archive(path: str) -> None:
    """Refuse a damaged zip, a zip that is not a workbook, or a zip bomb."""
    name = os.path.basename(path)
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError) as exc:
        cut = "not a zip file" in str(exc)  # no table of contents found at the end at all
        what = ("it is missing, so the file was probably cut short while copying or downloading" if cut else
                "it is damaged (bytes were lost, added or changed while copying, downloading or saving)")
        raise DataError(f"{name}: the workbook is damaged or incomplete ({exc}): an .xlsx file is a zip "
                        f"archive whose table of contents is at its end, and {what}. Copy it again from "
                        f"the original, or open it in Excel and save it again, or export the data "
                        f"as CSV.") from None
    names = {m.filename for m in members}
    if "xl/workbook.xml" not in names and not _declared_workbook(path, names):
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


def damaged_zip(path: str, exc: BaseException) -> DataError | None:
    """A DataError in words for a workbook whose zip is damaged inside, or None if ``exc`` is not that.

    The archive opened (its table of contents at the end was found), but reading a part
    failed: a checksum (CRC-32) that does not match, compressed bytes that do not
    decompress, or a table of contents pointing where no part starts. Each part is read
    once more to name the first damaged one.
    """
    import zlib

    if not isinstance(exc, (zipfile.BadZipFile, zlib.error, EOFError, KeyError, OSError)):
        return None
    name = os.path.basename(path)
    member, problem = None, exc
    try:
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                try:
                    with archive.open(info) as handle:
                        while handle.read(1 << 20):
                            pass
                except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError) as found:
                    member, problem = info.filename, found
                    break
    except (zipfile.BadZipFile, OSError, EOFError, ValueError):
        pass
    text = str(problem)
    part = f"its part {member}" if member else "one of its parts"
    if isinstance(problem, KeyError) or (member is None and isinstance(exc, KeyError)):
        what = f"a part the workbook needs is missing from the archive ({' '.join(str(exc).split())[:80]})"
    elif "CRC" in text:
        what = f"the bytes of {part} no longer match their checksum (CRC-32): they were changed"
    elif isinstance(problem, zlib.error):
        what = f"the compressed bytes of {part} are corrupted and cannot be unpacked"
    else:
        what = (f"its table of contents (the zip directory at the end of the file) does not match where "
                f"the parts are{f' (from {member} on)' if member else ''}: bytes were lost, added or changed")
    return DataError(f"{name}: the .xlsx file is damaged: it is a zip archive, and {what}. It was probably "
                     f"damaged while copying, downloading or saving. Copy it again from the original, or open "
                     f"it in Excel (which offers to repair it) and save it again, or export the data as CSV.")


def _declared_workbook(path: str, names: set) -> bool:
    """Whether ``[Content_Types].xml`` names a workbook part that the zip holds (parts at the root)."""
    import re

    if "[Content_Types].xml" not in names:
        return False
    with zipfile.ZipFile(path) as archive:
        with archive.open("[Content_Types].xml") as handle:
            text = handle.read(1 << 20).decode("utf-8", "replace")
    for match in re.finditer(r"<Override\b[^>]*>", text):
        tag = match.group(0)
        part = re.search(r'PartName="/?([^"]+)"', tag)
        kind = re.search(r'ContentType="([^"]+)"', tag)
        if part and kind and kind.group(1).endswith(_WORKBOOK_TYPES) and part.group(1) in names:
            return True
    return False


def sheet_names(path: str) -> list[str]:
    """Sheet names of the workbook, in order."""
    import openpyxl

    check_archive(path)
    with _xml_errors(path):
        workbook = openpyxl.load_workbook(path, read_only=True)
    try:
        return list(workbook.sheetnames)
    finally:
        workbook.close()


class _xml_errors:
    """Malformed XML inside the workbook becomes a DataError naming the part."""

    def __init__(self, path: str):
        self.path = path

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if kind is not None and is_xml_error(exc):
            raise malformed_xml(self.path, exc) from None
        return False


def is_xml_error(exc: BaseException) -> bool:
    """Whether ``exc`` is an XML parser's error (malformed input), not a bug in dpdesk.

    The standard library's ``ParseError`` and lxml's ``XMLSyntaxError`` (openpyxl parses
    with lxml when it is installed, as it is for python-docx) are both ``SyntaxError``
    subclasses; expat's ``ExpatError`` is not. A real ``SyntaxError`` (from compiling
    Python) is none of these.
    """
    import sys
    from xml.etree.ElementTree import ParseError
    from xml.parsers.expat import ExpatError

    if isinstance(exc, (ParseError, ExpatError)):
        return True
    lxml = sys.modules.get("lxml.etree")
    return lxml is not None and isinstance(exc, (lxml.LxmlSyntaxError, lxml.LxmlError))


def malformed_xml(path: str, exc) -> DataError:
    """A DataError for malformed XML in a workbook: which part, where, and what to do."""
    name = os.path.basename(path)
    part, where = _broken_part(path)
    place = f"its part {part}" + (f" (line {where[0]}, column {where[1]})" if where else "") if part else "one of its parts"
    return DataError(f"{name}: the workbook is damaged: the XML of {place} is malformed "
                     f"({' '.join(str(exc).split())[:100]}). Open it in Excel or LibreOffice and "
                     f"save it again as .xlsx, or export the data as CSV.")


def _broken_part(path: str):
    """The first XML part of the zip that is not well-formed, and the (line, column) of the fault."""
    from xml.etree.ElementTree import ParseError, XMLPullParser

    try:
        with zipfile.ZipFile(path) as archive:
            for member in archive.infolist():
                if not member.filename.endswith((".xml", ".rels", ".vml")):
                    continue
                parser = XMLPullParser(events=())
                try:
                    with archive.open(member) as handle:
                        for block in iter(lambda: handle.read(1 << 20), b""):
                            parser.feed(block)
                            for _ in parser.read_events():
                                pass
                        parser.close()
                except ParseError as exc:
                    return member.filename, getattr(exc, "position", None)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError):
        pass
    return None, None


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
    head = (f"{name}: there is no sheet {wanted!r}. The sheets are: {', '.join(repr(s) for s in sheets)}. "
            f"Choose one of these under Sheet in the import window")
    raise in_app(DataError(head + " (command line: --sheet NAME, or its position, 0 for the first)."), head + ".")


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
                               f"'{sheet}'. If the data are on another sheet, {choose('sheet', sheets[-1])}.")
    progress(0.1)
    merges: list = []
    with _xml_errors(path):
        raw = _sheet_rows(path, sheet, progress, report, merges)
    progress(0.8)
    if raw.shape[0] == 0 or raw.shape[1] == 0:
        raise DataError(f"{name}: sheet '{sheet}' is empty. Choose the sheet with the data "
                        f"(sheets: {', '.join(sheets)}): {choose('sheet', sheets[-1])}.")
    lead = _blank_rows_above(raw)
    if lead:
        raw = raw.iloc[lead:]
        report.warnings.append(f"Skipped {lead} blank row(s) above the header.")
    if overrides.get("header_rows") is None:
        from dpdesk.project.reading.shape import title_rows

        title = title_rows([[_text(v) for v in raw.iloc[i].tolist()] for i in range(min(25, len(raw)))])
        if title:
            words = " ".join(_text(v) for v in raw.iloc[0].tolist() if _text(v).strip())
            report.warnings.append(f"Skipped {title} row(s) above the header that look like a title "
                                   f"({words[:60]!r}). To read the top row as the header instead, set the "
                                   f"header rows to 1 (or more): {choose('header_rows', '1')}.")
            raw, lead = raw.iloc[title:], lead + title
    rows = [[_text(v) for v in raw.iloc[i].tolist()] for i in range(min(4, len(raw)))]
    lay = platforms.layout(rows, overrides.get("platform"), overrides.get("header_rows"))
    if lay.platform is None and overrides.get("header_rows") != 0:
        block = _header_block(raw, merges, lead, lay, overrides.get("header_rows"))
        if block is None and overrides.get("header_rows") is None and lay.header_rows == 1:
            from dpdesk.project.reading import headerless

            reason = headerless.likely_no_header([[_text(v) for v in raw.iloc[i].tolist()]
                                                  for i in range(min(headerless.SAMPLE + 1, len(raw)))])
            if reason:
                lay.warnings.append(headerless.warning(reason, lead + 1))
        lay = block or lay
    frame = raw.iloc[lay.header_rows:].reset_index(drop=True).infer_objects()
    frame = _numbers_from_text(frame)
    return delimited.name_columns(frame, lay, report, name, skipped=lead)


def _header_block(raw, merges: list, lead: int, plain, wanted: int | None = None):
    """A layout for a header of several rows (:mod:`header_rows`: merged cells, or a group row), or None.

    ``raw`` starts at the first header row, which is row ``lead + 1`` of the sheet. ``wanted``:
    the header rows the user set (the block is used only when it has that many rows).
    """
    from dpdesk.project.reading import header_rows

    top = [[_text(v) for v in raw.iloc[i].tolist()] for i in range(min(30, len(raw)))]
    cells = [[""] * raw.shape[1]] * lead + top  # from the sheet's row 1, as the merged ranges count
    found = header_rows.from_merges(cells, merges, lead) if merges else None
    if found is None and wanted is None:  # a guess from the text alone: never over the user's own count
        found = header_rows.group_row(cells, lead)
    if found is None or (wanted is not None and wanted != found.rows):
        return None
    return header_rows.apply(found, plain)


def _blank_rows_above(raw) -> int:
    """How many rows at the top hold nothing at all (above the header)."""
    filled = raw.notna().to_numpy() & (raw != "").to_numpy()
    rows = filled.any(axis=1)
    return int(rows.argmax()) if rows.any() else 0


def _sheet_rows(path: str, sheet: str, progress, report=None, merges: list | None = None):
    """The sheet's cells (cached values of formulas) as a frame, from the cells that exist.

    openpyxl's XML reader gives the rows and cells present in the sheet's XML; the frame
    spans row 1 and column A to the last row and column holding a value (once stray far
    cells are left out: :func:`_leave_out_strays`), so a stale ``<dimension>`` neither drops
    rows nor adds empty ones, and the work and memory follow the values, not the sheet's
    size. Progress is reported by rows. ``merges`` (a list) receives the sheet's merged ranges
    as 1-based ``(first row, first column, last row, last column)``.
    """
    import openpyxl
    import pandas as pd

    name = os.path.basename(path)
    workbook = openpyxl.load_workbook(path, read_only=True, data_only=True, keep_links=False)
    try:
        worksheet = workbook[sheet]
        total = max(1, int(worksheet.max_row or 0))  # the declared size: only for progress
        cells: dict[int, dict[int, object]] = {}
        count = 0
        number = 0
        try:
            for number, row in _existing_rows(worksheet, workbook, merges):
                if number > MAX_ROWS:
                    raise DataError(f"{name}: sheet '{sheet}' has rows beyond Excel's last row "
                                    f"({MAX_ROWS:,}); the file is damaged. Save it again from Excel.")
                values = {column: value for column, value in row if value is not None and value != ""}
                if values:
                    cells[number] = values
                    count += len(values)
                    if count > MAX_CELLS:
                        _too_large(name, sheet, number, max(max(v) for v in cells.values()), values)
                if number % 2000 == 0:
                    progress(0.1 + 0.7 * min(1.0, number / total))
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            if isinstance(exc, DataError) or getattr(exc, "_dpdesk_from_callback", False):
                raise
            where = f"after row {number:,}" if number else "before its first row"
            raise DataError(f"{name}: sheet '{sheet}' is damaged: an entry of its XML {where} is not what a "
                            f"spreadsheet program writes ({' '.join(str(exc).split())[:100]}; for example a merged "
                            f"range that ends before it starts). Open it in Excel or LibreOffice and save it again "
                            f"as .xlsx, or export the data as CSV.") from None
    finally:
        workbook.close()
    for warning in _leave_out_strays(cells):
        if report is not None:
            report.warnings.append(warning)
    height = max(cells, default=0)
    width = max((max(v) for v in cells.values()), default=0)
    if height * width > MAX_CELLS:
        _too_large(name, sheet, height, width, cells[height])
    grid = [[None] * width for _ in range(height)]
    for number, values in cells.items():
        line = grid[number - 1]
        for column, value in values.items():
            line[column - 1] = value
    return pd.DataFrame(grid).fillna(float("nan"))


def _leave_out_strays(cells: dict) -> list[str]:
    """Remove lone far cells from ``cells`` (in place); a warning for each.

    A cell is a stray when it is the last row's or the last column's only value, nothing
    else is in its row or its column, and at least one blank row or column lies between it
    and the other values. At most :data:`MAX_STRAYS` are left out.
    """
    from collections import Counter

    from openpyxl.utils import get_column_letter

    per_column = Counter(c for values in cells.values() for c in values)
    warnings = []
    while len(warnings) < MAX_STRAYS and len(cells) > 1:
        last_row, last_column = max(cells), max(per_column)
        ends = [(last_row, c) for c in cells[last_row]] + [(r, last_column) for r, v in cells.items() if last_column in v]
        lone = [(r, c) for r, c in ends if len(cells[r]) == 1 and per_column[c] == 1]
        if not lone:
            break
        number, column = lone[0]
        value = cells[number][column]
        others_rows = max((r for r in cells if r != number), default=0)
        others_columns = max((c for c in per_column if c != column), default=0)
        if number <= others_rows + 1 and column <= others_columns + 1:
            break  # next to the table: an answer without a name, read as data
        del cells[number]
        del per_column[column]
        shown = repr(value) if isinstance(value, str) else str(value)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        warnings.append(f"Cell {get_column_letter(column)}{number} holds {shown}, alone and far from the table "
                        f"(A1:{get_column_letter(others_columns)}{others_rows}); it was left out as a stray "
                        f"entry. If it is data, move it into the table and import again; otherwise delete it "
                        f"(Ctrl+End in Excel jumps to the last used cell).")
    return warnings


def _existing_rows(worksheet, workbook, merges: list | None = None):
    """``(row number, [(column number, value), ...])`` for each row in the sheet's XML.

    Uses openpyxl's own sheet parser (what its read-only rows are made from, without the
    padding to the declared size); if a later openpyxl lacks it, its public rows after
    ``reset_dimensions()`` (slower on sparse sheets, same values, no merged ranges).
    The parser reads ``<mergeCells>`` (after the rows) in the same pass: once the rows are
    read, the merged ranges go into ``merges``.
    """
    try:
        from openpyxl.worksheet._reader import WorkSheetParser

        source = worksheet._get_source()
        parser = WorkSheetParser(source, worksheet._shared_strings, data_only=True, epoch=workbook.epoch,
                                 date_formats=workbook._date_formats,
                                 timedelta_formats=workbook._timedelta_formats)
    except (ImportError, AttributeError, TypeError):
        worksheet.reset_dimensions()
        for number, row in enumerate(worksheet.iter_rows(values_only=True), start=1):
            yield number, list(enumerate(row, start=1))
        return
    with source:
        for number, row in parser.parse():
            yield number, [(cell["column"], cell["value"]) for cell in row]
    if merges is not None:
        merges.extend(_merged_ranges(parser))


def _merged_ranges(parser) -> list[tuple[int, int, int, int]]:
    """The merged ranges the sheet parser found (at most 10,000, those touching the first 30 rows)."""
    from openpyxl.utils.cell import range_boundaries

    found = getattr(getattr(parser, "merged_cells", None), "mergeCell", None) or []
    out = []
    for cell in found[:10_000]:
        try:
            c0, r0, c1, r1 = range_boundaries(str(cell.ref))
        except (TypeError, ValueError):
            continue  # a malformed reference: not a merge dpdesk can use
        if None not in (c0, r0, c1, r1) and r0 <= 30:
            out.append((r0, c0, r1, c1))
    return out


def _too_large(name: str, sheet: str, height: int, width: int, values: dict) -> None:
    from openpyxl.utils import get_column_letter

    far = f"{get_column_letter(max(values))}{height}"
    raise DataError(f"{name}: sheet '{sheet}' has a value in cell {far}, so its data would span "
                    f"{height:,} rows x {width:,} columns ({height * width:,} cells); dpdesk reads "
                    f"at most {MAX_CELLS:,} cells of a sheet. If {far} is a stray entry, delete it "
                    f"(Ctrl+End in Excel jumps to the last used cell) or copy the data to a new "
                    f"sheet; otherwise export the data as CSV.")


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
            present = series.dropna().tolist()
            if present and all(isinstance(v, bool) for v in present):
                continue  # TRUE/FALSE cells with blanks stay booleans
            numbers = pd.to_numeric(series, errors="coerce")
            if numbers.notna().sum() == series.notna().sum():
                frame[column] = numbers
    return frame
