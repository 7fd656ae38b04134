"""Linked data on Spark local[2] in the app: link with the dialog, a sample drawn by Spark, a release in Tabulate.

Spark takes 20-40 s to start: one module, one session. Skipped, with the reason, only where pyspark or Java 17
is missing (``make test``'s setup installs both).
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from dpdesk.project import Project, ledger, linked
from dpdesk.project.linked.engines import engine_problem
from tests.gui.test_gui_linked import click, click_task, open_link_dialog
from tests.helpers import linked as data

_PROBLEM = engine_problem("spark", "local[2]")
pytestmark = pytest.mark.skipif(_PROBLEM is not None, reason=f"Spark cannot run here: {_PROBLEM}")


@pytest.fixture
def spark_stopped():
    yield
    from dpdesk.project.linked.spark_source import stop_sessions

    stop_sessions()


def test_link_sample_and_release_on_spark_from_the_app(window, qtbot, tmp_path, spark_stopped):
    folder = data.write_parts(data.frame(300), tmp_path / "panel", parts=2)
    path = tmp_path / "study.dpdesk"
    with Project.create(path) as p:
        ledger.set_budget(p, 1)
    dv, dialog = open_link_dialog(window, qtbot, path)
    qtbot.keyClicks(dialog.source, str(folder))
    dialog.engine.setFocus()
    with qtbot.waitSignal(dialog.jobs.done, timeout=30_000):
        qtbot.keyClick(dialog.engine, Qt.Key.Key_Down)  # Spark: it can run here
    assert not dialog.engine_note.isVisible() and dialog.master.text() == "local[2]"
    with qtbot.waitSignal(dv.dataset_shown, timeout=180_000):  # the session starts, then the sample is drawn
        with qtbot.waitSignal(dialog.linked, timeout=180_000):
            click(qtbot, dialog.link_button)
        assert "300 rows, 5 columns" in dialog.report.text()
        dialog.accept()
    assert dv.linked_shown and "linked with spark on local[2]" in dv.info.text() and dv.model.rowCount() == 100
    click_task(qtbot, window, "Tabulate")
    v = window.tabulate_view
    v.confirm = lambda parent, text: True
    assert "linked with spark" in v.linked.text.text()
    qtbot.waitUntil(lambda: v.release_button.isEnabled(), timeout=5000)
    with qtbot.waitSignal(v.released, timeout=180_000) as got:
        click(qtbot, v.release_button)  # a count, ε = 0.1
    (entry,) = got.args[0]
    assert entry.noise_params["source"]["engine"] == "spark" and entry.noise_params["source"]["rows"] == 300
    assert ledger.budget_status(window.project).spent_epsilon * 10 == 1
    assert linked.link_of(window.project.datasets()[0]).master == "local[2]"
