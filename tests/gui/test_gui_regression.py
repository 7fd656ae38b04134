"""Regression view on the example project: fit, output, saved with the project, Cancel, separation, export."""

from __future__ import annotations

import math

import pytest

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication

from dpdesk.gui.shell.tasks import TASKS
from tests.helpers.gui import choose_in_context_menu, shot


@pytest.fixture
def example(tmp_path):
    from dpdesk.gui.shell.example_project import build_example

    return build_example(None, tmp_path / "example.dpdesk")


def _open(window, qtbot, path):
    view = window.regression_view
    with qtbot.waitSignal(view.loader.done, timeout=60_000):
        window.open_project(path)
    window.nav.setCurrentRow(TASKS.index("Regression"))
    return view


def _choose(view, item="exam_cheating"):
    f = view.form
    f.outcome.setCurrentIndex(f.outcome.findData(item))
    f.choose("age", centre=True)
    f.choose("exam_stress")
    f.choose("faculty", reference="Arts")


def _fit(view, qtbot):
    with qtbot.waitSignal(view.fitted, timeout=120_000, check_params_cb=lambda r: r is not None):
        view.fit()
    return view.current


def test_fit_shows_the_apa_table_plots_and_sentences_and_is_saved(window, qtbot, example):
    view = _open(window, qtbot, example)
    f = view.form
    kinds = {f._rows[i]["column"]: f._rows[i]["kind"] for i in range(len(f._rows))}
    assert kinds["age"] == "numeric" and kinds["faculty"] == "categorical" and kinds["exam_stress"] == "numeric"
    assert "cheat_rr" not in kinds and "sld_group" not in kinds  # the items' own answers are no predictors
    assert [f.outcome.itemData(i) for i in range(f.outcome.count())] == ["exam_cheating", "plagiarism", "drug_use"]
    _choose(view)
    assert f.plot.currentData() == "age"
    report = _fit(view, qtbot)
    # the numbers are those of the project layer (the guide's worked example)
    age = report.coefficient("age")
    assert age["b"] == pytest.approx(-0.18435, abs=1e-4) and age["OR"] == pytest.approx(0.83, abs=0.01)
    assert next(c for c in report.cells if c[0].startswith("age")) == ["age (centred at 22.52)", "-0.18", "0.09", "-2.12", ".034", "0.83", "[0.69, 0.98]"]
    assert report.cells[0][4] == "< .001"
    table = view.output.table  # the report's coefficient table, with its copy links
    shown = table.toPlainText()
    assert "age (centred at 22.52)" in shown and ".034" in shown and "[0.69, 0.98]" in shown and "Note." in shown
    # "Copy as LaTeX" under the table, clicked; then one cell from its context menu
    link = table.document().find("Copy as LaTeX")
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.cursorRect(link).center() - QPoint(8, 0))
    tex = QGuiApplication.clipboard().text()
    assert tex.startswith(r"\begin{table}") and r"\toprule" in tex and "age (centred at 22.52)" in tex
    at = table.cursorRect(table.document().find(".034")).center()
    assert table.table_at(at) == ("regression:1", ".034")
    assert "Copy cell" in choose_in_context_menu(qtbot, table.viewport(), at, "Copy cell")
    qtbot.waitUntil(lambda: QGuiApplication.clipboard().text() == ".034", timeout=5000)
    assert any(s.startswith("Each additional year of age multiplies the odds") and "0.83 (95% CI 0.69 to 0.98)" in s
               for s in report.sentences)
    assert "Each additional year of age" in view.output.sentences.text()
    assert "model against the intercept only" in view.output.tests.text()
    assert "log-likelihood" in view.output.fit_table.text() and "-599.45" in view.output.fit_table.text()
    # plots: odds ratios without the intercept; prevalence across age with a band that holds the estimate
    assert view.output.forest.model.rowCount() == 5
    rows = report.curve["rows"]
    assert report.curve["predictor"] == "age" and len(rows) == 25
    assert all(r["CI low"] < r["estimate"] < r["CI high"] for r in rows)
    assert rows[0]["estimate"] > rows[-1]["estimate"]  # cheating falls with age, as in the generator
    # saved with the project, and shown again when it is opened next time
    from dpdesk.project.regression.report import saved_reports

    saved = saved_reports(window.project)
    assert len(saved) == 1 and saved[0].coefficients == report.coefficients
    for size, suffix in (((1200, 900), ""), ((1024, 700), "_1024")):
        window.resize(*size)
        view.scroll.verticalScrollBar().setValue(0)
        shot(window, f"regression{suffix}")
    window.resize(1200, 900)
    shot(view.output.forest, "regression_odds_ratios")
    shot(view.output.curve, "regression_prevalence")
    path = window.project.path
    window.close_project()
    view = _open(window, qtbot, path)
    assert view.current is not None and view.current.coefficients == report.coefficients
    assert view.form.predictors() == ["faculty", "age", "exam_stress"]  # in the order of the data's columns
    assert view.form.spec_fields()["center"] == ["age"]


