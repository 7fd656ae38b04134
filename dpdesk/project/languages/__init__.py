"""The respondent's text in each language, kept in the project: written, edited and reviewed.

``respondent_text_in(project, item, language)`` is what respondents read in that language
(generated from dpdesk's templates where the researcher wrote nothing); ``set_text`` stores
the researcher's words; ``set_reviewed`` records the review (TRAPD; Harkness, 2003). A
language other than the one the researcher wrote in is marked "check with a native speaker
before fielding" until it is reviewed. ``platform_text`` gives the same text as a survey
platform fields it (online or in an interview); ``paper_cards`` the cards to print, per language.
"""

from dpdesk.project.languages.cards import paper_cards
from dpdesk.project.languages.platform import platform_text
from dpdesk.project.languages.texts import (
    CHECK_NOTE,
    ItemText,
    add_language,
    item_languages,
    remove_language,
    respondent_text_in,
    restore_texts,
    review_summary,
    saved_texts,
    set_reviewed,
    set_source_language,
    set_text,
    source_language,
)

__all__ = ["CHECK_NOTE", "ItemText", "add_language", "item_languages", "paper_cards", "platform_text", "remove_language",
           "respondent_text_in", "restore_texts", "review_summary", "saved_texts", "set_reviewed",
           "set_source_language", "set_text", "source_language"]
