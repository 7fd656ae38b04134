"""The noisy (central DP) releases of the ledger as report tables.

A cross-tab (or a one-way table by groups) is a grid with its margins; a mean, a sum or a
count is one row per group with its interval; every table's note gives the noise in the
data's units, the privacy cost, what the intervals cover and how the numbers were
post-processed (:func:`dpdesk.project.ledger.release_cells.release_cells`). Reading the
ledger costs no budget.
"""

from __future__ import annotations

import html

from dpdesk.project.report.model import Cell, Column, Row, Section, Table
from dpdesk.project.number_style import NumberStyle

ADDITIVE = ("count", "histogram", "crosstab")


def _e(text) -> str:
    return html.escape(str(text), quote=False)


def _value(stat: str, x) -> Cell:
    """A released number: counts whole with thousands separators; means and sums to 2 decimals."""
    if x is None:
        return Cell("n/a")
    if stat in ADDITIVE:
        return Cell(NumberStyle.count(round(float(x))), float(x))
    return Cell(NumberStyle.estimate(x), float(x))


def _interval(stat: str, low, high) -> Cell:
    if low is None or high is None:
        return Cell("—")
    if stat in ADDITIVE:
        return Cell(f"[{NumberStyle.count(round(low))}, {NumberStyle.count(round(high))}]", (low, high))
    return Cell(f"[{NumberStyle.estimate(low)}, {NumberStyle.estimate(high)}]", (low, high))


def _notes(entry, rc, grid: bool) -> list[str]:
    conf = f"{100 * rc.confidence:g}%" if rc.confidence is not None else None
    notes = [f"<i>Note.</i> Released on {_e(entry.time[:10])} from the data set {_e(entry.dataset or '')} with "
             f"{_e(rc.noise)}; privacy cost {_e(rc.cost)}."]
    half = (entry.result or {}).get("half_width") or {}
    if grid and half.get("simultaneous") is not None and conf:
        notes.append(f"Each released cell is within ±{NumberStyle.count(round(float(half['simultaneous'])))} of its "
                     f"exact value, all cells at once, with probability {conf}. The totals are sums of the released "
                     "cells (no further privacy cost).")
    elif conf and rc.coverage != "no interval":
        notes.append(f"{conf} intervals: {_e(rc.coverage)}.")
    if rc.postprocessing != "none" and "none was needed" not in rc.postprocessing \
            and "(0 value(s) adjusted)" not in rc.postprocessing:
        notes.append(f"Post-processing: {_e(rc.postprocessing)}.")
    notes += [_e(n) for n in rc.notes]
    return notes


def release_table(entry, labels=None) -> Table:
    """One release as an APA table: a grid with margins when it has two axes, else rows with intervals.

    ``labels`` (``release_cells.entry_labels``): the columns' labels and value labels."""
    from dpdesk.project.ledger.release_cells import described, grid_of, release_cells

    rc = release_cells(entry, labels)
    keys = list((entry.result or {}).get("keys") or [])
    text = described(entry, labels)
    title = text[0].upper() + text[1:] + " (noisy release)"
    grid = grid_of(rc, keys)
    if grid is not None:
        cols = [Column(grid.row_axis, numeric=False)] + [Column(str(c)) for c in grid.cols]
        margins = bool(grid.row_margins)
        if margins:
            cols.append(Column("Total"))
        rows = []
        for i, r in enumerate(grid.rows):
            cells = [Cell(str(r))] + [_value(rc.statistic, c.shown) for c in grid.cells[i]]
            if margins:
                cells.append(_value(rc.statistic, grid.row_margins[i].shown))
            rows.append(Row(cells))
        if margins:
            rows.append(Row([Cell("Total")] + [_value(rc.statistic, c.shown) for c in grid.col_margins]
                            + [_value(rc.statistic, grid.total.shown)]))
        return Table(f"release:{entry.seq}", title, cols, rows, _notes(entry, rc, True))
    conf = f"{100 * rc.confidence:g}% CI" if rc.confidence is not None else "Interval"
    axes = rc.axes or ["Group"]
    cols = [Column(a, numeric=False) for a in axes] + [Column("Released value"), Column(conf)]
    rows = []
    for c in rc.cells:
        keys_text = [Cell(str(k)) for k in c.keys] or [Cell("All respondents")]
        rows.append(Row(keys_text + [_value(rc.statistic, c.shown), _interval(rc.statistic, c.low, c.high)]))
    return Table(f"release:{entry.seq}", title, cols, rows, _notes(entry, rc, False))


def release_section(project) -> Section | None:
    """"Noisy releases": one table per release of the ledger (None when nothing was released)."""
    from dpdesk.project.ledger import ledger

    entries = ledger(project)
    if not entries:
        return None
    intro = ("These statistics of the non-sensitive variables were published with central differential privacy: "
             "each number carries random noise of a known size, and each interval accounts for it.")
    from dpdesk.project.ledger.release_cells import entry_labels

    return Section("releases", "Noisy releases", [intro],
                   [release_table(e, entry_labels(project, e)) for e in entries])
