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
import sqlite3
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
    """Whether this computer has a register yet (no register: nothing to compare with)."""
    try:
        return registry_path().exists()
    except (OSError, ProjectError):
        return False


def _connect(create: bool) -> sqlite3.Connection | None:
    path = registry_path()
    if not path.exists():
        if not create:
            return None
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))  # SQLite's journals copy this mode
    conn = sqlite3.connect(path, timeout=60, isolation_level=None)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA busy_timeout = 60000")
    if create:
        for ddl in (_DDL, *history.DDL):
            conn.execute(ddl)
    return conn


def read(query, empty=None):
    """``query(connection)`` on the register, read only; ``empty`` when there is no register yet."""
    try:
        conn = _connect(create=False)
    except ProjectError:  # no data folder (an unwritable home): nothing was remembered
        return empty
    except sqlite3.Error as exc:
        raise ProjectError(f"dpdesk cannot open its register of ledger heads {registry_path()} ({exc}). Check "
                           "its permissions, or move it aside.") from exc
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
        raise ProjectError(f"dpdesk's register of ledger heads {registry_path()} is damaged ({exc}). Move it "
                           "aside; a new one is made at the next release.") from exc


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
    try:
        conn = _connect(create=True)
        try:
            conn.execute("BEGIN IMMEDIATE")
            if head.seq:
                conn.execute(sql, values)
            history.record(conn, head, values[-1])
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
