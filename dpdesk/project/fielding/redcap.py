"""A REDCap data dictionary (CSV, the 18 columns in REDCap's order), one per language.

Each item is a ``descriptive`` field with the instructions, then ``radio`` fields with
``code, label | code, label`` choices (the group question of a two-group design, the answer;
a unary item's tick boxes). Field names are lowercase letters, digits and ``_``, starting
with a letter, at most 100 characters. REDCap's Multi-Language Management takes the other
languages' dictionaries (``name_de.csv``). An extended crosswise item's version is a radio field
hidden from respondents (``@HIDDEN-SURVEY``) that REDCap's randomization module sets from the
allocation table written beside the dictionary (``name-allocation.csv``); each version's text shows
by branching logic on it.
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
    out = {(EXTENSION if i == 0 else f"_{lang}{EXTENSION}"): _one(plans, lang, title)
           for i, lang in enumerate(languages)}
    table = allocation_table(plans)
    if table:
        out[f"-allocation{EXTENSION}"] = table
    return out


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
            shown = "" if f.when is None else f"[{f.when[0].name}] = '{f.when[1]}'"
            if f.kind == "text":
                writer.writerow(_row(f.name, "descriptive", _label(f.text[lang]), branching=shown))
            else:  # a drawn version: the randomization module's field, hidden from respondents
                choices = " | ".join(f"{code}, {_choice(labels[lang])}" for code, labels in f.choices)
                writer.writerow(_row(f.name, "radio", _label(f.text[lang]), choices=choices, branching=shown,
                                     annotation="@HIDDEN-SURVEY" if f.kind == "draw" else ""))
    return buf.getvalue()


def _row(name, kind, label, *, choices="", branching="", annotation="") -> list[str]:
    row = dict.fromkeys(COLUMNS, "")
    row.update({"Variable / Field Name": name, "Form Name": FORM, "Field Type": kind, "Field Label": label,
                "Choices, Calculations, OR Slider Labels": choices,
                "Branching Logic (Show field only if...)": branching, "Field Annotation": annotation})
    return list(row.values())


#: How many assignments an allocation table holds (REDCap uses one row per randomized record).
ALLOCATIONS = 2000


def allocation_table(plans) -> str:
    """REDCap's allocation table for the drawn versions (its randomization module assigns them from it):
    one column per version field, one row per respondent, in blocks of four holding each version twice,
    shuffled by the operating system's cryptographic generator (``secrets``); ``""`` without versions."""
    import secrets

    names = [f.name for p in plans for f in p.fields if f.kind == "draw"]
    if not names:
        return ""
    rng = secrets.SystemRandom()
    columns = []
    for _ in names:
        codes: list[int] = []
        while len(codes) < ALLOCATIONS:
            block = [1, 1, 2, 2]
            rng.shuffle(block)
            codes += block
        columns.append(codes[:ALLOCATIONS])
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(names)
    writer.writerows(zip(*columns))
    return buf.getvalue()
