"""The Regression view: which respondents are more likely to have the sensitive attribute?

Two tabs. *Models*: choose the model (logistic, linear with RR predictors, multilevel logistic), its
outcome and predictors from the active dataset's columns
(:class:`~dpdesk.gui.widgets.regression_form.RegressionForm`), then *Fit*. The fit runs in a
worker (``project.regression.report.fit_report``, which calls ``rr.logistic`` or ``rr.linear``) with
progress and Cancel; the result is saved with the project as an analysis and shown by
:class:`~dpdesk.gui.widgets.regression_output.RegressionOutput`. On opening a project the
latest saved regression is shown again. *Export…* writes it to a workbook (its own sheets)
with a reproducibility script that refits it and checks the coefficients. *Correlations*: the corrected
correlations of chosen items and columns (:mod:`.regression_correlations`).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from dpdesk.errors import app_words
from dpdesk.gui.widgets.folders import settings_for
from dpdesk.gui.help.button import ViewTitle
from dpdesk.gui.shell.worker import JobRunner
from dpdesk.gui.views.regression_correlations import CorrelationPanel
from dpdesk.gui.widgets.common import name, note
from dpdesk.gui.widgets.regression_form import RegressionForm
from dpdesk.gui.widgets.regression_output import RegressionOutput
from dpdesk.project.number_style import NumberStyle

EXPORT_FILTER = "Excel workbook (*.xlsx);;CSV files (*.csv)"


def columns_job(job, project):
    """Worker: the yes/no items, the columns that can be predictors (``predictor_choices``) or name clusters,
    the latest saved regression and the latest saved correlation table."""
    from dpdesk.mechanisms import rr
    from dpdesk.project.analysis.estimates import stored_table
    from dpdesk.project.study.labels import DASH, item_label
    from dpdesk.project.reading.importing import own_connection
    from dpdesk.project.regression.report import predictor_choices, saved_reports

    with own_connection(project) as own:
        items = own.items()
        short = own.item_labels()
        binary = []
        for it in items:
            d = rr.Design.from_dict(it.design_record)
            if d.is_binary and it.column and it.codes:  # mapped: its answers have codes
                shown = item_label(it, short)  # "exam_cheating — Exam cheating"
                label = f"{it.name}{DASH}{shown}" if shown != it.name else it.name
                binary.append((it.name, label, d.groups == 1 and d.model == "prevalence" and len(d.responses) == 2))
        answers = {c for it in items for c in (it.column, it.group_column) if c}
        job.check()
        table = stored_table(own)
        choices = predictor_choices(table, exclude=answers)
        job.check()
        clusters, counters = column_roles(table, answers)
        for c in choices:  # a row counter (an id) is no outcome and no variable to correlate
            c["counter"] = c["column"] in counters
        saved = saved_reports(own)
        correlation = _saved_correlation(own)
    return binary, choices, saved[-1] if saved else None, clusters, correlation


def _saved_correlation(project):
    """The latest correlation table saved with the project, or None."""
    from dpdesk.project.regression.correlation_report import saved_correlations

    saved = saved_correlations(project)
    return saved[-1] if saved else None


def column_roles(table, exclude=()) -> tuple[list[tuple[str, str]], set[str]]:
    """``(clusters, counters)``: ``(column, label)`` of the columns that can name clusters (at least two labels,
    and not one per row: no identifier), and the columns that count the rows (distinct whole numbers running
    from the lowest to the highest, such as an ``id``: no outcome to explain or correlate). The items' own
    answers are left out."""
    from dpdesk.project.regression.fit import _column
    from dpdesk.project.study.labels import labels_of

    labels = labels_of(table)
    clusters, counters = [], set()
    for col in table.frame.columns:
        if col in exclude:
            continue
        _series, keys, blank, numeric = _column(table.frame, table.report, col)
        values = [k for k, b in zip(keys, blank) if not b]
        seen = set(values)
        if 2 <= len(seen) < len(values):
            clusters.append((str(col), labels.choice(col)))
        elif numeric and len(seen) == len(values) > 1 and all(float(v).is_integer() for v in seen):
            low, high = min(map(float, seen)), max(map(float, seen))
            if high - low + 1 == len(seen):
                counters.add(str(col))
    return clusters, counters


def fit_job(job, project, spec):
    """Worker: fit ``spec`` and return ``(report, result)``; progress and Cancel inside the fit."""
    from dpdesk.gui.shell.prewarm import import_now

    import_now("matplotlib.figure", "matplotlib.backends.backend_qtagg")  # here, not on the GUI thread

    from dpdesk.project.reading.importing import own_connection
    from dpdesk.project.regression import regress
    from dpdesk.project.regression.report import labelled_report

    job.progress(0.05, "Fitting the model…")
    if spec.model != "logistic":  # linear, multilevel: the report is all there is (no live curve)
        from dpdesk.project.regression.report import fit_report

        with own_connection(project) as own:
            return fit_report(own, spec, progress=job.progress), None
    with own_connection(project) as own:
        result = regress(own, spec.item, spec.predictors, reference=spec.reference, interactions=spec.interactions,
                         center=spec.center, categorical=spec.categorical, numeric=spec.numeric,
                         confidence=spec.confidence,
                         dataset=spec.dataset, progress=job.progress)
        job.progress(0.95, "Predictions…")
        return labelled_report(own, result, spec), result


def curve_job(job, report, result, predictor: str):
    """Worker: the report with its prevalence curve across ``predictor`` (from the live fit)."""
    from dataclasses import replace

    from dpdesk.project.regression.report import prevalence_curve

    curve = prevalence_curve(result, predictor)
    return replace(report, curve=curve, spec=replace(report.spec, plot=predictor)), result


def export_job(job, project, report, path: str):
    """Worker: the regression as a workbook or CSV files with its reproducibility script."""
    from dpdesk.project.export.results import export_results
    from dpdesk.project.reading.importing import own_connection
    from dpdesk.project.regression.export import regression_bundle

    job.progress(0.1, "Preparing the export…")
    with own_connection(project) as own:
        bundle = regression_bundle(own, report)
    job.check()
    return export_results(bundle, path)


class RegressionView(QWidget):
    fitted = Signal(object)  # the new RegressionReport (None: the shown one is not for the current choices)

    def __init__(self, window, parent=None) -> None:
        super().__init__(parent)
        self.window_ = window
        self.setObjectName("view_regression")
        self.current = None   # the RegressionReport shown
        self.result = None    # its live fit (None for one read back from the project)
        self.stale = True
        self._loaded = False
        self.loader = JobRunner(self)
        self.loader.done.connect(self._on_columns)
        self.loader.failed.connect(self._on_load_failed)
        self.jobs = JobRunner(self)
        self.jobs.done.connect(self._on_fitted)
        self.jobs.failed.connect(self._on_failed)
        self.jobs.progress.connect(self._on_progress)
        self.jobs.busy.connect(self._on_busy)
        self.exporter = JobRunner(self)
        self.exporter.done.connect(self._on_exported)
        self.exporter.failed.connect(self._on_export_failed)
        self.curves = JobRunner(self)
        self.curves.done.connect(self._on_curve)
        self.curves.failed.connect(self._on_export_failed)
        title = ViewTitle("Regression")  # with its "?" button: the guide's page on this view
        intro = note("Who is more likely to have the sensitive attribute? Regressions in which the randomized "
                     "answers stand in for the true ones: logistic (van den Hout, van der Heijden & Gilchrist 2007; "
                     "as RRreg's RRlog), linear with RR items as predictors (RRlin) and multilevel logistic "
                     "(RRmixed). Choose the model, the outcome and the predictors, then Fit; or compare items and "
                     "columns under Correlations.")
        self.form = RegressionForm()
        self.form.model.currentIndexChanged.connect(self._on_model_changed)
        self.form.changed.connect(self._on_choices_changed)
        self.form.plot.currentIndexChanged.connect(self._on_plot_changed)
        self.fit_button = name(QPushButton("Fit"), "Fit the model", "Fit the chosen regression (in the background)")
        self.cancel_button = name(QPushButton("Cancel"), "Cancel the fit", "Stop the fit; nothing is saved")
        self.export_button = name(QPushButton("Export…"), "Export the regression",
                                  "Save the regression as an Excel workbook or CSV, with a script that refits it")
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setAccessibleName("Fit progress")
        self.progress.setMaximumWidth(220)
        self.fit_button.clicked.connect(self.fit)
        self.cancel_button.clicked.connect(self.cancel)
        self.export_button.clicked.connect(self.export_dialog)
        buttons = QHBoxLayout()
        for w in (self.fit_button, self.cancel_button, self.progress):
            buttons.addWidget(w)
        buttons.addStretch(1)
        buttons.addWidget(self.export_button)
        self.state = note(object_name="regressionState")
        self.state.setAccessibleName("Regression state")
        self.output = RegressionOutput()
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        content = QWidget()
        inner = QVBoxLayout(content)
        inner.setContentsMargins(0, 0, 8, 0)
        inner.addWidget(self.output)
        inner.addStretch(1)
        scroll.setWidget(content)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.scroll = scroll
        top = QWidget()
        choices = QVBoxLayout(top)
        choices.setContentsMargins(0, 0, 0, 4)
        choices.addWidget(self.form, 1)
        choices.addLayout(buttons)
        choices.addWidget(self.state)
        self.splitter = QSplitter(Qt.Orientation.Vertical)  # the choices above, the results below
        self.splitter.addWidget(top)
        self.splitter.addWidget(scroll)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([300, 600])
        self._split_by_hand = False  # the researcher moved the divider: leave it where they put it
        self.splitter.splitterMoved.connect(self._on_split_moved)
        self._top = top
        self.correlations = CorrelationPanel(self)
        self.tabs = name(QTabWidget(), "Regression tabs", "Models: fit a regression; Correlations: a correlation table")
        self.tabs.addTab(self.splitter, "Models")
        self.tabs.addTab(self.correlations, "Correlations")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(32, 24, 32, 24)
        layout.addWidget(title)
        layout.addWidget(intro)
        layout.addWidget(self.tabs, 1)
        window.project_changed.connect(self.refresh)
        window.data_view.imported.connect(self.refresh)
        window.data_view.active_changed.connect(self.refresh)
        window.undo_stack.indexChanged.connect(self._on_items_changed)
        self._on_busy(False)
        self._set_state("Open a project with data to fit a regression.")

    @property
    def project(self):
        return self.window_.project

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._share_height()

    def _on_split_moved(self, *_args) -> None:
        self._split_by_hand = True

    def _share_height(self) -> None:
        """With results shown the choices get at most 55% of the height (their minimum if more), the results the
        rest (at 1024 x 700 the choices took all but 60 px of it); with none, the choices get what they need."""
        total = sum(self.splitter.sizes())
        if self._split_by_hand or total <= 0:
            return
        share = 0.55 if self.output.report is not None or self.output.message.isVisibleTo(self.output) else 0.85
        top = max(self._top.minimumSizeHint().height(), min(self._top.sizeHint().height(), int(share * total)))
        if top < total:
            self.splitter.setSizes([top, total - top])

    # ------------------------------------------------------------------ filling
    def refresh(self, *_args) -> None:
        """The project or its data changed: read the items and columns again (in a worker)."""
        self.jobs.cancel()
        self.loader.cancel()
        self._loaded = False
        self.current, self.result, self.stale = None, None, True
        self.output.clear()
        self._on_busy(False)
        project = self.project
        self.correlations.clear()
        if project is None or project.closed or not project.datasets():
            self.form.set_items([])
            self.form.set_columns([])
            self.form.set_clusters([])
            self._set_state("Import the survey answers in Data first; then choose an outcome and predictors here.")
            return
        self._set_state("Reading the columns…")
        self.loader.start(columns_job, project)

    def _on_items_changed(self, _index: int) -> None:
        if self.project is not None and not self.project.closed:
            self.refresh()

    def _on_columns(self, found) -> None:
        binary, choices, saved, clusters, correlation = found
        self.form.set_items(binary)
        self.form.set_columns(choices)
        self.form.set_clusters(clusters)
        self.correlations.set_choices(binary, choices, correlation)
        self._loaded = True
        self._on_busy(False)
        if not binary:
            self._set_state("The project has no yes/no item mapped to a column: add one in Design and map it in Data.")
        elif saved is not None:
            self.form.restore(saved.spec)
            self._show(saved, None)
            self._set_state(f"The last regression saved with the project ({saved.outcome}, on the data "
                            f"{saved.spec.dataset!r}). Change the choices and Fit again to update it.")
        else:
            self._on_model_changed()
        self._share_height()

    def _on_model_changed(self, *_args) -> None:
        """What the chosen model needs, in the state line (before any fit)."""
        self._share_height()
        if not self._loaded or (self.current is not None and not self.stale):
            return
        key = self.form.model_key()
        self._set_state({
            "linear": "Choose the numeric column to explain and tick the RR items that explain it (covariates "
                      "below are optional), then Fit.",
            "multilevel": "Choose the outcome, the column naming the clusters and the predictors (none: the "
                          "intercept alone), then Fit.",
        }.get(key, "Tick the predictors (the columns of the active dataset), then Fit."))

    # ------------------------------------------------------------------ fitting
    def spec(self):
        from dpdesk.project.regression.report import RegressionSpec

        return RegressionSpec(**self.form.spec_fields())

    def fit(self) -> None:
        """Fit the current choices in the worker (the shown results are greyed until it ends)."""
        problem = self._problem()
        if problem:
            self._set_state(problem, problem=True)
            return
        spec = self.spec()
        self.stale = True
        self.output.setEnabled(False)
        self.fitted.emit(None)
        if self.form.model_key() == "linear":
            preds = ", ".join([self.form.rr_label(i) for i in spec.rr_items]
                              + [self.form.column_label(c) for c in spec.predictors])
        else:
            preds = ", ".join(self.form.column_label(c) for c in spec.predictors) or "the intercept alone"
        self._set_state(f"Fitting {self.form.outcome_label()} on {preds}…", busy=True)
        self.jobs.start(fit_job, self.project, spec)

    def _problem(self) -> str:
        """What is missing from the choices, in words ("" when the model can be fitted)."""
        f = self.form
        key = f.model_key()
        if key == "linear":
            if f.numeric_outcome.count() == 0:
                return ("The data have no numeric column to explain: a linear model needs an outcome of numbers "
                        "(a score, an income). Choose the logistic model to explain an RR item instead.")
            if not f.rr_predictors():
                return "Tick at least one RR item as a predictor (the list under the outcome)."
            return ""
        if not f.outcome.currentData():
            return ("The project has no one-group yes/no item mapped to a column: a multilevel model cannot use "
                    "two-group designs." if key == "multilevel" and f._items else
                    "Choose the outcome: a yes/no item mapped to a column of the data.")
        if key == "multilevel" and not f.cluster.currentData():
            return ("No column can name clusters: a multilevel model needs a column with a label per cluster "
                    "(school, firm, country), at least two of them.")
        if not f.predictors() and key != "multilevel":  # a multilevel model may have the intercept alone
            return "Tick at least one predictor."
        return ""

    def cancel(self) -> None:
        if self.jobs.running:
            self.jobs.cancel()
            self.output.setEnabled(True)
            shown = " The results below are from before." if self.current is not None else ""
            self._set_state("Cancelled: nothing was fitted or saved." + shown)

    def _on_progress(self, fraction: float, text: str) -> None:
        self.progress.setValue(round(100 * fraction))
        if text:
            self._set_state(f"Fitting… {text}", busy=True)

    def _on_busy(self, busy: bool) -> None:
        self.fit_button.setEnabled(not busy and self._loaded)
        self.cancel_button.setEnabled(busy)
        self.progress.setVisible(busy)
        if busy:
            self.progress.setValue(0)
        self.export_button.setEnabled(not busy and self.current is not None)

    def _on_fitted(self, found) -> None:
        report, result = found
        from dpdesk.errors import DpdeskError
        from dpdesk.project.regression.report import save_report

        try:
            save_report(self.project, report)
        except DpdeskError as exc:
            self._set_state(f"Fitted, but not saved with the project: {app_words(exc)}", problem=True)
        else:
            self._set_state(f"Fitted and saved with the project: {report.fit['n_used']:,} of "
                            f"{report.fit['n_rows']:,} rows used.")
        self._show(report, result)

    def _show(self, report, result) -> None:
        self.current, self.result, self.stale = report, result, False
        self.output.setEnabled(True)
        settings = getattr(self.window_, "settings", None)
        self.output.show_report(report, NumberStyle.from_text(settings.value("number_style", "percent:1")
                                                              if settings is not None else None))
        self._on_busy(self.jobs.running)
        self._share_height()
        self.fitted.emit(report)

    def _on_choices_changed(self) -> None:
        if self.current is None or self.stale:
            return
        shown, now = self.current.spec, self.spec()
        keys = ("model", "item", "predictors", "cluster", "nagq", "outcome", "rr_items")
        if any(getattr(shown, k) != getattr(now, k) for k in keys):
            self._set_state("The choices changed: Fit again to update the results below.")

    def _on_plot_changed(self, _index: int) -> None:
        predictor = self.form.plot.currentData()
        if (self.result is None or not getattr(self.current, "curve", None) or self.current is None or not predictor or self.jobs.running
                or predictor not in self.current.spec.predictors or predictor == self.current.curve["predictor"]):
            return
        self.curves.start(curve_job, self.current, self.result, predictor)

    def _on_curve(self, found) -> None:
        report, result = found
        self._show(report, result)

    def _on_failed(self, exc) -> None:
        from dpdesk.errors import DpdeskError

        self._on_busy(False)
        self.output.setEnabled(True)
        if isinstance(exc, DpdeskError):  # separation, a singular model, a bad choice: words, never numbers
            self.current, self.result = None, None
            self.output.show_message(app_words(exc))
            self._share_height()
            self._set_state("No results: see the message below.", problem=True)
            self._on_busy(False)
            self.fitted.emit(None)
            return
        from dpdesk.gui.dialogs.errors import show_error

        self._set_state("The regression could not be fitted (a mistake in dpdesk).", problem=True)
        show_error(exc, self)

    def _on_load_failed(self, exc) -> None:
        from dpdesk.errors import DpdeskError

        self._set_state(f"The columns could not be read: {app_words(exc)}" if isinstance(exc, DpdeskError)
                        else "The columns could not be read (a mistake in dpdesk).", problem=True)
        if not isinstance(exc, DpdeskError):
            from dpdesk.gui.dialogs.errors import show_error

            show_error(exc, self)

    def _on_export_failed(self, exc) -> None:
        from dpdesk.gui.dialogs.errors import show_error

        self._set_state("")
        show_error(exc, self)

    def _set_state(self, text: str, *, busy: bool = False, problem: bool = False) -> None:
        self.state.setText(text)
        self.state.setStyleSheet("color: #8a5a00; font-weight: bold;" if busy else
                                 "color: #a40000;" if problem else "color: gray;")

    # ------------------------------------------------------------------ export
    def export_dialog(self) -> None:
        if self.current is None:
            return
        stem = Path(self.project.path).stem if self.project is not None else "regression"
        settings = settings_for(self)
        path, chosen = QFileDialog.getSaveFileName(self, "Export the regression",
                                                   settings.start_path("export", f"{stem} regression.xlsx"),
                                                   EXPORT_FILTER)
        if path:
            settings.set_last_folder("export", path)
            if Path(path).suffix.lower() not in (".xlsx", ".csv"):
                path += ".csv" if chosen.startswith("CSV") else ".xlsx"
            self.export(path)

    def export(self, path):
        """Write the shown regression to ``path`` (.xlsx or .csv) in the worker; returns the job."""
        self._set_state(f"Writing {Path(path).name}…")
        return self.exporter.start(export_job, self.project, self.current, str(path))

    def _on_exported(self, paths) -> None:
        self.written = list(paths)
        self._set_state("Written: " + ", ".join(p.name for p in paths) + f" (in {paths[0].parent}).")

    def shutdown(self) -> None:
        for runner in (self.loader, self.jobs, self.exporter, self.curves):
            runner.shutdown()
        self.correlations.shutdown()
