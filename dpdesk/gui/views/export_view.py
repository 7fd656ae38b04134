"""The Export view: the current results as a workbook, CSV files, plots, the clipboard or a script.

Files are written by the project export (``analysis.results_bundle`` then
``export.export_results`` or ``repro.write_repro_script``) in a worker; plots by
:func:`dpdesk.gui.widgets.plots.save_figure`. Only current results are exported: while the
Results view is updating, the buttons wait.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QGridLayout,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from dpdesk.gui.widgets.folders import settings_for
from dpdesk.gui.help.button import ViewTitle
from dpdesk.gui.dialogs.errors import show_error
from dpdesk.gui.shell.worker import JobRunner
from dpdesk.gui.widgets.clipboard import copy_document_table, copy_table
from dpdesk.gui.widgets.common import name, note

FILTERS = {"xlsx": "Excel workbook (*.xlsx)", "csv": "CSV files (*.csv)", "py": "Python script (*.py)"}


def export_job(job, project, rs, path: str, percent: bool = False, regression=None) -> list[Path]:
    """Worker: the results bundle of ``rs`` written to ``path`` (.xlsx, .csv or a .py script).

    ``regression``: the Regression view's current report, added as its own sheets (and refitted
    by the script).
    """
    from dpdesk.project.analysis import estimates as analysis
    from dpdesk.project.export.results import export_results
    from dpdesk.project.reading.importing import own_connection

    job.progress(0.1, "Preparing the export…")
    o = rs.options
    with own_connection(project) as own:  # the window's connection stays free meanwhile
        bundle = analysis.results_bundle(own, rs.results, ci=o.ci, confidence=o.confidence)
    bundle.project_file = str(project.path)  # for the script; the metadata names the file only
    if rs.direct:
        bundle.tables["Direct questions"] = rs.direct
        bundle.metadata["direct-question columns"] = dict(o.direct)
    if regression is not None:
        from dpdesk.project.regression.export import add_regression

        add_regression(bundle, regression)
    path = Path(path)
    job.check()
    if path.suffix.lower() == ".py":
        from dpdesk.project.export.repro import write_repro_script

        return [write_repro_script(bundle, path)]
    return export_results(bundle, path, percent=percent)


def _subgroup_note(rs) -> str:
    """Before an export: the exact subgroup counts warning of the Results view, in one line."""
    warning = getattr(rs, "subgroup_warning", None)
    if warning is None:
        return ""
    return (f"Note: {warning.headline} {warning.groups_text} In Results you can leave out groups smaller "
            f"than {warning.threshold}; the export follows that choice.")


class ExportView(QWidget):
    def __init__(self, window, results_view, parent=None) -> None:
        super().__init__(parent)
        self.window_ = window
        self.results_view = results_view
        self.setObjectName("view_export")
        self.written: list[Path] = []
        self.jobs = JobRunner(self)
        self.jobs.done.connect(self._on_written)
        self.jobs.failed.connect(self._on_failed)
        title = ViewTitle("Export")  # with its "?" button: the guide's page on this view
        intro = note("Save the current results (the options chosen in Results) to share them or to analyse them "
                     "further. Workbooks and CSV files carry a Metadata sheet (input file and its SHA-256, import "
                     "options, design parameters, interval method) and a script that recomputes every estimate.")
        self.xlsx_button = name(QPushButton("Excel workbook (.xlsx)…"), "Export workbook",
                                "One sheet per table, a Metadata and a Readme sheet, and a reproducibility script")
        self.csv_button = name(QPushButton("CSV files (.csv)…"), "Export CSV",
                               "One CSV file per table, metadata and readme beside, and a reproducibility script")
        self.script_button = name(QPushButton("Reproducibility script (.py)…"), "Save reproducibility script",
                                  "A Python script that recomputes every estimate from the counts")
        self.plot_button = name(QPushButton("Forest plot (PNG, SVG, PDF)…"), "Save forest plot",
                                "Save the forest plot as an image or a PDF")
        self.copy_button = name(QPushButton("Copy estimates table"), "Copy estimates table",
                                "Copy the estimates (full precision) to paste into Excel or Word")
        self.percent = name(QCheckBox("Percentages in the workbook"),
                            "Percent format",
                            "Show estimates, SEs and bounds as percentages in the workbook (the values stay "
                            "proportions); "
                            "ticked when the number style in Preferences is percent")
        self.state = note(object_name="exportState")
        self.state.setAccessibleName("Export state")
        grid = QGridLayout()
        for i, b in enumerate((self.xlsx_button, self.csv_button, self.script_button, self.plot_button,
                               self.copy_button)):
            grid.addWidget(b, i, 0)
        grid.setColumnStretch(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(32, 24, 32, 24)
        layout.setSpacing(12)
        layout.addWidget(title)
        layout.addWidget(intro)
        layout.addLayout(grid)
        layout.addWidget(self.percent)
        layout.addWidget(self.state)
        layout.addStretch(1)
        self.xlsx_button.clicked.connect(self._xlsx)
        self.csv_button.clicked.connect(self._csv)
        self.script_button.clicked.connect(self._script)
        self.plot_button.clicked.connect(self.results_view.forest.save_dialog)
        self.copy_button.clicked.connect(self.copy)
        results_view.updated.connect(self._on_results)
        self._on_results(results_view.current)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        self.results_view.ensure_current()  # exports need current results

    def _on_results(self, rs) -> None:
        ready = rs is not None and not self.results_view.stale
        if rs is not None and rs.options.style != getattr(self, "_style", None):
            # the workbook follows the number style of the Preferences (one style, set once); the box
            # stays the user's to change until the style changes again
            from dpdesk.project.number_style import NumberStyle

            self._style = rs.options.style
            self.percent.setChecked(NumberStyle.from_text(rs.options.style).percent)
        for b in (self.xlsx_button, self.csv_button, self.script_button, self.copy_button):
            b.setEnabled(ready)
        self.plot_button.setEnabled(ready and bool(rs.forest))
        if not self.results_view._has_data:
            self.state.setText("Import the survey answers in Data first; then export the results here.")
        elif not self.jobs.running:
            self.state.setText(_subgroup_note(rs) if ready else "The results are being computed (with the options "
                               "chosen in Results); export when they are ready.")

    # ------------------------------------------------------------------ exporting
    def _xlsx(self) -> None:
        self.export_dialog("xlsx")

    def _csv(self) -> None:
        self.export_dialog("csv")

    def _script(self) -> None:
        self.export_dialog("py")

    def export_dialog(self, kind: str) -> None:
        if self.results_view.current is None or self.results_view.stale:
            self.state.setText("Wait until the results are up to date, then export.")
            return
        stem = Path(self.window_.project.path).stem if self.window_.project is not None else "results"
        suggested = f"{stem}_reproduce.py" if kind == "py" else f"{stem} results.{kind}"
        filters = ";;".join([FILTERS[kind]] + [f for k, f in FILTERS.items() if k != kind and k != "py"])
        settings = settings_for(self)
        path, chosen = QFileDialog.getSaveFileName(self, "Export results", settings.start_path("export", suggested),
                                                   filters)
        if path:
            settings.set_last_folder("export", path)
            if Path(path).suffix.lower() not in (".xlsx", ".csv", ".py"):
                path += next((f".{k}" for k, f in FILTERS.items() if f == chosen), f".{kind}")
            self.export(path)

    def export(self, path):
        """Write the current results to ``path`` in the worker; returns the job."""
        self.state.setText(f"Writing {Path(path).name}…")
        regression = getattr(self.window_, "regression_view", None)
        return self.jobs.start(export_job, self.window_.project, self.results_view.current, str(path),
                               self.percent.isChecked(), regression.current if regression is not None else None)

    def _on_written(self, paths: list[Path]) -> None:
        self.written = list(paths)
        self.state.setText("Written: " + ", ".join(p.name for p in paths) + f" (in {paths[0].parent}).")
        self.window_.statusBar().showMessage(f"Exported {paths[0].name}.", 8000)

    def _on_failed(self, exc) -> None:
        self.state.setText("")
        show_error(exc, self)

    def copy(self) -> None:
        """The estimates table as the Results document shows it (the number style of the Preferences)."""
        current = self.results_view.current
        if current is None:
            return
        if getattr(current, "document", None) is not None:
            copy_document_table(current.document.table("estimates"))
        else:
            copy_table(current.estimates)

    def shutdown(self) -> None:
        self.jobs.shutdown()
