"""Small helpers shared by widgets, dialogs and wizard pages: accessible names, notes, problem labels."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget


def name(widget: QWidget, accessible: str, description: str) -> QWidget:
    """Give ``widget`` an accessible name and description (and a tooltip) and return it.

    A table or list gets ``setTabKeyNavigation(False)``: Tab moves on to the next control
    instead of walking the cells (no Tab traps; arrow keys still move between cells)."""
    from PySide6.QtWidgets import QAbstractItemView

    if isinstance(widget, QAbstractItemView):
        widget.setTabKeyNavigation(False)
    widget.setAccessibleName(accessible)
    widget.setAccessibleDescription(description)
    if not widget.toolTip():
        widget.setToolTip(description)
    return widget


def note(text: str = "", *, object_name: str = "") -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextInteractionFlags(label.textInteractionFlags())
    if object_name:
        label.setObjectName(object_name)
    return label


def job_row(progress_words: str, cancel: tuple[str, str], on_cancel, *, status_name: str = ""):
    """A worker's row: its progress bar (0-1000, no text), its status line and its Cancel button.

    Returns (progress bar, status label, Cancel button, the row's layout); ``progress_words`` and
    ``cancel`` (the button's accessible name and description) are for a screen reader; Cancel calls
    ``on_cancel``."""
    from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QPushButton

    progress = name(QProgressBar(), "Progress", progress_words)
    progress.setRange(0, 1000)
    progress.setTextVisible(False)
    status = QLabel()
    if status_name:
        status.setObjectName(status_name)
    button = name(QPushButton("Cancel"), *cancel)
    button.clicked.connect(on_cancel)
    row = QHBoxLayout()
    row.addWidget(progress, 1)
    row.addWidget(status)
    row.addWidget(button)
    return progress, status, button, row


def full_width(table) -> int:
    """The width a table (an item view) needs to show every column whole, with its scroll bar."""
    return table.horizontalHeader().length() + 2 * table.frameWidth() + table.verticalScrollBar().sizeHint().width() + 4


def problem_label() -> QLabel:
    """A label for an inline problem message (red text, hidden while empty)."""
    label = QLabel()
    label.setWordWrap(True)
    label.setStyleSheet("color: #a40000;")
    label.setAccessibleName("Problem")
    label.setAccessibleDescription("What needs fixing on this page")
    label.hide()
    return label


def show_problem(label: QLabel, text: str) -> None:
    label.setText(text)
    label.setVisible(bool(text))


def type_words(dtype) -> str:
    """A column's pandas dtype in a researcher's words ("whole numbers", "categories", "text")."""
    text = str(dtype).lower()
    if text.startswith(("int", "uint")):
        return "whole numbers"
    if text.startswith("float"):
        return "numbers"
    if text.startswith("bool"):
        return "yes / no"
    if text.startswith("datetime"):
        return "dates and times"
    if text.startswith("category"):
        return "categories"
    return "text"


#: The designs' names in words (the program's keys, e.g. "forced_multi", never reach the screen).
DESIGN_WORDS = {
    "warner": "Warner's mirrored questions", "forced": "Forced response", "forced_multi":
    "Forced response, several categories", "unrelated": "Unrelated question",
    "unrelated_unknown": "Unrelated question, prevalence unknown", "crosswise": "Crosswise model",
    "ecwm": "Extended crosswise model (two versions of question B)",
    "triangular": "Triangular model", "kuk": "Kuk's card method", "mangat": "Mangat's model",
    "sld": "Stochastic lie detector", "cdm": "Cheating detection model",
    "krr": "Randomized response, several categories (k-RR)", "unary": "Unary encoding, tick each option",
    "custom": "Custom design",
}


def design_words(key: str) -> str:
    """A design's name in words ("Forced response, several categories" for "forced_multi")."""
    return DESIGN_WORDS.get(str(key), str(key).replace("_", " ").capitalize())
