"""The items not mapped in the active dataset, each with a Map button (instead of an error)."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QPushButton

from dpdesk.gui.widgets.common import name


#: More items than this share one line (and one Map… button, which opens on the first).
MAX_LINES = 3


class NotMappedBar(QFrame):
    """One line per item without a mapping in the dataset shown: "not mapped in this dataset" [Map…]."""

    map_requested = Signal(str)  # the item to map

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("notMappedBar")
        self.setStyleSheet("#notMappedBar { background: #f4f1e8; border: 1px solid #d8cfb0; border-radius: 4px; }")
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(10, 6, 10, 6)
        self.grid.setColumnStretch(1, 1)
        self.buttons: dict[str, QPushButton] = {}
        self.hide()

    def set_items(self, items: list[str], dataset: str | None) -> None:
        """Show ``items`` (names) as not mapped in ``dataset``; hide the bar when there are none."""
        while self.grid.count():
            widget = self.grid.takeAt(0).widget()
            if widget is not None:
                widget.deleteLater()
        self.buttons = {}
        where = f"“{dataset}”" if dataset else "this dataset"
        lines = [(item, f"<b>{item}</b>: not mapped in this dataset ({where}), so it has no estimate here.")
                 for item in items]
        if len(items) > MAX_LINES:  # one line for many: the dialog lists every item
            shown = ", ".join(f"<b>{i}</b>" for i in items[:MAX_LINES])
            lines = [(items[0], f"{shown} and {len(items) - MAX_LINES} more: not mapped in this dataset ({where}), "
                                "so they have no estimate here.")]
        for row, (item, text) in enumerate(lines):
            label = QLabel(text)
            label.setWordWrap(True)
            button = name(QPushButton("Map…"), f"Map {item}",
                          f"Choose the column and codes of {item} in the dataset {dataset or ''}")
            button.clicked.connect(partial(self._clicked, item))  # a bound method, never a lambda (PITFALLS)
            self.grid.addWidget(label, row, 0, 1, 2)
            self.grid.addWidget(button, row, 2)
            self.buttons[item] = button
        self.setVisible(bool(items))

    def _clicked(self, item: str, *_checked) -> None:
        self.map_requested.emit(item)
