"""Linked data in the app: the link dialog, the Data view's schema and sample, Tabulate (Cancel stops the
engine's query; a changed source is refused and relinked), and Results from counts made in the engine.

Real key and mouse events; the engine is DuckDB on small Parquet files written in the test.
"""

from __future__ import annotations

import threading
from fractions import Fraction

import pytest
from PySide6.QtCore import Qt

from dpdesk.gui.shell.tasks import TASKS
from dpdesk.project import Project, ledger, linked
from tests.helpers import linked as data
from tests.helpers.gui import shot

SLOW_SQL = "SELECT count(*) FROM {source}, range(4000000000) AS r(i) WHERE i % 7 = 3"  # minutes, unless stopped


def status_text(window) -> str:
    """The status bar's message whole (a long one is shown shortened with "…")."""
    bar = window.statusBar()
    return getattr(bar, "full_message", None) or bar.currentMessage()


def click(qtbot, button):
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


@pytest.fixture
def empty_project(tmp_path):
    path = tmp_path / "study.dpdesk"
    Project.create(path).close()
    return path


@pytest.fixture
def registry(tmp_path):
    return data.write_parts(data.frame(600), tmp_path / "registry", parts=3)


@pytest.fixture
def linked_project(tmp_path, registry):
    path = tmp_path / "linked.dpdesk"
    with Project.create(path) as p:
        linked.link_dataset(p, str(registry))
        ledger.set_budget(p, 1)
    return path


def slow_engine(monkeypatch, method: str):
    """The engine's ``method`` first runs a real query that takes minutes unless interrupted; returns
    (started, stopped): set when the query starts, and when DuckDB raised its cancellation."""
    from dpdesk.project.linked import duckdb_source
    from dpdesk.project.linked.source import Cancelled

    started, stopped = threading.Event(), threading.Event()
    original = getattr(duckdb_source.DuckDBSource, method)

    def slow(self, *args, **kwargs):
        cancel = kwargs.get("cancel") or next((a for a in args if isinstance(a, linked.CancelToken)), None)
        started.set()
        try:
            self.run_sql(SLOW_SQL, {}, cancel)
        except Cancelled:
            stopped.set()
            raise
        return original(self, *args, **kwargs)

    monkeypatch.setattr(duckdb_source.DuckDBSource, method, slow)
    return started, stopped


def open_link_dialog(window, qtbot, path):
    assert window.open_project(path)
    window.nav.setCurrentRow(TASKS.index("Data"))
    dv = window.data_view
    importer = dv.import_dialog()
    with qtbot.waitSignal(dv.dialog_opened, timeout=5000) as opened:
        click(qtbot, importer.link_button)  # "Link a large dataset (not copied)…"
    dialog = opened.args[0]
    assert dialog.objectName() == "linkDialog" and not importer.isVisible()
    return dv, dialog


def test_link_dialog_links_a_folder_and_the_data_view_shows_schema_and_a_sample(window, qtbot, empty_project,
                                                                               registry):
    dv, dialog = open_link_dialog(window, qtbot, empty_project)
    assert not dialog.link_button.isEnabled()  # nothing to link yet
    qtbot.keyClicks(dialog.source, str(registry))
    assert dialog.dataset_name.placeholderText() == "registry"  # a folder is named after itself
    assert not dialog.csv["delimiter"].isEnabled()  # Parquet: no reading options
    with qtbot.waitSignal(dv.dataset_shown, timeout=30_000):
        with qtbot.waitSignal(dialog.linked, timeout=30_000):
            click(qtbot, dialog.link_button)
    words = dialog.report.text()
    assert "Linked registry" in words and "600 rows, 5 columns" in words and "3 files" in words
    fp = linked.fingerprint_of(window.project.datasets()[0]).content
    assert fp[:16] in words and "It took" in words and "nothing was copied" in words
    shot(dialog, "link-dialog")
    dialog.accept()
    # the Data view: the recorded schema, a sample drawn in the engine, the engine and source in words
    assert dv.linked_shown and dv.shown_dataset == "registry"
    assert "linked with duckdb" in dv.info.text() and "never stored" in dv.info.text()
    assert [dv.variables.item(r, 0).text() for r in range(dv.variables.rowCount())] == [
        "person", "region", "age", "income", "code"]
    assert dv.variables.item(1, 1).text() == "text (VARCHAR)" and dv.variables.item(2, 1).text() == "number (DOUBLE)"
    assert dv.model.rowCount() == 100 and not dv.survey.isVisible()
    assert dv.model.headerData(0, Qt.Orientation.Vertical) in (1, "1")  # the sample's own numbering
    p = window.project  # never stored: the project holds no rows of it
    assert p.dataset_frame("registry").empty and p.datasets()[0].n_rows == 600
    for size in (None, (1024, 700)):
        if size:
            window.resize(*size)
        shot(window, "data-linked" + ("-1024" if size else ""))


