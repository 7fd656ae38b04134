"""The release list (the ledger): every release with its time, cost and result.

Opening an old release shows its recorded result, costs nothing and says so. A ledger
found edited outside dpdesk (``verify_ledger``) is shown as such; releases then stop.
"""

from __future__ import annotations

from fractions import Fraction

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dpdesk.project.ledger.text import epsilon_text

from dpdesk.gui.widgets.release_result import cells, what_words

TAMPERED_TEXT = ("<b>This ledger was edited outside dpdesk.</b> Its records cannot be trusted, so no more "
                 "releases are made from this project. What was found: {problems}")


def cost_text(entry) -> str:
    try:
        return epsilon_text(Fraction(entry.cost["epsilon"]), Fraction(entry.cost.get("delta", "0")), up=True)
    except (KeyError, ValueError, ZeroDivisionError, TypeError):
        return "unreadable"


def result_text(entry, limit: int = 4) -> str:
    parts = cells(entry.result) if isinstance(entry.result.get("values"), (list, int, float)) else []
    out = []
    for label, value in parts[:limit]:
        v = f"{value:,.4g}" if isinstance(value, float) else str(value)
        out.append(v if label == "all respondents" else f"{label} {v}")
    return ", ".join(out) + (" …" if len(parts) > limit else "") if out else "unreadable"


class LedgerView(QWidget):
    """The list of releases; ``opened(entry)`` when one is opened (free of cost)."""

    opened = Signal(object)
    export_requested = Signal(object)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("ledgerView")
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet("QLabel { background: #fdecea; color: #8e1b1b; padding: 8px; "
                                  "border: 1px solid #e57373; }")
        self.banner.hide()
        self.table = QTableWidget(0, 5)
        self.table.setHorizontalHeaderLabels(["#", "Time (UTC)", "What", "Cost", "Result"])
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setTabKeyNavigation(False)
        header = self.table.horizontalHeader()
        for col in (0, 1, 3):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.table.setAccessibleName("Releases")
        self.table.setAccessibleDescription("Every noisy release of this project: time, what, cost and result")
        self.open_button = QPushButton("Open (free)")
        self.open_button.setToolTip("Show the recorded result again. It costs nothing: it is never re-noised.")
        self.export_button = QPushButton("Export…")
        self.export_button.setToolTip("Save the selected release as .xlsx or .csv (costs nothing)")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.summary, 1)
        row.addWidget(self.open_button)
        row.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.banner)
        layout.addWidget(self.table, 1)
        layout.addLayout(row)
        self.entries: list = []
        self.intact = True
        self.open_button.clicked.connect(self.open_selected)
        self.export_button.clicked.connect(self.export_selected)
        self.table.itemDoubleClicked.connect(self.open_selected)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self._update_buttons()

    def refresh(self, project) -> None:
        from dpdesk.project import ledger

        if project is None or project.closed:
            self.entries, self.intact = [], True
        else:
            self.entries = ledger.ledger(project)
            check = ledger.verify_ledger(project)
            self.intact = check.ok
            self.banner.setText(TAMPERED_TEXT.format(problems="; ".join(check.problems) or "the hash chain"))
        self.banner.setVisible(not self.intact)
        self.table.setRowCount(len(self.entries))
        for r, e in enumerate(reversed(self.entries)):  # newest first
            texts = (str(e.seq), e.time.replace("T", " ")[:19], what_words(e), cost_text(e), result_text(e))
            for c, text in enumerate(texts):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, e.seq)
                item.setToolTip(text)
                self.table.setItem(r, c, item)
        n = len(self.entries)
        self.summary.setText("No releases yet." if not n else
                             f"{n} release(s). Opening one shows its recorded result at no cost.")
        self._update_buttons()

    def selected_entry(self):
        items = self.table.selectedItems()
        if not items:
            return None
        seq = items[0].data(Qt.ItemDataRole.UserRole)
        return next((e for e in self.entries if e.seq == seq), None)

    def open_selected(self, *_args) -> None:
        entry = self.selected_entry()
        if entry is not None:
            self.opened.emit(entry)

    def export_selected(self) -> None:
        entry = self.selected_entry()
        if entry is not None:
            self.export_requested.emit(entry)

    def _update_buttons(self) -> None:
        chosen = self.selected_entry() is not None
        self.open_button.setEnabled(chosen)
        self.export_button.setEnabled(chosen)
