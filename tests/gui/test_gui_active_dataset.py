"""One active dataset (issue 13): a second import asks, the status bar names it, every view follows."""

from __future__ import annotations

import pandas as pd
import pytest

from tests.gui.test_gui_data import open_import
from tests.helpers.gui import shot


@pytest.fixture
def two_files(tmp_path):
    first, second = tmp_path / "wave1.csv", tmp_path / "wave2.csv"
    pd.DataFrame({"faculty": ["Law", "Arts"] * 30, "age": range(60)}).to_csv(first, index=False)
    pd.DataFrame({"faculty": ["Law", "Medicine"] * 10, "year": range(20)}).to_csv(second, index=False)
    return first, second


def _columns(window) -> list[str]:
    combo = window.tabulate_view.form.axis1.column  # every column (sums and means offer the numeric ones)
    return [combo.itemText(i) for i in range(combo.count())]


def _import(window, qtbot, path, placing=None):
    dialog = open_import(window, qtbot, path)
    if placing is not None:
        assert dialog.placing.isVisibleTo(dialog)
        dialog.placing.setCurrentIndex(dialog.placing.findData(placing))
        shot(dialog, "import_dialog_second_import")
    else:
        assert not dialog.placing.isVisibleTo(dialog)  # nothing to ask about in an empty project
    with qtbot.waitSignal(dialog.imported, timeout=30_000):
        dialog.start_import()
    return dialog


def test_second_import_asks_and_the_views_follow_the_active_dataset(window, qtbot, tmp_path, two_files):
    from dpdesk.project.study.active import active_dataset

    first, second = two_files
    window.create_project(tmp_path / "p.dpdesk")
    _import(window, qtbot, first)
    assert window.dataset_label.text() == "Data: wave1.csv (60 rows)"
    _import(window, qtbot, second, placing="keep")
    assert active_dataset(window.project).name == "wave1.csv"
    assert window.dataset_label.text() == "Data: wave1.csv (60 rows)"
    assert _columns(window) == ["faculty", "age"]
    view = window.data_view
    window.nav.setCurrentRow(1)
    shot(window, "active_dataset")
    view.datasets.setCurrentIndex(view.datasets.findData("wave2.csv"))
    view.datasets.activated.emit(view.datasets.currentIndex())  # as a click does
    assert active_dataset(window.project).name == "wave2.csv"
    assert window.dataset_label.text() == "Data: wave2.csv (20 rows)"
    assert _columns(window) == ["faculty", "year"]
    assert window.results_view.by.findData("year") >= 0


def test_replacing_keeps_the_name_and_the_budget(window, qtbot, tmp_path, two_files):
    from dpdesk.project import ledger

    first, _ = two_files
    window.create_project(tmp_path / "p.dpdesk")
    _import(window, qtbot, first)
    ledger.set_budget(window.project, 1)
    ledger.release(window.project, {"statistic": "count", "epsilon": 0.4})
    corrected = tmp_path / "wave1 corrected.csv"
    corrected.write_text(first.read_text() + "\n")
    dialog = open_import(window, qtbot, corrected)
    dialog.placing.setCurrentIndex(dialog.placing.findData("replace"))
    assert dialog.dataset_name.text() == "wave1.csv" and not dialog.dataset_name.isEnabled()
    with qtbot.waitSignal(dialog.imported, timeout=30_000):
        dialog.start_import()
    assert [d.name for d in window.project.datasets()] == ["wave1.csv"]
    assert ledger.budget_status(window.project).spent_epsilon == pytest.approx(0.4)


def test_importing_respondents_released_from_elsewhere_warns(window, qtbot, tmp_path, two_files):
    from PySide6.QtWidgets import QMessageBox

    from dpdesk.project import Project, ledger
    from dpdesk.project.reading.importing import import_file

    first, _ = two_files
    other = tmp_path / "other.dpdesk"
    with Project.create(other) as p:
        import_file(p, first)
        ledger.set_budget(p, 1)
        ledger.release(p, {"statistic": "count", "epsilon": 0.3})
    window.create_project(tmp_path / "p.dpdesk")
    _import(window, qtbot, first)
    box = next(w for w in window.findChildren(QMessageBox) if w.objectName() == "messageDialog")
    assert "released from before" in box.text() and str(other.resolve()) in box.informativeText()
    shot(box, "import_seen_before")
    box.accept()
