"""The Regression view's model chooser (linear with RR predictors, multilevel logistic) and its Correlations
tab, driven with real key and mouse events on the example project; bad choices answered in words."""

from __future__ import annotations

import pytest

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from dpdesk.gui.shell.tasks import TASKS
from dpdesk.gui.widgets.regression_form import USE
from tests.helpers.gui import shot


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


def _pick(qtbot, combo, data) -> None:
    """Choose ``data`` in a combo box with the arrow keys (as a keyboard user would)."""
    target = combo.findData(data)
    assert target >= 0, f"{data!r} is not offered"
    for _ in range(combo.count()):
        if combo.currentIndex() == target:
            return
        qtbot.keyClick(combo, Qt.Key.Key_Down if combo.currentIndex() < target else Qt.Key.Key_Up)
    assert combo.currentIndex() == target


def _tick_in_list(qtbot, box, key) -> None:
    """Click a list's row (it becomes current) and tick it with Space."""
    row = next(box.item(i) for i in range(box.count()) if box.item(i).data(Qt.ItemDataRole.UserRole) == key)
    qtbot.mouseClick(box.viewport(), Qt.MouseButton.LeftButton, pos=box.visualItemRect(row).center())
    qtbot.keyClick(box, Qt.Key.Key_Space)
    assert row.checkState() == Qt.CheckState.Checked


def _use(qtbot, form, column) -> None:
    """One click on a predictor's Use cell ticks it."""
    cell = form.table.item(form.row_of(column), USE)
    qtbot.mouseClick(form.table.viewport(), Qt.MouseButton.LeftButton, pos=form.table.visualItemRect(cell).center())
    assert cell.checkState() == Qt.CheckState.Checked


def _correlations_tab(qtbot, view) -> None:
    bar = view.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    assert view.tabs.currentWidget() is view.correlations


def _fit(view, qtbot):
    with qtbot.waitSignal(view.fitted, timeout=120_000, check_params_cb=lambda r: r is not None):
        qtbot.mouseClick(view.fit_button, Qt.MouseButton.LeftButton)
    return view.current


def _idle(view) -> None:
    runners = (view.loader, view.jobs, view.exporter, view.curves, view.correlations.jobs, view.correlations.writer)
    assert not any(r.running for r in runners)


