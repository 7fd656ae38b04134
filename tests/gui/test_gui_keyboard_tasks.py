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


def two_waves(tmp_path):
    """The labelled SPSS wave (wave2.sav, active first) and a CSV wave (wave1.csv, gender Q4 with blanks)."""
    import numpy as np
    import pandas as pd

    from dpdesk.cli import main

    path = make_labelled_study(tmp_path)
    rng = np.random.default_rng(7)
    n = 300
    pd.DataFrame({"Q2": rng.choice(["Yes", "No"], n),
                  "Q4": rng.choice(["Female", "Male", "Non-binary", ""], n, p=[0.5, 0.4, 0.05, 0.05])}
                 ).to_csv(tmp_path / "wave1.csv", index=False)
    for args in (["import", path, tmp_path / "wave1.csv"],
                 ["item", path, "copy", "--dataset", "wave1.csv", "--column", "Q2", "--codes", "yes=Yes",
                  "--codes", "no=No"],
                 ["label", path, "Q4", "Gender", "--dataset", "wave1.csv"]):
        assert main([str(a) for a in args]) == 0, args
    return path


def test_switching_the_active_dataset_from_the_keyboard(window, qtbot, tmp_path):
    from dpdesk.project.study.active import active_dataset

    assert window.open_project(two_waves(tmp_path))
    dv = window.data_view
    start = active_dataset(window.project).name
    other = "wave2.sav" if start == "wave1.csv" else "wave1.csv"
    go_to(window, qtbot, "Data")
    tab_to(qtbot, dv.datasets)
    key = Qt.Key.Key_Down if dv.datasets.findData(other) > dv.datasets.currentIndex() else Qt.Key.Key_Up
    with qtbot.waitSignal(dv.dataset_shown, timeout=30_000, check_params_cb=lambda ds: ds == other):
        qtbot.keyClick(dv.datasets, key)
    assert active_dataset(window.project).name == other
    assert other in window.statusBar().currentMessage()
    # every view follows: Results estimates the item in the new dataset
    rv = window.results_view
    go_to(window, qtbot, "Results")
    qtbot.waitUntil(lambda: rv.current is not None and rv.current.dataset == other, timeout=60_000)
    # and back with the other arrow key: nothing is lost on the way
    go_to(window, qtbot, "Data")
    tab_to(qtbot, dv.datasets)
    back = Qt.Key.Key_Up if key == Qt.Key.Key_Down else Qt.Key.Key_Down
    with qtbot.waitSignal(dv.dataset_shown, timeout=30_000, check_params_cb=lambda ds: ds == start):
        qtbot.keyClick(dv.datasets, back)
    assert active_dataset(window.project).name == start
    assert window.project.item("copy", "wave1.csv").column == "Q2"
    assert window.project.item("copy", "wave2.sav").column == "essay_fr"


def test_results_subgroups_and_the_p_value_adjustment_from_the_keyboard(window, qtbot, tmp_path):
    path = two_waves(tmp_path)
    rv = window.results_view
    assert window.open_project(path)
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        go_to(window, qtbot, "Results")  # results are computed when the view is first shown
    tab_to(qtbot, rv.by, limit=60)
    target = next(i for i in range(rv.by.count()) if rv.by.itemData(i) not in (None,)
                  and "gender" in rv.by.itemText(i).lower())
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None
                          and rs.options.by is not None):
        while rv.by.currentIndex() < target:
            qtbot.keyClick(rv.by, Qt.Key.Key_Down)
    rs = rv.current
    assert rs.options.adjust == "holm" and any("p-value (Holm)" in r for r in rs.subgroups)
    qtbot.keyClick(rv.by, Qt.Key.Key_Tab)
    assert rv.adjust.hasFocus()  # the adjustment comes next in the Tab order
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None
                          and rs.options.adjust == "bonferroni"):
        qtbot.keyClick(rv.adjust, Qt.Key.Key_Down)
    assert any("p-value (Bonferroni)" in r for r in rv.current.subgroups)
    assert "Bonferroni" in rv.document_view.toPlainText()
    # typing the first letters picks an entry too
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None
                          and rs.options.adjust == "none"):
        qtbot.keyClicks(rv.adjust, "n")
    assert rv.by.currentIndex() == target  # the subgroups stayed as chosen


def test_labelling_a_column_in_the_data_view_with_f2(window, qtbot, tmp_path):
    from dpdesk.gui.views.data_view import LABEL_COLUMN

    dv = window.data_view
    with qtbot.waitSignal(dv.dataset_shown, timeout=30_000):
        assert window.open_project(two_waves(tmp_path))
    go_to(window, qtbot, "Data")
    table = dv.variables
    dataset = dv._dataset_shown
    tab_to(qtbot, table, limit=60)
    row = next(r for r in range(table.rowCount()) if table.item(r, 0).text() in ("Q4", "sex"))
    column = table.item(row, 0).text()
    qtbot.keyClick(table, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)  # the first cell
    for _ in range(row):
        qtbot.keyClick(table, Qt.Key.Key_Down)
    for _ in range(LABEL_COLUMN):
        qtbot.keyClick(table, Qt.Key.Key_Right)
    assert (table.currentRow(), table.currentColumn()) == (row, LABEL_COLUMN)
    before = table.item(row, LABEL_COLUMN).text()
    qtbot.keyClicks(table, "x")  # a stray key never edits a label
    assert table.item(row, LABEL_COLUMN).text() == before and table.viewport().focusWidget() in (None, table)
    qtbot.keyClick(table, Qt.Key.Key_F2)
    editor = QApplication.focusWidget()
    assert editor is not None and editor is not table
    qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(editor, "Gender identity")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.project.column_labels(dataset)[column]["label"] == "Gender identity")
    assert table.hasFocus()  # back in the table, ready for the next key
    qtbot.keyClick(table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # Ctrl+Z takes it back
    qtbot.waitUntil(lambda: table.item(row, LABEL_COLUMN).text() == before)


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
    qtbot.waitUntil(lambda: bool(view.meter.state.segments), timeout=10_000)
    assert f"count by {GENDER}" in view.meter.state.segments[-1].tip  # the budget bar's tooltip too
    shot(window, "tabulate_labels_keyboard")
