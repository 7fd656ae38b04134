"""The welcome screen: new project, open, recent projects, the example project."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from dpdesk.gui.widgets.common import name


class WelcomeView(QWidget):
    new_requested = Signal()
    open_requested = Signal()
    example_requested = Signal()
    recent_chosen = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("welcome")
        title = QLabel("<h1 style='font-weight: normal'>Welcome to dpdesk</h1>")
        intro = QLabel("Ask sensitive questions without putting your respondents at risk: design a "
                       "randomized-response survey, import the answers, estimate the prevalence, "
                       "and publish private tables.")
        intro.setWordWrap(True)
        self.new_button = name(QPushButton("New project…"), "New project", "Create a new, empty project file")
        self.open_button = name(QPushButton("Open project…"), "Open project", "Open an existing .dpdesk project")
        self.example_button = name(QPushButton("Open the example project"), "Open the example project",
                                   "A student survey with three sensitive questions, ready to explore")
        for button in (self.new_button, self.open_button, self.example_button):
            button.setMinimumHeight(40)
            button.setMinimumWidth(240)
        self.new_button.setDefault(True)
        actions = QVBoxLayout()
        actions.setSpacing(12)
        actions.addWidget(self.new_button)
        actions.addWidget(self.open_button)
        actions.addWidget(self.example_button)
        actions.addStretch(1)
        self.recent = name(QListWidget(), "Recent projects", "Projects you opened recently; press Enter to open one")
        self.recent.setMinimumWidth(380)
        self.recent_empty = QLabel("Projects you open will be listed here.")
        self.recent_empty.setStyleSheet("color: #666;")
        self.recent_empty.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        recent_title = QLabel("<b>Recent projects</b>")
        recent_title.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.recent_empty.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.recent.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.recent.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.recent.setSpacing(2)
        recent_col = QVBoxLayout()
        recent_col.setSpacing(8)
        recent_col.addWidget(recent_title)
        recent_col.addWidget(self.recent, 1)
        recent_col.addWidget(self.recent_empty)
        recent_col.addStretch(0)
        columns = QHBoxLayout()
        columns.setSpacing(48)
        columns.addLayout(actions)
        columns.addLayout(recent_col, 1)
        body = QVBoxLayout()
        body.setSpacing(16)
        body.addWidget(title)
        body.addWidget(intro)
        body.addSpacing(12)
        body.addLayout(columns, 1)
        frame = QWidget()
        frame.setLayout(body)
        frame.setMaximumWidth(900)
        outer = QHBoxLayout(self)
        outer.setContentsMargins(48, 36, 48, 36)
        outer.addWidget(frame, 1, Qt.AlignmentFlag.AlignHCenter)
        self.new_button.clicked.connect(self.new_requested)
        self.open_button.clicked.connect(self.open_requested)
        self.example_button.clicked.connect(self.example_requested)
        self.recent.itemActivated.connect(self._on_recent)
        self.setTabOrder(self.new_button, self.open_button)
        self.setTabOrder(self.open_button, self.example_button)
        self.setTabOrder(self.example_button, self.recent)

    def set_recent(self, files: list[str]) -> None:
        self.recent.clear()
        for f in files:
            path = Path(f)
            item = QListWidgetItem(f"{path.stem}\n{path.parent}")
            item.setData(Qt.ItemDataRole.UserRole, str(path))
            item.setToolTip(str(path))
            self.recent.addItem(item)
        self.recent.setVisible(bool(files))
        self.recent_empty.setVisible(not files)

    def _on_recent(self, item: QListWidgetItem) -> None:
        self.recent_chosen.emit(item.data(Qt.ItemDataRole.UserRole))
