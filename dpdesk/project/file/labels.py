"""Column labels, value labels and items' short labels, as the project file keeps them.

A column's label is the question a reader recognises ("What is your gender?"); it comes
from the file (Qualtrics' question-text row, SPSS and Stata variable labels) or from the
researcher. Value labels name the codes (``1 = Female``). Both live in ``column_labels``,
one row per labelled column, keyed by the column's position; each code is stored in its
exact form (:func:`dpdesk.project.file.columns.tag`), so ``1``, ``1.0`` and ``"1"`` come back
as they went in. A label the researcher sets replaces the file's and says so (``source``).
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from dpdesk.errors import ProjectError
from dpdesk.project.file import columns as columns_codec

_UNSET: Any = object()


def encode_value_labels(labels: dict | None) -> str | None:
    """``{code: label}`` as JSON ``[[tagged code, label], ...]`` (None for no labels)."""
    if not labels:
        return None
    pairs = []
    for code, label in labels.items():
        form = columns_codec.tag(code, None)
        if form is None:
            raise ProjectError("A value label needs a code: a blank cannot have a value label.")
        pairs.append([form, str(label)])
    return json.dumps(pairs, ensure_ascii=False)


def decode_value_labels(text: str | None) -> dict:
    """The ``{code: label}`` of :func:`encode_value_labels`."""
    if not text:
        return {}
    return {columns_codec.untag(form): label for form, label in json.loads(text)}


def _code_like(code: Any, dtype: str) -> Any:
    """A code in the type its column holds: SPSS gives 1.0 for an integer column's 1, and a v3
    file's report kept codes as text ("1")."""
    kind = dtype.lower()
    if isinstance(code, bool):
        return code
    if isinstance(code, str):
        if not kind.startswith(("int", "uint", "float")):
            return code
        try:
            code = float(code)
        except ValueError:
            return code
    if isinstance(code, float) and kind.startswith(("int", "uint")) and code.is_integer():
        return int(code)
    if isinstance(code, int) and kind.startswith("float"):
        return float(code)
    return code


def _positions(conn: sqlite3.Connection, dataset_id: int) -> dict[str, tuple[int, str]]:
    rows = conn.execute("SELECT name, position, dtype FROM dataset_columns WHERE dataset_id = ? AND position >= 0",
                        (dataset_id,)).fetchall()
    return {r[0]: (r[1], r[2]) for r in rows}


def write_file_labels(conn: sqlite3.Connection, dataset_id: int, report: dict | None) -> None:
    """Store the labels an import found (``report``'s variable and value labels) for a new dataset."""
    report = report or {}
    variable = report.get("variable_labels") or {}
    values = report.get("value_labels") or {}
    rows = []
    for name, (position, dtype) in _positions(conn, dataset_id).items():
        label = variable.get(name)
        labels = values.get(name) or {}
        if not label and not labels:
            continue
        typed = {_code_like(k, dtype): v for k, v in labels.items()
                 if k is not None and not (isinstance(k, float) and k != k)}  # a blank has no label
        rows.append((dataset_id, position, str(label) if label else None, encode_value_labels(typed)))
    conn.executemany("INSERT INTO column_labels(dataset_id, position, label, value_labels) VALUES (?, ?, ?, ?)",
                     rows)


def migrate_report_labels(conn: sqlite3.Connection) -> None:
    """v3 to v4: copy the labels each dataset's import report holds into ``column_labels``.

    The report kept value-label codes as JSON keys (text); they get the type the column holds.
    """
    for dataset_id, report in conn.execute("SELECT id, report FROM datasets").fetchall():
        try:
            data = json.loads(report or "{}")
        except ValueError:
            continue
        if isinstance(data, dict):
            write_file_labels(conn, dataset_id, {k: v for k, v in data.items() if isinstance(v, dict)})


def read_labels(conn: sqlite3.Connection, dataset_id: int) -> dict[str, dict]:
    """``{column: {"label", "value_labels", "source", "value_source"}}`` of one dataset."""
    rows = conn.execute(
        "SELECT c.name, l.label, l.value_labels, l.source, l.value_source FROM column_labels AS l"
        " JOIN dataset_columns AS c ON c.dataset_id = l.dataset_id AND c.position = l.position"
        " WHERE l.dataset_id = ? ORDER BY l.position", (dataset_id,)).fetchall()
    return {r[0]: {"label": r[1] or "", "value_labels": decode_value_labels(r[2]), "source": r[3],
                   "value_source": r[4]} for r in rows}


class ProjectLabels:
    """The label methods of a project (mixed into :class:`~dpdesk.project.file.contents.ProjectContents`)."""

    def column_labels(self, dataset: str) -> dict[str, dict]:
        """``{column: {"label", "value_labels", "source", "value_source"}}`` for the labelled columns."""
        with self._mutex:
            return read_labels(self.connection, self._dataset_row(dataset)["id"])

    def set_column_label(self, dataset: str, column: str, label: Any = _UNSET, value_labels: Any = _UNSET, *,
                         source: str = "researcher") -> None:
        """Set a column's label and/or value labels (``""``/``{}`` removes them), as the researcher's.

        ``source="file"`` puts back what the file said (undo of a researcher's change).
        """
        if source not in ("file", "researcher"):
            raise ProjectError(f"A label comes from the 'file' or the 'researcher', not {source!r}.")
        with self.transaction() as conn:
            dataset_id = self._dataset_row(dataset)["id"]
            found = _positions(conn, dataset_id).get(column)
            if found is None:
                raise ProjectError(f"The dataset {dataset!r} has no column {column!r}; the label was not set.")
            position = found[0]
            conn.execute("INSERT OR IGNORE INTO column_labels(dataset_id, position) VALUES (?, ?)",
                         (dataset_id, position))
            if label is not _UNSET:
                text = " ".join(str(label or "").split())
                conn.execute("UPDATE column_labels SET label = ?, source = ? WHERE dataset_id = ? AND position = ?",
                             (text or None, source, dataset_id, position))
            if value_labels is not _UNSET:
                conn.execute("UPDATE column_labels SET value_labels = ?, value_source = ? WHERE dataset_id = ? AND"
                             " position = ?", (encode_value_labels(value_labels), source, dataset_id, position))

    def item_labels(self) -> dict[str, str]:
        """``{item name: short label}`` for the items that have one."""
        rows = self._read("SELECT i.name, l.short_label FROM item_labels AS l JOIN items AS i ON i.id = l.item_id")
        return {r[0]: r[1] for r in rows}

    def set_item_label(self, item: str, short_label: str) -> None:
        """Give an item a short label for tables and plots (``""`` removes it)."""
        text = " ".join(str(short_label or "").split())
        with self.transaction() as conn:
            item_id = self.item(item).id
            if text:
                conn.execute("INSERT OR REPLACE INTO item_labels(item_id, short_label) VALUES (?, ?)", (item_id, text))
            else:
                conn.execute("DELETE FROM item_labels WHERE item_id = ?", (item_id,))
