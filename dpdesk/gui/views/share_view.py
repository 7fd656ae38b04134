"""The Share view: roles of columns, the risk summary, records at risk, remedies with undo,
pseudonyms and the export of a safe extract with its disclosure report.

It shows and asks; the checks and remedies are ``dpdesk.project.sharing.checks``,
``share_extract`` and ``share_export``, run in a worker (one job at a time).
"""

from __future__ import annotations

import numbers

from PySide6.QtCore import QTimer
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from dpdesk.gui.widgets.folders import settings_for
from dpdesk.gui.dialogs.errors import show_error
from dpdesk.gui.help.button import ViewTitle
from dpdesk.gui.shell.worker import JobRunner

ROLE_NAMES = ("identifier", "quasi-identifier", "sensitive", "other")
AT_RISK_SHOWN = 500
HELP = ("Before sharing row-level data, mark each column: direct identifiers (left out unless pseudonymised), "
        "quasi-identifiers (known to outsiders: age, sex, region, dates), sensitive columns, other. Randomized-"
        "response answers are protected at the source and not checked unless you tick them. Pseudonyms keep the "
        "format (length, digits), equal values stay equal, and timestamps or other metadata are not encrypted; "
        "keep the key file apart from the data. The stored data is never changed.")


# ----------------------------------------------------------------------------- jobs (worker thread)

def load_job(job, project):
    from dpdesk.project.analysis.estimates import stored_table
    from dpdesk.project.reading.importing import own_connection
    from dpdesk.project.sharing.checks import default_roles, rr_columns

    job.progress(0.1, "Reading the data…")
    with own_connection(project) as mine:  # a long read must not hold the window's connection
        table = stored_table(mine)
        protected = rr_columns(mine)
    job.progress(0.6, "Proposing roles…")
    return ("loaded", table, protected, default_roles(table.frame, table.report, protected))


def check_job(job, table, options, identifiers):
    from dpdesk.project.sharing.extract import Extract, report_labels

    job.progress(0.2, "Checking…")
    return ("extract", Extract(table.frame, options, identifiers=identifiers, labels=report_labels(table.report)))


def step_job(job, extract, method: str, *args, **kwargs):
    job.progress(0.2, "Applying and checking again…")
    getattr(extract, method)(*args, **kwargs)
    return ("extract", extract)


def export_job(job, extract, path, source, report):
    from dpdesk.project.sharing.writing import export_extract

    job.progress(0.2, "Writing the extract…")
    return ("written", export_extract(extract, path, source=source.name, at_import=report.excluded_columns))


