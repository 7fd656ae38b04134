"""The survey item being designed: what the wizard pages fill in, and the rr design it makes."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dpdesk.gui.wizard.catalog import BY_KEY, COINS, YES_NO


@dataclass
class Draft:
    """Everything the wizard asks; ``design()`` builds the rr design (raising DesignError)."""

    name: str = ""
    question: str = ""
    answers: str = YES_NO
    categories: list[str] = field(default_factory=list)
    design_key: str = "forced"
    device: str = COINS
    b_source: str = ""  # the unrelated question: where question B comes from (catalog.B_SOURCE_NAMES)
    values: dict[str, Any] = field(default_factory=dict)  # rr parameter -> number (Fraction or float)
    device_text: str = ""  # what the respondent does with the randomizer (for the card)
    question_b: str = ""  # two-question designs: the harmless question B, as respondents read it
    question_b_edited: bool = False
    question_b2: str = ""  # the extended crosswise model: version 2's question B (the complementary share)
    question_b2_edited: bool = False
    randomizer: dict | None = None  # the physical randomizer where the design alone does not say it (dice added up)
    notes: str = ""  # the researcher's notes on the randomizer (exact shares, caveats): never on the card
    card_title: str = ""  # the card's title (default: "Please read before you answer"; never the question or the short name)
    instructions: str = ""  # the (possibly edited) respondent instructions
    instructions_edited: bool = False
    planned_n: int = 1000
    prevalence: float = 0.2  # guessed prevalence (yes/no), or share of the first category
    shares: list[float] = field(default_factory=list)  # guessed category shares
    halfwidth: float = 0.05
    null: float = 0.0
    deff: float = 1.0  # expected design effect of the sample (1: a simple random sample)
    editing: str | None = None  # the item's name when an existing item is edited
    field_mode: str | None = None  # after saving, field it: "online", "interview" or "paper" (the Field it dialog)

    @property
    def choice(self):
        return BY_KEY[self.design_key]

    def design(self):
        """The rr design of the current answers (raises DesignError for impossible values)."""
        from dpdesk.mechanisms import rr

        return build_design(rr, self.design_key, self.values, self.categories)

    def guessed_prevalence(self, design) -> Any:
        """The guessed prevalence in the shape rr's planning functions take."""
        if design.is_binary:
            return self.prevalence
        k = len(design.categories)
        shares = list(self.shares)[:k]
        if len(shares) != k or any(not 0 <= x <= 1 for x in shares) or (design.model == "categorical" and sum(shares) <= 0):
            shares = [1 / k] * k if design.model == "categorical" else [self.prevalence] * k
        if design.model == "categorical":  # single choice: the guesses are rescaled to add up to 100%
            total = sum(shares)
            shares = [x / total for x in shares]
        return shares


def build_design(rr, key: str, values: dict[str, Any], categories: list[str]):
    """``rr.design`` for the wizard's parameters (categories designs get their label list)."""
    if key == "forced_multi":
        truth = Fraction(values["p_truth"]) if not isinstance(values["p_truth"], float) else Fraction(str(values["p_truth"]))
        k = max(len(categories), 1)
        each = (1 - truth) / k
        return rr.design("forced_multi", p_truth=float(truth), p_forced=[float(each)] * k,
                         categories=list(categories))
    if key in ("krr", "unary"):
        return rr.design(key, categories=list(categories), epsilon=float(values["epsilon"]))
    return rr.design(key, **{k: float(v) for k, v in values.items()})
