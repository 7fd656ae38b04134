"""Keys and the mouse wheel change only what the user aimed at, and the keyboard focus is always visible.

* The wheel: :mod:`dpdesk.gui.widgets.wheel`, applied to each window as the focus moves in it.
* The focus frame of buttons, check boxes, combo boxes, text boxes and list items is drawn
  two pixels wide in the highlight colour (the platform style draws it faintly or not at all).

``install(app)`` once per application; it is idempotent.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPen
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle

from dpdesk.gui.widgets.wheel import guard


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


#: A window with this property (milliseconds) is guarded that long after its first focus, not at once: the main
#: window's welcome screen has nothing a wheel could change, and guarding it cost 8% of the start-up's CPU time
#: before the first window was shown (benchmarks/startup.py).
LATER = "dpdesk_guard_later_ms"


def _on_focus(_old, new) -> None:
    """Whenever the focus moves, the window it moves in is guarded (widgets made since are covered)."""
    if new is None:
        return
    window = new.window()
    later = window.property(LATER)
    if later:
        from functools import partial

        from PySide6.QtCore import QTimer

        window.setProperty(LATER, 0)
        QTimer.singleShot(int(later), window, partial(guard, window))  # dropped if the window is gone
        return
    guard(window)


def install(app: QApplication) -> None:
    """Guard every window as the focus moves in it, and draw the focus thick (once per application)."""
    if app.property("dpdesk_input_guard"):
        return
    app.setProperty("dpdesk_input_guard", True)
    app.focusChanged.connect(_on_focus)
    if not isinstance(app.style(), VisibleFocusStyle):
        app.setStyle(VisibleFocusStyle(app.style().name()))
