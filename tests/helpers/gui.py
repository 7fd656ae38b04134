"""Helpers for testing the GUI with pytest-qt: a temporary settings folder, a main window, screenshots."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers.paths import SHOTS


@pytest.fixture
def settings_dir(tmp_path, monkeypatch):
    folder = tmp_path / "settings"
    folder.mkdir()
    monkeypatch.setenv("DPDESK_SETTINGS_DIR", str(folder))
    return folder


@pytest.fixture
def window(qtbot, settings_dir):
    from dpdesk.gui.shell.main_window import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.close()


def shot(widget, name: str) -> Path:
    """Save a screenshot of ``widget`` as <name>.png in the screenshots folder (``tests.helpers.paths.SHOTS``:
    a temporary folder, or docs/screenshots/ under ``make screenshots``)."""
    from PySide6.QtWidgets import QApplication

    QApplication.setCursorFlashTime(0)  # a steady text cursor: the same picture every run
    QApplication.processEvents()  # let pending layout requests settle first
    changed = _neutral_paths(widget)  # the test's own folders read as a user's in the picture
    try:
        QApplication.processEvents()
        shown = [t for t in visible_texts(widget) if _temporary(t)]
        assert not shown, f"the screenshot {name} would show a temporary test path: {shown[0]!r}"
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        assert widget.grab().save(str(path)), f"could not save {path}"
    finally:
        for box, text in changed:
            box.setText(text)
    return path


#: What a test's temporary folder reads as in a screenshot.
NEUTRAL_FOLDER = "~/Documents/Survey"


def _temporary_folder():
    import re
    import tempfile

    base = re.escape(tempfile.gettempdir())
    return re.compile(base + r"/(?:pytest-of-[^/]+/pytest-\d+/)?[^/\s<>'\"]+")


def _neutral_paths(widget) -> list:
    """Show ``NEUTRAL_FOLDER`` for the test's temporary folder in the labels and text fields of ``widget``
    (these folders are the test's own); returns ``(box, original text)`` to put back after the grab."""
    from PySide6.QtWidgets import QLabel, QLineEdit

    folder = _temporary_folder()
    changed = []
    for kind in (QLabel, QLineEdit):
        for box in [widget] * isinstance(widget, kind) + widget.findChildren(kind):
            text = box.text()
            neutral = folder.sub(NEUTRAL_FOLDER, text)
            if neutral != text:
                changed.append((box, text))
                box.setText(neutral)
    return changed


def _temporary(text: str) -> bool:
    """Whether ``text`` names a temporary folder of the test run (pytest's, or the system's)."""
    import tempfile

    return "pytest-of-" in text or tempfile.gettempdir() + os.sep in text


def visible_texts(widget) -> list[str]:
    """Every text ``widget`` (and its window's title, if it is a window) shows: labels, fields, buttons,
    boxes, tooltips aside, the status bar's message, and the first rows of lists and tables."""
    from PySide6.QtCore import QModelIndex, Qt
    from PySide6.QtWidgets import (
        QAbstractButton,
        QAbstractItemView,
        QComboBox,
        QLabel,
        QLineEdit,
        QPlainTextEdit,
        QStatusBar,
        QTextEdit,
    )

    out = [widget.windowTitle()] if widget.isWindow() else []
    for kind, read in ((QLabel, QLabel.text), (QLineEdit, QLineEdit.text), (QAbstractButton, QAbstractButton.text),
                       (QComboBox, QComboBox.currentText), (QPlainTextEdit, QPlainTextEdit.toPlainText),
                       (QTextEdit, QTextEdit.toPlainText), (QStatusBar, QStatusBar.currentMessage)):
        for child in [widget] * isinstance(widget, kind) + widget.findChildren(kind):
            if child.isVisibleTo(widget) or child is widget:
                out.append(read(child))
    for view in widget.findChildren(QAbstractItemView):
        model = view.model()
        if model is None or not view.isVisibleTo(widget):
            continue
        top = QModelIndex()
        try:
            columns = model.columnCount(top)
        except TypeError:  # a list model's columnCount is private in PySide6: one column
            columns = 1
        for row in range(min(model.rowCount(top), 40)):
            for col in range(min(columns, 12)):
                value = model.index(row, col, top).data(Qt.ItemDataRole.DisplayRole)
                if isinstance(value, str):
                    out.append(value)
    return out


def env_settings_dir() -> str:
    return os.environ["DPDESK_SETTINGS_DIR"]


def type_number(qtbot, box, text: str, finish: str = "return") -> None:
    """Type ``text`` into a number box as a person does: select what is there, type, then finish the
    entry with Enter (``finish="return"``) or by moving on with Tab (``finish="tab"``)."""
    from PySide6.QtCore import Qt

    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(box, text)
    qtbot.keyClick(box, Qt.Key.Key_Return if finish == "return" else Qt.Key.Key_Tab)


def choose_in_context_menu(qtbot, widget, pos, text: str) -> list[str]:
    """Right-click ``widget`` at ``pos`` (its coordinates) and choose the action ``text`` with the keyboard
    (Return on it), as a user would; returns the texts of the menu's actions. The offscreen platform makes
    no context-menu event from a mouse press, so the event a right-click sends is sent."""
    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtGui import QContextMenuEvent
    from PySide6.QtWidgets import QApplication

    seen: list[str] = []

    def choose():
        menu = QApplication.activePopupWidget()
        if menu is None:  # not shown yet
            QTimer.singleShot(10, choose)
            return
        seen.extend(a.text() for a in menu.actions())
        action = next(a for a in menu.actions() if a.text() == text)
        menu.setActiveAction(action)
        qtbot.keyClick(menu, Qt.Key.Key_Return)

    QTimer.singleShot(0, choose)
    QApplication.sendEvent(widget, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, widget.mapToGlobal(pos)))
    return seen
