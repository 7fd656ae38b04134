"""What the running window does with a later start's request (or the Finder's): never more than asked.

A request brings the window to the front at once. What it asks to open waits its turn:

- while a dialog is open (an import with a half-done mapping, a confirmation, a question)
  nothing happens but a line in the status bar; the request is queued and taken up when the
  last open dialog closes;
- a project is never replaced without asking: with a project open, a request for another
  one asks "Open …? It closes …" (Keep is the default); the same project just comes forward;
- with no project open, a project opens; a data file opens the import dialog (itself a
  dialog to confirm) when a project is open.

Requests are taken in the order they came, one question at a time; the same path twice is
one request.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox


def current_name(window) -> str:
    project = window.project
    return project.path.name if project is not None and not project.closed else "the window"


class HandOff(QObject):
    """The queue of requests of one main window (``window.handoff``)."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.pending: list[str] = []
        self.question: QMessageBox | None = None  # the open "replace the project?" question
        self._watched = None  # the dialog whose closing takes the queue up again
        self._open_button = None

    def request(self, path: str = "") -> None:
        """A later start asked to come forward and open ``path`` ('' : just come forward)."""
        w = self.window
        if w.isMinimized():
            w.showNormal()
        w.raise_()
        w.activateWindow()
        if path and path not in self.pending:
            self.pending.append(path)
        self._next()

    def _next(self) -> None:
        if not self.pending or self.question is not None:
            return
        modal = QApplication.activeModalWidget()
        if modal is not None:
            self._wait_for(modal)
            return
        path = Path(self.pending.pop(0))
        self._act(path)
        if self.question is None:
            self._next()

    def _wait_for(self, modal) -> None:
        """Take the queue up again when ``modal`` closes (it may open another dialog: checked again then)."""
        if self._watched is not modal:
            if self._watched is not None:
                self._watched.removeEventFilter(self)
            self._watched = modal
            modal.installEventFilter(self)
        names = ", ".join(Path(p).name for p in self.pending)
        title = modal.windowTitle() or "the open dialog"
        self.window.statusBar().showMessage(f"Another start of dpdesk asked to open {names}: it waits until "
                                            f"{title} is closed.", 15000)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt API
        if watched is self._watched and event.type() in (QEvent.Type.Hide, QEvent.Type.Close):
            watched.removeEventFilter(self)
            self._watched = None
            QTimer.singleShot(0, self._next)  # once the dialog is really gone
        return False

    def _act(self, path: Path) -> None:
        w = self.window
        project = w.project if w.project is not None and not w.project.closed else None
        if path.suffix.lower() != ".dpdesk" or project is None:
            w.open_dropped(path)
            return
        try:
            same = project.path == path.absolute().resolve()
        except OSError:
            same = False
        if same:
            w.statusBar().showMessage(f"{path.name} is already open.", 5000)
            return
        self._ask(path, project.path)

    def _ask(self, path: Path, current: Path) -> None:
        box = QMessageBox(QMessageBox.Icon.Question, "Open another project?",
                          f"Another start of dpdesk asked to open {path.name}.\n\nOpening it closes "
                          f"{current.name} (everything in it is saved).\n\n{path}",
                          QMessageBox.StandardButton.NoButton, self.window)
        box.setObjectName("handoffQuestion")
        self._open_button = box.addButton(f"Open {path.name}", QMessageBox.ButtonRole.AcceptRole)
        keep = box.addButton(f"Keep {current.name}", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(keep)
        box.setEscapeButton(keep)
        box.setProperty("path", str(path))
        box.finished.connect(self._answered)
        self.question = box
        box.open()

    def _answered(self, _result: int) -> None:
        box, self.question = self.question, None
        if box is None:
            return
        path = Path(box.property("path"))
        chosen = box.clickedButton() is self._open_button
        box.deleteLater()
        if chosen:
            self.window.open_project(path)
        else:
            self.window.statusBar().showMessage(f"{path.name} was not opened; {current_name(self.window)} stays open.",
                                                8000)
        QTimer.singleShot(0, self._next)
