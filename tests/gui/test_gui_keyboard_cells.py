"""Tables are one Tab stop, with the arrows inside; one click toggles a check box cell. The regression
predictor table took about 20 Tab presses to pass (each cell a widget), and the first click on a *Use*
box only selected the row."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from dpdesk.gui.shell.tasks import TASKS
from tests.gui.test_gui_regression import pick_in_cell


@pytest.fixture
def form(window, qtbot, tmp_path):
    from dpdesk.gui.shell.example_project import build_example

    view = window.regression_view
    with qtbot.waitSignal(view.loader.done, timeout=60_000):
        window.open_project(build_example(None, tmp_path / "example.dpdesk"))
    window.nav.setCurrentRow(TASKS.index("Regression"))
    qtbot.waitUntil(lambda: view.form.table.rowCount() >= 3)
    window.activateWindow()
    return view.form


def _click(qtbot, table, row: int, column: int, where: str = "right") -> None:
    """A left click inside a cell: away from a check box's square (the right of the cell) or in its middle."""
    rect = table.visualRect(table.model().index(row, column))
    pos = QPoint(rect.right() - 3, rect.center().y()) if where == "right" else rect.center()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=pos)


def test_the_predictor_table_is_one_tab_stop_on_the_way_to_fit(form, qtbot):
    view = form.parent()
    while not hasattr(view, "fit_button"):
        view = view.parent()
    form.outcome.setFocus()
    qtbot.waitUntil(form.outcome.hasFocus)
    stops = []
    for _ in range(30):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        stops.append(QApplication.focusWidget())
        if view.fit_button.hasFocus():
            break
    assert view.fit_button.hasFocus(), [w.accessibleName() for w in stops]
    in_table = [w for w in stops if w is form.table or form.table.isAncestorOf(w)]
    assert in_table == [form.table] and len(stops) <= 6, [w.accessibleName() for w in stops]


def test_arrows_move_inside_the_table_and_space_ticks(form, qtbot):
    table = form.table
    table.setFocus()
    table.setCurrentCell(0, 0)
    qtbot.keyClick(table, Qt.Key.Key_Right)
    qtbot.keyClick(table, Qt.Key.Key_Down)
    assert (table.currentRow(), table.currentColumn()) == (1, 1) and table.hasFocus()
    qtbot.keyClick(table, Qt.Key.Key_Left)
    qtbot.keyClick(table, Qt.Key.Key_Space)
    assert form.predictors() == [form._rows[1]["column"]]
    qtbot.keyClick(table, Qt.Key.Key_Space)
    assert form.predictors() == []


def test_one_click_anywhere_in_a_use_cell_ticks_it_and_one_more_unticks_it(form, qtbot):
    table = form.table
    column = form._rows[0]["column"]
    assert not table.hasFocus()
    _click(qtbot, table, 0, 0)  # the first click, with the focus elsewhere, away from the square
    assert form.predictors() == [column]
    _click(qtbot, table, 0, 0, "middle")
    assert form.predictors() == []
    numeric = next(i for i, r in enumerate(form._rows) if r["kind"] == "numeric")
    _click(qtbot, table, numeric, 0)
    _click(qtbot, table, numeric, 4)  # Centre
    assert form.choice(numeric)["use"] and form.choice(numeric)["centre"]


def test_a_choice_cell_opens_on_one_click_and_tab_leaves_the_table(form, qtbot):
    table = form.table
    i = next(i for i, r in enumerate(form._rows) if r["kind"] == "categorical" and len(r["levels"]) > 1)
    levels = form._rows[i]["levels"]
    _click(qtbot, table, i, 3, "middle")  # with the mouse: one click opens the list
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not None)
    editor = table.indexWidget(table.model().index(i, 3))
    qtbot.keyClick(editor.view(), Qt.Key.Key_Down)
    qtbot.keyClick(editor.view(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: table.indexWidget(table.model().index(i, 3)) is None)
    assert form.choice(i)["reference"] == levels[0] and table.item(i, 3).text() == levels[0]
    pick_in_cell(qtbot, table, i, 3, levels[1])  # from the keyboard: Space, Down, Return
    assert form.choice(i)["reference"] == levels[1] and table.item(i, 3).text() == levels[1]
    qtbot.keyClick(table, Qt.Key.Key_F2)  # F2 opens it too
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not None)
    editor = table.indexWidget(table.model().index(i, 3))
    editor.hidePopup()
    qtbot.keyClick(editor, Qt.Key.Key_Tab)  # on to the next control, not to the next cell
    qtbot.waitUntil(lambda: table.indexWidget(table.model().index(i, 3)) is None)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None and QApplication.focusWidget() is not table
                    and not table.isAncestorOf(QApplication.focusWidget()))
    assert form.choice(i)["reference"] == levels[1]


def test_a_numeric_predictor_has_no_reference_level_to_read(form):
    numeric = next(i for i, r in enumerate(form._rows) if r["kind"] == "numeric")
    cell = form.table.item(numeric, 3)
    assert not cell.flags() & Qt.ItemFlag.ItemIsEnabled and cell.text() == "—"


def test_one_click_on_a_language_ticks_it_in_the_field_it_dialog(window, qtbot, tmp_path):
    from dpdesk.gui.dialogs.field_it import FieldDialog
    from dpdesk.gui.shell.example_project import build_example

    assert window.open_project(build_example(None, tmp_path / "example.dpdesk"))
    dialog = FieldDialog(window.project, window)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    box = dialog.languages
    row = next(i for i in range(box.count()) if box.item(i).checkState() == Qt.CheckState.Unchecked)
    rect = box.visualItemRect(box.item(row))
    box.scrollToItem(box.item(row))
    rect = box.visualItemRect(box.item(row))
    qtbot.mouseClick(box.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(rect.center().x(), rect.center().y()))
    assert box.item(row).checkState() == Qt.CheckState.Checked  # the first click, on the words
    dialog.reject()


def test_every_table_in_every_view_is_one_tab_stop(window, qtbot, tmp_path):
    """Tab through each view of the example: no table (or a widget in one of its cells) takes more than one
    stop. The Results view's direct-question table took one per item."""
    from PySide6.QtWidgets import QAbstractItemView

    from dpdesk.gui.shell.example_project import build_example

    rv = window.results_view
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        assert window.open_project(build_example(None, tmp_path / "example.dpdesk"))
        window.nav.setCurrentRow(TASKS.index("Results"))
    window.activateWindow()
    for task in TASKS:
        window.nav.setCurrentRow(TASKS.index(task))
        window.nav.setFocus()
        qtbot.waitUntil(window.nav.hasFocus)
        stops: dict = {}
        seen = []
        for _ in range(80):
            qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
            widget = QApplication.focusWidget()
            if widget in seen or widget is window.nav:
                break
            seen.append(widget)
            table = widget
            while table is not None and not isinstance(table, QAbstractItemView):
                table = table.parentWidget()
            if table is not None:
                stops.setdefault(table.accessibleName() or table.objectName(), []).append(widget)
        assert all(len(ws) == 1 for ws in stops.values()), (task, {k: len(v) for k, v in stops.items()})
