"""The checks and clean-up every imported frame goes through, whatever its format.

Order: refuse duplicate column names; drop rows that are completely blank (reported with
their row numbers); refuse a file without data rows; refuse absurd cells (over a million
characters, usually an unclosed quote); drop direct identifiers unless kept
(:mod:`read_identifiers`); store coded answers compactly (small integer types, categories
for repeated text); recognise a counts table (:mod:`read_counts`).
"""

from __future__ import annotations

from collections import Counter

from dpdesk.errors import DataError
from dpdesk.project.reading.option_words import choose

MAX_CELL = 1_000_000


def finish(frame, report, overrides: dict, name: str, progress):
    """Check and tidy ``frame``; fill the rest of ``report``; return the frame."""
    from dpdesk.project.reading import counts, identifiers

    _refuse_duplicates(frame, report, name)
    frame = _drop_blank_rows(frame, report)
    if len(frame) == 0:
        raise DataError(f"{name}: the header is there but there are no data rows below it. "
                        f"Export the responses again (check the export's filters), or pass "
                        f"header_rows=... if fewer rows are header.")
    if frame.shape[1] == 0:
        raise DataError(f"{name}: no columns with data were found. Check the delimiter and the "
                        f"header row, or export the data again.")
    frame = compact(frame)
    progress(0.93)
    _refuse_huge_cells(frame, report, name)
    kind = overrides.get("kind")
    if kind not in (None, "responses", "counts"):
        raise DataError(f"{name}: {kind!r} is not a kind of file dpdesk reads. Say whether it has one row per "
                        f"respondent or is a counts table: {choose('kind', 'counts')}.")
    counts = counts.describe(frame, kind == "counts", name, report.first_data_row) if kind != "responses" else None
    if counts is None:
        frame = identifiers.exclude(frame, report, overrides.get("keep_identifiers", False), name)
    else:
        report.kind = "counts"
        report.response_column, report.count_column, report.group_columns = counts
    progress(0.98)
    report.n_rows, report.n_columns = int(frame.shape[0]), int(frame.shape[1])
    frame.attrs["dpdesk_first_row"] = report.first_data_row
    frame.attrs["dpdesk_kind"] = report.kind
    return frame


def title_rows(rows: list[list[str]]) -> int:
    """How many rows at the top are a title above the header (0 if none), from the first rows' text.

    A title is a row with one filled cell (a line like "Survey of ... 2024", as data.gov CSVs
    and some workbooks have), maybe more such rows or blank ones, then a header: at least two
    names, none of them a number, with data rows below that fill at least two cells. At most
    five rows are taken as a title.
    """
    def filled(row):
        return [c for c in row if str(c).strip()]

    def number(text) -> bool:
        try:
            float(str(text).replace(",", "."))
        except ValueError:
            return False
        return True

    k = 0
    while k < min(5, len(rows) - 2) and len(filled(rows[k])) <= 1:
        k += 1
    if k == 0 or not filled(rows[0]):
        return 0
    header = filled(rows[k])
    below = rows[k + 1:k + 21]
    if len(header) < 2 or any(number(c) for c in header) or not any(len(filled(r)) >= 2 for r in below):
        return 0
    return k


def _refuse_duplicates(frame, report, name: str) -> None:
    counts = Counter(str(c) for c in frame.columns)
    dupes = [c for c, n in counts.items() if n > 1]
    if not dupes:
        return
    column = dupes[0]
    places = [str(i + 1) for i, c in enumerate(frame.columns) if str(c) == column]
    more = f" (and {len(dupes) - 1} more duplicated name(s): {', '.join(dupes[1:4])})" if len(dupes) > 1 else ""
    headerless = report.header_rows == 1 and any("looks like a respondent" in w for w in report.warnings)
    try:
        float(column)
        headerless = headerless or report.header_rows == 1
    except ValueError:
        pass
    hint = (" If the first row is a respondent (the file has no header row), tick \"No header row\" in the import "
            "window (command line: the no-header option; Python: header_rows=0)." if headerless else "")
    raise DataError(f"{name}: columns {', '.join(places)} are all named '{column}'{more}, so an item "
                    f"could not be found by its name. Rename them so that every column name "
                    f"is different, then import again.{hint}")


def _drop_blank_rows(frame, report):
    """Drop completely blank rows; in a one-column file only those at the very end.

    (In a one-column file a blank line in the middle is a missing answer, kept.)
    """
    import numpy as np

    if len(frame) == 0 or frame.shape[1] == 0:
        return frame
    if frame.shape[1] == 1:
        missing = frame.iloc[:, 0].isna().to_numpy()
        tail = len(missing) - int(np.argmax(~missing[::-1])) if (~missing).any() else 0
        blank = np.zeros(len(missing), dtype=bool)
        blank[tail:] = True
        return _drop(frame, blank, report) if blank.any() else frame
    blank = None
    for column in range(frame.shape[1]):  # stops at the first column without blanks
        missing = frame.iloc[:, column].isna().to_numpy()
        blank = missing if blank is None else blank & missing
        if not blank.any():
            return frame
    return _drop(frame, blank, report)


