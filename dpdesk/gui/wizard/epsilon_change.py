"""The randomizer page's question before a switch changes the privacy level.

Switching the randomizer (a die for birthday months, say) rounds the probabilities to what the
new randomizer can make, and with them the local epsilon: Jan-Mar (24.7%) became 1 face of 6
(16.7%), epsilon 2.21 became 2.59, and nothing said so. Now the page shows the change, old and
new, the moment the switch is made (the item is saved only later, on the last page), with a button
that goes back to the randomizer the researcher had.
"""

from __future__ import annotations

import html
import math

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout

from dpdesk.gui.widgets.common import name


def eps_text(eps: float) -> str:
    """Epsilon as the meaning page shows it (two decimals; infinite in words)."""
    return "infinite" if math.isinf(eps) else f"{eps:.2f}"


def changed(before: float | None, after: float | None) -> bool:
    """Whether the shown epsilon changes (two decimals, as the researcher reads it)."""
    return before is not None and after is not None and eps_text(before) != eps_text(after)


class EpsilonChange(QFrame):
    """"ε changes from 2.21 to 2.59" with *Keep the change* and *Go back*; hidden while nothing is pending."""

    keep = Signal()
    back = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("epsilonChange")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setAccessibleName("Privacy level change")
        self.keep_button = name(QPushButton("Keep the change"), "Keep the change",
                                "Use the new randomizer and its privacy level")
        self.back_button = name(QPushButton("Go back"), "Go back", "Return to the randomizer you had")
        row = QHBoxLayout()
        row.addWidget(self.keep_button)
        row.addWidget(self.back_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addLayout(row)
        self.keep_button.clicked.connect(self.keep)
        self.back_button.clicked.connect(self.back)
        self.hide()

    def ask(self, what: str, before: float, after: float, undo: str, details: str = "") -> None:
        """Show that ``what`` changes the local epsilon from ``before`` to ``after`` (``undo``: where Go back
        returns, e.g. "birthday months"); ``details``: the probabilities that moved."""
        self.text.setText(f"<b>{html.escape(what)} changes the privacy level:</b> local epsilon "
                          f"{eps_text(before)} becomes <b>{eps_text(after)}</b>"
                          + (f" ({html.escape(details)})" if details else "")
                          + ". Keep the change, or go back to " + html.escape(undo) + "?")
        self.back_button.setText(f"Go back to {undo}")
        self.show()

    @property
    def pending(self) -> bool:
        return not self.isHidden()
