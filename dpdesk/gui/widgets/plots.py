"""Plots of results (matplotlib in Qt), each with the same numbers in a table beside it.

The drawing functions take rows that were already computed (estimate and CI bounds);
they only draw. :class:`PlotPanel` holds a canvas, the table (for screen readers and
for copying) and buttons: **Save plot…** (PNG, SVG or PDF by the file's suffix) and
**Copy table**. matplotlib is imported when the first plot is drawn.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from dpdesk.gui.widgets.clipboard import copy_table
from dpdesk.gui.widgets.table_model import RowsModel
from dpdesk.gui.widgets.common import name, note

PLOT_FILTER = "PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"
PLOT_SUFFIXES = (".png", ".svg", ".pdf")
DIRECT_COLOUR = "#b35806"
RR_COLOUR = "#2b5c8a"


_STYLE = None  # the number style of the axes and tables (report.number_style.NumberStyle); None: percent
SHARE_KEYS = ("estimate", "SE", "CI low", "CI high")


def set_plot_style(style) -> None:
    """Axes in percent ("40%") or proportions (".40"), as the Preferences say."""
    global _STYLE
    _STYLE = style


def _percent_axis(axis) -> None:
    if _STYLE is not None and not _STYLE.percent:
        axis.set_major_formatter(lambda x, _pos: f"{x:.2f}".replace("0.", ".", 1) if x >= 0 else f"{x:.2f}")
    else:
        axis.set_major_formatter(lambda x, _pos: f"{100 * x:.0f}%")


def shown_rows(rows: list[dict], style) -> list[dict]:
    """The rows as the table beside a plot shows them: shares in the number style."""
    if style is None:
        return rows
    return [{k: (style.share(v) if k in SHARE_KEYS and isinstance(v, (int, float)) else v) for k, v in r.items()}
            for r in rows]


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
    ax.set_yticklabels(items)
    ax.invert_yaxis()
    ax.set_xlim(0, max(0.05, min(1.0, max((r["CI high"] or 0) for r in rows) * 1.15 if rows else 1.0)))
    _percent_axis(ax.xaxis)
    ax.set_xlabel(f"estimated prevalence with {100 * confidence:.0f}% confidence interval")
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


def save_figure(figure, path: str | Path) -> Path:
    """Save ``figure`` as PNG (150 dpi), SVG or PDF, chosen by the suffix of ``path``."""
    from dpdesk.errors import DpdeskError

    path = Path(path)
    if path.suffix.lower() not in PLOT_SUFFIXES:
        raise DpdeskError(f"Cannot save a plot as {path.name!r}: use a name ending in .png, .svg or .pdf.")
    try:
        figure.savefig(path, dpi=150, format=path.suffix.lower()[1:], bbox_inches="tight")
    except OSError as exc:
        raise DpdeskError(f"Cannot write {path}: {exc.strerror or exc}. Choose another folder or name.") from exc
    return path


class PlotPanel(QWidget):
    """A plot with its numbers in a table beside it, and Save plot / Copy table buttons."""

    def __init__(self, title: str, description: str, columns: list[str] | None = None, parent=None) -> None:
        super().__init__(parent)
        self.title = title
        self.columns = columns
        self.rows: list[dict] = []
        self.style = None  # NumberStyle of the table (None: full values)
        self.figure = None
        self.canvas = None
        self._draw_args = None
        self.plot_holder = QVBoxLayout()
        self.placeholder = note("The plot appears here when the results are ready.")
        self.plot_holder.addWidget(self.placeholder)
        self.model = RowsModel(digits=3)
        self.table = name(QTableView(), f"{title} table", f"The numbers of the plot: {description}")
        self.table.setModel(self.model)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setMinimumWidth(300)
        self.save_button = name(QPushButton("Save plot…"), f"Save {title}", "Save the plot as PNG, SVG or PDF")
        self.copy_button = name(QPushButton("Copy table"), f"Copy {title} table",
                                "Copy the numbers as shown to paste into Excel or Word")
        self.save_button.clicked.connect(self.save_dialog)
        self.copy_button.clicked.connect(self.copy)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.save_button)
        right = QVBoxLayout()
        right.addWidget(self.table, 1)
        right.addLayout(buttons)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.plot_holder, 3)
        layout.addLayout(right, 2)
        self._set_enabled(False)

    def _ensure_canvas(self) -> None:
        if self.canvas is not None:
            return
        from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
        from matplotlib.figure import Figure

        self.figure = Figure(figsize=(5.2, 3.0), dpi=96, layout="constrained")
        self.canvas = FigureCanvasQTAgg(self.figure)
        name(self.canvas, self.title, "A plot of the results; the table beside it has the same numbers")
        self.canvas.setMinimumHeight(240)
        self.placeholder.hide()
        self.plot_holder.addWidget(self.canvas)

    def plot(self, draw, rows: list[dict], table_rows: list[dict] | None = None, **kwargs) -> None:
        """Draw ``draw(figure, rows, **kwargs)`` and list ``table_rows`` (default ``rows``)."""
        self._ensure_canvas()
        self.rows = list(table_rows if table_rows is not None else rows)
        lines = len({r.get("item") for r in rows}) if draw is draw_forest else 8
        self.canvas.setMinimumHeight(max(240, 26 * lines + 110))
        draw(self.figure, rows, **kwargs)
        self.canvas.draw_idle()
        self.model.set_rows(shown_rows(self.rows, self.style))
        self._set_enabled(bool(rows))

    def _set_enabled(self, on: bool) -> None:
        self.save_button.setEnabled(on)
        self.copy_button.setEnabled(on)

    def copy(self) -> None:
        """Copy the table as shown (in the number style)."""
        copy_table(shown_rows(self.rows, self.style))

    def save(self, path) -> Path:
        return save_figure(self.figure, path)

    def save_dialog(self) -> None:
        from dpdesk.gui.dialogs.errors import show_error
        from dpdesk.errors import DpdeskError

        path, chosen = QFileDialog.getSaveFileName(self, f"Save {self.title}", f"{self.title.lower()}.png", PLOT_FILTER)
        if not path:
            return
        if Path(path).suffix.lower() not in PLOT_SUFFIXES:
            path += {"SVG": ".svg", "PDF": ".pdf"}.get(chosen[:3], ".png")
        try:
            self.save(path)
        except DpdeskError as exc:
            show_error(exc, self)
