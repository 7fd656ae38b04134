"""dpdesk's exports against real platform files: the keys real Qualtrics .qsf files share (derived from
them by tests/fixtures/platforms/qsf_keys.py) and a real REDCap data dictionary (REDCapR's test data)."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from dpdesk.mechanisms import rr
from dpdesk.project.fielding import export_instrument
from dpdesk.project.fielding.redcap import COLUMNS
from tests.helpers.fielding import fielding_project
from tests.helpers.paths import DATA, FIXTURES

QSF_KEYS = json.loads((FIXTURES / "platforms" / "qsf_keys.json").read_text(encoding="utf-8"))
REDCAP = DATA / "platforms" / "redcap_survey_dictionary.csv"


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("real")
    with fielding_project(folder / "p.dpdesk") as project:
        return {fmt: export_instrument(project, folder / f"x_{fmt}", fmt).files[0] for fmt in ("qsf", "redcap")}


def test_the_derived_keys_come_from_real_files():
    assert len(QSF_KEYS["files"]) >= 15 and all(re.fullmatch(r"[0-9a-f]{64}", h) for h in QSF_KEYS["files"].values())
    assert {"QuestionText", "Choices", "DataExportTag"} <= set(QSF_KEYS["single_answer_mc_keys"])


def test_qsf_has_the_keys_real_qualtrics_files_share(files):
    survey = json.loads(files["qsf"].read_text(encoding="utf-8"))
    assert set(QSF_KEYS["survey_entry_keys"]) <= set(survey["SurveyEntry"])
    assert all(set(QSF_KEYS["element_keys"]) <= set(e) for e in survey["SurveyElements"])
    kinds = {e["Element"] for e in survey["SurveyElements"]}
    assert {"BL", "FL", "SO", "QC"} <= kinds & set(QSF_KEYS["element_kinds"]) and "SQ" in kinds
    mcs = [e["Payload"] for e in survey["SurveyElements"] if e["Element"] == "SQ"
           and e["Payload"]["QuestionType"] == "MC"]
    assert len(mcs) >= len(rr.DESIGN_NAMES)
    for mc in mcs:
        assert mc["Selector"] == "SAVR"
        assert set(QSF_KEYS["single_answer_mc_keys"]) <= set(mc), sorted(set(QSF_KEYS["single_answer_mc_keys"]) - set(mc))
        assert mc["Language"] == []  # as real files write a question with no translation
    so = next(e["Payload"] for e in survey["SurveyElements"] if e["Element"] == "SO")
    assert so["AvailableLanguages"] in QSF_KEYS["languages"]["AvailableLanguages"]  # {"EN": []}


def test_qsf_carries_every_element_real_exports_carry(files):
    """RS, SCO, STAT (and BL, FL, SO, QC) with the attributes and payload keys of real Qualtrics exports;
    blocks and flow typed as real files type them (issue 29: Qualtrics' importer is strict)."""
    survey = json.loads(files["qsf"].read_text(encoding="utf-8"))
    elements = survey["SurveyElements"]
    kinds = [e["Element"] for e in elements]
    assert set(QSF_KEYS["element_kinds"]) <= set(kinds)  # BL FL QC RS SCO SO STAT: every real file has them
    for kind, shapes in QSF_KEYS["element_attributes"].items():
        (e,) = [e for e in elements if e["Element"] == kind]
        shape = {"PrimaryAttribute": e["PrimaryAttribute"], "SecondaryAttribute": e["SecondaryAttribute"],
                 "TertiaryAttribute": e["TertiaryAttribute"]}
        if kind == "RS":
            assert e["PrimaryAttribute"] == survey["SurveyEntry"]["SurveyActiveResponseSet"]
            shape["PrimaryAttribute"] = "the survey's response set ID"
            assert e["Payload"] is None
        if kind == "QC":
            assert e["SecondaryAttribute"] == str(sum(k == "SQ" for k in kinds))
            shape["SecondaryAttribute"] = "the number of questions"
        assert shape in shapes, (kind, shape)
    for kind, keys in QSF_KEYS["payload_keys"].items():
        payload = next(e["Payload"] for e in elements if e["Element"] == kind)
        have = set(payload) if isinstance(payload, dict) else set()
        assert set(keys) <= have, (kind, sorted(set(keys) - have))
    blocks = {b["ID"]: b["Type"] for b in next(e["Payload"] for e in elements if e["Element"] == "BL")}
    flow = next(e["Payload"] for e in elements if e["Element"] == "FL")["Flow"]
    pairs = {(blocks[f["ID"]], f["Type"]) for f in flow if "ID" in f}  # the ECWM version draw: no block
    assert pairs <= {tuple(p) for p in QSF_KEYS["block_and_flow_types"]} and ("Default", "Block") in pairs
    assert list(blocks.values()).count("Default") == 1


def _rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def test_redcap_columns_are_those_of_a_real_dictionary(files):
    real = REDCAP.read_text(encoding="utf-8")
    header = next(csv.reader(io.StringIO(real)))
    assert header == list(COLUMNS) and len(header) == 18
    ours = files["redcap"].read_text(encoding="utf-8")
    assert next(csv.reader(io.StringIO(ours))) == header


def test_redcap_fields_are_written_as_a_real_dictionary_writes_them(files):
    real, ours = _rows(REDCAP.read_text(encoding="utf-8")), _rows(files["redcap"].read_text(encoding="utf-8"))
    name = re.compile(r"[a-z][a-z0-9_]*")
    assert all(name.fullmatch(r["Variable / Field Name"]) for r in real + ours)
    choice = re.compile(r"-?\d+, [^|]+( \| -?\d+, [^|]+)*")  # "0, Female | 1, Male"
    real_radio = [r for r in real if r["Field Type"] == "radio"]
    assert real_radio and all(choice.fullmatch(r["Choices, Calculations, OR Slider Labels"]) for r in real_radio)
    our_radio = [r for r in ours if r["Field Type"] == "radio"]
    assert our_radio and all(choice.fullmatch(r["Choices, Calculations, OR Slider Labels"]) for r in our_radio)
    types = {r["Field Type"] for r in ours}
    assert types <= {r["Field Type"] for r in real} | {"descriptive"}  # descriptive: REDCap's instruction text
    assert ours[0]["Variable / Field Name"] == "record_id" and real[0]["Field Type"] == ours[0]["Field Type"] == "text"
