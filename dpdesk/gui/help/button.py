"""The title of a task view with its "?" button, which opens the view's page of the user guide."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget


class ViewTitle(QWidget):
    """``Design  (?)``: the view's heading, and a button that opens its help page (as F1 does)."""

    def __init__(self, text: str, view: str | None = None, parent=None) -> None:
        super().__init__(parent)
        self.view = view or text
        self.label = QLabel(f"<h2 style='font-weight: normal'>{text}</h2>")
        self.help_button = QToolButton()
        self.help_button.setText("?")
        self.help_button.setObjectName("view_help")
        self.help_button.setAccessibleName(f"Help on {text}")
        self.help_button.setToolTip(f"Open the user guide's page on {text} (F1)")
        self.help_button.setCursor(Qt.CursorShape.PointingHandCursor)
        style = ("QToolButton#view_help { border: 1px solid palette(mid); border-radius: RADIUS; font-weight: bold; "
                 "color: palette(dark); } QToolButton#view_help:hover, QToolButton#view_help:focus { "
                 "border-color: palette(highlight); color: palette(highlight); }")
        self.help_button.setStyleSheet(style.replace("RADIUS", "0px"))
        hint = self.help_button.sizeHint().expandedTo(self.help_button.minimumSizeHint())
        side = max(hint.width(), hint.height(), 22)  # round, and never narrower than its text needs
        self.help_button.setFixedSize(side, side)
        self.help_button.setStyleSheet(style.replace("RADIUS", f"{side // 2}px"))
        self.help_button.clicked.connect(self.open_help)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(10)
        row.addWidget(self.label)
        row.addWidget(self.help_button, 0, Qt.AlignmentFlag.AlignVCenter)
        row.addStretch(1)

    def open_help(self) -> None:
        from dpdesk.gui.help.window import open_help

        open_help(self, view=self.view)

