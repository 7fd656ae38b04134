"""The project's record of fielding: per-item respondent text and the instruments exported."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from dpdesk.project.study.items import dumps, loads


def item_text(project, item_name: str, part: str, language: str = "en") -> str:
    """Stored text ``part`` (e.g. ``"question_b"``) of an item in ``language``; ``""`` if none."""
    if not project._read("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'item_texts'"):
        return ""
    rows = project._read(
        "SELECT t.text FROM item_texts AS t JOIN items AS i ON i.id = t.item_id"
        " WHERE i.name = ? AND t.language = ? AND t.part = ?", (item_name, language, part))
    return rows[0][0] if rows else ""


def set_item_text(project, item_name: str, part: str, text: str, language: str = "en") -> None:
    """Store (or, with empty ``text``, remove) an item's respondent text ``part`` in ``language``."""
    item_id = project.item(item_name).id
    with project.transaction() as conn:
        conn.execute("DELETE FROM item_texts WHERE item_id = ? AND language = ? AND part = ?",
                     (item_id, language, part))
        if text and text.strip():
            conn.execute("INSERT INTO item_texts(item_id, language, part, text) VALUES (?, ?, ?, ?)",
                         (item_id, language, part, text.strip()))


@dataclass(frozen=True)
class FieldedInstrument:
    """An instrument as exported: format, languages, items (with their fields) and the text."""

    id: int
    format: str
    mode: str
    languages: list[str]
    items: dict[str, Any]
    content: dict[str, str]
    created_at: str


def record_instrument(project, fmt: str, languages, items: dict, content: dict[str, str],
                      mode: str = "online") -> int:
    """Remember an exported instrument in the project; returns its id."""
    with project.transaction() as conn:
        cur = conn.execute(
            "INSERT INTO instruments(format, mode, languages, items, content) VALUES (?, ?, ?, ?, ?)",
            (fmt, mode, dumps(list(languages), "the languages"), dumps(items, "the instrument's items"),
             dumps(content, "the instrument's text")))
        return cur.lastrowid


def instruments(project) -> list[FieldedInstrument]:
    """Every instrument exported from the project, newest first (none in a file older than v4)."""
    if not project._read("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'instruments'"):
        return []
    rows = project._read("SELECT id, format, mode, languages, items, content, created_at FROM instruments"
                         " ORDER BY id DESC")
    out = []
    for r in rows:
        try:
            out.append(FieldedInstrument(r[0], r[1], r[2], loads(r[3]), loads(r[4]), loads(r[5]), r[6]))
        except (json.JSONDecodeError, TypeError):
            continue  # a damaged record: never matched against
    return out
