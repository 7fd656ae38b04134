"""Qualtrics' documented "Advanced TXT" import format, the fallback Qualtrics supports officially.

One ``[[Block]]`` per item: the instructions as a ``[[Question:Text]]``, then single-answer
multiple-choice questions whose ``[[ID]]`` is the field name and whose
``[[AdvancedChoices]]`` carry dpdesk's codes as choice numbers. The format has no
translations: each further language is its own file (``name_de.txt``), and no survey flow: an
extended crosswise item's version draw is added by hand after the import, as the README says
(the .qsf file carries it).
"""

from __future__ import annotations

from dpdesk.project.fielding.instrument import ItemPlan, redcap_name

EXTENSION = ".txt"
namer = redcap_name


def render(plans: list[ItemPlan], languages, title: str) -> dict[str, str]:
    return {(EXTENSION if i == 0 else f"_{lang}{EXTENSION}"): _one(plans, lang)
            for i, lang in enumerate(languages)}


def _clean(text: str) -> str:
    return text.replace("[[", "[ [").replace("]]", "] ]")  # never a tag from the researcher's words


def _one(plans, lang) -> str:
    out = ["[[AdvancedFormat]]", ""]
    for p in plans:
        out += [f"[[Block:{_clean(p.item)}]]", ""]
        for f in p.fields:
            if f.kind == "draw":  # no survey flow in this format: the README says how to add the draw
                continue
            kind = "[[Question:Text]]" if f.kind == "text" else "[[Question:MC:SingleAnswer:Vertical]]"
            out += [kind, f"[[ID:{f.name}]]", _clean(f.text[lang])]
            if f.choices:
                out.append("[[AdvancedChoices]]")
                for code, labels in f.choices:
                    out += [f"[[Choice:{code}]]", _clean(labels[lang])]
            out.append("")
    return "\n".join(out)
