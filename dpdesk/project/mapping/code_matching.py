"""How recorded values are matched to an item's codes, and how rows that match none are described.

The counting in :mod:`dpdesk.project.mapping.counting` classifies each row of a column here: a
value is an answer (the index of its response), missing (blank or a declared missing
code) or unmatched; values compare as text without surrounding or repeated white space, and
whole numbers match their text ("1", 1 and 1.0 are one code). Problems name the file's row.
"""

from __future__ import annotations

import math
import numbers
import re
from typing import Any, NamedTuple

from dpdesk.errors import DataError

_MISSING = -1
_UNMATCHED = -2
_SPACE = re.compile(r"\s+")


class Problem(NamedTuple):
    """One row that was not counted: its row number in the file, the value and why."""

    row: Any
    column: str
    value: Any
    reason: str
    count: int = 1


def _classify(series, codes: dict, labels: dict, missing, column: str, where: str):
    """Per row: index of the matching response, ``_MISSING`` or ``_UNMATCHED``; and the uniques."""
    import numpy as np
    import pandas as pd

    lookup = _lookup(codes, labels, column, where)
    missing_keys = _missing_keys(missing)
    factor, uniques = pd.factorize(series, use_na_sentinel=True)
    kinds = np.empty(len(uniques) + 1, dtype=np.int64)
    for i, value in enumerate(uniques):
        key = _key(value)
        if key is None:
            kinds[i] = _MISSING
        elif key in lookup:
            kinds[i] = lookup[key]
        elif _is_missing_code(key, missing_keys):
            kinds[i] = _MISSING
        else:
            kinds[i] = _UNMATCHED
    kinds[-1] = _MISSING  # the NA sentinel (-1) indexes the last slot
    return kinds[factor], uniques


def _lookup(codes: dict, labels: dict, column: str, where: str) -> dict:
    """Normalised code -> response index, with value labels usable in both directions."""
    label_to_code = {}
    for code, label in (labels or {}).items():
        label_to_code.setdefault(_key(label), []).append(_key(code))
    code_to_label = {_key(code): _key(label) for code, label in (labels or {}).items()}
    lookup, owner = {}, {}
    for index, (response, values) in enumerate(codes.items()):
        for value in values:
            key = _key(value)
            if key is None:
                raise DataError(f"{where}item '{column}': a blank cannot be the code of response "
                                f"'{response}'; blanks are missing answers. Remove it from the codes.")
            keys = [key] + label_to_code.get(key, []) + ([code_to_label[key]] if key in code_to_label else [])
            for k in keys:
                if k in owner and owner[k] != response:
                    raise DataError(f"{where}item '{column}': the code {value!r} is given for both "
                                    f"'{owner[k]}' and '{response}'. Give each code to one response.")
                owner[k] = response
                lookup[k] = index
    return lookup


def _missing_keys(missing) -> tuple[set, list]:
    keys, ranges = set(), []
    for item in missing or []:
        if isinstance(item, dict) and "from" in item:
            ranges.append((float(item["from"]), float(item["to"])))
        else:
            key = _key(item)
            if key is not None:
                keys.add(key)
    return keys, ranges


def _is_missing_code(key, missing) -> bool:
    keys, ranges = missing
    if key in keys:
        return True
    return isinstance(key, float) and any(lo <= key <= hi for lo, hi in ranges)


def _key(value):
    """Normalised form of a code or a value: a float for numbers, folded text, None if blank."""
    if value is None:
        return None
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, numbers.Number):
        number = float(value)
        return None if math.isnan(number) else number
    try:
        import pandas as pd

        if value is pd.NA or value is pd.NaT:
            return None
    except ImportError:  # pragma: no cover
        pass
    text = _SPACE.sub(" ", str(value)).strip().casefold()
    if not text:
        return None
    try:
        number = float(text) if len(text) < 40 else None
    except ValueError:
        return text
    return text if number is None or math.isnan(number) or math.isinf(number) else number


def _row(label, first_row):
    try:
        return int(label) + int(first_row)
    except (TypeError, ValueError):
        return label


