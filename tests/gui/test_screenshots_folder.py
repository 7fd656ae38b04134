"""`make test` leaves the tracked docs/screenshots/ alone: screenshots go to a temporary folder unless
`make screenshots` asks for them (DPDESK_SCREENSHOTS)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.helpers.paths import ROOT, SHOTS, SHOTS_ENV


@pytest.mark.skipif(bool(os.environ.get(SHOTS_ENV)), reason="make screenshots writes docs/screenshots on purpose")
def test_a_screenshot_goes_to_a_temporary_folder_not_docs(qtbot):
    from PySide6.QtWidgets import QLabel

    from tests.helpers.gui import shot

    docs = (ROOT / "docs" / "screenshots").resolve()
    before = {p.name: p.stat().st_mtime_ns for p in docs.glob("*.png")}
    label = QLabel("a picture")
    qtbot.addWidget(label)
    label.show()
    path = shot(label, "main_window_design")  # a name the README shows
    assert path.exists() and docs not in path.resolve().parents
    assert {p.name: p.stat().st_mtime_ns for p in docs.glob("*.png")} == before


def test_the_folder_follows_the_variable_make_screenshots_sets(tmp_path):
    code = "from tests.helpers.paths import SHOTS; print(SHOTS)"
    env = {**os.environ, SHOTS_ENV: str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=60, check=True).stdout.strip()
    assert out == str(tmp_path.resolve())
    env.pop(SHOTS_ENV)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=60, check=True).stdout.strip()
    assert not out.startswith(str(ROOT)) and out != str(SHOTS)  # a fresh temporary folder per run


def test_make_screenshots_runs_the_tests_that_take_them():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "screenshots:" in makefile and f"{SHOTS_ENV}=$(CURDIR)/docs/screenshots" in makefile


def test_a_screenshot_never_shows_a_temporary_test_path(qtbot, tmp_path):
    """The help screenshots showed pytest's folders ("/tmp/pytest-of-root/..."): the test's own folders read
    as a user's in the picture, and what cannot be rewritten (a table cell) refuses the screenshot."""
    import pytest as _pytest
    from PySide6.QtWidgets import QLabel, QListWidget, QVBoxLayout, QWidget

    from tests.helpers import gui

    page = QWidget()
    qtbot.addWidget(page)
    label = QLabel(f"Card saved to {tmp_path / 'card.pdf'}.")
    QVBoxLayout(page).addWidget(label)
    page.show()
    seen = []
    grab = QWidget.grab

    def grab_and_read(widget, *args):
        seen.append(label.text())
        return grab(widget, *args)

    mp = _pytest.MonkeyPatch()
    mp.setattr(QWidget, "grab", grab_and_read)
    try:
        gui.shot(page, "neutral_path")
    finally:
        mp.undo()
    assert seen == [f"Card saved to {gui.NEUTRAL_FOLDER}/card.pdf."]  # in the picture
    assert label.text() == f"Card saved to {tmp_path / 'card.pdf'}."  # and back afterwards
    listing = QListWidget()
    listing.addItem(str(tmp_path / "study.dpdesk"))
    page.layout().addWidget(listing)
    with _pytest.raises(AssertionError, match="temporary test path"):
        gui.shot(page, "never_written")
