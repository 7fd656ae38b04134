"""Noisy median and other quantiles over a declared grid of candidates.

The exponential mechanism with Smith's (2011) quantile score, as OpenDP implements it
(``make_quantile_score_candidates`` then ``make_noisy_max``; McKenna & Sheldon 2020):
for alpha = p/q in lowest terms and candidate c,

    score(c) = | (q - p) * #{x < c}  -  p * #{x > c} |,

and the candidate with the lowest noisy score is reported. Adding or removing one row
changes each score by at most D = max(p, q - p) (for the median, alpha = 1/2, D = 1).
The scores are computed here from the sorted values (exact integers, O(n log n)), checked
against OpenDP's own transformation in the tests, and the selection is OpenDP's
``make_noisy_max(..., negate=True)`` on its CSPRNG with scale 2D/epsilon, whose privacy map
OpenDP reports as epsilon (pure epsilon-DP). By subgroup, the groups are disjoint, so one
epsilon covers all of them (parallel composition; McSherry 2009).

Candidates are public: declare a grid such as every year of age, or 0, 5, ..., 100.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np

from dpdesk.errors import DataError
from dpdesk.mechanisms.accounting import NoiseParameterError, PureDP, as_fraction
from dpdesk.mechanisms.central.noise import _opendp, opendp_scale
from dpdesk.mechanisms.central.release import Release
from dpdesk.mechanisms.central.tabulate import _keys, codes

__all__ = ["quantile", "median", "quantile_scores"]


def _alpha(alpha) -> Fraction:
    a = as_fraction(alpha, "alpha")
    if not 0 <= a <= 1:
        raise NoiseParameterError(f"alpha must be between 0 and 1 (0.5 = median); got {alpha!r}.")
    return a


def _candidates(candidates) -> np.ndarray:
    c = np.asarray(candidates, dtype=float).reshape(-1)
    if c.size < 1 or not np.all(np.isfinite(c)) or np.any(np.diff(c) <= 0):
        raise NoiseParameterError("candidates must be finite, increasing numbers (a declared "
                                  "grid such as range(0, 101)).")
    return c


def quantile_scores(values, candidates, alpha) -> np.ndarray:
    """Smith's score |(q-p) #{x<c} - p #{x>c}| for each candidate (alpha = p/q), as int64."""
    a = _alpha(alpha)
    p, q = a.numerator, a.denominator
    c = _candidates(candidates)
    x = np.sort(np.asarray(values, dtype=float).reshape(-1))
    lt = np.searchsorted(x, c, side="left").astype(np.int64)
    gt = x.size - np.searchsorted(x, c, side="right").astype(np.int64)
    return np.abs((q - p) * lt - p * gt)


@functools.lru_cache(maxsize=64)
def _noisy_min(scale: float):
    dp = _opendp()
    space = dp.vector_domain(dp.atom_domain(T=dp.u64)), dp.linf_distance(T=dp.u64)
    return dp.m.make_noisy_max(*space, dp.max_divergence(), scale=scale, negate=True)


def quantile(values, candidates, alpha=0.5, *, epsilon, by=None, by_keys=None,
             check=None) -> Release:
    """Noisy alpha-quantile of ``values`` among the declared ``candidates`` (epsilon-DP).

    Returns a Release whose ``noisy`` holds the index of the chosen candidate (one per
    subgroup with ``by``/``by_keys``) and ``estimate`` the candidate value itself.
    """
    x = np.asarray(values, dtype=float).reshape(-1)
    bad = ~np.isfinite(x)
    if bad.any():
        i = int(np.argmax(bad))
        raise DataError(f"Value {i} (row {i + 1}) is {x[i].item()!r}: drop or impute missing values "
                        "before a quantile.")
    cands = _candidates(candidates)
    a = _alpha(alpha)
    d = max(a.numerator, a.denominator - a.numerator)
    eps = as_fraction(epsilon, "epsilon")
    if eps <= 0:
        raise NoiseParameterError(f"epsilon must be positive; got {epsilon!r}.")
    if by is None:
        groups, keys = [x], ((),)
    else:
        ks = _keys(by_keys, "subgroup keys")
        g = codes(by, ks)
        if g.size != x.size:
            raise DataError(f"by= has {g.size} rows but the values have {x.size}.")
        groups, keys = [x[g == i] for i in range(len(ks))], (ks,)
    scores = [quantile_scores(v, cands, a) for v in groups]
    idx, events, scale = noisy_min_indices(scores, d, eps, check)
    return Release("quantile", keys, idx, events, "noisy max", scale, Fraction(d),
                   Fraction(1), {"candidates": cands.tolist(), "alpha": a})


def noisy_min_indices(scores, sensitivity, eps, check):
    """The candidate each group's scores pick by OpenDP's report-noisy-min with scale 2 d / eps (exponential
    mechanism on the scores), after OpenDP's privacy map is checked and ``check(events)`` accepted: (indices,
    events, scale). Shared by imported data (:func:`quantile`) and linked data's exact scores."""
    scale = 2 * sensitivity / eps
    meas = _noisy_min(opendp_scale(scale))
    if meas.map(sensitivity) > float(eps) * (1 + 1e-12):  # OpenDP's own privacy map, as a guard
        raise NoiseParameterError("OpenDP reports a larger epsilon than planned; refusing.")
    events = (PureDP(eps),)
    if check is not None:
        check(events)
    return np.array([int(meas([int(s) for s in sc])) for sc in scores], dtype=np.int64), events, scale


def median(values, candidates, *, epsilon, by=None, by_keys=None, check=None) -> Release:
    """Noisy median: :func:`quantile` with alpha = 1/2 (score sensitivity 1)."""
    return quantile(values, candidates, Fraction(1, 2), epsilon=epsilon, by=by,
                    by_keys=by_keys, check=check)
