"""Where the single-instance socket lives, and who is at the other end of it (no Qt here).

The socket that a later start of dpdesk hands its project to must be reachable by this user
only, and found by no one else:

- **A private folder.** ``$XDG_RUNTIME_DIR/dpdesk`` (the per-user runtime folder that the
  login session makes, mode 0700) where there is one, else ``<user data folder>/run``
  (:mod:`dpdesk.project.people.user_data`), else, when that path is too long for a socket
  (about 100 bytes), ``<temp folder>/dpdesk-<uid>``. Each folder is checked before use with
  ``lstat``: a real folder (a symbolic link is refused), owned by this user, and closed to
  everyone else (a folder of ours that is open is closed to mode 0700; one owned by someone
  else is refused, and so is the runtime folder itself unless it is ours and 0700). No
  usable folder: no socket, and each start opens its own window.
- **Named for the data folder.** The socket's name is a hash of the data folder, so a dpdesk
  of the same user with another data folder (another HOME, ``DPDESK_SETTINGS_DIR``) has a
  socket of its own; the hand-off also sends the data folder and each end compares it.
- **The peer checked.** Each end asks the operating system who the other end is
  (:func:`peer_uid`: ``SO_PEERCRED`` on Linux, ``LOCAL_PEERCRED`` on macOS and the BSDs) and
  refuses anyone but this user. Windows: a named pipe whose name is a random token kept in
  the data folder (:func:`pipe_name`), made with Qt's ``UserAccessOption`` (a security
  descriptor that lets this user only connect); the pipe's creator is not checked there
  (see docs/guide/project-files.md).
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import socket
import stat
import struct
import sys
import tempfile
from pathlib import Path

#: Longest socket path used: sun_path holds 104-108 bytes, and Qt binds at ``<path>.XXXXXX/s`` first.
MAX_PATH = 90


def data_folder() -> str:
    """This user's data folder, resolved (what the two ends of a hand-off compare)."""
    from dpdesk.project.people.user_data import user_data_folder

    return str(user_data_folder().resolve())


def _uid() -> int:
    return os.getuid()


def private_folder(path: Path) -> Path | None:
    """``path`` if it is a real folder of this user's that only this user can open (created 0700;
    a folder of ours that others could open is closed first), else None."""
    try:
        try:
            path.mkdir(mode=0o700)
        except FileExistsError:
            pass
        info = os.lstat(path)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != _uid():
            return None  # a symbolic link, a file, or someone else's folder
        if info.st_mode & 0o077:
            os.chmod(path, 0o700)
            if os.lstat(path).st_mode & 0o077:
                return None
    except OSError:
        return None
    return path


def socket_name() -> str:
    """The socket's file name: private to the data folder."""
    return "dpdesk-" + hashlib.sha256(data_folder().encode("utf-8")).hexdigest()[:16]


def _parent_ok(parent: Path, closed: int) -> bool:
    """Whether ``parent`` is a real folder of this user's with none of the ``closed`` mode bits set."""
    try:
        info = os.lstat(parent)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == _uid() and not info.st_mode & closed


def socket_path() -> str | None:
    """The full path of the single-instance socket (the pipe's name on Windows, :func:`pipe_name`),
    None when no private folder can be had (see the module)."""
    if sys.platform == "win32":  # pragma: no cover - Windows
        return pipe_name(Path(data_folder()))
    name = socket_name()
    candidates = []  # (folder, whether its parent is fit to hold it)
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and Path(runtime).is_absolute():
        candidates.append((Path(runtime) / "dpdesk", lambda p: _parent_ok(p, 0o077)))  # the session's, 0700
    candidates.append((Path(data_folder()) / "run", lambda p: _parent_ok(p, 0o022)))  # ours, nobody else writes
    candidates.append((Path(tempfile.gettempdir()) / f"dpdesk-{_uid()}", lambda p: True))  # sticky /tmp
    for folder, fit in candidates:
        if len(str(folder / name).encode()) > MAX_PATH or not fit(folder.parent):
            continue
        if private_folder(folder) is not None:
            return str(folder / name)
    return None


def pipe_name(folder: Path) -> str | None:
    """Windows: a pipe name no one else can guess, ``dpdesk-<128 random bits>``, kept in
    ``<folder>/run/pipe-name`` (made once, exclusively; the data folder under %APPDATA% is the
    user's own). Pipe names are one namespace for every user of a computer: a predictable one
    could be taken first by someone else. None when the file cannot be read or made."""
    run = folder / "run"
    token_file = run / "pipe-name"
    try:
        run.mkdir(mode=0o700, exist_ok=True)
        try:
            fd = os.open(token_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            token = token_file.read_text(encoding="ascii", errors="replace").strip()
        else:
            token = secrets.token_hex(16)
            with os.fdopen(fd, "w", encoding="ascii") as out:
                out.write(token + "\n")
    except OSError:
        return None
    return f"dpdesk-{token}" if re.fullmatch(r"[0-9a-f]{32}", token) else None


def why_no_socket() -> str:
    """In words, for a start that found no private folder for its socket."""
    return ("dpdesk: no private folder for its single-instance socket (the runtime folder, the data folder's "
            "'run' folder and the temporary one are each missing, someone else's, a link, or open to others), "
            "so this start opens a window of its own and does not hand over to one already running.")


def peer_uid(fd: int) -> int | None:
    """The user id of the process at the other end of the Unix socket ``fd``, None if unknown."""
    try:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM, 0, os.dup(fd))
    except (OSError, AttributeError, ValueError):
        return None
    try:
        if hasattr(socket, "SO_PEERCRED"):  # Linux: struct ucred {pid, uid, gid}
            size = struct.calcsize("3i")
            return struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, size))[1]
        if sys.platform == "darwin" or "bsd" in sys.platform:  # LOCAL_PEERCRED: struct xucred {version, uid, ...}
            data = sock.getsockopt(0, 0x001, 76)  # SOL_LOCAL, LOCAL_PEERCRED
            return struct.unpack_from("=II", data)[1]
    except (OSError, struct.error):
        return None
    finally:
        sock.close()
    return None


def same_user(fd: int) -> bool:
    """Whether the other end of ``fd`` is this user (Windows: the pipe's security descriptor
    already lets this user only connect, see the module)."""
    if sys.platform == "win32":
        return True
    return peer_uid(fd) == _uid()
