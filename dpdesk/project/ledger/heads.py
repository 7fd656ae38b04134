"""The ledger heads this computer has seen, outside every project file.

A copy of a project restored from an older backup carries an older but self-consistent
ledger; nothing inside the file can tell. So each project's latest head (project id,
number of releases, hash of the last one, its seal) is remembered in
``<user data folder>/ledger/heads.sqlite`` (folder 0700, file 0600). A file whose ledger is
behind that head, or differs from it, has been rolled back or forked:
:func:`dpdesk.project.ledger.chain.check` says so and releases stop until the researcher
confirms (:func:`dpdesk.project.ledger.rewind.accept_rollback`).

Beside that row per project id (``heads``), the register keeps the histories themselves
(:mod:`dpdesk.project.ledger.history`): every release hash this computer sealed or saw, the
budget rows of every state it sealed, the lowest budget sealed per budget history, and the
data each sealed state was released from, so a history is recognised whatever id the file
now carries.

The registry is written only after a release commits (so it is never ahead of the file),
only forward (a slower process cannot lower it), and by SQLite transactions, so several
dpdesk processes may update it at once. Failing to update it never undoes a release.
"""

from __future__ import annotations

import datetime as _dt
import os
import secrets
import sqlite3
import stat
from dataclasses import dataclass, field
from pathlib import Path

from dpdesk.errors import BudgetError, ProjectError
from dpdesk.project.ledger import history
from dpdesk.project.ledger.key import ledger_folder

__all__ = ["Head", "LedgerRolledBackError", "last_seen", "remember", "reset", "registry_path"]

FILE = "heads.sqlite"
_DDL = """CREATE TABLE IF NOT EXISTS heads (
    project_id TEXT PRIMARY KEY,
    seq        INTEGER NOT NULL,
    head       TEXT NOT NULL,
    sealed     INTEGER NOT NULL,
    key_id     TEXT,
    mac        TEXT,
    path       TEXT NOT NULL,
    time       TEXT NOT NULL
)"""
#: every key id this computer sealed with (so a lost key's seals are recognised as this computer's own)
_KEYS_DDL = "CREATE TABLE IF NOT EXISTS keys (key_id TEXT PRIMARY KEY, time TEXT NOT NULL)"
_COLUMNS = ("project_id", "seq", "head", "sealed", "key_id", "mac", "path", "time")


class LedgerRolledBackError(BudgetError):
    """The file's ledger is behind (or beside) the one this computer last saw: no releases
    until the researcher confirms the rollback (``dpdesk ledger PROJECT --accept-rollback``)."""


@dataclass(frozen=True)
class Head:
    """One project's ledger head: ``seq`` releases, the last with hash ``head``."""

    project_id: str
    seq: int
    head: str
    sealed: bool = False
    key_id: str | None = None
    mac: str | None = None
    path: str = ""
    time: str = ""
    #: the whole chain as (seq, hash, prev_hash) and the budget rows, for the register of histories
    chain: tuple = field(default=(), compare=False, repr=False)
    budgets: tuple | None = field(default=None, compare=False, repr=False)
    #: the data released from, as (kind, value, dataset name) (:func:`history.data_of`)
    data: tuple = field(default=(), compare=False, repr=False)
    #: releases this computer made now, as (hash, events JSON, respondents' signature JSON)
    costs: tuple = field(default=(), compare=False, repr=False)


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def registry_path() -> Path:
    return ledger_folder() / FILE


def registry_path_exists() -> bool:
    """Whether this computer has a register yet (no register: nothing to compare with). Anything at its
    place counts, a dangling link or a folder included: :func:`read` then says it is not a register."""
    try:
        return os.path.lexists(registry_path())
    except (OSError, ProjectError):
        return False


class RegisterDamagedError(ProjectError):
    """The register of heads is there but is not a register dpdesk made: releases stop until it is
    restored or moved aside (its histories and spending could not be compared)."""


def _damaged(path: Path, why: str) -> RegisterDamagedError:
    return RegisterDamagedError(
        f"dpdesk's register of ledger heads {path} is damaged or not a register ({why}), so the ledgers and the "
        "spending of copies and of the same people recorded in it cannot be checked: releases stop until it is "
        "repaired. Restore it from a backup of your data folder; or move it aside, and a new, empty one is made "
        "at the next release (what the old one recorded is then no longer checked or counted on this computer).")


