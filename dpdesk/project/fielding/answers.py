"""A platform's answer export maps itself: the columns of a fielded instrument, found again.

The project remembers each instrument it exported (:mod:`store`): per item, the field names,
the codes with their labels, the question texts and (Qualtrics) the QIDs. An imported table's
columns are matched to those fields, in this order: the field name (any case); Qualtrics'
ImportId (``QID3``, the header's third row), so a renamed column is still found; a group
prefix (ODK Central ``block-name``, KoboToolbox ``block/name``); the question text (a
renamed or relabelled column of a REDCap labelled export, LimeSurvey's "full headings" or a
Qualtrics file), in any language the instrument was fielded in. The codes accept both the
numbers dpdesk exported and the choice texts in every fielded language, so "choice text",
"full answers" and "numeric values" exports all map, whatever language respondents answered
in. What cannot be matched is listed in words.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

_TAG = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\s+")


@dataclass
class Matched:
    """``mappings``: ``update_item`` keywords per item; ``unmatched``: what was not found, in words."""

    mappings: dict[str, dict] = field(default_factory=dict)
    unmatched: list[str] = field(default_factory=list)
    instrument_id: int | None = None
    format: str = ""


def _words(text) -> str:
    text = html.unescape(_TAG.sub(" ", str(text or "")))
    return _SPACE.sub(" ", text).strip().casefold()


def field_texts(rec: dict) -> list[str]:
    """A recorded field's question text in every fielded language (folded; the first language first)."""
    texts = [rec.get("text", "")] + list((rec.get("texts") or {}).values())
    return [t for t in dict.fromkeys(_words(x) for x in texts) if t]


def choice_codes(rec: dict, k: int) -> list:
    """What a platform may store for choice ``k`` of a recorded field: its code, then its label in
    every fielded language (a choice-text export in the respondents' language maps too)."""
    code, label = rec["choices"][k]
    more = list(((rec.get("labels") or [])[k:k + 1] or [{}])[0].values())
    return list(dict.fromkeys([code, label, *more]))


def _finder(table):
    frame = table.frame if hasattr(table, "frame") else table
    report = getattr(table, "report", None)
    columns = [str(c) for c in frame.columns]
    lower = {c.casefold(): c for c in columns}
    ids = {v: k for k, v in (getattr(report, "import_ids", None) or {}).items()}
    labels = {}
    for col, label in (getattr(report, "variable_labels", None) or {}).items():
        labels.setdefault(_words(label), []).append(col)
    used: set[str] = set()

    def find(rec: dict) -> str | None:
        name = rec["name"].casefold()
        candidates = [lower.get(name), ids.get(rec.get("qid", "")) if rec.get("qid") else None]
        candidates += [c for c in columns if c.casefold().endswith((f"/{name}", f"-{name}"))]
        for text in field_texts(rec):  # the question text as a column's label, or as its heading (REDCap
            # labelled export, LimeSurvey "full headings"), in any fielded language
            candidates += labels.get(text, []) + [c for c in columns if _words(c) == text]
        for c in candidates:
            if c and c not in used:
                used.add(c)
                return c
        return None

    return find


def match_instrument(items: dict, table, only=None) -> Matched:
    """Match one recorded instrument (``items`` as :func:`instrument.recorded_items` made it)."""
    find = _finder(table)
    out = Matched()
    group_columns: dict[str, str] = {}  # a group question asked once for several items: one column
    for item, entry in items.items():
        if only is not None and item not in only:
            continue
        fields = {f["role"]: f for f in entry["fields"] if f["role"] != "tick"}
        ticks = [f for f in entry["fields"] if f["role"] == "tick"]
        if ticks:
            columns = {f["option"]: find(f) for f in ticks}
            missing = [f["name"] for f in ticks if columns[f["option"]] is None]
            if missing:
                out.unmatched.append(f"{item}: no column for option field(s) {', '.join(missing)}")
                continue
            first = ticks[0]  # the unary codes of dpdesk.project.mapping.unary
            out.mappings[item] = {"column": next(iter(columns.values())),
                                  "codes": {"columns": columns, "ticked": choice_codes(first, 0),
                                            "not ticked": choice_codes(first, 1)},
                                  "group_column": None, "group_codes": None}
            continue
        answer = fields["answer"]
        column = find(answer)
        if column is None:
            out.unmatched.append(f"{item}: no column named {answer['name']!r} or asking {answer['text'][:60]!r}")
            continue
        responses = entry["responses"]
        codes = {r: choice_codes(answer, k) for k, r in enumerate(responses)}
        mapping = {"column": column, "codes": codes, "group_column": None, "group_codes": None}
        if "group" in fields:
            g = fields["group"]
            group_column = group_columns.get(g["name"]) or find(g)
            if group_column is None:
                out.unmatched.append(f"{item}: no column for its group question {g['name']!r}")
                continue
            group_columns[g["name"]] = group_column
            mapping.update(group_column=group_column,
                           group_codes={str(code): choice_codes(g, k) for k, (code, _) in enumerate(g["choices"])})
        out.mappings[item] = mapping
    return out


def fielded_mappings(project, table, skip=()) -> Matched:
    """Mappings in ``table`` of the project's fielded items not in ``skip`` (newest instrument first)."""
    from dpdesk.project.fielding.store import instruments

    designs = {it.name: it.design_name for it in project.items() if it.name not in set(skip)}
    best = Matched()
    for inst in instruments(project):  # an item fielded with another design since is not matched
        wanted = [i for i, entry in inst.items.items() if designs.get(i) == entry.get("design")]
        if not wanted:
            continue
        found = match_instrument(inst.items, table, only=set(wanted))
        found.instrument_id, found.format = inst.id, inst.format
        if len(found.mappings) > len(best.mappings):
            best = found
        if not found.unmatched:
            break
    return best
