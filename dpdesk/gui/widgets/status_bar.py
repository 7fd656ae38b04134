"""The main window's status bar: a message too long for the space left is shortened with "…" and
shown whole in the tooltip, never cut off mid-word; the project and dataset labels keep to a
bounded width."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QStatusBar

#: The widest a permanent label (project file, dataset) may grow, in pixels; longer names are shortened.
LABEL_WIDTH = 260


class StatusBar(QStatusBar):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._permanent: list = []
        self._giving_way: list = []  # permanent widgets hidden while a message is shown (``give_way``)
        self.full_message = ""
        self._until: float | None = None  # when the message times out (None: shown until replaced)
        self.messageChanged.connect(self._on_message_changed)

    def give_way(self, widget) -> None:
        """Hide the permanent ``widget`` while a message is shown (the project's name, which the window
        title also shows): at 1024 px the meter and the dataset left a message about 80 px."""
        self._giving_way.append(widget)

    def _on_message_changed(self, text: str) -> None:
        if not text:
            for widget in self._giving_way:
                widget.show()

    def addPermanentWidget(self, widget, stretch: int = 0) -> None:  # noqa: N802 - Qt API
        self._keep(widget)
        super().addPermanentWidget(widget, stretch)

    def insertPermanentWidget(self, index: int, widget, stretch: int = 0) -> int:  # noqa: N802 - Qt API
        """Counted like an added one (the budget meter is inserted: the message once ran under it)."""
        self._keep(widget)
        return super().insertPermanentWidget(index, widget, stretch)

    def _keep(self, widget) -> None:
        if isinstance(widget, QLabel):
            widget.setMaximumWidth(LABEL_WIDTH)
        self._permanent.append(widget)

    def message_width(self) -> int:
        """The pixels left for the message beside the permanent widgets (the meter, the dataset and the
        project): their widths, and where the first of them starts once they are laid out."""
        shown = [w for w in self._permanent if w.isVisible()]
        used = sum(w.sizeHint().width() if w.width() <= 0 else w.width() for w in shown)
        room = self.width() - used - 12 * (len(shown) + 2)
        placed = [w.x() for w in shown if w.width() > 0 and w.x() > 0]
        if placed and len(placed) == len(shown):
            room = min(room, min(placed) - 16)
        return max(80, room)

    def showMessage(self, text: str, timeout: int = 0) -> None:  # noqa: N802 - Qt API
        """Show ``text`` (shortened to fit, whole in the tooltip) for ``timeout`` ms (0: until replaced)."""
        self.full_message = text
        self._until = time.monotonic() + timeout / 1000 if timeout else None
        self._show_fitted(timeout)

    def _show_fitted(self, timeout: int) -> None:
        text = self.full_message
        moved = False
        for widget in self._giving_way:
            if widget.isVisible() == bool(text):
                widget.setVisible(not text)
                moved = True
        if moved:  # the others move right once laid out: fit the message again then
            QTimer.singleShot(0, self._refit)
        shown = self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, self.message_width())
        self.setToolTip(text if shown != text else "")
        super().showMessage(shown, timeout)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        """A narrower window shortens the message again (for the time it has left), never cuts it."""
        super().resizeEvent(event)
        self._refit()

    def _refit(self) -> None:
        if self.full_message and self.currentMessage():
            left = 0 if self._until is None else max(1, int((self._until - time.monotonic()) * 1000))
            self._show_fitted(left)


def fit_label(label: QLabel, text: str) -> None:
    """Set ``text`` on a permanent label, shortened to its width with the whole text in the tooltip."""
    shown = label.fontMetrics().elidedText(text, Qt.TextElideMode.ElideMiddle, LABEL_WIDTH - 8)
    label.setText(shown)
    if shown != text and not label.toolTip():
        label.setToolTip(text)
