"""l-diversity of a sensitive column within each equivalence class.

k-anonymity hides who a record belongs to, not what it says: when every record of a
class has the same sensitive value, knowing someone's class reveals it (the homogeneity
attack). A class is *distinct l-diverse* when it holds at least l different sensitive
values, and *entropy l-diverse* when ``H = -sum_s p(s) log p(s) >= log l`` over the
class's distribution p; its entropy l is therefore ``exp(H)`` (Machanavajjhala, Kifer,
Gehrke & Venkitasubramaniam 2007, definitions 3.1 and 4.1). Missing sensitive values
(negative codes) are left out of a class's distribution; a class with none known gets
distinct l = 0 and entropy l = NaN and is left out of the file's minimum.

Machanavajjhala, A., Kifer, D., Gehrke, J., Venkitasubramaniam, M. (2007). l-diversity:
privacy beyond k-anonymity. ACM Transactions on Knowledge Discovery from Data 1(1), 3.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dpdesk.errors import DataError
from dpdesk.mechanisms.disclosure.classes import Classes


def _codes(classes: Classes, codes) -> np.ndarray:
    s = np.asarray(codes)
    if s.ndim != 1 or s.size != classes.n_records:
        raise DataError(f"The sensitive column has {s.size} values but the file has {classes.n_records} records.")
    if not np.issubdtype(s.dtype, np.integer):
        raise DataError(f"The sensitive column is not integer codes ({s.dtype}). Code the values first.")
    return s.astype(np.int64, copy=False)


def class_value_counts(classes: Classes, codes) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """``(class, value, count, m)`` for every (class, known value) pair present, sorted by class.

    ``m`` is one more than the largest value code.
    """
    s = _codes(classes, codes)
    known = s >= 0
    v = s[known]
    if v.size == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, 0
    m = int(v.max()) + 1
    key = classes.labels[known] * m + v
    pairs, counts = np.unique(key, return_counts=True)
    return pairs // m, pairs % m, counts.astype(np.int64), m


@dataclass
class LDiversity:
    """Per class: ``distinct`` values and ``entropy_l = exp(H)``; per record: ``at_risk`` (distinct < l)."""

    l: int
    distinct: np.ndarray
    entropy_l: np.ndarray
    at_risk: np.ndarray

    @property
    def smallest_distinct(self) -> int:
        known = self.distinct[self.distinct > 0]
        return int(known.min()) if known.size else 0

    @property
    def smallest_entropy_l(self) -> float:
        known = self.entropy_l[~np.isnan(self.entropy_l)]
        return float(known.min()) if known.size else float("nan")

    @property
    def n_at_risk(self) -> int:
        return int(self.at_risk.sum())

    @property
    def passes(self) -> bool:
        return self.n_at_risk == 0


def l_diversity(classes: Classes, codes, l: int = 2, *, entropy: bool = False) -> LDiversity:
    """Distinct and entropy l of ``codes`` (the sensitive column) in each class.

    ``at_risk`` marks the records of classes below ``l``: by distinct values, or by
    entropy l when ``entropy=True``. Classes with no known value are never at risk.
    """
    if int(l) != l or l < 1:
        raise DataError(f"l must be a whole number of at least 1 (got {l!r}); 2 or 3 is usual.")
    cls, _, counts, _ = class_value_counts(classes, codes)
    n = classes.n_classes
    distinct = np.bincount(cls, minlength=n).astype(np.int64)
    totals = np.bincount(cls, weights=counts, minlength=n)
    p = counts / totals[cls] if cls.size else np.zeros(0)
    h = -np.bincount(cls, weights=p * np.log(p), minlength=n) if cls.size else np.zeros(n)
    with np.errstate(invalid="ignore"):
        ent_l = np.where(distinct > 0, np.exp(h), np.nan)
    # entropy l within rounding of an integer counts as that integer (exp(log 2) may be 1.9999...)
    below = (distinct > 0) & ((ent_l < l - 1e-9) if entropy else (distinct < l))
    return LDiversity(l=int(l), distinct=distinct, entropy_l=ent_l, at_risk=below[classes.labels])
