"""``dpdesk --selftest`` in process: it passes, and a failure gives exit 1 with the reason."""

from __future__ import annotations

from dpdesk.gui import example_project, selftest


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
