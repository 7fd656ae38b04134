"""The rows behind the result plots, from analysis results (what the plots of the Results view
and of the report draw): a forest plot of the yes/no items, bars per category of the other
items, and the same per subgroup. The direct-question rows are added by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class FigureRows:
    forest: list[dict] = field(default_factory=list)  # one row per yes/no item (randomized response)
    bars: dict[str, list[dict]] = field(default_factory=dict)  # item -> one row per category
    subgroups: list[dict] = field(default_factory=list)  # "item: subgroup" rows of the yes/no items
    subgroup_bars: dict[str, list[dict]] = field(default_factory=dict)  # item -> rows per subgroup and category
    names: dict[str, str] = field(default_factory=dict)  # item -> what a reader calls it (short label or question)
    by: str | None = None  # the label of the "Subgroups by" column


def figure_rows(results) -> FigureRows:
    from dpdesk.project.labels import short_text

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


def figure_specs(rows: FigureRows, *, by: str | None = None, confidence: float = 0.95) -> dict[str, tuple]:
    """``{name: (kind, rows, kwargs)}`` for ``dpdesk.plotting.render``; names as ``Section.images`` lists them."""
    specs: dict[str, tuple] = {}
    if rows.forest:
        specs["forest"] = ("forest", rows.forest, {"confidence": confidence})
    for item, bars in rows.bars.items():
        if item in rows.subgroup_bars:
            specs[f"bars:{item}"] = ("grouped_bars", rows.subgroup_bars[item],
                                     {"title": f"{rows.names.get(item, item)} by {rows.by or by}",
                                      "confidence": confidence})
        else:
            specs[f"bars:{item}"] = ("bars", bars, {"title": rows.names.get(item, item), "confidence": confidence})
    if rows.subgroups:
        specs["subgroups"] = ("forest", rows.subgroups, {"confidence": confidence})
    return specs
