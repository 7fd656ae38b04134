"""Everyday tasks from the keyboard alone (issue 20, section 5): real key events, no mouse.

Each test starts from the task list, reaches its controls with Tab as a keyboard user does
(``tab_to`` fails when a control is not in the Tab order) and acts with Space, Return, arrow
keys and typing: switching the active dataset, choosing the Results subgroups and the p-value
adjustment, labelling a column in the Data view (F2), and starting a Tabulate release.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from dpdesk.gui.shell.tasks import TASKS
from tests.gui.test_gui_keyboard_screen import tab_to
from tests.helpers.gui import shot
from tests.helpers.labelled_study import GENDER, make_labelled_study


def focus_window(window, qtbot) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)


def go_to(window, qtbot, task: str) -> None:
    """Choose ``task`` in the task list with the arrow keys (the list has the focus first)."""
    focus_window(window, qtbot)
    window.nav.setFocus()  # where Ctrl+1 / the first Tab lands; keys from here on
    qtbot.keyClick(window.nav, Qt.Key.Key_Home)
    for _ in range(TASKS.index(task)):
        qtbot.keyClick(window.nav, Qt.Key.Key_Down)
    assert window.nav.currentRow() == TASKS.index(task)


def test_a_tabulate_release_from_the_keyboard_in_the_data_s_labels(window, qtbot, tmp_path):
    from dpdesk.cli import main

    path = make_labelled_study(tmp_path)
    assert main(["budget", str(path), "--set", "2"]) == 0
    assert window.open_project(path)
    view = window.tabulate_view
    view.confirm = lambda parent, text: True  # the "release? it cannot be undone" question, answered yes
    go_to(window, qtbot, "Tabulate")
    f = view.form
    tab_to(qtbot, f.statistic, limit=60)
    assert f.statistic.currentData() == "count"
    tab_to(qtbot, f.by)
    qtbot.keyClicks(f.by, "sex")  # typing picks "sex — What is your gender?"
    assert f.by.currentData() == "sex" and GENDER in f.by.currentText()
    qtbot.keyClick(f.by, Qt.Key.Key_Tab)
    assert f.by_keys.hasFocus()
    qtbot.keyClicks(f.by_keys, "1, 2, 3")
    qtbot.waitUntil(lambda: view.release_button.isEnabled(), timeout=10_000)
    tab_to(qtbot, view.release_button)
    with qtbot.waitSignal(view.released, timeout=20_000):
        qtbot.keyClick(view.release_button, Qt.Key.Key_Space)
    t = view.result.table
    assert f"count by {GENDER}" in view.result.title.text()
    assert t.horizontalHeaderItem(0).text() == GENDER
    assert [t.item(r, 0).text() for r in range(t.rowCount())] == ["Female", "Male", "Non-binary"]
    notes = view.result.notes.text()
    assert f"Respondents with no value of {GENDER}" in notes and f"{GENDER} = sex" in notes
    listed = view.ledger_view.table
    qtbot.waitUntil(lambda: listed.rowCount() == 1, timeout=10_000)
    assert any(f"count by {GENDER}" in listed.item(r, c).text() for r in range(listed.rowCount())
               for c in range(listed.columnCount()) if listed.item(r, c) is not None)
    shot(window, "tabulate_labels_keyboard")
