"""A REDCap data dictionary (CSV, the 18 columns in REDCap's order), one per language.

Each item is a ``descriptive`` field with the instructions, then ``radio`` fields with
``code, label | code, label`` choices (the group question of a two-group design, the answer;
a unary item's tick boxes). Field names are lowercase letters, digits and ``_``, starting
with a letter, at most 100 characters. REDCap's Multi-Language Management takes the other
languages' dictionaries (``name_de.csv``).
"""

from __future__ import annotations

import csv
import io
import re

from dpdesk.project.fielding.instrument import ItemPlan, redcap_name

EXTENSION = ".csv"
namer = redcap_name
COLUMNS = ("Variable / Field Name", "Form Name", "Section Header", "Field Type", "Field Label",
           "Choices, Calculations, OR Slider Labels", "Field Note", "Text Validation Type OR Show Slider Number",
           "Text Validation Min", "Text Validation Max", "Identifier?", "Branching Logic (Show field only if...)",
           "Required Field?", "Custom Alignment", "Question Number (surveys only)", "Matrix Group Name",
           "Matrix Ranking?", "Field Annotation")
FORM = "randomized_response"


def render(plans: list[ItemPlan], languages, title: str) -> dict[str, str]:
    return {(EXTENSION if i == 0 else f"_{lang}{EXTENSION}"): _one(plans, lang, title)
            for i, lang in enumerate(languages)}


def _label(text: str) -> str:
    from dpdesk.project.export.safe_text import neutralise

    return neutralise(text.replace("\r\n", "\n"))


def _choice(label: str) -> str:
    """A choice label inside ``code, label | code, label``: a ``|`` of its own would split it."""
    return re.sub(r"\s*\|\s*", " / ", label)


def _one(plans, lang, title) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerow(_row("record_id", "text", "Record ID"))
    for p in plans:
        for f in p.fields:
            if f.kind == "text":
                writer.writerow(_row(f.name, "descriptive", _label(f.text[lang])))
            else:
                choices = " | ".join(f"{code}, {_choice(labels[lang])}" for code, labels in f.choices)
                writer.writerow(_row(f.name, "radio", _label(f.text[lang]), choices=choices))
    return buf.getvalue()


def _row(name, kind, label, *, choices="") -> list[str]:
    row = dict.fromkeys(COLUMNS, "")
    row.update({"Variable / Field Name": name, "Form Name": FORM, "Field Type": kind, "Field Label": label, "Choices, Calculations, OR Slider Labels": choices})
    return list(row.values())
