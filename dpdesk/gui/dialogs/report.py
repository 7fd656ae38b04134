"""File > Export report: the whole study with its summary and the methods, as PDF, Word, HTML or LaTeX.

The report is built from the results on screen (same options, same direct-question
comparisons, same number style) in a worker: the HTML by the project layer
(``dpdesk.project.report``), written by ``dpdesk.printing`` (Word with python-docx; LaTeX with its
figures beside it). A PDF is then laid out and painted by Qt on the GUI thread, page by page
(``dpdesk.gui.shell.steps``): Qt's text documents are never made in a worker.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QMessageBox

from dpdesk.printing import REPORT_SUFFIXES

#: "PDF document (*.pdf);;Word document (*.docx);;Web page (*.html);;LaTeX document (*.tex)"
REPORT_FILTER = ";;".join(f"{kind} (*{suffix})" for suffix, kind in REPORT_SUFFIXES.items() if suffix != ".htm")


def report_job(job, project, rs, path: str):
    """Worker: write the report of the ResultSet ``rs`` to ``path`` (.docx, .html or .tex; returns the path),
    or prepare a PDF (returns the ``PdfPages`` to lay out on the GUI thread)."""
    from dpdesk.printing import prepare_parts
    from dpdesk.project.reading.importing import own_connection
    from dpdesk.project.report.figures import FigureRows, figure_rows
    from dpdesk.project.number_style import NumberStyle
    from dpdesk.project.report.report import report_parts

    job.progress(0.05, "Building the report…")
    o = rs.options
    style = NumberStyle.from_text(o.style)
    named = figure_rows(rs.results)  # what a reader calls each item and the subgroups, as the command line does
    figures = FigureRows(rs.forest, rs.bars, rs.subgroup_plot, rs.subgroup_bars, names=named.names, by=named.by)
    with own_connection(project) as own:
        parts = report_parts(own, results=rs.results, direct=rs.direct, ci=o.ci, confidence=o.confidence,
                             style=style, figures=figures)
    job.progress(0.3, "Drawing the plots…")

    def drawing(done: int, total: int) -> None:  # each plot: progress, and a point where Cancel stops the job
        job.progress(0.3 + 0.6 * done / max(1, total),
                     f"Drawing plot {done + 1} of {total}…" if done < total else "Writing the file…")

    return prepare_parts(parts, path, style=style, progress=drawing)


class ReportFileDialog(QFileDialog):
    """The save dialog of File > Export report: PDF, Word, web page or LaTeX; the file type sets the suffix."""

    def __init__(self, parent, start: str) -> None:
        super().__init__(parent, "Export report", start, REPORT_FILTER)
        self.setObjectName("exportReportDialog")
        self.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        self.setFileMode(QFileDialog.FileMode.AnyFile)
        self.setDefaultSuffix("pdf")
        self.filterSelected.connect(self._filter_chosen)  # a bound method, never a lambda (PITFALLS)

    def _filter_chosen(self, chosen: str) -> None:
        """"Word document" chosen: report.pdf becomes report.docx."""
        suffix = suffix_of(chosen)
        self.setDefaultSuffix(suffix[1:])
        names = self.selectedFiles()
        if names:
            self.selectFile(Path(names[0]).with_suffix(suffix).name)

    def path(self) -> str | None:
        """The chosen file with the suffix of its type, or None."""
        names = self.selectedFiles()
        if not names:
            return None
        path = names[0]
        if Path(path).suffix.lower() not in REPORT_SUFFIXES:
            path += suffix_of(self.selectedNameFilter())
        return path


def suffix_of(name_filter: str) -> str:
    """"Word document (*.docx)" -> ".docx"."""
    return next((suffix for suffix, kind in REPORT_SUFFIXES.items() if name_filter.startswith(kind)), ".pdf")


def export_report_dialog(view) -> None:
    """Ask for a file and write the report of ``view`` (the Results view) there."""
    problem = view.report_blocker()
    if problem:
        QMessageBox.information(view, "Export report", problem)
        return
    settings = view.window_.settings
    start = str(Path(settings.last_folder("report")) / f"{Path(str(view.project.path)).stem}-report.pdf")
    dialog = ReportFileDialog(view, start)
    path = dialog.path() if dialog.exec() else None
    if not path:
        return
    settings.set_last_folder("report", Path(path).parent)
    start_report(view, path)


class ReportWriter(QObject):
    """The report job of a view: ``report_job`` in a worker, then a PDF's pages in steps on the GUI thread.
    ``done(path)`` once the file is written, ``failed(exc)``; one report at a time. ``progress(fraction,
    text)`` runs over both parts (a PDF's pages take the second half) and ``busy(bool)`` says when a report is
    being written; :meth:`cancel` stops it and leaves no file."""

    done = Signal(object)
    failed = Signal(object)
    progress = Signal(float, str)
    busy = Signal(bool)

    def __init__(self, parent) -> None:
        from dpdesk.gui.shell.steps import StepRunner
        from dpdesk.gui.shell.worker import JobRunner

        super().__init__(parent)
        self.jobs = JobRunner(self)
        self.pages = StepRunner(self)
        self._pdf = False
        self.jobs.done.connect(self._on_prepared)
        self.jobs.failed.connect(self._on_failed)
        self.jobs.progress.connect(self._on_job_progress)
        self.pages.done.connect(self._on_done)
        self.pages.failed.connect(self._on_failed)
        self.pages.progress.connect(self._on_page_progress)

    @property
    def running(self) -> bool:
        return self.jobs.running or self.pages.running

    def start(self, project, rs, path: str) -> None:
        self.pages.cancel()
        self._pdf = Path(path).suffix.lower() == ".pdf"
        self.busy.emit(True)
        self.progress.emit(0.0, "Building the report…")
        self.jobs.start(report_job, project, rs, path)

    def cancel(self) -> None:
        """Stop the report (the worker at its next step, the pages at once); no file is left."""
        self.jobs.cancel()
        self.pages.cancel()
        self.busy.emit(False)

    def _on_job_progress(self, fraction: float, text: str) -> None:
        self.progress.emit(fraction * (0.5 if self._pdf else 1.0), text)

    def _on_page_progress(self, fraction: float, text: str) -> None:
        self.progress.emit(0.5 + 0.5 * fraction, text)

    def _on_prepared(self, prepared) -> None:
        if isinstance(prepared, Path):
            self._on_done(prepared)
        else:
            self.progress.emit(0.5, "Laying out the pages…")
            self.pages.start(prepared.steps(), "Laying out the pages…")

    def _on_done(self, path) -> None:
        self.busy.emit(False)
        self.done.emit(path)

    def _on_failed(self, exc) -> None:
        self.busy.emit(False)
        self.failed.emit(exc)

    def shutdown(self) -> None:
        self.pages.cancel()
        self.jobs.shutdown()


def start_report(view, path: str):
    """Start the report job of ``view`` (tests call this without the file dialog); returns its ReportWriter."""
    runner = getattr(view, "report_jobs", None)
    if runner is None:
        runner = view.report_jobs = ReportWriter(view)
        runner.done.connect(view.report_done)  # bound methods, never lambdas (PITFALLS: crash at exit)
        runner.failed.connect(view.report_failed)
        progress = getattr(view, "report_progress", None)
        if progress is not None:
            progress.follow(runner)
    runner.start(view.project, view.current, str(path))
    return runner


def report_done(view, path) -> None:
    status = getattr(view.window_, "statusBar", None)
    if callable(status):
        status().showMessage(f"Report written to {path}.", 8000)


def report_failed(view, exc) -> None:
    from dpdesk.gui.dialogs.errors import show_error

    show_error(exc, view)
