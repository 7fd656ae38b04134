"""The Tabulate view: preview, cost <-> accuracy, release in a worker, replay, refusal, plan."""

from __future__ import annotations

from fractions import Fraction

import pandas as pd
import pytest
from PySide6.QtWidgets import QMessageBox

from dpdesk.gui.shell.tasks import TASKS
from tests.helpers.gui import shot

FACULTIES = ["Arts", "Law", "Medicine", "Science"]


def survey_frame(genders=("female", "male")) -> pd.DataFrame:
    """A small survey: 400 respondents, faculty, gender, age (fixed, no randomness needed)."""
    n = 400
    return pd.DataFrame({
        "faculty": [FACULTIES[i % 4] for i in range(n)],
        "gender": [genders[0] if i % 3 else genders[1] for i in range(n)],
        "age": [18 + (i * 7) % 40 for i in range(n)],
    })


def make_project(folder, frame: pd.DataFrame | None = None):
    """A project whose one dataset, "students", is ``frame`` (default :func:`survey_frame`)."""
    from dpdesk.project.file.store import Project

    path = folder / "survey.dpdesk"
    with Project.create(path) as project:
        project.add_dataset("students", survey_frame() if frame is None else frame,
                            source={"name": "students.csv", "sha256": "ab" * 32}, options={}, report={})
    return path


def open_tabulate(window, path):
    """Open the project at ``path`` and show its Tabulate view (releases confirmed without asking)."""
    assert window.open_project(path)
    v = window.tabulate_view
    v.confirm = lambda parent, text: True
    window.nav.setCurrentRow(TASKS.index("Tabulate"))
    return v


@pytest.fixture
def view(window, tmp_path, qtbot):
    return open_tabulate(window, make_project(tmp_path))


def histogram(v, epsilon=0.1):
    f = v.form
    f.statistic.setCurrentIndex(1)
    f.axis1.column.setCurrentText("faculty")
    f.axis1.values.setText(", ".join(FACULTIES))
    f.by_cost.setChecked(True)
    f.epsilon.setValue(epsilon)
    v.update_preview()


def release_and_wait(v, qtbot, button=None):
    with qtbot.waitSignal(v.released, timeout=20000) as blocker:
        (button or v.release_button).click()
    qtbot.waitUntil(lambda: not v._releasing, timeout=5000)
    return blocker.args[0]


def spent(window):
    from dpdesk.project import ledger

    return ledger.budget_status(window.project).spent_epsilon


def test_preview_then_release_updates_meter_and_replay_is_free(view, window, qtbot):
    assert not view.release_button.isEnabled()
    assert "budget" in view.reason.text().lower()
    assert view.apply_budget(Fraction(1))
    histogram(view, 0.1)
    assert view.preview is not None and view.preview.fits
    assert "ε = 0.1" in view.preview_label.text() and "±" in view.preview_label.text()
    assert view.meter.state.pending is not None and view.meter.state.pending_fits
    assert view.release_button.isEnabled()
    entries = release_and_wait(view, qtbot)
    assert len(entries) == 1 and not entries[0].replayed
    assert spent(window) == Fraction(1, 10)
    assert view.meter.state.spent == Fraction(1, 10) and len(view.meter.state.segments) == 1
    assert view.result.table.rowCount() == 4
    assert "negative" in view.result.notes.text()  # the post-processing is named
    assert view.ledger_view.table.rowCount() == 1
    # the same request again: free, shown again, never re-noised
    view.update_preview()
    assert view.preview.replay and "free" in view.preview_label.text().lower()
    again = release_and_wait(view, qtbot)
    assert again[0].replayed and again[0].values == entries[0].values
    assert spent(window) == Fraction(1, 10)
    assert "no cost" in view.result.title.text()


def test_cost_and_accuracy_follow_each_other(view, qtbot):
    view.apply_budget(Fraction(1))
    histogram(view, 0.5)
    hw = view.preview.half_width["simultaneous"]
    assert view.form.accuracy.value() == pytest.approx(hw)
    view.form.by_accuracy.click()
    view.form.accuracy.setValue(10)
    view.update_preview()
    assert "accuracy" in view.preview.request
    assert view.preview.half_width["simultaneous"] <= 10
    assert view.form.epsilon.value() == pytest.approx(float(view.preview.cost_epsilon), abs=1e-4)


