"""Checking response counts against a design (sufficient statistics in, never rows)."""

from __future__ import annotations

import numpy as np

from dpdesk.errors import EstimationError

from dpdesk.mechanisms.rr.design import Design


def _vector(values, length: int, what: str) -> np.ndarray:
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise EstimationError(f"{what} must be a list of {length} counts; got {values!r}.") from None
    if arr.shape != (length,):
        raise EstimationError(
            f"{what} must have {length} counts (one per response), got shape {arr.shape}: {np.asarray(values).tolist()!r}."
        )
    if not np.all(np.isfinite(arr)) or np.any(arr < 0) or np.any(arr != np.round(arr)):
        raise EstimationError(f"{what} must be whole numbers of at least 0; got {arr.tolist()}.")
    return arr.astype(np.int64)


def check_counts(d: Design, counts) -> tuple[np.ndarray, ...]:
    """Counts per group as int64 vectors in the order of ``d.responses``.

    One-group designs take one vector; two-group designs a pair of vectors (group 1,
    group 2); unary designs a ``k x 2`` table of (not ticked, ticked) per category.
    """
    if d.model == "unary":
        k = len(d.categories)
        try:
            arr = np.asarray(counts, dtype=float)
        except (TypeError, ValueError):
            arr = np.empty(0)
        if arr.shape != (k, 2):
            raise EstimationError(
                f"A unary design with {k} categories takes a {k} x 2 table of counts: for each category, how many "
                f"did not tick it and how many did. Got shape {arr.shape}."
            )
        rows = tuple(_vector(r, 2, f"Counts for category {d.categories[i]!r}") for i, r in enumerate(arr))
        totals = {int(r.sum()) for r in rows}
        if len(totals) != 1 or 0 in totals:
            raise EstimationError(
                "Each category of a unary design must count the same respondents (ticked + not ticked); "
                f"the totals are {[int(r.sum()) for r in rows]}."
            )
        return rows
    R = len(d.responses)
    if d.groups == 1:
        rows = (_vector(counts, R, "counts"),)
    else:
        if hasattr(counts, "to_numpy") and not isinstance(counts, np.ndarray):  # a pandas table: a row per group
            counts = counts.to_numpy()
        try:
            parts = list(counts)
            nested = all(np.ndim(c) == 1 for c in parts)
        except (TypeError, ValueError):
            parts, nested = [], False
        if len(parts) != d.groups or not nested:
            raise EstimationError(
                f"The {d.name!r} design has {d.groups} groups: give one count vector per group, for example "
                f"[[no1, yes1], [no2, yes2]]."
            )
        rows = tuple(_vector(c, R, f"counts of group {g + 1}") for g, c in enumerate(parts))
    for g, r in enumerate(rows):
        if r.sum() == 0:
            where = "" if d.groups == 1 else f" in group {g + 1}"
            raise EstimationError(f"There are no answers{where}: nothing can be estimated from zero respondents.")
    return rows
