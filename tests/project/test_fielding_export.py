"""Exporting items for survey platforms: structure of each format, every design, privacy rules."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from dpdesk.errors import DesignError
from dpdesk.mechanisms import rr
from dpdesk.project.fielding import FORMATS, export_instrument
from dpdesk.project.fielding.privacy import FORBIDDEN, README
from dpdesk.project.fielding.store import instruments, item_text, set_item_text
from dpdesk.project.fielding.texts import respondent_text
from tests.helpers.fielding import FIELDABLE, fielding_project
from tests.helpers.paths import DATA, FIXTURES

#: The keys real Qualtrics .qsf files share (github.com/ctesta01/QualtricsTools data/, github.com/sumtxt/qsf
#: data-raw), derived from them by tests/fixtures/platforms/qsf_keys.py.
_REAL_QSF = json.loads((FIXTURES / "platforms" / "qsf_keys.json").read_text(encoding="utf-8"))
QSF_MC_KEYS = set(_REAL_QSF["single_answer_mc_keys"])
QSF_ELEMENT_KEYS = set(_REAL_QSF["element_keys"])
QSF_ENTRY_KEYS = set(_REAL_QSF["survey_entry_keys"])

#: The randomizer the wizard keeps for exact probabilities (any private randomizer, e.g. a random-number app).
EXACT = {"kind": "exact"}


def _kept(design) -> dict:
    return {**design.to_dict(), "randomizer": EXACT}


#: The 18 columns of a real REDCap data dictionary (REDCapR's test data, MIT; tests/data/platforms/README.md).
REDCAP_COLUMNS = next(csv.reader(io.StringIO((DATA / "platforms" / "redcap_survey_dictionary.csv")
                                             .read_text(encoding="utf-8"))))


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Every format of a project with one item of every design: {format: (files, project path)}."""
    folder = tmp_path_factory.mktemp("field")
    out = {}
    with fielding_project(folder / "study.dpdesk") as project:
        set_item_text(project, "crosswise", "question_b", "Is your mother's birthday in January, February or March?")
        for fmt in FORMATS:
            out[fmt] = export_instrument(project, folder / f"study_{fmt}", fmt).files
    return out


def _text(path) -> str:
    if path.suffix == ".xlsx":
        from openpyxl import load_workbook

        book = load_workbook(path, read_only=True)
        return "\n".join("\t".join("" if c is None else str(c) for c in row)
                         for name in book.sheetnames if name != "README" for row in book[name].iter_rows(values_only=True))
    return path.read_text(encoding="utf-8")


def test_qsf_has_the_structure_of_qualtrics_own_files(exported):
    survey = json.loads(exported["qsf"][0].read_text(encoding="utf-8"))
    assert QSF_ENTRY_KEYS <= set(survey["SurveyEntry"])
    kinds = {e["Element"] for e in survey["SurveyElements"]}
    assert {"BL", "FL", "SO", "SQ"} <= kinds
    assert all(QSF_ELEMENT_KEYS <= set(e) for e in survey["SurveyElements"])
    questions = {e["Payload"]["DataExportTag"]: e["Payload"] for e in survey["SurveyElements"] if e["Element"] == "SQ"}
    blocks = [b for b in next(e for e in survey["SurveyElements"] if e["Element"] == "BL")["Payload"]
              if b["Type"] in ("Default", "Standard")]
    assert [b["Description"] for b in blocks] == list(rr.DESIGN_NAMES)  # one block per item
    for name in rr.DESIGN_NAMES:
        if name == "unary":
            continue
        mc = questions[name]
        assert QSF_MC_KEYS <= set(mc) and (mc["QuestionType"], mc["Selector"]) == ("MC", "SAVR")
        d = rr.design(name, **FIELDABLE[name])
        assert sorted(c["Display"] for c in mc["Choices"].values()) == sorted(d.response_labels)
        assert questions[f"{name}_intro"]["QuestionType"] == "DB"
        assert sorted(mc["RecodeValues"].values()) == [str(i + 1) for i in range(len(d.responses))]
    cross = questions["crosswise"]["Choices"]
    assert cross["1"]["Display"] == "Both answers are the same" and questions["crosswise"]["RecodeValues"]["1"] == "1"
    assert "January, February or March" in questions["crosswise"]["QuestionText"]
    # the group, asked on its own, once per respondent for the three two-group items
    groups = [q for q in questions.values() if q["QuestionText"].startswith("On which day of the month")]
    assert [q["DataExportTag"] for q in groups] == ["unrelated_unknown_group"] and groups[0]["QuestionType"] == "MC"
    assert not {"sld_group", "cdm_group"} & set(questions)
    assert [questions[f"unary_{k}"]["QuestionText"] for k in (1, 2, 3)] == ["a", "b", "c"]  # a tick box each
    qids = [e["Payload"]["QuestionID"] for e in survey["SurveyElements"] if e["Element"] == "SQ"]
    assert qids == [f"QID{i + 1}" for i in range(len(qids))]


