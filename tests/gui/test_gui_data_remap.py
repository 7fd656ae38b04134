"""Mapping items to the data after an import, as one undoable step (Edit > Undo / Redo)."""

from __future__ import annotations



def test_remap_an_item_then_undo_and_redo(window, qtbot, tmp_path):
    from dpdesk.mechanisms import rr
    from dpdesk.project.reading.importing import import_file

    csv = tmp_path / "answers.csv"
    csv.write_text("q1,q2\nYes,Ja\nNo,Nein\nYes,Nein\n", encoding="utf-8")
    window.create_project(tmp_path / "survey.dpdesk")
    project = window.project
    project.add_item("cheating", rr.design("warner", p=0.7), column="q1", codes={"no": ["No"], "yes": ["Yes"]})
    import_file(project, csv, name="answers")
    dv = window.data_view
    with qtbot.waitSignal(dv.dataset_shown, timeout=30_000):
        window.project_changed.emit(project)
    assert dv.map_button.isEnabled()

    m = dv.mapping_dialog()
    qtbot.waitUntil(lambda: m.reports.get("cheating") is not None, timeout=10_000)  # the stored mapping, checked
    with qtbot.waitSignal(m.jobs.done, timeout=10_000, check_params_cb=lambda res: res[0] == "check"):
        m.column.setCurrentIndex(m.column.findData("q2"))
    for value, response in (("Ja", "yes"), ("Nein", "no")):  # matched by the words "Ja" and "Nein"
        assert m.codes.combo(value).currentData() == response
    assert m.ready()
    m.accept()
    item = project.item("cheating")
    assert item.column == "q2" and item.codes["yes"] == ["Ja"]

    window.undo_stack.undo()
    item = project.item("cheating")
    assert item.column == "q1" and item.codes == {"no": ["No"], "yes": ["Yes"]}
    window.undo_stack.redo()
    assert project.item("cheating").column == "q2"


def test_the_mapping_dialog_fits_a_1024_by_700_screen(window, qtbot, tmp_path):
    """The walk opened Map items 1,398 px wide (its first line never wrapped): OK half visible, Cancel off screen."""
    from dpdesk.mechanisms import rr
    from dpdesk.project.reading.importing import import_file

    csv = tmp_path / "answers.csv"
    csv.write_text("q1\nYes\nNo\n", encoding="utf-8")
    window.create_project(tmp_path / "survey.dpdesk")
    project = window.project
    question = "Have you ever taken drugs at work or come to work under their influence in the last twelve months?"
    project.add_item("taken_drugs_at_work_in_the_last_twelve_months", rr.design("warner", p=0.7), question=question)
    import_file(project, csv, name="answers")
    dv = window.data_view
    with qtbot.waitSignal(dv.dataset_shown, timeout=30_000):
        window.project_changed.emit(project)
    m = dv.mapping_dialog()
    assert m.minimumSizeHint().width() <= 1000 and m.minimumSizeHint().height() <= 680
    m.reject()
