"""The Results view: one output document (APA tables, sentences, notes) with the plots under it.

The document (``dpdesk.project.report``) has a titled section per analysis: estimates,
subgroups, the comparison with direct questions. Its numbers follow the number style of
the Preferences (screen, copy, report and plots alike). Everything is computed in a worker
(``results_job.analyze_job``, by the project layer); this view only shows the rows. When
an option changes the results are recomputed, and until the new ones arrive the old ones
are greyed out under an "Updating…" line: stale results are never shown as current.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from dpdesk.errors import app_words
from dpdesk.gui.help.button import ViewTitle
from dpdesk.gui.widgets.document_view import DocumentView
from dpdesk.gui.widgets.plots import PlotPanel, draw_bars, draw_forest, draw_grouped_bars, set_plot_style
from dpdesk.gui.widgets.not_mapped import NotMappedBar
from dpdesk.gui.widgets.adherence_warning import AdherenceWarningBar
from dpdesk.gui.widgets.report_progress import ReportProgress
from dpdesk.gui.widgets.subgroup_warning import SubgroupWarningBar
from dpdesk.gui.widgets import cell_choices
from dpdesk.gui.widgets.common import name
from dpdesk.project.number_style import NumberStyle
from dpdesk.gui.shell.worker import JobRunner
from dpdesk.gui.views.results_job import Options, ResultSet, analyze_job

CI_METHODS = [("default", "likelihood ratio (recommended)"), ("wald", "Wald"), ("bootstrap", "bootstrap (slower)")]
CONFIDENCE = [(0.95, "95%"), (0.90, "90%"), (0.99, "99%")]
NONE = "(none)"
#: How the pairwise p-values of one item's subgroups are adjusted for many comparisons.
ADJUSTMENTS = [("holm", "Holm (recommended)"), ("bonferroni", "Bonferroni"), ("none", "none (unadjusted)")]
#: The "Subgroups by" choice that compares the datasets (never a column name: it starts with NUL).
DATASETS = "\x00datasets"  # = analysis.subgroup_choice.DATASETS, as the choice is saved with the project


COPIED = {"shown": "Table copied as shown.", "full": "Table copied with full precision.",
          "latex": "Table copied as LaTeX (booktabs).", "cell": "Cell copied."}


class ResultsView(QWidget):
    updated = Signal(object)  # the new ResultSet (or None when stale)

    def __init__(self, window, parent=None) -> None:
        super().__init__(parent)
        self.window_ = window
        self.setObjectName("view_results")
        self.current: ResultSet | None = None
        self.stale = True
        self.failure: str | None = None  # why the last run gave no results (shown, and by Export report)
        self._has_data = False
        self._needs_run = False
        self._confirmed_by: str | None = None  # "Subgroups by" column the researcher agreed to
        self._restored_for = None  # the project whose saved "Subgroups by" choice was restored
        self.jobs = JobRunner(self)
        self.jobs.done.connect(self._on_done)
        self.jobs.failed.connect(self._on_failed)
        self.jobs.progress.connect(self._on_progress)
        title = ViewTitle("Results")  # with its "?" button: the guide's page on this view
        self.export_button = name(QPushButton("Export workbook…"), "Export results",
                                  "Save the results as an Excel workbook or CSV (full precision), with a "
                                  "reproducibility script")
        self.export_button.clicked.connect(self.export_dialog)
        self.report_button = name(QPushButton("Export report…"), "Export report",
                                  "Save this document with a cover page as HTML or PDF")
        self.report_button.clicked.connect(self.report_dialog)
        self.methods_button = name(QPushButton("Methods paragraph…"), "Methods paragraph",
                                   "A methods paragraph with references, to edit and copy into a paper")
        self.methods_button.clicked.connect(self.methods_dialog)
        header = QHBoxLayout()
        header.addWidget(title)
        header.addStretch(1)
        for b in (self.methods_button, self.report_button, self.export_button):
            b.setEnabled(False)
            header.addWidget(b)
        self.ci = self._combo("Interval method", "How the confidence interval is computed", CI_METHODS)
        self.confidence = self._combo("Confidence level", "The confidence level of every interval", CONFIDENCE)
        self.by = self._combo("Subgroups", "Estimate separately for each value of this column", [(None, NONE)])
        self.adjust = self._combo("Pairwise p-values", "How the p-values of the differences between subgroups "
                                  "are adjusted for making many comparisons", ADJUSTMENTS)
        self.direct = name(QTableWidget(0, 2), "Direct questions",
                           "For each item, the column (if any) where the same question was asked directly")
        self.direct.setHorizontalHeaderLabels(["Item", "Asked directly in column"])
        self.direct.verticalHeader().setVisible(False)
        self.direct.setWordWrap(False)  # a question on one line, shortened with "…" (the tooltip has it all)
        self.direct.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.direct.setMaximumHeight(120)
        cell_choices.install(self.direct)  # one Tab stop; a click, Space or F2 opens a row's choice
        self.direct.itemChanged.connect(self._on_direct)
        self.state = QLabel()
        self.state.setObjectName("resultsState")
        self.state.setAccessibleName("Results state")
        self.state.setWordWrap(True)
        self.subgroup_warning = SubgroupWarningBar()  # exact subgroup n of a released or protected column
        self.subgroup_warning.leave_out_changed.connect(self.recompute)
        self.adherence_warning = AdherenceWarningBar()  # an ECWM item's versions disagree: non-adherence
        self.not_mapped = NotMappedBar()  # items without a mapping in the active dataset, each with Map…
        self.not_mapped.map_requested.connect(window.data_view.map_item)
        form = QFormLayout()
        form.addRow("Confidence interval:", self.ci)
        form.addRow("Confidence level:", self.confidence)
        form.addRow("Subgroups by:", self.by)
        form.addRow("Pairwise p-values:", self.adjust)
        options = QHBoxLayout()
        options.addLayout(form)
        options.addWidget(self.direct, 1)

        self.content = QWidget()
        self.document_view = DocumentView()
        self.document_view.copied.connect(self._on_copied)
        self.forest = PlotPanel("Forest plot", "each item's estimate and interval; direct-question estimates beside")
        self.subgroup_plot = PlotPanel("Subgroup plot", "each item's estimate per subgroup")
        self.bars_box = QVBoxLayout()
        self.bars: dict[str, PlotPanel] = {}
        inner = QVBoxLayout(self.content)
        inner.setContentsMargins(0, 0, 8, 0)
        for w in (self.document_view, self.forest, self.subgroup_plot):
            inner.addWidget(w)
        inner.addLayout(self.bars_box)
        inner.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.content)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(32, 24, 32, 24)
        layout.addLayout(header)
        layout.addLayout(options)
        layout.addWidget(self.state)
        self.report_progress = ReportProgress(self)  # File > Export report: what it does, a bar, Cancel
        layout.addWidget(self.report_progress)  # its own row: the buttons above keep their width at 1024 px
        for bar in (self.subgroup_warning, self.adherence_warning, self.not_mapped):
            layout.addWidget(bar)
        layout.addWidget(scroll, 1)
        for combo in (self.ci, self.confidence, self.by, self.adjust):
            combo.currentIndexChanged.connect(self.recompute)
        self.by.currentIndexChanged.connect(self._save_by)  # remembered with the project
        window.undo_stack.indexChanged.connect(self._on_items_changed)  # items edited in Design
        # connected before the views created later, so this reads the project before their jobs start
        window.project_changed.connect(self.refresh)
        window.data_view.imported.connect(self.refresh)
        window.data_view.active_changed.connect(self.refresh)
        self._show_state("No results yet.")

    def _on_items_changed(self, _index: int) -> None:
        if self.project is not None and not self.project.closed:
            self.refresh()

    def _combo(self, accessible: str, description: str, choices) -> QComboBox:
        combo = name(QComboBox(), accessible, description)
        for value, text in choices:
            combo.addItem(text, value)
        return combo

    @property
    def project(self):
        return self.window_.project

    # ------------------------------------------------------------------ options
    def options(self) -> Options:
        chosen = [(self.direct.item(r, 0), self.direct.item(r, 1)) for r in range(self.direct.rowCount())]
        direct = tuple((item.data(Qt.ItemDataRole.UserRole), column.data(Qt.ItemDataRole.UserRole))
                       for item, column in chosen if item is not None and column is not None
                       and column.data(Qt.ItemDataRole.UserRole))
        by = self.by.currentData()
        by_dataset = by == DATASETS
        by = None if by_dataset else by
        return Options(self.ci.currentData(), self.confidence.currentData(), by, direct,
                       self.subgroup_warning.min_group_size(), confirmed=by is not None and by == self._confirmed_by,
                       style=self.number_style().to_text(), by_dataset=by_dataset,
                       adjust=self.adjust.currentData())

    def number_style(self):
        """The number style chosen in the Preferences (default: percent with 1 decimal)."""
        from dpdesk.project.number_style import NumberStyle

        settings = getattr(self.window_, "settings", None)
        return NumberStyle.from_text(settings.value("number_style", "percent:1") if settings is not None else None)

    def apply_preferences(self) -> None:
        """The Preferences changed: show the results again in the new number style."""
        if self.current is not None and self.current.options.style != self.number_style().to_text():
            self.recompute()

    def refresh(self, *_args) -> None:
        """Fill the options from the project (columns of the latest data) and recompute."""
        self.jobs.cancel()
        project = self.project
        from dpdesk.project.study.active import active_dataset

        sets = project.datasets() if project is not None else []
        active = active_dataset(project) if sets else None
        columns = active.columns if active is not None else []
        self.by.blockSignals(True)
        keep = self.by.currentData()
        if project is not None and self._restored_for is not project:  # a project (re)opened: its saved choice
            from dpdesk.project.analysis.subgroup_choice import saved_subgroups

            keep, self._restored_for = saved_subgroups(project), project
        self.by.clear()
        self.by.addItem(NONE, None)
        items = project.items() if project is not None else []
        if sum(len(it.mappings) >= 2 for it in items):  # an item mapped in two datasets: compare them
            self.by.addItem("dataset (compare the datasets)", DATASETS)
        if active is not None:
            from dpdesk.project.analysis.subgroup_choice import project_subgroup_columns

            for column, text in project_subgroup_columns(project, active.name):  # "Q3 — What is your gender?"
                self.by.addItem(text, column)
        self.by.setCurrentIndex(max(0, self.by.findData(keep)))
        self.by.blockSignals(False)
        self._fill_direct(project, columns, active.name if active is not None else None)
        self._has_data = bool(sets)
        if project is None or not sets:
            self.current = None
            self.subgroup_warning.set_warning(None)
            self.not_mapped.set_items([], None)
            self._show_state("Import the survey answers in Data first; the results appear here.")
            self.content.setEnabled(False)
            return
        self._needs_run = True
        self.current = None
        self.stale = True
        self.content.setEnabled(False)
        self._show_state("The results are computed when you open this view.")
        if self.isVisible():  # else when first shown: no work for a view nobody looks at
            QTimer.singleShot(0, self.ensure_current)

    def study_changed(self, what=None) -> None:
        """A release was recorded or a regression saved (``what``: the entries or the report; None or [] when
        nothing was): recompute, so that the methods text and the report have it."""
        if what and self.current is not None:
            self._needs_run = True
            if self.isVisible():
                QTimer.singleShot(0, self.ensure_current)

    def ensure_current(self) -> None:
        """Compute the results if the data or items changed since the last run."""
        if self._needs_run and self._has_data and not self.jobs.running:
            self.recompute()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        QTimer.singleShot(0, self.ensure_current)

    def _fill_direct(self, project, columns: list[str], dataset: str | None = None) -> None:
        from dpdesk.project.example import ITEMS
        from dpdesk.project.study.labels import Labels

        labels = Labels.from_stored(project.column_labels(dataset)) if dataset else Labels()

        preset = {it["name"]: it.get("direct_column") for it in ITEMS}
        items = [it for it in project.items() if it.design.is_binary] if project is not None else []
        self.direct.blockSignals(True)  # filling: no recompute per cell
        self.direct.setRowCount(len(items))
        from PySide6.QtWidgets import QTableWidgetItem

        from dpdesk.project.study.labels import item_label, short_text

        short = project.item_labels() if items else {}
        for r, it in enumerate(items):
            cell = QTableWidgetItem(short_text(item_label(it, short)))
            cell.setData(Qt.ItemDataRole.UserRole, it.name)
            cell.setToolTip(f"{item_label(it, short)} (item {it.name})")
            self.direct.setItem(r, 0, cell)
            choice = cell_choices.choice_item(  # a cell, not a widget: the table stays one Tab stop
                QTableWidgetItem(), [(NONE, None)] + [(labels.choice(c), c) for c in columns if c != it.column],
                f"Direct column of {it.name}")  # "Q7 — Did you ever cheat? (asked directly)"
            choice.setToolTip("The column where this question was asked directly (click, Space or F2 to choose)")
            cell_choices.choose(choice, preset.get(it.name))
            self.direct.setItem(r, 1, choice)
        self.direct.blockSignals(False)

    def _on_direct(self, item) -> None:
        if item.column() == 1:
            self.recompute()

    # ------------------------------------------------------------------ computing
    def recompute(self, *_args) -> None:
        if self.project is None or not self._has_data:  # never asks the project: a job may be reading it
            return
        self.stale, self._needs_run = True, False
        self.failure = None
        self.content.setEnabled(False)  # greyed out: the numbers below are not for these options
        self._show_state("Updating… the results below are for the previous options.", busy=True)
        self.updated.emit(None)
        self.jobs.start(analyze_job, self.project, self.options())

    def _on_progress(self, _fraction: float, text: str) -> None:
        if self.stale and text:
            self._show_state(f"Updating… ({text}) The results below are for the previous options.", busy=True)

    def _show_state(self, text: str, busy: bool = False) -> None:
        self.state.setText(text)
        self.state.setStyleSheet("color: #8a5a00; font-weight: bold;" if busy else "color: gray;")

    def ask_subgroups(self, column: str, warnings: list[str]) -> bool:
        """Ask whether to estimate by ``column`` despite the warnings (tests replace this)."""
        from PySide6.QtWidgets import QMessageBox

        text = "\n\n".join(warnings) + f"\n\nEstimate by {column!r} anyway?"
        answer = QMessageBox.question(self, "Subgroups", text, QMessageBox.StandardButton.Yes |
                                      QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def _confirm_subgroups(self, rs: ResultSet) -> None:
        column = rs.options.by
        if self.ask_subgroups(column, rs.warnings):
            self._confirmed_by = column
            self.recompute()
            return
        self.by.blockSignals(True)
        self.by.setCurrentIndex(max(0, self.by.findData(None)))
        self.by.blockSignals(False)
        self._save_by()
        self.recompute()

    def _save_by(self, *_args) -> None:
        """Save the "Subgroups by" choice with the project, so that it is there when the project reopens."""
        project = self.project
        if project is None or project.closed or getattr(project, "read_only", False):
            return
        import sqlite3

        from dpdesk.errors import DpdeskError
        from dpdesk.project.analysis.subgroup_choice import save_subgroups

        try:
            save_subgroups(project, self.by.currentData())
        except (DpdeskError, OSError, sqlite3.Error):
            pass  # a project that cannot be written keeps working; the choice is just not remembered

    def _on_done(self, rs: ResultSet) -> None:
        if rs.needs_confirmation:
            self._confirm_subgroups(rs)
            return
        self.current, self.stale = rs, False
        self.subgroup_warning.set_warning(rs.subgroup_warning)
        self.adherence_warning.set_results(rs.results)
        self.not_mapped.set_items([r.item for r in rs.results if getattr(r, "not_mapped", False)], rs.dataset)
        self.document_view.set_document(rs.document)
        for b in (self.methods_button, self.report_button, self.export_button):
            b.setEnabled(True)
        style = NumberStyle.from_text(rs.options.style)
        set_plot_style(style)
        for panel in (self.forest, self.subgroup_plot, *self.bars.values()):
            panel.style = style
        conf = rs.options.confidence
        if rs.forest:
            self.forest.plot(draw_forest, rs.forest, confidence=conf)
        self.forest.setVisible(bool(rs.forest))
        if rs.subgroup_plot:
            self.subgroup_plot.title = f"Subgroups by {rs.by_label}"
            table = [{"item": r["of"], "subgroup": r["subgroup"],
                      **{k: r[k] for k in ("n", "estimate", "CI low", "CI high")}} for r in rs.subgroup_plot]
            self.subgroup_plot.plot(draw_forest, rs.subgroup_plot, table_rows=table, confidence=conf)
        self.subgroup_plot.setVisible(bool(rs.subgroup_plot))
        self._show_bars(rs.bars, conf, rs.subgroup_bars, rs.by_label, rs.names)
        self.content.setEnabled(True)
        method = dict(CI_METHODS)[rs.options.ci]
        self._show_state(f"Up to date: {method} intervals at {100 * conf:.0f}%"
                         + (f", by {rs.by_label if rs.options.by else 'dataset'}" if rs.options.by_label else "") + ".")
        self.updated.emit(rs)

    def _show_bars(self, bars: dict, confidence: float, by_subgroup: dict | None = None, by: str | None = None,
                   names: dict | None = None) -> None:
        for item in list(self.bars):
            if item not in bars:
                self.bars.pop(item).deleteLater()
        for item, rows in bars.items():
            label = (names or {}).get(item, item)
            panel = self.bars.get(item)
            if panel is None:
                panel = self.bars[item] = PlotPanel(f"{label} categories", f"the share of each category of {label}")
                panel.style = self.number_style()
                self.bars_box.addWidget(panel)
            if by_subgroup and item in by_subgroup:  # one colour per subgroup
                panel.plot(draw_grouped_bars, by_subgroup[item], title=f"{label} by {by}", confidence=confidence)
            else:
                panel.plot(draw_bars, rows, title=label, confidence=confidence)

    def _on_failed(self, exc) -> None:
        from dpdesk.errors import DpdeskError

        self.current = None
        self.subgroup_warning.set_warning(None)
        self.adherence_warning.set_results([])
        self.failure = app_words(exc) if isinstance(exc, DpdeskError) else "a mistake in dpdesk (see the error shown)"
        self._show_state(f"The results could not be computed: {app_words(exc)}" if isinstance(exc, DpdeskError)
                         else "The results could not be computed (a mistake in dpdesk).")
        if not isinstance(exc, DpdeskError):
            from dpdesk.gui.dialogs.errors import show_error

            show_error(exc, self)

    # ------------------------------------------------------------------ export
    def export_dialog(self) -> None:
        export_view = getattr(self.window_, "export_view", None)
        if export_view is not None:
            export_view.export_dialog("xlsx")
        else:  # pragma: no cover - the window always has an export view
            QFileDialog.getSaveFileName(self, "Export results")

    def _on_copied(self, key: str, what: str) -> None:
        status = getattr(self.window_, "statusBar", None)
        if callable(status):
            status().showMessage(COPIED.get(what, "Copied."), 4000)

    def scroll_to(self, title: str) -> None:
        """Scroll the document so that the heading ``title`` is at the top."""
        scroll = self.content.parentWidget().parentWidget()
        scroll.verticalScrollBar().setValue(self.document_view.y() + self.document_view.section_top(title))

    def report_blocker(self) -> str | None:
        """Why there is no report to export now, in words (None: the results are up to date).

        A run that failed says why, never "not ready yet": those results will not come by
        waiting. Results not yet computed are started now."""
        if self.current is not None and not self.stale:
            return None
        if self.project is None or not self._has_data:
            return "There are no results to report yet: import the survey answers in Data first."
        if self.failure:
            return (f"The results could not be computed, so there is no report to export: {self.failure} "
                    "Change the options in Results (for example Subgroups by), then export the report.")
        if not self.jobs.running:
            self.recompute()
        return ("The results are being computed (Results shows the progress). Export the report when Results "
                "says they are up to date.")

    def report_dialog(self) -> None:
        from dpdesk.gui.dialogs.report import export_report_dialog

        export_report_dialog(self)

    def report_done(self, path) -> None:
        from dpdesk.gui.dialogs.report import report_done

        report_done(self, path)

    def report_failed(self, exc) -> None:
        from dpdesk.gui.dialogs.report import report_failed

        report_failed(self, exc)

    def methods_dialog(self) -> None:
        from dpdesk.gui.dialogs.methods import MethodsDialog

        if self.current is None or self.project is None:
            return
        dialog = MethodsDialog(self.current.methods, self)
        self.methods_window = dialog
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def shutdown(self) -> None:
        self.jobs.shutdown()
        if getattr(self, "report_jobs", None) is not None:
            self.report_jobs.shutdown()