def test_linear_model_with_an_rr_predictor_is_fitted_shown_saved_and_restored(window, qtbot, example, tmp_path):
    from dpdesk.project.regression.report import saved_reports

    window.nav.setCurrentRow(TASKS.index("Regression"))
    f = window.regression_view.form
    assert f.model_key() == "logistic" and not f.rr_items.isVisible() and not f.cluster.isVisible()  # no project yet
    view = _open(window, qtbot, example)
    f = view.form
    assert not f.numeric_outcome.isVisible() and not f.rr_items.isVisible() and f.outcome.isVisible()
    _pick(qtbot, f.model, "linear")
    assert f.numeric_outcome.isVisible() and f.rr_items.isVisible() and not f.outcome.isVisible()
    assert not f.cluster.isVisible() and not f.plot.isVisible()
    numeric = [f.numeric_outcome.itemData(i) for i in range(f.numeric_outcome.count())]
    assert "exam_stress" in numeric and "age" in numeric and "faculty" not in numeric  # numbers only
    assert "id" not in numeric  # 1, 2, 3, ... counts the rows: no outcome (it was the default)
    _pick(qtbot, f.numeric_outcome, "exam_stress")
    assert f.table.isRowHidden(f.row_of("exam_stress"))  # the outcome is no covariate
    qtbot.mouseClick(view.fit_button, Qt.MouseButton.LeftButton)  # no RR item ticked yet: words, no fit
    assert "Tick at least one RR item" in view.state.text() and not view.jobs.running
    _tick_in_list(qtbot, f.rr_items, "exam_cheating")
    _use(qtbot, f, "age")
    report = _fit(view, qtbot)
    assert report.spec.model == "linear" and report.spec.outcome == "exam_stress"
    assert report.spec.rr_items == ["exam_cheating"] and report.spec.predictors == ["age"] and report.spec.item == ""
    shown = view.output.table.toPlainText()
    assert "cheated in an exam? (true " in shown and "age" in shown and "OR" not in report.header
    assert "residual SD" in view.output.fit_table.text() and "26.6%" in view.output.fit_table.text()
    assert not view.output.forest.isVisible() and not view.output.curve.isVisible()  # no odds ratios, no curve
    assert not view.output.tests.isVisible()
    assert any("score 0.93 higher" in s for s in report.sentences)
    assert "score 0.93 higher" in view.output.sentences.text()
    assert view.state.text().startswith("Fitted and saved")
    saved = saved_reports(window.project)
    assert len(saved) == 1 and saved[0].spec.model == "linear" and saved[0].cells == report.cells
    assert view.export_button.isEnabled()  # the workbook and its refit script cover the linear model
    with qtbot.waitSignal(view.exporter.done, timeout=60_000):
        view.export(tmp_path / "linear.xlsx")
    assert [p.name for p in view.written] == ["linear.xlsx", "linear_reproduce.py"]
    for size, suffix in (((1200, 900), ""), ((1024, 700), "_1024")):
        window.resize(*size)
        shot(window, f"regression_linear{suffix}")
    window.resize(1200, 900)
    path = window.project.path
    window.close_project()
    view = _open(window, qtbot, path)  # shown again, with its choices
    assert view.current is not None and view.current.spec.model == "linear"
    assert view.form.model_key() == "linear" and view.form.numeric_outcome.currentData() == "exam_stress"
    assert view.form.rr_predictors() == ["exam_cheating"] and view.form.predictors() == ["age"]
    _idle(view)


def test_multilevel_model_with_clusters_and_quadrature(window, qtbot, example):
    view = _open(window, qtbot, example)
    f = view.form
    _pick(qtbot, f.model, "multilevel")
    assert f.cluster.isVisible() and f.nagq.isVisible() and not f.plot.isVisible()
    outcomes = [f.outcome.itemData(i) for i in range(f.outcome.count())]
    assert outcomes == ["exam_cheating", "plagiarism"]  # the stochastic lie detector has two groups: not offered
    assert f.skipped.isVisible() and "two groups" in f.skipped.text() and "drug_use" in f.skipped.text()
    assert f.nagq.currentData() == 1 and f.nagq.currentText().startswith("Laplace")  # the default
    clusters = [f.cluster.itemData(i) for i in range(f.cluster.count())]
    assert "faculty" in clusters and "id" not in clusters and "email" not in clusters  # one per row: no cluster
    _pick(qtbot, f.cluster, "faculty")
    _pick(qtbot, f.nagq, 5)
    _use(qtbot, f, "age")
    report = _fit(view, qtbot)
    assert report.spec.model == "multilevel" and report.spec.cluster == "faculty" and report.spec.nagq == 5
    stats = {s["statistic"]: s["value"] for s in report.statistics}
    assert stats["clusters"] == 4 and any(k.startswith("random intercept SD") for k in stats)
    fit = view.output.fit_table.text()
    assert "random intercept SD (faculty)" in fit and "adaptive Gauss-Hermite quadrature with 5 points" in fit
    assert "1156" not in fit and "%" in fit  # the SD's interval is on the log-odds scale, not a share
    assert "Multilevel logistic regression" in view.output.title.text()
    assert view.output.forest.isVisible()  # the fixed effects' odds ratios
    for size, suffix in (((1200, 900), ""), ((1024, 700), "_1024")):
        window.resize(*size)
        shot(window, f"regression_multilevel{suffix}")
    window.resize(1200, 900)
    _pick(qtbot, f.nagq, 1)  # the shown results are no longer those of the choices
    assert view.state.text().startswith("The choices changed")
    _idle(view)


