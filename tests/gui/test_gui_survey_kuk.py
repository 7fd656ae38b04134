"""Kuk's card design with 25 cards and a known population size, typed in the Survey design panel (issue 32).

RRTCS's ``KukData``: the population size is typed with the keyboard and saved with the mouse;
the Results view shows the Horvitz-Thompson mean of the mean red card, RRTCS's ``Kuk()``
estimate, and its note names it. A population size that is not a number is refused in words.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
from PySide6.QtCore import Qt

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "survey"
KUK = json.loads((FIXTURES / "rrtcs_expected.json").read_text())["more"]["kuk"]


def _kuk_window(window, tmp_path, qtbot):
    from dpdesk.mechanisms import rr

    window.create_project(tmp_path / "kuk.dpdesk")
    frame = pd.read_csv(FIXTURES / "rrtcs_kuk.csv")
    window.project.add_dataset("kukdata", frame, source={"name": "rrtcs_kuk.csv", "sha256": "0" * 64, "size": 1})
    window.project.add_item("sex", rr.design("kuk", p1=0.6, p2=0.2, draws=25), column="z",
                            codes={f"{k} red": [k] for k in range(26)})
    with qtbot.waitSignal(window.data_view.dataset_shown, timeout=30_000):
        window.project_changed.emit(window.project)
        window.nav.setCurrentRow(1)
    return window


def test_a_population_size_typed_in_the_panel_gives_rrtcs_kuk_estimate(window, tmp_path, qtbot):
    from dpdesk.project.study.survey_design import SurveyDesign, survey_design

    window = _kuk_window(window, tmp_path, qtbot)
    panel = window.data_view.survey
    panel.combos["weights"].setFocus()
    qtbot.keyClicks(panel.combos["weights"], "w")
    panel.population.setFocus()
    qtbot.keyClicks(panel.population, "802")
    with qtbot.waitSignal(window.data_view.imported, timeout=5_000):
        qtbot.mouseClick(panel.save, Qt.MouseButton.LeftButton)
    assert survey_design(window.project) == SurveyDesign(weights="w", population=802.0)
    assert "population size 802" in panel.status.text() and "mean red card" in panel.status.text()

    rv = window.results_view
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        window.nav.setCurrentRow(2)
    est = rv.current.results[0].survey
    assert abs(est.unconstrained - KUK["rrtcs_estimate"]) < 1e-12
    assert abs(est.se / KUK["survey"]["se"] - 1) < 1e-6
    assert "Horvitz-Thompson estimate of the mean red card with population size 802" in \
        rv.document_view.toPlainText()


def test_a_population_size_that_is_not_a_number_is_refused_in_words(window, tmp_path, qtbot):
    from PySide6.QtWidgets import QMessageBox

    from dpdesk.project.study.survey_design import survey_design

    window = _kuk_window(window, tmp_path, qtbot)
    panel = window.data_view.survey
    panel.combos["weights"].setFocus()
    qtbot.keyClicks(panel.combos["weights"], "w")
    panel.population.setFocus()
    qtbot.keyClicks(panel.population, "eight hundred")
    qtbot.mouseClick(panel.save, Qt.MouseButton.LeftButton)
    box = panel.findChild(QMessageBox, "errorDialog")
    assert box is not None and "is not a positive number" in box.informativeText()
    box.accept()
    assert survey_design(window.project) is None
