"""The Results view with one item of every design, overall and by subgroup (the light GUI
part of the design test matrix, tests/project/test_design_matrix.py)."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from dpdesk.mechanisms import rr
from tests.helpers.designs import combined_survey, example_design
from tests.helpers.gui import shot

RAW = re.compile(r"\[\s*-?\d|array\(|np\.|numpy|object at 0x|dtype")
RAW_IN_DOCUMENT = re.compile(r"array\(|np\.|numpy|object at 0x|dtype|\d\.\d{5,}")  # CIs are "[1.2, 3.4]"


def _project(tmp_path, names, questions=None):
    from dpdesk.project import Project
    from dpdesk.project.reading.importing import import_file

    frame, mappings = combined_survey(names)
    csv = tmp_path / "survey.csv"
    frame.to_csv(csv, index=False)
    path = tmp_path / "designs.dpdesk"
    with Project.create(path) as project:
        import_file(project, csv)
        for name in names:
            project.add_item((questions or {}).get(name, name), example_design(name), **mappings[name])
    return path


def _texts(model):
    return [str(model.data(model.index(r, c), Qt.ItemDataRole.DisplayRole))
            for r in range(model.rowCount()) for c in range(model.columnCount())]


def _results(window, qtbot, rv, by=None):
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        if by is None:
            window.nav.setCurrentRow(2)
        else:
            rv.by.setCurrentIndex(rv.by.findData(by))
    return rv.current


def test_every_design_in_the_results_view(window, qtbot, tmp_path):
    path = _project(tmp_path, rr.DESIGN_NAMES)
    window.open_project(path)
    rv = window.results_view
    rs = _results(window, qtbot, rv)
    assert {r.item for r in rs.results if r.estimate is not None} == set(rr.DESIGN_NAMES)
    rs = _results(window, qtbot, rv, by="gender")
    assert {r["item"] for r in rs.subgroups} == set(rr.DESIGN_NAMES)
    shown = rv.document_view.toPlainText()
    assert not RAW_IN_DOCUMENT.search(shown)
    key = next(t.key for t in rs.document.tables() if t.key.startswith("comparisons:"))
    rv.document_view.copy_table(key)
    text = QGuiApplication.clipboard().text()
    assert "female − male" in text and not RAW_IN_DOCUMENT.search(text)
    assert set(rv.bars) == {"forced_multi", "krr", "unary"}  # bars per subgroup for items with categories
    assert rv.bars["krr"].model.rowCount() == 2 * 3
    assert len(rs.tests) == len(rr.DESIGN_NAMES)


def test_subgroups_of_multi_category_items_and_the_screenshot(window, qtbot, tmp_path):
    names = ("forced_multi", "krr", "unary")
    path = _project(tmp_path, names, {"forced_multi": "drinking", "krr": "commute", "unary": "news sources"})
    window.open_project(path)
    rv = window.results_view
    _results(window, qtbot, rv)
    rs = _results(window, qtbot, rv, by="gender")
    rows = [r for r in rs.subgroups if r["item"] == "commute"]
    assert [(r["subgroup"], r["category"]) for r in rows[:3]] == [("female", "bus"), ("female", "car"),
                                                                   ("female", "bike")]
    assert any("same distribution" in t for t in rs.tests)
    window.nav.setCurrentRow(2)
    for size, suffix in (((1200, 900), ""), ((1024, 700), "_1024")):
        window.resize(*size)
        QGuiApplication.processEvents()
        rv.scroll_to("Subgroups by gender")
        shot(window, f"results_multi_subgroups{suffix}")


def test_subgroups_by_an_identifier_ask_first(window, qtbot, tmp_path, monkeypatch):
    path = _project(tmp_path, ("forced",))
    window.open_project(path)
    rv = window.results_view
    _results(window, qtbot, rv)
    asked = []
    monkeypatch.setattr(rv, "ask_subgroups", lambda column, warnings: asked.append((column, warnings)) or False)
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        rv.by.setCurrentIndex(rv.by.findData("resp_id"))
    assert asked and asked[0][0] == "resp_id" and "240 different values" in asked[0][1][0]
    assert rv.by.currentData() is None and rv.current.options.by is None  # declined: no subgroups
    monkeypatch.setattr(rv, "ask_subgroups", lambda column, warnings: True)
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None and rs.options.by):
        rv.by.setCurrentIndex(rv.by.findData("resp_id"))
    assert rv.current.options.by == "resp_id" and rv.current.warnings


def test_mapping_check_counts_a_unary_item_from_its_tick_columns():
    from dpdesk.gui.dialogs.mapping import check_mapping, report_text
    from tests.helpers.designs import item_mapping, survey_frame

    frame = survey_frame("unary")
    _, item, report, error = check_mapping(None, frame, "news", item_mapping("unary"))
    assert error == "" and report.n_used == 240
    assert report_text(report).startswith("Counted 240 of 240 rows: tv ticked ")
    assert not RAW.search(report_text(report))
