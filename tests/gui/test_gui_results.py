"""Results view on the example project: estimates, sentences, forest plot with direct questions, subgroups."""

from __future__ import annotations

import pytest

from tests.helpers.gui import shot


@pytest.fixture
def example(tmp_path):
    from dpdesk.gui.shell.example_project import build_example

    return build_example(None, tmp_path / "example.dpdesk")


def _open_with_results(window, qtbot, path):
    rv = window.results_view
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        window.open_project(path)
        window.nav.setCurrentRow(2)  # results are computed when the Results view is shown
    return rv


def test_results_of_the_example(window, qtbot, example):
    rv = _open_with_results(window, qtbot, example)
    rs = rv.current
    assert not rv.stale and rv.content.isEnabled()
    assert rv.state.text().startswith("Up to date")
    label = {r.item: r.label for r in rs.results}  # output names an item by its question
    assert label["exam_cheating"] == "In the last year, have you cheated in an exam?"
    items = [r["item"] for r in rs.estimates]
    assert items[:2] == [label["exam_cheating"], label["plagiarism"]] and label["drug_use"] in items
    for row in rs.estimates:
        if row["estimate"] is not None and "[" not in row["item"]:
            assert row["CI low"] <= row["estimate"] <= row["CI high"]
            assert row["n"] > 0 and row["excluded"] > 0  # the direct-question quarter is left out and counted
    assert any("We estimate that" in s and "CI" in s for s in rs.sentences)
    shown = rv.document_view.toPlainText()
    assert "(exam_cheating)" in shown and "We estimate that" in shown  # one sentence per item, naming it
    cheat = rs.results[0].estimate
    assert f"{100 * cheat.prevalence:.1f}" in shown and repr(float(cheat.prevalence)) not in shown
    assert "Forced response" in shown and "Feldman & Cousins, 1998" in shown and "fingerprint SHA-256" in shown
    # direct questions preselected from the example's items: RR and direct rows beside each other
    kinds = {(r["item"], r["kind"]) for r in rs.forest}
    assert (rs.names["exam_cheating"], "direct question") in kinds
    assert (rs.names["drug_use"], "randomized response") in kinds
    assert len(rs.direct) == 3 and all(0 <= d["p-value (RR > direct)"] <= 1 for d in rs.direct)
    assert all(d["n direct"] + d["not counted"] == 1200 for d in rs.direct)  # the RR rows are blank here
    assert rv.forest.model.rowCount() == len(rs.forest) == 6  # the table beside the plot
    window.nav.setCurrentRow(2)
    window.resize(1200, 900)
    shot(window, "results")
    shot(rv.forest, "results_forest_plot")


def test_options_recompute_and_stale_results_are_greyed(window, qtbot, example):
    rv = _open_with_results(window, qtbot, example)
    old = rv.current
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        rv.by.setCurrentIndex(rv.by.findData("faculty"))
        assert rv.stale and not rv.content.isEnabled()  # never shown as current while updating
        assert rv.state.text().startswith("Updating")
        assert not window.export_view.xlsx_button.isEnabled()
    rs = rv.current
    assert rs is not old and rs.options.by == "faculty"
    labels = {r["subgroup"] for r in rs.subgroups if r["item"] == rs.results[0].label}
    assert {"Arts", "Law", "Medicine", "Science"} <= labels
    diffs = [r for r in rs.subgroups if " - " in str(r["subgroup"])]
    assert diffs and all(0 <= r["p-value"] <= 1 and r["CI low"] <= r["estimate"] <= r["CI high"] for r in diffs)
    assert rs.tests and "faculty" in rs.tests[0]
    assert rv.subgroup_plot.isVisibleTo(rv) and rv.subgroup_plot.model.rowCount() == len(rs.subgroup_plot)
    # the interval method changes the intervals
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        rv.ci.setCurrentIndex(rv.ci.findData("wald"))
    assert "Wald" in rv.current.estimates[0]["CI method"]
    window.nav.setCurrentRow(2)
    window.resize(1200, 900)
    rv.scroll_to("Subgroups by faculty")
    shot(window, "results_subgroups")
    shot(rv.subgroup_plot, "results_subgroup_plot")


