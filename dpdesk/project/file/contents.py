"""What a project holds: its survey items, datasets, saved analyses, and its ledger's rows (read only).

:class:`ProjectContents` is the half of :class:`~dpdesk.project.file.store.Project` that reads
and writes the records; the other half (:mod:`.store`) opens, checks, locks, copies and
closes the file and runs the transactions these methods use.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import sqlite3
from typing import Any

from dpdesk import __version__
from dpdesk.errors import ProjectError
from dpdesk.project.file import database, datasets
from dpdesk.project.file.labels import ProjectLabels, write_file_labels
from dpdesk.project.study.items import (
    MAPPING_FIELDS,
    Analysis,
    Dataset,
    Item,
    check_name,
    decode_codes,
    design_record,
    dumps,
    encode_codes,
    loads,
    mapping_from_row,
    plain_dict,
)

_UNSET: Any = object()


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class ProjectContents(ProjectLabels):
    """Items, datasets, analyses, labels and ledger rows; needs ``transaction()``, ``_read()`` and ``path``."""

    # ------------------------------------------------------------------ items
    def add_item(
        self,
        name: str,
        design: Any,
        column: str | None = None,
        codes: Any = None,
        group_column: str | None = None,
        question: str = "",
        group_codes: Any = None,
        instructions: str = "",
        dataset: str | None = None,
    ) -> int:
        """Add a survey item; returns its id. Names are unique within a project.

        ``codes`` maps data values to responses (any JSON-able mapping; key types are kept),
        ``group_codes`` maps the ``group_column``'s values to the groups of a two-group design;
        ``instructions`` keeps the respondent instructions as edited (default: the design's).
        A column and codes are the item's mapping in ``dataset`` (default: the active one) when
        that dataset has the column, and the mapping offered to later imports.
        """
        check_name(name, "survey item")
        record = design_record(design)
        with self.transaction() as conn:
            if conn.execute("SELECT 1 FROM items WHERE name = ?", (name,)).fetchone():
                raise ProjectError(
                    f"The project {self.path} already has an item named {name!r}. "
                    f"Choose another name, or change the existing item."
                )
            now = _now()
            cur = conn.execute(
                "INSERT INTO items(name, question, design_name, design_params, design_description,"
                " design, column_name, codes, group_column, group_codes, created_at, modified_at, instructions)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    name,
                    question or "",
                    record["name"],
                    dumps(record.get("params") or {}, "the design parameters"),
                    record.get("description") or "",
                    dumps(record, "the design"),
                    column,
                    encode_codes(codes),
                    group_column,
                    encode_codes(group_codes, "the group codes"),
                    now,
                    now,
                    instructions or "",
                ),
            )
            dataset_id = self._mapping_dataset_id(dataset)
            has_column = dataset_id is not None and conn.execute(
                "SELECT 1 FROM dataset_columns WHERE dataset_id = ? AND position >= 0 AND name = ?",
                (dataset_id, column)).fetchone()
            if column and codes is not None and has_column:
                self._write_mapping(conn, cur.lastrowid, dataset_id, {
                    "column": column, "codes": codes, "group_column": group_column, "group_codes": group_codes})
            return cur.lastrowid

    def items(self, dataset: str | None = None) -> list[Item]:
        """All survey items, in the order they were added, as mapped in ``dataset`` (default: the active one).

        An item not mapped in that dataset has ``column`` and ``codes`` None; ``item.mappings``
        holds its mapping in every dataset. Without data, the items carry their latest mapping.
        """
        return self._items("SELECT * FROM items ORDER BY id", (), dataset)

    def item(self, name: str, dataset: str | None = None) -> Item:
        """The item called ``name``, as mapped in ``dataset`` (:class:`ProjectError`, also a KeyError, if there is none)."""
        found = self._items("SELECT * FROM items WHERE name = ?", (name,), dataset)
        if not found:
            raise self._missing("item", name, "SELECT name FROM items ORDER BY id")
        return found[0]

    def _items(self, sql: str, params: tuple, dataset: str | None) -> list[Item]:
        dataset_id = self._mapping_dataset_id(dataset)
        names = {r["id"]: r["name"] for r in self._read("SELECT id, name FROM datasets")}
        mappings: dict[int, dict[str, dict]] = {}
        for r in self._read("SELECT * FROM item_mappings ORDER BY dataset_id"):
            if r["dataset_id"] in names:  # (always, with foreign keys on)
                mappings.setdefault(r["item_id"], {})[names[r["dataset_id"]]] = mapping_from_row(r)
        out = []
        for row in self._read(sql, params):
            item = dataclasses.replace(Item.from_row(row), mappings=mappings.get(row["id"], {}))
            out.append(item if dataset_id is None else item.in_dataset(names[dataset_id]))
        return out

    def set_mapping(self, item: str, dataset: str | None = None, *, column: str, codes: Any,
                    group_column: str | None = None, group_codes: Any = None, missing_codes: Any = None) -> Item:
        """Map ``item`` in ``dataset`` (default: the active one); its design and other datasets stay as they are."""
        if not column or codes is None:
            raise ProjectError(f"Mapping item {item!r}: give the column and the codes of each response.")
        with self.transaction() as conn:
            item_id = self.item(item).id
            dataset_id = self._mapping_dataset_id(dataset, required=True)
            self._write_mapping(conn, item_id, dataset_id, {
                "column": column, "codes": codes, "group_column": group_column, "group_codes": group_codes,
                "missing_codes": missing_codes})
            return self.item(item, self._dataset_name(dataset_id))

    def clear_mapping(self, item: str, dataset: str | None = None) -> None:
        """Forget ``item``'s mapping in ``dataset`` (default: the active one); other datasets keep theirs."""
        with self.transaction() as conn:
            item_id = self.item(item).id
            dataset_id = self._mapping_dataset_id(dataset, required=True)
            conn.execute("DELETE FROM item_mappings WHERE item_id = ? AND dataset_id = ?", (item_id, dataset_id))

    def latest_mapping(self, item: str) -> dict[str, Any] | None:
        """The item's latest mapping (set last, in any dataset, or before there was data): offered to imports."""
        rows = self._read("SELECT column_name, codes, group_column, group_codes FROM items WHERE name = ?", (item,))
        if not rows or not rows[0]["column_name"] or rows[0]["codes"] is None:
            return None
        r = rows[0]
        return {"column": r["column_name"], "codes": decode_codes(r["codes"]), "group_column": r["group_column"],
                "group_codes": decode_codes(r["group_codes"]), "missing_codes": None}

    def active_dataset_id(self) -> int | None:
        """The id of the active dataset: the one chosen (the ``app`` table), else the latest import."""
        rows = self._read("SELECT d.id FROM app AS a JOIN datasets AS d ON a.value = CAST(d.id AS TEXT)"
                          " WHERE a.key = 'active_dataset'")
        return rows[0][0] if rows else self._read("SELECT max(id) FROM datasets")[0][0]

    def _mapping_dataset_id(self, dataset: str | None, required: bool = False) -> int | None:
        if dataset is not None:
            return self._dataset_row(dataset)["id"]
        found = self.active_dataset_id()
        if found is None and required:
            raise ProjectError(f"The project {self.path} has no data yet: import a data file before mapping items to it.")
        return found

    def _dataset_name(self, dataset_id: int) -> str:
        return self._read("SELECT name FROM datasets WHERE id = ?", (dataset_id,))[0][0]

    def _write_mapping(self, conn: sqlite3.Connection, item_id: int, dataset_id: int, m: dict[str, Any]) -> None:
        """Store a mapping in a dataset; it also becomes the item's latest mapping (the items table)."""
        now = _now()
        codes = encode_codes(m["codes"])
        group_codes = encode_codes(m.get("group_codes"), "the group codes")
        missing = m.get("missing_codes")
        conn.execute(
            "INSERT OR REPLACE INTO item_mappings(item_id, dataset_id, column_name, codes, group_column, group_codes,"
            " missing_codes, modified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (item_id, dataset_id, m["column"], codes, m.get("group_column"), group_codes,
             None if missing is None else dumps(list(missing), "the missing codes"), now))
        conn.execute("UPDATE items SET column_name = ?, codes = ?, group_column = ?, group_codes = ?, modified_at = ?"
                     " WHERE id = ?", (m["column"], codes, m.get("group_column"), group_codes, now, item_id))

    def update_item(
        self,
        name: str,
        *,
        new_name: str = _UNSET,
        design: Any = _UNSET,
        column: str | None = _UNSET,
        codes: Any = _UNSET,
        group_column: str | None = _UNSET,
        question: str = _UNSET,
        group_codes: Any = _UNSET,
        instructions: str = _UNSET,
        missing_codes: Any = _UNSET,
        dataset: str | None = None,
    ) -> Item:
        """Change the given fields of item ``name`` (pass ``None`` to clear one); returns it.

        The mapping fields (``column``, ``codes``, ``group_column``, ``group_codes``,
        ``missing_codes``) change its mapping in ``dataset`` (default: the active one; without
        data, its latest mapping); a mapping left without a column or codes is removed there.
        """
        asked = {"column": column, "codes": codes, "group_column": group_column, "group_codes": group_codes,
                 "missing_codes": missing_codes}
        mapping = {k: v for k, v in asked.items() if v is not _UNSET}
        changes: dict[str, Any] = {}
        if new_name is not _UNSET and new_name != name:
            changes["name"] = check_name(new_name, "survey item")
        if design is not _UNSET:
            record = design_record(design)
            changes["design_name"] = record["name"]
            changes["design_params"] = dumps(record.get("params") or {}, "the design parameters")
            changes["design_description"] = record.get("description") or ""
            changes["design"] = dumps(record, "the design")
        if question is not _UNSET:
            changes["question"] = question or ""
        if instructions is not _UNSET:
            changes["instructions"] = instructions or ""
        with self.transaction() as conn:
            self.item(name)  # raises if missing
            if "name" in changes and conn.execute("SELECT 1 FROM items WHERE name = ?", (changes["name"],)).fetchone():
                raise ProjectError(
                    f"Cannot rename item {name!r} to {changes['name']!r}: the project {self.path} "
                    f"already has an item with that name. Choose another name."
                )
            dataset_id = self._mapping_dataset_id(dataset)
            if mapping and dataset_id is None:  # no data yet: the latest mapping, offered to the first import
                for key, value in mapping.items():
                    if key in ("codes", "group_codes"):
                        changes[key] = encode_codes(value, f"the {key.replace('_', ' ')}")
                    elif key != "missing_codes":  # (kept per dataset only)
                        changes["column_name" if key == "column" else key] = value
            if changes:
                changes["modified_at"] = _now()
                assignments = ", ".join(f"{k} = ?" for k in changes)
                conn.execute(f"UPDATE items SET {assignments} WHERE name = ?", (*changes.values(), name))
            name = changes.get("name", name)
            if mapping and dataset_id is not None:
                item = self.item(name, self._dataset_name(dataset_id))
                merged = {k: mapping.get(k, getattr(item, k)) for k in MAPPING_FIELDS}
                if merged["column"] and merged["codes"] is not None:
                    self._write_mapping(conn, item.id, dataset_id, merged)
                else:
                    conn.execute("DELETE FROM item_mappings WHERE item_id = ? AND dataset_id = ?", (item.id, dataset_id))
            return self.item(name, dataset)

    def remove_item(self, name: str) -> None:
        """Remove an item. Its saved analyses stay, marked with the item's name."""
        with self.transaction() as conn:
            if conn.execute("DELETE FROM items WHERE name = ?", (name,)).rowcount == 0:
                raise self._missing("item", name, "SELECT name FROM items ORDER BY id")

    # ------------------------------------------------------------------ datasets
    def add_dataset(
        self,
        name: str,
        frame: Any,
        source: dict[str, Any] | None = None,
        options: dict[str, Any] | None = None,
        report: Any = None,
    ) -> int:
        """Store an imported data frame as a table of the project; returns the dataset id.

        ``source`` is ``{"name": file name, "sha256": hex digest, "size": bytes}``;
        ``options`` the import options and ``report`` the import report (JSON-able).
        """
        check_name(name, "dataset")
        source = plain_dict(source, "A dataset's source")
        with self.transaction() as conn:
            if conn.execute("SELECT 1 FROM datasets WHERE name = ?", (name,)).fetchone():
                raise ProjectError(
                    f"The project {self.path} already has a dataset named {name!r}. "
                    f"Choose another name, or remove the existing dataset first."
                )
            cur = conn.execute(
                "INSERT INTO datasets(name, table_name, n_rows, source_name, source_sha256, source_size,"
                " options, report, imported_at, app_version) VALUES (?, '', 0, ?, ?, ?, ?, ?, ?, ?)",
                (
                    name,
                    _text_or_none(source.get("name")),
                    source.get("sha256"),
                    source.get("size"),
                    dumps(options or {}, "the import options"),
                    dumps(report if report is not None else {}, "the import report"),
                    _now(),
                    __version__,
                ),
            )
            dataset_id = cur.lastrowid
            table, n_rows = datasets.write_frame(conn, dataset_id, frame)
            conn.execute("UPDATE datasets SET table_name = ?, n_rows = ? WHERE id = ?", (table, n_rows, dataset_id))
            write_file_labels(conn, dataset_id, report.to_dict() if hasattr(report, "to_dict") else report)
            return dataset_id

    def datasets(self) -> list[Dataset]:
        """The imported datasets (without their rows), in import order."""
        out = []
        for r in self._read("SELECT * FROM datasets ORDER BY id"):
            columns = self._read(
                "SELECT name, dtype FROM dataset_columns WHERE dataset_id = ? AND position >= 0 ORDER BY position",
                (r["id"],),
            )
            out.append(
                Dataset(
                    id=r["id"],
                    name=r["name"],
                    table=r["table_name"],
                    n_rows=r["n_rows"],
                    columns=[c["name"] for c in columns],
                    dtypes={c["name"]: c["dtype"] for c in columns},
                    source={"name": r["source_name"], "sha256": r["source_sha256"], "size": r["source_size"]},
                    options=loads(r["options"]),
                    report=loads(r["report"]),
                    imported_at=r["imported_at"],
                    app_version=r["app_version"],
                )
            )
        return out

    def dataset_frame(self, name: str) -> Any:
        """The dataset's rows as a pandas DataFrame (names, dtypes and categories restored)."""
        with self._mutex:
            row = self._dataset_row(name)
            try:
                return datasets.read_frame(self.connection, row["id"])
            except sqlite3.Error as exc:
                raise database.project_error(self.path, exc, self.connection) from exc

    def remove_dataset(self, name: str) -> None:
        """Remove a dataset and its table."""
        with self.transaction() as conn:
            row = self._dataset_row(name)
            conn.execute("DELETE FROM datasets WHERE id = ?", (row["id"],))
            datasets.drop_frame(conn, row["table_name"])

    def _dataset_row(self, name: str) -> sqlite3.Row:
        rows = self._read("SELECT id, table_name FROM datasets WHERE name = ?", (name,))
        if not rows:
            raise self._missing("dataset", name, "SELECT name FROM datasets ORDER BY id")
        return rows[0]

    # ------------------------------------------------------------------ analyses
    def save_analysis(self, item: str | None, options: Any, results: Any) -> int:
        """Record an analysis of ``item`` (an item name, or None) with its options and results."""
        with self.transaction() as conn:
            item_id = None
            if item is not None:
                item_id = self.item(item).id
            cur = conn.execute(
                "INSERT INTO analyses(item_id, item_name, options, results, created_at, app_version)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (item_id, item, dumps(options, "the analysis options"), dumps(results, "the analysis results"),
                 _now(), __version__),
            )
            return cur.lastrowid

    def analyses(self, item: str | None = None) -> list[Analysis]:
        """Saved analyses, oldest first; of one item (by its current name) when ``item`` is given."""
        if item is None:
            rows = self._read("SELECT * FROM analyses ORDER BY id")
        else:
            found = self._read("SELECT id FROM items WHERE name = ?", (item,))
            if found:
                rows = self._read("SELECT * FROM analyses WHERE item_id = ? ORDER BY id", (found[0]["id"],))
            else:  # a removed item: its analyses keep the name
                rows = self._read("SELECT * FROM analyses WHERE item_id IS NULL AND item_name = ? ORDER BY id", (item,))
        names = {r["id"]: r["name"] for r in self._read("SELECT id, name FROM items")}
        return [
            Analysis(
                id=r["id"],
                item=names.get(r["item_id"], r["item_name"]),
                options=loads(r["options"]),
                results=loads(r["results"]),
                created_at=r["created_at"],
                app_version=r["app_version"],
            )
            for r in rows
        ]

    # ------------------------------------------------------------------ ledger (read only)
    def ledger_rows(self, *, decode: bool = True) -> list[dict[str, Any]]:
        """The release ledger, in order. ``decode=False`` keeps the JSON columns as stored text."""
        rows = self._read("SELECT * FROM releases ORDER BY seq")
        json_columns = ("request", "noise_params", "cost", "result")
        out = []
        for r in rows:
            row = dict(r)
            if decode:
                for c in json_columns:
                    row[c] = loads(row[c])
            out.append(row)
        return out

    def budget_rows(self) -> list[dict[str, Any]]:
        """Every budget ever set, oldest first (the last one per dataset is in force)."""
        return [dict(r) for r in self._read("SELECT * FROM budget ORDER BY id")]

    # ------------------------------------------------------------------ helpers
    def _missing(self, what: str, name: str, names_sql: str) -> ProjectError:
        names = [r[0] for r in self._read(names_sql)]
        known = ", ".join(map(repr, names[:10])) + (", ..." if len(names) > 10 else "") if names else "none"
        return NotFound(f"The project {self.path} has no {what} named {name!r} (it has: {known}).")


class NotFound(ProjectError, KeyError):
    """An item or dataset name that is not in the project."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


def _text_or_none(value: Any) -> str | None:
    return None if value is None else str(value)
