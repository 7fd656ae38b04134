"""Stata's extended missing values ``.a`` ... ``.z`` kept as distinct missing codes.

Stata has 27 missing values for numbers: ``.`` (system missing, a blank here) and the
"tagged" ``.a``-``.z``, which surveys use as SPSS uses user-missing codes (``.a`` refused,
``.b`` don't know). pyreadstat (``user_missing=True``) returns a tagged value as the letter
(``"a"``), which would make the whole column text. Here each tag becomes the number Stata
itself stores for it in a ``double`` (Stata 13+ dta specification: ``.`` is 2^1023 and
``.a``..``.z`` follow at steps of 2^1011, the mantissa bits ``0x7fe001..`` to ``0x7fe01a..``),
so the column stays numeric; the codes are listed in the report's ``missing_values``, and
labelled ``.a`` ... (or with the file's own label for the tag) in ``value_labels``. These
numbers are above every valid Stata value (the largest is 8.988e307), so they can never be
mistaken for an answer.
"""

from __future__ import annotations

import math
import string

#: letter -> the double Stata stores for ``.letter``
TAG_CODES = {letter: math.ldexp(1 + (k + 1) / 4096, 1023) for k, letter in enumerate(string.ascii_lowercase)}
_TAGS = {code: f".{letter}" for letter, code in TAG_CODES.items()}
LARGEST_VALUE = 8.988465674311579e307  # Stata's largest valid double (below every missing value)
_NUMERIC = {"int8", "int16", "int32", "float", "double"}


def tag_of(code) -> str | None:
    """``".a"`` for the code of ``.a`` (None for any other value)."""
    if type(code) is not float:
        try:
            code = float(code)
        except (TypeError, ValueError, OverflowError):
            return None
    return _TAGS.get(code) if code > LARGEST_VALUE else None


def tags_as_missing(series):
    """``series`` with every ``.a``-``.z`` code as a blank, and ``{".a": count, ...}`` of what was blanked."""
    from collections import Counter

    import numpy as np
    import pandas as pd

    if not pd.api.types.is_float_dtype(series.dtype):
        return series, {}
    values = series.to_numpy(dtype=float, na_value=float("nan"))
    far = np.flatnonzero(values > LARGEST_VALUE)
    tagged = [(i, _TAGS[values[i]]) for i in far.tolist() if values[i] in _TAGS]
    if not tagged:
        return series, {}
    blank = np.zeros(len(values), dtype=bool)
    blank[[i for i, _tag in tagged]] = True
    return series.mask(blank), dict(sorted(Counter(tag for _i, tag in tagged).items()))


def keep_tagged_missing(frame, meta, report):
    """Turn the letters pyreadstat gives for ``.a``-``.z`` into Stata's codes, in numeric columns."""
    import numpy as np
    import pandas as pd

    types = getattr(meta, "readstat_variable_types", None) or {}
    declared = getattr(meta, "missing_user_values", None) or {}
    for column in frame.columns:
        if types.get(column) not in _NUMERIC:
            continue
        series = frame[column]
        letters = set(declared.get(column) or [])
        if series.dtype == object:
            values = series.to_numpy()
            is_tag = np.array([isinstance(v, str) for v in values], dtype=bool)
            if not all(t or v is None or isinstance(v, (int, float)) for v, t in zip(values, is_tag)):
                frame[column] = _dates_without_tags(series, is_tag, report)  # %td/%tc dates: objects
                continue
            letters |= {v for v in values[is_tag]}
            unknown = sorted(v for v in letters if v not in TAG_CODES)
            if unknown:  # not a tag pyreadstat is known to give: leave the column as it is
                continue
            numbers = np.array([TAG_CODES[v] if t else (np.nan if v is None else v) for v, t in zip(values, is_tag)],
                               dtype=np.float64)
            frame[column] = pd.Series(numbers, index=series.index, name=column)
        if not letters or any(v not in TAG_CODES for v in letters):
            continue
        codes = [TAG_CODES[v] for v in sorted(letters)]
        report.missing_values[column] = [m for m in report.missing_values.get(column, []) if m not in letters] + codes
        labels = report.value_labels.get(column, {})
        renamed = {(TAG_CODES[k] if isinstance(k, str) and k in TAG_CODES else k): v for k, v in labels.items()}
        for letter in sorted(letters):
            renamed.setdefault(TAG_CODES[letter], f".{letter}")
        report.value_labels[column] = renamed
    return frame


def _dates_without_tags(series, is_tag, report):
    """A date column (``%td``, ``%tc``: date objects) with its ``.a``-``.z`` as blanks, said in a warning."""
    if not is_tag.any():
        return series
    tags = sorted({f".{v}" for v in series[is_tag]})
    report.warnings.append(f"Column '{series.name}' holds dates; its {int(is_tag.sum())} Stata missing "
                           f"value(s) {', '.join(tags)} are read as blanks (a date column cannot keep them apart).")
    return series.where(~is_tag, None)
