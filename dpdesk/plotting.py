"""The result plots, drawn with matplotlib into a given Figure (no Qt, no pyplot).

Used by the Results and Regression views (``gui.widgets.plots``, in a Qt canvas) and by
the report (SVG for HTML, PNG for the PDF, Word and LaTeX, :func:`render`). The functions take rows that were
already computed (estimate and CI bounds); they only draw. Axes follow the number style
(:func:`set_plot_style`: percent "40%" or proportions ".40").
"""

from __future__ import annotations

DIRECT_COLOUR = "#b35806"
RR_COLOUR = "#2b5c8a"
_STYLE = None  # the number style of the axes (report.number_style.NumberStyle); None: percent


def set_plot_style(style) -> None:
    """Axes in percent ("40%") or proportions (".40"), as the Preferences say."""
    global _STYLE
    _STYLE = style


def _percent_axis(axis) -> None:
    if _STYLE is not None and not _STYLE.percent:
        axis.set_major_formatter(lambda x, _pos: f"{x:.2f}".replace("0.", ".", 1) if x >= 0 else f"{x:.2f}")
    else:
        axis.set_major_formatter(lambda x, _pos: f"{100 * x:.0f}%")


def _wrapped(text: str, width: int = 28) -> str:
    """``text`` broken into lines of at most ``width`` characters (labels are questions)."""
    import textwrap

    return "\n".join(textwrap.wrap(str(text), width)) or str(text)


def draw_forest(figure, rows: list[dict], *, confidence: float = 0.95) -> None:
    """One line per item: the RR estimate with its CI, and the direct estimate just below it.

    ``rows``: ``{"item", "kind" ("randomized response" or "direct question"), "estimate",
    "CI low", "CI high"}``.
    """
    figure.clear()
    ax = figure.add_subplot(111)
    items = list(dict.fromkeys(r["item"] for r in rows))
    has_direct = any(r["kind"] != "randomized response" for r in rows)
    for r in rows:
        y = items.index(r["item"])
        direct = r["kind"] != "randomized response"
        y = y + (0.18 if direct else -0.18 if has_direct else 0.0)
        lo, hi = r["CI low"], r["CI high"]
        if r["estimate"] is None:
            continue
        ax.errorbar([r["estimate"]], [y], xerr=[[r["estimate"] - lo], [hi - r["estimate"]]],
                    fmt="s" if direct else "o", ms=6, capsize=3, lw=1.6,
                    color=DIRECT_COLOUR if direct else RR_COLOUR, mfc="white" if direct else None)
    ax.set_yticks(range(len(items)))
    ax.set_yticklabels([_wrapped(i) for i in items])  # a question as label: on lines, not across the plot
    ax.invert_yaxis()
    ax.set_xlim(0, max(0.05, min(1.0, max((r["CI high"] or 0) for r in rows) * 1.15 if rows else 1.0)))
    _percent_axis(ax.xaxis)
    ax.set_xlabel(_wrapped(f"estimated prevalence with {100 * confidence:.0f}% confidence interval", 32))
    ax.grid(axis="x", color="#dddddd", lw=0.6)
    ax.set_axisbelow(True)
    from matplotlib.lines import Line2D

    if has_direct:
        handles = [Line2D([], [], color=RR_COLOUR, marker="o", lw=1.6, label="randomized response"),
                   Line2D([], [], color=DIRECT_COLOUR, marker="s", mfc="white", lw=1.6, label="asked directly")]
        ax.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, fontsize=8, frameon=False)


