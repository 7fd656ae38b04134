"""Generalisation of quasi-identifiers: coarser values that put more records in each class.

The usual recodings of statistical disclosure control (Hundepool et al. 2012, section
3.4; the hierarchies of ARX): numeric values into bands (age 34 -> "30-39"), top- and
bottom-coding (incomes above a threshold shown as the threshold), dates to month or
year, and rare categories merged into one. Every function returns new arrays and
leaves its input untouched.

Hundepool, A. et al. (2012). Statistical Disclosure Control. Wiley, chapter 3.
"""

from __future__ import annotations

import math

import numpy as np

from dpdesk.errors import DataError


def _numbers(values, what: str) -> np.ndarray:
    try:
        return np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise DataError(f"{what} needs a numeric column; this one has text. Use 'rare:N' to merge "
                        "rare categories of a text column instead.") from None


def band_edges(values, width: float, start: float | None = None) -> np.ndarray:
    """Edges ``start, start + width, ...`` covering every value (start: the minimum floored to the width)."""
    x = _numbers(values, "Banding")
    if not width > 0:
        raise DataError(f"A band width must be positive (got {width!r}), e.g. bands:10 for ten-year age bands.")
    known = x[~np.isnan(x)]
    if known.size == 0:
        return np.array([0.0, float(width)])
    lo = math.floor(known.min() / width) * width if start is None else float(start)
    top = max(known.max(), lo)
    count = int(math.floor((top - lo) / width)) + 1
    if count > 100_000:
        raise DataError(f"Bands of width {width:g} would make {count} bands; choose a wider band.")
    return lo + width * np.arange(count + 1)


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def bands(values, edges) -> tuple[np.ndarray, list[str]]:
    """Codes of the band ``[e_i, e_{i+1})`` of each value and the bands' labels.

    Values below the first edge get the band "< e_0", values at or above the last edge
    "e_last+" (an open top band, as in "80+"); missing values get code -1. For whole
    numbers the band [30, 40) is labelled "30-39"; otherwise "[30, 40)".
    """
    x = _numbers(values, "Banding")
    e = np.asarray(sorted(set(float(v) for v in edges)))
    if e.size < 2:
        raise DataError("Bands need at least two distinct edges, e.g. bands:18,30,45,65.")
    known = x[~np.isnan(x)]
    whole = bool(np.all(np.equal(np.mod(known, 1), 0))) and bool(np.all(np.mod(e, 1) == 0))
    labels = [f"< {_fmt(e[0])}"]
    for a, b in zip(e[:-1], e[1:]):
        labels.append(f"{_fmt(a)}-{_fmt(b - 1)}" if whole and b - a > 1 else
                      (_fmt(a) if whole else f"[{_fmt(a)}, {_fmt(b)})"))
    labels.append(f"{_fmt(e[-1])}+")
    codes = np.searchsorted(e, x, side="right").astype(np.int64)  # 0: below, len(e): at/above last
    codes[np.isnan(x)] = -1
    return codes, labels


def top_code(values, upper: float) -> tuple[np.ndarray, np.ndarray]:
    """Values above ``upper`` replaced by ``upper``; returns the new values and which changed."""
    x = _numbers(values, "Top-coding")
    changed = x > upper
    return np.where(changed, float(upper), x), changed


def bottom_code(values, lower: float) -> tuple[np.ndarray, np.ndarray]:
    """Values below ``lower`` replaced by ``lower``; returns the new values and which changed."""
    x = _numbers(values, "Bottom-coding")
    changed = x < lower
    return np.where(changed, float(lower), x), changed


def truncate_dates(values, unit: str) -> np.ndarray:
    """Dates (``datetime64``) cut to the month (``"M"``) or the year (``"Y"``); NaT stays NaT."""
    if unit not in ("M", "Y"):
        raise DataError(f"Dates can be cut to month or year (got {unit!r}).")
    x = np.asarray(values)
    if not np.issubdtype(x.dtype, np.datetime64):
        raise DataError("Cutting to month or year needs a date column; this one holds no dates.")
    return x.astype(f"datetime64[{unit}]")


def merge_rare(codes, min_count: int, other: int) -> tuple[np.ndarray, np.ndarray]:
    """Categories with fewer than ``min_count`` records recoded to ``other``; returns codes and the merged codes.

    Missing values (negative codes) stay missing.
    """
    c = np.asarray(codes, dtype=np.int64)
    if int(min_count) != min_count or min_count < 2:
        raise DataError(f"Merging rare categories needs a whole count of at least 2 (got {min_count!r}), "
                        "e.g. rare:10 merges every category with fewer than 10 records.")
    known = c >= 0
    if not known.any():
        return c.copy(), np.zeros(0, dtype=np.int64)
    counts = np.bincount(c[known])
    rare = np.flatnonzero((counts > 0) & (counts < min_count))
    out = c.copy()
    out[known & np.isin(c, rare)] = other
    return out, rare
