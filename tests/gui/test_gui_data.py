"""Import in the app: a messy file (cp1252, ';', decimal commas) with overrides, a mapping problem
fixed in the mapping dialog, the data view; a cancelled import leaves the project as it was."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.helpers.gui import shot

ANSWERS = ["Ja", "Nein", "Nein", "ja ", "Nein", "J", "", "Nein", "Ja", "Nein"]


@pytest.fixture
def messy(tmp_path):
    """A European export: Windows-1252, semicolons, decimal commas, an e-mail column, a typo "J"."""
    lines = ["Befragte;E-Mail;Fakultät;Note;Frage_7;Gruppe"]
    for i in range(60):
        answer = ANSWERS[i % len(ANSWERS)]
        faculty = ["Jura", "Medizin", "Ökonomie"][i % 3]
        lines.append(f"{i + 1};p{i}@uni.example;{faculty};{1 + (i % 4)},{i % 10};{answer};{1 + i % 2}")
    path = tmp_path / "umfrage.csv"
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("cp1252"))
    return path


@pytest.fixture
def project_window(window, tmp_path):
    from dpdesk.mechanisms import rr

    window.create_project(tmp_path / "survey.dpdesk")
    window.project.add_item("cheating", rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25),
                            question="Have you cheated in an exam?")
    window.project_changed.emit(window.project)  # the views read the new item
    return window


def _read(dialog, qtbot, **changes):
    with qtbot.waitSignal(dialog.jobs.done, timeout=30_000):
        for key, value in changes.items():
            combo = dialog.combos[key]
            combo.setCurrentIndex(combo.findData(value))
        dialog.reread() if changes else None
    return dialog.table


def open_import(window, qtbot, path):
    """Open the import dialog for ``path`` (as a drop does) and wait for the preview."""
    from dpdesk.gui.dialogs.import_data import ImportDialog

    with qtbot.waitSignal(window.data_view.dialog_opened, timeout=5_000) as opened:
        window.open_dropped(path)
    dialog: ImportDialog = opened.args[0]
    qtbot.waitUntil(lambda: dialog.table is not None, timeout=30_000)
    return dialog


def test_messy_file_with_overrides_and_a_mapping_fixed_in_the_dialog(project_window, qtbot, messy):
    window = project_window
    dialog = open_import(window, qtbot, messy)
    r = dialog.table.report
    assert (r.encoding, r.delimiter, r.decimal) == ("cp1252", ";", ",")
    assert "E-Mail" in r.excluded and "E-Mail" in dialog.report.text()
    assert "Keep identifier columns" in dialog.report.text() and "--keep" not in dialog.report.text()  # app words
    assert dialog.combos["delimiter"].itemText(0) == "detected: semicolon ;"
    assert dialog.preview_model.rowCount() == 60 and "Fakultät" in dialog.preview_model.columns
    assert dialog.preview_model.headerData(0, Qt.Orientation.Vertical) == "2"  # row numbers as in the file
    # override the decimal mark: read again, "Note" is now text; back to detected
    _read(dialog, qtbot, decimal=".")
    assert dialog.table.frame["Note"].dtype.kind != "f"  # "2,1" stays text
    _read(dialog, qtbot, decimal=None)
    assert dialog.table.frame["Note"].dtype.kind == "f" and dialog.table.frame["Note"].iloc[1] == pytest.approx(2.1)
    dialog.keep_ids.setChecked(True)  # reads again, keeping the e-mail column
    qtbot.waitUntil(lambda: dialog.table is not None and "E-Mail" in dialog.table.frame.columns, timeout=30_000)
    with qtbot.waitSignal(dialog.jobs.done, timeout=30_000):
        dialog.keep_ids.setChecked(False)
    assert "E-Mail" not in dialog.table.frame.columns
    shot(dialog, "import_dialog")

    # map the item: codes from the column's values; "J" matches nothing, a blank is missing
    dialog.open_mapping()
    m = dialog.mapping_dialog
    with qtbot.waitSignal(m.jobs.done, timeout=10_000, check_params_cb=lambda res: res[0] == "check"):
        m.column.setCurrentIndex(m.column.findData("Frage_7"))
    assert {"Ja", "Nein", "J"} <= set(m.codes.values) and len(m.codes.values) == 4
    lower_ja = next(v for v in m.codes.values if str(v).strip() == "ja")
    # matched to the respondent's words automatically (German "Ja"/"Nein" are translations of Yes/No)
    for value, response in (("Ja", "yes"), (lower_ja, "yes"), ("Nein", "no"), ("J", None)):
        assert m.codes.combo(value).currentData() == response, value
    assert m.codes.combo("Nein").currentText() == "No"
    shot(m, "mapping_dialog_yes_no")
    report = m.reports["cheating"]
    assert report.n_unmatched == 6 and report.n_missing == 6  # "J" and the blanks, with their rows
    assert m.status("cheating") == "problems" and not m.ready()  # only "J" needs fixing
    assert "match no code" in m.report.text() and "rows 7, 17" in m.report.text()
    assert "6 missing answer(s) left out" in m.report.text() and "6 blank" in m.report.text()
    with qtbot.waitSignal(m.jobs.done, timeout=10_000, check_params_cb=lambda res: res[0] == "check"):
        m.codes.assign("J", "yes")  # fix: "J" means yes
    # the blanks are missing answers: left out and reported, not a problem to fix
    assert m.reports["cheating"].n_unmatched == 0 and m.status("cheating") == "ready" and m.ready()
    assert "cheating — ✓ (6 missing)" == m.item_list.item(0).text()
    assert "a40000" not in m.report.styleSheet()
    m.accept()
    assert dialog.mappings["cheating"]["column"] == "Frage_7"
    assert "1 of 1 items mapped" in dialog.mapping_label.text()

    # import: stored with the mapping, shown in the data view
    with qtbot.waitSignal(dialog.imported, timeout=30_000):
        dialog.start_import()
    project = window.project
    assert [d.name for d in project.datasets()] == ["umfrage.csv"]
    item = project.item("cheating")
    assert item.column == "Frage_7" and sorted(str(c).strip() for c in item.codes["yes"]) == ["J", "Ja", "ja"]
    dv = window.data_view
    assert dv.model.rowCount() == 60 and "E-Mail" not in dv.model.columns
    assert dv.variables.rowCount() == 5
    window.resize(1100, 720)
    shot(window, "data_view")


def test_cancelled_import_leaves_the_project_as_it_was(project_window, qtbot, messy, monkeypatch):
    import threading

    from dpdesk.project.reading import importing

    window = project_window
    dialog = open_import(window, qtbot, messy)
    before = window.project.item("cheating").to_dict()
    dialog.mappings = {"cheating": {"column": "Frage_7", "codes": {"no": ["Nein"], "yes": ["Ja"]},
                                    "group_column": None, "group_codes": None}}
    cancelled, store = threading.Event(), importing.store_import

    def store_after_cancel(*args, **kwargs):  # the worker goes on only once Cancel was pressed
        assert cancelled.wait(30)
        return store(*args, **kwargs)

    monkeypatch.setattr(importing, "store_import", store_after_cancel)
    dialog.start_import()
    job = dialog.store
    dialog.cancel_job()
    cancelled.set()
    assert job.wait(30)
    monkeypatch.setattr(importing, "store_import", store)
    assert window.project.datasets() == []
    assert window.project.item("cheating").to_dict() == before
    assert "nothing was imported" in dialog.status.text()
    # reading can be cancelled too, and then importing works
    dialog.reread()
    dialog.cancel_job()
    assert dialog.table is None and not dialog.import_button.isEnabled()
    with qtbot.waitSignal(dialog.jobs.done, timeout=30_000):
        dialog.reread()
    with qtbot.waitSignal(dialog.imported, timeout=30_000):
        dialog.start_import()
    assert [d.name for d in window.project.datasets()] == ["umfrage.csv"]


def test_lazy_model_over_a_million_rows(qtbot):
    import numpy as np
    import pandas as pd
    from PySide6.QtCore import Qt

    from dpdesk.gui.widgets.table_model import FrameModel

    n = 1_000_000
    frame = pd.DataFrame({"q": np.arange(n) % 3, "t": pd.Series(["a", None] * (n // 2), dtype=object)})
    model = FrameModel(frame, value_labels={"q": {1: "Yes", 0: "No"}}, first_row=2)
    assert model.rowCount() == n and model.columnCount() == 2
    last = model.index(n - 1, 0)
    assert model.data(last) == "0 = No" and model.headerData(n - 1, Qt.Orientation.Vertical) == str(n + 1)
    assert model.data(model.index(1, 1)) == "" and model.data(model.index(1, 1), Qt.ItemDataRole.ToolTipRole) == "blank (missing)"


def test_spss_file_shows_labels_and_missing_codes(project_window, qtbot, tmp_path):
    import pandas as pd
    import pyreadstat

    path = tmp_path / "welle1.sav"
    frame = pd.DataFrame({"resp": [1.0, 2, 3, 4, 5, 6], "q7": [1.0, 2, 1, 98, 2, 1], "sex": [1.0, 2, 2, 1, 1, 2]})
    pyreadstat.write_sav(frame, str(path), column_labels=["Respondent", "Have you cheated in an exam?", "Sex"],
                         variable_value_labels={"q7": {1: "Yes", 2: "No", 98: "Refused"},
                                                "sex": {1: "female", 2: "male"}},
                         missing_ranges={"q7": [98]})
    window = project_window
    dialog = open_import(window, qtbot, path)
    assert dialog.table.report.format == "sav"
    assert dialog.preview_model.data(dialog.preview_model.index(0, 1)) == "1 = Yes"
    dialog.open_mapping()
    m = dialog.mapping_dialog
    with qtbot.waitSignal(m.jobs.done, timeout=10_000, check_params_cb=lambda res: res[0] == "check"):
        m.column.setCurrentIndex(m.column.findData("q7"))
    labels = {m.codes.item(r, 0).text(): m.codes.item(r, 1).text() for r in range(m.codes.rowCount())}
    assert labels["98"] == "Refused (missing code)" and labels["1"] == "Yes"  # value labels offered as codes
    assert m.codes.combo(1).currentData() == "yes" and m.codes.combo(2).currentData() == "no"  # matched by label
    assert m.codes.combo(98).currentText() == "(missing: left out)"
    assert m.reports["cheating"].n_missing == 1 and m.status("cheating") == "ready" and m.ready()
    assert "user-missing code (Refused)" in m.report.text()
    m.accept()
    with qtbot.waitSignal(dialog.imported, timeout=30_000):
        dialog.start_import()
    dv = window.data_view
    rows = {dv.variables.item(r, 0).text(): [dv.variables.item(r, c).text() for c in range(5)]
            for r in range(dv.variables.rowCount())}
    assert rows["q7"][2] == "Have you cheated in an exam?" and "98 = Refused" in rows["q7"][3]
    assert rows["q7"][4] == "98"
    window.resize(1100, 720)
    shot(window, "data_view_spss")


def test_two_group_item_maps_its_group_column(window, qtbot, tmp_path):
    """The example's lie-detector item: answers and randomization groups, counted per group."""
    from dpdesk.gui.shell.example_project import build_example
    from dpdesk.project.example import example_folder

    window.open_project(build_example(None, tmp_path / "example.dpdesk"))
    dialog = open_import(window, qtbot, example_folder() / "students.csv")
    assert dialog.dataset_name.text() == "students.csv"
    assert set(dialog.mappings) == {"exam_cheating", "plagiarism", "drug_use"}  # stored mappings kept
    dialog.open_mapping()
    m = dialog.mapping_dialog
    with qtbot.waitSignal(m.jobs.done, timeout=10_000, check_params_cb=lambda res: res[0] == "check"):
        m.item_list.setCurrentRow(2)
    assert m.current == "drug_use" and m.group_box.isVisibleTo(m)
    assert m.group_column.currentData() == "sld_group"
    assert m.group_codes.combo(1).currentData() == "1" and m.group_codes.combo(2).currentData() == "2"
    report = m.reports["drug_use"]
    assert report.groups == ("1", "2") and report.n_used == 914
    assert "group 1:" in m.report.text() and "group 2:" in m.report.text()
    # the comparison group (asked directly) has no randomized answer and group 0: listed, then left out
    assert report.n_missing + report.n_unmatched == 286
    assert m.status("drug_use") == ("problems" if report.n_unmatched else "ready")
    m.exclude_box.setChecked(True)
    assert m.status("drug_use") in ("excluded", "ready")
    # the other stored mappings were checked when the dialog opened
    qtbot.waitUntil(lambda: m.reports.get("plagiarism") is not None, timeout=10_000)
    assert m.status("plagiarism") == "ready" and m.reports["plagiarism"].n_missing == 286
    assert "plagiarism — ✓ (286 missing)" in [m.item_list.item(i).text() for i in range(3)]
    shot(m, "mapping_dialog_two_groups")
    m.reject()
    dialog.reject()