class ShareView(QWidget):
    """Roles, thresholds and remedies on the left; summary, steps and records at risk on the right."""

    def __init__(self, window, parent=None) -> None:
        super().__init__(parent)
        self.window_ = window
        self.setObjectName("view_share")
        self.jobs = JobRunner(self)
        self.table = None
        self.protected: list[str] = []
        self.extract = None
        self.error_box = None

        self.roles = QTableWidget(0, 3)

        self.roles.setTabKeyNavigation(False)
        self.roles.setObjectName("shareRoles")
        self.roles.setHorizontalHeaderLabels(["column", "role", "why"])
        self.roles.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.roles.verticalHeader().hide()
        self.k = QSpinBox()
        self.k.setRange(2, 1000)
        self.k.setValue(5)
        self.l = QSpinBox()
        self.l.setRange(0, 100)
        self.l.setValue(2)
        self.l.setSpecialValueText("off")
        self.t = QDoubleSpinBox()
        self.t.setRange(0, 1)
        self.t.setSingleStep(0.05)
        self.t.setDecimals(2)
        self.t.setSpecialValueText("report only")
        self.include_rr = QCheckBox("Check randomized-response columns too")
        self.include_rr.setToolTip("They are protected at the source: each answer was randomized by the respondent.")
        self.check_button = QPushButton("Check")
        self.check_button.setObjectName("shareCheck")
        form = QFormLayout()
        form.addRow("k (smallest class)", self.k)
        form.addRow("l (distinct values)", self.l)
        form.addRow("t (earth mover's distance)", self.t)
        form.addRow(self.include_rr)

        self.column = QComboBox()
        self.column.setAccessibleName("Column for the remedy")
        self.rule = QLineEdit()
        self.rule.setPlaceholderText("bands:10, top:90, month, year, rare:10, prefix:3")
        self.rule.setAccessibleName("Generalisation rule")
        self.generalize_button = QPushButton("Generalise")
        self.cells_button = QPushButton("Blank cells below k")
        self.records_button = QPushButton("Remove records below k")
        self.drop_button = QPushButton("Drop column")
        self.undo_button = QPushButton("Undo")
        self.key_path = QLineEdit()
        self.key_path.setPlaceholderText("key file (kept apart from the data)")
        self.key_browse = QPushButton("Key…")
        self.key_new = QPushButton("New key…")
        self.pseudo_button = QPushButton("Pseudonymise")
        self.export_button = QPushButton("Export extract…")
        self.export_button.setObjectName("shareExport")
        remedies = QVBoxLayout()  # short rows: the left pane fits at 1024 x 700 without clipping
        row = QHBoxLayout()
        row.addWidget(self.column, 1)
        row.addWidget(self.rule, 2)
        remedies.addLayout(row)
        row = QHBoxLayout()
        for b in (self.generalize_button, self.drop_button, self.undo_button):
            row.addWidget(b)
        row.addStretch(1)
        remedies.addLayout(row)
        row = QHBoxLayout()
        for b in (self.cells_button, self.records_button):
            row.addWidget(b)
        row.addStretch(1)
        remedies.addLayout(row)
        remedies.addWidget(self.key_path)
        row = QHBoxLayout()
        row.addWidget(self.key_browse)
        row.addWidget(self.key_new)
        row.addWidget(self.pseudo_button)
        row.addStretch(1)
        remedies.addLayout(row)

        left = QWidget()
        lcol = QVBoxLayout(left)
        lcol.setContentsMargins(0, 0, 8, 0)
        lcol.addWidget(QLabel("<b>Roles of the columns</b>"))
        lcol.addWidget(self.roles, 1)
        lcol.addLayout(form)
        lcol.addWidget(self.check_button)
        lcol.addWidget(QLabel("<b>Remedies</b> (each one checks again; Undo takes it back)"))
        lcol.addLayout(remedies)
        lcol.addWidget(self.export_button)

        self.verdict = QLabel()
        self.verdict.setObjectName("shareVerdict")
        self.verdict.setWordWrap(True)
        self.summary = self._table(["measure", "value"], "shareSummary")
        self.steps = self._table(["step", "risk and information lost"], "shareSteps")
        self.at_risk = QTableWidget(0, 0)
        self.at_risk.setTabKeyNavigation(False)
        self.at_risk.setObjectName("shareAtRisk")
        self.tabs = QTabWidget()
        self.tabs.addTab(self.summary, "Risk summary")
        self.tabs.addTab(self.at_risk, "Records at risk")
        self.tabs.addTab(self.steps, "Steps")
        right = QWidget()
        rcol = QVBoxLayout(right)
        rcol.setContentsMargins(8, 0, 0, 0)
        rcol.addWidget(self.verdict)
        rcol.addWidget(self.tabs, 1)
        scroll = QScrollArea()
        scroll.setWidget(left)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        split = QSplitter()
        split.addWidget(scroll)
        split.addWidget(right)
        split.setChildrenCollapsible(False)
        split.setSizes([560, 520])
        self.status = QLabel()
        title = ViewTitle("Share")  # with its "?" button: the guide's page on this view
        intro = QLabel(HELP)
        intro.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(32, 24, 32, 24)
        layout.addWidget(title)
        layout.addWidget(intro)
        layout.addWidget(split, 1)
        layout.addWidget(self.status)

        self.check_button.clicked.connect(self.run_check)
        self.generalize_button.clicked.connect(self.generalize)
        self.cells_button.clicked.connect(self.suppress_cells)
        self.records_button.clicked.connect(self.suppress_records)
        self.drop_button.clicked.connect(self.drop)
        self.undo_button.clicked.connect(self.undo)
        self.pseudo_button.clicked.connect(self.pseudonymize)
        self.key_browse.clicked.connect(self.choose_key)
        self.key_new.clicked.connect(self.new_key)
        self.export_button.clicked.connect(self.export_dialog)
        self.jobs.done.connect(self._on_done)
        self.jobs.failed.connect(self._on_failed)
        self.jobs.progress.connect(self._on_progress)
        self.jobs.busy.connect(self._on_busy)
        self._needs_load = False
        window.project_changed.connect(self._on_project)
        data_view = getattr(window, "data_view", None)
        if data_view is not None:
            data_view.imported.connect(self._on_project)
            data_view.active_changed.connect(self._on_project)
        self._on_project(window.project)

    @staticmethod
    def _table(headers, name):
        t = QTableWidget(0, len(headers))
        t.setTabKeyNavigation(False)
        t.setObjectName(name)
        t.setHorizontalHeaderLabels(headers)
        t.horizontalHeader().setSectionResizeMode(len(headers) - 1, QHeaderView.ResizeMode.Stretch)
        t.verticalHeader().hide()
        t.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        return t

    # ------------------------------------------------------------------ project
    @property
    def project(self):
        p = self.window_.project
        return p if p is not None and not p.closed else None

    def _on_project(self, _project=None) -> None:
        """Another project or dataset: forget the last one; read the data when the view is shown
        (opening a project does not wait for a read nobody looks at)."""
        self.jobs.cancel()  # a read still running is dropped (its own connection; close_project waits)
        self.table, self.extract = None, None
        self.roles.setRowCount(0)
        self._show()
        p = self.project
        self._needs_load = p is not None and bool(p.datasets())
        if self.isVisible():
            self._load()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        if self._needs_load:
            QTimer.singleShot(0, self._load)  # after the view has been drawn

    def _load(self) -> None:
        p = self.project
        if self._needs_load and p is not None:
            self._needs_load = False
            self.jobs.start(load_job, p)

    def shutdown(self) -> None:
        self.jobs.shutdown()

    # ------------------------------------------------------------------ roles and options
    def _fill_roles(self, roles) -> None:
        self.roles.setRowCount(len(roles))
        for i, r in enumerate(roles.values()):
            self.roles.setItem(i, 0, QTableWidgetItem(r.column))
            box = QComboBox()
            box.addItems(ROLE_NAMES)
            box.setCurrentText(r.role)
            box.setAccessibleName(f"Role of {r.column}")
            self.roles.setCellWidget(i, 1, box)
            self.roles.setItem(i, 2, QTableWidgetItem(r.reason))
        self.roles.resizeColumnsToContents()
        self.column.clear()
        self.column.addItems(list(roles))

    def chosen_roles(self) -> dict[str, str]:
        return {self.roles.item(i, 0).text(): self.roles.cellWidget(i, 1).currentText()
                for i in range(self.roles.rowCount())}

    def set_role(self, column: str, role: str) -> None:
        for i in range(self.roles.rowCount()):
            if self.roles.item(i, 0).text() == column:
                self.roles.cellWidget(i, 1).setCurrentText(role)

    def options(self):
        from dpdesk.project.sharing.checks import ShareOptions

        roles = self.chosen_roles()
        pick = lambda role: [c for c, r in roles.items() if r == role]  # noqa: E731
        return ShareOptions(quasi=pick("quasi-identifier"), sensitive=pick("sensitive"), k=self.k.value(),
                            l=self.l.value() or None, t=self.t.value() or None, protected=list(self.protected),
                            include_protected=self.include_rr.isChecked()), \
            pick("identifier")

    # ------------------------------------------------------------------ actions
    def run_check(self) -> None:
        if self.table is None or self.jobs.running:
            return
        options, identifiers = self.options()
        self.jobs.start(check_job, self.table, options, identifiers)

    def _step(self, method: str, *args, **kwargs) -> None:
        if self.extract is None:
            self.status.setText("Check the data first.")
            return
        if not self.jobs.running:
            self.jobs.start(step_job, self.extract, method, *args, **kwargs)

    def generalize(self) -> None:
        self._step("generalize", self.column.currentText(), self.rule.text())

    def suppress_cells(self) -> None:
        self._step("suppress_cells", self.column.currentText())

    def suppress_records(self) -> None:
        self._step("suppress_records")

    def drop(self) -> None:
        self._step("drop", self.column.currentText())

    def undo(self) -> None:
        if self.extract is not None and not self.jobs.running:
            self.jobs.start(step_job, self.extract, "undo")

    def choose_key(self) -> None:
        settings = settings_for(self)
        path, _ = QFileDialog.getOpenFileName(self, "Key file", settings.start_path("key"),
                                              "Key files (*.key);;All files (*)")
        if path:
            settings.set_last_folder("key", path)
            self.key_path.setText(path)

    def new_key(self) -> None:
        from dpdesk.project.sharing import pseudonymize as pz

        settings = settings_for(self)
        path, _ = QFileDialog.getSaveFileName(self, "New key file (keep it apart from the data)",
                                              settings.start_path("key", "study.key"), "Key files (*.key)")
        if path:
            settings.set_last_folder("key", path)
            try:
                pz.generate_key(path)
            except Exception as exc:  # noqa: BLE001 - shown in words
                self.error_box = show_error(exc, self)
                return
            self.key_path.setText(path)
            self.status.setText(f"New key written to {path}. Keep it apart from the data.")

    def pseudonymize(self) -> None:
        from dpdesk.errors import DpdeskError
        from dpdesk.project.sharing import pseudonymize as pz

        try:
            key = pz.read_key(self.key_path.text().strip())
        except DpdeskError as exc:
            self.error_box = show_error(exc, self)
            return
        offset = self.table.report.first_data_row if self.table is not None else 0
        self._step("pseudonymize", self.column.currentText(), key, row_offset=offset)

    def export_dialog(self) -> None:
        if self.extract is None:
            self.status.setText("Check the data first.")
            return
        settings = settings_for(self)
        path, _ = QFileDialog.getSaveFileName(self, "Export the extract", settings.start_path("export", "shared.xlsx"),
                                              "Excel (*.xlsx);;CSV (*.csv);;SPSS (*.sav)")
        if path:
            settings.set_last_folder("export", path)
            self.export_to(path)

    def export_to(self, path) -> None:
        if self.extract is not None and not self.jobs.running:
            if not self.extract.result.passes and not self.confirm_failing(int(self.extract.result.at_risk.sum())):
                return
            self.jobs.start(export_job, self.extract, path, self.table.source, self.table.report)

    def confirm_failing(self, fails: int) -> bool:
        """Ask before exporting an extract whose records still fail the checks (tests replace it)."""
        box = QMessageBox(QMessageBox.Icon.Warning, "Export records that fail the checks?",
                          f"{fails} record(s) still fail the checks (for example k = {self.extract.options.k}): "
                          "someone who knows their quasi-identifiers could pick them out. Apply a remedy "
                          "first, or export anyway?", QMessageBox.StandardButton.Cancel, self)
        ok = box.addButton("Export anyway", QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return box.clickedButton() is ok

    # ------------------------------------------------------------------ results
    def _on_done(self, result) -> None:
        kind = result[0]
        if kind == "loaded":
            _, self.table, self.protected, roles = result
            self._fill_roles(roles)
            self.status.setText(f"{len(self.table.frame)} records. Check the roles, then press Check.")
        elif kind == "extract":
            self.extract = result[1]
            self._show()
            steps = self.extract.steps
            self.status.setText(f"Done: {steps[-1].description}." if steps else "Checked.")
        elif kind == "written":
            names = ", ".join(p.name for p in result[1])
            self._remember_sharing()
            self.status.setText(f"Wrote {names}.")
            self.window_.statusBar().showMessage(f"Wrote {names}.", 8000)

    def _remember_sharing(self) -> None:
        """The extract's k and roles go into the project: the Results view warns about them."""
        from dpdesk.project.sharing.column_protection import save_sharing_settings
        from dpdesk.project.sharing.pseudonymize import METHOD

        if self.project is not None and not self.project.closed and self.extract is not None:
            o = self.extract.options
            save_sharing_settings(self.project, k=o.k, quasi=o.quasi, sensitive=o.sensitive,
                                  pseudonymised={c: METHOD for c in self.extract.pseudonymised})

    def _on_failed(self, exc) -> None:
        self.error_box = show_error(exc, self)

    def _on_progress(self, fraction: float, text: str) -> None:
        self.status.setText(text)

    def _on_busy(self, busy: bool) -> None:
        for b in (self.check_button, self.generalize_button, self.cells_button, self.records_button,
                  self.drop_button, self.undo_button, self.pseudo_button, self.export_button):
            b.setEnabled(not busy)

    def _show(self) -> None:
        ex = self.extract
        self.summary.setRowCount(0)
        self.steps.setRowCount(0)
        self.at_risk.setRowCount(0)
        if ex is None:
            self.verdict.setText("")
            return
        from dpdesk.project.sharing.writing import _risk_line

        res = ex.result
        fails = int(res.at_risk.sum())
        self.verdict.setText("<b style='color:#1b5e20'>Every record passes the checks.</b>" if res.passes else
                             f"<b style='color:#b71c1c'>{fails} record(s) fail a check.</b> Apply a remedy.")
        rows = res.summary() + [(f"warning {i + 1}", w) for i, w in enumerate(res.warnings)]
        _fill(self.summary, rows)
        _fill(self.steps, [("start" if s is None else s.description, _risk_line(r, None if s is None else l))
                           for s, r, l in ex.history])
        frame = ex.frame
        shown = frame.loc[res.at_risk].head(AT_RISK_SHOWN)
        columns = [c for c in ex.current_options().quasi + ex.current_options().sensitive if c in frame.columns]
        self.at_risk.setColumnCount(len(columns) + 1)
        self.at_risk.setHorizontalHeaderLabels(["row in file", *columns])
        self.at_risk.setRowCount(len(shown))
        brush = QBrush(QColor("#ffebee"))
        first = getattr(getattr(self.table, "report", None), "first_data_row", None) or 2
        for i, (label, record) in enumerate(shown[columns].iterrows()):
            number = label + first if isinstance(label, numbers.Integral) else label  # as in the Data view
            cells = [str(number), *("" if v is None or v != v else str(v) for v in record.tolist())]
            for j, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setBackground(brush)
                self.at_risk.setItem(i, j, item)


def _fill(table: QTableWidget, rows) -> None:
    table.setRowCount(len(rows))
    for i, (a, b) in enumerate(rows):
        table.setItem(i, 0, QTableWidgetItem(str(a)))
        item = QTableWidgetItem(str(b))
        item.setToolTip(str(b))
        table.setItem(i, 1, item)
    table.resizeColumnToContents(0)
