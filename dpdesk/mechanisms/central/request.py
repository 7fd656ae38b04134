"""A release request: the plain, JSON-able description of one noisy statistic.

A request names the statistic, its columns and every public parameter (keys or bins,
clipping bounds, subgroups with their keys, the mechanism, and exactly one of
``epsilon``, ``accuracy`` or ``scale``). :func:`normalize` checks it and returns its
canonical form: numbers as exact fraction text (``"1/10"``), defaults filled in, so two
requests asking for the same thing have the same :func:`canonical_json`, which is what
the ledger compares to return an earlier release at no cost.

Example::

    {"statistic": "histogram", "columns": ["region"], "keys": ["north", "south"],
     "epsilon": 0.1}
    {"statistic": "mean", "columns": ["age"], "bounds": [18, 99], "epsilon": 0.5,
     "by": "gender", "by_keys": ["f", "m"]}
    {"statistic": "crosstab", "columns": ["region", "age"], "keys": [["north", "south"], null],
     "bins": [null, [18, 30, 50, 99]], "accuracy": 20, "confidence": 0.9}

``accuracy`` is a target half-width in the statistic's units: every cell of the table
within +-accuracy of its exact value with probability ``confidence`` (simultaneously).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any, Mapping

from dpdesk.errors import DpdeskError
from dpdesk.mechanisms.accounting import NoiseParameterError, as_fraction

__all__ = ["RequestError", "normalize", "canonical_json", "cells", "describe", "STATISTICS"]

STATISTICS = ("count", "histogram", "crosstab", "sum", "mean", "median", "quantile")
MECHANISMS = ("laplace", "gaussian")
_FIELDS = {"statistic", "columns", "column", "keys", "bins", "bounds", "resolution", "candidates",
           "alpha", "by", "by_keys", "mechanism", "epsilon", "accuracy", "scale", "confidence",
           "identifier", "max_rows"}
MAX_ROWS_LIMIT = 10**6
_N_COLUMNS = {"count": (0, 1), "histogram": (1, 1), "crosstab": (2, 2), "sum": (1, 1),
              "mean": (1, 1), "median": (1, 1), "quantile": (1, 1)}
DEFAULT_CONFIDENCE = Fraction(19, 20)
MEDIAN_GRID = 100  # a median over bounds only: 101 equally spaced candidates (median_candidates)


class RequestError(DpdeskError, ValueError):
    """A release request that is incomplete or contradicts itself."""


def canonical_json(obj: Any) -> str:
    """Sorted keys, no spaces, no NaN: equal content gives equal text."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _fraction(x, name: str) -> Fraction:
    """Exact value of a number or of text such as "0.1", "1/10", "1e-6"."""
    if isinstance(x, str):
        try:
            return Fraction(x.strip())
        except (ValueError, ZeroDivisionError):
            pass
    try:
        return as_fraction(x, name)
    except NoiseParameterError as exc:
        raise RequestError(str(exc)) from None


def _frac(x, name: str, *, positive: bool = False) -> str:
    f = _fraction(x, name)
    if positive and f <= 0:
        raise RequestError(f"{name} must be positive; got {x!r}.")
    return str(f)


def _key(v, what: str):
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, float):
        if not math.isfinite(v):
            raise RequestError(f"{what} must be finite; got {v!r}.")
        return int(v) if v.is_integer() else v
    if isinstance(v, (int, str)):
        return v
    item = getattr(v, "item", None)  # numpy scalars
    if callable(item):
        return _key(item(), what)
    raise RequestError(f"{what} must be plain values (text or numbers); got {v!r}.")


def _key_list(keys, what: str) -> list:
    if isinstance(keys, (str, bytes)) or not hasattr(keys, "__iter__"):
        raise RequestError(f"The {what} must be a list of values, such as [\"yes\", \"no\"]; got {keys!r}.")
    out = [_key(k, what) for k in keys]
    if not out:
        raise RequestError(f"No {what} were given, so there is nothing to count. List the values to count "
                           f"(for example every category of the column); they are public and never read from the data.")
    if len(set(map(canonical_json, out))) != len(out):
        raise RequestError(f"The {what} list a value twice ({out!r}), so it would be counted twice. "
                           f"List each value once.")
    return out


def _edges(bins, what: str) -> list[str]:
    if isinstance(bins, (str, bytes)) or not hasattr(bins, "__iter__"):
        raise RequestError(f"{what} must be a list of increasing bin edges; got {bins!r}.")
    edges = [_fraction(b, what) if not isinstance(b, bool) else None for b in bins]
    if len(edges) < 2 or None in edges or any(b <= a for a, b in zip(edges, edges[1:])):
        raise RequestError(f"{what} must be at least two increasing numbers (bin edges); got {list(bins)!r}.")
    return [str(e) for e in edges]


