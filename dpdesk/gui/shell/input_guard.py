"""Keys and the mouse wheel change only what the user aimed at, and the keyboard focus is always visible.

* A combo box or spin box takes the focus by Tab or a click, never by the wheel, and a wheel
  over one that does not have the focus scrolls the page instead of changing its value.
* Widgets that do not scroll themselves (plots; mark others with the property
  ``wheel_scrolls_page``) pass the wheel to the scroll area around them, and so do tables and
  texts that cannot scroll further that way.
* The focus frame of buttons, check boxes and list items is drawn thick in the highlight
  colour (the platform style draws it faintly or not at all).

``install(app)`` once per application; it is idempotent.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QPen
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QProxyStyle,
    QStyle,
    QWidget,
)

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
    """The application-wide event filter described in the module docstring."""

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        kind = event.type()
        if kind == QEvent.Type.Polish and isinstance(obj, _VALUE_WIDGETS):
            if obj.focusPolicy() == Qt.FocusPolicy.WheelFocus:
                obj.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        elif kind == QEvent.Type.Wheel and isinstance(obj, QWidget):
            if isinstance(obj, _VALUE_WIDGETS) and not obj.hasFocus():
                pass_wheel_on(obj, event)
                return True  # the value stays as it is
            if obj.property("wheel_scrolls_page"):
                return pass_wheel_on(obj, event)
            area = obj.parentWidget()
            if isinstance(area, QAbstractScrollArea) and area.viewport() is obj and _at_end(area, event):
                return pass_wheel_on(area, event)  # a table or text at its end: the page goes on scrolling
        return False


def _frame(option, painter) -> None:
    painter.save()
    painter.setRenderHint(painter.RenderHint.Antialiasing, False)
    painter.setPen(QPen(option.palette.highlight().color(), 2))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(option.rect.adjusted(1, 1, -1, -1))
    painter.restore()


#: Controls that get the frame around their whole rectangle when they have the keyboard focus.
_FRAMED = (QStyle.ControlElement.CE_PushButton, QStyle.ControlElement.CE_CheckBox,
           QStyle.ControlElement.CE_RadioButton)
_FRAMED_COMPLEX = (QStyle.ComplexControl.CC_ComboBox, QStyle.ComplexControl.CC_SpinBox)


class VisibleFocusStyle(QProxyStyle):
    """The platform style, with a focus frame two pixels wide in the highlight colour."""

    def drawPrimitive(self, element, option, painter, widget=None) -> None:  # noqa: N802 - Qt API
        if element == QStyle.PrimitiveElement.PE_FrameFocusRect:
            _frame(option, painter)
            return
        super().drawPrimitive(element, option, painter, widget)
        if element == QStyle.PrimitiveElement.PE_PanelLineEdit and option.state & QStyle.StateFlag.State_HasFocus:
            _frame(option, painter)

    def drawComplexControl(self, control, option, painter, widget=None) -> None:  # noqa: N802 - Qt API
        super().drawComplexControl(control, option, painter, widget)
        if control in _FRAMED_COMPLEX and option.state & QStyle.StateFlag.State_HasFocus:
            _frame(option, painter)

    def drawControl(self, element, option, painter, widget=None) -> None:  # noqa: N802 - Qt API
        super().drawControl(element, option, painter, widget)
        if element in _FRAMED and option.state & QStyle.StateFlag.State_HasFocus:
            _frame(option, painter)


def install(app: QApplication) -> None:
    """Install the guard and the focus style on ``app`` (once)."""
    if app.property("dpdesk_input_guard"):
        return
    guard = InputGuard(app)
    app.installEventFilter(guard)
    app.setProperty("dpdesk_input_guard", True)
    app._dpdesk_input_guard = guard  # kept alive with the application
    if not isinstance(app.style(), VisibleFocusStyle):
        app.setStyle(VisibleFocusStyle(app.style().name()))
