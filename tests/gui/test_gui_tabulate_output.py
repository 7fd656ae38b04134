"""Tabulate output: a cross-tab as a grid with derived margins, intervals on demand, copy and
export of current and ledger releases, a mean's interval, refusals in words, column defaults."""

from __future__ import annotations

from fractions import Fraction

import openpyxl
import pandas as pd
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from tests.gui.test_gui_tabulate import FACULTIES, open_tabulate, survey_frame
from tests.gui.test_gui_tabulate import make_project as survey_project
from tests.helpers.gui import choose_in_context_menu, shot


def make_project(folder):
    """The Tabulate tests' survey with a respondent id and a time stamp first, genders capitalised."""
    frame = survey_frame(genders=("Female", "Male"))
    frame.insert(0, "ResponseId", [f"R_{i:015d}" for i in range(len(frame))])
    frame.insert(1, "StartDate", pd.to_datetime("2024-03-01") + pd.to_timedelta(range(len(frame)), unit="min"))
    return survey_project(folder, frame)


@pytest.fixture
def view(window, tmp_path, qtbot):
    v = open_tabulate(window, make_project(tmp_path))
    assert v.apply_budget(Fraction(2))
    return v


def release(v, qtbot):
    with qtbot.waitSignal(v.released, timeout=20000) as blocker:
        v.release_button.click()
    qtbot.waitUntil(lambda: not v._releasing, timeout=5000)
    return blocker.args[0][-1]


def crosstab(v, epsilon=0.5):
    f = v.form
    f.statistic.setCurrentIndex(2)
    f.axis1.column.setCurrentText("gender")
    f.axis1.values.setText("Female, Male")
    f.axis2.column.setCurrentText("faculty")
    f.axis2.values.setText(", ".join(FACULTIES))
    f.epsilon.setValue(epsilon)
    v.update_preview()


def test_columns_never_default_to_identifiers_or_time_stamps(view):
    f = view.form
    for combo in (f.axis1.column, f.axis2.column, f.column):
        assert combo.currentText() not in ("ResponseId", "StartDate")
    assert f.column.currentText() == "age"


def test_crosstab_is_a_grid_with_margins_intervals_copy_and_export(view, window, qtbot, tmp_path):
    crosstab(view)
    entry = release(view, qtbot)
    t = view.result.table
    assert (t.rowCount(), t.columnCount()) == (3, 6)  # 2 genders + Total, label + 4 faculties + Total
    assert t.horizontalHeaderItem(1).text() == "Arts" and t.horizontalHeaderItem(5).text() == "Total"
    assert t.item(0, 0).text() == "Female" and t.item(2, 0).text() == "Total"
    cell = t.item(0, 1).data(0x0100)
    assert "interval" in t.item(0, 1).toolTip() and not cell.derived
    assert t.item(2, 5).data(0x0100).derived and "derived" in t.item(2, 5).toolTip()
    assert "(" not in t.item(0, 1).text()
    shot(window, "tabulate_crosstab_grid")
    view.result.show_intervals.setChecked(True)
    assert "to" in t.item(0, 1).text()
    shot(view.result, "tabulate_crosstab_grid_intervals")
    view.result.show_intervals.setChecked(False)
    window.resize(1024, 700)
    shot(window, "tabulate_crosstab_grid_1024")
    from tests.gui.test_gui_fit_1024 import clipped_buttons

    assert clipped_buttons(window) == []  # the cross-tab form and Release fit at 1024 x 700
    view.result.show_intervals.setChecked(True)
    view.result.copy()
    mime = QGuiApplication.clipboard().mimeData()
    assert "<table>" in mime.html() and "Female" in mime.text() and "Total" in mime.text()
    # Copy as LaTeX (the report's table of this release) and one cell from the context menu
    qtbot.mouseClick(view.result.latex_button, Qt.MouseButton.LeftButton)
    tex = QGuiApplication.clipboard().text()
    assert tex.startswith(r"\begin{table}") and r"\toprule" in tex and "Arts" in tex and "Total" in tex
    at = t.visualItemRect(t.item(0, 1)).center()
    menu = choose_in_context_menu(qtbot, t.viewport(), at, "Copy cell")
    assert menu == ["Copy cell", "Copy table", "Copy as LaTeX"]
    qtbot.waitUntil(lambda: QGuiApplication.clipboard().text() == t.item(0, 1).text(), timeout=5000)
    path = view.result.export_to(str(tmp_path / "grid.xlsx"))
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == [f"Release {entry.seq}", "About"]
    about = {r[0]: r[1] for r in wb["About"].iter_rows(values_only=True)}
    assert "scale" in about["noise"] and about["privacy cost"].startswith("ε") and "all cells at once" in \
        about["intervals cover"]
    # from the ledger: select it and export it as CSV
    view.ledger_view.table.selectRow(0)
    assert view.ledger_view.export_button.isEnabled()
    monkey = tmp_path / "ledger.csv"
    view.result.export_dialog = lambda: view.result.export_to(str(monkey))
    view.ledger_view.export_button.click()
    text = monkey.read_text(encoding="utf-8-sig")
    assert "intervals cover" in text and "privacy cost" in text and "Female" in text


def test_mean_has_an_interval_and_refusal_speaks_plainly(view, window, qtbot):
    f = view.form
    f.statistic.setCurrentIndex(4)
    f.column.setCurrentText("age")
    f.lower.setText("18")
    f.upper.setText("60")
    f.epsilon.setValue(1)
    view.update_preview()
    release(view, qtbot)
    t = view.result.table
    assert t.horizontalHeaderItem(2).text() == "Interval"
    low, high = (float(x.replace(",", "")) for x in t.item(0, 2).text().split(" to "))
    assert 18 <= low < high <= 60
    assert "both the sum and the count" in view.result.notes.text()
    f.epsilon.setValue(6)
    view.update_preview()
    text = view.reason.text()
    assert "This mean would cost ε = 6; ε = 1 is left" in text
    assert "Details:" in text and "sensitivity" in text and "scale" in text.split("Details:")[1]
    assert "scale" not in text.split("Details:")[0]
    shot(window, "tabulate_mean_refused")


def test_cli_exports_a_release_and_a_ledger_entry(tmp_path, capsys):
    from tests.helpers.cli import run

    path = make_project(tmp_path)
    assert run(capsys, "budget", path, "--set", "1")[0] == 0
    code, out, err = run(capsys, "release", path, "--stat", "mean", "--columns", "age", "--bounds", "18", "60",
                         "--epsilon", "0.5", "--export", tmp_path / "mean.csv")
    assert code == 0 and "interval" in out, err
    assert "intervals cover" in (tmp_path / "mean.csv").read_text(encoding="utf-8-sig")
    code, out, _ = run(capsys, "ledger", path, "--export", "1", tmp_path / "one.xlsx")
    assert code == 0 and "costs nothing" in out
    assert openpyxl.load_workbook(tmp_path / "one.xlsx").sheetnames == ["Release 1", "About"]
    code, _out, err = run(capsys, "ledger", path, "--export", "9", tmp_path / "x.csv")
    assert code != 0 and "no release #9" in err