def _axes(value, n: int, name: str) -> list:
    """``keys``/``bins`` per column: a flat list is the one column's (for one column)."""
    if value is None:
        return [None] * n
    value = list(value)
    if n == 1 and not (len(value) == 1 and (value[0] is None or isinstance(value[0], (list, tuple)))):
        return [value]
    if len(value) != n or not all(v is None or isinstance(v, (list, tuple)) for v in value):
        raise RequestError(f"{name} of a cross-tab is one list per column (null where the other "
                           f"is used), e.g. [[\"a\", \"b\"], null]; got {value!r}.")
    return value


def normalize(request: Mapping[str, Any]) -> dict:
    """The canonical form of ``request`` (raises :class:`RequestError` saying what to fix)."""
    if not isinstance(request, Mapping):
        raise RequestError(f"A release request is a mapping such as {{'statistic': 'count', "
                           f"'epsilon': 0.1}}; got {type(request).__name__}.")
    unknown = sorted(set(request) - _FIELDS)
    if unknown:
        raise RequestError(f"Unknown field(s) in the release request: {', '.join(unknown)}. "
                           f"Known fields: {', '.join(sorted(_FIELDS))}.")
    stat = request.get("statistic")
    if stat not in STATISTICS:
        raise RequestError(f"statistic must be one of {', '.join(STATISTICS)}; got {stat!r}.")
    spec: dict[str, Any] = {"statistic": stat}
    columns = request.get("columns", request.get("column"))
    if columns is None:
        columns = []
    elif isinstance(columns, str):
        columns = [columns]
    columns = [str(c) for c in columns]
    lo_n, hi_n = _N_COLUMNS[stat]
    if not lo_n <= len(columns) <= hi_n:
        need = f"{lo_n}" if lo_n == hi_n else f"{lo_n} or {hi_n}"
        raise RequestError(f"A {stat} takes {need} column(s); got {columns or 'none'}.")
    spec["columns"] = columns

    keys, bins = request.get("keys"), request.get("bins")
    if stat in ("histogram", "crosstab"):
        n = len(columns)
        k_axes, b_axes = _axes(keys, n, "keys"), _axes(bins, n, "bins")
        out_k, out_b = [], []
        for col, k, b in zip(columns, k_axes, b_axes):
            if (k is None) == (b is None):
                raise RequestError(f"Declare either keys (categories) or bins (numeric edges) for "
                                   f"column {col!r}; they are public and never read from the data.")
            out_k.append(None if k is None else _key_list(k, f"categories of the column {col!r}"))
            out_b.append(None if b is None else _edges(b, f"bins of {col!r}"))
        spec["keys"], spec["bins"] = out_k, out_b
    elif keys is not None or (bins is not None and stat not in ("median", "quantile")):
        raise RequestError(f"A {stat} takes no keys or bins (those are for histograms and cross-tabs).")

    if stat in ("sum", "mean", "median", "quantile"):
        bounds = request.get("bounds")
        if stat in ("median", "quantile") and bins is not None:
            cands = _edges(bins, "candidates (bins) of the median")
            spec["candidates"] = cands
        elif request.get("candidates") is not None:
            spec["candidates"] = _edges(request["candidates"], "candidates")
        if bounds is None and "candidates" not in spec:
            raise RequestError(f"A {stat} needs declared bounds [lower, upper] of {columns[0]!r} "
                               "(values outside are clipped); they are public, never read from the data.")
        if bounds is not None:
            if len(list(bounds)) != 2:
                raise RequestError(f"bounds are two numbers, lower and upper; got {bounds!r}.")
            lo, hi = (Fraction(_frac(b, "bound")) for b in bounds)
            if not lo < hi:
                raise RequestError(f"The lower bound {lo} must be below the upper bound {hi}.")
            spec["bounds"] = [str(lo), str(hi)]
        if stat in ("sum", "mean"):
            if request.get("resolution") is not None:
                spec["resolution"] = _frac(request["resolution"], "resolution", positive=True)
            else:
                lo, hi = (Fraction(b) for b in spec["bounds"])
                spec["resolution"] = str(default_resolution(lo, hi))
        if stat == "quantile":
            alpha = Fraction(_frac(request.get("alpha", "1/2"), "alpha"))
            if not 0 < alpha < 1:
                raise RequestError(f"alpha must be between 0 and 1 (0.5 = median); got {alpha}.")
            spec["alpha"] = str(alpha)
    elif request.get("bounds") is not None:
        raise RequestError(f"A {stat} takes no bounds (counts need none).")

    by, by_keys = request.get("by"), request.get("by_keys")
    if (by is None) != (by_keys is None):
        raise RequestError("Subgroups need both by (the column) and by_keys (its public values).")
    if by is not None:
        if stat == "crosstab":
            raise RequestError("A cross-tab has no subgroups; use its first column for them.")
        spec["by"], spec["by_keys"] = str(by), _key_list(by_keys, f"subgroups of {by!r}")

    ident, max_rows = request.get("identifier"), request.get("max_rows")
    if ident is not None or max_rows is not None:
        if ident is None or not str(ident).strip():
            raise RequestError("max_rows (the most rows one person has) needs identifier, the column that "
                               "identifies the person.")
        try:
            k = int(Fraction(str(1 if max_rows is None else max_rows)))
            if Fraction(str(1 if max_rows is None else max_rows)) != k:
                raise ValueError
        except (ValueError, ZeroDivisionError):
            raise RequestError(f"max_rows is a whole number of rows per person (1, 2, ...); got {max_rows!r}.") from None
        if not 1 <= k <= MAX_ROWS_LIMIT:
            raise RequestError(f"max_rows must be between 1 and {MAX_ROWS_LIMIT}; got {k}.")
        spec["identifier"], spec["max_rows"] = str(ident), k

    mech = request.get("mechanism") or "laplace"
    if mech not in MECHANISMS:
        raise RequestError(f"mechanism must be 'laplace' or 'gaussian'; got {mech!r}.")
    if stat in ("median", "quantile") and mech != "laplace":
        raise RequestError("A median is released by the exponential mechanism (pure epsilon); "
                           "use mechanism 'laplace'.")
    spec["mechanism"] = mech
    given = [f for f in ("epsilon", "accuracy", "scale") if request.get(f) is not None]
    if len(given) != 1:
        raise RequestError("Give exactly one of epsilon (the privacy cost), accuracy (a target "
                           f"half-width) or scale (the noise scale); got {given or 'none'}.")
    if given[0] != "epsilon" and stat in ("mean", "median", "quantile"):
        raise RequestError(f"A {stat} is set by its epsilon; give epsilon (preview shows the "
                           "accuracy it buys).")
    spec[given[0]] = _frac(request[given[0]], given[0], positive=True)
    conf = Fraction(_frac(request.get("confidence", DEFAULT_CONFIDENCE), "confidence"))
    if not 0 < conf < 1:
        raise RequestError(f"confidence must be between 0 and 1 (e.g. 0.95); got {conf}.")
    spec["confidence"] = str(conf)
    return spec


