"""What respondents see on each platform: every item's question (the unary one too), headed by its
question and never by the item's short name, in every language."""

from __future__ import annotations

import csv
import io
import json

import pytest

from dpdesk.project import languages as L
from dpdesk.project.fielding import FORMATS, export_instrument
from tests.helpers.fielding import fielding_project

QUESTION = "Which of these have you ever done at work?"
GERMAN = "Welche dieser Dinge haben Sie bei der Arbeit schon einmal getan?"


def _all_text(path) -> str:
    if path.suffix == ".xlsx":
        from openpyxl import load_workbook

        book = load_workbook(path, read_only=True)
        return "\n".join("\t".join("" if c is None else str(c) for c in row)
                         for name in book.sheetnames for row in book[name].iter_rows(values_only=True))
    return path.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def unary_exports(tmp_path_factory):
    """Every format of a project with a unary item (question set in English and German) and a forced one."""
    folder = tmp_path_factory.mktemp("unary")
    with fielding_project(folder / "p.dpdesk", ["unary", "forced"]) as project:
        project.update_item("unary", question=QUESTION)
        L.set_text(project, "unary", "de", question=GERMAN)
        L.set_text(project, "forced", "de", question="Haben Sie jemals geschummelt?")
        return {fmt: export_instrument(project, folder / f"x_{fmt}", fmt, languages=["en", "de"]).files
                for fmt in FORMATS}


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_unary_question_is_shown_in_every_format_and_language(unary_exports, fmt):
    files = [f for f in unary_exports[fmt] if not f.name.endswith("README.txt")]
    text = "\n".join(_all_text(f) for f in files)
    assert QUESTION in text and GERMAN in text, fmt


def test_the_unary_question_opens_its_first_field(unary_exports):
    survey = json.loads(unary_exports["qsf"][0].read_text(encoding="utf-8"))
    intro = next(e["Payload"] for e in survey["SurveyElements"]
                 if e["Element"] == "SQ" and e["Payload"]["DataExportTag"] == "unary_intro")
    assert intro["QuestionText"].startswith(QUESTION + "<br>")
    assert intro["Language"]["DE"]["QuestionText"].startswith(GERMAN + "<br>")
    rows = list(csv.DictReader(io.StringIO(unary_exports["redcap"][1].read_text(encoding="utf-8"))))
    first = next(r for r in rows if r["Variable / Field Name"] == "unary_intro")
    assert first["Field Label"].startswith(GERMAN)
    txt = unary_exports["qualtrics-txt"][0].read_text(encoding="utf-8")
    assert f"[[ID:unary_intro]]\n{QUESTION}\n" in txt


def test_groups_are_headed_by_the_question_never_the_short_name(unary_exports):
    rows = list(csv.DictReader(io.StringIO(unary_exports["limesurvey"][0].read_text(encoding="utf-8")),
                               delimiter="\t"))
    groups = {(r["id"], r["language"]): r["name"] for r in rows if r["class"] == "G"}
    assert sorted(groups.values()) == sorted([QUESTION, GERMAN, "Have you ever done thing forced?",
                                              "Haben Sie jemals geschummelt?"])
    assert not {"unary", "forced"} & set(groups.values())
    from openpyxl import load_workbook

    book = load_workbook(unary_exports["xlsform"][0], read_only=True)
    survey = list(book["survey"].iter_rows(values_only=True))
    header = list(survey[0])
    en, de = header.index("label::English (en)"), header.index("label::German (de)")
    heads = [(r[en], r[de]) for r in survey[1:] if r[0] == "begin_group"]
    assert heads == [(QUESTION, GERMAN), ("Have you ever done thing forced?", "Haben Sie jemals geschummelt?")]


def test_a_long_question_heads_its_limesurvey_group_shortened():
    from dpdesk.project.fielding.instrument import group_title
    from dpdesk.project.fielding.texts import RespondentText

    title = group_title(RespondentText("en", "word " * 40, "", ""))
    assert len(title) == 100 and title.endswith("…")


def test_qsf_languages_as_qualtrics_writes_them(tmp_path, unary_exports):
    """``SO.AvailableLanguages`` lists every language (the first too, as real exports and
    github.com/sumtxt/qsf's activate_languages write it), the first is the survey's, and a question
    with no translation has ``Language: []``."""
    survey = json.loads(unary_exports["qsf"][0].read_text(encoding="utf-8"))
    so = next(e["Payload"] for e in survey["SurveyElements"] if e["Element"] == "SO")
    assert so["AvailableLanguages"] == {"EN": [], "DE": []} and so["SurveyLanguage"] == "EN"
    with fielding_project(tmp_path / "p.dpdesk", ["forced"]) as project:
        L.set_text(project, "forced", "de", question="Haben Sie jemals geschummelt?")
        german_first = json.loads(export_instrument(project, tmp_path / "de", "qsf", languages=["de", "en"])
                                  .files[0].read_text(encoding="utf-8"))
        english = json.loads(export_instrument(project, tmp_path / "en", "qsf").files[0].read_text(encoding="utf-8"))
    so = next(e["Payload"] for e in german_first["SurveyElements"] if e["Element"] == "SO")
    assert so["AvailableLanguages"] == {"DE": [], "EN": []} and so["SurveyLanguage"] == "DE"
    assert german_first["SurveyEntry"]["SurveyLanguage"] == "DE"
    mc = next(e["Payload"] for e in german_first["SurveyElements"] if e["Element"] == "SQ"
              and e["Payload"]["DataExportTag"] == "forced")
    assert mc["QuestionText"] == "Haben Sie jemals geschummelt?" and mc["Language"]["EN"]["Choices"]["1"]["Display"] == "Yes"
    so = next(e["Payload"] for e in english["SurveyElements"] if e["Element"] == "SO")
    assert so["AvailableLanguages"] == {"EN": []}
    assert all(e["Payload"]["Language"] == [] for e in english["SurveyElements"] if e["Element"] == "SQ")


TWO_GROUP = ["sld", "cdm", "unrelated_unknown"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_birthday_group_question_is_asked_once_per_respondent(tmp_path, fmt):
    """Several two-group items share one group question (per language), and each item records it."""
    from dpdesk.project.fielding.store import instruments

    with fielding_project(tmp_path / "p.dpdesk", TWO_GROUP) as project:
        for name in TWO_GROUP:
            L.set_text(project, name, "de", question=f"Haben Sie jemals {name} getan?",
                       question_b="Hat Ihre Mutter im Januar Geburtstag?" if name == "unrelated_unknown" else None)
        files = export_instrument(project, tmp_path / "x", fmt, languages=["en", "de"]).files
        recorded = instruments(project)[0].items
    text = "\n".join(_all_text(f) for f in files if not f.name.endswith("README.txt"))
    if fmt == "qsf":  # what respondents read: the question texts (QuestionDescription is the researcher's)
        qs = [e["Payload"] for e in json.loads(text)["SurveyElements"] if e["Element"] == "SQ"]
        text = "\n".join([q["QuestionText"] for q in qs] + [t["QuestionText"] for q in qs for t in q["Language"].values()])
    assert text.count("On which day of the month is your birthday?") == 1
    from dpdesk.mechanisms.rr.wording import phrase

    assert text.count(phrase("group_question", "de")) == 1
    names = {name: [f["name"] for f in entry["fields"] if f["role"] == "group"] for name, entry in recorded.items()}
    assert names == {name: ["sld_group" if fmt != "limesurvey" else "sldGroup"] for name in TWO_GROUP}
    assert [f["role"] for f in recorded["cdm"]["fields"]] == ["intro", "group", "answer"]
