"""Accuracy of discrete noise from public parameters only (no data is touched).

Half-widths are integers a such that P(|Z| <= a) >= confidence, computed from the exact
discrete distributions (not the continuous formulas):

- discrete Laplace, scale b, q = exp(-1/b): P(Z = k) = (1-q)/(1+q) q^|k|, so
  P(|Z| > k) = 2 q^(k+1) / (1+q) exactly (geometric series; Inusah & Kozubowski 2006).
- discrete Gaussian, sigma: P(Z = k) = exp(-k^2/(2 sigma^2)) / N. For sigma <= 2000 the pmf
  is summed numerically; above, the tail sum and N are bounded by integrals of the
  monotone summand (sum_{k>a} <= int_a^inf, N >= sigma sqrt(2 pi) ... see ``_dg_tail``),
  which can only overstate the half-width.

A table of m cells with independent noise is covered simultaneously (all m cells within
+-a) with probability c when each cell is covered with probability c^(1/m).
Half-widths are in the integer units the noise is added in (counts, or grid units of a
sum: multiply by the resolution for the value scale).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from dpdesk.mechanisms.central.noise import NoiseParameterError, as_fraction

__all__ = [
    "laplace_tail", "gaussian_tail", "laplace_half_width", "gaussian_half_width",
    "laplace_scale_for_accuracy", "epsilon_for_accuracy", "gaussian_sigma_for_accuracy",
    "cell_level",
]

_DIRECT_SIGMA = 2000.0


def cell_level(confidence, cells: int = 1) -> float:
    """Per-cell miss probability 1 - c^(1/m) for simultaneous coverage c over m cells."""
    c = float(as_fraction(confidence, "confidence"))
    if not 0 < c < 1:
        raise NoiseParameterError(f"confidence must be between 0 and 1; got {confidence!r}.")
    if int(cells) != cells or cells < 1:
        raise NoiseParameterError(f"cells must be a positive whole number; got {cells!r}.")
    return -math.expm1(math.log(c) / int(cells))


def laplace_tail(k: int, scale) -> float:
    """P(|Z| > k) for discrete Laplace noise of this scale: 2 q^(k+1) / (1+q), q = e^(-1/b)."""
    b = float(as_fraction(scale, "scale"))
    if k < 0:
        return 1.0
    return 2.0 * math.exp(-(k + 1) / b) / (1.0 + math.exp(-1.0 / b))


def laplace_half_width(scale, confidence=0.95, cells: int = 1) -> int:
    """Smallest integer a with P(all ``cells`` noises within +-a) >= confidence (Laplace)."""
    t = cell_level(confidence, cells)
    b = float(as_fraction(scale, "scale"))
    if b <= 0:
        raise NoiseParameterError(f"scale must be positive; got {scale!r}.")
    q = math.exp(-1.0 / b)
    a = max(0, math.ceil(b * math.log(2.0 / (t * (1.0 + q))) - 1.0))
    while a > 0 and laplace_tail(a - 1, b) <= t:
        a -= 1
    while laplace_tail(a, b) > t:
        a += 1
    return a


def laplace_scale_for_accuracy(half_width: int, confidence=0.95, cells: int = 1) -> Fraction:
    """Largest discrete Laplace scale (5 significant digits, rounded down) meeting the target."""
    return _largest_scale(laplace_tail, half_width, confidence, cells, lo=1e-9, rtol=1e-9)


def epsilon_for_accuracy(half_width: int, confidence=0.95, cells: int = 1,
                         sensitivity=1) -> Fraction:
    """Epsilon a Laplace release needs for the target: D / scale, scale from above."""
    d = as_fraction(sensitivity, "sensitivity")
    return d / laplace_scale_for_accuracy(half_width, confidence, cells)


def _dg_tail(a: int, sigma: float) -> float:
    """An upper bound on P(|Z| > a) for the discrete Gaussian (exact sum when sigma <= 2000)."""
    if a < 0:
        return 1.0
    if sigma <= _DIRECT_SIGMA:
        k_max = int(math.ceil(sigma * math.sqrt(2 * 745))) + 2
        k = np.arange(0, k_max + 1, dtype=np.float64)
        w = np.exp(-(k * k) / (2.0 * sigma * sigma))
        norm = w[0] + 2.0 * w[1:].sum()
        return float(min(1.0, 2.0 * w[a + 1:].sum() / norm))
    # Monotone summand f(x) = exp(-x^2/(2 sigma^2)): sum_{k>a} f(k) <= int_a^inf f, and
    # N = 1 + 2 sum_{k>=1} f(k) >= 1 + 2 int_1^inf f.
    s = sigma * math.sqrt(math.pi / 2.0)
    tail = s * math.erfc(a / (sigma * math.sqrt(2.0)))
    norm = 1.0 + 2.0 * s * math.erfc(1.0 / (sigma * math.sqrt(2.0)))
    return min(1.0, 2.0 * tail / norm)


def gaussian_tail(k: int, sigma) -> float:
    """P(|Z| > k) for discrete Gaussian noise (an upper bound for sigma > 2000)."""
    return _dg_tail(int(k), float(as_fraction(sigma, "sigma")))


def gaussian_half_width(sigma, confidence=0.95, cells: int = 1) -> int:
    """Smallest integer a with P(all ``cells`` noises within +-a) >= confidence (Gaussian)."""
    t = cell_level(confidence, cells)
    s = float(as_fraction(sigma, "sigma"))
    if s <= 0:
        raise NoiseParameterError(f"sigma must be positive; got {sigma!r}.")
    if s <= _DIRECT_SIGMA:
        k_max = int(math.ceil(s * math.sqrt(2 * 745))) + 2
        k = np.arange(0, k_max + 1, dtype=np.float64)
        w = np.exp(-(k * k) / (2.0 * s * s))
        norm = w[0] + 2.0 * w[1:].sum()
        # tails[a] = P(|Z| > a) = 2 sum_{k > a} w_k / N
        rev = np.cumsum(w[::-1])[::-1]
        tails = 2.0 * np.append(rev[1:], 0.0) / norm
        return int(np.argmax(tails <= t))
    lo, hi = 0, max(1, int(s))
    while _dg_tail(hi, s) > t:
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _dg_tail(mid, s) <= t:
            hi = mid
        else:
            lo = mid
    return hi if _dg_tail(lo, s) > t else lo


def gaussian_sigma_for_accuracy(half_width: int, confidence=0.95, cells: int = 1) -> Fraction:
    """Largest discrete Gaussian sigma (5 significant digits, rounded down) meeting the target.

    Its privacy cost at a delta is ``accounting.epsilon([Gaussian(sigma, D)], delta)``;
    its zCDP rho is D^2 / (2 sigma^2).
    """
    return _largest_scale(_dg_tail, half_width, confidence, cells, lo=1e-6, rtol=1e-7)


def _largest_scale(tail, half_width, confidence, cells, *, lo: float, rtol: float) -> Fraction:
    """Largest scale with ``tail(half_width, scale)`` within the per-cell level (geometric bisection)."""
    a = _half_width_arg(half_width)
    t = cell_level(confidence, cells)
    hi = 1.0
    while tail(a, hi) <= t:
        lo, hi = hi, hi * 2
    while hi / lo > 1 + rtol:
        mid = math.sqrt(lo * hi)
        if tail(a, mid) <= t:
            lo = mid
        else:
            hi = mid
    return _round_down_sig(lo)


def _half_width_arg(half_width) -> int:
    if int(half_width) != half_width or half_width < 0:
        raise NoiseParameterError(
            f"half_width must be a whole number >= 0 (in count or grid units); got {half_width!r}.")
    return int(half_width)


def _round_down_sig(x: float, digits: int = 5) -> Fraction:
    fx = Fraction(x)
    exp = math.floor(math.log10(x)) - digits + 1
    step = Fraction(10) ** exp
    return math.floor(fx / step) * step
