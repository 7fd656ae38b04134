"""Every view fits at 1024 x 700: a screenshot of each (docs/screenshots/<view>_1024.png), and
no button is clipped (text cut short, or outside the visible part of its scroll area/window)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QAbstractButton, QAbstractScrollArea, QApplication, QScrollArea

from tests.helpers.gui import shot

VIEWS = ("Design", "Data", "Results", "Tabulate", "Export", "Share")


def visible_area(widget, window) -> tuple[QRect, bool]:
    """The window rectangle that ``widget`` can be seen in, and whether it can scroll there."""
    parent = widget.parentWidget()
    area = QRect(0, 0, window.width(), window.height())
    scrolls = False
    while parent is not None and parent is not window:
        if isinstance(parent, QAbstractScrollArea):
            vp = parent.viewport()
            top_left = vp.mapTo(window, vp.rect().topLeft())
            area = area.intersected(QRect(top_left, vp.size()))
            scrolls = scrolls or isinstance(parent, QScrollArea)
        parent = parent.parentWidget()
    return area, scrolls


def clipped_buttons(window) -> list[str]:
    out = []
    for b in window.findChildren(QAbstractButton):
        if not b.isVisibleTo(window) or b.width() <= 0 or type(b).__name__ == "QToolButton" and not b.text():
            continue
        if any(isinstance(p, QAbstractScrollArea) and not isinstance(p, QScrollArea)
               for p in _parents(b, window)):
            continue  # buttons inside item views (headers, cells) scroll with their table
        name = b.text() or b.accessibleName() or b.objectName()
        if b.text() and b.width() < b.minimumSizeHint().width() - 1:
            out.append(f"{name!r}: {b.width()} px wide, needs {b.minimumSizeHint().width()}")
            continue
        rect = QRect(b.mapTo(window, b.rect().topLeft()), b.size())
        area, scrolls = visible_area(b, window)
        inside_x = rect.left() >= area.left() and rect.right() <= area.right()
        inside_y = rect.top() >= area.top() and rect.bottom() <= area.bottom()
        if not inside_x or not (inside_y or scrolls):
            out.append(f"{name!r} at {rect.getRect()} outside {area.getRect()}")
    return out


def _parents(widget, window):
    p = widget.parentWidget()
    while p is not None and p is not window:
        yield p
        p = p.parentWidget()


@pytest.fixture
def example(window, tmp_path, qtbot):
    from dpdesk.gui.shell.example_project import build_example

    path = build_example(None, tmp_path / "example.dpdesk")
    rv = window.results_view
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        assert window.open_project(path)
        window.nav.setCurrentRow(VIEWS.index("Results"))  # results are computed where they are shown
    return window


@pytest.mark.parametrize("task", VIEWS)
def test_view_fits_at_1024_by_700(example, qtbot, task):
    window = example
    window.resize(1024, 700)
    window.nav.setCurrentRow(VIEWS.index(task))
    share = getattr(window, "share_view", None)
    if task == "Share" and share is not None:
        qtbot.waitUntil(lambda: share.table is not None, timeout=20000)
    for _ in range(3):
        QApplication.processEvents()
    shot(window, f"{task.lower()}_1024")
    assert clipped_buttons(window) == []
