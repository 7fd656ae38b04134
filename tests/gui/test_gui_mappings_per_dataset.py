"""Two datasets with different column names (issue 20): each keeps its mapping when the active
dataset is switched with the mouse, and an item not mapped in the active one shows a Map button."""

from __future__ import annotations

import pandas as pd
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from dpdesk.mechanisms import rr
from tests.helpers.gui import shot

WARNER = rr.design("warner", p=0.7)


@pytest.fixture
def study(tmp_path):
    """wave1.csv maps 'cheating' to q7 (Yes/No); wave2.csv (ai_cw, 1/2) is active and not mapped."""
    from dpdesk.project import Project
    from dpdesk.project.reading.importing import import_file

    pd.DataFrame({"q7": ["Yes"] * 60 + ["No"] * 140}).to_csv(tmp_path / "wave1.csv", index=False)
    pd.DataFrame({"ai_cw": [1] * 120 + [2] * 180, "gender": ["f", "m"] * 150}).to_csv(tmp_path / "wave2.csv",
                                                                                       index=False)
    path = tmp_path / "study.dpdesk"
    with Project.create(path) as p:
        import_file(p, tmp_path / "wave1.csv")
        p.add_item("cheating", WARNER, column="q7", codes={"yes": ["Yes"], "no": ["No"]},
                   question="Have you cheated in an exam?")
        p.add_item("essay", WARNER, question="Did an AI write one of your essays?")
        import_file(p, tmp_path / "wave2.csv", use=True)
    return path


def choose(qtbot, combo, data) -> None:
    """Open ``combo``'s list with a click, go to the entry holding ``data`` with the arrow keys, press Enter.

    (A click on the entry is ignored offscreen: the list takes no release so soon after it opened.)
    """
    qtbot.mouseClick(combo, Qt.MouseButton.LeftButton)
    view = combo.view()
    qtbot.waitUntil(view.isVisible, timeout=5_000)
    qtbot.keyClick(view, Qt.Key.Key_Home)
    for _ in range(combo.findData(data)):
        qtbot.keyClick(view, Qt.Key.Key_Down)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not view.isVisible(), timeout=5_000)
    assert combo.currentData() == data


def go_to(window, qtbot, row: int) -> None:
    """Click the task ``row`` in the left column."""
    item = window.nav.item(row)
    qtbot.mouseClick(window.nav.viewport(), Qt.MouseButton.LeftButton, pos=window.nav.visualItemRect(item).center())
    assert window.nav.currentRow() == row


def _estimates(rs) -> dict:
    return {r.item: (r.estimate.n if r.estimate is not None else None) for r in rs.results}