def _drop(frame, blank, report):
    rows = [int(i) + report.first_data_row for i in frame.index[blank]]
    report.dropped_rows.extend(rows)
    shown = ", ".join(str(r) for r in rows[:10]) + (" ..." if len(rows) > 10 else "")
    report.warnings.append(f"Skipped {len(rows)} completely blank row(s): {shown}.")
    return frame.loc[~blank]


def _refuse_huge_cells(frame, report, name: str) -> None:
    import pandas as pd

    for column in frame.columns:
        series = frame[column]
        if isinstance(series.dtype, pd.CategoricalDtype):
            values = series.cat.categories
            if not len(values) or not pd.api.types.is_string_dtype(values.dtype):
                continue
            longest = values.str.len().max()
            if longest > MAX_CELL:
                series = series.astype(object)
            else:
                continue
        elif not pd.api.types.is_object_dtype(series.dtype) and not pd.api.types.is_string_dtype(series.dtype):
            continue
        lengths = series.map(lambda v: len(v) if isinstance(v, str) else 0)
        if len(lengths) and lengths.max() > MAX_CELL:
            label = lengths.idxmax()
            row = int(label) + report.first_data_row
            raise DataError(f"{name}: row {row}, column '{column}' holds a value of "
                            f"{int(lengths.max()):,} characters; dpdesk refuses cells over "
                            f"{MAX_CELL:,}. This is usually a quote (\") opened and never closed, "
                            f"or a file attached into a cell. Fix that cell and import again.")


def compact(frame):
    """Small integer types for whole numbers and categories for repeated text.

    Whole-number float columns (codes with blanks) become nullable integers (``Int8``...),
    so a blank stays missing and a code stays a code; other floats are left untouched.
    """
    import numpy as np
    import pandas as pd

    out = {}
    n = len(frame)
    for column in frame.columns:
        series = frame[column]
        dtype = series.dtype
        if pd.api.types.is_bool_dtype(dtype) or isinstance(dtype, pd.CategoricalDtype):
            out[column] = series
        elif pd.api.types.is_integer_dtype(dtype) and not pd.api.types.is_extension_array_dtype(dtype):
            out[column] = pd.to_numeric(series, downcast="integer")
        elif pd.api.types.is_float_dtype(dtype) and not pd.api.types.is_extension_array_dtype(dtype):
            out[column] = _whole_numbers(series, np, pd)
        elif pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype):
            out[column] = _maybe_category(series, n)
        else:
            out[column] = series
    result = pd.DataFrame(out, index=frame.index)
    result.columns = frame.columns
    return result


def _whole_numbers(series, np, pd):
    """A float column of whole numbers (codes with blanks) as the smallest (nullable) integers."""
    values = series.to_numpy()
    mask = np.isnan(values)
    if not len(values) or mask.all():
        return series
    filled = np.where(mask, 0.0, values)
    low, high = filled.min(), filled.max()
    for kind in (np.int8, np.int16, np.int32):
        info = np.iinfo(kind)
        if info.min <= low and high <= info.max:
            break
    else:
        return series
    codes = filled.astype(kind)
    if not np.array_equal(codes, filled):  # some value is not a whole number
        return series
    if not mask.any():
        return pd.Series(codes, index=series.index, name=series.name)
    return pd.Series(pd.arrays.IntegerArray(codes, mask), index=series.index, name=series.name)


def _maybe_category(series, n: int):
    import datetime

    import numpy as np
    import pandas as pd

    if pd.api.types.is_object_dtype(series.dtype):
        present = series.dropna()
        if len(present) and all(isinstance(v, (bool, np.bool_)) for v in present.tolist()):
            return series.astype("category")  # TRUE/FALSE cells with blanks: booleans, as from CSV
        if len(present) and len({type(v) for v in present.tolist()}) == 1 and isinstance(
                present.iloc[0], (datetime.date, datetime.time)):
            return series  # dates, times or date-times (Stata, SPSS, SAS): kept as they are, stored exactly
        # mixed numbers and text, as CSV text
        series = series.map(lambda v: v if v is None or isinstance(v, str) or v != v else str(v))
    head = series.iloc[: min(n, 5000)]
    if head.nunique(dropna=True) > max(50, len(head) // 2):
        return series
    try:
        result = series.astype("category")
    except (TypeError, ValueError):
        return series
    if len(result.cat.categories) > max(50, n // 2):
        return series
    return result
