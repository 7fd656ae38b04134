"""The main window: navigation by task and the current view."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QMainWindow,
    QSplitter,
    QStackedWidget,
    QStatusBar,
    QWidget,
    QVBoxLayout,
)

from dpdesk import __version__

TASKS = ("Design", "Data", "Results", "Tabulate", "Export")


class MainWindow(QMainWindow):
    """Navigation on the left (one entry per task), the task's view on the right."""

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle(f"dpdesk {__version__}")
        self.resize(1100, 720)
        self.nav = QListWidget()
        self.nav.setAccessibleName("Tasks")
        self.nav.setAccessibleDescription("Choose what to work on")
        self.nav.addItems(TASKS)
        self.nav.setFixedWidth(160)
        self.stack = QStackedWidget()
        for task in TASKS:
            self.stack.addWidget(self._placeholder(task))
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.nav)
        splitter.addWidget(self.stack)
        splitter.setStretchFactor(1, 1)
        self.setCentralWidget(splitter)
        self.setStatusBar(QStatusBar())
        self.statusBar().showMessage("Ready")
        self.nav.currentRowChanged.connect(self.stack.setCurrentIndex)
        self.nav.setCurrentRow(0)

    @staticmethod
    def _placeholder(task: str) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        label = QLabel(f"<h2>{task}</h2><p>This view is being built.</p>")
        label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(label)
        return page
