"""Projects with one item of every design, in parameters a respondent's own randomizer gives exactly."""

from __future__ import annotations

import math

from dpdesk.mechanisms import rr
from tests.helpers.designs import EXAMPLES

#: EXAMPLES, with the epsilon-calibrated designs at an epsilon a coin realises (keep 1/2, 1/4).
FIELDABLE = dict(EXAMPLES, krr=dict(categories=["a", "b", "c"], epsilon=math.log(2)),
                 unary=dict(categories=["a", "b", "c"], epsilon=math.log(3), variant="oue"))


def fielding_project(path, names=None):
    """A project at ``path`` with one item per design (no data columns: designs waiting for fielding),
    each with the randomizer the wizard keeps for exact probabilities (a random-number app)."""
    from dpdesk.project import Project

    from dpdesk.project.fielding.store import set_item_text
    from dpdesk.project.fielding.texts import TWO_QUESTIONS

    project = Project.create(path)
    for name in names or rr.DESIGN_NAMES:
        record = {**rr.design(name, **FIELDABLE[name]).to_dict(), "randomizer": {"kind": "exact"}}  # as the wizard keeps it
        project.add_item(name, record, question=f"Have you ever done thing {name}?")
        if name in TWO_QUESTIONS:
            set_item_text(project, name, "question_b", f"Is your mother's birthday in January-March ({name})?")
        if name == "ecwm":  # its second version of question B, with the complementary share of 'yes'
            set_item_text(project, name, "question_b2", f"Is your mother's birthday in April-December ({name})?")
    return project


# --------------------------------------------------------------------------- simulated answers
#
# Each writer reads the instrument file dpdesk exported, as the platform would, and writes the
# answers as that platform's own export does: Qualtrics (three header rows, choice texts or
# recode values), REDCap (raw record export), LimeSurvey (response export with question and
# answer codes), ODK Central / KoboToolbox (CSV with group prefixes).


def simulate(project, n=300, seed=11):
    """Per item: (answers per respondent as {role or option: code}, the counts they came from)."""
    import numpy as np

    from dpdesk.project.fielding.store import instruments
    from tests.helpers.designs import _prevalence

    record = instruments(project)[0].items
    rng = np.random.default_rng(seed)
    rows, counts = [dict() for _ in range(n)], {}
    for item, entry in record.items():
        d = project.item(item).design
        sim = rr.simulate_responses(d, n, _prevalence(d), rng=rng)
        fields = {f["role"]: f for f in entry["fields"]}
        if d.model == "unary":
            ticks = [f for f in entry["fields"] if f["role"] == "tick"]
            for i in range(n):
                for j, f in enumerate(ticks):
                    rows[i][f["name"]] = f["choices"][0][0] if sim[i, j] else f["choices"][1][0]
            counts[item] = [[int(n - sim[:, j].sum()), int(sim[:, j].sum())] for j in range(len(ticks))]
            continue
        code = {r: c for r, (c, _) in zip(entry["responses"], fields["answer"]["choices"])}
        if d.groups == 2:
            pairs = [(g, r) for g in range(2) for r in sim[g]]
            counts[item] = [np.bincount(sim[g], minlength=len(d.responses)).tolist() for g in range(2)]
        else:
            pairs = [(None, r) for r in sim]
            counts[item] = np.bincount(sim, minlength=len(d.responses)).tolist()
        for i, (g, r) in enumerate(pairs):
            rows[i][fields["answer"]["name"]] = code[d.responses[r]]
            if g is not None:
                rows[i][fields["group"]["name"]] = fields["group"]["choices"][g][0]
    return rows, counts


def _csv(rows) -> str:
    import csv
    import io

    buf = io.StringIO()
    csv.writer(buf, lineterminator="\r\n").writerows(rows)
    return buf.getvalue()


