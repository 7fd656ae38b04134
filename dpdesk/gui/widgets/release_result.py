"""A released statistic shown as a table: a rows x columns grid for a cross-tab, a list
otherwise; post-processed values marked, each cell's interval in its tooltip or, with
"Show intervals", in the cell; Copy (HTML + TSV) and Export (xlsx, CSV).

The numbers come from :mod:`dpdesk.project.ledger.release_cells` (values as recorded, after
free post-processing, intervals that cover the truth after it, margins derived from the
cells); this widget only lays them out. Counts are shown clamped at 0; a value changed by
post-processing is shown in italics with a dagger (†). Derived margins (Total) are on a
grey background. The half-width ``a`` is the ledger's recorded simultaneous one: every cell
of the table within it at once, at the stated confidence.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

DAGGER = "†"
MECHANISM_WORDS = {"discrete_laplace": "discrete Laplace noise", "discrete_gaussian": "discrete Gaussian noise",
                   "noisy_max": "chosen by the exponential mechanism"}


def what_words(entry, labels=None) -> str:
    """The release's description as a researcher reads it ("cross-tab of gender x faculty"), in ``labels``."""
    from dpdesk.project.ledger.release_cells import described

    text = described(entry, labels)
    return "cross-tab" + text[len("crosstab"):] if text.startswith("crosstab") else text
MARGIN_BRUSH = QColor("#f1f3f4")


def _num(v) -> str:
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return f"{v:,.0f}" if float(v).is_integer() else f"{v:,.4g}"
    return "" if v is None else str(v)


def cells(result: dict, key_texts=None) -> list[tuple[str, object]]:
    """(label, value) of each released cell (the release list's short summary); ``key_texts``: the keys as shown."""
    keys, values = key_texts or result.get("keys") or [], result.get("values")
    if not keys:
        return [("all respondents", values)]
    if len(keys) == 1:
        return [(str(k), v) for k, v in zip(keys[0], values)]
    return [(f"{a} × {b}", v) for a, row in zip(keys[0], values) for b, v in zip(keys[1], row)]


def interval_text(cell) -> str:
    """Both ends with the same decimals: "36.00 to 39.54", "58 to 78"."""
    import math

    lo, hi = cell.low, cell.high
    if lo is None or hi is None:
        return ""
    if float(lo).is_integer() and float(hi).is_integer():
        return f"{lo:,.0f} to {hi:,.0f}"
    size = max(abs(lo), abs(hi), 1e-12)
    decimals = max(0, min(6, 3 - math.floor(math.log10(size))))
    return f"{lo:,.{decimals}f} to {hi:,.{decimals}f}"


def cell_tooltip(cell, confidence) -> str:
    lines = []
    if cell.low is not None:
        conf = f"{confidence:.0%} " if confidence else ""
        lines.append(f"{conf}interval (all cells at once): {interval_text(cell)}")
    if cell.derived:
        lines.append("Total derived by adding the released cells (free post-processing).")
    if cell.adjusted and not cell.derived:
        lines.append(f"{DAGGER} Post-processed: the noisy value was {_num(cell.raw)}.")
    elif not cell.derived:
        lines.append("As released (noisy value, not post-processed).")
    return "\n".join(lines)


def cell_text(cell, with_interval: bool) -> str:
    text = _num(cell.shown) + (DAGGER if cell.adjusted and not cell.derived else "")
    if with_interval and cell.low is not None:
        text += f"  ({interval_text(cell)})"
    return text


def shown_rows(rc, grid, with_interval: bool) -> list[dict]:
    """The table as shown (a grid, or one row per cell), as dicts for copying."""
    if grid is not None:
        out = []
        for i, r in enumerate(grid.rows):
            row = {f"{grid.row_axis} \\ {grid.col_axis}": r}
            for j, c in enumerate(grid.cols):
                row[str(c)] = cell_text(grid.cells[i][j], with_interval)
            if grid.row_margins:
                row["Total"] = cell_text(grid.row_margins[i], with_interval)
            out.append(row)
        if grid.col_margins:
            row = {f"{grid.row_axis} \\ {grid.col_axis}": "Total"}
            for j, c in enumerate(grid.cols):
                row[str(c)] = cell_text(grid.col_margins[j], with_interval)
            row["Total"] = cell_text(grid.total, with_interval)
            out.append(row)
        return out
    label = " × ".join(rc.axes) or "Cell"
    return [{label: " × ".join(str(k) for k in cell.keys) or "all respondents",
             "Released value": _num(cell.shown) + (DAGGER if cell.adjusted else ""),
             "Interval": interval_text(cell)} for cell in rc.cells]


