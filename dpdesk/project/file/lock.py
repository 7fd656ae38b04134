"""One opener per project file: an exclusive ``flock`` on a sidecar ``<file>.lock``.

The operating system drops the lock when its process dies (even by SIGKILL), so a lock
left by a crashed dpdesk is simply taken over; the PID written in the file only serves
the message shown to the next opener. Two opens in the same process conflict too,
because each open has its own file description.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

from dpdesk.errors import ProjectError

try:  # POSIX
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None
    import msvcrt


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


class ProjectLock:
    """An exclusive lock on ``<path>.lock``; :meth:`release` gives it back."""

    def __init__(self, path: Path):
        self.path = lock_path(path)
        self._fd: int | None = None

    def acquire(self, project_path: Path) -> None:
        """Take the lock or raise :class:`ProjectError` naming the process that holds it."""
        for _ in range(10):
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise ProjectError(
                    f"Cannot open the project {project_path}: cannot create its lock file {self.path} "
                    f"({exc.strerror}). dpdesk needs permission to write in the project's folder; "
                    f"copy the project to a folder of yours."
                ) from exc
            if not try_lock(fd):
                holder = _read_holder(fd)
                os.close(fd)
                raise ProjectError(
                    f"The project {project_path} is already open{holder}. Close it there first "
                    f"(a project file can be edited by one window at a time)."
                )
            # The previous holder may have removed the lock file between our open and our
            # lock; then we hold a lock on a file nobody else can see. Try again.
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(self.path))
            except FileNotFoundError:
                same = False
            if same:
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()} {socket.gethostname()}\n".encode())
                self._fd = fd
                return
            os.close(fd)
        raise ProjectError(f"Could not lock {self.path}: it keeps being replaced. Try again.")

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            os.unlink(self.path)  # while still locked, so nobody locks a file we then remove
        except OSError:
            pass
        os.close(self._fd)  # closing the descriptor releases the lock
        self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None


def try_lock(fd: int) -> bool:
    """Take an exclusive lock on ``fd`` without waiting; False if another process holds it."""
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:  # pragma: no cover - Windows
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:
        return False
    return True


def _read_holder(fd: int) -> str:
    try:
        text = os.pread(fd, 200, 0).decode(errors="replace").split()
    except (OSError, AttributeError):
        return ""
    if len(text) >= 2 and text[0].isdigit():
        where = "this process" if int(text[0]) == os.getpid() else f"process {text[0]}"
        return f" in another window or program ({where} on {text[1]})"
    return " in another window or program"
