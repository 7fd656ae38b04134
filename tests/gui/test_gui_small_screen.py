"""A 1024 x 700 screen: the window, frame included, fits the available geometry once the window manager
has added its frame (the status bar with the budget meter and the active dataset stays on screen); a status
message is never drawn under the meter or the "Data: ..." label; the Tabulate form never scrolls sideways."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMargins, QRect
from PySide6.QtGui import QMoveEvent
from PySide6.QtWidgets import QApplication

from dpdesk.gui.shell.tasks import TASKS


@pytest.fixture
def example(window, tmp_path, qtbot):
    from dpdesk.gui.shell.example_project import build_example

    assert window.open_project(build_example(None, tmp_path / "example.dpdesk"))
    window.resize(1024, 700)
    QApplication.processEvents()
    return window


def test_a_status_message_stops_before_the_meter_and_the_data_label(example, qtbot):
    window = example
    bar = window.statusBar()
    assert window.tabulate_view.meter.isVisible() and window.dataset_label.text().startswith("Data:")
    bar.showMessage("Imported answers.csv: 1,200 rows, 14 columns; 2 identifier columns left out. " * 3)
    QApplication.processEvents()
    shown = bar.currentMessage()
    assert shown.endswith("…")
    permanent = [w for w in (window.tabulate_view.meter, window.dataset_label, window.project_label)
                 if w.isVisible()]
    first = min(w.x() for w in permanent)
    assert bar.fontMetrics().horizontalAdvance(shown) + 8 <= first, (shown, first)


@pytest.mark.parametrize("statistic", range(5))
def test_the_tabulate_form_never_scrolls_sideways(example, qtbot, statistic):
    window = example
    window.nav.setCurrentRow(TASKS.index("Tabulate"))
    view = window.tabulate_view
    if statistic >= view.form.statistic.count():
        pytest.skip("no such statistic")
    view.form.statistic.setCurrentIndex(statistic)
    for _ in range(3):
        QApplication.processEvents()
    bar = view._scroll.horizontalScrollBar()
    assert bar.maximum() == 0, (view.form.statistic.currentText(), view._scroll.viewport().width(),
                                view._left.minimumSizeHint().width())


def test_the_window_is_fitted_again_once_its_frame_is_known(qtbot, settings_dir):
    from dpdesk.gui.shell.main_window import MainWindow
    from dpdesk.gui.widgets import screen_fit

    framed = {"on": False}

    class Window(MainWindow):
        def frameGeometry(self):  # noqa: N802 - Qt API
            inner = self.geometry()
            return inner.marginsAdded(QMargins(4, 30, 4, 4)) if framed["on"] else inner  # a title bar, borders

    small = QRect(0, 0, 1024, 700)
    w = Window()
    qtbot.addWidget(w)
    keeper = screen_fit.keep_on_screen(w, small)
    w.show()
    qtbot.waitExposed(w)
    w.resize(1100, 720)
    screen_fit.fit_on_screen(w, small)  # no frame yet: the whole 700 px
    assert w.height() == 700
    framed["on"] = True  # the window manager reparents the window and reports its frame
    QApplication.sendEvent(w, QMoveEvent(w.pos(), w.pos()))
    frame = w.frameGeometry()
    assert frame.height() <= small.height() and frame.width() <= small.width(), frame
    assert w.height() == 700 - 34 and keeper is not None
    w.close()
