"""The randomizer step warns, in words, when a crosswise or ECWM question B is answered 'yes' by about half
of people (six birth months of twelve): what it costs (the sample grows as 1/(2p - 1)^2) and what to choose
instead. Months ticked with the keyboard (Tab to a box, Space)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QWizard


def _click_next(qtbot, wizard) -> None:
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.NextButton), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not wizard.settle.settling)


def _randomizer_page(window, qtbot, design: str):
    wizard = window.design_view.new_item()
    qtbot.waitExposed(wizard)
    qtbot.keyClicks(wizard.question_page.question, "Have you ever cheated on an exam?")
    _click_next(qtbot, wizard)
    page = wizard.design_page
    button = page.buttons[design]
    page.inner.parentWidget().parentWidget().ensureWidgetVisible(button)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(10, button.height() // 2))
    assert page.selected() == design
    _click_next(qtbot, wizard)
    return wizard, wizard.randomizer_page


def _press_space(qtbot, box) -> None:
    box.setFocus()
    qtbot.waitUntil(box.hasFocus)
    qtbot.keyClick(box, Qt.Key.Key_Space)


@pytest.mark.parametrize("design", ["ecwm", "crosswise"])
def test_question_b_near_one_half_is_warned_with_its_cost(window, qtbot, tmp_path, design):
    assert window.create_project(tmp_path / "w.dpdesk")
    wizard, rp = _randomizer_page(window, qtbot, design)
    assert rp.current_device() == "birthday"
    months = rp.editors["p"]
    assert months.months() == [1, 2, 3] and not rp.share_warning.isVisibleTo(rp)  # the usual quarter: no warning
    for box in months.boxes[3:6]:  # April, May, June: six months, a share of about 1/2
        _press_space(qtbot, box)
    assert months.months() == [1, 2, 3, 4, 5, 6]
    assert rp.isComplete()  # a warning, not a refusal
    assert rp.share_warning.isVisibleTo(rp)
    text = rp.share_warning.text()
    assert "49.6% of people, close to one half" in text and "1/(2p − 1)²" in text
    assert "about 4,386 times as many respondents" in text  # (1/2)^2 / (2 * 72497/146097 - 1)^2
    assert "below 37.5% or above 62.5%" in text
    assert ("non-adherence test" in text) == (design == "ecwm")
    _press_space(qtbot, months.boxes[5])  # June off again: five months, 41.4%: still close
    assert "41.4%" in rp.share_warning.text() and "about 8.5 times as many" in rp.share_warning.text()
    _press_space(qtbot, months.boxes[4])  # four months, 33.1%: far enough
    QApplication.processEvents()
    assert not rp.share_warning.isVisibleTo(rp) and rp.share_warning.text() == ""
    wizard.reject()
