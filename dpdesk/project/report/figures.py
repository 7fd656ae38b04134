"""The rows behind the result plots, from analysis results (what the plots of the Results view
and of the report draw): a forest plot of the yes/no items, bars per category of the other
items, and the same per subgroup. The direct-question rows are added by the caller.
:func:`report_figures` makes each figure of the report together with its caption.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dpdesk.project.report.model import Figure


@dataclass
class FigureRows:
    forest: list[dict] = field(default_factory=list)  # one row per yes/no item (randomized response)
    bars: dict[str, list[dict]] = field(default_factory=dict)  # item -> one row per category
    subgroups: list[dict] = field(default_factory=list)  # "item: subgroup" rows of the yes/no items
    subgroup_bars: dict[str, list[dict]] = field(default_factory=dict)  # item -> rows per subgroup and category
    names: dict[str, str] = field(default_factory=dict)  # item -> what a reader calls it (short label or question)
    by: str | None = None  # the label of the "Subgroups by" column


def figure_rows(results) -> FigureRows:
    from dpdesk.project.study.labels import short_text

    out = FigureRows()
    for r in results:
        e = r.estimate
        if e is None:
            continue
        name = out.names[r.item] = short_text(getattr(r, "label", "") or r.item)
        out.by = out.by or getattr(r, "by_label", None)
        if r.design.is_binary:
            out.forest.append({"item": name, "kind": "randomized response", "n": e.n,
                               "estimate": float(e.prevalence), "CI low": float(e.ci[0]), "CI high": float(e.ci[1])})
        else:
            out.bars[r.item] = [{"category": str(c), "estimate": float(e.frequencies[j]), "SE": float(e.se[j]),
                                 "CI low": float(e.ci[j][0]), "CI high": float(e.ci[j][1])}
                                for j, c in enumerate(r.design.categories)]
        if r.subgroups is not None and r.design.is_binary:
            for label, s in r.subgroups.estimates.items():
                out.subgroups.append({"item": f"{name}: {label}", "subgroup": str(label), "of": name,
                                      "kind": "randomized response", "n": s.n,
                                      "estimate": float(s.prevalence), "CI low": float(s.ci[0]),
                                      "CI high": float(s.ci[1])})
        elif r.subgroups is not None:
            out.subgroup_bars[r.item] = [{"subgroup": str(label), "category": str(c), "n": s.n,
                                          "estimate": float(s.frequencies[j]), "CI low": float(s.ci[j][0]),
                                          "CI high": float(s.ci[j][1])}
                                         for label, s in r.subgroups.estimates.items()
                                         for j, c in enumerate(r.design.categories)]
    return out


def _called(rows: FigureRows, item: str) -> str:
    """The item as a caption names it: its short label, or its question in quotes ("the answers to “How
    often did you hand in work late?”")."""
    name = rows.names.get(item, item)
    return f"“{name}”" if name.rstrip().endswith("?") else name


def report_figures(rows: FigureRows, *, by: str | None = None, confidence: float = 0.95) -> dict[str, Figure]:
    """Every result figure with its caption, made together from one description (keys as :class:`Figure`)."""
    conf = {"confidence": confidence}
    out: dict[str, Figure] = {}
    if rows.forest:
        out["forest"] = Figure("forest", "Estimated prevalence of each item with its confidence interval", "forest",
                               rows.forest, conf)
    for item, bars in rows.bars.items():
        out[f"bars:{item}"] = Figure(f"bars:{item}", f"Estimated shares of the answers to {_called(rows, item)}",
                                     "bars", bars, conf)
    if rows.subgroups:
        out["subgroups"] = Figure("subgroups", f"Estimated prevalence of each item by {rows.by or by or 'subgroup'}",
                                  "forest",
                                  rows.subgroups, conf)
    for item, bars in rows.subgroup_bars.items():
        out[f"subgroup-bars:{item}"] = Figure(f"subgroup-bars:{item}",
                                              f"Estimated shares of the answers to {_called(rows, item)}, "
                                              f"by {rows.by or by or 'subgroup'}",
                                              "grouped_bars", bars, conf)
    return out


def place_figures(doc, figures: dict[str, Figure]) -> None:
    """Put each figure in its section: the overall ones under Estimates, the by-group ones under Subgroups."""
    for key, figure in figures.items():
        section = doc.section("subgroups" if key.startswith("subgroup") else "estimates")
        if section is not None:
            section.figures.append(figure)