def test_qsf_qids_are_stable(tmp_path, exported):
    with fielding_project(tmp_path / "again.dpdesk") as project:
        set_item_text(project, "crosswise", "question_b", "Is your mother's birthday in January, February or March?")
        again = export_instrument(project, tmp_path / "again", "qsf").files[0]
    first = json.loads(exported["qsf"][0].read_text(encoding="utf-8"))["SurveyElements"]
    second = json.loads(again.read_text(encoding="utf-8"))["SurveyElements"]
    assert first == second  # same items, same QIDs, tags and block ids


def test_qualtrics_txt_is_advanced_format(exported):
    text = exported["qualtrics-txt"][0].read_text(encoding="utf-8")
    assert text.startswith("[[AdvancedFormat]]")
    assert text.count("[[Block:") == len(rr.DESIGN_NAMES)
    assert "[[ID:crosswise]]" in text and "[[Choice:1]]\nBoth answers are the same" in text


def test_limesurvey_structure(exported):
    rows = list(csv.reader(io.StringIO(exported["limesurvey"][0].read_text(encoding="utf-8")), delimiter="\t"))
    header = rows[0]
    rows = [dict(zip(header, r)) for r in rows[1:]]
    assert sum(r["class"] == "G" for r in rows) == len(rr.DESIGN_NAMES)
    questions = {r["name"]: r for r in rows if r["class"] == "Q"}
    assert questions["crosswiseIntro"]["type/scale"] == "X" and questions["crosswise"]["type/scale"] == "L"
    assert all(n.isalnum() and n[0].isalpha() and len(n) <= 20 for n in questions)
    settings = {r["name"]: r["text"] for r in rows if r["class"] == "S"}
    assert settings["anonymized"] == "Y" and settings["savetimings"] == "N" and settings["ipaddr"] == "N"
    assert settings["language"] == "en" and settings["sid"].isdigit()
    assert len(header) == 15 and header[-1] == "hidden"  # the 14 standard columns; "hidden": the ECWM version
    answers = [r for r in rows if r["class"] == "A" and r["id"] == questions["crosswise"]["id"]]
    assert [(a["name"], a["relevance"], a["text"]) for a in answers] == [
        ("1", "1", "Both answers are the same"), ("2", "2", "The answers are different")]


def test_redcap_dictionary(exported):
    rows = list(csv.reader(io.StringIO(exported["redcap"][0].read_text(encoding="utf-8"))))
    assert rows[0] == REDCAP_COLUMNS and all(len(r) == 18 for r in rows)
    fields = {r[0]: r for r in rows[1:]}
    assert all(re.fullmatch(r"[a-z][a-z0-9_]{0,99}", n) for n in fields)
    assert fields["crosswise_intro"][3] == "descriptive"
    assert fields["crosswise"][3] == "radio"
    assert fields["crosswise"][5] == "1, Both answers are the same | 2, The answers are different"


def test_xlsform_converts_with_pyxform(exported):
    pytest.importorskip("pyxform")
    from pyxform.xls2xform import convert

    result = convert(xlsform=str(exported["xlsform"][0]), validate=False)
    assert "<h:html" in result.xform and not result.warnings
    from openpyxl import load_workbook

    book = load_workbook(exported["xlsform"][0])
    assert {"survey", "choices", "settings"} <= set(book.sheetnames)
    assert book["survey"]["C1"].value == "label::English (en)"


@pytest.fixture(scope="module")
def exported_without_versions(tmp_path_factory):
    """Every format of a project with every design but the extended crosswise model (whose version the
    platform draws): {format: files}."""
    folder = tmp_path_factory.mktemp("field_plain")
    names = [n for n in rr.DESIGN_NAMES if n != "ecwm"]
    with fielding_project(folder / "study.dpdesk", names) as project:
        return {fmt: export_instrument(project, folder / f"study_{fmt}", fmt).files for fmt in FORMATS}


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_platform_draw_in_any_export(exported_without_versions, fmt):
    for path in exported_without_versions[fmt]:
        if path.name.endswith("README.txt"):
            continue
        text = _text(path)
        for pattern in FORBIDDEN[fmt] + (r"\brandom\s*\(", r"\brand\s*\(", r"\bonce\s*\(", r"EmbeddedData",
                                         r"Randomizer\"", r"EvenPresentation"):
            assert not re.search(pattern, text, re.I), (fmt, pattern)
        assert "Why your answer is private" in text  # the online card says it in words


