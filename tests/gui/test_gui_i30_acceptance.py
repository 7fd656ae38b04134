"""Issue 30 in the app, as an outside checker drives it: a column that does not vary, chosen for the linear
model's outcome or among the correlations, gets words (it ended in "math domain error", and a correlation that
is not defined was given p = 0)."""

from __future__ import annotations

import html
import math

import numpy as np
import pandas as pd
from PySide6.QtCore import Qt

from tests.gui.test_gui_regression_models import _correlations_tab, _idle, _open, _pick, _project, _tick_in_list


def _constant_column_project(tmp_path):
    from dpdesk.mechanisms import rr

    rng = np.random.default_rng(30)
    n = 120
    truth = rng.random(n) < 0.5
    answer = np.where(rng.random(n) < 0.7, truth, ~truth)
    unanswered = np.arange(n) < 10  # the only rows of wave 4 have no answer: among the rows used wave is constant
    frame = pd.DataFrame({"answer": np.where(unanswered, "", np.where(answer, "yes", "no")),
                          "score": rng.normal(size=n).round(3) + truth, "wave": np.where(unanswered, 4, 3)})
    warner = rr.design("warner", p=0.7)
    return _project(tmp_path, frame, [("drug", warner, dict(column="answer", codes={"yes": ["yes"], "no": ["no"]}))])


def test_a_column_constant_on_the_rows_used_gets_words_in_the_linear_model_and_the_correlations(window, qtbot,
                                                                                                 tmp_path):
    view = _open(window, qtbot, _constant_column_project(tmp_path))
    f = view.form
    _pick(qtbot, f.model, "linear")
    _pick(qtbot, f.numeric_outcome, "wave")
    _tick_in_list(qtbot, f.rr_items, "drug")
    with qtbot.waitSignal(view.jobs.failed, timeout=60_000):
        qtbot.mouseClick(view.fit_button, Qt.MouseButton.LeftButton)
    assert "same value (3) for every respondent" in view.output.message.text()
    assert view.current is None and window.project.analyses() == []
    panel = view.correlations
    _correlations_tab(qtbot, view)
    for key in ("drug", "score", "wave"):
        _tick_in_list(qtbot, panel.variables, key)
    with qtbot.waitSignal(panel.computed, timeout=120_000, check_params_cb=lambda r: r is not None):
        qtbot.mouseClick(panel.compute_button, Qt.MouseButton.LeftButton)
    report = panel.current
    i = report.names.index("wave")
    assert all(report.p_value[i][j] is None for j in range(len(report.names)))  # no p (it was 0) for an undefined r
    assert "'wave' are not defined: it does not vary" in html.unescape(panel.note.text())
    assert report.p_value[report.names.index("drug")][report.names.index("score")] is not None
    _idle(view)


def test_a_two_group_item_as_an_rr_predictor_is_fitted_in_the_app_as_in_python(window, qtbot, tmp_path):
    """The stochastic lie detector (two groups) as a predictor of exam stress: offered, fitted, and the numbers
    are the project layer's (the same as ``dpdesk regress --model linear``)."""
    from dpdesk.gui.shell.example_project import build_example
    from dpdesk.project.regression.rr_models import linear_regression
    from tests.gui.test_gui_regression_models import _fit

    path = build_example(None, tmp_path / "example.dpdesk")
    view = _open(window, qtbot, path)
    f = view.form
    _pick(qtbot, f.model, "linear")
    _pick(qtbot, f.numeric_outcome, "exam_stress")
    _tick_in_list(qtbot, f.rr_items, "drug_use")
    report = _fit(view, qtbot)
    assert report.spec.rr_items == ["drug_use"]
    fit = linear_regression(window.project, "exam_stress", ["drug_use"], []).fit
    b = fit.coefficient("drug_use")
    assert b.se > 0 and math.isfinite(b.p_value)
    shown = view.output.table.toPlainText().replace("\u2212", "-")
    assert f"{b.estimate:.2f}" in shown and f"{b.se:.2f}" in shown  # the table is the project layer's fit
    assert any("sld design's t is fixed at its univariate estimate" in n for n in fit.notes)  # as RRlin
    assert "t is fixed at its univariate estimate" in view.output.table.toPlainText()  # shown in the app
    assert "the SEs do not include its uncertainty" in report.note  # and in the report's table note
    _idle(view)
