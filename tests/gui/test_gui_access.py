"""Accessibility: every control has a name, and Tab moves through each screen top to bottom."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
)


KINDS = (QAbstractButton, QAbstractSpinBox, QComboBox, QLineEdit, QPlainTextEdit, QAbstractItemView)


def _controls(root):
    out = []
    for kind in KINDS:
        for c in root.findChildren(kind):
            if c.isVisibleTo(root) and c.focusPolicy() & Qt.FocusPolicy.TabFocus and not c.objectName().startswith("qt_"):
                if isinstance(c, QLineEdit) and isinstance(c.parent(), (QAbstractSpinBox, QComboBox)):
                    continue  # the editor inside a spin box or combo box
                out.append(c)
    return out


def _check_names(root):
    missing = [f"{type(c).__name__} {getattr(c, 'text', lambda: '')()!r}" for c in _controls(root)
               if not c.accessibleName() and not (isinstance(c, QAbstractButton) and c.text())]
    assert not missing, f"controls without an accessible name: {missing}"


def _check_tab_order(root):
    """Following the focus chain visits the controls in reading order (rows top to bottom)."""
    controls = _controls(root)
    wanted = set(controls)
    order, w = [], root.nextInFocusChain()
    for _ in range(2000):
        if w in wanted and w not in order:
            order.append(w)
        w = w.nextInFocusChain()
        if w is root:
            break
    assert set(order) == wanted
    tops = [c.mapTo(root, QPoint(0, 0)).y() for c in order]
    backwards = [(type(a).__name__, type(b).__name__) for a, b, ya, yb in zip(order, order[1:], tops, tops[1:])
                 if yb < ya - 40 and not isinstance(b, QAbstractItemView)]
    assert not backwards, f"Tab jumps back up: {backwards}"


def test_welcome_and_design_view(window, tmp_path):
    _check_names(window.welcome)
    _check_tab_order(window.welcome)
    window.create_project(tmp_path / "a.dpdesk")
    _check_names(window.design_view)
    _check_tab_order(window.design_view)


@pytest.mark.parametrize("answers", ["yes/no", "categories"])
def test_every_wizard_page(window, tmp_path, qtbot, answers):
    window.create_project(tmp_path / "a.dpdesk")
    wizard = window.design_view.new_item()
    wizard.question_page.question.setPlainText("Have you ever cheated?")
    wizard.question_page.kind_buttons[answers].setChecked(True)
    wizard.question_page.categories.setText("never, once, often")
    pages = [wizard.question_page, wizard.design_page, wizard.randomizer_page, wizard.meaning_page,
             wizard.instructions_page]
    for i, page in enumerate(pages):
        assert wizard.currentPage() is page
        _check_names(page)
        _check_tab_order(page)
        if page is wizard.randomizer_page:
            for device in range(page.device.count()):
                page.device.setCurrentIndex(device)
                _check_names(page)
                _check_tab_order(page)
            page.device.setCurrentIndex(0)
        if i < len(pages) - 1:
            if pages[i + 1] is wizard.meaning_page:
                with qtbot.waitSignal(wizard.meaning_page.runner.done, timeout=60_000):
                    wizard.next()
            else:
                wizard.next()
    _check_names(wizard)
    wizard.reject()


def test_preferences_help_about_open(window, qtbot):
    from PySide6.QtWidgets import QDialog

    window.actions_["preferences"].trigger()
    dialog = [d for d in window.findChildren(QDialog) if d.windowTitle() == "Preferences"][0]
    _check_names(dialog)
    dialog.runs.setValue(20)
    dialog.accept()
    assert int(window.settings.value("preview_runs")) == 20
    window.actions_["help"].trigger()  # F1: the user guide, in its own window (tests/gui/test_gui_help.py)
    from dpdesk.gui.help.window import HelpWindow

    guide = window.findChild(HelpWindow)
    assert guide is not None and guide.isVisible()
    _check_names(guide)
    guide.close()
    window.actions_["about"].trigger()
    assert window.about.isVisible() and window.about.windowTitle() == "About dpdesk"
    qtbot.waitUntil(lambda: window.about.list.count() > 0, timeout=30_000)  # its worker finishes
    window.about.reject()
