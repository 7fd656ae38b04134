"""The app says when a file is an older copy (rolled back) or verified by structure only (issue 14)."""

from __future__ import annotations

import shutil
from fractions import Fraction

from PySide6.QtWidgets import QMessageBox

from tests.helpers.gui import shot
from tests.gui.test_gui_tabulate import histogram, release_and_wait, spent, view  # noqa: F401


def _releases_tab(window):
    v = window.tabulate_view
    window.nav.setCurrentRow(3)
    v.tabs.setCurrentWidget(v.ledger_view)
    return v


def test_an_older_copy_stops_releases_until_confirmed(view, window, qtbot, tmp_path, monkeypatch):
    view.apply_budget(Fraction(1))
    histogram(view, 0.1)
    release_and_wait(view, qtbot)
    path = window.project.path
    window.close_project()
    backup = tmp_path / "backup.dpdesk"
    shutil.copyfile(path, backup)
    assert window.open_project(path)
    v = _releases_tab(window)
    histogram(v, 0.2)
    release_and_wait(v, qtbot)
    window.close_project()
    shutil.copyfile(backup, path)  # the older copy comes back
    assert window.open_project(path)
    v = _releases_tab(window)
    histogram(v, 0.05)
    lv = v.ledger_view
    assert lv.banner.isVisible() and "older copy" in lv.banner.text() and "release #2" in lv.banner.text()
    assert lv.accept_button.isVisible()
    assert not v.release_button.isEnabled() and "older copy" in v.reason.text()
    assert v.meter.state.rolled_back and "older copy" in v.meter.label.text()
    shot(window, "tabulate_ledger_rolled_back")
    size = window.size()
    window.resize(1024, 700)
    shot(window, "tabulate_ledger_rolled_back_1024")
    window.resize(size)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Cancel)
    lv.accept_button.click()
    assert lv.accept_button.isVisible() and not v.release_button.isEnabled()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    lv.accept_button.click()
    assert not lv.banner.isVisible() and not lv.accept_button.isVisible()
    assert "verified with this computer's key" in lv.verification.text()
    histogram(v, 0.05)
    assert v.release_button.isEnabled() and not v.meter.state.rolled_back
    release_and_wait(v, qtbot)
    assert spent(window) == Fraction(3, 20)


def test_a_file_from_another_computer_says_verified_by_structure_only(view, window, qtbot, tmp_path, monkeypatch):
    view.apply_budget(Fraction(1))
    histogram(view, 0.1)
    release_and_wait(view, qtbot)
    path = window.project.path
    window.close_project()
    monkeypatch.setenv("DPDESK_SETTINGS_DIR", str(tmp_path / "another-computer"))
    assert window.open_project(path)
    v = _releases_tab(window)
    lv = v.ledger_view
    assert not lv.banner.isVisible() and lv.verification.isVisible()
    assert "verified by structure only" in lv.verification.text()
    histogram(v, 0.05)
    assert v.release_button.isEnabled()
    shot(window, "tabulate_ledger_structure_only")
