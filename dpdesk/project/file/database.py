"""Low-level SQLite file work for projects: connect, migrate, create and copy atomically.

New files and copies are built under a temporary name in the target folder, flushed
to disk (``fsync``), then put in place in one step (``link`` for a new file, so an
existing one is never overwritten; ``os.replace`` for "Save As").
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
from pathlib import Path
from typing import Callable

from dpdesk.errors import ProjectError
from dpdesk.project.file import schema

#: How long a write waits for another process's transaction before giving up.
BUSY_TIMEOUT_MS = 30_000


def connect(path: Path) -> sqlite3.Connection:
    """A read-write connection with the project pragmas: WAL journal, synchronous=FULL, foreign keys."""
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000)
    conn.row_factory = sqlite3.Row
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if conn.execute("PRAGMA journal_mode = WAL").fetchone()[0].lower() != "wal":
            raise ProjectError(f"Cannot use the project {path}: its journal cannot be switched to WAL mode.")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
    except sqlite3.Error as exc:
        conn.close()
        raise ProjectError(
            f"Cannot open the project {path}: {exc}. Check that the file and its folder are writable."
        ) from exc
    except BaseException:
        conn.close()
        raise
    return conn


def execute(conn: sqlite3.Connection, sql: str, path: Path) -> None:
    """Run ``sql`` (BEGIN, COMMIT), turning "database is locked" into a clear ProjectError."""
    try:
        conn.execute(sql)
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise ProjectError(
                f"The project {path} is busy: another program kept it locked for "
                f"{BUSY_TIMEOUT_MS // 1000} s. Try again when it has finished."
            ) from exc
        raise


def migrate(conn: sqlite3.Connection, path: Path, app_version: str) -> None:
    """Run the migrations in one transaction (re-reading the version: another process may have won)."""
    try:
        conn.execute("BEGIN IMMEDIATE")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version < schema.SCHEMA_VERSION:
            schema.migrate(conn, version)
            conn.execute(
                "INSERT OR REPLACE INTO app(key, value) VALUES ('migrated_by', ?)", (f"dpdesk {app_version}",)
            )
        conn.execute("COMMIT")
    except BaseException as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise ProjectError(
                f"Could not upgrade the project {path} to the current file format: {exc}. "
                f"The file is unchanged; report this with a copy of the file."
            ) from exc
        raise


def backup_before_migrating(path: Path, version: int) -> Path:
    """Copy an old-version file to ``<file>.v<version>.bak`` (a free name) before migrating it."""
    target = path.with_name(f"{path.name}.v{version}.bak")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.v{version}.{n}.bak")
    src = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(str(target))
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()
    fsync(target)
    return target


def create_project(path: Path, build: Callable[[sqlite3.Connection], None]) -> None:
    """Make a new file at ``path`` with ``build(conn)`` run in one transaction; never overwrites."""
    tmp = _temp_name(path)
    try:
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("BEGIN IMMEDIATE")
            build(conn)
            conn.execute("COMMIT")
        finally:
            conn.close()
        fsync(tmp)
        try:
            os.link(tmp, path)  # fails, atomically, if the name was taken meanwhile
        except FileExistsError:
            raise ProjectError(f"Cannot create the project {path}: a file with that name already exists.") from None
        except OSError:  # file systems without hard links
            if path.exists():
                raise ProjectError(f"Cannot create the project {path}: a file with that name already exists.") from None
            os.replace(tmp, path)
        fsync_dir(path.parent)
    finally:
        _remove(tmp)


def copy_atomically(src: sqlite3.Connection, target: Path) -> None:
    """A consistent copy of ``src`` (SQLite backup API) to a temporary file, then ``os.replace``."""
    tmp = _temp_name(target)
    try:
        dst = sqlite3.connect(tmp, isolation_level=None)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode = WAL")
        finally:
            dst.close()
        fsync(tmp)
        for stale in (f"{target}-wal", f"{target}-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(stale)  # an old file's journal must never be applied to the copy
        os.replace(tmp, target)
        fsync_dir(target.parent)
    finally:
        _remove(tmp)


def _temp_name(path: Path) -> str:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    os.unlink(tmp)  # SQLite makes the file; mkstemp only chose a free name
    return tmp


def _remove(tmp: str) -> None:
    for leftover in (tmp, tmp + "-wal", tmp + "-shm", tmp + "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(leftover)


def fsync(path: str | Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not possible on every platform
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
