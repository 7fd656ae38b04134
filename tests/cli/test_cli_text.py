"""``dpdesk text``: an item's respondent text per language, review, and the card in that language."""

from __future__ import annotations

import json
import unicodedata

import pytest

from dpdesk.mechanisms import rr
from dpdesk.project import Project
from tests.helpers.cli import run
from tests.helpers.pdftext import pdf_text


@pytest.fixture
def project_path(tmp_path):
    path = tmp_path / "p.dpdesk"
    with Project.create(path) as p:
        p.add_item("cheat", rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25), question="Did you cheat in an exam?")
        p.add_item("mix", rr.design("crosswise", p=0.25), question="Have you ever shoplifted?")
    return path


def test_show_write_review_and_print_in_german(project_path, capsys, tmp_path):
    code, out, _ = run(capsys, "text", project_path, "cheat", "--language", "de")
    assert code == 0 and "check with a native speaker before fielding" in out and "So antworten Sie:" in out
    assert "not yet written in this language: question" in out
    code, out, _ = run(capsys, "text", project_path, "cheat", "-l", "de", "--question",
                       "Haben Sie bei einer Prüfung geschummelt?", "--reviewed", "--by", "A. Müller")
    assert code == 0 and "reviewed by A. Müller" in out and "Haben Sie bei einer Prüfung geschummelt?" in out
    card = tmp_path / "karte.pdf"
    code, out, _ = run(capsys, "text", project_path, "cheat", "-l", "de", "--card", card, "--also", "fr")
    assert code == 0 and "Deutsch (de), Français (fr)" in out
    text = unicodedata.normalize("NFKC", pdf_text(card.read_bytes()))  # Qt writes ligatures (ﬀ)
    assert "Prüfung" in text and "wahrheitsgemäß" in text and "Effectuez" in text
    assert "Did you cheat in an exam?" in text  # French question not written yet: the English one, flagged
    german = text.split("Did you cheat")[0]
    assert not {"the", "answer", "randomizer", "probability", "yes"} & {w.lower() for w in german.split()}


def test_json_question_b_and_back_to_generated(project_path, capsys):
    code, out, _ = run(capsys, "text", project_path, "mix", "-l", "es", "--question", "¿Ha robado alguna vez?",
                       "--question-b", "¿El cumpleaños de su madre es en enero, febrero o marzo?", "--json")
    data = json.loads(out)
    assert code == 0 and data["needs_review"] and data["question_b"].startswith("¿El cumpleaños")
    assert data["options"] == {"yes": "Las dos respuestas son iguales", "no": "Las respuestas son distintas"}
    code, out, _ = run(capsys, "text", project_path, "mix", "-l", "es", "--generated", "question_b", "--json")
    assert json.loads(out)["untranslated"] == ["question_b"]


def test_bad_input_gets_words(project_path, capsys, tmp_path):
    code, _, err = run(capsys, "text", project_path, "cheat", "-l", "xx")
    assert code == 1 and "no respondent text in language 'xx'" in err and "Traceback" not in err
    bad = tmp_path / "card.txt"
    bad.write_bytes("Würfeln".encode("cp1252"))
    code, _, err = run(capsys, "text", project_path, "cheat", "-l", "de", "--card-text", bad)
    assert code == 1 and "is not UTF-8 text" in err
    code, _, err = run(capsys, "text", project_path, "nope", "-l", "de")
    assert code == 1 and "nope" in err
