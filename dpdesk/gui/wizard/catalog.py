"""The designs the wizard offers, described by what the respondent does.

Only words live here (titles, explanations, how easy a design is to follow) and the
default parameters; privacy and efficiency figures are computed by ``rr`` when shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction as F

YES_NO, CATEGORIES, MULTI = "yes/no", "categories", "multi-select"

# Devices a parameter can come from.
COINS, DIE, DICE, CARDS, BIRTHDAY, EXACT = "coins", "die", "dice", "cards", "birthday", "exact"
DEVICE_NAMES = {
    COINS: "Coins",
    DIE: "A die",
    DICE: "Two or more dice, added up",
    CARDS: "A deck of cards",
    BIRTHDAY: "Birthday month",
    EXACT: "Exact probabilities",
}
#: Where the unrelated question's harmless question B comes from (``Choice.b_sources``), in words.
B_SOURCE_NAMES = {
    BIRTHDAY: "A birthday month",
    DIE: "A second roll of a die",
    CARDS: "A second card",
    EXACT: "My own question, with a known share of 'yes'",
}


@dataclass(frozen=True)
class Param:
    """One design parameter: its rr name, what it means in words, its default."""

    name: str
    label: str
    default: F
    kind: str = "probability"  # or "epsilon"
    devices: tuple[str, ...] = (DIE, CARDS, EXACT)


@dataclass(frozen=True)
class Choice:
    key: str  # rr.design name
    title: str  # what the respondent does
    detail: str
    ease: str
    answers: str  # YES_NO, CATEGORIES or MULTI
    params: tuple[Param, ...] = ()
    devices: tuple[str, ...] = (DIE, CARDS, EXACT)
    two_groups: bool = False
    recommended: bool = False
    extra: dict = field(default_factory=dict)
    #: Where the harmless question B may come from when the randomizer (``devices``) only chooses
    #: between question A and B (the unrelated question): its own choice, beside the randomizer.
    b_sources: tuple[str, ...] = ()


_INNOCUOUS = (BIRTHDAY, DIE, CARDS, EXACT)

CHOICES: tuple[Choice, ...] = (
    Choice("forced", "Answer truthfully, unless the randomizer says to just say 'yes' or 'no'",
           "The respondent privately tosses coins or rolls a die. Most of the time they answer the question "
           "truthfully; otherwise the randomizer tells them to say 'yes' or 'no' regardless. Known as "
           "forced response.",
           "Easy", YES_NO,
           (Param("p_truth", "Answer truthfully", F(1, 2)), Param("p_yes", "Just say 'yes'", F(1, 4)),
            Param("p_no", "Just say 'no'", F(1, 4))),
           (COINS, DIE, DICE, CARDS, EXACT), recommended=True),
    Choice("crosswise", "Say whether two answers are the same or different",
           "The respondent thinks of the sensitive question and a harmless one (such as a birthday month) and "
           "only says whether both answers are the same. Nobody ever says 'yes' to the sensitive question, and "
           "no randomizer is needed. Known as the crosswise model.",
           "Easy", YES_NO, (Param("p", "'Yes' to the harmless question", F(1, 4), devices=_INNOCUOUS),),
           _INNOCUOUS),
    Choice("ecwm", "Crosswise with a check that respondents follow the instructions (extended crosswise)",
           "The crosswise question in two versions: a random half of the respondents get a harmless question B "
           "that few people answer 'yes' to (such as a birthday in January-March), the other half its "
           "complement (April-December). If respondents follow the instructions, both halves give the same "
           "prevalence; if they differ, the results say so. It costs no precision. Known as the extended "
           "crosswise model.",
           "Easy", YES_NO, (Param("p", "'Yes' to question B in version 1", F(1, 4), devices=_INNOCUOUS),),
           _INNOCUOUS, two_groups=True),
    Choice("unrelated", "Answer the question, or a harmless unrelated one",
           "The randomizer decides whether the respondent answers the sensitive question or a harmless one "
           "whose 'yes' share is known (such as a birthday month). Known as the unrelated-question design.",
           "Moderate", YES_NO,
           (Param("p_sensitive", "Answer the sensitive question", F(2, 3)),
            Param("q", "'Yes' to the harmless question", F(1, 4), devices=_INNOCUOUS)),
           (DIE, CARDS, EXACT), b_sources=_INNOCUOUS),  # a die may choose A or B, and B ask for a birthday
    Choice("warner", "Answer one of two mirrored statements",
           "The randomizer gives either 'I have done it' or 'I have not done it'; the respondent says whether "
           "the statement they got is true. Known as Warner's design.",
           "Moderate", YES_NO, (Param("p", "Get the statement 'I have done it'", F(2, 3)),)),
    Choice("kuk", "Draw a card from one of two decks and name its colour",
           "Respondents who have the attribute draw from one deck, the others from a second deck with a "
           "different share of red cards; they only name the colour. Known as Kuk's card design.",
           "Harder", YES_NO,
           (Param("p1", "Red cards in deck 1 (has the attribute)", F(7, 10)),
            Param("p2", "Red cards in deck 2 (does not have it)", F(3, 10))),
           (CARDS, EXACT)),
    Choice("sld", "Two groups; answer truthfully or say 'yes' (detects lying)",
           "Respondents are split into two groups with different randomizer odds. Comparing the groups "
           "estimates how many people with the attribute still deny it, so the prevalence survives "
           "respondents who lie. Known as the stochastic lie detector.",
           "Moderate", YES_NO,
           (Param("p1", "Group 1: answer truthfully", F(1, 3)), Param("p2", "Group 2: answer truthfully", F(2, 3))),
           two_groups=True),
    Choice("cdm", "Two groups; say 'yes' when told or answer truthfully (detects cheating)",
           "Two groups with different chances of a forced 'yes'. Comparing them estimates how many people "
           "say 'no' whatever the randomizer says, so cheating is detected instead of hidden. Known as the "
           "cheating detection model.",
           "Moderate", YES_NO,
           (Param("p1", "Group 1: just say 'yes'", F(1, 3)), Param("p2", "Group 2: just say 'yes'", F(2, 3))),
           two_groups=True),
    Choice("forced_multi", "Give your true category, unless the randomizer picks one",
           "Most of the time the respondent gives their true category; otherwise the randomizer picks a "
           "category for them, each equally often. Forced response with several categories.",
           "Easy", CATEGORIES, (Param("p_truth", "Give the true category", F(2, 3)),), (DIE, EXACT),
           recommended=True),
    Choice("krr", "Report your category, or another one the randomizer picks",
           "The respondent keeps their true category with a set chance and otherwise reports one of the other "
           "categories at random. The chance follows from the privacy level you choose (k-ary randomized "
           "response).",
           "Moderate", CATEGORIES, (Param("epsilon", "Privacy level (epsilon)", F(2), kind="epsilon",
                                          devices=(EXACT,)),), (EXACT,)),
    Choice("unary", "Tick or untick each option, randomized one by one",
           "For each option separately the respondent ticks it with one chance if it applies and a smaller "
           "chance if it does not. Works when several options may apply (optimized unary encoding).",
           "Harder", MULTI, (Param("epsilon", "Privacy level (epsilon)", F(2), kind="epsilon",
                                   devices=(EXACT,)),), (EXACT,), recommended=True),
)

BY_KEY = {c.key: c for c in CHOICES}

TWO_GROUP_NOTE = (
    "Two-group designs split the respondents at random into two groups that use different randomizer "
    "odds. They need about twice as many respondents, but they detect respondents who do not follow the "
    "instructions (the lie detector) or who always say 'no' (cheating detection) instead of letting them "
    "bias the result. The extended crosswise model splits them too, into two versions of question B, and "
    "needs no more respondents than the crosswise model."
)
#: What the two versions of the extended crosswise model's question B are for, in plain words.
VERSIONS_NOTE = (
    "<b>Two versions of question B.</b> The survey platform shows each respondent one of two versions of "
    "question B at random (on paper: shuffle the two cards in equal numbers), and records which. Version 2 asks "
    "the opposite of version 1, so its share of 'yes' is the rest (version 1: January-March, about 25%; "
    "version 2: April-December, about 75%). If respondents follow the instructions, both versions give the same "
    "prevalence; a difference shows that some do not. The version says nothing about anyone's answer."
)


def choices_for(answers: str) -> list[Choice]:
    return [c for c in CHOICES if c.answers == answers]


def recommended(answers: str) -> Choice:
    return next(c for c in CHOICES if c.answers == answers and c.recommended)


#: Coin presets for forced response: (label, tosses, truth, yes, no) for rr.randomizers.coins.
COIN_PRESETS = (
    ("Two coins: heads first, answer truthfully; tails then heads, say 'yes'; two tails, say 'no'",
     2, ("H",), ("TH",), ("TT",)),
    ("Three coins: heads first or tails-heads, answer truthfully; tails-tails-heads, say 'yes'; "
     "three tails, say 'no'", 3, ("H", "TH"), ("TTH",), ("TTT",)),
    ("Two coins: two heads or two tails, answer truthfully; heads-tails, say 'yes'; tails-heads, say 'no'",
     2, ("HH", "TT"), ("HT",), ("TH",)),
)
