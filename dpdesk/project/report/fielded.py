"""The report's appendix: the text respondents saw, per instrument exported, item and language.

Read from the project's record of fielding (:func:`dpdesk.project.fielding.store.instruments`):
the format and time of each export, then per item and language the question(s), the
instructions and the answer options exactly as exported; an extended crosswise item shows both
versions of question B, each with its instructions. An export recorded before the record kept
every language shows its main language only.
"""

from __future__ import annotations

import html

from dpdesk.project.fielding import FORMAT_NAMES
from dpdesk.project.fielding.texts import LANGUAGE_NAMES
from dpdesk.project.report.model import Section

MODES = {"online": "filled in online by the respondents", "interview": "read out by an interviewer"}


def _e(text) -> str:
    return html.escape(str(text), quote=False)


def _language(code: str) -> str:
    return f"{LANGUAGE_NAMES.get(code, code)} ({code})"


def _texts(entry: dict, languages: list[str]) -> dict[str, dict]:
    """Per language what was shown; an older record keeps the main language's fields only."""
    if isinstance(entry.get("texts"), dict):
        return entry["texts"]
    fields = {f.get("role"): f for f in entry.get("fields", [])}
    answer = fields.get("answer", {})
    return {languages[0] if languages else "en": {
        "question": answer.get("text", ""), "instructions": fields.get("intro", {}).get("text", ""),
        "options": [f"{code} = {label}" for code, label in answer.get("choices", [])]}}


def _paragraphs(label: str, text) -> list[str]:
    """``text``'s paragraphs, the first led by ``label`` in italics."""
    parts = [p.strip() for p in str(text or "").split("\n\n") if p.strip()]
    return [f"<i>{_e(label)}:</i> {_e(p)}" if i == 0 else _e(p) for i, p in enumerate(parts)]


def _versions(t: dict) -> list[str]:
    """An extended crosswise item: question A, then each version's question B and instructions, then why
    the answer is private. An export recorded before the versions' instructions were kept has version 2's
    question B only (its instructions: version 1's with the other share)."""
    out = [f"<i>Question A:</i> {_e(t.get('question', ''))}"]
    versions = t.get("versions")
    if isinstance(versions, list) and len(versions) == 2 and all(isinstance(v, dict) for v in versions):
        for i, v in enumerate(versions, 1):
            out.append(f"<i>Question B, version {i}:</i> {_e(v.get('question_b', ''))}")
            out += _paragraphs(f"Instructions, version {i}", v.get("instructions", ""))
        return out + _paragraphs("Why the answer is private", t.get("why_private", ""))
    out += [f"<i>Question B, version 1:</i> {_e(t.get('question_b', ''))}",
            f"<i>Question B, version 2:</i> {_e(t['question_b2'])}"]
    return out + _paragraphs("Instructions, version 1", t.get("instructions", ""))


def _item_paragraphs(name: str, language: str, t: dict) -> list[str]:
    out = [f"<b>{_e(name)}</b>, {_e(_language(language))}"]
    if t.get("question_b2"):  # the extended crosswise model: two versions of question B
        out += _versions(t)
        if t.get("options"):
            out.append(f"<i>Answer options:</i> {_e('; '.join(t['options']))}")
        return out
    if t.get("question_b"):
        out += [f"<i>Question A:</i> {_e(t.get('question', ''))}", f"<i>Question B:</i> {_e(t['question_b'])}"]
    elif t.get("question"):
        out.append(f"<i>Question:</i> {_e(t['question'])}")
    if t.get("group_question"):
        out.append(f"<i>Group question:</i> {_e(t['group_question'])} ({_e('; '.join(t.get('group_options', [])))})")
    out += _paragraphs("Instructions", t.get("instructions", ""))
    if t.get("options"):
        out.append(f"<i>Answer options:</i> {_e('; '.join(t['options']))}")
    return out


def fielded_section(project) -> Section | None:
    """The appendix "Fielded text", oldest export first; ``None`` when nothing was fielded."""
    from dpdesk.project.fielding.store import instruments

    exported = list(reversed(instruments(project)))
    if not exported:
        return None
    paragraphs = ["What respondents saw, as dpdesk exported it: per instrument, each item in each language."]
    for inst in exported:
        langs = [_language(c) for c in inst.languages]
        paragraphs.append(f"<b>{_e(FORMAT_NAMES.get(inst.format, inst.format))}</b>, exported {_e(inst.created_at[:16].replace('T', ' '))}"
                          f" UTC, {_e(MODES.get(inst.mode, inst.mode))}, in {_e(', '.join(langs))}.")
        for name, entry in inst.items.items():
            for language, t in _texts(entry, inst.languages).items():
                paragraphs += _item_paragraphs(name, language, t)
    return Section("fielded", "Appendix: Fielded Text", paragraphs)
