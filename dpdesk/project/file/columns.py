"""How one column of a data frame is stored in an SQLite table and read back, exactly.

Plain columns keep their values as SQLite sees them: whole numbers as INTEGER (booleans as
0/1), floats as REAL, text as TEXT, dates and times as ISO 8601 text (tz-aware ones in UTC,
with an offset), durations as INTEGER counts of their unit; missing values are NULL. The
pandas dtype is kept as text (``dataset_columns.dtype``) and anything more a column needs to
be restored goes into ``dataset_columns.categories`` as JSON:

* a JSON list: the categories of a ``category`` column, values stored as such (what
  older versions wrote; still written for text and int64 categories, so they can read it);
* otherwise a JSON object ``{"encoding": ..., ...}`` where ``encoding`` is

  - ``"values"`` (categoricals): the values are stored as themselves, ``categories`` lists
    the categories as tagged values and ``categories_dtype`` their dtype;
  - ``"codes"`` (categoricals whose categories SQLite cannot tell apart, such as ``1`` and
    ``"1"``... mixed with dates): the category numbers 0, 1, ... are stored;
  - ``"tagged"`` (object columns mixing types SQLite cannot keep apart, like booleans and
    numbers or dates and text): each value is the JSON text ``[tag, payload]``;
  - ``"text"`` (unsigned integers beyond SQLite's 64-bit range): decimal text.

A value that cannot be stored exactly raises :class:`DataError` naming the column and row.
"""

from __future__ import annotations

import datetime as _dt
import decimal
import json
from dataclasses import dataclass
from typing import Any

from dpdesk.errors import DataError, ProjectError

_SQL_TYPE = {"i": "INTEGER", "u": "INTEGER", "b": "INTEGER", "f": "REAL", "M": "TEXT", "m": "INTEGER"}
_NATIVE = frozenset({int, float, str, bytes, type(None)})
_INT64 = (-(1 << 63), (1 << 63) - 1)


@dataclass
class Stored:
    """A column ready for SQLite: its declared type, dtype text, metadata JSON and values."""

    sql_type: str
    dtype: str
    meta: str | None
    ordered: int
    values: list


class Unstorable(Exception):
    """A value without an exact stored form (the caller names its column and row)."""

    def __init__(self, position: int, value: Any):
        super().__init__(position, value)
        self.position, self.value = position, value


# ----------------------------------------------------------------------------- writing

def encode(series: Any) -> Stored:
    """The stored form of ``series``; raises :class:`Unstorable` for a value without one."""
    import numpy as np
    import pandas as pd

    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        return _encode_categorical(series, dtype)
    missing = series.isna().to_numpy()
    if dtype.kind == "M":
        return Stored("TEXT", str(dtype), None, 0, _iso_datetimes(series, missing))
    if dtype.kind == "m":
        ints = series.to_numpy().view("i8").astype(object)
        ints[missing] = None
        return Stored("INTEGER", str(dtype), None, 0, ints.tolist())
    if dtype.kind in "iufb":
        if isinstance(dtype, np.dtype):
            values = series.to_numpy().tolist()  # numpy gives Python ints, floats and bools
        else:  # nullable extension types (Int64, Float64, boolean): missing set to None below
            values = series.to_numpy(dtype=dtype.numpy_dtype, na_value=dtype.numpy_dtype.type(0)).tolist()
        for i in missing.nonzero()[0].tolist():
            values[i] = None
        if dtype.kind == "u" and any(v is not None and v > _INT64[1] for v in values):
            return Stored("TEXT", str(dtype), json.dumps({"encoding": "text"}), 0,
                          [None if v is None else str(v) for v in values])
        return Stored(_SQL_TYPE[dtype.kind], str(dtype), None, 0, values)
    values = series.astype(object).tolist()
    if dtype != object:  # str and string dtypes: text or missing (the dtype says which marker)
        for i in missing.nonzero()[0].tolist():
            values[i] = None
        return Stored("", str(dtype), None, 0, values)
    return _encode_objects(values, missing)


