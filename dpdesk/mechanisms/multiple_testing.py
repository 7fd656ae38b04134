"""p-values adjusted for many comparisons: Holm's step-down and Bonferroni.

For m tests with p-values ``p_1 .. p_m``:

* Bonferroni: ``p~_i = min(1, m p_i)``.
* Holm (1979, *Scand. J. Statist.* 6, 65-70), step-down: sort ascending,
  ``p_(1) <= ... <= p_(m)``; ``p~_(j) = min(1, max_{k <= j} (m - k + 1) p_(k))``. The running
  maximum keeps the adjusted values in the order of the raw ones (monotonicity). Both control
  the family-wise error rate under any dependence between the tests; Holm is uniformly more
  powerful. These are the values of R's ``p.adjust(p, "holm")`` and ``p.adjust(p, "bonferroni")``.

Missing p-values (NaN or None) stay missing and do not count towards m.
"""

from __future__ import annotations

import math
from typing import Sequence

#: The adjustments offered, as ``{key: the name a reader sees}``.
METHODS = {"holm": "Holm", "bonferroni": "Bonferroni", "none": "none"}
DEFAULT = "holm"


def check_method(method: str) -> str:
    """The method's key (``"holm"``, ``"bonferroni"`` or ``"none"``), or ValueError in words."""
    key = str(method).strip().lower()
    if key not in METHODS:
        raise ValueError(f"The adjustment for many comparisons must be one of {', '.join(METHODS)} "
                         f"(got {method!r}).")
    return key


def adjust(p_values: Sequence[float | None], method: str = DEFAULT) -> list[float | None]:
    """The adjusted p-values, in the order given (see the module docstring for the formulas)."""
    method = check_method(method)
    values = [None if p is None or (isinstance(p, float) and math.isnan(p)) else float(p) for p in p_values]
    present = [i for i, p in enumerate(values) if p is not None]
    m = len(present)
    out: list[float | None] = list(values)
    if method == "none" or m == 0:
        return out
    if method == "bonferroni":
        for i in present:
            out[i] = min(1.0, m * values[i])
        return out
    running = 0.0
    for rank, i in enumerate(sorted(present, key=lambda j: values[j])):
        running = max(running, (m - rank) * values[i])
        out[i] = min(1.0, running)
    return out


def column_name(method: str) -> str | None:
    """``"p-value (Holm)"``: the column of adjusted p-values (None for no adjustment)."""
    method = check_method(method)
    return None if method == "none" else f"p-value ({METHODS[method]})"
