"""A Qualtrics survey file (.qsf): the JSON Qualtrics itself exports, importable as a new survey.

The structure follows Qualtrics' own exports (SurveyEntry; SurveyElements BL, FL, SO, SCO,
STAT, QC, RS, then the SQ questions, with the attributes and payload keys every real export
has: ``tests/fixtures/platforms/qsf_keys.py`` derives them from real files): one block per
item (the first the survey's "Default" block, the others "Standard"), holding a text/graphic
element (``DB``/``TB``) with the instructions, the group question of a two-group design, and
the answer as a single-answer multiple choice (``MC``/``SAVR``) whose ``DataExportTag`` is the
item's field name, whose choices are the design's response labels and whose ``RecodeValues``
are dpdesk's codes.
An extended crosswise item's version is embedded data the survey flow draws (a randomizer, evenly
presented, sets it to 1 or 2 before the blocks); each version's text shows by display logic on it.
QIDs are numbered in order, so the same project exports the same QIDs. Other languages go
in each question's ``Language`` entry, as Qualtrics' translations do (``[]`` without any), and
the survey options list them all in ``AvailableLanguages`` (the first language is the survey's).
"""

from __future__ import annotations

import hashlib
import json

from dpdesk.project.fielding.instrument import Field, ItemPlan, redcap_name

EXTENSION = ".qsf"
namer = redcap_name


def qids(plans: list[ItemPlan]) -> dict[str, str]:
    """``field name -> QID``: QID1, QID2 ... in the instrument's order (stable for a project); a drawn
    version is embedded data, not a question."""
    names = [f.name for p in plans for f in p.fields if f.kind != "draw"]
    return {name: f"QID{i + 1}" for i, name in enumerate(names)}


def extra(plans):
    ids = qids(plans)
    return lambda p, f: {"qid": ids[f.name]} if f.name in ids else {}


def render(plans: list[ItemPlan], languages, title: str) -> dict[str, str]:
    ids = qids(plans)
    digest = hashlib.sha256("|".join(ids).encode()).hexdigest()
    survey_id = "SV_" + digest[:15]
    main = languages[0]
    response_set = "RS_" + digest[15:30]
    elements = [_element(survey_id, "BL", "Survey Blocks", None, _blocks(plans, ids, digest)),
                _element(survey_id, "FL", "Survey Flow", None, _flow(plans, digest)),
                _element(survey_id, "SO", "Survey Options", None, _options(languages)),
                _element(survey_id, "SCO", "Scoring", None, SCORING),
                _element(survey_id, "STAT", "Survey Statistics", None, {"MobileCompatible": True,
                                                                        "ID": "Survey Statistics"}),
                _element(survey_id, "QC", "Survey Question Count", str(len(ids)), None),
                _element(survey_id, "RS", response_set, "Default Response Set", None)]
    for p in plans:
        for f in p.fields:
            if f.kind != "draw":
                elements.append(_element(survey_id, "SQ", ids[f.name], f.name,
                                         _question(f, ids[f.name], main, languages)))
    survey = {
        "SurveyEntry": {
            "SurveyID": survey_id, "SurveyName": title, "SurveyDescription": None,
            "SurveyOwnerID": "", "SurveyBrandID": "", "DivisionID": None,
            "SurveyLanguage": main.upper(), "SurveyActiveResponseSet": response_set,
            "SurveyStatus": "Inactive", "SurveyStartDate": "0000-00-00 00:00:00",
            "SurveyExpirationDate": "0000-00-00 00:00:00", "SurveyCreationDate": "0000-00-00 00:00:00",
            "CreatorID": "", "LastModified": "0000-00-00 00:00:00", "LastAccessed": "0000-00-00 00:00:00",
            "LastActivated": "0000-00-00 00:00:00", "Deleted": None,
        },
        "SurveyElements": elements,
    }
    return {EXTENSION: json.dumps(survey, ensure_ascii=False, indent=1)}


#: The scoring element every export carries (no scoring categories), as Qualtrics writes it.
SCORING = {"ScoringCategories": [], "ScoringCategoryGroups": [], "ScoringSummaryCategory": None,
           "ScoringSummaryAfterQuestions": 0, "ScoringSummaryAfterSurvey": 0, "DefaultScoringCategory": None,
           "AutoScoringCategory": None}


def _element(survey_id, kind, primary, secondary, payload) -> dict:
    return {"SurveyID": survey_id, "Element": kind, "PrimaryAttribute": primary,
            "SecondaryAttribute": secondary, "TertiaryAttribute": None, "Payload": payload}


def _block_id(digest: str, i: int) -> str:
    return f"BL_{digest[:12]}{i:03d}"


def _blocks(plans, ids, digest) -> list:
    """The blocks as real exports write them: the survey's one "Default" block (the first item's), the
    trash, then a "Standard" block per other item."""
    blocks = [{"Type": "Default" if i == 0 else "Standard", "SubType": "", "Description": p.item,
               "ID": _block_id(digest, i + 1), "BlockElements": _block_elements(p, ids)} for i, p in enumerate(plans)]
    trash = {"Type": "Trash", "Description": "Trash / Unused Questions", "ID": _block_id(digest, 0),
             "BlockElements": []}
    return blocks[:1] + [trash] + blocks[1:]


def _block_elements(p: ItemPlan, ids) -> list:
    return [{"Type": "Question", "QuestionID": ids[f.name]} for f in p.fields if f.kind != "draw"]


