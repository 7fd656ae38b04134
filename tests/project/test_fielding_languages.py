"""Every export carries the chosen languages, in dpdesk's templates and the researcher's words."""

from __future__ import annotations

import json

import pytest

from dpdesk.errors import DesignError
from dpdesk.project import languages as L
from dpdesk.project.fielding import FORMATS, export_instrument
from tests.helpers.fielding import fielding_project

NAMES = ["forced", "crosswise", "sld", "unary"]


def _german(project):
    for name in NAMES:
        L.set_text(project, name, "de", question=f"Haben Sie jemals {name} getan?")
    L.set_text(project, "crosswise", "de", question_b="Hat Ihre Mutter im Januar, Februar oder März Geburtstag?")


def test_every_format_in_english_and_german(tmp_path):
    with fielding_project(tmp_path / "p.dpdesk", NAMES) as project:
        _german(project)
        out = {fmt: export_instrument(project, tmp_path / f"x_{fmt}", fmt, languages=["en", "de"]).files
               for fmt in FORMATS}
    survey = json.loads(out["qsf"][0].read_text(encoding="utf-8"))
    cw = next(e["Payload"] for e in survey["SurveyElements"] if e["Element"] == "SQ"
              and e["Payload"]["DataExportTag"] == "crosswise")
    assert cw["Language"]["DE"]["Choices"]["1"]["Display"] == "Beide Antworten sind gleich"
    lime = out["limesurvey"][0].read_text(encoding="utf-8")
    assert "Haben Sie jemals forced getan?" in lime and "Benutzen Sie Ihren eigenen Zufallsgenerator" in lime
    german = out["redcap"][1].read_text(encoding="utf-8")
    assert "An einem ungeraden Tag" in german and "Beide Antworten sind gleich" in german
    from openpyxl import load_workbook
    from pyxform.xls2xform import convert

    book = load_workbook(out["xlsform"][0])
    header = [c.value for c in book["survey"][1]]
    assert "label::German (de)" in header
    labels = [row[header.index("label::German (de)")] for row in book["survey"].iter_rows(min_row=2, values_only=True)]
    assert "Haben Sie jemals sld getan?" in labels
    assert not convert(xlsform=str(out["xlsform"][0]), validate=False).warnings


def test_a_language_whose_question_is_not_written_waits(tmp_path):
    with fielding_project(tmp_path / "p.dpdesk", ["forced"]) as project:
        with pytest.raises(DesignError, match="question"):
            export_instrument(project, tmp_path / "out", "redcap", languages=["en", "fr"])



@pytest.mark.parametrize("kept", [{"kind": "exact"}, None])
def test_no_language_is_fielded_without_how_to_draw_the_randomizer(tmp_path, kept):
    """Rule 1: for every format, design and language (English too), the fielded instructions say
    how to draw the kept randomizer, or the export is refused in words with a suggestion; never
    instructions without it."""
    from dpdesk.mechanisms import rr
    from dpdesk.mechanisms.rr.wording import randomizer_sentence
    from dpdesk.project import Project
    from dpdesk.project.fielding.store import instruments, set_item_text
    from dpdesk.project.fielding.texts import TWO_QUESTIONS
    from dpdesk.project.languages.platform import NO_RANDOMIZER
    from tests.helpers.fielding import FIELDABLE

    sentence = randomizer_sentence(kept, "de")
    with Project.create(tmp_path / "p.dpdesk") as project:
        for name in rr.DESIGN_NAMES:
            record = rr.design(name, **FIELDABLE[name]).to_dict()
            project.add_item(name, {**record, "randomizer": kept} if kept else record, question="Q?")
            if name in TWO_QUESTIONS:
                set_item_text(project, name, "question_b", "Is your mother's birthday in January?")
            if name == "ecwm":
                set_item_text(project, name, "question_b2", "Is your mother's birthday in February-December?")
            L.set_text(project, name, "de", question="Haben Sie es getan?",
                       question_b="Hat Ihre Mutter im Januar Geburtstag?" if name in TWO_QUESTIONS else None,
                       question_b2="Hat Ihre Mutter von Februar bis Dezember Geburtstag?" if name == "ecwm" else None)
            for fmt in FORMATS:
                out = tmp_path / f"{name}_{fmt}"
                if kept or name in NO_RANDOMIZER:
                    export_instrument(project, out, fmt, languages=["en", "de"], items=[name])
                    fielded = instruments(project)[0].items[name]["texts"]  # what respondents saw, per language
                    assert name in NO_RANDOMIZER or sentence in fielded["de"]["instructions"], (name, fmt)
                    assert name in NO_RANDOMIZER or randomizer_sentence(kept) in fielded["en"]["instructions"]
                else:  # English is held to the same rule as every other language
                    for langs, first in ((["de", "en"], "German"), (["en"], "English"), (["en", "de"], "English")):
                        with pytest.raises(DesignError, match=f"{first} instructions for '{name}' do not say how to "
                                           f"draw.*--randomizer.*coin the respondent tosses at home"):
                            export_instrument(project, out, fmt, languages=langs, items=[name], record=False)
                    assert not list(tmp_path.glob(f"{name}_{fmt}*"))
