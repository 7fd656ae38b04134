"""Views still to come (Data, Results, Tabulate, Export): what they will do, in words."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

TEXTS = {
    "Data": "Import the survey answers (CSV, Excel, SPSS, Stata or a counts table) and tell dpdesk "
            "which column holds each item. Coming in the next version.",
    "Results": "Estimates of each item's prevalence with confidence intervals, by subgroup, with plots "
               "and tables. Coming in the next version.",
    "Tabulate": "Private tables of the ordinary variables (counts, cross-tabs, means) with a privacy "
                "budget meter. Coming in a later version.",
    "Export": "Save results as a workbook, CSV files or a script that reproduces them. Coming in the "
              "next version.",
}


class PlaceholderView(QWidget):
    def __init__(self, task: str, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName(f"view_{task.lower()}")
        label = QLabel(f"<h2 style='font-weight: normal'>{task}</h2><p>{TEXTS.get(task, '')}</p>")
        label.setWordWrap(True)
        label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        label.setAccessibleName(task)
        label.setAccessibleDescription(TEXTS.get(task, ""))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(32, 24, 32, 24)
        layout.addWidget(label)
        layout.addStretch(1)
