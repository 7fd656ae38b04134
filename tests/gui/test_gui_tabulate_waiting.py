"""Issue 28, part 5 in the app: a release that waits for another one on this computer says so,
with Cancel, and goes on when the other is done (never refused for waiting)."""

from __future__ import annotations

from fractions import Fraction

from PySide6.QtCore import Qt

from dpdesk.project.ledger import turns
from tests.gui.test_gui_tabulate import histogram, spent, view  # noqa: F401 - fixture
from tests.project.test_ledger_turns import _Holder

WAITING = "Waiting for another release on this computer to finish"


def _waiting(v, qtbot):
    qtbot.waitUntil(lambda: v.progress.isVisible() and v.progress.format().startswith(WAITING), timeout=20_000)
    assert v.cancel_button.isVisible() and v.cancel_button.isEnabled()


def test_cancel_stops_the_wait_and_spends_nothing(view, window, qtbot):
    view.apply_budget(Fraction(1))
    histogram(view, 0.2)
    with turns.spending_lock():  # another release of this program is under way
        qtbot.mouseClick(view.release_button, Qt.MouseButton.LeftButton)
        _waiting(view, qtbot)
        qtbot.mouseClick(view.cancel_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not view._releasing, timeout=20_000)
        assert spent(window) == 0 and turns.queued() == 1  # out of the queue; only the other one is left
    assert "nothing was spent" in window.statusBar().currentMessage()


def test_a_release_waits_for_another_program_then_goes_on(view, window, qtbot):
    view.apply_budget(Fraction(1))
    histogram(view, 0.2)
    other = _Holder()  # another dpdesk on this computer is releasing
    try:
        qtbot.mouseClick(view.release_button, Qt.MouseButton.LeftButton)
        _waiting(view, qtbot)
        assert spent(window) == 0
        with qtbot.waitSignal(view.released, timeout=30_000):
            other.let_go()
    finally:
        other.let_go()
    qtbot.waitUntil(lambda: not view._releasing, timeout=20_000)
    assert spent(window) == Fraction(1, 5)  # released once the other program was done
