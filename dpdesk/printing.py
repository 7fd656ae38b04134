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
from dataclasses import dataclass
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
    """Keep "Table N" / "Figure N", its title and the start of what follows on one page, and a heading with the
    first line after it (Qt's rich text has no keep-with-next): a caption or heading that a page break would
    separate from what it introduces starts a new page."""
    from PySide6.QtGui import QTextCursor, QTextFormat

    layout, height = doc.documentLayout(), doc.pageSize().height()
    doc.pageCount()  # lay out the whole document first: moving a block on a partial layout loses the rest
    block = doc.begin()
    while block.isValid():
        bottom = None
        if CAPTION.fullmatch(block.text()):
            last = block
            for _ in range(ahead):
                last = last.next() if last.next().isValid() else last
            bottom = layout.blockBoundingRect(last).bottom()
        elif block.blockFormat().headingLevel() and block.next().isValid():
            following = block.next()
            top_next = layout.blockBoundingRect(following).top()
            lines = following.layout()
            bottom = top_next + (lines.lineAt(0).height() if lines is not None and lines.lineCount() else 1)
        if bottom is not None:
            top = layout.blockBoundingRect(block).top()
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
    return run_steps(html_pdf_steps(html, path, title=title, images=images))


def html_pdf_steps(html: str, path: str | os.PathLike, *, title: str = "dpdesk report",
                   images: dict[str, bytes] | None = None):
    """:func:`html_to_pdf` as steps (see :func:`pdf_steps`)."""
    return pdf_steps([html], path, title=title, images=images, page_numbers=True, before_painting=keep_captions)


def run_steps(steps):
    """Run the steps of a generator such as :func:`pdf_steps` to the end; returns its result."""
    try:
        while True:
            next(steps)
    except StopIteration as stop:
        return stop.value


def scaled_steps(steps, start: float, share: float):
    """The steps of ``steps`` with their fractions mapped onto ``start`` .. ``start + share`` (``yield from`` it
    for one part of a longer job); returns their result, and closes them if it is closed."""
    try:
        while True:
            yield start + share * next(steps)
    except StopIteration as stop:
        return stop.value
    finally:
        steps.close()


def pdf_steps(htmls: list[str], path: str | os.PathLike, *, title: str, page: str = "A4", margin_mm: float = 20,
              font_pt: int = 9, images: dict[str, bytes] | None = None, page_numbers: bool = False,
              before_painting=None):
    """Lay out each of ``htmls`` (Qt's rich text) from a new ``page`` page (a ``QPageSize`` name: "A4", "A5")
    at 300 dpi in DejaVu Sans ``font_pt`` and write them as one PDF to ``path`` atomically, as a generator:
    it yields the fraction done after the layout and after each page, and returns the path
    (``StopIteration.value``; :func:`run_steps` runs it to the end). Closing it early leaves no file behind.
    ``images`` maps ``src`` names to PNG bytes; ``page_numbers`` prints "2 / 5" below each page;
    ``before_painting(document)`` runs once a document's pages are laid out (to move blocks).

    Runs on the GUI thread only (or in a process without one, as the command line): the app steps it
    from its event loop (``dpdesk.gui.shell.steps.StepRunner``), never in a worker. ``QTextDocument`` and
    ``QPdfWriter`` are QObjects, and PySide6 keeps the GIL while Qt takes its signal-slot locks for them;
    in a worker that deadlocked against the GUI thread destroying any Qt object (seen: the wizard's card
    while a window animation ended, the process hung for good).
    """
    app = _application()  # kept alive while painting
    from PySide6.QtCore import QMarginsF, QPointF, QRectF, QSizeF, QThread, QUrl
    from PySide6.QtGui import QFont, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QTextDocument

    if QThread.currentThread() is not app.thread():
        raise RuntimeError("A PDF is laid out on the GUI thread only (dpdesk.gui.shell.steps), never in a worker.")
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    writer = QPdfWriter(str(tmp))
    writer.setTitle(title)
    writer.setCreator("dpdesk")
    margins = QMarginsF(margin_mm, margin_mm, margin_mm, margin_mm)
    writer.setPageLayout(QPageLayout(QPageSize(getattr(QPageSize.PageSizeId, page)), QPageLayout.Orientation.Portrait,
                                     margins, QPageLayout.Unit.Millimeter))
    writer.setResolution(300)
    rect = writer.pageLayout().paintRectPixels(writer.resolution())
    footer = 90 if page_numbers else 0  # pixels at 300 dpi for the page number
    width, height = float(rect.width()), float(rect.height() - footer)
    docs = []
    painter, finished = None, False
    try:
        for i, text in enumerate(htmls):  # laid out a document at a time, a step each (the window keeps answering)
            doc = QTextDocument()
            doc.documentLayout().setPaintDevice(writer)  # lay out in the printer's resolution
            doc.setDefaultFont(QFont("DejaVu Sans", font_pt))
            for name, data in (images or {}).items():
                doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name), QImage.fromData(data, "PNG"))
            doc.setHtml(text)
            doc.setPageSize(QSizeF(width, height))
            yield 0.1 * (i + 0.5) / len(htmls)
            if before_painting is not None:
                before_painting(doc)
            docs.append(doc)
            yield 0.1 * (i + 1) / len(htmls)
        pages = sum(doc.pageCount() for doc in docs)
        yield 0.2
        painter = QPainter(writer)
        number = 0
        for doc in docs:
            for page_index in range(doc.pageCount()):
                if number:
                    writer.newPage()
                number += 1
                painter.save()
                painter.translate(QPointF(0, -page_index * height))
                doc.drawContents(painter, QRectF(0, page_index * height, width, height))
                painter.restore()
                if page_numbers:
                    painter.setFont(QFont("DejaVu Sans", 8))
                    painter.drawText(QRectF(0, rect.height() - footer + 20, rect.width(), footer - 20),
                                     0x0084, f"{number} / {pages}")  # AlignHCenter | AlignVCenter
                if number < pages:
                    yield 0.2 + 0.8 * number / pages
        finished = True
    finally:
        if painter is not None:
            painter.end()
        del painter, writer, docs  # finishes the file
        if not finished:
            tmp.unlink(missing_ok=True)
    os.replace(tmp, path)
    return path


