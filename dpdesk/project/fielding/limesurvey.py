"""LimeSurvey's tab-separated survey structure (.txt), importable as a new survey.

Rows of ``class`` S (survey settings: anonymized, no timings, no IP address), SL (title per
language), G (one group per item), Q (questions: ``X`` text display for the instructions,
``L`` list for a single answer) and A (answer codes). Every language repeats the G, Q and A
rows with its own ``language``, as LimeSurvey's own export does. Question codes are letters
and digits (no underscore), as LimeSurvey requires.
"""

from __future__ import annotations

import html

from dpdesk.project.fielding.instrument import ItemPlan, lime_name

EXTENSION = ".txt"
namer = lime_name
COLUMNS = ("id", "related_id", "class", "type/scale", "name", "relevance", "text", "help", "language",
           "validation", "mandatory", "encrypted", "other", "default", "same_default")


def _cell(text) -> str:
    text = html.escape(str(text), quote=False).replace("\r\n", "\n").replace("\r", "\n")
    return text.replace("\n", "<br />").replace("\t", " ")


def _row(**values) -> list[str]:
    return [str(values.get(c.replace("/", "_"), "")) for c in COLUMNS]


def render(plans: list[ItemPlan], languages, title: str) -> dict[str, str]:
    rows = [list(COLUMNS)]
    settings = {"sid": "", "base_language": languages[0], "additional_languages": " ".join(languages[1:]),
                "anonymized": "Y", "savetimings": "N", "ipaddr": "N", "refurl": "N", "datestamp": "N",
                "format": "G", "allowprev": "N"}
    rows += [_row(**{"class": "S", "name": key, "text": value}) for key, value in settings.items()]
    for lang in languages:
        rows.append(_row(**{"class": "SL", "name": "surveyls_title", "text": _cell(title), "language": lang}))
    qid = 0
    for g, p in enumerate(plans, start=1):
        for lang in languages:
            rows.append(_row(**{"id": g, "class": "G", "type_scale": "", "name": _cell(p.item), "relevance": "1",
                                "language": lang}))
        for f in p.fields:
            qid += 1
            qtype = "X" if f.kind == "text" else "L"
            for lang in languages:
                rows.append(_row(**{"id": qid, "class": "Q", "type_scale": qtype, "name": f.name, "relevance": "1",
                                    "text": _cell(f.text[lang]), "language": lang, "mandatory": "N",
                                    "encrypted": "N", "other": "N"}))
                for code, labels in f.choices:
                    rows.append(_row(**{"id": qid, "class": "A", "type_scale": "0", "name": str(code),
                                        "text": _cell(labels[lang]), "language": lang}))
    return {EXTENSION: "\n".join("\t".join(r) for r in rows) + "\n"}
