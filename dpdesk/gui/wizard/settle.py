"""A click made while a wizard page was being built never acts on that page.

When building the next page keeps the window busy (first use), clicks and keys the user
makes meanwhile wait in the queue and used to reach the new page at once: a second click on
Next skipped the page before it was seen. After a slow page change (longer than ``SLOW``
from the click), input for the wizard is dropped until the queue is empty (a zero timer
fires only then); input after that acts as usual.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWizard

SLOW = 0.1  # seconds from the click to the page shown: long enough for another click to queue up
INPUT = frozenset({QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease, QEvent.Type.MouseButtonDblClick,
                   QEvent.Type.KeyPress, QEvent.Type.KeyRelease, QEvent.Type.Shortcut, QEvent.Type.Wheel})
BUTTONS = (QWizard.WizardButton.NextButton, QWizard.WizardButton.BackButton, QWizard.WizardButton.FinishButton,
           QWizard.WizardButton.CommitButton)


class SettleGuard(QObject):
    """Watches the wizard's buttons; after a slow page change, drops queued input (``settling``)."""

    def __init__(self, wizard: QWizard) -> None:
        super().__init__(wizard)
        self.wizard = wizard
        self.settling = False
        self.dropped = 0
        self._clicked: float | None = None
        wizard.installEventFilter(self)  # Enter and Escape reach the wizard
        for which in BUTTONS:
            wizard.button(which).installEventFilter(self)
        wizard.currentIdChanged.connect(self._on_page)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        kind = event.type()
        if kind not in INPUT:
            return False
        if self.settling and (obj is self.wizard or self.wizard.isAncestorOf(obj)):
            self.dropped += 1
            return True
        if kind in (QEvent.Type.MouseButtonRelease, QEvent.Type.KeyPress, QEvent.Type.Shortcut):
            self._clicked = time.perf_counter()
        return False

    def _on_page(self, _page_id: int) -> None:
        clicked, self._clicked = self._clicked, None
        if clicked is None or time.perf_counter() - clicked < SLOW or self.settling:
            return
        self.settling = True
        QApplication.instance().installEventFilter(self)  # every widget of the new page, until idle
        QTimer.singleShot(0, self._settled)

    def _settled(self) -> None:
        self.settling = False
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)