def test_multilevel_model_with_the_intercept_alone(window, qtbot, example):
    """``y ~ 1 + (1|cluster)``: no predictor ticked, Fit works; one coefficient, no odds-ratio plot."""
    view = _open(window, qtbot, example)
    f = view.form
    _pick(qtbot, f.model, "multilevel")
    _pick(qtbot, f.cluster, "faculty")
    assert not f.predictors()
    report = _fit(view, qtbot)
    assert report.spec.model == "multilevel" and report.spec.predictors == []
    assert [c["term"] for c in report.fit["fit"]["coefficients"]] == ["(Intercept)"]
    assert {s["statistic"]: s["value"] for s in report.statistics}["clusters"] == 4
    assert not view.output.forest.isVisible() and not f.plot.isVisible()
    assert view.state.text().startswith("Fitted and saved")
    assert "nan" not in view.output.fit_table.text().lower()
    _idle(view)


def _project(tmp_path, frame, items):
    from dpdesk.project.file.store import Project
    from dpdesk.project.reading.importing import import_file

    csv = tmp_path / "data.csv"
    frame.to_csv(csv, index=False)
    path = tmp_path / "small.dpdesk"
    with Project.create(path) as p:
        for name, design, kwargs in items:
            p.add_item(name, design, question=f"{name}?", **kwargs)
        import_file(p, csv)
    return path


def test_bad_choices_get_words_never_a_fit(window, qtbot, tmp_path):
    """Only a two-group item (no multilevel outcome), no numeric column (no linear outcome), three rows (too few
    to correlate): each refused in words, in the view, with no worker left running."""
    import pandas as pd

    from dpdesk.mechanisms import rr

    frame = pd.DataFrame({"answer": ["yes", "no", "yes", "no"], "grp": [1, 2, 1, 2],
                          "school": ["A", "B", "A", ""], "faculty": ["Arts", "Law", "Law", "Arts"]})
    sld = rr.design("sld", p1=0.3, p2=0.7)
    path = _project(tmp_path, frame, [("liar", sld, dict(column="answer", codes={"yes": ["yes"], "no": ["no"]},
                                                            group_column="grp", group_codes={"1": ["1"], "2": ["2"]}))])
    view = _open(window, qtbot, path)
    f = view.form
    _pick(qtbot, f.model, "multilevel")
    assert f.outcome.count() == 0 and "liar" in f.skipped.text()
    qtbot.mouseClick(view.fit_button, Qt.MouseButton.LeftButton)
    assert "cannot use two-group designs" in view.state.text() and not view.jobs.running
    _pick(qtbot, f.model, "linear")
    assert f.numeric_outcome.count() == 0
    qtbot.mouseClick(view.fit_button, Qt.MouseButton.LeftButton)
    assert "no numeric column to explain" in view.state.text() and not view.jobs.running
    # Correlations: nothing ticked is not enough to compute
    panel = view.correlations
    _correlations_tab(qtbot, view)
    qtbot.mouseClick(panel.compute_button, Qt.MouseButton.LeftButton)
    assert "at least two variables" in panel.state.text() and not panel.jobs.running
    assert window.project.analyses() == []
    _idle(view)


