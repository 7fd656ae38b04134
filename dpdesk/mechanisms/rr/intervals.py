"""Confidence intervals for a parameter bounded to [0, 1].

The default interval inverts the likelihood-ratio test with critical values calibrated
for the bounded parameter space: the *unified approach* of Feldman & Cousins (1998,
Phys. Rev. D 57, 3873), applied to the profile likelihood ratio with the Gaussian
approximation at each candidate value. Near 0 or 1 the ordinary critical value
chi2_1(0.95) = 3.84 over-covers (the estimate piles up on the boundary, where the
likelihood ratio is 0) and Wald under-covers; the calibrated value (2.71 on the
boundary itself, 3.84 far from it) keeps the coverage near its nominal level everywhere.

At ``y = n`` and ``y = 0`` the Gaussian approximation behind the calibration fails (the
information grows without bound as the response probability approaches 0 or 1): at
n = 40, triangular p = 0.1, prevalence 0.95 the interval at ``y = n`` excluded the truth
and the exact coverage fell to 80.9%. There the interval is widened to the exact
one-sided Clopper-Pearson bound (:func:`exact_boundary_bound`) whenever that is looser;
widening only adds prevalences whose probability of ``y = n`` (or 0) is above
``1 - confidence``, so coverage cannot fall and the interval is never tighter than the
exact one (see ``estimate.one_parameter_interval``).

For a candidate value ``theta0`` with standard error ``se0`` (Fisher information with n,
at ``theta0``) the boundaries are ``d_low = theta0/se0`` and ``d_high = (1-theta0)/se0``
standard errors away. With ``x ~ N(0, 1)`` and the bounded estimate ``clip(x, -d_low,
d_high)`` the likelihood-ratio statistic is ``T(x) = x^2 - (x - clip(x))^2``; the critical
value ``c`` solves ``P(T(x) <= c) = confidence``. ``theta0`` is in the interval when the
observed likelihood-ratio statistic is at most ``c(d_low, d_high)``.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Callable

from scipy.optimize import brentq
from scipy.special import ndtr, ndtri


def _acceptance_probability(c: float, d_low: float, d_high: float) -> float:
    """P(T(x) <= c) for x ~ N(0, 1) with boundaries d_low below and d_high above."""
    r = math.sqrt(c)
    if d_low <= 0:
        x_lo = -math.inf
    elif r <= d_low:
        x_lo = -r
    else:
        x_lo = -(c / d_low + d_low) / 2
    if d_high <= 0:
        x_hi = math.inf
    elif r <= d_high:
        x_hi = r
    else:
        x_hi = (c / d_high + d_high) / 2
    return float(ndtr(x_hi) - ndtr(x_lo))


@lru_cache(maxsize=65536)
def _critical_cached(d_low: float, d_high: float, confidence: float) -> float:
    z = float(ndtri(0.5 + confidence / 2))
    if d_low >= z and d_high >= z:
        return z * z
    if d_low <= 0 and d_high <= 0:
        return 0.0
    hi = max(z * z, 1.0)
    while _acceptance_probability(hi, d_low, d_high) < confidence:
        hi *= 2
    return brentq(lambda c: _acceptance_probability(c, d_low, d_high) - confidence, 0.0, hi, xtol=1e-12)


def critical_value(d_low: float, d_high: float, confidence: float) -> float:
    """Feldman-Cousins critical value for the likelihood ratio (see the module docstring).

    ``critical_value(inf, inf, 0.95) = 3.8415`` (chi2_1), ``critical_value(0, inf, 0.95) =
    2.7055`` (chi2_1 at 0.90: half the mass sits on the boundary).
    """
    d_low = 0.0 if not d_low > 0 else min(float(d_low), 1e6)
    d_high = 0.0 if not d_high > 0 else min(float(d_high), 1e6)
    # Rounding the distances makes the cache useful; 1e-4 SE is far below any visible change.
    return _critical_cached(round(d_low, 4), round(d_high, 4), float(confidence))


def invert_test(
    excess: Callable[[float], float], estimate: float, *, lo: float = 0.0, hi: float = 1.0, tol: float = 1e-9
) -> tuple[float, float]:
    """The interval ``{theta in [lo, hi] : excess(theta) <= 0}`` around ``estimate``.

    ``excess(theta)`` is the test statistic minus its critical value (``<= 0`` at the
    estimate). Assumes the acceptance region is an interval (true for the likelihood-ratio
    tests here, whose statistic grows away from the estimate); each end is found by Brent's
    method to ``tol``.
    """
    def edge(outer: float) -> float:
        if outer == estimate or excess(outer) <= 0:
            return outer
        return brentq(excess, outer, estimate, xtol=tol, rtol=1e-12) if outer < estimate else \
            brentq(excess, estimate, outer, xtol=tol, rtol=1e-12)

    return edge(lo), edge(hi)


def exact_boundary_bound(y: float, n: float, confidence: float) -> float | None:
    """Exact one-sided bound for a binomial probability when every or no answer is "yes".

    At ``y = n`` the lower bound is ``lambda_L = (1 - confidence)^(1/n)``; at ``y = 0`` the
    upper bound is ``lambda_U = 1 - (1 - confidence)^(1/n)`` (Clopper & Pearson 1934, one
    sided; for ``y = 0`` the "rule of three" ``lambda_U ~ 3/n`` of Hanley & Lippman-Hand
    1983). Every ``lambda`` beyond the bound gives ``y = n`` (or 0) with probability at most
    ``1 - confidence``, so no interval at the boundary needs to be tighter than it.
    ``None`` for ``0 < y < n``.
    """
    if n <= 0 or 0 < y < n:
        return None
    edge = (1.0 - confidence) ** (1.0 / n)
    return edge if y >= n else 1.0 - edge


def wilson(successes: float, n: float, confidence: float) -> tuple[float, float]:
    """Wilson (1927) score interval for a binomial proportion."""
    if n <= 0:
        return 0.0, 1.0
    z = float(ndtri(0.5 + confidence / 2))
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def wald(estimate: float, se: float, confidence: float, lo: float = 0.0, hi: float = 1.0) -> tuple[float, float]:
    """Wald interval ``estimate +- z se``, intersected with [lo, hi]."""
    z = float(ndtri(0.5 + confidence / 2))
    if not math.isfinite(se):
        return lo, hi
    return max(lo, estimate - z * se), min(hi, estimate + z * se)


def z_value(confidence: float) -> float:
    """Two-sided normal quantile: 1.96 for 0.95."""
    return float(ndtri(0.5 + confidence / 2))


def mover_difference(
    a: float, a_ci: tuple[float, float], b: float, b_ci: tuple[float, float], correlation: float = 0.0
) -> tuple[float, float]:
    """Interval for ``a - b`` from the two intervals (MOVER; Newcombe 1998, Zou & Donner 2008).

    ``[d - sqrt((a-la)^2 + (ub-b)^2), d + sqrt((ua-a)^2 + (b-lb)^2)]``: it inherits the
    boundary behaviour of the single intervals, unlike a Wald interval for the difference.
    For correlated estimates (domains of one complex sample) each square root loses
    ``2 r (a-la)(ub-b)`` (resp. ``2 r (ua-a)(b-lb)``), r the correlation of the two
    estimates (Zou & Donner 2008, *Stat. Med.* 27, 1693, eq. 6).
    """
    d = a - b
    (la, ua), (lb, ub) = a_ci, b_ci
    r = correlation if math.isfinite(correlation) else 0.0
    low = math.sqrt(max((a - la) ** 2 + (ub - b) ** 2 - 2 * r * (a - la) * (ub - b), 0.0))
    high = math.sqrt(max((ua - a) ** 2 + (b - lb) ** 2 - 2 * r * (ua - a) * (b - lb), 0.0))
    return d - low, d + high


# ----------------------------------------------------------------------------- two parameters
#
# For two-group designs the nuisance parameter may sit on its own boundary (SLD with every
# carrier honest, t = 1; CDM without cheaters, gamma = 0), where the one-parameter
# calibration above under-covers. There the critical value comes from the same
# Feldman-Cousins ordering in two dimensions, with the nuisance at its profiled value
# ("profile construction", Cranmer 2005, PHYSTAT; Feldman & Cousins 1998, sec. V): in the
# Gaussian approximation the unconstrained estimate is N(theta0, I^-1) in coordinates where
# the model is affine, and the statistic is T = d^2(x, segment {pi = pi0}) - d^2(x, region)
# in the Fisher metric. Its quantile is taken over a fixed set of normal draws, so the
# interval is deterministic.

_DRAWS = None


def _normal_draws():
    global _DRAWS
    if _DRAWS is None:
        import numpy as np

        # A fixed quasi-random design (not a source of privacy noise): antithetic pairs of
        # a seeded normal sample, so the critical value is reproducible.
        z = np.random.default_rng(20261129).standard_normal((2000, 2))
        _DRAWS = np.vstack([z, -z])
    return _DRAWS


def _segment_dist2(P, a, b):
    import numpy as np

    ab = b - a
    denom = float(ab @ ab)
    if denom <= 0:
        d = P - a
        return np.einsum("ij,ij->i", d, d)
    t = np.clip(((P - a) @ ab) / denom, 0.0, 1.0)
    d = P - (a + t[:, None] * ab)
    return np.einsum("ij,ij->i", d, d)


def _polygon_dist2(P, V):
    """Squared Euclidean distance from points P to the convex polygon V (counter-clockwise)."""
    import numpy as np

    k = len(V)
    inside = np.ones(len(P), bool)
    best = np.full(len(P), np.inf)
    for i in range(k):
        a, b = V[i], V[(i + 1) % k]
        edge = b - a
        cross = edge[0] * (P[:, 1] - a[1]) - edge[1] * (P[:, 0] - a[0])
        inside &= cross >= -1e-12
        best = np.minimum(best, _segment_dist2(P, a, b))
    return np.where(inside, 0.0, best)


def critical_value_2d(info, theta0, polygon, segment, confidence: float) -> float:
    """Critical value of the profile likelihood ratio for the first of two parameters.

    ``info``: Fisher information (2 x 2) at ``theta0`` in affine coordinates;
    ``polygon``: the parameter space (counter-clockwise vertices); ``segment``: its part
    where the first parameter equals ``theta0[0]``. See the comment above.
    """
    import numpy as np

    try:
        R = np.linalg.cholesky(np.asarray(info, float)).T  # info = R' R, det R > 0
    except np.linalg.LinAlgError:
        return z_value(confidence) ** 2
    y0 = R @ np.asarray(theta0, float)
    V = np.asarray(polygon, float) @ R.T
    edges = np.roll(V, -1, axis=0) - V
    lines = np.abs(edges[:, 0] * (y0[1] - V[:, 1]) - edges[:, 1] * (y0[0] - V[:, 0])) / np.hypot(*edges.T)
    if lines.min() > 6.0:  # every boundary more than 6 SE away: the plain chi-square value
        return z_value(confidence) ** 2
    P = y0 + _normal_draws()
    a, b = (np.asarray(s, float) @ R.T for s in segment)
    T = np.maximum(_segment_dist2(P, a, b) - _polygon_dist2(P, V), 0.0)
    k = min(len(T) - 1, int(math.ceil(confidence * len(T))) - 1)
    return float(np.partition(T, k)[k])
