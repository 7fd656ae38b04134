"""Plots of a regression (drawn only; the numbers come from ``project.regression_report``).

:func:`draw_odds_ratios` is a forest plot of the odds ratios with their intervals on a log
axis, a line at 1 (no effect); :func:`draw_prevalence_curve` the predicted prevalence
across one predictor with its CI band (a line for a numeric predictor, points with
whiskers for the levels of a categorical one). Both go in a ``plots.PlotPanel``.
"""

from __future__ import annotations

from dpdesk.plotting import RR_COLOUR, _percent_axis, axis_label, category_ticks, chars_across, wrap


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
    ax.set_yticklabels([wrap(r["term"], 28) for r in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)
    axis_label(ax, f"odds ratio, {100 * confidence:.0f}% CI (log scale; 1: no effect)",
               beside=[wrap(r["term"], 28) for r in rows])
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
        category_ticks(ax, [str(x) for x in xs])
        ax.set_xlim(-0.5, len(rows) - 0.5)
    axis_label(ax, predictor)
    ax.set_ylim(0, min(1.0, max(high + [0.05]) * 1.12))
    _percent_axis(ax.yaxis)
    axis_label(ax, f"predicted prevalence, {100 * confidence:.0f}% CI", "y")
    if outcome:
        ax.set_title(wrap(f"{outcome} by {predictor} (other predictors at their means)", chars_across(figure, 0.9)),
                     fontsize=9)
    ax.grid(color="#dddddd", lw=0.6)
    ax.set_axisbelow(True)
