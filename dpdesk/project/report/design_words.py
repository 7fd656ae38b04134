"""A randomized-response design in the words of a methods section.

``design_words(design, instructions)`` gives "Forced response with a coin (Boruch, 1971):
truthful with probability 1/2, 'yes' 1/4, 'no' 1/4". Probabilities are written as
fractions when they are simple ones (a coin, a die, a deck of cards), else as percentages.
The randomizer (a coin, a die, cards, birthdays) is named when the item's respondent
instructions name it; dpdesk does not otherwise know which device was used.
"""

from __future__ import annotations

import re
from fractions import Fraction

#: The design's name and its source, as cited in the text (the references are in ``references``).
NAMES = {
    "warner": ("Warner's mirrored-question design", "warner1965"),
    "forced": ("Forced response", "boruch1971"),
    "unrelated": ("Unrelated question with a known prevalence", "greenberg1969"),
    "crosswise": ("Crosswise model", "yu2008"),
    "triangular": ("Triangular model", "yu2008"),
    "mangat": ("Mangat's design", "mangat1994"),
    "kuk": ("Kuk's card design", "kuk1990"),
    "sld": ("Stochastic lie detector", "moshagen2012"),
    "cdm": ("Cheating detection model", "clark1998"),
    "unrelated_unknown": ("Unrelated question with an unknown prevalence, two groups", "greenberg1969"),
    "forced_multi": ("Forced response with several categories", "boruch1971"),
    "krr": ("k-ary randomized response", "warner1965"),
    "unary": ("Unary encoding of a multi-select item", "wang2017"),
    "custom": ("A custom response matrix", None),
}

_DEVICES = (("coin", "a coin"), ("dice", "a die"), ("die", "a die"), ("card", "cards"),
            ("birth", "birthdays"), ("spinner", "a spinner"))


def prob(p: float) -> str:
    """1/4 for 0.25, 1/6 for 0.1667..., else a percentage (24.7%)."""
    p = float(p)
    if p in (0.0, 1.0):
        return f"{p:g}"
    f = Fraction(p).limit_denominator(64)
    if abs(float(f) - p) < 1e-9:
        return f"{f.numerator}/{f.denominator}"
    x = 100 * p
    return f"{x:.1f}%".replace(".0%", "%")


def randomizer(instructions: str | None) -> str | None:
    """The device named in the respondent instructions ("a coin"), if any."""
    text = (instructions or "").lower()
    for word, device in _DEVICES:
        if re.search(rf"\b{word}", text):
            return device
    return None


def _details(d) -> str:
    p = d.params
    name = d.name
    if name == "warner":
        return f"the statement 'I have the attribute' with probability {prob(p['p'])}, its negation otherwise"
    if name == "forced":
        return f"truthful with probability {prob(p['p_truth'])}, 'yes' {prob(p['p_yes'])}, 'no' {prob(p['p_no'])}"
    if name == "unrelated":
        return (f"the sensitive question with probability {prob(p['p_sensitive'])}, otherwise an unrelated question "
                f"answered 'yes' with probability {prob(p['q'])}")
    if name in ("crosswise", "triangular"):
        return f"paired with a non-sensitive question of known prevalence {prob(p['p'])}"
    if name == "mangat":
        return f"carriers answer 'yes'; non-carriers answer truthfully with probability {prob(p['p'])}"
    if name == "kuk":
        return f"red-card probabilities {prob(p['p1'])} and {prob(p['p2'])}, {p['draws']} draw(s)"
    if name in ("sld", "cdm", "unrelated_unknown"):
        return f"two randomization groups with probabilities {prob(p['p1'])} and {prob(p['p2'])}"
    if name == "forced_multi":
        forced = ", ".join(f"'{c}' {prob(f)}" for c, f in zip(d.categories, p["p_forced"]))
        return f"truthful with probability {prob(p['p_truth'])}, forced {forced}"
    if name == "krr":
        return f"{len(d.categories)} categories, designed for epsilon = {float(p['epsilon']):.2f}"
    if name == "unary":
        return f"each option's box randomized alone ({str(p.get('variant', 'oue')).upper()}), epsilon = " \
               f"{float(p['epsilon']):.2f}"
    return f"{len(d.responses)} responses by {len(d.states)} states"


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
    return f"{title}: {_details(d)}" + (f"; {rules}" if rules else "")


def item_randomizer(item) -> dict | None:
    """The randomizer kept with an item's design (``None`` when the design alone describes it)."""
    record = getattr(item, "design_record", None) or {}
    found = record.get("randomizer") if isinstance(record, dict) else None
    return found if isinstance(found, dict) else None


def design_key(d) -> str | None:
    """The reference key of the design's source."""
    return NAMES.get(d.name, (None, None))[1]
