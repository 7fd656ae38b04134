"""A new dataset maps itself where an item's mapping fits it (a wave 2 with wave 1's columns).

Each item may already be mapped in other datasets of the project, and it has a latest
mapping (the one it had before any data, or last set). For a new table each of these is
tried, the active dataset's first, then the other datasets' (newest first), then the latest:

1. the same column names (and group column);
2. else the column whose question text (the file's variable label, e.g. SPSS or a
   Qualtrics question row) is the same as the mapped column's, ignoring case and spaces;
3. else the one column whose value labels are the same as the mapped column's.

An item not mapped so is looked for as a field of an instrument the project fielded on a
survey platform (:mod:`dpdesk.project.fielding.answers`: field names, Qualtrics QIDs, group
prefixes, question texts), and last as a column named like the item whose answers name the
design's responses in words (:mod:`.same_name`).

A candidate is taken only when its codes fit the new column: every answer matches a code
or is missing (blank, user-missing), at least one answer is counted, and no code
contradicts the file's own labels (:mod:`.answer_labels`). Nothing else is guessed: an
item that fits nothing stays unmapped, and the import says which items mapped themselves
and how.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from dpdesk.errors import DpdeskError

__all__ = ["AutoMapping", "auto_mappings"]


@dataclass(frozen=True)
class AutoMapping:
    """An item mapped on import: its mapping in the new table, and how it was found."""

    item: str
    mapping: dict  # column, codes, group_column, group_codes
    how: str  # "the same column name as in 'wave 1'"

    def sentence(self) -> str:
        return f"{self.item} → {self.mapping['column']} ({self.how})"


def auto_mappings(project, table) -> dict[str, AutoMapping]:
    """``{item name: AutoMapping}`` for every item whose known mapping fits ``table``."""
    datasets = project.datasets()
    active = project.active_dataset_id()
    order = sorted(datasets, key=lambda d: (d.id != active, -d.id))  # the active dataset first, then newest
    reports = {d.name: d.report or {} for d in order}
    out = {}
    for item in project.items():
        candidates = [(d.name, item.mappings[d.name]) for d in order if d.name in item.mappings]
        latest = project.latest_mapping(item.name)
        if latest is not None and latest not in [m for _, m in candidates]:
            candidates.append((None, latest))
        for source, mapping in candidates:
            found = _fit(item, mapping, reports.get(source, {}), table, source)
            if found is not None:
                out[item.name] = found
                break
    out.update(_fielded(project, table, skip=set(out)))
    out.update(_same_names(project, table, skip=set(out)))
    return out


def _same_names(project, table, skip: set) -> dict[str, AutoMapping]:
    """Items still unmapped whose name is a column's, read by their answers' words (:mod:`.same_name`)."""
    from dpdesk.project.mapping.same_name import codes_text, same_name_mapping

    out = {}
    for item in project.items():
        if item.name in skip:
            continue
        mapping = same_name_mapping(item, table)
        if mapping is not None and _counts(item, mapping, table):
            out[item.name] = AutoMapping(item.name, mapping, f"the column named like the item; answers read as "
                                                             f"{codes_text(mapping['codes'])}")
    return out


def _fielded(project, table, skip: set) -> dict[str, AutoMapping]:
    """Items of an instrument the project fielded, found in the platform's export.

    What the instrument has but the table lacks is added to the table's import notes.
    """
    from dpdesk.project.fielding.answers import fielded_mappings

    found = fielded_mappings(project, table, skip)
    items = {it.name: it for it in project.items()}
    out = {}
    unfit = []
    for name, mapping in found.mappings.items():
        no_group = _answered_without_group(items[name], mapping, table)
        if no_group:  # an answer whose group (an ECWM version) the platform did not record cannot be counted
            unfit.append(f"{name}: {no_group}; check that the platform records it, or map the item in Data > "
                         f"Map items… and leave those rows out")
        elif _counts(items[name], mapping, table):
            out[name] = AutoMapping(name, mapping, f"the fielded {found.format} instrument")
        else:  # the column is there, its answers are not the instrument's: said, never dropped silently
            unfit.append(f"{name}: its column {mapping['column']!r} was found, but {_unfit(items[name], mapping, table)}"
                         f"; map it in Data > Map items…")
    notes = [f"Not mapped from the fielded instrument: {w}." for w in found.unmatched + unfit]
    table.report.warnings.extend(n for n in notes if n not in table.report.warnings)
    return out


def _group_words(item) -> str:
    return "version of question B" if item.design.name == "ecwm" else "group"


def _rows_text(rows) -> str:
    return ", ".join(str(r) for r in rows[:5]) + (f" and {len(rows) - 5} more" if len(rows) > 5 else "")


def _answered_without_group(item, mapping: dict, table) -> str:
    """Rows with an answer but a blank version (an ECWM item's group, which the platform draws and records:
    a blank one is the platform's failure, not the respondent's skip), in words naming the rows and the
    column; ``""`` when there are none. A two-group design's group question left blank stays a missing
    answer, listed with the counts."""
    from dataclasses import replace

    from dpdesk.project.mapping.item_counts import item_counts

    group = mapping.get("group_column")
    if group is None or item.design.name != "ecwm":
        return ""
    try:
        report = item_counts(replace(item, **mapping), table, exclude=False)
    except DpdeskError:
        return ""
    rows = [p.row for p in report.missing if p.column == group and p.reason == "blank"]
    if not rows:
        return ""
    return (f"row{'s' if len(rows) > 1 else ''} {_rows_text(rows)} {'have' if len(rows) > 1 else 'has'} an answer "
            f"but no {_group_words(item)} in column {group!r}")


def _unfit(item, mapping: dict, table) -> str:
    """Why a fielded item's column does not fit its codes, in words (a few of the values that fit no code,
    and the column they are in: the answer's, or the group's)."""
    from dataclasses import replace

    from dpdesk.project.mapping.item_counts import item_counts

    try:
        report = item_counts(replace(item, **mapping), table, exclude=False)
    except DpdeskError as exc:
        return f"its answers could not be read ({exc})"
    group = mapping.get("group_column")
    in_group = [p for p in report.unmatched if group is not None and p.column == group]
    if in_group:
        values = list(dict.fromkeys(str(p.value) for p in in_group))
        codes = ", ".join(str(k) for k in (mapping.get("group_codes") or {}))
        shown = ", ".join(repr(v) for v in values[:3]) + (" …" if len(values) > 3 else "")
        return (f"its {_group_words(item)} in column {group!r} is {shown} in row{'s' if len(in_group) > 1 else ''} "
                f"{_rows_text([p.row for p in in_group])}, none of the instrument's codes ({codes})")
    values = list(dict.fromkeys(str(p.value) for p in report.unmatched))
    if not values:
        return "no answer in it was counted"
    shown = ", ".join(repr(v) for v in values[:3]) + (" …" if len(values) > 3 else "")
    return f"its answers {shown} are none of the instrument's codes or answer texts"


def _fit(item, mapping: dict, old_report: dict, table, source: str | None) -> AutoMapping | None:
    """The mapping moved to ``table``'s columns, if it fits there."""
    from dpdesk.project.mapping.unary import is_unary_codes

    columns = [str(c) for c in table.frame.columns]
    new_report = table.report
    where = f" as in {source!r}" if source else " as the item's mapping"
    if is_unary_codes(mapping["codes"]):  # one tick column per option: the same names only
        if all(c in columns for c in mapping["codes"]["columns"].values()) and _counts(item, mapping, table):
            return AutoMapping(item.name, _plain(mapping), f"the same column names{where}")
        return None
    tries = []
    group = mapping.get("group_column")
    if mapping["column"] in columns and (group is None or group in columns):
        tries.append((mapping["column"], group, f"the same column name{where}"))
    new_group = group if group is None or group in columns else _same_text(
        group, old_report.get("variable_labels") or {}, new_report.variable_labels, columns)
    if group is None or new_group is not None:
        by_question = _same_text(mapping["column"], old_report.get("variable_labels") or {},
                                 new_report.variable_labels, columns)
        if by_question is not None:
            tries.append((by_question, new_group, f"the same question text as {mapping['column']!r}{where}"))
        by_labels = _same_labels(mapping["column"], old_report.get("value_labels") or {},
                                 new_report.value_labels, columns)
        if by_labels is not None:
            tries.append((by_labels, new_group, f"the same value labels as {mapping['column']!r}{where}"))
    for column, group_column, how in tries:
        moved = {**_plain(mapping), "column": column, "group_column": group_column}
        if _counts(item, moved, table):
            return AutoMapping(item.name, moved, how)
    return None