def test_correlations_computed_copied_exported_saved_and_shown_again(window, qtbot, example, tmp_path, monkeypatch):
    import csv

    import openpyxl
    from PySide6.QtWidgets import QFileDialog

    from dpdesk.project.regression.correlation_report import saved_correlations

    view = _open(window, qtbot, example)
    _correlations_tab(qtbot, view)
    panel = view.correlations
    assert view.tabs.currentWidget() is panel and panel.isVisible()
    keys = [panel.variables.item(i).data(Qt.ItemDataRole.UserRole) for i in range(panel.variables.count())]
    assert keys[:3] == ["exam_cheating", "plagiarism", "drug_use"] and "age" in keys and "faculty" not in keys
    assert "id" not in keys  # a row counter
    assert not panel.copy_button.isEnabled() and not panel.export_button.isEnabled()
    for key in ("exam_cheating", "plagiarism", "age", "exam_stress"):
        _tick_in_list(qtbot, panel.variables, key)
    for box, text in ((panel.bootstrap, "200"), (panel.seed, "7")):
        qtbot.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        qtbot.keyClicks(box, text)
    assert panel.bootstrap.value() == 200 and panel.seed.value() == 7
    with qtbot.waitSignal(panel.computed, timeout=120_000, check_params_cb=lambda r: r is not None):
        qtbot.mouseClick(panel.compute_button, Qt.MouseButton.LeftButton)
    report = panel.current
    assert report.names == ["exam_cheating", "plagiarism", "age", "exam_stress"]
    assert report.spec.bootstrap == 200 and report.spec.seed == 7
    shown = panel.table.text()
    assert "4. exam_stress" in shown and ".19*" in shown and "Fox &amp; Tracy" not in shown
    assert "Fox &amp; Tracy" in panel.note.text() and "200 bootstrap resamples (seed 7)" in panel.note.text()
    assert panel.note.text().startswith("<i>Note.</i>")
    assert panel.state.text().startswith("Computed and saved")
    # Copy: tab-separated text that pastes into Excel and Word, as shown
    qtbot.mouseClick(panel.copy_button, Qt.MouseButton.LeftButton)
    lines = QGuiApplication.clipboard().text().splitlines()
    assert lines[0].split("\t") == ["Variable", "1", "2", "3"]
    assert lines[4].split("\t")[:2] == ["4. exam_stress", ".19*"]
    assert "<table" in QGuiApplication.clipboard().mimeData().html()
    # Export: the file dialog answered, the button clicked, the workbook written in the worker
    out = tmp_path / "cor.xlsx"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(out), "")))
    with qtbot.waitSignal(panel.writer.done, timeout=60_000):
        qtbot.mouseClick(panel.export_button, Qt.MouseButton.LeftButton)
    assert [p.name for p in panel.written] == ["cor.xlsx", "cor_reproduce.py"]
    import subprocess
    import sys

    run = subprocess.run([sys.executable, str(tmp_path / "cor_reproduce.py")], capture_output=True, text=True,
                         timeout=300)  # it finds the project file the app recorded, and agrees
    assert run.returncode == 0, run.stdout + run.stderr
    book = openpyxl.load_workbook(out)
    assert {"Correlations", "Correlations (APA)"} <= set(book.sheetnames)
    pairs = list(book["Correlations"].iter_rows(values_only=True))
    head = list(pairs[0])
    row = next(dict(zip(head, r)) for r in pairs[1:] if r[head.index("name 1")] == "exam_cheating"
               and r[head.index("name 2")] == "exam_stress")
    assert row["r"] == pytest.approx(report.r[0][3], rel=1e-12)  # full precision
    csv_out = tmp_path / "cor.csv"
    with qtbot.waitSignal(panel.writer.done, timeout=60_000):
        panel.export(csv_out)
    with open(csv_out, newline="", encoding="utf-8-sig") as fh:
        assert len(list(csv.DictReader(fh))) == 6  # one row per pair of four
    saved = saved_correlations(window.project)
    assert len(saved) == 1 and saved[0].cells == report.cells
    from dpdesk.project.report.rr_models import correlation_sections

    assert len(correlation_sections(window.project)) == 1  # it reaches the report
    for size, suffix in (((1200, 900), ""), ((1024, 700), "_1024")):
        window.resize(*size)
        shot(window, f"regression_correlations{suffix}")
    window.resize(1200, 900)
    path = window.project.path
    window.close_project()
    view = _open(window, qtbot, path)
    panel = view.correlations
    assert panel.current is not None and panel.current.cells == report.cells and ".19*" in panel.table.text()
    assert panel.chosen() == ["exam_cheating", "plagiarism", "age", "exam_stress"] and panel.seed.value() == 7
    qtbot.keyClick(panel.seed, Qt.Key.Key_Up)  # another seed: the table shown is no longer the one asked for
    assert panel.seed.value() == 8 and panel.state.text().startswith("The choices changed")
    _idle(view)


