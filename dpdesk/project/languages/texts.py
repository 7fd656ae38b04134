"""One item's respondent text in one language: stored parts, generated defaults, review state.

Stored in the project (``item_texts``: the parts the researcher wrote, per language;
``item_languages``: the languages an item is fielded in and whether each was reviewed).
The language the researcher wrote in (the *source*, English unless set) is the item's own
question and instructions (``items.question``, ``items.instructions``).
"""

from __future__ import annotations

import dataclasses

from dpdesk.errors import ProjectError

from dpdesk.mechanisms.rr import wording as words
from dpdesk.mechanisms.rr.wording.text import TWO_QUESTIONS
from dpdesk.project.languages import versions
from dpdesk.project.study.items import item_randomizer

#: The parts of a respondent text a researcher can write in a language.
PARTS = ("question", "question_b", "question_b2", "instructions", "card", "options")
#: The ``app`` row naming the language the researcher wrote the items in.
SOURCE_KEY = "respondent_source_language"
#: The mark on a language nobody has reviewed yet.
CHECK_NOTE = "check with a native speaker before fielding"


@dataclasses.dataclass(frozen=True)
class ItemText:
    """What respondents read for one item in one language.

    ``options``: the answer labels in the order the card prints them, ``responses`` the
    design's response key of each. An extended crosswise (ECWM) item has two versions of question B:
    ``question_b`` (version 1) and ``question_b2`` (version 2), and its card holds both versions'
    cards (:mod:`dpdesk.project.languages.versions`). ``edited``: the parts the researcher wrote in this
    language; ``untranslated``: the parts still shown in the source language (the question,
    until it is written in this one). ``needs_review``: not the source language and not yet
    reviewed.
    """

    item: str
    language: str
    question: str
    question_b: str
    instructions: str
    options: tuple[str, ...]
    responses: tuple[str, ...]
    card: str
    title: str
    edited: frozenset[str]
    untranslated: tuple[str, ...]
    reviewed: bool
    reviewed_by: str
    source: bool
    question_b2: str = ""  # the extended crosswise model: version 2's question B (``versions``)

    @property
    def needs_review(self) -> bool:
        return not self.source and not self.reviewed

    @property
    def language_name(self) -> str:
        return words.language_name(self.language)


def source_language(project) -> str:
    """The language the researcher wrote the items in (``"en"`` unless set)."""
    rows = project._read("SELECT value FROM app WHERE key = ?", (SOURCE_KEY,))
    return rows[0][0] if rows and rows[0][0] in words.LANGUAGES else "en"


def set_source_language(project, language: str) -> None:
    """Say which language the items' own question and instructions are written in."""
    words.check_language(language)
    with project.transaction() as conn:
        conn.execute("INSERT OR REPLACE INTO app(key, value) VALUES (?, ?)", (SOURCE_KEY, language))


def _item_id(project, item_name: str) -> int:
    return project.item(item_name).id


def _stored(project, item_id: int, language: str) -> dict[str, str]:
    rows = project._read("SELECT part, text FROM item_texts WHERE item_id = ? AND language = ?", (item_id, language))
    return {r[0]: r[1] for r in rows if r[0] in PARTS}


def item_languages(project, item_name: str) -> dict[str, tuple[bool, str]]:
    """The languages an item is fielded in: ``{language: (reviewed, reviewed by)}``, source first."""
    rows = project._read("SELECT language, reviewed, reviewed_by FROM item_languages WHERE item_id = ?"
                         " ORDER BY rowid", (_item_id(project, item_name),))
    out = {source_language(project): (True, "")}
    out.update({r[0]: (bool(r[1]), r[2]) for r in rows if r[0] in words.LANGUAGES and r[0] not in out})
    return out


def add_language(project, item_name: str, language: str) -> None:
    """Field the item in ``language`` too (its text generated until the researcher writes it)."""
    words.check_language(language)
    item_id = _item_id(project, item_name)
    with project.transaction() as conn:
        conn.execute("INSERT OR IGNORE INTO item_languages(item_id, language) VALUES (?, ?)", (item_id, language))


