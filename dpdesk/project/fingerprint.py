"""A fingerprint of the respondents in a dataset, independent of row order and file format.

``data_fingerprint(frame, columns)`` is the SHA-256 of the sorted, normalised rows of the
named columns (default: all), so the same answers give the same fingerprint whether they
arrive as CSV or Excel, in another row order, or with blank rows added:

* each value becomes a canonical text: blanks (None, NaN, NaT, empty or white-space text)
  are ``""``; booleans and the texts "true"/"false" are ``true``/``false``; numbers, and
  texts that read as a finite number, are the shortest ``repr`` of the float, with whole
  numbers written without a fraction (``1``, ``1.0`` and ``"1"`` are all ``1``); dates and
  times are ISO 8601; other text is NFC-normalised with surrounding white space removed
  (letter case is kept);
* a row whose values are all blank is left out;
* the rows (as JSON arrays, columns in sorted name order) are sorted and hashed after a
  header naming the fingerprint version and the columns; duplicate rows count.

What it cannot recognise: a changed answer, an added or removed respondent, a renamed
column or recoded values (other codes for the same answers) all give another fingerprint.
"""

from __future__ import annotations

import hashlib
import json
import math
import numbers
import unicodedata
from datetime import date, datetime
from typing import Any, Iterable

VERSION = "dpdesk-fingerprint-1"


def canonical_value(value: Any) -> str:
    """The normalised text of one cell (see the module docstring)."""
    if value is None:
        return ""
    if isinstance(value, (bool,)) or type(value).__name__ == "bool_":
        return "true" if bool(value) else "false"
    if isinstance(value, numbers.Number):
        x = float(value)
        if math.isnan(x):
            return ""
        return _number(x)
    if isinstance(value, (datetime, date)) or hasattr(value, "isoformat"):
        try:
            import pandas as pd

            if value is pd.NaT:
                return ""
        except ImportError:  # pragma: no cover
            pass
        return value.isoformat()
    try:
        import pandas as pd

        if value is pd.NA:
            return ""
    except ImportError:  # pragma: no cover
        pass
    text = unicodedata.normalize("NFC", str(value)).strip()
    if text.casefold() in ("true", "false"):
        return text.casefold()
    if text and len(text) < 40:
        try:
            x = float(text)
        except ValueError:
            return text
        if math.isfinite(x):
            return _number(x)
    return text


def _number(x: float) -> str:
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x.is_integer() and abs(x) < 2 ** 63:
        return str(int(x))
    return repr(x)


def _column_texts(series) -> tuple[list, "Any"]:
    """(JSON text of each distinct canonical value, index of each row's value into it)."""
    import numpy as np
    import pandas as pd

    if series.dtype == object:  # mixed values: keyed by type too, so True and 1 stay apart
        cache: dict = {}
        texts: list[str] = []
        index = np.empty(len(series), dtype=np.int64)
        for i, value in enumerate(series.tolist()):
            try:
                key = (type(value), value)
                j = cache.get(key)
            except TypeError:  # unhashable: no cache
                key, j = None, None
            if j is None:
                j = len(texts)
                texts.append(canonical_value(value))
                if key is not None:
                    cache[key] = j
            index[i] = j
    else:
        codes, uniques = pd.factorize(series, use_na_sentinel=True)
        texts = [canonical_value(v) for v in uniques.tolist()] + [""]  # the last slot: missing (code -1)
        index = np.where(codes < 0, len(texts) - 1, codes)
    return texts, index


def data_fingerprint(frame, columns: Iterable[str] | None = None) -> str:
    """SHA-256 (hex) over the sorted, normalised, non-blank rows of ``columns`` of ``frame``.

    Each distinct value is normalised once, so a million rows take about a second.
    """
    import numpy as np

    names = sorted(str(c) for c in (frame.columns if columns is None else columns))
    lookup = {str(c): c for c in frame.columns}
    missing = [n for n in names if n not in lookup]
    if missing:
        from dpdesk.errors import DataError

        raise DataError(f"Cannot fingerprint the data: there is no column {missing[0]!r}.")
    blank = np.ones(len(frame), dtype=bool)
    parts = []
    for n in names:
        texts, index = _column_texts(frame[lookup[n]])
        encoded = np.array([json.dumps(t, ensure_ascii=False) for t in texts], dtype=object)
        empty = np.array([t == "" for t in texts], dtype=bool)
        blank &= empty[index]
        parts.append(encoded[index])
    rows: list[str] = []
    if parts:
        joined = parts[0].copy()
        for part in parts[1:]:
            joined = joined + "," + part
        # the same text as json.dumps(row, ensure_ascii=False, separators=(",", ":"))
        rows = sorted(("[" + joined[~blank] + "]").tolist())
    digest = hashlib.sha256()
    digest.update(json.dumps([VERSION, names], ensure_ascii=False).encode("utf-8"))
    if rows:
        digest.update(("\n" + "\n".join(rows)).encode("utf-8"))
    return digest.hexdigest()
