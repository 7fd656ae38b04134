"""Releases from exact aggregates: the same statistics when the counting happened elsewhere.

A linked dataset's engine (DuckDB, Spark) returns the exact integers a release needs, never
rows; :func:`release_exact` adds the noise here, by the same OpenDP samplers and with the same
privacy events as the statistics of :mod:`.tabulate`, :mod:`.numeric` and :mod:`.quantiles`
computed on arrays (the tests compare the two). :func:`aggregate_arrays` is the in-memory twin
of the engines' aggregation (used for imported data whose contributions are bounded).

Aggregates (numpy integer arrays):

- ``cells``: count (``[n]``, or one count per subgroup), histogram (one cell per key or bin;
  subgroups x cells), cross-tab (rows x columns);
- ``sums``, ``counts``: per group, the sum of the grid values
  ``clip(round_half_even(x / r), floor(lo/r), ceil(hi/r))`` and the number of finite values;
- ``ranks``: per group, 2K + 1 counts: below candidate 0, at it, between it and candidate 1, ...,
  above candidate K - 1. Smith's score of candidate j (alpha = p/q) is then exact:
  ``lt_j = sum(ranks[:2j+1])``, ``gt_j = sum(ranks[2j+2:])``, ``|(q - p) lt_j - p gt_j|``.

Bounded contributions: when every person has at most ``k`` rows (truncated before
aggregating), one person changes a count or a cell by at most k, a grid sum by k * D and a
quantile score by k * max(p, q - p) (group privacy, Dwork & Roth 2014, thm 2.2, here exact
because the sensitivity itself is scaled). The noise scale and the recorded events use these
sensitivities, so the ledger charges the cost of protecting a whole person.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

import numpy as np

from dpdesk.errors import DataError
from dpdesk.mechanisms.accounting import NoiseParameterError
from dpdesk.mechanisms.central.numeric import MeanRelease, _LIMIT, _bounds
from dpdesk.mechanisms.central.release import Release, noisy_release, resolve_noise
from dpdesk.mechanisms.central.tabulate import bin_labels, codes

__all__ = ["release_exact", "aggregate_arrays", "empty_aggregates", "rank_scores"]


def _labels(keys, bins) -> tuple:
    return tuple(keys) if keys is not None else bin_labels([float(Fraction(b)) for b in bins])


def _size(keys, bins) -> int:
    return len(keys) if keys is not None else len(bins) - 1


def empty_aggregates(spec: Mapping) -> dict:
    """All-zero aggregates of the right shapes (to find a request's events before any data is read)."""
    stat, groups = spec["statistic"], len(spec["by_keys"]) if spec.get("by") else None
    shape = [groups] if groups else []
    if stat == "count":
        return {"cells": np.zeros(shape or [1], dtype=np.int64)}
    if stat in ("histogram", "crosstab"):
        shape = shape + [_size(k, b) for k, b in zip(spec["keys"], spec["bins"])]
        return {"cells": np.zeros(shape, dtype=np.int64)}
    if stat in ("sum", "mean"):
        return {"sums": np.zeros(shape or [1], dtype=object), "counts": np.zeros(shape or [1], dtype=np.int64)}
    from dpdesk.mechanisms.central.request import median_candidates

    k = len(median_candidates(spec))
    return {"ranks": np.zeros((groups or 1, 2 * k + 1), dtype=np.int64)}


def rank_scores(ranks: np.ndarray, alpha: Fraction) -> np.ndarray:
    """Smith's scores per group from rank cells (see the module docstring)."""
    p, q = alpha.numerator, alpha.denominator
    r = np.asarray(ranks, dtype=np.int64)
    total = r.sum(axis=1, keepdims=True)
    csum = np.cumsum(r, axis=1)
    lt = csum[:, 0::2][:, :-1]  # sum of cells 0..2j  (below candidate j)
    at_or_below = csum[:, 1::2]  # sum of cells 0..2j+1
    gt = total - at_or_below
    return np.abs((q - p) * lt - p * gt)


def release_exact(spec: Mapping, agg: Mapping, noise: Mapping, check=None, contributions: int = 1):
    """The noisy release of a normalised, key-typed ``spec`` from exact aggregates ``agg``.

    ``noise`` is the spec's noise argument (``epsilon``, ``scale`` or ``sigmas``); ``check`` gets
    the events before any noise is drawn; ``contributions`` is k, the most rows one person has.
    """
    from dpdesk.mechanisms.central.quantiles import noisy_min_indices

    k = int(contributions)
    if k < 1:
        raise NoiseParameterError(f"The most rows per person must be at least 1; got {contributions!r}.")
    stat, mech = spec["statistic"], spec["mechanism"]
    by_keys = tuple(spec["by_keys"]) if spec.get("by") else None
    kw = dict(noise, mechanism=mech, check=check)
    if stat == "count":
        cells = np.asarray(agg["cells"], dtype=np.int64).reshape(-1)
        if by_keys is not None:
            return noisy_release("histogram", (by_keys,), cells, k, **kw)
        return noisy_release("count", ((),), cells[:1], k, **kw)
    if stat in ("histogram", "crosstab"):
        cells = np.asarray(agg["cells"], dtype=np.int64)
        labels = [_labels(kk, b) for kk, b in zip(spec["keys"], spec["bins"])]
        if stat == "histogram" and by_keys is None:
            return noisy_release("histogram", (labels[0],), cells.reshape(-1), k, **kw)
        axes = (by_keys, labels[0]) if stat == "histogram" else tuple(labels)
        return noisy_release("crosstab", axes, cells.reshape(len(axes[0]), len(axes[1])), k, **kw)
    if stat in ("sum", "mean"):
        lo, hi, r = (Fraction(v) for v in (*spec["bounds"], spec["resolution"]))
        d = _bounds(lo, hi, r)[3]
        sums = np.array([int(s) for s in np.asarray(agg["sums"], dtype=object).reshape(-1)], dtype=object)
        counts = np.asarray(agg["counts"], dtype=np.int64).reshape(-1)
        if int(counts.sum()) * d >= _LIMIT:
            raise DataError("Too many rows for these bounds: the grid sum could overflow 64 bits. "
                            "Use a coarser resolution.")
        exact = np.array([int(s) for s in sums], dtype=np.int64)
        keys = (by_keys,) if by_keys is not None else ((),)
        details = {"lower": lo, "upper": hi}
        if stat == "sum":
            return noisy_release("sum", keys, exact, d * k, resolution=r, details=details, **kw)
        return _mean(spec, exact, counts, keys, by_keys, d, k, noise, check)
    alpha = Fraction(spec.get("alpha", "1/2"))
    from dpdesk.mechanisms.central.request import median_candidates

    cands = np.asarray([float(c) for c in median_candidates(spec)], dtype=float)
    sens = max(alpha.numerator, alpha.denominator - alpha.numerator) * k
    eps = Fraction(noise["epsilon"])
    scores = rank_scores(np.asarray(agg["ranks"], dtype=np.int64), alpha)
    idx, events, scale = noisy_min_indices(scores, sens, eps, check)
    keys = (by_keys,) if by_keys is not None else ((),)
    return Release("quantile", keys, idx, events, "noisy max", scale, Fraction(sens), Fraction(1),
                   {"candidates": cands.tolist(), "alpha": alpha})


def _mean(spec, sums, counts, keys, by_keys, d, k, noise, check):
    """A mean: a noisy grid sum (sensitivity k D) and a noisy count (k), their events checked together."""
    lo, hi = (Fraction(v) for v in spec["bounds"])
    r = Fraction(spec["resolution"])
    mech = spec["mechanism"]
    if "sigmas" in noise:
        s_kw, c_kw = {"scale": noise["sigmas"][0]}, {"scale": noise["sigmas"][1]}
    elif "epsilon" in noise:
        eps = Fraction(noise["epsilon"])
        s_kw, c_kw = {"epsilon": eps / 2}, {"epsilon": eps / 2}
    else:
        raise NoiseParameterError("A mean is set by its epsilon; give epsilon.")
    events = (resolve_noise(mech, Fraction(d * k), **s_kw)[2], resolve_noise(mech, Fraction(k), **c_kw)[2])
    if check is not None:
        check(events)
    details = {"lower": lo, "upper": hi}
    total = noisy_release("sum", keys, sums, d * k, mechanism=mech, resolution=r, details=details, **s_kw)
    if by_keys is None:
        n = noisy_release("count", ((),), counts[:1], k, mechanism=mech, **c_kw)
    else:
        n = noisy_release("histogram", (by_keys,), counts, k, mechanism=mech, **c_kw)
    return MeanRelease(total, n, lo, hi)


def aggregate_arrays(spec: Mapping, data: Mapping) -> dict:
    """The aggregates of :func:`release_exact` from in-memory columns (``data`` as for ``ReleaseSpec.draw``)."""
    stat = spec["statistic"]
    by = data.get(spec["by"]) if spec.get("by") else None
    g = codes(by, spec["by_keys"]) if by is not None else None
    if stat == "count":
        if g is None:
            return {"cells": np.array([int(data["__n__"])], dtype=np.int64)}
        return {"cells": np.bincount(g[g >= 0], minlength=len(spec["by_keys"])).astype(np.int64)}
    if stat in ("histogram", "crosstab"):
        cols = spec["columns"]
        idx = [codes(data[c], kk, None if b is None else [float(Fraction(e)) for e in b])
               for c, kk, b in zip(cols, spec["keys"], spec["bins"])]
        sizes = [_size(kk, b) for kk, b in zip(spec["keys"], spec["bins"])]
        if g is not None:
            idx, sizes = [g] + idx, [len(spec["by_keys"])] + sizes
        ok = np.all([i >= 0 for i in idx], axis=0)
        flat = np.ravel_multi_index([i[ok] for i in idx], sizes) if idx[0].size else np.zeros(0, dtype=np.int64)
        return {"cells": np.bincount(flat, minlength=int(np.prod(sizes))).reshape(sizes).astype(np.int64)}
    x = np.asarray(data[spec["columns"][0]], dtype=float)
    groups = [np.ones(x.size, dtype=bool)] if g is None else [g == i for i in range(len(spec["by_keys"]))]
    if stat in ("sum", "mean"):
        from dpdesk.mechanisms.central.numeric import to_grid

        grid, _ = to_grid(x, Fraction(spec["bounds"][0]), Fraction(spec["bounds"][1]), Fraction(spec["resolution"]))
        return {"sums": np.array([int(grid[m].sum()) for m in groups], dtype=object),
                "counts": np.array([int(m.sum()) for m in groups], dtype=np.int64)}
    from dpdesk.mechanisms.central.request import median_candidates

    cands = np.asarray([float(c) for c in median_candidates(spec)], dtype=float)
    out = []
    for m in groups:
        v = np.sort(x[m])
        left = np.searchsorted(v, cands, side="left")
        right = np.searchsorted(v, cands, side="right")
        cells = np.zeros(2 * cands.size + 1, dtype=np.int64)
        prev = 0
        for j in range(cands.size):
            cells[2 * j] = left[j] - prev
            cells[2 * j + 1] = right[j] - left[j]
            prev = right[j]
        cells[-1] = v.size - prev
        out.append(cells)
    return {"ranks": np.array(out, dtype=np.int64)}