def remove_language(project, item_name: str, language: str) -> None:
    """Stop fielding the item in ``language``; its texts in that language are removed."""
    item_id = _item_id(project, item_name)
    with project.transaction() as conn:
        conn.execute("DELETE FROM item_languages WHERE item_id = ? AND language = ?", (item_id, language))
        conn.execute("DELETE FROM item_texts WHERE item_id = ? AND language = ?", (item_id, language))


def set_text(project, item_name: str, language: str, *, reviewed: bool | None = None, reviewed_by: str = "",
             **parts: str | list[str] | None) -> ItemText:
    """Store the researcher's text of ``parts`` (``question=``, ``question_b=``, ``question_b2=`` (the
    extended crosswise model's version 2), ``instructions=``,
    ``card=``, ``options=`` a list of labels in card order) in ``language``; ``""`` goes back to
    the generated text, ``None`` leaves a part alone.

    A change to the text marks the language as not reviewed again, unless ``reviewed`` is
    given in the same call. In the source language, the question and the card are the
    item's own (``items.question``, ``items.instructions``).
    """
    words.check_language(language)
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        raise ProjectError(f"An item's respondent text has no part {unknown[0]!r}; the parts are {', '.join(PARTS)}.")
    item = project.item(item_name)
    source = source_language(project)
    changed = False
    with project.transaction() as conn:
        conn.execute("INSERT OR IGNORE INTO item_languages(item_id, language) VALUES (?, ?)", (item.id, language))
        for part, value in parts.items():
            if value is None:
                continue
            if part == "options":
                text = "\n".join(str(v).strip() for v in value) if not isinstance(value, str) else value.strip()
                if text and len(text.splitlines()) != len(item.design.responses if item.design.model != "unary"
                                                          else item.design.categories):
                    raise ProjectError(
                        f"Item {item_name!r} has {len(_options(item.design, language, ''))} answer options; give "
                        f"one label per option, one a line, in the order the card prints them.")
            else:
                text = str(value).strip()
            if language == source and part in ("question", "card"):
                column = "question" if part == "question" else "instructions"
                conn.execute(f"UPDATE items SET {column} = ?, modified_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
                             " WHERE id = ?", (text, item.id))
                changed = True
                continue
            conn.execute("DELETE FROM item_texts WHERE item_id = ? AND language = ? AND part = ?",
                         (item.id, language, part))
            if text:
                conn.execute("INSERT INTO item_texts(item_id, language, part, text) VALUES (?, ?, ?, ?)",
                             (item.id, language, part, text))
            changed = True
        if reviewed is not None or changed:
            conn.execute("UPDATE item_languages SET reviewed = ?, reviewed_by = ?,"
                         " modified_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE item_id = ? AND language = ?",
                         (int(bool(reviewed)), reviewed_by.strip() if reviewed else "", item.id, language))
    return respondent_text_in(project, item_name, language)


def set_reviewed(project, item_name: str, language: str, reviewed: bool = True, by: str = "") -> None:
    """Record that the item's text in ``language`` was (or was not) reviewed, e.g. by a native speaker."""
    set_text(project, item_name, language, reviewed=reviewed, reviewed_by=by)


def _options(design, language: str, stored: str) -> list[str]:
    labels = stored.splitlines() if stored else []
    if design.model == "unary":
        return labels if len(labels) == len(design.categories) else list(design.categories)
    order = words.card_order(design)
    if len(labels) == len(order):
        return labels
    generated = [lab for lab, _s in words.answer_labels(design, language)]
    return [generated[i] for i in order]


def _question_b_from(instructions: str) -> str:
    return versions.b_line(instructions)


