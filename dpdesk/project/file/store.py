"""The ``.dpdesk`` project file: one SQLite database holding a whole survey project.

>>> with Project.create("drugs.dpdesk") as project:          # doctest: +SKIP
...     project.add_item("cannabis", rr.design("warner", p=0.7), column="q7")
...     project.add_dataset("wave 1", frame, source={"name": "w1.csv", "sha256": h, "size": n})

Safety rules (DESIGN.md, idea 7):

- Every change is one SQLite transaction (WAL journal, ``synchronous=FULL``), so a crash
  or a kill at any moment leaves the last committed state. Group changes with
  ``with project.transaction():``.
- A file is checked read-only before anything is written to it: not a regular file, not
  SQLite, damaged, not a dpdesk project, written by a newer dpdesk, or with a schema that
  is not dpdesk's (:mod:`~dpdesk.project.file.schema_check`: a file from someone else is
  data, never code) gives a :class:`ProjectError` and the file stays untouched. Older
  files are copied to ``<file>.v<k>.bak`` and migrated in one transaction.
- Every connection is hardened and bounds each statement (:mod:`.database`); an SQLite
  error while reading becomes a :class:`ProjectError` that says what to do.
- ``read_only=True`` opens a file only to read it (``dpdesk ledger``, ``dpdesk budget``):
  no lock, no journal switch, and an older file is upgraded in a copy in memory, never on
  disk; the file stays byte for byte the same. A read-write open leaves a rollback-journal
  file in that mode until dpdesk writes to it.
- One opener at a time (:mod:`dpdesk.project.file.lock`), unless ``shared=True``: then
  only SQLite's own locking applies (``BEGIN IMMEDIATE`` and a busy timeout), for
  several processes writing the same file.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any, Iterator

from dpdesk import __version__
from dpdesk.errors import ProjectError
from dpdesk.project.file import database, datasets, schema, schema_check, validate
from dpdesk.project.file.lock import ProjectLock, lock_path
from dpdesk.project.items import (
    Analysis,
    Dataset,
    Item,
    check_name,
    design_record,
    dumps,
    encode_codes,
    loads,
    plain_dict,
)

_UNSET: Any = object()
# Processes may share a file, one process may not open it twice (the lock says so, but
# this gives the clearer message when the second open comes from the same process).
_OPEN_HERE: set[str] = set()
_OPEN_HERE_LOCK = threading.Lock()


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Project:
    """An open project file. Make one with :meth:`create` or :meth:`open`; :meth:`close` it."""

    def __init__(self, path: Path, conn: sqlite3.Connection, lock: ProjectLock | None, *, read_only: bool = False):
        self.path = path
        self._conn: sqlite3.Connection | None = conn
        self._lock = lock
        #: True when opened with ``read_only=True``: every change raises ProjectError.
        self.read_only = read_only
        self._wal = database.is_wal(conn)
        self._mutex = threading.RLock()
        self._depth = 0
        self._key: str | None = None
        #: Path of the copy made before migrating an older file, else None.
        self.backup_path: Path | None = None
        #: the ledger's last check (:func:`dpdesk.project.ledger.verify_ledger` sets it)
        self.ledger_check = None

    # ------------------------------------------------------------------ open / close
    @classmethod
    def create(cls, path: str | os.PathLike, *, shared: bool = False) -> "Project":
        """Create a new, empty project at ``path`` (never overwrites an existing file)."""
        path = Path(path).absolute()
        if path.exists():
            raise ProjectError(
                f"Cannot create the project {path}: a file with that name already exists. "
                f"Choose another name, or open the existing file."
            )
        if not path.parent.is_dir():
            raise ProjectError(f"Cannot create the project {path}: the folder {path.parent} does not exist.")
        database.create_project(path, lambda conn: schema.create_schema(conn, __version__, _now()))
        return cls.open(path, shared=shared)

    @classmethod
    def open(cls, path: str | os.PathLike, *, shared: bool = False, read_only: bool = False) -> "Project":
        """Open an existing project (migrating an older one; refusing a bad or newer one).

        With ``shared=True`` several processes may open the file at once; each change
        still is one transaction, serialised by SQLite (``BEGIN IMMEDIATE``). With
        ``read_only=True`` the file is only read (no lock, no migration; changes raise
        :class:`ProjectError`), so a received file can be inspected without touching it.
        """
        path = Path(path).absolute()
        validate.require_regular_file(path)  # a pipe, folder, device or link loop: before anything else
        path = path.resolve()
        if read_only:
            return cls._open_read_only(path)
        key = str(path)
        lock = None
        if not shared:
            with _OPEN_HERE_LOCK:
                if key in _OPEN_HERE:
                    raise ProjectError(
                        f"The project {path} is already open in this program. Use the open "
                        f"project, or close it before opening it again."
                    )
                _OPEN_HERE.add(key)
        try:
            if not shared:
                lock = ProjectLock(path)
                lock.acquire(path)
            if os.path.lexists(f"{path}-journal"):
                database.recover(path)  # a crash while writing in rollback-journal mode
            version = validate.check_file(path, immutable_ok=not shared)
            backup = None
            if version < schema.SCHEMA_VERSION:
                backup = database.backup_before_migrating(path, version)
            conn = database.connect(path)
            try:
                cls._recheck(conn, path)
                if version < schema.SCHEMA_VERSION:
                    database.migrate(conn, path, __version__)
                    database.use_wal(conn)
            except BaseException:
                conn.close()
                raise
        except BaseException:
            if lock is not None:
                lock.release()
            if not shared:
                with _OPEN_HERE_LOCK:
                    _OPEN_HERE.discard(key)
            raise
        project = cls(path, conn, lock)
        project._key = key if not shared else None
        project.backup_path = backup
        return project

    @classmethod
    def _open_read_only(cls, path: Path) -> "Project":
        # immutable (no locks, no -wal/-shm side files) only for a WAL file nobody has open;
        # a rollback-journal file is read with ordinary shared locks, which make no files
        immutable = validate.quiet_wal(path) and not lock_path(path).exists()
        conn, version = validate.open_checked(path, immutable=immutable)
        if version < schema.SCHEMA_VERSION:  # read what the app would read, without touching the file
            conn = database.migrated_copy(conn, path, version)
        conn.execute("PRAGMA query_only = ON")
        return cls(path, conn, None, read_only=True)

    @staticmethod
    def _recheck(conn: sqlite3.Connection, path: Path) -> None:
        """The schema check again, through the connection that will be used (cheap: no row is read)."""
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            schema_check.check(conn, path, version)
        except sqlite3.Error as exc:
            raise database.project_error(path, exc, conn) from exc

    def close(self) -> None:
        """Close the file (uncommitted changes of an unfinished transaction are dropped)."""
        with self._mutex:
            conn, self._conn = self._conn, None
            if conn is None:
                return
            try:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
            finally:
                conn.close()
                if self._lock is not None:
                    self._lock.release()
                if getattr(self, "_key", None):
                    with _OPEN_HERE_LOCK:
                        _OPEN_HERE.discard(self._key)

    def __del__(self) -> None:  # a project dropped without close() must not stay locked
        try:
            if getattr(self, "_conn", None) is not None:
                self.close()
        except Exception:  # noqa: BLE001 - never raise from a finalizer (e.g. at interpreter exit)
            pass

    @property
    def closed(self) -> bool:
        return self._conn is None

    def __enter__(self) -> "Project":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return f"<Project {str(self.path)!r} ({state})>"

    # ------------------------------------------------------------------ transactions
    @property
    def connection(self) -> sqlite3.Connection:
        """The SQLite connection, for modules that add their own SQL (the release ledger).

        Write only inside ``with project.transaction():``.
        """
        if self._conn is None:
            raise ProjectError(f"The project {self.path} is closed; open it again with Project.open.")
        return self._conn

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """All changes in the block are committed together, or none is (nested blocks are savepoints)."""
        with self._mutex:
            conn = self.connection
            if self._depth == 0:
                # a read-only project reads one consistent snapshot (a deferred transaction)
                database.execute(conn, "BEGIN" if self.read_only else "BEGIN IMMEDIATE", self.path)
                savepoint = None
                changes = conn.total_changes
            else:
                savepoint = f"sp{self._depth}"
                conn.execute(f"SAVEPOINT {savepoint}")
            self._depth += 1
            try:
                yield conn
            except BaseException as exc:
                self._depth -= 1
                if savepoint is None:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    if isinstance(exc, sqlite3.Error) and not isinstance(exc, sqlite3.IntegrityError):
                        raise database.project_error(self.path, exc, conn) from exc
                else:
                    conn.execute(f"ROLLBACK TO {savepoint}")
                    conn.execute(f"RELEASE {savepoint}")
                raise
            self._depth -= 1
            if savepoint is None:
                try:
                    database.execute(conn, "COMMIT", self.path)
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
                if not self._wal and conn.total_changes != changes:
                    self._wal = database.use_wal(conn)  # a rollback-journal file, now written by dpdesk
            else:
                conn.execute(f"RELEASE {savepoint}")

    def _read(self, sql: str, params: tuple = ()) -> list[sqlite3.Row]:
        with self._mutex:
            conn = self.connection
            try:
                return conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise database.project_error(self.path, exc, conn) from exc

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
    ) -> int:
        """Add a survey item; returns its id. Names are unique within a project.

        ``codes`` maps data values to responses (any JSON-able mapping; key types are kept),
        ``group_codes`` maps the ``group_column``'s values to the groups of a two-group design;
        ``instructions`` keeps the respondent instructions as edited (default: the design's).
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
            return cur.lastrowid

    def items(self) -> list[Item]:
        """All survey items, in the order they were added."""
        return [Item.from_row(r) for r in self._read("SELECT * FROM items ORDER BY id")]

    def item(self, name: str) -> Item:
        """The item called ``name`` (:class:`ProjectError`, also a KeyError, if there is none)."""
        rows = self._read("SELECT * FROM items WHERE name = ?", (name,))
        if not rows:
            raise self._missing("item", name, "SELECT name FROM items ORDER BY id")
        return Item.from_row(rows[0])

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
    ) -> Item:
        """Change the given fields of item ``name`` (pass ``None`` to clear one); returns it."""
        changes: dict[str, Any] = {}
        if new_name is not _UNSET and new_name != name:
            changes["name"] = check_name(new_name, "survey item")
        if design is not _UNSET:
            record = design_record(design)
            changes["design_name"] = record["name"]
            changes["design_params"] = dumps(record.get("params") or {}, "the design parameters")
            changes["design_description"] = record.get("description") or ""
            changes["design"] = dumps(record, "the design")
        if column is not _UNSET:
            changes["column_name"] = column
        if codes is not _UNSET:
            changes["codes"] = encode_codes(codes)
        if group_column is not _UNSET:
            changes["group_column"] = group_column
        if question is not _UNSET:
            changes["question"] = question or ""
        if group_codes is not _UNSET:
            changes["group_codes"] = encode_codes(group_codes, "the group codes")
        if instructions is not _UNSET:
            changes["instructions"] = instructions or ""
        with self.transaction() as conn:
            self.item(name)  # raises if missing
            if "name" in changes and conn.execute("SELECT 1 FROM items WHERE name = ?", (changes["name"],)).fetchone():
                raise ProjectError(
                    f"Cannot rename item {name!r} to {changes['name']!r}: the project {self.path} "
                    f"already has an item with that name. Choose another name."
                )
            if changes:
                changes["modified_at"] = _now()
                assignments = ", ".join(f"{k} = ?" for k in changes)
                conn.execute(f"UPDATE items SET {assignments} WHERE name = ?", (*changes.values(), name))
            return self.item(changes.get("name", name))

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

    # ------------------------------------------------------------------ copies
    def backup_to(self, path: str | os.PathLike) -> Path:
        """Write a consistent copy of the project to ``path`` atomically (SQLite backup API)."""
        target = Path(path).absolute()
        if target == self.path:
            raise ProjectError(f"Cannot copy the project {self.path} onto itself. Choose another file name.")
        if not target.parent.is_dir():
            raise ProjectError(f"Cannot save to {target}: the folder {target.parent} does not exist.")
        lock = None if self._lock is None else ProjectLock(target)
        if lock is not None:
            lock.acquire(target)  # never replace a project that is open somewhere
        try:
            self._copy_to(target)
        finally:
            if lock is not None:
                lock.release()
        return target

    def _copy_to(self, target: Path) -> None:
        with self._mutex:
            database.copy_atomically(self.connection, target)

    def save_as(self, new_path: str | os.PathLike) -> None:
        """"Save As": copy the project to ``new_path`` atomically and go on working there.

        An existing file at ``new_path`` is replaced (ask the user first), unless it is
        open somewhere, which is refused.
        """
        target = Path(new_path).absolute()
        if target.parent.is_dir():
            target = target.parent.resolve() / target.name
        if target == self.path:
            return
        if self._depth:
            raise ProjectError("Finish the current transaction before 'Save As'.")
        if self.read_only:
            raise ProjectError(f"The project {self.path} is open read-only. Open it for editing to "
                               f"go on working on a copy, or use a backup copy (backup_to).")
        shared = self._lock is None
        new_lock = None
        if not shared:
            with _OPEN_HERE_LOCK:
                if str(target) in _OPEN_HERE:
                    raise ProjectError(f"Cannot save as {target}: that project is open in this program. Close it first.")
            new_lock = ProjectLock(target)
            new_lock.acquire(target)
        try:
            if not target.parent.is_dir():
                raise ProjectError(f"Cannot save to {target}: the folder {target.parent} does not exist.")
            self._copy_to(target)
            conn = database.connect(target)
        except BaseException:
            if new_lock is not None:
                new_lock.release()
            raise
        self.close()
        self.path, self._conn, self._lock = target, conn, new_lock
        if not shared:
            self._key = str(target)
            with _OPEN_HERE_LOCK:
                _OPEN_HERE.add(self._key)

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
