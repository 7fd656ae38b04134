"""SPSS ``.sav``/``.zsav``/``.por`` and Stata ``.dta`` files through pyreadstat, metadata kept.

User-missing values are kept as their codes (``user_missing=True``): "refused" (say 98)
and "don't know" (99) stay distinct from a blank (system missing, NaN), and are listed in
the report's ``missing_values``. Stata's extended missing values ``.a``-``.z`` are kept the
same way, as distinct numeric codes (:mod:`.stata`). Value labels (``{1: "Yes"}``) and
variable labels (question text) go to the report; the frame keeps the codes. Large files
are read in slices of rows so that progress is reported and the import can be cancelled.
SPSS portable files (``.por``) are read with their labels; pyreadstat cannot keep their
user-missing codes apart from blanks, which the report says when the file declares any.
"""

from __future__ import annotations

import os

from dpdesk.errors import DataError
from dpdesk.project.reading.codes import numeric_codes

SLICE = 200_000


def read_stat_file(path: str, fmt: str, report, progress):
    """Read a .sav or .dta file; fill ``report``; return the frame (index 0, 1, ...)."""
    import pandas as pd
    import pyreadstat

    name = os.path.basename(path)
    if fmt == "por":
        return _read_portable(path, report, progress)
    reader = pyreadstat.read_sav if fmt == "sav" else pyreadstat.read_dta
    program = "SPSS" if fmt == "sav" else "Stata"
    try:
        _, meta = reader(path, metadataonly=True)
        total = int(meta.number_rows or 0)
        if total > SLICE:
            parts = []
            for offset in range(0, total, SLICE):
                part, meta = reader(path, user_missing=True, row_offset=offset, row_limit=SLICE)
                parts.append(part)
                progress(0.05 + 0.8 * min(1.0, (offset + SLICE) / total))
            frame = pd.concat(parts, ignore_index=True)
        else:
            frame, meta = reader(path, user_missing=True)
    except (pyreadstat.ReadstatError, pyreadstat.PyreadstatError, OSError, UnicodeError) as exc:
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


def _read_portable(path: str, report, progress):
    import pyreadstat

    name = os.path.basename(path)
    try:
        frame, meta = pyreadstat.read_por(path)
    except (pyreadstat.ReadstatError, pyreadstat.PyreadstatError, OSError, UnicodeError) as exc:
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
