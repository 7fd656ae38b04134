"""Intervals for ratios of two noisy releases: a released mean (noisy sum / noisy count).

A mean is released as a noisy sum ``s = S + Z1`` and a noisy count ``n = N + Z2`` with
independent discrete Laplace or discrete Gaussian noise (:mod:`.numeric`). Its interval
has to account for both noises. dpdesk uses a conservative, distribution-free
construction from the exact noise quantiles:

1. **Union bound (Bonferroni).** Each release gets half of the miss probability: with
   ``alpha = 1 - confidence`` and ``m`` groups, the sum's half-width ``a`` is the exact
   discrete-noise quantile with P(all m sum noises within +-a) >= 1 - alpha/2, the count's
   ``b`` likewise (:func:`.accuracy.laplace_half_width` / :func:`.accuracy.gaussian_half_width`,
   exact tail sums). Then P(every S in [s-a, s+a] and every N in [n-b, n+b]) >= 1 - alpha
   whatever the dependence (Bonferroni's inequality; e.g. Casella & Berger 2002,
   *Statistical Inference*, 2nd ed., thm. 1.2.11).
2. **Interval arithmetic.** On that event, and with N >= 1, the true mean S/N lies in the
   range of x/y over the box [s-a, s+a] x [max(1, n-b), n+b]. x/y is monotone in x and, for
   y > 0, in y, so the range is spanned by the four corners (Moore, Kearfott & Cloud 2009,
   *Introduction to Interval Analysis*, SIAM, sec. 2.3, division of intervals).
3. **Clipping.** The true mean of values clipped to [lower, upper] lies in [lower, upper],
   so the interval is intersected with the bounds (free post-processing: Dwork & Roth 2014,
   prop. 2.1). When the count's interval reaches below one respondent, the divisor's
   lower end is 1 (a group's true count is a whole number >= 1) and ``unbounded`` says
   that the interval is then mostly the bounds' doing.

The coverage is at least ``confidence`` for every group at once, for the mean of the
values *after* clipping to the bounds and rounding to the resolution (what was summed).
It is conservative: no normal approximation (a delta-method interval can undercover when
the noisy count is small), at the price of some width. The same function serves any other
ratio of two noisy releases (a share of a noisy total).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from dpdesk.mechanisms import accounting
from dpdesk.mechanisms.central import accuracy as acc
from dpdesk.mechanisms.central.noise import NoiseParameterError, as_fraction

__all__ = ["RatioInterval", "noise_half_width", "ratio_interval", "mean_intervals", "half_widths_of", "METHOD"]

METHOD = ("union bound over the sum's and the count's exact noise quantiles (half the miss probability "
          "each), then interval division (Moore, Kearfott & Cloud 2009), clipped to the bounds")


@dataclass(frozen=True)
class RatioInterval:
    """One ratio's interval: ``low``..``high`` and whether the bounds alone limit it."""

    estimate: float
    low: float
    high: float
    unbounded: bool = False


def noise_half_width(event, confidence, cells: int = 1) -> int:
    """Half-width (in noise units) covering all ``cells`` noises of ``event`` at once."""
    if isinstance(event, accounting.Laplace):
        return acc.laplace_half_width(event.scale, confidence, cells)
    if isinstance(event, accounting.Gaussian):
        return acc.gaussian_half_width(event.sigma, confidence, cells)
    raise NoiseParameterError(f"No additive noise to give an interval for: {event!r}.")


def ratio_interval(numerator: float, num_half: float, denominator: float, den_half: float,
                   lower=None, upper=None, *, estimate: float | None = None) -> RatioInterval:
    """The range of x / y over x in numerator +- num_half and y in denominator +- den_half.

    The true denominator is a count, so y >= 1. ``lower``/``upper`` (optional) clip the
    result (a mean of clipped values lies within them); when even ``denominator +
    den_half`` is below 1 only the bounds limit it (without bounds: -inf to inf).
    """
    if num_half < 0 or den_half < 0:
        raise NoiseParameterError("Half-widths must be 0 or more.")
    lo_b = None if lower is None else float(as_fraction(lower, "lower bound"))
    hi_b = None if upper is None else float(as_fraction(upper, "upper bound"))
    y_lo, y_hi = max(1.0, denominator - den_half), denominator + den_half
    if estimate is None:
        estimate = numerator / max(denominator, 1.0)
    if y_hi < 1.0:  # even the largest plausible count is below one respondent
        low, high, unbounded = -float("inf"), float("inf"), True
    else:
        unbounded = denominator - den_half < 1.0  # the count may be as small as one
        corners = [x / y for x in (numerator - num_half, numerator + num_half) for y in (y_lo, y_hi)]
        low, high = min(corners), max(corners)
    if lo_b is not None:
        low, high = max(low, lo_b), max(high, lo_b)
    if hi_b is not None:
        low, high = min(low, hi_b), min(high, hi_b)
    return RatioInterval(float(estimate), float(low), float(high), bool(unbounded))


def mean_intervals(noisy_sums: Sequence[float], sum_event, noisy_counts: Sequence[float], count_event,
                   confidence, lower, upper, resolution=1,
                   estimates: Sequence[float] | None = None) -> list[RatioInterval]:
    """Intervals of released means, all groups at once with probability >= ``confidence``.

    ``noisy_sums`` are in value units (grid sum times ``resolution``); ``sum_event`` and
    ``count_event`` are the two releases' accounting events (scale in grid units and counts).
    """
    c = as_fraction(confidence, "confidence")
    if not 0 < c < 1:
        raise NoiseParameterError(f"confidence must be between 0 and 1; got {confidence!r}.")
    m = len(noisy_sums)
    if m != len(noisy_counts) or m == 0:
        raise NoiseParameterError("Give one noisy sum per noisy count.")
    each = 1 - (1 - c) / 2  # union bound: half the miss probability to each release
    r = float(as_fraction(resolution, "resolution"))
    a = noise_half_width(sum_event, each, m) * r
    b = noise_half_width(count_event, each, m)
    est = list(estimates) if estimates is not None else [None] * m
    return [ratio_interval(float(s), a, float(n), float(b), lower, upper, estimate=e)
            for s, n, e in zip(noisy_sums, noisy_counts, est)]


def half_widths_of(events: Sequence, confidence, cells: int, resolution=1) -> tuple[float, float]:
    """(sum half-width in value units, count half-width) used by :func:`mean_intervals`."""
    each = 1 - (1 - as_fraction(confidence, "confidence")) / 2
    return (noise_half_width(events[0], each, cells) * float(Fraction(resolution)),
            float(noise_half_width(events[1], each, cells)))