def draw_bars(figure, rows: list[dict], *, title: str = "", label_key: str = "category",
              confidence: float = 0.95) -> None:
    """Bars with CI whiskers: one bar per row (``label_key``, ``estimate``, ``CI low``, ``CI high``)."""
    figure.clear()
    ax = figure.add_subplot(111)
    labels = [str(r[label_key]) for r in rows]
    est = [r["estimate"] or 0.0 for r in rows]
    low = [max(0.0, e - (r["CI low"] if r["CI low"] is not None else e)) for e, r in zip(est, rows)]
    high = [max(0.0, (r["CI high"] if r["CI high"] is not None else e) - e) for e, r in zip(est, rows)]
    ax.bar(range(len(rows)), est, yerr=[low, high], capsize=4, color=RR_COLOUR, alpha=0.85,
           error_kw={"lw": 1.2, "ecolor": "#222222"})
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(labels, rotation=0 if sum(map(len, labels)) < 50 else 30, ha="center")
    _percent_axis(ax.yaxis)
    top = max([r["CI high"] or 0 for r in rows] + [0.05])
    ax.set_ylim(0, min(1.0, top * 1.15))
    ax.set_ylabel(f"estimate, {100 * confidence:.0f}% CI")
    ax.grid(axis="y", color="#dddddd", lw=0.6)
    ax.set_axisbelow(True)
    if title:
        ax.set_title(title, fontsize=10)


SUBGROUP_COLOURS = ("#2b5c8a", "#b35806", "#4d9221", "#762a83", "#8c510a", "#01665e", "#c51b7d", "#525252")


def draw_grouped_bars(figure, rows: list[dict], *, title: str = "", label_key: str = "category",
                      group_key: str = "subgroup", confidence: float = 0.95) -> None:
    """Bars per category, one colour per subgroup, with CI whiskers (rows as :func:`draw_bars`)."""
    figure.clear()
    ax = figure.add_subplot(111)
    labels = list(dict.fromkeys(str(r[label_key]) for r in rows))
    groups = list(dict.fromkeys(str(r[group_key]) for r in rows))
    width = 0.8 / max(1, len(groups))
    for g, group in enumerate(groups):
        mine = {str(r[label_key]): r for r in rows if str(r[group_key]) == group}
        xs, est, low, high = [], [], [], []
        for i, label in enumerate(labels):
            r = mine.get(label)
            if r is None or r["estimate"] is None:
                continue
            e = r["estimate"]
            xs.append(i - 0.4 + width * (g + 0.5))
            est.append(e)
            low.append(max(0.0, e - (r["CI low"] if r["CI low"] is not None else e)))
            high.append(max(0.0, (r["CI high"] if r["CI high"] is not None else e) - e))
        ax.bar(xs, est, width=width * 0.92, yerr=[low, high], capsize=3, label=group,
               color=SUBGROUP_COLOURS[g % len(SUBGROUP_COLOURS)], alpha=0.85, error_kw={"lw": 1.0, "ecolor": "#222222"})
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=0 if sum(map(len, labels)) < 50 else 30, ha="center")
    _percent_axis(ax.yaxis)
    top = max([r["CI high"] or 0 for r in rows] + [0.05])
    ax.set_ylim(0, min(1.0, top * 1.15))
    ax.set_ylabel(f"estimate, {100 * confidence:.0f}% CI")
    ax.grid(axis="y", color="#dddddd", lw=0.6)
    ax.set_axisbelow(True)
    ax.legend(loc="upper right", fontsize=8, frameon=False, ncol=min(4, len(groups)))
    if title:
        ax.set_title(title, fontsize=10)


