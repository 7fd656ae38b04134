"""Accessibility of the import dialog, mapping dialog and the Data, Results and Export views:
every control has a name and Tab moves through them top to bottom; a counts table maps by respondents."""

from __future__ import annotations

from tests.gui.test_gui_access import _check_names, _check_tab_order



def test_names_and_tab_order(window, qtbot, tmp_path):
    from dpdesk.gui.shell.example_project import build_example
    from dpdesk.project.example import example_folder

    path = build_example(None, tmp_path / "example.dpdesk")
    rv = window.results_view
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        window.open_project(path)
        window.nav.setCurrentRow(2)
    for view in (rv, window.export_view, window.data_view):
        window.views.setCurrentWidget(view)
        _check_names(view)
        _check_tab_order(view)
    with qtbot.waitSignal(window.data_view.dialog_opened, timeout=5_000) as opened:
        window.open_dropped(example_folder() / "students.csv")
    dialog = opened.args[0]
    qtbot.waitUntil(lambda: dialog.table is not None, timeout=30_000)
    assert dialog.dataset_name.text() == "students.csv (2)" or dialog.dataset_name.text() == "students.csv"
    _check_names(dialog)
    _check_tab_order(dialog)
    dialog.open_mapping()
    m = dialog.mapping_dialog
    qtbot.waitUntil(lambda: m.status("exam_cheating") != "checking" and "exam_cheating" in m.reports, timeout=10_000)
    _check_names(m)
    m.reject()
    dialog.reject()


def test_counts_table_values_count_respondents(tmp_path):
    from dpdesk.project.reading.importing import distinct_values
    from dpdesk.project.reading.table import read_table

    path = tmp_path / "counts.csv"
    path.write_text("response,count\nyes,120\nno,480\nmaybe,3\n")
    table = read_table(path, kind="counts")
    assert [(v, n) for v, _label, n in distinct_values(table, table.report.response_column)] == [
        ("no", 480), ("yes", 120), ("maybe", 3)]
