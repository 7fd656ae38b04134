"""Equivalence classes: the records that share every quasi-identifier value.

Quasi-identifiers come in as integer codes, one array per column (the project layer
codes values with ``pandas.factorize``). A negative code is a missing or suppressed
value; it counts as one value of its own (a blank age matches other blank ages, not
every age), the conservative reading of Sweeney (2002). The codes are packed into one
integer key per record (mixed radix, re-coded densely whenever the next column would
overflow 62 bits), and one ``np.unique`` over the keys gives every class, its size and
each record's class: O(n log n), about a second for a million records and six columns.

Sweeney, L. (2002). k-anonymity: a model for protecting privacy. International Journal
of Uncertainty, Fuzziness and Knowledge-Based Systems 10(5), 557-570.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from dpdesk.errors import DataError

_LIMIT = 1 << 62


@dataclass
class Classes:
    """``labels[i]`` is record i's class (0 .. n_classes-1); ``sizes[c]`` the size of class c."""

    labels: np.ndarray
    sizes: np.ndarray

    @property
    def n_records(self) -> int:
        return int(self.labels.size)

    @property
    def n_classes(self) -> int:
        return int(self.sizes.size)

    @property
    def record_sizes(self) -> np.ndarray:
        """The size of each record's class (the k of that record)."""
        return self.sizes[self.labels]


def _as_codes(column, j: int, n: int) -> np.ndarray:
    codes = np.asarray(column)
    if codes.ndim != 1 or codes.size != n:
        raise DataError(f"Quasi-identifier {j + 1} has {codes.size} values; the others have {n}. "
                        "Give one code per record for every column.")
    if not np.issubdtype(codes.dtype, np.integer):
        raise DataError(f"Quasi-identifier {j + 1} is not integer codes ({codes.dtype}). "
                        "Code the values first (e.g. pandas.factorize).")
    return codes.astype(np.int64, copy=False)


def equivalence_classes(columns: Sequence) -> Classes:
    """Group the records by their quasi-identifier codes (see the module docstring).

    With no columns every record is in one class (nothing identifies anyone).
    """
    columns = list(columns)
    n = int(np.asarray(columns[0]).size) if columns else 0
    if not columns:
        raise DataError("No quasi-identifiers were given. Mark the columns an outsider could know "
                        "(age, sex, region, dates, occupation) as quasi-identifiers.")
    key = np.zeros(n, dtype=np.int64)
    total = 1
    for j, column in enumerate(columns):
        codes = _as_codes(column, j, n)
        if n == 0:
            continue
        low = int(codes.min())
        shifted = codes - low if low != 0 else codes
        card = int(shifted.max()) + 1
        if total * card >= _LIMIT:
            _, key = np.unique(key, return_inverse=True)
            key = key.astype(np.int64, copy=False).reshape(-1)
            total = int(key.max()) + 1
        key = key * card + shifted
        total *= card
    if n == 0:
        return Classes(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
    _, labels, sizes = np.unique(key, return_inverse=True, return_counts=True)
    return Classes(labels.reshape(-1).astype(np.int64, copy=False), sizes.astype(np.int64, copy=False))