def _flow(plans, digest) -> dict:
    """The survey flow: each drawn version first (its embedded-data field, then a randomizer that sets it
    to 1 or 2, evenly presented), then the blocks (the default block runs as a "Block", the others as
    "Standard")."""
    flow, count = [], 1

    def flow_id() -> str:
        nonlocal count
        count += 1
        return f"FL_{count}"

    for f in (f for p in plans for f in p.fields if f.kind == "draw"):
        flow.append({"Type": "EmbeddedData", "FlowID": flow_id(), "EmbeddedData": [_embedded(f.name, "")]})
        flow.append({"Type": "BlockRandomizer", "FlowID": flow_id(), "SubSet": 1, "EvenPresentation": True,
                     "Flow": [{"Type": "EmbeddedData", "FlowID": flow_id(), "EmbeddedData": [_embedded(f.name, str(code))]}
                              for code, _ in f.choices]})
    for i in range(len(plans)):
        flow.append({"ID": _block_id(digest, i + 1), "Type": "Block" if i == 0 else "Standard", "FlowID": flow_id()})
    return {"Flow": flow, "Properties": {"Count": count}, "FlowID": "FL_1", "Type": "Root"}


def _embedded(field: str, value: str) -> dict:
    """One embedded-data field set in the flow (as Qualtrics' own exports write it)."""
    return {"Description": field, "Type": "Custom", "Field": field, "VariableType": "String", "DataVisibility": [],
            "AnalyzeText": False, "Value": value}


def _display_logic(f: Field) -> dict:
    """Show ``f`` only when its version field holds its code (an embedded-data condition)."""
    field, code = f.when[0].name, str(f.when[1])
    return {"0": {"0": {"LogicType": "EmbeddedField", "LeftOperand": field, "Operator": "EqualTo",
                        "RightOperand": code, "Type": "Expression",
                        "Description": f'<span class="ConjDesc">If</span> <span class="LeftOpDesc">{field}</span> '
                                       f'<span class="OpDesc">Is Equal to</span> <span class="RightOpDesc"> {code} '
                                       f'</span>'},
                  "Type": "If"}, "Type": "BooleanExpression", "inPage": False}


def _options(languages) -> dict:
    """The survey options: no ballot-box-stuffing cookie, and the languages (``AvailableLanguages``, every
    fielded language, the first one too, as Qualtrics' own exports and github.com/sumtxt/qsf's
    ``activate_languages`` write them: ``{"EN": [], "DE": []}``), so the translations show."""
    return {"BackButton": "false", "SaveAndContinue": "true", "SurveyProtection": "PublicSurvey",
            "BallotBoxStuffingPrevention": "false", "NoIndex": "Yes", "SecureResponseFiles": "true",
            "SurveyExpiration": "None", "SurveyTermination": "DefaultMessage", "Header": "", "Footer": "",
            "ProgressBarDisplay": "None", "PartialData": "+1 week", "ValidationMessage": "",
            "PreviousButton": "", "NextButton": "", "SurveyLanguage": languages[0].upper(), "NewScoring": 1,
            "CustomStyles": [], "AvailableLanguages": {lang.upper(): [] for lang in languages},
            "Skin": {"brandingId": None, "templateId": "*base", "overrides": None}, "SkinLibrary": "dpdesk",
            "SkinType": "templated"}  # Qualtrics' base theme, as templated exports write it


def _html(text: str) -> str:
    import html

    return "<br>".join(html.escape(line) for line in text.split("\n"))


def _translations(found: dict):
    """A question's ``Language``: its translations by language code, or ``[]`` without any (as
    Qualtrics writes a question nobody translated)."""
    return found or []


def _question(f: Field, qid: str, main: str, languages) -> dict:
    base = {"QuestionText": _html(f.text[main]), "DataExportTag": f.name,
            "QuestionDescription": f.text[main].split("\n")[0][:100],
            "DataVisibility": {"Private": False, "Hidden": False},
            "Configuration": {"QuestionDescriptionOption": "UseText"}, "QuestionID": qid}
    if f.kind == "text":
        base.update({"QuestionType": "DB", "Selector": "TB", "Validation": {"Settings": {"Type": "None"}},
                     "Language": _translations({lang.upper(): {"QuestionText": _html(f.text[lang])}
                                                  for lang in languages[1:]})})
        if f.when is not None:
            base["DisplayLogic"] = _display_logic(f)
        return base
    keys = [str(i + 1) for i in range(len(f.choices))]
    base.update({
        "QuestionType": "MC", "Selector": "SAVR", "SubSelector": "TX",
        "Configuration": {"QuestionDescriptionOption": "UseText", "TextPosition": "inline",
                          "ChoiceColumnWidth": 25, "RepeatHeaders": "none", "WhiteSpace": "OFF"},
        "Choices": {k: {"Display": labels[main]} for k, (_, labels) in zip(keys, f.choices)},
        "ChoiceOrder": keys,
        "RecodeValues": {k: str(code) for k, (code, _) in zip(keys, f.choices)},
        "Validation": {"Settings": {"ForceResponse": "OFF", "ForceResponseType": "ON", "Type": "None"}},
        "Language": _translations({lang.upper(): {"QuestionText": _html(f.text[lang]),
                                                  "Choices": {k: {"Display": labels[lang]}
                                                              for k, (_, labels) in zip(keys, f.choices)}}
                                   for lang in languages[1:]}),
    })
    return base