def test_readme_beside_every_export(exported, exported_without_versions):
    for fmt, files in exported_without_versions.items():
        readme = files[-1].read_text(encoding="utf-8")
        assert readme == README and "timing" in readme and "ballot box stuffing" in readme.lower()
    for fmt, files in exported.items():  # with an ECWM item: how the platform draws its version, too
        readme = files[-1].read_text(encoding="utf-8")
        assert readme.startswith(README.split("This instrument never")[0]) and re.search(r"ecwm_?version", readme, re.I) and "Never let the platform draw" in readme


def test_a_design_the_platform_would_draw_is_refused(tmp_path):
    from dpdesk.project import Project

    with Project.create(tmp_path / "p.dpdesk") as project:
        project.add_item("travel", rr.design("krr", categories=["bus", "car", "bike"], epsilon=2.0))
        with pytest.raises(DesignError, match="coin the respondent tosses at home.*crosswise"):
            export_instrument(project, tmp_path / "x", "qsf")
        assert not list(tmp_path.glob("x*")) and instruments(project) == []


def test_researcher_words_asking_for_a_draw_are_refused(tmp_path):
    from dpdesk.project import Project

    with Project.create(tmp_path / "p.dpdesk") as project:
        project.add_item("q", _kept(rr.design("warner", p=0.75)), question="Compute rand() first")
        with pytest.raises(DesignError, match="platform draw"):
            export_instrument(project, tmp_path / "x", "limesurvey")


def test_the_project_remembers_the_instrument(tmp_path):
    with fielding_project(tmp_path / "p.dpdesk", ["forced", "sld"]) as project:
        export_instrument(project, tmp_path / "out", "redcap", items=["sld"])
        [inst] = instruments(project)
        assert inst.format == "redcap" and inst.languages == ["en"] and list(inst.items) == ["sld"]
        roles = [f["role"] for f in inst.items["sld"]["fields"]]
        assert roles == ["intro", "group", "answer"]
        assert "sld_group" in inst.content[".csv"]


def test_unknown_language_is_refused_in_words(tmp_path):
    with fielding_project(tmp_path / "p.dpdesk", ["forced"]) as project:
        with pytest.raises(DesignError, match="no respondent text in language 'tlh'"):
            export_instrument(project, tmp_path / "out", "xlsform", languages=["tlh"])


def test_an_item_without_its_question_b_waits(tmp_path):
    from dpdesk.project import Project

    with Project.create(tmp_path / "p.dpdesk") as project:
        project.add_item("copy", rr.design("crosswise", p=0.25), question="Did you copy?")
        with pytest.raises(DesignError, match="no question B"):
            export_instrument(project, tmp_path / "x", "qsf")
        project.add_item("blank", _kept(rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)))
        from dpdesk.project.fielding.instrument import problems

        assert [p.split(":")[0] for p in problems(project)] == ["Item 'copy' cannot be fielded yet",
                                                               "Item 'blank' cannot be fielded yet"]


def test_respondent_text_uses_the_design_words(tmp_path):
    from dpdesk.project import Project

    with Project.create(tmp_path / "p.dpdesk") as project:
        project.add_item("crosswise", rr.design("crosswise", p=0.25), question="Q?")
        project.add_item("unary", _kept(rr.design("unary", categories=["a", "b", "c"], epsilon=1.0)))
        t = respondent_text(project, "crosswise")
        assert t.options == ((1, "Both answers are the same"), (2, "The answers are different"))
        assert t.responses == ("yes", "no") and "[write the harmless question" in t.question_b
        assert t.missing == ("question B (the harmless question)",)
        set_item_text(project, "crosswise", "question_b", "Born in spring?")
        assert respondent_text(project, "crosswise").question_b == "Born in spring?"
        assert item_text(project, "crosswise", "question_b") == "Born in spring?"
        assert respondent_text(project, "unary").tick_options == (("a", "a"), ("b", "b"), ("c", "c"))


def test_probabilities_a_home_randomizer_gives():
    from dpdesk.project.fielding.privacy import check_online

    check_online(rr.design("forced", p_truth=4 / 6, p_yes=1 / 6, p_no=1 / 6), "die")
    check_online(rr.design("crosswise", p=0.2743), "birthday")  # no randomizer at all
    with pytest.raises(DesignError):
        check_online(rr.design("unary", categories=["a", "b"], epsilon=1.0), "u")