_HEADER = b"SQLite format 3\x00"


def _plausible(path: Path) -> None:
    """An existing register must be a regular file (not a link, folder, FIFO or device) holding an SQLite
    database: a register is made whole (:func:`_create`), so an empty or truncated one is damaged. (Read
    by :func:`_connect`, it must also hold a table of heads and, when this computer has a key and the
    register a table of keys, know that key: one emptied of its rows is damaged too.)"""
    try:
        info = os.lstat(path)
    except OSError as exc:
        raise _damaged(path, exc.strerror or str(exc)) from exc
    if stat.S_ISLNK(info.st_mode):
        raise _damaged(path, "it is a link to " + os.readlink(path))
    if not stat.S_ISREG(info.st_mode):
        raise _damaged(path, "it is a folder" if stat.S_ISDIR(info.st_mode) else "it is not a regular file")
    if info.st_size < 512 or info.st_size % 512:
        raise _damaged(path, f"it is {info.st_size} bytes long: empty or cut short")
    try:
        with open(path, "rb") as f:
            head = f.read(len(_HEADER))
    except OSError as exc:
        raise _damaged(path, exc.strerror or str(exc)) from exc
    if head != _HEADER:
        raise _damaged(path, "it is not an SQLite database")


def _create(path: Path) -> None:
    """Make the register whole under a temporary name, then link it into place (never over another)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        os.close(os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))  # SQLite's journals copy this mode
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            for ddl in (_DDL, _KEYS_DDL, *history.DDL):
                conn.execute(ddl)
            current = _current_key_id()
            if current:  # a register made again (moved aside) knows the key this computer seals with
                conn.execute("INSERT INTO keys(key_id, time) VALUES (?, ?)", (current, _now()))
        finally:
            conn.close()
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another process made it first
        except OSError:  # no hard links on this file system
            if not os.path.lexists(path):
                os.replace(tmp, path)
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _current_key_id() -> str | None:
    from dpdesk.project.ledger import key

    try:
        made = key.load(create=False)
    except ProjectError:  # a damaged key is said where it is used
        return None
    return made.id if made is not None else None


def _knows_keys(conn) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'keys'").fetchone() is not None


def _knows(conn, key_id: str) -> bool:
    return (conn.execute("SELECT 1 FROM keys WHERE key_id = ?", (key_id,)).fetchone() is not None or
            conn.execute("SELECT 1 FROM heads WHERE sealed = 1 AND key_id = ?", (key_id,)).fetchone() is not None)


def _implausible_without(conn) -> bool:
    """A register that does not know this computer's key is damaged when it holds no key and no head at all
    (emptied: a register is never empty once this computer sealed); one that only saw other computers' files
    before this computer's first seal, or knows another key (the key file replaced: said as a lost key), is not."""
    return (conn.execute("SELECT 1 FROM keys LIMIT 1").fetchone() is None and
            conn.execute("SELECT 1 FROM heads LIMIT 1").fetchone() is None)


def _connect(create: bool) -> sqlite3.Connection | None:
    path = registry_path()
    if not os.path.lexists(path):
        if not create:
            return None
        _create(path)
    _plausible(path)
    conn = sqlite3.connect(path, timeout=60, isolation_level=None)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA busy_timeout = 60000")
    try:
        if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'heads'").fetchone() is None:
            raise _damaged(path, "it has no table of heads")
        current = _current_key_id()
        if create:
            for ddl in (_DDL, _KEYS_DDL, *history.DDL):  # a register made by an older dpdesk gets the newer tables
                conn.execute(ddl)
            conn.execute("INSERT OR IGNORE INTO keys(key_id, time) SELECT DISTINCT key_id, time FROM heads "
                         "WHERE sealed = 1 AND key_id IS NOT NULL")
            if current:  # written after a check passed (or a seal was made): this computer's key
                conn.execute("INSERT OR IGNORE INTO keys(key_id, time) VALUES (?, ?)", (current, _now()))
        elif current and _knows_keys(conn) and not _knows(conn, current) and _implausible_without(conn):
            raise _damaged(path, "it is empty, although this computer has sealed ledgers with its key: it was "
                           "emptied or replaced")
    except (sqlite3.DatabaseError, RegisterDamagedError) as exc:
        conn.close()
        if isinstance(exc, RegisterDamagedError):
            raise
        raise _damaged(path, str(exc)) from exc
    return conn