def test_plot_across_a_categorical_predictor(window, qtbot, example):
    view = _open(window, qtbot, example)
    _choose(view)
    _fit(view, qtbot)
    with qtbot.waitSignal(view.fitted, timeout=60_000, check_params_cb=lambda r: r is not None):
        view.form.plot.setCurrentIndex(view.form.plot.findData("faculty"))
    curve = view.current.curve
    assert curve["kind"] == "categorical" and [r["faculty"] for r in curve["rows"]] == ["Arts", "Law", "Medicine",
                                                                                       "Science"]
    assert view.output.curve.model.rowCount() == 4


def test_cancel_stops_the_fit_and_saves_nothing(window, qtbot, example):
    view = _open(window, qtbot, example)
    f = view.form
    f.outcome.setCurrentIndex(f.outcome.findData("drug_use"))  # a two-group design: the slowest fit
    for column in ("age", "exam_stress", "faculty", "gender"):
        f.choose(column)
    f.interactions.setText("age:faculty")
    with qtbot.waitSignal(view.jobs.progress, timeout=60_000):
        view.fit()
    job = view.jobs.current
    assert view.cancel_button.isEnabled()
    with qtbot.waitSignal(job.signals.finished, timeout=60_000):
        view.cancel()
    assert view.current is None and not view.jobs.running and view.state.text().startswith("Cancelled")
    assert view.fit_button.isEnabled() and not view.cancel_button.isEnabled()
    assert window.project.analyses() == []


def test_a_fit_that_does_not_exist_shows_words_not_numbers(window, qtbot, tmp_path):
    """Separation: nobody in faculty C says "yes", fewer than the forced "yes" answers alone would give,
    so the maximum-likelihood odds ratio of C is 0 (its coefficient runs off to -infinity)."""
    import numpy as np
    import pandas as pd

    from dpdesk.mechanisms import rr
    from dpdesk.project.file.store import Project
    from dpdesk.project.reading.importing import import_file

    rng = np.random.default_rng(5)
    n = 600
    faculty = rng.choice(["A", "B", "C"], n)
    truth = rng.random(n) < 0.5
    said = np.where(rng.random(n) < 0.8, truth, rng.random(n) < 0.5)  # forced response: truth with p 0.8
    said = np.where(faculty == "C", False, said)
    csv = tmp_path / "sep.csv"
    pd.DataFrame({"faculty": faculty, "answer": np.where(said, "yes", "no")}).to_csv(csv, index=False)
    path = tmp_path / "sep.dpdesk"
    with Project.create(path) as p:
        p.add_item("q", rr.design("forced", p_truth=0.8, p_yes=0.1, p_no=0.1), question="Did you?",
                   column="answer", codes={"no": ["no"], "yes": ["yes"]})
        import_file(p, csv)
    view = _open(window, qtbot, path)
    view.form.choose("faculty", reference="A")
    with qtbot.waitSignal(view.jobs.failed, timeout=60_000):
        view.fit()
    text = view.output.message.text()
    assert "cannot be fitted" in text and "separated" in text and "Merge" in text
    assert view.output.message.isVisible() and not view.output.body.isVisible() and view.current is None
    assert not view.export_button.isEnabled() and window.project.analyses() == []
    window.resize(1024, 700)
    shot(window, "regression_separation_1024")


