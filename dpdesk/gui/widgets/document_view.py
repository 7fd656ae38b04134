"""The output document on screen: one HTML page in a QTextBrowser, with copy links per table.

The page is as tall as its content (no scroll bar of its own), so the view it sits in
scrolls the document and the plots under it as one. "Copy table" under each table copies
what is shown (HTML + TSV); "Copy with full precision" the full values.
"""

from __future__ import annotations

from PySide6.QtCore import QUrl, Signal
from PySide6.QtGui import QTextCursor, QTextDocument
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextBrowser

from dpdesk.gui.widgets.clipboard import copy_document_table


class DocumentView(QTextBrowser):
    """Shows a :class:`dpdesk.project.report.model.Document`; ``copied`` emits the table key."""

    copied = Signal(str, bool)  # table key, full precision

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("resultsDocument")
        self.setAccessibleName("Results document")
        self.setAccessibleDescription("The results as tables with notes; links under each table copy it")
        self.setOpenLinks(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(self.verticalScrollBarPolicy().ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.anchorClicked.connect(self._on_link)
        self.document_ = None
        self.document().contentsChanged.connect(self._fit)

    def set_document(self, doc) -> None:
        from dpdesk.project.report.render import document_html

        self.document_ = doc
        self.setHtml(document_html(doc, links=True) if doc is not None else "")
        self._fit()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        doc = self.document()
        doc.setTextWidth(self.viewport().width())
        height = int(doc.size().height()) + 8
        if self.height() != height:
            self.setFixedHeight(height)

    def _on_link(self, url: QUrl) -> None:
        scheme, key = url.scheme(), url.path()
        if scheme in ("copy", "copyfull") and self.document_ is not None:
            self.copy_table(key, full=scheme == "copyfull")

    def copy_table(self, key: str, *, full: bool = False) -> None:
        copy_document_table(self.document_.table(key), full=full)
        self.copied.emit(key, full)

    def section_top(self, title: str) -> int:
        """The y of the heading ``title`` inside this widget (to scroll the view to it)."""
        cursor = self.document().find(title, 0, QTextDocument.FindFlag.FindCaseSensitively)
        if cursor.isNull():
            return 0
        cursor.movePosition(QTextCursor.MoveOperation.StartOfBlock)
        return int(self.document().documentLayout().blockBoundingRect(cursor.block()).top())
