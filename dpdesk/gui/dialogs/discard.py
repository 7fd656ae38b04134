"""Dialogs that ask before throwing work away, and number fields where Enter does not advance.

:class:`AskBeforeDiscard` is mixed into the design wizard and the mapping dialog: once the
user has edited any field (a line edit, spin box, combo box, check box, text box or table),
Escape, Cancel and the window's close button ask "Discard your changes?" before the dialog
closes. :class:`EnterStaysInNumberFields` stops Enter in a spin box from pressing the
dialog's default button (Next in a wizard): Enter only confirms the number typed.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QComboBox,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QTableWidget,
    QTextEdit,
)

__all__ = ["AskBeforeDiscard", "EnterStaysInNumberFields", "discard_box"]


def discard_box(parent) -> QMessageBox:
    """The (not yet shown) "Discard your changes?" question."""
    box = QMessageBox(QMessageBox.Icon.Question, "Discard your changes?",
                      "You have made changes here. Close and discard them?",
                      QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel, parent)
    box.setObjectName("discardQuestion")
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.button(QMessageBox.StandardButton.Cancel).setText("Keep editing")
    return box


class AskBeforeDiscard:
    """Mixin for a QDialog: call :meth:`watch_edits` once its fields exist."""

    edited = False
    discard_question = None  # the open "Discard your changes?" box (does not block)
    _discarding = False

    def _mark_edited(self, *_args) -> None:
        if not getattr(self, "_filling", False):
            self.edited = True

    def watch_edits(self) -> None:
        """Connect every editable field's change signal; programmatic filling inside
        ``with self.filling():`` is not an edit."""
        for w in self.findChildren(QLineEdit):
            w.textEdited.connect(self._mark_edited)
        for w in self.findChildren(QAbstractSpinBox):
            if w.lineEdit() is not None:
                w.lineEdit().textEdited.connect(self._mark_edited)
        for w in self.findChildren(QComboBox):
            w.activated.connect(self._mark_edited)
        for w in self.findChildren(QAbstractButton):
            if w.isCheckable():
                w.clicked.connect(self._mark_edited)
        for w in self.findChildren(QTextEdit) + self.findChildren(QPlainTextEdit):
            w.textChanged.connect(self._on_text_changed)
        for w in self.findChildren(QTableWidget):
            w.itemChanged.connect(self._on_table_changed)

    def _on_text_changed(self) -> None:
        widget = self.sender()
        if widget is not None and widget.hasFocus():  # typed, not filled in by the program
            self._mark_edited()

    def _on_table_changed(self, _item) -> None:
        widget = self.sender()
        if widget is not None and widget.hasFocus():
            self._mark_edited()

    def has_changes(self) -> bool:
        return self.edited

    def reject(self) -> None:  # noqa: D401 - Qt API: Escape, Cancel and the close button
        if self._discarding or not self.has_changes():
            super().reject()
            return
        if self.discard_question is None:
            self.discard_question = discard_box(self)
            self.discard_question.finished.connect(self._on_discard_answer)
            self.discard_question.open()  # window-modal, never blocks

    def _on_discard_answer(self, code: int) -> None:
        box, self.discard_question = self.discard_question, None
        if box is None:
            return
        chosen = box.standardButton(box.clickedButton()) if box.clickedButton() is not None else None
        box.deleteLater()
        if chosen == QMessageBox.StandardButton.Discard:
            self._discarding = True
            self.reject()


def _in_number_field(widget) -> bool:
    while widget is not None:
        if isinstance(widget, QAbstractSpinBox) or widget.property("number_field"):
            return True
        widget = widget.parentWidget()
    return False


class EnterStaysInNumberFields:
    """Mixin for a QDialog/QWizard: Enter in a spin box only confirms the number typed
    (the spin box has already interpreted it); it does not press Next or the default button.
    Works for fields created later too (it looks at the focus when Enter arrives)."""

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt API
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and _in_number_field(self.focusWidget()):
            event.accept()
            return
        super().keyPressEvent(event)
