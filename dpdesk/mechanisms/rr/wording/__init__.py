"""What a respondent reads, in the respondent's language: instructions, answer labels, the card.

Every sentence is a template written by a fluent speaker (formal register: Sie, vous, usted,
u, Lei, o senhor / a senhora), filled in with the design's numbers. Nothing is machine
translated. English is :mod:`dpdesk.mechanisms.rr.wording.english` itself, unchanged; the other
languages have one module each (``de``, ``fr``, ``es``, ``nl``, ``it``, ``pt``) holding a
table ``T`` of the same templates.

>>> from dpdesk.mechanisms import rr
>>> instructions(rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25), "de")[:38]
'Benutzen Sie den Zufallsgenerator unbe'
"""

from __future__ import annotations

from dpdesk.errors import DesignError

from dpdesk.mechanisms.rr.wording.text import (
    LANGUAGES,
    answer_labels,
    birthday_question,
    card_order,
    card_text,
    check_language,
    coin_text,
    cards_text,
    dice_text,
    die_text,
    exact_text,
    instructions,
    labels_in_every_language,
    language_name,
    phrase,
    question_b_placeholder,
    randomizer_sentence,
)

__all__ = [
    "DesignError", "LANGUAGES", "answer_labels", "birthday_question", "card_order", "card_text",
    "cards_text", "check_language", "coin_text", "dice_text", "die_text", "exact_text", "instructions",
    "labels_in_every_language", "language_name", "phrase", "question_b_placeholder",
    "randomizer_sentence",
]
