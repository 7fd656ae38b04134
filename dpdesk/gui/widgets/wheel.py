"""The mouse wheel changes only what the user aimed at, and otherwise scrolls the page.

* A combo box or spin box takes the focus by Tab or a click, never by the wheel, and a wheel
  over one that does not have the focus scrolls the page instead of changing its value.
* Plots (matplotlib canvases) pass the wheel to the scroll area around them, and so do tables and texts that cannot scroll further that way.

``guard(root)`` installs the filter on such widgets in ``root``'s tree (only there: a filter
on the whole application would run Python for every event of every widget).
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSpinBox, QApplication, QComboBox, QWidget

#: Widgets whose own wheel handling must not change a value or stop the page from scrolling.
_VALUE_WIDGETS = (QComboBox, QAbstractSpinBox)


def scroll_area_of(widget: QWidget) -> QAbstractScrollArea | None:
    """The nearest scroll area that holds ``widget`` (not ``widget`` itself)."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea) and parent.viewport() is not widget:
            return parent
        parent = parent.parentWidget()
    return None


def pass_wheel_on(widget: QWidget, event) -> bool:
    """Give the wheel ``event`` to the scroll area around ``widget``; True when one took it."""
    area = scroll_area_of(widget)
    if area is None:
        return False
    QApplication.sendEvent(area.viewport(), event)
    return True


def _at_end(area: QAbstractScrollArea, event) -> bool:
    """Whether ``area`` cannot scroll any further the way the vertical wheel ``event`` turns."""
    delta = event.angleDelta()
    if abs(delta.x()) > abs(delta.y()) or delta.y() == 0:
        return False
    bar = area.verticalScrollBar()
    return bar.value() <= bar.minimum() if delta.y() > 0 else bar.value() >= bar.maximum()


class InputGuard(QObject):
    """The event filter described in the module docstring, installed on the widgets it guards only (an
    application-wide filter would run Python for every event of every widget)."""

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if event.type() != QEvent.Type.Wheel or not isinstance(obj, QWidget):
            return False
        if isinstance(obj, _VALUE_WIDGETS):
            if obj.hasFocus():
                return False  # the wheel is aimed at it
            pass_wheel_on(obj, event)
            return True  # the value stays as it is
        area = obj.parentWidget()
        if isinstance(area, QAbstractScrollArea) and area.viewport() is obj:
            return _at_end(area, event) and pass_wheel_on(area, event)  # a table or text at its end
        return pass_wheel_on(obj, event)  # a plot: it does not scroll, the page does


_GUARD: InputGuard | None = None


def wheel_filter() -> InputGuard:
    """The one guard (made on first use, owned by the application)."""
    global _GUARD
    if _GUARD is None:
        _GUARD = InputGuard(QApplication.instance())
    return _GUARD


def guard(root: QWidget) -> None:
    """Guard the combo boxes, spin boxes, scrolling views and plots in ``root``'s tree:
    no focus by the wheel, and the wheel passed on where it would change a value or go nowhere."""
    if root is None:
        return
    f = wheel_filter()
    for kind in _VALUE_WIDGETS:
        for widget in root.findChildren(kind):
            if widget.focusPolicy() == Qt.FocusPolicy.WheelFocus:
                widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            widget.installEventFilter(f)
    for area in root.findChildren(QAbstractScrollArea):
        area.viewport().installEventFilter(f)
    canvases = sys.modules.get("matplotlib.backends.backend_qt")  # plots, where matplotlib is loaded
    for canvas in root.findChildren(canvases.FigureCanvasQT) if canvases is not None else ():
        canvas.installEventFilter(f)
