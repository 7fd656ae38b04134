"""The columns a chooser offers for subgroups and groups, each shown as "Q3 — What is your gender?".

A sensible grouping variable has a few categories a reader recognises. Left out: time
stamps (StartDate, RecordedDate, a date or time column), survey platforms' bookkeeping
(Progress, Finished, Duration), the randomized answers and
randomization groups of the project's items (an RR answer is no one's true group), direct
identifiers (e-mail, name, response ID: :mod:`dpdesk.project.reading.identifiers`) and free
text (the importer keeps text as categories unless nearly every value differs). Decided from
the column's name, label, type and the items, without reading the rows.
"""

from __future__ import annotations

from typing import Any

from dpdesk.project.study.labels import Labels
from dpdesk.project.reading.identifiers import by_name, is_time_stamp_name

#: Column types that hold text with nearly every value different (see ``reading.shape``).
FREE_TEXT = ("object", "str", "string")
#: Bookkeeping columns of survey platforms (Qualtrics, LimeSurvey, SurveyMonkey, REDCap), as
#: lower-case letters and digits: how the survey ran, not who answered.
BOOKKEEPING = {"status", "progress", "durationinseconds", "duration", "finished", "distributionchannel",
               "userlanguage", "lastpage", "startlanguage", "seed", "refurl", "collectorid",
               "redcapeventname", "redcaprepeatinstrument", "redcaprepeatinstance", "interviewtime"}


def item_columns(items) -> set[str]:
    """The columns the items read, in any dataset: randomized answers, groups, unary option columns."""
    out: set[str] = set()
    for item in items:
        mappings = [item, *(getattr(item, "mappings", None) or {}).values()]
        for m in mappings:
            get = m.get if isinstance(m, dict) else lambda key, m=m: getattr(m, key, None)
            for column in (get("column"), get("group_column")):
                if column:
                    out.add(str(column))
            codes = get("codes")
            if isinstance(codes, dict) and isinstance(codes.get("columns"), dict):
                out.update(str(c) for c in codes["columns"].values())
    return out


def left_out_because(column: str, dtype: str, label: str | None, answers: set[str],
                     value_labels: bool = False) -> str | None:
    """Why ``column`` makes no sensible subgroup (in words), or None when it does."""
    kind = (dtype or "").lower()
    if column in answers:
        return "it holds an item's randomized answers or groups"
    if "datetime" in kind or "timedelta" in kind or is_time_stamp_name(column) or (
            label and is_time_stamp_name(label)):
        return "it is a time stamp"
    if by_name(column, label):
        return "it identifies respondents"
    key = "".join(ch for ch in column.lower() if ch.isalnum())
    if key in BOOKKEEPING or key.endswith("complete"):
        return "it records how the survey ran"
    if kind in FREE_TEXT:
        return "it is free text with nearly every answer different"
    if kind.startswith("float") and not value_labels:
        return "it holds measurements, not categories"
    return None


def subgroup_columns(dataset: Any, labels: Labels, items=()) -> list[tuple[str, str]]:
    """``[(column, "Q3 — What is your gender?"), ...]``: the sensible grouping columns of ``dataset``.

    ``dataset`` is a :class:`~dpdesk.project.study.items.Dataset` (its ``columns`` and ``dtypes``).
    """
    answers = item_columns(items)
    return [(c, labels.choice(c)) for c in dataset.columns
            if left_out_because(c, dataset.dtypes.get(c, ""), labels.columns.get(c), answers,
                                bool(labels.values.get(c))) is None]


def project_subgroup_columns(project, dataset: str | None = None) -> list[tuple[str, str]]:
    """:func:`subgroup_columns` of a project's dataset (default: the active one)."""
    from dpdesk.project.study.active import dataset_named

    ds = dataset_named(project, dataset)
    return subgroup_columns(ds, Labels.from_stored(project.column_labels(ds.name)), project.items(ds.name))


#: The ``app`` row that remembers the Results view's "Subgroups by" choice with the project.
CHOICE_KEY = "results_subgroups_by"
#: What that row holds when the datasets are compared (never a column name: a column cannot start with NUL).
DATASETS = "\x00datasets"
_LONGEST = 1000  # a stored choice longer than any column name is ignored (the file is not trusted)


def saved_subgroups(project) -> str | None:
    """The "Subgroups by" choice saved with the project (a column name or :data:`DATASETS`), or None.

    Only compared with the columns on offer, never used in SQL or as a name of anything."""
    try:
        row = project.connection.execute("SELECT value FROM app WHERE key = ?", (CHOICE_KEY,)).fetchone()
    except Exception:  # noqa: BLE001 - a file that cannot say is a file with no choice saved
        return None
    value = row[0] if row is not None else None
    return value if isinstance(value, str) and 0 < len(value) <= _LONGEST else None


def save_subgroups(project, choice: str | None) -> None:
    """Save the "Subgroups by" choice (None: no subgroups) with the project."""
    with project.transaction() as conn:
        if choice is None:
            conn.execute("DELETE FROM app WHERE key = ?", (CHOICE_KEY,))
        else:
            conn.execute("INSERT OR REPLACE INTO app(key, value) VALUES (?, ?)", (CHOICE_KEY, str(choice)))