def test_over_budget_is_disabled_with_reason_and_refused_with_nothing_spent(view, window, qtbot):
    from dpdesk.project import ledger

    view.apply_budget(Fraction(1, 2))
    histogram(view, 0.8)
    assert not view.preview.fits
    assert not view.release_button.isEnabled()
    assert view.reason.isVisible() and "does not fit" in view.reason.text()
    assert view.meter.state.warning  # red before any click
    # the budget is lowered behind the view's back after a preview that fitted: the ledger refuses
    histogram(view, 0.3)
    qtbot.waitUntil(lambda: not view._timer.isActive(), timeout=5000)  # the preview settled (a click within
    assert view.release_button.isEnabled()                              # its delay would preview again)
    ledger.lower_budget(window.project, Fraction(1, 5))
    with qtbot.waitSignal(view.jobs.failed, timeout=20000):
        view.release_button.click()
    qtbot.waitUntil(lambda: not view._releasing, timeout=5000)
    assert spent(window) == 0 and ledger.ledger(window.project) == []
    assert isinstance(view.error_box, QMessageBox) and "nothing was spent" in view.error_box.informativeText()
    view.error_box.close()
    assert not view.release_button.isEnabled()


def test_rapid_double_click_spends_once(view, window, qtbot):
    view.apply_budget(Fraction(1))
    histogram(view, 0.2)
    with qtbot.waitSignal(view.released, timeout=20000):
        view.release_button.click()
        view.release_button.click()
        view.release()
    qtbot.waitUntil(lambda: not view._releasing, timeout=5000)
    assert spent(window) == Fraction(1, 5)
    from dpdesk.project import ledger

    assert len(ledger.ledger(window.project)) == 1


def test_cancelled_release_spends_nothing(view, window, qtbot):
    view.apply_budget(Fraction(1))
    histogram(view, 0.2)
    import threading

    original = view.jobs.start

    def start(fn, *args):
        gate = threading.Event()

        def gated(job, *a):  # the worker starts only once Cancel was pressed
            assert gate.wait(30)
            return fn(job, *a)

        job = original(gated, *args)
        job.cancel()  # cancelled before its first stage: the transaction rolls back
        gate.set()
        return job

    view.jobs.start = start
    view.release_button.click()
    qtbot.waitUntil(lambda: not view._releasing, timeout=20000)
    assert spent(window) == 0


def test_plan_several_evenly_and_by_weights_then_release_together(view, window, qtbot):
    view.apply_budget(Fraction(1))
    histogram(view, 0.1)
    view.add_to_plan()
    f = view.form
    f.statistic.setCurrentIndex(0)  # count
    view.add_to_plan()
    f.statistic.setCurrentIndex(4)  # mean of age
    f.column.setCurrentText("age")
    f.lower.setText("18")
    f.upper.setText("60")
    view.add_to_plan()
    view.make_plan()
    eps = [Fraction(p["epsilon"]) for p in view.plan.planned]
    assert eps == [Fraction(1, 3)] * 3
    assert "±" in view.plan.table.item(0, 3).text()
    view.plan.by_weight.setChecked(True)
    view.plan.table.cellWidget(0, 1).setValue(2)
    view.make_plan()
    eps = [Fraction(p["epsilon"]) for p in view.plan.planned]
    assert eps == [Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)]
    view.tabs.setCurrentIndex(1)
    shot(window, "tabulate_plan")
    entries = release_and_wait(view, qtbot, view.plan.release_button)
    assert len(entries) == 3
    assert spent(window) == 1
    assert view.meter.state.remaining == 0 and len(view.meter.state.segments) == 3
    assert view.plan.requests == [] and "released" in view.plan.status.text()


def test_close_and_reopen_shows_the_same_meter(view, window, qtbot, tmp_path):
    view.apply_budget(Fraction(1))
    histogram(view, 0.25)
    release_and_wait(view, qtbot)
    before = view.meter.state
    path = window.project.path
    window.close_project()
    assert not view.meter.state.has_budget
    assert window.open_project(path)
    after = window.tabulate_view.meter.state
    assert (after.total, after.spent, after.remaining, len(after.segments)) == \
           (before.total, before.spent, before.remaining, len(before.segments))
    assert after.remaining_text == before.remaining_text


def test_opening_an_old_release_costs_nothing(view, window, qtbot):
    view.apply_budget(Fraction(1))
    histogram(view, 0.1)
    release_and_wait(view, qtbot)
    view.ledger_view.table.selectRow(0)
    view.ledger_view.open_button.click()
    assert "costs nothing" in view.result.title.text()
    assert spent(window) == Fraction(1, 10)


def test_gaussian_noise_needs_a_delta_and_the_meter_follows_the_accountant(view, window, qtbot):
    from dpdesk.project import ledger

    gaussian = view.form.mechanism.model().item(1)
    view.apply_budget(Fraction(1), Fraction(1, 10**6))
    assert gaussian.isEnabled()
    histogram(view, 0.2)
    view.form.mechanism.setCurrentIndex(1)
    view.update_preview()
    pv = view.preview
    assert pv.fits and pv.cost_epsilon <= Fraction(1, 5) and "δ = 10⁻⁶" in view.preview_label.text()
    release_and_wait(view, qtbot)
    status = ledger.budget_status(window.project)
    assert view.meter.state.spent == status.spent_epsilon
    assert sum(s.width for s in view.meter.state.segments) == status.spent_epsilon
