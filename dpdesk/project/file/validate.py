"""Check a file read-only before dpdesk uses it: a regular file, SQLite, dpdesk's, whole.

:func:`open_checked` refuses, with a :class:`ProjectError` that names the file and says
what to do, anything that is not a regular file (a folder, a named pipe, a device, a
symbolic link loop), a file that is not SQLite, is truncated or damaged (``PRAGMA
integrity_check``), is a SQLite database of another program, was written by a newer
dpdesk, or whose schema is not the one dpdesk makes (:mod:`.schema_check`, run before any
user table is read). It never writes to the file: it reads the header bytes, then opens
the database hardened and with ``mode=ro`` (and ``immutable=1`` when no journal exists, so
not even the ``-wal`` and ``-shm`` side files appear).
"""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
import struct
from pathlib import Path

from dpdesk.errors import ProjectError
from dpdesk.project.file import database, schema, schema_check

_SQLITE_MAGIC = b"SQLite format 3\x00"
#: SQLite's side files of a database: their contents are part of the database.
SIDE_FILES = ("-wal", "-journal", "-shm")


def check_file(path: Path, *, immutable_ok: bool = True) -> int:
    """The schema version of the dpdesk project at ``path``, or :class:`ProjectError`."""
    conn, version = open_checked(path, immutable=(immutable_ok and not has_journal(path)) or quiet_wal(path))
    conn.close()
    return version


def has_journal(path: Path) -> bool:
    return any(os.path.lexists(f"{path}{s}") for s in ("-wal", "-journal"))


def quiet_wal(path: Path) -> bool:
    """A WAL-mode file without a ``-wal`` file: nobody has it open, and a ``mode=ro`` reader
    would leave empty ``-wal`` and ``-shm`` files behind, so it is read ``immutable``."""
    return _read_header(path)[18:20] == b"\x02\x02" and not has_journal(path)


def open_checked(path: Path, *, immutable: bool = False) -> tuple[sqlite3.Connection, int]:
    """A hardened read-only connection to the checked project at ``path``, and its version."""
    header = _read_header(path)
    _check_header(path, header)
    for suffix in SIDE_FILES:  # SQLite opens these too
        require_regular_file(Path(f"{path}{suffix}"), missing_ok=True)
    conn = database.connect_read_only(path, immutable=immutable)
    try:
        return conn, check_database(path, conn)
    except sqlite3.Error as exc:
        conn.close()
        raise database.project_error(path, exc, conn) from exc
    except BaseException:
        conn.close()
        raise


def require_regular_file(path: Path, *, missing_ok: bool = False) -> None:
    """Refuse anything but a regular file (or a link to one): opening a pipe or device could hang."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if missing_ok and not os.path.lexists(path):
            return
        if os.path.lexists(path):
            raise ProjectError(f"{path} is a symbolic link to a file that does not exist. "
                               f"Open the project file itself.") from None
        raise ProjectError(
            f"There is no project file {path}. Check the name and folder, or create a new project."
        ) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ProjectError(f"{path} is a symbolic link that leads back to itself (a loop), not a "
                               f"project file. Open the project file itself.") from None
        raise ProjectError(f"Cannot read the project file {path}: {exc.strerror}. Check its permissions.") from exc
    if stat.S_ISDIR(st.st_mode):
        raise ProjectError(f"{path} is a folder, not a project file. Choose the .dpdesk file inside it.")
    if not stat.S_ISREG(st.st_mode):
        kind = ("a named pipe (FIFO)" if stat.S_ISFIFO(st.st_mode) else "a socket" if stat.S_ISSOCK(st.st_mode)
                else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else "not a regular file")
        raise ProjectError(f"{path} is {kind}, not a project file: dpdesk only opens regular files, and "
                           f"read nothing from it. Open the .dpdesk file itself.")


def _read_header(path: Path) -> bytes:
    require_regular_file(path)
    try:  # O_NONBLOCK: should the name become a pipe after the check, opening it does not hang
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise ProjectError(f"Cannot read the project file {path}: {exc.strerror}. Check its permissions.") from exc
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ProjectError(f"{path} is not a regular file, so it is not a project file. It was not read.")
        return os.pread(fd, 100, 0) if hasattr(os, "pread") else os.read(fd, 100)
    except OSError as exc:
        raise ProjectError(f"Cannot read the project file {path}: {exc.strerror}. Check its permissions.") from exc
    finally:
        os.close(fd)


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


def check_database(path: Path, conn: sqlite3.Connection) -> int:
    """The file format version after the header, schema, magic-row and integrity checks."""
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
    if version < 1:
        raise _damaged(path, f"its file format version is {version}")
    schema_check.check(conn, path, version)  # before any statement reads a user table
    magic = conn.execute("SELECT value FROM app WHERE key = 'magic'").fetchone()
    if not magic or magic[0] != schema.MAGIC:
        raise _foreign(path, "it has no dpdesk 'app' record")
    problems = [r[0] for r in conn.execute("PRAGMA integrity_check(5)").fetchall()]
    if problems != ["ok"]:
        raise _damaged(path, "; ".join(map(str, problems)))
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
