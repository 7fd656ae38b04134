"""Names a reader recognises: column labels, value labels and items' short labels.

Output speaks in labels ("Subgroups by What is your gender?", "Faculty: Engineering"); the
column code (``Q3``) is an identifier, shown where a reader needs it: in a chooser beside the
label ("Q3 — What is your gender?"), a note, or the metadata sheet. A blank subgroup value is
the group :data:`MISSING`, never dropped silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: The name of the subgroup of respondents with no value (blank or a user-missing code).
MISSING = "(missing)"
#: Between a column's code and its label in choosers.
DASH = " \u2014 "


@dataclass(frozen=True)
class Labels:
    """The labels of one dataset: ``columns`` (column -> label), ``values`` (column -> {code: label})."""

    columns: dict = field(default_factory=dict)
    values: dict = field(default_factory=dict)

    @classmethod
    def from_stored(cls, stored: dict) -> "Labels":
        """From ``Project.column_labels(dataset)``."""
        return cls({c: v["label"] for c, v in stored.items() if v["label"]},
                   {c: v["value_labels"] for c, v in stored.items() if v["value_labels"]})

    def column(self, name: Any) -> str:
        """The column's label, or its name when it has none."""
        return str(self.columns.get(name) or name)

    def choice(self, name: Any) -> str:
        """``"Q3 — What is your gender?"``: the code a researcher typed, and the question."""
        label = self.columns.get(name)
        return f"{name}{DASH}{label}" if label and label != name else str(name)

    def value(self, column: Any, code: Any) -> str:
        """The label of ``code`` in ``column`` (its text when unlabelled); None is :data:`MISSING`."""
        if code is None:
            return MISSING
        labels = self.values.get(column) or {}
        code = _plain(code)
        if code in labels:
            return str(labels[code])
        text = _text(code)
        for key, label in labels.items():
            if _text(key) == text:
                return str(label)
        return text

    def values_of(self, column: Any, codes) -> dict:
        """``{code: shown text}`` for ``codes``, the code added where two codes share a label."""
        shown = {code: self.value(column, code) for code in codes}
        seen: dict[str, int] = {}
        for text in shown.values():
            seen[text] = seen.get(text, 0) + 1
        return {code: (f"{text} ({_text(code)})" if seen[text] > 1 and code is not None else text)
                for code, text in shown.items()}


def parse_value_labels(text: str, series: Any = None, column: str = "the column", known: dict | None = None) -> dict:
    """``"1 = Female; 2 = Male"`` as ``{1: "Female", 2: "Male"}``, each code in the type ``series`` holds.

    ``known`` maps codes as shown to the codes already labelled, which keep their exact form
    (Stata's ``.a``, SPSS's 1.0); a known code alone is labelled with its own text, as shown.
    An empty text is no value labels. A part without "=" or without a code or label is a
    DataError that says which part and how to write it.
    """
    from dpdesk.errors import DataError

    known = known or {}
    out: dict = {}
    for part in (p.strip() for p in str(text or "").split(";")):
        if not part or part in ("…", "..."):
            continue
        code, sep, label = (x.strip() for x in part.partition("="))
        if not sep and code in known:
            code, label = code, code
        elif not sep or not code or not label:
            raise DataError(f"Value labels of {column}: {part!r} is not 'code = label'. Write them as "
                            f"'1 = Female; 2 = Male'.")
        out[known[code] if code in known else _typed(code, series, column)] = label
    return out


def _typed(code: str, series: Any, column: str) -> Any:
    """A code typed by the researcher, in the type the column holds (2 for whole numbers, "2" for text)."""
    from dpdesk.errors import DataError

    kind = str(getattr(series, "dtype", "object")).lower()
    if kind.startswith(("int", "uint", "float")):
        try:
            number = float(code)
        except ValueError:
            raise DataError(f"Value labels of {column}: the column holds numbers, so the code {code!r} must "
                            f"be a number.") from None
        return int(number) if kind.startswith(("int", "uint")) and number.is_integer() else number
    return code


def labels_of(table: Any) -> Labels:
    """The labels a :class:`~dpdesk.project.reading.table.Table`'s report carries (none for a frame)."""
    report = getattr(table, "report", None)
    if report is None:
        return Labels()
    return Labels(dict(getattr(report, "variable_labels", None) or {}),
                  dict(getattr(report, "value_labels", None) or {}))


def item_label(item: Any, short_labels: dict | None = None) -> str:
    """What output calls an item: the researcher's short label, else its question, else its name."""
    name = getattr(item, "name", item)
    short = (short_labels or {}).get(name)
    return short or (getattr(item, "question", "") or "").strip() or str(name)


#: Characters of a question shown where space is short (plot titles, table rows).
SHORT = 48


def short_text(text: Any, limit: int = SHORT) -> str:
    """The first words of ``text`` (up to ``limit`` characters, ending in "…")."""
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0].rstrip(",;:") + "\u2026"


def _plain(value: Any) -> Any:
    item = getattr(value, "item", None)
    if callable(item) and not isinstance(value, (str, bytes)):
        try:
            return item()
        except (TypeError, ValueError):
            return value
    return value


def _text(code: Any) -> str:
    """A code as a reader writes it: 2 (not 2.0) for a whole number."""
    if isinstance(code, float) and code.is_integer():
        return str(int(code))
    return str(code)
