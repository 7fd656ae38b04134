"""The result plots, drawn with matplotlib into a given Figure (no Qt, no pyplot).

Used by the Results and Regression views (``gui.widgets.plots``, in a Qt canvas) and by
the report (SVG for HTML, PNG for the PDF, Word and LaTeX, :func:`render`). The functions take rows that were
already computed (estimate and CI bounds); they only draw. Axes follow the number style
(:func:`set_plot_style`: percent "40%" or proportions ".40").
"""

from __future__ import annotations

DIRECT_COLOUR = "#b35806"
RR_COLOUR = "#2b5c8a"
PNG_DPI = 150  # the report's PNG plots (PDF, Word, LaTeX)
LABEL_WIDTH = 28  # characters of a y label (item or term) per line
LINE_IN = 0.19  # inches a 10-point label line takes, with its leading
ROW_GAP_IN = 0.12  # inches between two rows' labels
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


def wrap(text: str, width: int) -> str:
    """``text`` broken into lines of at most ``width`` characters (long words stay whole)."""
    import textwrap

    return "\n".join(textwrap.wrap(str(text), max(4, width), break_long_words=False)) or str(text)


def chars_across(figure, share: float = 1.0) -> int:
    """About how many 9-point characters fit across ``share`` of the figure's width."""
    return int(figure.get_figwidth() * share * 72 / (9 * 0.62))


def category_ticks(ax, labels: list[str]) -> None:
    """Category labels under the bars that never run into each other: each is wrapped to its
    slot's width, and a single word too long for its slot turns the labels 30 degrees."""
    slot = max(4, int(chars_across(ax.figure, 0.8) / max(1, len(labels))) - 1)
    wrapped = [wrap(label, slot) for label in labels]
    too_long = any(len(word) > slot for label in labels for word in str(label).split())
    ax.set_xticks(range(len(labels)))
    if too_long:
        ax.set_xticklabels([wrap(label, 24) for label in labels], rotation=30, ha="right", rotation_mode="anchor")
    else:
        ax.set_xticklabels(wrapped, rotation=0, ha="center")


def axis_label(ax, text: str, axis: str = "x", beside: list[str] | None = None) -> None:
    """An axis title wrapped to the width the axes will have, so it is never cut off at the edge.

    ``beside``: the tick labels to the left of the axes (their longest line takes width away)."""
    fig = ax.figure
    if axis == "x":
        taken = max((len(line) for label in beside or [] for line in str(label).split("\n")), default=4) + 6
        ax.set_xlabel(wrap(text, max(16, chars_across(fig, 0.95) - taken)))
    else:
        ax.set_ylabel(wrap(text, int(fig.get_figheight() * 72 / (9 * 0.62) * 0.85)))


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
    ax.set_yticklabels([wrap(i, LABEL_WIDTH) for i in items])
    ax.invert_yaxis()
    ax.set_xlim(0, max(0.05, min(1.0, max((r["CI high"] or 0) for r in rows) * 1.15 if rows else 1.0)))
    _percent_axis(ax.xaxis)
    axis_label(ax, f"estimated prevalence with {100 * confidence:.0f}% confidence interval",
               beside=[wrap(i, LABEL_WIDTH) for i in items])
    ax.grid(axis="x", color="#dddddd", lw=0.6)
    ax.set_axisbelow(True)
    from matplotlib.lines import Line2D

    if has_direct:
        handles = [Line2D([], [], color=RR_COLOUR, marker="o", lw=1.6, label="randomized response"),
                   Line2D([], [], color=DIRECT_COLOUR, marker="s", mfc="white", lw=1.6, label="asked directly")]
        figure.legend(handles=handles, loc="outside upper center", ncol=2, fontsize=8,
                      frameon=False)  # above the plot, centred on the figure: never on the frame or cut off


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
    category_ticks(ax, labels)
    _percent_axis(ax.yaxis)
    top = max([r["CI high"] or 0 for r in rows] + [0.05])
    ax.set_ylim(0, min(1.0, top * 1.15))
    axis_label(ax, f"estimate, {100 * confidence:.0f}% CI", "y")
    ax.grid(axis="y", color="#dddddd", lw=0.6)
    ax.set_axisbelow(True)
    if title:
        ax.set_title(wrap(title, chars_across(figure, 0.9)), fontsize=10)


SUBGROUP_COLOURS = ("#2b5c8a", "#b35806", "#4d9221", "#762a83", "#8c510a", "#01665e", "#c51b7d", "#525252")


