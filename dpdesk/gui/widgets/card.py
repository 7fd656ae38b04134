"""Respondent instructions: the suggested wording, plain text to paste, a printable PDF card.

The card is written with ``QPdfWriter`` from a ``QTextDocument`` (no widgets: ``printing.write_pdf``,
as the report), so it can be made in a worker thread.
"""

from __future__ import annotations

import html
import os
from pathlib import Path

#: Designs where the respondent considers two questions: the sensitive one (A) and a harmless one (B).
TWO_QUESTIONS = ("crosswise", "triangular", "unrelated", "unrelated_unknown")


def answer_options(design) -> list[str]:
    """What the respondent ticks, in the respondent's words (``Design.response_labels``)."""
    options = list(design.response_labels)
    if design.is_binary and list(design.responses) == ["no", "yes"]:
        options.reverse()  # "Yes" (or "Both answers are the same") first, as on most forms
    return options


def question_b_placeholder(design) -> str:
    share = design.params.get("p", design.params.get("q"))
    about = f" that about {100 * share:.0f}% of people answer 'yes'" if isinstance(share, float) else ""
    return f"[write the harmless question{about} here]"


def suggested_instructions(question: str, design, device_text: str, question_b: str = "") -> str:
    """The generated wording: the question(s), what to do, the randomizer, the answer options.

    Two-question designs (crosswise, triangular, unrelated question) ask question B outright
    (``question_b``, e.g. "Is your mother's birthday in January, February or March?").
    ``device_text`` is what the respondent does with the randomizer; researcher notes (exact
    shares, the birthday-seasonality caveat) never belong here.
    """
    if design.name in TWO_QUESTIONS:
        b = question_b.strip() or question_b_placeholder(design)
        parts = [f"A: {question.strip()}\nB: {b}"]
    else:
        parts = [question.strip()]
    parts += ["", "How to answer: " + design.describe()]
    if device_text:
        parts += ["", "Your randomizer: " + device_text]
    if design.model == "unary":
        parts += ["", "Options (tick any that the randomizer leaves ticked): " + ", ".join(design.categories)]
    else:
        parts += ["", "Answer (tick one): " + "   ".join(f"[ ] {o}" for o in answer_options(design))]
    parts += ["", "Nobody, including the researchers, can tell from your answer alone what is true for you."]
    return "\n".join(parts)


def card_title(title: str, question: str) -> str:
    """The card's title: the researcher's title, else the question (never the item's short name)."""
    return title.strip() or question.strip() or "Please read before you answer"


def card_html(title: str, text: str) -> str:
    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    if paragraphs and paragraphs[0].strip() == title.strip():
        paragraphs = paragraphs[1:]  # the question is the title: not printed twice
    body = "".join(f"<p>{html.escape(p).replace(chr(10), '<br>')}</p>" for p in paragraphs)
    return (f"<h2 style='margin-bottom: 12px'>{html.escape(title)}</h2>"
            f"<div style='font-size: 11pt; line-height: 140%'>{body}</div>")


def write_card(job, path: str | os.PathLike, title: str, text: str) -> Path:
    """Write the instruction card to ``path`` as a PDF (A5; long text goes on to more pages); returns the path."""
    from dpdesk.printing import write_pdf

    if job is not None:
        job.progress(0.1, "Laying out the card")
    path = write_pdf(card_html(title, text), path, title=title, page="A5", margin_mm=15, font_pt=11,
                     before_painting=None if job is None else lambda _doc: job.check())
    if job is not None:
        job.progress(1.0, "Card saved")
    return path