def test_export_writes_the_sheets_and_a_script_that_refits(window, qtbot, example, tmp_path):
    import subprocess
    import sys

    import openpyxl

    view = _open(window, qtbot, example)
    _choose(view)
    report = _fit(view, qtbot)
    out = tmp_path / "reg.xlsx"
    with qtbot.waitSignal(view.exporter.done, timeout=60_000):
        view.export(out)
    assert [p.name for p in view.written] == ["reg.xlsx", "reg_reproduce.py"]
    wb = openpyxl.load_workbook(out)
    assert {"Regression", "Regression tests", "Metadata"} <= set(wb.sheetnames)
    sheet = wb["Regression"]
    head = [c.value for c in sheet[1]]
    rows = [{h: c.value for h, c in zip(head, r)} for r in sheet.iter_rows(min_row=2)]
    row = next(r for r in rows if r["term code"] == "age")  # "term" is its label
    assert row["b"] == report.coefficient("age")["b"]  # full precision
    run = subprocess.run([sys.executable, str(tmp_path / "reg_reproduce.py")], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "agree with the exported coefficients" in run.stdout
    assert not math.isnan(report.coefficient("exam_stress")["SE"])


def test_the_export_view_adds_the_regression_to_the_workbook(window, qtbot, example, tmp_path):
    import subprocess
    import sys

    import openpyxl

    view = _open(window, qtbot, example)
    _choose(view)
    _fit(view, qtbot)
    rv = window.results_view
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        window.nav.setCurrentRow(TASKS.index("Results"))
    ev = window.export_view
    with qtbot.waitSignal(ev.jobs.done, timeout=60_000) as done:
        ev.export(tmp_path / "all.xlsx")
    written = done.args[0]
    wb = openpyxl.load_workbook(written[0])
    assert wb.sheetnames[0] == "Estimates" and {"Regression", "Regression tests"} <= set(wb.sheetnames)
    run = subprocess.run([sys.executable, str(written[1])], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "agree with the exported counts" in run.stdout and "agree with the exported coefficients" in run.stdout


def test_an_open_ended_interval_is_explained_under_the_table(window, qtbot, tmp_path):
    """Quasi-separation: the limit reads "> 1,000" and the note under the table says why, as the report does."""
    from dpdesk.project.number_style import SEPARATION_NOTE
    from tests.helpers.separated import make_separated

    view = _open(window, qtbot, make_separated(tmp_path))
    view.form.choose("faculty", reference="A")
    with qtbot.waitSignal(view.fitted, timeout=120_000, check_params_cb=lambda r: r is not None):
        qtbot.mouseClick(view.fit_button, Qt.MouseButton.LeftButton)
    shown = view.output.table.toPlainText()
    assert "[2.56, > 1,000]" in shown and SEPARATION_NOTE in " ".join(shown.split())


def test_spss_labels_in_the_output_and_value_labelled_codes_as_categories(window, qtbot, tmp_path):
    """Issue 20: a gender coded 1/2/3 with value labels is categorical by default (against Female, its
    lowest code) and the output says so; every term, title and plot uses the labels, not sex or copy."""
    import html

    from PySide6.QtCore import Qt

    from tests.helpers.labelled_study import GENDER, make_labelled_study

    view = _open(window, qtbot, make_labelled_study(tmp_path))
    f = view.form
    i = f.row_of("sex")
    row = f._rows[i]
    assert row["kind"] == "categorical" and row["labelled"] and row["levels"] == ["Female", "Male", "Non-binary"]
    from dpdesk.gui.widgets.cell_choices import ROLE_OPTIONS

    kind = f.table.item(i, 2)
    assert [t for t, _d in kind.data(ROLE_OPTIONS)] == ["categorical", "numeric"]
    assert kind.flags() & Qt.ItemFlag.ItemIsEditable
    assert f.table.item(i, 3).text() == "Female (lowest code)"
    f.table.setFocus()
    f.table.setCurrentCell(i, 0)
    qtbot.keyClick(f.table, Qt.Key.Key_Space)  # tick Use from the keyboard
    assert f.predictors() == ["sex"] and f.spec_fields()["numeric"] == []
    report = _fit(view, qtbot)
    assert report.title.startswith("Logistic regression of Copying")
    assert [c[0] for c in report.cells] == ["(Intercept)", f"{GENDER}: Male (vs Female)",
                                            f"{GENDER}: Non-binary (vs Female)"]
    shown = html.unescape(view.output.sentences.text())
    assert "a true 'yes' to Copying" in shown and "has a value label for every code" in shown
    assert view.output.curve.title == f"Predicted prevalence by {GENDER}"
    assert GENDER in view.output.curve.model.headerData(0, Qt.Orientation.Horizontal)
    assert "sex" not in view.output.title.text() and "sex" not in shown.split("To use the codes")[0]
    # the codes as numbers, on request: a slope, and no note
    pick_in_cell(qtbot, f.table, i, 2, "numeric")  # Space opens the cell's list; Down, Return choose
    assert f.choice(i)["kind"] == "numeric" and f.spec_fields()["numeric"] == ["sex"]
    report = _fit(view, qtbot)
    assert report.spec.numeric == ["sex"] and [c[0] for c in report.cells] == ["(Intercept)", GENDER]
    assert any(s.startswith(f"Each additional unit of {GENDER}") for s in report.sentences)
    assert not any("value label for every code" in s for s in report.sentences)


def pick_in_cell(qtbot, table, row: int, column: int, text: str) -> None:
    """Choose ``text`` in a choice cell from the keyboard: Space on the cell opens its list, Down to the
    entry, Return."""
    from PySide6.QtWidgets import QApplication

    table.setFocus()
    table.setCurrentCell(row, column)
    qtbot.keyClick(table, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not None)
    editor = table.indexWidget(table.model().index(row, column))
    for _ in range(editor.count()):
        if editor.view().currentIndex().data() == text:
            break
        qtbot.keyClick(editor.view(), Qt.Key.Key_Down)
    qtbot.keyClick(editor.view(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: table.indexWidget(table.model().index(row, column)) is None)
