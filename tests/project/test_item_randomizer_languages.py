"""The randomizer kept with an item (coins, a die, cards, dice added up, a birthday) is named on the
card in every language; a damaged record leaves the sentence out rather than misread it."""

from __future__ import annotations

import pytest

from dpdesk.errors import DesignError
from dpdesk.mechanisms import rr
from dpdesk.mechanisms.rr import randomizers as R
from dpdesk.mechanisms.rr import wording as W
from dpdesk.project import Project
from dpdesk.project import languages as L

CASES = [
    (R.coins(2), "coins", "fr", "Lancez"),
    (R.die(4, 1, 1), "die", "es", "Si sale 5, responda «Sí»."),
    (R.cards(40, 10, 10), "cards", "it", "60"),
    (R.dice_sum(2, 6, yes=[2, 3, 4], no=[11, 12]), "dice_sum", "de", "Ist die Summe 2, 3 oder 4, antworten Sie mit „Ja“."),
    (R.forced_multi_die(4, ["bus", "car"], 6), "die", "nl", "Gooit u 6, dan antwoordt u ‘car’."),
]


@pytest.mark.parametrize("language", list(W.LANGUAGES))
def test_the_die_or_cards_choosing_the_unrelated_question_in_every_language(tmp_path, language):
    design = rr.design("unrelated", p_sensitive=4 / 6, q=0.25).to_dict()
    with Project.create(tmp_path / "p.dpdesk") as project:
        for name, kept in (("die", {"kind": "die", "sides": 6, "a": [1, 2, 3, 4], "b": [5, 6]}),
                           ("cards", {"kind": "cards", "a": 8, "b": 4})):
            project.add_item(name, {**design, "randomizer": kept}, question="Have you ever cheated?")
            sentence = W.randomizer_sentence(kept, language)
            assert sentence and "{" not in sentence and sentence in L.respondent_text_in(project, name, language).card
            for part in ("does_a", "does_b"):
                assert W.phrase(part, language) in sentence
    assert "If it shows 1, 2, 3 or 4, answer question A. If it shows 5 or 6, answer question B." in \
        W.randomizer_sentence({"kind": "die", "sides": 6, "a": [1, 2, 3, 4], "b": [5, 6]})


def test_forced_response_by_categories_names_the_translated_categories(tmp_path):
    with Project.create(tmp_path / "p.dpdesk") as project:
        project.add_item("how", R.forced_multi_die(4, ["bus", "car"], 6), question="How do you travel?")
        L.set_text(project, "how", "de", options=["Bus", "Auto"])
        card = L.respondent_text_in(project, "how", "de").card
        fielded = L.platform_text(project, "how", "de")["instructions"]
    for text in (card, fielded):
        assert "Zeigt er 5, antworten Sie mit „Bus“. Zeigt er 6, antworten Sie mit „Auto“." in text


@pytest.mark.parametrize("params,kind,language,words", CASES)
def test_the_card_in_another_language_names_the_randomizer(tmp_path, params, kind, language, words):
    with Project.create(tmp_path / "p.dpdesk") as project:
        project.add_item("x", params, question="Have you ever cheated?")
    with Project.open(tmp_path / "p.dpdesk") as project:
        assert project.item("x").design_record["randomizer"]["kind"] == kind
        card = L.respondent_text_in(project, "x", language).card
    sentence = W.randomizer_sentence(params.randomizer, language)
    assert sentence and words in sentence and W.phrase("randomizer", language) + sentence in card


@pytest.mark.parametrize("language", list(W.LANGUAGES))
def test_every_language_words_every_randomizer(language):
    for params, *_ in CASES:
        text = W.randomizer_sentence(params.randomizer, language)
        assert text and "{" not in text
    assert W.randomizer_sentence({"kind": "exact"}, language) == W.exact_text(language)


def test_a_birthday_question_b_is_written_in_every_language(tmp_path):
    p = float(R.birth_month([1, 2, 3]))
    design = {**rr.design("crosswise", p=p).to_dict(), "randomizer": {"kind": "birthday", "birthday_months": [1, 2, 3]}}
    with Project.create(tmp_path / "p.dpdesk") as project:
        project.add_item("cw", design, question="Have you ever copied?")
        german = L.respondent_text_in(project, "cw", "de")
        assert german.question_b == W.birthday_question([1, 2, 3], "de") and "question_b" not in german.untranslated
        assert "B: Hat Ihre Mutter im Januar, Februar oder März Geburtstag?" in german.card


def test_a_damaged_or_unknown_record_gives_no_sentence():
    assert W.randomizer_sentence({"kind": "coins", "tosses": "two"}, "de") == ""
    assert W.randomizer_sentence({"kind": "spinner"}, "de") == "" and W.randomizer_sentence(None) == ""


def test_paper_cards_say_how_to_draw_or_are_refused(tmp_path):
    with Project.create(tmp_path / "p.dpdesk") as project:
        project.add_item("kept", R.coins(2), question="Have you ever cheated?")
        project.add_item("bare", rr.design("warner", p=0.7), question="Have you ever lied?")
        cards = L.paper_cards(project, ["en", "de"], ["kept"])
        assert W.randomizer_sentence(R.coins(2).randomizer, "de") in cards["de"][0][1]
        with pytest.raises(DesignError, match="German instructions for 'bare' do not say how to draw"):
            L.paper_cards(project, ["de"])
        L.set_source_language(project, "de")  # the researcher's own card, written in German
        project.update_item("bare", instructions="Hast du gelogen?\n\nWürfeln Sie ...")
        assert L.paper_cards(project, ["de"], ["bare"])["de"][0][1].startswith("Hast du gelogen?")
