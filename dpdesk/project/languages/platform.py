"""An item's text in one language as a survey platform fields it (the fielding exporters' fields).

``platform_text(project, item, language, mode)`` gives the keyword arguments of the fielding
package's ``RespondentText`` (everything but ``language``): the question(s), the
instructions with the sentences online or interview fielding adds (how to draw the
randomizer kept with the design, whose randomizer, the birthday group, why the answer is
private), the answer options numbered in card order, and
what the researcher must still write in that language.
"""

from __future__ import annotations

from typing import Any

from dpdesk.errors import DesignError, in_app

from dpdesk.mechanisms.rr.wording import instructions, phrase, randomizer_sentence
from dpdesk.mechanisms.rr.wording.text import ENGLISH_NAMES
from dpdesk.project.study.items import item_randomizer
from dpdesk.project.languages.texts import respondent_text_in
from dpdesk.project.languages.versions import VERSIONED, version_design

MODES = ("online", "interview")
#: Designs whose format itself randomizes (question B's answer is the secret): no randomizer to draw.
NO_RANDOMIZER = ("crosswise", "ecwm", "triangular")


def how_to_draw(item, language: str, categories=None) -> str:
    """The sentence telling the respondent how to draw the item's randomizer, in ``language``,
    from the randomizer kept with its design; a :class:`DesignError` in words where none is kept
    (instructions that do not say how to randomize are never fielded)."""
    d = item.design
    sentence = randomizer_sentence(item_randomizer(item), language,
                                   list(categories) if d.name == "forced_multi" and categories else None)
    if not sentence:
        head = (f"The {ENGLISH_NAMES.get(language, language)} instructions for {item.name!r} do not say how to "
                f"draw the randomizer: ")
        tail = (": for example a coin the respondent tosses at home, or the crosswise design, which needs no "
                "randomizer.")
        raise in_app(DesignError(
            head + f"write them in Languages… (or `dpdesk text PROJECT {item.name} --language {language} "
            f"--instructions ...`), or choose the randomizer in the design wizard (Design view, Edit…) or with "
            f"`dpdesk item PROJECT {item.name} --randomizer exact` (coins, die or cards for forced response)" + tail),
            head + "write them in Languages…, or choose the randomizer in the design wizard (Design view, Edit…; "
            "coins, die or cards for forced response)" + tail)
    return sentence


def platform_text(project, item_name: str, language: str, mode: str = "online") -> dict[str, Any]:
    """The fields of one item's respondent text in ``language`` for an online or interview instrument."""
    if mode not in MODES:
        raise DesignError(f"Unknown mode {mode!r}: use one of {', '.join(MODES)}.")
    t = respondent_text_in(project, item_name, language)
    d = project.item(item_name).design
    versioned = d.name in VERSIONED
    missing = tuple({"question": "question", "question_b": "question B (the harmless question)"
                     if not versioned else "question B of version 1 (the harmless question)",
                     "question_b2": "question B of version 2 (the harmless question)"}[p] for p in t.untranslated)
    body = t.instructions
    if versioned:  # each version: the crosswise instructions with its own share of 'yes' to B
        bodies = [t.instructions if "instructions" in t.edited else instructions(version_design(d, v), language)
                  for v in (1, 2)]
        body = bodies[0]
    if d.groups == 2 and not versioned:
        body = f"{phrase('group_note', language)}\n\n{body}"
    no_randomizer = d.name in NO_RANDOMIZER  # question B's answer is the respondent's secret
    if not no_randomizer:
        if "instructions" not in t.edited:  # the researcher's own words say how to draw; dpdesk's must too
            body += "\n\n" + how_to_draw(project.item(item_name), language, t.options)
        body += "\n\n" + phrase("interview_randomizer" if mode == "interview" else "own_randomizer", language)
    why = phrase("why_private_two" if no_randomizer else "why_private_interview" if mode == "interview"
                 else "why_private", language)
    fields: dict[str, Any] = {"question": t.question, "question_b": t.question_b, "instructions": body,
                              "why_private": why, "missing": missing}
    if d.model == "unary":
        fields["tick_options"] = tuple(zip(d.categories, t.options))
        fields["tick_labels"] = (phrase("ticked", language), phrase("not_ticked", language))
        return fields
    fields["options"] = tuple((i + 1, label) for i, label in enumerate(t.options))
    fields["responses"] = t.responses
    if versioned:
        fields["versions"] = ((t.question_b, bodies[0]), (t.question_b2, bodies[1]))
    elif d.groups == 2:
        fields["group_question"] = phrase("group_question", language)
        fields["group_options"] = ((1, phrase("group_odd", language)), (2, phrase("group_even", language)))
    return fields
