"""The columns a release reads: the request's columns from the dataset, keys matched to the column type.

The only place the ledger touches data: numeric columns become float arrays (missing as
NaN), others text (missing as None); declared keys are converted to the column's type.
How many values were missing is not reported: that count is not private.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from dpdesk.errors import DataError
from dpdesk.mechanisms.central.typed_keys import numeric_keys

__all__ = ["columns_of", "bounded_rows"]


def bounded_rows(frame: Any, identifier: str, k: int, dataset: str) -> Any:
    """At most ``k`` rows per value of ``identifier``, chosen by a keyed hash (SipHash-2-4, pandas'
    ``hash_array``) of each row's position with a secret key drawn now from the CSPRNG: the same rule
    as a linked dataset's engine (:mod:`dpdesk.project.linked.query`). Rows without an identifier are
    one person together."""
    import secrets

    import pandas as pd

    if identifier not in frame.columns:
        known = ", ".join(map(repr, list(frame.columns)[:20]))
        raise DataError(f"The dataset {dataset!r} has no column {identifier!r} to identify persons (it has: "
                        f"{known}). Nothing was released and no budget was spent.")
    key = secrets.token_hex(8)  # 16 characters: SipHash's 128-bit key
    h = pd.util.hash_array(np.arange(len(frame), dtype=np.int64), hash_key=key, categorize=False)
    ids = frame[identifier].reset_index(drop=True)
    order = pd.DataFrame({"id": ids, "h": h}).sort_values(["id", "h"], na_position="last", kind="mergesort")
    rank = order.groupby("id", dropna=False, sort=False).cumcount()
    keep = np.zeros(len(frame), dtype=bool)
    keep[rank.index.to_numpy()[rank.to_numpy() < int(k)]] = True
    return frame.iloc[keep]


def columns_of(spec: Mapping, frame: Any, dataset: str, missing: Mapping | None = None) -> dict:
    """The arrays the statistic needs from a pandas frame, keys matched to the column type.

    Returns ``data`` for :func:`compute` and the request with keys converted to the
    column's type (numbers for numeric columns, text otherwise). ``missing`` maps a column
    to its declared missing codes (SPSS user-missing 98/99, Stata's ``.a``-``.z``): those
    values are missing here too, never a number in a sum, a mean or a median.
    """
    import pandas as pd

    def column(name):
        if name not in frame.columns:
            known = ", ".join(map(repr, list(frame.columns)[:20]))
            raise DataError(f"The dataset {dataset!r} has no column {name!r} (it has: {known}).")
        codes = (missing or {}).get(name)
        s = frame[name]
        return s.mask(s.isin(codes)) if codes else s

    def numeric(s):
        return pd.api.types.is_numeric_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype)

    def as_values(s) -> np.ndarray:
        if numeric(s):
            return s.astype("float64").to_numpy(na_value=np.nan)
        return np.array([None if pd.isna(v) else str(v) for v in s.astype(object)], dtype=object)

    def as_keys(s, keys, name):
        if keys is None:
            return None
        if not numeric(s):
            return [str(k) for k in keys]
        return numeric_keys(keys, name, "; the Data view shows what each code means")

    spec = dict(spec)
    data: dict[str, Any] = {"__n__": len(frame)}
    stat = spec["statistic"]
    if stat in ("histogram", "crosstab"):
        spec["keys"] = [as_keys(column(c), k, c) for c, k in zip(spec["columns"], spec["keys"])]
        for c in spec["columns"]:
            data[c] = as_values(column(c))
    if spec.get("by"):
        spec["by_keys"] = as_keys(column(spec["by"]), spec["by_keys"], spec["by"])
        data[spec["by"]] = as_values(column(spec["by"]))
    if stat == "count" and spec["columns"]:
        data["__n__"] = int(column(spec["columns"][0]).notna().sum())
    if stat in ("sum", "mean", "median", "quantile"):
        s = column(spec["columns"][0])
        if not numeric(s):
            raise DataError(f"A {stat} needs a numeric column; {spec['columns'][0]!r} in "
                            f"{dataset!r} holds {s.dtype} values.")
        x = as_values(s)
        keep = np.isfinite(x)
        data[spec["columns"][0]] = x[keep]
        if spec.get("by"):
            data[spec["by"]] = data[spec["by"]][keep]
    return spec, data
