"""The Results view's "Subgroups by" choice is saved with the project and restored when it reopens (issue 29),
chosen with real clicks and keys; a saved choice the data no longer has is ignored."""

from __future__ import annotations

import pytest

from tests.gui.test_gui_mappings_per_dataset import choose, go_to
from tests.project.test_waves import waves  # noqa: F401 - the fixture


@pytest.fixture
def example(tmp_path):
    from dpdesk.gui.shell.example_project import build_example

    return build_example(None, tmp_path / "example.dpdesk")


def _open_results(window, qtbot, path):
    rv = window.results_view
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        window.open_project(path)
        go_to(window, qtbot, 2)
    return rv


def test_subgroups_by_is_restored_on_reopen(window, qtbot, example):
    rv = _open_results(window, qtbot, example)
    assert rv.by.currentData() is None
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        choose(qtbot, rv.by, "faculty")
    window.close_project()
    rv = _open_results(window, qtbot, example)
    assert rv.by.currentData() == "faculty"
    assert rv.current.options.by == "faculty"  # the results are by faculty, not only the box


def test_datasets_compared_are_restored_and_a_stale_choice_is_ignored(window, qtbot, waves):  # noqa: F811
    from dpdesk.gui.views.results_view import DATASETS
    from dpdesk.project import Project
    from dpdesk.project.analysis.subgroup_choice import DATASETS as SAVED, save_subgroups

    assert DATASETS == SAVED
    rv = _open_results(window, qtbot, waves)
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        choose(qtbot, rv.by, DATASETS)
    window.close_project()
    rv = _open_results(window, qtbot, waves)
    assert rv.by.currentData() == DATASETS and rv.current.options.by_dataset
    window.close_project()
    with Project.open(waves) as p:
        save_subgroups(p, "no such column")
    rv = _open_results(window, qtbot, waves)
    assert rv.by.currentData() is None
