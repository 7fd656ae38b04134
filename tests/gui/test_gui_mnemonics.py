"""Every Alt letter has one owner in its window: each wizard page (with the wizard's own Next, Back and
Finish), every dialog and every view with the menu bar. Alt+N belonged to "Short name" and to Next, and
Alt+F to "Then field it" and to Finish; a second owner makes the letter move the focus, not act."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDialog

from dpdesk.gui.wizard.catalog import CHOICES
from tests.helpers.mnemonics import clashes, menu_letters, owners


@pytest.fixture
def example(window, tmp_path):
    from dpdesk.gui.shell.example_project import build_example

    assert window.open_project(build_example(None, tmp_path / "example.dpdesk"))
    return window


def _start(window, answers: str):
    wizard = window.design_view.new_item()
    wizard.question_page.question.setPlainText("Have you ever cheated?")
    wizard.question_page.kind_buttons[answers].setChecked(True)
    wizard.question_page.categories.setText("never, once, often")
    return wizard


def test_the_letters_helper_sees_a_clash(qtbot):
    from PySide6.QtWidgets import QFormLayout, QLineEdit, QPushButton

    dialog = QDialog()
    qtbot.addWidget(dialog)
    form = QFormLayout(dialog)
    form.addRow("Short &name:", QLineEdit())
    form.addRow(QPushButton("&Next"))
    assert clashes(dialog) == {"n": ["Short &name:", "&Next"]}


@pytest.mark.parametrize("choice", CHOICES, ids=[c.key for c in CHOICES])
def test_every_wizard_page_and_randomizer(window, tmp_path, qtbot, choice):
    assert window.create_project(tmp_path / "a.dpdesk")
    wizard = _start(window, choice.answers)
    assert not clashes(wizard), "question page"
    assert "n" in owners(wizard)  # the wizard's buttons are counted (Next is Alt+N)
    wizard.next()
    assert not clashes(wizard), "design page"
    wizard.design_page.buttons[choice.key].setChecked(True)
    wizard.next()
    page = wizard.randomizer_page
    for device in range(page.device.count()):
        page.device.setCurrentIndex(device)
        assert not clashes(wizard), f"randomizer page, {page.device.currentText()}"
    if choice.recommended or choice.key == "unrelated":  # the later pages do not depend on the design's kind
        with qtbot.waitSignal(wizard.meaning_page.runner.done, timeout=60_000):
            wizard.next()
        assert not clashes(wizard), "meaning page"
        wizard.next()
        assert wizard.currentPage() is wizard.instructions_page
        assert not clashes(wizard), "instructions page"
    wizard.reject()


def test_every_view_with_the_menu_bar(example, qtbot):
    window = example
    for task in range(window.nav.count()):
        window.nav.setCurrentRow(task)
        assert not clashes(window, menu_letters(window)), window.nav.item(task).text()


def test_every_dialog(example, qtbot, tmp_path):
    from dpdesk.gui.dialogs.about import AboutDialog
    from dpdesk.gui.dialogs.budget import BudgetDialog
    from dpdesk.gui.dialogs.field_it import FieldDialog
    from dpdesk.gui.dialogs.languages import LanguagesDialog
    from dpdesk.gui.dialogs.preferences import PreferencesDialog
    from dpdesk.project.ledger import budget as ledger_budget
    from tests.gui.test_gui_data import open_import

    window = example
    project = window.project
    item = project.items()[0].name
    dialogs = [PreferencesDialog(window.settings, window), BudgetDialog(None, window),
               BudgetDialog(ledger_budget.budget_status(project), window),
               LanguagesDialog(project, item, window.settings, window), FieldDialog(project, window)]
    for mode in ("online", "interview", "paper"):
        dialogs.append(FieldDialog(project, window, mode=mode))
    about = AboutDialog(window)
    dialogs.append(about)
    csv = tmp_path / "answers.csv"
    csv.write_text("id,q\n" + "".join(f"{i},{'yes' if i % 3 else 'no'}\n" for i in range(30)), encoding="utf-8")
    importing = open_import(window, qtbot, csv)
    dialogs.append(importing)
    importing.open_mapping()
    dialogs.append(importing.mapping_dialog)
    results = window.results_view
    window.nav.setCurrentRow(2)
    qtbot.waitUntil(lambda: results.current is not None, timeout=60_000)
    results.methods_dialog()
    dialogs.append(next(
        d for d in results.findChildren(QDialog) if type(d).__name__ == "MethodsDialog"))
    for dialog in dialogs:
        dialog.show()
        qtbot.waitExposed(dialog)
        assert not clashes(dialog), type(dialog).__name__
        dialog.hide()
    qtbot.waitUntil(lambda: about.list.count() > 0, timeout=30_000)  # its worker finishes
