"""The mapping dialog in the respondent's words: a crosswise item from an SPSS file whose value
labels say "same"/"different"; missing codes left out; a mapping against the labels refused."""

from __future__ import annotations

import pytest

from tests.gui.test_gui_data import open_import
from tests.helpers.gui import shot


@pytest.fixture
def crosswise_window(window, tmp_path):
    from dpdesk.mechanisms import rr

    window.create_project(tmp_path / "survey.dpdesk")
    window.project.add_item("plagiarism", rr.design("crosswise", p=0.25),
                            question="Have you ever handed in copied work without citing it?")
    window.project.add_item("cheating", rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25),
                            question="Have you cheated in an exam?")
    window.project_changed.emit(window.project)
    return window


@pytest.fixture
def sav(tmp_path):
    import pandas as pd
    import pyreadstat

    path = tmp_path / "welle2.sav"
    cw = [1.0, 2, 2, 1, 2, 8, 2, 2, 1, 2, None, 2] * 5
    fr = [1.0, 2, 2, 2, 1, 2, 9, 2, 1, 2, 2, 2] * 5
    frame = pd.DataFrame({"resp": [float(i + 1) for i in range(len(cw))], "q_cw": cw, "q_fr": fr})
    pyreadstat.write_sav(frame, str(path), column_labels=["Respondent", "Crosswise: plagiarism", "Exam cheating"],
                         variable_value_labels={
                             "q_cw": {1: "Both answers are the same", 2: "The answers are different", 8: "Refused"},
                             "q_fr": {1: "Ja", 2: "Nein", 9: "Weiß nicht"}},
                         missing_ranges={"q_cw": [8], "q_fr": [9]})
    return path


def test_crosswise_codes_in_the_respondents_words(crosswise_window, qtbot, sav):
    dialog = open_import(crosswise_window, qtbot, sav)
    dialog.open_mapping()
    m = dialog.mapping_dialog
    m.resize(900, 620)
    with qtbot.waitSignal(m.jobs.done, timeout=10_000, check_params_cb=lambda res: res[0] == "check"):
        m.column.setCurrentIndex(m.column.findData("q_cw"))
    # the combo boxes offer what respondents ticked, matched to the file's value labels
    texts = [m.codes.combo(1).itemText(i) for i in range(m.codes.combo(1).count())]
    assert texts == ["(not counted)", "The answers are different", "Both answers are the same"]
    assert m.codes.combo(1).currentData() == "yes" and m.codes.combo(2).currentData() == "no"
    assert m.codes.combo(8).currentText() == "(missing: left out)"
    report = m.reports["plagiarism"]
    assert report.counts == [35, 15] and report.n_missing == 10  # 5 refused, 5 blank
    assert m.status("plagiarism") == "ready"
    text = m.report.text()
    assert "“The answers are different” 35, “Both answers are the same” 15" in text
    assert "10 missing answer(s) left out" in text and "user-missing code (Refused)" in text
    assert "“Both answers are the same”" in m.about.text()
    shot(m, "mapping_dialog")
    m.resize(1024, 700)
    shot(m, "mapping_dialog_1024")
    m.resize(900, 620)

    # mapping "same" to "different" would invert the estimate: said so, and OK stays off
    with qtbot.waitSignal(m.jobs.done, timeout=10_000, check_params_cb=lambda res: res[0] == "check"):
        m.codes.assign(1, "no")
    assert m.status("plagiarism") == "problems" and not m.ready()
    assert "would be inverted" in m.report.text() and "labelled 'Both answers are the same'" in m.report.text()
    assert "plagiarism — needs fixing" == m.item_list.item(0).text()
    shot(m, "mapping_dialog_conflict")
    with qtbot.waitSignal(m.jobs.done, timeout=10_000, check_params_cb=lambda res: res[0] == "check"):
        m.codes.assign(1, "yes")
    assert m.status("plagiarism") == "ready"

    # the second item: German labels matched to Yes/No; "Weiß nicht" is a missing code
    with qtbot.waitSignal(m.jobs.done, timeout=10_000, check_params_cb=lambda res: res[0] == "values"):
        m.item_list.setCurrentRow(1)
    with qtbot.waitSignal(m.jobs.done, timeout=10_000, check_params_cb=lambda res: res[0] == "check"):
        m.column.setCurrentIndex(m.column.findData("q_fr"))
    assert m.codes.combo(1).currentText() == "Yes" and m.codes.combo(2).currentText() == "No"
    # the researcher may count a missing code as an answer after all
    with qtbot.waitSignal(m.jobs.done, timeout=10_000, check_params_cb=lambda res: res[0] == "check"):
        m.codes.assign(9, "no")
    assert m.reports["cheating"].n_missing == 0 and m.ready()
    m.accept()
    with qtbot.waitSignal(dialog.imported, timeout=30_000):
        dialog.start_import()
    project = crosswise_window.project
    assert project.item("plagiarism").codes == {"no": [2], "yes": [1]}
    assert sorted(project.item("cheating").codes["no"]) == [2, 9]