def test_unreadable_file_is_explained_and_nothing_changes(project_window, qtbot, tmp_path):
    from PySide6.QtWidgets import QMessageBox

    bad = tmp_path / "empty.csv"
    bad.write_bytes(b"")
    with qtbot.waitSignal(project_window.data_view.dialog_opened, timeout=5_000) as opened:
        project_window.open_dropped(bad)
    dialog = opened.args[0]
    qtbot.waitUntil(lambda: bool(dialog.findChildren(QMessageBox, "errorDialog")), timeout=10_000)
    assert "empty" in dialog.report.text() and dialog.table is None
    assert not dialog.import_button.isEnabled() and project_window.project.datasets() == []


def test_dropping_data_without_a_project_says_what_to_do(window, tmp_path):
    csv = tmp_path / "answers.csv"
    csv.write_text("a\n1\n")
    window.open_dropped(csv)
    assert "open or create a project first" in window.statusBar().currentMessage()


def test_workbook_sheet_chosen_in_the_dialog(project_window, qtbot, tmp_path):
    import openpyxl

    path = tmp_path / "waves.xlsx"
    wb = openpyxl.Workbook()
    wb.active.title = "Notes"
    wb.active.append(["read me first"])
    wave = wb.create_sheet("Wave 2")
    wave.append(["id", "q7"])
    for i in range(1, 21):
        wave.append([i, "Ja" if i % 4 == 0 else "Nein"])
    wb.save(path)
    with qtbot.waitSignal(project_window.data_view.dialog_opened, timeout=5_000) as opened:
        project_window.open_dropped(path)
    dialog = opened.args[0]
    qtbot.waitUntil(lambda: not dialog.jobs.running, timeout=30_000)  # the first sheet holds only a note
    assert dialog.table is None or list(dialog.table.frame.columns) != ["id", "q7"]
    sheets = [dialog.combos["sheet"].itemText(i) for i in range(dialog.combos["sheet"].count())]
    assert sheets[1:] == ["Notes", "Wave 2"] and dialog.combos["sheet"].isEnabled()
    table = _read(dialog, qtbot, sheet="Wave 2")
    assert list(table.frame.columns) == ["id", "q7"] and len(table.frame) == 20
    assert table.report.sheet == "Wave 2" and dialog.overrides() == {"sheet": "Wave 2"}
    with qtbot.waitSignal(dialog.imported, timeout=30_000):
        dialog.start_import()
    assert project_window.project.datasets()[0].options == {"sheet": "Wave 2"}  # kept with the data