def read(query, empty=None):
    """``query(connection)`` on the register, read only; ``empty`` when there is no register yet."""
    try:
        conn = _connect(create=False)
    except RegisterDamagedError:
        raise
    except ProjectError:  # no data folder (an unwritable home): nothing was remembered
        return empty
    except sqlite3.Error as exc:
        raise _damaged(registry_path(), str(exc)) from exc
    if conn is None:
        return empty
    try:
        try:
            return query(conn)
        finally:
            conn.close()
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            return empty
        raise ProjectError(f"dpdesk cannot read its register of ledger heads {registry_path()} ({exc}). "
                           "Close other dpdesk windows and try again; if the register is damaged, move it "
                           "aside (rollbacks of older copies are then not found until each project's next "
                           "release).") from exc
    except sqlite3.DatabaseError as exc:
        raise _damaged(registry_path(), str(exc)) from exc


def own_key_ids() -> set[str]:
    """The key ids this computer sealed with (heads it sealed itself), so a seal of its own lost key is
    told from another computer's. Empty without a register."""
    def query(conn):
        ids = {str(r[0]) for r in conn.execute("SELECT DISTINCT key_id FROM heads WHERE sealed = 1 AND key_id "
                                               "IS NOT NULL")}
        if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'keys'").fetchone():
            ids |= {str(r[0]) for r in conn.execute("SELECT key_id FROM keys")}
        return ids
    return read(query, set())


def last_seen(project_id: str) -> Head | None:
    """The head this computer last saw of ``project_id`` (None: never, or no registry)."""
    row = read(lambda conn: conn.execute("SELECT * FROM heads WHERE project_id = ?", (project_id,)).fetchone())
    return None if row is None else Head(**{k: row[k] for k in _COLUMNS} | {"sealed": bool(row["sealed"])})


def _write(head: Head, only_forward: bool) -> bool:
    values = (head.project_id, head.seq, head.head, int(head.sealed), head.key_id, head.mac, head.path,
              head.time or _now())
    sql = (f"INSERT INTO heads({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))}) "
           "ON CONFLICT(project_id) DO UPDATE SET seq = excluded.seq, head = excluded.head, "
           "sealed = excluded.sealed, key_id = excluded.key_id, mac = excluded.mac, path = excluded.path, "
           "time = excluded.time")
    if only_forward:  # never lower, never replace a different head of the same length
        sql += (" WHERE excluded.seq > heads.seq OR (excluded.seq = heads.seq AND excluded.head = heads.head"
                " AND excluded.sealed >= heads.sealed)")

    def write(conn):
        if head.seq:
            conn.execute(sql, values)
        if head.sealed and head.key_id:
            conn.execute("INSERT OR IGNORE INTO keys(key_id, time) VALUES (?, ?)", (head.key_id, values[-1]))
        history.record(conn, head, values[-1])
    return _in_transaction(write)


def _in_transaction(write) -> bool:
    """``write(connection)`` in one immediate transaction on the register (False if it could not be written)."""
    try:
        conn = _connect(create=True)
        try:
            conn.execute("BEGIN IMMEDIATE")
            write(conn)
            conn.execute("COMMIT")
        finally:
            conn.close()
    except (OSError, sqlite3.Error, ProjectError):
        return False
    return True


def remember(head: Head) -> bool:
    """Record ``head`` if it is ahead of the one remembered (False if it could not be written)."""
    return _write(head, only_forward=True)


def reset(head: Head) -> None:
    """Replace the remembered head (after the researcher confirmed a rollback)."""
    if not _write(head, only_forward=False):
        raise ProjectError(f"dpdesk could not update its register of ledger heads {registry_path()}. Check that "
                           "the folder is writable, then confirm again.")


def remember_people(costs, path: str) -> bool:
    """Record the people that earlier releases read (``costs``: (hash, events, signature JSON)), without a head:
    a linked dataset's signature computed again by a newer definition (issue 31), so that its past releases
    are charged to every file of the same people. Existing entries are kept (False if it could not be written)."""
    from dpdesk.project.ledger import same_people

    return _in_transaction(lambda conn: same_people.record(conn, costs, path, _now()))
