"""SPSS ``.sav``/``.zsav``/``.por`` and Stata ``.dta`` files through pyreadstat, metadata kept.

User-missing values are kept as their codes (``user_missing=True``): "refused" (say 98)
and "don't know" (99) stay distinct from a blank (system missing, NaN), and are listed in
the report's ``missing_values``. Stata's extended missing values ``.a``-``.z`` are kept the
same way, as distinct numeric codes (:mod:`.stata`). Value labels (``{1: "Yes"}``) and
variable labels (question text) go to the report; the frame keeps the codes. Large files
are read in slices of rows so that progress is reported and the import can be cancelled.
SPSS portable files (``.por``) are read with their labels; pyreadstat cannot keep their
user-missing codes apart from blanks, which the report says when the file declares any.
SAS transport files (``.xpt``, XPORT versions 5 and 8) are read with their labels and dates.

Dates are read as dates. A date whose value lies outside the years 1-9999 (Python's range:
usually a number mistakenly given a date format) leaves its column as the stored numbers,
and a warning names the column, the first such row and its value; every other column is
read as usual.
"""

from __future__ import annotations

import os

from dpdesk.errors import DataError
from dpdesk.project.reading.codes import numeric_codes

SLICE = 200_000


def pyreadstat_errors() -> tuple:
    """pyreadstat's own errors, ``ReadstatError`` and ``PyreadstatError``: the second is at the top of the
    package from pyreadstat 1.3.1 only, in ``pyreadstat._readstat_parser`` before (the 1.2.8 floor)."""
    import pyreadstat

    own = getattr(pyreadstat, "PyreadstatError", None)
    if own is None:
        from pyreadstat._readstat_parser import PyreadstatError as own
    return pyreadstat.ReadstatError, own


def read_stat_file(path: str, fmt: str, report, progress):
    """Read a .sav or .dta file; fill ``report``; return the frame (index 0, 1, ...)."""
    import pandas as pd
    import pyreadstat

    name = os.path.basename(path)
    if fmt == "por":
        return _read_portable(path, report, progress)
    reader = {"sav": pyreadstat.read_sav, "dta": pyreadstat.read_dta, "xpt": _read_xport}[fmt]
    program = _PROGRAMS[fmt]
    try:
        _, meta = reader(path, metadataonly=True)
        total = int(meta.number_rows or 0)
        try:
            if total > SLICE:
                parts = []
                for offset in range(0, total, SLICE):
                    part, meta = reader(path, user_missing=True, row_offset=offset, row_limit=SLICE)
                    parts.append(part)
                    progress(0.05 + 0.8 * min(1.0, (offset + SLICE) / total))
                frame = pd.concat(parts, ignore_index=True)
            else:
                frame, meta = reader(path, user_missing=True)
        except OverflowError:  # a date beyond the year 9999 (or before 1)
            frame, meta = _dates_out_of_range(reader, path, meta, fmt, report)
    except (*pyreadstat_errors(), OSError, UnicodeError) as exc:
        raise DataError(f"{name}: the {program} file cannot be read ({' '.join(str(exc).split())[:160]}); "
                        f"it is probably truncated or damaged (an interrupted copy or download). "
                        f"Save it again from {program}, or export the data as CSV.") from None
    progress(0.88)
    _metadata(report, meta)
    if fmt == "dta":
        from dpdesk.project.reading import stata

        frame = stata.keep_tagged_missing(frame, meta, report)
    if len(frame) == 0:
        raise DataError(f"{name}: the {program} file has variables but no cases. Check that the "
                        f"data were saved (not only the variable view).")
    return frame


_PROGRAMS = {"sav": "SPSS", "dta": "Stata", "xpt": "SAS transport"}
_DATE_FORMATS = {  # the formats pyreadstat reads as dates, times or date-times
    "sav": ("DATE", "ADATE", "EDATE", "JDATE", "SDATE", "DATETIME", "YMDHMS", "TIME", "DTIME"),
    "xpt": ("WEEKDATE", "MMDDYY", "DDMMYY", "YYMMDD", "DATE", "WEEKDATX", "DTDATE", "IS8601DA", "E8601DA",
            "B8601DA", "DATETIME", "E8601DT", "DATEAMPM", "MDYAMPM", "IS8601DT", "B8601DT", "B8601DN",
            "TIME", "HHMM", "TOD", "TIMEAMPM", "IS8601TM", "E8601TM", "B8601TM"),
}


def _read_xport(path, user_missing=False, **options):
    """pyreadstat's XPORT reader, called as the others (it has no ``user_missing`` option)."""
    import pyreadstat

    return pyreadstat.read_xport(path, **options)


def _is_date_format(fmt: str, stored) -> bool:
    """Whether pyreadstat reads a column of this stored format (``DATE11``, ``%td``) as dates."""
    import re

    stored = str(stored or "").upper()
    if fmt == "dta":
        return stored.lstrip("%-").startswith(("T", "D"))
    name = re.match(r"[A-Z][A-Z0-9]*[A-Z]", stored)  # DATE11 -> DATE, DDMMYYB10 -> DDMMYYB
    return bool(name) and (name.group(0) in _DATE_FORMATS[fmt] or name.group(0)[:-1] in _DATE_FORMATS[fmt])