def test_a_csv_with_its_reading_options_and_a_missing_path_in_one_line(window, qtbot, empty_project, tmp_path):
    csv = tmp_path / "wave3.csv"
    csv.write_text("region;score\nnorth;1,5\nsouth;2,25\n", encoding="utf-8")
    dv, dialog = open_link_dialog(window, qtbot, empty_project)
    qtbot.keyClicks(dialog.source, str(tmp_path / "nowhere" / "*.parquet"))
    with qtbot.waitSignal(dialog.jobs.failed, timeout=10_000):
        click(qtbot, dialog.link_button)
    assert "matches no file" in dialog.report.text() or "does not exist" in dialog.report.text()
    assert "Traceback" not in dialog.report.text() and window.project.datasets() == []
    qtbot.keyClick(dialog.source, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(dialog.source, str(csv))
    assert dialog.csv["delimiter"].isEnabled()
    for key, steps in (("delimiter", 1), ("decimal", 1)):  # semicolon, decimal comma: by the keyboard
        dialog.csv[key].setFocus()
        for _ in range(steps):
            qtbot.keyClick(dialog.csv[key], Qt.Key.Key_Down)
    assert dialog.options() == {"delimiter": ";", "decimal": ","}
    qtbot.keyClicks(dialog.dataset_name, "wave3")
    with qtbot.waitSignal(dialog.linked, timeout=30_000):
        click(qtbot, dialog.link_button)
    ds = window.project.datasets()[-1]
    assert ds.name == "wave3" and ds.n_rows == 2 and linked.schema_of(ds).column("score").kind == "number"


def test_cancel_stops_the_engine_while_linking_and_nothing_is_linked(window, qtbot, empty_project, registry,
                                                                   monkeypatch):
    started, stopped = slow_engine(monkeypatch, "row_count")
    dv, dialog = open_link_dialog(window, qtbot, empty_project)
    qtbot.keyClicks(dialog.source, str(registry))
    click(qtbot, dialog.link_button)
    qtbot.waitUntil(started.is_set, timeout=20_000)
    assert dialog.cancel_button.isEnabled()
    click(qtbot, dialog.cancel_button)
    qtbot.waitUntil(stopped.is_set, timeout=10_000)  # DuckDB's query was interrupted, not left running
    qtbot.waitUntil(lambda: not dialog.jobs._jobs, timeout=10_000)
    assert "nothing was linked" in dialog.status.text().lower()
    assert window.project.datasets() == [] and dialog.link_button.isEnabled()


def test_picking_spark_says_how_to_add_it_when_it_cannot_run(window, qtbot, empty_project, monkeypatch):
    from dpdesk.project.linked import engines
    from dpdesk.project.linked.spark_source import SPARK_INSTALL

    monkeypatch.setattr(engines, "_has_pyspark", lambda: False)
    dv, dialog = open_link_dialog(window, qtbot, empty_project)
    qtbot.keyClicks(dialog.source, "/data/registry/")
    assert not dialog.master.isEnabled()
    dialog.engine.setFocus()
    with qtbot.waitSignal(dialog.jobs.done, timeout=20_000):
        qtbot.keyClick(dialog.engine, Qt.Key.Key_Down)  # Spark
    assert dialog.engine_note.isVisible() and dialog.engine_note.text() == SPARK_INSTALL
    assert 'pip install "dpdesk[spark]"' in dialog.engine_note.text()
    assert dialog.master.isEnabled() and not dialog.link_button.isEnabled()
    shot(dialog, "link-dialog-spark")
    qtbot.keyClick(dialog.engine, Qt.Key.Key_Up)  # back to DuckDB: nothing missing
    assert not dialog.engine_note.isVisible() and dialog.link_button.isEnabled()


def open_tabulate(window, path):
    assert window.open_project(path)
    v = window.tabulate_view
    v.confirm = lambda parent, text: True
    v.confirm_relink = lambda parent, text: "Relink" in text and "costs nothing" in text
    window.nav.setCurrentRow(TASKS.index("Tabulate"))
    return v


def histogram_by_keys(qtbot, v, keys: str):
    f = v.form
    f.statistic.setFocus()
    qtbot.keyClick(f.statistic, Qt.Key.Key_Down)  # histogram
    assert f.statistic.currentData() == "histogram"
    f.axis1.column.setFocus()
    f.axis1.column.setCurrentText("region")
    qtbot.keyClicks(f.axis1.values, keys)
    qtbot.waitUntil(lambda: v.preview is not None and v.preview.request.get("columns") == ["region"]
                    and v.preview.request.get("keys") == [keys.split(", ")], timeout=5000)


def test_tabulate_releases_from_linked_data_in_a_worker(window, qtbot, linked_project):
    v = open_tabulate(window, linked_project)
    assert v.linked.isVisible() and "linked with duckdb" in v.linked.text.text()
    assert not v.linked.relink_button.isVisible()
    histogram_by_keys(qtbot, v, "north, south, east, west")
    assert v.release_button.isEnabled()
    with qtbot.waitSignal(v.released, timeout=30_000) as got:
        click(qtbot, v.release_button)
    (entry,) = got.args[0]
    assert entry.noise_params["source"]["engine"] == "duckdb" and entry.noise_params["source"]["rows"] == 600
    assert len(entry.values) == 4 and ledger.budget_status(window.project).spent_epsilon == Fraction(1, 10)
    qtbot.waitUntil(lambda: not v._releasing, timeout=5000)
    for size in (None, (1024, 700)):
        if size:
            window.resize(*size)
        shot(window, "tabulate-linked" + ("-1024" if size else ""))


def test_cancel_in_tabulate_stops_the_engines_query_and_spends_nothing(window, qtbot, linked_project,
                                                                      monkeypatch):
    from dpdesk.project.ledger import reservations

    started, stopped = slow_engine(monkeypatch, "aggregate")
    v = open_tabulate(window, linked_project)
    histogram_by_keys(qtbot, v, "north, south")
    click(qtbot, v.release_button)
    qtbot.waitUntil(started.is_set, timeout=20_000)  # reserved; the engine is running the query
    assert v.cancel_button.isVisible() and "counting" in v.progress.format().lower()
    with qtbot.waitSignal(v.cancelled, timeout=20_000):
        click(qtbot, v.cancel_button)
    assert stopped.is_set()  # the engine's job was stopped, not left to run
    assert ledger.ledger(window.project) == [] and ledger.budget_status(window.project).spent_epsilon == 0
    assert reservations.live_events(window.project.path, []) == []  # the reservation given back
    assert "nothing was spent" in status_text(window)
    assert not v.cancel_button.isVisible() and v.release_button.isEnabled()


def test_a_changed_source_is_refused_and_relinking_is_recorded(window, qtbot, linked_project, registry):
    data.write_parquet(data.frame(50, seed=9), registry / "part-9.parquet")  # next month's file arrived
    v = open_tabulate(window, linked_project)
    panel = v.linked
    assert "changed since it was linked" in panel.text.text() and "added part-9.parquet" in panel.text.text()
    assert panel.relink_button.isVisible()
    histogram_by_keys(qtbot, v, "north, south")
    with qtbot.waitSignal(v.jobs.failed, timeout=20_000) as failed:
        click(qtbot, v.release_button)
    assert isinstance(failed.args[0], linked.SourceChanged)
    said = v.error_box.informativeText()
    assert "Nothing was released and no budget was spent" in said and "added part-9.parquet" in said
    assert "press Relink…" in said and "dpdesk import" not in said  # the app's words, not the command line's
    v.error_box.accept()
    qtbot.waitUntil(lambda: not v._releasing, timeout=5000)
    assert ledger.budget_status(window.project).spent_epsilon == 0
    shot(window, "tabulate-linked-changed")
    dv = window.data_view  # the Data view draws no sample from a changed source, and says why in view
    with qtbot.waitSignal(dv.jobs.failed, timeout=20_000):
        click_task(qtbot, window, "Data")
        dv.load("registry")
    assert "added part-9.parquet" in dv.info.text() and "relink it in Tabulate" in dv.info.text()
    assert dv.model.rowCount() == 0 and dv.table is None and not dv.map_button.isEnabled()
    click_task(qtbot, window, "Tabulate")
    with qtbot.waitSignal(v.relinked, timeout=30_000) as got:
        click(qtbot, panel.relink_button)
    row = got.args[0]
    assert row.mechanism == "relink" and row.result["after"]["rows"] == 650
    assert "added part-9.parquet" in row.result["changes"]
    qtbot.waitUntil(lambda: not v._releasing, timeout=5000)
    assert not panel.relink_button.isVisible() and "650 rows in 4 files" in panel.text.text()
    status = ledger.budget_status(window.project)
    assert status.spent_epsilon == 0 and status.releases == 0  # relinking costs nothing, and is no release
    assert "in 0 release(s)" in v.panel.spent.text()
    assert len(ledger.ledger(window.project)) == 1  # but it is in the ledger
    v.tabs.setCurrentWidget(v.ledger_view)
    lv = v.ledger_view
    assert lv.table.item(0, 4).text() == "600 → 650 rows, 3 → 4 files" and lv.table.item(0, 3).text() == "ε = 0"
    assert lv.summary.text() == "No releases yet and 1 relink(s) of a linked source."
    assert "650 rows" in window.dataset_label.text()
    shot(window, "tabulate-linked-relinked")
    v.tabs.setCurrentWidget(v.result)
    with qtbot.waitSignal(v.released, timeout=30_000) as done:
        click(qtbot, v.release_button)
    assert done.args[0][0].noise_params["source"]["rows"] == 650


def test_results_estimate_an_item_mapped_to_linked_data_in_a_worker(window, qtbot, tmp_path):
    from dpdesk.mechanisms import rr
    from dpdesk.project.example import example_folder

    path = tmp_path / "rr.dpdesk"
    with Project.create(path) as p:
        linked.link_dataset(p, str(example_folder() / "students.csv"), name="big")
        p.add_item("cheating", rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25),
                   question="Cheated in an exam?", column="cheat_rr", codes={"yes": ["Yes"], "no": ["No"]})
    rv = window.results_view
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        window.open_project(path)
        click_task(qtbot, window, "Results")
    (res,) = rv.current.results
    assert res.mapping.n_used == 914  # as imported: the engine counted the answers
    assert round(res.estimate.prevalence, 3) == 0.266


