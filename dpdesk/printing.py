"""The report as a file: HTML with SVG plots, or a PDF laid out by Qt (QTextDocument + QPdfWriter).

Shared by the app (File > Export report) and the command line (``dpdesk report``).

No browser engine: the report's HTML is written for Qt's rich-text subset (tables with
horizontal rules, page breaks before headings). Needs a Qt GUI application; without one,
an offscreen one is made (the command line has no display).
"""

from __future__ import annotations

import os
from pathlib import Path


def _application():
    """The running Qt application, or a new offscreen one.

    A full QApplication (not a QGuiApplication): whatever runs later in the same process
    (the app, widget tests) needs one, and Qt allows only one application per process.
    """
    from PySide6.QtCore import QCoreApplication

    app = QCoreApplication.instance()
    if app is None:
        from PySide6.QtWidgets import QApplication

        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        app = QApplication(["dpdesk"])
    return app


def html_to_pdf(html: str, path: str | os.PathLike, *, title: str = "dpdesk report",
                images: dict[str, bytes] | None = None) -> Path:
    """Lay out ``html`` on A4 pages (20 mm margins, numbered) and write the PDF to ``path`` atomically.

    ``images`` maps the ``src`` names used in ``html`` to PNG bytes.
    """
    from PySide6.QtCore import QMarginsF, QPointF, QRectF, QSizeF, QUrl
    from PySide6.QtGui import QFont, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QTextDocument

    app = _application()  # noqa: F841 - kept alive while painting
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    writer = QPdfWriter(str(tmp))
    writer.setTitle(title)
    writer.setCreator("dpdesk")
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     QMarginsF(20, 20, 20, 20), QPageLayout.Unit.Millimeter))
    writer.setResolution(300)
    doc = QTextDocument()
    doc.documentLayout().setPaintDevice(writer)
    doc.setDefaultFont(QFont("DejaVu Sans", 9))
    for name, data in (images or {}).items():
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name), QImage.fromData(data, "PNG"))
    doc.setHtml(html)
    rect = writer.pageLayout().paintRectPixels(writer.resolution())
    footer = 90  # pixels at 300 dpi for the page number
    doc.setPageSize(QSizeF(rect.width(), rect.height() - footer))
    pages = doc.pageCount()
    painter = QPainter(writer)
    try:
        for page in range(pages):
            if page:
                writer.newPage()
            painter.save()
            painter.translate(QPointF(0, -page * doc.pageSize().height()))
            clip = QRectF(0, page * doc.pageSize().height(), doc.pageSize().width(), doc.pageSize().height())
            doc.drawContents(painter, clip)
            painter.restore()
            painter.setFont(QFont("DejaVu Sans", 8))
            painter.drawText(QRectF(0, rect.height() - footer + 20, rect.width(), footer - 20),
                             0x0084, f"{page + 1} / {pages}")  # AlignHCenter | AlignVCenter
    finally:
        painter.end()
    os.replace(tmp, path)
    return path


def card_html(title: str, text: str) -> str:
    """One respondent card as rich text: its title, then the text's paragraphs (blank-line separated)."""
    import html

    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    if paragraphs and paragraphs[0].strip() == title.strip():
        paragraphs = paragraphs[1:]  # the question is the title: not printed twice
    body = "".join(f"<p>{html.escape(p).replace(chr(10), '<br>')}</p>" for p in paragraphs)
    return (f"<h2 style='margin-bottom: 12px'>{html.escape(title)}</h2>"
            f"<div style='font-size: 11pt; line-height: 140%'>{body}</div>")


def write_cards(cards: list[tuple[str, str]], path: str | os.PathLike, *, job=None) -> Path:
    """Respondent cards ``(title, text)`` as one PDF, each card from a new A5 page (one per language,
    for example); written atomically. ``job``: a worker job (progress and Cancel), or None.

    Works in a worker thread: ``QPdfWriter`` and ``QTextDocument``, no widgets.
    """
    from PySide6.QtCore import QMarginsF, QRectF, QSizeF
    from PySide6.QtGui import QFont, QPageLayout, QPageSize, QPainter, QPdfWriter, QTextDocument

    app = _application()  # noqa: F841 - kept alive while painting
    path = Path(path)
    if job is not None:
        job.progress(0.1, "Laying out the card")
    tmp = path.with_name(f".{path.name}.tmp")
    writer = QPdfWriter(str(tmp))
    writer.setTitle(cards[0][0] if cards else "")
    writer.setCreator("dpdesk")
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A5), QPageLayout.Orientation.Portrait,
                                     QMarginsF(15, 15, 15, 15), QPageLayout.Unit.Millimeter))
    writer.setResolution(300)
    rect = writer.pageLayout().paintRectPixels(writer.resolution())
    width, height = float(rect.width()), float(rect.height())
    docs = []
    for title, text in cards:
        doc = QTextDocument()
        doc.documentLayout().setPaintDevice(writer)  # lay out in the printer's resolution
        doc.setDefaultFont(QFont("DejaVu Sans", 11))
        doc.setHtml(card_html(title, text))
        doc.setPageSize(QSizeF(width, height))
        docs.append(doc)
    if job is not None:
        job.check()
    painter = QPainter(writer)
    try:
        first = True
        for doc in docs:
            for page in range(doc.pageCount()):
                if not first:
                    writer.newPage()
                first = False
                painter.save()
                painter.translate(0, -page * height)
                doc.drawContents(painter, QRectF(0, page * height, width, height))
                painter.restore()
    finally:
        painter.end()
    del painter, writer  # finishes the file
    os.replace(tmp, path)
    if job is not None:
        job.progress(1.0, "Card saved")
    return path


def write_report(project, path: str | os.PathLike, **options) -> Path:
    """The project's report as ``.html`` or ``.pdf`` (by the suffix of ``path``); see ``report_html``."""
    from dpdesk.project.report.report import report_parts

    return write_parts(report_parts(project, **options), path, style=options.get("style"))


def write_parts(parts, path: str | os.PathLike, *, style=None) -> Path:
    """Write ``(document, methods, figure specs)`` (``report_parts``) as HTML (SVG plots) or PDF (PNG plots)."""
    import base64

    from dpdesk.errors import DataError
    from dpdesk.plotting import render
    from dpdesk.project.report.report import html_of

    doc, methods, specs = parts
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in (".html", ".htm"):
        images = {name: "data:image/svg+xml;base64," + base64.b64encode(
            render(kind, rows, "svg", style=style, **kw)).decode("ascii") for name, (kind, rows, kw) in specs.items()}
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(html_of(doc, methods, images), encoding="utf-8")
        os.replace(tmp, path)
        return path
    if suffix == ".pdf":
        pngs = {f"{name}.png": render(kind, rows, "png", style=style, **kw) for name, (kind, rows, kw) in specs.items()}
        width = 480  # CSS pixels (1/96 in) of the 642 across an A4 page with 20 mm margins
        return html_to_pdf(html_of(doc, methods, {n[:-4]: (n, width) for n in pngs}), path, title=doc.title,
                           images=pngs)
    raise DataError(f"A report is written as .html or .pdf; {path.name!r} has neither suffix. "
                    "Name the file report.html or report.pdf.")
