"""The mouse wheel over a plot or the table beside it scrolls the Results document (real wheel events)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QScrollArea

from dpdesk.gui.widgets.common import full_width
from dpdesk.gui.widgets.plots import PLOT_MIN_WIDTH
from tests.gui.test_gui_fit_1024 import VIEWS, example  # noqa: F401 - the example project, results shown
from tests.gui.test_gui_keyboard_screen import wheel


def test_wheel_over_plots_and_side_tables_scrolls_the_document(example, qtbot):  # noqa: F811 - fixture
    window = example
    window.resize(1024, 700)
    window.nav.setCurrentRow(VIEWS.index("Results"))
    rv = window.results_view
    QApplication.processEvents()
    scroll = next(s for s in rv.findChildren(QScrollArea) if s.widget() is rv.content)
    bar = scroll.verticalScrollBar()
    assert bar.maximum() > 0  # the document is taller than the view at 1024 x 700
    canvas = rv.forest.canvas
    assert canvas is not None
    start = bar.value()
    wheel(canvas)  # towards the user: down the document
    assert bar.value() > start
    moved = bar.value()
    table = rv.forest.table
    table.verticalScrollBar().setValue(table.verticalScrollBar().maximum())  # a table at its end passes it on
    wheel(table.viewport())
    assert bar.value() > moved
    wheel(canvas, steps=1)  # and back up
    assert bar.value() < bar.maximum()


def test_side_tables_are_never_clipped_at_1024_by_700(example, qtbot):  # noqa: F811 - fixture
    from tests.helpers.gui import shot

    window = example
    window.resize(1024, 700)
    window.nav.setCurrentRow(VIEWS.index("Results"))
    rv = window.results_view
    QApplication.processEvents()
    for panel in (rv.forest, *rv.bars.values()):
        if not panel.isVisible() or not panel.rows:
            continue
        assert panel.table.viewport().width() >= panel.table.horizontalHeader().length(), panel.title
        assert panel.canvas.width() >= 300
    shot(rv.forest, "results_forest_plot_1024")
    window.resize(1100, 720)
    QApplication.processEvents()
    forest = rv.forest  # side by side exactly when both fit (the labels set the table's width)
    fits = forest.width() >= PLOT_MIN_WIDTH + full_width(forest.table) + forest.box.spacing()
    assert (forest.box.direction() == forest.box.Direction.LeftToRight) == fits
    assert forest.table.viewport().width() >= forest.table.horizontalHeader().length()
