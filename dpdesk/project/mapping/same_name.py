"""A column named exactly like an item maps itself (``q_cash`` -> the item ``q_cash``).

The last try of :func:`dpdesk.project.mapping.matching.auto_mappings`, for an item no known
mapping fits: the one column whose name is the item's (exactly, else ignoring case, space
and ``-``/``_``). Its codes come from the answers' own words: each value (or its value
label) must name one of the design's responses in the respondent's words ("Yes", "No",
"The answers are the same", in any language dpdesk writes; :func:`answer_labels.suggest`);
a yes/no item also takes a 0/1 indicator (1 = yes, 0 = no), the one numeric coding that
reads one way only. Blank values and the file's missing codes stay missing. Anything else
(codes 1/2 without labels, a two-group design that also needs its group column, a
multi-select item) is not guessed: the item stays for the researcher to map.
"""

from __future__ import annotations

import re
from typing import Any

#: Distinct values looked at in a column: an item's answers are a handful of codes.
MAX_VALUES = 50


def _fold(name: Any) -> str:
    return re.sub(r"[\s_\-]+", "", str(name)).casefold()


def same_name_column(item_name: str, columns: list[str]) -> str | None:
    """The column named like the item: exactly, else the one equal ignoring case, spaces, ``_`` and ``-``."""
    if item_name in columns:
        return item_name
    found = [c for c in columns if _fold(c) == _fold(item_name)]
    return found[0] if len(found) == 1 else None


def _plain(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if hasattr(value, "item") and callable(value.item):
        return _plain(value.item())
    return value


def codes_from_words(design, series, labels: dict | None, missing: list | None) -> dict | None:
    """``{response: [values]}`` when every answer's words name a response (module docstring), else None."""
    import pandas as pd

    from dpdesk.project.mapping.answer_labels import suggest

    values = pd.unique(series.dropna())
    if len(values) == 0 or len(values) > MAX_VALUES:
        return None
    missing_keys = {str(_plain(m)) for m in (missing or [])}
    labels = {str(_plain(k)): v for k, v in (labels or {}).items()}
    codes: dict[str, list] = {}
    numbers = []
    for v in values:
        v = _plain(v)
        if str(v) in missing_keys:
            continue
        response = suggest(design, v, labels.get(str(v)))
        if response is None:
            numbers.append(v)
            continue
        codes.setdefault(response, []).append(v)
    if numbers:
        binary = set(design.responses) == {"yes", "no"} and not codes
        if not (binary and all(isinstance(n, (int, bool)) and int(n) in (0, 1) for n in numbers)
                and not any(str(n) in labels for n in numbers)):
            return None
        codes = {"yes": [n for n in numbers if int(n) == 1], "no": [n for n in numbers if int(n) == 0]}
        codes = {k: v for k, v in codes.items() if v}
    return codes or None


def same_name_mapping(item, table) -> dict | None:
    """The item's mapping in ``table`` by its column's name and its answers' words, or None."""
    from dpdesk.mechanisms import rr

    design = rr.Design.from_dict(item.design_record)
    if design.groups > 1 or design.model == "unary":
        return None
    by_text = {str(c): c for c in table.frame.columns}
    column = same_name_column(item.name, list(by_text))
    if column is None:
        return None
    report = table.report
    codes = codes_from_words(design, table.frame[by_text[column]], (report.value_labels or {}).get(column),
                             (report.missing_values or {}).get(column))
    if codes is None:
        return None
    return {"column": column, "codes": codes, "group_column": None, "group_codes": None}


def codes_text(codes: dict) -> str:
    """``"'Yes' = yes, 'No' = no"``: how the answers were read, for the import's notes."""
    return ", ".join(f"{v!r} = {k}" for k, vs in codes.items() for v in vs[:3])
