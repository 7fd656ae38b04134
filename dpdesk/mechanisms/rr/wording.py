"""Plain-words respondent instructions for each design (what the respondent does).

The wizard shows these as editable drafts; ``Design.describe()`` returns them. Probabilities
are written as percentages so they can be matched to a coin, a die, cards or birthdays.
"""

from __future__ import annotations


def pct(p: float) -> str:
    """0.25 -> '25%', 1/3 -> '33.3%'."""
    x = 100 * p
    return f"{x:.0f}%" if abs(x - round(x)) < 1e-9 else f"{x:.1f}%"


def warner(p: float) -> str:
    return (
        f"Use the randomizer privately. With probability {pct(p)} you get the statement "
        f"'I have the attribute'; otherwise ({pct(1 - p)}) you get 'I do not have the attribute'. "
        "Answer 'yes' if the statement you got is true for you and 'no' if it is false. "
        "Nobody else knows which statement you got."
    )


def forced(t: float, y: float, n: float) -> str:
    parts = [f"With probability {pct(t)}, answer the question truthfully."]
    if y:
        parts.append(f"With probability {pct(y)}, simply answer 'yes'.")
    if n:
        parts.append(f"With probability {pct(n)}, simply answer 'no'.")
    return (
        "Use the randomizer privately before you answer. " + " ".join(parts)
        + " Nobody else sees the randomizer, so a 'yes' or a 'no' never reveals your true answer."
    )


def unrelated(p: float, q: float) -> str:
    return (
        f"Use the randomizer privately. With probability {pct(p)} answer the sensitive question; otherwise "
        f"({pct(1 - p)}) answer an unrelated, harmless question instead (one that about {pct(q)} of people "
        "answer 'yes', for example about a birthday). Answer whichever question you got truthfully; "
        "nobody knows which one it was."
    )


def unrelated_unknown(p1: float, p2: float) -> str:
    return (
        "You are in one of two groups. Use the randomizer privately: answer the sensitive question with "
        f"probability {pct(p1)} in group 1 and {pct(p2)} in group 2; otherwise answer the unrelated, harmless "
        "question. Answer whichever question you got truthfully."
    )


def crosswise(p: float) -> str:
    return (
        "Consider two questions: the sensitive question (A) and a harmless one (B) whose answer only you know "
        f"(about {pct(p)} of people answer 'yes' to B, for example a birthday question). Do not say your answers. "
        "Tick 'both the same' if your answers to A and B are both 'yes' or both 'no'; tick 'different' "
        "otherwise."
    )


def triangular(p: float) -> str:
    return (
        "Consider two questions: the sensitive question (A) and a harmless one (B) whose answer only you know "
        f"(about {pct(p)} of people answer 'yes' to B). Tick 'at least one yes' if your answer to A or to B or "
        "both is 'yes'; tick 'both no' only if both answers are 'no'."
    )


def mangat(p: float) -> str:
    return (
        "If you have the attribute, answer 'yes'. If you do not, use the randomizer privately: with "
        f"probability {pct(p)} answer 'no' truthfully, otherwise ({pct(1 - p)}) answer 'yes'."
    )


def kuk(p1: float, p2: float, draws: int) -> str:
    cards = "a card" if draws == 1 else f"{draws} cards, one at a time, putting each back"
    report = "'yes' if it is red" if draws == 1 else "how many of them were red"
    return (
        f"You have two decks: deck 1 has {pct(p1)} red cards, deck 2 has {pct(p2)} red cards. "
        f"If you have the attribute, draw {cards} from deck 1; if not, draw from deck 2. "
        f"Report only {report}; never say which deck you used."
    )


def sld(p1: float, p2: float) -> str:
    return (
        "You are in one of two groups. Use the randomizer privately: with probability "
        f"{pct(p1)} in group 1 ({pct(p2)} in group 2) answer the question truthfully; otherwise answer 'yes'. "
        "The analysis also estimates how many respondents do not follow the instructions."
    )


def cdm(p1: float, p2: float) -> str:
    return (
        "You are in one of two groups. Use the randomizer privately: with probability "
        f"{pct(p1)} in group 1 ({pct(p2)} in group 2) simply answer 'yes'; otherwise answer the question "
        "truthfully. The analysis also estimates how many respondents say 'no' whatever the randomizer says."
    )


def forced_multi(t: float, forced: list[float], cats: tuple[str, ...]) -> str:
    rest = "; ".join(f"{pct(f)} answer '{c}'" for c, f in zip(cats, forced) if f > 0)
    return (
        f"Use the randomizer privately. With probability {pct(t)} give your true answer. Otherwise the "
        f"randomizer decides your answer: {rest}."
    )


def krr(cats: tuple[str, ...], keep: float) -> str:
    other = (1 - keep) / (len(cats) - 1)
    return (
        f"Use the randomizer privately. With probability {pct(keep)} report your true category; each other "
        f"category is reported with probability {pct(other)}."
    )


def unary(cats: tuple[str, ...], p: float, q: float) -> str:
    return (
        "For each option separately, use the randomizer privately: if the option applies to you, tick it with "
        f"probability {pct(p)}; if it does not apply, tick it with probability {pct(q)}."
    )


def custom(m, responses, states) -> str:
    lines = []
    for j, s in enumerate(states):
        parts = ", ".join(f"'{r}' with probability {pct(m[i, j])}" for i, r in enumerate(responses) if m[i, j] > 0)
        lines.append(f"Someone whose true state is '{s}' answers {parts}.")
    return "Use the randomizer privately. " + " ".join(lines)
