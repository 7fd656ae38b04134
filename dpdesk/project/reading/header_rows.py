"""Which rows of a sheet are its header, when the top rows are more than one header row.

Two layouts made a respondent out of the real header (40 respondents read as 41):

* **Merged group headers** above the real header: ``A1:B1`` "Demographics" merged over the
  columns ``id``, ``age`` of row 2. Excel shows a group name over several columns.
* **A vertically merged header**: ``A1:A2`` "id" and ``B1:B2`` "age" merged down two rows
  while ``C1:E1`` "Attitudes" is merged over ``q1 q2 q3`` in row 2.

:func:`from_merges` takes the header block from the merged ranges that start in the first
header row: a range merged down (``A1:A2``) makes its rows header rows, and a range merged
across (``A1:B1``) is a group name with the real names in the row below it. Without merged
cells (a group row typed once over its columns and left unmerged), :func:`group_row`
recognises a sparse row of names above a full row of distinct names with data below.

Either way the column names come from the block's bottom row (a name merged down from above
fills its blank cell), the group names above become the columns' labels ("Attitudes: q1"),
and a warning says which row was taken and how to choose another.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_BLOCK = 5  # header rows at most (a deeper block is not a header)


@dataclass
class Header:
    """The header block found: ``rows`` rows from the top, the names and labels per column, and why."""

    rows: int
    names: list[str]
    labels: dict[str, str]
    warning: str


def from_merges(cells: list[list[str]], merges: list[tuple[int, int, int, int]], top: int) -> Header | None:
    """The header block of a sheet whose first header row (0-based ``top`` in ``cells``) has merged cells.

    ``cells`` is the sheet's text from row 1 (index 0) on, ``merges`` the merged ranges as
    1-based ``(first row, first column, last row, last column)``. None when no merged range
    starts in the first header row, or when the block would be deeper than :data:`MAX_BLOCK`.
    """
    first = top + 1  # sheet row of the first header row
    bottom = first
    merges = [m for m in merges if first <= m[0] <= first + MAX_BLOCK][:1000]  # bounded work on a hostile file
    changed = True
    while changed and bottom - first < MAX_BLOCK:
        changed = False
        for r0, c0, r1, c1 in merges:
            if not first <= r0 <= bottom:
                continue
            end = max(r1, r0 + 1 if c1 > c0 else r0)  # down: its rows; across: a group over the next row
            if r0 == first and end > bottom:
                bottom, changed = end, True
            elif r0 > first and r1 > bottom:  # merged down inside the block: it deepens the block
                bottom, changed = r1, True
    if bottom == first or bottom - first + 1 > MAX_BLOCK or bottom > len(cells) - 1:
        return None  # no header block (or no data below it)
    grid = [list(cells[r - 1]) for r in range(first, bottom + 1)]
    width = max(len(row) for row in grid)
    from_above = set()  # columns whose bottom cell a range merged down from above fills
    for r0, c0, r1, c1 in merges:
        if r0 < bottom <= r1:
            from_above.update(range(c0, min(c1, width) + 1))
    own = [str(grid[-1][j]).strip() for j in range(width) if j + 1 not in from_above and j < len(grid[-1])]
    own = [name for name in own if name]  # a column without a name is named column_N, as in one-row headers
    if any(not name or _number(name) for name in own) or len(set(own)) < len(own):
        return None  # the bottom row holds answers (a cell merged over a one-row header): not a header block
    grid = [row + [""] * (width - len(row)) for row in grid]
    for r0, c0, r1, c1 in merges:  # a merged range's value fills every cell it covers
        if first <= r0 <= bottom and c0 <= width:
            value = cells[r0 - 1][c0 - 1] if c0 - 1 < len(cells[r0 - 1]) else ""
            stop = min(c1, width)
            for r in range(r0, min(r1, bottom) + 1):
                grid[r - first][c0 - 1:stop] = [value] * max(0, stop - c0 + 1)
    names, labels = _names_and_labels(grid)
    merged = [m for m in merges if first <= m[0] <= bottom]
    shown = ", ".join(f"{_range(m)} {_short(grid[m[0] - first][m[1] - 1] if m[1] <= width else '')}"
                      for m in merged[:4])
    more = f" and {len(merged) - 4} more" if len(merged) > 4 else ""
    return Header(bottom - first + 1, names, labels, _warning(first, bottom, f"merged cells ({shown}{more})", labels))


def group_row(cells: list[list[str]], top: int, first_row: int | None = None) -> Header | None:
    """A group row typed over its columns without merging: two or more names, some columns blank,
    above a full row of distinct names that are not numbers, with numbers below in at least half of
    those columns (where a header row would have none). None otherwise.

    ``cells[top]`` is the candidate group row, row ``first_row`` of the file (default ``top + 1``).
    """
    if len(cells) < top + 4:
        return None
    groups, header = cells[top], cells[top + 1]
    width = len(header)
    filled = [c for c in header if c.strip()]
    named_groups = [c for c in groups[:width] if c.strip()]
    if (len(named_groups) < 2 or len(named_groups) >= len(filled) or len(filled) < width or len(set(filled)) < width
            or any(_number(c) for c in filled + named_groups) or any(c.strip() for c in groups[width:])):
        return None
    below = cells[top + 2:top + 22]
    numeric = sum(1 for j in range(width)
                  if sum(_number(row[j]) for row in below if j < len(row) and row[j].strip()) >= max(1, len(below) // 2))
    if numeric < max(1, width // 2):
        return None
    grid = [list(groups[:width]) + [""] * (width - len(groups[:width])), list(header)]
    for j in range(1, width):  # a group name reaches to the next one
        if not grid[0][j].strip():
            grid[0][j] = grid[0][j - 1]
    names, labels = _names_and_labels(grid)
    first = top + 1 if first_row is None else first_row
    what = f"a row of group names above it ({', '.join(_short(g) for g in named_groups[:4])})"
    return Header(2, names, labels, _warning(first, first + 1, what, labels))


def apply(found: Header, lay):
    """Make the layout ``lay`` (:class:`platforms.Layout`) read the header block ``found``; returns it."""
    names, blank = [], []
    for j, name in enumerate(found.names):
        names.append(name or f"column_{j + 1}")
        if not name:
            blank.append(names[-1])
    lay.header_rows, lay.names, lay.blank_names = found.rows, names, blank
    lay.labels = dict(found.labels)
    lay.header_width = len(names)
    lay.warnings.append(found.warning)
    return lay


def _names_and_labels(grid: list[list[str]]) -> tuple[list[str], dict[str, str]]:
    """Names from the bottom row (or the nearest name above a blank); labels "group: name" from above."""
    names, labels = [], {}
    for j in range(len(grid[0])):
        column = [str(row[j]).strip() for row in grid]
        name = next((v for v in reversed(column) if v), "")
        names.append(name)
        groups = []
        for value in column[:-1]:
            if value and value != name and value not in groups:
                groups.append(value)
        if name and groups:
            labels[name] = ": ".join(groups + [name])
    return names, labels


def _warning(first: int, bottom: int, what: str, labels: dict) -> str:
    example = next(iter(labels.values()), None)
    also = f"; the group names above became the columns' labels (e.g. {example!r})" if example else ""
    from dpdesk.project.reading.option_words import choose

    return (f"The header spans rows {first}-{bottom} ({what}): the column names were taken from row {bottom}"
            f"{also}, and the data start in row {bottom + 1}. If that is wrong, set the header rows: "
            f"{choose('header_rows', '1')}.")


def _range(merge) -> str:
    from openpyxl.utils import get_column_letter

    r0, c0, r1, c1 = merge
    return f"{get_column_letter(c0)}{r0}:{get_column_letter(c1)}{r1}"


def _short(text) -> str:
    text = str(text).strip()
    return repr(text if len(text) <= 30 else text[:27] + "...")


def _number(text) -> bool:
    try:
        float(str(text).strip().replace(",", "."))
    except ValueError:
        return False
    return bool(str(text).strip())
