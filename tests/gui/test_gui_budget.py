"""The budget step, the meter in its states (with screenshots), the release list, tampering."""

from __future__ import annotations

from fractions import Fraction

from PySide6.QtWidgets import QDialog

from dpdesk.gui.shell.tasks import TASKS
from tests.helpers.gui import shot
from tests.gui.test_gui_tabulate import FACULTIES, histogram, make_project, release_and_wait, spent, view  # noqa: F401


def test_dialog_suggests_epsilon_by_harm_and_explains_it(qtbot):
    from dpdesk.gui.dialogs.budget import LEVELS, BudgetDialog, worked_example
    from dpdesk.mechanisms.central import accuracy

    dialog = BudgetDialog()
    qtbot.addWidget(dialog)
    for i, level in enumerate(LEVELS):
        dialog.levels.button(i).click()
        assert dialog.values() == (Fraction(level.epsilon), Fraction(0))
        assert f"ε = {level.epsilon}" in dialog.suggestion.text()
    dialog.levels.button(2).click()  # could cause material harm: 0.25
    one = accuracy.laplace_half_width(Fraction(1) / (Fraction(1, 4) / 5), 0.95, 1)
    assert f"±{one}</b>" in dialog.example.text()
    assert worked_example("0.25") in dialog.example.text()
    dialog.gaussian.setChecked(True)
    assert dialog.values() == (Fraction(1, 4), Fraction(1, 10**6))
    assert "δ" in dialog.example.text()


def test_budget_set_through_the_dialog_then_lowered_never_raised(view, window, qtbot):
    from dpdesk.project import ledger

    dialog = view.budget_dialog()
    dialog.levels.button(2).click()
    shot(dialog, "budget_dialog")
    dialog.ok.click()
    assert ledger.budget_status(window.project).total_epsilon == Fraction(1, 4)
    assert view.panel.button.text().startswith("Lower")
    dialog = view.budget_dialog()
    dialog.epsilon.setValue(0.5)  # above the total: the field stops at the total
    assert dialog.values()[0] == Fraction(1, 4) and not dialog.ok.isEnabled()
    assert "never raised" in dialog.ok.toolTip()
    dialog.epsilon.setValue(0.2)
    assert dialog.ok.isEnabled()
    dialog.ok.click()
    assert ledger.budget_status(window.project).total_epsilon == Fraction(1, 5)
    assert not view.apply_budget(Fraction(1))  # refused by the ledger, in words
    assert "never raised" in view.error_box.informativeText()
    view.error_box.close()
    assert ledger.budget_status(window.project).total_epsilon == Fraction(1, 5)
    dialog = view.budget_dialog()
    dialog.reject()
    qtbot.waitUntil(lambda: view.dialog is None)


def test_meter_states_tooltips_and_screenshots(view, window, qtbot):
    meter, panel = view.meter, view.panel
    assert not meter.state.has_budget and "not set" in meter.label.text()
    shot(panel.parentWidget(), "tabulate_no_budget")
    view.apply_budget(Fraction(1))
    histogram(view, 0.25)
    release_and_wait(view, qtbot)
    view.form.statistic.setCurrentIndex(0)  # a count: nothing pending is released yet
    view.form.epsilon.setValue(0.25)
    view.update_preview()
    release_and_wait(view, qtbot)
    view.form.epsilon.setValue(0.1)
    view.update_preview()
    state = meter.state
    assert state.spent == Fraction(1, 2) and len(state.segments) == 2 and state.pending_fits
    assert state.pending.width == Fraction(1, 10)
    bar = panel.bar
    tip_first = bar.tip_at(bar.width() * 0.1)
    assert "Release #1" in tip_first and "histogram of faculty" in tip_first and "ε = 0.25" in tip_first
    assert "would use ε = 0.1" in bar.tip_at(bar.width() * 0.55)
    assert "Still available" in bar.tip_at(bar.width() * 0.9)
    shot(panel, "meter_pending")
    shot(window.statusBar(), "meter_statusbar_pending")
    view.form.epsilon.setValue(0.8)  # would overspend: red before any click
    view.update_preview()
    assert meter.state.warning and "#c62828" in meter.label.text()
    shot(panel, "meter_would_exceed")
    view.form.statistic.setCurrentIndex(3)  # a sum needs bounds: nothing pending
    view.update_preview()
    assert meter.state.pending is None and not meter.state.warning
    shot(panel, "meter_half")
    view.form.statistic.setCurrentIndex(0)
    view.form.epsilon.setValue(0.45)
    view.update_preview()
    release_and_wait(view, qtbot)
    view.form.statistic.setCurrentIndex(3)
    view.update_preview()
    assert meter.state.nearly_full and not meter.state.warning
    shot(panel, "meter_nearly_full")
    shot(window.statusBar(), "meter_statusbar_nearly_full")


