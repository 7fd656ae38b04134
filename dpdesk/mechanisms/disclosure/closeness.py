"""t-closeness: how far each class's distribution of a sensitive column is from the file's.

Li, Li & Venkatasubramanian (2007) measure the distance with the earth mover's distance
(EMD), the least work to move one distribution's mass into the other's shape, where
moving mass between values i and j costs their ground distance:

* ordered distance (ordinal or numeric columns; values ranked 0..m-1):
  ``|i - j| / (m - 1)``, so ``EMD = (1 / (m - 1)) * sum_i |sum_{j<=i} (p_j - q_j)|``;
* equal distance (nominal columns): every pair costs 1, so ``EMD = (1/2) sum_i |p_i - q_i|``
  (the total variation distance).

A class is t-close when its EMD to the whole file is at most t. The seed example: on
1..5, mass 0.8 at 1 and 0.05 elsewhere, against the same shape at 2 and at 5, gives
0.75 and 3 in steps of one value (``normalise=False``), 0.1875 and 0.75 normalised.

Li, N., Li, T., Venkatasubramanian, S. (2007). t-Closeness: privacy beyond k-anonymity
and l-diversity. Proceedings of the 23rd IEEE ICDE, 106-115.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dpdesk.errors import DataError
from dpdesk.mechanisms.disclosure.classes import Classes
from dpdesk.mechanisms.disclosure.diversity import class_value_counts


def _distributions(p, q) -> tuple[np.ndarray, np.ndarray]:
    p = np.asarray(p, dtype=np.float64)
    q = np.asarray(q, dtype=np.float64)
    if p.shape != q.shape or p.ndim != 1:
        raise DataError(f"The two distributions must have the same number of values ({p.size} and {q.size}).")
    for name, d in (("first", p), ("second", q)):
        if (d < 0).any() or abs(d.sum() - 1.0) > 1e-9:
            raise DataError(f"The {name} distribution must be non-negative and sum to 1 (sums to {d.sum():g}).")
    return p, q


def emd_ordered(p, q, *, normalise: bool = True) -> float:
    """EMD between distributions over ordered values 0..m-1 (ground distance |i-j|, over m-1 if normalised)."""
    p, q = _distributions(p, q)
    work = float(np.abs(np.cumsum(p - q)[:-1]).sum())
    return work / (p.size - 1) if normalise and p.size > 1 else work


def emd_equal(p, q) -> float:
    """EMD between distributions over nominal values (equal ground distance 1): half the L1 distance."""
    p, q = _distributions(p, q)
    return 0.5 * float(np.abs(p - q).sum())


def _ordered_work(cls, val, p, q, n: int, m: int) -> np.ndarray:
    """Per class, ``sum_{i<m-1} |F_P(i) - F_Q(i)|`` without a class-by-value matrix.

    Within a class, F_P is constant (``c``) between consecutive values present, so each
    segment [a, b) contributes ``sum_i |c - F_Q(i)|``, which splits where the monotone
    F_Q crosses c: ``c (s - a) - (S_s - S_a) + (S_b - S_s) - c (b - s)``, with ``S`` the
    prefix sums of F_Q. O(pairs log m) for any number of values (incomes, dates).
    """
    fq = np.cumsum(q)
    prefix = np.concatenate(([0.0], np.cumsum(fq)))  # prefix[i] = sum_{j<i} F_Q(j)
    cp = np.cumsum(p)
    first = np.r_[True, cls[1:] != cls[:-1]]
    last = np.r_[cls[1:] != cls[:-1], True]
    offset = np.repeat(cp[first] - p[first], np.diff(np.r_[np.flatnonzero(first), cls.size]))
    c = cp - offset  # F_P at each present value of its class
    a = val
    b = np.where(last, m - 1, np.r_[val[1:], 0])
    b = np.maximum(a, b)
    s = np.clip(np.searchsorted(fq, c, side="left"), a, b)
    seg = c * (s - a) - (prefix[s] - prefix[a]) + (prefix[b] - prefix[s]) - c * (b - s)
    work = np.bincount(cls, weights=seg, minlength=n)
    work[cls[first]] += prefix[val[first]]  # before a class's first value F_P = 0
    return work


@dataclass
class TCloseness:
    """``distance[c]``: class c's EMD to the file (normalised to 0..1); ``at_risk``: records of classes above t."""

    t: float | None
    ordered: bool
    distance: np.ndarray
    at_risk: np.ndarray

    @property
    def largest(self) -> float:
        known = self.distance[~np.isnan(self.distance)]
        return float(known.max()) if known.size else 0.0

    @property
    def n_at_risk(self) -> int:
        return int(self.at_risk.sum())

    @property
    def passes(self) -> bool:
        return self.n_at_risk == 0


def t_closeness(classes: Classes, codes, *, ordered: bool, t: float | None = None) -> TCloseness:
    """EMD of each class's distribution of ``codes`` to the whole file's (see module docstring).

    For ``ordered=True`` the codes must be the ranks of the values (0 = smallest). Missing
    values (negative codes) are left out of both distributions; a class with none known
    gets NaN. With ``t`` given, ``at_risk`` marks the records of classes farther than t.
    """
    if t is not None and not 0 <= t <= 1:
        raise DataError(f"t must be between 0 and 1 (got {t!r}); 0.2 is a common choice.")
    cls, val, counts, m = class_value_counts(classes, codes)
    n = classes.n_classes
    distance = np.full(n, np.nan)
    if m:
        q = np.bincount(val, weights=counts, minlength=m)
        q = q / q.sum()
        totals = np.bincount(cls, weights=counts, minlength=n)
        p = counts / totals[cls]
        has = totals > 0
        if not ordered:  # sparse: absent values contribute q_i each
            l1 = np.bincount(cls, weights=np.abs(p - q[val]), minlength=n)
            covered = np.bincount(cls, weights=q[val], minlength=n)
            distance[has] = 0.5 * (l1 + 1.0 - covered)[has]
        elif m == 1:
            distance[has] = 0.0
        else:
            work = _ordered_work(cls, val, p, q, n, m)
            distance[has] = (work / (m - 1))[has]
    at_risk = np.zeros(classes.n_records, dtype=bool)
    if t is not None:
        with np.errstate(invalid="ignore"):
            at_risk = (distance > t + 1e-12)[classes.labels]
    return TCloseness(t=t, ordered=ordered, distance=distance, at_risk=at_risk)
