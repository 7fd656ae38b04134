"""The respondent's text per language in the project: unicode round trip, review state, methods."""

from __future__ import annotations

import pytest

from dpdesk.errors import DpdeskError
from dpdesk.mechanisms import rr
from dpdesk.project import Project
from dpdesk.project import languages as L

QUESTION_DE = "Haben Sie im letzten Jahr bei einer Prüfung geschummelt? „Ja“ oder „Nein“ – ß, ü, é, 漢字, 🙂"


@pytest.fixture
def project(tmp_path):
    with Project.create(tmp_path / "p.dpdesk") as p:
        p.add_item("cheat", rr.randomizers.coins(2, truth=["H"], yes=["TH"], no=["TT"]),  # forced response 1/2, 1/4, 1/4
                   question="Did you cheat in an exam?")
        p.add_item("mix", rr.design("crosswise", p=0.25), question="Have you ever shoplifted?")
        p.add_item("transport", rr.design("krr", categories=["bus", "car", "bike"], epsilon=2.0), question="How do you travel?")
        yield p


def test_generated_text_in_every_language(project):
    for lang in L.respondent_text_in.__globals__["words"].LANGUAGES:
        t = L.respondent_text_in(project, "cheat", lang)
        assert t.instructions and t.card and t.options
        assert t.needs_review == (lang != "en")
    de = L.respondent_text_in(project, "cheat", "de")
    assert de.options == ("Ja", "Nein") and de.responses == ("yes", "no")
    assert de.untranslated == ("question",)  # the question is still the English one


def test_unicode_round_trip_and_review_state_survive_reopening(project, tmp_path):
    path = project.path
    t = L.set_text(project, "cheat", "de", question=QUESTION_DE)
    assert t.question == QUESTION_DE and t.needs_review and "question" in t.edited
    assert QUESTION_DE in t.card and "So antworten Sie:" in t.card
    L.set_text(project, "mix", "fr", question="Avez-vous déjà volé à l'étalage ?",
               question_b="L'anniversaire de votre mère est-il en janvier, février ou mars ?")
    L.set_reviewed(project, "cheat", "de", by="Dr. Müller")
    project.close()
    with Project.open(path) as p:
        t = L.respondent_text_in(p, "cheat", "de")
        assert t.question == QUESTION_DE and t.reviewed and t.reviewed_by == "Dr. Müller" and not t.needs_review
        fr = L.respondent_text_in(p, "mix", "fr")
        assert fr.needs_review and fr.question_b.startswith("L'anniversaire") and "B: L'anniversaire" in fr.card
        assert L.item_languages(p, "cheat") == {"en": (True, ""), "de": (True, "Dr. Müller")}
        # an edit after the review asks for a new review
        assert L.set_text(p, "cheat", "de", instructions="Würfeln Sie.").needs_review
        assert "So antworten Sie: Würfeln Sie." in L.respondent_text_in(p, "cheat", "de").card


def test_category_labels_in_another_language(project):
    t = L.set_text(project, "transport", "de", options=["Bus", "Auto", "Fahrrad"])
    assert t.options == ("Bus", "Auto", "Fahrrad") and "„Auto“" not in t.instructions  # krr quotes none
    assert "[ ] Fahrrad" in t.card and "bike" not in t.card
    with pytest.raises(DpdeskError, match="one label per option"):
        L.set_text(project, "transport", "de", options=["Bus", "Auto"])


def test_source_language_is_the_items_own_text(project):
    L.set_text(project, "cheat", "en", question="Did you ever cheat?")
    assert project.item("cheat").question == "Did you ever cheat?"
    L.set_source_language(project, "de")
    assert L.respondent_text_in(project, "cheat", "en").needs_review
    assert not L.respondent_text_in(project, "cheat", "de").needs_review


def test_unknown_language_and_part_are_refused_in_words(project):
    with pytest.raises(DpdeskError, match="no respondent text in language 'xx'"):
        L.respondent_text_in(project, "cheat", "xx")
    with pytest.raises(DpdeskError, match="has no part 'title'"):
        L.set_text(project, "cheat", "de", title="x")


def test_review_reaches_the_methods_paragraph(project):
    from dpdesk.project.report.methods import methods

    L.set_text(project, "cheat", "de", question=QUESTION_DE)
    L.add_language(project, "cheat", "fr")
    L.set_reviewed(project, "cheat", "de")
    text = methods(project, []).text()
    assert ("provided in English, German and French, written in English and translated from dpdesk's templates "
            "with the research team's edits; the German version was reviewed by the research team; the French "
            "version was not reviewed (TRAPD") in text
    assert "Harkness, 2003" in text and "Harkness, J. A. (2003). Questionnaire translation." in text


def test_removing_an_item_removes_its_texts(project):
    L.set_text(project, "cheat", "de", question=QUESTION_DE)
    project.remove_item("cheat")
    assert project._read("SELECT COUNT(*) FROM item_texts")[0][0] == 0
    assert project._read("SELECT COUNT(*) FROM item_languages")[0][0] == 0


def test_platform_text_in_german(project):
    project.add_item("sld", {**rr.design("sld", p1=0.3, p2=0.7).to_dict(), "randomizer": {"kind": "exact"}},
                     question="Did you ever drive drunk?")
    project.add_item("media", {**rr.design("unary", categories=["tv", "radio"], epsilon=2.0).to_dict(),
                               "randomizer": {"kind": "exact"}}, question="Which?")
    L.set_text(project, "cheat", "de", question=QUESTION_DE)
    f = L.platform_text(project, "cheat", "de")
    assert f["question"] == QUESTION_DE and f["options"] == ((1, "Ja"), (2, "Nein")) and f["missing"] == ()
    assert "Benutzen Sie Ihren eigenen Zufallsgenerator" in f["instructions"]
    assert "Werfen Sie unbeobachtet nacheinander 2 Münzen" in f["instructions"]  # how to draw, in German
    assert f["why_private"].startswith("Warum Ihre Antwort vertraulich bleibt")
    g = L.platform_text(project, "sld", "fr", mode="interview")
    assert g["group_question"] == "Quel jour du mois êtes-vous né(e)\u00a0?" and g["missing"] == ("question",)
    assert g["instructions"].startswith("Votre groupe") and "l'enquêteur ou l'enquêtrice" in g["instructions"]
    m = L.platform_text(project, "mix", "es")
    assert m["missing"] == ("question", "question B (the harmless question)") and "sorteo que" not in m["instructions"]
    u = L.set_text(project, "media", "it", options=["televisione", "radio"])
    assert u.options == ("televisione", "radio")
    t = L.platform_text(project, "media", "it")
    assert t["tick_options"] == (("tv", "televisione"), ("radio", "radio")) and t["tick_labels"] == ("Barrata", "Non barrata")


@pytest.mark.parametrize("language", ["de", "fr", "es", "nl", "it", "pt"])
def test_every_design_fields_in_every_language(tmp_path, language):
    from dpdesk.mechanisms.rr.design import DESIGN_NAMES
    from tests.helpers.designs import example_design

    with Project.create(tmp_path / "p.dpdesk") as p:
        for name in DESIGN_NAMES:
            p.add_item(name, {**example_design(name).to_dict(), "randomizer": {"kind": "exact"}}, question="Q?")
            t = L.respondent_text_in(p, name, language)
            f = L.platform_text(p, name, language, mode="interview")
            assert t.card and "{" not in t.card and f["instructions"] and f["why_private"]
            assert len(t.options) == len(t.responses)
