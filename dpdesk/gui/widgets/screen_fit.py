"""Windows and dialogs open within the screen they are on, however large they were saved or made."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, Qt


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


class _KeepOnScreen(QObject):
    """Fits its window again whenever the size of the window's frame changes: a window manager adds the
    frame (title bar, borders) only after the window is shown, so a window fitted at ``show()`` with no
    frame yet would end up a title bar taller than the screen, its status bar off the bottom."""

    def __init__(self, window, available: QRect | None) -> None:
        self.target, self.available = window, available  # before the parent: events may come at once
        self.margins = (0, 0, 0, 0)  # no frame: fitted where the window is shown (``fit_on_screen``)
        super().__init__(window)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt API
        target = getattr(self, "target", None)  # None while the wrapper is being torn down
        if target is not None and watched is target and event.type() in _WATCHED:
            frame, inner = target.frameGeometry(), target.geometry()
            margins = (inner.left() - frame.left(), inner.top() - frame.top(), frame.right() - inner.right(),
                       frame.bottom() - inner.bottom())
            if margins != self.margins and target.isVisible():
                self.margins = margins
                if not target.windowState() & (Qt.WindowState.WindowMaximized | Qt.WindowState.WindowFullScreen):
                    fit_on_screen(target, self.available)
        return False


_WATCHED = (QEvent.Type.Show, QEvent.Type.Move, QEvent.Type.Resize, QEvent.Type.WindowStateChange)


def keep_on_screen(window, available: QRect | None = None) -> QObject:
    """Keep ``window`` (frame included) within ``available`` (its screen's available geometry by default)
    each time the window manager changes its frame; returns the watcher (owned by the window)."""
    keeper = _KeepOnScreen(window, available)
    window.installEventFilter(keeper)
    return keeper
