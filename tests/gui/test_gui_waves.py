"""Waves in the app (issue 29): Results 'Subgroups by: dataset' compares wave 1 under its design and
wave 2 unweighted whatever dataset is active, says which is weighted, never names a command-line
option; Export report never waits for results that will not come."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from dpdesk.errors import DataError
from tests.gui.test_gui_mappings_per_dataset import choose, go_to
from tests.project.test_waves import ref, waves  # noqa: F401 - fixtures


@pytest.mark.parametrize("active", ["wave 1", "wave 2"])
def test_subgroups_by_dataset_use_each_waves_design(window, qtbot, waves, ref, active):  # noqa: F811
    from dpdesk.gui.views.results_view import DATASETS
    from dpdesk.project import Project
    from dpdesk.project.study.active import set_active_dataset

    with Project.open(waves) as p:
        set_active_dataset(p, active)
    rv = window.results_view
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        window.open_project(waves)
        go_to(window, qtbot, 2)
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None) as got:
        choose(qtbot, rv.by, DATASETS)
    (r,) = got.args[0].results
    assert r.error is None and rv.failure is None
    assert r.subgroups.estimates["wave 1"].prevalence == pytest.approx(ref["estimate1"], rel=1e-6)
    shown = rv.document_view.toPlainText()
    assert "wave 1 weighted" in shown and "wave 2 unweighted" in shown
    assert f"{100 * ref['estimate1']:.1f}" in shown
    assert "--" not in shown + rv.state.text()
    assert rv.report_blocker() is None


def test_export_report_after_a_failed_run_says_why(window, qtbot, waves, monkeypatch):  # noqa: F811
    from dpdesk.project.analysis import estimates

    rv = window.results_view
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        window.open_project(waves)
        go_to(window, qtbot, 2)

    def refuse(*args, **kwargs):
        raise DataError("The weights of wave 3 are blank in rows 4 to 9.")

    monkeypatch.setattr(estimates, "analyze", refuse)
    with qtbot.waitSignal(rv.jobs.failed, timeout=60_000):
        rv.recompute()
    said = []
    monkeypatch.setattr(QMessageBox, "information", lambda parent, title, text, *a: said.append(text))
    window.export_report()  # File > Export report
    assert len(said) == 1
    assert "could not be computed" in said[0] and "rows 4 to 9" in said[0] and "not ready" not in said[0]
