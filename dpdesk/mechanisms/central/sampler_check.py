"""Do OpenDP's samplers follow their documented distributions? A chi-square goodness-of-fit check.

Draw ``n`` noise values (noise on a vector of zeros) and compare their histogram with the
exact probability mass function:

- discrete Laplace, scale b:  P(Z = k) = tanh(1/(2b)) exp(-|k|/b)
  (two-sided geometric; Ghosh, Roughgarden & Sundararajan 2012; Canonne, Kamath & Steinke
  2020, section 2);
- discrete Gaussian, sigma s: P(Z = k) = exp(-k^2/(2 s^2)) / sum_j exp(-j^2/(2 s^2))
  (Canonne, Kamath & Steinke 2020, definition 1).

Bins. Each integer whose expected count is at least ``min_expected`` (50) is a bin of its own
(w neighbours to a bin at scales where there would be more than 60 such bins); the two outer
bins hold the merged tails (-inf, a] and [b, inf), merged further until their expected counts
are at least ``min_expected`` too.

Statistic and threshold. Pearson's X^2 = sum (O - E)^2 / E is asymptotically chi-square with
(bins - 1) degrees of freedom for a correct sampler (Pearson 1900; Cochran 1952 for the rule
that expected counts be large). The check fails when X^2 exceeds the (1 - alpha) quantile, so
a correct sampler fails with probability alpha. ``make test`` runs ``CHECKS`` (eight checks) at
alpha = 1e-7 each: by the union bound a correct OpenDP fails the whole test with probability
below 1e-6.

Power. A wrong sampler with per-draw non-centrality lambda_1 = sum (p_i - q_i)^2 / q_i gives X^2
about non-central chi-square with lambda = n * lambda_1. OpenDP 0.12's discrete Laplace
showed X^2 = 1072 on 26 df over 1M draws (lambda_1 about 1.05e-3): see :func:`power`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

__all__ = ["CHECKS", "ALPHA", "CheckResult", "exact_pmf", "bins_for", "chi_square", "check_sampler", "power"]

#: The (distribution, scale) pairs checked by the test suite and benchmarks/samplers.py.
#: OpenDP 0.12.0-0.14.1 pass at dyadic scales (0.5, 1, 2 for Laplace) and fail at 3 and 5.
CHECKS: tuple[tuple[str, float], ...] = (
    ("laplace", 1.0), ("laplace", 3.0), ("laplace", 5.0), ("laplace", 40.0),
    ("gaussian", 1.0), ("gaussian", 2.0), ("gaussian", 5.0), ("gaussian", 40.0),
)
#: Per-check false-failure probability; len(CHECKS) * ALPHA < 1e-6.
ALPHA = 1e-7


def exact_pmf(kind: str, scale: float, support: np.ndarray) -> np.ndarray:
    """P(Z = k) for each k in ``support`` (kind "laplace": scale b; "gaussian": sigma)."""
    k = np.asarray(support, dtype=float)
    if kind == "laplace":
        return math.tanh(1.0 / (2.0 * scale)) * np.exp(-np.abs(k) / scale)
    if kind == "gaussian":
        reach = int(math.ceil(12 * scale)) + 2  # exp(-72): far below float resolution of the sum
        j = np.arange(-reach, reach + 1, dtype=float)
        norm = math.fsum(np.exp(-(j * j) / (2.0 * scale * scale)))
        return np.exp(-(k * k) / (2.0 * scale * scale)) / norm
    raise ValueError(f"unknown distribution {kind!r}; use 'laplace' or 'gaussian'")


def _reach(kind: str, scale: float) -> int:
    """An integer R with P(|Z| > R) below 1e-18 (the support the bins are built over)."""
    return int(math.ceil((42 * scale) if kind == "laplace" else (10 * scale))) + 2


def bins_for(kind: str, scale: float, n: int, max_bins: int = 60, min_expected: float = 50.0):
    """Bin edges and exact bin probabilities for ``n`` draws.

    Returns (upper, probs): bin 0 is (-inf, upper[0]], bin i holds (upper[i-1], upper[i]], the
    last bin is (upper[-1], inf). The integers whose own expected count is >= min_expected each
    get a bin (grouped w at a time when there are more than max_bins of them); the tails beyond
    are merged, and merged further until every expected count is >= min_expected.
    """
    reach = _reach(kind, scale)
    support = np.arange(-reach, reach + 1)
    pmf = exact_pmf(kind, scale, support)
    cdf = np.cumsum(pmf)
    cdf /= cdf[-1]  # the part beyond +-reach is below 1e-18
    centre = support[n * pmf >= min_expected]
    c = int(centre.max()) if centre.size else 0
    width = max(1, math.ceil((2 * c + 1) / max_bins))
    upper = list(range(-c - 1, c, width)) + [c]
    probs = _probs(cdf, support, upper)
    while len(probs) > 2 and n * probs[0] < min_expected:
        upper.pop(0)
        probs = _probs(cdf, support, upper)
    while len(probs) > 2 and n * probs[-1] < min_expected:
        upper.pop()
        probs = _probs(cdf, support, upper)
    return np.asarray(upper, dtype=np.int64), probs


def _probs(cdf: np.ndarray, support: np.ndarray, upper: Sequence[int]) -> np.ndarray:
    at = np.searchsorted(support, np.asarray(upper, dtype=np.int64))
    below = np.concatenate([[0.0], cdf[at], [1.0]])
    return np.diff(below)


@dataclass(frozen=True)
class CheckResult:
    kind: str
    scale: float
    n: int
    statistic: float
    df: int
    threshold: float
    p_value: float

    @property
    def passed(self) -> bool:
        return self.statistic <= self.threshold

    def __str__(self) -> str:
        verdict = "ok" if self.passed else "FAILS"
        return (f"{self.kind:8s} scale {self.scale:g}: X^2 = {self.statistic:.1f} on {self.df} df "
                f"(threshold {self.threshold:.1f}, p = {self.p_value:.2g}) over {self.n:,} draws: {verdict}")


def chi_square(draws: np.ndarray, kind: str, scale: float, alpha: float = ALPHA) -> CheckResult:
    """Pearson's X^2 of ``draws`` against the exact pmf, with the (1 - alpha) threshold."""
    from scipy.stats import chi2

    draws = np.asarray(draws, dtype=np.int64).ravel()
    n = draws.size
    upper, probs = bins_for(kind, scale, n)
    observed = np.bincount(np.searchsorted(upper, draws, side="left"), minlength=len(probs))
    expected = n * probs
    statistic = float(np.sum((observed - expected) ** 2 / expected))
    df = len(probs) - 1
    return CheckResult(kind, float(scale), n, statistic, df, float(chi2.isf(alpha, df)), float(chi2.sf(statistic, df)))


def check_sampler(kind: str, scale: float, n: int, draw: Callable[[np.ndarray, float], np.ndarray] | None = None,
                  alpha: float = ALPHA) -> CheckResult:
    """Draw ``n`` values of noise with dpdesk's own path (``noise.laplace_counts`` /
    ``gaussian_counts`` on zeros, or ``draw(zeros, scale)``) and check them."""
    if draw is None:
        from dpdesk.mechanisms.central import noise

        draw = noise.laplace_counts if kind == "laplace" else noise.gaussian_counts
    return chi_square(draw(np.zeros(n, dtype=np.int64), scale), kind, scale, alpha)


def power(noncentrality_per_draw: float, n: int, df: int, alpha: float = ALPHA) -> float:
    """Probability that the check catches a sampler with that per-draw non-centrality."""
    from scipy.stats import chi2, ncx2

    return float(ncx2.sf(chi2.isf(alpha, df), df, noncentrality_per_draw * n))
