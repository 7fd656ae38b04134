"""The report as a file: HTML with SVG plots, a PDF laid out by Qt (QTextDocument + QPdfWriter), or Word and
LaTeX (``dpdesk.project.report.word`` and ``.latex``) with PNG plots.

Shared by the app (File > Export report) and the command line (``dpdesk report``).

No browser engine: the report's HTML is written for Qt's rich-text subset (tables with
horizontal rules, page breaks before headings). Needs a Qt GUI application; without one,
an offscreen one is made (the command line has no display).
"""

from __future__ import annotations

import os
import re
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


CAPTION = re.compile(r"(Table|Figure) \d+")


def keep_captions(doc, ahead: int = 2) -> None:
    """Keep "Table N" / "Figure N", its title and the start of what follows on one page (Qt's rich text has no
    keep-with-next): a caption that a page break would separate from its table or figure starts a new page."""
    from PySide6.QtGui import QTextCursor, QTextFormat

    layout, height = doc.documentLayout(), doc.pageSize().height()
    doc.pageCount()  # lay out the whole document first: moving a block on a partial layout loses the rest
    block = doc.begin()
    while block.isValid():
        if CAPTION.fullmatch(block.text()):
            last = block
            for _ in range(ahead):
                last = last.next() if last.next().isValid() else last
            top, bottom = layout.blockBoundingRect(block).top(), layout.blockBoundingRect(last).bottom()
            if int(top // height) != int((bottom - 1) // height):
                fmt = block.blockFormat()
                fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
                QTextCursor(block).setBlockFormat(fmt)
        block = block.next()


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
    keep_captions(doc)
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


#: The report's file types by suffix, as the command line and File > Export report offer them.
REPORT_SUFFIXES = {".pdf": "PDF document", ".docx": "Word document", ".html": "Web page", ".htm": "Web page",
                   ".tex": "LaTeX document"}


def write_report(project, path: str | os.PathLike, **options) -> Path:
    """The project's report as .html, .pdf, .docx or .tex (by the suffix of ``path``); see ``report_parts``."""
    from dpdesk.project.report.report import report_parts

    check_suffix(path)
    return write_parts(report_parts(project, **options), path, style=options.get("style"))


def check_suffix(path: str | os.PathLike) -> None:
    from dpdesk.errors import DataError

    if Path(path).suffix.lower() not in REPORT_SUFFIXES:
        raise DataError(f"A report is written as .pdf, .docx, .html or .tex; {Path(path).name!r} has none of these "
                        "suffixes. Name the file report.pdf, report.docx, report.html or report.tex.")


def write_parts(parts, path: str | os.PathLike, *, style=None) -> Path:
    """Write ``(document, methods, figures)`` (``report_parts``) as HTML (SVG plots), or PDF, Word or LaTeX (PNG)."""
    import base64

    from dpdesk.plotting import render
    from dpdesk.project.report.report import html_of

    check_suffix(path)
    doc, methods, figures = parts
    path = Path(path)
    suffix = path.suffix.lower()
    fmt = "svg" if suffix in (".html", ".htm") else "png"
    drawn = {f.key: render(f.kind, f.rows, fmt, style=style, **f.options) for f in figures}
    if fmt == "svg":
        images = {key: "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")
                  for key, svg in drawn.items()}
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(html_of(doc, methods, images), encoding="utf-8")
        os.replace(tmp, path)
        return path
    if suffix == ".docx":
        from dpdesk.project.report.word import write_word

        return write_word(doc, methods, drawn, path)
    if suffix == ".tex":
        from dpdesk.project.report.latex import write_latex

        return write_latex(doc, methods, drawn, path)
    width = 480  # CSS pixels (1/96 in) of the 642 across an A4 page with 20 mm margins
    pngs = {f"{key}.png": png for key, png in drawn.items()}
    return html_to_pdf(html_of(doc, methods, {key: (f"{key}.png", width) for key in drawn}), path, title=doc.title,
                       images=pngs)
