"""Is the first row a header, or the first respondent? (A file exported without a header row.)

A file without a header row whose first row has all-distinct values reads as if that row
were the header: the first respondent becomes the column names, silently. dpdesk does not
guess the answer, it says it (a warning in the import report) and offers "no header row"
(``header_rows=0``; ``--no-header``; the "No header row" box of the import window), with the
columns named ``column_1``, ``column_2``, ...

A column's header cell *looks like data* when it is a number or a date and so are the values
below it, or when it recurs among the values below it (a "Yes" that more respondents give).
A column's header cell *looks like a name* when it is text above a column of numbers or dates.
The first row is called a likely respondent when no column looks named and at least half of
the columns (and at least one) look like data. A real header has names (text above numbers,
or text that the data never repeat), so ordinary files are not flagged.
"""

from __future__ import annotations

import re

_DATE = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}([ T]\d{1,2}:\d{2}(:\d{2})?)?$|^\d{1,2}[./]\d{1,2}[./]\d{2,4}$")
SAMPLE = 200  # data rows looked at


def _kind(text: str) -> str:
    """"number", "date", "text" or "" (blank)."""
    text = str(text).strip()
    if not text:
        return ""
    if _DATE.match(text):
        return "date"
    try:
        float(text.replace(",", ".") if text.count(",") == 1 and "." not in text else text)
    except ValueError:
        return "text"
    return "number"


def likely_no_header(rows: list[list[str]]) -> str | None:
    """Why the first of ``rows`` (cell texts) looks like a respondent rather than a header, or None."""
    if len(rows) < 3:
        return None
    header, below = rows[0], rows[1:SAMPLE + 1]
    data_like, examples = 0, []
    columns = 0
    for j, cell in enumerate(header):
        values = [row[j].strip() for row in below if j < len(row) and str(row[j]).strip()]
        if not values or not str(cell).strip():
            continue
        columns += 1
        kinds = [_kind(v) for v in values]
        typed = sum(k in ("number", "date") for k in kinds) / len(kinds)
        head = _kind(cell)
        if head == "text" and typed >= 0.8 and cell.strip() not in values:
            return None  # a name above numbers or dates: a header
        if head in ("number", "date") and typed >= 0.8:
            data_like += 1
            examples.append(f"column {j + 1} holds {cell.strip()!r}, a {head} like the values below it")
        elif cell.strip() in values:
            data_like += 1
            row = next(i for i, r in enumerate(below) if j < len(r) and r[j].strip() == cell.strip())
            examples.append(f"{cell.strip()[:30]!r} in column {j + 1} recurs in row {row + 2}")
    if columns and data_like >= max(1, (columns + 1) // 2):
        return "; ".join(examples[:2])
    return None


def warning(reason: str, first_row: int = 1) -> str:
    """The import report's words for a likely respondent in the header row."""
    return (f"Row {first_row}, read as the header, looks like a respondent ({reason}). If the file has no header "
            f"row, read it again with no header row: tick \"No header row\" in the import window (command line: "
            f"the no-header option; Python: header_rows=0); the columns are then named column_1, column_2, ...")
