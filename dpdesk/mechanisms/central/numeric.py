"""Noisy sums and means with declared clipping bounds, on a fixed-point integer grid.

Floating-point sums leak: their rounding depends on the data, so noise added to a float
sum does not give the promised guarantee (Mironov 2012; Casacuberta et al. 2022,
"Widespread underestimation of sensitivity in differentially private libraries"). dpdesk
therefore puts every value on a declared grid of width ``resolution`` r:

    g_i = clip(round(x_i / r), floor(lo / r), ceil(hi / r))      (integers)
    S   = sum_i g_i                                             (exact int64)
    release  S + Z,  Z discrete Laplace / Gaussian,  estimate = (S + Z) * r

Clipping happens after rounding, so each row contributes an integer in
[floor(lo/r), ceil(hi/r)] whatever the float arithmetic did. Neighbouring relation
add/remove one row, hence sensitivity D = max(|floor(lo/r)|, |ceil(hi/r)|) grid units
(a row adds at most that much to one sum). By subgroup, the row changes one group's sum:
the same D in L1 and L2.

A mean is two releases: a noisy sum and a noisy count (sensitivity 1), combined by
:func:`dpdesk.mechanisms.central.postprocess.mean_from` (free post-processing). The
budget is split between them by ``count_share`` (default: 1/2 of epsilon or rho each).
"""

from __future__ import annotations

import builtins
import math
from fractions import Fraction

import numpy as np

from dpdesk.errors import DataError
from dpdesk.mechanisms.accounting import NoiseParameterError, as_fraction
from dpdesk.mechanisms.central import postprocess
from dpdesk.mechanisms.central.release import Release, noisy_release, resolve_noise
from dpdesk.mechanisms.central.tabulate import _keys, codes

__all__ = ["sum", "mean", "to_grid", "MeanRelease"]

_LIMIT = 2**62


def _bounds(lower, upper, resolution):
    lo, hi = as_fraction(lower, "lower bound"), as_fraction(upper, "upper bound")
    r = as_fraction(resolution, "resolution")
    if r <= 0:
        raise NoiseParameterError(f"resolution must be positive (e.g. 0.01); got {resolution!r}.")
    if lo > hi:
        raise NoiseParameterError(f"The lower bound {lower!r} is above the upper bound {upper!r}.")
    glo, ghi = math.floor(lo / r), math.ceil(hi / r)
    d = builtins.max(abs(glo), abs(ghi))
    if d == 0:
        raise NoiseParameterError("Bounds [0, 0] make every sum 0; declare wider bounds.")
    return glo, ghi, r, d


def to_grid(values, lower, upper, resolution=1) -> tuple[np.ndarray, int]:
    """Integers g_i = clip(round(x_i / r), floor(lo/r), ceil(hi/r)) and the sensitivity D."""
    glo, ghi, r, d = _bounds(lower, upper, resolution)
    try:
        x = np.asarray(values, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise DataError("Values to sum must be numbers; found a non-numeric value.") from None
    bad = ~np.isfinite(x)
    if bad.any():
        i = int(np.argmax(bad))
        raise DataError(f"Value {i} (row {i + 1}) is {x[i].item()!r}: missing or infinite values "
                        "cannot be summed. Drop or impute them first.")
    g = np.clip(np.rint(x / float(r)), glo, ghi).astype(np.int64)
    if g.size * d >= _LIMIT:
        raise DataError("Too many rows for these bounds: the grid sum could overflow 64 bits. "
                        "Use a coarser resolution.")
    return g, d


def sum(values, lower, upper, resolution=1, *, epsilon=None, scale=None, rho=None,
        mechanism="laplace", by=None, by_keys=None, check=None) -> Release:  # noqa: A001
    """Noisy sum of ``values`` clipped to [lower, upper] on a grid of width ``resolution``.

    ``scale`` is in grid units. Sensitivity D = max(|floor(lo/r)|, |ceil(hi/r)|) grid units
    (add/remove one row); with ``by``/``by_keys`` one noisy sum per public subgroup, same D.
    """
    g, d = to_grid(values, lower, upper, resolution)
    r = as_fraction(resolution, "resolution")
    details = {"lower": as_fraction(lower), "upper": as_fraction(upper)}
    if by is None:
        exact, keys = np.array([int(g.sum())]), ((),)
    else:
        ks = _keys(by_keys, "subgroup keys")
        c = codes(by, ks)
        if c.size != g.size:
            raise DataError(f"by= has {c.size} rows but the values have {g.size}.")
        exact = np.zeros(len(ks), dtype=np.int64)
        np.add.at(exact, c[c >= 0], g[c >= 0])
        keys = (ks,)
    return noisy_release("sum", keys, exact, d, mechanism=mechanism, epsilon=epsilon,
                         scale=scale, rho=rho, check=check, resolution=r, details=details)


class MeanRelease:
    """A noisy mean: the noisy ``sum`` and ``count`` releases and their ratio ``estimate``."""

    statistic = "mean"

    def __init__(self, total: Release, count: Release, lower, upper):
        self.sum, self.count = total, count
        self.events = total.events + count.events
        self.keys = total.keys
        self.adjusted = postprocess.mean_from(total.estimate, count.noisy, lower, upper)

    @property
    def estimate(self) -> np.ndarray:
        return self.adjusted.values

    def record(self) -> dict:
        """JSON-ready: the two underlying releases and the post-processed means."""
        return {"statistic": "mean", "sum": self.sum.record(), "count": self.count.record(),
                "estimate": self.estimate.tolist(), "did": self.adjusted.did}


def mean(values, lower, upper, resolution=1, *, epsilon=None, rho=None, mechanism="laplace",
         count_share=Fraction(1, 2), by=None, by_keys=None, check=None) -> MeanRelease:
    """Noisy mean = noisy clipped sum / noisy count, spending epsilon (or rho) in total.

    The count gets ``count_share`` of the budget and the sum the rest; both events are
    passed to ``check`` together before any noise is drawn.
    """
    share = as_fraction(count_share, "count_share")
    if not 0 < share < 1:
        raise NoiseParameterError(f"count_share must be between 0 and 1; got {count_share!r}.")
    if (epsilon is None) == (rho is None):
        raise NoiseParameterError("Give the mean's total budget as epsilon= (Laplace) or "
                                  "rho= (Gaussian).")
    budget = as_fraction(epsilon if epsilon is not None else rho, "budget")
    key = "epsilon" if epsilon is not None else "rho"
    sum_kw = {key: budget * (1 - share)}
    cnt_kw = {key: budget * share}
    # Both events come from public parameters; check them together, then draw.
    d = _bounds(lower, upper, resolution)[3]
    events = (resolve_noise(mechanism, Fraction(d), **sum_kw)[2],
              resolve_noise(mechanism, Fraction(1), **cnt_kw)[2])
    if check is not None:
        check(events)
    total = sum(values, lower, upper, resolution, mechanism=mechanism, by=by, by_keys=by_keys,
                **sum_kw)
    n = _count(values, by, by_keys, mechanism, None, cnt_kw)
    return MeanRelease(total, n, lower, upper)


def _count(values, by, by_keys, mechanism, check, kw):
    from dpdesk.mechanisms.central.tabulate import count

    n = len(np.asarray(values).reshape(-1))
    if by is None:
        return count(n, mechanism=mechanism, check=check, **kw)
    return count(None, by=by, by_keys=by_keys, mechanism=mechanism, check=check, **kw)
