"""Check a file read-only before dpdesk writes anything to it.

:func:`check_file` refuses, with a :class:`ProjectError` that names the file and says
what to do, a file that is not SQLite, is truncated or damaged (``PRAGMA
integrity_check``), is a SQLite database of another program, or was written by a newer
dpdesk. It never writes to the file: it reads the header bytes, then opens the database
with ``mode=ro`` (and ``immutable=1`` when no journal exists, so not even the ``-wal`` and
``-shm`` side files appear).
"""

from __future__ import annotations

import os
import sqlite3
import struct
from pathlib import Path

from dpdesk.errors import ProjectError
from dpdesk.project.file import schema

_SQLITE_MAGIC = b"SQLite format 3\x00"


def check_file(path: Path, *, immutable_ok: bool = True) -> int:
    """The schema version of the dpdesk project at ``path``, or :class:`ProjectError`."""
    header = _read_header(path)
    _check_header(path, header)
    has_journal = any(Path(f"{path}{s}").exists() for s in ("-wal", "-journal"))
    query = "mode=ro&immutable=1" if immutable_ok and not has_journal else "mode=ro"
    try:
        conn = sqlite3.connect(f"{path.as_uri()}?{query}", uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        raise _damaged(path, str(exc)) from exc
    try:
        return _check_database(path, conn)
    except sqlite3.Error as exc:
        raise _damaged(path, str(exc)) from exc
    finally:
        conn.close()


def _read_header(path: Path) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(100)
    except FileNotFoundError:
        raise ProjectError(
            f"There is no project file {path}. Check the name and folder, or create a new project."
        ) from None
    except IsADirectoryError:
        raise ProjectError(f"{path} is a folder, not a project file. Choose the .dpdesk file inside it.") from None
    except OSError as exc:
        raise ProjectError(f"Cannot read the project file {path}: {exc.strerror}. Check its permissions.") from exc


def _check_header(path: Path, header: bytes) -> None:
    if not header.startswith(_SQLITE_MAGIC):
        what = "is empty (0 bytes)" if not header else "is not a SQLite database"
        raise ProjectError(
            f"The file {path} {what}, so it is not a dpdesk project (or it was damaged). "
            f"Open a .dpdesk project file, or restore this one from a backup. It was left unchanged."
        )
    if len(header) < 100:
        raise _damaged(path, "the file header is cut short")
    page_size = struct.unpack(">H", header[16:18])[0]
    page_size = 65536 if page_size == 1 else page_size
    n_pages = struct.unpack(">I", header[28:32])[0]
    change_counter, valid_for = struct.unpack(">I", header[24:28])[0], struct.unpack(">I", header[92:96])[0]
    size = os.path.getsize(path)
    if change_counter == valid_for and n_pages and size < n_pages * page_size:
        raise _damaged(path, f"the file is {size} bytes but should be {n_pages * page_size} (truncated)")


def _check_database(path: Path, conn: sqlite3.Connection) -> int:
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    if app_id != schema.APPLICATION_ID:
        raise _foreign(path, f"application id {app_id:#x}, expected {schema.APPLICATION_ID:#x}")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > schema.SCHEMA_VERSION:
        raise ProjectError(
            f"The project {path} was saved by a newer dpdesk (file format {version}; this dpdesk "
            f"reads formats up to {schema.SCHEMA_VERSION}). Update dpdesk to open it; the file was "
            f"left unchanged."
        )
    try:
        magic = conn.execute("SELECT value FROM app WHERE key = 'magic'").fetchone()
    except sqlite3.OperationalError:
        magic = None
    if not magic or magic[0] != schema.MAGIC:
        raise _foreign(path, "it has no dpdesk 'app' record")
    if version < 1:
        raise _damaged(path, f"its file format version is {version}")
    problems = [r[0] for r in conn.execute("PRAGMA integrity_check(5)").fetchall()]
    if problems != ["ok"]:
        raise _damaged(path, "; ".join(problems))
    return version


def _foreign(path: Path, detail: str) -> ProjectError:
    return ProjectError(
        f"The file {path} is a SQLite database but not a dpdesk project ({detail}). "
        f"Open a .dpdesk file, or create a new project and import the data. The file was left unchanged."
    )


def _damaged(path: Path, detail: str) -> ProjectError:
    return ProjectError(
        f"The project file {path} is damaged ({detail}). It was left unchanged. "
        f"Restore it from a backup copy (dpdesk keeps <file>.v<N>.bak copies before upgrades)."
    )