def _dates_out_of_range(reader, path: str, meta, fmt: str, report):
    """Read a file with a date outside the years 1-9999: those columns as numbers, the rest as usual."""
    import pandas as pd

    raw, meta = reader(path, user_missing=True, disable_datetime_conversion=True)
    types = meta.original_variable_types or {}
    candidates = [c for c in raw.columns if _is_date_format(fmt, types.get(c))]
    bad = []
    for column in candidates:
        try:
            reader(path, user_missing=True, usecols=[column])
        except OverflowError:
            bad.append(column)
    if not bad:
        raise OverflowError("a date value out of range in a column dpdesk could not find")
    good = [c for c in raw.columns if c not in bad]
    frame = reader(path, user_missing=True, usecols=good)[0] if good else pd.DataFrame(index=raw.index)
    frame = pd.concat([frame, raw[bad]], axis=1)[list(raw.columns)]
    for column in bad:
        row, value = _first_far_date(raw[column], fmt, types.get(column))
        report.warnings.append(
            f"Column '{column}' has the date format {types.get(column)}, but row {row} holds {value:g}, "
            f"which is no date between the years 1 and 9999; the whole column is kept as the numbers "
            f"stored in the file, not as dates. Correct that value, or give the column a number "
            f"format, in {_PROGRAMS[fmt]}, then import again.")
    return frame, meta


def _first_far_date(series, fmt: str, stored):
    """(row number, value) of the first value that is no date of the years 1-9999 (by its format)."""
    import datetime as dt

    origin = dt.datetime(1582, 10, 14) if fmt == "sav" else dt.datetime(1960, 1, 1)
    stored = str(stored or "").upper().lstrip("%-")
    days = (fmt == "dta" and stored.startswith(("TD", "D"))) or (fmt == "xpt" and "DATETIME" not in stored
                                                                and "DT" not in stored and "TIME" not in stored)
    unit = 86400.0 if days else 0.001 if fmt == "dta" else 1.0  # Stata's %tc counts milliseconds
    low = (dt.datetime(1, 1, 1) - origin).total_seconds() / unit
    high = (dt.datetime(9999, 12, 31, 23, 59, 59) - origin).total_seconds() / unit
    values = series.to_numpy(dtype=float)
    for i, value in enumerate(values):
        if value == value and not low <= value <= high:
            return i + 1, value
    finite = [(i + 1, v) for i, v in enumerate(values) if v == v]
    return max(finite, key=lambda pair: abs(pair[1]), default=(1, float("nan")))


def _read_portable(path: str, report, progress):
    import pyreadstat

    name = os.path.basename(path)
    try:
        frame, meta = pyreadstat.read_por(path)
    except (*pyreadstat_errors(), OSError, UnicodeError) as exc:
        raise DataError(f"{name}: the SPSS portable (.por) file cannot be read "
                        f"({' '.join(str(exc).split())[:160]}); it may be damaged or written by a "
                        f"program pyreadstat does not understand. Save the data from SPSS as .sav "
                        f"(File > Save As) and import that.") from None
    progress(0.88)
    _metadata(report, meta)
    declared = sorted(set(getattr(meta, "missing_ranges", None) or {}) | set(getattr(meta, "missing_user_values", None) or {}))
    if declared:
        report.warnings.append(f"SPSS portable file: user-missing codes of {', '.join(declared[:5])}"
                               f"{' ...' if len(declared) > 5 else ''} read as blanks (pyreadstat cannot "
                               f"keep them apart in .por). Save the data as .sav to keep them.")
    if len(frame) == 0:
        raise DataError(f"{name}: the SPSS portable file has variables but no cases. Check that the "
                        f"data were saved (not only the variable view).")
    return frame


def _metadata(report, meta) -> None:
    """Labels and user-missing codes from pyreadstat's metadata into the report."""
    report.header_rows = 0
    report.first_data_row = 1
    report.encoding = getattr(meta, "file_encoding", None)
    report.variable_labels.update({c: label for c, label in (meta.column_names_to_labels or {}).items() if label})
    kinds = getattr(meta, "readstat_variable_types", None) or {}
    report.value_labels.update({c: numeric_codes(labels, kinds.get(c) != "string")  # 1, not 1.0
                                for c, labels in (meta.variable_value_labels or {}).items()})
    for column, ranges in (getattr(meta, "missing_ranges", None) or {}).items():
        codes = []
        for item in ranges:
            lo, hi = item.get("lo"), item.get("hi")
            codes.append(lo if lo == hi else {"from": lo, "to": hi})
        report.missing_values[column] = codes
    for column, codes in (getattr(meta, "missing_user_values", None) or {}).items():
        report.missing_values.setdefault(column, []).extend(codes)
