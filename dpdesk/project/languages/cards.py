"""The respondent cards of a project's items, one set per language, for fielding on paper.

``paper_cards(project, languages, items)`` gives, per language, each item's ``(title, card)``
as :func:`dpdesk.printing.write_cards` prints them. A card in a language whose text says
nothing of how to draw the randomizer (dpdesk's template with no randomizer kept) is refused in
words, as the online instructions are. An extended crosswise item prints one card per version of
question B, titled with its version.
"""

from __future__ import annotations

from dpdesk.errors import DesignError

from dpdesk.project.languages import versions
from dpdesk.project.languages.platform import NO_RANDOMIZER, how_to_draw
from dpdesk.project.languages.texts import respondent_text_in


def paper_cards(project, languages, items=None) -> dict[str, list[tuple[str, str]]]:
    """``{language: [(title, card text), ...]}`` for the items (all, or those named)."""
    chosen = [i for i in project.items() if items is None or i.name in items]
    if not chosen:
        raise DesignError("The project has no items to print. Add one with the wizard or `dpdesk item`.")
    out: dict[str, list[tuple[str, str]]] = {}
    for language in languages:
        cards = []
        for item in chosen:
            t = respondent_text_in(project, item.name, language)
            own_card = t.source and bool((item.instructions or "").strip())  # the researcher's card (the wizard's)
            written = language == "en" or own_card or bool({"card", "instructions"} & t.edited)  # English: as online
            if item.design.name not in NO_RANDOMIZER and not written:
                how_to_draw(item, language)  # refused in words when the card could not say it
            if item.design.name in versions.VERSIONED:  # one card per version of question B
                cards += version_cards(item, t, language)
                continue
            cards.append((t.title, t.card))
        out[language] = cards
    return out


def version_cards(item, t, language: str) -> list[tuple[str, str]]:
    """An extended crosswise item's two cards, ``(title (Version v), card)``: the halves of its card, a half
    it lacks written from the design with that version's question B. Hand each respondent one card at
    random (for example shuffled in equal numbers); the version is recorded with the answer."""
    own = versions.split_card(t.card)
    made = versions.split_card(versions.card(t.question, item.design, t.question_b, t.question_b2, language))
    return [(versions.version_title(t.title, v, language), own[v - 1] or made[v - 1]) for v in (1, 2)]
