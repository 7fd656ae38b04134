"""One instance (issue 17): a later start hands its project to the running window; the window icon."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.helpers.paths import ROOT


@pytest.fixture
def server(window, qtbot):
    from dpdesk.gui.shell.single_instance import InstanceServer

    s = InstanceServer()
    assert s.listen()
    s.open_requested.connect(window.bring_forward)
    yield s
    s.close()


def _project(tmp_path):
    from dpdesk.project import Project

    path = tmp_path / "handed.dpdesk"
    Project.create(path).close()
    return path


def test_a_second_start_in_process_opens_the_project_here(window, server, qtbot, tmp_path):
    from dpdesk.gui.shell.single_instance import hand_over

    path = _project(tmp_path)
    assert hand_over(str(path))
    qtbot.waitUntil(lambda: window.project is not None, timeout=10_000)
    assert window.project.path == path.resolve()


def test_a_second_program_hands_over_and_exits(window, server, qtbot, tmp_path):
    path = _project(tmp_path)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    env.pop("DPDESK_QUIT_AFTER_SHOW", None)
    done = subprocess.run([sys.executable, "-m", "dpdesk", str(path)], env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "already running" in done.stdout
    qtbot.waitUntil(lambda: window.project is not None, timeout=10_000)
    assert window.project.path == path.resolve()


def test_nobody_listening_means_no_hand_over(settings_dir):
    from dpdesk.gui.shell.single_instance import hand_over

    assert not hand_over(None)


def test_the_application_has_dpdesk_s_icon(qapp):
    from dpdesk.gui.shell.app import app_icon, make_app

    app = make_app([])
    assert app_icon() is not None and not app.windowIcon().isNull()
