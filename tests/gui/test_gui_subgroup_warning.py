"""Results view: the warning bar over exact subgroup counts of a protected column, and leaving out
small groups (the export follows)."""

from __future__ import annotations

import csv

import pytest

from dpdesk.gui.shell.tasks import TASKS
from tests.helpers.gui import shot


@pytest.fixture
def example(tmp_path):
    from dpdesk.gui.shell.example_project import build_example

    return build_example(None, tmp_path / "example.dpdesk")


def _current(rv, qtbot, change):
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        change()
    return rv.current


def test_protected_subgroup_column_warns_and_small_groups_can_be_left_out(window, qtbot, example, tmp_path):
    from dpdesk.project import Project
    from dpdesk.project.sharing.column_protection import set_protected_columns

    with Project.open(example) as p:
        set_protected_columns(p, ["faculty"])
    rv = window.results_view
    _current(rv, qtbot, lambda: (window.open_project(example), window.nav.setCurrentRow(2)))
    bar = rv.subgroup_warning
    assert not bar.isVisibleTo(rv)  # no subgroups yet: nothing to warn about
    rs = _current(rv, qtbot, lambda: rv.by.setCurrentIndex(rv.by.findData("faculty")))
    assert rs.subgroup_warning is not None and bar.isVisibleTo(rv)
    assert "'faculty' is protected (marked as protected in the project)" in bar.text.text()
    assert bar.size.value() == 5 and not bar.leave_out.isChecked()
    sizes = {r["subgroup"]: r["n"] for r in rs.subgroups if r["item"] == rs.results[0].label and r["n"] is not None}
    smallest = min(sizes, key=sizes.get)
    assert "Note: Subgroups by 'faculty' show exact counts" in window.export_view.state.text()
    window.resize(1200, 900)
    shot(window, "results_subgroup_warning")
    # leave out the smallest faculty: a new analysis, and the export follows it
    bar.size.setValue(sizes[smallest] + 1)  # not checked yet: no new run
    assert not rv.stale
    rs = _current(rv, qtbot, lambda: bar.leave_out.setChecked(True))
    assert rs.options.min_group == sizes[smallest] + 1
    shown = {r["subgroup"] for r in rs.subgroups if r["item"] == rs.results[0].label}
    assert smallest not in shown and not any(smallest in str(s) for s in shown)
    assert "are left out" in bar.text.text()
    window.resize(1024, 700)
    shot(window, "results_subgroup_warning_1024")
    out = tmp_path / "res.csv"
    with qtbot.waitSignal(window.export_view.jobs.done, timeout=30_000):
        window.export_view.export(out)
    with open(tmp_path / "res_by_faculty.csv", encoding="utf-8-sig", newline="") as handle:
        assert not any(smallest in row[1] for row in csv.reader(handle))
    window.nav.setCurrentRow(TASKS.index("Export"))
    window.export_view._on_results(rv.current)
    assert "are left out" in window.export_view.state.text()
    shot(window, "export_subgroup_note_1024")
    window.nav.setCurrentRow(2)
    # unchecking shows every group again
    rs = _current(rv, qtbot, lambda: bar.leave_out.setChecked(False))
    assert smallest in {r["subgroup"] for r in rs.subgroups}
