"""Post-processing of noisy releases: free of privacy cost (Dwork & Roth 2014, prop. 2.1).

Each function returns an :class:`Adjusted` saying what it did. What an interval covers
after post-processing:

- ``clamp_nonnegative``: if the true value is >= 0, clamping never moves the estimate away
  from it, so a +-a interval that covered the truth around the raw value still covers it
  around the clamped value (the interval is then [max(0, y - a), y + a] at most).
- ``round_to``: adds at most half a step to any error; widen intervals by step/2.
- ``consistent_table``: the projection is linear in the noise; the raw-noise half-widths
  no longer apply cell by cell. The returned ``cell_variance`` is the exact variance of
  each projected cell (generalised least squares with the noise variances as weights,
  hence no larger than the raw cell variance).
- ``mean_from``: the ratio of two noisy releases, clipped to the declared bounds; its error
  is not covered by either release's interval (see the docstring).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dpdesk.errors import DataError
from dpdesk.mechanisms.accounting import NoiseParameterError, as_fraction

__all__ = ["Adjusted", "clamp_nonnegative", "round_to", "consistent_table", "mean_from",
           "laplace_variance"]


@dataclass(frozen=True)
class Adjusted:
    """Post-processed values, what was done, how many cells changed, and extra details."""

    values: np.ndarray
    did: str
    changed: int
    details: dict


def laplace_variance(scale) -> float:
    """Variance of discrete Laplace noise of scale b: 2q / (1-q)^2, q = exp(-1/b)."""
    import math

    q = math.exp(-1.0 / float(as_fraction(scale, "scale")))
    return 2.0 * q / (1.0 - q) ** 2


def clamp_nonnegative(values) -> Adjusted:
    """Replace negative noisy counts by 0 (the true counts are >= 0)."""
    v = np.asarray(values)
    out = np.maximum(v, 0)
    n = int(np.count_nonzero(v < 0))
    return Adjusted(out, f"set {n} negative value(s) to 0", n, {})


def round_to(values, step=1) -> Adjusted:
    """Round to the nearest multiple of ``step`` (half away from zero ties: numpy's rint)."""
    s = float(as_fraction(step, "step"))
    if s <= 0:
        raise NoiseParameterError(f"step must be positive; got {step!r}.")
    v = np.asarray(values, dtype=float)
    out = np.rint(v / s) * s
    n = int(np.count_nonzero(out != v))
    return Adjusted(out, f"rounded {n} value(s) to multiples of {s:g}", n, {"step": s})


def consistent_table(cells, row_totals=None, col_totals=None, total=None, *,
                     cell_var=1.0, row_var=None, col_var=None, total_var=None) -> Adjusted:
    """The R x C table closest to all noisy observations, with exactly consistent margins.

    Minimises  sum (x_ij - y_ij)^2 / v_c + sum_i (x_i. - r_i)^2 / v_r
             + sum_j (x_.j - c_j)^2 / v_k + (x_.. - t)^2 / v_t
    over tables x (its margins are its own sums, so they are consistent by construction):
    generalised least squares (Hay, Rastogi, Miklau & Suciu 2010, "Boosting the accuracy of
    differentially private histograms through consistency"). With weights w = 1/v the normal
    matrix  w_c I + w_r I(x)J_C + w_k J_R(x)I + w_t J_R(x)J_C  is diagonal in the
    grand-mean / row-effect / column-effect / interaction decomposition, so the solution is
    exact and O(RC). Omitted margins get weight 0; variances default to 1 for the cells and
    must be given for each margin used (e.g. ``laplace_variance(scale)``).
    """
    y = np.asarray(cells, dtype=float)
    if y.ndim != 2:
        raise DataError(f"consistent_table needs a 2-way table; got shape {y.shape}.")
    R, C = y.shape
    wc = 1.0 / _var(cell_var, "cell_var")
    b = wc * y
    wr = wk = wt = 0.0
    if row_totals is not None:
        r = _vec(row_totals, R, "row_totals")
        wr = 1.0 / _var(row_var, "row_var")
        b = b + wr * r[:, None]
    if col_totals is not None:
        c = _vec(col_totals, C, "col_totals")
        wk = 1.0 / _var(col_var, "col_var")
        b = b + wk * c[None, :]
    if total is not None:
        wt = 1.0 / _var(total_var, "total_var")
        b = b + wt * float(total)
    lam_g = wc + wr * C + wk * R + wt * R * C
    lam_r = wc + wr * C
    lam_c = wc + wk * R
    grand = b.mean()
    row_eff = b.mean(axis=1, keepdims=True) - grand
    col_eff = b.mean(axis=0, keepdims=True) - grand
    inter = b - grand - row_eff - col_eff
    x = grand / lam_g + row_eff / lam_r + col_eff / lam_c + inter / wc
    var = (1 / (R * C) / lam_g + (1 - 1 / R) / C / lam_r + (1 - 1 / C) / R / lam_c
           + (1 - 1 / R) * (1 - 1 / C) / wc)
    used = [n for n, v in (("row totals", row_totals), ("column totals", col_totals),
                           ("grand total", total)) if v is not None]
    did = "least-squares projection of the cells" + (" onto " + ", ".join(used) if used else "")
    return Adjusted(x, did, int(np.count_nonzero(np.abs(x - y) > 1e-9)),
                    {"cell_variance": float(var), "row_totals": x.sum(axis=1),
                     "col_totals": x.sum(axis=0), "total": float(x.sum())})


def _var(v, name) -> float:
    if v is None:
        raise NoiseParameterError(f"{name} is needed when that margin is given "
                                  "(e.g. laplace_variance(scale)).")
    f = float(v)
    if not f > 0:
        raise NoiseParameterError(f"{name} must be positive; got {v!r}.")
    return f


def _vec(v, n, name) -> np.ndarray:
    a = np.asarray(v, dtype=float).reshape(-1)
    if a.size != n:
        raise DataError(f"{name} has {a.size} values; the table needs {n}.")
    return a


def mean_from(noisy_sum, noisy_count, lower, upper) -> Adjusted:
    """Mean = noisy sum / max(noisy count, 1), clipped to [lower, upper].

    The true mean of values clipped to the bounds lies in [lower, upper], so clipping never
    moves the estimate away from it. No interval of the sum or count release covers this
    ratio directly; report it with the two releases' intervals.
    """
    s = np.asarray(noisy_sum, dtype=float)
    n = np.asarray(noisy_count, dtype=float)
    lo, hi = float(as_fraction(lower)), float(as_fraction(upper))
    denom = np.maximum(n, 1.0)
    raw = s / denom
    out = np.clip(raw, lo, hi)
    changed = int(np.count_nonzero(n < 1) + np.count_nonzero(out != raw))
    return Adjusted(out, f"noisy sum / max(noisy count, 1), clipped to [{lo:g}, {hi:g}] "
                    f"({changed} value(s) adjusted)", changed, {})
