"""Counts for multi-select items randomized with a unary design: one tick column per option.

A unary (RAPPOR-style) item records, for every option, whether the respondent's randomized
answer has it ticked. Survey platforms export that as one column per option, so the item's
codes say which column holds each option and which values mean ticked::

    codes = unary_codes({"bus": "q5_1", "car": "q5_2", "bike": "q5_3"})
    # {"columns": {...}, "ticked": [1, "yes", ...], "not ticked": [0, "no", ...]}
    report = unary_counts(table, codes)
    report.counts      # [[not ticked, ticked] per option], as rr.estimate takes for unary

A respondent counts only when every option column holds a tick code (each option must
count the same respondents); a blank or a user-missing code in any option leaves the
respondent out as missing, a value that is no tick code as unmatched, each listed with its
row, as for other items (:mod:`dpdesk.project.mapping.counting`).
"""

from __future__ import annotations

from typing import Any

from dpdesk.errors import DataError
from dpdesk.project.mapping.counting import (
    MappingReport,
    _classify,
    _describe_problems,
    _frame_and_report,
    _list_problems,
    _no_column,
    _plain,
    _subset,
    value_labels_for,
)

TICKED = [1, "yes", "ticked", "x", True]
NOT_TICKED = [0, "no", "not ticked", False]


def unary_codes(columns: dict[str, str], ticked=None, not_ticked=None) -> dict:
    """The codes of a unary item: the column of each option and the tick codes."""
    return {"columns": {str(k): str(v) for k, v in dict(columns).items()},
            "ticked": list(TICKED if ticked is None else ticked),
            "not ticked": list(NOT_TICKED if not_ticked is None else not_ticked)}


def is_unary_codes(codes: Any) -> bool:
    return isinstance(codes, dict) and isinstance(codes.get("columns"), dict)


def unary_counts(data, codes: dict, categories=None, *, exclude: bool = True) -> MappingReport:
    """``[not ticked, ticked]`` per option (in the order of ``categories``) and what was left out."""
    frame, report = _frame_and_report(data)
    if not is_unary_codes(codes):
        raise DataError("A unary (multi-select) item needs the column of each option: codes = "
                        "{'columns': {option: column, ...}, 'ticked': [1], 'not ticked': [0]}.")
    columns = dict(codes["columns"])
    cats = [str(c) for c in (categories or columns)]
    absent = [c for c in cats if c not in columns]
    if absent:
        raise DataError(f"The unary item names no column for option(s) {absent}; give each option its column.")
    source = getattr(getattr(data, "source", None), "name", None)
    where = f"{source}: " if source else ""
    bit_codes = {"not ticked": list(codes.get("not ticked") or NOT_TICKED), "ticked": list(codes.get("ticked") or TICKED)}
    import numpy as np

    kinds, problems = [], []
    missing_all = report.missing_values if report is not None else {}
    for cat in cats:
        col = columns[cat]
        if col not in frame.columns:
            raise DataError(where + _no_column(col, frame, f"option {cat!r}"))
        k, uniques = _classify(frame[col], bit_codes, value_labels_for(report, col), missing_all.get(col, []),
                               col, where)
        kinds.append(k)
        problems.append((k, uniques, col))
    valid = np.all(np.vstack(kinds) >= 0, axis=0) if kinds else np.zeros(0, bool)
    counts = [[int(np.sum(valid & (k == 0))), int(np.sum(valid & (k == 1)))] for k in kinds]
    first_row = report.first_data_row if report is not None else frame.attrs.get("dpdesk_first_row", 2)
    result = MappingReport(columns[cats[0]], tuple(cats), counts, int(valid.sum()), len(frame), excluded=exclude,
                           source=source)
    ticks = np.column_stack(kinds) if kinds else np.zeros((len(frame), 0), np.int64)
    result.rows = {"used": valid, "response": np.where(valid[:, None], ticks, 0), "group": None}  # design-based path
    _list_problems(result, frame, problems, np.ones(len(frame)), first_row,
                   report.value_labels if report is not None else {}, missing_all)
    _describe_problems(result, where, exclude)
    return result


def unary_counts_by(data, codes: dict, by: str, categories=None, *, exclude: bool = True) -> dict:
    """:func:`unary_counts` per value of ``by`` (sorted; blank subgroup under ``None``)."""
    import pandas as pd

    frame, _ = _frame_and_report(data)
    if by not in frame.columns:
        raise DataError(_no_column(by, frame, "subgroup"))
    values = frame[by]
    present = list(pd.unique(values.dropna()))
    try:
        present = sorted(present)
    except TypeError:
        present = sorted(present, key=str)
    out = {_plain(v): unary_counts(_subset(data, values == v), codes, categories, exclude=exclude) for v in present}
    if values.isna().any():
        out[None] = unary_counts(_subset(data, values.isna()), codes, categories, exclude=exclude)
    return out
