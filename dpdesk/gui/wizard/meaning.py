"""What a design means for the respondent and the researcher, in words (no Qt).

The numbers come from ``rr`` (epsilon from the design matrices, precision and power from
``rr.planning``); this module only puts them into sentences.
"""

from __future__ import annotations

import math
from typing import Any


def pct(x: float, digits: int = 1) -> str:
    value = 100 * float(x)
    text = f"{value:.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return f"{text}%"


def times(ratio: float) -> str:
    """A ratio as every other text writes it (the number style's ``ratio_in_text``): ``3.00``, ``1,097``."""
    from dpdesk.project.number_style import NumberStyle

    return NumberStyle.ratio_in_text(ratio).removesuffix(" times")


def unprotected_answers(design) -> list[str]:
    """Answers, in the respondent's words, that are impossible for some respondents (so they reveal them)."""
    out = []
    for m in design.matrices:
        sub = m[:, list(design.privacy_states)] if design.model != "unary" else m
        for r, row in enumerate(sub):
            said = design.short_labels[r] if design.model != "unary" else design.responses[r]
            if row.max() > 0 and row.min() <= 0 and said not in out:
                out.append(said)
    return out


NO_PRIVACY = ("This design protects no one. Every answer it allows can only come from one kind of respondent, "
              "so each answer reveals the respondent's true answer, exactly as if you asked directly "
              "(local epsilon is infinite for every answer). Give some randomizer outcomes a forced answer.")


def epsilon_words(design) -> str:
    """The local epsilon explained: how much more likely an answer is from one kind of respondent."""
    eps = design.epsilon
    if design.protects_no_one:
        return NO_PRIVACY
    if math.isinf(eps):
        answers = unprotected_answers(design) if design.model != "unary" else []
        which = " or ".join(f"'{a}'" for a in answers) or "some"
        return (f"Local epsilon is infinite: a {which} answer is not protected. It can only come from some "
                f"respondents, so anyone who gives it is revealed as one of them. Other answers are protected. "
                f"Choose probabilities above 0 for every instruction to protect every answer.")
    ratio = math.exp(eps)
    if design.is_binary:
        who = "someone who has the attribute as from someone who hasn't (and the other way round)"
    elif design.model == "unary":
        who = "someone with one answer as from someone with any other single answer"
    else:
        who = "someone in one category as from someone in any other category"
    text = (f"Local epsilon = {eps:.2f}. Whatever a respondent answers, that answer is at most "
            f"{times(ratio)} times as likely from {who}. Smaller is more private.")
    if design.model == "unary":
        from dpdesk.mechanisms import rr

        multi = rr.unary_multiselect_epsilon(design)
        text += (f" When any set of options may apply, the whole answer is protected at epsilon {multi:.2f} "
                 "(the options' epsilons add up).")
    return text


def efficiency_words(value: Any) -> str:
    """Relative efficiency (variance of a direct question over the RR variance) as a sample-size factor."""
    v = float(min(value)) if hasattr(value, "__len__") else float(value)
    if not v > 0:
        return "Carries no information at this prevalence."
    return f"Needs about {times(1 / v)} times as many respondents as asking directly (efficiency {pct(v, 0)})."


def halfwidth_words(hw: Any, n: int) -> str:
    h = float(max(hw)) if hasattr(hw, "__len__") else float(hw)
    return (f"With {n:,} respondents the 95% confidence interval will be about ±{pct(h)} "
            f"(the estimate plus or minus {100 * h:.1f} percentage points).")


def deff_words(deff: float, n: int) -> str:
    """What an expected design effect means for the planned sample ("" for a simple random sample)."""
    if abs(deff - 1) < 1e-9:
        return ""
    return (f"With a design effect of {deff:.2g} (weights, strata, clusters), {n:,} respondents are worth about "
            f"{n / deff:,.0f} in a simple random sample; the figures here allow for it.")


def required_n_words(n: int, target: float) -> str:
    return f"To reach ±{pct(target)} you need about {n:,} respondents."


def _chance(x: float) -> str:
    return "more than 99%" if x > 0.99 else pct(x, 0)


def power_words(value: Any, null: float, n: int) -> str:
    if hasattr(value, "__len__"):
        low = float(min(value))
        shown = _chance(low) if low > 0.99 else f"at least {pct(low, 0)}"
        return (f"Chance of showing that each category is above {pct(null)} with {n:,} respondents: "
                f"{shown} (one-sided test at the 5% level).")
    shown = _chance(float(value))
    return (f"Chance of showing that the prevalence is above {pct(null)} with {n:,} respondents: "
            f"{shown} (one-sided test at the 5% level).")
