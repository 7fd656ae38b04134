"""Low-level SQLite file work for projects: connect, migrate, create and copy atomically.

Every connection is hardened as SQLite's authors advise for database files from elsewhere
("Defense Against the Dark Arts", sqlite.org/security.html): ``trusted_schema=OFF``
(defensive mode too where Python exposes it), ``cell_size_check=ON``, no memory-mapped
I/O, no ATTACH, no extension loading, and a progress handler that aborts any statement
running past :data:`STATEMENT_INSTRUCTIONS` virtual-machine steps, reported as a damaged or
hostile file (:func:`project_error`). The schema itself is checked by
:mod:`dpdesk.project.file.schema_check` before any user table is read.

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
#: The most virtual-machine instructions one statement (one ``execute`` or ``executemany``
#: call, through its last row) may run. Storing or reading a million rows of 12 columns
#: takes about 20 million, their integrity check 12 million; the bound is 25 times that
#: (some 5 to 25 seconds of SQLite work), so only a damaged or hostile file reaches it.
STATEMENT_INSTRUCTIONS = 500_000_000
#: The progress handler runs every this many instructions.
PROGRESS_STEP = 50_000


class GuardedConnection(sqlite3.Connection):
    """A connection whose statements each get ``limit`` instructions at most (a progress handler)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.steps = 0
        self.tripped = False
        self.limit = STATEMENT_INSTRUCTIONS
        self.set_progress_handler(self._progress, PROGRESS_STEP)

    def _progress(self) -> int:
        self.steps += PROGRESS_STEP
        if self.steps > self.limit:
            self.tripped = True
            return 1  # SQLite aborts the statement: OperationalError("interrupted")
        return 0

    def start_statement(self) -> None:
        """A new statement begins: its instructions are counted from zero."""
        self.steps = 0
        self.tripped = False

    def execute(self, *args, **kwargs):
        self.start_statement()
        return super().execute(*args, **kwargs)

    def executemany(self, *args, **kwargs):
        self.start_statement()
        return super().executemany(*args, **kwargs)

    def executescript(self, *args, **kwargs):
        self.start_statement()
        return super().executescript(*args, **kwargs)

    def cursor(self, factory=None):
        return super().cursor(factory or GuardedCursor)


class GuardedCursor(sqlite3.Cursor):
    """A cursor of a :class:`GuardedConnection`: each ``execute`` starts a new count."""

    def execute(self, *args, **kwargs):
        self.connection.start_statement()
        return super().execute(*args, **kwargs)

    def executemany(self, *args, **kwargs):
        self.connection.start_statement()
        return super().executemany(*args, **kwargs)


def harden(conn: sqlite3.Connection) -> None:
    """Apply the hardening of the module docstring to ``conn`` (before it reads anything)."""
    setconfig = getattr(conn, "setconfig", None)  # Python >= 3.12
    if setconfig is not None:
        for name, on in (("SQLITE_DBCONFIG_DEFENSIVE", True), ("SQLITE_DBCONFIG_TRUSTED_SCHEMA", False)):
            if hasattr(sqlite3, name):
                setconfig(getattr(sqlite3, name), on)
    setlimit = getattr(conn, "setlimit", None)  # Python >= 3.11
    if setlimit is not None:
        setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
        setlimit(sqlite3.SQLITE_LIMIT_TRIGGER_DEPTH, 10)  # dpdesk's own triggers never nest
    with contextlib.suppress(AttributeError, sqlite3.Error):  # builds without extension support
        conn.enable_load_extension(False)
    conn.execute("PRAGMA trusted_schema = OFF")
    conn.execute("PRAGMA cell_size_check = ON")
    conn.execute("PRAGMA mmap_size = 0")


def _open(target: str, *, uri: bool = False) -> sqlite3.Connection:
    conn = sqlite3.connect(target, uri=uri, isolation_level=None, check_same_thread=False,
                           timeout=BUSY_TIMEOUT_MS / 1000, factory=GuardedConnection)
    try:
        harden(conn)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    except BaseException:
        conn.close()
        raise
    conn.row_factory = sqlite3.Row
    return conn


def connect(path: Path) -> sqlite3.Connection:
    """A hardened read-write connection: synchronous=FULL, foreign keys, busy timeout.

    The journal mode is left as the file has it: a project dpdesk made is in WAL mode, and
    one in rollback-journal mode (from elsewhere) is switched to WAL by :func:`use_wal` only
    after dpdesk first writes to it, so opening and reading never change the file.
    """
    try:
        conn = _open(str(path))
    except sqlite3.Error as exc:
        raise ProjectError(f"Cannot open the project {path}: {exc}. Check the file and its permissions.") from exc
    try:
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


def connect_read_only(path: Path, *, immutable: bool = False) -> sqlite3.Connection:
    """A hardened connection that cannot write (``mode=ro``), or ProjectError.

    ``immutable=True`` also takes no locks and makes no ``-wal``/``-shm`` side files; use it
    only when no other program is writing the file.
    """
    query = "mode=ro&immutable=1" if immutable else "mode=ro"
    try:
        return _open(f"{path.as_uri()}?{query}", uri=True)
    except sqlite3.Error as exc:
        raise project_error(path, exc) from exc


