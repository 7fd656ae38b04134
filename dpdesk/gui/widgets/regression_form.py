"""The model form of the Regression view: the model, the outcome, the predictors and how each enters.

*Model*: logistic (a yes/no RR item explained by the columns), linear (a numeric column explained by
RR items' true states, as RRreg's RRlin, with the columns as covariates) or multilevel logistic (the
logistic model with a random intercept per cluster, as RRmixed; the quadrature is an advanced choice,
Laplace by default). Each model is offered only the choices it can fit: numeric columns as a linear
outcome, one-group yes/no items as a multilevel outcome.

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
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QHeaderView,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dpdesk.gui.widgets import cell_choices
from dpdesk.gui.widgets.cell_choices import check_item, choice_item, choose, set_usable
from dpdesk.gui.widgets.common import name, note

DEFAULT_REFERENCE = "largest level"
NO_REFERENCE = "—"  # a numeric predictor has no reference level
COLUMNS = ("Use", "Column", "Treat as", "Reference level", "Centre")
USE, COLUMN, KIND, REFERENCE, CENTRE = range(len(COLUMNS))
MODELS = (("Logistic: an RR item explained by the columns", "logistic"),
          ("Linear: RR items explain a numeric column", "linear"),
          ("Multilevel logistic: a random intercept per cluster", "multilevel"))
#: Quadrature of the multilevel model: the Laplace approximation (glmer's nAGQ = 1) or adaptive Gauss-Hermite.
QUADRATURE = (("Laplace approximation (as glmer's default)", 1),
              *((f"Adaptive Gauss–Hermite, {k} points", k) for k in (3, 5, 9, 15, 25)))


class RegressionForm(QWidget):
    changed = Signal()  # any choice changed (the view marks shown results as not for these choices)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.model = name(QComboBox(), "Model", "Which regression: logistic, linear with RR predictors, or multilevel")
        for text, key in MODELS:
            self.model.addItem(text, key)
        self.outcome = name(QComboBox(), "Outcome", "The yes/no randomized-response item to explain")
        self.numeric_outcome = name(QComboBox(), "Numeric outcome",
                                    "The column of numbers to explain (a score, an income, a grade)")
        self.rr_items = name(QListWidget(), "RR predictors",
                             "The yes/no randomized-response items whose true states explain the outcome: tick one or "
                             "more (Space ticks the current one)")
        self.rr_items.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.rr_items.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.rr_items.setTextElideMode(Qt.TextElideMode.ElideRight)  # a long question ends in "…", never cut off
        self.rr_items.setUniformItemSizes(True)
        self.cluster = name(QComboBox(), "Cluster column",
                            "The column naming each respondent's cluster (school, firm, country): one random intercept "
                            "per cluster")
        self.nagq = name(QComboBox(), "Quadrature",
                         "How the likelihood integrates over the random intercepts: the Laplace approximation (fast, "
                         "glmer's default) or adaptive Gauss–Hermite with more points (slower, closer)")
        for text, k in QUADRATURE:
            self.nagq.addItem(text, k)
        self.skipped = note(object_name="regressionSkipped")
        self.skipped.setStyleSheet("color: gray;")
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
        form.addRow("Model:", self.model)
        form.addRow("Outcome:", self.outcome)
        form.addRow("Outcome (numeric):", self.numeric_outcome)
        form.addRow("RR predictors:", self.rr_items)
        form.addRow("Clusters:", self.cluster)
        form.addRow("Quadrature (advanced):", self.nagq)
        form.addRow("", self.skipped)
        form.addRow("Interactions:", self.interactions)
        form.addRow("Plot prevalence across:", self.plot)
        self.fields = form
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(form)
        layout.addWidget(self.table, 1)
        self._rows: list[dict] = []
        self._items: list[tuple[str, str, bool]] = []  # (name, label, one-group design)
        self._clusters: list[tuple[str, str]] = []
        self.model.currentIndexChanged.connect(self._on_model)
        self.outcome.currentIndexChanged.connect(self.changed)
        self.numeric_outcome.currentIndexChanged.connect(self._on_numeric_outcome)
        self.rr_items.itemChanged.connect(self.changed)
        self.cluster.currentIndexChanged.connect(self.changed)
        self.nagq.currentIndexChanged.connect(self.changed)
        self._on_model()  # the logistic model's rows until another is chosen
        self.interactions.textChanged.connect(self.changed)
        self.table.itemChanged.connect(self._on_change)

    # ------------------------------------------------------------------ filling
    def set_items(self, items: list[tuple], keep: str | None = None) -> None:
        """``(name, label[, one_group])`` of the yes/no items mapped to a column (``one_group``: a design
        without two random groups, the only ones a multilevel model takes; default True)."""
        self._items = [(it[0], it[1], bool(it[2]) if len(it) > 2 else True) for it in items]
        self._fill_outcome(keep)
        ticked = set(self.rr_predictors())
        self.rr_items.blockSignals(True)
        self.rr_items.clear()
        for item, label, _one in self._items:
            row = QListWidgetItem(label)
            row.setData(Qt.ItemDataRole.UserRole, item)
            row.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsUserCheckable)
            row.setCheckState(Qt.CheckState.Checked if item in ticked else Qt.CheckState.Unchecked)
            row.setToolTip(label)
            self.rr_items.addItem(row)
        self.rr_items.blockSignals(False)
        shown = max(2, min(4, self.rr_items.count()))  # up to four rows without scrolling
        self.rr_items.setFixedHeight(shown * max(16, self.rr_items.sizeHintForRow(0)) + 2 * self.rr_items.frameWidth())
        self._on_model()

    def _fill_outcome(self, keep: str | None = None) -> None:
        """The RR items the chosen model can explain (a multilevel model: one-group designs only)."""
        self.outcome.blockSignals(True)
        keep = keep or self.outcome.currentData()
        self.outcome.clear()
        multilevel = self.model_key() == "multilevel"
        for item, label, one_group in self._items:
            if one_group or not multilevel:
                self.outcome.addItem(label, item)
        self.outcome.setCurrentIndex(max(0, self.outcome.findData(keep)))
        self.outcome.blockSignals(False)
        left_out = [item for item, _label, one_group in self._items if not one_group]
        self.skipped.setText(
            f"Not offered: {', '.join(left_out)} (two groups; a multilevel model needs a one-group design)."
            if multilevel and left_out else "")
        self.skipped.setToolTip("A random intercept per cluster is fitted for one-group yes/no designs (Warner, "
                                "forced response, crosswise, unrelated question with known prevalence, triangular, "
                                "Kuk with one card, Mangat), as RRreg's RRmixed.")

    def set_clusters(self, columns: list[tuple[str, str]]) -> None:
        """``(column, label)`` of the columns that can name clusters (the multilevel model's choice)."""
        self._clusters = list(columns)
        keep = self.cluster.currentData()
        self.cluster.blockSignals(True)
        self.cluster.clear()
        for column, label in self._clusters:
            self.cluster.addItem(label, column)
        self.cluster.setCurrentIndex(max(0, self.cluster.findData(keep)))
        self.cluster.blockSignals(False)

    def model_key(self) -> str:
        return self.model.currentData() or "logistic"

    def _on_model(self, *_args) -> None:
        """Show the rows the chosen model takes; hide (and leave out) the others."""
        key = self.model_key()
        self._fill_outcome()
        linear, multilevel = key == "linear", key == "multilevel"
        for widget, shown in ((self.outcome, not linear), (self.numeric_outcome, linear), (self.rr_items, linear),
                              (self.cluster, multilevel), (self.nagq, multilevel), (self.plot, key == "logistic"),
                              (self.skipped, bool(self.skipped.text()))):
            self.fields.setRowVisible(widget, shown)
        self.outcome.setToolTip("The yes/no randomized-response item to explain" + (
            " (one-group designs: a multilevel model cannot take two random groups)" if multilevel else ""))
        self._on_numeric_outcome()

    def _on_numeric_outcome(self, *_args) -> None:
        """A linear model's outcome is no covariate: its row is hidden (and unticked) while it is chosen."""
        outcome = self.numeric_outcome.currentData() if self.model_key() == "linear" else None
        self.table.blockSignals(True)
        for i, r in enumerate(self._rows):
            hide = r["column"] == outcome
            if hide:
                self.table.item(i, USE).setCheckState(Qt.CheckState.Unchecked)
            self.table.setRowHidden(i, hide)
        self.table.blockSignals(False)
        self._on_change()

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
        keep = self.numeric_outcome.currentData()
        self.numeric_outcome.blockSignals(True)
        self.numeric_outcome.clear()
        for c in choices:  # numbers as they are (not value-labelled codes, not a row counter): a linear outcome
            if c["kind"] == "numeric" and not c.get("counter"):
                self.numeric_outcome.addItem(c.get("label") or c["column"], c["column"])
        self.numeric_outcome.setCurrentIndex(max(0, self.numeric_outcome.findData(keep)))
        self.numeric_outcome.blockSignals(False)
        self._on_numeric_outcome()

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

        box = self.numeric_outcome if self.model_key() == "linear" else self.outcome
        return box.currentText().split(DASH, 1)[-1]

    def rr_predictors(self) -> list[str]:
        """The ticked RR items (a linear model's RR predictors)."""
        rows = (self.rr_items.item(i) for i in range(self.rr_items.count()))
        return [r.data(Qt.ItemDataRole.UserRole) for r in rows if r.checkState() == Qt.CheckState.Checked]

    def rr_label(self, item: str) -> str:
        from dpdesk.project.study.labels import DASH

        return next((label.split(DASH, 1)[-1] for name, label, _one in self._items if name == item), item)

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
        key = self.model_key()
        linear = key == "linear"
        fields = {"item": "" if linear else self.outcome.currentData(), "predictors": self.predictors(),
                  "reference": reference, "interactions": interactions, "center": center, "categorical": categorical,
                  "numeric": numeric, "plot": self.plot.currentData() if key == "logistic" else None}
        if key != "logistic":  # the contract's new fields; a logistic spec stays as it always was
            fields["model"] = key
        if key == "multilevel":
            fields.update(cluster=self.cluster.currentData(), nagq=int(self.nagq.currentData()))
        if linear:
            fields.update(outcome=self.numeric_outcome.currentData(), rr_items=self.rr_predictors())
        return fields

    def restore(self, spec) -> None:
        """Show the choices of a saved ``RegressionSpec`` (of any of the three models)."""
        key = getattr(spec, "model", "logistic") or "logistic"
        self.model.setCurrentIndex(max(0, self.model.findData(key)))
        self.outcome.setCurrentIndex(max(0, self.outcome.findData(spec.item)))
        if key == "multilevel":
            self.cluster.setCurrentIndex(max(0, self.cluster.findData(getattr(spec, "cluster", None))))
            self.nagq.setCurrentIndex(max(0, self.nagq.findData(getattr(spec, "nagq", 1))))
        if key == "linear":
            self.numeric_outcome.setCurrentIndex(max(0, self.numeric_outcome.findData(getattr(spec, "outcome", None))))
            chosen = set(getattr(spec, "rr_items", None) or [])
            for i in range(self.rr_items.count()):
                row = self.rr_items.item(i)
                row.setCheckState(Qt.CheckState.Checked if row.data(Qt.ItemDataRole.UserRole) in chosen
                                  else Qt.CheckState.Unchecked)
        for i in range(len(self._rows)):
            self.table.item(i, USE).setCheckState(Qt.CheckState.Unchecked)
        for column in spec.predictors:
            if any(r["column"] == column for r in self._rows):
                kind = ("categorical" if column in spec.categorical else "numeric" if column in spec.numeric
                        else self._rows[self.row_of(column)]["kind"])  # text columns: categorical
                self.choose(column, kind=kind, reference=spec.reference.get(column), centre=column in spec.center)
        self.interactions.setText(", ".join(spec.interactions))
        self.plot.setCurrentIndex(max(0, self.plot.findData(spec.plot)))