def test_multi_category_item_as_bars_with_its_table(window, qtbot, tmp_path):
    """A forced-response item with three categories: imported through the dialog, shown as bars + table."""
    import numpy as np

    from dpdesk.mechanisms import rr

    rng = np.random.default_rng(3)
    answers = rng.choice(["never", "once", "often"], 600, p=[0.55, 0.3, 0.15])
    path = tmp_path / "drinking.csv"
    path.write_text("id,drinks,faculty\n" + "".join(f"{i},{a},{'AB'[i % 2]}\n" for i, a in enumerate(answers)))
    window.create_project(tmp_path / "multi.dpdesk")
    design = rr.design("forced_multi", p_truth=0.7, p_forced=[0.1, 0.1, 0.1], categories=["never", "once", "often"])
    window.project.add_item("binge", design, question="How often did you drink 6 or more glasses at once?")
    window.project_changed.emit(window.project)  # the views read the new item
    with qtbot.waitSignal(window.data_view.dialog_opened, timeout=5_000) as opened:
        window.open_dropped(path)
    dialog = opened.args[0]
    qtbot.waitUntil(lambda: dialog.table is not None, timeout=30_000)
    dialog.open_mapping()
    m = dialog.mapping_dialog
    with qtbot.waitSignal(m.jobs.done, timeout=10_000, check_params_cb=lambda res: res[0] == "check"):
        m.column.setCurrentIndex(m.column.findData("drinks"))  # values match the categories by name
    assert m.status("binge") == "ready", m.report.text()
    m.accept()
    rv = window.results_view
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        with qtbot.waitSignal(dialog.imported, timeout=30_000):
            dialog.start_import()
        window.nav.setCurrentRow(2)
    rows = rv.current.bars["binge"]
    assert [r["category"] for r in rows] == ["never", "once", "often"]
    assert sum(r["estimate"] for r in rows) == pytest.approx(1.0)
    assert all(r["CI low"] <= r["estimate"] <= r["CI high"] for r in rows)
    panel = rv.bars["binge"]
    assert panel.model.rowCount() == 3 and not rv.forest.isVisibleTo(rv)  # no yes/no item: no forest plot
    shot(panel, "results_categories_plot")


def test_editing_items_makes_results_stale_and_recomputes(window, qtbot, example):
    rv = _open_with_results(window, qtbot, example)
    assert len(rv.current.forest) == 6
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        window.design_view.table.selectRow(2)
        window.design_view.remove_selected()  # an undoable change in Design
        assert rv.stale and not rv.content.isEnabled()
    names = rv.current.names
    assert [r["item"] for r in rv.current.forest if r["kind"] == "randomized response"] == [names["exam_cheating"],
                                                                                             names["plagiarism"]]
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        window.undo_stack.undo()
    assert len(rv.current.forest) == 6


def test_bootstrap_runs_item_by_item_and_a_new_option_replaces_it(window, qtbot, example):
    rv = _open_with_results(window, qtbot, example)
    rv.ci.setCurrentIndex(rv.ci.findData("bootstrap"))
    job = rv.jobs.current
    assert job is not None and rv.stale
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        rv.confidence.setCurrentIndex(rv.confidence.findData(0.90))  # replaces the bootstrap run
    assert job.cancelled and job.wait(60)  # the replaced run stops at the next item
    assert rv.current.options.ci == "bootstrap" and rv.current.options.confidence == 0.90
    assert all(r["confidence"] == 0.90 for r in rv.current.estimates if r["estimate"] is not None)
    assert "bootstrap" in rv.current.estimates[0]["CI method"]
