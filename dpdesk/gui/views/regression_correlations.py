"""The Regression view's *Correlations* tab: corrected correlations of chosen items and columns.

Tick two or more variables (yes/no RR items, whose true states are correlated as RRreg's RRcor
corrects them, and numeric columns), choose the bootstrap resamples and the seed, then
*Compute*: ``project.regression.correlation_report`` runs in a worker with progress and Cancel,
and the table (APA: correlations with stars, bootstrap SEs) is saved with the project so it
reaches the report. *Copy table* puts it on the clipboard as tab-separated text (with an HTML
copy) that pastes into Excel and Word; *Export…* writes it as .csv or .xlsx, with a script that recomputes
it from the project file and checks it.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from dpdesk.errors import app_words
from dpdesk.gui.shell.worker import JobRunner
from dpdesk.gui.widgets.common import name, note
from dpdesk.gui.widgets.folders import settings_for
from dpdesk.gui.widgets.regression_output import apa_table

EXPORT_FILTER = "Excel workbook (*.xlsx);;CSV file (*.csv)"
MAX_BOOTSTRAP = 100_000
RR_ITEM, COLUMN = "RR item", "column"


def correlation_job(job, project, spec):
    """Worker: the correlation table of ``spec`` (progress and Cancel inside the bootstrap)."""
    from dpdesk.project.reading.importing import own_connection
    from dpdesk.project.regression.correlation_report import correlation_report

    job.progress(0.02, "Reading the data…")
    with own_connection(project) as own:
        return correlation_report(own, spec, progress=job.progress)


def write_job(job, report, path: str, project_file: str | None):
    """Worker: the table as .csv or .xlsx with the script that recomputes it from ``project_file``
    (``write_correlation``)."""
    from dpdesk.project.regression.correlation_report import write_correlation

    job.progress(0.1, "Writing…")
    return [Path(p) for p in write_correlation(report, path, project_file=project_file)] or [Path(path)]


class CorrelationPanel(QWidget):
    computed = Signal(object)  # the new CorrelationReport (None: none shown)

    def __init__(self, view, parent=None) -> None:
        super().__init__(parent)
        self.view = view
        self.setObjectName("regressionCorrelations")
        self.current = None
        self._loaded = False
        self.jobs = JobRunner(self)
        self.jobs.done.connect(self._on_done)
        self.jobs.failed.connect(self._on_failed)
        self.jobs.progress.connect(self._on_progress)
        self.jobs.busy.connect(self._on_busy)
        self.writer = JobRunner(self)
        self.writer.done.connect(self._on_written)
        self.writer.failed.connect(self._on_write_failed)
        self.variables = name(QListWidget(), "Variables to correlate",
                              "Tick two or more: yes/no RR items (their true states) and numeric columns "
                              "(Space ticks the current one)")
        self.variables.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.variables.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.variables.setTextElideMode(Qt.TextElideMode.ElideRight)  # a long question ends in "…", never cut off
        self.variables.setUniformItemSizes(True)
        self.variables.itemChanged.connect(self._on_choice)
        self.bootstrap = name(QSpinBox(), "Bootstrap resamples",
                              "Resamples for the standard errors and p-values (0: correlations only)")
        self.bootstrap.setRange(0, MAX_BOOTSTRAP)
        self.bootstrap.setSingleStep(100)
        self.bootstrap.setValue(1000)
        self.bootstrap.setGroupSeparatorShown(True)
        self.seed = name(QSpinBox(), "Seed", "The same seed draws the same resamples: the same SEs every time")
        self.seed.setRange(0, 2_147_483_647)
        self.bootstrap.valueChanged.connect(self._on_choice)
        self.seed.valueChanged.connect(self._on_choice)
        for box in (self.bootstrap, self.seed):
            box.setMinimumWidth(120)
            box.setMaximumWidth(180)
        form = QFormLayout()
        form.addRow("Variables:", self.variables)
        form.addRow("Bootstrap resamples:", self.bootstrap)
        form.addRow("Seed:", self.seed)
        self.compute_button = name(QPushButton("Compute"), "Compute the correlations",
                                   "Compute the corrected correlations and their bootstrap SEs (in the background)")
        self.cancel_button = name(QPushButton("Cancel"), "Cancel the correlations", "Stop; nothing is saved")
        self.copy_button = name(QPushButton("Copy table"), "Copy correlation table",
                                "Copy the table as tab-separated text, to paste into Excel or Word")
        self.export_button = name(QPushButton("Export…"), "Export the correlations",
                                  "Save the table as an Excel workbook or a CSV file")
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setAccessibleName("Correlation progress")
        self.progress.setMaximumWidth(220)
        self.compute_button.clicked.connect(self.compute)
        self.cancel_button.clicked.connect(self.cancel)
        self.copy_button.clicked.connect(self.copy)
        self.export_button.clicked.connect(self.export_dialog)
        buttons = QHBoxLayout()
        for w in (self.compute_button, self.cancel_button, self.progress):
            buttons.addWidget(w)
        buttons.addStretch(1)
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.export_button)
        self.state = note(object_name="correlationState")
        self.state.setAccessibleName("Correlation state")
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.table = QLabel(objectName="correlationTable")
        self.table.setAccessibleName("Correlation table (APA)")
        self.table.setTextFormat(Qt.TextFormat.RichText)
        self.table.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.note = note(object_name="correlationNote")
        self.note.setTextFormat(Qt.TextFormat.RichText)
        self.note.setAccessibleName("Correlation table note")
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message = note(object_name="correlationMessage")
        self.message.setAccessibleName("Why the correlations cannot be computed")
        self.message.setStyleSheet("color: #a40000;")
        content = QWidget()
        inner = QVBoxLayout(content)
        inner.setContentsMargins(0, 0, 8, 0)
        for w in (self.title, self.message, self.table, self.note):
            inner.addWidget(w)
        inner.addStretch(1)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.scroll.setWidget(content)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 8, 0, 0)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.state)
        layout.addWidget(self.scroll, 1)
        self.clear()

    # ------------------------------------------------------------------ filling
    def clear(self) -> None:
        """No project (or it changed): nothing to choose or show until the view's columns arrive."""
        self.jobs.cancel()
        self._loaded = False
        self.variables.clear()
        self._show(None)
        self._set_state("Open a project with data to correlate its items and columns.")

    def set_choices(self, items: list[tuple], choices: list[dict], saved=None) -> None:
        """``items``: the view's yes/no items ``(name, label, ...)``; ``choices``: ``predictor_choices`` rows
        (numeric ones are offered); ``saved``: the latest saved ``CorrelationReport`` to show again."""
        self.variables.blockSignals(True)
        self.variables.clear()
        ticked = set(saved.names) if saved is not None else set()
        for item, label, *_rest in items:
            self._add(item, f"{label} ({RR_ITEM})", item in ticked)
        for c in choices:
            if c["kind"] == "numeric" and not c.get("counter"):  # numbers, not an id counting the rows
                self._add(c["column"], f"{c.get('label') or c['column']} ({COLUMN})", c["column"] in ticked)
        self.variables.blockSignals(False)
        rows = max(3, min(8, self.variables.count()))  # up to eight rows without scrolling
        self.variables.setFixedHeight(rows * max(16, self.variables.sizeHintForRow(0)) + 2 * self.variables.frameWidth())
        self._loaded = True
        if saved is not None:
            self.bootstrap.setValue(int(saved.spec.bootstrap))
            self.seed.setValue(int(saved.spec.seed or 0))
            self._show(saved)
            self._set_state("The last correlation table saved with the project. Change the choices and Compute "
                            "again to update it.")
        elif self.variables.count() < 2:
            self._set_state("Correlations need two variables: yes/no RR items mapped to a column, or numeric "
                            "columns. The data have fewer than two.", problem=True)
        else:
            self._set_state("Tick two or more variables, then Compute.")
        self._on_busy(False)

    def _add(self, key: str, text: str, ticked: bool) -> None:
        row = QListWidgetItem(text)
        row.setData(Qt.ItemDataRole.UserRole, key)
        row.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsUserCheckable)
        row.setCheckState(Qt.CheckState.Checked if ticked else Qt.CheckState.Unchecked)
        self.variables.addItem(row)

    def chosen(self) -> list[str]:
        rows = (self.variables.item(i) for i in range(self.variables.count()))
        return [r.data(Qt.ItemDataRole.UserRole) for r in rows if r.checkState() == Qt.CheckState.Checked]

    def _on_choice(self, *_args) -> None:
        shown = self.current.spec if self.current is not None else None
        if shown is not None and (self.current.names != self.chosen() or shown.bootstrap != self.bootstrap.value()
                                  or (shown.seed or 0) != self.seed.value()):
            self._set_state("The choices changed: Compute again to update the table below.")

    # ------------------------------------------------------------------ computing
    def spec(self):
        from dpdesk.project.regression.correlation_report import CorrelationSpec

        return CorrelationSpec(self.chosen(), bootstrap=self.bootstrap.value(), seed=self.seed.value())

    def compute(self) -> None:
        names = self.chosen()
        if len(names) < 2:
            self._set_state("Tick at least two variables to correlate.", problem=True)
            return
        self.table.setEnabled(False)
        self._set_state(f"Computing the correlations of {len(names)} variables…", busy=True)
        self.jobs.start(correlation_job, self.view.project, self.spec())

    def cancel(self) -> None:
        if self.jobs.running:
            self.jobs.cancel()
            self.table.setEnabled(True)
            self._set_state("Cancelled: nothing was computed or saved."
                            + (" The table below is from before." if self.current is not None else ""))

    def _on_progress(self, fraction: float, text: str) -> None:
        self.progress.setRange(0, 100)
        self.progress.setValue(round(100 * fraction))
        if text:
            self._set_state(f"Computing… {text}", busy=True)

    def _on_busy(self, busy: bool) -> None:
        self.compute_button.setEnabled(not busy and self._loaded)
        self.cancel_button.setEnabled(busy)
        self.progress.setVisible(busy)
        if busy:
            self.progress.setRange(0, 0)  # busy until the first resamples report
        for button in (self.copy_button, self.export_button):
            button.setEnabled(not busy and self.current is not None)

    def _on_done(self, report) -> None:
        from dpdesk.errors import DpdeskError
        from dpdesk.project.regression.correlation_report import save_correlation

        try:
            save_correlation(self.view.project, report)
        except DpdeskError as exc:
            self._set_state(f"Computed, but not saved with the project: {app_words(exc)}", problem=True)
        else:
            self._set_state("Computed and saved with the project: it is in the report.")
        self._show(report)
        self.computed.emit(report)

    def _on_failed(self, exc) -> None:
        from dpdesk.errors import DpdeskError

        self._on_busy(False)
        self.table.setEnabled(True)
        if isinstance(exc, DpdeskError):  # too few rows, a text column, a design with more answers: words
            self._show(None)
            self.title.setText("<h3 style='font-weight: normal'>The correlations cannot be computed</h3>")
            self.message.setText(app_words(exc))
            self.message.show()
            self._set_state("No table: see the message below.", problem=True)
            self.computed.emit(None)
            return
        from dpdesk.gui.dialogs.errors import show_error

        self._set_state("The correlations could not be computed (a mistake in dpdesk).", problem=True)
        show_error(exc, self)

    def _show(self, report) -> None:
        self.current = report
        self.table.setEnabled(True)
        self.message.hide()
        shown = report is not None
        for w in (self.title, self.table, self.note):
            w.setVisible(shown)
        if shown:
            import html

            title = getattr(report, "title", "") or "Correlations corrected for the randomization"
            self.title.setText(f"<h3 style='font-weight: normal'>{html.escape(title)}</h3>")
            self.table.setText(apa_table(list(report.header), [list(r) for r in report.cells]))
            self.note.setText(html.escape(report.note).replace("Note.", "<i>Note.</i>", 1))
        self._on_busy(self.jobs.running)

    def _set_state(self, text: str, *, busy: bool = False, problem: bool = False) -> None:
        self.state.setText(text)
        self.state.setStyleSheet("color: #8a5a00; font-weight: bold;" if busy else
                                 "color: #a40000;" if problem else "color: gray;")

    # ------------------------------------------------------------------ copy and export
    def rows(self) -> list[dict]:
        """The shown table as rows (head -> cell), as it is copied."""
        head = [h or " " for h in self.current.header]
        return [dict(zip(head, r)) for r in self.current.cells]

    def copy(self) -> None:
        """The table on the clipboard: tab-separated text (and HTML), as shown."""
        from dpdesk.gui.widgets.clipboard import copy_table

        if self.current is not None:
            copy_table(self.rows())
            self._set_state("Copied: paste it into Excel or Word.")

    def export_dialog(self) -> None:
        if self.current is None:
            return
        project = self.view.project
        stem = Path(project.path).stem if project is not None else "correlations"
        settings = settings_for(self)
        path, chosen = QFileDialog.getSaveFileName(self, "Export the correlations",
                                                   settings.start_path("export", f"{stem} correlations.xlsx"),
                                                   EXPORT_FILTER)
        if path:
            settings.set_last_folder("export", path)
            if Path(path).suffix.lower() not in (".xlsx", ".csv"):
                path += ".csv" if chosen.startswith("CSV") else ".xlsx"
            self.export(path)

    def export(self, path):
        """Write the shown table to ``path`` (.xlsx or .csv) in the worker; returns the job."""
        self._set_state(f"Writing {Path(path).name}…")
        project = self.view.project
        return self.writer.start(write_job, self.current, str(path), str(project.path) if project is not None else None)

    def _on_written(self, paths) -> None:
        self.written = list(paths)
        self._set_state("Written: " + ", ".join(p.name for p in self.written) + f" (in {self.written[0].parent}).")

    def _on_write_failed(self, exc) -> None:
        from dpdesk.errors import DpdeskError

        if isinstance(exc, DpdeskError):
            self._set_state(f"Not written: {app_words(exc)}", problem=True)
            return
        from dpdesk.gui.dialogs.errors import show_error

        self._set_state("")
        show_error(exc, self)

    def shutdown(self) -> None:
        for runner in (self.jobs, self.writer):
            runner.shutdown()
