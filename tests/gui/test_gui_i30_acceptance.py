"""Issue 30 in the app, as an outside checker drives it: a column that does not vary, chosen for the linear
model's outcome or among the correlations, gets words (it ended in "math domain error", and a correlation that
is not defined was given p = 0)."""

from __future__ import annotations

import html

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
