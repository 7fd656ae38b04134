"""Noisy counts, one-way histograms and two-way cross-tabs over PUBLIC keys.

Keys (categories, bins) are declared by the researcher, never read from the data: a
category that appears only in the data would itself leak. Values outside the declared
keys or bins are not counted (they fall in no cell).

Sensitivity (add/remove one row): the row moves exactly one cell (or none) by 1, so the
L1 and L2 sensitivity of a count, a histogram and a cross-tab is 1 (Dwork, McSherry,
Nissim & Smith 2006, sec. 3). Noise: discrete Laplace (epsilon = 1/scale) or discrete
Gaussian (rho = 1/(2 sigma^2)), one independent draw per cell, one OpenDP call per table.
"""

from __future__ import annotations

import numpy as np

from dpdesk.errors import DataError
from dpdesk.mechanisms.accounting import NoiseParameterError
from dpdesk.mechanisms.central.release import Release, noisy_release

__all__ = ["count", "histogram", "crosstab", "bin_labels", "codes"]


def _keys(keys, what: str) -> tuple:
    if keys is None:
        raise NoiseParameterError(f"{what} must be declared (public); they are never taken "
                                  "from the data.")
    ks = tuple(keys)
    if not ks:
        raise NoiseParameterError(f"No {what} were given, so there is nothing to count. List the values to count; "
                                  f"they are public and never read from the data.")
    try:
        if len(set(ks)) != len(ks):
            raise NoiseParameterError(f"{what} must be unique; got {list(ks)!r}.")
    except TypeError:
        raise NoiseParameterError(f"{what} must be hashable values; got {list(ks)!r}.") from None
    return ks


def bin_labels(edges) -> tuple:
    """Labels "[a, b)" for declared bin edges (the last bin is closed: "[a, b]")."""
    e = list(edges)
    labels = [f"[{e[i]:g}, {e[i + 1]:g})" for i in range(len(e) - 1)]
    if labels:
        labels[-1] = labels[-1][:-1] + "]"
    return tuple(labels)


def _edges(bins) -> np.ndarray:
    e = np.asarray(bins, dtype=float)
    if e.ndim != 1 or e.size < 2 or not np.all(np.isfinite(e)) or np.any(np.diff(e) <= 0):
        raise NoiseParameterError(f"bins must be at least two increasing finite edges; got "
                                  f"{list(bins)!r}.")
    return e


def codes(values, keys=None, bins=None) -> np.ndarray:
    """Cell index of each value (-1 when it is in no declared key or bin)."""
    if (keys is None) == (bins is None):
        raise NoiseParameterError("Declare either keys= (the public categories) or bins= (numeric "
                                  "edges); they are never taken from the data.")
    arr = np.asarray(values)
    if arr.ndim != 1:
        arr = arr.reshape(-1)
    if bins is not None:
        e = _edges(bins)
        try:
            x = arr.astype(float)
        except (TypeError, ValueError):
            raise DataError("Values to bin must be numbers; found a non-numeric value. "
                            "Use keys= for categories.") from None
        idx = np.searchsorted(e, x, side="right") - 1
        idx[x == e[-1]] = e.size - 2  # the last bin includes its right edge
        idx[(idx < 0) | (idx > e.size - 2) | ~np.isfinite(x)] = -1
        return idx.astype(np.int64)
    ks = _keys(keys, "keys")
    index = {k: i for i, k in enumerate(ks)}
    if arr.size and (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool):
        try:
            uniq, inv = np.unique(arr, return_inverse=True)
            lookup = np.array([index.get(u.item() if hasattr(u, "item") else u, -1)
                               for u in uniq], dtype=np.int64)
            return lookup[inv.reshape(-1)]
        except TypeError:
            pass
    get = index.get
    try:
        return np.fromiter((get(v, -1) for v in arr.tolist()), dtype=np.int64, count=arr.size)
    except TypeError:
        raise DataError("A value could not be matched to the keys (an unhashable value such "
                        "as a list); give one plain value per row.") from None


def count(data, *, epsilon=None, scale=None, rho=None, mechanism="laplace", by=None,
          by_keys=None, check=None) -> Release:
    """Noisy number of rows (``data``: the rows, or their number), optionally by subgroup.

    Sensitivity 1. With ``by`` (one group value per row) and public ``by_keys`` this is
    the one-way histogram of the groups.
    """
    if by is not None:
        return histogram(by, keys=by_keys, epsilon=epsilon, scale=scale, rho=rho,
                         mechanism=mechanism, check=check)
    if isinstance(data, (int, np.integer)):
        if data < 0:
            raise DataError(f"A number of rows cannot be negative; got {data}.")
        n = int(data)
    else:
        try:
            n = len(data)
        except TypeError:
            raise DataError("count() needs the rows (a list or array) or their number; "
                            f"got {type(data).__name__}.") from None
    rel = noisy_release("count", ((),), np.array([n]), 1, mechanism=mechanism,
                        epsilon=epsilon, scale=scale, rho=rho, check=check)
    return rel


def histogram(values, keys=None, bins=None, *, epsilon=None, scale=None, rho=None,
              mechanism="laplace", by=None, by_keys=None, check=None) -> Release:
    """One-way noisy histogram over declared ``keys`` (categories) or numeric ``bins``.

    Bins are [e_i, e_{i+1}) with the last one closed. Sensitivity 1 (one cell changes by
    one). With ``by``/``by_keys`` it is the cross-tab subgroup x value.
    """
    if by is not None:
        return crosstab(by, values, row_keys=by_keys, col_keys=keys, col_bins=bins,
                        epsilon=epsilon, scale=scale, rho=rho, mechanism=mechanism,
                        check=check)
    c = codes(values, keys, bins)
    labels = _keys(keys, "keys") if keys is not None else bin_labels(bins)
    exact = np.bincount(c[c >= 0], minlength=len(labels))
    return noisy_release("histogram", (labels,), exact, 1, mechanism=mechanism,
                         epsilon=epsilon, scale=scale, rho=rho, check=check)


def crosstab(rows, cols, row_keys=None, col_keys=None, *, row_bins=None, col_bins=None,
             epsilon=None, scale=None, rho=None, mechanism="laplace", check=None) -> Release:
    """Two-way noisy table: cell (i, j) counts rows with row value i and column value j.

    ``rows`` and ``cols`` are the two variables (same length); their keys or bins are
    declared. Sensitivity 1: one respondent is in one cell. The result's ``noisy`` has
    shape (len(row keys), len(col keys)).
    """
    r = codes(rows, row_keys, row_bins)
    c = codes(cols, col_keys, col_bins)
    if r.size != c.size:
        raise DataError(f"The two variables of a cross-tab must have the same number of "
                        f"rows; got {r.size} and {c.size}.")
    rl = _keys(row_keys, "row keys") if row_keys is not None else bin_labels(row_bins)
    cl = _keys(col_keys, "column keys") if col_keys is not None else bin_labels(col_bins)
    ok = (r >= 0) & (c >= 0)
    flat = r[ok] * len(cl) + c[ok]
    exact = np.bincount(flat, minlength=len(rl) * len(cl)).reshape(len(rl), len(cl))
    return noisy_release("crosstab", (rl, cl), exact, 1, mechanism=mechanism,
                         epsilon=epsilon, scale=scale, rho=rho, check=check)
