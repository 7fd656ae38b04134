"""Survey-platform exports recognised by their header rows; question text becomes a label.

Signatures (from each platform's CSV/Excel export):

* **Qualtrics** (current): row 1 variable names (``StartDate``, ``EndDate``, ``ResponseId``,
  ``Q1`` ...), row 2 question text, row 3 ``{"ImportId":"QID1"}`` JSON. Without the JSON row
  (2 header rows) it is still recognised. **Legacy** Qualtrics: row 1 ``V1``, ``V2`` ...,
  row 2 ``ResponseID``, ``ResponseSet`` ... and question text.
* **SurveyMonkey**: row 1 ``Respondent ID``, ``Collector ID`` ... then question text (blank
  over the 2nd, 3rd ... option of a multi-column question); row 2 ``Response`` or the option
  text. Columns get names ``Q1``, ``Q2_1`` ... and the question (and option) as label.
* **LimeSurvey**: one header row with ``id``, ``submitdate``, ``lastpage``,
  ``startlanguage``, ``seed`` (or their headings ``Response ID``, ``Date submitted`` ...);
  "code. question text" headings are split into name and label.
* **REDCap**: raw export with ``record_id``, ``redcap_event_name`` and ``<form>_complete``;
  labelled export with ``Record ID`` and one ``Complete?`` column per instrument.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from dpdesk.errors import DataError

PLATFORMS = ("qualtrics", "surveymonkey", "limesurvey", "redcap", "none")
_LIME = {"id", "submitdate", "lastpage", "startlanguage", "seed", "startdate", "datestamp",
         "ipaddr", "refurl"}
_LIME_HEADINGS = {"response id", "date submitted", "last page", "start language", "seed",
                  "date started", "date last action", "ip address", "referrer url"}
_LIME_CODE_TEXT = re.compile(r"^([A-Za-z][A-Za-z0-9_]*(?:\[[^\]]*\])?)\.\s+(.+)$", re.S)
_SM_PLAIN = {"response", "open-ended response", ""}


@dataclass
class Layout:
    """How the header rows of a file are read: names, labels and the platform."""

    header_rows: int
    names: list[str]
    labels: dict[str, str] = field(default_factory=dict)
    platform: str | None = None
    blank_names: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    header_width: int | None = None
    #: Qualtrics: the ImportId of each column (row 3, e.g. ``QID3``), by which a renamed column is still known.
    import_ids: dict[str, str] = field(default_factory=dict)


def layout(rows: list[list[str]], platform: str | None = None, header_rows: int | None = None) -> Layout:
    """Decide the header layout from the first rows of a file (lists of cell texts).

    ``platform`` and ``header_rows`` force a reading; ``platform="none"`` reads a plain
    file with ``header_rows`` (default 1) rows, the first holding names, the second labels.
    """
    if platform is not None and platform not in PLATFORMS:
        raise DataError(f"Unknown platform {platform!r}. Use one of {', '.join(PLATFORMS)}.")
    if header_rows is not None and (not isinstance(header_rows, int) or not 0 <= header_rows <= 10):
        raise DataError(f"header_rows={header_rows!r} is not a whole number from 0 to 10. "
                        f"Give the number of rows above the first respondent.")
    rows = [[_clean(c) for c in row] for row in rows]
    width = max((len(r) for r in rows), default=0)
    header_width = len(rows[0]) if rows else 0
    rows = [r + [""] * (width - len(r)) for r in rows]
    found = platform if platform is not None else detect_platform(rows)
    if found in (None, "none"):
        result = _plain(rows, width, 1 if header_rows is None else header_rows)
    else:
        result = {"qualtrics": _qualtrics, "surveymonkey": _surveymonkey,
                  "limesurvey": _limesurvey, "redcap": _redcap}[found](rows, width)
        if header_rows is not None and header_rows != result.header_rows:
            if platform is None:  # the user's count wins over a detected signature
                result = _plain(rows, width, header_rows)
            else:
                result.header_rows = header_rows
    result.header_width = header_width if result.header_rows else None
    return result


def detect_platform(rows: list[list[str]]) -> str | None:
    """The platform whose export signature the header rows carry, or ``None``."""
    if not rows:
        return None
    first = {c.strip().lower() for c in rows[0]}
    second = {c.strip().lower() for c in rows[1]} if len(rows) > 1 else set()
    if {"startdate", "enddate"} <= first and ("responseid" in first or _import_id_row(rows)):
        return "qualtrics"
    if {"v1", "v2"} <= first and "responseid" in second:
        return "qualtrics"
    if {"respondent id", "collector id"} <= first:
        return "surveymonkey"
    if len(first & _LIME) >= 3 or len(first & _LIME_HEADINGS) >= 3:
        return "limesurvey"
    names = [c.strip().lower() for c in rows[0]]
    if any(n.startswith(("redcap_event_name", "redcap_repeat_instrument", "redcap_data_access_group"))
           for n in names):
        return "redcap"
    if names and (names[0] == "record_id" or names[0].endswith("_id")) and any(
            n.endswith("_complete") for n in names):
        return "redcap"
    if names and "complete?" in names and (names[0] in ("record id", "participant id", "study id")
                                           or "event name" in names):
        return "redcap"
    return None


def _clean(cell) -> str:
    return "" if cell is None else str(cell).replace("\ufeff", "").strip()


def _import_id_row(rows) -> bool:
    if len(rows) < 3:
        return False
    cells = [c for c in rows[2] if c]
    return bool(cells) and sum(c.startswith("{") and "importid" in c.lower() for c in cells) >= len(cells) / 2


def _names(cells: list[str]) -> tuple[list[str], list[str]]:
    names, blank = [], []
    for i, cell in enumerate(cells):
        if cell:
            names.append(cell)
        else:
            names.append(f"column_{i + 1}")
            blank.append(names[-1])
    return names, blank


def _plain(rows, width, header_rows) -> Layout:
    if header_rows == 0:
        return Layout(0, [f"column_{i + 1}" for i in range(width)])
    names, blank = _names(rows[0] if rows else [])
    labels = {}
    if header_rows >= 2 and len(rows) > 1:
        labels = {n: t for n, t in zip(names, rows[1]) if t and t != n}
    return Layout(header_rows, names, labels, None, blank)


def _qualtrics(rows, width) -> Layout:
    first = {c.lower() for c in rows[0]}
    if {"v1", "v2"} <= first:  # legacy export: V1.. names, labels in row 2
        names, blank = _names(rows[0])
        labels = {n: t for n, t in zip(names, rows[1]) if t}
        return Layout(2, names, labels, "qualtrics", blank, ["Legacy Qualtrics export (2 header rows)."])
    header_rows = 3 if _import_id_row(rows) else 2
    names, blank = _names(rows[0])
    labels = {n: t for n, t in zip(names, rows[1] if len(rows) > 1 else []) if t and t != n}
    ids = {n: i for n, i in zip(names, map(_import_id, rows[2])) if i} if header_rows == 3 else {}
    return Layout(header_rows, names, labels, "qualtrics", blank, import_ids=ids)


def _import_id(cell: str) -> str:
    """``{"ImportId":"QID3"}`` -> ``"QID3"`` (``""`` for anything else)."""
    import json

    try:
        value = json.loads(cell) if cell.startswith("{") else None
    except ValueError:
        return ""
    return str(value.get("ImportId") or "") if isinstance(value, dict) else ""


def _surveymonkey(rows, width) -> Layout:
    top, options = rows[0], rows[1] if len(rows) > 1 else [""] * width
    first_question = next((i for i, o in enumerate(options) if o), width)
    names, labels, blank = [], {}, []
    question, number, part = "", 0, 0
    for i in range(width):
        if i < first_question:
            name = top[i] or f"column_{i + 1}"
            if not top[i]:
                blank.append(name)
            names.append(name)
            continue
        if top[i]:
            question, number, part = top[i], number + 1, 0
        part += 1
        spans = i + 1 < width and not top[i + 1] and options[i + 1] or part > 1
        name = f"Q{number}_{part}" if spans else f"Q{number}"
        names.append(name)
        option = options[i]
        labels[name] = question if option.lower() in _SM_PLAIN else f"{question} - {option}"
    return Layout(2, names, labels, "surveymonkey", blank)


def _limesurvey(rows, width) -> Layout:
    names, blank = _names(rows[0])
    labels = {}
    for i, cell in enumerate(rows[0]):
        match = _LIME_CODE_TEXT.match(cell)
        if match and " " in match.group(2).strip() or match and len(match.group(2)) > 12:
            names[i] = match.group(1)
            labels[names[i]] = match.group(2).strip()
    return Layout(1, names, labels, "limesurvey", blank)


def _redcap(rows, width) -> Layout:
    """One ``Complete?`` column per instrument: a single one keeps its name, several are numbered in order."""
    names, blank = _names(rows[0])
    complete = [i for i, name in enumerate(names) if name.lower() == "complete?"]
    seen = len(complete)
    if seen > 1:
        for k, i in enumerate(complete, 1):
            names[i] = f"Complete? ({k})"
    warnings = []
    if seen > 1:
        warnings.append(f"REDCap labelled export: the {seen} 'Complete?' columns were named "
                        f"'Complete? (1)' ... in instrument order.")
    return Layout(1, names, {}, "redcap", blank, warnings)
