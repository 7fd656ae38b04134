"""File dialogs start in the open project's folder, never in HOME (issue 29), until the researcher picks
another folder for that kind of file; clicked through the real buttons."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from dpdesk.gui.shell.tasks import TASKS


@pytest.fixture
def asked(monkeypatch):
    starts: list[str] = []

    def record(parent, caption="", directory="", *args, **kwargs):
        starts.append(str(directory))
        return "", ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", record)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", record)
    return starts


def test_dialogs_start_in_the_projects_folder(window, qtbot, tmp_path, asked, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    study = tmp_path / "studies" / "cash"
    study.mkdir(parents=True)
    assert window.create_project(study / "cash.dpdesk")
    window.nav.setCurrentRow(TASKS.index("Data"))
    qtbot.mouseClick(window.data_view.import_button, Qt.MouseButton.LeftButton)  # Import data… -> choose a file
    window.nav.setCurrentRow(TASKS.index("Share"))
    qtbot.mouseClick(window.share_view.key_browse, Qt.MouseButton.LeftButton)  # the pseudonym key file
    assert len(asked) == 2
    assert all(Path(start) == study for start in asked), asked
    # a folder chosen for a kind of file is where that kind starts next
    elsewhere = tmp_path / "exports"
    elsewhere.mkdir()
    window.settings.set_last_folder("key", elsewhere / "k.key")
    qtbot.mouseClick(window.share_view.key_browse, Qt.MouseButton.LeftButton)
    assert Path(asked[-1]) == elsewhere
    assert Path(window.settings.start_path("report", "r.pdf")).parent == study
