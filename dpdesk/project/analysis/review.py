"""What a reviewer needs to check the numbers: mappings, import options, intervals, data.

The export's Metadata sheet and the reproducibility script record, for every item, the
column and the codes of each response, and which values were left out of the counts and
why (matching no code, blank, user-missing code); the import options the dataset was read
with (header rows, platform, encoding, format, delimiter, decimal mark, sheet, and which of
them the researcher set); the interval method by name and citation; and the fingerprint
of the analysed columns (:mod:`dpdesk.project.people.fingerprint`).
"""

from __future__ import annotations

from typing import Any

from dpdesk.mechanisms.rr.estimate import CI_CITATIONS, CI_NAMES
from dpdesk.project.people.fingerprint import data_fingerprint
from dpdesk.project.mapping.unary import is_unary_codes


def _codes_text(values) -> str:
    return ", ".join(repr(v) if isinstance(v, str) else str(v) for v in values)


def left_out(mapping) -> dict[str, int]:
    """``{"'Maybe' in q7: matches no code": 3, "blank in q7: missing": 2, ...}`` (respondents)."""
    out: dict[str, int] = {}
    if mapping is None:
        return out
    tagged = [(p, "matches no code") for p in mapping.unmatched] + [(p, f"missing ({p.reason})") for p in mapping.missing]
    for p, why in tagged:
        value = "blank" if p.value is None or (isinstance(p.value, str) and not p.value.strip()) else repr(p.value)
        key = f"{value} in {p.column}: {why}"
        out[key] = out.get(key, 0) + int(p.count)
    return out


def mapping_entry(item, design, mapping=None) -> dict[str, Any]:
    """One item's mapping for a reader: its column, the codes of each response in the respondent's words
    ("codes / Both answers are the same", never "codes / yes"), group codes, and (with ``mapping``, an
    item's mapping result) how many were counted and what was left out and why."""
    entry: dict[str, Any] = {"column": item.column or "none"}
    codes = item.codes or {}
    if is_unary_codes(codes):
        entry["option columns"] = {str(k): str(v) for k, v in codes["columns"].items()}
        entry["codes / ticked"] = _codes_text(codes.get("ticked", []))
        entry["codes / not ticked"] = _codes_text(codes.get("not ticked", []))
    else:
        responses = list(getattr(design, "responses", None) or [])
        words = dict(zip(responses, getattr(design, "response_labels", None) or responses))
        for response, values in codes.items():  # the response in the respondent's words, not its key
            entry[f"codes / {words.get(response, response)}"] = _codes_text(
                values if isinstance(values, list) else [values])
    if item.group_column:
        entry["group column"] = item.group_column
        for group, values in (item.group_codes or {}).items():
            entry[f"group codes / {group}"] = _codes_text(values if isinstance(values, list) else [values])
    if mapping is not None:
        entry["respondents counted"] = int(mapping.n_used)
        gone = left_out(mapping)
        entry["left out"] = gone if gone else "none"
    return entry


def mapping_metadata(project_items, results) -> dict[str, Any]:
    """Per item: column, codes of each response, group codes, what was left out and why."""
    by_name = {it.name: it for it in project_items}
    out: dict[str, Any] = {}
    for r in results:
        item = by_name.get(r.item)
        if item is None:
            continue
        out[r.item] = mapping_entry(item, r.design, r.mapping)
    return out


def import_metadata(ds) -> dict[str, Any]:
    """How the dataset was read: what the import found and what the researcher set."""
    if ds is None:
        return {}
    report = ds.report or {}
    found = {
        "header rows": report.get("header_rows"),
        "survey platform": report.get("platform") or "none detected",
        "encoding": report.get("encoding") or "n/a (not a text file)",
        "format": report.get("format"),
        "delimiter": report.get("delimiter"),
        "decimal mark": report.get("decimal"),
        "sheet": report.get("sheet"),
        "first data row": report.get("first_data_row"),
        "kind": report.get("kind"),
    }
    found = {k: v for k, v in found.items() if v is not None}
    options = {k: v for k, v in (ds.options or {}).items()}
    found["set by the researcher"] = options if options else "none (all detected)"
    return found


def interval_metadata(ci: str) -> dict[str, Any]:
    return {"CI method": f"{CI_NAMES.get(ci, ci)} ({ci})", "CI method citation": CI_CITATIONS.get(ci, "")}


def analysed_columns(project_items, results=None) -> list[str]:
    """The data columns the items read (answer, option and group columns), sorted."""
    names = {r.item for r in results} if results is not None else None
    cols: set[str] = set()
    for it in project_items:
        if names is not None and it.name not in names:
            continue
        codes = it.codes or {}
        if is_unary_codes(codes):
            cols.update(str(c) for c in codes["columns"].values())
        elif it.column:
            cols.add(str(it.column))
        if it.group_column:
            cols.add(str(it.group_column))
    return sorted(cols)


def fingerprint_metadata(frame, columns: list[str]) -> dict[str, Any]:
    present = [c for c in columns if c in frame.columns]
    return {"data fingerprint (SHA-256)": data_fingerprint(frame, present) if present else None,
            "data fingerprint columns": present,
            "data fingerprint method": "SHA-256 over the sorted, normalised, non-blank rows of these columns "
                                       "(dpdesk.project.people.fingerprint.data_fingerprint)"}