def _encode_objects(values: list, missing) -> Stored:
    """An object column: native values where SQLite keeps them apart, else tagged values."""
    markers = {_missing_kind(values[i]) for i in missing.nonzero()[0].tolist()}
    if len(markers) > 1:  # None here, NaN there: each missing value keeps its own marker
        return _tagged(values)
    meta = {"missing": markers.pop()} if markers and markers != {"none"} else {}
    original, values = values, list(values)
    for i in missing.nonzero()[0].tolist():
        values[i] = None
    kind = _date_kind(values)
    if kind:  # dates of one kind in an object column (pyreadstat's SPSS dates): ISO text
        return Stored("TEXT", f"object:{kind}", json.dumps(meta) if meta else None, 0,
                      [None if v is None else v.isoformat() for v in values])
    plain = [v if type(v) in _NATIVE else _plain(v) for v in values]
    if all(type(v) in _NATIVE and (type(v) is not int or _INT64[0] <= v <= _INT64[1]) for v in plain):
        return Stored("", "object", json.dumps(meta) if meta else None, 0, plain)
    return _tagged(original)


def _tagged(values: list) -> Stored:
    forms = [json.dumps(tag(v, i), ensure_ascii=False) for i, v in enumerate(values)]
    return Stored("TEXT", "object", json.dumps({"encoding": "tagged"}), 0, forms)


def _missing_kind(value) -> str:
    import pandas as pd

    if value is None:
        return "none"
    if value is pd.NA:
        return "NA"
    if value is pd.NaT or (hasattr(value, "dtype") and getattr(value.dtype, "kind", "") in "mM"):
        return "NaT"
    return "nan"


def _encode_categorical(series, dtype) -> Stored:
    import numpy as np

    cats = dtype.categories
    listed = [tag(v, None) for v in cats.tolist()]
    forms = _forms(cats.tolist())
    codes = series.cat.codes.to_numpy()
    meta = {"categories": listed, "categories_dtype": str(cats.dtype)}
    if forms is not None:
        table = np.array(forms + [None], dtype=object)  # code -1 (missing) picks the None
        meta["encoding"] = "values"
        if _plain_list(cats):  # text or int64 categories: the list older versions wrote (and read)
            meta = cats.tolist()
        return Stored(_SQL_TYPE.get(cats.dtype.kind, ""), "category", json.dumps(meta, ensure_ascii=False),
                      int(bool(dtype.ordered)), table[codes].tolist())
    values = codes.astype(object)
    values[codes < 0] = None
    meta["encoding"] = "codes"
    return Stored("INTEGER", "category", json.dumps(meta, ensure_ascii=False), int(bool(dtype.ordered)),
                  values.tolist())


def _plain_list(cats) -> bool:
    """Whether a JSON list of the categories gives them back with their dtype (``pd.Index(list)``)."""
    import pandas as pd

    if str(cats.dtype) == "int64":
        return True
    if str(cats.dtype) != str(pd.Index(["x"]).dtype):  # the default text dtype ("str" in pandas 3)
        return False
    return all(type(v) is str for v in cats.tolist())


def _forms(categories: list) -> list | None:
    """How each category looks in SQLite, or None if two would look the same (or one can't)."""
    import pandas as pd

    forms = []
    for value in categories:
        value = _plain(value)
        if type(value) is bool:
            forms.append(int(value))
        elif type(value) is int and not _INT64[0] <= value <= _INT64[1]:
            return None
        elif type(value) in (int, float, str):
            forms.append(value)
        elif isinstance(value, (_dt.date, _dt.time)):
            forms.append(value.isoformat())
        else:
            return None
    return forms if pd.Index(forms, dtype=object).is_unique else None


def _iso_datetimes(series, missing) -> list:
    if getattr(series.dtype, "tz", None) is not None:
        series = series.dt.tz_convert("UTC")
    values = [v.isoformat() for v in series.tolist()]
    for i in missing.nonzero()[0].tolist():
        values[i] = None
    return values