def test_switching_datasets_keeps_both_mappings_and_a_map_button_maps_the_rest(window, qtbot, study):
    rv = window.results_view
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None) as got:
        window.open_project(study)
        go_to(window, qtbot, 2)  # Results
    assert _estimates(got.args[0]) == {"cheating": None, "essay": None}
    bar = rv.not_mapped
    assert bar.isVisible() and set(bar.buttons) == {"cheating", "essay"}
    assert "not mapped in this dataset" in bar.grid.itemAt(0).widget().text()
    assert "no estimate (" not in rv.document_view.toPlainText() if hasattr(rv.document_view, "toPlainText") else True
    shot(window, "results_not_mapped")
    window.resize(1024, 700)
    shot(window, "results_not_mapped_1024")

    # Map… opens the mapping dialog for the active dataset, on that item
    qtbot.mouseClick(bar.buttons["cheating"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.data_view.mapping is not None and window.data_view.mapping.isVisible(),
                    timeout=30_000)
    m = window.data_view.mapping
    assert m.dataset == "wave2.csv" and m.current == "cheating" and "wave2.csv" in m.windowTitle()
    with qtbot.waitSignal(m.jobs.done, timeout=10_000, check_params_cb=lambda res: res[0] == "values"):
        choose(qtbot, m.column, "ai_cw")
    qtbot.waitUntil(lambda: m.codes.rowCount() == 2, timeout=10_000)
    for value, response in ((1, "yes"), (2, "no")):
        with qtbot.waitSignal(m.jobs.done, timeout=10_000, check_params_cb=lambda res: res[0] == "check"):
            choose(qtbot, m.codes.combo(value), response)
    qtbot.waitUntil(lambda: m.status("cheating") == "ready", timeout=10_000)
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None) as got:
        qtbot.mouseClick(m.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert _estimates(got.args[0]) == {"cheating": 300, "essay": None}
    assert set(bar.buttons) == {"essay"}

    # back and forth between the datasets with the mouse: each keeps its mapping and its estimate
    data = window.data_view
    for dataset, n in (("wave1.csv", 200), ("wave2.csv", 300), ("wave1.csv", 200)):
        go_to(window, qtbot, 1)  # Data
        choose(qtbot, data.datasets, dataset)
        with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None) as got:
            go_to(window, qtbot, 2)
        assert _estimates(got.args[0])["cheating"] == n, dataset
    item = window.project.item("cheating")
    assert {k: v["column"] for k, v in item.mappings.items()} == {"wave1.csv": "q7", "wave2.csv": "ai_cw"}
    go_to(window, qtbot, 0)  # Design lists each item's column in the active dataset
    table = window.design_view.table
    assert [table.item(r, 4).text() for r in range(2)] == ["q7", "not mapped in this dataset"]
    assert table.item(0, 4).toolTip() == "Mapped in: wave1.csv: q7; wave2.csv: ai_cw"
    shot(window, "design_mapped_per_dataset")
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualItemRect(table.item(1, 0)).center())
    qtbot.mouseClick(window.design_view.map_button, Qt.MouseButton.LeftButton)  # Map… for the selected item
    qtbot.waitUntil(lambda: window.data_view.mapping is not None and window.data_view.mapping.isVisible(),
                    timeout=30_000)
    m = window.data_view.mapping
    assert m.dataset == "wave1.csv" and m.current == "essay"
    m.reject()
    go_to(window, qtbot, 2)

    # both waves mapped: "Subgroups by" offers the datasets, compared with the test
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None) as got:
        choose(qtbot, rv.by, "\x00datasets")
    rs = got.args[0]
    cheating = next(r for r in rs.results if r.item == "cheating")
    assert set(cheating.subgroups.estimates) == {"wave1.csv", "wave2.csv"}
    direct = rr.estimate_by(WARNER, {"wave1.csv": [140, 60], "wave2.csv": [180, 120]})
    assert cheating.subgroups.test.p_value == pytest.approx(direct.test.p_value, abs=1e-12)
    assert any("every dataset has the same prevalence" in t for t in rs.tests)
    rv.scroll_to("Subgroups by dataset")
    shot(window, "results_by_dataset_1024")


def test_a_second_wave_maps_itself_and_the_import_dialog_says_so(window, qtbot, study, tmp_path):
    from tests.gui.test_gui_data import open_import

    window.open_project(study)
    pd.DataFrame({"q7": ["Yes", "No", "No", ""]}).to_csv(tmp_path / "wave3.csv", index=False)
    dialog = open_import(window, qtbot, tmp_path / "wave3.csv")
    text = dialog.mapping_label.text()
    assert text == "1 of 2 items mapped automatically: cheating → q7 (the same column name as in 'wave1.csv')."
    shot(dialog, "import_dialog_mapped_automatically")
    with qtbot.waitSignal(dialog.imported, timeout=30_000):
        qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert "1 item(s) mapped automatically" in window.statusBar().currentMessage()
    item = window.project.item("cheating", "wave3.csv")
    assert item.column == "q7" and item.codes == {"yes": ["Yes"], "no": ["No"]}
    assert window.project.item("cheating", "wave1.csv").column == "q7"


def test_undo_changes_the_dataset_it_mapped_and_removing_an_item_keeps_every_mapping(qtbot, study):
    from PySide6.QtGui import QUndoStack

    from dpdesk.gui.shell import commands
    from dpdesk.project import Project
    from dpdesk.project.study.active import set_active_dataset

    with Project.open(study) as p:
        stack = QUndoStack()
        commands.push(stack, commands.EditMappings(p, {"cheating": {"column": "ai_cw", "codes": {"yes": [1], "no": [2]}}}))
        assert p.item("cheating", "wave2.csv").column == "ai_cw"
        set_active_dataset(p, "wave1.csv")  # another dataset is active when the change is undone
        stack.undo()
        assert not p.item("cheating", "wave2.csv").mapped and p.item("cheating", "wave1.csv").column == "q7"
        stack.redo()
        commands.push(stack, commands.RemoveItem(p, "cheating"))
        assert [it.name for it in p.items()] == ["essay"]
        stack.undo()
        assert {k: v["column"] for k, v in p.item("cheating").mappings.items()} == {"wave1.csv": "q7",
                                                                                    "wave2.csv": "ai_cw"}
