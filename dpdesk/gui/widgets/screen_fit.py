"""Windows and dialogs open within the screen they are on, however large they were saved or made."""

from __future__ import annotations

from PySide6.QtCore import QRect


def fit_on_screen(window, available: QRect | None = None) -> None:
    """Move and shrink ``window`` (frame included) into ``available``, by default the available
    geometry of its screen: a window saved on a larger screen never opens partly off screen."""
    if available is None:
        screen = window.screen()
        if screen is None:
            return
        available = screen.availableGeometry()
    frame, inner = window.frameGeometry(), window.geometry()
    extra_w, extra_h = frame.width() - inner.width(), frame.height() - inner.height()
    width = min(inner.width(), available.width() - extra_w)
    height = min(inner.height(), available.height() - extra_h)
    if (width, height) != (inner.width(), inner.height()):
        window.resize(max(width, 1), max(height, 1))
    frame = window.frameGeometry()
    x = min(max(frame.x(), available.left()), available.right() + 1 - frame.width())
    y = min(max(frame.y(), available.top()), available.bottom() + 1 - frame.height())
    if (x, y) != (frame.x(), frame.y()):
        window.move(x, y)
