"""Plots of results (matplotlib in Qt), each with the same numbers in a table beside it.

The drawing functions take rows that were already computed (estimate and CI bounds);
they only draw. :class:`PlotPanel` holds a canvas, the table (for screen readers and
for copying) and buttons: **Save plot…** (PNG, SVG or PDF by the file's suffix) and
**Copy table**. matplotlib is imported when the first plot is drawn.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QBoxLayout,
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
from dpdesk.gui.widgets.common import full_width, name, note
from dpdesk.gui.widgets.wheel import guard

PLOT_FILTER = "PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"
PLOT_SUFFIXES = (".png", ".svg", ".pdf")
from dpdesk.plotting import (  # noqa: F401 - the drawing functions, shared with the report
    DIRECT_COLOUR,
    RR_COLOUR,
    SUBGROUP_COLOURS,
    draw_bars,
    draw_forest,
    draw_grouped_bars,
    set_plot_style,
)

SHARE_KEYS = ("estimate", "SE", "CI low", "CI high")
#: The narrowest a plot may get before its table moves under it, in pixels.
PLOT_MIN_WIDTH = 380


def shown_rows(rows: list[dict], style) -> list[dict]:
    """The rows as the table beside a plot shows them: shares in the number style, other fractional numbers
    (a predictor's values along a curve) to 2 decimals."""
    if style is None:
        return rows

    def shown(k, v):
        if k in SHARE_KEYS and isinstance(v, (int, float)):
            return style.share(v)
        return style.estimate(v) if isinstance(v, float) and not v.is_integer() else v

    return [{k: shown(k, v) for k, v in r.items()} for r in rows]


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
        self.box = QBoxLayout(QBoxLayout.Direction.LeftToRight, self)
        self.box.setContentsMargins(0, 0, 0, 0)
        self.box.addLayout(self.plot_holder, 3)
        self.box.addLayout(right, 2)
        self._set_enabled(False)

    def _arrange(self) -> None:
        """The table beside the plot when both fit, else under it (never clipped)."""
        need = full_width(self.table)
        beside = self.width() >= PLOT_MIN_WIDTH + need + self.box.spacing()
        direction = QBoxLayout.Direction.LeftToRight if beside else QBoxLayout.Direction.TopToBottom
        if self.box.direction() != direction:
            self.box.setDirection(direction)
        # beside the plot, the table gets its whole width (the 3:2 stretch alone could clip it)
        self.table.setMinimumWidth(max(300, need) if beside else 300)
        rows = self.model.rowCount()
        wanted = self.table.horizontalHeader().height() + sum(self.table.rowHeight(r) for r in range(rows)) + 6
        self.table.setMinimumHeight(0 if beside else min(320, max(90, wanted)))

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._arrange()

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
        guard(self)  # the wheel over the plot or its table scrolls the document

    def plot(self, draw, rows: list[dict], table_rows: list[dict] | None = None, **kwargs) -> None:
        """Draw ``draw(figure, rows, **kwargs)`` and list ``table_rows`` (default ``rows``)."""
        self._ensure_canvas()
        self.rows = list(table_rows if table_rows is not None else rows)
        lines = len({r.get("item") for r in rows}) if draw is draw_forest else 8
        self.canvas.setMinimumHeight(max(240, 26 * lines + 110))
        draw(self.figure, rows, **kwargs)
        self.canvas.draw_idle()
        self.model.set_rows(shown_rows(self.rows, self.style))
        self.table.resizeColumnsToContents()
        self._arrange()
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

        from dpdesk.gui.widgets.folders import settings_for

        settings = settings_for(self)
        path, chosen = QFileDialog.getSaveFileName(self, f"Save {self.title}",
                                                   settings.start_path("figure", f"{self.title.lower()}.png"), PLOT_FILTER)
        if not path:
            return
        settings.set_last_folder("figure", path)
        if Path(path).suffix.lower() not in PLOT_SUFFIXES:
            path += {"SVG": ".svg", "PDF": ".pdf"}.get(chosen[:3], ".png")
        try:
            self.save(path)
        except DpdeskError as exc:
            show_error(exc, self)
