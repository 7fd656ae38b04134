"""Every yes/no item by subgroup in one grid: an item per row, a group per column, and the test.

The report's overview of the subgroups (each item's own table, with its n and the
differences between groups, follows it): a cell is the estimate with its interval,
``25.7 [19.9, 31.8]``, in the number style; the last column is the p of the test that
every group has the same prevalence, and the note names the test that gave it
(:func:`dpdesk.project.report.document.test_name`: the likelihood-ratio test, or with a survey
design the design-based Wald F test). Items are named as in every table (their short label,
else the question's first words). Made when at least two yes/no items have subgroups and there
are at most :data:`MAX_GROUPS` groups; a grid too wide for the page is split by the rule of
:mod:`.layout`.
"""

from __future__ import annotations

import html

from dpdesk.project.report.model import Cell, Column, Row, Table
from dpdesk.project.number_style import NumberStyle

MAX_GROUPS = 5  # columns of "25.7 [19.9, 31.8]" that fit across a portrait page beside the item


def _e(text) -> str:
    return html.escape(str(text), quote=False)


def subgroup_grid(results, items: dict, style: NumberStyle, confidence: float, by: str) -> Table | None:
    """The grid, or None when fewer than two yes/no items have subgroups or there are too many groups."""
    from dpdesk.project.report.document import item_label, test_name

    binary = [r for r in results if r.subgroups is not None and r.design.is_binary]
    groups = list(dict.fromkeys(str(g) for r in binary for g in r.subgroups.estimates))
    if len(binary) < 2 or not groups or len(groups) > MAX_GROUPS:
        return None
    conf = f"{100 * confidence:g}%"
    columns = [Column("Item", numeric=False)] + [Column(g, suffix=style.unit_label) for g in groups] + [
        Column("p", italic=True)]
    rows = []
    for r in binary:
        by_group = {str(g): e for g, e in r.subgroups.estimates.items()}
        cells = [Cell(item_label(r, items))]
        for g in groups:
            e = by_group.get(g)
            cells.append(Cell("—") if e is None else
                         Cell(f"{style.share(e.prevalence)} {style.interval(*e.ci)}",
                              (float(e.prevalence), float(e.ci[0]), float(e.ci[1]))))
        test = r.subgroups.test
        cells.append(Cell(NumberStyle.p(test.p_value), float(test.p_value)) if test is not None else Cell("—"))
        rows.append(Row(cells))
    tests = list(dict.fromkeys(test_name(r) for r in binary if r.subgroups.test is not None))
    if len(tests) == 1:
        which = tests[0]
    else:  # items tested differently (not seen: one design per analysis), each named
        which = "; ".join(f"{_e(item_label(r, items))}: {test_name(r)}" for r in binary
                          if r.subgroups.test is not None)
    notes = [f"<i>Note.</i> Each cell: the estimated prevalence with its {conf} confidence interval. <i>p</i>: "
             f"test that every {_e(by)} has the same prevalence ({which}). Each item's own table gives the "
             "number of respondents in each group and the differences between groups."]
    return Table("subgroup-grid", f"Estimated prevalence of each yes/no item by {by}", columns, rows, notes)
