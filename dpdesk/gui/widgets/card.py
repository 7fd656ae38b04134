"""Respondent instructions: the suggested wording, plain text to paste, a printable PDF card.

The words come from ``dpdesk.mechanisms.rr.wording`` (in any of its languages);
the PDF from ``dpdesk.printing`` (laid out on the GUI thread: ``card_steps`` with a ``StepRunner``).
"""

from __future__ import annotations

import os
from pathlib import Path

from dpdesk import printing
from dpdesk.mechanisms.rr.wording import answer_labels, card_order, phrase
from dpdesk.mechanisms.rr.wording import card_text as _card_text
from dpdesk.mechanisms.rr.wording import question_b_placeholder as _b_placeholder
from dpdesk.mechanisms.rr.wording.text import TWO_QUESTIONS
from dpdesk.project.languages import versions
from dpdesk.project.languages.versions import VERSIONED


def answer_options(design, language: str = "en") -> list[str]:
    """What the respondent ticks, in the respondent's words (``Design.response_labels`` in English)."""
    labels = [lab for lab, _short in answer_labels(design, language)]
    return [labels[i] for i in card_order(design)]  # "Yes" (or "Both answers are the same") first


def question_b_placeholder(design, language: str = "en") -> str:
    return _b_placeholder(design, language)


def suggested_instructions(question: str, design, device_text: str, question_b: str = "",
                           language: str = "en", question_b2: str = "") -> str:
    """The generated wording: the question(s), what to do, the randomizer, the answer options.

    Two-question designs (crosswise, triangular, unrelated question) ask question B outright
    (``question_b``, e.g. "Is your mother's birthday in January, February or March?").
    ``device_text`` is what the respondent does with the randomizer; researcher notes (exact
    shares, the birthday-seasonality caveat) never belong here. ``language``: see
    ``dpdesk.mechanisms.rr.wording``. The extended crosswise model gets a card per version, each with its
    own question B (``question_b`` for version 1, ``question_b2`` for version 2), each headed by its
    version (:mod:`dpdesk.project.languages.versions`).
    """
    if design.name in VERSIONED:
        return versions.card(question, design, question_b, question_b2, language)
    return _card_text(question, design, device_text, question_b, language)


def version_pages(title: str, text: str, language: str = "en") -> list[tuple[str, str]]:
    """The printed cards of an extended crosswise item's text: ``(title (Version v), that version's card)``."""
    halves = versions.split_card(text)
    return [(versions.version_title(title, v, language), half) for v, half in enumerate(halves, start=1) if half]


def card_title(title: str, question: str = "", language: str = "en") -> str:
    """The card's title: the researcher's title, else "Please read before you answer" (in ``language``).
    Never the question, which the card asks right below (as "A:" in two-question designs), and never the
    item's short name; ``question`` is accepted for callers that pass it."""
    return title.strip() or phrase("title", language)


def card_html(title: str, text: str) -> str:
    return printing.card_html(title, text)


def write_card(path: str | os.PathLike, title: str, text: str, more: list[tuple[str, str]] | None = None) -> Path:
    """Write the instruction card to ``path`` as a PDF (A5; long text goes on to more pages); returns the path.

    ``more``: further cards (title, text), e.g. the same card in other languages, each on its own page.
    """
    return printing.run_steps(card_steps(path, title, text, more))


def card_steps(path: str | os.PathLike, title: str, text: str, more: list[tuple[str, str]] | None = None):
    """:func:`write_card` as steps for a ``dpdesk.gui.shell.steps.StepRunner`` (on the GUI thread)."""
    return printing.card_steps([(title, text)] + list(more or []), path)
