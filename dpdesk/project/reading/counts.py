"""Aggregated counts tables: one row per response (and group), with its count.

This is the path for data aggregated elsewhere (a database, Spark): a table with a
``response`` column, a ``count`` column of whole numbers >= 0, and optional group
columns. It is recognised by those column names, or forced with ``kind="counts"``.
"""

from __future__ import annotations

from dpdesk.errors import DataError

COUNT_NAMES = ("count", "frequency", "freq", "n", "cnt")
RESPONSE_NAMES = ("response", "recorded_response", "answer", "value")
_SURE = 3  # the first names of each list are recognised without kind="counts"


def describe(frame, forced: bool, name: str, first_row: int = 2):
    """``(response_column, count_column, group_columns)`` or ``None`` for a respondent file.

    Columns named ``response`` and ``count`` (or ``frequency``) make a counts table; then
    every count must be a whole number >= 0, else :class:`DataError` names the row.
    """
    lower = {str(c).strip().lower(): c for c in frame.columns}
    count_names = COUNT_NAMES if forced else COUNT_NAMES[:_SURE]
    response_names = RESPONSE_NAMES if forced else RESPONSE_NAMES[:2]
    count = next((lower[n] for n in count_names if n in lower), None)
    response = next((lower[n] for n in response_names if n in lower), None)
    others = [c for c in frame.columns if c != count]
    if forced and count is None:
        raise DataError(f"{name}: kind='counts' needs a column named 'count' (whole numbers), "
                        f"but the columns are {', '.join(map(str, frame.columns[:10]))}. Rename "
                        f"the column that holds the counts to 'count'.")
    if forced and response is None and len(others) == 1:
        response = others[0]
    if forced and response is None:
        raise DataError(f"{name}: kind='counts' needs a column named 'response' beside 'count'. "
                        f"Rename the column that holds the recorded answers to 'response'.")
    if count is None or response is None:
        return None
    values = frame[count]
    bad = _bad_counts(values)
    if bad is not None:
        row = int(bad) + first_row
        raise DataError(f"{name}: row {row}, column '{count}' has '{values.loc[bad]}', but a count "
                        f"is a whole number 0 or more. Fix that row of the counts table.")
    groups = [c for c in frame.columns if c not in (count, response)]
    return response, count, groups


def _bad_counts(values):
    """The index label of the first value that is not a whole number >= 0, else ``None``."""
    import pandas as pd

    numbers = pd.to_numeric(values, errors="coerce")
    ok = numbers.notna() & (numbers >= 0) & (numbers == numbers.round())
    if ok.all():
        return None
    return values.index[~ok.to_numpy()][0]