def test_correlations_with_too_few_rows_say_so(window, qtbot, tmp_path):
    import pandas as pd

    from dpdesk.mechanisms import rr

    frame = pd.DataFrame({"answer": ["yes", "no", "yes", "", ""], "score": [1.5, 2.0, 3.5, 4.0, 1.0]})
    forced = rr.design("forced", p_truth=0.8, p_yes=0.1, p_no=0.1)
    path = _project(tmp_path, frame, [("q", forced, dict(column="answer", codes={"yes": ["yes"], "no": ["no"]}))])
    view = _open(window, qtbot, path)
    panel = view.correlations
    _correlations_tab(qtbot, view)
    for key in ("q", "score"):
        _tick_in_list(qtbot, panel.variables, key)
    with qtbot.waitSignal(panel.jobs.failed, timeout=60_000):
        qtbot.mouseClick(panel.compute_button, Qt.MouseButton.LeftButton)
    assert panel.message.isVisible() and "Only 3 rows" in panel.message.text() and "at least 4" in panel.message.text()
    assert panel.current is None and not panel.copy_button.isEnabled() and window.project.analyses() == []
    _idle(view)


def test_cancel_stops_the_bootstrap_and_saves_nothing(window, qtbot, example):
    view = _open(window, qtbot, example)
    panel = view.correlations
    _correlations_tab(qtbot, view)
    for key in ("exam_cheating", "drug_use", "age"):
        _tick_in_list(qtbot, panel.variables, key)
    qtbot.keyClick(panel.bootstrap, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(panel.bootstrap, "100000")  # minutes of resamples: Cancel must stop them, not wait
    with qtbot.waitSignal(panel.jobs.progress, timeout=60_000,
                          check_params_cb=lambda fraction, text: "bootstrap resample" in text):
        qtbot.mouseClick(panel.compute_button, Qt.MouseButton.LeftButton)
    job = panel.jobs.current
    assert panel.cancel_button.isEnabled() and not panel.compute_button.isEnabled()
    with qtbot.waitSignal(job.signals.finished, timeout=30_000):
        qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
    assert panel.state.text().startswith("Cancelled") and panel.current is None
    assert panel.compute_button.isEnabled() and window.project.analyses() == []
    _idle(view)


def test_models_that_cannot_be_fitted_show_words_not_a_traceback(window, qtbot, tmp_path):
    """Three rows with a score for a linear model of five parameters (it ended in "math domain error"), and
    clusters of which only one has answers: the reason in the output, nothing saved."""
    import pandas as pd

    from dpdesk.mechanisms import rr

    frame = pd.DataFrame({"answer": ["yes", "no", "yes", "no", "", "", "yes", "no"],
                          "school": ["A", "A", "A", "A", "B", "B", "A", "A"], "x": [1, 2, 3, 4, 5, 6, 7, 8],
                          "score": [1.0, 2.5, 3.0, None, None, None, None, None]})
    forced = rr.design("forced", p_truth=0.8, p_yes=0.1, p_no=0.1)
    path = _project(tmp_path, frame, [("q", forced, dict(column="answer", codes={"yes": ["yes"], "no": ["no"]}))])
    view = _open(window, qtbot, path)
    f = view.form
    _pick(qtbot, f.model, "linear")
    _pick(qtbot, f.numeric_outcome, "score")
    _tick_in_list(qtbot, f.rr_items, "q")
    _use(qtbot, f, "x")
    with qtbot.waitSignal(view.jobs.failed, timeout=60_000):
        qtbot.mouseClick(view.fit_button, Qt.MouseButton.LeftButton)
    assert view.output.message.isVisible() and "Only 3 respondents for 5 parameters" in view.output.message.text()
    _pick(qtbot, f.model, "multilevel")
    _pick(qtbot, f.cluster, "school")
    with qtbot.waitSignal(view.jobs.failed, timeout=60_000):
        qtbot.mouseClick(view.fit_button, Qt.MouseButton.LeftButton)
    assert "at least 2 clusters" in view.output.message.text() and not view.output.body.isVisible()
    assert view.current is None and not view.export_button.isEnabled() and window.project.analyses() == []
    _idle(view)


def test_a_weighted_dataset_says_how_to_fit_the_models_that_cannot_use_weights(window, qtbot, tmp_path):
    """Linear and multilevel models assume a simple random sample: with a survey design the app says which of its
    own controls gets there (it said "fit it without the survey design", which the view has no control for)."""
    import numpy as np
    import pandas as pd

    from dpdesk.mechanisms import rr
    from dpdesk.project.file.store import Project
    from dpdesk.project.study.survey_design import SurveyDesign, set_survey_design

    rng = np.random.default_rng(2)
    n = 120
    frame = pd.DataFrame({"answer": rng.choice(["yes", "no"], n), "school": rng.choice(["A", "B", "C"], n),
                          "x": rng.normal(size=n).round(3), "score": rng.normal(size=n).round(3),
                          "w": rng.uniform(0.5, 2, n).round(3)})
    forced = rr.design("forced", p_truth=0.8, p_yes=0.1, p_no=0.1)
    path = _project(tmp_path, frame, [("q", forced, dict(column="answer", codes={"yes": ["yes"], "no": ["no"]}))])
    with Project.open(path) as p:
        set_survey_design(p, SurveyDesign(weights="w"))
    view = _open(window, qtbot, path)
    f = view.form
    _pick(qtbot, f.model, "linear")
    _pick(qtbot, f.numeric_outcome, "score")
    _tick_in_list(qtbot, f.rr_items, "q")
    with qtbot.waitSignal(view.jobs.failed, timeout=60_000):
        qtbot.mouseClick(view.fit_button, Qt.MouseButton.LeftButton)
    assert "remove the dataset's survey design in Data (Remove design)" in view.output.message.text()
    _pick(qtbot, f.model, "multilevel")
    _pick(qtbot, f.cluster, "school")
    _use(qtbot, f, "x")
    with qtbot.waitSignal(view.jobs.failed, timeout=60_000):
        qtbot.mouseClick(view.fit_button, Qt.MouseButton.LeftButton)
    text = view.output.message.text()
    assert "without clusters" in text and "Remove design" in text and "--" not in text
    _idle(view)


def test_cancel_stops_a_multilevel_fit_and_saves_nothing(window, qtbot, example, monkeypatch):
    from dpdesk.gui.shell.worker import Cancelled
    from dpdesk.gui.views import regression_view

    stopped = []
    fit_job = regression_view.fit_job

    def spy(job, *args):  # the fit itself stops (Cancelled from its progress), not just its result dropped
        try:
            return fit_job(job, *args)
        except Cancelled:
            stopped.append(True)
            raise

    monkeypatch.setattr(regression_view, "fit_job", spy)
    view = _open(window, qtbot, example)
    f = view.form
    _pick(qtbot, f.model, "multilevel")
    _pick(qtbot, f.cluster, "faculty")
    _pick(qtbot, f.nagq, 25)  # the slowest quadrature
    for column in ("age", "exam_stress", "gender"):
        _use(qtbot, f, column)
    with qtbot.waitSignal(view.jobs.progress, timeout=60_000,
                          check_params_cb=lambda fraction, text: text.startswith("Maximising")):
        qtbot.mouseClick(view.fit_button, Qt.MouseButton.LeftButton)
    job = view.jobs.current
    with qtbot.waitSignal(job.signals.finished, timeout=30_000):
        qtbot.mouseClick(view.cancel_button, Qt.MouseButton.LeftButton)
    assert stopped and view.state.text().startswith("Cancelled") and view.current is None
    assert window.project.analyses() == []
    _idle(view)
