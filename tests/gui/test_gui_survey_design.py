"""The Data view's Survey design panel: suggestions offered (not applied), a design chosen with the keyboard
and saved with the mouse, weighted results in the Results view, the note in Tabulate; screenshots."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.helpers.gui import shot

SAMPLE = Path(__file__).resolve().parents[1] / "fixtures" / "survey" / "sample.csv"


@pytest.fixture
def survey_window(window, tmp_path, qtbot):
    from dpdesk.mechanisms import rr

    window.create_project(tmp_path / "survey.dpdesk")
    frame = pd.read_csv(SAMPLE)
    window.project.add_dataset("ess_like", frame, source={"name": "sample.csv", "sha256": "0" * 64, "size": 1})
    window.project.add_item("cheating", rr.design("warner", p=0.7), column="z_warner",
                            codes={"no": [0], "yes": [1]}, question="Have you cheated in an exam?")
    with qtbot.waitSignal(window.data_view.dataset_shown, timeout=30_000):
        window.project_changed.emit(window.project)
        window.nav.setCurrentRow(1)
    return window


def _choose(qtbot, combo, text):
    combo.setFocus()
    qtbot.keyClicks(combo, text)  # a closed combo box selects the item that starts with the typed text


def test_choose_save_and_use_a_survey_design(survey_window, qtbot):
    from dpdesk.project.study.survey_design import SurveyDesign, survey_design

    window = survey_window
    panel = window.data_view.survey
    assert panel.isVisible()
    assert "simple random sample" in panel.status.text()
    assert "strata 'stratum', PSUs 'psu'" in panel.hint.text()  # offered ...
    assert survey_design(window.project) is None  # ... never applied silently
    qtbot.mouseClick(panel.suggest, Qt.MouseButton.LeftButton)
    assert panel.combos["strata"].currentText() == "stratum" and survey_design(window.project) is None
    _choose(qtbot, panel.combos["weights"], "w")
    _choose(qtbot, panel.combos["fpc"], "(")  # (none): the population sizes are not used
    assert panel.chosen() == SurveyDesign(weights="w", strata="stratum", clusters="psu")
    with qtbot.waitSignal(window.data_view.imported, timeout=5_000):
        qtbot.mouseClick(panel.save, Qt.MouseButton.LeftButton)
    assert survey_design(window.project) == SurveyDesign(weights="w", strata="stratum", clusters="psu")
    assert panel.status.text().startswith("<b>Saved:</b> weight 'w', strata 'stratum', PSUs 'psu'")
    window.resize(1200, 900)
    shot(window, "survey_design_panel")
    window.resize(1024, 700)
    QApplication.processEvents()
    assert window.width() <= 1024, "the Survey design panel widened the window past a 1024 px screen"
    shot(window, "survey_design_panel_1024")

    rv = window.results_view
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        window.nav.setCurrentRow(2)
    res = rv.current.results[0]
    assert res.survey is not None and res.survey.df == 32
    shown = rv.document_view.toPlainText()
    assert "Weighted; Taylor linearization with 4 strata and 36 PSUs; design effect" in shown
    window.resize(1200, 900)
    shot(window, "results_weighted")
    window.resize(1024, 700)
    shot(window, "results_weighted_1024")

    # Tabulate says its noisy tables stay unweighted counts
    window.nav.setCurrentRow(4)
    qtbot.waitUntil(lambda: window.tabulate_view.survey_note.isVisible(), timeout=10_000)
    assert "unweighted counts" in window.tabulate_view.survey_note.text()

    # removing it: a simple random sample again
    window.nav.setCurrentRow(1)
    with qtbot.waitSignal(window.data_view.imported, timeout=5_000):
        qtbot.mouseClick(panel.remove, Qt.MouseButton.LeftButton)
    assert survey_design(window.project) is None and "simple random sample" in panel.status.text()


def test_a_bad_weight_is_refused_in_words(survey_window, qtbot):
    from PySide6.QtWidgets import QMessageBox

    from dpdesk.project.study.survey_design import survey_design

    window = survey_window
    panel = window.data_view.survey
    _choose(qtbot, panel.combos["weights"], "x1")  # a column with negative values
    qtbot.mouseClick(panel.save, Qt.MouseButton.LeftButton)
    box = panel.findChild(QMessageBox, "errorDialog")
    assert box is not None and "must be a positive number" in box.informativeText()
    assert "row" in box.informativeText()
    box.accept()
    assert survey_design(window.project) is None


def test_a_weighted_regression_shows_its_design_t_tests_and_no_likelihood(survey_window, qtbot):
    from dpdesk.gui.shell.tasks import TASKS
    from dpdesk.mechanisms import rr
    from dpdesk.project.study.survey_design import SurveyDesign, set_survey_design

    window = survey_window
    window.project.add_item("forced", rr.design("forced", p_truth=0.7, p_yes=0.15, p_no=0.15), column="z_logit",
                            codes={"no": [0], "yes": [1]}, question="Have you ever used a forbidden drug?")
    set_survey_design(window.project, SurveyDesign(weights="w", strata="stratum", clusters="psu"))
    view = window.regression_view
    with qtbot.waitSignal(view.loader.done, timeout=60_000):
        window.project_changed.emit(window.project)
    window.nav.setCurrentRow(TASKS.index("Regression"))
    f = view.form
    f.outcome.setFocus()
    f.outcome.setCurrentIndex(f.outcome.findData("forced"))
    f.choose("x1")
    f.choose("x2")
    with qtbot.waitSignal(view.fitted, timeout=120_000, check_params_cb=lambda r: r is not None):
        qtbot.mouseClick(view.fit_button, Qt.MouseButton.LeftButton)
    out = view.output
    assert out.design.isVisible()
    assert out.design.text().startswith("Weighted; Taylor linearization with 4 strata and 36 PSUs; design df 32")
    table, tests, fit = " ".join(out.table.toPlainText().split()), out.tests.text(), out.fit_table.text()
    assert view.current.header[3] == "t" and "z" not in view.current.header  # the coefficient table's column
    assert "Design-based Wald test" in tests and "Likelihood-ratio" not in tests and "2, 32" in tests
    for word in ("log-likelihood", "deviance", "AIC", "BIC"):
        assert word not in fit
    assert "design degrees of freedom" in fit
    assert "t and p: Wald t tests on 32 design df" in table and "z and p" not in table  # the note under it
    # the numbers are R's (tests/fixtures/survey/make_references.R, the hand-made sandwich and svymle)
    import json
    from pathlib import Path

    ref = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "survey" / "expected.json").read_text())
    report = view.current
    assert [r["b"] for r in report.coefficients] == pytest.approx(ref["rr_logistic"]["coef"], rel=1e-6)
    assert [r["SE"] for r in report.coefficients] == pytest.approx(ref["rr_logistic"]["se"], rel=1e-6)
    window.resize(1200, 900)
    view.scroll.verticalScrollBar().setValue(0)
    shot(window, "regression_weighted")
    window.resize(1024, 700)
    shot(window, "regression_weighted_1024")
