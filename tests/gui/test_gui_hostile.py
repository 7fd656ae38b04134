"""The app's open path with files from someone else (issue 14): refused in words, never changed."""

from __future__ import annotations

import sqlite3

import pytest
from PySide6.QtWidgets import QMessageBox

from tests.helpers import hostile
from tests.helpers.gui import shot


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return hostile.make_base(tmp_path_factory.mktemp("base") / "base.dpdesk")


def _error_boxes(w):
    return [b for b in w.findChildren(QMessageBox, "errorDialog") if b.isVisible()]


@pytest.mark.parametrize("case", ["budget_switched_off", "endless_view_releases", "crafted_sql_name",
                                  "load_extension_trigger", "fifo"])
def test_a_hostile_file_is_refused_with_a_message_and_left_untouched(window, base, tmp_path, case):
    path = hostile.make(base, tmp_path, case)
    before = hostile.digest(path)
    assert not window.open_project(path)
    assert window.project is None
    (box,) = _error_boxes(window)
    text = box.text() + " " + box.informativeText()
    assert "Traceback" not in text + box.detailedText()
    assert ("changed outside dpdesk" in text) if case != "fifo" else ("named pipe" in text)
    box.accept()
    if case == "budget_switched_off":  # the same message at a fixed path keeps the screenshot stable
        from dpdesk.errors import ProjectError
        from dpdesk.gui.dialogs.errors import error_box

        fixed = box.informativeText().replace(str(tmp_path), "/home/dpo/received")
        shown = error_box(ProjectError(fixed), window)
        shot(shown, "hostile_file_refused")
        shown.deleteLater()
    assert hostile.digest(path) == before


def test_viewing_a_rollback_journal_project_leaves_it_byte_for_byte(window, base, tmp_path):
    path = hostile.make(base, tmp_path, "rollback_journal")
    before = hostile.digest(path)
    assert window.open_project(path)
    for row in range(window.nav.count()):  # look at every page, as a reader would
        window.nav.setCurrentRow(row)
    window.close_project()
    assert hostile.digest(path) == before
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "delete"