class ResultPane(QWidget):
    """Shows one :class:`~dpdesk.project.ledger.releases.LedgerEntry`."""

    exported = Signal(str)  # the path written

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("releaseResult")
        self.title = QLabel("No release shown yet. Prepare one on the left, or open one from the release list.")
        self.title.setWordWrap(True)
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["Cell", "Released value", "Interval"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setTabKeyNavigation(False)
        self.table.setAccessibleName("Released values")
        self.show_intervals = QCheckBox("Show intervals")
        self.show_intervals.setToolTip("Show each cell's interval in the cell (it is always in the tooltip)")
        self.copy_button = QPushButton("Copy table")
        self.copy_button.setToolTip("Copy the table as shown (pastes into Word or Excel as a table)")
        self.latex_button = QPushButton("Copy as LaTeX")
        self.latex_button.setToolTip("Copy the table as the report prints it, as a LaTeX booktabs table with its "
                                     "notes")
        self.export_button = QPushButton("Export…")
        self.export_button.setToolTip("Save this release as a spreadsheet (.xlsx) or .csv, with its noise, "
                                      "cost and what its intervals cover")
        bar = QHBoxLayout()
        bar.addWidget(self.show_intervals)
        bar.addStretch(1)
        bar.addWidget(self.copy_button)
        bar.addWidget(self.latex_button)
        bar.addWidget(self.export_button)
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.notes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.table, 1)
        layout.addLayout(bar)
        layout.addWidget(self.notes)
        self.entry = None
        self.labels = None
        self.rc = None
        self.grid = None
        self.show_intervals.toggled.connect(self._fill)
        self.copy_button.clicked.connect(self.copy)
        self.latex_button.clicked.connect(self.copy_latex)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._cell_menu)
        self.export_button.clicked.connect(self.export_dialog)
        self._set_enabled()

    def _set_enabled(self) -> None:
        for w in (self.copy_button, self.latex_button, self.export_button, self.show_intervals):
            w.setEnabled(self.entry is not None)

    def show_entry(self, entry, how: str = "released", labels=None) -> None:
        """``how``: 'released' (just now), 'replayed' or 'opened' (from the ledger; both free); ``labels``
        (``release_cells.entry_labels``): the columns' labels and value labels the table shows."""
        from dpdesk.project.ledger.release_cells import grid_of, release_cells

        self.entry = entry
        self.labels = labels
        self.rc = release_cells(entry, labels)
        self.grid = grid_of(self.rc, list((entry.result or {}).get("keys") or []))
        self._fill()
        when = entry.time.replace("T", " ")[:19]
        import html

        mech = MECHANISM_WORDS.get(entry.mechanism, entry.mechanism.replace("_", " "))
        head = f"<b>Release #{entry.seq}: {html.escape(what_words(entry, labels))}</b> ({mech})<br>"
        if how == "released":
            head += f"Released just now; it cost {self.rc.cost}."
        elif how == "replayed":
            head += (f"Asked before, on {when}: the recorded result is shown again at no cost "
                     "(never re-noised, so asking again cannot average the noise away).")
        else:
            head += (f"Opened from the release list: made on {when} for {self.rc.cost}. Opening it costs nothing; "
                     "the recorded result is shown, never re-noised.")
        self.title.setText(head)
        notes = []
        if self.rc.confidence is not None and self.rc.cells and self.rc.cells[0].low is not None:
            hw = (entry.result or {}).get("half_width")
            if hw:
                notes.append(f"Intervals: every cell within ±{_num(float(hw['simultaneous']))} of its exact value "
                             f"at once, with probability {self.rc.confidence:.0%} (any one cell alone: "
                             f"±{_num(float(hw['per_cell']))}). Hover over a cell, or tick Show intervals.")
            else:
                notes.append(f"Intervals: every one at once with probability at least {self.rc.confidence:.0%}, "
                             "counting the noise of both the sum and the count. Hover over a cell, or tick "
                             "Show intervals.")
        if self.rc.postprocessing != "none":
            notes.append(f"Post-processing (free): {self.rc.postprocessing}. "
                         f"{DAGGER} marks a value it changed; unmarked values are as released.")
        if self.grid is not None and self.grid.row_margins:
            notes.append("Totals (grey) are derived by adding the cells; they cost nothing.")
        notes += self.rc.notes
        notes.append(f"Noise: {self.rc.noise}.")
        self.notes.setText("<br>".join(notes))
        self._set_enabled()

    def _item(self, text: str, cell=None, header: bool = False) -> QTableWidgetItem:
        item = QTableWidgetItem(text)
        if cell is not None:
            item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            item.setToolTip(cell_tooltip(cell, self.rc.confidence))
            item.setData(Qt.ItemDataRole.UserRole, cell)
            font = QFont(item.font())
            font.setItalic(bool(cell.adjusted and not cell.derived))
            item.setFont(font)
            if cell.derived:
                item.setBackground(QBrush(MARGIN_BRUSH))
        if header:
            font = QFont(item.font())
            font.setBold(True)
            item.setFont(font)
        return item

    def _fill(self, *_args) -> None:
        if self.rc is None:
            return
        with_iv = self.show_intervals.isChecked()
        t, g = self.table, self.grid
        t.clear()
        header = t.horizontalHeader()
        if g is not None:
            margins = bool(g.row_margins)
            t.setColumnCount(1 + len(g.cols) + margins)
            t.setRowCount(len(g.rows) + margins)
            t.setHorizontalHeaderLabels([f"{g.row_axis} \\ {g.col_axis}", *map(str, g.cols)]
                                        + (["Total"] if margins else []))
            for i, r in enumerate(g.rows):
                t.setItem(i, 0, self._item(str(r), header=True))
                for j, cell in enumerate(g.cells[i]):
                    t.setItem(i, 1 + j, self._item(cell_text(cell, with_iv), cell))
                if margins:
                    t.setItem(i, 1 + len(g.cols), self._item(cell_text(g.row_margins[i], with_iv), g.row_margins[i]))
            if margins:
                last = len(g.rows)
                total = self._item("Total", header=True)
                total.setBackground(QBrush(MARGIN_BRUSH))
                t.setItem(last, 0, total)
                for j, cell in enumerate(g.col_margins):
                    t.setItem(last, 1 + j, self._item(cell_text(cell, with_iv), cell))
                t.setItem(last, 1 + len(g.cols), self._item(cell_text(g.total, with_iv), g.total))
            header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        else:
            rows = self.rc.cells
            t.setColumnCount(3)
            t.setRowCount(len(rows))
            t.setHorizontalHeaderLabels([" × ".join(self.rc.axes) or "Cell", "Released value", "Interval"])
            for r, cell in enumerate(rows):
                t.setItem(r, 0, self._item(" × ".join(str(k) for k in cell.keys) or "all respondents"))
                t.setItem(r, 1, self._item(cell_text(cell, False), cell))
                iv = self._item(interval_text(cell), cell)
                t.setItem(r, 2, iv)
            header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
            header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)

    # ------------------------------------------------------------------ copy and export
    def copy_rows(self) -> list[dict]:
        return shown_rows(self.rc, self.grid, self.show_intervals.isChecked()) if self.rc is not None else []

    def copy(self) -> None:
        from dpdesk.gui.widgets.clipboard import copy_table

        if self.rc is not None:
            copy_table(self.copy_rows())

    def copy_latex(self) -> None:
        """The release as the report's table (:func:`dpdesk.project.report.releases.release_table`), in LaTeX."""
        from dpdesk.gui.widgets.clipboard import copy_document_table_latex
        from dpdesk.project.report.releases import release_table

        if self.entry is not None:
            copy_document_table_latex(release_table(self.entry))

    def copy_cell(self, row: int, column: int) -> None:
        from dpdesk.gui.widgets.clipboard import copy_text

        item = self.table.item(row, column)
        if item is not None:
            copy_text(item.text())

    def _cell_menu(self, pos) -> None:
        """Right-click on a cell: Copy cell, Copy table, Copy as LaTeX."""
        from functools import partial

        from PySide6.QtWidgets import QMenu

        if self.entry is None:
            return
        index = self.table.indexAt(pos)
        menu = QMenu(self.table)
        if index.isValid():
            menu.addAction("Copy cell", partial(self.copy_cell, index.row(), index.column()))
        menu.addAction("Copy table", self.copy)
        menu.addAction("Copy as LaTeX", self.copy_latex)
        menu.exec(self.table.viewport().mapToGlobal(pos))

    def export_dialog(self) -> None:
        if self.entry is None:
            return
        from dpdesk.gui.widgets.folders import settings_for

        settings = settings_for(self)
        path, _ = QFileDialog.getSaveFileName(self, "Export the released table",
                                              settings.start_path("export", f"release_{self.entry.seq}.xlsx"),
                                              "Excel workbook (*.xlsx);;CSV (*.csv)")
        if path:
            settings.set_last_folder("export", path)
            self.export_to(path)

    def export_to(self, path: str) -> str | None:
        """Write the shown release to ``path`` (.xlsx or .csv); errors are shown in words."""
        from dpdesk.errors import DpdeskError
        from dpdesk.project.ledger.release_table import export_release

        if not path.lower().endswith((".xlsx", ".csv")):
            path += ".xlsx"
        try:
            written = str(export_release(self.entry, path, self.labels))
        except (DpdeskError, OSError) as exc:
            from dpdesk.gui.dialogs.errors import show_error

            show_error(exc, self)
            return None
        self.exported.emit(written)
        return written
