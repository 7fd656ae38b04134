"""The real-file cases of issue 21 in the app: each file is read in the import dialog with its
note in words, imported with a click on Import, and Stata's missing values ``.a``-``.z`` show as
``.a = Refused`` (never 8.99e+307) in the preview, the mapping dialog and the Data view."""

from __future__ import annotations

import pandas as pd
import pytest
from PySide6.QtCore import Qt

from tests.helpers.paths import DATA


@pytest.fixture
def project_window(window, tmp_path):
    from dpdesk.mechanisms import rr

    window.create_project(tmp_path / "survey.dpdesk")
    window.project.add_item("often", rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25),
                            question="How often?")
    window.project_changed.emit(window.project)
    return window


def open_import(window, qtbot, path):
    with qtbot.waitSignal(window.data_view.dialog_opened, timeout=5_000) as opened:
        window.open_dropped(path)
    dialog = opened.args[0]
    qtbot.waitUntil(lambda: dialog.table is not None or "color: #a40000" in dialog.report.text(), timeout=30_000)
    return dialog


def click_import(dialog, qtbot):
    with qtbot.waitSignal(dialog.imported, timeout=30_000):
        qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)


@pytest.mark.parametrize("name, note", [
    ("stata_dates.dta", None),
    ("far_date.sav", "Column 'interview' has the date format DATE11, but row 3"),
    ("survey.xpt", None),
    ("title_line.csv", "look like a title"),
    ("title_line.xlsx", "look like a title"),
    ("stray_cell.xlsx", "Cell XFD3000 holds 'x'"),
])
def test_real_files_read_with_their_note_and_import(project_window, qtbot, name, note):
    dialog = open_import(project_window, qtbot, DATA / name)
    assert dialog.table is not None, dialog.report.text()
    if note:
        assert note in dialog.report.text()
    click_import(dialog, qtbot)
    assert name in [d.name for d in project_window.project.datasets()]


def test_stata_dates_show_as_dates_in_the_preview(project_window, qtbot):
    dialog = open_import(project_window, qtbot, DATA / "stata_dates.dta")
    model = dialog.preview_model
    column = model.columns.index("mydate")
    assert model.data(model.index(0, column)) == "2018-05-06"
    dialog.reject()


def test_a_damaged_workbook_is_explained_in_the_dialog(project_window, qtbot, tmp_path):
    from PySide6.QtWidgets import QMessageBox

    data = bytearray((DATA / "survey.xlsx").read_bytes())
    data[len(data) // 3: len(data) // 3 + 8] = b"\xff" * 8
    path = tmp_path / "damaged.xlsx"
    path.write_bytes(bytes(data))
    dialog = open_import(project_window, qtbot, path)
    qtbot.waitUntil(lambda: bool(dialog.findChildren(QMessageBox, "errorDialog")), timeout=10_000)
    text = dialog.report.text()
    assert "damaged" in text and "could not be read (" not in text and dialog.table is None
    for box in dialog.findChildren(QMessageBox, "errorDialog"):
        box.close()


def test_stata_missing_values_show_as_their_letters_and_labels(project_window, qtbot):
    window = project_window
    dialog = open_import(window, qtbot, DATA / "tagged_missing.dta")
    model = dialog.preview_model
    q1 = model.columns.index("q1")
    shown = [model.data(model.index(r, q1)) for r in range(model.rowCount())]
    assert shown[:6] == ["1 = Never", "2", ".a = Refused", "5 = Daily", ".b", ""]
    assert not any("e+307" in s for s in shown)
    dialog.open_mapping()
    m = dialog.mapping_dialog
    with qtbot.waitSignal(m.jobs.done, timeout=10_000, check_params_cb=lambda res: res[0] == "check"):
        m.column.setCurrentIndex(m.column.findData("q1"))
    values = {m.codes.item(r, 0).text(): m.codes.item(r, 1).text() for r in range(m.codes.rowCount())}
    assert values[".a"] == "Refused (missing code)" and values[".b"] == ".b (missing code)"
    assert not any("e+307" in v or len(v) > 20 for v in values)
    row = [m.codes.item(r, 0).text() for r in range(m.codes.rowCount())].index(".a")
    assert m.codes.cellWidget(row, 3).currentText() == "(missing: left out)"
    m.reject()
    click_import(dialog, qtbot)
    dv = window.data_view
    rows = {dv.variables.item(r, 0).text(): [dv.variables.item(r, c).text() for c in range(5)]
            for r in range(dv.variables.rowCount())}
    assert ".a = Refused" in rows["q1"][3] and rows["q1"][4] == ".a, .b"
    column = dv.model.columns.index("q1")
    assert dv.model.data(dv.model.index(2, column)) == ".a = Refused"


def test_the_share_view_writes_stata_missing_values_as_blanks_and_reports_them(window, qtbot, tmp_path):
    from dpdesk.project.file.store import Project
    from dpdesk.project.reading.importing import import_file

    path = tmp_path / "tagged.dpdesk"
    with Project.create(path) as project:
        import_file(project, DATA / "tagged_missing.dta")
    assert window.open_project(path)
    view = window.share_view
    window.nav.setCurrentRow(window.nav.count() - 1)
    qtbot.waitUntil(lambda: view.table is not None, timeout=20_000)
    view.set_role("grp", "quasi-identifier")
    view.set_role("q1", "sensitive")
    view.run_check()
    qtbot.waitUntil(lambda: view.extract is not None and not view.jobs.running, timeout=20_000)
    view.confirm_failing = lambda fails: True  # a failing extract is still written in this test
    view.export_to(tmp_path / "shared.csv")
    qtbot.waitUntil(lambda: "Wrote shared.csv" in view.status.text(), timeout=20_000)
    shared = pd.read_csv(tmp_path / "shared.csv")
    assert shared["q1"].isna().sum() == 4 and shared["q1"].max() == 5
    report = (tmp_path / "shared.disclosure-report.txt").read_text(encoding="utf-8")
    assert ".a = Refused (2), .b (1)" in report


def test_short_rows_read_and_a_long_row_is_compared_with_the_header(project_window, qtbot, tmp_path):
    from PySide6.QtWidgets import QMessageBox

    short = tmp_path / "short.csv"
    short.write_text("q1,q2,q3\n1,2\n3,4\n5,6,7\n8,9\n")
    dialog = open_import(project_window, qtbot, short)
    assert dialog.table is not None and dialog.table.frame["q3"].tolist()[2] == 7
    dialog.reject()
    wide = tmp_path / "wide.csv"
    wide.write_text("q1,q2,q3\n1,2\n3,4\n5,6,7,8\n")
    dialog = open_import(project_window, qtbot, wide)
    qtbot.waitUntil(lambda: bool(dialog.findChildren(QMessageBox, "errorDialog")), timeout=10_000)
    assert "row 4 has 4 fields but the header has 3 names" in dialog.report.text()
    for box in dialog.findChildren(QMessageBox, "errorDialog"):
        box.close()
