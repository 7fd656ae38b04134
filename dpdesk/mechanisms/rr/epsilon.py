"""The local-DP epsilon of a response matrix (``max_r ln(max_s P[r,s] / min_s P[r,s])``) and of a
unary design whose respondents may tick any set of categories. Used by :class:`rr.Design`."""

from __future__ import annotations

import math

import numpy as np


def log_ratio(a: float, b: float) -> float:
    if a <= 0:
        return -math.inf if b > 0 else 0.0
    if b <= 0:
        return math.inf
    return math.log(a / b)


def matrix_epsilon(matrix: np.ndarray) -> float:
    """``max_r ln(max_s P[r,s] / min_s P[r,s])``; ``inf`` if some row has a zero beside a non-zero."""
    eps = 0.0
    for row in np.asarray(matrix, dtype=float):
        hi, lo = row.max(), row.min()
        if hi <= 0:
            continue
        if lo <= 0:
            return math.inf
        eps = max(eps, math.log(hi / lo))
    return eps


def unary_multiselect_epsilon(d) -> float:
    """Epsilon of a unary design when any set of categories may be ticked (every bit may change)."""
    bit = d.matrix
    per_bit = max(abs(log_ratio(bit[b, 1], bit[b, 0])) for b in range(2))
    return len(d.categories) * per_bit
