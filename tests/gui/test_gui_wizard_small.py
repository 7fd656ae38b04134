"""Every wizard page at its own size and on a small screen (1024 x 700 less a task bar): screenshots
in docs/screenshots, and no button cut off or outside the visible part of the page."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication

from tests.gui.test_gui_fit_1024 import clipped_buttons
from tests.helpers.gui import shot


@pytest.mark.parametrize("size", [None, (1000, 620)])
def test_wizard_pages_fit(window, qtbot, tmp_path, size):
    from dpdesk.gui.widgets.screen_fit import fit_on_screen

    assert window.create_project(tmp_path / "small.dpdesk")
    wizard = window.design_view.new_item()
    wizard.meaning_page.seed = 1
    qtbot.waitExposed(wizard)
    suffix = ""
    if size is not None:
        fit_on_screen(wizard, QRect(0, 0, *size))
        assert wizard.height() <= size[1] and wizard.width() <= size[0]
        suffix = "_small"
    page = wizard.question_page
    qtbot.keyClicks(page.question, "Which faculty are you in, and how often did you copy homework this term?")
    page.kind_buttons["categories"].setChecked(True)
    qtbot.keyClicks(page.categories, "never, once, several times, every week")
    pages = ["question", "design", "randomizer", "meaning", "instructions"]
    for i, name in enumerate(pages):
        QApplication.processEvents()
        shot(wizard, f"wizard_categories_{i + 1}_{name}{suffix}")
        assert clipped_buttons(wizard) == [], name
        if name == "randomizer":
            with qtbot.waitSignal(wizard.meaning_page.runner.done, timeout=60_000):
                wizard.next()
        elif name != "instructions":
            wizard.next()
    wizard.reject()
