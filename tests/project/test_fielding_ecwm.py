"""The extended crosswise model (ECWM) from design to imported answers: two versions of question B per
language, a card per version, every platform drawing (and recording) the version and never the answer,
and the version coming back as the group."""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter

import numpy as np
import pytest

from dpdesk.errors import DesignError
from dpdesk.mechanisms import rr
from dpdesk.project import Project
from dpdesk.project import languages as L
from dpdesk.project.fielding import FORMATS, export_instrument
from dpdesk.project.fielding.privacy import FORBIDDEN, README, forbidden_constructs
from dpdesk.project.fielding.redcap import ALLOCATIONS
from dpdesk.project.fielding.store import instruments, set_item_text
from dpdesk.project.languages.versions import questions_b, split_card
from tests.helpers import fielding as helpers

B1 = "Is your mother's birthday in January, February or March?"
B2 = "Is your mother's birthday between April and December?"
B1_DE = "Hat Ihre Mutter im Januar, Februar oder März Geburtstag?"
B2_DE = "Hat Ihre Mutter zwischen April und Dezember Geburtstag?"


def _project(path, *, de=True):
    project = Project.create(path)
    project.add_item("cheat", rr.design("ecwm", p=0.25).to_dict(), question="Have you ever cheated on an exam?")
    set_item_text(project, "cheat", "question_b", B1)
    set_item_text(project, "cheat", "question_b2", B2)
    if de:
        L.set_text(project, "cheat", "de", question="Haben Sie je bei einer Prüfung betrogen?", question_b=B1_DE,
                   question_b2=B2_DE)
    return project


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ecwm")
    with _project(folder / "p.dpdesk") as project:
        files = {fmt: export_instrument(project, folder / f"x_{fmt}", fmt, languages=["en", "de"]).files
                 for fmt in FORMATS}
        return files, instruments(project)


def test_both_versions_of_question_b_are_kept_per_language(tmp_path):
    with _project(tmp_path / "p.dpdesk") as project:
        en, de = (L.respondent_text_in(project, "cheat", lang) for lang in ("en", "de"))
        assert (en.question_b, en.question_b2) == (B1, B2) and (de.question_b, de.question_b2) == (B1_DE, B2_DE)
        assert questions_b(de.card) == (B1_DE, B2_DE)  # the card asks each version its own question B
        assert re.search(r"25\W%", split_card(de.card)[0]) and re.search(r"75\W%", split_card(de.card)[1])
        fr = L.respondent_text_in(project, "cheat", "fr")
        assert {"question_b", "question_b2"} <= set(fr.untranslated)


def test_birthday_months_give_version_2_the_other_months(tmp_path):
    with Project.create(tmp_path / "p.dpdesk") as project:
        record = {**rr.design("ecwm", p=0.25).to_dict(), "randomizer": {"kind": "birthday", "birthday_months": [1, 2, 3]}}
        project.add_item("cheat", record, question="Q?")
        t = L.respondent_text_in(project, "cheat", "de")
        assert "Januar" in t.question_b and "April" in t.question_b2 and "Dezember" in t.question_b2
        assert "Januar" not in t.question_b2


def test_an_old_ecwm_item_with_one_question_b_opens_and_waits_for_version_2(tmp_path):
    """An item made before the versions were stored (one question B) still opens; fielding asks for
    version 2's question B in words."""
    with _project(tmp_path / "p.dpdesk", de=False) as project:
        set_item_text(project, "cheat", "question_b2", "")
        t = L.respondent_text_in(project, "cheat", "en")
        assert t.question_b == B1 and "question_b2" in t.untranslated
        with pytest.raises(DesignError, match="no question B of version 2"):
            export_instrument(project, tmp_path / "x", "qsf")


def test_qsf_draws_the_version_in_the_flow_and_shows_each_version_its_text(exported):
    files, _ = exported
    survey = json.loads(files["qsf"][0].read_text(encoding="utf-8"))
    flow = next(e for e in survey["SurveyElements"] if e["Element"] == "FL")["Payload"]["Flow"]
    declare, randomizer = flow[0], flow[1]
    assert declare["Type"] == "EmbeddedData" and declare["EmbeddedData"][0]["Field"] == "cheat_version"
    assert randomizer["Type"] == "BlockRandomizer" and randomizer["SubSet"] == 1 and randomizer["EvenPresentation"]
    assert [c["EmbeddedData"][0]["Value"] for c in randomizer["Flow"]] == ["1", "2"]
    for child in randomizer["Flow"]:  # as Qualtrics' own exports write embedded data
        assert set(child["EmbeddedData"][0]) == {"Description", "Type", "Field", "VariableType", "DataVisibility",
                                                 "AnalyzeText", "Value"}
    questions = {e["Payload"]["DataExportTag"]: e["Payload"] for e in survey["SurveyElements"] if e["Element"] == "SQ"}
    assert set(questions) == {"cheat_intro", "cheat_intro2", "cheat"}  # the version is no question
    for tag, code, b in (("cheat_intro", "1", B1), ("cheat_intro2", "2", B2)):
        cond = questions[tag]["DisplayLogic"]["0"]["0"]
        assert (cond["LogicType"], cond["LeftOperand"], cond["Operator"], cond["RightOperand"]) == (
            "EmbeddedField", "cheat_version", "EqualTo", code)
        assert b.replace("'", "&#x27;") in questions[tag]["QuestionText"]
        assert B1_DE.replace("'", "&#x27;") in questions["cheat_intro"]["Language"]["DE"]["QuestionText"]
    assert "DisplayLogic" not in questions["cheat"]  # everyone answers
    assert B1 not in questions["cheat"]["QuestionText"] and B2 not in questions["cheat"]["QuestionText"]


