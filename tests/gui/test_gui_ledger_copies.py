"""Issue 21, section 2, in the app: two copies of a project count each other's spending after the split.

survey.dpdesk releases 0.2, is copied to copy.dpdesk, releases 0.3; the copy (confirmed once as a
copy) shows "spent here 0.2, in copies on this computer 0.3, left 0.5", refuses 0.6 naming the
other file (nothing spent), releases 0.4; the first file then shows the copy's 0.4 and goes on.
"""

from __future__ import annotations

import shutil
from fractions import Fraction

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from dpdesk.gui.shell.tasks import TASKS
from dpdesk.project import ledger
from tests.helpers.gui import shot
from tests.gui.test_gui_tabulate import histogram, open_tabulate, release_and_wait, view  # noqa: F401


@pytest.fixture(autouse=True)
def _folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def _tabulate(window, path):
    v = open_tabulate(window, path)
    window.nav.setCurrentRow(TASKS.index("Tabulate"))
    return v


def test_two_copies_count_each_others_spending_after_the_split(view, window, qtbot, tmp_path, monkeypatch):
    view.apply_budget(Fraction(1))
    histogram(view, 0.2)
    release_and_wait(view, qtbot)
    first = window.project.path
    window.close_project()
    copy = tmp_path / "copy.dpdesk"
    shutil.copyfile(first, copy)
    v = _tabulate(window, first)
    histogram(v, 0.3)
    release_and_wait(v, qtbot)
    window.close_project()

    v = _tabulate(window, copy)  # behind the first file: a copy made at release #1, confirmed once
    v.tabs.setCurrentWidget(v.ledger_view)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    qtbot.mouseClick(v.ledger_view.accept_button, Qt.MouseButton.LeftButton)
    histogram(v, 0.05)
    state = v.meter.state
    assert state.remaining == Fraction(1, 2) and state.spent == Fraction(1, 2)
    assert state.people_text == ("spent here ε = 0.2, in copies on this computer ε = 0.3, left ε = 0.5 of the "
                                 "people's budget ε = 1")
    assert "Spent here</b> ε = 0.2 in 1 release(s)" in v.panel.spent.text()
    assert "in copies on this computer</b> ε = 0.3" in v.panel.spent.text()
    assert "ε = 0.5" in v.meter.label.text()
    assert "Spent here ε = 0.2, in copies on this computer ε = 0.3" in v.meter.toolTip()
    copies = [s for s in state.segments if s.label == "copies"]
    assert len(copies) == 1 and copies[0].width == Fraction(3, 10) and str(first) in copies[0].tip
    shot(window, "tabulate_budget_copies")
    from PySide6.QtWidgets import QLabel

    from dpdesk.gui.dialogs.budget import BudgetDialog

    dialog = BudgetDialog(ledger.budget_status(window.project), window)
    qtbot.addWidget(dialog)
    assert any("ε = 0.5 is spent (ε = 0.2 here, ε = 0.3 in copies of this project on this computer" in label.text()
               for label in dialog.findChildren(QLabel))

    histogram(v, 0.6)  # does not fit the people's budget: refused before the click, naming the other file
    assert not v.release_button.isEnabled() and "does not fit" in v.reason.text()
    assert f"ε = 0.3 in {first}" in v.reason.text()
    assert len(ledger.ledger(window.project)) == 1  # nothing spent

    texts = []
    v.confirm = lambda parent, text: texts.append(text) or True
    histogram(v, 0.4)
    assert v.release_button.isEnabled()
    release_and_wait(v, qtbot)
    assert "These people's budget: spent here ε = 0.2, in copies on this computer ε = 0.3" in texts[0]
    assert ledger.budget_status(window.project).remaining_epsilon == Fraction(1, 10)
    window.close_project()

    v = _tabulate(window, first)  # the first file goes on, and counts the copy's 0.4
    histogram(v, 0.1)
    assert v.meter.state.people_text.startswith(
        "spent here ε = 0.5, in copies on this computer ε = 0.4, left ε = 0.1")
    assert v.release_button.isEnabled()
    release_and_wait(v, qtbot)
    assert ledger.budget_status(window.project).remaining_epsilon == 0
