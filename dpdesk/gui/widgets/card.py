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

from dpdesk.mechanisms.rr.wording_languages import card_order
from dpdesk.mechanisms.rr.wording_languages import card_text as _card_text
from dpdesk.mechanisms.rr.wording_languages import phrase
from dpdesk.mechanisms.rr.wording_languages import question_b_placeholder as _b_placeholder
from dpdesk.mechanisms.rr.wording_languages.text import TWO_QUESTIONS


def answer_options(design, language: str = "en") -> list[str]:
    """What the respondent ticks, in the respondent's words (``Design.response_labels`` in English)."""
    from dpdesk.mechanisms.rr.wording_languages import answer_labels

    labels = [lab for lab, _short in answer_labels(design, language)]
    return [labels[i] for i in card_order(design)]  # "Yes" (or "Both answers are the same") first


def question_b_placeholder(design, language: str = "en") -> str:
    return _b_placeholder(design, language)


def suggested_instructions(question: str, design, device_text: str, question_b: str = "",
                           language: str = "en") -> str:
    """The generated wording: the question(s), what to do, the randomizer, the answer options.

    Two-question designs (crosswise, triangular, unrelated question) ask question B outright
    (``question_b``, e.g. "Is your mother's birthday in January, February or March?").
    ``device_text`` is what the respondent does with the randomizer; researcher notes (exact
    shares, the birthday-seasonality caveat) never belong here. ``language``: see
    ``dpdesk.mechanisms.rr.wording_languages``.
    """
    return _card_text(question, design, device_text, question_b, language)


def card_title(title: str, question: str, language: str = "en") -> str:
    """The card's title: the researcher's title, else the question (never the item's short name)."""
    return title.strip() or question.strip() or phrase("title", language)


def card_html(title: str, text: str) -> str:
    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    if paragraphs and paragraphs[0].strip() == title.strip():
        paragraphs = paragraphs[1:]  # the question is the title: not printed twice
    body = "".join(f"<p>{html.escape(p).replace(chr(10), '<br>')}</p>" for p in paragraphs)
    return (f"<h2 style='margin-bottom: 12px'>{html.escape(title)}</h2>"
            f"<div style='font-size: 11pt; line-height: 140%'>{body}</div>")


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
