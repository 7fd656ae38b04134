"""k-anonymity and the prosecutor re-identification risk.

A file is k-anonymous when every equivalence class over the quasi-identifiers holds at
least k records (Sweeney 2002); its k is the smallest class size. Under the prosecutor
model (the attacker knows the person is in the file) the chance of picking a record's
owner correctly is ``1 / size of its class`` (El Emam & Dankar 2008). The file's highest
risk is ``1 / smallest k``; the average is ``n_classes / n_records`` (the expected share
of records re-identified if the attacker tries everyone).

El Emam, K., Dankar, F. K. (2008). Protecting privacy using k-anonymity. Journal of the
American Medical Informatics Association 15(5), 627-637.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dpdesk.errors import DataError
from dpdesk.mechanisms.disclosure.classes import Classes


@dataclass
class KAnonymity:
    """The classes checked against the threshold ``k``.

    ``smallest`` is the k the file achieves; ``at_risk[i]`` says record i is in a class
    smaller than ``k``; ``risk[i] = 1 / class size`` is its prosecutor risk.
    """

    k: int
    smallest: int
    n_records: int
    n_classes: int
    at_risk: np.ndarray
    risk: np.ndarray

    @property
    def n_at_risk(self) -> int:
        return int(self.at_risk.sum())

    @property
    def share_at_risk(self) -> float:
        """Share of records in classes smaller than k."""
        return self.n_at_risk / self.n_records if self.n_records else 0.0

    @property
    def highest_risk(self) -> float:
        """The largest prosecutor risk of any record: 1 / smallest class size."""
        return 1.0 / self.smallest if self.smallest else 0.0

    @property
    def average_risk(self) -> float:
        """The mean prosecutor risk: n_classes / n_records."""
        return self.n_classes / self.n_records if self.n_records else 0.0

    @property
    def n_unique(self) -> int:
        """Records alone in their class (sample uniques)."""
        return int((self.risk == 1.0).sum())

    @property
    def passes(self) -> bool:
        return self.n_at_risk == 0


def check_k(k) -> int:
    """``k`` as an int, or a :class:`DataError` saying what a valid k is."""
    try:
        value = int(float(k))
        whole = float(k) == value
    except (TypeError, ValueError, OverflowError):
        whole = False
    if not whole or value < 2:
        raise DataError(f"k must be a whole number of at least 2 (got {k!r}); 5 is common, and 3 the "
                        "least most data-sharing guides accept.")
    return value


def k_anonymity(classes: Classes, k: int = 5) -> KAnonymity:
    """Check ``classes`` (from :func:`equivalence_classes`) against threshold ``k``."""
    k = check_k(k)
    sizes = classes.record_sizes
    smallest = int(classes.sizes.min()) if classes.n_classes else 0
    risk = np.divide(1.0, sizes, dtype=np.float64) if sizes.size else np.zeros(0)
    return KAnonymity(k=k, smallest=smallest, n_records=classes.n_records, n_classes=classes.n_classes,
                      at_risk=sizes < k, risk=risk)
