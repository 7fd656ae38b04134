"""The model form of the Regression view: the outcome, the predictors and how each enters.

One row per data column (cells, not widgets: one Tab stop, see ``cell_choices``): *Use*, the column, *Treat as* (numeric or categorical, as the
project layer detected it; a numeric column can be treated as categories), the
*Reference* level of a categorical predictor (default: its largest level; a column whose
numeric codes all have value labels is categorical by default, against its lowest code) and *Centre*
(numeric: subtract the mean, so the intercept is an average respondent). Interactions are
typed as ``age:gender``. The form only collects choices; ``regression.regress`` checks them.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHeaderView,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dpdesk.gui.widgets import cell_choices
from dpdesk.gui.widgets.cell_choices import check_item, choice_item, choose, set_usable
from dpdesk.gui.widgets.common import name

DEFAULT_REFERENCE = "largest level"
NO_REFERENCE = "—"  # a numeric predictor has no reference level
COLUMNS = ("Use", "Column", "Treat as", "Reference level", "Centre")
USE, COLUMN, KIND, REFERENCE, CENTRE = range(len(COLUMNS))


class RegressionForm(QWidget):
    changed = Signal()  # any choice changed (the view marks shown results as not for these choices)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.outcome = name(QComboBox(), "Outcome", "The yes/no randomized-response item to explain")
        self.table = name(QTableWidget(0, len(COLUMNS)), "Predictors",
                          "Each column of the active dataset: tick Use to make it a predictor")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        for i in range(len(COLUMNS)):
            header.setSectionResizeMode(i, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.setMinimumHeight(110)
        cell_choices.install(self.table)  # one Tab stop, arrows inside; one click ticks Use or Centre
        self.interactions = name(QLineEdit(), "Interactions",
                                 "Products of two predictors, e.g. age:gender; separate several with commas")
        self.interactions.setPlaceholderText("optional, e.g. age:gender, exam_stress:faculty")
        self.plot = name(QComboBox(), "Plot across", "The predictor across which the predicted prevalence is plotted")
        form = QFormLayout()
        form.addRow("Outcome:", self.outcome)
        form.addRow("Interactions:", self.interactions)
        form.addRow("Plot prevalence across:", self.plot)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(form)
        layout.addWidget(self.table, 1)
        self._rows: list[dict] = []
        self.outcome.currentIndexChanged.connect(self.changed)
        self.interactions.textChanged.connect(self.changed)
        self.table.itemChanged.connect(self._on_change)

    # ------------------------------------------------------------------ filling
    def set_items(self, items: list[tuple[str, str]], keep: str | None = None) -> None:
        """``(name, label)`` of the yes/no items."""
        self.outcome.blockSignals(True)
        keep = keep or self.outcome.currentData()
        self.outcome.clear()
        for item, label in items:
            self.outcome.addItem(label, item)
        self.outcome.setCurrentIndex(max(0, self.outcome.findData(keep)))
        self.outcome.blockSignals(False)

    def set_columns(self, choices: list[dict]) -> None:
        """``predictor_choices`` rows: ``{"column", "kind", "levels"}``; earlier choices are kept."""
        before = {r["column"]: self.choice(i) for i, r in enumerate(self._rows)}
        self._rows = list(choices)
        self.table.blockSignals(True)
        self.table.setRowCount(len(choices))
        for i, c in enumerate(choices):
            old = before.get(c["column"]) or {}
            self.table.setItem(i, USE, check_item(QTableWidgetItem(), old.get("use", False), f"Use {c['column']}"))
            item = QTableWidgetItem(c.get("label") or c["column"])  # "Q3 — What is your gender?"
            item.setToolTip(c.get("label") or c["column"])
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.table.setItem(i, COLUMN, item)
            kinds = ([("numeric", "numeric")] if c["kind"] == "numeric" else []) + [("categorical", "categorical")]
            kind = QTableWidgetItem()
            if c.get("labelled"):  # codes with value labels: categories by default, numbers on request
                kinds.append(("numeric", "numeric"))
                kind.setToolTip("Every code has a value label, so the codes name categories (compared with the "
                                "lowest code); choose numeric to use the codes as numbers")
            else:
                kind.setToolTip("Numeric (as it is) or categorical (dummies)")
            choice_item(kind, kinds, f"{c['column']} treated as")
            choose(kind, old.get("kind", kinds[0][1]))
            if len(kinds) < 2 or not c["levels"]:
                kind.setFlags(kind.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.table.setItem(i, KIND, kind)
            first = f"{c['levels'][0]} (lowest code)" if c.get("labelled") and c["levels"] else DEFAULT_REFERENCE
            ref = choice_item(QTableWidgetItem(), [(first, None)] + [(level, level) for level in c["levels"]],
                              f"Reference level of {c['column']}")
            ref.setToolTip("The level the others are compared with")
            choose(ref, old.get("reference"))
            self.table.setItem(i, REFERENCE, ref)
            centre = check_item(QTableWidgetItem(), old.get("centre", False), f"Centre {c['column']}")
            centre.setToolTip("Subtract the mean, so the intercept is an average respondent")
            self.table.setItem(i, CENTRE, centre)
        self.table.blockSignals(False)
        self._on_change()

    def _on_change(self, *_args) -> None:
        self.table.blockSignals(True)  # only the cells' flags and words change here
        for i in range(len(self._rows)):
            categorical = self.table.item(i, KIND).data(Qt.ItemDataRole.UserRole) == "categorical"
            set_usable(self.table.item(i, REFERENCE), categorical, NO_REFERENCE)
            set_usable(self.table.item(i, CENTRE), not categorical)
        self.table.blockSignals(False)
        keep = self.plot.currentData()
        self.plot.blockSignals(True)
        self.plot.clear()
        for column in self.predictors():
            self.plot.addItem(column, column)
        self.plot.setCurrentIndex(max(0, self.plot.findData(keep)))
        self.plot.blockSignals(False)
        self.changed.emit()

    # ------------------------------------------------------------------ reading
    def column_label(self, column: str) -> str:
        """What the chooser calls ``column`` without its code: "What is your gender?" of "Q3 — What is your gender?"."""
        from dpdesk.project.study.labels import DASH

        row = next((r for r in self._rows if r["column"] == column), None)
        return (row.get("label") or column).split(DASH, 1)[-1] if row is not None else column

    def outcome_label(self) -> str:
        """The chosen outcome as the output calls it (its short label or question, not its name)."""
        from dpdesk.project.study.labels import DASH

        return self.outcome.currentText().split(DASH, 1)[-1]

    def row_of(self, column: str) -> int:
        return next(i for i, r in enumerate(self._rows) if r["column"] == column)

    def choice(self, i: int) -> dict:
        t = self.table
        return {"use": t.item(i, USE).checkState() == Qt.CheckState.Checked,
                "kind": t.item(i, KIND).data(Qt.ItemDataRole.UserRole),
                "reference": t.item(i, REFERENCE).data(Qt.ItemDataRole.UserRole),
                "centre": t.item(i, CENTRE).checkState() == Qt.CheckState.Checked}

    def predictors(self) -> list[str]:
        return [r["column"] for i, r in enumerate(self._rows)
                if self.table.item(i, USE).checkState() == Qt.CheckState.Checked]

    def choose(self, column: str, *, kind: str | None = None, reference: str | None = None,
               centre: bool = False) -> None:
        """Tick ``column`` as a predictor (with its kind, reference level and centring)."""
        i = self.row_of(column)
        t = self.table
        t.blockSignals(True)
        t.item(i, USE).setCheckState(Qt.CheckState.Checked)
        if kind is not None:
            choose(t.item(i, KIND), kind)
        choose(t.item(i, REFERENCE), reference)
        t.item(i, CENTRE).setCheckState(Qt.CheckState.Checked if centre else Qt.CheckState.Unchecked)
        t.blockSignals(False)
        self._on_change()

    def spec_fields(self) -> dict:
        """The choices as ``RegressionSpec`` fields."""
        reference, center, categorical, numeric = {}, [], [], []
        for i, r in enumerate(self._rows):
            c = self.choice(i)
            if not c["use"]:
                continue
            if c["kind"] == "numeric" and r.get("labelled"):
                numeric.append(r["column"])
            if c["kind"] == "categorical":
                if r["kind"] == "numeric":
                    categorical.append(r["column"])
                if c["reference"] is not None:
                    reference[r["column"]] = c["reference"]
            elif c["centre"]:
                center.append(r["column"])
        interactions = [s.strip() for s in self.interactions.text().split(",") if s.strip()]
        return {"item": self.outcome.currentData(), "predictors": self.predictors(), "reference": reference,
                "interactions": interactions, "center": center, "categorical": categorical, "numeric": numeric,
                "plot": self.plot.currentData()}

    def restore(self, spec) -> None:
        """Show the choices of a saved ``RegressionSpec``."""
        self.outcome.setCurrentIndex(max(0, self.outcome.findData(spec.item)))
        for i in range(len(self._rows)):
            self.table.item(i, USE).setCheckState(Qt.CheckState.Unchecked)
        for column in spec.predictors:
            if any(r["column"] == column for r in self._rows):
                kind = ("categorical" if column in spec.categorical else "numeric" if column in spec.numeric
                        else self._rows[self.row_of(column)]["kind"])  # text columns: categorical
                self.choose(column, kind=kind, reference=spec.reference.get(column), centre=column in spec.center)
        self.interactions.setText(", ".join(spec.interactions))
        self.plot.setCurrentIndex(max(0, self.plot.findData(spec.plot)))