def qualtrics_export(qsf_path, answers, *, choice_text=True, rename=None, language=None) -> str:
    """A Qualtrics "Data & Analysis" CSV: names, question texts, ImportIds, then one row per response
    (``language``: question and choice texts in that translation, e.g. ``"DE"``)."""
    import html
    import json
    import re

    survey = json.loads(qsf_path.read_text(encoding="utf-8"))
    questions = [e["Payload"] for e in survey["SurveyElements"]
                 if e["Element"] == "SQ" and e["Payload"]["QuestionType"] == "MC"]
    meta = [("StartDate", "Start Date", '{"ImportId":"startDate","timeZone":"America/Denver"}'),
            ("EndDate", "End Date", '{"ImportId":"endDate","timeZone":"America/Denver"}'),
            ("Status", "Response Type", '{"ImportId":"status"}'),
            ("Progress", "Progress", '{"ImportId":"progress"}'),
            ("Finished", "Finished", '{"ImportId":"finished"}'),
            ("ResponseId", "Response ID", '{"ImportId":"_recordId"}')]
    rename = rename or {}
    flow = next(e for e in survey["SurveyElements"] if e["Element"] == "FL")["Payload"]["Flow"]
    embedded = list(dict.fromkeys(d["Field"] for el in flow if el["Type"] == "EmbeddedData"
                                  for d in el["EmbeddedData"]))  # after the questions, named by the field
    names = [m[0] for m in meta] + [rename.get(q["DataExportTag"], q["DataExportTag"]) for q in questions] + embedded
    def shown(q):
        return q["Language"][language] if language else q

    texts = ([m[1] for m in meta] + [html.unescape(re.sub(r"<br>", "\n", shown(q)["QuestionText"])) for q in questions]
             + embedded)
    ids = ([m[2] for m in meta] + [json.dumps({"ImportId": q["QuestionID"]}) for q in questions]
           + [json.dumps({"ImportId": e}) for e in embedded])
    body = []
    for i, row in enumerate(answers):
        values = ["2026-03-01 10:00:00", "2026-03-01 10:05:00", "IP Address", "100", "True", f"R_{i:015d}"]
        for q in questions:
            code = row.get(q["DataExportTag"])
            key = next((k for k, v in q["RecodeValues"].items() if v == str(code)), None)
            values.append("" if key is None else (shown(q)["Choices"][key]["Display"] if choice_text else str(code)))
        body.append(values + [str(row.get(e, "")) for e in embedded])
    return _csv([names, texts, ids, *body])


def redcap_export(dictionary_path, answers) -> str:
    """A REDCap raw record export of a survey (CSV): record_id, the survey identifier and timestamp, the
    fields, ``<form>_complete`` (as github.com/OuhscBbmc/REDCapR inst/test-data/project-survey has them)."""
    import csv

    with open(dictionary_path, encoding="utf-8", newline="") as f:
        fields = [r for r in csv.DictReader(f)]
    radio = [r["Variable / Field Name"] for r in fields if r["Field Type"] == "radio"]
    form = fields[0]["Form Name"]
    body = [[str(i + 1), "", "2026-03-06 15:52:43", *[str(row.get(name, "")) for name in radio], "2"]
            for i, row in enumerate(answers)]
    head = ["record_id", "redcap_survey_identifier", f"{form}_timestamp", *radio, f"{form}_complete"]
    return _csv([head, *body])


