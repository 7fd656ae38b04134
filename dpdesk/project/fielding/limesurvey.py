"""LimeSurvey's tab-separated survey structure (.txt), importable as a new survey.

The 14 standard columns; rows of ``class`` S (survey settings: anonymized, no timings, no
IP address), SL (title per language), G (one group per item,
headed by its question: respondents never see the item's short name), Q (questions: ``X`` text
display for the instructions, ``L`` list for a single answer) and A (answer codes, their
order in ``relevance``). Groups and questions share one id sequence; an A row carries its
question's id. Every language repeats the G, Q and A rows with its own ``language``, as
LimeSurvey's own export does. Question codes are letters and digits (no underscore, at most
20), as LimeSurvey requires; braces are written as entities so the Expression Manager never
evaluates the researcher's words. An extended crosswise item's version is a hidden equation question
(``{if(is_empty(v.NAOK),rand(1,2),v.NAOK)}``: drawn once, kept), and each version's text is relevant
only to that version.
"""

from __future__ import annotations

import html

from dpdesk.project.fielding.instrument import ItemPlan, lime_name

EXTENSION = ".txt"
namer = lime_name
COLUMNS = ("id", "related_id", "class", "type/scale", "name", "relevance", "text", "help", "language",
           "validation", "mandatory", "other", "default", "same_default")


def _cell(text) -> str:
    text = html.escape(str(text), quote=False).replace("\r\n", "\n").replace("\r", "\n")
    text = text.replace("{", "&#123;").replace("}", "&#125;")
    return text.replace("\n", "<br />").replace("\t", " ")


def _row(columns=COLUMNS, **values) -> list[str]:
    return [str(values.get(c.replace("/", "_"), "")) for c in columns]


def render(plans: list[ItemPlan], languages, title: str) -> dict[str, str]:
    import hashlib

    names = "|".join(f.name for p in plans for f in p.fields)
    sid = 100000 + int(hashlib.sha256(names.encode()).hexdigest(), 16) % 900000  # stable; LimeSurvey may renumber
    draws = any(f.kind == "draw" for p in plans for f in p.fields)
    columns = COLUMNS + (("hidden",) if draws else ())  # "Always hide this question": the drawn version
    rows = [list(columns)]
    settings = {"sid": sid, "gsid": 1, "language": languages[0], "additional_languages": " ".join(languages[1:]),
                "anonymized": "Y", "savetimings": "N", "ipaddr": "N", "refurl": "N", "datestamp": "N",
                "format": "G", "allowprev": "N"}
    rows += [_row(columns, **{"class": "S", "name": key, "text": value}) for key, value in settings.items()]
    for lang in languages:
        rows.append(_row(columns, **{"class": "SL", "name": "surveyls_title", "text": _cell(title), "language": lang}))
    next_id = 0
    for p in plans:
        next_id += 1
        for lang in languages:
            rows.append(_row(columns, **{"id": next_id, "class": "G", "name": _cell(p.title(lang)), "relevance": "1", "language": lang}))
        for f in p.fields:
            next_id += 1
            if f.kind == "draw":  # an equation drawing 1 or 2 once (kept when the page is shown again), hidden
                equation = f"{{if(is_empty({f.name}.NAOK),rand(1,{len(f.choices)}),{f.name}.NAOK)}}"
                for lang in languages:
                    rows.append(_row(columns, **{"id": next_id, "class": "Q", "type_scale": "*", "name": f.name,
                                                 "relevance": "1", "text": equation, "language": lang,
                                                 "mandatory": "N", "other": "N", "hidden": "1"}))
                continue
            qtype = "X" if f.kind == "text" else "L"
            relevance = "1" if f.when is None else f"{f.when[0].name}.NAOK == {f.when[1]}"
            for lang in languages:
                rows.append(_row(columns, **{"id": next_id, "class": "Q", "type_scale": qtype, "name": f.name,
                                             "relevance": relevance, "text": _cell(f.text[lang]), "language": lang,
                                             "mandatory": "N", "other": "N"}))
                for order, (code, labels) in enumerate(f.choices, start=1):
                    rows.append(_row(columns, **{"id": next_id, "class": "A", "type_scale": "0", "name": str(code),
                                        "relevance": order, "text": _cell(labels[lang]), "language": lang}))
    return {EXTENSION: "\n".join("\t".join(r) for r in rows) + "\n"}