def respondent_text_in(project, item_name: str, language: str) -> ItemText:
    """The text respondents read for ``item_name`` in ``language``: what the researcher wrote
    there, else dpdesk's templates filled in with the design (never machine translation)."""
    words.check_language(language)
    item = project.item(item_name)
    d = item.design
    source = source_language(project)
    is_source = language == source
    stored = _stored(project, item.id, language)
    untranslated = []
    question = (item.question or "").strip() if is_source else stored.get("question", "")
    if not question:
        question = (item.question or "").strip()
        if not is_source:
            untranslated.append("question")
    record = item_randomizer(item) or {}
    question_b = question_b2 = ""
    if d.name in TWO_QUESTIONS:
        question_b = stored.get("question_b") or (_question_b_from(item.instructions) if is_source else "")
        if not question_b and record.get("birthday_months"):  # a birthday question: dpdesk's template
            question_b = words.birthday_question(record["birthday_months"], language)
        if not question_b:
            untranslated.append("question_b")
    if d.name in versions.VERSIONED:  # version 2's question B: stored, on the item's card, or the other months
        question_b2 = stored.get("question_b2") or (versions.questions_b(item.instructions)[1] if is_source else "")
        if not question_b2 and record.get("birthday_months"):
            question_b2 = words.birthday_question(versions.complement_months(record["birthday_months"]), language)
        if not question_b2:
            untranslated.append("question_b2")
    options = _options(d, language, stored.get("options", ""))
    categories = options if d.categories and stored.get("options") else None  # category designs: card order
    instructions = stored.get("instructions") or words.instructions(d, language, categories)
    if is_source and (item.instructions or "").strip():
        card = item.instructions.strip()
    elif stored.get("card"):
        card = stored["card"]
    elif d.name in versions.VERSIONED:
        card = versions.card(question, d, question_b, question_b2, language)
    else:
        card = words.card_text(question, d, words.randomizer_sentence(record, language, categories), question_b,
                               language, categories)
        if stored.get("instructions"):
            card = card.replace(words.instructions(d, language, categories), stored["instructions"])
    responses = tuple(d.categories) if d.model == "unary" else tuple(d.responses[i] for i in words.card_order(d))
    langs = item_languages(project, item_name)
    reviewed, by = langs.get(language, (is_source, ""))
    edited = frozenset(stored) | ({"question"} if is_source and item.question else frozenset())
    return ItemText(item.name, language, question, question_b, instructions, tuple(options), responses, card,
                    words.phrase("title", language), frozenset(edited), tuple(untranslated),
                    bool(reviewed) or is_source, by, is_source, question_b2)


def saved_texts(project, item_name: str) -> dict[str, list[tuple]]:
    """Every stored text and review row of an item, to put back with :func:`restore_texts` (undo)."""
    item_id = _item_id(project, item_name)
    return {"texts": [tuple(r) for r in project._read(
                "SELECT language, part, text FROM item_texts WHERE item_id = ?", (item_id,))],
            "languages": [tuple(r) for r in project._read(
                "SELECT language, reviewed, reviewed_by, modified_at FROM item_languages WHERE item_id = ?"
                " ORDER BY rowid", (item_id,))]}


def restore_texts(project, item_name: str, saved: dict[str, list[tuple]]) -> None:
    """Put back what :func:`saved_texts` kept (the item has been added again under the same name)."""
    item_id = _item_id(project, item_name)
    with project.transaction() as conn:
        conn.executemany("INSERT OR REPLACE INTO item_texts(item_id, language, part, text) VALUES (?, ?, ?, ?)",
                         [(item_id, *row) for row in saved.get("texts", [])])
        conn.executemany("INSERT OR REPLACE INTO item_languages(item_id, language, reviewed, reviewed_by, modified_at)"
                         " VALUES (?, ?, ?, ?, ?)", [(item_id, *row) for row in saved.get("languages", [])])


def review_summary(project) -> dict[str, tuple[int, int]]:
    """Per language the project's items are fielded in: (items reviewed, items), source first."""
    source = source_language(project)
    n = len(project.items())
    out: dict[str, tuple[int, int]] = {source: (n, n)} if n else {}
    rows = project._read("SELECT language, SUM(reviewed), COUNT(*) FROM item_languages GROUP BY language"
                         " ORDER BY MIN(rowid)")
    for language, done, total in rows:
        if language in words.LANGUAGES and language != source:
            out[language] = (int(done or 0), int(total))
    return out