#: The report's file types by suffix, as the command line and File > Export report offer them.
REPORT_SUFFIXES = {".pdf": "PDF document", ".docx": "Word document", ".html": "Web page", ".htm": "Web page",
                   ".tex": "LaTeX document"}


def card_html(title: str, text: str) -> str:
    """One respondent card as rich text: its title, then the text's paragraphs (blank-line separated)."""
    import html

    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    if paragraphs and paragraphs[0].strip() == title.strip():
        paragraphs = paragraphs[1:]  # the question is the title: not printed twice
    body = "".join(f"<p>{html.escape(p).replace(chr(10), '<br>')}</p>" for p in paragraphs)
    return (f"<h2 style='margin-bottom: 12px'>{html.escape(title)}</h2>"
            f"<div style='font-size: 11pt; line-height: 140%'>{body}</div>")


def write_cards(cards: list[tuple[str, str]], path: str | os.PathLike) -> Path:
    """Respondent cards ``(title, text)`` as one PDF, each card from a new A5 page (one per language,
    for example); written atomically."""
    return run_steps(card_steps(cards, path))


def card_steps(cards: list[tuple[str, str]], path: str | os.PathLike):
    """:func:`write_cards` as steps (see :func:`pdf_steps`: on the GUI thread, never in a worker)."""
    return pdf_steps([card_html(title, text) for title, text in cards], path, title=cards[0][0] if cards else "",
                     page="A5", margin_mm=15, font_pt=11)


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
    prepared = prepare_parts(parts, path, style=style)
    return prepared if isinstance(prepared, Path) else run_steps(prepared.steps())


@dataclass(frozen=True)
class PdfPages:
    """A report ready to be laid out as a PDF: its rich text and plots (``steps()``: on the GUI thread)."""

    html: str
    path: Path
    title: str
    images: dict[str, bytes]

    def steps(self):
        return html_pdf_steps(self.html, self.path, title=self.title, images=self.images)


def prepare_parts(parts, path: str | os.PathLike, *, style=None, progress=None) -> Path | PdfPages:
    """What :func:`write_parts` can do in a worker (no Qt object): draw the plots (matplotlib) and write an HTML,
    Word or LaTeX report (returns its path); for a PDF, the :class:`PdfPages` to lay out on the GUI thread.
    ``progress(done, total)`` is called before each plot is drawn and once all are (a worker's progress and
    cancellation point)."""
    import base64

    from dpdesk.plotting import render
    from dpdesk.project.report.report import html_of

    check_suffix(path)
    doc, methods, figures = parts
    path = Path(path)
    suffix = path.suffix.lower()
    fmt = "svg" if suffix in (".html", ".htm") else "png"
    drawn = {}
    for i, f in enumerate(figures):
        if progress is not None:
            progress(i, len(figures))
        drawn[f.key] = render(f.kind, f.rows, fmt, style=style, **f.options)
    if progress is not None:
        progress(len(figures), len(figures))
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
    return PdfPages(html_of(doc, methods, {key: (f"{key}.png", width) for key in drawn}), path, doc.title,
                    {f"{key}.png": png for key, png in drawn.items()})
