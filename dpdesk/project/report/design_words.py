"""A randomized-response design in the words of a methods section.

``design_words(design, instructions)`` gives "Forced response with a coin (Boruch, 1971):
truthful with probability 1/2, 'yes' 1/4, 'no' 1/4". Probabilities are written as
fractions when they are simple ones (a coin, a die, a deck of cards), else as percentages.
The randomizer (a coin, a die, cards, birthdays) is named when the item's respondent
instructions name it; dpdesk does not otherwise know which device was used.
"""

from __future__ import annotations

from dpdesk.project.design_text import NAMES, details, prob, randomizer  # noqa: F401 - prob: re-exported


def design_words(d, instructions: str | None = None) -> str:
    """"Forced response with a coin (Boruch, 1971): truthful with probability 1/2, 'yes' 1/4, 'no' 1/4"."""
    from dpdesk.project.report.references import cite

    title, key = NAMES.get(d.name, (d.summary or d.name, None))
    device = randomizer(instructions)
    if device:
        title += f" with {device}"
    if key:
        title += f" ({cite(key)})"
    return f"{title}: {details(d)}"


def design_key(d) -> str | None:
    """The reference key of the design's source."""
    return NAMES.get(d.name, (None, None))[1]
