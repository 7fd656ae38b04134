""""Copy table": a result table on the clipboard as TSV (plain text) and HTML; "Copy as LaTeX"; one cell.

Rows of plain values go at full precision; a table of the output document goes as shown
(or, with "Copy with full precision", with its full values).

The text comes from the project export (``table_to_tsv``, ``table_to_html``), so a pasted
table has the same numbers and the same protection against formula injection as a file.
"""

from __future__ import annotations

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QGuiApplication


def table_mime(rows: list[dict]) -> QMimeData:
    """The clipboard data of ``rows``: text/plain (tab-separated) and text/html (a table)."""
    from dpdesk.project.export.results import table_to_html, table_to_tsv

    mime = QMimeData()
    mime.setText(table_to_tsv(rows))
    mime.setHtml(table_to_html(rows))
    return mime


def copy_table(rows: list[dict]) -> None:
    """Put ``rows`` on the system clipboard (Excel, Word and text editors all take it)."""
    QGuiApplication.clipboard().setMimeData(table_mime(rows))


def document_table_mime(table, *, full: bool = False) -> QMimeData:
    """A table of the output document as shown (HTML + TSV at the shown precision), or at full precision."""
    from dpdesk.project.report.render import table_clipboard_html, table_tsv

    mime = QMimeData()
    mime.setText(table_tsv(table, full=full))
    mime.setHtml(table_clipboard_html(table, full=full))
    return mime


def copy_document_table(table, *, full: bool = False) -> None:
    """Put a document table on the clipboard ("Copy table" / "Copy with full precision")."""
    QGuiApplication.clipboard().setMimeData(document_table_mime(table, full=full))


def copy_document_table_latex(table) -> None:
    """Put a document table on the clipboard as a LaTeX booktabs table ("Copy as LaTeX")."""
    from dpdesk.project.report.latex import table_latex

    QGuiApplication.clipboard().setText(table_latex(table))


def copy_text(text: str) -> None:
    """Put one cell's text on the clipboard ("Copy cell")."""
    QGuiApplication.clipboard().setText(text)
