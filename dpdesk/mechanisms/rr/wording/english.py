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
        f"(about {pct(p)} of people answer 'yes' to B). Do not say your answers. "
        "Tick 'Both answers are the same' if your answers to A and B are both 'yes' or both 'no'; tick "
        "'The answers are different' if one is 'yes' and the other 'no'."
    )


def ecwm(p: float) -> str:
    return (
        "Respondents get one of two versions of the harmless question B, drawn at random: in version 1 about "
        f"{pct(p)} of people answer 'yes' to B, in version 2 about {pct(1 - p)}. Consider the sensitive question (A) "
        "and your version of B, whose answer only you know. Do not say your answers. Tick 'Both answers are the "
        "same' if your answers to A and B are both 'yes' or both 'no'; tick 'The answers are different' if one is "
        "'yes' and the other 'no'."
    )


def triangular(p: float) -> str:
    return (
        "Consider two questions: the sensitive question (A) and a harmless one (B) whose answer only you know "
        f"(about {pct(p)} of people answer 'yes' to B). Do not say your answers. Tick 'At least one yes' if your "
        "answer to A or to B or both is 'yes'; tick 'Both no' only if both answers are 'no'."
    )


def mangat(p: float) -> str:
    return (
        "If you have the attribute, answer 'yes'. If you do not, use the randomizer privately: with "
        f"probability {pct(p)} answer 'no' truthfully, otherwise ({pct(1 - p)}) answer 'yes'."
    )


def kuk(p1: float, p2: float, draws: int) -> str:
    cards = "a card" if draws == 1 else f"{draws} cards, one at a time, putting each back"
    report = "its colour, red or black" if draws == 1 else "how many of them were red"
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


# --------------------------------------------------------------------------- answer labels
#
# What the respondent ticks, per recorded response, in the order of ``Design.responses``.
# Each entry is (label printed on the card, short label for tables). The instructions above
# quote the same words, so the card, the mapping dialog and the results all say the same.

YES_NO_LABELS = (("No", "no"), ("Yes", "yes"))

#: Designs whose recorded responses are not the respondent's "yes"/"no".
SPECIAL_LABELS = {
    # recorded 1 ("yes") = both answers the same (Yu, Tian & Tang 2008)
    "crosswise": (("The answers are different", "different"), ("Both answers are the same", "same")),
    "ecwm": (("The answers are different", "different"), ("Both answers are the same", "same")),
    # recorded 1 ("yes") = at least one "yes" (Yu, Tian & Tang 2008)
    "triangular": (("Both no", "both no"), ("At least one yes", "at least one yes")),
}

#: A few common translations of the short labels, for matching a file's codes and value labels.
TRANSLATIONS = {
    "yes": ("ja", "oui", "sí", "si", "sim", "tak"),
    "no": ("nein", "non", "não", "nao", "nee", "nie"),
    "same": ("both the same", "gleich", "beide gleich", "identique", "pareil", "igual", "iguales", "hetzelfde"),
    "different": ("verschieden", "unterschiedlich", "différent", "differente", "diferente", "diferentes",
                  "verschillend"),
    "red": ("rot", "rouge", "rojo", "rood"),
    "black": ("schwarz", "noir", "negro", "zwart"),
}


def kuk_labels(draws: int) -> tuple[tuple[str, str], ...]:
    """Kuk: one card names its colour; several cards report how many were red."""
    if draws == 1:
        return (("Black card", "black"), ("Red card", "red"))
    return tuple((f"{k} red card{'' if k == 1 else 's'}", f"{k} red") for k in range(draws + 1))


def answer_labels(name: str, params: dict, responses: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """(card label, short label) for each recorded response of design ``name``."""
    if name in SPECIAL_LABELS:
        return SPECIAL_LABELS[name]
    if name == "kuk":
        return kuk_labels(int(params.get("draws", 1)))
    if tuple(responses) == ("no", "yes"):
        return YES_NO_LABELS
    return tuple((str(r), str(r)) for r in responses)


def answer_words(label: str, short: str, response: str) -> set[str]:
    """Words that stand for one response: its labels, its key where that is a respondent word
    (``"yes"`` is a respondent word for forced response, not for crosswise), and translations."""
    words = {label, short}
    if response.casefold() in (label.casefold(), short.casefold()):
        words.add(response)
    for word in list(words):
        words.update(TRANSLATIONS.get(word.casefold(), ()))
    return words