def _date_kind(values: list) -> str | None:
    """'date', 'datetime' or 'time' when every non-missing value is one of those, else None."""
    present = [v for v in values if v is not None]
    for kind, cls in (("datetime", _dt.datetime), ("date", _dt.date), ("time", _dt.time)):
        if present and all(type(v) is cls for v in present):
            return kind
    return None


def _plain(value: Any) -> Any:
    """numpy scalars to Python ones; pandas' missing markers to None."""
    if type(value) in _NATIVE or type(value) is bool:
        return value
    import numpy as np
    import pandas as pd

    if isinstance(value, np.datetime64):
        return None if np.isnat(value) else pd.Timestamp(value)
    if isinstance(value, np.timedelta64):
        return None if np.isnat(value) else pd.Timedelta(value)
    if isinstance(value, np.generic):
        return value.item()
    if value is pd.NA or value is pd.NaT:
        return None
    return value


def tag(value: Any, position: int | None) -> list | None:
    """``[tag, payload]``: a JSON form of one value that gives the same value (and type) back."""
    import pandas as pd

    if value is None or value is pd.NA or value is pd.NaT or (type(value) is float and value != value):
        return ["m", _missing_kind(value)] if position is not None else None
    value = _plain(value)
    kind = type(value)
    if value is None:  # a numpy NaT
        return ["m", "NaT"] if position is not None else None
    if kind is float and value != value:
        return ["m", "nan"]
    if kind is bool:
        return ["b", value]
    if kind is int:
        return ["i", str(value)]
    if kind is float:
        return ["f", repr(value)]
    if kind is str:
        return ["s", value]
    if kind is bytes:
        return ["x", value.hex()]
    if kind is pd.Timestamp:
        return ["T", value.isoformat(), None if value.tz is None else str(value.tz)]
    if kind is _dt.datetime:
        return ["dt", value.isoformat()]
    if kind is _dt.date:
        return ["d", value.isoformat()]
    if kind is _dt.time:
        return ["t", value.isoformat()]
    if kind is pd.Timedelta:
        return ["TD", str(value.value)]
    if kind is _dt.timedelta:
        return ["td", [value.days, value.seconds, value.microseconds]]
    if kind is decimal.Decimal:
        return ["q", str(value)]
    raise Unstorable(-1 if position is None else position, value)


def untag(form: Any) -> Any:
    """The value of a ``[tag, payload]`` form (see :func:`tag`)."""
    import pandas as pd

    if form is None:
        return None
    kind, payload = form[0], form[1]
    if kind == "m":
        return {"none": None, "nan": float("nan"), "NA": pd.NA, "NaT": pd.NaT}[payload]
    if kind == "b":
        return bool(payload)
    if kind == "i":
        return int(payload)
    if kind == "f":
        return float(payload)
    if kind == "s":
        return payload
    if kind == "x":
        return bytes.fromhex(payload)
    if kind == "T":
        stamp = pd.Timestamp(payload)
        return stamp.tz_convert(form[2]) if form[2] else stamp
    if kind == "dt":
        return _dt.datetime.fromisoformat(payload)
    if kind == "d":
        return _dt.date.fromisoformat(payload)
    if kind == "t":
        return _dt.time.fromisoformat(payload)
    if kind == "TD":
        return pd.Timedelta(int(payload), unit="ns")
    if kind == "td":
        return _dt.timedelta(days=payload[0], seconds=payload[1], microseconds=payload[2])
    if kind == "q":
        return decimal.Decimal(payload)
    raise ValueError(f"unknown stored value tag {kind!r}")


# ----------------------------------------------------------------------------- reading

