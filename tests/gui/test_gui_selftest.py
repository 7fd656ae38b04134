"""``dpdesk --selftest`` in process: it passes, and a failure gives exit 1 with the reason."""

from __future__ import annotations

from dpdesk.gui.shell import example_project

from dpdesk.gui.shell import selftest


def test_selftest_passes(qapp, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("DPDESK_SETTINGS_DIR", str(tmp_path))
    assert selftest.selftest() == 0
    out = capsys.readouterr().out
    assert "self-test passed" in out and "We estimate that" in out


def _broken(job, path):
    raise OSError("disk full")


def test_selftest_failure_says_why(qapp, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("DPDESK_SETTINGS_DIR", str(tmp_path))
    monkeypatch.setattr(example_project, "build_example", _broken)
    assert selftest.selftest() == 1
    err = capsys.readouterr().err
    assert "self-test FAILED" in err and "disk full" in err


def test_real_app_starts_and_quits_cleanly(tmp_path):
    """The real ``run`` in a subprocess: a crash at exit (PITFALLS.md) only shows there."""
    import os
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from PySide6.QtCore import QTimer\n"
        "from dpdesk.gui.shell.app import make_app, run\n"
        "app = make_app([])\n"
        "QTimer.singleShot(0, app.closeAllWindows)\n"
        "sys.exit(run([]))\n"
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", DPDESK_SETTINGS_DIR=str(tmp_path))
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "dpdesk.ini").exists()  # the window geometry was saved on close