def test_empty_meter_screenshot(view, qtbot):
    view.apply_budget(Fraction(1))
    view.form.statistic.setCurrentIndex(3)
    view.update_preview()
    assert view.meter.state.spent == 0 and view.meter.state.segments == ()
    shot(view.panel, "meter_empty")


def test_tabulate_view_and_ledger_screenshots(view, window, qtbot):
    view.apply_budget(Fraction(1))
    histogram(view, 0.3)
    release_and_wait(view, qtbot)
    f = view.form
    f.statistic.setCurrentIndex(2)  # cross-tab faculty x gender
    f.axis2.column.setCurrentText("gender")
    f.axis2.values.setText("female, male")
    f.epsilon.setValue(0.2)
    view.update_preview()
    release_and_wait(view, qtbot)
    f.statistic.setCurrentIndex(1)
    f.epsilon.setValue(0.15)
    f.by.setCurrentText("gender")
    f.by_keys.setText("female, male")
    view.update_preview()
    assert view.preview.fits and view.meter.state.pending is not None
    shot(window, "tabulate")
    view.tabs.setCurrentWidget(view.ledger_view)
    shot(window, "tabulate_ledger")


def _edit(path, *sql):
    """An edit with sqlite3 that puts dpdesk's triggers back (else the schema check refuses the file)."""
    from tests.helpers.hostile import edit_outside

    edit_outside(path, *sql)


def test_ledger_edited_outside_is_shown_and_releases_stop(view, window, qtbot):
    view.apply_budget(Fraction(1))
    histogram(view, 0.1)
    release_and_wait(view, qtbot)
    path = window.project.path
    window.close_project()
    _edit(path, "DROP TRIGGER releases_no_update",
          """UPDATE releases SET result = replace(result, '"noisy":', '"noisy":1') WHERE seq = 1""",
          "CREATE TRIGGER releases_no_update BEFORE UPDATE ON releases BEGIN SELECT RAISE(ABORT, 'x'); END")
    assert window.open_project(path)
    v = window.tabulate_view
    window.nav.setCurrentRow(TASKS.index("Tabulate"))
    v.tabs.setCurrentWidget(v.ledger_view)
    histogram(v, 0.2)
    assert v.ledger_view.banner.isVisible() and "edited outside dpdesk" in v.ledger_view.banner.text()
    assert not v.release_button.isEnabled() and "stopped" in v.reason.text()
    assert not v.meter.state.intact and v.meter.state.warning
    assert "releases stopped" in v.meter.label.text()
    v.release()  # even a direct call does nothing
    assert spent(window) == Fraction(1, 10)
    shot(window, "tabulate_ledger_edited")


def test_budget_dialog_cancel_sets_nothing(view, window):
    from dpdesk.project import ledger

    dialog = view.budget_dialog()
    dialog.reject()
    assert dialog.result() == QDialog.DialogCode.Rejected
    assert ledger.budget_status(window.project) is None
