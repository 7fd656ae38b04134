"""The output document on screen: one HTML page in a QTextBrowser, with copy links per table.

The page is as tall as its content (no scroll bar of its own), so the view it sits in
scrolls the document and the plots under it as one. "Copy table" under each table copies
what is shown (HTML + TSV); "Copy with full precision" the full values; "Copy as LaTeX" a
booktabs table. The context menu of a table cell adds "Copy cell" and the same three.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QUrl, Signal
from PySide6.QtGui import QTextCursor, QTextDocument, QTextTable
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextBrowser

from dpdesk.gui.widgets.clipboard import copy_document_table, copy_document_table_latex, copy_text


class DocumentView(QTextBrowser):
    """Shows a :class:`dpdesk.project.report.model.Document`; ``copied`` emits the table key."""

    copied = Signal(str, str)  # table key, what was copied: "shown", "full", "latex" or "cell"

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

    def set_tables(self, tables: list) -> None:
        """Show only ``tables`` (:class:`dpdesk.project.report.model.Table`), each with its copy links and the
        context menu: the Regression view's coefficient table is the report's."""
        from dpdesk.project.report.model import Document, Section
        from dpdesk.project.report.render import STYLE, table_html

        self.document_ = Document("", sections=[Section("tables", "", [], list(tables))])
        self.setHtml(f"<html><head><style>{STYLE}</style></head><body>"
                     + "".join(table_html(t, links=True) for t in tables) + "</body></html>")
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
        elif scheme == "copytex" and self.document_ is not None:
            self.copy_table_latex(key)

    def copy_table(self, key: str, *, full: bool = False) -> None:
        copy_document_table(self.document_.table(key), full=full)
        self.copied.emit(key, "full" if full else "shown")

    def copy_table_latex(self, key: str) -> None:
        copy_document_table_latex(self.document_.table(key))
        self.copied.emit(key, "latex")

    def table_at(self, pos) -> tuple[str | None, str | None]:
        """The document table's key and the cell's text under ``pos`` (viewport coordinates), or Nones."""
        cursor = self.cursorForPosition(pos)
        table = cursor.currentTable()
        if table is None or self.document_ is None:
            return None, None
        tables = [f for f in self.document().rootFrame().childFrames() if isinstance(f, QTextTable)]
        keys = [t.key for t in self.document_.tables()]
        index = next((i for i, t in enumerate(tables) if t == table), None)
        cell = table.cellAt(cursor)
        start, end = cell.firstCursorPosition(), cell.lastCursorPosition()
        start.setPosition(end.position(), QTextCursor.MoveMode.KeepAnchor)
        key = keys[index] if index is not None and index < len(keys) else None
        text = start.selectedText().replace("\xa0", " ").replace("\u2029", " ")  # Qt's no-break spaces, breaks
        return key, text.strip()

    def contextMenuEvent(self, event) -> None:  # noqa: N802 - Qt API
        menu = self.createStandardContextMenu(event.pos())
        key, text = self.table_at(event.pos())
        if key is not None:
            menu.addSeparator()
            menu.addAction("Copy cell", partial(self.copy_cell, key, text))
            menu.addAction("Copy table", partial(self.copy_table, key))
            menu.addAction("Copy with full precision", partial(self.copy_table, key, full=True))
            menu.addAction("Copy as LaTeX", partial(self.copy_table_latex, key))
        menu.exec(event.globalPos())

    def copy_cell(self, key: str, text: str) -> None:
        copy_text(text)
        self.copied.emit(key, "cell")

    def section_top(self, title: str) -> int:
        """The y of the heading ``title`` inside this widget (to scroll the view to it)."""
        cursor = self.document().find(title, 0, QTextDocument.FindFlag.FindCaseSensitively)
        if cursor.isNull():
            return 0
        cursor.movePosition(QTextCursor.MoveOperation.StartOfBlock)
        return int(self.document().documentLayout().blockBoundingRect(cursor.block()).top())
