"""The import window says when the header row looks like a respondent, and its "No header row" box
(clicked, as a person does) reads the file again with the first row as data; a workbook with merged
group headers says which row it took as the header (issue 28)."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QPoint, Qt


@pytest.fixture
def project_window(window, tmp_path):
    window.create_project(tmp_path / "survey.dpdesk")
    return window


def _open(window, qtbot, path):
    with qtbot.waitSignal(window.data_view.dialog_opened, timeout=5_000) as opened:
        window.open_dropped(path)
    dialog = opened.args[0]
    qtbot.waitUntil(lambda: dialog.table is not None, timeout=30_000)
    return dialog


def test_no_header_row_box_reads_the_first_respondent_as_data(project_window, qtbot, tmp_path):
    rng = random.Random(28)
    rows = [f"{i},{rng.randint(18, 80)},{rng.choice(['Yes', 'No'])},{rng.randint(1, 5)}" for i in range(1, 41)]
    path = tmp_path / "no_header.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    dialog = _open(project_window, qtbot, path)
    assert len(dialog.table.frame) == 39  # the first respondent was read as the header...
    assert "looks like a respondent" in dialog.report.text() and "No header row" in dialog.report.text()  # ...and said
    box = dialog.no_header
    assert box.isVisible() and box.isEnabled() and not box.isChecked()
    with qtbot.waitSignal(dialog.jobs.done, timeout=30_000):
        qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))  # on the box itself
    assert box.isChecked() and not dialog.combos["header_rows"].isEnabled()
    table = dialog.table
    assert len(table.frame) == 40 and list(table.frame.columns) == ["column_1", "column_2", "column_3", "column_4"]
    assert table.report.header_rows == 0 and table.report.first_data_row == 1
    assert "looks like a respondent" not in dialog.report.text()
    with qtbot.waitSignal(dialog.imported, timeout=30_000):
        qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    stored = project_window.project.datasets()[0]
    assert stored.n_rows == 40 and stored.options == {"header_rows": 0}


def test_merged_group_headers_say_which_row_was_taken(project_window, qtbot, tmp_path):
    import xlsxwriter

    path = tmp_path / "grouped.xlsx"
    book = xlsxwriter.Workbook(path)
    sheet = book.add_worksheet("Data")
    sheet.merge_range("A1:B1", "Demographics")
    sheet.merge_range("C1:D1", "Attitudes")
    sheet.write_row(1, 0, ["id", "age", "q1", "q2"])
    for k in range(40):
        sheet.write_row(2 + k, 0, [k + 1, 20 + k, 1 + k % 5, 1 + k % 3])
    book.close()
    dialog = _open(project_window, qtbot, path)
    assert len(dialog.table.frame) == 40 and list(dialog.table.frame.columns) == ["id", "age", "q1", "q2"]
    text = dialog.report.text()
    assert "The header spans rows 1-2" in text and "taken from row 2" in text
    assert dialog.combos["header_rows"].itemText(0) == "detected: 2"
