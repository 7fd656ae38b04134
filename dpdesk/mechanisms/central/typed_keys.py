"""The keys a researcher typed for a column of numbers (codes), as numbers: one rule for imported and linked data.

A key typed as text ("2", "2.0", "1/2") for a numeric column matches the column's values as
the number it reads as: a whole number becomes an int, any other a float (exactly the rational
the text says, then rounded once). A key that is not a number is refused in one line, before
anything is spent. Used by :mod:`dpdesk.project.ledger.columns` (imported data) and
:mod:`dpdesk.project.linked.query` (linked data).
"""

from __future__ import annotations

from fractions import Fraction

from dpdesk.errors import DataError

__all__ = ["numeric_keys"]


def numeric_keys(keys, column: str, hint: str = "") -> list:
    """``keys`` as numbers for the numeric column ``column``; ``hint``: a sentence added to the refusal."""
    out = []
    for k in keys:
        try:
            f = Fraction(str(k))
        except (ValueError, ZeroDivisionError):
            raise DataError(f"{k!r} is not one of the values of the column {column!r}: that column holds numbers "
                            f"(codes). Type the codes of the groups you want to count (for example 1, 2, 3){hint}. "
                            "Nothing was released and no budget was spent.") from None
        out.append(int(f) if f.denominator == 1 else float(f))
    return out
