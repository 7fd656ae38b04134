"""Labels in the app: rename a column in Data, a short label in Design, the p-value adjustment in Results."""

from __future__ import annotations

from PySide6.QtCore import Qt

from dpdesk.gui.views.data_view import LABEL_COLUMN, VALUES_COLUMN
from dpdesk.project import Project
from dpdesk.project.study.labels import MISSING
from tests.helpers.gui import shot
from tests.project.test_labels import _study



def _open_results(window, qtbot, path):
    rv = window.results_view
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        window.open_project(path)
        window.nav.setCurrentRow(2)
    return rv


def _choose(qtbot, combo, text: str, rv) -> None:
    """Pick the item starting with ``text`` in ``combo`` with the arrow keys, then wait for the results."""
    combo.setFocus()
    target = next(i for i in range(combo.count()) if combo.itemText(i).startswith(text))
    key = Qt.Key.Key_Down if target > combo.currentIndex() else Qt.Key.Key_Up
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        while combo.currentIndex() != target:
            qtbot.keyClick(combo, key)
    assert combo.currentText().startswith(text)


def _edit(qtbot, table, row: int, column: int, text: str) -> None:
    """Click the cell, press F2, replace its text by typing, press Enter."""
    rect = table.visualItemRect(table.item(row, column))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.keyClick(table, Qt.Key.Key_F2)
    editor = table.viewport().focusWidget()
    assert editor is not None and editor is not table
    qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Return)


def test_rename_a_column_in_the_data_view_persists(window, qtbot, tmp_path):
    path = _study(tmp_path)
    dv = window.data_view
    with qtbot.waitSignal(dv.dataset_shown, timeout=30_000):
        window.open_project(path)
        window.nav.setCurrentRow(1)
    table = dv.variables
    row = next(r for r in range(table.rowCount()) if table.item(r, 0).text() == "faculty")
    assert table.item(row, LABEL_COLUMN).text() == "Faculty"
    _edit(qtbot, table, row, LABEL_COLUMN, "Faculty of study")
    qtbot.waitUntil(lambda: window.project.column_labels("wave 1")["faculty"]["label"] == "Faculty of study")
    assert window.project.column_labels("wave 1")["faculty"]["source"] == "researcher"
    window.undo_stack.undo()  # Edit > Undo takes the label back
    qtbot.waitUntil(lambda: table.item(row, LABEL_COLUMN).text() == "Faculty")
    window.undo_stack.redo()
    qtbot.waitUntil(lambda: table.item(row, LABEL_COLUMN).text() == "Faculty of study")
    _edit(qtbot, table, row, VALUES_COLUMN, "A = Arts; B = Business; C = Chemistry")
    qtbot.waitUntil(lambda: window.project.column_labels("wave 1")["faculty"]["value_labels"]
                    == {"A": "Arts", "B": "Business", "C": "Chemistry"})
    window.close_project()
    with Project.open(path) as p:
        assert p.column_labels("wave 1")["faculty"]["label"] == "Faculty of study"
    rv = _open_results(window, qtbot, path)
    texts = [rv.by.itemText(i) for i in range(rv.by.count())]
    assert "faculty \u2014 Faculty of study" in texts and "gender \u2014 Gender" in texts
    assert not any(t.startswith(("StartDate", "resp_answer")) for t in texts)  # time stamp, RR answers
    _choose(qtbot, rv.by, "faculty", rv)
    assert {"Arts", "Business", "Chemistry"} <= {r["subgroup"] for r in rv.current.subgroups}


def test_adjustment_option_missing_row_and_screenshots(window, qtbot, tmp_path):
    path = _study(tmp_path)
    rv = _open_results(window, qtbot, path)
    _choose(qtbot, rv.by, "gender", rv)
    rs = rv.current
    assert rs.options.adjust == "holm"
    missing = [r for r in rs.subgroups if r["subgroup"] == MISSING]
    assert len(missing) == 1 and missing[0]["n"] == 23
    assert any("p-value (Holm)" in r for r in rs.subgroups)
    shown = rv.document_view.toPlainText()
    assert "Subgroups by Gender" in shown and MISSING in shown and "Holm" in shown
    assert "Female" in shown and "gender" not in shown.replace("Gender", "")  # the label, not the code
    window.resize(1200, 900)
    rv.scroll_to("Subgroups by Gender")
    shot(window, "results_labels")
    window.resize(1024, 700)
    rv.scroll_to("Subgroups by Gender")
    shot(window, "results_labels_1024")
    shot(rv.subgroup_plot, "results_labels_subgroup_plot_1024")
    shot(rv.forest, "results_labels_forest_1024")
    _choose(qtbot, rv.adjust, "Bonferroni", rv)
    rs = rv.current
    assert rs.options.adjust == "bonferroni" and any("p-value (Bonferroni)" in r for r in rs.subgroups)
    assert "Bonferroni" in rv.document_view.toPlainText()
    _choose(qtbot, rv.adjust, "none", rv)
    assert not any(k.startswith("p-value (") for r in rv.current.subgroups for k in r)


def test_short_label_in_the_design_view(window, qtbot, tmp_path):
    path = _study(tmp_path)
    rv = _open_results(window, qtbot, path)
    assert rv.current.estimates[0]["item"] == "Have you ever cheated in an exam?"
    window.nav.setCurrentRow(0)
    design = window.design_view
    rect = design.table.visualItemRect(design.table.item(0, 0))
    qtbot.mouseClick(design.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert design.short_label.isEnabled()
    qtbot.mouseClick(design.short_label, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(design.short_label, "Exam cheating")
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        qtbot.keyClick(design.short_label, Qt.Key.Key_Return)
        window.nav.setCurrentRow(2)
    assert window.project.item_labels() == {"cheat": "Exam cheating"}
    assert rv.current.estimates[0]["item"] == "Exam cheating"
    assert rv.current.forest[0]["item"] == "Exam cheating"