def draw_grouped_bars(figure, rows: list[dict], *, title: str = "", label_key: str = "category",
                      group_key: str = "subgroup", confidence: float = 0.95) -> None:
    """Bars per category, one colour per subgroup, with CI whiskers (rows as :func:`draw_bars`)."""
    figure.clear()
    ax = figure.add_subplot(111)
    labels = list(dict.fromkeys(str(r[label_key]) for r in rows))
    groups = list(dict.fromkeys(str(r[group_key]) for r in rows))
    width = 0.8 / max(1, len(groups))
    handles = []
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
        handles.append(ax.bar(xs, est, width=width * 0.92, yerr=[low, high], capsize=3, label=group,
               color=SUBGROUP_COLOURS[g % len(SUBGROUP_COLOURS)], alpha=0.85,
                              error_kw={"lw": 1.0, "ecolor": "#222222"}))
    category_ticks(ax, labels)
    _percent_axis(ax.yaxis)
    top = max([r["CI high"] or 0 for r in rows] + [0.05])
    ax.set_ylim(0, min(1.0, top * 1.15))
    axis_label(ax, f"estimate, {100 * confidence:.0f}% CI", "y")
    ax.grid(axis="y", color="#dddddd", lw=0.6)
    ax.set_axisbelow(True)
    ax.legend(handles=handles, labels=[wrap(g, 18) for g in groups], loc="upper left",
              bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)  # beside the frame, never over the bars
    if title:
        ax.set_title(wrap(title, chars_across(figure, 0.9)), fontsize=10)


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
    ax.set_yticklabels([wrap(r["term"], LABEL_WIDTH) for r in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)
    axis_label(ax, f"odds ratio, {100 * confidence:.0f}% CI (log scale; 1: no effect)",
               beside=[wrap(r["term"], LABEL_WIDTH) for r in rows])
    ax.grid(axis="x", color="#dddddd", lw=0.6)
    ax.set_axisbelow(True)


def draw_prevalence_curve(figure, rows: list[dict], *, predictor: str, kind: str = "numeric",
                          confidence: float = 0.95, outcome: str = "", label: str = "") -> None:
    """``rows``: ``{predictor: value, "estimate", "CI low", "CI high"}`` in order; ``label`` names the
    predictor on the axis and in the title (default its code ``predictor``)."""
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
        category_ticks(ax, [str(x) for x in xs])
        ax.set_xlim(-0.5, len(rows) - 0.5)
    axis_label(ax, label or predictor)
    ax.set_ylim(0, min(1.0, max(high + [0.05]) * 1.12))
    _percent_axis(ax.yaxis)
    axis_label(ax, f"predicted prevalence, {100 * confidence:.0f}% CI", "y")
    if outcome:
        ax.set_title(wrap(f"{outcome} by {label or predictor} (other predictors at their means)", chars_across(figure, 0.9)),
                     fontsize=9)
    ax.grid(color="#dddddd", lw=0.6)
    ax.set_axisbelow(True)


DRAW = {"forest": draw_forest, "bars": draw_bars, "grouped_bars": draw_grouped_bars,
        "odds_ratios": draw_odds_ratios, "prevalence_curve": draw_prevalence_curve}


def _row_labels(plot: str, rows: list[dict]) -> list[str]:
    if plot == "forest":
        return [str(i) for i in dict.fromkeys(r.get("item") for r in rows)]
    if plot == "odds_ratios":
        return [str(r["term"]) for r in rows]
    return []


def figure_height(plot: str, rows: list[dict]) -> float:
    """Inches: for a plot with a label per row (forest, odds ratios), every row as tall as the longest wrapped
    label needs, so two labels never overlap; 1.2 in for the axis and its title; at least 2.4 in."""
    labels = _row_labels(plot, rows)
    if not labels:
        return max(2.4, 0.28 * 8 + 1.2)
    lines = max(wrap(label, LABEL_WIDTH).count("\n") + 1 for label in labels)
    return max(2.4, len(labels) * max(0.28, lines * LINE_IN + ROW_GAP_IN) + 1.2)


def draw(plot: str, rows: list[dict], *, width: float = 6.0, style=None, **kwargs):
    """The matplotlib ``Figure`` of the plot ``plot`` (a key of :data:`DRAW`) of ``rows``, drawn."""
    from matplotlib.figure import Figure

    if style is not None:
        set_plot_style(style)
    figure = Figure(figsize=(width, figure_height(plot, rows)), dpi=100, layout="constrained")
    DRAW[plot](figure, rows, **kwargs)
    return figure


def render(plot: str, rows: list[dict], fmt: str = "svg", *, width: float = 6.0, style=None, **kwargs) -> bytes:
    """Draw the plot ``plot`` (a key of :data:`DRAW`) of ``rows`` and return its SVG or PNG bytes."""
    import io

    figure = draw(plot, rows, width=width, style=style, **kwargs)
    out = io.BytesIO()
    if fmt == "png":  # 150 dpi: 180 dpi where the report prints the 6 in plot 5 in wide; light compression is faster
        figure.savefig(out, format="png", dpi=PNG_DPI, pil_kwargs={"compress_level": 3})
    else:
        figure.savefig(out, format=fmt, dpi=100, metadata={"Date": None} if fmt == "svg" else None)
    return out.getvalue()
