"""Answers in the respondents' language map themselves: choice texts and question texts in every
fielded language (German and French here), for Qualtrics, LimeSurvey, REDCap and KoboToolbox exports;
and an item whose column is found but whose answers do not fit is listed, never dropped in silence."""

from __future__ import annotations

import csv

import pytest

from dpdesk.mechanisms import rr
from dpdesk.project import languages as L
from dpdesk.project.analysis.estimates import analyze
from dpdesk.project.fielding import export_instrument
from dpdesk.project.reading.importing import import_file
from tests.helpers import fielding as helpers
from tests.project.test_fielding_answers import _same_estimate

NAMES = ["forced", "crosswise", "sld", "unary"]
WORDS = {"de": ("Haben Sie jemals {} getan?", "Hat Ihre Mutter im Januar, Februar oder März Geburtstag?"),
         "fr": ("Avez-vous déjà fait {} ?", "Votre mère est-elle née en janvier, février ou mars ?")}
LANGUAGE_COLUMNS = {"de": "label::German (de)", "fr": "label::French (fr)"}

CASES = {
    # Qualtrics, "Use choice text", respondents who took the translation: question and choice texts in it
    "qualtrics": ("qsf", lambda files, rows, lang: helpers.qualtrics_export(files[0], rows, language=lang.upper(),
                                                                           rename=RENAMED)),
    # LimeSurvey, "Full question text" headings and "Full answers"
    "limesurvey": ("limesurvey", lambda files, rows, lang: helpers.limesurvey_full_export(files[0], rows, lang)),
    # REDCap, headers and answers as labels, from the language's own dictionary (Multi-Language Management)
    "redcap": ("redcap", lambda files, rows, lang: helpers.redcap_labelled_export(files[1], rows)),
    # KoboToolbox, "Labels" in the language, for headers and answers
    "kobo": ("xlsform", lambda files, rows, lang: helpers.kobo_labels_export(files[0], rows, LANGUAGE_COLUMNS[lang])),
}


#: Qualtrics columns renamed by the researcher: found by their ImportId, coded by the translation's choice texts.
RENAMED = {"forced": "Q1", "crosswise": "Q2", "sld": "Q3", "sld_group": "Q4"}


def _project(path, lang):
    project = helpers.fielding_project(path, NAMES)
    question, b = WORDS[lang]
    for name in NAMES:
        L.set_text(project, name, lang, question=question.format(name), question_b=b if name == "crosswise" else None)
    return project


@pytest.mark.parametrize("lang", ["de", "fr"])
@pytest.mark.parametrize("case", CASES)
def test_answers_in_the_respondents_language_come_back_mapped(tmp_path, case, lang):
    fmt, write = CASES[case]
    with _project(tmp_path / "study.dpdesk", lang) as project:
        files = export_instrument(project, tmp_path / "instrument", fmt, languages=["en", lang]).files
        rows, counts = helpers.simulate(project)
        export = tmp_path / "answers.csv"
        text = write(files, rows, lang)
        export.write_text(text, encoding="utf-8", newline="")
        table = import_file(project, export)
        assert not [w for w in table.report.warnings if "Not mapped" in w], table.report.warnings
        results = {r.item: r for r in analyze(project)}
        assert set(results) == set(NAMES)
        for name, result in results.items():
            _same_estimate(result, project.item(name).design, counts[name])


def test_german_choice_texts_of_an_export_are_german(tmp_path):
    """The simulated exports really are in German (not the English the first language would give)."""
    with _project(tmp_path / "s.dpdesk", "de") as project:
        files = {fmt: export_instrument(project, tmp_path / f"i_{fmt}", fmt, languages=["en", "de"]).files
                 for fmt in ("qsf", "limesurvey", "redcap", "xlsform")}
        rows, _ = helpers.simulate(project, n=40)
    for case, (fmt, write) in CASES.items():
        text = write(files[fmt], rows, "de")
        assert "Haben Sie jemals forced getan?" in text and "Have you ever" not in text, case
        assert "Yes" not in text.split("\n", 3)[-1] and "Ja" in text, case


def test_a_column_found_whose_answers_do_not_fit_is_listed(tmp_path):
    with helpers.fielding_project(tmp_path / "s.dpdesk", ["forced", "warner"]) as project:
        files = export_instrument(project, tmp_path / "i", "limesurvey").files
        rows, _ = helpers.simulate(project, n=60)
        for row in rows:
            row["warner"] = "maybe"
        text = helpers.limesurvey_export(files[0], rows)
        export = tmp_path / "answers.csv"
        export.write_text(text, encoding="utf-8")
        table = import_file(project, export)
        assert project.item("forced").column == "forced" and project.item("warner").column is None
        [note] = [w for w in table.report.warnings if "warner" in w]
        assert "column 'warner' was found" in note and "'maybe'" in note and "Map items" in note


@pytest.mark.parametrize("case", ["limesurvey", "redcap", "kobo"])
def test_two_group_items_sharing_the_group_question_map_by_their_text_headings(tmp_path, case):
    """The group question is asked once, so text headings are unique and a German labelled export maps."""
    fmt, write = CASES[case]
    names = ["sld", "cdm", "forced"]
    with helpers.fielding_project(tmp_path / "s.dpdesk", names) as project:
        for name in names:
            L.set_text(project, name, "de", question=WORDS["de"][0].format(name))
        files = export_instrument(project, tmp_path / "i", fmt, languages=["en", "de"]).files
        rows, counts = helpers.simulate(project)
        text = write(files, rows, "de")
        head = next(csv.reader(text.splitlines()[:1]))
        assert len(head) == len(set(head))  # no heading twice
        export = tmp_path / "answers.csv"
        export.write_text(text, encoding="utf-8", newline="")
        table = import_file(project, export)
        assert not [w for w in table.report.warnings if "Not mapped" in w], table.report.warnings
        assert project.item("sld").group_column == project.item("cdm").group_column
        for r in analyze(project):
            _same_estimate(r, project.item(r.item).design, counts[r.item])
