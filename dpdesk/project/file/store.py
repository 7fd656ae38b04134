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
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any, Iterator

from dpdesk import __version__
from dpdesk.errors import ProjectError
from dpdesk.project.file import database, schema, schema_check, validate
from dpdesk.project.file.contents import NotFound, ProjectContents, _now  # noqa: F401 - NotFound stays importable here
from dpdesk.project.file.lock import ProjectLock, lock_path

# Processes may share a file, one process may not open it twice (the lock says so, but
# this gives the clearer message when the second open comes from the same process).
_OPEN_HERE: set[str] = set()
_OPEN_HERE_LOCK = threading.Lock()


class Project(ProjectContents):
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
            if database.hot_journal(path) is not None and not shared:
                raise database.HotJournalError(path)  # never changed on open: recover_copy() works on a copy
            if os.path.lexists(f"{path}-journal"):
                database.recover(path)  # shared: a dpdesk writer of the same file stopped while writing
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

    @staticmethod
    def recover_copy(path: str | os.PathLike, target: str | os.PathLike) -> Path:
        """Copy a project and its hot rollback journal to ``target`` and roll the copy back there.

        The original and its journal are left byte for byte as they are. Returns the copy's path
        (open it with :meth:`open`). Refused if ``target`` (or its journal) exists.
        """
        import shutil

        source, target = Path(path).absolute(), Path(target).absolute()
        journal = database.hot_journal(source)
        if journal is None:
            raise ProjectError(f"The project {source} has no unfinished change beside it: open it as usual.")
        if target.exists() or os.path.lexists(f"{target}-journal") or target == source:
            raise ProjectError(f"Cannot recover into {target}: a file with that name already exists. Choose a new "
                               "name.")
        if not target.parent.is_dir():
            raise ProjectError(f"Cannot recover into {target}: the folder {target.parent} does not exist.")
        try:
            shutil.copyfile(journal, f"{target}-journal")
            shutil.copyfile(source, target)
        except OSError as exc:
            for leftover in (target, Path(f"{target}-journal")):
                with contextlib.suppress(OSError):
                    leftover.unlink()
            raise ProjectError(f"Could not copy {source.name} and its journal to {target} "
                               f"({exc.strerror or exc}). Choose a folder you can write to.") from exc
        database.recover(target)  # SQLite rolls the copy back with the copied journal
        return target

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