def default_resolution(lo: Fraction, hi: Fraction) -> Fraction:
    """Grid width for sums: 10^(k - 3) for the largest bound's order 10^k (1/10 for [0, 100]).

    A respondent then moves a sum by at most 10^4 grid units (the sensitivity).
    """
    m = max(abs(lo), abs(hi))
    k = len(str(math.floor(m))) - 1 if m >= 1 else -len(str(math.floor(1 / m)))
    return Fraction(10) ** (k - 3)


def cells(spec: Mapping) -> int:
    """Number of noisy cells the request releases (for simultaneous accuracy)."""
    stat = spec["statistic"]
    groups = len(spec["by_keys"]) if spec.get("by_keys") else 1
    if stat in ("histogram", "crosstab"):
        n = 1
        for k, b in zip(spec["keys"], spec["bins"]):
            n *= len(k) if k is not None else len(b) - 1
        return n * groups
    return groups


def describe(spec: Mapping, name=str) -> str:
    """A short description in words: 'histogram of region by gender', 'cross-tabulation of gender by faculty'.

    ``name(column)`` is how a column is called (its label; default its code).
    """
    stat, cols = spec["statistic"], [name(c) for c in spec.get("columns") or []]
    if stat == "crosstab":
        text = f"cross-tabulation of {' by '.join(cols)}"
    else:
        text = stat if not cols else f"{stat} of {' and '.join(cols)}"
    if spec.get("bounds"):
        text += f" in [{_num(spec['bounds'][0])}, {_num(spec['bounds'][1])}]"
    if spec.get("by"):
        text += f", for each {name(spec['by'])}" if stat == "crosstab" else f" by {name(spec['by'])}"
    if spec.get("identifier"):
        k = spec.get("max_rows", 1)
        text += f", at most {k} row{'s' if k != 1 else ''} per {name(spec['identifier'])}"
    return text


def _num(text: str) -> str:
    f = Fraction(text)
    return str(f.numerator) if f.denominator == 1 else f"{float(f):g}"


def median_candidates(spec: Mapping) -> list[Fraction]:
    """The declared candidates of a median, or 101 equally spaced ones over its bounds."""
    if spec.get("candidates"):
        return [Fraction(c) for c in spec["candidates"]]
    lo, hi = (Fraction(b) for b in spec["bounds"])
    return [lo + (hi - lo) * k / MEDIAN_GRID for k in range(MEDIAN_GRID + 1)]
