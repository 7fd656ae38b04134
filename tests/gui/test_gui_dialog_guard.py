"""Escape/Cancel with changes asks before discarding (wizard, mapping dialog); Enter in a number
field does not advance the wizard."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox, QWizard


@pytest.fixture
def project_window(window, tmp_path):
    assert window.create_project(tmp_path / "guard.dpdesk")
    return window


def test_escape_with_changes_asks_first_then_discards(project_window, qtbot):
    wizard = project_window.design_view.new_item()
    qtbot.waitExposed(wizard)
    QTest.keyClick(wizard, Qt.Key.Key_Escape)  # nothing typed yet: closes at once
    qtbot.waitUntil(lambda: not wizard.isVisible(), timeout=5000)
    wizard = project_window.design_view.new_item()
    qtbot.waitExposed(wizard)
    page = wizard.question_page
    page.item_name.setFocus()
    QTest.keyClicks(page.item_name, "drugs")
    QTest.keyClick(wizard, Qt.Key.Key_Escape)
    box = wizard.discard_question
    assert box is not None and wizard.isVisible() and "Discard" in box.windowTitle()
    box.button(QMessageBox.StandardButton.Cancel).click()  # "Keep editing"
    qtbot.waitUntil(lambda: wizard.discard_question is None, timeout=5000)
    assert wizard.isVisible() and page.item_name.text() == "drugs"
    wizard.button(QWizard.WizardButton.CancelButton).click()
    wizard.discard_question.button(QMessageBox.StandardButton.Discard).click()
    qtbot.waitUntil(lambda: not wizard.isVisible(), timeout=5000)


def test_enter_in_a_number_field_does_not_press_next(project_window, qtbot):
    wizard = project_window.design_view.new_item()
    qtbot.waitExposed(wizard)
    page = wizard.question_page
    page.question.setPlainText("Have you ever cheated?")
    page.kind_buttons["yes/no"].setChecked(True)
    wizard.meaning_page.seed = 1
    wizard.next()
    wizard.next()
    with qtbot.waitSignal(wizard.meaning_page.runner.done, timeout=60_000):
        wizard.next()
    here = wizard.currentPage()
    assert here is wizard.meaning_page
    spin = here.n  # planned respondents
    spin.setFocus()
    spin.lineEdit().selectAll()
    QTest.keyClicks(spin, "800")
    QTest.keyClick(spin, Qt.Key.Key_Return)
    assert wizard.currentPage() is here and spin.value() == 800
    wizard._discarding = True
    wizard.reject()


def test_mapping_dialog_asks_after_a_choice(window, qtbot, tmp_path):
    from dpdesk.gui.shell.example_project import build_example
    from dpdesk.project.example import example_folder

    assert window.open_project(build_example(None, tmp_path / "example.dpdesk"))
    with qtbot.waitSignal(window.data_view.dialog_opened, timeout=5_000) as opened:
        window.open_dropped(example_folder() / "students.csv")
    dialog = opened.args[0]
    qtbot.waitUntil(lambda: dialog.table is not None, timeout=30_000)
    dialog.open_mapping()
    m = dialog.mapping_dialog
    m.reject()  # untouched: closes
    assert not m.isVisible()
    dialog.open_mapping()
    m = dialog.mapping_dialog
    qtbot.waitExposed(m)
    m.codes.edited.emit()  # the user picked a response for a value
    QTest.keyClick(m, Qt.Key.Key_Escape)
    assert m.isVisible() and m.discard_question is not None
    m.discard_question.button(QMessageBox.StandardButton.Discard).click()
    qtbot.waitUntil(lambda: not m.isVisible(), timeout=5000)
    dialog.reject()
