"""Planning several releases at once: share what is left of the budget evenly or by weights.

The shares come from :func:`dpdesk.project.ledger.releases.plan` (exact fractions for pure epsilon,
the tight privacy-loss-distribution planner with a delta), and each planned release's
cost and accuracy from :func:`dpdesk.project.ledger.releases.preview`.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QRadioButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dpdesk.mechanisms.central.request import describe, normalize


def accuracy_text(preview) -> str:
    hw = preview.half_width
    if not hw:
        stat = preview.request["statistic"]
        if stat == "mean":
            return "an interval counting the noise of both its sum and its count, shown with the result"
        return "chosen among the candidate values; no ± interval" if stat in ("median", "quantile") else ""
    return f"±{hw['simultaneous']:,.4g} (any one cell ±{hw['per_cell']:,.4g})"


class PlanPane(QWidget):
    """Requests to release together. ``add_requested`` and ``plan_requested`` go to the view
    (it knows the project and the form); ``release_requested(list)`` carries the planned requests."""

    add_requested = Signal()
    plan_requested = Signal()
    release_requested = Signal(list)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("planPane")
        intro = QLabel("Plan several tables at once: add each from the form, then share what is left of the "
                       "budget among them and see each one's accuracy before anything is released.")
        intro.setWordWrap(True)
        self.table = QTableWidget(0, 4)
        self.table.setTabKeyNavigation(False)
        self.table.setHorizontalHeaderLabels(["What", "Weight", "Cost", "Accuracy"])
        self.table.horizontalHeaderItem(3).setToolTip("± at the confidence asked, every cell at once")
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.setAccessibleName("Planned releases")
        self.add_button = QPushButton("Add the form's table")
        self.remove_button = QPushButton("Remove")
        self.evenly = QRadioButton("Evenly")
        self.by_weight = QRadioButton("By weights")
        self.evenly.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.evenly)
        group.addButton(self.by_weight)
        self.plan_button = QPushButton("Share what is left")
        self.release_button = QPushButton("Release all…")
        self.release_button.setEnabled(False)
        self.status = QLabel()
        self.status.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(self.add_button)
        top.addWidget(self.remove_button)
        top.addStretch(1)
        top.addWidget(QLabel("Split:"))
        top.addWidget(self.evenly)
        top.addWidget(self.by_weight)
        top.addWidget(self.plan_button)
        top.addWidget(self.release_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(intro)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status)
        self.requests: list[dict] = []
        self.planned: list[dict] | None = None
        self.add_button.clicked.connect(self.add_requested)
        self.remove_button.clicked.connect(self.remove_selected)
        self.plan_button.clicked.connect(self.plan_requested)
        self.release_button.clicked.connect(self._release_clicked)
        self.evenly.toggled.connect(self._forget_plan)

    def add(self, request: dict) -> None:
        """Add a request (its own size is replaced by the plan's share)."""
        spec = normalize(request)
        self.requests.append(spec)
        row = self.table.rowCount()
        self.table.insertRow(row)
        self.table.setItem(row, 0, QTableWidgetItem(describe(spec)))
        weight = QDoubleSpinBox()
        weight.setRange(0.1, 100)
        weight.setValue(1)
        weight.setAccessibleName(f"Weight of {describe(spec)}")
        weight.valueChanged.connect(self._forget_plan)
        self.table.setCellWidget(row, 1, weight)
        self._forget_plan()

    def clear(self, words: str = "") -> None:
        self.requests.clear()
        self.table.setRowCount(0)
        self._forget_plan()
        self.status.setText(words)

    def remove_selected(self) -> None:
        rows = sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True)
        for row in rows:
            self.table.removeRow(row)
            del self.requests[row]
        self._forget_plan()

    def weights(self) -> list[str] | None:
        if self.evenly.isChecked():
            return None
        return [f"{self.table.cellWidget(r, 1).value():.2f}" for r in range(self.table.rowCount())]

    def _forget_plan(self, *_args) -> None:
        self.planned = None
        for r in range(self.table.rowCount()):
            for c in (2, 3):
                self.table.setItem(r, c, QTableWidgetItem(""))
        self.release_button.setEnabled(False)
        self.status.setText(f"{len(self.requests)} table(s) in the plan." if self.requests else "")

    def make_plan(self, project) -> list[dict]:
        """Share the remaining budget (raises a DpdeskError in words if it cannot)."""
        from dpdesk.project import ledger

        self.planned = None
        planned = ledger.plan(project, self.requests, self.weights())
        for r, spec in enumerate(planned):
            pv = ledger.preview(project, spec)
            cost = QTableWidgetItem(pv.cost_text)
            cost.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(r, 2, cost)
            self.table.setItem(r, 3, QTableWidgetItem(accuracy_text(pv)))
        self.planned = planned
        status = ledger.budget_status(project)
        self.status.setText(f"Together these use at most the {status.remaining_text} that is left "
                            f"({'evenly' if self.evenly.isChecked() else 'by weight'}).")
        self.release_button.setEnabled(bool(planned))
        return planned

    def _release_clicked(self) -> None:
        if self.planned:
            self.release_requested.emit(list(self.planned))
