"""The main window: welcome screen, projects (create, open, recent, twice, drop), menus, errors."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent, QKeySequence
from PySide6.QtWidgets import QMessageBox

from dpdesk.errors import DataError, ProjectError
from tests.helpers.gui import shot


def _error_boxes(w):
    return [b for b in w.findChildren(QMessageBox, "errorDialog") if b.isVisible()]


def test_welcome_screen(window):
    assert window.pages.currentWidget() is window.welcome
    assert window.welcome.recent_empty.isVisible()
    assert window.windowTitle() == "dpdesk"
    for button in (window.welcome.new_button, window.welcome.open_button, window.welcome.example_button):
        assert button.accessibleName() and button.accessibleDescription()
    shot(window, "welcome")
    # what it looks like after a while (display only: fixed paths keep the screenshot stable)
    window.welcome.set_recent(["/home/researcher/surveys/Exam cheating 2026.dpdesk",
                               "/home/researcher/surveys/Student wellbeing pilot.dpdesk"])
    shot(window, "welcome_recent")


def test_create_open_and_recent(window, tmp_path, qtbot):
    path = tmp_path / "survey"
    assert window.create_project(path)
    assert window.project.path.name == "survey.dpdesk"
    assert window.pages.currentWidget() is window.workspace
    assert "survey" in window.windowTitle()
    window.close_project()
    assert window.project is None and window.pages.currentWidget() is window.welcome
    assert window.settings.recent_files() == [str(tmp_path / "survey.dpdesk")]
    assert window.welcome.recent.count() == 1
    assert [a.data() for a in window.recent_menu.actions()] == [str(tmp_path / "survey.dpdesk")]
    window.welcome.recent.setCurrentRow(0)
    window.welcome.recent.itemActivated.emit(window.welcome.recent.item(0))
    assert window.project is not None and window.project.path == (tmp_path / "survey.dpdesk").resolve()


def test_recent_survives_a_new_window(window, tmp_path, qtbot):
    window.create_project(tmp_path / "a.dpdesk")
    window.close()
    from dpdesk.gui.shell.main_window import MainWindow

    again = MainWindow()
    qtbot.addWidget(again)
    assert again.settings.recent_files() == [str(tmp_path / "a.dpdesk")]
    again.recent_menu.actions()[0].trigger()
    assert again.project is not None
    again.close()


def test_same_project_twice_is_refused(window, tmp_path, qtbot):
    from dpdesk.gui.shell.main_window import MainWindow

    window.create_project(tmp_path / "once.dpdesk")
    other = MainWindow()
    qtbot.addWidget(other)
    assert not other.open_project(tmp_path / "once.dpdesk")
    boxes = _error_boxes(other)
    assert boxes and "already open" in boxes[0].informativeText()
    assert other.project is None
    boxes[0].accept()
    other.close()


def test_missing_file_is_explained_and_dropped_from_recent(window, tmp_path):
    window.settings.add_recent(tmp_path / "gone.dpdesk")
    assert not window.open_project(tmp_path / "gone.dpdesk")
    assert _error_boxes(window)
    assert window.settings.recent_files() == []


def test_not_a_project_is_explained(window, tmp_path):
    bad = tmp_path / "notes.dpdesk"
    bad.write_text("not a database")
    assert not window.open_project(bad)
    box = _error_boxes(window)[0]
    assert "notes.dpdesk" in box.informativeText()
    assert bad.read_text() == "not a database"


def _drop(widget, path):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                       Qt.KeyboardModifier.NoModifier)
    widget.dropEvent(event)


def test_drop_a_project_opens_it(window, tmp_path):
    from dpdesk.project.file.store import Project

    Project.create(tmp_path / "dropped.dpdesk").close()
    _drop(window, tmp_path / "dropped.dpdesk")
    assert window.project is not None and window.project.path.name == "dropped.dpdesk"


def test_drop_a_data_file_goes_to_the_data_view(window, tmp_path):
    window.create_project(tmp_path / "p.dpdesk")
    csv = tmp_path / "answers.csv"
    csv.write_text("a\n1\n")
    _drop(window, csv)
    assert window.nav.currentItem().text() == "Data"
    assert "answers.csv" in window.statusBar().currentMessage()


def test_save_as_moves_on_to_the_copy(window, tmp_path):
    window.create_project(tmp_path / "first.dpdesk")
    assert window.save_as(tmp_path / "second.dpdesk")
    assert window.project.path.name == "second.dpdesk"
    assert (tmp_path / "first.dpdesk").exists()
    assert window.settings.recent_files()[0].endswith("second.dpdesk")


def test_menus_have_standard_shortcuts(window):
    a = window.actions_
    assert a["new"].shortcut() == QKeySequence(QKeySequence.StandardKey.New)
    assert a["open"].shortcut() == QKeySequence(QKeySequence.StandardKey.Open)
    assert a["undo"].shortcut() == QKeySequence(QKeySequence.StandardKey.Undo)
    assert a["redo"].shortcut() == QKeySequence(QKeySequence.StandardKey.Redo)
    assert not a["quit"].shortcut().isEmpty() and not a["preferences"].shortcut().isEmpty()
    assert not a["save_as"].isEnabled() and not a["close"].isEnabled()
    titles = [m.title() for m in window.menuBar().findChildren(type(window.recent_menu))]
    assert {"&File", "&Edit", "&Help", "Open &Recent"} <= set(titles)


def test_geometry_is_remembered(window, qtbot):
    window.resize(700, 500)  # the offscreen screen is 800 x 600
    window.close()
    from dpdesk.gui.shell.main_window import MainWindow

    again = MainWindow()
    qtbot.addWidget(again)
    assert (again.width(), again.height()) == (700, 500)
    again.close()


def test_example_project_builds_in_a_worker_and_opens(window, qtbot):
    with qtbot.waitSignal(window.project_changed, timeout=60_000):
        window.open_example()
    assert window.project is not None
    assert [i.name for i in window.project.items()] == ["exam_cheating", "plagiarism", "drug_use"]
    assert window.design_view.table.rowCount() == 3
    assert "infinite" in window.design_view.combined.text()  # the SLD item leaves 'no' unprotected
    shot(window, "main_window_design")
    before = window.project.item("drug_use")
    window.design_view.select("drug_use")
    window.design_view.remove_selected()
    window.undo_stack.undo()
    after = window.project.item("drug_use")  # back with its data mapping
    assert (after.column, after.codes, after.group_column, after.group_codes, after.design_record) == \
        (before.column, before.codes, before.group_column, before.group_codes, before.design_record)
    window.design_view.table.clearSelection()
    window.statusBar().clearMessage()
    window.nav.setCurrentRow(1)
    shot(window, "main_window_data")


def test_dpdesk_error_dialog_shows_the_message(qtbot):
    from dpdesk.gui.dialogs.errors import error_box

    box = error_box(DataError("answers.csv, row 7, column q3: the value 'maybe' is not a code. Add it."))
    qtbot.addWidget(box)
    assert "row 7" in box.informativeText()
    assert box.text() == "<b>The data could not be read as asked</b>"
    assert box.detailedText() == ""


def test_excepthook_shows_a_dialog_without_the_message(window, qtbot, monkeypatch):
    from dpdesk.gui.dialogs import errors

    monkeypatch.setattr(sys, "excepthook", errors.excepthook)
    try:
        raise ValueError("respondent 4711 said yes")
    except ValueError:
        sys.excepthook(*sys.exc_info())
    box = [b for b in window.findChildren(QMessageBox, "errorDialog")] or \
        [b for b in errors._shown]
    assert box
    box = box[-1]
    text = box.text() + box.informativeText() + box.detailedText()
    assert "4711" not in text and "said yes" not in text
    assert "ValueError" in box.detailedText() and "test_gui_window.py" in box.detailedText()
    assert "nothing was lost" in box.informativeText()
    shot(box, "error_dialog")
    box.accept()


def test_project_error_titles():
    from dpdesk.gui.dialogs.errors import title_for

    assert title_for(ProjectError("x")) == "The project file could not be used"
    assert title_for(KeyError("x")) == "Something went wrong"


@pytest.mark.parametrize("widget_name", ["welcome", "design_view"])
def test_every_control_has_an_accessible_name(window, tmp_path, widget_name):
    from PySide6.QtWidgets import QAbstractButton, QAbstractSpinBox, QLineEdit, QAbstractItemView

    window.create_project(tmp_path / "acc.dpdesk")
    root = window.welcome if widget_name == "welcome" else window.design_view
    controls = [c for kind in (QAbstractButton, QAbstractSpinBox, QLineEdit, QAbstractItemView)
                for c in root.findChildren(kind) if c.focusPolicy() != Qt.FocusPolicy.NoFocus
                and not c.objectName().startswith("qt_")]
    missing = [c for c in controls if not c.accessibleName() and type(c).__name__ not in ("QHeaderView",)]
    assert not missing, [type(c).__name__ + ":" + c.objectName() for c in missing]
