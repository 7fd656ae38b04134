"""An XLSForm (ODK, KoboToolbox, SurveyCTO): ``survey``, ``choices`` and ``settings`` sheets.

One group per item (``begin_group`` ... ``end_group``, labelled with the item's question, never
its short name): a ``note`` with the instructions,
then ``select_one`` questions whose choice names are dpdesk's codes. Every language is a
``label::English (en)`` column. A ``README`` sheet says how to field it without undoing the
protection; converters ignore it. Written with XlsxWriter, so text is never a formula. An extended
crosswise item's version is a ``calculate`` drawn once per form (``once(int(random() * 2) + 1)``), and
each version's note is ``relevant`` only to that version.
"""

from __future__ import annotations

import io

from dpdesk.project.fielding.instrument import ItemPlan, redcap_name
from dpdesk.project.fielding.texts import language_name

EXTENSION = ".xlsx"
namer = redcap_name
BINARY = True


def group_name(p: ItemPlan) -> str:
    return redcap_name(p.base, "block")


def extra(plans):
    owner = {f.name: group_name(p) for p in plans for f in p.fields}  # a shared group question: its own group
    return lambda p, f: {"group": owner.get(f.name, group_name(p))}


def _text(text: str) -> str:
    """A label as written: ``${name}`` would be read as a reference to another question."""
    return text.replace("${", "$ {")


def sheets(plans: list[ItemPlan], languages, title: str) -> dict[str, list[list[str]]]:
    """The sheets as rows of cell texts (the first row is the header)."""
    from dpdesk.project.fielding.privacy import readme as readme_text

    labels = [f"label::{language_name(lang)}" for lang in languages]
    survey = [["type", "name", *labels, "required", "relevant", "calculation"]]
    choices = [["list_name", "name", *labels]]
    blank = [""] * len(languages)
    for p in plans:
        survey.append(["begin_group", group_name(p), *[_text(p.title(lang)) for lang in languages], "", "", ""])
        for f in p.fields:
            relevant = "" if f.when is None else f"${{{f.when[0].name}}} = '{f.when[1]}'"
            if f.kind == "draw":  # drawn once per form (``once``), 1 to the number of versions, recorded
                survey.append(["calculate", f.name, *blank, "", "", f"once(int(random() * {len(f.choices)}) + 1)"])
                continue
            if f.kind == "text":
                survey.append(["note", f.name, *[_text(f.text[lang]) for lang in languages], "", relevant, ""])
                continue
            survey.append([f"select_one {f.name}", f.name, *[_text(f.text[lang]) for lang in languages], "no",
                           relevant, ""])
            choices += [[f.name, str(code), *[_text(lab[lang]) for lang in languages]] for code, lab in f.choices]
        survey.append(["end_group", "", *blank, "", "", ""])
    settings = [["form_title", "form_id", "version", "default_language"],
                [title, redcap_name(title, "", 60) or "dpdesk_rr", "1", language_name(languages[0])]]
    readme = [["How to field this form"], *[[line] for line in readme_text("xlsform", plans).splitlines()]]
    return {"survey": survey, "choices": choices, "settings": settings, "README": readme}


def render(plans: list[ItemPlan], languages, title: str) -> dict[str, bytes]:
    import xlsxwriter

    buf = io.BytesIO()
    book = xlsxwriter.Workbook(buf, {"in_memory": True, "strings_to_formulas": False, "strings_to_urls": False,
                                     "strings_to_numbers": False})
    for name, rows in sheets(plans, languages, title).items():
        sheet = book.add_worksheet(name)
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                sheet.write_string(r, c, str(value))
    book.close()
    return {EXTENSION: buf.getvalue()}


def as_text(plans, languages, title) -> str:
    """The sheets as tab-separated text: the copy the project keeps."""
    return "\n\n".join(f"[{name}]\n" + "\n".join("\t".join(row) for row in rows)
                       for name, rows in sheets(plans, languages, title).items())
