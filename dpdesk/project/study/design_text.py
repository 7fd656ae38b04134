"""A randomized-response design in plain words, without citations: for tables and exports.

``design_in_words(design)`` gives "Forced response: truthful with probability 3/4, 'yes' 1/6,
'no' 1/12" (the workbook's Design column); :func:`dpdesk.project.report.design_words.design_words`
adds the randomizer and the citation for a methods section. Probabilities are written as
fractions when they are simple ones (a coin, a die, a deck of cards), else as percentages.
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
    "ecwm": ("Extended crosswise model", "heck2018ecwm"),
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


def details(d) -> str:
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
    if name == "ecwm":
        return (f"two random groups, paired with a non-sensitive question of known prevalence {prob(p['p'])} in "
                f"group 1 and its complement {prob(1 - p['p'])} in group 2")
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


def design_in_words(d) -> str:
    """"Forced response: truthful with probability 1/2, 'yes' 1/4, 'no' 1/4" (no citation)."""
    title = NAMES.get(d.name, (d.summary or d.name, None))[0]
    return f"{title}: {details(d)}"