def test_limesurvey_draws_once_in_a_hidden_equation(exported):
    rows = list(csv.DictReader(io.StringIO(exported[0]["limesurvey"][0].read_text(encoding="utf-8")), delimiter="\t"))
    version = [r for r in rows if r["class"] == "Q" and r["name"] == "cheatVersion"]
    assert len(version) == 2 and all(r["type/scale"] == "*" and r["hidden"] == "1" for r in version)
    assert version[0]["text"] == "{if(is_empty(cheatVersion.NAOK),rand(1,2),cheatVersion.NAOK)}"
    relevance = {r["name"]: r["relevance"] for r in rows if r["class"] == "Q"}
    assert relevance["cheatIntro"] == "cheatVersion.NAOK == 1" and relevance["cheatIntro2"] == "cheatVersion.NAOK == 2"
    assert relevance["cheat"] == "1"


def test_redcap_version_is_the_randomization_field_with_a_balanced_allocation(exported):
    files = exported[0]["redcap"]
    fields = {r["Variable / Field Name"]: r for r in csv.DictReader(io.StringIO(files[0].read_text(encoding="utf-8")))}
    version = fields["cheat_version"]
    assert version["Field Type"] == "radio" and version["Field Annotation"] == "@HIDDEN-SURVEY"
    assert version["Choices, Calculations, OR Slider Labels"].startswith("1, Version 1: ")
    assert fields["cheat_intro"]["Branching Logic (Show field only if...)"] == "[cheat_version] = '1'"
    assert fields["cheat_intro2"]["Branching Logic (Show field only if...)"] == "[cheat_version] = '2'"
    allocation = [f for f in files if f.name.endswith("-allocation.csv")]
    assert len(allocation) == 1
    table = list(csv.reader(io.StringIO(allocation[0].read_text(encoding="utf-8"))))
    assert table[0] == ["cheat_version"] and len(table) == ALLOCATIONS + 1
    codes = [row[0] for row in table[1:]]
    assert Counter(codes) == {"1": ALLOCATIONS // 2, "2": ALLOCATIONS // 2}
    assert all(Counter(codes[i:i + 4]) == {"1": 2, "2": 2} for i in range(0, ALLOCATIONS, 4))  # blocks of four


def test_xlsform_draws_once_and_converts_with_pyxform(exported):
    from openpyxl import load_workbook

    path = exported[0]["xlsform"][0]
    sheet = load_workbook(path)["survey"]
    rows = [[c.value for c in r] for r in sheet.iter_rows()]
    head = rows[0]
    by_name = {r[1]: dict(zip(head, r)) for r in rows[1:] if r[1]}
    assert by_name["cheat_version"]["type"] == "calculate"
    assert by_name["cheat_version"]["calculation"] == "once(int(random() * 2) + 1)"
    assert by_name["cheat_intro"]["relevant"] == "${cheat_version} = '1'"
    assert by_name["cheat_intro2"]["relevant"] == "${cheat_version} = '2'"
    pytest.importorskip("pyxform")
    from pyxform.xls2xform import convert

    result = convert(xlsform=str(path), validate=False)
    assert not result.warnings
    assert 'calculate="once(int(random() * 2) + 1)"' in result.xform


def test_qualtrics_txt_has_both_texts_and_says_how_to_add_the_draw(exported):
    files = exported[0]["qualtrics-txt"]
    text = files[0].read_text(encoding="utf-8")
    assert "[[ID:cheat_intro]]" in text and "[[ID:cheat_intro2]]" in text and B1 in text and B2 in text
    readme = files[-1].read_text(encoding="utf-8")
    assert readme.startswith(README.split("This instrument never")[0]) and "randomly drawn version (but see 6)" in readme
    assert "Randomizer" in readme and "cheat_version is equal to 1" in readme


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_platform_draws_the_version_and_nothing_else(exported, fmt, tmp_path):
    """The export holds a platform draw only where it assigns the version: without the version fields the
    same instrument has none, and the researcher's words asking for one are still refused."""
    from dpdesk.project.fielding import format_module
    from dpdesk.project.fielding.instrument import plan, without_draws

    with _project(tmp_path / "p.dpdesk") as project:
        module = format_module(fmt)
        plans = plan(project, ["en", "de"], None, namer=module.namer)
        assert any(f.kind == "draw" for p in plans for f in p.fields)
        for data in module.render(without_draws(plans), ["en", "de"], "t").values():
            text = module.as_text(without_draws(plans), ["en", "de"], "t") if isinstance(data, bytes) else data
            assert not forbidden_constructs(fmt, text), fmt
        set_item_text(project, "cheat", "question_b2", "Is ${rand:1} even? rand(2)")
        with pytest.raises(DesignError, match="platform draw"):
            export_instrument(project, tmp_path / "x", fmt)
    assert FORBIDDEN[fmt]


@pytest.mark.parametrize("case", ["qualtrics-text", "qualtrics-values", "redcap", "limesurvey", "odk-central", "kobo"])
def test_the_version_comes_back_as_the_group(tmp_path, case):
    from tests.project.test_fielding_answers import CASES, _same_estimate
    from dpdesk.project.analysis.estimates import analyze
    from dpdesk.project.reading.importing import import_file

    fmt, write = CASES[case]
    with _project(tmp_path / "p.dpdesk", de=False) as project:
        files = export_instrument(project, tmp_path / "inst", fmt).files
        rows, counts = helpers.simulate(project, n=400, seed=5)
        (tmp_path / "a.csv").write_text(write(files, rows), encoding="utf-8", newline="")
        import_file(project, tmp_path / "a.csv")
        (result,) = analyze(project)
        group = project.item("cheat").group_column
        assert group is not None and "version" in group.lower()
        _same_estimate(result, project.item("cheat").design, counts["cheat"])
        assert np.asarray(counts["cheat"]).shape == (2, 2)  # per version


def _import_with(tmp_path, change):
    from dpdesk.project.analysis.estimates import analyze
    from dpdesk.project.reading.importing import import_file

    with _project(tmp_path / "p.dpdesk", de=False) as project:
        files = export_instrument(project, tmp_path / "inst", "redcap").files
        rows, _ = helpers.simulate(project, n=30)
        change(rows)
        (tmp_path / "a.csv").write_text(helpers.redcap_export(files[0], rows), encoding="utf-8")
        table = import_file(project, tmp_path / "a.csv")
        return table.report.warnings, analyze(project)[0]


def test_a_missing_version_is_named_by_row_and_column(tmp_path):
    warnings, result = _import_with(tmp_path, lambda rows: rows[3].update(cheat_version=""))
    (note,) = [w for w in warnings if "cheat" in w]
    assert "row 5 has an answer but no version of question B in column 'cheat_version'" in note
    assert result.estimate is None  # never counted without its version


def test_an_invalid_version_is_named_by_row_and_column(tmp_path):
    warnings, result = _import_with(tmp_path, lambda rows: rows[6].update(cheat_version="3"))
    (note,) = [w for w in warnings if "cheat" in w]
    assert "its version of question B in column 'cheat_version' is '3' in row 8, none of the instrument's codes (1, 2)" \
        in note
    assert result.estimate is None


def test_paper_cards_one_per_version(tmp_path):
    with _project(tmp_path / "p.dpdesk") as project:
        cards = L.paper_cards(project, ["en", "de"])
    titles = [t for t, _ in cards["en"]]
    assert titles == ["Please read before you answer (Version 1)", "Please read before you answer (Version 2)"]
    (_, one), (_, two) = cards["en"]
    assert f"B: {B1}" in one and B2 not in one and f"B: {B2}" in two and "---" not in one + two
    assert [t for t, _ in cards["de"]][1].endswith("(Version 2)") and B2_DE in cards["de"][1][1]


def test_what_respondents_saw_is_recorded_per_version(exported):
    _, recorded = exported
    seen = recorded[-1].items["cheat"]["texts"]  # the first export (qsf) is the oldest
    assert seen["en"]["question_b"] == B1 and seen["en"]["question_b2"] == B2 and seen["de"]["question_b2"] == B2_DE
    fields = {f["role"]: f for f in recorded[-1].items["cheat"]["fields"]}
    assert fields["group"]["name"] == "cheat_version" and [c[0] for c in fields["group"]["choices"]] == [1, 2]
    assert re.search("Version 2: " + re.escape(B2), fields["group"]["choices"][1][1])


def test_a_two_group_designs_blank_group_stays_a_missing_answer(tmp_path):
    """Only the ECWM's version is the platform's to record: a lie-detector respondent who left the group
    question blank is a missing answer, left out and listed, as before."""
    from dpdesk.project.analysis.estimates import analyze
    from dpdesk.project.reading.importing import import_file

    with helpers.fielding_project(tmp_path / "p.dpdesk", ["sld"]) as project:
        files = export_instrument(project, tmp_path / "inst", "redcap").files
        rows, _ = helpers.simulate(project, n=30)
        group = next(f["name"] for f in instruments(project)[0].items["sld"]["fields"] if f["role"] == "group")
        rows[3][group] = ""
        (tmp_path / "a.csv").write_text(helpers.redcap_export(files[0], rows), encoding="utf-8")
        table = import_file(project, tmp_path / "a.csv")
        assert not [w for w in table.report.warnings if "sld" in w]
        (result,) = analyze(project)
        assert result.estimate is not None and result.estimate.n == 29