def _list_problems(result, frame, problems, weight, first_row, labels_all, missing_all):
    """Every row not counted, as a :class:`Problem` (each row once, item column first)."""
    import numpy as np

    seen = np.zeros(len(frame), dtype=bool)
    index = frame.index
    integer_index = index.dtype.kind in "iu"
    labels_array = index.to_numpy()
    for kinds, uniques, column in problems:
        bad = np.flatnonzero((kinds < 0) & ~seen)
        seen[bad] = True
        values = frame[column].iloc[bad].astype(object).to_numpy()
        rows = (labels_array[bad] + int(first_row)).tolist() if integer_index else [
            _row(label, first_row) for label in labels_array[bad]]
        counts = np.rint(weight[bad]).astype(np.int64).tolist()
        labels = labels_all.get(column, {})
        reasons: dict = {}  # one lookup per distinct value, not per row
        for row, value, kind, count in zip(rows, values, kinds[bad].tolist(), counts):
            blank = _key(value) is None
            value = None if blank and not isinstance(value, str) else _plain(value)
            if kind == _UNMATCHED:
                result.unmatched.append(Problem(row, column, value, "matches no code", count))
                continue
            if blank:
                reason = "blank"
            else:
                reason = reasons.get(value) or reasons.setdefault(value, _missing_reason(value, labels))
            result.missing.append(Problem(row, column, value, reason, count))


def _missing_reason(value, labels) -> str:
    key = _key(value)
    for code, label in (labels or {}).items():
        if _key(code) == key:
            return f"user-missing code ({label})"
    return "user-missing code"


def _describe_problems(result, where, exclude) -> None:
    parts = []
    by_value: dict = {}
    for p in result.unmatched:
        by_value.setdefault((p.column, repr(p.value)), []).append(p.row)
    for (column, value), rows in list(by_value.items())[:8]:
        parts.append(f"column '{column}' has {value} in {_rows(rows)}, which matches no code")
    if len(by_value) > 8:
        parts.append(f"and {len(by_value) - 8} more unmatched values")
    missing: dict = {}
    for p in result.missing:
        missing.setdefault((p.column, p.reason), []).append(p.row)
    gaps = [f"column '{column}' is missing ({reason}) in {_rows(rows)}" for (column, reason), rows in missing.items()]
    if gaps:
        result.warnings.append(f"{where}" + "; ".join(gaps) + f". Those {result.n_missing:,} missing answer(s) "
                               "are left out of the counts and listed; to count a missing code as an "
                               "answer, add it to the codes of that response.")
    if not parts:
        return
    text = f"{where}" + "; ".join(parts) + "."
    if exclude:
        result.warnings.append(text + f" Those {result.n_unmatched:,} row(s) "
                               f"were left out of the counts (exclude=True).")
    else:
        result.problems.append(text + " Add unmatched values to the codes of a response, or map "
                               "again with exclude=True to leave these rows out (they stay listed).")


def _rows(rows) -> str:
    shown = ", ".join(str(r) for r in rows[:10])
    return f"row {shown}" if len(rows) == 1 else f"{len(rows)} rows ({shown}{' ...' if len(rows) > 10 else ''})"


def _as_list(value) -> list:
    if isinstance(value, (list, tuple, set, frozenset)):
        return list(value)
    return [value]


def _same_names(order, codes, what, column) -> None:
    if len(set(order)) != len(order) or set(order) != set(codes):
        raise DataError(f"Item '{column}': {what} {list(order)} must name each response of the "
                        f"codes {list(codes)} exactly once. Give responses=None to use the order of the codes.")


def _plain(value):
    if value is None or type(value) in (str, bool, int, float):
        return value
    item = getattr(value, "item", None)
    if callable(item):
        try:
            return item()
        except (TypeError, ValueError):
            pass
    return value if isinstance(value, (list, dict)) else str(value)


def _jsonable(value):
    if isinstance(value, dict):
        return {str(_plain(k)) if not isinstance(_plain(k), (str, int, float, bool)) else _plain(k):
                _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    value = _plain(value)
    if isinstance(value, float) and math.isnan(value):
        return None
    return value