def click_task(qtbot, window, task: str) -> None:
    nav = window.nav
    item = nav.item(TASKS.index(task))
    qtbot.mouseClick(nav.viewport(), Qt.MouseButton.LeftButton, pos=nav.visualItemRect(item).center())


def test_map_an_item_to_linked_data_counted_in_the_engine(window, qtbot, tmp_path):
    """Map items… on a linked dataset counts its few-valued columns' answers in the engine (a worker), then the
    dialog maps as for imported data; Results then estimate from the engine's counts."""
    from dpdesk.mechanisms import rr
    from dpdesk.project.example import example_folder

    path = tmp_path / "rr.dpdesk"
    with Project.create(path) as p:
        linked.link_dataset(p, str(example_folder() / "students.csv"), name="big")
        p.add_item("cheating", rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25), question="Cheated?")
    dv = window.data_view
    with qtbot.waitSignal(dv.dataset_shown, timeout=30_000):
        assert window.open_project(path)
    click_task(qtbot, window, "Data")
    assert dv.linked_shown and dv.map_button.isEnabled()
    with qtbot.waitSignal(dv.dialog_opened, timeout=30_000) as opened:
        click(qtbot, dv.map_button)
    m = opened.args[0]
    intro = m.findChild(type(dv.info), "mappingIntro").text()
    assert "counted in its engine" in intro and "not offered: id," in intro
    assert "email" not in intro  # a direct identifier: left out when the source was linked (issue 31)
    offered = [m.column.itemData(i) for i in range(m.column.count())]
    assert "cheat_rr" in offered and "id" not in offered  # an identifier has too many values to be answers
    with qtbot.waitSignal(m.jobs.done, timeout=20_000, check_params_cb=lambda res: res[0] == "check"):
        m.column.setCurrentIndex(m.column.findData("cheat_rr"))
    assert m.codes.combo("Yes").currentData() == "yes" and m.codes.combo("No").currentData() == "no"
    assert m.ready()
    from PySide6.QtWidgets import QDialogButtonBox

    click(qtbot, m.buttons.button(QDialogButtonBox.StandardButton.Ok))
    item = window.project.item("cheating")
    assert item.mappings["big"]["column"] == "cheat_rr"
    rv = window.results_view
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        click_task(qtbot, window, "Results")
    (res,) = rv.current.results
    assert res.mapping.n_used == 914 and round(res.estimate.prevalence, 3) == 0.266


