"""Every yes/no item by subgroup in one grid: an item per row, a group per column, and the test.

The report's overview of the subgroups (each item's own table, with its n and the
differences between groups, follows it): a cell is the estimate with its interval,
``25.7 [19.9, 31.8]``, in the number style; the last column is the p of the
likelihood-ratio test that every group has the same prevalence. Made when at least two
yes/no items have subgroups and the groups fit across the page (:data:`MAX_GROUPS`).
"""

from __future__ import annotations

from dpdesk.project.report.model import Cell, Column, Row, Table
from dpdesk.project.number_style import NumberStyle

MAX_GROUPS = 5  # columns of "25.7 [19.9, 31.8]" that fit across a portrait page beside the item


def subgroup_grid(results, items: dict, style: NumberStyle, confidence: float, by: str) -> Table | None:
    """The grid, or None when fewer than two yes/no items have subgroups or there are too many groups."""
    from dpdesk.project.report.document import short_text

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
        cells = [Cell(short_text(items[r.item]) if r.item in items else r.item)]
        for g in groups:
            e = by_group.get(g)
            cells.append(Cell("—") if e is None else
                         Cell(f"{style.share(e.prevalence)} {style.interval(*e.ci)}",
                              (float(e.prevalence), float(e.ci[0]), float(e.ci[1]))))
        test = r.subgroups.test
        cells.append(Cell(NumberStyle.p(test.p_value), float(test.p_value)) if test is not None else Cell("—"))
        rows.append(Row(cells))
    notes = [f"<i>Note.</i> Each cell: the estimated prevalence with its {conf} confidence interval. <i>p</i>: "
             f"likelihood-ratio test that every {by} has the same prevalence. Each item's own table gives the "
             "number of respondents in each group and the differences between groups."]
    return Table("subgroup-grid", f"Estimated prevalence of each yes/no item by {by}", columns, rows, notes)
