"""Information lost by a remedy: what the safer file costs the analyst.

Three figures, shown beside the risk they buy: the share of quasi-identifier cells whose
value changed (generalised or suppressed), the share of records suppressed, and the
entropy loss, ``1 - sum_j H(after_j) / sum_j H(before_j)`` over the quasi-identifiers,
with ``H`` the Shannon entropy of a column's values in bits (the non-uniform entropy
measure of de Waal & Willenborg 1999, in its simplest, marginal form). A blank or
suppressed cell carries no information: ``H = (n_known / n) * H(known values)``, so
suppressing cells always counts as a loss.

de Waal, A. G., Willenborg, L. C. R. J. (1999). Information loss through global
recoding and local suppression. Netherlands Official Statistics 14, 17-20.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def entropy_bits(codes) -> float:
    """Shannon entropy (bits) per record of integer codes, blanks (negative codes) carrying none.

    ``(n_known / n) * H(known values)``.
    """
    c = np.asarray(codes, dtype=np.int64)
    known = c[c >= 0]
    if known.size == 0:
        return 0.0
    counts = np.bincount(known)
    p = counts[counts > 0] / known.size
    return float(-(p * np.log2(p)).sum()) * known.size / c.size


@dataclass
class InformationLoss:
    """Cells changed and records suppressed (out of the totals) and the entropy before and after."""

    cells_changed: int
    cells_total: int
    records_suppressed: int
    records_total: int
    entropy_before: float
    entropy_after: float

    @property
    def share_cells_changed(self) -> float:
        return self.cells_changed / self.cells_total if self.cells_total else 0.0

    @property
    def share_records_suppressed(self) -> float:
        return self.records_suppressed / self.records_total if self.records_total else 0.0

    @property
    def entropy_loss(self) -> float:
        """1 - H_after / H_before (0: nothing lost; 1: the quasi-identifiers say nothing)."""
        return 1.0 - self.entropy_after / self.entropy_before if self.entropy_before > 0 else 0.0
