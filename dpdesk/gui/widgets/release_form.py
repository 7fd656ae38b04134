"""The form that builds a release request: statistic, columns, public keys or bins, bounds,
groups, noise, and either the cost (epsilon) or the accuracy (+-).

It only assembles the plain request dict of :mod:`dpdesk.mechanisms.central.request`; the
tabulate view previews and releases it through :mod:`dpdesk.project.ledger.releases`. Categories,
bin edges, bounds and group values are typed by the researcher: they are public and are
never read from the data (a category that exists only in the data would itself leak).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QRadioButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

STATISTICS = (("Count", "count"), ("Histogram", "histogram"), ("Cross-tab", "crosstab"), ("Sum", "sum"),
              ("Mean", "mean"), ("Median", "median"))
NO_GROUPS = "(no groups)"
CONFIDENCES = (("95%", "0.95"), ("90%", "0.9"), ("99%", "0.99"))


def split_values(text: str) -> list[str]:
    """'Arts, Science ,Law' -> ['Arts', 'Science', 'Law'] (empty parts dropped)."""
    return [p.strip() for p in text.split(",") if p.strip()]


class Axis(QWidget):
    """One column of a histogram or cross-tab: the column, and its categories or bin edges."""

    changed = Signal()

    def __init__(self, title: str, parent=None) -> None:
        super().__init__(parent)
        self.column = QComboBox()
        self.column.setAccessibleName(f"{title} column")
        self.kind = QComboBox()
        self.kind.addItems(["categories", "bin edges"])
        self.kind.setAccessibleName(f"{title}: categories or bin edges")
        self.values = QLineEdit()
        self.values.setAccessibleName(f"{title} values")
        self.values.setPlaceholderText("public categories, comma-separated (e.g. Arts, Law, Science)")
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.column, 2)
        row.addWidget(self.kind, 1)
        row.addWidget(self.values, 4)
        self.column.currentIndexChanged.connect(self.changed)
        self.column.currentIndexChanged.connect(self._placeholder)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.values.textChanged.connect(self.changed)

    def _kind_changed(self) -> None:
        self._placeholder()
        self.changed.emit()

    def set_value_labels(self, labels: dict) -> None:
        """``{column: [value label, ...]}``: the placeholder shows the chosen column's labels as examples."""
        self._labels = labels
        self._placeholder()

    def _placeholder(self, *_args) -> None:
        bins = self.kind.currentIndex() == 1
        shown = (getattr(self, "_labels", None) or {}).get(self.column.currentText())
        if bins:
            text = "increasing bin edges, e.g. 18, 25, 35, 99"
        elif shown:
            text = f"public categories: labels or codes, e.g. {', '.join(map(str, shown[:4]))}"
        else:
            text = "public categories, comma-separated (e.g. Arts, Law, Science)"
        self.values.setPlaceholderText(text)

    def keys_bins(self) -> tuple[list | None, list | None]:
        values = split_values(self.values.text())
        return (None, values) if self.kind.currentIndex() == 1 else (values, None)


