"""The respondent's text in every language: complete, no English left over, numbers written the local way."""

from __future__ import annotations

import re

import pytest

from dpdesk.errors import DesignError
from dpdesk.mechanisms.rr import wording as W
from dpdesk.mechanisms.rr.design import DESIGN_NAMES

from tests.helpers.designs import example_design

OTHER = [lang for lang in W.LANGUAGES if lang != "en"]

#: Words of dpdesk's English templates that must never appear in another language's text.
ENGLISH = {"the", "randomizer", "probability", "answer", "answers", "truthfully", "nobody", "tick", "both", "same",
           "different", "yes", "with", "your", "card", "cards", "deck", "people", "otherwise", "group", "if",
           "say", "roll", "toss", "heads", "tails", "draw", "red", "black", "and", "or", "of", "you", "question",
           "carrier", "birthday", "mother"}
#: ... unless the word is also the language's own.
NATIVE = {"fr": {"question"}, "nl": {"of"}}

#: The example designs' categories, as a researcher would write them in each language.
CATEGORIES = {
    "de": {"forced_multi": ["nie", "manchmal", "oft"], "krr": ["Bus", "Auto", "Fahrrad"],
           "unary": ["Fernsehen", "Hörfunk", "Internet"]},
}


def _leftovers(text: str, language: str) -> set[str]:
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", text)}
    return (words & ENGLISH) - NATIVE.get(language, set())


def _categories(name: str, language: str):
    d = example_design(name)
    if not d.categories:
        return None
    return CATEGORIES.get(language, CATEGORIES["de"])[name]


@pytest.mark.parametrize("language", OTHER)
@pytest.mark.parametrize("name", DESIGN_NAMES)
def test_every_design_in_every_language_is_complete(name, language):
    d = example_design(name)
    text = W.card_text("Frage?", d, "", "Q B?", language, categories=_categories(name, language))
    assert "{" not in text and "}" not in text and "[write" not in text
    assert not _leftovers(text.replace("Frage?", "").replace("Q B?", ""), language), text
    labels = W.answer_labels(d, language)
    assert len(labels) == len(d.responses) and all(lab and short for lab, short in labels)
    assert W.instructions(d, language, _categories(name, language)) in text


@pytest.mark.parametrize("language", list(W.LANGUAGES))
def test_every_sentence_is_written(language):
    """Every language has every template English has, and the same placeholders in each."""
    from importlib import import_module

    en = import_module("dpdesk.mechanisms.rr.wording.en").T
    other = import_module(f"dpdesk.mechanisms.rr.wording.{language}").T
    assert set(en) <= set(other)
    for key in en:
        names = lambda s: {m.split(":")[0] for m in re.findall(r"{(\w+(?::\w+)?)}", s)}  # noqa: E731
        assert names(en[key]) == names(other[key]), key


@pytest.mark.parametrize("language", OTHER)
def test_randomizers_in_every_language(language):
    texts = [W.die_text({"truth": [1, 2, 3, 4], "yes": [5], "no": [6]}, 6, language),
             W.die_text({"truth": [1, 2, 3, 4, 5, 6, 7, 8], "yes": [9], "no": [10]}, 10, language),
             W.cards_text(40, 10, 10, language), W.coin_text(2, ["H"], ["TH"], ["TT"], language),
             W.coin_text(1, ["H"], [], ["T"], language), W.exact_text(language),
             W.birthday_question([1, 2, 3], language), W.question_b_placeholder(example_design("crosswise"), language)]
    for text in texts:
        assert "{" not in text and not _leftovers(text, language), text


def test_english_is_the_existing_wording():
    d = example_design("crosswise")
    assert W.instructions(d, "en") == d.describe()
    assert [lab for lab, _s in W.answer_labels(d, "en")] == list(d.response_labels)
    assert W.birthday_question([1, 2, 3]) == "Is your mother's birthday in January, February or March?"
    assert W.die_text({"truth": [1, 2, 3, 4], "yes": [5], "no": [6]}, 6) == \
        __import__("dpdesk.mechanisms.rr.randomizers", fromlist=["die"]).die([1, 2, 3, 4], [5], [6]).respondent


def test_numbers_and_words_the_local_way():
    d = example_design("krr")  # keep 78.7%
    assert "78,7\u00a0%" in W.instructions(d, "de") and "78,7\u00a0%" in W.instructions(d, "fr")
    assert "78,7%" in W.instructions(d, "it") and "78.7%" in W.instructions(d, "en")
    assert "dell'11,9%" in W.instructions(example_design("unary"), "it")  # elided article
    assert "«\u00a0Oui\u00a0»" in W.instructions(example_design("forced"), "fr")  # French spacing
    assert W.birthday_question([1, 2, 3], "de") == "Hat Ihre Mutter im Januar, Februar oder März Geburtstag?"
    assert W.answer_labels(example_design("kuk"), "fr")[1] == ("1 carte rouge", "1 rouge")
    assert W.answer_labels(example_design("kuk"), "fr")[0][0] == "0 carte rouge"  # French: 0 is singular
    assert W.answer_labels(example_design("kuk"), "de")[0][0] == "0 rote Karten"


def test_unknown_language_is_refused_in_words():
    with pytest.raises(DesignError, match="Languages with templates: en .English., de"):
        W.instructions(example_design("forced"), "xx")


def test_answers_in_any_language_name_their_response():
    """A platform's answer texts in another language map to the right response (crosswise never inverted)."""
    from dpdesk.project.mapping.answer_labels import suggest

    cw = example_design("crosswise")
    assert suggest(cw, "Beide Antworten sind gleich") == "yes" and suggest(cw, "Les réponses sont différentes") == "no"
    assert suggest(cw, "Le due risposte sono uguali") == "yes" and suggest(cw, "As respostas são diferentes") == "no"
    tri = example_design("triangular")
    assert suggest(tri, "Al menos un sí") == "yes" and suggest(tri, "Allebei nee") == "no"
    assert suggest(example_design("forced"), "Nein") == "no" and suggest(example_design("forced"), "Oui") == "yes"
    assert suggest(example_design("kuk"), "2 cartes rouges") == "2 red"