def test_v3_question_b_moves_into_the_respondent_texts(tmp_path):
    import shutil
    import sqlite3

    from dpdesk.project import Project
    from tests.helpers.paths import FIXTURES

    path = tmp_path / "v3.dpdesk"
    shutil.copyfile(FIXTURES / "projects" / "v3.dpdesk", path)
    conn = sqlite3.connect(path)
    with conn:
        name = conn.execute("SELECT name FROM items ORDER BY id LIMIT 1").fetchone()[0]
        conn.execute("UPDATE items SET instructions = ? WHERE name = ?",
                     ("A: Did you?\nB: Is your birthday in spring?\n\nHow to answer: ...", name))
    conn.close()
    with Project.open(path) as project:
        assert item_text(project, name, "question_b") == "Is your birthday in spring?"
        assert instruments(project) == []


def test_interview_mode_keeps_the_randomizer_from_the_interviewer(tmp_path):
    with fielding_project(tmp_path / "p.dpdesk", ["forced"]) as project:
        files = export_instrument(project, tmp_path / "out", "redcap", mode="interview").files
        text = files[0].read_text(encoding="utf-8")
        assert "out of the interviewer's sight" in text and "this website" not in text
        assert instruments(project)[0].mode == "interview"


def test_hostile_words_stay_words(tmp_path):
    """A question with a formula, a pipe, braces or a reference is exported as text in every format."""
    pytest.importorskip("pyxform")
    from pyxform.xls2xform import convert

    from dpdesk.project import Project

    with Project.create(tmp_path / "p.dpdesk") as project:
        project.add_item("q", _kept(rr.design("warner", p=0.75)), question="=HYPERLINK(1) | {x} ${other} [[Block:y]] <b>")
        files = {fmt: export_instrument(project, tmp_path / f"x_{fmt}", fmt).files[0] for fmt in FORMATS}
    assert not convert(xlsform=str(files["xlsform"]), validate=False).warnings
    from openpyxl import load_workbook

    cell = load_workbook(files["xlsform"])["survey"]["C4"]
    assert cell.data_type == "s" and cell.value.startswith("=HYPERLINK")
    assert "[[Block:y]]" not in files["qualtrics-txt"].read_text(encoding="utf-8")
    assert "{x}" not in files["limesurvey"].read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(files["redcap"].read_text(encoding="utf-8"))))
    assert rows[-1][4].lstrip("'").startswith("=HYPERLINK") and rows[-1][4] != "=HYPERLINK(1) | {x} ${other} [[Block:y]] <b>"


def test_every_format_carries_every_language(tmp_path):
    """With a second language's text (a stand-in provider), each format carries both as the platform expects."""
    from dataclasses import replace

    from dpdesk.project.fielding.texts import respondent_text as english

    def provider(project, item, language, mode="online"):
        text = english(project, item, "en", mode=mode)
        if language == "en":
            return text
        return replace(text, language=language, question="DE " + text.question, instructions="DE anleitung",
                       options=tuple((c, "DE " + lab) for c, lab in text.options))

    with fielding_project(tmp_path / "p.dpdesk", ["crosswise", "forced"]) as project:
        out = {fmt: export_instrument(project, tmp_path / f"x_{fmt}", fmt, languages=["en", "de"],
                                      provider=provider).files for fmt in FORMATS}
        assert instruments(project)[0].languages == ["en", "de"]
    survey = json.loads(out["qsf"][0].read_text(encoding="utf-8"))
    forced = next(e["Payload"] for e in survey["SurveyElements"] if e["Element"] == "SQ"
                  and e["Payload"]["DataExportTag"] == "forced")
    assert forced["Language"]["DE"]["Choices"]["1"]["Display"] == "DE Yes"
    lime = out["limesurvey"][0].read_text(encoding="utf-8")
    assert "additional_languages\t\tde" in lime and "DE Have you ever done thing forced?" in lime
    assert [p.name for p in out["redcap"][:2]] == ["x_redcap.csv", "x_redcap_de.csv"]
    assert [p.name for p in out["qualtrics-txt"][:2]] == ["x_qualtrics-txt.txt", "x_qualtrics-txt_de.txt"]
    from openpyxl import load_workbook
    from pyxform.xls2xform import convert

    book = load_workbook(out["xlsform"][0])
    assert [c.value for c in book["survey"][1]][2:4] == ["label::English (en)", "label::German (de)"]
    assert not convert(xlsform=str(out["xlsform"][0]), validate=False).warnings