def draw_odds_ratios(figure, rows: list[dict], *, confidence: float = 0.95) -> None:
    """One line per term: ``{"term", "OR", "CI low", "CI high"}`` (a bound of None: open-ended)."""
    figure.clear()
    ax = figure.add_subplot(111)
    finite = [v for r in rows for v in (r["OR"], r["CI low"], r["CI high"]) if v is not None and v > 0]
    lo_axis = min(finite + [0.5]) / 1.3
    hi_axis = max(finite + [2.0]) * 1.3
    for y, r in enumerate(rows):
        est = r["OR"]
        low = r["CI low"] if r["CI low"] is not None and r["CI low"] > 0 else lo_axis
        high = r["CI high"] if r["CI high"] is not None else hi_axis
        ax.plot([low, high], [y, y], color=RR_COLOUR, lw=1.6, solid_capstyle="butt")
        ax.plot([est], [y], "o", color=RR_COLOUR, ms=6)
        for end, open_ in ((low, r["CI low"] is None or r["CI low"] <= 0), (high, r["CI high"] is None)):
            if not open_:
                ax.plot([end, end], [y - 0.12, y + 0.12], color=RR_COLOUR, lw=1.2)
    ax.axvline(1.0, color="#888888", lw=1.0, ls="--")
    ax.set_xscale("log")
    ax.set_xlim(lo_axis, hi_axis)
    from matplotlib.ticker import LogLocator, NullLocator

    ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(lambda x, _pos: f"{x:g}")
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([r["term"] for r in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlabel(f"odds ratio, {100 * confidence:.0f}% CI (log scale; 1: no effect)")
    ax.grid(axis="x", color="#dddddd", lw=0.6)
    ax.set_axisbelow(True)


def draw_prevalence_curve(figure, rows: list[dict], *, predictor: str, kind: str = "numeric",
                          confidence: float = 0.95, outcome: str = "") -> None:
    """``rows``: ``{predictor: value, "estimate", "CI low", "CI high"}`` in order."""
    figure.clear()
    ax = figure.add_subplot(111)
    xs = [r[predictor] for r in rows]
    est = [r["estimate"] for r in rows]
    low = [r["CI low"] if r["CI low"] is not None else e for r, e in zip(rows, est)]
    high = [r["CI high"] if r["CI high"] is not None else e for r, e in zip(rows, est)]
    if kind == "numeric":
        ax.fill_between(xs, low, high, color=RR_COLOUR, alpha=0.18, lw=0, label=f"{100 * confidence:.0f}% CI")
        ax.plot(xs, est, color=RR_COLOUR, lw=2.0, label="predicted prevalence")
        ax.set_xlim(min(xs), max(xs))
    else:
        pos = list(range(len(rows)))
        ax.errorbar(pos, est, yerr=[[e - lo for e, lo in zip(est, low)], [hi - e for e, hi in zip(est, high)]],
                    fmt="o", ms=6, capsize=4, lw=1.6, color=RR_COLOUR)
        ax.set_xticks(pos)
        ax.set_xticklabels([str(x) for x in xs])
        ax.set_xlim(-0.5, len(rows) - 0.5)
    ax.set_xlabel(predictor)
    ax.set_ylim(0, min(1.0, max(high + [0.05]) * 1.12))
    _percent_axis(ax.yaxis)
    ax.set_ylabel(f"predicted prevalence, {100 * confidence:.0f}% CI")
    if outcome:
        ax.set_title(f"{outcome} by {predictor} (other predictors at their means)", fontsize=9)
    ax.grid(color="#dddddd", lw=0.6)
    ax.set_axisbelow(True)


DRAW = {"forest": draw_forest, "bars": draw_bars, "grouped_bars": draw_grouped_bars,
        "odds_ratios": draw_odds_ratios, "prevalence_curve": draw_prevalence_curve}


def render(plot: str, rows: list[dict], fmt: str = "svg", *, width: float = 6.0, style=None, **kwargs) -> bytes:
    """Draw the plot ``plot`` (a key of :data:`DRAW`) of ``rows`` and return its SVG or PNG bytes."""
    import io

    from matplotlib.figure import Figure

    if style is not None:
        set_plot_style(style)
    lines = {"forest": len({r.get("item") for r in rows}), "odds_ratios": len(rows)}.get(plot, 8)
    figure = Figure(figsize=(width, max(2.4, 0.28 * lines + 1.2)), dpi=100, layout="constrained")
    DRAW[plot](figure, rows, **kwargs)
    out = io.BytesIO()
    figure.savefig(out, format=fmt, dpi=200 if fmt == "png" else 100, metadata={"Date": None} if fmt == "svg" else None)
    return out.getvalue()
