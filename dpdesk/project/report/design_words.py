"""A randomized-response design in the words of a methods section.

``design_words(design, instructions)`` gives "Forced response with a coin (Boruch, 1971):
truthful with probability 1/2, 'yes' 1/4, 'no' 1/4". Probabilities are written as
fractions when they are simple ones (a coin, a die, a deck of cards), else as percentages.
The randomizer (a coin, a die, cards, birthdays) is named when the item's respondent
instructions name it; dpdesk does not otherwise know which device was used.
"""

from __future__ import annotations

from dpdesk.project.study.design_text import NAMES, details, prob, randomizer  # noqa: F401 - prob: re-exported
from dpdesk.project.study.items import item_randomizer  # noqa: F401 - re-exported


_COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _dice_words(record: dict) -> tuple[str, str]:
    """("two six-sided dice, added up", "totals 2, 3 or 4 mean 'yes' and 11 or 12 mean 'no'")."""
    from dpdesk.mechanisms.rr.randomizers import faces_text

    dice, sides = int(record["dice"]), int(record["sides"])
    sided = f"{_COUNT_WORDS.get(sides, sides)}-sided"
    device = f"{_COUNT_WORDS.get(dice, dice)} {sided} dice, added up"
    rules = [f"{faces_text(record[k])} mean '{k}'" for k in ("yes", "no") if record.get(k)]
    return device, "totals " + " and ".join(rules) if rules else ""


def design_words(d, instructions: str | None = None, randomizer_record: dict | None = None) -> str:
    """"Forced response with a coin (Boruch, 1971): truthful with probability 1/2, 'yes' 1/4, 'no' 1/4".

    ``randomizer_record`` is the randomizer kept with the item's design (the dice of
    ``rr.randomizers.dice_sum``); without one, the device is read from the instructions.
    """
    from dpdesk.project.report.references import cite

    title, key = NAMES.get(d.name, (d.summary or d.name, None))
    rules = ""
    if isinstance(randomizer_record, dict) and randomizer_record.get("kind") == "dice_sum":
        device, rules = _dice_words(randomizer_record)
    else:
        device = randomizer(instructions)
    if device:
        title += f" with {device}"
    if key:
        title += f" ({cite(key)})"
    return f"{title}: {details(d)}" + (f"; {rules}" if rules else "")


def design_key(d) -> str | None:
    """The reference key of the design's source."""
    return NAMES.get(d.name, (None, None))[1]
