"""A table whose cells are choices, worked as one control: one Tab stop, arrows between cells.

Cell widgets (a check box or a combo box put in each cell) are each a Tab stop, so Tab walked
every cell of a table, and a click beside a check box's small square only selected the row.
Here the cells are items: a check box is a checkable item that one click anywhere in its cell
(or Space) toggles; a choice is an item edited with a combo box that a click, Space or F2
opens. Tab moves on to the next control, from the table and from an open combo box.

``ROLE_OPTIONS`` holds a choice cell's ``[(text, data), ...]``; ``Qt.UserRole`` its chosen data.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QEvent, QPersistentModelIndex, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QComboBox, QStyledItemDelegate

ROLE_OPTIONS = Qt.ItemDataRole.UserRole + 1


def check_item(item, checked: bool, accessible: str):
    """Make ``item`` a check box cell (no text) named ``accessible`` for screen readers."""
    item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsUserCheckable)
    item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
    item.setData(Qt.ItemDataRole.AccessibleTextRole, accessible)
    return item


def choice_item(item, options: list[tuple[str, object]], accessible: str):
    """Make ``item`` a choice among ``options`` (text, data), showing the first."""
    item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEditable)
    item.setData(ROLE_OPTIONS, list(options))
    item.setData(Qt.ItemDataRole.AccessibleTextRole, accessible)
    choose(item, options[0][1] if options else None)
    return item


def choose(item, data) -> None:
    """Show the option of ``item`` whose data is ``data`` (the first when none is)."""
    options = item.data(ROLE_OPTIONS) or []
    text, value = next(((t, d) for t, d in options if d == data), options[0] if options else ("", None))
    item.setData(Qt.ItemDataRole.UserRole, value)
    item.setText(text)


def set_usable(item, usable: bool, shown_when_not: str | None = None) -> None:
    """Enable or disable a cell; a disabled choice may read ``shown_when_not`` (e.g. "—") instead of its option."""
    flags = item.flags()
    item.setFlags(flags | Qt.ItemFlag.ItemIsEnabled if usable else flags & ~Qt.ItemFlag.ItemIsEnabled)
    if item.data(ROLE_OPTIONS) is not None:
        item.setText(next((t for t, d in item.data(ROLE_OPTIONS) if d == item.data(Qt.ItemDataRole.UserRole)), "")
                     if usable or shown_when_not is None else shown_when_not)


class CellChoices(QStyledItemDelegate):
    """The delegate of a table of check box and choice cells (install with :func:`install`)."""

    def __init__(self, table) -> None:
        super().__init__(table)
        self.table = table

    # ------------------------------------------------------------------ check boxes and clicks
    def editorEvent(self, event, model, option, index) -> bool:  # noqa: N802 - Qt API
        flags = index.flags()
        if not flags & Qt.ItemFlag.ItemIsEnabled:
            return False
        kind = event.type()
        mouse = kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease, QEvent.Type.MouseButtonDblClick)
        if mouse and event.button() != Qt.MouseButton.LeftButton:
            return False
        if flags & Qt.ItemFlag.ItemIsUserCheckable:
            if kind == QEvent.Type.MouseButtonRelease and option.rect.contains(event.position().toPoint()):
                self._toggle(model, index)
                return True
            if kind == QEvent.Type.MouseButtonDblClick:
                return True  # a double click is one toggle (the release did it), not an editor
            if kind == QEvent.Type.KeyPress and event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Select):
                self._toggle(model, index)
                return True
            return False
        if index.data(ROLE_OPTIONS) is not None:
            if kind == QEvent.Type.MouseButtonRelease and option.rect.contains(event.position().toPoint()):
                QTimer.singleShot(0, partial(self._edit, QPersistentModelIndex(index)))
                return True
            if kind == QEvent.Type.KeyPress and event.key() == Qt.Key.Key_Space:
                self._edit(QPersistentModelIndex(index))
                return True
        return False

    @staticmethod
    def _toggle(model, index) -> None:
        state = Qt.CheckState(index.data(Qt.ItemDataRole.CheckStateRole))
        model.setData(index, (Qt.CheckState.Unchecked if state == Qt.CheckState.Checked else Qt.CheckState.Checked).value,
                      Qt.ItemDataRole.CheckStateRole)

    def _edit(self, index: QPersistentModelIndex) -> None:
        if index.isValid():
            self.table.setCurrentIndex(self.table.model().index(index.row(), index.column()))
            self.table.edit(self.table.currentIndex())

    # ------------------------------------------------------------------ the combo box editor
    def createEditor(self, parent, option, index):  # noqa: N802 - Qt API
        if index.data(ROLE_OPTIONS) is None:
            return None
        editor = QComboBox(parent)
        editor.setAccessibleName(str(index.data(Qt.ItemDataRole.AccessibleTextRole) or ""))
        for text, data in index.data(ROLE_OPTIONS):
            editor.addItem(text, data)
        editor.activated.connect(partial(self._chosen, editor))
        QTimer.singleShot(0, editor.showPopup)  # the list at once: one click, one choice
        return editor

    def setEditorData(self, editor, index) -> None:  # noqa: N802 - Qt API
        editor.setCurrentIndex(max(0, editor.findData(index.data(Qt.ItemDataRole.UserRole))))

    def setModelData(self, editor, model, index) -> None:  # noqa: N802 - Qt API
        model.setData(index, editor.currentData(), Qt.ItemDataRole.UserRole)
        model.setData(index, editor.currentText(), Qt.ItemDataRole.DisplayRole)

    def _chosen(self, editor, _index: int) -> None:
        self.commitData.emit(editor)
        self.closeEditor.emit(editor, QStyledItemDelegate.EndEditHint.NoHint)

    def eventFilter(self, editor, event) -> bool:  # noqa: N802 - Qt API
        """Tab in an open combo box commits it and moves on to the next control, not to the next cell."""
        if event.type() == QEvent.Type.KeyPress and event.key() in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
            self.commitData.emit(editor)
            self.closeEditor.emit(editor, QStyledItemDelegate.EndEditHint.NoHint)
            QApplication.postEvent(self.table, QKeyEvent(QEvent.Type.KeyPress, event.key(), event.modifiers()))
            return True
        return super().eventFilter(editor, event)


def install(table) -> CellChoices:
    """Give ``table`` its one Tab stop and the check box and choice cells."""
    from PySide6.QtWidgets import QAbstractItemView

    table.setTabKeyNavigation(False)
    table.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed)  # F2; clicks and Space: the delegate
    delegate = CellChoices(table)
    table.setItemDelegate(delegate)
    return delegate