def test_a_parquet_file_dropped_on_the_window_opens_the_link_dialog(window, qtbot, empty_project, registry):
    assert window.open_project(empty_project)
    dv = window.data_view
    part = registry / "part-0.parquet"
    with qtbot.waitSignal(dv.dialog_opened, timeout=5000) as opened:
        window.open_dropped(part)  # what a drop of the file does
    dialog = opened.args[0]
    assert dialog.objectName() == "linkDialog" and dialog.source.text() == str(part)
    assert dialog.dataset_name.placeholderText() == "part-0" and "Linking part-0.parquet" in (
        status_text(window))
    dialog.reject()


def test_cancel_a_relink_stops_the_engine_and_keeps_the_link(window, qtbot, linked_project, registry, monkeypatch):
    data.write_parquet(data.frame(50, seed=9), registry / "part-9.parquet")
    v = open_tabulate(window, linked_project)
    assert v.linked.relink_button.isVisible()
    started, stopped = slow_engine(monkeypatch, "row_count")  # the relink counts the rows again: slowly
    click(qtbot, v.linked.relink_button)
    qtbot.waitUntil(started.is_set, timeout=20_000)
    with qtbot.waitSignal(v.cancelled, timeout=20_000):
        click(qtbot, v.cancel_button)
    assert stopped.is_set() and "Relink cancelled" in status_text(window)
    assert ledger.ledger(window.project) == [] and window.project.datasets()[0].n_rows == 600
    assert v.linked.relink_button.isVisible()  # still changed: still offered


