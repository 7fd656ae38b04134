"""Respondent instructions: the suggested wording, plain text to paste, a printable PDF card.

The card is written with ``QPdfWriter`` from a ``QTextDocument`` (no widgets), so it can
be made in a worker thread.
"""

from __future__ import annotations

import html
import os
from pathlib import Path

from PySide6.QtCore import QMarginsF, QRectF, QSizeF
from PySide6.QtGui import QFont, QPageLayout, QPageSize, QPainter, QPdfWriter, QTextDocument

#: What respondents tick, for designs whose recorded "yes"/"no" mean something else.
ANSWER_LABELS = {
    "crosswise": {"yes": "Both answers are the same", "no": "The answers are different"},
    "triangular": {"yes": "At least one 'yes'", "no": "Both 'no'"},
    "kuk": {"yes": "Red", "no": "Black"},
}


def answer_options(design) -> list[str]:
    labels = ANSWER_LABELS.get(design.name, {})
    options = [labels.get(r, r.capitalize() if r in ("yes", "no") else r) for r in design.responses]
    if design.is_binary and list(design.responses) == ["no", "yes"]:
        options.reverse()  # "Yes" first, as on most forms
    return options


def suggested_instructions(question: str, design, device_text: str) -> str:
    """The generated wording: question, what to do, the randomizer, the answer options."""
    parts = [question.strip(), "", "How to answer: " + design.describe()]
    if device_text:
        parts += ["", "Your randomizer: " + device_text]
    if design.model == "unary":
        parts += ["", "Options (tick any that the randomizer leaves ticked): " + ", ".join(design.categories)]
    else:
        parts += ["", "Answer (tick one): " + "   ".join(f"[ ] {o}" for o in answer_options(design))]
    parts += ["", "Nobody, including the researchers, can tell from your answer alone what is true for you."]
    return "\n".join(parts)


def card_html(title: str, text: str) -> str:
    paragraphs = "".join(f"<p>{html.escape(p).replace(chr(10), '<br>')}</p>" for p in text.split("\n\n") if p.strip())
    return (f"<h2 style='margin-bottom: 12px'>{html.escape(title)}</h2>"
            f"<div style='font-size: 11pt; line-height: 140%'>{paragraphs}</div>")


def write_card(job, path: str | os.PathLike, title: str, text: str) -> Path:
    """Write the instruction card to ``path`` as a PDF (A5; long text goes on to more pages); returns the path."""
    path = Path(path)
    if job is not None:
        job.progress(0.1, "Laying out the card")
    tmp = path.with_name(f".{path.name}.tmp")
    writer = QPdfWriter(str(tmp))
    writer.setTitle(title)
    writer.setCreator("dpdesk")
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A5), QPageLayout.Orientation.Portrait,
                                     QMarginsF(15, 15, 15, 15), QPageLayout.Unit.Millimeter))
    writer.setResolution(300)
    doc = QTextDocument()
    doc.documentLayout().setPaintDevice(writer)  # lay out in the printer's resolution
    doc.setDefaultFont(QFont("DejaVu Sans", 11))
    doc.setHtml(card_html(title, text))
    rect = writer.pageLayout().paintRectPixels(writer.resolution())
    width, height = float(rect.width()), float(rect.height())
    doc.setPageSize(QSizeF(width, height))
    if job is not None:
        job.check()
    painter = QPainter(writer)
    try:
        for page in range(doc.pageCount()):
            if page:
                writer.newPage()
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