class ReleaseForm(QWidget):
    """Emits ``changed`` on every edit; ``request()`` gives the request dict.

    ``touched`` says whether the researcher has edited the form since the columns were last
    set (a form nobody filled previews nothing on the budget meter). The bounds belong to the
    numeric column: choosing another column shows the bounds typed for it before, else the
    range its file declares (the smallest and largest labelled code), else nothing.
    """

    changed = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.statistic = QComboBox()
        for label, key in STATISTICS:
            self.statistic.addItem(label, key)
        self.statistic.setAccessibleName("Statistic")
        self.axis1, self.axis2 = Axis("First"), Axis("Second")
        self.column = QComboBox()  # the numeric column of a sum, mean or median
        self.column.setAccessibleName("Numeric column")
        self.touched = False
        self._setting = False  # inside set_columns: changes are not the researcher's
        self._bounds: dict[str, tuple[str, str]] = {}  # bounds typed per column (this session)
        self._declared: dict[str, tuple[str, str]] = {}
        self._bounds_of = ""  # the column the bound boxes belong to
        self.lower, self.upper = QLineEdit(), QLineEdit()
        self.lower.setPlaceholderText("lowest")
        self.upper.setPlaceholderText("highest")
        self.lower.setAccessibleName("Lower bound")
        self.upper.setAccessibleName("Upper bound")
        bounds = QWidget()
        brow = QHBoxLayout(bounds)
        brow.setContentsMargins(0, 0, 0, 0)
        brow.addWidget(self.lower)
        brow.addWidget(self.upper)
        self.by = QComboBox()
        self.by.setAccessibleName("Groups column")
        self.by_keys = QLineEdit()
        self.by_keys.setPlaceholderText("public group values, comma-separated")
        self.by_keys.setAccessibleName("Group values")
        groups = QWidget()
        grow = QHBoxLayout(groups)
        grow.setContentsMargins(0, 0, 0, 0)
        grow.addWidget(self.by, 1)
        grow.addWidget(self.by_keys, 2)

        what = QGroupBox("What to publish")
        self.what_form = QFormLayout(what)
        self.what_form.addRow("Statistic", self.statistic)
        self.what_form.addRow("Column", self.axis1)
        self.what_form.addRow("By column", self.axis2)
        self.what_form.addRow("Column", self.column)
        self.what_form.addRow("Bounds", bounds)
        self.what_form.addRow("Groups", groups)
        self._rows = {"axis1": self.axis1, "axis2": self.axis2, "column": self.column, "bounds": bounds,
                      "groups": groups}

        self.by_cost = QRadioButton("Set the cost")
        self.by_accuracy = QRadioButton("Set the accuracy")
        self.by_cost.setChecked(True)
        self.mode = QButtonGroup(self)
        self.mode.addButton(self.by_cost, 0)
        self.mode.addButton(self.by_accuracy, 1)
        self.epsilon = QDoubleSpinBox()
        self.epsilon.setDecimals(4)
        self.epsilon.setRange(0.0001, 100.0)
        self.epsilon.setSingleStep(0.01)
        self.epsilon.setValue(0.1)
        self.epsilon.setPrefix("ε = ")
        self.epsilon.setAccessibleName("Cost (epsilon)")
        self.accuracy = QDoubleSpinBox()
        self.accuracy.setDecimals(2)
        self.accuracy.setRange(0.01, 1e9)
        self.accuracy.setValue(20)
        self.accuracy.setPrefix("± ")
        self.accuracy.setAccessibleName("Accuracy (plus or minus, every cell at once)")
        self.confidence = QComboBox()
        for label, value in CONFIDENCES:
            self.confidence.addItem(label, value)
        self.mechanism = QComboBox()
        self.mechanism.addItem("Laplace (pure ε)", "laplace")
        self.mechanism.addItem("Gaussian (needs a budget with δ)", "gaussian")
        self.mechanism.setAccessibleName("Noise")
        self.mechanism.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.mechanism.setMinimumContentsLength(16)  # narrow windows: the list still shows the whole words
        self.mechanism.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        size = QGroupBox("Privacy and accuracy")
        sform = QFormLayout(size)
        sform.addRow(self.by_cost, self.epsilon)
        sform.addRow(self.by_accuracy, self.accuracy)
        sform.addRow("Confidence", self.confidence)
        sform.addRow("Noise", self.mechanism)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(what)
        layout.addWidget(size)
        self.column.currentIndexChanged.connect(self._bounds_follow_column)  # before the edit signal below
        for signal in (self.statistic.currentIndexChanged, self.axis1.changed, self.axis2.changed,
                       self.column.currentIndexChanged, self.lower.textChanged, self.upper.textChanged,
                       self.by.currentIndexChanged, self.by_keys.textChanged, self.epsilon.valueChanged,
                       self.accuracy.valueChanged, self.confidence.currentIndexChanged,
                       self.mechanism.currentIndexChanged, self.mode.idClicked):
            signal.connect(self._on_edit)
        self._update_rows()

    # ------------------------------------------------------------------ state
    def set_columns(self, columns: list[str], defaults: dict | None = None, numeric: list[str] | None = None,
                    declared: dict | None = None, groups: list[tuple[str, str]] | None = None) -> None:
        """The dataset's columns; ``defaults`` ({"category": name, "numeric": name}) is what each
        choice starts at (never a time stamp or an identifier: ``ledger.column_choice``).
        ``numeric`` lists the columns a sum, mean or median can use (default: all); without
        any, those statistics are not offered. ``declared`` maps a column to public bounds
        (lower, upper) its file declares. ``groups`` are the columns offered as groups, as a chooser shows
        them ("Q3 — What is your gender?"). The form counts as untouched afterwards."""
        defaults = defaults or {}
        numeric = list(columns) if numeric is None else [c for c in columns if c in numeric]
        self._setting = True
        self._declared = {c: (str(lo), str(hi)) for c, (lo, hi) in (declared or {}).items()}
        self._bounds = {}
        for combo, kind, names in ((self.axis1.column, "category", columns), (self.axis2.column, "category2", columns),
                                   (self.column, "numeric", numeric)):
            current = combo.currentText()
            combo.blockSignals(True)
            combo.clear()
            combo.addItems(names)
            if current in names:
                combo.setCurrentText(current)
            elif defaults.get(kind) in names:
                combo.setCurrentText(defaults[kind])
            combo.blockSignals(False)
        current = self.by.currentData()
        self.by.blockSignals(True)
        self.by.clear()
        self.by.addItem(NO_GROUPS, None)
        for column, text in (groups if groups is not None else [(c, c) for c in columns]):
            self.by.addItem(text, column)  # "Q3 — What is your gender?"
        self.by.setCurrentIndex(max(0, self.by.findData(current)) if current is not None else 0)
        self.by.blockSignals(False)
        items = self.statistic.model()
        for i, (_label, key) in enumerate(STATISTICS):
            if key in ("sum", "mean", "median"):
                items.item(i).setEnabled(bool(numeric))
                items.item(i).setToolTip("" if numeric else "This dataset has no numeric column.")
        if not numeric and self.stat in ("sum", "mean", "median"):
            self.statistic.setCurrentIndex(0)
        self._bounds_of = ""
        self._bounds_follow_column()
        self._on_edit()
        self._setting = False
        self.touched = False

    def _bounds_follow_column(self, *_args) -> None:
        """Keep the bounds typed for the column left, show those of the column chosen."""
        column = self.column.currentText()
        if column == self._bounds_of:
            return
        if self._bounds_of:
            self._bounds[self._bounds_of] = (self.lower.text(), self.upper.text())
        lo, hi = self._bounds.get(column) or self._declared.get(column) or ("", "")
        for box, text in ((self.lower, lo), (self.upper, hi)):
            box.blockSignals(True)
            box.setText(text)
            box.blockSignals(False)
        self._bounds_of = column

    def set_value_labels(self, labels: dict) -> None:
        """``{column: [value label, ...]}`` of the dataset: shown as examples of the categories to type."""
        for axis in (self.axis1, self.axis2):
            axis.set_value_labels(labels)

    def set_gaussian_allowed(self, allowed: bool) -> None:
        item = self.mechanism.model().item(1)
        item.setEnabled(allowed)
        if not allowed and self.mechanism.currentIndex() == 1:
            setting, self._setting = self._setting, True  # not the researcher's edit
            self.mechanism.setCurrentIndex(0)
            self._setting = setting

    @property
    def stat(self) -> str:
        return self.statistic.currentData()

    @property
    def cost_mode(self) -> bool:
        return self.by_cost.isChecked()

    def _on_edit(self, *_args) -> None:
        if not self._setting:
            self.touched = True
        self._update_rows()
        self.changed.emit()

    def _update_rows(self) -> None:
        stat = self.stat
        show = {"axis1": stat in ("histogram", "crosstab"), "axis2": stat == "crosstab",
                "column": stat in ("sum", "mean", "median"), "bounds": stat in ("sum", "mean", "median"),
                "groups": stat != "crosstab"}
        for key, widget in self._rows.items():
            self.what_form.setRowVisible(widget, show[key])
        self.what_form.labelForField(self.axis1).setText("Rows" if stat == "crosstab" else "Column")
        self.what_form.labelForField(self.axis2).setText("Columns")
        self.by_keys.setEnabled(self.by.currentData() is not None)
        fixed_eps = stat in ("mean", "median")  # set by epsilon only (release_request)
        if fixed_eps and self.by_accuracy.isChecked():
            self.by_cost.setChecked(True)
        self.by_accuracy.setEnabled(not fixed_eps)
        self.by_accuracy.setToolTip("A mean or median is set by its cost; the preview shows what it buys."
                                    if fixed_eps else "Ask for every cell within ± this, and see the cost")
        self.epsilon.setReadOnly(not self.cost_mode)
        self.accuracy.setReadOnly(self.cost_mode)
        if stat == "median":
            self.mechanism.setCurrentIndex(0)

    # ------------------------------------------------------------------ request
    def request(self) -> dict:
        """The plain request (checked by ``release_request.normalize`` in the ledger)."""
        stat = self.stat
        req: dict = {"statistic": stat, "mechanism": self.mechanism.currentData(),
                     "confidence": self.confidence.currentData()}
        if stat in ("histogram", "crosstab"):
            axes = [self.axis1] if stat == "histogram" else [self.axis1, self.axis2]
            req["columns"] = [a.column.currentText() for a in axes]
            kb = [a.keys_bins() for a in axes]
            if stat == "histogram":
                req["keys"], req["bins"] = kb[0]
            else:
                req["keys"], req["bins"] = [k for k, _b in kb], [b for _k, b in kb]
        elif stat in ("sum", "mean", "median"):
            req["columns"] = [self.column.currentText()]
            lo, hi = self.lower.text().strip(), self.upper.text().strip()
            if lo or hi:
                req["bounds"] = [lo or "?", hi or "?"]
        else:
            req["columns"] = []
        if stat != "crosstab" and self.by.currentData() is not None:
            req["by"], req["by_keys"] = self.by.currentData(), split_values(self.by_keys.text())
        if self.cost_mode:
            req["epsilon"] = f"{self.epsilon.value():.4f}"
        else:
            req["accuracy"] = f"{self.accuracy.value():.2f}"
        return req

    def show_followed(self, epsilon: float | None, accuracy: float | None) -> None:
        """Show the value that follows from the other (from the preview), without an edit signal."""
        target = self.accuracy if self.cost_mode else self.epsilon
        value = accuracy if self.cost_mode else epsilon
        target.blockSignals(True)
        if value is None:
            target.setSpecialValueText("—")
            target.setValue(target.minimum())
        else:
            target.setSpecialValueText("")
            target.setValue(value)
        target.blockSignals(False)