def test_a_linked_sources_direct_identifiers_are_never_shown_in_the_sample(window, qtbot, empty_project, tmp_path):
    """Issue 31: linking applies the import's rules for direct identifiers (here a column of e-mail addresses, by
    its values, and one named phone): the Data view's engine sample never shows them, and says they were left out."""
    df = data.frame(300)
    df["contact"] = [f"person{i}@example.org" for i in range(len(df))]
    df["phone"] = ["+44 20 7946 0%03d" % i for i in range(len(df))]
    source = data.write_parquet(df, tmp_path / "contacts" / "wave.parquet")
    dv, dialog = open_link_dialog(window, qtbot, empty_project)
    qtbot.keyClicks(dialog.source, str(source))
    with qtbot.waitSignal(dv.dataset_shown, timeout=30_000):
        with qtbot.waitSignal(dialog.linked, timeout=30_000):
            click(qtbot, dialog.link_button)
    assert "Left out as direct identifiers" in dialog.report.text() and "e-mail address" in dialog.report.text()
    dialog.accept()
    assert dv.linked_shown and dv.model.rowCount() == 100
    headers = [dv.model.headerData(c, Qt.Orientation.Horizontal) for c in range(dv.model.columnCount())]
    assert "contact" not in headers and "phone" not in headers and "region" in headers
    cells = [str(dv.model.data(dv.model.index(r, c))) for r in range(dv.model.rowCount())
             for c in range(dv.model.columnCount())]
    assert not any("@" in v or "7946" in v for v in cells)
    assert [dv.variables.item(r, 0).text() for r in range(dv.variables.rowCount())] == [
        "person", "region", "age", "income", "code"]
    assert "Left out as direct identifiers" in dv.info.text() and "contact" in dv.info.text()
    ledger.set_budget(window.project, 1)
    with pytest.raises(Exception, match="is a direct identifier .e-mail address"):  # as an import: never released
        ledger.release(window.project, {"statistic": "histogram", "columns": ["contact"], "keys": ["x"],
                                        "epsilon": "0.1"}, dataset="wave")
