"""A click made while a wizard page is being built never acts on the page shown after it (issue 20)."""

from __future__ import annotations

import threading
import time

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QWizard

from dpdesk.gui.wizard import settle
from dpdesk.gui.wizard.page_design import DesignPage


@pytest.fixture
def wizard(window, tmp_path, qtbot):
    assert window.create_project(tmp_path / "settle.dpdesk")
    qtbot.mouseClick(window.design_view.new_button, Qt.MouseButton.LeftButton)
    w = window.design_view.wizard
    qtbot.keyClicks(w.question_page.question, "Have you ever copied an exam answer?")
    yield w
    if window.design_view.wizard is not None:
        QWizard.done(window.design_view.wizard, 0)  # closed without the "discard?" question


def queue_click(button) -> None:
    """A click the user makes while the GUI is busy: it waits in the queue until the build is done."""
    centre = QPointF(button.rect().center())
    glob = QPointF(button.mapToGlobal(button.rect().center()))
    for kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease):
        QCoreApplication.postEvent(button, QMouseEvent(kind, centre, glob, Qt.MouseButton.LeftButton,
                                                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))


def test_a_click_during_a_slow_page_build_is_dropped(wizard, qtbot, monkeypatch):
    next_button = wizard.button(QWizard.WizardButton.NextButton)
    build = DesignPage._build

    def slow_build(page):  # the first build of page 2 (as when scipy was first imported): the user clicks again
        build(page)
        queue_click(next_button)
        end = time.perf_counter() + 2 * settle.SLOW
        while time.perf_counter() < end:  # busy, as a real build is (no event loop meanwhile)
            pass

    monkeypatch.setattr(DesignPage, "_build", slow_build)
    qtbot.mouseClick(next_button, Qt.MouseButton.LeftButton)
    assert wizard.currentPage() is wizard.design_page
    assert wizard.settle.settling
    qtbot.waitUntil(lambda: not wizard.settle.settling, timeout=5_000)
    assert wizard.currentPage() is wizard.design_page  # the queued click did not skip the page
    assert wizard.settle.dropped >= 2  # its press and release
    qtbot.mouseClick(next_button, Qt.MouseButton.LeftButton)  # a click on the page shown acts as usual
    assert wizard.currentPage() is wizard.randomizer_page


def test_quick_page_changes_are_not_held_up(wizard, qtbot):
    next_button = wizard.button(QWizard.WizardButton.NextButton)
    back_button = wizard.button(QWizard.WizardButton.BackButton)
    qtbot.mouseClick(next_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not wizard.settle.settling, timeout=5_000)
    qtbot.mouseClick(back_button, Qt.MouseButton.LeftButton)  # a warm page: no settling at all
    assert not wizard.settle.settling
    qtbot.mouseClick(next_button, Qt.MouseButton.LeftButton)
    assert not wizard.settle.settling and wizard.currentPage() is wizard.design_page


def click_next(qtbot, wizard) -> None:
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.NextButton), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not wizard.settle.settling, timeout=10_000)


def test_design_page_shows_before_its_facts_on_first_use(wizard, qtbot, monkeypatch):
    from dpdesk.gui.wizard import page_design

    monkeypatch.setattr(page_design, "loaded", lambda module: False)  # as before scipy is loaded
    gate, job = threading.Event(), page_design.facts_job

    def slow_facts(*args):  # the facts take as long as the first import of scipy did: held until seen
        assert gate.wait(30)
        return job(*args)

    monkeypatch.setattr(page_design, "facts_job", slow_facts)
    page = wizard.design_page
    with qtbot.waitSignal(page.runner.done, timeout=60_000):
        click_next(qtbot, wizard)
        assert wizard.currentPage() is page
        assert {label.text() for label in page._facts.values()} == {page_design.WORKING}
        gate.set()
    assert all(label.text().startswith("<b>Privacy:</b>") for label in page._facts.values())


def test_preview_bar_is_full_only_once_the_plot_is_drawn(wizard, qtbot):
    meaning = wizard.meaning_page
    meaning.seed = 1
    seen = []
    meaning.runner.progress.connect(lambda fraction, _text: seen.append(fraction))
    click_next(qtbot, wizard)
    click_next(qtbot, wizard)
    with qtbot.waitSignal(meaning.runner.done, timeout=60_000):
        click_next(qtbot, wizard)  # the preview starts as the page opens (no delay)
        assert wizard.currentPage() is meaning and meaning.runner.running
    assert seen and max(seen) < 1  # the worker never reports the end: drawing is part of the work
    assert meaning.progress.value() == 100 and meaning.plot.canvas is not None
    assert meaning.plot.figure.axes and meaning.plot.table.rowCount() == meaning.runs


def test_meaning_page_shows_before_its_figures_on_first_use(wizard, qtbot, monkeypatch):
    from dpdesk.gui.wizard import page_meaning

    meaning = wizard.meaning_page
    meaning.seed = 1
    ready = []  # the planning libraries "load" in the loader's job

    gate = threading.Event()

    def load_job(job, module):  # held until the page was seen without its figures
        assert gate.wait(30)
        ready.append(module)
        return module

    monkeypatch.setattr(page_meaning.prewarm, "loaded", lambda module: bool(ready))
    monkeypatch.setattr(page_meaning.prewarm, "load_job", load_job)
    click_next(qtbot, wizard)
    click_next(qtbot, wizard)
    with qtbot.waitSignal(meaning.loader.done, timeout=60_000):
        click_next(qtbot, wizard)
        assert wizard.currentPage() is meaning
        assert "Working it out" in meaning.precision.text()
        assert meaning.runner.running  # the preview does not wait for the figures
        gate.set()
    qtbot.waitUntil(lambda: "Working it out" not in meaning.precision.text(), timeout=10_000)
    assert "respondents" in meaning.precision.text() and ready == [page_meaning.PLANNING]
    qtbot.waitUntil(lambda: not meaning.runner.running, timeout=60_000)


def test_background_threads_import_one_library_at_a_time(monkeypatch):
    """Two threads running matplotlib's import at once could each get a half-initialised module (the
    wizard's first preview failed now and then: "module 'matplotlib' has no attribute 'get_data_path'").
    Every background import goes through one lock, and a second thread waits for the first."""
    import threading

    from dpdesk.gui.shell import prewarm

    inside, overlap, seen = [0], [], []
    gate = threading.Event()

    def fake_import(name):
        inside[0] += 1
        overlap.append(inside[0])
        seen.append(name)
        gate.wait(0.2)  # long enough for the other thread to try
        inside[0] -= 1

    monkeypatch.setattr(prewarm.importlib, "import_module", fake_import)
    monkeypatch.setattr(prewarm, "loaded", lambda name: False)
    threads = [threading.Thread(target=prewarm.import_now, args=(f"lib{i}",)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert sorted(seen) == ["lib0", "lib1", "lib2"] and max(overlap) == 1  # never two at once
    assert prewarm.load_job(None, "lib3") == "lib3" and seen[-1] == "lib3"  # the wizard's loader too
