"""File > Export report shows what it is doing: a progress bar with its step under the Results view's
buttons, and a Cancel button that stops the report and leaves no file. Driven by the mouse and keyboard:
the Export report button, the file name typed in the save dialog, Return, the Cancel button."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QLineEdit


@pytest.fixture
def example(tmp_path):
    from dpdesk.gui.shell.example_project import build_example

    return build_example(None, tmp_path / "example.dpdesk")


class Recorder:
    """The report's progress and the window's timer ticks, as they come."""

    def __init__(self) -> None:
        self.seen: list[tuple[float, str]] = []
        self.ticks: list[float] = []

    def progress(self, fraction: float, text: str) -> None:
        self.seen.append((fraction, text))

    def tick(self) -> None:
        self.ticks.append(time.perf_counter())


def _ready(window, qtbot, example):
    rv = window.results_view
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        window.open_project(example)
        window.nav.setCurrentRow(2)
    return rv


def _export(qtbot, rv, path) -> None:
    """Click Export report…, type the file name in the save dialog (it opens in the folder last used for
    reports), press Return."""
    from dpdesk.gui.dialogs.report import ReportFileDialog

    tries = []

    def fill() -> None:
        dialog = next((w for w in QApplication.topLevelWidgets()
                       if isinstance(w, ReportFileDialog) and w.isVisible()), None)
        if dialog is None:  # not shown yet
            tries.append(1)
            if len(tries) < 500:
                QTimer.singleShot(10, fill)
            return
        name = dialog.findChild(QLineEdit, "fileNameEdit")
        name.selectAll()
        qtbot.keyClicks(name, path.name)  # a name alone: a typed folder would open the completer's list
        qtbot.keyClick(name, Qt.Key.Key_Return)

    QTimer.singleShot(0, fill)  # runs inside the dialog's exec
    qtbot.mouseClick(rv.report_button, Qt.MouseButton.LeftButton)


def test_report_progress_and_cancel(window, qtbot, example, tmp_path):
    rv = _ready(window, qtbot, example)
    window.settings.set_last_folder("report", tmp_path)
    progress = rv.report_progress
    assert not progress.isVisible()
    # Cancel: the bar shows, the Cancel button stops the report, no file is left
    first = tmp_path / "cancelled.pdf"
    window.resize(1024, 700)
    QApplication.processEvents()
    width = window.width()
    _export(qtbot, rv, first)
    qtbot.waitUntil(progress.isVisible, timeout=10_000)
    assert progress.label.text() and progress.cancel_button.isEnabled()
    QApplication.processEvents()
    assert window.width() == width  # the bar has a row of its own: the window does not grow at 1024 x 700
    qtbot.mouseClick(progress.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not progress.isVisible(), timeout=10_000)
    rv.report_jobs.jobs.shutdown()  # the cancelled worker stops at its next step
    QApplication.processEvents()
    assert not first.exists() and not list(tmp_path.glob(".*.tmp"))
    # a whole report: the bar climbs to the end, the step is named, then it hides; the window answers meanwhile
    record = Recorder()
    seen, ticks = record.seen, record.ticks
    rv.report_jobs.progress.connect(record.progress)  # bound methods, never lambdas (PITFALLS: crash at exit)
    timer = QTimer()
    timer.timeout.connect(record.tick)
    timer.start(20)
    out = tmp_path / "report.pdf"
    start = time.perf_counter()
    with qtbot.waitSignal(rv.report_jobs.done, timeout=120_000):
        _export(qtbot, rv, out)
    elapsed = time.perf_counter() - start
    timer.stop()
    rv.report_jobs.progress.disconnect(record.progress)
    assert out.read_bytes().startswith(b"%PDF")
    assert not progress.isVisible()
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] >= 0.9
    assert {"Drawing the plots…", "Laying out the pages…"} <= {t for _, t in seen}
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    print(f"report of the example study: {elapsed:.2f} s, longest pause of the window {max(gaps, default=0):.2f} s")
