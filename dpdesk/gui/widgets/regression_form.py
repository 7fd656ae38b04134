"""The model form of the Regression view: the outcome, the predictors and how each enters.

One row per data column: *Use*, the column, *Treat as* (numeric or categorical, as the
project layer detected it; a numeric column can be treated as categories), the
*Reference* level of a categorical predictor (default: its largest level; a column whose
numeric codes all have value labels is categorical by default, against its lowest code) and *Centre*
(numeric: subtract the mean, so the intercept is an average respondent). Interactions are
typed as ``age:gender``. The form only collects choices; ``regression.regress`` checks them.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHeaderView,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dpdesk.gui.widgets.common import name

DEFAULT_REFERENCE = "largest level"
#: What a numeric predictor's (disabled) reference-level cell reads: it has none.
NOT_CATEGORICAL = "— (numeric: no reference)"
COLUMNS = ("Use", "Column", "Treat as", "Reference level", "Centre")


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
        self.table.setRowCount(len(choices))
        for i, c in enumerate(choices):
            use = QCheckBox()
            name(use, f"Use {c['column']}", f"Make {c['column']} a predictor")
            self.table.setCellWidget(i, 0, use)
            item = QTableWidgetItem(c.get("label") or c["column"])  # "Q3 — What is your gender?"
            item.setToolTip(c.get("label") or c["column"])
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.table.setItem(i, 1, item)
            kind = name(QComboBox(), f"{c['column']} treated as", "Numeric (as it is) or categorical (dummies)")
            if c["kind"] == "numeric":
                kind.addItem("numeric", "numeric")
            kind.addItem("categorical", "categorical")
            if c.get("labelled"):  # codes with value labels: categories by default, numbers on request
                kind.addItem("numeric", "numeric")
                kind.setToolTip("Every code has a value label, so the codes name categories (compared with the "
                                "lowest code); choose numeric to use the codes as numbers")
            kind.setEnabled(kind.count() > 1 and bool(c["levels"]))
            self.table.setCellWidget(i, 2, kind)
            ref = name(QComboBox(), f"Reference level of {c['column']}", "The level the others are compared with")
            ref.addItem(f"{c['levels'][0]} (lowest code)" if c.get("labelled") and c["levels"] else DEFAULT_REFERENCE,
                        None)
            ref.setProperty("default_text", ref.itemText(0))
            for level in c["levels"]:
                ref.addItem(level, level)
            self.table.setCellWidget(i, 3, ref)
            centre = QCheckBox()
            name(centre, f"Centre {c['column']}", "Subtract the mean, so the intercept is an average respondent")
            self.table.setCellWidget(i, 4, centre)
            old = before.get(c["column"])
            if old is not None:
                use.setChecked(old["use"])
                kind.setCurrentIndex(max(0, kind.findData(old["kind"])))
                ref.setCurrentIndex(max(0, ref.findData(old["reference"])))
                centre.setChecked(old["centre"])
            for box in (use, centre):
                box.toggled.connect(self._on_change)
            for combo in (kind, ref):
                combo.currentIndexChanged.connect(self._on_change)
        self._on_change()

    def _on_change(self, *_args) -> None:
        for i in range(len(self._rows)):
            categorical = self.table.cellWidget(i, 2).currentData() == "categorical"
            self._show_reference(self.table.cellWidget(i, 3), categorical)
            self.table.cellWidget(i, 4).setEnabled(not categorical)
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
        return {"use": self.table.cellWidget(i, 0).isChecked(), "kind": self.table.cellWidget(i, 2).currentData(),
                "reference": self.table.cellWidget(i, 3).currentData(),
                "centre": self.table.cellWidget(i, 4).isChecked()}

    def predictors(self) -> list[str]:
        return [r["column"] for i, r in enumerate(self._rows) if self.table.cellWidget(i, 0).isChecked()]

    @staticmethod
    def _show_reference(ref: QComboBox, categorical: bool) -> None:
        """A numeric predictor has no reference level: its cell reads NOT_CATEGORICAL (disabled), and the
        level chosen before comes back when it is categorical again."""
        shown = (ref.isEnabled(), ref.itemText(0) == NOT_CATEGORICAL)
        if shown == ((True, False) if categorical else (False, True)):
            return
        ref.blockSignals(True)
        if categorical:
            ref.setItemText(0, ref.property("default_text"))
            ref.setCurrentIndex(int(ref.property("kept") or 0))
        else:
            if ref.isEnabled():
                ref.setProperty("kept", ref.currentIndex())
            ref.setItemText(0, NOT_CATEGORICAL)
            ref.setCurrentIndex(0)
        ref.setEnabled(categorical)
        ref.blockSignals(False)

    def choose(self, column: str, *, kind: str | None = None, reference: str | None = None,
               centre: bool = False) -> None:
        """Tick ``column`` as a predictor (with its kind, reference level and centring)."""
        i = self.row_of(column)
        self.table.cellWidget(i, 0).setChecked(True)
        if kind is not None:
            self.table.cellWidget(i, 2).setCurrentIndex(max(0, self.table.cellWidget(i, 2).findData(kind)))
        ref = self.table.cellWidget(i, 3)
        ref.setCurrentIndex(max(0, ref.findData(reference)))
        self.table.cellWidget(i, 4).setChecked(centre)

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
            self.table.cellWidget(i, 0).setChecked(False)
        for column in spec.predictors:
            if any(r["column"] == column for r in self._rows):
                kind = ("categorical" if column in spec.categorical else "numeric" if column in spec.numeric
                        else self._rows[self.row_of(column)]["kind"])  # text columns: categorical
                self.choose(column, kind=kind, reference=spec.reference.get(column), centre=column in spec.center)
        self.interactions.setText(", ".join(spec.interactions))
        self.plot.setCurrentIndex(max(0, self.plot.findData(spec.plot)))
