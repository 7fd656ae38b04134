"""Every view follows the project, whatever dataset is active (issue 20, section 1).

Two datasets in one project (a CSV and an SPSS file), a release, then switching the active
dataset back and forth with the keyboard: the budget meter shows the project's spending
(one budget covers every dataset), SPSS value labels read "1 = Yes" (never "1.0 = Yes"),
and the Tabulate form's bounds belong to the column chosen, sums and means are offered
for numeric columns only, and a reopened project shows no "would exceed" preview for a
form nobody filled.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest
from PySide6.QtCore import Qt

from dpdesk.gui.shell.tasks import TASKS
from tests.gui.test_gui_data import open_import

DATA = Path(__file__).resolve().parents[1] / "data"
SPENT = Fraction(95, 100)


@pytest.fixture
def waves(tmp_path):
    path = tmp_path / "wave1.csv"
    pd.DataFrame({"faculty": ["Law", "Arts", "Medicine"] * 40, "Progress": [17 + i % 24 for i in range(120)],
                  "age": [18 + i % 30 for i in range(120)]}).to_csv(path, index=False)
    return path


def import_file(window, qtbot, path):
    dialog = open_import(window, qtbot, path)
    with qtbot.waitSignal(window.data_view.imported, timeout=30_000):
        qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)


def type_into(qtbot, widget, text: str) -> None:
    widget.setFocus()
    qtbot.keyClick(widget, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(widget, Qt.Key.Key_Delete)
    qtbot.keyClicks(widget, text)


def choose(qtbot, combo, text: str) -> None:
    """Pick ``text`` in a combo box with the arrow keys (as a keyboard user does)."""
    target = combo.findText(text)
    assert target >= 0, f"{text!r} is not offered: {[combo.itemText(i) for i in range(combo.count())]}"
    combo.setFocus()
    while combo.currentIndex() != target:
        before = combo.currentIndex()
        qtbot.keyClick(combo, Qt.Key.Key_Down if target > before else Qt.Key.Key_Up)
        assert combo.currentIndex() != before, f"the arrow keys cannot reach {text!r}"


def switch_to(window, qtbot, dataset: str) -> None:
    view = window.data_view
    target = view.datasets.findData(dataset)
    with qtbot.waitSignal(view.dataset_shown, timeout=30_000):
        view.datasets.setFocus()
        qtbot.keyClick(view.datasets, Qt.Key.Key_Down if target > view.datasets.currentIndex() else Qt.Key.Key_Up)
    assert window.dataset_label.text().startswith(f"Data: {dataset} ")


def offered(combo) -> list[str]:
    return [combo.itemText(i) for i in range(combo.count())]


def release_count(window, qtbot, epsilon: str) -> None:
    v = window.tabulate_view
    v.confirm = lambda parent, text: True
    window.nav.setCurrentRow(TASKS.index("Tabulate"))
    type_into(qtbot, v.form.epsilon, epsilon)
    qtbot.waitUntil(v.release_button.isEnabled, timeout=5_000)
    with qtbot.waitSignal(v.released, timeout=30_000):
        qtbot.mouseClick(v.release_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not v._releasing, timeout=5_000)


def assert_meter_shows_the_project(window) -> None:
    state = window.tabulate_view.meter.state
    assert state.spent == SPENT
    assert sum((s.width for s in state.segments), Fraction(0)) == SPENT  # the release is drawn, not blank
    assert "ε = 0.05 left of 1" in window.tabulate_view.meter.label.text()


def test_meter_labels_and_tabulate_follow_the_project_across_datasets(window, qtbot, tmp_path, waves):
    from dpdesk.project import ledger

    window.create_project(tmp_path / "study.dpdesk")
    import_file(window, qtbot, waves)
    ledger.set_budget(window.project, 1)
    window.tabulate_view.refresh()
    release_count(window, qtbot, "0.95")
    assert_meter_shows_the_project(window)

    import_file(window, qtbot, DATA / "survey.sav")  # the default: analyse the new data
    view, form = window.data_view, window.tabulate_view.form
    qtbot.waitUntil(lambda: view.table is not None and "rr1" in view.table.frame.columns, timeout=30_000)
    assert_meter_shows_the_project(window)
    assert window.tabulate_view.meter.state.pending is None  # nothing typed for this dataset yet

    for dataset in ("wave1.csv", "survey.sav", "wave1.csv", "survey.sav"):
        switch_to(window, qtbot, dataset)
        assert_meter_shows_the_project(window)
        if dataset == "wave1.csv":  # a text column is never offered for a sum or mean
            assert offered(form.column) == ["Progress", "age"]
            choose(qtbot, form.statistic, "Mean")
            choose(qtbot, form.column, "Progress")
            type_into(qtbot, form.lower, "17")
            type_into(qtbot, form.upper, "40")
            choose(qtbot, form.column, "age")
            assert (form.lower.text(), form.upper.text()) == ("", "")  # age's own (none typed yet)
            choose(qtbot, form.column, "Progress")
            assert (form.lower.text(), form.upper.text()) == ("17", "40")
        else:
            rows = {view.variables.item(r, 0).text(): view.variables.item(r, 3).text()
                    for r in range(view.variables.rowCount())}
            assert rows["rr1"] == "0 = No; 1 = Yes; 98 = Refused; 99 = Don't know"
            assert rows["grp"] == "1 = Group A; 2 = Group B"
            col = view.model.columns.index("grp")
            assert view.model.index(0, col).data() == "1 = Group A"
            assert "17" not in (form.lower.text(), form.upper.text())  # never another column's bounds
            choose(qtbot, form.column, "grp")
            assert (form.lower.text(), form.upper.text()) == ("1", "2")  # declared by its value labels
            choose(qtbot, form.column, "rr1")
            assert (form.lower.text(), form.upper.text()) == ("0", "1")  # 98 and 99 are missing codes

    # a preview of 0.1 is hatched after what was spent, and red: it does not fit
    choose(qtbot, form.statistic, "Count")
    type_into(qtbot, form.epsilon, "0.1")
    meter = window.tabulate_view.meter
    qtbot.waitUntil(lambda: meter.state.pending is not None, timeout=5_000)
    assert meter.state.warning and not meter.state.pending_fits
    parts = meter.bar.parts()
    spent_right = max(r.right() for r, _s, kind in parts if kind == "spent")
    pending_left = next(r.left() for r, _s, kind in parts if kind == "pending")
    assert pending_left == pytest.approx(spent_right)
    assert spent_right > 0.9 * meter.bar.width()

    # reopened: no "would exceed" for a form nobody filled
    path = window.project.path
    window.close_project()
    assert window.open_project(path)
    assert_meter_shows_the_project(window)
    assert meter.state.pending is None and not meter.state.warning


def test_a_dataset_without_numbers_offers_no_sum_or_mean(window, qtbot, tmp_path):
    path = tmp_path / "words.csv"
    pd.DataFrame({"faculty": ["Law", "Arts"] * 20, "gender": ["f", "m", "x", "f"] * 10}).to_csv(path, index=False)
    window.create_project(tmp_path / "words.dpdesk")
    import_file(window, qtbot, path)
    form = window.tabulate_view.form
    items = form.statistic.model()
    enabled = {form.statistic.itemText(i): items.item(i).isEnabled() for i in range(form.statistic.count())}
    assert enabled == {"Count": True, "Histogram": True, "Cross-tab": True, "Sum": False, "Mean": False,
                       "Median": False}
    assert offered(form.column) == []