def limesurvey_export(structure_path, answers) -> str:
    """A LimeSurvey response export (CSV, question codes, answer codes)."""
    import csv

    with open(structure_path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    codes = list(dict.fromkeys(r["name"] for r in rows if r["class"] == "Q" and r["type/scale"] in ("L", "*")))
    head = ["id", "submitdate", "lastpage", "startlanguage", "seed"]
    body = [[str(i + 1), "1980-01-01 00:00:00", "1", "en", "12345", *[str(row.get(c, "")) for c in codes]]
            for i, row in enumerate(answers)]
    return _csv([head + codes, *body])


def odk_export(xlsform_path, answers, *, separator="-") -> str:
    """An ODK Central (``block-name``) or KoboToolbox (``block/name``) CSV export."""
    from openpyxl import load_workbook

    book = load_workbook(xlsform_path, read_only=True)
    survey = [r for r in book["survey"].iter_rows(values_only=True)][1:]
    group, columns = None, []
    for kind, name, *_ in survey:
        if kind == "begin_group":
            group = name
        elif kind == "end_group":
            group = None
        elif kind and (kind.startswith("select_one") or kind == "calculate"):
            columns.append((f"{group}{separator}{name}" if group else name, name))
    head = ["SubmissionDate", *[c for c, _ in columns], "meta-instanceID", "KEY"]
    body = [["2026-03-01T10:00:00.000Z", *[str(row.get(n, "")) for _, n in columns], f"uuid:{i}", f"uuid:{i}"]
            for i, row in enumerate(answers)]
    return _csv([head, *body])


def _plain(text: str) -> str:
    """Text as a platform's export writes it: HTML line breaks and entities gone."""
    import html
    import re

    return html.unescape(re.sub(r"<br\s*/?>", " ", text)).strip()


def limesurvey_full_export(structure_path, answers, language) -> str:
    """A LimeSurvey response export with "Full question text" headings and "Full answers", in ``language``."""
    import csv

    with open(structure_path, encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["language"] == language]
    questions, answers_of, current = [], {}, None
    for r in rows:
        if r["class"] == "Q":
            current = r["name"]
            if r["type/scale"] == "L":
                questions.append((current, _plain(r["text"])))
        elif r["class"] == "A":
            answers_of.setdefault(current, {})[r["name"]] = _plain(r["text"])
    head = ["Response ID", "Date submitted", "Last page", "Start language", *[t for _, t in questions]]
    body = [[str(i + 1), "1980-01-01 00:00:00", "1", language,
             *[answers_of[c].get(str(row.get(c, "")), "") for c, _ in questions]] for i, row in enumerate(answers)]
    return _csv([head, *body])


def redcap_labelled_export(dictionary_path, answers) -> str:
    """A REDCap record export with "labels" for headers and answers, from one language's dictionary."""
    import csv

    with open(dictionary_path, encoding="utf-8", newline="") as f:
        fields = [r for r in csv.DictReader(f) if r["Field Type"] == "radio"]
    labels = {r["Variable / Field Name"]: dict(c.split(", ", 1) for c in r["Choices, Calculations, OR Slider Labels"]
                                               .split(" | ")) for r in fields}
    head = ["Record ID", *[r["Field Label"] for r in fields], "Complete?"]
    body = [[str(i + 1), *[labels[r["Variable / Field Name"]].get(str(row.get(r["Variable / Field Name"], "")), "")
                           for r in fields], "Complete"] for i, row in enumerate(answers)]
    return _csv([head, *body])


def kobo_labels_export(xlsform_path, answers, language_column) -> str:
    """A KoboToolbox CSV export with "Labels" in one language (``label::German (de)``) for headers and answers."""
    from openpyxl import load_workbook

    book = load_workbook(xlsform_path, read_only=True)
    survey = list(book["survey"].iter_rows(values_only=True))
    head = list(survey[0])
    col = head.index(language_column)
    choices = list(book["choices"].iter_rows(values_only=True))
    ccol = list(choices[0]).index(language_column)
    label_of = {(r[0], str(r[1])): r[ccol] for r in choices[1:]}
    questions = [(r[1], r[col], r[0].split()[1]) for r in survey[1:] if r[0] and r[0].startswith("select_one")]
    out_head = ["start", "end", *[label for _, label, _ in questions], "_id", "_uuid"]
    body = [["2026-03-01T10:00:00.000Z", "2026-03-01T10:05:00.000Z",
             *[label_of.get((lst, str(row.get(name, ""))), "") for name, _, lst in questions], str(i), f"uuid{i}"]
            for i, row in enumerate(answers)]
    return _csv([out_head, *body])