def migrated_copy(conn: sqlite3.Connection, path: Path, version: int) -> sqlite3.Connection:
    """An in-memory copy of the (checked) file behind ``conn``, upgraded to the current format.

    Closes ``conn``. A read-only open of an older file reads this copy, so it shows what the
    app shows after upgrading, and the file itself is never written.
    """
    try:
        memory = _open(":memory:")
        try:
            conn.backup(memory)
            memory.execute("BEGIN")
            schema.migrate(memory, version)
            memory.execute("COMMIT")
        except BaseException:
            memory.close()
            raise
    except sqlite3.Error as exc:
        raise ProjectError(f"Could not read the older project {path} in the current file format: {exc}. "
                           f"The file is unchanged; report this with a copy of the file.") from exc
    finally:
        conn.close()
    return memory


_JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")


def hot_journal(path: Path) -> Path | None:
    """The rollback journal beside ``path`` if it holds an unfinished change (SQLite would roll the
    file back with it on the next read-write open), else None. Read only: nothing is opened as SQLite."""
    journal = Path(f"{path}-journal")
    try:
        with open(journal, "rb") as f:
            return journal if f.read(len(_JOURNAL_MAGIC)) == _JOURNAL_MAGIC else None
    except OSError:
        return None


def recover(path: Path) -> None:
    """Let SQLite roll back a hot ``-journal`` (a write interrupted by a crash) before the file is checked.

    Only the rollback is done: page images from the journal are put back, no SQL of the
    file runs (no statement is prepared against its schema).
    """
    try:
        conn = sqlite3.connect(str(path), isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            conn.execute("PRAGMA user_version").fetchone()  # the first read rolls a hot journal back
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise project_error(path, exc) from exc


def is_wal(conn: sqlite3.Connection) -> bool:
    """Whether the connection's file is in WAL mode (reading the mode changes nothing)."""
    return str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal"


def use_wal(conn: sqlite3.Connection) -> bool:
    """Switch a read-write connection's file to WAL (outside a transaction); whether it is WAL now.

    A file whose journal cannot be switched (another connection reading, a file system
    without shared memory) stays in its rollback journal, which is just as safe, only less
    concurrent; the switch is tried again after the next write.
    """
    try:
        conn.execute("PRAGMA busy_timeout = 100")  # never keep the caller waiting for a reader
        return str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]).lower() == "wal"
    except sqlite3.OperationalError:
        return False
    finally:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")


class HotJournalError(ProjectError):
    """The file has a hot rollback journal beside it: opening it for writing would change it."""

    def __init__(self, path: Path):
        self.path = Path(path)
        super().__init__(
            f"The project {path} was left, or sent, with an unfinished change beside it (the file "
            f"{self.path.name}-journal): opening it for editing would let SQLite roll the file back with that "
            f"journal, changing a file that came from elsewhere. dpdesk left both files untouched. Recover into "
            f"a copy (the file and its journal are copied to a new name, and the copy is rolled back and opened): "
            f"dpdesk recover \"{path}\" COPY.dpdesk, or in the app: Recover into a copy….")


def project_error(path: Path, exc: sqlite3.Error, conn: sqlite3.Connection | None = None) -> ProjectError:
    """A clear :class:`ProjectError` for an SQLite error met while using the project ``path``."""
    text = str(exc)
    if getattr(conn, "tripped", False) or text == "interrupted":
        return ProjectError(
            f"The project file {path} made dpdesk run a statement past its bound of "
            f"{STATEMENT_INSTRUCTIONS:,} steps, so it was stopped: the file is damaged, or was "
            f"made to hang or overload whoever opens it. Nothing was changed. Restore the file "
            f"from a backup, or ask its sender for the original."
        )
    if "locked" in text or "busy" in text:
        return ProjectError(
            f"The project {path} is busy: another program kept it locked for "
            f"{BUSY_TIMEOUT_MS // 1000} s. Try again when it has finished."
        )
    if ("readonly" in text or "read-only" in text) and os.path.lexists(f"{path}-journal"):
        return HotJournalError(path)
    if "readonly" in text or "read-only" in text:
        return ProjectError(
            f"The project {path} is open read-only (or its file or folder is not writable), so "
            f"nothing can be changed ({text}). Open it for editing, or copy it to a folder of yours."
        )
    return ProjectError(
        f"The project file {path} could not be read ({text}): it is damaged or was changed "
        f"outside dpdesk. It was left unchanged; restore it from a backup copy."
    )


def execute(conn: sqlite3.Connection, sql: str, path: Path) -> None:
    """Run ``sql`` (BEGIN, COMMIT), turning an SQLite error into a clear ProjectError."""
    try:
        conn.execute(sql)
    except sqlite3.Error as exc:
        raise project_error(path, exc, conn) from exc


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
    src = connect_read_only(path)
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
