"""A dataset without a source file (added through the API, or with no SHA-256 recorded) shows in the
Data view when chosen with the mouse, saying where it came from in words."""

from __future__ import annotations

import pandas as pd
import pytest

from tests.gui.test_gui_mappings_per_dataset import choose, go_to


@pytest.fixture
def study(tmp_path):
    """wave1.csv imported from a file; 'from code' added through the API without a source (active)."""
    from dpdesk.project import Project
    from dpdesk.project.reading.importing import import_file

    pd.DataFrame({"q7": ["Yes", "No"] * 30}).to_csv(tmp_path / "wave1.csv", index=False)
    path = tmp_path / "study.dpdesk"
    with Project.create(path) as p:
        import_file(p, tmp_path / "wave1.csv")
        p.add_dataset("from code", pd.DataFrame({"q7": ["Yes"] * 5 + ["No"] * 15, "age": range(20)}))
        p.add_dataset("named only", pd.DataFrame({"q7": ["No"] * 4}), source={"name": "counts.csv"})
    return path


def _choose(view, qtbot, dataset):
    with qtbot.waitSignal(view.dataset_shown, timeout=30_000, check_params_cb=lambda d: d == dataset):
        choose(qtbot, view.datasets, dataset)
    return view.info.text()


def test_a_dataset_without_a_source_file_shows_when_chosen(window, qtbot, study):
    window.open_project(study)
    go_to(window, qtbot, 1)  # Data
    view = window.data_view
    qtbot.waitUntil(lambda: view.shown_dataset is not None, timeout=30_000)
    assert "from wave1.csv (SHA-256 " in _choose(view, qtbot, "wave1.csv")
    assert _choose(view, qtbot, "from code") == "<b>from code</b>: 20 rows, 2 columns, added without a source file"
    assert view.model.rowCount() == 20
    assert window.dataset_label.text() == "Data: from code (20 rows)"
    assert _choose(view, qtbot, "named only") == "<b>named only</b>: 4 rows, 1 columns, from counts.csv"
    assert "from wave1.csv (SHA-256 " in _choose(view, qtbot, "wave1.csv")
