"""The main window: welcome screen, or the open project with navigation by task.

Every change is written to the project file at once (no "unsaved changes"); this window
opens, closes and switches projects, and holds the undo stack and the settings.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import (  # QFileDialog and QMessageBox where used: their enums cost start-up time
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QHBoxLayout,
    QStackedWidget,
    QWidget,
)

from dpdesk.errors import DpdeskError
from dpdesk.gui.shell.tasks import TASKS

from dpdesk.gui.dialogs.errors import show_error
from dpdesk.gui.shell.handoff import HandOff
from dpdesk.gui.shell.menus import build_menus
from dpdesk.gui.shell.settings import Settings, data_folder
from dpdesk.gui.widgets.screen_fit import fit_on_screen, keep_on_screen
from dpdesk.gui.widgets.status_bar import StatusBar, fit_label
from dpdesk.gui.views.placeholder import PlaceholderView
from dpdesk.gui.shell.welcome import WelcomeView
from dpdesk.gui.widgets.common import name
from dpdesk.gui.shell.worker import JobRunner

TASK_TIPS = {
    "Design": "The sensitive questions and how respondents answer them",
    "Data": "Import the survey answers",
    "Results": "Estimates with confidence intervals",
    "Regression": "Who is more likely to have the sensitive attribute: logistic, linear and multilevel regressions "
                  "with RR items, and their correlations",
    "Tabulate": "Private tables of the other variables",
    "Export": "Save results as a workbook, CSV or a script",
    "Share": "Check how identifiable the data is and export a safer extract",
}
PROJECT_FILTER = "dpdesk projects (*.dpdesk)"
DATA_SUFFIXES = {".csv", ".tsv", ".txt", ".xlsx", ".sav", ".dta", ".parquet"}  # Parquet: linked, not copied

#: The task views, built on first use (:meth:`MainWindow._build_views`).
VIEWS = ("design_view", "data_view", "results_view", "regression_view", "export_view", "tabulate_view", "share_view")


class MainWindow(QMainWindow):
    project_changed = Signal(object)  # the open Project, or None

    def __init__(self, settings: Settings | None = None) -> None:
        super().__init__()
        from PySide6.QtWidgets import QApplication

        from dpdesk.gui.shell import input_guard

        input_guard.install(QApplication.instance())  # no value changed by a stray wheel; focus always visible
        self.settings = settings or Settings()
        self.project = None
        self.undo_stack = QUndoStack(self)
        self.setWindowTitle("dpdesk")
        self.setAcceptDrops(True)
        self.resize(1100, 720)
        self.jobs = JobRunner(self)
        self.handoff = HandOff(self)  # what a later start of dpdesk asks this window to open
        self.jobs.done.connect(self._on_example_built)
        self.jobs.failed.connect(self._on_job_failed)
        self.jobs.progress.connect(self._on_job_progress)

        self.welcome = WelcomeView()
        self.nav = name(QListWidget(), "Tasks", "Choose what to work on: design, data, results, tabulate, export")
        for task in TASKS:
            item = QListWidgetItem(task)
            item.setToolTip(TASK_TIPS[task])
            item.setData(Qt.ItemDataRole.AccessibleDescriptionRole, TASK_TIPS[task])
            self.nav.addItem(item)
        self.nav.setFixedWidth(170)
        self.views = QStackedWidget()
        self.nav.setObjectName("nav")
        self.nav.setStyleSheet("QListWidget#nav { font-size: 11pt; border: none; background: palette(base); }"
                               "QListWidget#nav::item { padding: 8px 14px; border: none; }"
                               "QListWidget#nav::item:selected { background: palette(highlight); "
                               "color: palette(highlighted-text); }"
                               "QListWidget#nav { outline: 0; }"
                               "QListWidget#nav::item:selected:focus { border-left: 5px solid palette(text); "
                               "padding-left: 9px; }")  # the keyboard focus is in the task list
        self.workspace = QWidget()
        row = QHBoxLayout(self.workspace)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        row.addWidget(self.nav)
        row.addWidget(self.views, 1)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.welcome)
        self.pages.addWidget(self.workspace)
        self.setCentralWidget(self.pages)
        self.setStatusBar(StatusBar(self))  # long messages are shortened with "…", whole in the tooltip
        self.project_label = QLabel()
        self.dataset_label = QLabel()
        self.dataset_label.setAccessibleName("Active dataset")
        self.statusBar().addPermanentWidget(self.dataset_label)
        self.statusBar().addPermanentWidget(self.project_label)
        self.statusBar().give_way(self.project_label)  # its name is in the window title: a message needs the room
        self.statusBar().showMessage("Ready")

        self.actions_ = build_menus(self)
        self.recent_menu.triggered.connect(self._on_recent_action)
        self.nav.currentRowChanged.connect(self.views.setCurrentIndex)
        self.welcome.new_requested.connect(self.new_project_dialog)
        self.welcome.open_requested.connect(self.open_project_dialog)
        self.welcome.example_requested.connect(self.open_example)
        self.welcome.recent_chosen.connect(self.open_project)
        self.undo_stack.indexChanged.connect(self._on_undo_index)
        self.nav.setCurrentRow(0)
        geometry = self.settings.geometry()
        if geometry is not None:
            self.restoreGeometry(geometry)
        self._fit_on_show = geometry is not None
        self._keeper = keep_on_screen(self)  # and again once the window manager has added its frame
        self.setProperty(input_guard.LATER, 300)  # the wheel guard once the first window is shown
        self._refresh()

    # ------------------------------------------------------------------ views
    def __getattr__(self, name: str):
        """The task views are built on first use (the welcome screen shows without them)."""
        if name in VIEWS and "_views_built" not in self.__dict__:
            self._build_views()
            return getattr(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _build_views(self) -> None:
        self._views_built = True
        from dpdesk.gui.views.data_view import DataView
        from dpdesk.gui.views.design_view import DesignView
        from dpdesk.gui.views.export_view import ExportView
        from dpdesk.gui.views.regression_view import RegressionView
        from dpdesk.gui.views.results_view import ResultsView
        from dpdesk.gui.views.share_view import ShareView
        from dpdesk.gui.views.tabulate_view import TabulateView

        self.design_view = DesignView(self)
        self.data_view = DataView(self)
        self.results_view = ResultsView(self)  # before the others: it reads a new project first
        self.regression_view = RegressionView(self)
        self.export_view = ExportView(self, self.results_view)
        self.tabulate_view = TabulateView(self)
        self.share_view = ShareView(self)
        own = {"Design": self.design_view, "Data": self.data_view, "Results": self.results_view,
               "Regression": self.regression_view, "Export": self.export_view, "Tabulate": self.tabulate_view, "Share": self.share_view}
        for task in TASKS:
            self.views.addWidget(own.get(task) or PlaceholderView(task))
        self.views.setCurrentIndex(max(0, self.nav.currentRow()))
        self.statusBar().insertPermanentWidget(1, self.tabulate_view.meter)
        # a new release or regression belongs in the methods text and the report: Results recomputes
        self.tabulate_view.released.connect(self.results_view.study_changed)
        self.regression_view.fitted.connect(self.results_view.study_changed)
        self.regression_view.correlations.computed.connect(self.results_view.study_changed)  # and a correlation table

    @property
    def views_built(self) -> bool:
        return "_views_built" in self.__dict__

    # ------------------------------------------------------------------ projects
    def open_project(self, path) -> bool:
        """Open ``path`` (closing the current project first); errors are shown, not raised."""
        from dpdesk.project import ledger
        from dpdesk.project.file.store import Project

        path = Path(path)
        if self.project is not None and not self.project.closed and self.project.path == path.absolute().resolve():
            self.statusBar().showMessage(f"{path.name} is already open.", 5000)
            return True
        from dpdesk.project.file.database import HotJournalError

        try:
            project = Project.open(path)
        except HotJournalError as exc:
            return self._offer_recovery(exc)
        except DpdeskError as exc:
            show_error(exc, self)
            if not path.exists():
                self.settings.remove_recent(str(path))
                self._refresh()
            return False
        try:
            ledger.verify_ledger(project)  # an edited ledger is found on open, before any release
        except DpdeskError as exc:
            project.close()
            show_error(exc, self)
            return False
        self._set_project(project)
        return True

    def _offer_recovery(self, exc) -> bool:
        """A file with an unfinished change beside it is never changed on open: offer a recovered copy."""
        from PySide6.QtWidgets import QFileDialog, QMessageBox

        from dpdesk.project.file.store import Project

        answer = QMessageBox.question(
            self, "An unfinished change beside the project",
            f"{exc.path.name} has an unfinished change beside it ({exc.path.name}-journal), left by a program that "
            "stopped while writing, or sent with the file. Opening it would roll the file back with that "
            "journal, changing a file that came from elsewhere, so dpdesk left both files untouched.\n\n"
            "Recover into a copy? The file and its journal are copied to a new name, the copy is rolled back "
            "and opened; the original stays as it is.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel)
        if answer != QMessageBox.StandardButton.Yes:
            return False
        suggested = exc.path.with_name(f"{exc.path.stem} (recovered).dpdesk")
        target, _ = QFileDialog.getSaveFileName(self, "Recover into a copy", str(suggested), PROJECT_FILTER)
        if not target:
            return False
        try:
            copy = Project.recover_copy(exc.path, target)
        except DpdeskError as error:
            show_error(error, self)
            return False
        return self.open_project(copy)

    def create_project(self, path) -> bool:
        from dpdesk.project.file.store import Project

        path = Path(path)
        if path.suffix.lower() != ".dpdesk":
            path = path.with_name(path.name + ".dpdesk")
        try:
            project = Project.create(path)
        except DpdeskError as exc:
            show_error(exc, self)
            return False
        self._set_project(project)
        return True

    def _set_project(self, project) -> None:
        self.close_project()
        self.project = project
        self.settings.add_recent(project.path)
        self.settings.set_last_folder("project", project.path)
        self.settings.set_project(project.path)  # file dialogs start in the project's folder
        if project.backup_path is not None:
            self.statusBar().showMessage(f"Upgraded an older project file; the original is kept as "
                                         f"{project.backup_path.name}.", 10000)
        else:
            self.statusBar().showMessage(f"Opened {project.path.name}.", 5000)
        self.nav.setCurrentRow(0)
        self._refresh()
        self.project_changed.emit(project)

    def close_project(self) -> None:
        self.jobs.cancel()
        if self.views_built:
            for view in (self.data_view, self.results_view, self.regression_view, self.export_view,
                         self.tabulate_view, self.share_view):
                view.shutdown()  # their jobs read the project: finish them before it closes
            if self.design_view.wizard is not None:
                self.design_view.wizard.reject()
        self.undo_stack.clear()
        if self.project is not None:
            name = self.project.path.name
            self.project.close()
            self.project = None
            self.settings.set_project(None)
            self.statusBar().showMessage(f"Closed {name}. Every change was already saved.", 5000)
            self._refresh()
            self.project_changed.emit(None)

    def save_as(self, path) -> bool:
        if self.project is None:
            return False
        try:
            self.project.save_as(path)
        except DpdeskError as exc:
            show_error(exc, self)
            return False
        self.settings.add_recent(self.project.path)
        self._refresh()
        return True

    # ------------------------------------------------------------------ dialogs
    def new_project_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        folder = self.settings.last_folder("project")
        path, _ = QFileDialog.getSaveFileName(self, "New project", str(Path(folder) / "survey.dpdesk"), PROJECT_FILTER)
        if path:
            self.create_project(path)

    def open_project_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        path, _ = QFileDialog.getOpenFileName(self, "Open project", self.settings.last_folder("project"), PROJECT_FILTER)
        if path:
            self.open_project(path)

    def save_now(self) -> None:
        """File > Save (Ctrl+S): every change is already in the project file; say so."""
        if self.project is None:
            self.statusBar().showMessage("Nothing to save: create or open a project first.", 8000)
            return
        self.statusBar().showMessage(f"Saved: {self.project.path.name} is up to date. dpdesk saves every change "
                                     f"automatically, as you make it.", 8000)

    def save_as_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        if self.project is None:
            return
        path, _ = QFileDialog.getSaveFileName(self, "Save project as", str(self.project.path), PROJECT_FILTER)
        if path:
            self.save_as(path)

    def show_preferences(self) -> None:
        from dpdesk.gui.dialogs.preferences import PreferencesDialog

        dialog = PreferencesDialog(self.settings, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(self._preferences_changed)
        dialog.open()

    def show_guide(self) -> None:
        """Help > User Guide: the guide's contents, in the help window (offline)."""
        from dpdesk.gui.help.window import open_help

        open_help(self)

    def export_report(self) -> None:
        """File > Export report: the Results document as PDF or HTML."""
        if self.project is None:
            self.statusBar().showMessage("Open a project first; its results go into the report.", 5000)
            return
        self.results_view.report_dialog()

    def _preferences_changed(self) -> None:
        if self.views_built:
            self.results_view.apply_preferences()

    def show_help(self) -> None:
        """F1: the guide's page on the view shown (the welcome screen's page before a project is open)."""
        from dpdesk.gui.help.window import open_help

        view = TASKS[self.nav.currentRow()] if self.project is not None and self.nav.currentRow() >= 0 else "Welcome"
        open_help(self, view=view)

    def show_about(self) -> None:
        """The version, the libraries in use and their licence texts."""
        from dpdesk.gui.dialogs.about import AboutDialog

        self.about = AboutDialog(self)
        self.about.open()

    # ------------------------------------------------------------------ example
    def example_path(self) -> Path:
        from dpdesk.gui.shell.example_project import EXAMPLE_NAME

        return data_folder() / EXAMPLE_NAME

    def open_example(self) -> None:
        """Open the example project, building it first (in a worker) if it does not exist yet."""
        if self.jobs.running:  # already being prepared
            return
        path = self.example_path()
        if path.exists():
            self.open_project(path)
            return
        from dpdesk.gui.shell.example_project import build_example

        self.statusBar().showMessage("Preparing the example project…")
        self.jobs.start(build_example, path)

    def _on_example_built(self, path) -> None:
        self.open_project(path)

    def _on_job_failed(self, exc) -> None:
        self.statusBar().clearMessage()
        show_error(exc, self)

    def _on_job_progress(self, _fraction: float, text: str) -> None:
        if text:
            self.statusBar().showMessage(text)

    # ------------------------------------------------------------------ state
    def _refresh(self) -> None:
        has = self.project is not None
        self.pages.setCurrentWidget(self.workspace if has else self.welcome)
        self.setWindowTitle(f"{self.project.path.stem} — dpdesk" if has else "dpdesk")
        self.project_label.setToolTip(str(self.project.path) if has else "")
        fit_label(self.project_label, self.project.path.name if has else "No project open")
        self.update_dataset_label()
        for key in ("save_as", "close"):
            self.actions_[key].setEnabled(has)
        recent = self.settings.recent_files()
        self.welcome.set_recent(recent)
        self.recent_menu.clear()
        for f in recent:
            action = self.recent_menu.addAction(Path(f).name)
            action.setData(f)
            action.setToolTip(f)
        self.recent_menu.setEnabled(bool(recent))
        if has or self.views_built:
            self.design_view.refresh()

    def bring_forward(self, path: str = "") -> None:
        """A later start (or the Finder) asked to open ``path``: come to the front; it opens when no
        dialog is open, after asking if it would replace the open project (:mod:`~dpdesk.gui.shell.handoff`)."""
        self.handoff.request(path)

    def update_dataset_label(self) -> None:
        """The status bar names the active dataset: what every view analyses."""
        from dpdesk.project.study.active import active_dataset

        ds = active_dataset(self.project) if self.project is not None and not self.project.closed else None
        self.dataset_label.setVisible(ds is not None)
        if ds is not None:
            fit_label(self.dataset_label, f"Data: {ds.name} ({ds.n_rows:,} rows)")
            self.dataset_label.setToolTip(f"{ds.name}: the active dataset. Results, releases and extracts use it. "
                                          "Choose another in the Data view.")

    def use_dataset(self, dataset: str) -> None:
        """Make ``dataset`` the active one (every view follows)."""
        from dpdesk.project.study.active import set_active_dataset

        try:
            set_active_dataset(self.project, dataset)
        except DpdeskError as exc:
            show_error(exc, self)
        self.update_dataset_label()
        self.statusBar().showMessage(f"Results, releases and extracts now use {dataset}.", 8000)

    def _on_recent_action(self, action) -> None:
        if action.data():
            self.open_project(action.data())

    def _on_undo_index(self, _index: int) -> None:
        if self.views_built:
            self.design_view.refresh()

    # ------------------------------------------------------------------ drops
    def dragEnterEvent(self, event) -> None:  # noqa: N802 - Qt API
        if self._dropped_path(event) is not None:
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802 - Qt API
        path = self._dropped_path(event)
        if path is None:
            return
        event.acceptProposedAction()
        self.open_dropped(path)

    def open_dropped(self, path: Path) -> None:
        if path.suffix.lower() == ".dpdesk":
            self.open_project(path)
        else:
            if self.project is None:
                self.statusBar().showMessage(f"To import {path.name}, open or create a project first.", 8000)
                return
            self.nav.setCurrentRow(TASKS.index("Data"))
            self.statusBar().showMessage(
                f"Linking {path.name} (not copied): choose the engine, then Link." if path.suffix.lower() == ".parquet"
                else f"Importing {path.name}: check the preview, map the items, then Import.", 8000)
            self.data_view.import_dialog(path)

    @staticmethod
    def _dropped_path(event) -> Path | None:
        urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
        if len(urls) != 1 or not urls[0].isLocalFile():
            return None
        path = Path(urls[0].toLocalFile())
        return path if path.suffix.lower() in DATA_SUFFIXES | {".dpdesk"} else None

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        if self.__dict__.pop("_fit_on_show", False):
            fit_on_screen(self)  # saved on a larger screen: brought back within this one (frame included)
        from dpdesk.gui.shell import prewarm

        QTimer.singleShot(100, prewarm.start)  # once the window is drawn: heavy imports in the background

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt API
        self.settings.set_geometry(self.saveGeometry())
        self.jobs.shutdown()
        self.close_project()
        super().closeEvent(event)
