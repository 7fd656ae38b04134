"""The codes of value labels as the data hold them (1 = Female, never 1.0 = Female)."""

from __future__ import annotations

__all__ = ["numeric_codes"]


def numeric_codes(labels: dict, numeric: bool = True) -> dict:
    """``{code: label}`` with the codes of a numeric column as numbers: 1 rather than 1.0, "1" or "1.0".

    SPSS gives every code as a float and the project file (JSON) keeps them as text, so
    without this a code stored as "1.0" reads back as "1.0 = Female" and labels no cell.
    Codes of a text column (``numeric=False``) stay as they are.
    """
    if not numeric:
        return dict(labels)
    out = {}
    for code, label in labels.items():
        number = code
        if isinstance(code, (str, float)) and not isinstance(code, bool):
            try:
                number = float(code)
            except ValueError:
                number = code
            if isinstance(number, float) and number.is_integer():
                number = int(number)
            elif isinstance(number, float) and number != number:  # "nan" is no code: keep the text
                number = code
        out[number] = label
    return out
