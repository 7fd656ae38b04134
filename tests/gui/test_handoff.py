"""Issue 28, part 3: a hand-off never replaces an open project without asking, and never acts
while a dialog is open (it queues, then asks). Found in a walk through the app: a second start
took over the open project while an import dialog was up, and the half-done mapping was lost.
"""

from __future__ import annotations

import os
import subprocess
import sys

from PySide6.QtCore import Qt

from tests.gui.test_gui_data import messy, open_import, project_window  # noqa: F401 - fixtures
from tests.gui.test_single_instance import server  # noqa: F401 - fixture
from tests.helpers.paths import ROOT


def _project(folder, name):
    from dpdesk.project import Project

    path = folder / f"{name}.dpdesk"
    Project.create(path).close()
    return path


def _button(box, starts: str):
    (button,) = [b for b in box.buttons() if b.text().startswith(starts)]
    return button


def _question(window, qtbot):
    qtbot.waitUntil(lambda: window.handoff.question is not None and window.handoff.question.isVisible(),
                    timeout=10_000)
    return window.handoff.question


def test_keep_leaves_the_open_project_open(project_window, qtbot, tmp_path):
    window = project_window
    before = window.project.path
    other = _project(tmp_path, "other")
    window.bring_forward(str(other))
    box = _question(window, qtbot)
    assert "other.dpdesk" in box.text() and "survey.dpdesk" in box.text()
    assert window.project.path == before  # nothing replaced before the answer
    qtbot.mouseClick(_button(box, "Keep"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.handoff.question is None, timeout=10_000)
    assert window.project.path == before and not window.project.closed
    assert "other.dpdesk was not opened" in window.statusBar().currentMessage()


def test_escape_keeps_the_open_project_and_open_replaces_it(project_window, qtbot, tmp_path):
    window = project_window
    before = window.project.path
    other = _project(tmp_path, "other")
    window.bring_forward(str(other))
    qtbot.keyClick(_question(window, qtbot), Qt.Key.Key_Escape)  # Keep is the escape and the default
    qtbot.waitUntil(lambda: window.handoff.question is None, timeout=10_000)
    assert window.project.path == before
    window.bring_forward(str(other))
    qtbot.mouseClick(_button(_question(window, qtbot), "Open"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.project is not None and window.project.path == other.resolve(), timeout=10_000)


def test_the_same_project_just_comes_forward(project_window, qtbot):
    window = project_window
    window.bring_forward(str(window.project.path))
    assert window.handoff.question is None and window.handoff.pending == []
    assert "already open" in window.statusBar().currentMessage()


def test_a_second_start_waits_while_the_import_dialog_is_up(project_window, server, qtbot, messy, tmp_path):
    """The walk-through's case: an import dialog with its mapping under way, and a second program
    started on another project. The dialog stays, the project stays; once the dialog is closed,
    the window asks."""
    window = project_window
    before = window.project.path
    dialog = open_import(window, qtbot, messy)
    table = dialog.table
    other = _project(tmp_path, "other")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    env.pop("DPDESK_QUIT_AFTER_SHOW", None)
    proc = subprocess.Popen([sys.executable, "-m", "dpdesk", str(other)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        qtbot.waitUntil(lambda: proc.poll() is not None, timeout=60_000)
    finally:
        if proc.poll() is None:
            proc.kill()
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0 and "already running" in out, err
    qtbot.waitUntil(lambda: window.handoff.pending == [str(other.resolve())], timeout=10_000)
    assert dialog.isVisible() and dialog.table is table  # the half-done import is untouched
    assert window.project.path == before and window.handoff.question is None
    assert "waits until" in window.statusBar().currentMessage()
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)  # the researcher closes the dialog
    box = _question(window, qtbot)
    assert window.project.path == before
    qtbot.mouseClick(_button(box, "Open"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.project.path == other.resolve(), timeout=10_000)


def test_requests_queued_behind_a_dialog_are_asked_one_at_a_time_in_order(project_window, qtbot, messy, tmp_path):
    window = project_window
    before = window.project.path
    dialog = open_import(window, qtbot, messy)
    first, second = _project(tmp_path, "first"), _project(tmp_path, "second")
    window.bring_forward(str(first))
    window.bring_forward(str(second))
    window.bring_forward(str(first))  # the same request twice is one
    assert window.handoff.pending == [str(first), str(second)] and window.handoff.question is None
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    box = _question(window, qtbot)
    assert "first.dpdesk" in box.text()
    qtbot.mouseClick(_button(box, "Keep"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.handoff.question is not None and "second.dpdesk" in window.handoff.question.text(),
                    timeout=10_000)
    qtbot.mouseClick(_button(window.handoff.question, "Keep"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.handoff.question is None and not window.handoff.pending, timeout=10_000)
    assert window.project.path == before


def test_with_no_project_open_a_hand_off_opens_at_once(window, qtbot, tmp_path):
    path = _project(tmp_path, "first")
    window.bring_forward(str(path))
    assert window.handoff.question is None
    qtbot.waitUntil(lambda: window.project is not None and window.project.path == path.resolve(), timeout=10_000)