def decode(values: list, dtype: str, meta: str | None, ordered: bool, name: str):
    """The column stored by :func:`encode` (or by an older dpdesk) as a pandas Series."""
    import numpy as np
    import pandas as pd

    try:
        info = json.loads(meta) if meta else None
        if dtype == "category":
            return _decode_categorical(values, info, ordered, name)
        encoding = info.get("encoding") if isinstance(info, dict) else None
        if encoding == "tagged":
            return pd.Series([untag(None if v is None else json.loads(v)) for v in values], dtype=object, name=name)
        marker = {"none": None, "nan": float("nan"), "NA": pd.NA, "NaT": pd.NaT}[
            info.get("missing", "none") if isinstance(info, dict) else "none"]
        if encoding == "text":
            values = [None if v is None else int(v) for v in values]
        if dtype.startswith("datetime64"):
            target = pd.api.types.pandas_dtype(dtype)
            utc = getattr(target, "tz", None) is not None
            parsed = pd.to_datetime(pd.Series(values, dtype=object), format="ISO8601", utc=utc)
            if utc:
                parsed = parsed.dt.tz_convert(target.tz)
            return parsed.astype(target).rename(name)
        if dtype.startswith("timedelta64"):
            ints = np.array([np.iinfo(np.int64).min if v is None else v for v in values], dtype=np.int64)
            return pd.Series(ints.view(dtype), name=name)
        if dtype == "bool":
            return pd.Series(np.array(values, dtype=bool), name=name)
        if dtype == "object":
            return pd.Series([marker if v is None else v for v in values] if marker is not None else values,
                             dtype=object, name=name)
        if dtype.startswith("object:"):
            parse = getattr(_dt, dtype[7:]).fromisoformat
            return pd.Series([marker if v is None else parse(v) for v in values], dtype=object, name=name)
        if dtype == "str" and isinstance(pd.api.types.pandas_dtype("str"), np.dtype):
            # pandas 3's text columns are named "str"; before pandas 3 that name means numpy's
            # fixed text, which would turn a missing value into the text "None": keep objects
            return pd.Series(values, dtype=object, name=name)
        return pd.Series(values, dtype=object, name=name).astype(dtype)
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError) as exc:
        raise ProjectError(
            f"The stored column {name!r} (type {dtype}) cannot be read back: {exc}. "
            f"Re-import the dataset from its source file."
        ) from exc


def _decode_categorical(values: list, info, ordered: bool, name: str):
    import numpy as np
    import pandas as pd

    if isinstance(info, list):  # written before the metadata object: plain JSON categories
        categories = pd.Index(info)
        encoding = "values"
    else:
        categories = pd.Index([untag(c) for c in info["categories"]], dtype=object)
        categories = categories.astype(info["categories_dtype"]) if len(categories) else \
            pd.Index([], dtype=info["categories_dtype"])
        encoding = info["encoding"]
    dtype = pd.CategoricalDtype(categories, ordered=ordered)
    if encoding == "codes":
        codes = np.array([-1 if v is None else v for v in values], dtype=np.int64)
    else:
        forms = _forms(categories.tolist())
        if forms is None:
            raise ValueError("its categories cannot be told apart as stored")
        codes = pd.Categorical(values, categories=pd.Index(forms, dtype=object)).codes.astype(np.int64)
        unmatched = int((codes < 0).sum()) - sum(v is None for v in values)
        if unmatched:
            raise ValueError(f"{unmatched} stored value(s) match none of its categories")
    if len(codes) and (codes.max() >= len(categories) or codes.min() < -1):
        raise ValueError("a stored category number is out of range")
    return pd.Series(pd.Categorical.from_codes(codes, dtype=dtype), name=name)


def locate(values: list) -> int | None:
    """Position of the first value SQLite would refuse or change (None if all are fine)."""
    for i, v in enumerate(values):
        kind = type(v)
        if kind is int and not _INT64[0] <= v <= _INT64[1]:
            return i
        if kind is str:
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                return i
        elif kind not in _NATIVE and kind is not bool:
            return i
    return None


def unstorable_error(name: str, row: str, value: Any, reason: str = "") -> DataError:
    shown = repr(value)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return DataError(
        f"Column {name!r}, {row}: the value {shown} ({type(value).__name__}) cannot be stored "
        f"exactly{reason}, so nothing was imported. Convert the column to text or numbers (or fix "
        f"that cell) and import again."
    )
