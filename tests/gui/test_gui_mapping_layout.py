"""The mapping dialog (issue 29): the answer-column box stays where it is when an item's question wraps
(items switched with the mouse), and a column's variable label is shown whole, never cut at 50 characters."""

from __future__ import annotations

import pandas as pd
import pyreadstat
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from tests.gui.test_gui_data import open_import

LONG_LABEL = ("During the last twelve months, did you receive any payment in cash for work that you did not "
              "declare to the tax office?")


@pytest.fixture
def study(window, tmp_path):
    from dpdesk.mechanisms import rr

    window.create_project(tmp_path / "survey.dpdesk")
    window.project.add_item("short", rr.design("warner", p=0.7), question="Cash?")
    window.project.add_item("long", rr.design("warner", p=0.7), question=LONG_LABEL + " " + LONG_LABEL)
    window.project_changed.emit(window.project)
    path = tmp_path / "answers.sav"
    pyreadstat.write_sav(pd.DataFrame({"q_cash": [1.0, 2.0] * 20}), str(path), column_labels=[LONG_LABEL])
    return path


def _click_item(qtbot, m, row: int) -> None:
    rect = m.item_list.visualItemRect(m.item_list.item(row))
    qtbot.mouseClick(m.item_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert m.item_list.currentRow() == row
    QApplication.processEvents()  # the layout follows the new text
    QApplication.processEvents()


def test_the_answer_column_stays_put_and_labels_are_whole(window, qtbot, study):
    dialog = open_import(window, qtbot, study)
    dialog.open_mapping()
    m = dialog.mapping_dialog
    m.resize(900, 620)
    m.show()
    qtbot.waitExposed(m)
    _click_item(qtbot, m, 0)
    top = m.column.mapTo(m, QPoint(0, 0)).y()
    _click_item(qtbot, m, 1)
    assert m.about.heightForWidth(m.about.width()) > 2 * m.about.fontMetrics().lineSpacing()  # it wraps
    assert m.column.mapTo(m, QPoint(0, 0)).y() == top
    _click_item(qtbot, m, 0)
    assert m.column.mapTo(m, QPoint(0, 0)).y() == top
    texts = [m.column.itemText(i) for i in range(m.column.count())]
    assert f"q_cash — {LONG_LABEL}" in texts  # whole, not cut at 50 characters
    assert m.column.width() < 900  # the box keeps its width; the list shows the whole label
