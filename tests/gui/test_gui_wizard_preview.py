"""The wizard's preview: the analytic preview (the guess and its expected 95% interval) is there the moment
"What it means" opens, and the simulated surveys refine it when they are done (they took 2-3 s, with
nothing to see meanwhile)."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWizard


@pytest.fixture
def held(monkeypatch):
    """The simulation waits until the test lets it go: what is shown before it is the analytic preview."""
    from dpdesk.gui.widgets import preview
    from dpdesk.gui.wizard import page_meaning

    gate = threading.Event()
    simulate = preview.simulate_surveys

    def slow(job, *args, **kwargs):
        assert gate.wait(30)
        return simulate(job, *args, **kwargs)

    monkeypatch.setattr(page_meaning, "simulate_surveys", slow)
    yield gate
    gate.set()


def test_the_expected_interval_is_shown_at_once_and_the_simulation_refines_it(window, qtbot, tmp_path, held):
    import dpdesk.mechanisms.rr.planning.sample_size  # noqa: F401 - loaded, as prewarm has it by page 4
    from dpdesk.mechanisms import rr

    assert window.create_project(tmp_path / "preview.dpdesk")
    wizard = window.design_view.new_item()
    wizard.meaning_page.seed = 1
    qtbot.waitExposed(wizard)
    qtbot.keyClicks(wizard.question_page.question, "Have you ever copied an exam answer?")
    next_button = wizard.button(QWizard.WizardButton.NextButton)
    for _ in range(3):
        qtbot.waitUntil(lambda: not wizard.settle.settling)
        qtbot.mouseClick(next_button, Qt.MouseButton.LeftButton)
    mp = wizard.meaning_page
    assert wizard.currentPage() is mp and mp.runner.running  # still simulating ...
    words = mp.plot.expected.text()  # ... and the expected result is already there
    half = rr.expected_halfwidth(wizard.draft.design(), 1000, 0.2)
    assert "Expected" in words and "1,000 respondents" in words and "20.0%" in words
    assert f"{100 * (0.2 - half):.1f}% to {100 * (0.2 + half):.1f}%" in words, words
    assert mp.plot.table.rowCount() == 1 and mp.plot.table.item(0, 0).text() == "Expected"
    with qtbot.waitSignal(mp.runner.done, timeout=60_000):
        held.set()
    assert mp.plot.table.rowCount() == mp.runs and mp.plot.figure.axes  # refined: the simulated surveys
    assert mp.plot.expected.isVisibleTo(mp)
    wizard.reject()