def _plain(mapping: dict) -> dict:
    return {k: mapping.get(k) for k in ("column", "codes", "group_column", "group_codes")}


def _counts(item, mapping: dict, table) -> bool:
    """True when every answer in the column matches a code or is missing, and some are counted."""
    from dataclasses import replace

    from dpdesk.project.mapping.item_counts import item_counts

    try:
        report = item_counts(replace(item, **mapping), table, exclude=False)
    except DpdeskError:
        return False
    return report.ok and report.n_used > 0


def _norm(text: Any) -> str:
    return re.sub(r"\s+", " ", str(text)).strip().casefold()


def _same_text(column: str, old: dict, new: dict, columns: list[str]) -> str | None:
    """The one new column whose question text is the old column's (None: no text, or not one match)."""
    text = _norm(old.get(column) or "")
    if not text:
        return None
    found = [c for c in columns if _norm(new.get(c) or "") == text]
    return found[0] if len(found) == 1 else None


def _code_key(code: Any) -> str:
    try:
        number = float(code)
    except (TypeError, ValueError):
        return _norm(code)
    return str(int(number)) if number.is_integer() else repr(number)


def _labels(labels: Any) -> dict:
    return {_code_key(k): _norm(v) for k, v in dict(labels or {}).items()}


def _same_labels(column: str, old: dict, new: dict, columns: list[str]) -> str | None:
    """The one new column whose value labels are the old column's (at least two labels)."""
    wanted = _labels(old.get(column))
    if len(wanted) < 2:
        return None
    found = [c for c in columns if _labels(new.get(c)) == wanted]
    return found[0] if len(found) == 1 else None
